//! `nimbook mdbook`: nimbook as a preprocessor inside mdBook 0.5.
//!
//! mdBook runs `nimbook mdbook supports RENDERER` (every renderer is supported), then
//! `nimbook mdbook` with `[context, book]` as JSON on standard input, and reads the book back
//! from standard output. Each chapter is checked as a nimbook lesson is ([`crate::site`]'s
//! embedding stage), in parallel; its `nim` blocks, `nimbook` blocks and `` `nim: …` `` spans
//! are replaced by the HTML a nimbook build makes of them (plain text for a renderer other than
//! `html`), and the rest of the chapter is left to mdBook. A false claim or any other error
//! leaves standard output empty, so mdBook stops; the diagnostics name the author's file under
//! `src/` and its line, through mdBook's includes.
//!
//! `nimbook mdbook install` ([`install`]) sets a book up for it.

pub mod install;

use std::io::{Read, Write};

use mdbook_preprocessor::book::{BookItem, Chapter};
use rayon::prelude::*;

use crate::diag::{Code, Diagnostic};
use crate::site::embed::splice::{splice, Target};
use crate::site::embed::{self, Settings};
use crate::site::Fatal;

/// Whether `nimbook mdbook` can preprocess a book for `renderer`: always, since claims are
/// checked for every renderer, as HTML for `html` and as plain text for the others.
pub fn supports(_renderer: &str) -> bool {
    true
}

/// What a run found.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Preprocessed {
    /// Every diagnostic, in chapter order.
    pub diagnostics: Vec<Diagnostic>,
    /// Claims checked.
    pub claims: usize,
    /// Chapters read.
    pub chapters: usize,
    /// Errors among the diagnostics; the book was written only when there were none.
    pub errors: usize,
}

impl Preprocessed {
    /// The summary line, worded as `nimbook check`'s.
    pub fn summary(&self) -> String {
        crate::site::summary_line(self.claims, self.chapters, "chapter", self.errors)
    }
}

/// Reads `[context, book]` from `input`, checks and renders every chapter, and writes the book
/// to `output` when no chapter has an error.
pub fn run(input: impl Read, output: impl Write) -> Result<Preprocessed, Fatal> {
    let (ctx, mut book) = mdbook_preprocessor::parse_input(input).map_err(|e| {
        Box::new(
            Diagnostic::error(
                Code::PreprocessorError,
                format!("mdBook's input is not a [context, book] pair: {e:#}"),
            )
            .help("`nimbook mdbook` is run by mdBook; add it to book.toml with `nimbook mdbook install`"),
        )
    })?;
    let settings = Settings::load(&ctx.root)?;
    let target = if ctx.renderer == "html" {
        Target::Html
    } else {
        Target::Text
    };
    let mut chapters = Vec::new();
    collect(&mut book.items, &mut chapters);
    let checked: Vec<embed::Embedded> = chapters
        .par_iter_mut()
        .map(|job| check(&settings, job, target))
        .collect();
    let mut report = Preprocessed::default();
    for c in checked {
        report.chapters += 1;
        report.claims += c.claims;
        report.errors += c.errors;
        report.diagnostics.extend(c.diagnostics);
    }
    if report.errors == 0 {
        let mut output = std::io::BufWriter::new(output);
        serde_json::to_writer(&mut output, &book)
            .map_err(|e| e.to_string())
            .and_then(|()| output.flush().map_err(|e| e.to_string()))
            .map_err(|e| {
                Box::new(Diagnostic::error(
                    Code::IoError,
                    format!("cannot write the book for mdBook: {e}"),
                ))
            })?;
    }
    Ok(report)
}

/// One chapter's text and what names it, borrowed from the book.
struct Job<'a> {
    content: &'a mut String,
    name: &'a str,
    source_path: Option<&'a std::path::Path>,
    page: String,
}

/// Every chapter with content (drafts have none), in reading order.
fn collect<'a>(items: &'a mut [BookItem], out: &mut Vec<Job<'a>>) {
    for item in items {
        if let BookItem::Chapter(chapter) = item {
            // Destructured, so that the text and the sub-chapters are borrowed apart.
            let Chapter {
                name,
                content,
                sub_items,
                path,
                source_path,
                ..
            } = chapter;
            if let Some(path) = path {
                out.push(Job {
                    content,
                    name,
                    source_path: source_path.as_deref(),
                    page: path.to_string_lossy().replace('\\', "/"),
                });
            }
            collect(sub_items, out);
        }
    }
}

/// Checks one chapter and, when it holds, puts the rendered claims into its content.
fn check(settings: &Settings, job: &mut Job<'_>, target: Target) -> embed::Embedded {
    let checked = embed::chapter(settings, job.source_path, job.name, job.content, &job.page);
    if checked.errors == 0 && !checked.fragments.is_empty() {
        // The fragments' ranges are ranges of the text as nimbook reads it (one kind of line
        // ending), so that text is what they go into.
        let read = crate::diag::text::normalize(job.content);
        *job.content = splice(&read, &checked.fragments, target);
    }
    checked
}
