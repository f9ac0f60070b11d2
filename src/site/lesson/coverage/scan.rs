//! Reading prose: numerals, their values, exemption marks and equation-like runs.

use std::borrow::Cow;
use std::ops::Range;

use crate::claim::ast::Statement;
use crate::claim::{lexer, parser, Limits};

use super::MAX_EQUATION;

/// The value of a numeral as a claim would print it: decimal digits without groups or leading
/// zeros (`1,000` is `1000`). A decimal fraction has none, because no claim shows one.
pub(super) fn numeral_value(text: &str) -> Option<String> {
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
pub(super) fn exemption_len(text: &str) -> Option<usize> {
    let inner = &text[1..];
    let close = inner.find(['}', '{', '\n'])?;
    (inner.as_bytes()[close] == b'}' && inner[..close].bytes().any(|b| b.is_ascii_digit()))
        .then_some(close + 2)
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
