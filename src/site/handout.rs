//! `nimbook handout`: chapters as one self-contained HTML file, to mail, archive or print.
//!
//! A handout must open anywhere, years later, with no network and no site beside it. So
//! everything a page loads is put inside the file: the stylesheets are inlined in a `<style>`,
//! the math font becomes a `data:` URI, an `<img>` of an SVG from the book becomes the SVG
//! itself and any other local resource a `data:` URI. A resource on another host cannot be
//! inlined; it is dropped with a warning rather than fetched when the file is read.
//!
//! The lessons are checked exactly as `build` checks them, and a content error writes nothing.
//! Heading anchors are unique within a lesson but not across lessons, so every `id` is prefixed
//! with its lesson's key, and links are rewritten to match: `#x` within a lesson, and
//! `other.html#x` to an included lesson, become in-file anchors; a link to a lesson that is not
//! in the handout loses its `href` (it would lead nowhere). The rewrite walks the HTML tag by
//! tag with the same small scanner as the search index, in one linear pass.

use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path, PathBuf};

use base64::Engine;
use serde::Serialize;
use tera::Context;

use super::search::{attributes, decode_attr, find_ascii_ci, scan_tag};
use super::templates::{self, url_of, BINARY_ASSETS};
use super::{Book, Fatal, Lesson, Report};
use crate::diag::{Code, Diagnostic};

#[derive(Serialize)]
struct HandoutLesson {
    id: String,
    title: String,
    number: String,
    content: String,
}

#[derive(Serialize)]
struct HandoutBook<'a> {
    title: &'a str,
    authors: &'a [String],
    language: &'a str,
}

fn warning(message: impl Into<String>) -> Diagnostic {
    Diagnostic::warning(Code::MissingResource, message)
}

/// A chapter's source path as written on the command line: relative, `/` separators.
fn source_name(path: &Path) -> String {
    url_of(path)
}

/// `nimbook handout`: checks the chosen chapters (or all with `all`) and writes them to `file`
/// as one HTML file. An unknown chapter name is a usage error (the returned `Fatal`); content
/// errors come back in the report and nothing is written.
pub fn handout(root: &Path, names: &[String], all: bool, file: &Path) -> Result<Report, Fatal> {
    let (mut book, diags) = Book::load(root)?;
    if !diags.is_empty() {
        return Ok(Report {
            errors: diags.len(),
            diagnostics: diags,
            ..Report::default()
        });
    }
    // In a book without SUMMARY.md a chapter's title is its first `#` heading, which the
    // chapter list only learns when the lesson is rendered: read it now, cheaply.
    let walked = !book.src.join("SUMMARY.md").is_file();
    let titles: Vec<String> = book
        .chapters
        .iter()
        .map(|c| match (&c.path, walked) {
            (Some(p), true) => first_heading(&book.src.join(p)).unwrap_or_else(|| c.title.clone()),
            _ => c.title.clone(),
        })
        .collect();
    if !all {
        let mut wanted = HashSet::new();
        for name in names {
            let wanted_path = name.trim_start_matches("./").replace('\\', "/");
            let found = book.chapters.iter().zip(&titles).position(|(c, title)| {
                c.path.as_ref().is_some_and(|p| {
                    source_name(p) == wanted_path
                        || title.trim().eq_ignore_ascii_case(name.trim())
                        || c.title.trim().eq_ignore_ascii_case(name.trim())
                })
            });
            match found {
                Some(i) => {
                    wanted.insert(i);
                }
                None => {
                    let list = book
                        .chapters
                        .iter()
                        .zip(&titles)
                        .filter_map(|(c, t)| {
                            c.path.as_ref().map(|p| format!("{} ({t})", source_name(p)))
                        })
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(Box::new(
                        Diagnostic::error(
                            Code::UnknownChapter,
                            format!("no chapter named `{name}` in this book"),
                        )
                        .note(format!("available chapters: {list}"))
                        .help("name a chapter by its source path or its title, or use --all"),
                    ));
                }
            }
        }
        // The book's order, whatever the order of the arguments.
        let chapters = std::mem::take(&mut book.chapters);
        book.chapters = chapters
            .into_iter()
            .enumerate()
            .filter(|(i, _)| wanted.contains(i))
            .map(|(_, c)| c)
            .collect();
    }
    book.chapters.retain(|c| c.path.is_some());
    if book.chapters.is_empty() {
        return Err(Box::new(Diagnostic::error(
            Code::UnknownChapter,
            "the book has no chapter with a source file to put in a handout",
        )));
    }
    if file.is_dir() {
        return Err(Box::new(Diagnostic::error(
            Code::IoError,
            format!(
                "{} is a folder; give the handout a file name such as handout.html",
                file.display()
            ),
        )));
    }
    let (lessons, mut report) = book.check(&super::Progress::none());
    if report.errors > 0 {
        return Ok(report);
    }
    let (html, warnings) = render(&book, &lessons)?;
    report.diagnostics.extend(warnings);
    write_file(file, html.as_bytes())?;
    report.output = Some(file.to_path_buf());
    Ok(report)
}

/// The text of the first level-1 heading of a markdown file.
fn first_heading(path: &Path) -> Option<String> {
    use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
    let text = std::fs::read_to_string(path).ok()?;
    let mut title: Option<String> = None;
    for event in Parser::new_ext(&text, super::markdown::options()) {
        match (&mut title, event) {
            (
                None,
                Event::Start(Tag::Heading {
                    level: HeadingLevel::H1,
                    ..
                }),
            ) => title = Some(String::new()),
            (Some(t), Event::Text(s) | Event::Code(s)) => t.push_str(&s),
            (Some(_), Event::End(TagEnd::Heading(_))) => break,
            _ => {}
        }
    }
    title
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}

/// Writes `bytes` to `file` through a temporary sibling and a rename, so a reader never sees
/// half a handout.
fn write_file(file: &Path, bytes: &[u8]) -> Result<(), Fatal> {
    let io = |what: &str, p: &Path, e: std::io::Error| {
        Box::new(Diagnostic::error(
            Code::IoError,
            format!("cannot {what} {}: {e}", p.display()),
        ))
    };
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| io("create", &dir, e))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "handout.html".into());
    let tmp = dir.join(format!(".{name}.nimbook-{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| io("write", &tmp, e))?;
    std::fs::rename(&tmp, file).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io("write", file, e)
    })
}

/// The key of a lesson: a slug of its page's path, unique in the handout.
fn lesson_keys(lessons: &[Lesson]) -> Vec<(String, String)> {
    let mut seen = HashSet::new();
    lessons
        .iter()
        .filter_map(|l| l.chapter.out_path())
        .map(|p| {
            let url = url_of(&p);
            let base = super::markdown::slug(url.trim_end_matches(".html"));
            let mut key = base.clone();
            let mut n = 1;
            while !seen.insert(key.clone()) {
                n += 1;
                key = format!("{base}-{n}");
            }
            (url, key)
        })
        .collect()
}

/// Renders the handout into one string, with any warnings about resources it could not inline.
pub fn render(book: &Book, lessons: &[Lesson]) -> Result<(String, Vec<Diagnostic>), Fatal> {
    let (tera, assets) = templates::load(&book.root)?;
    let mut warnings = Vec::new();
    let keys = lesson_keys(lessons);
    let by_url: BTreeMap<&str, &str> = keys.iter().map(|(u, k)| (u.as_str(), k.as_str())).collect();
    let all_pages: HashSet<String> = book
        .chapters
        .iter()
        .filter_map(|c| c.out_path().map(|p| url_of(&p)))
        .collect();
    let mut items = Vec::new();
    for (lesson, (url, key)) in lessons.iter().zip(&keys) {
        let source_dir = lesson
            .chapter
            .path
            .as_ref()
            .and_then(|p| p.parent())
            .map_or_else(|| book.src.clone(), |d| book.src.join(d));
        let page = PageRewrite {
            key,
            url,
            included: &by_url,
            pages: &all_pages,
            source_dir: &source_dir,
            root: &book.root,
        };
        items.push(HandoutLesson {
            id: key.clone(),
            title: lesson.chapter.title.clone(),
            number: lesson.chapter.number.clone().unwrap_or_default(),
            content: page.rewrite(&lesson.page.html, &mut warnings),
        });
    }
    let mut css = String::new();
    for name in ["style.css", "highlight.css", "math.css", "handout.css"] {
        let text = match name {
            "highlight.css" => super::highlight::stylesheet(),
            _ => assets.get(name).cloned().unwrap_or_default(),
        };
        css.push_str(&format!("/* {name} */\n"));
        css.push_str(&inline_css_urls(&text, &mut warnings));
        css.push('\n');
    }
    // Nothing in a stylesheet may end the <style> element early.
    let css = css.replace("</", "<\\/");
    let book_title = book
        .config
        .book
        .title
        .clone()
        .unwrap_or_else(|| "nimbook".into());
    let title = match items.as_slice() {
        [one] => one.title.clone(),
        _ => book_title.clone(),
    };
    let mut ctx = Context::new();
    ctx.insert(
        "book",
        &HandoutBook {
            title: &book_title,
            authors: &book.config.book.authors,
            language: &book.config.book.language,
        },
    );
    ctx.insert("title", &title);
    ctx.insert("css", &css);
    // The play widgets work in the handout too: their script is inlined, like the styles, and
    // only when a lesson has one.
    let has_widget = items.iter().any(|l| l.content.contains("nim-widget"));
    let script = match assets.get("widget.js") {
        Some(js) if has_widget => js.replace("</", "<\\/"),
        _ => String::new(),
    };
    ctx.insert("script", &script);
    ctx.insert("lessons", &items);
    let html = tera.render("handout.html", &ctx).map_err(|e| {
        Box::new(Diagnostic::error(
            Code::TemplateError,
            format!("template handout.html failed: {e}"),
        ))
    })?;
    Ok((html, warnings))
}

/// The media type of a resource, by extension.
fn media_type(path: &Path) -> &'static str {
    match path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .as_deref()
    {
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("woff2") => "font/woff2",
        Some("woff") => "font/woff",
        Some("css") => "text/css",
        Some("js") => "text/javascript",
        _ => "application/octet-stream",
    }
}

fn data_uri(path: &Path, bytes: &[u8]) -> String {
    format!(
        "data:{};base64,{}",
        media_type(path),
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// Whether a URL names another host or a scheme (anything but a relative reference).
fn is_remote(url: &str) -> bool {
    url.starts_with("//")
        || url
            .split_once(':')
            .is_some_and(|(scheme, _)| !scheme.is_empty() && !scheme.contains(['/', '?', '#']))
}

/// A CSS text with every `url(...)` that names one of nimbook's binary assets (the math font)
/// replaced by a `data:` URI, and every remote one removed.
pub fn inline_css_urls(css: &str, warnings: &mut Vec<Diagnostic>) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(at) = rest.find("url(") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 4..];
        let Some(close) = after.find(')') else {
            out.push_str(&rest[at..]);
            return out;
        };
        let raw = after[..close].trim();
        let target = raw.trim_matches(|c| c == '"' || c == '\'');
        let asset = BINARY_ASSETS
            .iter()
            .find(|(name, _)| target.trim_start_matches("./") == *name);
        if let Some((name, bytes)) = asset {
            out.push_str(&format!("url(\"{}\")", data_uri(Path::new(name), bytes)));
        } else if target.starts_with("data:") {
            out.push_str(&rest[at..at + 4 + close + 1]);
        } else {
            if is_remote(target) {
                warnings.push(warning(format!(
                    "the handout leaves out the stylesheet resource {target}: it is not local"
                )));
            } else {
                warnings.push(warning(format!(
                    "the handout leaves out the stylesheet resource {target}: nimbook cannot find it"
                )));
            }
            out.push_str("url(\"\")");
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Resolves `rel` (a relative URL path) against `base`, refusing to leave `root`.
fn local_file(root: &Path, base: &Path, rel: &str) -> Option<PathBuf> {
    let rel = rel.split(['?', '#']).next().unwrap_or("");
    let rel = super::serve::percent_decode(rel)?;
    let mut path = base.to_path_buf();
    for c in Path::new(&rel).components() {
        match c {
            Component::Normal(n) => path.push(n),
            Component::ParentDir => {
                path.pop();
            }
            Component::CurDir => {}
            _ => return None,
        }
    }
    let real = std::fs::canonicalize(&path).ok()?;
    let root = std::fs::canonicalize(root).ok()?;
    (real.starts_with(root) && real.is_file()).then_some(real)
}

/// Resolves a relative link from page `from` (an output URL) to a page URL and fragment.
fn resolve_link(from: &str, href: &str) -> (String, Option<String>) {
    let (path, frag) = match href.split_once('#') {
        Some((p, f)) => (p, Some(f.to_string())),
        None => (href, None),
    };
    let path = path.split('?').next().unwrap_or("");
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    let mut url = parts.join("/");
    // Links written to the markdown source (`other.md`) mean the page.
    if let Some(stem) = url.strip_suffix(".md") {
        url = format!("{stem}.html");
    }
    (url, frag)
}

struct PageRewrite<'a> {
    key: &'a str,
    url: &'a str,
    included: &'a BTreeMap<&'a str, &'a str>,
    pages: &'a HashSet<String>,
    source_dir: &'a Path,
    root: &'a Path,
}

fn escape_attr(v: &str) -> String {
    v.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

impl PageRewrite<'_> {
    /// The lesson's HTML with anchors prefixed, links rewritten and resources inlined.
    fn rewrite(&self, html: &str, warnings: &mut Vec<Diagnostic>) -> String {
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
            if let Some(replacement) = self.rewrite_tag(&tag.name, tag.attrs, warnings) {
                out.push_str(&html[copied..at]);
                out.push_str(&replacement);
                copied = tag.end;
            }
            if matches!(tag.name.as_str(), "script" | "style") {
                // Raw text: nothing inside is a tag.
                let close = format!("</{}", tag.name);
                i = find_ascii_ci(html, i, &close).unwrap_or(html.len());
            }
        }
        out.push_str(&html[copied..]);
        out
    }

    /// The rewritten tag, or `None` to keep it as it is.
    fn rewrite_tag(
        &self,
        name: &str,
        attrs: &str,
        warnings: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        let list = attributes(attrs);
        let touched = list.iter().any(|(k, _)| {
            matches!(
                attrs[k.clone()].to_ascii_lowercase().as_str(),
                "id" | "href" | "src" | "srcset"
            )
        });
        if !touched {
            return None;
        }
        if name == "img" {
            if let Some(svg) = self.inline_svg(attrs, &list, warnings) {
                return Some(svg);
            }
        }
        let mut tag = format!("<{name}");
        for (k, v) in &list {
            let key = &attrs[k.clone()];
            let value = v.as_ref().map(|v| decode_attr(&attrs[v.clone()]));
            let new = match (key.to_ascii_lowercase().as_str(), &value) {
                ("id", Some(id)) => Some(format!("{}--{id}", self.key)),
                ("href", Some(href)) if name == "link" => {
                    // A stylesheet or icon link in a lesson would load a file: leave it out.
                    warnings.push(warning(format!(
                        "the handout leaves out <link href=\"{href}\"> from {}",
                        self.url
                    )));
                    None
                }
                ("href", Some(href)) => match self.link(href) {
                    Some(h) => Some(h),
                    None => {
                        tag.push_str(" title=\"not in this handout\"");
                        None
                    }
                },
                ("src", Some(src)) => self.resource(src, warnings),
                ("srcset", Some(_)) => None,
                (_, Some(v)) => Some(v.clone()),
                (_, None) => {
                    tag.push(' ');
                    tag.push_str(key);
                    continue;
                }
            };
            if let Some(v) = new {
                tag.push_str(&format!(" {key}=\"{}\"", escape_attr(&v)));
            }
        }
        tag.push('>');
        Some(tag)
    }

    /// The new `href`, or `None` to drop it (a page that is not in the handout).
    fn link(&self, href: &str) -> Option<String> {
        if let Some(frag) = href.strip_prefix('#') {
            return Some(if frag.is_empty() {
                format!("#{}", self.key)
            } else {
                format!("#{}--{frag}", self.key)
            });
        }
        if is_remote(href) {
            // A link to read elsewhere, not a resource the handout loads.
            return Some(href.to_string());
        }
        let (page, frag) = resolve_link(self.url, href);
        match (self.included.get(page.as_str()), frag) {
            (Some(key), Some(f)) if !f.is_empty() => Some(format!("#{key}--{f}")),
            (Some(key), _) => Some(format!("#{key}")),
            // Another page of the book, or of the site (index.html): not in this file.
            (None, _) if page == "index.html" || self.pages.contains(&page) => None,
            // A relative link to some other file: it would not exist beside the handout.
            (None, _) => None,
        }
    }

    /// A `data:` URI for a local resource, or `None` (dropped, with a warning).
    fn resource(&self, src: &str, warnings: &mut Vec<Diagnostic>) -> Option<String> {
        if src.starts_with("data:") {
            return Some(src.to_string());
        }
        if is_remote(src) {
            warnings.push(warning(format!(
                "the handout leaves out {src} from {}: it is not local",
                self.url
            )));
            return None;
        }
        match local_file(self.root, self.source_dir, src) {
            Some(path) => match std::fs::read(&path) {
                Ok(bytes) => Some(data_uri(&path, &bytes)),
                Err(e) => {
                    warnings.push(warning(format!("cannot read {}: {e}", path.display())));
                    None
                }
            },
            None => {
                warnings.push(warning(format!(
                    "the handout leaves out {src} from {}: no such file in the book",
                    self.url
                )));
                None
            }
        }
    }

    /// An `<img>` of a local SVG as the SVG itself.
    fn inline_svg(
        &self,
        attrs: &str,
        list: &[(std::ops::Range<usize>, Option<std::ops::Range<usize>>)],
        warnings: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        let value = |name: &str| {
            list.iter()
                .find(|(k, _)| attrs[k.clone()].eq_ignore_ascii_case(name))
                .and_then(|(_, v)| v.clone())
                .map(|v| decode_attr(&attrs[v]))
        };
        let src = value("src")?;
        if is_remote(&src) || !src.split(['?', '#']).next()?.ends_with(".svg") {
            return None;
        }
        let path = local_file(self.root, self.source_dir, &src)?;
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                warnings.push(warning(format!("cannot read {}: {e}", path.display())));
                return None;
            }
        };
        let start = text.find("<svg")?;
        let svg = &text[start..];
        let alt = value("alt").unwrap_or_default();
        Some(format!(
            "<span class=\"inline-svg\" role=\"img\" aria-label=\"{}\">{}</span>",
            escape_attr(&alt),
            svg.trim_end()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page<'a>(
        included: &'a BTreeMap<&'a str, &'a str>,
        pages: &'a HashSet<String>,
        dir: &'a Path,
    ) -> PageRewrite<'a> {
        PageRewrite {
            key: "a",
            url: "part/a.html",
            included,
            pages,
            source_dir: dir,
            root: dir,
        }
    }

    #[test]
    fn anchors_and_links_become_in_file_anchors() {
        let included: BTreeMap<&str, &str> = [("part/a.html", "a"), ("b.html", "b")]
            .into_iter()
            .collect();
        let pages: HashSet<String> = ["part/a.html", "b.html", "c.html"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let dir = tempfile::tempdir().expect("temp");
        let p = page(&included, &pages, dir.path());
        let mut w = Vec::new();
        let html = "<h2 id=\"x\">X<a class=\"anchor\" href=\"#x\">#</a></h2>\
                    <a href=\"../b.html#y\">b</a> <a href=\"../c.html\">c</a> \
                    <a href=\"https://example.org/\">out</a> <a href=\"../b.md\">md</a>";
        let got = p.rewrite(html, &mut w);
        assert!(got.contains("<h2 id=\"a--x\">"), "{got}");
        assert!(got.contains("href=\"#a--x\""), "{got}");
        assert!(got.contains("<a href=\"#b--y\">b</a>"), "{got}");
        assert!(
            got.contains("<a title=\"not in this handout\">c</a>"),
            "{got}"
        );
        assert!(got.contains("href=\"https://example.org/\""), "{got}");
        assert!(got.contains("<a href=\"#b\">md</a>"), "{got}");
        assert!(w.is_empty());
    }

    #[test]
    fn script_and_style_text_is_not_rewritten() {
        let included = BTreeMap::new();
        let pages = HashSet::new();
        let dir = tempfile::tempdir().expect("temp");
        let p = page(&included, &pages, dir.path());
        let mut w = Vec::new();
        let html = "<SCRIPT>var s = '<a href=\"#x\" id=\"y\">';</SCRIPT><p id=\"z\">t</p>";
        let got = p.rewrite(html, &mut w);
        assert!(got.contains("var s = '<a href=\"#x\" id=\"y\">';"), "{got}");
        assert!(got.contains("<p id=\"a--z\">"), "{got}");
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
        let included = BTreeMap::new();
        let pages = HashSet::new();
        let p = page(&included, &pages, dir.path());
        let mut w = Vec::new();
        let got = p.rewrite(
            "<img src=\"pic.svg\" alt=\"a &amp; b\"><img src=\"pic.png\" alt=\"p\">\
             <img src=\"https://example.org/x.png\" alt=\"r\"><img src=\"../../etc/passwd\">",
            &mut w,
        );
        assert!(
            got.contains("<span class=\"inline-svg\" role=\"img\" aria-label=\"a &amp; b\"><svg"),
            "{got}"
        );
        assert!(!got.contains("<?xml"), "{got}");
        assert!(
            got.contains("src=\"data:image/png;base64,iVBORw==\""),
            "{got}"
        );
        assert!(!got.contains("https://example.org/x.png"), "{got}");
        assert!(!got.contains("passwd"), "{got}");
        assert_eq!(w.len(), 2, "{w:?}");
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

    #[test]
    fn links_resolve_relative_to_the_page() {
        assert_eq!(
            resolve_link("part/a.html", "../b.html#y"),
            ("b.html".into(), Some("y".into()))
        );
        assert_eq!(
            resolve_link("part/a.html", "c.html"),
            ("part/c.html".into(), None)
        );
        assert!(is_remote("https://x"));
        assert!(is_remote("//x"));
        assert!(is_remote("mailto:a@b"));
        assert!(!is_remote("a/b.html#c:d"));
        assert!(!is_remote("b.html"));
    }
}
