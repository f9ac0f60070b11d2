//! Tera templates: the defaults compiled into nimbook, overridden file by file by a book's own
//! `templates/` folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use tera::{Context, Tera};

use crate::diag::{Code, Diagnostic, SourceFile};
use crate::site::html::url_path;
use crate::site::lesson::book::{Book, Lesson};
use crate::site::load::config::TextDirection;
use crate::site::load::confine::Reader;
use crate::site::load::Fatal;

/// `(name, text)` of each default template, read from `templates/` when nimbook is built.
macro_rules! defaults {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../../templates/", $name)))),*]
    };
}

/// The default templates and assets, by file name.
pub(crate) const DEFAULTS: &[(&str, &str)] = defaults![
    "page.html",
    "head.html",
    "page.js",
    "index.html",
    "sidebar.html",
    "sidebar.js",
    "toc.html",
    "topbar.html",
    "style.css",
    "math.css",
    "widget.js",
    "exercise.js",
    "search.js",
    "handout.html",
    "handout.css",
];

/// Templates and assets used only by `nimbook handout`, not written into the site.
pub(crate) const HANDOUT_ONLY: &[&str] = &["handout.css"];

/// Binary assets written into every site.
pub(crate) const BINARY_ASSETS: &[(&str, &[u8])] = &[(
    "fonts/latinmodern-math.woff2",
    include_bytes!("../../../templates/fonts/latinmodern-math.woff2"),
)];

/// Loads the templates: defaults first, then, when `book` is given (a trusted book's reader),
/// the book's `templates/*` of the same names, read through the confined reader.
pub(crate) fn load(book: Option<&Reader>) -> Result<(Tera, BTreeMap<String, String>), Fatal> {
    let mut sources: BTreeMap<String, (String, String)> = DEFAULTS
        .iter()
        .map(|(n, t)| (n.to_string(), (format!("(built-in) {n}"), t.to_string())))
        .collect();
    for (name, _) in DEFAULTS {
        let Some(files) = book else { break };
        let p = files.root().join("templates").join(name);
        if p.symlink_metadata().is_ok() {
            // A refused template is reported at the file that names it: its own path.
            let file = files.source(&p, Code::TemplateError).map_err(|d| {
                let place = SourceFile::new(files.name(&p), "");
                Box::new(if d.location.is_none() {
                    d.at(&place, 0..0)
                } else {
                    d
                })
            })?;
            sources.insert(name.to_string(), (file.name.clone(), file.text.clone()));
        }
    }
    let mut tera = Tera::default();
    // Tera's `get_env` would let a template publish the build's environment (CI tokens
    // included); nothing from the environment may reach a page.
    tera.register_function(
        "get_env",
        |_: &std::collections::HashMap<String, tera::Value>| {
            Err::<tera::Value, _>(tera::Error::msg(
                "get_env is not available: nimbook templates cannot read the environment",
            ))
        },
    );
    tera.autoescape_on(vec![".html"]);
    let mut assets = BTreeMap::new();
    for (name, (shown, text)) in &sources {
        if name.ends_with(".html") {
            // Read as every source text is (one kind of line ending), so that Tera's line
            // numbers are the lines a diagnostic counts.
            let text = crate::diag::text::normalize(text);
            tera.add_raw_template(name, &text).map_err(|e| {
                let chain = error_chain(&e);
                let mut d = Diagnostic::error(
                    Code::TemplateError,
                    format!("template {shown} does not parse"),
                );
                // Tera names the place as ` --> line:column`; without it there is no honest
                // location, and a made-up line 1 would mislead.
                if let Some(at) = parse_error_offset(&text, &chain) {
                    let file = SourceFile::new(shown.clone(), text.to_string());
                    let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                    d = d.at(&file, at..end);
                }
                Box::new(d.note(chain))
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

/// The byte offset in `text` of the ` --> line:column` (1-based, columns in characters) that a
/// Tera parse error gives.
fn parse_error_offset(text: &str, message: &str) -> Option<usize> {
    let at = message.find("--> ")?;
    let place = message[at + 4..].split_whitespace().next()?;
    let (line, column) = place.split_once(':')?;
    let (line, column): (usize, usize) = (line.parse().ok()?, column.parse().ok()?);
    let start: usize = text
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum();
    let rest = text.get(start..)?;
    let line_text = rest.split('\n').next().unwrap_or("");
    let offset = line_text
        .char_indices()
        .nth(column.checked_sub(1)?)
        .map_or(line_text.len(), |(i, _)| i);
    Some(start + offset)
}

#[derive(Serialize)]
pub(crate) struct BookContext<'a> {
    title: &'a str,
    description: &'a str,
    authors: &'a [String],
    language: &'a str,
    direction: TextDirection,
    /// `git-repository-url`: the repository link of the top bar.
    repository: Option<&'a str>,
    /// The theme of a page for a light and a dark system, when the book sets them.
    themes: Option<Themes>,
    /// What `page.js` does with code blocks, for `<meta name="nimbook-code">`: `nocopy` (no
    /// copy buttons), `edit` (`editable` blocks can be edited); empty for the defaults.
    code: &'a str,
    /// With `[output.pdf]`, the file name of the book's PDF in the site.
    pdf: Option<&'a str>,
}

/// The theme a page starts in, for a light and for a dark system: nimbook's two, from mdBook's
/// five (`light` and `rust` are light; `coal`, `navy` and `ayu` are dark).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Themes {
    light: &'static str,
    dark: &'static str,
}

impl Themes {
    /// The themes of `[output.html]` `default-theme` and `preferred-dark-theme`, or `None`
    /// when they are nimbook's own (light on a light system, dark on a dark one). A name that
    /// is not one of mdBook's themes keeps the default.
    fn of(default_theme: Option<&str>, preferred_dark: Option<&str>) -> Option<Themes> {
        let shade = |name: Option<&str>, otherwise: &'static str| match name
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("light" | "rust") => "light",
            Some("coal" | "navy" | "ayu") => "dark",
            _ => otherwise,
        };
        let themes = Themes {
            light: shade(default_theme, "light"),
            dark: shade(preferred_dark, "dark"),
        };
        (themes
            != Themes {
                light: "light",
                dark: "dark",
            })
        .then_some(themes)
    }
}

/// How a chapter's "Suggest an edit" link is made: `edit-url-template` with `{path}` filled
/// as mdBook fills it, the source folder as `book.toml` names it and the chapter's source path.
struct EditLink {
    template: String,
    src: String,
}

impl EditLink {
    fn url(&self, source: &Path) -> String {
        let path = format!("{}/{}", self.src, url_path(source));
        self.template.replace("{path}", &path)
    }
}

#[derive(Serialize, Clone, PartialEq)]
struct Link {
    title: String,
    url: String,
    number: String,
}

#[derive(Serialize, PartialEq)]
struct TocEntry {
    title: String,
    url: Option<String>,
    number: String,
    depth: usize,
    part: Option<String>,
    separator: bool,
    id: String,
    /// How many exercises the lesson has, for the progress mark.
    exercises: usize,
}

/// `../` repeated once per folder of `path`.
fn root_prefix(path: &Path) -> String {
    "../".repeat(path.components().count().saturating_sub(1))
}

/// The book's own stylesheets and scripts, linked from every page (paths from the site root).
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Extra {
    pub(crate) css: Vec<String>,
    pub(crate) js: Vec<String>,
    /// The HTML of the book's `theme/head.hbs`, for every page's head.
    pub(crate) head: String,
}

/// Everything a page of the site is rendered from: the templates, the book's context and the
/// table of contents. Made once per build; each page is then rendered on its own, so pages can
/// be written as they are rendered and a rebuild can render only the pages that changed.
pub(crate) struct SiteRenderer {
    tera: Tera,
    assets: BTreeMap<String, String>,
    title: String,
    description: String,
    authors: Vec<String>,
    language: String,
    direction: TextDirection,
    pdf: Option<String>,
    entries: Vec<TocEntry>,
    links: Vec<Option<Link>>,
    /// The book's number account, stated on the front page.
    numbers: crate::site::lesson::coverage::NumberCounts,
    /// The pages mdBook writes besides the chapters, and the book's additional CSS and JS.
    extra: Extra,
    /// An mdBook book with no front page of its own shows its first chapter there.
    mdbook_front: bool,
    /// By a chapter's page path, the script that sends its moved anchors on
    /// (`[output.html.redirect]` entries with a fragment).
    fragments: std::collections::HashMap<String, String>,
    /// Whether the book names results: the table of contents then links `results.html`.
    results: bool,
    /// Whether the sidebar shows section numbers (`no-section-label` is off).
    numbered: bool,
    /// How many levels of the sidebar start unfolded (`[output.html.fold]`); `None`: all.
    unfolded_levels: Option<u8>,
    /// `git-repository-url`.
    repository: Option<String>,
    /// `edit-url-template`.
    edit: Option<EditLink>,
    /// `default-theme` and `preferred-dark-theme`.
    themes: Option<Themes>,
    /// See [`BookContext::code`].
    code: String,
}

/// The file that holds the table of contents as a script, for the sidebar of every page.
pub(crate) const TOC_SCRIPT: &str = "toc.js";

/// The table of contents as a page of its own, for readers without JavaScript.
pub(crate) const TOC_PAGE: &str = "toc.html";

/// The variable [`TOC_SCRIPT`] assigns; `sidebar.js` reads it.
const TOC_GLOBAL: &str = "nimbookToc";

fn render_err(name: &str, e: tera::Error) -> Fatal {
    Box::new(Diagnostic::error(
        Code::TemplateError,
        format!("template {name} failed: {}", error_chain(&e)),
    ))
}

impl SiteRenderer {
    /// Loads the templates and lays out the table of contents of `lessons`.
    pub(crate) fn new(
        book: &Book,
        lessons: &[Lesson],
        numbers: crate::site::lesson::coverage::NumberCounts,
        extra: Extra,
    ) -> Result<SiteRenderer, Fatal> {
        let (tera, assets) = load(book.own_templates())?;
        let html = &book.config.html;
        let numbered = !html.no_section_label;
        let code = [
            (!html.playground.copyable).then_some("nocopy"),
            html.playground.editable.then_some("edit"),
        ];
        // `{path}` is the chapter's path from the book root, the source folder spelt as
        // book.toml spells it (mdBook's `src` by default).
        let src = match &book.config.book.src {
            Some(s) => s.to_string_lossy().into_owned(),
            None => book
                .src
                .strip_prefix(&book.root)
                .map_or_else(|_| "src".into(), url_path),
        };
        Ok(SiteRenderer {
            repository: html.git_repository_url.clone(),
            edit: html
                .edit_url_template
                .clone()
                .map(|template| EditLink { template, src }),
            themes: Themes::of(
                html.default_theme.as_deref(),
                html.preferred_dark_theme.as_deref(),
            ),
            code: code.iter().flatten().copied().collect::<Vec<_>>().join(" "),
            tera,
            assets,
            title: book
                .config
                .book
                .title
                .clone()
                .unwrap_or_else(|| "nimbook".into()),
            description: book.config.book.description.clone().unwrap_or_default(),
            authors: book.config.book.authors.clone(),
            language: book.config.book.language.clone(),
            direction: book.config.book.text_direction,
            pdf: book.config.pdf_file_name(),
            numbered,
            unfolded_levels: book.config.html.fold.unfolded_levels(),
            entries: lessons
                .iter()
                .enumerate()
                .map(|(i, l)| toc_entry(i, l, numbered))
                .collect(),
            links: lessons.iter().map(link).collect(),
            numbers,
            extra,
            mdbook_front: !book.config.is_nimbook(),
            fragments: std::collections::HashMap::new(),
            results: false,
        })
    }

    /// This renderer, with a link to `results.html` in the table of contents when the book
    /// names results.
    pub(crate) fn with_results(mut self, results: bool) -> Self {
        self.results = results;
        self
    }

    /// This renderer, with the scripts that send each chapter page's moved anchors on.
    pub(crate) fn with_fragments(
        mut self,
        fragments: std::collections::HashMap<String, String>,
    ) -> Self {
        self.fragments = fragments;
        self
    }

    fn book_context(&self) -> BookContext<'_> {
        BookContext {
            title: &self.title,
            description: &self.description,
            authors: &self.authors,
            language: &self.language,
            direction: self.direction,
            repository: self.repository.as_deref(),
            themes: self.themes,
            code: &self.code,
            pdf: self.pdf.as_deref(),
        }
    }

    /// Takes in a lesson rendered again; says whether the table of contents changed (its title,
    /// for a book without `SUMMARY.md`), in which case its neighbours, the contents and the
    /// front page must be rendered again too.
    pub(crate) fn update(&mut self, i: usize, lesson: &Lesson) -> bool {
        let (entry, link) = (toc_entry(i, lesson, self.numbered), link(lesson));
        let changed = self.entries.get(i) != Some(&entry) || self.links.get(i) != Some(&link);
        if let (Some(e), Some(l)) = (self.entries.get_mut(i), self.links.get_mut(i)) {
            *e = entry;
            *l = link;
        }
        changed
    }

    /// Takes in the book's number account after a rebuild; says whether it changed (then the
    /// front page, which states it, must be rendered again).
    pub(crate) fn set_numbers(
        &mut self,
        numbers: crate::site::lesson::coverage::NumberCounts,
    ) -> bool {
        std::mem::replace(&mut self.numbers, numbers) != numbers
    }

    /// The lessons whose pages show lesson `i` as their previous or next link.
    pub(crate) fn neighbours(&self, i: usize) -> Vec<usize> {
        let before = (0..i).rev().find(|&j| self.links[j].is_some());
        let after = (i + 1..self.links.len()).find(|&j| self.links[j].is_some());
        before.into_iter().chain(after).collect()
    }

    /// The page of lesson `i`: its path in the output folder and its HTML (`None` for a draft).
    pub(crate) fn page(
        &self,
        i: usize,
        lesson: &Lesson,
    ) -> Result<Option<(PathBuf, String)>, Fatal> {
        let Some(out) = lesson.chapter.out_path() else {
            return Ok(None);
        };
        let html = self.page_at(i, lesson, &out, &lesson.page.html)?;
        Ok(Some((out, html)))
    }

    /// The page of lesson `i` as written at `out` (its own page, or the front page), with
    /// `content` as its body.
    fn page_at(
        &self,
        i: usize,
        lesson: &Lesson,
        out: &Path,
        content: &str,
    ) -> Result<String, Fatal> {
        let prefix = root_prefix(out);
        let prev = self.links[..i].iter().rev().flatten().next();
        let next = self.links[i + 1..].iter().flatten().next();
        let mut ctx = Context::new();
        ctx.insert("book", &self.book_context());
        ctx.insert("root", &prefix);
        ctx.insert("current", &format!("toc-{i}"));
        ctx.insert("current_url", &url_path(out));
        ctx.insert("extra", &self.extra);
        ctx.insert(
            "title",
            lesson
                .chapter
                .page_title
                .as_ref()
                .unwrap_or(&lesson.chapter.title),
        );
        ctx.insert("number", &lesson.chapter.number.clone().unwrap_or_default());
        ctx.insert("content", content);
        ctx.insert("headings", &lesson.page.headings);
        ctx.insert("prev", &prev);
        ctx.insert("next", &next);
        if let (Some(edit), Some(source)) = (&self.edit, &lesson.chapter.path) {
            ctx.insert("edit_url", &edit.url(source));
        }
        let mut html = self
            .tera
            .render("page.html", &ctx)
            .map_err(|e| render_err("page.html", e))?;
        // Anchors of this page that `[output.html.redirect]` sends elsewhere.
        if let Some(script) = self.fragments.get(&url_path(out)) {
            let at = html.rfind("</body>").unwrap_or(html.len());
            html.insert_str(at, script);
        }
        Ok(html)
    }

    /// The table of contents, rendered once with links relative to the site root: a list of
    /// lists, each chapter's sub-chapters nested in its item, so that `sidebar.js` can fold a
    /// section and a reader without JavaScript still sees its shape.
    fn toc(&self) -> Result<String, Fatal> {
        let mut ctx = Context::new();
        ctx.insert("root", "");
        ctx.insert("chapters", &toc_rows(&self.entries));
        ctx.insert("unfolded_levels", &self.unfolded_levels);
        ctx.insert("results", &self.results);
        self.tera
            .render("sidebar.html", &ctx)
            .map_err(|e| render_err("sidebar.html", e))
    }

    /// `toc.js`, the script that holds the table of contents for `sidebar.js`: one copy for
    /// the whole site instead of one in every page, which made the site grow with the square
    /// of the number of chapters.
    pub(crate) fn toc_script(&self) -> Result<String, Fatal> {
        // A JSON string is a JavaScript string literal; serializing a `str` cannot fail.
        let json = serde_json::to_string(&self.toc()?).unwrap_or_else(|_| "\"\"".into());
        Ok(format!("window.{TOC_GLOBAL} = {json};\n"))
    }

    /// `toc.html`, the table of contents as a page, linked from the sidebar of every page so
    /// that the book stays navigable with JavaScript off.
    pub(crate) fn toc_page(&self) -> Result<String, Fatal> {
        let mut ctx = Context::new();
        ctx.insert("book", &self.book_context());
        ctx.insert("root", "");
        ctx.insert("current_url", TOC_PAGE);
        ctx.insert("toc", &self.toc()?);
        self.tera
            .render("toc.html", &ctx)
            .map_err(|e| render_err("toc.html", e))
    }

    /// The front page `index.html`, unless a lesson is the front page. An mdBook book without
    /// one shows its first chapter there, as mdBook does, wherever that chapter sits (its links
    /// are made to start from the site root, so that they hold there too); a nimbook book gets
    /// nimbook's contents page.
    pub(crate) fn index_page(&self, lessons: &[Lesson]) -> Result<Option<String>, Fatal> {
        if self.links.iter().flatten().any(|l| l.url == "index.html") {
            return Ok(None);
        }
        if self.mdbook_front {
            let first = lessons
                .iter()
                .enumerate()
                .find_map(|(i, l)| Some((i, l, l.chapter.out_path()?)));
            if let Some((i, lesson, out)) = first {
                let content = crate::site::html::rebase_links(&lesson.page.html, &url_path(&out));
                return self
                    .page_at(i, lesson, Path::new("index.html"), &content)
                    .map(Some);
            }
        }
        let mut ctx = Context::new();
        ctx.insert("book", &self.book_context());
        ctx.insert("root", "");
        ctx.insert("current_url", "index.html");
        ctx.insert("extra", &self.extra);
        ctx.insert("chapters", &self.entries);
        ctx.insert("first", &self.links.iter().flatten().next());
        // The front page's promise, with the figure that makes it true (or says it is not); a
        // book without claims makes none.
        ctx.insert("nimbook", &!self.mdbook_front);
        ctx.insert("verified", &self.numbers.verified);
        ctx.insert("unverified", &self.numbers.unverified);
        ctx.insert("exempt", &self.numbers.exempt);
        let index = self
            .tera
            .render("index.html", &ctx)
            .map_err(|e| render_err("index.html", e))?;
        Ok(Some(index))
    }

    /// A page of the site that is not a lesson (`404.html`, `print.html`), in the page template:
    /// `root` is the way from the page to the site root.
    pub(crate) fn plain_page(
        &self,
        root: &str,
        title: &str,
        content: &str,
    ) -> Result<String, Fatal> {
        let mut ctx = Context::new();
        ctx.insert("book", &self.book_context());
        ctx.insert("root", root);
        ctx.insert("current", "none");
        ctx.insert("current_url", "");
        ctx.insert("extra", &self.extra);
        ctx.insert("title", title);
        ctx.insert("number", "");
        ctx.insert("content", content);
        ctx.insert(
            "headings",
            &Vec::<crate::site::lesson::markdown::Heading>::new(),
        );
        ctx.insert("prev", &None::<()>);
        ctx.insert("next", &None::<()>);
        self.tera
            .render("page.html", &ctx)
            .map_err(|e| render_err("page.html", e))
    }

    /// The stylesheets, scripts and fonts every site carries: `(path, bytes)`.
    pub(crate) fn assets(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        for (name, text) in &self.assets {
            if HANDOUT_ONLY.contains(&name.as_str()) {
                continue;
            }
            files.push((PathBuf::from(name), text.clone().into_bytes()));
        }
        for (name, bytes) in BINARY_ASSETS {
            files.push((PathBuf::from(name), bytes.to_vec()));
        }
        files.push((
            PathBuf::from("highlight.css"),
            crate::site::lesson::highlight::stylesheet().into_bytes(),
        ));
        files
    }
}

fn toc_entry(i: usize, l: &Lesson, numbered: bool) -> TocEntry {
    TocEntry {
        title: l.chapter.title.clone(),
        url: l.chapter.out_path().map(|p| url_path(&p)),
        number: if numbered {
            l.chapter.number.clone().unwrap_or_default()
        } else {
            String::new()
        },
        depth: l.chapter.depth,
        part: l.chapter.part.clone(),
        separator: l.chapter.separator,
        id: format!("toc-{i}"),
        exercises: l.page.answers.len(),
    }
}

/// A chapter of the table of contents with the lists its item opens and closes.
#[derive(Serialize)]
struct TocRow<'a> {
    #[serde(flatten)]
    entry: &'a TocEntry,
    /// Whether the next chapter is this one's first sub-chapter (its item stays open for them).
    opens: bool,
    /// How many nested lists (each with the item that holds it) end after this chapter.
    closes: usize,
}

/// The rows of the nested table of contents. A chapter is nested at most one level deeper than
/// the chapter before it (a book without `SUMMARY.md` can skip a folder level), so that every
/// nested list belongs to a chapter.
fn toc_rows(entries: &[TocEntry]) -> Vec<TocRow<'_>> {
    let mut levels = Vec::with_capacity(entries.len());
    let mut previous: Option<usize> = None;
    for e in entries {
        let level = previous.map_or(0, |p| e.depth.min(p + 1));
        levels.push(level);
        previous = Some(level);
    }
    entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let here = levels[i];
            let next = levels.get(i + 1).copied().unwrap_or(0);
            TocRow {
                entry,
                opens: next > here,
                closes: here.saturating_sub(next),
            }
        })
        .collect()
}

fn link(l: &Lesson) -> Option<Link> {
    l.chapter.out_path().map(|p| Link {
        title: l.chapter.title.clone(),
        url: url_path(&p),
        number: l.chapter.number.clone().unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of contents of chapters at `depths`, rendered by the built-in `sidebar.html`.
    fn toc_of(depths: &[usize]) -> String {
        let entries: Vec<TocEntry> = depths
            .iter()
            .enumerate()
            .map(|(i, &depth)| TocEntry {
                title: format!("c{i}"),
                url: Some(format!("c{i}.html")),
                number: String::new(),
                depth,
                part: None,
                separator: false,
                id: format!("toc-{i}"),
                exercises: 0,
            })
            .collect();
        let mut tera = Tera::default();
        tera.add_raw_template(
            "sidebar.html",
            include_str!("../../../templates/sidebar.html"),
        )
        .expect("template");
        let mut ctx = Context::new();
        ctx.insert("root", "");
        ctx.insert("chapters", &toc_rows(&entries));
        ctx.insert("unfolded_levels", &None::<u8>);
        tera.render("sidebar.html", &ctx).expect("render")
    }

    /// Each chapter's title with the number of lists around it, read from the HTML by a tag
    /// count (not by the code under test).
    fn nesting(html: &str) -> Vec<(String, usize)> {
        let mut depth = 0usize;
        let mut out = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find('<') {
            rest = &rest[at..];
            if rest.starts_with("<ol") {
                depth += 1;
            } else if rest.starts_with("</ol>") {
                depth = depth.checked_sub(1).expect("an </ol> without its <ol>");
            } else if let Some(t) = rest.strip_prefix("<a href=\"") {
                let title = t.split('"').next().unwrap_or("").trim_end_matches(".html");
                out.push((title.to_string(), depth));
            }
            rest = &rest[1..];
        }
        assert_eq!(depth, 0, "every list closed: {html}");
        assert_eq!(
            html.matches("<li").count(),
            html.matches("</li>").count(),
            "{html}"
        );
        out
    }

    /// Chapters `c0`, `c1`, … at the given list depths.
    fn chapters_at(depths: &[usize]) -> Vec<(String, usize)> {
        depths
            .iter()
            .enumerate()
            .map(|(i, &d)| (format!("c{i}"), d))
            .collect()
    }

    #[test]
    fn the_table_of_contents_nests_sub_chapters_in_their_chapter() {
        let got = nesting(&toc_of(&[0, 1, 2, 2, 1, 0, 1, 2, 3, 0]));
        assert_eq!(got, chapters_at(&[1, 2, 3, 3, 2, 1, 2, 3, 4, 1]));
    }

    #[test]
    fn a_skipped_level_nests_one_deeper_than_the_chapter_before() {
        // A walked book can put a chapter two folders below the one before it.
        let got = nesting(&toc_of(&[2, 0, 3, 1]));
        assert_eq!(got, chapters_at(&[1, 1, 2, 2]));
    }

    #[test]
    fn a_template_that_does_not_parse_is_located_at_its_line() {
        let dir = tempfile::tempdir().expect("temp");
        std::fs::create_dir_all(dir.path().join("templates")).expect("mkdir");
        std::fs::write(
            dir.path().join("templates/page.html"),
            "<html>\n<body>\n{% if x %}\n<p>{{ content | safe }}</p>\n</body>\n",
        )
        .expect("write");
        let files = crate::site::load::confine::Reader::new(
            dir.path(),
            &[],
            1 << 20,
            crate::site::load::confine::Trust::Trusted,
        )
        .expect("reader");
        let Err(d) = load(Some(&files)) else {
            panic!("an unclosed {{% if %}} must not load");
        };
        let (name, line, _) = d.position().expect("a location");
        assert_eq!(name, "templates/page.html");
        assert!(
            line > 1,
            "line {line}: {}",
            d.render(crate::diag::MessageFormat::Human, false)
        );
    }

    #[test]
    fn error_places_become_offsets() {
        let text = "ab\ncdé f\n";
        assert_eq!(parse_error_offset(text, "x\n --> 2:5\n  |"), Some(8));
        assert_eq!(parse_error_offset(text, "x --> 1:1"), Some(0));
        assert_eq!(parse_error_offset(text, "no place"), None);
        assert_eq!(parse_error_offset(text, " --> 0:1"), None);
    }
}
