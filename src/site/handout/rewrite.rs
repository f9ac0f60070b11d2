//! The rewrites that make a lesson's page part of one file: every id prefixed with its
//! lesson's key, links between included lessons made in-file anchors, and images, fonts and
//! stylesheets inlined as data URIs.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Component, Path, PathBuf};

use base64::Engine;

use super::{handout_id, warning};
use std::sync::Arc;

use crate::diag::{Code, Diagnostic, SourceFile};
use crate::site::html::{
    attribute_span, attributes, decode_attr, escape, find_ascii_ci, is_external, media_type,
    percent_decode, resolve_relative, scan_tag, Attribute,
};
use crate::site::load::confine::{Reader, Refusal};
use crate::site::render::templates::BINARY_ASSETS;

/// A `data:` URI holding a file's bytes, typed by its extension.
fn data_uri(path: &Path, bytes: &[u8]) -> String {
    format!(
        "data:{};base64,{}",
        media_type(path),
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// What becomes of one `url(…)` in CSS.
enum CssUrl {
    /// Left as written.
    Keep,
    /// Replaced by this `url(…)`.
    Set(String),
    /// Emptied (`url("")`): a resource the handout cannot hold.
    Drop,
}

/// `css` with every `url(…)` passed through `rewrite`, which sees the target unquoted.
fn rewrite_css_urls(css: &str, mut rewrite: impl FnMut(&str) -> CssUrl) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(at) = rest.find("url(") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 4..];
        let Some(close) = after.find(')') else {
            out.push_str(&rest[at..]);
            return out;
        };
        let target = after[..close]
            .trim()
            .trim_matches(|c| c == '"' || c == '\'');
        match rewrite(target) {
            CssUrl::Keep => out.push_str(&rest[at..at + 4 + close + 1]),
            CssUrl::Set(url) => out.push_str(&url),
            CssUrl::Drop => out.push_str("url(\"\")"),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A CSS text with every `url(...)` that names one of nimbook's binary assets (the math font)
/// replaced by a `data:` URI, and every remote one removed.
pub(super) fn inline_css_urls(css: &str, warnings: &mut Vec<Diagnostic>) -> String {
    rewrite_css_urls(css, |target| {
        let asset = BINARY_ASSETS
            .iter()
            .find(|(name, _)| target.trim_start_matches("./") == *name);
        if let Some((name, bytes)) = asset {
            return CssUrl::Set(format!("url(\"{}\")", data_uri(Path::new(name), bytes)));
        }
        if target.starts_with("data:") {
            return CssUrl::Keep;
        }
        let why = if is_external(target) {
            "it is not local"
        } else {
            "nimbook cannot find it"
        };
        warnings.push(warning(format!(
            "the handout leaves out the stylesheet resource {target}: {why}"
        )));
        CssUrl::Drop
    })
}

/// Resolves `rel` (a relative URL path) against `base`, as a path: whether it may be read is
/// for the confined reader to say.
fn local_file(base: &Path, rel: &str) -> Option<PathBuf> {
    let rel = rel.split(['?', '#']).next().unwrap_or("");
    let rel = percent_decode(rel)?;
    let mut path = base.to_path_buf();
    for c in Path::new(&rel).components() {
        match c {
            Component::Normal(n) => path.push(n),
            Component::ParentDir => path.push(".."),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(path)
}

/// Attributes whose value is a list of ids of the same page (ARIA relations, labels, table
/// headers, form controls).
const ID_LISTS: &[&str] = &[
    "for",
    "headers",
    "list",
    "form",
    "aria-activedescendant",
    "aria-controls",
    "aria-describedby",
    "aria-details",
    "aria-errormessage",
    "aria-flowto",
    "aria-labelledby",
    "aria-owns",
];

/// What becomes of one attribute of a lesson's HTML in the handout.
#[derive(Debug, PartialEq, Eq)]
enum Rewrite {
    /// Left as written.
    Keep,
    /// The attribute gets this (unescaped) value.
    Set(String),
    /// The attribute is left out.
    Drop,
    /// A link to a page that is not in the handout: the `href` gives way to a title that says
    /// so.
    NotHere,
}

/// The rewrite of one lesson's HTML for the handout.
pub(super) struct PageRewrite<'a> {
    /// The lesson's key, the prefix of its ids.
    pub(super) key: &'a str,
    /// The lesson's page URL in the site.
    pub(super) url: &'a str,
    /// The key of every lesson in the handout, by page URL.
    pub(super) included: &'a BTreeMap<&'a str, &'a str>,
    /// The folder of the lesson's source, which its relative resources are resolved against.
    pub(super) source_dir: &'a Path,
    /// The book's confined reader, the only way a resource is read.
    pub(super) files: &'a Reader,
    /// The lesson's source file, where a refused resource is reported.
    pub(super) source: Option<&'a Arc<SourceFile>>,
}

impl PageRewrite<'_> {
    /// The lesson's HTML with ids prefixed, every reference to an id or a URL rewritten to
    /// match, and resources inlined.
    pub(super) fn rewrite(&self, html: &str, warnings: &mut Vec<Diagnostic>) -> String {
        let mut out = String::with_capacity(html.len() + html.len() / 8);
        let mut i = 0;
        let mut copied = 0;
        while let Some(off) = html[i..].find('<') {
            let at = i + off;
            if html[at..].starts_with("<!--") {
                i = html[at..].find("-->").map_or(html.len(), |e| at + e + 3);
                continue;
            }
            let Some(tag) = scan_tag(html, at) else {
                i = at + 1;
                continue;
            };
            i = tag.end;
            if tag.closing {
                continue;
            }
            let attrs_at = tag.end - 1 - tag.attrs.len();
            if let Some(replacement) = self.rewrite_tag(
                &html[at..attrs_at],
                &tag.name,
                tag.attrs,
                &html[tag.end - 1..tag.end],
                warnings,
            ) {
                out.push_str(&html[copied..at]);
                out.push_str(&replacement);
                copied = tag.end;
            }
            if matches!(tag.name.as_str(), "script" | "style") {
                // Raw text: nothing inside is a tag, but a style sheet may hold `url(…)`.
                let close = format!("</{}", tag.name);
                let end = find_ascii_ci(html, i, &close).unwrap_or(html.len());
                let text = &html[i..end];
                if tag.name == "style" && text.contains("url(") {
                    out.push_str(&html[copied..i]);
                    out.push_str(&self.css(text, warnings));
                    copied = end;
                }
                i = end;
            }
        }
        out.push_str(&html[copied..]);
        out
    }

    /// The rewritten tag, or `None` to keep it as it is. `open` is the tag up to its
    /// attributes (which end with the `/` of a self-closing tag) and `end` its `>`; attributes
    /// that change are replaced where they stand, so the rest of the tag keeps its bytes.
    fn rewrite_tag(
        &self,
        open: &str,
        name: &str,
        attrs: &str,
        end: &str,
        warnings: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        let list = attributes(attrs);
        if name == "img" {
            if let Some(svg) = self.inline_svg(attrs, &list, warnings) {
                return Some(svg);
            }
        }
        let mut edits: Vec<(Range<usize>, String)> = Vec::new();
        for attribute in &list {
            let Some(v) = &attribute.1 else { continue };
            let key = &attrs[attribute.0.clone()];
            let value = decode_attr(&attrs[v.clone()]);
            let span = attribute_span(attrs, attribute);
            match self.attribute(name, &key.to_ascii_lowercase(), &value, warnings) {
                Rewrite::Keep => {}
                Rewrite::Set(new) if new == value => {}
                Rewrite::Set(new) => edits.push((span, format!("{key}=\"{}\"", escape(&new)))),
                Rewrite::Drop => {
                    // With the white space before it.
                    let start = attrs[..span.start].trim_end().len();
                    edits.push((start..span.end, String::new()));
                }
                Rewrite::NotHere => edits.push((span, "title=\"not in this handout\"".into())),
            }
        }
        if edits.is_empty() {
            return None;
        }
        let mut tag = String::with_capacity(open.len() + attrs.len() + end.len() + 32);
        tag.push_str(open);
        let mut last = 0;
        for (range, text) in edits {
            tag.push_str(&attrs[last..range.start]);
            tag.push_str(&text);
            last = range.end;
        }
        tag.push_str(&attrs[last..]);
        tag.push_str(end);
        Some(tag)
    }

    /// The one place that knows which attributes hold an id, a reference to one, or a URL, and
    /// what each becomes in the handout: ids get the lesson's prefix, and so do references to
    /// them (`#x`, `url(#x)`, id lists); links to lessons in the handout become in-file
    /// anchors; local resources become `data:` URIs.
    fn attribute(
        &self,
        tag: &str,
        key: &str,
        value: &str,
        warnings: &mut Vec<Diagnostic>,
    ) -> Rewrite {
        match key {
            "id" => Rewrite::Set(handout_id(self.key, value)),
            "href" | "xlink:href" if tag == "link" => {
                // A stylesheet or icon link in a lesson would load a file: leave it out.
                warnings.push(warning(format!(
                    "the handout leaves out <link href=\"{value}\"> from {}",
                    self.url
                )));
                Rewrite::Drop
            }
            // SVG's <image> and <feImage> load what `href` names.
            "href" | "xlink:href"
                if matches!(tag, "image" | "feimage") && !value.starts_with('#') =>
            {
                self.resource(value, warnings)
                    .map_or(Rewrite::Drop, Rewrite::Set)
            }
            "href" | "xlink:href" => self.link(value).map_or(Rewrite::NotHere, Rewrite::Set),
            "usemap" => match value.strip_prefix('#') {
                Some(frag) => Rewrite::Set(format!("#{}", self.anchor(frag))),
                None => Rewrite::Keep,
            },
            "src" | "poster" => self
                .resource(value, warnings)
                .map_or(Rewrite::Drop, Rewrite::Set),
            "srcset" => self
                .srcset(value, warnings)
                .map_or(Rewrite::Drop, Rewrite::Set),
            "style" => Rewrite::Set(self.css(value, warnings)),
            k if ID_LISTS.contains(&k) => Rewrite::Set(
                value
                    .split_whitespace()
                    .map(|id| handout_id(self.key, id))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            // Presentation attributes such as marker-end, fill, clip-path, mask and filter
            // name other elements as `url(#id)`.
            _ if value.contains("url(") => Rewrite::Set(self.css(value, warnings)),
            _ => Rewrite::Keep,
        }
    }

    /// The in-file anchor of fragment `frag` of this lesson (the lesson itself when empty).
    fn anchor(&self, frag: &str) -> String {
        if frag.is_empty() {
            self.key.to_string()
        } else {
            handout_id(self.key, frag)
        }
    }

    /// CSS of the lesson (a `style` attribute or element, a presentation attribute) with every
    /// `url(#id)` pointing at the prefixed id and every local resource inlined.
    fn css(&self, css: &str, warnings: &mut Vec<Diagnostic>) -> String {
        rewrite_css_urls(css, |target| {
            if let Some(frag) = target.strip_prefix('#') {
                return CssUrl::Set(format!("url(#{})", self.anchor(frag)));
            }
            if target.starts_with("data:") {
                return CssUrl::Keep;
            }
            match self.resource(target, warnings) {
                Some(uri) => CssUrl::Set(format!("url(\"{uri}\")")),
                None => CssUrl::Drop,
            }
        })
    }

    /// The new `href`, or `None` to drop it (a page that is not in the handout).
    fn link(&self, href: &str) -> Option<String> {
        if let Some(frag) = href.strip_prefix('#') {
            return Some(format!("#{}", self.anchor(frag)));
        }
        if is_external(href) {
            // A link to read elsewhere, not a resource the handout loads.
            return Some(href.to_string());
        }
        let (path, frag) = match href.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (href, None),
        };
        let path = path.split('?').next().unwrap_or("");
        // A link that climbs out of the site leads nowhere from the handout.
        let mut page = resolve_relative(self.url, path)?;
        // Links written to the markdown source (`other.md`) mean the page.
        if let Some(stem) = page.strip_suffix(".md") {
            page = format!("{stem}.html");
        }
        match (self.included.get(page.as_str()), frag) {
            (Some(key), Some(f)) if !f.is_empty() => Some(format!("#{}", handout_id(key, f))),
            (Some(key), _) => Some(format!("#{key}")),
            // Another page of the book or of the site (index.html), or some other file: none
            // of them is beside the handout.
            (None, _) => None,
        }
    }

    /// A `data:` URI for a local resource, or `None` (dropped, with a warning).
    fn resource(&self, src: &str, warnings: &mut Vec<Diagnostic>) -> Option<String> {
        if src.starts_with("data:") {
            return Some(src.to_string());
        }
        if is_external(src) {
            warnings.push(warning(format!(
                "the handout leaves out {src} from {}: it is not local",
                self.url
            )));
            return None;
        }
        let bytes = self.read(src, warnings)?;
        let path = local_file(self.source_dir, src)?;
        Some(data_uri(&path, &bytes))
    }

    /// The bytes of the local resource `src` of this lesson, through the confined reader. A
    /// missing file is a warning (the handout leaves it out, as a browser would show nothing);
    /// a file the reader refuses (outside the book, a pipe, a device, too long) is an error
    /// located where the lesson names it, so the handout is not written.
    fn read(&self, src: &str, warnings: &mut Vec<Diagnostic>) -> Option<Vec<u8>> {
        let Some(path) = local_file(self.source_dir, src) else {
            warnings.push(warning(format!(
                "the handout leaves out {src} from {}: not a relative path",
                self.url
            )));
            return None;
        };
        match self.files.bytes(&path) {
            Ok(bytes) => Some(bytes),
            Err(Refusal::Missing) => {
                warnings.push(warning(format!(
                    "the handout leaves out {src} from {}: no such file in the book",
                    self.url
                )));
                None
            }
            Err(r) => {
                let mut d = self
                    .files
                    .refused(&r, src, Code::IncludeError)
                    .label("this resource cannot go into the handout");
                if let Some(file) = self.source {
                    if let Some(at) = file.text.find(src) {
                        d = d.at(file, at..at + src.len());
                    }
                }
                warnings.push(d);
                None
            }
        }
    }

    /// A `srcset` with every candidate inlined (`None` when none is left).
    fn srcset(&self, value: &str, warnings: &mut Vec<Diagnostic>) -> Option<String> {
        let mut out = Vec::new();
        for (url, descriptor) in srcset_candidates(value) {
            if let Some(uri) = self.resource(url, warnings) {
                out.push(if descriptor.is_empty() {
                    uri
                } else {
                    format!("{uri} {descriptor}")
                });
            }
        }
        (!out.is_empty()).then(|| out.join(", "))
    }

    /// An `<img>` of a local SVG as the SVG itself.
    fn inline_svg(
        &self,
        attrs: &str,
        list: &[Attribute],
        warnings: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        let value = |name: &str| {
            list.iter()
                .find(|(k, _)| attrs[k.clone()].eq_ignore_ascii_case(name))
                .and_then(|(_, v)| v.clone())
                .map(|v| decode_attr(&attrs[v]))
        };
        let src = value("src")?;
        if is_external(&src) || !src.split(['?', '#']).next()?.ends_with(".svg") {
            return None;
        }
        let text = String::from_utf8(self.read(&src, warnings)?).ok()?;
        let start = text.find("<svg")?;
        let svg = &text[start..];
        let alt = value("alt").unwrap_or_default();
        Some(format!(
            "<span class=\"inline-svg\" role=\"img\" aria-label=\"{}\">{}</span>",
            escape(&alt),
            svg.trim_end()
        ))
    }
}

/// The candidates of a `srcset`: each URL with its descriptor (`2x`, `300w`, or empty). A URL
/// runs to white space, and a comma at its end closes the candidate (the HTML rule, so a
/// `data:` URL may hold commas).
fn srcset_candidates(value: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = value;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if rest.is_empty() {
            return out;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (url, after) = rest.split_at(end);
        if url.ends_with(',') {
            out.push((url.trim_end_matches(','), ""));
            rest = after;
        } else {
            let stop = after.find(',').unwrap_or(after.len());
            out.push((url, after[..stop].trim()));
            rest = &after[stop..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(dir: &Path) -> Reader {
        Reader::new(
            dir,
            &[],
            1 << 20,
            crate::site::load::confine::Trust::Trusted,
        )
        .expect("reader")
    }

    /// Rewrites `html` as lesson `a` (`part/a.html`) of a handout that includes the lessons
    /// `included` (page URL, key), in a book whose files are in `dir`; gives the HTML and the
    /// warnings.
    fn rewrite_in(dir: &Path, included: &[(&str, &str)], html: &str) -> (String, Vec<Diagnostic>) {
        let included: BTreeMap<&str, &str> = included.iter().copied().collect();
        let files = reader(dir);
        let page = PageRewrite {
            key: "a",
            url: "part/a.html",
            included: &included,
            source_dir: dir,
            files: &files,
            source: None,
        };
        let mut w = Vec::new();
        let got = page.rewrite(html, &mut w);
        (got, w)
    }

    #[test]
    fn anchors_and_links_become_in_file_anchors() {
        let dir = tempfile::tempdir().expect("temp");
        let html = "<h2 id=\"x\">X<a class=\"anchor\" href=\"#x\">#</a></h2>\
                    <a href=\"../b.html#y\">b</a> <a href=\"../c.html\">c</a> \
                    <a href=\"https://example.org/\">out</a> <a href=\"../b.md\">md</a>\
                    <a href=\"../../../up.html\">up</a>";
        let included = [("part/a.html", "a"), ("b.html", "b")];
        let (got, w) = rewrite_in(dir.path(), &included, html);
        assert!(got.contains("<h2 id=\"a--x\">"), "{got}");
        assert!(got.contains("href=\"#a--x\""), "{got}");
        assert!(got.contains("<a href=\"#b--y\">b</a>"), "{got}");
        assert!(
            got.contains("<a title=\"not in this handout\">c</a>"),
            "{got}"
        );
        assert!(
            got.contains("<a title=\"not in this handout\">up</a>"),
            "{got}"
        );
        assert!(got.contains("href=\"https://example.org/\""), "{got}");
        assert!(got.contains("<a href=\"#b\">md</a>"), "{got}");
        assert!(w.is_empty());
    }

    #[test]
    fn every_reference_to_an_id_gets_the_prefix() {
        let dir = tempfile::tempdir().expect("temp");
        let html = "<svg><defs><marker id=\"m\"/></defs>\
                    <line x1=\"0\" marker-end=\"url(#m)\"/><rect fill='url(#g)' clip-path=\"url(#c)\"/>\
                    <use xlink:href=\"#m\"/><p style=\"mask: url( '#k' )\"></p></svg>\
                    <label for=\"f\">L</label><input aria-describedby=\"d1 d2\">\
                    <style>.x { fill: url(#g) }</style>";
        let (got, w) = rewrite_in(dir.path(), &[], html);
        for want in [
            "<marker id=\"a--m\"/>",
            "<line x1=\"0\" marker-end=\"url(#a--m)\"/>",
            "<rect fill=\"url(#a--g)\" clip-path=\"url(#a--c)\"/>",
            "<use xlink:href=\"#a--m\"/>",
            "<p style=\"mask: url(#a--k)\">",
            "<label for=\"a--f\">",
            "aria-describedby=\"a--d1 a--d2\"",
            "<style>.x { fill: url(#a--g) }</style>",
        ] {
            assert!(got.contains(want), "{want} in {got}");
        }
        assert!(w.is_empty(), "{w:?}");
    }

    #[test]
    fn script_and_style_text_is_not_rewritten() {
        let dir = tempfile::tempdir().expect("temp");
        let html = "<SCRIPT>var s = '<a href=\"#x\" id=\"y\">';</SCRIPT><p id=\"z\">t</p>\
                    <style>a[href=\"#x\"] { color: red }</style>";
        let (got, _) = rewrite_in(dir.path(), &[], html);
        assert!(got.contains("var s = '<a href=\"#x\" id=\"y\">';"), "{got}");
        assert!(got.contains("<p id=\"a--z\">"), "{got}");
        assert!(got.contains("a[href=\"#x\"] { color: red }"), "{got}");
    }

    #[test]
    fn local_images_are_inlined_and_remote_ones_dropped() {
        let dir = tempfile::tempdir().expect("temp");
        std::fs::write(
            dir.path().join("pic.svg"),
            "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><circle r=\"1\"/></svg>\n",
        )
        .expect("write");
        std::fs::write(dir.path().join("pic.png"), [0x89, b'P', b'N', b'G']).expect("write");
        let (got, w) = rewrite_in(
            dir.path(),
            &[],
            "<img src=\"pic.svg\" alt=\"a &amp; b\"><img src=\"pic.png\" alt=\"p\" />\
             <img src=\"https://example.org/x.png\" alt=\"r\"><img src=\"../../etc/passwd\">",
        );
        assert!(
            got.contains("<span class=\"inline-svg\" role=\"img\" aria-label=\"a &amp; b\"><svg"),
            "{got}"
        );
        assert!(!got.contains("<?xml"), "{got}");
        assert!(
            got.contains("<img src=\"data:image/png;base64,iVBORw==\" alt=\"p\" />"),
            "{got}"
        );
        assert!(got.contains("<img alt=\"r\">"), "{got}");
        assert!(!got.contains("https://example.org/x.png"), "{got}");
        assert!(!got.contains("passwd"), "{got}");
        assert_eq!(w.len(), 2, "{w:?}");
    }

    #[test]
    fn srcset_candidates_are_inlined_one_by_one() {
        assert_eq!(
            srcset_candidates(" a.png 1x, b.png 2x,c.png, data:x,y 3x"),
            vec![
                ("a.png", "1x"),
                ("b.png", "2x"),
                ("c.png", ""),
                ("data:x,y", "3x")
            ]
        );
        let dir = tempfile::tempdir().expect("temp");
        std::fs::write(dir.path().join("pic.png"), [0x89, b'P', b'N', b'G']).expect("write");
        let (got, w) = rewrite_in(
            dir.path(),
            &[],
            "<img srcset=\"pic.png 2x, https://example.org/x.png 3x\" alt=\"p\">",
        );
        assert_eq!(
            got,
            "<img srcset=\"data:image/png;base64,iVBORw== 2x\" alt=\"p\">"
        );
        assert_eq!(w.len(), 1, "{w:?}");
    }

    #[test]
    fn the_math_font_becomes_a_data_uri() {
        let mut w = Vec::new();
        let css =
            "a{} @font-face { src: url(\"fonts/latinmodern-math.woff2\") format(\"woff2\"); }\
                   b { background: url(https://example.org/x.png) }";
        let got = inline_css_urls(css, &mut w);
        let (_, bytes) = BINARY_ASSETS[0];
        let expected = base64::engine::general_purpose::STANDARD.encode(bytes);
        assert!(got.contains(&format!("url(\"data:font/woff2;base64,{expected}\")")));
        assert!(!got.contains("example.org"));
        assert_eq!(w.len(), 1);
    }
}
