//! One lesson checked for the editor: the same stages as a build, on the editor's text.
//!
//! A [`Workspace`] keeps each book it has seen (found by walking up from the lesson to
//! `book.toml`), loaded once and loaded again when `book.toml` or `SUMMARY.md` changes. To
//! check a lesson it expands the lesson's includes, runs the lesson stage on it with the book's
//! settings, and checks its links against every chapter of the book, whose anchors come from
//! checking those chapters once (again when their files change). The book's external
//! preprocessors run when it is loaded, as in `nimbook check`, but not over the editor's text on
//! each change: they take the whole book, and an editor cannot wait for them.
//!
//! What the editor asks for later (hover, completion, definitions, code actions, inlay hints)
//! is answered from the [`Analysis`] without checking again.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::claim::{Checked, Status};
use crate::diag::{Diagnostic, SourceFile};
use crate::site::html;
use crate::site::lesson::book::{Book, Lesson};
use crate::site::lesson::LessonSettings;
use crate::site::load::book::Chapter;
use crate::site::load::sourcemap::SourceMap;
use crate::site::preprocess::Source;

/// How long the quick pass may spend on the searches of one lesson before the claims still
/// searching are left to the full pass.
pub(crate) const QUICK_PASS: Duration = Duration::from_millis(60);

/// Which pass: see the worker's module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Searches stop at [`QUICK_PASS`]; claims that ran out are pending.
    Quick,
    /// The book's own budgets, as in a build.
    Full,
}

/// One statement of the claim language, as the build decided it.
#[derive(Debug, Clone)]
pub(crate) struct Statement {
    /// Its span in the lesson.
    pub(crate) span: Range<usize>,
    /// What a hover shows (markdown).
    pub(crate) hover: String,
    /// The value of a bare expression or a binding, for an inlay hint.
    pub(crate) value: Option<String>,
}

/// A `let` binding: the name and where it is written.
#[derive(Debug, Clone)]
pub(crate) struct Binding {
    pub(crate) name: String,
    pub(crate) span: Range<usize>,
}

/// A link to another lesson (or a heading of this one), resolved.
#[derive(Debug, Clone)]
pub(crate) struct LinkTarget {
    /// Where the link stands.
    pub(crate) span: Range<usize>,
    /// The target file.
    pub(crate) path: PathBuf,
    /// The byte offset of the target heading in it (0 for the top).
    pub(crate) offset: usize,
}

/// What the editor needs of one checked text.
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    /// The text that was checked.
    pub(crate) text: Arc<str>,
    /// Its diagnostics, located in it.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Claims the quick pass left to the full pass.
    pub(crate) pending_spans: Vec<Range<usize>>,
    /// Whether a full pass must follow.
    pub(crate) pending: bool,
    /// Every statement of the claim language, in order.
    pub(crate) statements: Vec<Statement>,
    /// Every `let`, in order.
    pub(crate) bindings: Vec<Binding>,
    /// Links to pages of the book.
    pub(crate) links: Vec<LinkTarget>,
    /// The text in the claim language: `nim` and `nimbook` blocks, `nim:` spans.
    pub(crate) regions: Vec<Range<usize>>,
    /// Said once at the top of the file: why it was checked as it was (no book found, a
    /// `book.toml` that does not load).
    pub(crate) notice: Option<String>,
}

/// A book as the server keeps it.
struct Loaded {
    book: Book,
    /// When `book.toml` and `SUMMARY.md` were last changed, as seen at load.
    stamp: Vec<Option<SystemTime>>,
    /// Every chapter checked once, for its anchors, by path, with the file's time.
    chapters: HashMap<PathBuf, (Option<SystemTime>, Lesson)>,
}

/// The books the server has seen.
#[derive(Default)]
pub(crate) struct Workspace {
    books: HashMap<PathBuf, Loaded>,
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The folder of the nearest `book.toml` above `path`.
pub(crate) fn book_root(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .find(|dir| dir.join("book.toml").is_file())
        .map(Path::to_path_buf)
}

fn stamp(root: &Path) -> Vec<Option<SystemTime>> {
    [
        "book.toml",
        "SUMMARY.md",
        "src/SUMMARY.md",
        "content/SUMMARY.md",
    ]
    .iter()
    .map(|f| modified(&root.join(f)))
    .collect()
}

impl Workspace {
    /// Checks `text`, the editor's copy of the file at `path` (`None` for an unsaved buffer).
    pub(crate) fn analyse(&mut self, path: Option<&Path>, text: &str, mode: Mode) -> Analysis {
        let root = path.and_then(book_root);
        let Some((root, path)) = root.zip(path) else {
            let mut a = standalone(path, text, mode);
            a.notice = Some(
                "no book.toml in any folder above this file: checked as a lesson of a nimbook book with the default settings".into(),
            );
            return a;
        };
        match self.book(&root) {
            Ok(loaded) => loaded.analyse(path, text, mode),
            Err(fatal) => {
                let mut a = standalone(Some(path), text, mode);
                a.notice = Some(format!(
                    "the book's book.toml does not load ({}): checked with the default settings",
                    fatal.message
                ));
                a
            }
        }
    }

    fn book(&mut self, root: &Path) -> Result<&mut Loaded, crate::site::load::Fatal> {
        let fresh = self.books.get(root).is_some_and(|l| l.stamp == stamp(root));
        if !fresh {
            let (book, _) = Book::load(&crate::site::load::Options::new(root))?;
            self.books.insert(
                root.to_path_buf(),
                Loaded {
                    book,
                    stamp: stamp(root),
                    chapters: HashMap::new(),
                },
            );
        }
        self.books.get_mut(root).ok_or_else(|| {
            Box::new(Diagnostic::error(
                crate::diag::Code::IoError,
                "book vanished",
            ))
        })
    }
}

/// A lesson outside any book, or in a book whose configuration does not load.
fn standalone(path: Option<&Path>, text: &str, mode: Mode) -> Analysis {
    let name = path.map_or_else(|| "untitled.md".into(), |p| p.display().to_string());
    let file = SourceFile::new(name, text);
    let mut settings = LessonSettings::default();
    settings.set_limits(limits(crate::claim::Limits::default(), mode));
    let rendered = crate::site::lesson::render(file, "untitled.html", &settings);
    finish(text, rendered.diagnostics, &rendered.page, Vec::new(), mode)
}

fn limits(mut limits: crate::claim::Limits, mode: Mode) -> crate::claim::Limits {
    if mode == Mode::Quick {
        limits.game.max_time = limits.game.max_time.min(QUICK_PASS);
    }
    limits
}

impl Loaded {
    fn analyse(&mut self, path: &Path, text: &str, mode: Mode) -> Analysis {
        let book = &self.book;
        let rel = path.strip_prefix(&book.src).map(Path::to_path_buf).ok();
        let chapter = rel
            .as_ref()
            .and_then(|r| book.chapters.iter().find(|c| c.path.as_ref() == Some(r)))
            .cloned()
            .unwrap_or_else(|| Chapter::loose(rel.clone().unwrap_or_else(|| path.to_path_buf())));
        let source = expand(book, path, text);
        let mut settings = book.settings.clone();
        settings.set_limits(limits(book.config.limits(), mode));
        let checked = book.check_lesson_with(&chapter, Some(&source), &settings);
        let mut diagnostics = checked.outcome.map(|o| o.diagnostics).unwrap_or_default();
        let others = self.chapter_pages(path);
        let lesson = checked.lesson;
        let links = self
            .book
            .check_links(others.iter().chain(std::iter::once(&lesson)));
        diagnostics.extend(links);
        let file_name = &source.file.name;
        diagnostics.retain(|d| {
            d.location
                .as_ref()
                .is_some_and(|(f, _)| &f.name == file_name)
        });
        let targets = link_targets(&self.book, path, &lesson, &others);
        finish(text, diagnostics, &lesson.page, targets, mode)
    }

    /// Every other chapter checked once with the quick budget, for its anchors; again when its
    /// file changed on disk.
    fn chapter_pages(&mut self, except: &Path) -> Vec<Lesson> {
        let book = &self.book;
        let mut quick = book.settings.clone();
        quick.set_limits(limits(book.config.limits(), Mode::Quick));
        let mut out = Vec::new();
        for chapter in &book.chapters {
            let Some(rel) = &chapter.path else { continue };
            let file = book.src.join(rel);
            if file == except {
                continue;
            }
            let time = modified(&file);
            let cached = self.chapters.get(rel).filter(|(t, _)| *t == time);
            let lesson = match cached {
                Some((_, lesson)) => lesson.clone(),
                None => {
                    // Through the book's confined reader, as a build reads it.
                    let Ok(source) = book.files.source(&file, crate::diag::Code::IoError) else {
                        continue;
                    };
                    let text = source.text.as_str();
                    let source = expand(book, &file, text);
                    let lesson = book
                        .check_lesson_with(chapter, Some(&source), &quick)
                        .lesson;
                    self.chapters.insert(rel.clone(), (time, lesson.clone()));
                    lesson
                }
            };
            out.push(lesson);
        }
        out
    }
}

/// Where each link of `lesson` (the file at `path`) leads: the target file, at the heading it
/// names when that heading is known.
fn link_targets(book: &Book, path: &Path, lesson: &Lesson, others: &[Lesson]) -> Vec<LinkTarget> {
    let own = html::url_path(lesson.chapter.path.as_deref().unwrap_or(path));
    lesson
        .page
        .links
        .iter()
        .filter_map(|link| {
            let (file, page) = if link.target.is_empty() || link.target == own {
                (path.to_path_buf(), lesson)
            } else {
                let page = others.iter().find(|o| {
                    o.chapter.path.as_deref().map(html::url_path).as_deref() == Some(&link.target)
                });
                (book.src.join(&link.target), page?)
            };
            let offset = link
                .anchor
                .as_ref()
                .and_then(|a| page.page.headings.iter().find(|h| &h.id == a))
                .map_or(0, |h| h.offset);
            Some(LinkTarget {
                span: link.span.clone(),
                path: file,
                offset,
            })
        })
        .collect()
}

/// The lesson's text with its includes expanded, mapped back to the editor's text.
fn expand(book: &Book, path: &Path, text: &str) -> Source {
    let name = crate::site::load::confine::display_name(&book.root, path);
    let file = SourceFile::new(name, text);
    let map = SourceMap::identity(&file);
    if !text.contains("{{") {
        return Source {
            file,
            map,
            diagnostics: Vec::new(),
        };
    }
    let dir = path.parent().unwrap_or(&book.src);
    let x = crate::site::load::include::expand(&book.files, text, &map, dir);
    Source {
        file: SourceFile::new(file.name.clone(), x.text),
        map: x.map,
        diagnostics: x.diagnostics,
    }
}

/// Turns a lesson's checked statements into what the editor asks for.
fn finish(
    text: &str,
    diagnostics: Vec<Diagnostic>,
    page: &crate::site::RenderedPage,
    links: Vec<LinkTarget>,
    mode: Mode,
) -> Analysis {
    let (pending, diagnostics): (Vec<_>, Vec<_>) = diagnostics
        .into_iter()
        .partition(|d| mode == Mode::Quick && is_out_of_time(d));
    let pending_spans: Vec<_> = pending
        .iter()
        .filter_map(|d| d.location.as_ref().map(|(_, s)| s.clone()))
        .collect();
    let mut statements = Vec::new();
    let mut bindings = Vec::new();
    for c in page.document.checked() {
        let Some(stmt) = &c.stmt else { continue };
        if let crate::claim::ast::Statement::Let {
            name, name_span, ..
        } = &stmt.stmt
        {
            bindings.push(Binding {
                name: name.clone(),
                span: name_span.clone(),
            });
        }
        statements.push(Statement {
            span: stmt.span.clone(),
            hover: hover_text(c, &diagnostics),
            value: matches!(c.status, Status::Value | Status::Bound)
                .then(|| c.value.as_ref().map(ToString::to_string))
                .flatten(),
        });
    }
    statements.extend(page.drawn.iter().map(|(span, html)| Statement {
        span: span.clone(),
        hover: drawn_text(text.get(span.clone()).unwrap_or(""), html),
        value: None,
    }));
    Analysis {
        text: Arc::from(text),
        pending: !pending.is_empty(),
        pending_spans,
        diagnostics,
        statements,
        bindings,
        links,
        regions: super::regions::claim_regions(text),
        notice: None,
    }
}

/// The most lines of a drawing a hover shows, and the most characters of each.
const MAX_DRAWN_LINES: usize = 40;
const MAX_DRAWN_LINE: usize = 160;

/// What a hover over a directive shows: its usage and description from the registry, and the
/// text of what the build drew (a table's numbers, an expansion's steps, a graph's counts), line
/// by line in a code block: a table keeps its rows, its columns aligned.
fn drawn_text(call: &str, html: &str) -> String {
    let name = call.split('(').next().unwrap_or(call).trim();
    let mut out = builtins()
        .into_iter()
        .find(|b| b.0 == name)
        .map_or_else(String::new, |(_, usage, description)| {
            format!("`{usage}`: {description}\n\n")
        });
    let text = html::plain_text(html);
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        out.push_str("drawn by the build (a picture with no text)");
        return out;
    }
    let mut drawn: Vec<String> = aligned(&lines)
        .into_iter()
        .take(MAX_DRAWN_LINES)
        .map(|line| match line.char_indices().nth(MAX_DRAWN_LINE) {
            Some((cut, _)) => format!("{} …", &line[..cut]),
            None => line,
        })
        .collect();
    if lines.len() > MAX_DRAWN_LINES {
        drawn.push("…".into());
    }
    let fence = "`".repeat(longest_backtick_run(&drawn).max(2) + 1);
    out.push_str(&format!(
        "the build drew:\n\n{fence}text\n{}\n{fence}",
        drawn.join("\n")
    ));
    out
}

/// The lines of a drawing's text with each run of table rows (cells split by ` | `) padded to
/// aligned columns.
fn aligned(lines: &[&str]) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let run = lines[i..].iter().take_while(|l| l.contains(" | ")).count();
        if run == 0 {
            out.push(lines[i].to_string());
            i += 1;
            continue;
        }
        let rows: Vec<Vec<&str>> = lines[i..i + run]
            .iter()
            .map(|l| l.split(" | ").collect())
            .collect();
        let mut widths: Vec<usize> = Vec::new();
        for row in &rows {
            for (c, cell) in row.iter().enumerate() {
                let w = cell.chars().count();
                match widths.get_mut(c) {
                    Some(old) => *old = (*old).max(w),
                    None => widths.push(w),
                }
            }
        }
        for row in rows {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, &w)| format!("{cell:>w$}"))
                .collect();
            out.push(cells.join("  ").trim_end().to_string());
        }
        i += run;
    }
    out
}

/// The longest run of backticks in `lines`, so the fence around them can be longer.
fn longest_backtick_run(lines: &[String]) -> usize {
    lines
        .iter()
        .flat_map(|l| l.split(|c| c != '`'))
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// What a hover over a statement shows: the verdict and how it was reached, the statement as
/// the page renders it, and its value.
fn hover_text(c: &Checked, diagnostics: &[Diagnostic]) -> String {
    let Some(stmt) = &c.stmt else {
        return String::new();
    };
    let rendered = stmt.stmt.to_string();
    let mut out = match c.status {
        Status::Holds => match &c.established {
            Some(e) => format!("✓ holds: {e}"),
            None => "✓ holds".to_string(),
        },
        Status::Fails => "✗ does not hold".to_string(),
        Status::Error => "not decided".to_string(),
        Status::Bound => "binding".to_string(),
        Status::Value => "value".to_string(),
    };
    out.push_str(&format!("\n\n```text\n{rendered}\n```"));
    if let Some(v) = &c.value {
        out.push_str(&format!("\n\n= **{v}**"));
    }
    if let Some(w) = &c.witness {
        out.push_str(&format!("\n\nwitness: `{w}`"));
    }
    for d in diagnostics {
        let Some((_, span)) = &d.location else {
            continue;
        };
        if span.start >= stmt.span.start && span.end <= stmt.span.end {
            out.push_str(&format!("\n\n{}: {}", d.message, d.label));
            for n in &d.notes {
                out.push_str(&format!("\n- {n}"));
            }
        }
    }
    out
}

/// Every builtin function and directive: name, usage and one-line description, from the
/// registry.
pub(crate) fn builtins() -> Vec<(&'static str, &'static str, &'static str)> {
    crate::claim::builtins::functions()
        .chain(crate::site::lesson::directives::list())
        .map(|s| (s.name, s.usage, s.description))
        .collect()
}

/// Whether a diagnostic from the quick pass stands for a claim that ran out of the quick pass's
/// time, rather than a finding: the full pass decides it.
fn is_out_of_time(d: &Diagnostic) -> bool {
    d.code == crate::diag::Code::BudgetExceeded
}
