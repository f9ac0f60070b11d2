//! What a check of a book found: the lessons' outcomes gathered in chapter order, and progress
//! through a long check.

use std::path::PathBuf;

use super::coverage::{self, NumberCounts};
use crate::diag::{Code, Diagnostic};

/// What a check or a build found.
#[derive(Debug, Default)]
#[non_exhaustive]
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
    /// Where `handout --answers` wrote the teacher's answer key.
    pub answer_key: Option<PathBuf>,
    /// The number account of the whole book: verified, unverified, exempt.
    pub numbers: NumberCounts,
    /// The number account of each lesson, by source path, in chapter order.
    pub lesson_numbers: Vec<(String, NumberCounts)>,
    /// How much the cache of decided results was used (zero when it was not).
    pub cache: super::memo::CacheUse,
    /// The book's named results in chapter order, with their statuses (`check --results`).
    pub results: Vec<super::results::graph::ResultRow>,
}

impl Report {
    /// The summary line printed at the end of `check` and `build`.
    pub fn summary(&self) -> String {
        summary_line(self.claims, self.lessons, "lesson", self.errors)
    }
}

/// The summary line, a public interface that scripts read: `checked N claims in M lessons:
/// all hold` (or `: K failed`); `unit` names what was read (`lesson`, or `chapter` inside
/// mdBook).
pub(crate) fn summary_line(claims: usize, units: usize, unit: &str, errors: usize) -> String {
    let verdict = if errors == 0 {
        "all hold".to_string()
    } else {
        format!("{errors} failed")
    };
    format!(
        "checked {claims} claim{} in {units} {unit}{}: {verdict}",
        if claims == 1 { "" } else { "s" },
        if units == 1 { "" } else { "s" },
    )
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
    pub(crate) numbers: Option<(String, NumberCounts)>,
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

    pub(crate) fn start(&self, total: usize) {
        (self.start)(total);
    }

    pub(crate) fn advance(&self, title: &str) {
        (self.advance)(title);
    }
}
