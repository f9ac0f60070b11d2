//! The pages mdBook writes besides the chapters, so that a published book keeps its URLs:
//! `404.html`, `print.html` (every chapter on one page), `toc.html` (the table of contents on
//! its own), a redirect page for each `[output.html.redirect]` entry, and `CNAME`; and the
//! book's `additional-css` and `additional-js` files.

use std::path::{Path, PathBuf};

use serde::Serialize;
use tera::{Context, Tera};

use super::templates::{error_chain, BookContext};
use super::{Book, Fatal, Lesson};
use crate::diag::{Code, Diagnostic};

/// The book's own stylesheets and scripts, linked from every page (paths from the site root).
#[derive(Debug, Default, Serialize)]
pub(crate) struct Extra {
    css: Vec<String>,
    js: Vec<String>,
}

/// Copies `additional-css` and `additional-js` into `files`, at the same paths as in the
/// book root (where mdBook puts them), and returns their URLs.
pub(crate) fn extra_assets(
    book: &Book,
    files: &mut Vec<(PathBuf, Vec<u8>)>,
) -> Result<Extra, Fatal> {
    let mut extra = Extra::default();
    let html = &book.config.html;
    for (list, urls) in [
        (&html.additional_css, &mut extra.css),
        (&html.additional_js, &mut extra.js),
    ] {
        for p in list {
            let from = book.root.join(p);
            let bytes =
                std::fs::read(&from).map_err(|e| {
                    Box::new(
                    Diagnostic::error(Code::IoError, format!(
                        "cannot read {}, named in [output.html] of book.toml: {e}",
                        super::book::display_name(&book.root, &from)
                    ))
                    .help(
                        "paths in additional-css and additional-js are relative to the book root",
                    ),
                )
                })?;
            let url = super::html::url_path(p);
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

/// What the extra pages are rendered from.
pub(crate) struct Pages<'a> {
    pub(crate) book: &'a Book,
    pub(crate) tera: &'a Tera,
    pub(crate) book_ctx: &'a BookContext<'a>,
    pub(crate) extra: &'a Extra,
}

const NOT_FOUND: &str = "<h1 id=\"document-not-found-404\">Document not found (404)</h1>\n<p>This URL is invalid, sorry. Please use the navigation bar or search to continue.</p>\n";

impl Pages<'_> {
    fn page(
        &self,
        root: &str,
        title: &str,
        content: &str,
        sidebar: &mut dyn FnMut(&str) -> Result<String, Fatal>,
    ) -> Result<Vec<u8>, Fatal> {
        let mut ctx = Context::new();
        ctx.insert("book", self.book_ctx);
        ctx.insert("root", root);
        ctx.insert("sidebar", &sidebar(root)?);
        ctx.insert("current", "none");
        ctx.insert("extra", self.extra);
        ctx.insert("title", title);
        ctx.insert("number", "");
        ctx.insert("content", content);
        ctx.insert("headings", &Vec::<super::markdown::Heading>::new());
        ctx.insert("prev", &None::<()>);
        ctx.insert("next", &None::<()>);
        self.tera
            .render("page.html", &ctx)
            .map(String::into_bytes)
            .map_err(|e| {
                Box::new(Diagnostic::error(
                    Code::TemplateError,
                    format!("template page.html failed: {}", error_chain(&e)),
                ))
            })
    }

    /// Renders the extra pages into `(path, bytes)`.
    pub(crate) fn render(
        &mut self,
        lessons: &[Lesson],
        sidebar: &mut dyn FnMut(&str) -> Result<String, Fatal>,
    ) -> Result<Vec<(PathBuf, Vec<u8>)>, Fatal> {
        let html = &self.book.config.html;
        let mut files = Vec::new();
        // 404.html is served for any missing URL, so its links start from the site URL.
        let site_url = html.site_url.clone().unwrap_or_else(|| "/".into());
        let site_url = if site_url.ends_with('/') {
            site_url
        } else {
            format!("{site_url}/")
        };
        let input = html.input_404.clone().unwrap_or_else(|| "404.md".into());
        let body = match self.book.sources.get(Path::new(&input)) {
            Some(_) => lessons
                .iter()
                .find(|l| l.chapter.path.as_deref() == Some(Path::new(&input)))
                .map(|l| l.page.html.clone()),
            None => None,
        };
        let body = match body {
            Some(b) => b,
            None => self.not_found_page(&input)?,
        };
        files.push((
            PathBuf::from("404.html"),
            self.page(&site_url, "Page not found", &body, sidebar)?,
        ));
        if html.print.enable {
            let mut all = String::new();
            for l in lessons.iter().filter(|l| l.chapter.path.is_some()) {
                all.push_str("<section class=\"print-chapter\">\n");
                all.push_str(&l.page.html);
                all.push_str("</section>\n");
            }
            files.push((
                PathBuf::from("print.html"),
                self.page("", "Print", &all, sidebar)?,
            ));
        }
        let toc = sidebar("")?;
        files.push((
            PathBuf::from("toc.html"),
            format!(
                "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<title>Contents</title>\n<link rel=\"stylesheet\" href=\"style.css\">\n</head>\n<body>\n<nav class=\"sidebar\" aria-label=\"Contents\">\n{toc}</nav>\n</body>\n</html>\n",
                super::html::escape(&self.book.config.book.language)
            )
            .into_bytes(),
        ));
        for (from, to) in &html.redirect {
            let path = from.trim_start_matches('/');
            if path.is_empty() || path.split('/').any(|s| s == ".." || s == ".") {
                return Err(Box::new(Diagnostic::error(
                    Code::InvalidConfig,
                    format!(
                    "the redirect from `{from}` in book.toml is not a page path inside the site"
                ),
                )));
            }
            let to = super::html::escape(to);
            files.push((
                PathBuf::from(path),
                format!(
                    "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>Redirecting…</title>\n<meta http-equiv=\"refresh\" content=\"0; URL={to}\">\n<link rel=\"canonical\" href=\"{to}\">\n</head>\n<body>\n<p>This page has moved to <a href=\"{to}\">{to}</a>.</p>\n</body>\n</html>\n"
                )
                .into_bytes(),
            ));
        }
        if let Some(cname) = self
            .book
            .config
            .output
            .get("html")
            .and_then(|t| t.get("cname"))
            .and_then(|v| v.as_str())
        {
            files.push((PathBuf::from("CNAME"), format!("{cname}\n").into_bytes()));
        }
        Ok(files)
    }

    /// The 404 page's body: the book's `404.md` rendered on its own (it is not a chapter), or
    /// mdBook's wording.
    fn not_found_page(&self, input: &str) -> Result<String, Fatal> {
        let path = self.book.src.join(input);
        if !path.is_file() {
            return Ok(NOT_FOUND.to_string());
        }
        let file = super::book::read_source(&self.book.root, &path).map_err(Box::new)?;
        let mut checker = crate::claim::LessonChecker::new(file, self.book.config.limits());
        let flavour = super::markdown::Flavour::of(&self.book.config);
        let page = super::markdown::render_with(&mut checker, input, &flavour, self.book.lints);
        if let Some(d) = checker
            .diagnostics
            .into_iter()
            .find(|d| d.level == crate::diag::Level::Error)
        {
            return Err(Box::new(d));
        }
        Ok(page.html)
    }
}
