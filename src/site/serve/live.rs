//! A built site kept in memory, so that `nimbook serve` rebuilds only what an edit changed.
//!
//! A full build checks every lesson; on a book of a thousand chapters that takes a second. But
//! an edit to one lesson changes little of the site: that lesson's page, the search index, and,
//! when its title changed, the pages whose previous/next links name it, the table of contents
//! and the front page. [`LiveSite`] keeps every lesson's rendered page, its diagnostics and its
//! search sections from the last build; [`LiveSite::update`] checks and renders again only the
//! lessons whose files changed, checks the links of the whole book again (cheap: no file is
//! read), and writes only the files that changed. Each is rendered by the same
//! [`SiteRenderer`] as a clean build, so the site written is byte for byte the site a clean
//! build writes (a test compares the two).
//!
//! Anything else (`SUMMARY.md`, `book.toml`, templates, a lesson added or removed) makes
//! [`LiveSite::update`] answer `None`, and the caller builds the whole book again.
//!
//! Files are patched in place, each by writing a temporary file beside it and renaming it
//! over the old one, so a reader never sees half a file. While the book has errors nothing is
//! written; what changed meanwhile is remembered and written once the errors are fixed.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::site::cache::Store;
use crate::site::lesson::book::{Book, CheckedLesson, Lesson};
use crate::site::lesson::report::{Outcome, Progress, Report};
use crate::site::load::{Fatal, Options};
use crate::site::render::{self, search, Parts, Site};

/// A book whose site has been written, with what is needed to patch it after an edit.
pub struct LiveSite {
    book: Book,
    /// The book's cache of decided results, saved after every rebuild.
    store: Store,
    out: PathBuf,
    /// Every lesson with a file, in reading order (the order of the table of contents).
    lessons: Vec<Lesson>,
    outcomes: Vec<Option<Outcome>>,
    /// Lesson index by source path, relative to the source folder.
    by_path: HashMap<PathBuf, usize>,
    site: Site,
    /// Pages, static files and shared files changed but not yet written (the book had errors).
    pending: Pending,
}

#[derive(Default)]
struct Pending {
    pages: BTreeSet<usize>,
    statics: BTreeSet<PathBuf>,
    contents: bool,
    search: bool,
}

/// What [`LiveSite::update`] did.
pub struct Update {
    /// The report on the whole book, as a full build would give it.
    pub report: Report,
    /// How many lessons were checked and rendered again.
    pub rechecked: usize,
    /// How many files of the site were written.
    pub written: usize,
}

impl LiveSite {
    /// Builds the whole book into `dest` (or its configured `build-dir`), like
    /// [`crate::site::build`]. The live site is returned only when the build succeeded.
    pub fn build(
        options: &Options,
        progress: &Progress,
    ) -> Result<(Option<LiveSite>, Report), Fatal> {
        let mut store = Store::open(options);
        let (book, checked, mut report) = Book::check_all(options, progress, store.view())?;
        store.finish(&mut report);
        let (lessons, outcomes): (Vec<Lesson>, Vec<Option<Outcome>>) = checked.into_iter().unzip();
        if report.errors > 0 {
            return Ok((None, report));
        }
        let Some(extra) = crate::site::print::site_files(&book, &lessons, &mut report)? else {
            return Ok((None, report));
        };
        let (site, out) = render::publish(
            &book,
            &lessons,
            &mut report,
            options.output.as_deref(),
            extra,
        )?;
        let by_path = lessons
            .iter()
            .enumerate()
            .filter_map(|(i, l)| Some((l.chapter.path.clone()?, i)))
            .collect();
        Ok((
            Some(LiveSite {
                book,
                store,
                out,
                lessons,
                outcomes,
                by_path,
                site,
                pending: Pending::default(),
            }),
            report,
        ))
    }

    /// Takes in the files that changed (absolute paths, or paths as the watcher reports them).
    /// Returns `None` when a change is more than lessons and static files of the source folder
    /// (the summary, the configuration, templates, a lesson added or removed): the whole book
    /// must then be built again.
    pub fn update(&mut self, changed: &[PathBuf]) -> Option<Result<Update, Fatal>> {
        if self.book.rebuilds_whole() {
            return None;
        }
        let src = std::fs::canonicalize(&self.book.src).unwrap_or_else(|_| self.book.src.clone());
        let mut lessons = BTreeSet::new();
        for path in changed {
            let rel = path
                .strip_prefix(&src)
                .or_else(|_| path.strip_prefix(&self.book.src))
                .ok()?;
            // Hidden files (editors' swap files) are neither lessons nor copied into the site.
            if rel
                .components()
                .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
                || path.is_dir()
            {
                continue;
            }
            if let Some(&i) = self.by_path.get(rel) {
                if !path.is_file() {
                    return None;
                }
                lessons.insert(i);
            } else if rel.extension().is_some_and(|x| x == "md") {
                // A new lesson of a book without SUMMARY.md changes the chapter list; the
                // summary itself does too. Other .md files are not part of the site.
                if rel == Path::new("SUMMARY.md") || self.book.is_walked() {
                    return None;
                }
            } else {
                self.pending.statics.insert(rel.to_path_buf());
            }
        }
        let rechecked = lessons.len();
        let chapters: Vec<_> = lessons
            .iter()
            .filter_map(|&i| {
                let path = self.lessons[i].chapter.path.as_ref()?;
                let chapter = self
                    .book
                    .chapters
                    .iter()
                    .find(|c| c.path.as_ref() == Some(path))?;
                Some((i, chapter))
            })
            .collect();
        // The changed lessons are read and preprocessed again (their includes expanded); a book
        // whose text comes from preprocessors or includes is rebuilt whole (see above).
        let fresh = match crate::site::preprocess::run(
            &self.book.files,
            &self.book.config,
            &self.book.src,
            chapters.iter().map(|&(_, c)| c.clone()).collect(),
        ) {
            Ok(p) => p.sources,
            Err(e) => return Some(Err(e)),
        };
        let checked: Vec<(usize, CheckedLesson)> = chapters
            .par_iter()
            .map(|&(i, chapter)| {
                let source = chapter.path.as_ref().and_then(|p| fresh.get(p));
                (i, self.book.check_lesson(chapter, source))
            })
            .collect();
        self.book.sources.extend(fresh);
        for (i, c) in checked {
            let lesson = c.lesson;
            if self.site.renderer.update(i, &lesson) {
                self.pending.contents = true;
                self.pending.pages.extend(self.site.renderer.neighbours(i));
            }
            self.site.sections[i] = search::lesson_sections(&lesson);
            self.lessons[i] = lesson;
            self.outcomes[i] = c.outcome;
            self.pending.pages.insert(i);
            self.pending.search = true;
        }
        Some(self.report().and_then(|mut report| {
            self.store.finish(&mut report);
            if self.site.renderer.set_numbers(report.numbers) {
                self.pending.contents = true;
            }
            let written = if report.errors == 0 { self.flush()? } else { 0 };
            Ok(Update {
                report,
                rechecked,
                written,
            })
        }))
    }

    /// The report on the whole book: every lesson's last outcome and the links checked again.
    fn report(&self) -> Result<Report, Fatal> {
        let mut report = Report::of(self.outcomes.iter().flatten());
        let links = self.book.check_links(self.lessons.iter());
        report.errors += links
            .iter()
            .filter(|d| d.level == crate::diag::Level::Error)
            .count();
        report.diagnostics.extend(links);
        if report.errors == 0 {
            report.output = Some(self.out.clone());
        }
        Ok(report)
    }

    /// Writes what changed since the last write. Returns the number of files written.
    fn flush(&mut self) -> Result<usize, Fatal> {
        let pending = std::mem::take(&mut self.pending);
        let parts = Parts {
            // `print.html` shows every lesson, and `404.html` may be one.
            extra: !pending.pages.is_empty(),
            pages: pending.pages.into_iter().collect(),
            statics: pending.statics.into_iter().collect(),
            contents: pending.contents,
            search: pending.search || pending.contents,
            assets: false,
        };
        let written = self
            .site
            .write(&self.book, &self.lessons, &parts, |rel, bytes| {
                crate::site::output::replace_file(&self.out, rel, bytes)
            })?;
        Ok(written)
    }
}
