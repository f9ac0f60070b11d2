//! The site: load a book, check every lesson, render pages, write the output atomically.
//!
//! A build is a pipeline of stages, one folder each, every stage over plain values:
//!
//! 1. `load`: `book.toml` (read once), the chapter list from `SUMMARY.md` or the source
//!    folder, includes and the source map;
//! 2. `preprocess`: mdBook's preprocessor chain, external preprocessors included;
//! 3. [`lesson`]: each lesson checked and rendered to an HTML fragment (lessons are
//!    independent, so they run in parallel with rayon), then the links between them;
//! 4. `render`: pages from templates, the table of contents, the search index;
//! 5. `output`: the staging folder, which replaces the output folder only once it is
//!    complete, and only if every lesson checked clean.
//!
//! `print` is a stage beside `render`: the checked lessons typeset as one PDF by Typst
//! (`nimbook pdf`, `handout --pdf`, and `build` with `[output.pdf]`).
//!
//! `serve`, `handout` and `lsp` are front ends built on those stages; no stage of a build
//! imports them. Each opens the book's `cache` (the results decided in earlier builds, in
//! `.nimbook/cache/`) before the lessons are checked and saves it after.

pub(crate) mod cache;
pub(crate) mod embed;
mod handout;
mod html;
pub mod lesson;
mod load;
mod lsp;
mod output;
mod preprocess;
mod print;
mod render;
mod serve;

pub use handout::handout;
pub use lesson::coverage::NumberCounts;
pub use lesson::directives::list as directives;
pub use lesson::markdown::RenderedPage;
pub use lesson::memo::CacheUse;
pub(crate) use lesson::report::summary_line;
pub use lesson::report::{Progress, Report};
pub use lesson::results::graph::ResultRow;
pub use load::confine::Trust;
pub use load::lints::{Lint, LintLevel, Lints};
pub use load::{Fatal, LintOverride, Options};
pub use lsp::lsp;
pub use serve::live::{LiveSite, Update};
pub use serve::{serve, ServeEvent};

use lesson::book::Book;

/// `nimbook check`: every claim of every lesson; no site is written (the cache is, when the
/// options ask for it).
pub fn check(options: &Options, progress: &Progress) -> Result<Report, Fatal> {
    let mut store = cache::Store::open(options);
    let (_, _, mut report) = Book::check_all(options, progress, store.view())?;
    store.finish(&mut report);
    Ok(report)
}

/// `nimbook build`: check, then render and write the site atomically, then run the book's
/// other renderers (`[output.NAME]`), each in its own folder, as mdBook does. With
/// `[output.pdf]` in `book.toml` the site also holds the book as a PDF, linked from every page.
/// On content errors, or when the PDF cannot be typeset, nothing is written and the previous
/// site stays as it was (the cache still keeps what was decided).
pub fn build(options: &Options, progress: &Progress) -> Result<Report, Fatal> {
    let mut store = cache::Store::open(options);
    let (book, checked, mut report) = Book::check_all(options, progress, store.view())?;
    let written = if report.errors == 0 {
        let layout = book.layout(options.output.as_deref());
        let lessons: Vec<_> = checked.into_iter().map(|(lesson, _)| lesson).collect();
        publish_site(&book, &lessons, &layout, &mut report, options).and_then(|published| {
            if published {
                output::renderers::run(&book, &layout, &mut report)
            } else {
                Ok(())
            }
        })
    } else {
        Ok(())
    };
    // After the pages (a `404.md` is checked with them), and even when they failed.
    store.finish(&mut report);
    written.map(|()| report)
}

/// Writes the site of a checked book, with the files made beside it (the PDF of
/// `[output.pdf]`), when the book has an HTML renderer. `false` when the PDF could not be
/// typeset, so that nothing was written (the errors are in `report`).
fn publish_site(
    book: &Book,
    lessons: &[lesson::book::Lesson],
    layout: &load::layout::Layout,
    report: &mut Report,
    options: &Options,
) -> Result<bool, Fatal> {
    if !layout.has_site() {
        return Ok(true);
    }
    let Some(extra) = print::site_files(book, lessons, report)? else {
        return Ok(false);
    };
    render::publish(book, lessons, report, options.output.as_deref(), extra)?;
    Ok(true)
}

/// Whether a command uses the cache of decided results: not when `--no-cache` was given
/// (`no_cache`) or `NIMBOOK_NO_CACHE` is `1`, `true` or `yes`.
pub fn cache_wanted(no_cache: bool) -> bool {
    cache::wanted(no_cache)
}

/// `nimbook cache clear`: removes the cache of decided results of the book at `root`
/// (`.nimbook/cache/`). Returns the folder removed, or `None` when there was none.
pub fn clear_cache(root: &std::path::Path) -> Result<Option<std::path::PathBuf>, Fatal> {
    cache::clear(root)
}

/// `nimbook pdf`: check every claim, then typeset the whole book as one PDF and write it to
/// `options.output` (else into the site's folder, named after the book), atomically. A false
/// claim or a denied lint writes nothing and leaves an existing file as it was.
pub fn pdf(options: &Options, progress: &Progress) -> Result<Report, Fatal> {
    let mut store = cache::Store::open(options);
    let (book, checked, mut report) = Book::check_all(options, progress, store.view())?;
    store.finish(&mut report);
    if report.errors > 0 {
        return Ok(report);
    }
    let lessons: Vec<_> = checked.into_iter().map(|(lesson, _)| lesson).collect();
    let Some(pdf) = print::typeset(&book, &lessons, &mut report, print::Edition::Book)? else {
        return Ok(report);
    };
    let file = match &options.output {
        Some(file) => {
            output::write_file_atomically(file, &pdf)?;
            file.clone()
        }
        None => {
            let name = book.config.pdf_name();
            let out = book.layout(None).site();
            output::write_into_output(&book.root, &book.src, &out, &name, &pdf)?;
            out.join(name)
        }
    };
    report.output = Some(file);
    Ok(report)
}
