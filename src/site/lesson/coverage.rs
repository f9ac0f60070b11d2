//! Proof coverage: which numbers on a page were computed or checked, and which were not.
//!
//! nimbook promises that every number in a lesson is proved by its build. This module keeps the
//! account for one lesson. The markdown pass feeds it, with byte offsets into the lesson file,
//! the prose it renders (paragraphs, headings, list items, table cells, link text, image alt
//! text), the LaTeX it renders, and the claims it checked. It never sees code blocks, code spans,
//! link targets or `nimbook` generated blocks, so those are not counted.
//!
//! Three counts come out, printed by `check` as `numbers: V verified, U unverified, E exempt`:
//!
//! - **verified**: the number literals of claims and `nim:` spans that were checked and compute
//!   something, each value a `nim:` span computed and shows, and the numerals of prose and LaTeX
//!   facts that the operand rule (below) verifies;
//! - **unverified**: numerals in prose or LaTeX facts that nothing produced or checked (the lint
//!   `unverified-numbers`);
//! - **exempt**: numerals inside an exemption mark, `{…}`.
//!
//! # What a numeral is
//!
//! In prose, a numeral is a run of ASCII digits (with `.5` decimals and `1,000` groups) that does
//! not continue a word: the `2` of `H2` or `a2` is part of a name, the `2` of `2nd` is a numeral.
//!
//! # LaTeX: notation or fact
//!
//! A numeral in `$…$` or `$$…$$` is a *fact* when it stands on the baseline of a formula that
//! states something, and *notation* otherwise. Precisely, reading the formula as TeX does:
//!
//! 1. a formula states a fact when it is *closed* and has a relation (`= < > ≤ ≥ ≠`, `\neq`,
//!    `\ne`, `\le`, `\leq`, `\ge`, `\geq`, `\lt`, `\gt`, `\equiv`, `\approx`, `\cong`), or
//!    when it is a single number (`$15$`). Closed means it has no variable: no letter, and no
//!    Greek letter but the constant `\omega`, on its baseline. A formula with a variable
//!    (`$a = 0$`, `$x^3 = 2$`) states a condition or a general law, whose numerals are
//!    parameters, not facts about particular numbers;
//! 2. a numeral is notation when it is (part of) a superscript or subscript (`x^2`, `a_1`, the
//!    inner 2 of `2^{2^n}`), the base of one (the outer 2 of `2^{2^n}`, the 2 of `2^8`), or
//!    inside the argument of a text or font command (`\text{…}`, `\mathrm{…}`,
//!    `\operatorname{…}`, `\mathbb{…}`, …);
//! 3. every other numeral of a stating formula is a fact: the 6, 13 and 15 of
//!    `$6 \otimes 13 = 15$`. A formula that states nothing (`$\mathrm{GF}(2^8)$`, `$a_1$`,
//!    `$6 \otimes 13$`, `$a \oplus 0 = a$`) has no facts.
//!
//! A fact in LaTeX is verified the same way as one in prose: by writing it as a `nim:` span.
//!
//! # The operand rule
//!
//! A numeral in prose, or a fact numeral in LaTeX, is verified when the same number is a number
//! literal, or a value shown, of a checked, non-vacuous `nim:` span in the same sentence. In
//! "heaps of 3, 5 and 7, whose nim-sum `nim: 3 + 5 + 7` is 1", the 3, 5 and 7 are literals of
//! the span and 1 is its shown value, so the four numerals of the prose are verified.
//!
//! - *Same number* compares values: a numeral's groups and leading zeros are dropped (`1,000`
//!   is 1000, `007` is 7) and a literal is read as the claim language reads it (`0x10` is 16).
//!   A decimal fraction (`2.5`) matches nothing, because no claim shows one. A shown value is a
//!   number, or each number of a list.
//! - A *sentence* ends at `.`, `!`, `?`, `;` or `:` followed by white space (a line break and
//!   the edge of a table cell count as white space) or by the end of the block. A stop inside
//!   an exemption mark ends nothing. Abbreviations are not recognised: `e.g. ` ends a sentence.
//! - A *block* is a paragraph, a heading, a list item or a table row (more exactly, the start
//!   or end of any markdown block ends the sentence; inline markup such as emphasis, links and
//!   images does not). So the cells of one table row share their spans, and a sentence never
//!   runs into the next block.
//! - Numerals before and after the span both count: a sentence's numerals wait until the
//!   sentence ends, and are then decided at once.
//! - A span counts only if it was checked (it holds, or it is a value that was computed) and
//!   is not vacuous. A false claim is an error anyway; `nim: 27` verifies nothing. The claims
//!   of a `nim` block stand in no sentence, so they verify no prose.
//!
//! The rule costs one hash set per sentence that has a span, built from the sentence's
//! operands and probed once per numeral: linear in the numerals and literals of the lesson.
//!
//! # Exemptions
//!
//! A number that is not mathematics (a year, a citation, a lesson number, a count of people) is
//! marked in the source with braces: `{1997}`, `{Winning Ways, chapter 14}`. The braces are not
//! shown on the page. Every numeral inside them is counted as exempt, so a reviewer can audit
//! the exemptions. An opening brace with no closing brace on its line is not a mark.
//!
//! # Cost
//!
//! Every scan is one pass over its text. Help lines are found by hash lookups and one parse per
//! equation-like run of text, never per numeral, so a lesson with 100 000 numerals is scanned in
//! linear time. At most [`MAX_REPORTED`] unverified numbers of one lesson, and
//! [`MAX_REPORTED_IN_BOOK`] of a book, are reported one by one; the rest are summed up in one
//! more diagnostic (the counts stay exact). Printing is the cost that grows: each finding is
//! rendered with its source line, so tens of thousands of them once took longer than checking
//! the book they came from.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

use crate::claim::ast::{ExprKind, Statement};
use crate::claim::vacuous::{vacuity, Vacuity};
use crate::claim::{lexer, parser, Checked, Checker, Established, Limits, Status, Value};
use crate::diag::{Code, Diagnostic, Level};
use crate::nim::Nimber;
use crate::site::lesson::context::LessonContext;
use crate::site::load::lints::{LintLevel, Lints};

/// The most unverified numbers reported one by one per lesson.
pub(crate) const MAX_REPORTED: usize = 50;

/// The most unverified-number findings reported one by one per book (see
/// [`crate::site::Report`]); the rest are summed up in one more.
pub(crate) const MAX_REPORTED_IN_BOOK: usize = 200;

/// How far (in bytes) a claim may stand from a numeral and still be offered as its fix.
const NEARBY: usize = 4000;

/// The longest equation-like run of prose that is tried as a claim for a help line.
const MAX_EQUATION: usize = 200;

/// The number account of a lesson or a book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NumberCounts {
    /// Numbers that a claim checked or a span computed.
    pub verified: usize,
    /// Numbers that nothing produced or checked.
    pub unverified: usize,
    /// Numbers marked as not mathematics.
    pub exempt: usize,
}

impl NumberCounts {
    /// Adds another account to this one.
    pub fn add(&mut self, other: NumberCounts) {
        self.verified += other.verified;
        self.unverified += other.unverified;
        self.exempt += other.exempt;
    }

    /// `numbers: V verified, U unverified, E exempt`, the line after `check`'s summary.
    pub fn summary(&self) -> String {
        format!(
            "numbers: {} verified, {} unverified, {} exempt",
            self.verified, self.unverified, self.exempt
        )
    }
}

/// A numeral of prose or a LaTeX fact, waiting for its sentence to end, or found unverified.
struct Numeral {
    span: Range<usize>,
    text: String,
    /// A claim to write, found in the text around the numeral.
    equation: Option<String>,
    /// Where that claim stands in prose, for an editor to replace it with the span.
    equation_span: Option<Range<usize>>,
}

/// The sentence being read. Its numerals wait here until it ends, because a span later in the
/// sentence verifies them as well as one before them.
#[derive(Default)]
struct Sentence {
    /// Numerals of prose and LaTeX facts, in document order.
    numerals: Vec<Numeral>,
    /// The literals and shown values of the checked, non-vacuous spans of the sentence, in
    /// decimal.
    operands: Vec<String>,
    /// The last character read was a sentence stop (`.`, `!`, `?`, `;`, `:`), so white space or
    /// the end of the block ends the sentence.
    after_stop: bool,
}

/// A value shown or checked by a claim, to offer as the fix of a numeral nearby.
struct Known {
    offset: usize,
    /// The value, as printed.
    value: String,
    /// The expression that computes it, as written.
    source: String,
}

/// The account of one lesson, fed by the markdown pass.
pub(crate) struct Coverage<'s> {
    source: &'s str,
    lints: Lints,
    counts: NumberCounts,
    sentence: Sentence,
    unverified: Vec<Numeral>,
    vacuous: Vec<Diagnostic>,
    known: HashMap<String, Vec<Known>>,
}

impl<'s> Coverage<'s> {
    /// An empty account for the lesson text `source`.
    pub(crate) fn new(source: &'s str, lints: Lints) -> Self {
        Coverage {
            source,
            lints,
            counts: NumberCounts::default(),
            sentence: Sentence::default(),
            unverified: Vec::new(),
            vacuous: Vec::new(),
            known: HashMap::new(),
        }
    }

    /// Scans a piece of prose that starts at byte `offset` of the lesson, and returns it with
    /// the exemption braces removed, as the page shows it.
    pub(crate) fn prose<'t>(&mut self, text: &'t str, offset: usize) -> Cow<'t, str> {
        let equations = equation_runs(text);
        let mut out: Option<String> = None;
        let mut copied = 0;
        let mut prev: Option<char> = None;
        let mut exempt_until = 0;
        let mut run = 0;
        let mut iter = text.char_indices().peekable();
        while let Some((i, c)) = iter.next() {
            if c == '{' && i >= exempt_until {
                if let Some(len) = exemption_len(&text[i..]) {
                    let o = out.get_or_insert_with(String::new);
                    o.push_str(&text[copied..i]);
                    o.push_str(&text[i + 1..i + len - 1]);
                    copied = i + len;
                    exempt_until = i + len;
                }
            }
            if c.is_ascii_digit() && !prev.is_some_and(|p| p.is_alphanumeric() || p == '_') {
                let end = numeral_end(text, i);
                if i < exempt_until {
                    self.counts.exempt += 1;
                } else {
                    // Numerals come in order, so one cursor walks the runs: linear time.
                    while run < equations.len() && equations[run].0.end <= i {
                        run += 1;
                    }
                    let found = equations.get(run).filter(|(r, _)| r.start <= i);
                    let equation = found.and_then(|(_, claim)| claim.clone());
                    let equation_span = found.zip(equation.as_ref()).and_then(|((r, _), c)| {
                        let at = r.start + text[r.clone()].find(c.as_str())?;
                        Some(offset + at..offset + at + c.len())
                    });
                    self.sentence.numerals.push(Numeral {
                        span: offset + i..offset + end,
                        text: text[i..end].to_string(),
                        equation,
                        equation_span,
                    });
                    self.sentence.after_stop = false;
                }
                // Skip the rest of the numeral and any word it starts (`2nd`).
                let mut last = c;
                while let Some(&(j, d)) = iter.peek() {
                    if j < end || d.is_alphanumeric() || d == '_' {
                        last = d;
                        iter.next();
                    } else {
                        break;
                    }
                }
                prev = Some(last);
                continue;
            }
            // An exemption mark is not read for sentences: `{Winning Ways, ch. 14}` stops none.
            if i >= exempt_until {
                if self.sentence.after_stop && c.is_whitespace() {
                    self.end_sentence();
                }
                self.sentence.after_stop = matches!(c, '.' | '!' | '?' | ';' | ':');
            }
            prev = Some(c);
        }
        match out {
            Some(mut o) => {
                o.push_str(&text[copied..]);
                Cow::Owned(o)
            }
            None => Cow::Borrowed(text),
        }
    }

    /// Scans the LaTeX `tex` that starts at byte `offset` of the lesson.
    pub(crate) fn latex(&mut self, tex: &str, offset: usize) {
        let formula = read_tex(tex);
        if !formula.states {
            return;
        }
        let equation = formula
            .claim
            .filter(|c| c.len() <= MAX_EQUATION && parses_as_claim(c));
        for span in formula.facts {
            self.sentence.numerals.push(Numeral {
                text: tex[span.clone()].to_string(),
                span: offset + span.start..offset + span.end,
                equation: equation.clone(),
                equation_span: None,
            });
        }
    }

    /// Accounts for the statements of a `nim` block. A block stands in no sentence, so its
    /// claims verify no numeral of the prose.
    pub(crate) fn claims(&mut self, results: &[Checked], checker: &mut LessonContext) {
        for c in results {
            self.claim(c, checker, false);
        }
    }

    /// Accounts for an inline `nim:` span, whose literals and shown value verify the same
    /// numbers in its sentence.
    pub(crate) fn span(&mut self, c: &Checked, checker: &mut LessonContext) {
        self.claim(c, checker, true);
    }

    /// Follows the structure of the lesson, one markdown event at a time: the start or end of
    /// a block (a paragraph, a heading, a list item, a table row, …) ends the sentence; a line
    /// break or the edge of a table cell is white space; inline markup is transparent.
    pub(crate) fn structure(&mut self, event: &Event<'_>) {
        let inline_start = |t: &Tag<'_>| {
            matches!(
                t,
                Tag::Emphasis
                    | Tag::Strong
                    | Tag::Strikethrough
                    | Tag::Superscript
                    | Tag::Subscript
                    | Tag::Link { .. }
                    | Tag::Image { .. }
            )
        };
        let inline_end = |t: &TagEnd| {
            matches!(
                t,
                TagEnd::Emphasis
                    | TagEnd::Strong
                    | TagEnd::Strikethrough
                    | TagEnd::Superscript
                    | TagEnd::Subscript
                    | TagEnd::Link
                    | TagEnd::Image
            )
        };
        match event {
            Event::Start(Tag::TableCell) | Event::End(TagEnd::TableCell) => self.white_space(),
            Event::SoftBreak | Event::HardBreak => self.white_space(),
            Event::Start(t) if inline_start(t) => {}
            Event::End(t) if inline_end(t) => {}
            Event::Start(_) | Event::End(_) | Event::Rule | Event::Html(_) => self.end_sentence(),
            // Content that is not prose: a stop just before it is followed by no white space.
            Event::Code(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_)
            | Event::InlineHtml(_)
            | Event::FootnoteReference(_) => self.sentence.after_stop = false,
            Event::Text(_) | Event::TaskListMarker(_) => {}
        }
    }

    fn white_space(&mut self) {
        if self.sentence.after_stop {
            self.end_sentence();
        }
        self.sentence.after_stop = false;
    }

    /// Ends the sentence: each of its numerals is verified if its number is an operand of the
    /// sentence, and unverified otherwise. Each numeral is looked up once in a hash set built
    /// once per sentence, so the work is linear in the numerals and operands of the lesson.
    fn end_sentence(&mut self) {
        let sentence = &mut self.sentence;
        sentence.after_stop = false;
        let operands: HashSet<&str> = sentence.operands.iter().map(String::as_str).collect();
        for n in sentence.numerals.drain(..) {
            let verified = !operands.is_empty()
                && numeral_value(&n.text).is_some_and(|v| operands.contains(v.as_str()));
            if verified {
                self.counts.verified += 1;
            } else {
                self.counts.unverified += 1;
                self.unverified.push(n);
            }
        }
        sentence.operands.clear();
    }

    /// Accounts for one checked statement; `in_sentence` for an inline span, whose numbers
    /// become operands of its sentence.
    fn claim(&mut self, c: &Checked, checker: &mut LessonContext, in_sentence: bool) {
        let Some(stmt) = &c.stmt else {
            return;
        };
        // A range that is empty only once its bound is evaluated (`a < int(3 - 3)`) shows as
        // "checked (0 cases)": as vacuous as `a < 0`.
        let no_cases = matches!(c.established, Some(Established::Checked { cases: 0 }));
        let v = vacuity(&stmt.stmt).or_else(|| {
            no_cases.then(|| Vacuity::EmptyRange {
                name: quantified_names(&stmt.stmt),
            })
        });
        if let Some(v) = v {
            self.vacuous_claim(c, &v, checker);
            return;
        }
        if !matches!(c.status, Status::Holds | Status::Bound | Status::Value) {
            return;
        }
        let mut numbers = Vec::new();
        literals(&stmt.stmt, &mut numbers);
        self.counts.verified += numbers.len();
        if in_sentence {
            let operands = &mut self.sentence.operands;
            operands.extend(numbers.iter().map(|n| n.to_string()));
            if let (Status::Value, Some(v)) = (c.status, &c.value) {
                shown_numbers(v, operands);
            }
        }
        if let (Status::Value, Some(v)) = (c.status, &c.value) {
            if matches!(v, Value::Num(_)) {
                self.counts.verified += 1;
            }
            self.remember(stmt.span.start, v.to_string(), c.source.clone());
        }
        if let Statement::Claim(crate::claim::ast::Claim::Chain(chain)) = &stmt.stmt {
            // In a link `expr = 15` that holds, 15 is the value of `expr`.
            let mut lhs = &chain.first;
            for link in &chain.links {
                if link.rel == crate::claim::ast::Rel::Eq {
                    for (side, other) in [(lhs, &link.rhs), (&link.rhs, lhs)] {
                        if let ExprKind::Num(n) = &other.kind {
                            if !matches!(side.kind, ExprKind::Num(_)) {
                                let text = self.source.get(side.span.clone()).unwrap_or("");
                                self.remember(side.span.start, n.to_string(), text.to_string());
                            }
                        }
                    }
                }
                lhs = &link.rhs;
            }
        }
    }

    fn remember(&mut self, offset: usize, value: String, source: String) {
        self.known.entry(value.clone()).or_default().push(Known {
            offset,
            value,
            source,
        });
    }

    fn vacuous_claim(&mut self, c: &Checked, v: &Vacuity, checker: &mut LessonContext) {
        let Some(stmt) = &c.stmt else {
            return;
        };
        let level = match self.lints.vacuous_claims {
            LintLevel::Allow => return,
            LintLevel::Warn => Level::Warning,
            LintLevel::Deny => Level::Error,
        };
        let file = std::sync::Arc::clone(checker.file());
        let d = Diagnostic::new(level, Code::VacuousClaim, "this claim computes nothing")
            .at(&file, stmt.span.clone());
        let d = match v {
            Vacuity::BareLiteral => {
                let shown = c.value.as_ref().map(|v| v.to_string()).unwrap_or_default();
                let mut d = d
                    .label(format!("`{}` only repeats the number {shown}", c.source))
                    .help(format!(
                        "to show {shown} as a computed value, write the computation that gives it, such as `nim: grundy(…)`; a number that needs no checking is plain text"
                    ));
                if let Some(k) = self.nearest(&shown, stmt.span.start) {
                    d = d.help(format!(
                        "{shown} is the value of `{}` nearby: write `nim: {}`",
                        k.source, k.source
                    ));
                }
                d
            }
            Vacuity::SameSides { side } => {
                let value = evaluate(side_source(self.source, stmt), checker);
                d.label(format!("both sides are `{side}`"))
                    .help(match value {
                        Some(v) => format!(
                            "write the value on one side: `nim: {} = {v}`",
                            side_source(self.source, stmt)
                        ),
                        None => "write what the expression equals on the other side".to_string(),
                    })
            }
            Vacuity::LiteralSides => d
                .label("both sides are numbers as written")
                .help("compare a computation with a number, such as `nim: 6 * 13 = 15`"),
            Vacuity::EmptyRange { name } => d
                .label(format!(
                    "`{name}` takes no value, so there is no case to check"
                ))
                .help("give the quantifier a range with at least one value"),
            Vacuity::IdleVariable { name } => d
                .label(format!("the claim never uses `{name}`"))
                .help(format!(
                    "use `{name}` in the claim, or state the claim without the quantifier"
                )),
            Vacuity::NothingNew { part, reason } => d
                .label(format!("`{part}` computes nothing new: {reason}"))
                .help(
                    "state what is worth checking; a number that needs no checking is plain text",
                ),
        };
        self.vacuous.push(d);
    }

    /// The claim nearest to `offset` (within [`NEARBY`] bytes) whose value is `value`.
    fn nearest(&self, value: &str, offset: usize) -> Option<&Known> {
        self.known
            .get(value)?
            .iter()
            .filter(|k| k.offset.abs_diff(offset) <= NEARBY && k.value == value)
            .min_by_key(|k| k.offset.abs_diff(offset))
    }

    /// Ends the lesson: turns the findings into diagnostics on `checker` (errors for a denied
    /// lint, warnings for a warned one) and returns the counts.
    pub(crate) fn finish(mut self, checker: &mut LessonContext) -> NumberCounts {
        self.end_sentence();
        let level = match self.lints.unverified_numbers {
            LintLevel::Allow => None,
            LintLevel::Warn => Some(Level::Warning),
            LintLevel::Deny => Some(Level::Error),
        };
        let mut findings = std::mem::take(&mut self.vacuous);
        if let Some(level) = level {
            let file = std::sync::Arc::clone(checker.file());
            let total = self.unverified.len();
            for u in self.unverified.iter().take(MAX_REPORTED) {
                let mut d =
                    Diagnostic::new(level, Code::UnverifiedNumber, "number is not verified")
                        .at(&file, u.span.clone())
                        .label("nothing computes or checks this number");
                if let Some(claim) = &u.equation {
                    d = d.help(format!("write `nim: {claim}`"));
                    if let Some(span) = &u.equation_span {
                        d = d.suggest(
                            format!("check it with `nim: {claim}`"),
                            span.clone(),
                            format!("`nim: {claim}`"),
                        );
                    }
                } else if let Some(k) = self.nearest(&u.text, u.span.start) {
                    d = d.help(format!(
                        "{} is the value of `{}` nearby: write `nim: {}`",
                        u.text, k.source, k.source
                    ));
                    d = d.suggest(
                        format!("check it with `nim: {}`", k.source),
                        u.span.clone(),
                        format!("`nim: {}`", k.source),
                    );
                }
                d = d.suggest(
                    "exempt it with braces",
                    u.span.clone(),
                    format!("{{{}}}", u.text),
                );
                d = d.help(
                    "compute it with a `nim:` span, or, if it is not mathematics (a year, a name, a citation, a count), mark it `{…}`",
                );
                findings.push(d);
            }
            if total > MAX_REPORTED {
                let first = &self.unverified[MAX_REPORTED];
                findings.push(
                    Diagnostic::new(
                        level,
                        Code::UnverifiedNumber,
                        format!(
                            "{} more numbers in this lesson are not verified",
                            total - MAX_REPORTED
                        ),
                    )
                    .at(&file, first.span.clone())
                    .label("the first of them")
                    .note(format!(
                        "only the first {MAX_REPORTED} unverified numbers of a lesson are shown one by one"
                    )),
                );
            }
        }
        findings.sort_by_key(|d| d.location.as_ref().map_or(0, |(_, s)| s.start));
        for d in findings {
            checker.report(d);
        }
        self.counts
    }
}

/// The source text of the first side of a claim's first link.
/// The variables of a quantified statement, as written: `a, b`.
fn quantified_names(stmt: &Statement) -> String {
    match stmt {
        Statement::Quantified { binders, .. } => binders
            .iter()
            .map(|b| b.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        _ => String::new(),
    }
}

fn side_source<'a>(source: &'a str, stmt: &crate::claim::ast::Spanned) -> &'a str {
    let span = match &stmt.stmt {
        Statement::Claim(crate::claim::ast::Claim::Chain(chain)) => chain.first.span.clone(),
        Statement::Quantified { .. } => return "",
        _ => stmt.span.clone(),
    };
    source.get(span).unwrap_or("")
}

/// The value of a closed expression (no names), for a help line.
fn evaluate(text: &str, checker: &LessonContext) -> Option<String> {
    if text.is_empty() {
        return None;
    }
    let mut scratch = Checker::new(
        crate::diag::SourceFile::new("<help>", ""),
        checker.limits().clone(),
    );
    crate::claim::calc(text, &mut scratch).ok()
}

/// The number literals of a statement, in the order written (quantifier bounds included).
fn literals<'a>(stmt: &'a Statement, out: &mut Vec<&'a Nimber>) {
    fn expr<'a>(e: &'a crate::claim::ast::Expr, out: &mut Vec<&'a Nimber>) {
        match &e.kind {
            ExprKind::Num(n) => out.push(n),
            ExprKind::List(items) => items.iter().for_each(|i| expr(i, out)),
            ExprKind::Call { args, .. } => args.iter().for_each(|a| expr(a, out)),
            ExprKind::Bin { lhs, rhs, .. } => {
                expr(lhs, out);
                expr(rhs, out);
            }
            ExprKind::Int(inner) | ExprKind::Paren(inner) => expr(inner, out),
            ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::Bool(_) => {}
        }
    }
    fn claim<'a>(c: &'a crate::claim::ast::Claim, out: &mut Vec<&'a Nimber>) {
        match c {
            crate::claim::ast::Claim::Chain(chain) => {
                expr(&chain.first, out);
                chain.links.iter().for_each(|l| expr(&l.rhs, out));
            }
            crate::claim::ast::Claim::Is { expr: e, .. } => expr(e, out),
        }
    }
    match stmt {
        Statement::Claim(c) => claim(c, out),
        Statement::Expr(e) | Statement::Let { value: e, .. } => expr(e, out),
        Statement::Quantified { binders, body, .. } => {
            for group in crate::claim::ast::binder_groups(binders) {
                if let Some(bound) = group[0].range.bound() {
                    expr(bound, out);
                }
            }
            claim(body, out);
        }
    }
}

/// The numbers a shown value puts on the page, in decimal: a number, or the numbers of a list.
fn shown_numbers(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Num(n) => out.push(n.to_string()),
        Value::List(items) => items.iter().for_each(|i| shown_numbers(i, out)),
        _ => {}
    }
}

/// The value of a numeral as a claim would print it: decimal digits without groups or leading
/// zeros (`1,000` is `1000`). A decimal fraction has none, because no claim shows one.
fn numeral_value(text: &str) -> Option<String> {
    let text = text.trim_end_matches('.');
    if text.contains('.') || text.is_empty() {
        return None;
    }
    let digits: String = text.chars().filter(|&c| c != ',').collect();
    let value = digits.trim_start_matches('0');
    Some(if value.is_empty() { "0" } else { value }.to_string())
}

/// A prose text as the page shows it: exemption marks without their braces.
pub(crate) fn shown(text: &str) -> Cow<'_, str> {
    if !text.contains('{') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(n) = text[i..].find('{') {
        let at = i + n;
        out.push_str(&text[i..at]);
        match exemption_len(&text[at..]) {
            Some(len) => {
                out.push_str(&text[at + 1..at + len - 1]);
                i = at + len;
            }
            None => {
                out.push('{');
                i = at + 1;
            }
        }
    }
    out.push_str(&text[i..]);
    Cow::Owned(out)
}

/// The length of an exemption mark `{…}` at the start of `text`: a closing brace on the same
/// line, no brace between, and a digit inside.
fn exemption_len(text: &str) -> Option<usize> {
    let inner = &text[1..];
    let close = inner.find(['}', '{', '\n'])?;
    (inner.as_bytes()[close] == b'}' && inner[..close].bytes().any(|b| b.is_ascii_digit()))
        .then_some(close + 2)
}

/// The end of the numeral that starts at byte `start`: digits, then `.5` decimals and `,000`
/// groups.
fn numeral_end(text: &str, start: usize) -> usize {
    let b = text.as_bytes();
    let digits = |from: usize| {
        b[from..]
            .iter()
            .position(|c| !c.is_ascii_digit())
            .map_or(b.len(), |n| from + n)
    };
    let mut end = digits(start);
    loop {
        match b.get(end) {
            Some(b'.') if b.get(end + 1).is_some_and(u8::is_ascii_digit) => end = digits(end + 1),
            Some(b',')
                if b.get(end + 1..end + 4)
                    .is_some_and(|g| g.iter().all(u8::is_ascii_digit))
                    && !b.get(end + 4).is_some_and(u8::is_ascii_digit) =>
            {
                end += 4
            }
            _ => return end,
        }
    }
}

/// The equation-like runs of a prose text (digits, spaces and the symbols of the claim
/// language, with a relation), each with the claim to suggest if it parses as one.
fn equation_runs(text: &str) -> Vec<(Range<usize>, Option<String>)> {
    let mut out = Vec::new();
    let is_part = |c: char| c.is_ascii_digit() || c == ' ' || "+*⊕⊗=≠()/^".contains(c);
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), '\0')))
    {
        match (start, is_part(c) && i < text.len()) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                let run = text[s..i].trim().trim_matches(|c| c == '=' || c == ' ');
                if run.contains(['=', '≠'])
                    && run.contains(['+', '*', '⊕', '⊗', '/', '^'])
                    && run.len() <= MAX_EQUATION
                {
                    let claim = parses_as_claim(run).then(|| run.to_string());
                    out.push((s..i, claim));
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Whether `text` parses as a claim of the claim language.
fn parses_as_claim(text: &str) -> bool {
    let limits = Limits::default();
    lexer::lex(text, &limits)
        .and_then(|toks| parser::parse_statement(&toks, &limits, false))
        .is_ok_and(|s| matches!(s.stmt, Statement::Claim(_)))
}

/// What the coverage scan reads in one formula.
struct Formula {
    /// Whether the formula states something (a relation, or a single number).
    states: bool,
    /// The byte ranges of its facts.
    facts: Vec<Range<usize>>,
    /// The formula in the claim language, if it translates (for a help line).
    claim: Option<String>,
}

/// Commands whose argument is text or a name, never a fact.
const NAMING: &[&str] = &[
    "text",
    "textrm",
    "textbf",
    "textit",
    "mathrm",
    "mathit",
    "mathbf",
    "mathsf",
    "mathtt",
    "mathbb",
    "mathcal",
    "mathfrak",
    "operatorname",
    "label",
    "tag",
    "begin",
    "end",
    "hspace",
    "vspace",
];

/// Greek letters that name variables (`\omega` is the constant ω, so it is not here).
const GREEK: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "pi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Phi",
    "Psi",
    "Omega",
];

/// Relation commands.
const RELATIONS: &[&str] = &[
    "neq", "ne", "le", "leq", "ge", "geq", "lt", "gt", "equiv", "approx", "cong",
];

/// Reads a formula as TeX does, one token at a time, keeping track of scripts and groups.
fn read_tex(tex: &str) -> Formula {
    let b = tex.as_bytes();
    let mut states = false;
    let mut variable = false;
    let mut baseline: Vec<Range<usize>> = Vec::new();
    // Group depths at which notation began (a script group or a naming command's argument).
    let mut depth = 0usize;
    let mut notation_from: Option<usize> = None;
    // The next token (or group) is a script, or a naming command's argument.
    let mut script_next = false;
    let mut claim = String::new();
    let mut translatable = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let in_notation = notation_from.is_some();
        match c {
            b'\\' => {
                let name_end = b[i + 1..]
                    .iter()
                    .position(|c| !c.is_ascii_alphabetic())
                    .map_or(b.len(), |n| i + 1 + n);
                let name = &tex[i + 1..name_end];
                let end = if name.is_empty() {
                    // A control symbol such as `\{` or `\,`: one character.
                    (i + 1 + tex[i + 1..].chars().next().map_or(0, char::len_utf8)).min(b.len())
                } else {
                    name_end
                };
                if RELATIONS.contains(&name) && !in_notation {
                    states = true;
                }
                if GREEK.contains(&name) && !in_notation && !script_next {
                    variable = true;
                }
                match name {
                    "otimes" => claim.push('*'),
                    "oplus" => claim.push('+'),
                    "neq" | "ne" => claim.push('≠'),
                    "le" | "leq" => claim.push('≤'),
                    "ge" | "geq" => claim.push('≥'),
                    "quad" | "qquad" => claim.push(' '),
                    // Spacing: `\,`, `\;`, `\!`, `\ `.
                    "" if matches!(b.get(i + 1), Some(b',' | b';' | b'!' | b' ')) => {
                        claim.push(' ')
                    }
                    _ => translatable = false,
                }
                if NAMING.contains(&name) && !in_notation {
                    script_next = true;
                } else if script_next {
                    script_next = false;
                }
                i = end;
                continue;
            }
            b'{' => {
                depth += 1;
                if script_next && !in_notation {
                    notation_from = Some(depth);
                }
                script_next = false;
                claim.push('(');
            }
            b'}' => {
                if notation_from == Some(depth) {
                    notation_from = None;
                }
                depth = depth.saturating_sub(1);
                claim.push(')');
            }
            b'^' | b'_' => {
                script_next = true;
                // The base of a script is notation: `2^8`, `2^{2^n}`.
                if let Some(last) = baseline.last() {
                    let gap = tex[last.end..i].trim();
                    if gap.is_empty() {
                        baseline.pop();
                    }
                }
                if c == b'_' {
                    translatable = false;
                }
                claim.push('^');
            }
            b'0'..=b'9' => {
                let end = b[i..]
                    .iter()
                    .position(|c| !c.is_ascii_digit() && *c != b'.')
                    .map_or(b.len(), |n| i + n);
                if script_next {
                    // TeX takes one character as an unbraced script.
                    script_next = false;
                    claim.push_str(&tex[i..i + 1]);
                    i += 1;
                    continue;
                }
                if !in_notation {
                    baseline.push(i..end);
                }
                claim.push_str(&tex[i..end]);
                i = end;
                continue;
            }
            b'=' | b'<' | b'>' => {
                if !in_notation {
                    states = true;
                }
                script_next = false;
                claim.push(c as char);
            }
            b' ' | b'\n' | b'\t' => claim.push(' '),
            b'(' | b')' | b'+' | b'*' => {
                script_next = false;
                claim.push(c as char);
            }
            _ => {
                // Any other token (a letter, a symbol, a multi-byte character) ends a pending
                // script after itself.
                let ch = tex[i..].chars().next().unwrap_or(' ');
                if ch.is_alphabetic() && !in_notation && !script_next {
                    variable = true;
                }
                match ch {
                    '≤' | '≥' | '≠' if !in_notation => {
                        states = true;
                        claim.push(ch);
                    }
                    '⊗' | '⊕' => claim.push(ch),
                    _ => translatable = false,
                }
                script_next = false;
                i += ch.len_utf8();
                continue;
            }
        }
        i += 1;
    }
    let trimmed = tex.trim();
    let single_number = !trimmed.is_empty()
        && trimmed
            .bytes()
            .all(|c| c.is_ascii_digit() || c == b'.' || c == b',');
    Formula {
        states: (states && !variable) || single_number,
        facts: baseline,
        claim: translatable.then_some(claim),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(tex: &str) -> Vec<&str> {
        let f = read_tex(tex);
        if !f.states {
            return Vec::new();
        }
        f.facts.iter().map(|r| &tex[r.clone()]).collect()
    }

    #[test]
    fn latex_facts_are_baseline_numerals_of_stating_formulas() {
        assert_eq!(facts(r"6 \otimes 13 = 15"), ["6", "13", "15"]);
        assert_eq!(facts("15"), ["15"]);
        assert_eq!(facts(r"\omega^3 = 2"), ["2"]);
        assert_eq!(facts(r"(\omega^\omega)^5 = 4"), ["4"]);
        assert_eq!(facts(r"2^8 = 256"), ["256"]);
        assert_eq!(facts(r"\ast 3 + \ast 5 = \ast 6"), ["3", "5", "6"]);
        assert_eq!(facts(r"|\mathrm{GF}(2^4)| = 16"), ["16"]);
        assert_eq!(facts(r"3 \le 4"), ["3", "4"]);
    }

    #[test]
    fn latex_notation_is_not_a_fact() {
        for tex in [
            r"2^{2^n}",
            r"a_1",
            r"\mathrm{GF}(2^8)",
            r"6 \otimes 13",
            r"x^{10} = y",
            r"\text{case 3} = y",
            r"\mathbb{F}_{16} = F",
            r"2^{2^n} = F_n",
            r"x^2 + x = 1",
            r"a_1 \neq 3",
            r"a = 0",
            r"\alpha \otimes 1 = \alpha",
            r"\mathcal{G}(G) = 0",
        ] {
            assert_eq!(facts(tex), Vec::<&str>::new(), "{tex}");
        }
    }

    #[test]
    fn a_latex_equation_translates_to_a_claim() {
        let f = read_tex(r"6 \otimes 12 = 9");
        assert_eq!(f.claim.as_deref(), Some("6 * 12 = 9"));
        assert!(parses_as_claim("6 * 12 = 9"));
        assert_eq!(read_tex(r"\omega^3 = 2").claim, None);
    }

    fn scan(text: &str) -> (NumberCounts, Vec<String>, String) {
        let mut c = Coverage::new(text, Lints::default());
        let shown = c.prose(text, 0).into_owned();
        c.end_sentence();
        let found = c.unverified.iter().map(|u| u.text.clone()).collect();
        (c.counts, found, shown)
    }

    #[test]
    fn prose_numerals_names_and_exemptions() {
        let (counts, found, shown) =
            scan("In {1997} the 2nd of 3 heaps had 1,000.5 coins; H2 and a1 are names.");
        assert_eq!(found, ["2", "3", "1,000.5"]);
        assert_eq!(counts.exempt, 1);
        assert_eq!(
            shown,
            "In 1997 the 2nd of 3 heaps had 1,000.5 coins; H2 and a1 are names."
        );
        // An unclosed mark is no mark, and braces without a digit are left alone.
        let (counts, found, shown) = scan("{1997 and {x} 5");
        assert_eq!(
            (counts.exempt, found),
            (0, vec!["1997".to_string(), "5".to_string()])
        );
        assert_eq!(shown, "{1997 and {x} 5");
    }

    #[test]
    fn an_equation_in_prose_gets_the_claim_to_write() {
        let text = "so 6 * 12 = 9 here";
        let mut c = Coverage::new(text, Lints::default());
        let _ = c.prose(text, 0);
        c.end_sentence();
        assert_eq!(c.unverified.len(), 3);
        assert!(c
            .unverified
            .iter()
            .all(|u| u.equation.as_deref() == Some("6 * 12 = 9")));
    }

    #[test]
    fn a_hundred_thousand_numerals_are_counted() {
        let text = "1 = 1 + ".repeat(100_000);
        let mut c = Coverage::new(&text, Lints::default());
        let _ = c.prose(&text, 0);
        c.end_sentence();
        assert_eq!(c.counts.unverified, 200_000);
        let tex = "1 + ".repeat(100_000) + "1 = 2";
        c.latex(&tex, 0);
        c.end_sentence();
        assert_eq!(c.counts.unverified, 200_000 + 100_002);
    }

    /// Renders a lesson and returns its counts and the text of each unverified numeral.
    fn lesson(text: &str) -> (NumberCounts, Vec<String>) {
        let file = crate::diag::SourceFile::new("lesson.md", text);
        let mut lesson = LessonContext::new(std::sync::Arc::clone(&file), Limits::default());
        let page = super::super::markdown::render_with(
            &mut lesson,
            "lesson.md",
            &super::super::markdown::Flavour::nimbook(),
            Lints::default(),
        );
        let found = lesson
            .finish()
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::UnverifiedNumber)
            .filter_map(|d| d.location.as_ref())
            .map(|(_, span)| text[span.clone()].to_string())
            .collect();
        (page.numbers, found)
    }

    #[test]
    fn operands_before_and_after_a_span_in_its_sentence_are_verified() {
        // 3 ⊕ 5 ⊕ 7 = 1, so the 1 after the span is its shown value.
        let (counts, found) = lesson(
            "Heaps of 3, 5 and 7 have the nim-sum `nim: 3 + 5 + 7`, which is 1 and not 7.\n",
        );
        assert_eq!(found, Vec::<String>::new());
        // Three literals, the shown value, and the five numerals of the prose.
        assert_eq!(counts.verified, 3 + 1 + 5);
        assert_eq!(counts.unverified, 0);
    }

    #[test]
    fn the_same_number_in_the_next_sentence_or_block_is_not_verified() {
        for stop in [". ", "! ", "? ", "; ", ": ", ".\n", ".\n\n"] {
            let text = format!("The span `nim: 3 + 5` is here{stop}A heap of 3 is not.\n");
            assert_eq!(lesson(&text).1, ["3"], "{stop:?}");
        }
        // The end of the block is a stop too, and a stop needs white space after it.
        assert_eq!(lesson("`nim: 3 + 5`\n\n- 3\n").1, ["3"]);
        assert_eq!(lesson("From 3.5 and `nim: 3 + 5`, 5.\n").1, ["3.5"]);
        assert_eq!(lesson("# Heaps of 3\n\n`nim: 3 + 5`\n").1, ["3"]);
    }

    #[test]
    fn a_number_that_is_no_operand_is_not_verified() {
        // 3 ⊕ 5 is 6, not 8; 3.0 is a decimal, which no claim shows.
        let (_, found) = lesson("Heaps of 3 and 5 give `nim: 3 + 5`, not 8, and 3.0 is odd.\n");
        assert_eq!(found, ["8", "3.0"]);
        // Values, not spellings: 1,000 and 0x3e8 are one number; 007 is 7.
        let (_, found) = lesson("Of 1,000 and 007, `nim: 0x3e8 + 7` checks both.\n");
        assert_eq!(found, Vec::<String>::new());
    }

    #[test]
    fn a_vacuous_or_failing_span_verifies_nothing() {
        assert_eq!(lesson("A heap of 27 is `nim: 27`.\n").1, ["27"]);
        assert_eq!(lesson("Both 6 are `nim: 6 * 13 = 6 * 13`.\n").1, ["6"]);
        assert_eq!(
            lesson("Heaps of 3 and 5 give `nim: 3 + 5 = 7`.\n").1,
            ["3", "5"]
        );
    }

    #[test]
    fn a_latex_fact_beside_a_span_is_verified() {
        let (_, found) = lesson(
            "Here $6 \\otimes 13 = 15$ is checked by `nim: 6 * 13 = 15`. Not so $6 \\otimes 12 = 9$.\n",
        );
        assert_eq!(found, ["6", "12", "9"]);
    }

    #[test]
    fn a_table_row_is_one_block() {
        let (_, found) =
            lesson("| a | b | a ⊕ b |\n|---|---|---|\n| 3 | 5 | `nim: 3 + 5` |\n| 3 | 9 | 10 |\n");
        assert_eq!(found, ["3", "9", "10"]);
    }

    #[test]
    fn an_exemption_stops_no_sentence() {
        let (counts, found) = lesson("In {Winning Ways, ch. 14} heaps of 3 give `nim: 3 * 3`.\n");
        assert_eq!(found, Vec::<String>::new());
        assert_eq!(counts.exempt, 1);
    }

    #[test]
    fn a_hundred_thousand_operands_in_one_sentence_are_matched() {
        // One sentence of 100 000 numerals and one span: each numeral is looked up once.
        let text = "1 4 ".repeat(50_000) + "`nim: 1 + 2`.\n";
        let (counts, found) = lesson(&text);
        assert_eq!(found.len(), MAX_REPORTED + 1);
        assert_eq!(
            (counts.verified, counts.unverified),
            (2 + 1 + 50_000, 50_000)
        );
    }
}
