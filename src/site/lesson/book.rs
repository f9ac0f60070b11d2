//! The lessons of a loaded book, checked in parallel (lessons are independent), and the links
//! between them checked once every page is known.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::markdown::RenderedPage;
use super::memo::MemoView;
use super::report::{Outcome, Progress, Report};
use super::LessonSettings;
use crate::diag::{Code, Diagnostic};
use crate::site::html::url_path;
use crate::site::load::book::Chapter;
use crate::site::load::config::Config;
use crate::site::load::confine::display_name;
use crate::site::load::layout::Layout;
use crate::site::load::lints::LintLevel;
use crate::site::load::{self, Fatal, Loaded, Options};
use crate::site::preprocess::{self, Source};

/// A loaded book, its lessons checked and each with its outcome, and the report.
pub(crate) type Checked = (Book, Vec<(Lesson, Option<Outcome>)>, Report);

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
    /// The chapters as `SUMMARY.md` (or the source folder) gives them, before any
    /// preprocessor: the renderers other than HTML run the chain on them again.
    pub summary: Vec<Chapter>,
    /// The source path of every chapter of the whole book, even when `chapters` is narrowed to
    /// a few (a handout): links to any of them are valid.
    pub chapter_paths: std::collections::HashSet<String>,
    /// Each chapter's text after the preprocessors, by source path.
    pub sources: std::collections::HashMap<PathBuf, Source>,
    /// Warnings about the configuration (mdBook keys nimbook ignores, optional preprocessors
    /// that are missing), reported with the check.
    pub warnings: Vec<Diagnostic>,
    /// What checking a lesson needs of the book: its flavour, the lint levels (`[nimbook]` in
    /// `book.toml`, then the command line's overrides) and the limits.
    pub settings: LessonSettings,
    /// The one way to read a file the book names: inside the book root (or `include-roots`),
    /// regular files only, bounded.
    pub files: crate::site::load::confine::Reader,
    /// Whether the book's `book.toml` and templates are obeyed.
    pub trust: crate::site::load::confine::Trust,
}

/// One lesson after checking.
#[derive(Clone)]
pub(crate) struct Lesson {
    /// The chapter it belongs to.
    pub chapter: Chapter,
    /// The rendered page.
    pub page: RenderedPage,
}

/// Where each lesson's results are written, for the book-wide pass over them.
struct ResultSources<'b> {
    book: &'b Book,
    chapters: Vec<Option<PathBuf>>,
}

impl ResultSources<'_> {
    fn source(&self, i: usize) -> Option<&preprocess::Source> {
        let path = self.chapters.get(i)?.as_ref()?;
        self.book.sources.get(path)
    }
}

impl super::results::graph::Sources for ResultSources<'_> {
    fn locate(&self, i: usize, d: Diagnostic, span: std::ops::Range<usize>) -> Diagnostic {
        match self.source(i) {
            Some(source) => source.map.relocate(&source.file, d.at(&source.file, span)),
            None => d,
        }
    }

    fn line(&self, i: usize, offset: usize) -> (String, usize) {
        self.source(i)
            .map(|s| (s.file.name.clone(), s.file.line_col(offset).0))
            .unwrap_or_default()
    }
}

/// What checking one lesson found.
pub(crate) struct CheckedLesson {
    /// The rendered lesson (an empty page for a draft, or a file that could not be read).
    pub(crate) lesson: Lesson,
    /// Its claims and diagnostics; `None` for a draft, which is not a lesson.
    pub(crate) outcome: Option<Outcome>,
}

impl Book {
    /// The reader of the book's own templates, or `None` under `--untrusted` (built-in
    /// templates only).
    pub(crate) fn own_templates(&self) -> Option<&crate::site::load::confine::Reader> {
        (self.trust == crate::site::load::confine::Trust::Trusted).then_some(&self.files)
    }

    /// Loads the book `options` names: `book.toml` (read once), the chapters, their text after
    /// the preprocessors, and the lint levels of the command line over the book's. A missing or
    /// malformed `book.toml` is fatal; a malformed `SUMMARY.md` is a content error in the
    /// returned diagnostics.
    pub(crate) fn load(options: &Options) -> Result<(Book, Vec<Diagnostic>), Fatal> {
        let (loaded, diags) = load::load(&options.root, options.trust)?;
        let Loaded {
            root,
            config,
            src,
            chapters,
            mut warnings,
            files,
        } = loaded;
        let summary = chapters.clone();
        let preprocess::Prepared {
            chapters,
            sources,
            warnings: more,
        } = preprocess::run(&files, &config, &src, chapters)?;
        warnings.extend(more);
        warnings.extend(load::redirects::redirect_warnings(
            &config.html.redirect,
            &chapters,
        ));
        let chapter_paths = chapters
            .iter()
            .filter_map(|c| c.path.as_deref().map(url_path))
            .collect();
        let mut settings = LessonSettings::of(&config);
        for &(lint, level) in &options.lints {
            settings.set_lint(lint, level);
        }
        Ok((
            Book {
                root,
                settings,
                config,
                src,
                chapters,
                summary,
                chapter_paths,
                sources,
                warnings,
                files,
                trust: options.trust,
            },
            diags,
        ))
    }

    /// Loads the book and checks every lesson, recalling and remembering decided results in
    /// `memo` if given: the book, each lesson with its outcome, and the report, which counts
    /// the loading's diagnostics as errors.
    pub(crate) fn check_all(
        options: &Options,
        progress: &Progress,
        memo: Option<MemoView>,
    ) -> Result<Checked, Fatal> {
        let (mut book, diags) = Book::load(options)?;
        book.settings.set_memo(memo);
        let (lessons, mut report) = book.check_each(progress);
        report.errors += diags.len();
        report.diagnostics.splice(0..0, diags);
        Ok((book, lessons, report))
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
        let results: Vec<_> = self
            .chapters
            .par_iter()
            .map(|chapter| {
                let source = chapter.path.as_ref().and_then(|p| self.sources.get(p));
                let checked = self.check_lesson(chapter, source);
                progress.advance(&chapter.title);
                checked
            })
            .collect();
        let mut report = Report::of(results.iter().filter_map(|c| c.outcome.as_ref()));
        report
            .diagnostics
            .splice(0..0, self.warnings.iter().cloned());
        let mut lessons: Vec<_> = results.into_iter().map(|c| (c.lesson, c.outcome)).collect();
        let (named, rows) = self.resolve_results(&mut lessons);
        report.errors += named.len();
        report.diagnostics.extend(named);
        report.results = rows;
        let links = self.check_links(lessons.iter().map(|(l, _)| l));
        report.errors += links
            .iter()
            .filter(|d| d.level == crate::diag::Level::Error)
            .count();
        report.diagnostics.extend(links);
        (lessons, report)
    }

    /// The named results of every lesson, across the book (see `results::graph`): numbered,
    /// their names and uses checked, their statuses completed, and the pages that show them
    /// written again with what the book-wide pass added. Returns the errors and the book's
    /// rows (for [`Report::results`]). In a handout of some chapters a `uses` name that none of
    /// them has is no error.
    fn resolve_results(
        &self,
        lessons: &mut [(Lesson, Option<Outcome>)],
    ) -> (Vec<Diagnostic>, Vec<super::results::graph::ResultRow>) {
        let mut refs: Vec<&mut Lesson> = lessons.iter_mut().map(|(l, _)| l).collect();
        let sources = ResultSources {
            book: self,
            chapters: refs.iter().map(|l| l.chapter.path.clone()).collect(),
        };
        let (mut diags, rows) = super::results::graph::resolve(&mut refs, &sources);
        // A handout of some chapters: a result may use one of a chapter left out, which the
        // whole book's check knows.
        let narrowed =
            self.chapters.iter().filter(|c| c.path.is_some()).count() < self.chapter_paths.len();
        if narrowed {
            diags.retain(|d| d.code != crate::diag::Code::UnknownResult);
        }
        for lesson in refs {
            if !lesson.page.document.results.is_empty() {
                let written = super::page::write(&lesson.page.document, false);
                lesson.page.html = written.html;
                lesson.page.worked = written.worked;
            }
        }
        (diags, rows)
    }

    /// Checks and renders one lesson from its text after the preprocessors. A draft (no file)
    /// has an empty page and no outcome.
    pub(crate) fn check_lesson(
        &self,
        chapter: &Chapter,
        source: Option<&preprocess::Source>,
    ) -> CheckedLesson {
        self.check_lesson_with(chapter, source, &self.settings)
    }

    /// [`Book::check_lesson`] with other settings than the book's (the editor server's quick
    /// pass has shorter time limits).
    pub(crate) fn check_lesson_with(
        &self,
        chapter: &Chapter,
        source: Option<&preprocess::Source>,
        settings: &LessonSettings,
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
                    display_name(&self.root, &self.src.join(path))
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
        let rendered = super::render(
            std::sync::Arc::clone(&source.file),
            &url_path(path),
            settings,
        );
        let page = rendered.page;
        // Diagnostics point into the files the author wrote, not the preprocessed text.
        let mut diagnostics = source.diagnostics.clone();
        diagnostics.extend(
            rendered
                .diagnostics
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
                claims: rendered.claims,
                errors: diagnostics
                    .iter()
                    .filter(|d| d.level == crate::diag::Level::Error)
                    .count(),
                diagnostics,
                numbers: Some((url_path(path), page_numbers)),
            }),
        }
    }

    /// Every internal link must reach a lesson, a file of the source folder or a page of
    /// `[output.html.redirect]`, and every anchor an `id` of its page (a heading, a footnote,
    /// a raw `<a id>`). Links that climb out of the book (`../std/…`) are the reader's to
    /// follow, as in mdBook. What is found is a `broken-links` finding at the lint's level
    /// (mdBook checks no links, so an mdBook book only warns).
    pub(crate) fn check_links<'a>(
        &self,
        lessons: impl Iterator<Item = &'a Lesson> + Clone,
    ) -> Vec<Diagnostic> {
        use std::collections::{HashMap, HashSet};
        let pages: HashMap<String, HashSet<&str>> = lessons
            .clone()
            .filter_map(|l| {
                let path = url_path(l.chapter.path.as_ref()?);
                Some((path, l.page.anchors.iter().map(String::as_str).collect()))
            })
            .collect();
        // Every chapter of the book is a valid target, even one that was not rendered this time
        // (a handout of a few chapters); anchors are checked on the pages that were.
        let level = match self.settings.lints().broken_links {
            LintLevel::Allow => return Vec::new(),
            LintLevel::Warn => crate::diag::Level::Warning,
            LintLevel::Deny => crate::diag::Level::Error,
        };
        let targets = super::links::Targets::new(&pages, &self.chapter_paths)
            .with_redirects(&self.config.html.redirect);
        let mut out = Vec::new();
        for lesson in lessons {
            let Some(path) = &lesson.chapter.path else {
                continue;
            };
            for link in &lesson.page.links {
                let is_file = |target: &str| self.src.join(target).exists();
                if let Some(problem) = targets.problem(link, is_file) {
                    let mut d = super::links::broken(problem, level);
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
    pub(crate) fn is_walked(&self) -> bool {
        !self.src.join("SUMMARY.md").is_file()
    }

    /// The output folder: `dest` if given, else `[build] build-dir` under the root.
    /// Where a build of the book writes, under `dest` (`-d`) or its `build-dir`: the one
    /// decision `build` and `serve` both follow ([`Layout`]).
    pub(crate) fn layout(&self, dest: Option<&Path>) -> Layout {
        Layout::of(&self.config, &self.root, dest)
    }
}
