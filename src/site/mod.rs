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
//! imports them.

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
pub(crate) use lesson::report::summary_line;
pub use lesson::report::{Progress, Report};
pub use load::confine::Trust;
pub use load::lints::{Lint, LintLevel, Lints};
pub use load::{Fatal, LintOverride, Options};
pub use lsp::lsp;
pub use serve::live::{LiveSite, Update};
pub use serve::{serve, ServeEvent};

use lesson::book::Book;

/// `nimbook check`: every claim of every lesson, nothing written.
pub fn check(options: &Options, progress: &Progress) -> Result<Report, Fatal> {
    Book::check_all(options, progress).map(|(_, _, report)| report)
}

/// `nimbook build`: check, then render and write the site atomically. On content errors
/// nothing is written and the previous site stays as it was. With `[output.pdf]` in
/// `book.toml` the site also holds the book as a PDF, linked from every page.
pub fn build(options: &Options, progress: &Progress) -> Result<Report, Fatal> {
    let (book, checked, mut report) = Book::check_all(options, progress)?;
    if report.errors == 0 {
        let lessons: Vec<_> = checked.into_iter().map(|(lesson, _)| lesson).collect();
        let Some(extra) = print::site_files(&book, &lessons, &mut report)? else {
            return Ok(report);
        };
        render::publish(&book, &lessons, &mut report, options.output.as_deref(), extra)?;
    }
    Ok(report)
}

/// `nimbook pdf`: check every claim, then typeset the whole book as one PDF and write it to
/// `options.output` (else into the output folder, named after the book), atomically. A false
/// claim or a denied lint writes nothing and leaves an existing file as it was.
pub fn pdf(options: &Options, progress: &Progress) -> Result<Report, Fatal> {
    let (book, checked, mut report) = Book::check_all(options, progress)?;
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
            let out = book.output_dir(None);
            output::write_into_output(&book.root, &book.src, &out, &name, &pdf)?;
            out.join(name)
        }
    };
    report.output = Some(file);
    Ok(report)
}
