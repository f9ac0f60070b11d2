//! The excerpt of a source file that a diagnostic shows under its headline.
//!
//! Two things a source line may hold must not reach a terminal as they are:
//!
//! - characters that change how text is shown without being seen: the bidirectional controls
//!   (U+202E turns the rest of a line around, the trick of "Trojan Source"), zero-width spaces
//!   and joiners, other format characters and control codes. rustc's lint on them suggests
//!   writing them as escapes, and so does every excerpt here: `\u{202e}`, never the character
//!   itself and never a `�` that hides which one it was;
//! - a line of megabytes. Every diagnostic on such a line would print it whole, and a lesson
//!   with thousands of findings on one line (a paragraph of broken links) would take time
//!   quadratic in its length. A long line is cut to a window around the span, marked `...` on
//!   each side it was cut, so that each excerpt costs the same whatever the line's length;
//!   and a span over many lines shows its first [`MAX_LINES`].

use std::ops::Range;

use super::{SourceFile, Span};

/// The most lines an excerpt shows; a span over more is cut after them.
pub(super) const MAX_LINES: usize = 8;
/// A line up to this many bytes is shown whole (the renderer fits it to the terminal).
const MAX_LINE_BYTES: usize = 400;
/// Of a longer line, the bytes shown before the span's start ...
const BEFORE: usize = 100;
/// ... and from its start on.
const AFTER: usize = 300;

/// Lines of a file ready to be drawn: the text, the number of its first line, and the span
/// within the text.
pub(super) struct Excerpt {
    /// The lines, joined by `\n`, cut and escaped.
    pub(super) text: String,
    /// The 1-based number of the first line.
    pub(super) first_line: usize,
    /// The span, as a byte range of `text`.
    pub(super) span: Range<usize>,
}

/// The excerpt of `file` that shows `span`.
pub(super) fn excerpt(file: &SourceFile, span: &Span) -> Excerpt {
    let start = file.clamp(span.start);
    let end = file.clamp(span.end).max(start);
    let first = file.line_index(start);
    let last = file
        .line_index(file.clamp(end.saturating_sub(1)).max(start))
        .min(first + MAX_LINES - 1);
    let mut text = String::new();
    let (mut from, mut to) = (None, None);
    for line in first..=last {
        if line > first {
            text.push('\n');
        }
        let (lo, hi) = file.line_range(line);
        // The window: the whole line if it is short, else around the span's start.
        let anchor = if line == first { start } else { lo };
        let (wlo, whi) = if hi - lo <= MAX_LINE_BYTES {
            (lo, hi)
        } else {
            let wlo = floor_boundary(&file.text, anchor.saturating_sub(BEFORE).max(lo));
            (wlo, floor_boundary(&file.text, (anchor + AFTER).min(hi)))
        };
        if wlo > lo {
            text.push_str("...");
        }
        for (i, c) in file.text[wlo..whi].char_indices() {
            mark(wlo + i, start, end, &text, &mut from, &mut to);
            push_shown(&mut text, c);
        }
        mark(whi, start, end, &text, &mut from, &mut to);
        if to.is_none() && line == last {
            to = Some(text.len());
        }
        if whi < hi {
            text.push_str("...");
        }
    }
    let from = from.unwrap_or(0);
    Excerpt {
        text,
        first_line: first + 1,
        span: from..to.unwrap_or(from).max(from),
    }
}

/// Records where the span's ends fall in the excerpt, once each.
fn mark(
    at: usize,
    start: usize,
    end: usize,
    text: &str,
    from: &mut Option<usize>,
    to: &mut Option<usize>,
) {
    if at == start && from.is_none() {
        *from = Some(text.len());
    }
    if at == end && from.is_some() && to.is_none() {
        *to = Some(text.len());
    }
}

/// The largest character boundary of `text` at or before `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Pushes `c` as a terminal should show it: an invisible character as its escape.
fn push_shown(out: &mut String, c: char) {
    if is_invisible(c) {
        out.extend(c.escape_unicode());
    } else {
        out.push(c);
    }
}

/// `s` with every invisible character written as its escape, for the headline and the notes.
pub(super) fn shown(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(is_invisible) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        push_shown(&mut out, c);
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `c` changes how text is shown, or is a control, without being seen: C0 and C1
/// controls other than tab and line feed, DEL, the line and paragraph separators, and the
/// format characters (Unicode's category Cf: the bidirectional controls, zero-width spaces and
/// joiners, the byte order mark, soft hyphen, invisible operators, tags).
pub(super) fn is_invisible(c: char) -> bool {
    matches!(c,
        '\0'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{ad}' | '\u{600}'..='\u{605}' | '\u{61c}' | '\u{6dd}' | '\u{70f}'
        | '\u{890}'..='\u{891}' | '\u{8e2}' | '\u{180e}'
        | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206f}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}'
        | '\u{110bd}' | '\u{110cd}' | '\u{13430}'..='\u{1343f}' | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}' | '\u{e0001}' | '\u{e0020}'..='\u{e007f}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown_of(text: &str, span: Span) -> (String, String) {
        let f = SourceFile::new("a.md", text);
        let e = excerpt(&f, &span);
        let marked = e.text.get(e.span.clone()).unwrap_or("?").to_string();
        (e.text, marked)
    }

    #[test]
    fn bidirectional_controls_are_escapes() {
        let text = "let x = 1 \u{202e} 2\u{200b}\n";
        let (line, marked) = shown_of(text, 8..text.len() - 1);
        assert_eq!(line, "let x = 1 \\u{202e} 2\\u{200b}");
        assert_eq!(marked, "1 \\u{202e} 2\\u{200b}");
        assert_eq!(shown("a\u{2066}b"), "a\\u{2066}b");
        assert!(!is_invisible('⊕') && !is_invisible('\t') && !is_invisible('é'));
    }

    #[test]
    fn a_long_line_is_cut_around_the_span() {
        let text = format!("{}[x](nope.md){}\n", "a ".repeat(5000), " b".repeat(5000));
        let at = text.find("[x]").unwrap_or(0);
        let (line, marked) = shown_of(&text, at..at + 12);
        assert_eq!(marked, "[x](nope.md)");
        assert!(line.starts_with("...") && line.ends_with("..."), "{line}");
        assert!(line.len() < BEFORE + AFTER + 10, "{}", line.len());
    }

    #[test]
    fn a_span_over_many_lines_shows_the_first_few() {
        let text = "x\n".repeat(100);
        let (lines, marked) = shown_of(&text, 0..text.len());
        assert_eq!(lines.lines().count(), MAX_LINES);
        assert_eq!(marked, lines);
    }
}
