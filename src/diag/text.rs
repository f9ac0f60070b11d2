//! Source text as CommonMark reads it: where a line ends, and what becomes of NUL.
//!
//! CommonMark counts three line endings: a line feed (`\n`), a carriage return not followed by
//! a line feed (`\r`), and the pair (`\r\n`). It also replaces every U+0000 by U+FFFD, for
//! safety. A lesson saved on Windows, on a classic Mac or by a tool that mixes the three must be
//! read, checked and located exactly as the same lesson with `\n` alone, so nimbook reads every
//! source text through [`normalize`] once, where a [`super::SourceFile`] is made, and every
//! later stage (the claim splitter, the markdown pass, coverage sentences, includes and their
//! anchors, SUMMARY.md) sees `\n` only. Columns are unchanged by this (a line ending is not in
//! any line), and so are line numbers.
//!
//! Text that cannot be normalised first, the editor's own copy of a document that its edits are
//! counted against, is cut into lines by [`line_starts`], the same three endings.

use std::borrow::Cow;

/// `text` with every line ending a `\n` and every NUL a U+FFFD; borrowed when there is
/// nothing to change.
pub(crate) fn normalize(text: &str) -> Cow<'_, str> {
    if !text.contains(['\r', '\0']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 2 * text.matches('\0').count());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                chars.next_if_eq(&'\n');
                out.push('\n');
            }
            '\0' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `text`, normalised in place of itself (no copy when there is nothing to change).
pub(crate) fn normalized(text: String) -> String {
    match normalize(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(changed) => changed,
    }
}

/// The byte offset of the start of every line of `text`, the first at 0. A line ends at `\n`,
/// at `\r\n` or at a `\r` alone.
pub(crate) fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => starts.push(i + 1),
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                starts.push(i + 2);
                i += 1;
            }
            b'\r' => starts.push(i + 1),
            _ => {}
        }
        i += 1;
    }
    starts
}

/// `line` (a line of text with its ending, as cut at [`line_starts`]) without that ending.
pub(crate) fn without_ending(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_ending_becomes_a_line_feed() {
        assert_eq!(normalize("a\r\nb\rc\nd\r\r\n"), "a\nb\nc\nd\n\n");
        assert!(matches!(normalize("plain\ntext"), Cow::Borrowed(_)));
        assert_eq!(normalize("hel\0lo"), "hel\u{FFFD}lo");
    }

    #[test]
    fn lines_start_after_each_ending() {
        assert_eq!(line_starts("a\r\nb\rc\nd"), [0, 3, 5, 7]);
        assert_eq!(line_starts("\r\r\n\n"), [0, 1, 3, 4]);
        assert_eq!(without_ending("x\r\n"), "x");
        assert_eq!(without_ending("x\r"), "x");
    }

    /// The reference: CommonMark's definition, read one character at a time.
    fn reference_lines(text: &str) -> Vec<String> {
        let mut lines = vec![String::new()];
        let mut after_cr = false;
        for c in text.chars() {
            if c == '\n' && after_cr {
                after_cr = false;
                continue;
            }
            after_cr = c == '\r';
            if c == '\r' || c == '\n' {
                lines.push(String::new());
            } else if let Some(last) = lines.last_mut() {
                last.push(if c == '\0' { '\u{FFFD}' } else { c });
            }
        }
        lines
    }

    proptest! {
        #[test]
        fn normalizing_keeps_the_lines(text in "[a\r\n\0⊕]{0,40}") {
            let reference = reference_lines(&text);
            let normal = normalize(&text);
            let split: Vec<String> = normal.split('\n').map(str::to_string).collect();
            prop_assert_eq!(&split, &reference);
            let starts = line_starts(&text);
            prop_assert_eq!(starts.len(), reference.len());
            prop_assert_eq!(normalize(&normal), normal.clone(), "idempotent");
        }
    }
}
