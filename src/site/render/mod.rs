//! The render stage: pages from templates, the table of contents, the search index, the print
//! page, 404 and redirects.

pub(crate) mod pages;
pub(crate) mod search;
pub(crate) mod templates;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::diag::{Code, Diagnostic};
use crate::site::lesson::book::{Book, Lesson};
use crate::site::lesson::report::Report;
use crate::site::load::book::static_files;
use crate::site::load::Fatal;
use crate::site::output;
use pages::ExtraPages;
use search::{SearchIndex, Section};
use templates::SiteRenderer;

/// A checked book being made into a site: the page renderer and every lesson's search
/// sections. A build makes one and writes everything; `serve` keeps it and writes what an edit
/// changed, through the same [`Site::write`].
pub(crate) struct Site {
    /// Renders one page at a time.
    pub(crate) renderer: SiteRenderer,
    /// The pages and files mdBook writes besides the chapters.
    pages: ExtraPages,
    /// Each lesson's sections of the search index.
    pub(crate) sections: Vec<Vec<Section>>,
    /// The body of `results.html`, when the book names results.
    results: Option<String>,
}

/// The page of the book's named results, linked from every page's sidebar.
pub(crate) const RESULTS_PAGE: &str = "results.html";

/// Which files of a site to write.
#[derive(Default)]
pub(crate) struct Parts {
    /// The lessons whose pages are written, by index.
    pub(crate) pages: Vec<usize>,
    /// `404.html`, `print.html` (which shows every lesson), redirects and the book's extra
    /// files.
    pub(crate) extra: bool,
    /// Static files of the source folder, relative to it; one that is gone is removed.
    pub(crate) statics: Vec<PathBuf>,
    /// The front page and the table of contents.
    pub(crate) contents: bool,
    /// The search index.
    pub(crate) search: bool,
    /// The stylesheets, scripts and fonts every site carries.
    pub(crate) assets: bool,
}

impl Parts {
    /// Every file of the site.
    fn all(book: &Book, lessons: &[Lesson]) -> Result<Parts, Fatal> {
        // A file that SUMMARY.md lists twice is one page, written once (its first entry's):
        // two writers of one file at once could interleave.
        let mut seen = std::collections::HashSet::new();
        Ok(Parts {
            pages: (0..lessons.len())
                .filter(|&i| lessons[i].chapter.out_path().is_none_or(|p| seen.insert(p)))
                .collect(),
            extra: true,
            statics: static_files(&book.src).map_err(Box::new)?,
            contents: true,
            search: true,
            assets: true,
        })
    }
}

impl Site {
    /// Lays out the site of a checked book.
    pub(crate) fn new(book: &Book, lessons: &[Lesson], report: &Report) -> Result<Site, Fatal> {
        let pages = ExtraPages::new(book)?;
        Ok(Site {
            renderer: SiteRenderer::new(book, lessons, report.numbers, pages.extra.clone())?
                .with_fragments(pages.fragments.clone())
                .with_results(!report.results.is_empty()),
            pages,
            sections: lessons.par_iter().map(search::lesson_sections).collect(),
            results: (!report.results.is_empty())
                .then(|| crate::site::lesson::results::html::page(&report.results)),
        })
    }

    /// Renders the `parts` of the site and hands each file to `put` (a path relative to the
    /// output folder, and its bytes, or `None` to remove it), pages in parallel as each is
    /// rendered, so that memory does not grow with the size of the output. Returns the number
    /// of files put.
    pub(crate) fn write(
        &self,
        book: &Book,
        lessons: &[Lesson],
        parts: &Parts,
        put: impl Fn(&Path, Option<&[u8]>) -> Result<(), Fatal> + Sync,
    ) -> Result<usize, Fatal> {
        let site = &self.renderer;
        // In a build's order, so that a later file wins over an earlier one of the same path:
        // static files, pages, contents, extra pages, assets, search index.
        for rel in &parts.statics {
            let from = book.src.join(rel);
            // A static file that is gone is removed from the site, as a clean build would.
            let bytes = if from.is_file() {
                Some(read_static(book, &from)?)
            } else {
                None
            };
            put(rel, bytes.as_deref())?;
        }
        let pages: Vec<usize> = parts
            .pages
            .par_iter()
            .map(|&i| match site.page(i, &lessons[i])? {
                Some((out, html)) => put(&out, Some(html.as_bytes())).map(|()| 1),
                None => Ok(0),
            })
            .collect::<Result<_, Fatal>>()?;
        let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
        if parts.contents {
            if let Some(index) = site.index_page(lessons)? {
                files.push((PathBuf::from("index.html"), index.into_bytes()));
            }
            files.push((
                PathBuf::from(templates::TOC_SCRIPT),
                site.toc_script()?.into_bytes(),
            ));
            files.push((
                PathBuf::from(templates::TOC_PAGE),
                site.toc_page()?.into_bytes(),
            ));
            // Only a book that names results gets the page, so an mdBook book's site stays
            // the files mdBook writes.
            if let Some(body) = &self.results {
                files.push((
                    PathBuf::from(RESULTS_PAGE),
                    site.plain_page("", "Results", body)?.into_bytes(),
                ));
            }
        }
        if parts.extra {
            // `404.html` and `print.html` show lessons; the other files no lesson changes.
            files.extend(self.pages.render(site, lessons)?);
            files.extend(self.pages.files.iter().cloned());
        }
        if parts.assets {
            files.extend(site.assets());
        }
        if parts.search {
            let index = SearchIndex::assemble(lessons, &self.sections, &book.config.html.search);
            files.push((PathBuf::from(search::FILE), index.to_script().into_bytes()));
        }
        for (rel, bytes) in &files {
            put(rel, Some(bytes))?;
        }
        Ok(parts.statics.len() + pages.iter().sum::<usize>() + files.len())
    }
}

/// Writes a checked book's site as the new content of its folder (the HTML renderer's folder
/// under `dest`, else under its `build-dir`: [`Book::layout`]), atomically: every page as it is
/// rendered, the static files of the source folder, the contents, the assets and the search
/// index, and `extra` files made beside the site (the book as a PDF). Records the folder in
/// `report`.
pub(crate) fn publish(
    book: &Book,
    lessons: &[Lesson],
    report: &mut Report,
    dest: Option<&Path>,
    extra: Vec<(PathBuf, Vec<u8>)>,
) -> Result<(Site, PathBuf), Fatal> {
    let out = book.layout(dest).site();
    output::guard(&book.root, &book.src, &out)?;
    let site = Site::new(book, lessons, report)?;
    let staging = output::Staging::begin(&out)?;
    site.write(book, lessons, &Parts::all(book, lessons)?, |rel, bytes| {
        bytes.map_or(Ok(()), |b| staging.write(rel, b))
    })?;
    for (rel, bytes) in &extra {
        staging.write(rel, bytes)?;
    }
    staging.commit()?;
    report.output = Some(out.clone());
    Ok((site, out))
}

/// The bytes of a static file of the source folder, read through the confined reader (the walk
/// skips links and special files; this also refuses one swapped in since). A static file is
/// copied whole, not bounded by `max-lesson-bytes`: it is the book's own file, never rendered.
fn read_static(book: &Book, path: &Path) -> Result<Vec<u8>, Fatal> {
    use std::io::Read;
    let name = book.files.name(path);
    let mut bytes = Vec::new();
    book.files
        .open(path)
        .map_err(|r| book.files.refused(&r, &name, Code::IoError))
        .and_then(|mut f| {
            f.read_to_end(&mut bytes)
                .map_err(|e| Diagnostic::error(Code::IoError, format!("cannot read {name}: {e}")))
        })
        .map_err(Box::new)?;
    Ok(bytes)
}
