//! Proof coverage: which numbers on a page were computed or checked, and which were not.
//!
//! nimbook promises that every number in a lesson is proved by its build. This module keeps the
//! account for one lesson. The markdown pass feeds it, with byte offsets into the lesson file,
//! the prose it renders (paragraphs, headings, list items, table cells, link text, image alt
//! text), the text of ```` ```text ```` blocks, which a reader reads like prose, the LaTeX it
//! renders, and the claims it checked. It never sees other code blocks, code spans, link targets
//! or `nimbook` generated blocks, so those are not counted.
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
//! A *number word* is a numeral too, with its value: the cardinals `zero` to `twenty` (and
//! `twenty-one` to `twenty-nine`) and the ordinals `first` to `twentieth`, in any case, as whole
//! words (`someone` and `threefold` hold none). "Two rows of six squares" has two numerals, and a
//! `nim:` span that shows 2 or 6 in the sentence verifies them as it would `2` and `6`. A few
//! fixed idioms name no number and are not counted: the pronoun `one` (`the one`, `no one`,
//! `one of`, `one another`), `first` and `second` for a player or the turn order (`the second
//! player`, `moves first`), `powers of two`, and `non-zero`. Braces exempt a word as they do a
//! numeral: `{two} players`.
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
//! A numeral in prose, or a fact numeral in LaTeX, is verified when the same number is a value
//! shown by a checked, non-vacuous `nim:` span in the same sentence, or a number literal of such
//! a span that says what something equals. In
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
//! - Only what a span says a number *is* verifies: its shown value, and the literals of the
//!   sides of a chain that stand beside an `=` (with quantifier bounds, the value of a `let`,
//!   and the position of an `is` claim). "The nim-sum of 5 and 7 is 12, as
//!   `nim: 5 + 7 ≠ 12` shows" verifies none of its numbers: `≠`, `<`, `≤`, `>` and `≥` say
//!   what a number is not, and the prose beside them may well claim what the span denies.
//! - A ```` ```text ```` block is one sentence: no stop inside it ends one. No span can stand
//!   in it, so a `nim` block right after it (nothing but blank lines between) joins its
//!   sentence, and that block's claims verify the text block's numbers: a board drawn in a text
//!   block and then checked, or a diagnostic quoted and then corrected.
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

use crate::claim::Checked;
use crate::diag::{Code, Diagnostic, Level};
use crate::site::lesson::context::LessonContext;
use crate::site::load::lints::{LintLevel, Lints};

mod claims;
mod scan;
#[cfg(test)]
mod tests;
mod tex;

pub(crate) use scan::shown;
use scan::{
    equation_runs, exemption_len, idiom_before, number_word, numeral_end, numeral_value,
    parses_as_claim,
};
use tex::read_tex;

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
    /// The sentence is a text block, which the claims of a `nim` block right after it join.
    text_block: bool,
    /// The last numeral is a number word that ended its piece of text, and the word after it
    /// may make it an idiom (`the second` / `player`, `one` / `of`).
    word_at_end: bool,
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
    /// The last two words of prose read, the later second, to tell a number word from an
    /// idiom (`the one`, `powers of two`).
    previous_words: [String; 2],
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
            previous_words: Default::default(),
        }
    }

    /// Scans a piece of prose that starts at byte `offset` of the lesson, and returns it with
    /// the exemption braces removed, as the page shows it.
    pub(crate) fn prose<'t>(&mut self, text: &'t str, offset: usize) -> Cow<'t, str> {
        self.read(text, offset, false)
    }

    /// Scans the text of a ```` ```text ```` block that starts at byte `offset`, and returns it
    /// as the page shows it. Its numerals are counted like those of prose, but no stop inside it
    /// ends a sentence: the block is one sentence, which a `nim` block right after it joins.
    pub(crate) fn text_block<'t>(&mut self, text: &'t str, offset: usize) -> Cow<'t, str> {
        self.sentence.text_block = true;
        self.read(text, offset, true)
    }

    /// Reads prose, or with `verbatim` the text of a text block, one character at a time.
    fn read<'t>(&mut self, text: &'t str, offset: usize, verbatim: bool) -> Cow<'t, str> {
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
            let starts = !prev.is_some_and(|p| p.is_alphanumeric() || p == '_');
            let exempt = i < exempt_until;
            let skip_to = if starts && c.is_ascii_digit() {
                let end = numeral_end(text, i);
                if exempt {
                    self.counts.exempt += 1;
                } else {
                    // Numerals come in order, so one cursor walks the runs: linear time.
                    while run < equations.len() && equations[run].0.end <= i {
                        run += 1;
                    }
                    let found = equations.get(run).filter(|(r, _)| r.start <= i);
                    self.numeral(text, offset, i..end, found);
                }
                Some(end)
            } else if starts && c.is_alphabetic() {
                Some(self.word(text, offset, i, exempt))
            } else {
                None
            };
            if let Some(end) = skip_to {
                // Skip the rest of the numeral or word, and any word a numeral starts (`2nd`).
                let mut last = c;
                while let Some(&(j, d)) = iter.peek() {
                    if j < end || d.is_alphanumeric() || d == '_' {
                        last = d;
                        iter.next();
                    } else {
                        break;
                    }
                }
                if !exempt {
                    self.sentence.after_stop = false;
                }
                prev = Some(last);
                continue;
            }
            if !c.is_whitespace() {
                self.sentence.word_at_end = false;
            }
            // An exemption mark is not read for sentences: `{Winning Ways, ch. 14}` stops none.
            if i >= exempt_until && !verbatim {
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

    /// A numeral at `at` in `text` (which starts at byte `offset` of the lesson), inside the
    /// equation-like run `found` if there is one.
    fn numeral(
        &mut self,
        text: &str,
        offset: usize,
        at: Range<usize>,
        found: Option<&(Range<usize>, Option<String>)>,
    ) {
        self.sentence.word_at_end = false;
        let equation = found.and_then(|(_, claim)| claim.clone());
        let equation_span = found.zip(equation.as_ref()).and_then(|((r, _), c)| {
            let start = r.start + text[r.clone()].find(c.as_str())?;
            Some(offset + start..offset + start + c.len())
        });
        self.sentence.numerals.push(Numeral {
            span: offset + at.start..offset + at.end,
            text: text[at].to_string(),
            equation,
            equation_span,
        });
    }

    /// The word that starts at byte `at` of `text`: counted if it is a number word. Returns
    /// where the word ends.
    fn word(&mut self, text: &str, offset: usize, at: usize, exempt: bool) -> usize {
        let letters_end = text[at..]
            .char_indices()
            .find(|(_, c)| !c.is_alphabetic())
            .map_or(text.len(), |(n, _)| at + n);
        // The word after a number word that ended its piece of text may make it an idiom.
        if std::mem::take(&mut self.sentence.word_at_end)
            && self
                .sentence
                .numerals
                .last()
                .is_some_and(|n| idiom_before(&n.text, &text[at..letters_end]))
        {
            self.sentence.numerals.pop();
        }
        let [before, last] = &self.previous_words;
        let end = match number_word(text, at, [before, last]) {
            Some(end) if exempt => {
                self.counts.exempt += 1;
                end
            }
            Some(end) => {
                self.sentence.numerals.push(Numeral {
                    span: offset + at..offset + end,
                    text: text[at..end].to_string(),
                    equation: None,
                    equation_span: None,
                });
                self.sentence.word_at_end = text[end..].trim().is_empty();
                end
            }
            None => letters_end,
        };
        self.previous_words.rotate_left(1);
        self.previous_words[1].clear();
        self.previous_words[1].push_str(&text[at..letters_end]);
        end
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

    /// Accounts for the statements of a `nim` block. A block stands in no sentence of prose,
    /// so its claims verify no numeral of the prose; right after a text block, they join that
    /// block's sentence and verify its numerals.
    pub(crate) fn claims(&mut self, results: &[Checked], checker: &mut LessonContext) {
        let after_text_block = self.sentence.text_block;
        for c in results {
            self.claim(c, checker, after_text_block);
        }
        if after_text_block {
            self.end_sentence();
        }
    }

    /// Accounts for an inline `nim:` span, whose literals and shown value verify the same
    /// numbers in its sentence.
    pub(crate) fn span(&mut self, c: &Checked, checker: &mut LessonContext) {
        self.claim(c, checker, true);
    }

    /// Follows the structure of the lesson, one markdown event at a time: the start or end of
    /// a block (a paragraph, a heading, a list item, a table row, …) ends the sentence; a line
    /// break or the edge of a table cell is white space; inline markup is transparent. The
    /// start of a code block is left to [`Coverage::code_block`].
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
            // The markdown pass, which reads the block's language, calls `code_block`.
            Event::Start(Tag::CodeBlock(_)) => {}
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
            | Event::FootnoteReference(_) => {
                self.sentence.after_stop = false;
                self.sentence.word_at_end = false;
            }
            Event::Text(_) | Event::TaskListMarker(_) => {}
        }
    }

    /// A code block in `lang` starts: it ends the sentence, unless it is a `nim` block right
    /// after a text block, which joins that block's sentence.
    pub(crate) fn code_block(&mut self, lang: &str) {
        if !(self.sentence.text_block && lang == "nim") {
            self.end_sentence();
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
        sentence.text_block = false;
        sentence.word_at_end = false;
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
                } else if let Some(k) = numeral_value(&u.text)
                    // A span in place of a word would break the sentence ("the `nim: 1` heap").
                    .filter(|_| u.text.starts_with(|c: char| c.is_ascii_digit()))
                    .and_then(|value| self.nearest(&value, u.span.start))
                {
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
