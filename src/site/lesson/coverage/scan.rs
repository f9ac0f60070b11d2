//! Reading prose: numerals, their values, exemption marks and equation-like runs.

use std::borrow::Cow;
use std::ops::Range;

use crate::claim::ast::Statement;
use crate::claim::{lexer, parser, Limits};

use super::MAX_EQUATION;

/// The value of a numeral (or of a number word) as a claim would print it: decimal digits without groups or leading
/// zeros (`1,000` is `1000`). A decimal fraction has none, because no claim shows one.
pub(super) fn numeral_value(text: &str) -> Option<String> {
    if text.starts_with(|c: char| c.is_alphabetic()) {
        return word_value(text).map(|v| v.to_string());
    }
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
/// line, no brace between, and a digit or a number word inside.
pub(super) fn exemption_len(text: &str) -> Option<usize> {
    let inner = &text[1..];
    let close = inner.find(['}', '{', '\n'])?;
    let mark = &inner[..close];
    let number = mark.bytes().any(|b| b.is_ascii_digit())
        || mark
            .split(|c: char| !c.is_alphabetic())
            .any(|w| word_value(w).is_some());
    (inner.as_bytes()[close] == b'}' && number).then_some(close + 2)
}

/// The end of the numeral that starts at byte `start`: digits, then `.5` decimals and `,000`
/// groups.
pub(super) fn numeral_end(text: &str, start: usize) -> usize {
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
pub(super) fn equation_runs(text: &str) -> Vec<(Range<usize>, Option<String>)> {
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
pub(super) fn parses_as_claim(text: &str) -> bool {
    let limits = Limits::default();
    lexer::lex(text, &limits)
        .and_then(|toks| parser::parse_statement(&toks, &limits, false))
        .is_ok_and(|s| matches!(s.stmt, Statement::Claim(_)))
}

/// The cardinal number words counted as numbers, each at the place of its value.
const CARDINALS: &str = "zero one two three four five six seven eight nine ten eleven twelve \
    thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty";

/// The ordinal number words counted as numbers, each at the place of its value (from 1).
const ORDINALS: &str = "first second third fourth fifth sixth seventh eighth ninth tenth \
    eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth \
    nineteenth twentieth";

/// Words after which `one` is a pronoun ("the one on the left", "no one"), not a number.
const BEFORE_PRONOUN_ONE: &[&str] = &[
    "the", "this", "that", "which", "each", "every", "no", "any", "such", "a", "an",
];

/// Words after which `first` or `second` says who moves, not how many: "Alice moves first".
const BEFORE_TURN_ORDER: &[&str] = &[
    "moves", "move", "moving", "goes", "go", "plays", "play", "at",
];

/// The value of a number word (any case): `two` is 2, `third` is 3, `twenty-one` is 21.
pub(super) fn word_value(word: &str) -> Option<u64> {
    let find = |w: &str| {
        let at = |list: &str| {
            list.split_whitespace()
                .position(|c| c.eq_ignore_ascii_case(w))
        };
        at(CARDINALS).or_else(|| at(ORDINALS).map(|n| n + 1))
    };
    match word.split_once('-') {
        Some((tens, unit)) if tens.eq_ignore_ascii_case("twenty") => find(unit)
            .filter(|u| (1..10).contains(u))
            .map(|u| 20 + u as u64),
        Some(_) => None,
        None => find(word).map(|n| n as u64),
    }
}

/// Whether `word` is no number because of the word after it, `next` (empty when the number
/// word ends the text read): `one of`, `one another`, `first player`, `second-player win`.
pub(super) fn idiom_before(word: &str, next: &str) -> bool {
    let is = |w: &str, list: &[&str]| list.iter().any(|l| l.eq_ignore_ascii_case(w));
    match word.to_ascii_lowercase().as_str() {
        "one" => is(next, &["another", "of"]),
        "first" | "second" => is(next.trim_start_matches('-'), &["player", "players"]),
        _ => false,
    }
}

/// The end of the number word that starts at byte `start` of `text`, or `None` when the word
/// there is no number, or is an idiom that names no number. `previous` holds the two
/// words read before it, the nearer second. A word is a run of letters; `twenty-one` is one
/// word. The idioms, each a fixed phrase whose word counts nothing a reader could check:
///
/// - `one` as a pronoun: after a determiner (`the one`, `no one`, `each one`), or before
///   `another` or `of` (`one of the heaps` picks a heap, it does not count them);
/// - `first` and `second` naming a player or the turn order: before `player`
///   (`the second player wins`, `a first-player win`), or after a verb of moving or `at`
///   (`Alice moves first`);
/// - `two` as the base of `power of two` and `powers of two`;
/// - `zero` in the word `non-zero`.
///
/// When the text ends right after the word (a line break, emphasis), the word after it is not
/// known here: the caller asks [`idiom_before`] again when it reads that word.
pub(super) fn number_word(text: &str, start: usize, previous: [&str; 2]) -> Option<usize> {
    let letters = |from: usize| {
        text[from..]
            .char_indices()
            .find(|(_, c)| !c.is_alphabetic())
            .map_or(text.len(), |(n, _)| from + n)
    };
    let mut end = letters(start);
    let word = &text[start..end];
    if word.eq_ignore_ascii_case("twenty") && text[end..].starts_with('-') {
        let unit_end = letters(end + 1);
        if word_value(&text[start..unit_end]).is_some() {
            end = unit_end;
        }
    }
    word_value(&text[start..end])?;
    let next = text[end..].trim_start();
    let hyphen = usize::from(next.starts_with('-'));
    let next_word = &next[..hyphen
        + next[hyphen..]
            .find(|c: char| !c.is_alphabetic())
            .unwrap_or(next.len() - hyphen)];
    let is = |w: &str, list: &[&str]| list.iter().any(|l| l.eq_ignore_ascii_case(w));
    let idiom = idiom_before(word, next_word)
        || match word.to_ascii_lowercase().as_str() {
            "one" => is(previous[1], BEFORE_PRONOUN_ONE),
            "first" | "second" => is(previous[1], BEFORE_TURN_ORDER),
            "two" => is(previous[1], &["of"]) && is(previous[0], &["power", "powers"]),
            "zero" => start
                .checked_sub(4)
                .and_then(|from| text.get(from..start))
                .is_some_and(|p| p.eq_ignore_ascii_case("non-")),
            _ => false,
        };
    (!idiom).then_some(end)
}
