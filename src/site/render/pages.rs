//! The pages mdBook writes besides the chapters, so that a published book keeps its URLs:
//! `404.html`, `print.html` (every chapter on one page, its links rebased to the site root), a
//! redirect page for each `[output.html.redirect]` entry, and `CNAME`; and the
//! book's `additional-css` and `additional-js` files.

use std::path::{Path, PathBuf};

use super::templates::{Extra, SiteRenderer};
use crate::diag::{Code, Diagnostic};
use crate::site::html::url_path;
use crate::site::lesson::book::{Book, Lesson};
use crate::site::load::Fatal;

/// Copies `additional-css` and `additional-js` into `files`, at the same paths as in the
/// book root (where mdBook puts them), and returns their URLs.
pub(crate) fn extra_assets(
    book: &Book,
    files: &mut Vec<(PathBuf, Vec<u8>)>,
) -> Result<Extra, Fatal> {
    let mut extra = Extra::default();
    let html = &book.config.html;
    extra.head.clone_from(&html.head);
    for (list, urls) in [
        (&html.additional_css, &mut extra.css),
        (&html.additional_js, &mut extra.js),
    ] {
        for p in list {
            let from = book.root.join(p);
            let bytes = book.files.bytes(&from).map_err(|r| {
                let d = book
                    .files
                    .refused(&r, &book.files.name(&from), Code::InvalidConfig)
                    .label("named here")
                    .note(
                        "paths in additional-css and additional-js are relative to the book root",
                    );
                Box::new(book.config.locate(&p.to_string_lossy(), d))
            })?;
            let url = url_path(p);
            if url.split('/').any(|s| s == "..") {
                return Err(Box::new(Diagnostic::error(
                    Code::InvalidConfig,
                    format!("{url} in [output.html] of book.toml climbs out of the book root"),
                )));
            }
            files.push((PathBuf::from(&url), bytes));
            urls.push(url);
        }
    }
    Ok(extra)
}

/// What the extra pages are made from, gathered once per build.
pub(crate) struct ExtraPages {
    /// The way from `404.html` to the site root: the site URL, since it is served for any
    /// missing URL.
    root_404: String,
    /// The chapter that is the 404 page, when the book has one among its chapters.
    chapter_404: Option<PathBuf>,
    /// The 404 page's body otherwise: `404.md` rendered on its own, or mdBook's wording.
    body_404: String,
    /// Whether `print.html` is written.
    print: bool,
    /// By a chapter's page path, the script that sends its moved anchors on (`#old` → URL).
    pub(crate) fragments: std::collections::HashMap<String, String>,
    /// Files that no lesson changes: the additional CSS and JS, the redirect pages, `CNAME`.
    pub(crate) files: Vec<(PathBuf, Vec<u8>)>,
    /// The additional CSS and JS, as the pages link them.
    pub(crate) extra: Extra,
}

const NOT_FOUND: &str = "<h1 id=\"document-not-found-404\">Document not found (404)</h1>\n<p>This URL is invalid, sorry. Please use the navigation bar or search to continue.</p>\n";

impl ExtraPages {
    /// Reads what the extra pages need from the book: its settings, its additional files and,
    /// when the 404 page is not a chapter, `404.md`.
    pub(crate) fn new(book: &Book) -> Result<ExtraPages, Fatal> {
        let html = &book.config.html;
        let mut files = Vec::new();
        let extra = extra_assets(book, &mut files)?;
        let site_url = html.site_url.clone().unwrap_or_else(|| "/".into());
        let root_404 = if site_url.ends_with('/') {
            site_url
        } else {
            format!("{site_url}/")
        };
        let input = PathBuf::from(html.input_404.clone().unwrap_or_else(|| "404.md".into()));
        let (chapter_404, body_404) = if book.sources.contains_key(&input) {
            (Some(input), String::new())
        } else {
            (None, not_found_body(book, &input)?)
        };
        let chapters: std::collections::HashSet<String> = book
            .chapters
            .iter()
            .filter_map(|c| c.out_path().map(|p| url_path(&p)))
            .collect();
        let mut fragments = std::collections::HashMap::new();
        for (path, group) in crate::site::load::redirects::redirects(&html.redirect)? {
            if chapters.contains(&path) {
                // A moved heading of a page that is still there: the page itself maps it.
                if !group.fragments.is_empty() {
                    fragments.insert(path, fragment_script(&group.fragments, None));
                }
                continue;
            }
            // Only fragment entries: no page to send the rest to (a warning at load time).
            let Some(to) = group.default else {
                continue;
            };
            let script = if group.fragments.is_empty() {
                String::new()
            } else {
                fragment_script(&group.fragments, Some(&to))
            };
            let to = crate::site::html::escape(&to);
            files.push((
                PathBuf::from(&path),
                format!(
                    "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<title>Redirecting…</title>\n<meta http-equiv=\"refresh\" content=\"0; URL={to}\">\n<link rel=\"canonical\" href=\"{to}\">\n{script}</head>\n<body>\n<p>This page has moved to <a href=\"{to}\">{to}</a>.</p>\n</body>\n</html>\n",
                    crate::site::html::escape(&book.config.book.language)
                )
                .into_bytes(),
            ));
        }
        if let Some(cname) = book
            .config
            .output
            .get("html")
            .and_then(|t| t.get("cname"))
            .and_then(|v| v.as_str())
        {
            files.push((PathBuf::from("CNAME"), format!("{cname}\n").into_bytes()));
        }
        Ok(ExtraPages {
            fragments,
            root_404,
            chapter_404,
            body_404,
            print: html.print.enable,
            files,
            extra,
        })
    }

    /// `404.html` and `print.html`, which show lessons and so are rendered after them.
    pub(crate) fn render(
        &self,
        site: &SiteRenderer,
        lessons: &[Lesson],
    ) -> Result<Vec<(PathBuf, Vec<u8>)>, Fatal> {
        let mut files = Vec::new();
        let body = self
            .chapter_404
            .as_deref()
            .and_then(|input| {
                lessons
                    .iter()
                    .find(|l| l.chapter.path.as_deref() == Some(input))
            })
            .map_or(self.body_404.as_str(), |l| l.page.html.as_str());
        files.push((
            PathBuf::from("404.html"),
            site.plain_page(&self.root_404, "Page not found", body)?
                .into_bytes(),
        ));
        if self.print {
            let mut all = String::new();
            for l in lessons {
                let Some(out) = l.chapter.out_path() else {
                    continue;
                };
                all.push_str("<section class=\"print-chapter\">\n");
                all.push_str(&crate::site::html::rebase_links(
                    &l.page.html,
                    &url_path(&out),
                ));
                all.push_str("</section>\n");
            }
            files.push((
                PathBuf::from("print.html"),
                site.plain_page("", "Print", &all)?.into_bytes(),
            ));
        }
        Ok(files)
    }
}

/// The 404 page's body when it is not a chapter: the book's `404.md` rendered on its own, or
/// mdBook's wording.
fn not_found_body(book: &Book, input: &Path) -> Result<String, Fatal> {
    let path = book.src.join(input);
    let file = match book.files.source(&path, Code::InvalidConfig) {
        Ok(file) => file,
        // The default `404.md` may be absent; a missing `input-404` is not found either, as
        // in mdBook, which falls back to its own page.
        Err(_) if path.symlink_metadata().is_err() => return Ok(NOT_FOUND.to_string()),
        Err(d) => {
            let d = d.label("named here").note(
                "the 404 page is `input-404` in [output.html] of book.toml, relative to the source folder",
            );
            return Err(Box::new(match &book.config.html.input_404 {
                Some(named) => book.config.locate(named, d),
                None => d,
            }));
        }
    };
    let rendered = crate::site::lesson::render(file, &url_path(input), &book.settings);
    if let Some(d) = rendered
        .diagnostics
        .into_iter()
        .find(|d| d.level == crate::diag::Level::Error)
    {
        return Err(Box::new(d));
    }
    Ok(rendered.page.html)
}

/// The script that sends a reader who arrives with a moved anchor on to its new place. On a
/// redirect page (`default` is where the page went) any other anchor is carried over to the
/// default target; on a chapter's own page any other anchor stays where it is.
fn fragment_script(
    map: &std::collections::BTreeMap<String, String>,
    default: Option<&str>,
) -> String {
    // `</` would end the script early, whatever a target holds.
    let json = serde_json::to_string(map)
        .unwrap_or_else(|_| "{}".into())
        .replace("</", "<\\/");
    let fallback = default.map_or_else(
        || "null".to_string(),
        |d| {
            serde_json::to_string(d)
                .unwrap_or_else(|_| "null".into())
                .replace("</", "<\\/")
        },
    );
    format!(
        "<script>\n(function () {{\n  var moved = {json};\n  var rest = {fallback};\n  var hash = window.location.hash;\n  if (!hash) return;\n  var to = moved[hash];\n  if (to) {{ window.location.replace(new URL(to, window.location.href).href); return; }}\n  if (rest) {{ var url = new URL(rest, window.location.href); url.hash = hash; window.location.replace(url.href); }}\n}})();\n</script>\n"
    )
}
