//! The print stage: checked lessons typeset as one PDF, in process, by Typst used as a library.
//!
//! The stage reads what the lesson stage made, each lesson's checked
//! [`Document`](crate::site::lesson::document::Document), and nothing else of a lesson: it never
//! checks, computes or parses markdown again, so the paper says what the page says and what
//! was checked. `book` writes the book's Typst source (a title page with the checking summary,
//! the contents, parts and chapters in `SUMMARY.md`'s order, the answers appendix), `markup`
//! one lesson, `blocks` the directives' blocks, `math` the formulas, `style` the drawings'
//! print colours; `world` is the [`typst::World`] the source is typeset in, with the fonts Typst
//! ships compiled into the binary. The stage writes no file: it hands back the PDF's bytes, and
//! the command that asked writes them atomically.
//!
//! Like the lesson stage it imports only `lesson` and `load`, never `render`, `serve` or
//! `handout`.

#[cfg(feature = "pdf")]
mod blocks;
#[cfg(feature = "pdf")]
mod book;
#[cfg(feature = "pdf")]
mod markup;
#[cfg(feature = "pdf")]
mod math;
#[cfg(feature = "pdf")]
mod printer;
#[cfg(feature = "pdf")]
mod style;
#[cfg(feature = "pdf")]
mod world;

use std::path::PathBuf;

use crate::site::lesson::book::{Book, Lesson};
use crate::site::lesson::report::Report;
use crate::site::load::Fatal;
#[cfg(feature = "pdf")]
pub(crate) use printer::{heading_level, Answer, AnswerEntry, Chapter, ChapterAnswers, Printer};

/// Which printed book to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Edition {
    /// The book (or a handout of some chapters): the lessons, and their answers in an
    /// appendix unless the book hides them (graded mode).
    Book,
    /// The teacher's key of a handout: every question with its answer and the worked answers,
    /// graded mode or not.
    Key,
}

/// The checked `lessons` of `book` typeset as the `edition` asks, with the checking summary
/// of `report` on the title page; `None` when Typst could not typeset them (the errors are
/// added to `report`). The printing's warnings are added to `report` either way.
#[cfg(feature = "pdf")]
pub(crate) fn typeset(
    book: &Book,
    lessons: &[Lesson],
    report: &mut Report,
    edition: Edition,
) -> Result<Option<Vec<u8>>, Fatal> {
    let printed = print(book, lessons, report, edition)?;
    report.diagnostics.extend(printed.warnings);
    if printed.errors.is_empty() {
        return Ok(Some(printed.pdf));
    }
    report.errors += printed.errors.len();
    report.diagnostics.extend(printed.errors);
    Ok(None)
}

/// Without the `pdf` feature there is no typesetter: asking for a PDF is an error that says
/// how to get one.
#[cfg(not(feature = "pdf"))]
pub(crate) fn typeset(
    _book: &Book,
    _lessons: &[Lesson],
    _report: &mut Report,
    _edition: Edition,
) -> Result<Option<Vec<u8>>, Fatal> {
    Err(Box::new(
        crate::diag::Diagnostic::error(
            crate::diag::Code::TypesetError,
            "this nimbook was built without the `pdf` feature, so it cannot typeset a PDF",
        )
        .help("build nimbook with its default features to print books"),
    ))
}

/// Files made beside a site's pages: each path, relative to the site, with its bytes.
pub(crate) type SiteFiles = Vec<(PathBuf, Vec<u8>)>;

/// The files a site holds beside its pages: with `[output.pdf]`, the book as a PDF. `None`
/// when it could not be typeset (the errors are in `report`).
pub(crate) fn site_files(
    book: &Book,
    lessons: &[Lesson],
    report: &mut Report,
) -> Result<Option<SiteFiles>, Fatal> {
    let Some(name) = book.config.pdf_file_name() else {
        return Ok(Some(Vec::new()));
    };
    Ok(typeset(book, lessons, report, Edition::Book)?.map(|pdf| vec![(PathBuf::from(name), pdf)]))
}

/// A typeset book: the PDF's bytes and what the printing warned about.
#[cfg(feature = "pdf")]
struct Printed {
    /// The PDF.
    pdf: Vec<u8>,
    /// Warnings: images left out, tables set smaller, lines broken.
    warnings: Vec<crate::diag::Diagnostic>,
    /// Errors: Typst could not typeset the book (nothing should be written).
    errors: Vec<crate::diag::Diagnostic>,
}

/// Typesets `lessons` (checked, every one without errors) of `book` as the `edition` asks,
/// with the checking summary of `report` on its title page.
#[cfg(feature = "pdf")]
fn print(
    book: &Book,
    lessons: &[Lesson],
    report: &Report,
    edition: Edition,
) -> Result<Printed, Fatal> {
    let mut printer = Printer::new(book, lessons);
    let (main, segments) = book::source(&mut printer, book, lessons, report, edition);
    let world =
        world::BookWorld::new(main, std::mem::take(&mut printer.files)).ok_or_else(|| {
            Box::new(crate::diag::Diagnostic::error(
                crate::diag::Code::TypesetError,
                "the printed book's files could not be named",
            ))
        })?;
    let typeset = typst::compile::<typst_layout::PagedDocument>(&world);
    let document = match typeset.output {
        Ok(document) => document,
        Err(errors) => {
            return Ok(Printed {
                pdf: Vec::new(),
                warnings: printer.warnings,
                errors: errors
                    .iter()
                    .map(|e| book::typeset_error(&world, &segments, e))
                    .collect(),
            })
        }
    };
    let title = book.config.book.title.clone().unwrap_or_default();
    let (pdf, conformance) = book::export(&document, &title)?;
    let mut warnings = printer.warnings;
    warnings.extend(conformance);
    // Typst keeps what it computed in a process-wide cache; a long-running process (`serve`
    // with `[output.pdf]`) should not hold every past book.
    typst::comemo::evict(0);
    Ok(Printed {
        pdf,
        warnings,
        errors: Vec::new(),
    })
}
