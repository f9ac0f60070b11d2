//! The site: load a book, check every lesson, render pages, write the output atomically.
//!
//! The stages are plain functions over plain values: [`Config`] from `book.toml`, the
//! [`Chapter`](book::Chapter) list from `SUMMARY.md` or the source folder, one
//! [`LessonChecker`] per lesson (lessons are independent, so they run in parallel with rayon),
//! then templates. Nothing is written unless every lesson checked clean, and the new site
//! replaces the old one only once it is complete.

pub mod book;
pub mod config;
pub mod handout;
pub mod highlight;
pub mod markdown;
pub mod mathml;
pub mod output;
pub mod search;
pub mod serve;
pub mod templates;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::claim::LessonChecker;
use crate::diag::Diagnostic;
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
}

/// One lesson after checking.
pub struct Lesson {
    /// The chapter it belongs to.
    pub chapter: Chapter,
    /// The rendered page.
    pub page: RenderedPage,
}

impl Book {
    /// Loads `book.toml` and finds the chapters. A missing or malformed `book.toml` is fatal;
    /// a malformed `SUMMARY.md` is a content error in the returned report.
    pub fn load(root: &Path) -> Result<(Book, Vec<Diagnostic>), Fatal> {
        let config = Config::load(root)?;
        let src = root.join(&config.book.src);
        if !src.is_dir() {
            return Err(Box::new(
                Diagnostic::error(format!(
                    "the source folder {} does not exist",
                    book::display_name(root, &src)
                ))
                .help("set `src` in the [book] table of book.toml"),
            ));
        }
        let (chapters, diags) = match book::chapters(root, &src) {
            Ok(c) => (c, Vec::new()),
            Err(d) => (Vec::new(), vec![d]),
        };
        Ok((
            Book {
                root: root.to_path_buf(),
                config,
                src,
                chapters,
            },
            diags,
        ))
    }

    /// Checks and renders every lesson, in parallel. Returns the lessons and the report.
    pub fn check(&self) -> (Vec<Lesson>, Report) {
        let limits = self.config.limits();
        let results: Vec<_> = self
            .chapters
            .par_iter()
            .filter_map(|chapter| {
                let path = chapter.path.as_ref()?;
                let file = match book::read_source(&self.root, &self.src.join(path)) {
                    Ok(f) => f,
                    Err(d) => return Some(Err(d)),
                };
                let mut checker = LessonChecker::new(file, limits.clone());
                let page = markdown::render(&mut checker);
                let mut chapter = chapter.clone();
                if chapter.number.is_none() && self.is_walked() {
                    if let Some(h) = page.headings.iter().find(|h| h.level == 1) {
                        chapter.title = h.title.clone();
                    }
                }
                Some(Ok((Lesson { chapter, page }, checker)))
            })
            .collect();
        let mut report = Report::default();
        let mut lessons = Vec::new();
        for r in results {
            report.lessons += 1;
            match r {
                Ok((lesson, checker)) => {
                    report.claims += checker.claims;
                    report.errors += checker
                        .diagnostics
                        .iter()
                        .filter(|d| d.level == crate::diag::Level::Error)
                        .count();
                    report.diagnostics.extend(checker.diagnostics);
                    lessons.push(lesson);
                }
                Err(d) => {
                    report.errors += 1;
                    report.diagnostics.push(d);
                }
            }
        }
        (lessons, report)
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

/// `nimbook check`: every claim of every lesson, nothing written.
pub fn check(root: &Path) -> Result<Report, Fatal> {
    let (book, diags) = Book::load(root)?;
    let (_, mut report) = book.check();
    report.errors += diags.len();
    report.diagnostics.splice(0..0, diags);
    Ok(report)
}

/// `nimbook build`: check, then render and write the site atomically. On content errors
/// nothing is written and the previous site stays as it was.
pub fn build(root: &Path, dest: Option<&Path>) -> Result<Report, Fatal> {
    let (book, diags) = Book::load(root)?;
    let (lessons, mut report) = book.check();
    report.errors += diags.len();
    report.diagnostics.splice(0..0, diags);
    if report.errors > 0 {
        return Ok(report);
    }
    let out = book.output_dir(dest);
    output::guard(&book.root, &book.src, &out)?;
    let files = templates::render_site(&book, &lessons)?;
    output::write_atomically(&out, &files)?;
    report.output = Some(out);
    Ok(report)
}
