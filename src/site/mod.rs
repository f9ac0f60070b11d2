//! The site: load a book, check every lesson, render pages, write the output atomically.
//!
//! The stages are plain functions over plain values: the configuration from `book.toml`, the
//! chapter list from `SUMMARY.md` or the source folder, one
//! [`LessonChecker`] per lesson (lessons are independent, so they run in parallel with rayon),
//! then templates. Nothing is written unless every lesson checked clean, and the new site
//! replaces the old one only once it is complete.

mod handout;
mod html;
mod lesson;
mod load;
mod lsp;
mod output;
mod preprocess;
mod render;
mod serve;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::claim::LessonChecker;
use crate::diag::{Code, Diagnostic};
pub use handout::handout;
use lesson::coverage;
pub use lesson::coverage::{Lint, LintLevel, Lints, NumberCounts};
use lesson::markdown;
pub use lesson::markdown::{render as render_lesson, RenderedPage};
use load::book::{self, Chapter};
use load::compat;
use load::config::Config;
pub use lsp::lsp;
use render::{search, templates};
pub use serve::live::{LiveSite, Update};
pub use serve::{serve, ServeEvent, ServeOptions};

/// What a check or a build found.
#[derive(Debug, Default)]
pub struct Report {
    /// Every diagnostic, in chapter order.
    pub diagnostics: Vec<Diagnostic>,
    /// Claims checked.
    pub claims: usize,
    /// Lessons read.
    pub lessons: usize,
    /// Errors found (failed claims and other content errors).
    pub errors: usize,
    /// Where the site was written, for a successful build.
    pub output: Option<PathBuf>,
    /// The number account of the whole book: verified, unverified, exempt.
    pub numbers: coverage::NumberCounts,
    /// The number account of each lesson, by source path, in chapter order.
    pub lesson_numbers: Vec<(String, coverage::NumberCounts)>,
}

impl Report {
    /// The summary line printed at the end of `check` and `build`.
    pub fn summary(&self) -> String {
        let verdict = if self.errors == 0 {
            "all hold".to_string()
        } else {
            format!("{} failed", self.errors)
        };
        format!(
            "checked {} claim{} in {} lesson{}: {verdict}",
            self.claims,
            if self.claims == 1 { "" } else { "s" },
            self.lessons,
            if self.lessons == 1 { "" } else { "s" },
        )
    }
}

/// A failure that stops the run before content is judged: configuration, usage or I/O
/// (exit code 2).
pub type Fatal = Box<Diagnostic>;

/// A loaded book: configuration and chapters.
pub(crate) struct Book {
    /// The book root (the folder of `book.toml`).
    pub root: PathBuf,
    /// The parsed configuration.
    pub config: Config,
    /// The source folder.
    pub src: PathBuf,
    /// The chapters in reading order.
    pub chapters: Vec<Chapter>,
    /// The source path of every chapter of the whole book, even when `chapters` is narrowed to
    /// a few (a handout): links to any of them are valid.
    pub chapter_paths: std::collections::HashSet<String>,
    /// Each chapter's text after the preprocessors, by source path.
    pub sources: std::collections::HashMap<PathBuf, preprocess::Source>,
    /// Warnings about the configuration (mdBook keys nimbook ignores, optional preprocessors
    /// that are missing), reported with the check.
    pub warnings: Vec<Diagnostic>,
    /// The lint levels: `[nimbook]` in `book.toml`, then the command line's overrides.
    pub lints: coverage::Lints,
}

/// One lesson after checking.
#[derive(Clone)]
pub(crate) struct Lesson {
    /// The chapter it belongs to.
    pub chapter: Chapter,
    /// The rendered page.
    pub page: RenderedPage,
}

/// What checking one lesson found.
pub(crate) struct CheckedLesson {
    /// The rendered lesson (an empty page for a draft, or a file that could not be read).
    pub(crate) lesson: Lesson,
    /// Its claims and diagnostics; `None` for a draft, which is not a lesson.
    pub(crate) outcome: Option<Outcome>,
}

/// The claims and diagnostics of one lesson's check.
pub(crate) struct Outcome {
    /// Claims checked.
    pub(crate) claims: usize,
    /// Errors among the diagnostics.
    pub(crate) errors: usize,
    /// Every diagnostic of the lesson.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The lesson's page (as a URL path) and its number account; `None` when it was not read.
    pub(crate) numbers: Option<(String, coverage::NumberCounts)>,
}

impl Outcome {
    /// Counts this lesson into a report. Past the book's first
    /// [`coverage::MAX_REPORTED_IN_BOOK`] unverified-number findings, the lesson's findings are
    /// left out and counted in `hidden` instead.
    fn add_to<'a>(&'a self, report: &mut Report, hidden: &mut HiddenFindings<'a>) {
        report.lessons += 1;
        report.claims += self.claims;
        report.errors += self.errors;
        let mut kept = 0;
        let mut dropped = 0;
        for d in &self.diagnostics {
            if d.code != Code::UnverifiedNumber {
                report.diagnostics.push(d.clone());
            } else if hidden.shown < coverage::MAX_REPORTED_IN_BOOK {
                hidden.shown += 1;
                kept += 1;
                report.diagnostics.push(d.clone());
            } else {
                if hidden.first.is_none() {
                    hidden.first = Some(d);
                }
                dropped += 1;
            }
        }
        if let Some((path, numbers)) = &self.numbers {
            report.numbers.add(*numbers);
            report.lesson_numbers.push((path.clone(), *numbers));
            // The dropped findings are the lesson's last ones, its own summary of the numbers
            // past `MAX_REPORTED` among them: every number not shown one by one is hidden.
            if dropped > 0 {
                hidden.numbers += numbers.unverified - kept;
                hidden.lessons += 1;
            }
        }
    }
}

/// The unverified-number findings a report leaves out, past the book's cap.
#[derive(Default)]
struct HiddenFindings<'a> {
    /// Findings shown so far.
    shown: usize,
    /// The first finding left out.
    first: Option<&'a Diagnostic>,
    /// Numbers left out.
    numbers: usize,
    /// Lessons with a number left out.
    lessons: usize,
}

impl Report {
    /// The report of a book's lessons, in chapter order: at most
    /// [`coverage::MAX_REPORTED_IN_BOOK`] unverified-number findings one by one (printing
    /// tens of thousands costs more than checking the book), then one finding that sums up
    /// the rest. The counts stay exact.
    pub(crate) fn of<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Report {
        let mut report = Report::default();
        let mut hidden = HiddenFindings::default();
        for o in outcomes {
            o.add_to(&mut report, &mut hidden);
        }
        if let Some(first) = hidden.first {
            let mut d = Diagnostic::new(
                first.level,
                Code::UnverifiedNumber,
                format!(
                    "{} more numbers in {} lesson{} are not verified",
                    hidden.numbers,
                    hidden.lessons,
                    if hidden.lessons == 1 { "" } else { "s" }
                ),
            )
            .label("the first of them")
            .note(format!(
                "only the first {} unverified numbers of a book are shown one by one",
                coverage::MAX_REPORTED_IN_BOOK
            ))
            .help("`nimbook check --coverage` prints the numbers of every lesson");
            d.location.clone_from(&first.location);
            report.diagnostics.push(d);
        }
        report
    }
}

impl Book {
    /// Loads `book.toml` and finds the chapters. A missing or malformed `book.toml` is fatal;
    /// a malformed `SUMMARY.md` is a content error in the returned report.
    pub(crate) fn load(root: &Path) -> Result<(Book, Vec<Diagnostic>), Fatal> {
        let config = Config::load(root)?;
        let toml_path = root.join("book.toml");
        let mut warnings = compat::warnings(
            root,
            &std::fs::read_to_string(&toml_path).unwrap_or_default(),
            &book::display_name(root, &toml_path),
        );
        let src = config.src_dir(root);
        if !src.is_dir() {
            return Err(Box::new(
                Diagnostic::error(
                    Code::InvalidConfig,
                    format!(
                        "the source folder {} does not exist",
                        book::display_name(root, &src)
                    ),
                )
                .help("set `src` in the [book] table of book.toml"),
            ));
        }
        let (chapters, diags) = match book::chapters(root, &src, config.max_lesson_bytes()) {
            Ok(c) => (c, Vec::new()),
            Err(d) => (Vec::new(), vec![d]),
        };
        let preprocess::Prepared {
            chapters,
            sources,
            warnings: more,
        } = preprocess::run(root, &config, &src, chapters)?;
        warnings.extend(more);
        let chapter_paths = chapters
            .iter()
            .filter_map(|c| c.path.as_deref().map(html::url_path))
            .collect();
        let lints = config.lints();
        Ok((
            Book {
                root: root.to_path_buf(),
                lints,
                config,
                src,
                chapters,
                chapter_paths,
                sources,
                warnings,
            },
            diags,
        ))
    }

    /// Checks and renders every lesson, in parallel. Returns the lessons and the report.
    pub(crate) fn check(&self, progress: &Progress) -> (Vec<Lesson>, Report) {
        let (lessons, report) = self.check_each(progress);
        (
            lessons.into_iter().map(|(lesson, _)| lesson).collect(),
            report,
        )
    }

    /// [`Book::check`], keeping each lesson's own outcome (for partial rebuilds).
    pub(crate) fn check_each(
        &self,
        progress: &Progress,
    ) -> (Vec<(Lesson, Option<Outcome>)>, Report) {
        progress.start(self.chapters.len());
        let flavour = markdown::Flavour::of(&self.config);
        let results: Vec<_> = self
            .chapters
            .par_iter()
            .map(|chapter| {
                let source = chapter.path.as_ref().and_then(|p| self.sources.get(p));
                let checked = self.check_lesson(chapter, source, &flavour);
                progress.advance(&chapter.title);
                checked
            })
            .collect();
        let mut report = Report::of(results.iter().filter_map(|c| c.outcome.as_ref()));
        report
            .diagnostics
            .splice(0..0, self.warnings.iter().cloned());
        let lessons: Vec<_> = results.into_iter().map(|c| (c.lesson, c.outcome)).collect();
        let link_errors = self.check_links(lessons.iter().map(|(l, _)| l));
        report.errors += link_errors.len();
        report.diagnostics.extend(link_errors);
        (lessons, report)
    }

    /// Checks and renders one lesson from its text after the preprocessors. A draft (no file)
    /// has an empty page and no outcome.
    pub(crate) fn check_lesson(
        &self,
        chapter: &Chapter,
        source: Option<&preprocess::Source>,
        flavour: &markdown::Flavour,
    ) -> CheckedLesson {
        self.check_lesson_with(chapter, source, flavour, self.config.limits())
    }

    /// [`Book::check_lesson`] with other limits than the book's (the editor server's quick
    /// pass).
    pub(crate) fn check_lesson_with(
        &self,
        chapter: &Chapter,
        source: Option<&preprocess::Source>,
        flavour: &markdown::Flavour,
        limits: crate::claim::Limits,
    ) -> CheckedLesson {
        let Some(path) = chapter.path.as_ref() else {
            return CheckedLesson {
                lesson: Lesson {
                    chapter: chapter.clone(),
                    page: RenderedPage::default(),
                },
                outcome: None,
            };
        };
        let Some(source) = source else {
            let d = Diagnostic::error(
                Code::IoError,
                format!(
                    "{} was not read",
                    book::display_name(&self.root, &self.src.join(path))
                ),
            );
            return CheckedLesson {
                lesson: Lesson {
                    chapter: chapter.clone(),
                    page: RenderedPage::default(),
                },
                outcome: Some(Outcome {
                    claims: 0,
                    errors: 1,
                    diagnostics: vec![d],
                    numbers: None,
                }),
            };
        };
        let mut checker = LessonChecker::new(std::sync::Arc::clone(&source.file), limits);
        let page = markdown::render_with(&mut checker, &html::url_path(path), flavour, self.lints);
        // Diagnostics point into the files the author wrote, not the preprocessed text.
        let mut diagnostics = source.diagnostics.clone();
        diagnostics.extend(
            std::mem::take(&mut checker.diagnostics)
                .into_iter()
                .map(|d| source.map.relocate(&source.file, d)),
        );
        let mut chapter = chapter.clone();
        if chapter.number.is_none() && self.is_walked() {
            if let Some(h) = page.headings.iter().find(|h| h.level == 1) {
                chapter.title = h.title.clone();
            }
        }
        let page_numbers = page.numbers;
        CheckedLesson {
            lesson: Lesson { chapter, page },
            outcome: Some(Outcome {
                claims: checker.claims,
                errors: diagnostics
                    .iter()
                    .filter(|d| d.level == crate::diag::Level::Error)
                    .count(),
                diagnostics,
                numbers: Some((html::url_path(path), page_numbers)),
            }),
        }
    }

    /// Every internal link must reach a lesson or a file of the source folder, and every
    /// anchor an `id` of its page (a heading, a footnote, a raw `<a id>`). Links that climb out
    /// of the book (`../std/…`) are the reader's to follow, as in mdBook.
    pub(crate) fn check_links<'a>(
        &self,
        lessons: impl Iterator<Item = &'a Lesson> + Clone,
    ) -> Vec<Diagnostic> {
        use std::collections::{HashMap, HashSet};
        let pages: HashMap<String, HashSet<&str>> = lessons
            .clone()
            .filter_map(|l| {
                let path = html::url_path(l.chapter.path.as_ref()?);
                Some((path, l.page.anchors.iter().map(String::as_str).collect()))
            })
            .collect();
        // Every chapter of the book is a valid target, even one that was not rendered this time
        // (a handout of a few chapters); anchors are checked on the pages that were. A page is
        // named by its source (`a/README.md`) or by its output (`a/index.html`, `a/`).
        let chapters = &self.chapter_paths;
        let by_page: HashMap<String, &String> = chapters
            .iter()
            .map(|c| (html::url_path(&book::page_path(std::path::Path::new(c))), c))
            .collect();
        let mut out = Vec::new();
        for lesson in lessons {
            let Some(path) = &lesson.chapter.path else {
                continue;
            };
            for link in &lesson.page.links {
                if link.target.starts_with("../") {
                    continue;
                }
                let page = if link.target.is_empty() || link.target.ends_with('/') {
                    format!("{}index.html", link.target)
                } else {
                    link.target.clone()
                };
                let target = by_page
                    .get(&page)
                    .map_or(link.target.clone(), |c| (*c).clone());
                let problem = match pages.get(&target) {
                    Some(ids) => match &link.anchor {
                        Some(a) if !a.is_empty() && !ids.contains(a.as_str()) => {
                            Some(format!("no heading or anchor `#{a}` in {}", link.target))
                        }
                        _ => None,
                    },
                    None if chapters.contains(&target) => None,
                    None if target.ends_with(".md") || !self.src.join(&target).exists() => Some(
                        format!("{} is not a page or file of this book", link.target),
                    ),
                    None => None,
                };
                if let Some(problem) = problem {
                    let mut d = Diagnostic::error(Code::BrokenLink, "broken link").label(problem);
                    if let Some(source) = self.sources.get(path) {
                        d = source
                            .map
                            .relocate(&source.file, d.at(&source.file, link.span.clone()));
                    }
                    out.push(d);
                }
            }
        }
        out
    }

    /// Whether a change to any file must rebuild the whole book: its text comes from external
    /// preprocessors (which see the whole book) or from includes (whose files are not lessons).
    pub(crate) fn rebuilds_whole(&self) -> bool {
        self.config
            .preprocessor
            .values()
            .any(|p| p.command.is_some())
            || self
                .config
                .preprocessor
                .keys()
                .any(|k| k != "links" && k != "index")
            || self.sources.values().any(|s| !s.map.is_identity())
    }

    /// Whether the chapter list came from walking the folder (no `SUMMARY.md`).
    fn is_walked(&self) -> bool {
        !self.src.join("SUMMARY.md").is_file()
    }

    /// The output folder: `dest` if given, else `[build] build-dir` under the root.
    pub(crate) fn output_dir(&self, dest: Option<&Path>) -> PathBuf {
        match dest {
            Some(d) => d.to_path_buf(),
            None => self.root.join(&self.config.build.build_dir),
        }
    }
}

/// Reports progress through a long check: the command line draws a bar on a terminal, tests
/// and CI pass [`Progress::none`].
pub struct Progress {
    start: Box<dyn Fn(usize) + Sync + Send>,
    advance: Box<dyn Fn(&str) + Sync + Send>,
}

impl Progress {
    /// No progress output.
    pub fn none() -> Self {
        Progress {
            start: Box::new(|_| {}),
            advance: Box::new(|_| {}),
        }
    }

    /// Progress through callbacks: `start(total)`, then `advance(title)` once per lesson.
    pub fn new(
        start: impl Fn(usize) + Sync + Send + 'static,
        advance: impl Fn(&str) + Sync + Send + 'static,
    ) -> Self {
        Progress {
            start: Box::new(start),
            advance: Box::new(advance),
        }
    }

    fn start(&self, total: usize) {
        (self.start)(total);
    }

    fn advance(&self, title: &str) {
        (self.advance)(title);
    }
}

/// A lint level set on the command line, which overrides `book.toml`.
pub type LintOverride = (coverage::Lint, coverage::LintLevel);

fn load_with(root: &Path, overrides: &[LintOverride]) -> Result<(Book, Vec<Diagnostic>), Fatal> {
    let (mut book, diags) = Book::load(root)?;
    for &(lint, level) in overrides {
        book.lints.set(lint, level);
    }
    Ok((book, diags))
}

/// `nimbook check`: every claim of every lesson, nothing written. `overrides` are the lint
/// levels given on the command line.
pub fn check(
    root: &Path,
    progress: &Progress,
    overrides: &[LintOverride],
) -> Result<Report, Fatal> {
    let (book, diags) = load_with(root, overrides)?;
    let (_, mut report) = book.check(progress);
    report.errors += diags.len();
    report.diagnostics.splice(0..0, diags);
    Ok(report)
}

/// `nimbook build`: check, then render and write the site atomically. On content errors
/// nothing is written and the previous site stays as it was.
pub fn build(
    root: &Path,
    dest: Option<&Path>,
    progress: &Progress,
    overrides: &[LintOverride],
) -> Result<Report, Fatal> {
    serve::live::LiveSite::build(root, dest, progress, overrides).map(|(_, report)| report)
}

/// Writes a checked book as the new content of `out`, atomically: the static files of the
/// source folder, every page as it is rendered, the contents, the assets and the search index.
fn write_site(
    book: &Book,
    lessons: &[Lesson],
    site: &templates::SiteRenderer,
    search: &search::SearchIndex,
    out: &Path,
) -> Result<(), Fatal> {
    let staging = output::Staging::begin(out)?;
    for rel in book::static_files(&book.src).map_err(Box::new)? {
        staging.write(&rel, &read_static(&book.src.join(&rel))?)?;
    }
    templates::render_site(site, lessons, search, &staging)?;
    staging.commit()
}

/// The bytes of a static file of the source folder.
fn read_static(path: &Path) -> Result<Vec<u8>, Fatal> {
    std::fs::read(path).map_err(|e| {
        Box::new(Diagnostic::error(
            Code::IoError,
            format!("cannot read {}: {e}", path.display()),
        ))
    })
}
