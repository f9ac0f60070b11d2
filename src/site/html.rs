//! HTML as text: escaping, a small tag scanner, entities, plain text, URLs and media types.
//!
//! Several stages read or write HTML without a DOM: the search index cuts rendered pages into
//! plain text, the handout rewrites every URL a page holds, and the directives write SVG and
//! tables. They share the helpers here, so that there is one rule for each question (what to
//! escape, where a tag ends, whether a URL leaves the book) and the stages cannot disagree.
//!
//! The scanner is deliberately small: it finds tags and their attributes in one linear pass,
//! lets quoted attribute values hold `>`, and treats a `<` that does not open a tag as text.
//! It is made for nimbook's own output and the HTML that authors write into lessons, not for
//! arbitrary documents of the web.

use std::ops::Range;
use std::path::Path;

/// Escapes text for HTML and XML, in element content and in quoted attribute values alike:
/// `<`, `>`, `&`, `"` and `'` become references.
pub(super) fn escape(s: &str) -> String {
    crate::diag::replace_chars(s, |c| match c {
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '&' => Some("&amp;"),
        '"' => Some("&quot;"),
        '\'' => Some("&#39;"),
        _ => None,
    })
}

// ---------------------------------------------------------------------------------------------
// Tags and attributes

/// One tag of an HTML document, as found by [`scan_tag`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TagToken<'a> {
    /// The tag name, lower-cased ASCII.
    pub name: String,
    /// `</name>`.
    pub closing: bool,
    /// The text between the name and the closing `>` (attributes, possibly a final `/`).
    pub attrs: &'a str,
    /// The byte just past the `>`.
    pub end: usize,
}

/// Reads the tag that starts at `html[start]` (a `<`). Quoted attribute values may hold `>`.
/// Returns `None` when the `<` does not start a tag (then it is text).
pub(crate) fn scan_tag(html: &str, start: usize) -> Option<TagToken<'_>> {
    let bytes = html.as_bytes();
    let mut i = start + 1;
    let closing = bytes.get(i) == Some(&b'/');
    if closing {
        i += 1;
    }
    let name_start = i;
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'-') {
        i += 1;
    }
    if i == name_start || !bytes[name_start].is_ascii_alphabetic() {
        return None;
    }
    let name = html[name_start..i].to_ascii_lowercase();
    let attrs_start = i;
    let mut quote = None;
    while i < bytes.len() {
        match (quote, bytes[i]) {
            (None, b'"' | b'\'') => quote = Some(bytes[i]),
            (Some(q), c) if c == q => quote = None,
            (None, b'>') => {
                return Some(TagToken {
                    name,
                    closing,
                    attrs: &html[attrs_start..i],
                    end: i + 1,
                })
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Every `id` of the tags in `html`, in order, entities decoded: the anchors a link into the
/// page may name (headings, footnotes, raw `<a id>` tags).
pub(crate) fn ids(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(lt) = html[i..].find('<').map(|p| i + p) {
        match scan_tag(html, lt) {
            Some(tag) => {
                if !tag.closing {
                    if let Some(id) = attr(tag.attrs, "id") {
                        out.push(decode_attr(id));
                    }
                }
                i = tag.end;
            }
            None => i = lt + 1,
        }
    }
    out
}

/// The byte just past the end tag that closes an element `name` whose start tag ends at
/// `from`, counting elements of the same name nested inside it.
pub(crate) fn element_end(html: &str, from: usize, name: &str) -> usize {
    let mut depth = 1usize;
    let mut i = from;
    while let Some(lt) = html[i..].find('<').map(|p| i + p) {
        match scan_tag(html, lt) {
            Some(t) if t.name == name && !t.attrs.trim_end().ends_with('/') => {
                i = t.end;
                if t.closing {
                    depth -= 1;
                    if depth == 0 {
                        return i;
                    }
                } else {
                    depth += 1;
                }
            }
            Some(t) => i = t.end,
            None => i = lt + 1,
        }
    }
    html.len()
}

/// The raw value of attribute `name` in a tag's attribute text, entities not decoded.
pub(crate) fn attr<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    attr_span(attrs, name).map(|r| &attrs[r])
}

/// Where the value of attribute `name` lies in a tag's attribute text.
pub(crate) fn attr_span(attrs: &str, name: &str) -> Option<Range<usize>> {
    attributes(attrs)
        .into_iter()
        .find(|(k, _)| attrs[k.clone()].eq_ignore_ascii_case(name))
        .map(|(k, v)| v.unwrap_or(k.end..k.end))
}

/// Every attribute of a tag's attribute text: the name's byte range and the raw value's, if
/// it has one (quotes excluded).
pub(crate) fn attributes(attrs: &str) -> Vec<Attribute> {
    let bytes = attrs.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        let key_start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !b"=>/".contains(&bytes[i]) {
            i += 1;
        }
        let key = key_start..i;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = None;
        if bytes.get(i) == Some(&b'=') {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            match bytes.get(i) {
                Some(&q @ (b'"' | b'\'')) => {
                    let v_start = i + 1;
                    let v_end = attrs[v_start..]
                        .find(q as char)
                        .map_or(attrs.len(), |e| v_start + e);
                    value = Some(v_start..v_end);
                    i = (v_end + 1).min(attrs.len());
                }
                _ => {
                    let v_start = i;
                    while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    value = Some(v_start..i);
                }
            }
        }
        if !key.is_empty() {
            out.push((key, value));
        } else if i == key_start {
            i += 1;
        }
    }
    out
}

/// An attribute of a tag: the name's byte range and the raw value's (quotes excluded), if it
/// has one, within the tag's attribute text.
pub(crate) type Attribute = (Range<usize>, Option<Range<usize>>);

/// The byte range of a whole attribute (`name="value"`, quotes included) in `attrs`.
pub(crate) fn attribute_span(attrs: &str, (key, value): &Attribute) -> Range<usize> {
    match value {
        Some(v) if v.end < attrs.len() && v.start > 0 => {
            let quote = attrs.as_bytes()[v.start - 1];
            if matches!(quote, b'"' | b'\'') && attrs.as_bytes()[v.end] == quote {
                key.start..v.end + 1
            } else {
                key.start..v.end
            }
        }
        Some(v) => key.start..v.end,
        None => key.clone(),
    }
}

/// The first position at or after `from` where `needle` (ASCII) occurs, ignoring ASCII case.
pub(crate) fn find_ascii_ci(hay: &str, from: usize, needle: &str) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    if n.is_empty() || h.len() < n.len() {
        return None;
    }
    (from..=h.len() - n.len()).find(|&k| h[k..k + n.len()].eq_ignore_ascii_case(n))
}

// ---------------------------------------------------------------------------------------------
// Entities

/// Decodes the entity at `html[start]` (a `&`): returns the text and the byte past it, or
/// `None` when it is not a well-formed entity (then the `&` is literal).
pub(crate) fn decode_entity(html: &str, start: usize) -> Option<(String, usize)> {
    let rest = &html[start + 1..];
    let semi = rest.bytes().take(12).position(|b| b == b';')?;
    let name = &rest[..semi];
    let end = start + 1 + semi + 1;
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        _ => {
            let code =
                if let Some(hex) = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                    u32::from_str_radix(hex, 16).ok()?
                } else {
                    name.strip_prefix('#')?.parse::<u32>().ok()?
                };
            char::from_u32(code)?
        }
    };
    Some((c.to_string(), end))
}

/// Decodes the entities of an attribute value.
pub(crate) fn decode_attr(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut i = 0;
    let mut start = 0;
    while let Some(off) = value[i..].find('&') {
        let at = i + off;
        out.push_str(&value[start..at]);
        match decode_entity(value, at) {
            Some((s, end)) => {
                out.push_str(&s);
                i = end;
            }
            None => {
                out.push('&');
                i = at + 1;
            }
        }
        start = i;
    }
    out.push_str(&value[start..]);
    out
}

// ---------------------------------------------------------------------------------------------
// URLs

/// A relative path with `/` separators, as used in URLs and link checks.
pub(super) fn url_path(p: &Path) -> String {
    p.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether a URL leaves the book: it names another host (`//host/…`) or has a scheme
/// (`https:`, `mailto:`, `data:`). A scheme is a letter followed by letters, digits, `+`, `-`
/// and `.` (RFC 3986), so `a/b.html#c:d` is a relative reference.
pub(super) fn is_external(url: &str) -> bool {
    url.starts_with("//")
        || url.split_once(':').is_some_and(|(scheme, _)| {
            scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        })
}

/// The HTML of the page at `page` (a URL path from the site root) with its relative `href`
/// and `src` URLs rewritten to start from the site root, so that it can be shown on a page at
/// the root (`print.html`). Fragments (`#x`), absolute paths and external URLs are kept.
pub(super) fn rebase_links(html: &str, page: &str) -> String {
    if !page.contains('/') {
        return html.to_string();
    }
    let mut out = String::with_capacity(html.len());
    let mut copied = 0;
    let mut i = 0;
    while let Some(lt) = html[i..].find('<').map(|p| i + p) {
        let Some(tag) = scan_tag(html, lt) else {
            i = lt + 1;
            continue;
        };
        let attrs_start = tag.end - 1 - tag.attrs.len();
        let mut spans: Vec<_> = ["href", "src"]
            .into_iter()
            .filter_map(|name| attr_span(tag.attrs, name))
            .collect();
        spans.sort_by_key(|r| r.start);
        for span in spans {
            let value = &tag.attrs[span.clone()];
            if value.is_empty()
                || value.starts_with('#')
                || value.starts_with('/')
                || is_external(value)
            {
                continue;
            }
            let split = value.find(['#', '?']).unwrap_or(value.len());
            let Some(path) = resolve_relative(page, &value[..split]) else {
                continue;
            };
            out.push_str(&html[copied..attrs_start + span.start]);
            out.push_str(&path);
            out.push_str(&value[split..]);
            copied = attrs_start + span.end;
        }
        i = tag.end;
    }
    out.push_str(&html[copied..]);
    out
}

/// Resolves the relative URL path `url` against the folder of the page at `page` (both
/// relative to the same root, `/` separators); `None` if it climbs out of the root.
pub(super) fn resolve_relative(page: &str, url: &str) -> Option<String> {
    let path = join_relative(page, url);
    (!climbs_out(&path)).then_some(path)
}

/// Whether a path that [`join_relative`] made leads above the root.
pub(super) fn climbs_out(path: &str) -> bool {
    path.split('/').next() == Some("..")
}

/// The path of the relative URL path `url` from the folder of the page at `page`, relative to
/// the root, with a leading `../` for each level it climbs above the root (`../img/a.png` for
/// `../../img/a.png` from `part/a.md`).
pub(super) fn join_relative(page: &str, url: &str) -> String {
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for seg in url.split('/') {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// Decodes `%XX` escapes. `None` for a malformed escape or bytes that are not UTF-8.
pub(super) fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

// ---------------------------------------------------------------------------------------------
// Media types

/// The media type of a file, by extension, without parameters (`text/css`, `image/svg+xml`);
/// `application/octet-stream` when nimbook does not know it.
pub(super) fn media_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "js" | "mjs" => "text/javascript",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain",
        _ => "application/octet-stream",
    }
}

/// The HTTP `Content-Type` of a file: its [`media_type`], with `charset=utf-8` for text.
pub(super) fn content_type(path: &Path) -> &'static str {
    match media_type(path) {
        "text/html" => "text/html; charset=utf-8",
        "text/css" => "text/css; charset=utf-8",
        "text/javascript" => "text/javascript; charset=utf-8",
        "text/plain" => "text/plain; charset=utf-8",
        other => other,
    }
}

/// A heading id as mdBook makes it: letters, digits, `_` and `-` kept (lower-cased),
/// whitespace made `-`, everything else dropped.
pub(crate) fn mdbook_id(title: &str) -> String {
    title
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A URL fragment from heading text: lower case, words joined by `-`.
pub(crate) fn slug(title: &str) -> String {
    let mut s = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if (c.is_whitespace() || c == '-' || c == '_') && !s.ends_with('-') && !s.is_empty()
        {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() {
        "section".into()
    } else {
        s
    }
}

// ---------------------------------------------------------------------------------------------
// HTML as plain text

/// Elements whose end starts a new line of text.
const BLOCKS: [&str; 13] = [
    "div",
    "p",
    "tr",
    "li",
    "br",
    "caption",
    "figcaption",
    "h1",
    "h2",
    "h3",
    "h4",
    "table",
    "figure",
];

/// The words of an HTML fragment, line by line: a formula is its `alttext`, an image or drawing
/// its label, table cells are separated by ` | ` (so a table keeps its rows), blocks end lines;
/// scripts, styles and form controls are left out. For a reader that shows no HTML: a chapter
/// for mdBook's other renderers, an editor's hover.
pub(crate) fn plain_text(html: &str) -> String {
    let mut out = String::new();
    let mut i = 0;
    while let Some(lt) = html[i..].find('<').map(|p| i + p) {
        push_text(&mut out, &html[i..lt]);
        let Some(tag) = scan_tag(html, lt) else {
            push_text(&mut out, "<");
            i = lt + 1;
            continue;
        };
        i = tag.end;
        let name = tag.name.as_str();
        if tag.closing {
            if BLOCKS.contains(&name) {
                new_line(&mut out);
            } else if name == "td" || name == "th" {
                out.push_str(" | ");
            }
            continue;
        }
        let skipped = match name {
            "math" => Some(attr(tag.attrs, "alttext").map(decode_attr)),
            "svg" => Some(attr(tag.attrs, "aria-label").map(decode_attr)),
            "script" | "style" | "button" | "select" | "textarea" | "template" => Some(None),
            _ => None,
        };
        if let Some(words) = skipped {
            if let Some(words) = words {
                out.push_str(&words);
                out.push(' ');
            }
            i = element_end(html, i, name);
        } else if name == "br" {
            new_line(&mut out);
        }
    }
    push_text(&mut out, &html[i..]);
    let lines: Vec<&str> = out
        .lines()
        .map(|l| l.trim().trim_end_matches(" |").trim())
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("\n")
}

fn new_line(out: &mut String) {
    if !out.ends_with('\n') {
        out.push('\n');
    }
}

/// Text between tags, entities decoded and white space collapsed.
fn push_text(out: &mut String, text: &str) {
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let Some(c) = rest.chars().next() else { break };
        if c == '&' {
            if let Some((s, end)) = decode_entity(text, i) {
                out.push_str(&s);
                i = end;
                continue;
            }
        }
        if c.is_whitespace() {
            if !out.ends_with([' ', '\n']) && !out.is_empty() {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
        i += c.len_utf8();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_the_id_attributes_of_tags() {
        assert_eq!(
            super::ids("<h1 id=\"a\">x</h1><a id='raw'></a><p>grid=3 id=\"no\" uuid=\"no\"</p><b data-id=\"no\" id=\"x&amp;y\">"),
            vec!["a", "raw", "x&y"]
        );
    }

    #[test]
    fn links_of_a_page_in_a_folder_are_rebased_to_the_root() {
        let html = r##"<a href="b.html#x">b</a> <img alt="" src="../i.png"> <a href="#y">y</a> <a href="https://e.org/a">e</a> <a href="/abs">a</a>"##;
        assert_eq!(
            super::rebase_links(html, "part/a.html"),
            r##"<a href="part/b.html#x">b</a> <img alt="" src="i.png"> <a href="#y">y</a> <a href="https://e.org/a">e</a> <a href="/abs">a</a>"##
        );
        assert_eq!(super::rebase_links(html, "a.html"), html);
        let both = r#"<x src="s.png" href="h.html">"#;
        assert_eq!(
            super::rebase_links(both, "d/p.html"),
            r#"<x src="d/s.png" href="d/h.html">"#
        );
    }

    use super::*;

    #[test]
    fn escaping_covers_text_and_both_attribute_quotes() {
        assert_eq!(
            escape("a<b>&\"c\"'d'"),
            "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;"
        );
    }

    #[test]
    fn attributes_are_found_by_name_whatever_the_quoting() {
        let attrs = " class=\"x\" data-id='q' id=plain href = \"#h\" checked";
        assert_eq!(attr(attrs, "id"), Some("plain"));
        assert_eq!(attr(attrs, "href"), Some("#h"));
        assert_eq!(attr(attrs, "data-id"), Some("q"));
        assert_eq!(attr(attrs, "checked"), Some(""));
        assert_eq!(attr(attrs, "missing"), None);
        let spans: Vec<&str> = attributes(attrs)
            .iter()
            .map(|a| &attrs[attribute_span(attrs, a)])
            .collect();
        assert_eq!(
            spans,
            [
                "class=\"x\"",
                "data-id='q'",
                "id=plain",
                "href = \"#h\"",
                "checked"
            ]
        );
    }

    #[test]
    fn entities_decode_in_attribute_values() {
        assert_eq!(
            decode_attr("a &amp; b &lt; &#x2295; &bogus; &"),
            "a & b < ⊕ &bogus; &"
        );
    }

    #[test]
    fn links_resolve_relative_to_the_page() {
        assert_eq!(
            resolve_relative("part/a.html", "../b.html").as_deref(),
            Some("b.html")
        );
        assert_eq!(
            resolve_relative("part/a.html", "./c.html").as_deref(),
            Some("part/c.html")
        );
        assert_eq!(resolve_relative("a.html", "../b.html"), None);
        assert_eq!(resolve_relative("a.html", ".."), None);
        // Above the root, each level climbed is kept.
        assert_eq!(
            join_relative("part/a.md", "../../img/x.png"),
            "../img/x.png"
        );
        assert_eq!(join_relative("a.md", "../../x/../y.png"), "../../y.png");
        assert_eq!(
            join_relative("a.md", "../../etc/passwd"),
            "../../etc/passwd"
        );
    }

    #[test]
    fn external_urls_have_a_scheme_or_a_host() {
        for url in ["https://x", "//x", "mailto:a@b", "data:image/png;base64,AA"] {
            assert!(is_external(url), "{url}");
        }
        for url in ["a/b.html#c:d", "b.html", "#x", "1:2", "", "a b:c"] {
            assert!(!is_external(url), "{url}");
        }
    }

    #[test]
    fn percent_decoding_is_strict() {
        assert_eq!(percent_decode("a%20b%2F").as_deref(), Some("a b/"));
        assert_eq!(percent_decode("%e2%8a%95").as_deref(), Some("⊕"));
        assert_eq!(percent_decode("%"), None);
        assert_eq!(percent_decode("%g0"), None);
        assert_eq!(percent_decode("%c3"), None);
    }

    #[test]
    fn content_types_follow_the_extension() {
        for (file, ty) in [
            ("a.html", "text/html; charset=utf-8"),
            ("a.css", "text/css; charset=utf-8"),
            ("a.js", "text/javascript; charset=utf-8"),
            ("a.svg", "image/svg+xml"),
            ("fonts/x.woff2", "font/woff2"),
            ("a.PNG", "image/png"),
            ("noext", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Path::new(file)), ty, "{file}");
        }
        assert_eq!(media_type(Path::new("a.css")), "text/css");
    }
}
