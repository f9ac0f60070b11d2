//! The site: load a book, check every lesson, render pages, write the output atomically.
//!
//! The stages are plain functions over plain values: [`Config`] from `book.toml`, the
//! [`Chapter`] list from `SUMMARY.md` or the source folder, one
//! [`LessonChecker`] per lesson (lessons are independent, so they run in parallel with rayon),
//! then templates. Nothing is written unless every lesson checked clean, and the new site
//! replaces the old one only once it is complete.

pub mod book;
mod claims;
pub mod config;
pub mod coverage;
pub mod directives;
pub mod handout;
pub mod highlight;
pub mod html;
pub mod live;
pub mod markdown;
pub mod mathml;
pub mod output;
pub mod search;
pub mod serve;
pub mod templates;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::claim::LessonChecker;
use crate::diag::{Code, Diagnostic};
use book::Chapter;
pub use config::Config;
use markdown::RenderedPage;

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
pub struct Book {
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
    /// The lint levels: `[nimbook]` in `book.toml`, then the command line's overrides.
    pub lints: coverage::Lints,
}

/// One lesson after checking.
pub struct Lesson {
    /// The chapter it belongs to.
    pub chapter: Chapter,
    /// The rendered page.
    pub page: RenderedPage,
}

/// What checking one lesson found.
pub(crate) struct CheckedLesson {
    /// The rendered lesson; `None` when its file could not be read.
    pub(crate) lesson: Option<Lesson>,
    /// Its claims and diagnostics.
    pub(crate) outcome: Outcome,
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
    pub fn load(root: &Path) -> Result<(Book, Vec<Diagnostic>), Fatal> {
        let config = Config::load(root)?;
        let src = root.join(&config.book.src);
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
            },
            diags,
        ))
    }

    /// Checks and renders every lesson, in parallel. Returns the lessons and the report.
    pub fn check(&self, progress: &Progress) -> (Vec<Lesson>, Report) {
        let (lessons, report) = self.check_each(progress);
        (
            lessons.into_iter().map(|(lesson, _)| lesson).collect(),
            report,
        )
    }

    /// [`Book::check`], keeping each lesson's own outcome (for partial rebuilds).
    pub(crate) fn check_each(&self, progress: &Progress) -> (Vec<(Lesson, Outcome)>, Report) {
        progress.start(self.chapters.len());
        let results: Vec<_> = self
            .chapters
            .par_iter()
            .filter_map(|chapter| {
                let checked = self.check_lesson(chapter)?;
                progress.advance(&chapter.title);
                Some(checked)
            })
            .collect();
        let report = Report::of(results.iter().map(|c| &c.outcome));
        let lessons: Vec<_> = results
            .into_iter()
            .filter_map(|c| Some((c.lesson?, c.outcome)))
            .collect();
        let mut report = report;
        let link_errors = self.check_links(lessons.iter().map(|(l, _)| l));
        report.errors += link_errors.len();
        report.diagnostics.extend(link_errors);
        (lessons, report)
    }

    /// Reads, checks and renders one lesson (`None` for a draft, which has no file).
    pub(crate) fn check_lesson(&self, chapter: &Chapter) -> Option<CheckedLesson> {
        let path = chapter.path.as_ref()?;
        let file = match book::read_source(
            &self.root,
            &self.src.join(path),
            self.config.max_lesson_bytes(),
        ) {
            Ok(f) => f,
            Err(d) => {
                return Some(CheckedLesson {
                    lesson: None,
                    outcome: Outcome {
                        claims: 0,
                        errors: 1,
                        diagnostics: vec![d],
                        numbers: None,
                    },
                })
            }
        };
        let mut checker = LessonChecker::new(file, self.config.limits());
        let page = markdown::render(&mut checker, &html::url_path(path), self.lints);
        let mut chapter = chapter.clone();
        if chapter.number.is_none() && self.is_walked() {
            if let Some(h) = page.headings.iter().find(|h| h.level == 1) {
                chapter.title = h.title.clone();
            }
        }
        let page_numbers = page.numbers;
        Some(CheckedLesson {
            lesson: Some(Lesson { chapter, page }),
            outcome: Outcome {
                claims: checker.claims,
                errors: checker
                    .diagnostics
                    .iter()
                    .filter(|d| d.level == crate::diag::Level::Error)
                    .count(),
                diagnostics: checker.diagnostics,
                numbers: Some((html::url_path(path), page_numbers)),
            },
        })
    }

    /// Every internal link must reach a lesson or a file of the source folder, and every
    /// anchor a heading of its page.
    pub(crate) fn check_links<'a>(
        &self,
        lessons: impl Iterator<Item = &'a Lesson> + Clone,
    ) -> Vec<Diagnostic> {
        use std::collections::{HashMap, HashSet};
        let pages: HashMap<String, HashSet<&str>> = lessons
            .clone()
            .filter_map(|l| {
                let path = html::url_path(l.chapter.path.as_ref()?);
                Some((
                    path,
                    l.page.headings.iter().map(|h| h.id.as_str()).collect(),
                ))
            })
            .collect();
        // Every chapter of the book is a valid target, even one that was not rendered this time
        // (a handout of a few chapters); anchors are checked on the pages that were.
        let chapters = &self.chapter_paths;
        let mut out = Vec::new();
        for lesson in lessons {
            let Some(path) = &lesson.chapter.path else {
                continue;
            };
            let mut file = None;
            for link in &lesson.page.links {
                // A link may name a lesson's page (`a.html`) instead of its source (`a.md`).
                let target = match link.target.strip_suffix(".html") {
                    Some(stem) if chapters.contains(&format!("{stem}.md")) => format!("{stem}.md"),
                    _ => link.target.clone(),
                };
                let problem = match pages.get(&target) {
                    Some(ids) => match &link.anchor {
                        Some(a) if !a.is_empty() && !ids.contains(a.as_str()) => {
                            Some(format!("no heading `#{a}` in {}", link.target))
                        }
                        _ => None,
                    },
                    None if chapters.contains(&target) => None,
                    None if target.ends_with(".md") || !self.src.join(&target).is_file() => Some(
                        format!("{} is not a page or file of this book", link.target),
                    ),
                    None => None,
                };
                if let Some(problem) = problem {
                    let file = file.get_or_insert_with(|| {
                        book::read_source(
                            &self.root,
                            &self.src.join(path),
                            self.config.max_lesson_bytes(),
                        )
                        .ok()
                    });
                    let mut d = Diagnostic::error(Code::BrokenLink, "broken link").label(problem);
                    if let Some(f) = file {
                        d = d.at(f, link.span.clone());
                    }
                    out.push(d);
                }
            }
        }
        out
    }

    /// Whether the chapter list came from walking the folder (no `SUMMARY.md`).
    fn is_walked(&self) -> bool {
        !self.src.join("SUMMARY.md").is_file()
    }

    /// The output folder: `dest` if given, else `[build] build-dir` under the root.
    pub fn output_dir(&self, dest: Option<&Path>) -> PathBuf {
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
    live::LiveSite::build(root, dest, progress, overrides).map(|(_, report)| report)
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
