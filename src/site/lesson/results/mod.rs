//! Named results: theorems, lemmas, propositions, corollaries and definitions, with their
//! status.
//!
//! A result is a heading with a kind among its classes, and the names of the results its proof
//! uses in a `uses` attribute, comma-separated:
//!
//! ```text
//! ## Bouton's theorem {#bouton .theorem uses=sprague-grundy,nim-sum}
//! ```
//!
//! This is pulldown-cmark's heading-attribute syntax, which mdBook already reads: an mdBook
//! build of the same book shows the heading with its id and class and ignores the rest. The
//! result's name is its anchor (the `#id`, or the slug of its title).
//!
//! The result's *section* runs from its heading to the next heading of any level. Its status
//! follows from the statements of the claim language in that section. The quantified claims
//! (`forall`) are the result's general statement, and the weakest of them decides; claims
//! without a quantifier are then its examples. So:
//!
//! - no claim and no value: **stated** (its proof is prose);
//! - no quantified claim, but claims or values: **computed** (the result is a value the
//!   engines produced);
//! - some quantified claim checked case by case: **checked**, with the fewest cases among
//!   them;
//! - every quantified claim proved for every case: **proved**, with the method and premise of
//!   the first.
//!
//! A result whose section decides something but whose proof uses results that are only stated
//! rests on them: it reads "…, given Theorem 1.2", listing the stated results reached first
//! along its `uses` (through results that are not stated themselves, which pass on what they
//! are given). A stated result lists the results it uses. The words come from one place,
//! [`Status`]'s `Display`, used by the page, the results page, `check --results` and the
//! editor's hover. The book-wide part (numbers, what is given, the errors of names that no
//! result has, duplicates and cycles) is `graph`'s.

pub(crate) mod graph;
pub(crate) mod html;

use std::fmt;
use std::ops::Range;

use super::context::LessonContext;
use super::document::{Document, Node};
use crate::claim::ast::{Ranges, Statement};
use crate::claim::{Checked, Established};
use crate::diag::{Code, Diagnostic};

/// What a named result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    /// A theorem.
    Theorem,
    /// A lemma.
    Lemma,
    /// A proposition.
    Proposition,
    /// A corollary.
    Corollary,
    /// A definition.
    Definition,
}

impl Kind {
    /// Every kind, by its class name.
    pub(crate) const ALL: [(&'static str, Kind); 5] = [
        ("theorem", Kind::Theorem),
        ("lemma", Kind::Lemma),
        ("proposition", Kind::Proposition),
        ("corollary", Kind::Corollary),
        ("definition", Kind::Definition),
    ];

    /// The kind a class names.
    fn of(class: &str) -> Option<Kind> {
        Kind::ALL.iter().find(|(n, _)| *n == class).map(|&(_, k)| k)
    }

    /// The word, capitalised, as a label reads: `Theorem`.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Kind::Theorem => "Theorem",
            Kind::Lemma => "Lemma",
            Kind::Proposition => "Proposition",
            Kind::Corollary => "Corollary",
            Kind::Definition => "Definition",
        }
    }
}

/// What a result's own section establishes (see the module docs for the order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Evidence {
    /// No claim: the proof is prose.
    Stated,
    /// A claim without a quantifier, or a value shown.
    Computed,
    /// A quantified claim evaluated case by case (`Established::Checked`): how many cases, and
    /// up to which bounds (`a, b < 16`, as the claim's quantifier writes them).
    Checked {
        /// How many cases.
        cases: u64,
        /// What the variables ranged over.
        ranges: String,
    },
    /// A quantified claim proved for every case (a polynomial identity, a period).
    Proved(Established),
}

impl Evidence {
    /// The status word: `stated`, `computed`, `checked`, `proved`.
    pub(crate) fn word(&self) -> &'static str {
        match self {
            Evidence::Stated => "stated",
            Evidence::Computed => "computed",
            Evidence::Checked { .. } => "checked",
            Evidence::Proved(_) => "proved",
        }
    }

    /// Its rank among evidence of its own sort (cases, or a proof), weakest first.
    fn rank(&self) -> (u8, u64) {
        match self {
            Evidence::Checked { cases, .. } => (1, *cases),
            Evidence::Proved(_) => (2, 0),
            Evidence::Stated | Evidence::Computed => (0, 0),
        }
    }

    /// What one checked statement establishes, `None` for a `let` or a statement that failed
    /// (its error is reported where it stands).
    fn of(c: &Checked) -> Option<Evidence> {
        use crate::claim::Status;
        match (c.status, &c.established) {
            (Status::Holds, Some(Established::Checked { cases })) => Some(Evidence::Checked {
                cases: *cases,
                ranges: match c.stmt.as_ref().map(|s| &s.stmt) {
                    Some(Statement::Quantified { binders, .. }) => Ranges(binders).to_string(),
                    _ => String::new(),
                },
            }),
            (Status::Holds, Some(e)) => Some(Evidence::Proved(*e)),
            (Status::Holds | Status::Value, None) => Some(Evidence::Computed),
            _ => None,
        }
    }

    /// The section's evidence once `other` is added: a quantified claim outweighs values and
    /// closed claims (they are the result's examples), and among quantified claims the weakest
    /// decides.
    fn add(self, other: Evidence) -> Evidence {
        let general = |e: &Evidence| matches!(e, Evidence::Checked { .. } | Evidence::Proved(_));
        match (general(&self), general(&other)) {
            (true, true) if other.rank() < self.rank() => other,
            (true, _) => self,
            (false, true) => other,
            (false, false) => Evidence::Computed,
        }
    }
}

impl fmt::Display for Evidence {
    /// `stated`, `computed`, `checked (256 cases)`, `proved (polynomial identity; nimbers form
    /// a field)`: the claim's own mark for what a quantifier established.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::Checked { cases, ranges } => {
                let noun = if *cases == 1 { "case" } else { "cases" };
                write!(f, "checked ({} {noun}", crate::claim::grouped(*cases))?;
                if !ranges.is_empty() {
                    write!(f, ", {ranges}")?;
                }
                write!(f, ")")
            }
            Evidence::Proved(e) => write!(f, "{e}"),
            other => f.write_str(other.word()),
        }
    }
}

/// A result's status: its evidence, and the stated results it rests on (for a stated
/// result, the results it uses).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Status {
    /// What its own section establishes.
    pub(crate) evidence: Evidence,
    /// The stated results it is given, or, for a stated result, the results it uses.
    pub(crate) resting_on: Vec<Ref>,
}

/// A reference to a result: its label and its address from the site root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ref {
    /// `Theorem 1.2`.
    pub(crate) label: String,
    /// `sprague-grundy.html#sprague-grundy`.
    pub(crate) href: String,
}

impl Status {
    /// `given` or `uses`: how the results it rests on are introduced.
    pub(crate) fn resting_word(&self) -> &'static str {
        if self.evidence == Evidence::Stated {
            "uses"
        } else {
            "given"
        }
    }
}

impl fmt::Display for Status {
    /// `proved (…), given Theorem 1.2 and Lemma 2.1`; `stated, uses Theorem 1.2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.evidence)?;
        if self.resting_on.is_empty() {
            return Ok(());
        }
        let labels: Vec<String> = self.resting_on.iter().map(|r| r.label.clone()).collect();
        write!(f, ", {} {}", self.resting_word(), and_list(&labels))
    }
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// One named result of a lesson.
#[derive(Debug, Clone)]
pub(crate) struct NamedResult {
    /// Its kind.
    pub(crate) kind: Kind,
    /// Its name: the heading's anchor.
    pub(crate) name: String,
    /// The heading's text.
    pub(crate) title: String,
    /// The heading's byte range in the lesson (the line it stands on).
    pub(crate) span: Range<usize>,
    /// The names its proof uses, each with where it is written.
    pub(crate) uses: Vec<(String, Range<usize>)>,
    /// What its own section establishes.
    pub(crate) evidence: Evidence,
    /// Filled in once the whole book is known (`graph`): its number and status.
    pub(crate) resolved: Option<Resolved>,
}

/// What a result is once the whole book is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// Its number, `3.2` (the chapter's number, then its place among the chapter's results).
    pub(crate) number: String,
    /// Its status.
    pub(crate) status: Status,
    /// Its own address from the site root.
    pub(crate) href: String,
    /// The results it uses.
    pub(crate) uses: Vec<Ref>,
}

impl NamedResult {
    /// `Theorem 3.2` once numbered, else `Theorem`.
    pub(crate) fn label(&self) -> String {
        match &self.resolved {
            Some(r) => format!("{} {}", self.kind.word(), r.number),
            None => self.kind.word().to_string(),
        }
    }

    /// Its status: the resolved one, or what its own section establishes.
    pub(crate) fn status(&self) -> Status {
        match &self.resolved {
            Some(r) => r.status.clone(),
            None => Status {
                evidence: self.evidence.clone(),
                resting_on: Vec::new(),
            },
        }
    }
}

/// Finds the named results of a checked lesson: marks each result heading with its index
/// into `doc.results`, takes its `uses` attribute off the heading (the page shows the uses as
/// links instead) and reads its section's evidence. An unknown kind is reported here; names
/// across the book are `graph`'s.
pub(crate) fn gather(doc: &mut Document, lesson: &mut LessonContext) {
    let file = std::sync::Arc::clone(lesson.file());
    let source = file.text.as_str();
    let mut current: Option<usize> = None;
    for i in 0..doc.nodes.len() {
        match &mut doc.nodes[i] {
            Node::Heading(h) => {
                current = None;
                let line = heading_line(source, h.offset);
                let Some(kind) = kind_of(&h.classes, &h.attrs, source, &line, lesson) else {
                    continue;
                };
                let uses = match h.attrs.iter().position(|(k, _)| k.as_ref() == "uses") {
                    Some(at) => {
                        let (_, value) = h.attrs.remove(at);
                        uses_of(value.as_deref().unwrap_or(""), source, &line)
                    }
                    None => Vec::new(),
                };
                current = Some(doc.results.len());
                h.result = current;
                doc.results.push(NamedResult {
                    kind,
                    name: h.anchor.clone(),
                    title: title_of(&h.title, source.get(line.clone()).unwrap_or("")),
                    span: line,
                    uses,
                    evidence: Evidence::Stated,
                    resolved: None,
                });
            }
            Node::Claims { checked, .. } => {
                if let Some(r) = current {
                    add_evidence(&mut doc.results[r], checked);
                }
            }
            Node::InlineClaim { checked, .. } => {
                if let Some(r) = current {
                    add_evidence(&mut doc.results[r], std::slice::from_ref(checked));
                }
            }
            _ => {}
        }
    }
}

/// A result's title as a label reads it: the heading's text, or, when the heading holds math
/// (whose text the heading's own title leaves out), its source line with the markdown marks
/// and the commonest LaTeX commands read as the symbols they print.
fn title_of(title: &str, line: &str) -> String {
    if !line.contains('$') {
        return title.to_string();
    }
    let text = line.trim_start_matches('#').trim();
    let text = match text.rfind('{') {
        Some(i) if text.ends_with('}') => text[..i].trim_end(),
        _ => text,
    };
    let mut out = text.replace('$', "");
    for (tex, symbol) in [
        ("\\{", "{"),
        ("\\}", "}"),
        ("\\oplus", "⊕"),
        ("\\otimes", "⊗"),
        ("\\alpha", "α"),
        ("\\omega", "ω"),
    ] {
        out = out.replace(tex, symbol);
    }
    out
}

/// Folds what `checked` establishes into a result's evidence.
fn add_evidence(result: &mut NamedResult, checked: &[Checked]) {
    for e in checked.iter().filter_map(Evidence::of) {
        let old = std::mem::replace(&mut result.evidence, Evidence::Stated);
        result.evidence = old.add(e);
    }
}

/// The byte range of the heading's first line (where its attributes are written).
fn heading_line(source: &str, offset: usize) -> Range<usize> {
    let rest = source.get(offset..).unwrap_or("");
    offset..offset + rest.find('\n').unwrap_or(rest.len())
}

/// Where `needle` is written inside the heading's attribute block, if it is.
fn attr_span(source: &str, line: &Range<usize>, needle: &str) -> Option<Range<usize>> {
    let text = source.get(line.clone())?;
    let brace = text.rfind('{')?;
    let at = text[brace..].find(needle)? + brace + line.start;
    Some(at..at + needle.len())
}

/// The kind among a heading's classes. A class one typing slip from a kind, or a `uses`
/// attribute on a heading that names no kind, is an error with the kind it probably meant.
fn kind_of(
    classes: &[pulldown_cmark::CowStr<'static>],
    attrs: &[(
        pulldown_cmark::CowStr<'static>,
        Option<pulldown_cmark::CowStr<'static>>,
    )],
    source: &str,
    line: &Range<usize>,
    lesson: &mut LessonContext,
) -> Option<Kind> {
    if let Some(kind) = classes.iter().find_map(|c| Kind::of(c)) {
        return Some(kind);
    }
    let names = Kind::ALL.iter().map(|(n, _)| *n);
    let near = classes
        .iter()
        .find_map(|c| crate::diag::nearest(&c.to_lowercase(), names.clone()).map(|k| (c, k)));
    let file = lesson.file().clone();
    if let Some((class, kind)) = near {
        let span = attr_span(source, line, &format!(".{class}")).unwrap_or(line.clone());
        lesson.report(
            Diagnostic::error(
                Code::InvalidResult,
                format!("unknown kind of result `{class}`"),
            )
            .at(&file, span.clone())
            .label("not a kind of result")
            .note(kinds_note())
            .help(format!("did you mean `.{kind}`?"))
            .suggest("write the kind", span, format!(".{kind}")),
        );
    } else if attrs.iter().any(|(k, _)| k.as_ref() == "uses") {
        let span = attr_span(source, line, "uses").unwrap_or(line.clone());
        lesson.report(
            Diagnostic::error(
                Code::InvalidResult,
                "`uses` on a heading that names no kind of result",
            )
            .at(&file, span)
            .label("a result's uses, but which kind of result is this?")
            .note(kinds_note())
            .help("add a kind among the heading's classes, e.g. `{#name .theorem uses=…}`"),
        );
    }
    None
}

fn kinds_note() -> String {
    let names: Vec<String> = Kind::ALL.iter().map(|(n, _)| format!("`.{n}`")).collect();
    format!("the kinds of result are {}", and_list(&names))
}

/// The names of a `uses` attribute (`a,b`), each with where it is written.
fn uses_of(value: &str, source: &str, line: &Range<usize>) -> Vec<(String, Range<usize>)> {
    let base = attr_span(source, line, "uses=").map(|s| s.end);
    let mut out = Vec::new();
    let mut from = 0;
    for name in value.split(',') {
        let at = value[from..].find(name).map_or(from, |i| from + i);
        from = at + name.len();
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        let span = match base {
            Some(b) => {
                let lead = value[at..].find(name).unwrap_or(0);
                b + at + lead..b + at + lead + name.len()
            }
            None => line.clone(),
        };
        out.push((name.to_string(), span));
    }
    out
}

#[cfg(test)]
mod tests;
