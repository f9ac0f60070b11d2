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

use crate::site::render::search::{self, SearchIndex, Section};
use crate::site::render::templates::{self, SiteRenderer};
use crate::site::{Book, CheckedLesson, Fatal, Lesson, Outcome, Progress, Report};

/// A book whose site has been written, with what is needed to patch it after an edit.
pub struct LiveSite {
    book: Book,
    out: PathBuf,
    /// Every lesson with a file, in reading order (the order of the table of contents).
    lessons: Vec<Lesson>,
    outcomes: Vec<Option<Outcome>>,
    sections: Vec<Vec<Section>>,
    /// Lesson index by source path, relative to the source folder.
    by_path: HashMap<PathBuf, usize>,
    site: SiteRenderer,
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
        root: &Path,
        dest: Option<&Path>,
        progress: &Progress,
        overrides: &[crate::site::LintOverride],
    ) -> Result<(Option<LiveSite>, Report), Fatal> {
        let (book, diags) = crate::site::load_with(root, overrides)?;
        let (checked, mut report) = book.check_each(progress);
        report.errors += diags.len();
        report.diagnostics.splice(0..0, diags);
        let (lessons, outcomes): (Vec<Lesson>, Vec<Option<Outcome>>) = checked.into_iter().unzip();
        if report.errors > 0 {
            return Ok((None, report));
        }
        let out = book.output_dir(dest);
        crate::site::output::guard(&book.root, &book.src, &out)?;
        let site = SiteRenderer::new(&book, &lessons, report.numbers)?;
        let sections: Vec<Vec<Section>> = lessons.par_iter().map(search::lesson_sections).collect();
        let index = SearchIndex::assemble(&lessons, &sections);
        crate::site::write_site(&book, &lessons, &site, &index, &out)?;
        report.output = Some(out.clone());
        let by_path = lessons
            .iter()
            .enumerate()
            .filter_map(|(i, l)| Some((l.chapter.path.clone()?, i)))
            .collect();
        Ok((
            Some(LiveSite {
                book,
                out,
                lessons,
                outcomes,
                sections,
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
            &self.book.root,
            &self.book.config,
            &self.book.src,
            chapters.iter().map(|&(_, c)| c.clone()).collect(),
        ) {
            Ok(p) => p.sources,
            Err(e) => return Some(Err(e)),
        };
        let flavour = crate::site::lesson::markdown::Flavour::of(&self.book.config);
        let checked: Vec<(usize, CheckedLesson)> = chapters
            .par_iter()
            .map(|&(i, chapter)| {
                let source = chapter.path.as_ref().and_then(|p| fresh.get(p));
                (i, self.book.check_lesson(chapter, source, &flavour))
            })
            .collect();
        self.book.sources.extend(fresh);
        for (i, c) in checked {
            let lesson = c.lesson;
            if self.site.update(i, &lesson) {
                self.pending.contents = true;
                self.pending.pages.extend(self.site.neighbours(i));
            }
            self.sections[i] = search::lesson_sections(&lesson);
            self.lessons[i] = lesson;
            self.outcomes[i] = c.outcome;
            self.pending.pages.insert(i);
            self.pending.search = true;
        }
        Some(self.report().and_then(|report| {
            if self.site.set_numbers(report.numbers) {
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
        let link_errors = self.book.check_links(self.lessons.iter());
        report.errors += link_errors.len();
        report.diagnostics.extend(link_errors);
        if report.errors == 0 {
            report.output = Some(self.out.clone());
        }
        Ok(report)
    }

    /// Writes what changed since the last write. Returns the number of files written.
    fn flush(&mut self) -> Result<usize, Fatal> {
        let pending = std::mem::take(&mut self.pending);
        let mut files: Vec<(PathBuf, Option<Vec<u8>>)> = Vec::new();
        if !pending.pages.is_empty() {
            // `print.html` shows every lesson, and `404.html` may be one.
            for (path, bytes) in self.site.extra_pages(&self.lessons)? {
                files.push((path, Some(bytes)));
            }
        }
        let pages: Vec<usize> = pending.pages.into_iter().collect();
        let rendered: Result<Vec<_>, Fatal> = pages
            .par_iter()
            .map(|&i| self.site.page(i, &self.lessons[i]))
            .collect();
        for (path, html) in rendered?.into_iter().flatten() {
            files.push((path, Some(html.into_bytes())));
        }
        for rel in pending.statics {
            let from = self.book.src.join(&rel);
            // A static file that is gone is removed from the site, as a clean build would.
            let bytes = if from.is_file() {
                Some(crate::site::read_static(&from)?)
            } else {
                None
            };
            files.push((rel, bytes));
        }
        if pending.contents {
            if let Some(index) = self.site.index_page(&self.lessons)? {
                files.push((PathBuf::from("index.html"), Some(index.into_bytes())));
            }
            files.push((
                PathBuf::from(templates::TOC_SCRIPT),
                Some(self.site.toc_script()?.into_bytes()),
            ));
            files.push((
                PathBuf::from(templates::TOC_PAGE),
                Some(self.site.toc_page()?.into_bytes()),
            ));
        }
        if pending.search || pending.contents {
            let index = SearchIndex::assemble(&self.lessons, &self.sections);
            files.push((
                PathBuf::from(search::FILE),
                Some(index.to_script().into_bytes()),
            ));
        }
        let written = files.len();
        for (rel, bytes) in files {
            crate::site::output::replace_file(&self.out, &rel, bytes.as_deref())?;
        }
        Ok(written)
    }
}
