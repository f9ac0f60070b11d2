//! Tera templates: the defaults compiled into nimbook, overridden file by file by a book's own
//! `templates/` folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use tera::{Context, Tera};

use super::html::url_path;
use super::{Book, Fatal, Lesson};
use crate::diag::{Code, Diagnostic, SourceFile};

/// The default templates and assets, by file name.
pub const DEFAULTS: &[(&str, &str)] = &[
    ("page.html", include_str!("../../templates/page.html")),
    ("index.html", include_str!("../../templates/index.html")),
    ("sidebar.html", include_str!("../../templates/sidebar.html")),
    ("topbar.html", include_str!("../../templates/topbar.html")),
    ("style.css", include_str!("../../templates/style.css")),
    ("math.css", include_str!("../../templates/math.css")),
    ("widget.js", include_str!("../../templates/widget.js")),
    ("search.js", include_str!("../../templates/search.js")),
    ("handout.html", include_str!("../../templates/handout.html")),
    ("handout.css", include_str!("../../templates/handout.css")),
];

/// Templates and assets used only by `nimbook handout`, not written into the site.
pub const HANDOUT_ONLY: &[&str] = &["handout.css"];

/// Binary assets written into every site.
pub const BINARY_ASSETS: &[(&str, &[u8])] = &[(
    "fonts/latinmodern-math.woff2",
    include_bytes!("../../templates/fonts/latinmodern-math.woff2"),
)];

/// Loads the templates: defaults first, then the book's `templates/*` of the same names.
pub fn load(root: &Path) -> Result<(Tera, BTreeMap<String, String>), Fatal> {
    let mut sources: BTreeMap<String, (String, String)> = DEFAULTS
        .iter()
        .map(|(n, t)| (n.to_string(), (format!("(built-in) {n}"), t.to_string())))
        .collect();
    let dir = root.join("templates");
    for (name, _) in DEFAULTS {
        let p = dir.join(name);
        if p.is_file() {
            let text = std::fs::read_to_string(&p).map_err(|e| {
                Box::new(Diagnostic::error(
                    Code::IoError,
                    format!("cannot read {}: {e}", p.display()),
                ))
            })?;
            sources.insert(
                name.to_string(),
                (super::book::display_name(root, &p), text),
            );
        }
    }
    let mut tera = Tera::default();
    tera.autoescape_on(vec![".html"]);
    let mut assets = BTreeMap::new();
    for (name, (shown, text)) in &sources {
        if name.ends_with(".html") {
            tera.add_raw_template(name, text).map_err(|e| {
                let file = SourceFile::new(shown.clone(), text.clone());
                Box::new(
                    Diagnostic::error(
                        Code::TemplateError,
                        format!("template {shown} does not parse"),
                    )
                    .at(&file, 0..0)
                    .note(error_chain(&e)),
                )
            })?;
        } else {
            assets.insert(name.clone(), text.clone());
        }
    }
    Ok((tera, assets))
}

pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

#[derive(Serialize)]
pub(crate) struct BookContext<'a> {
    title: &'a str,
    description: &'a str,
    authors: &'a [String],
    language: &'a str,
}

#[derive(Serialize, Clone)]
struct Link {
    title: String,
    url: String,
    number: String,
}

#[derive(Serialize)]
pub(crate) struct TocEntry {
    title: String,
    url: Option<String>,
    number: String,
    depth: usize,
    part: Option<String>,
    separator: bool,
    id: String,
}

/// `../` repeated once per folder of `path`.
fn root_prefix(path: &Path) -> String {
    "../".repeat(path.components().count().saturating_sub(1))
}

/// Renders every page and asset, in memory: `(path in the output folder, bytes)`.
pub fn render_site(
    book: &Book,
    lessons: &[Lesson],
    numbers: super::coverage::NumberCounts,
) -> Result<Vec<(PathBuf, Vec<u8>)>, Fatal> {
    let (tera, assets) = load(&book.root)?;
    let render_err = |name: &str, e: tera::Error| {
        Box::new(Diagnostic::error(
            Code::TemplateError,
            format!("template {name} failed: {}", error_chain(&e)),
        ))
    };
    let title = book
        .config
        .book
        .title
        .clone()
        .unwrap_or_else(|| "nimbook".into());
    let description = book.config.book.description.clone().unwrap_or_default();
    let book_ctx = BookContext {
        title: &title,
        description: &description,
        authors: &book.config.book.authors,
        language: &book.config.book.language,
    };
    let entries: Vec<TocEntry> = lessons
        .iter()
        .enumerate()
        .map(|(i, l)| TocEntry {
            title: l.chapter.title.clone(),
            url: l.chapter.out_path().map(|p| url_path(&p)),
            number: if book.config.html.no_section_label {
                String::new()
            } else {
                l.chapter.number.clone().unwrap_or_default()
            },
            depth: l.chapter.depth,
            part: l.chapter.part.clone(),
            separator: l.chapter.separator,
            id: format!("toc-{i}"),
        })
        .collect();
    // The sidebar is the same on every page but for the prefix to the site root, so it is
    // rendered once per prefix, not once per page: a table of contents rendered per page
    // makes the build quadratic in the number of chapters.
    let mut sidebars: BTreeMap<String, String> = BTreeMap::new();
    let mut files = Vec::new();
    let extra = super::pages::extra_assets(book, &mut files)?;
    let links: Vec<Option<Link>> = lessons
        .iter()
        .map(|l| {
            l.chapter.out_path().map(|p| Link {
                title: l.chapter.title.clone(),
                url: url_path(&p),
                number: l.chapter.number.clone().unwrap_or_default(),
            })
        })
        .collect();
    let mut sidebar_for = |prefix: &str| -> Result<String, Fatal> {
        if let Some(s) = sidebars.get(prefix) {
            return Ok(s.clone());
        }
        let mut ctx = Context::new();
        ctx.insert("root", prefix);
        ctx.insert("chapters", &entries);
        let s = tera
            .render("sidebar.html", &ctx)
            .map_err(|e| render_err("sidebar.html", e))?;
        sidebars.insert(prefix.to_string(), s.clone());
        Ok(s)
    };
    for (i, lesson) in lessons.iter().enumerate() {
        let Some(out) = lesson.chapter.out_path() else {
            continue;
        };
        let prefix = root_prefix(&out);
        let prev = links[..i].iter().rev().flatten().next().cloned();
        let next = links[i + 1..].iter().flatten().next().cloned();
        let mut ctx = Context::new();
        ctx.insert("book", &book_ctx);
        ctx.insert("root", &prefix);
        ctx.insert("sidebar", &sidebar_for(&prefix)?);
        ctx.insert("current", &format!("toc-{i}"));
        ctx.insert("extra", &extra);
        ctx.insert(
            "title",
            lesson
                .chapter
                .page_title
                .as_ref()
                .unwrap_or(&lesson.chapter.title),
        );
        ctx.insert("number", &lesson.chapter.number.clone().unwrap_or_default());
        ctx.insert("content", &lesson.page.html);
        ctx.insert("headings", &lesson.page.headings);
        ctx.insert("prev", &prev);
        ctx.insert("next", &next);
        let html = tera
            .render("page.html", &ctx)
            .map_err(|e| render_err("page.html", e))?;
        files.push((out, html.into_bytes()));
    }
    // A lesson named index.md (or README.md) is the front page. Otherwise an mdBook book shows
    // its first chapter there, as mdBook does, when that chapter's page is at the top level (so
    // its relative links hold); a nimbook book gets nimbook's contents page.
    let first_top = files
        .iter()
        .find(|(p, _)| {
            p.extension().is_some_and(|x| x == "html")
                && p.parent().is_some_and(|d| d.as_os_str().is_empty())
        })
        .map(|(_, bytes)| bytes.clone());
    if !book.config.is_nimbook() && !files.iter().any(|(p, _)| p == Path::new("index.html")) {
        if let Some(bytes) = first_top {
            files.push((PathBuf::from("index.html"), bytes));
        }
    }
    if !files.iter().any(|(p, _)| p == Path::new("index.html")) {
        let mut ctx = Context::new();
        ctx.insert("book", &book_ctx);
        ctx.insert("root", "");
        ctx.insert("sidebar", &sidebar_for("")?);
        ctx.insert("chapters", &entries);
        ctx.insert("first", &links.iter().flatten().next());
        ctx.insert("extra", &extra);
        // The front page's promise, with the figure that makes it true (or says it is not).
        ctx.insert("verified", &numbers.verified);
        ctx.insert("unverified", &numbers.unverified);
        ctx.insert("exempt", &numbers.exempt);
        let index = tera
            .render("index.html", &ctx)
            .map_err(|e| render_err("index.html", e))?;
        files.push((PathBuf::from("index.html"), index.into_bytes()));
    }
    let mut extra_pages = super::pages::Pages {
        book,
        tera: &tera,
        book_ctx: &book_ctx,
        extra: &extra,
    };
    files.extend(extra_pages.render(lessons, &mut sidebar_for)?);
    for (name, text) in assets {
        if HANDOUT_ONLY.contains(&name.as_str()) {
            continue;
        }
        files.push((PathBuf::from(name), text.into_bytes()));
    }
    for (name, bytes) in BINARY_ASSETS {
        files.push((PathBuf::from(name), bytes.to_vec()));
    }
    files.push((
        PathBuf::from(super::search::FILE),
        super::search::SearchIndex::build(lessons)
            .to_script()
            .into_bytes(),
    ));
    files.push((
        PathBuf::from("highlight.css"),
        super::highlight::stylesheet().into_bytes(),
    ));
    Ok(files)
}
