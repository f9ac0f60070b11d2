//! Positions as an editor counts them.
//!
//! Diagnostics and spans in nimbook are byte ranges into a lesson. The Language Server Protocol
//! counts lines from 0 and columns in UTF-16 code units, and lessons are full of `⊕`, `⊗` and
//! `ω` (one code unit each, but three bytes) and the odd astral symbol (two code units, four
//! bytes). [`LineIndex`] converts between the two, in both directions, and clamps positions
//! that fall outside the text or inside a character rather than failing: an editor may send a
//! position computed against a newer text than the server has seen.
//!
//! Lines end where CommonMark (and the protocol) says they do: at `\n`, `\r\n` or a lone `\r`
//! ([`crate::diag::text`]), so a position means the same in the editor's text and in that text
//! as nimbook reads it, with `\n` alone.

use std::ops::Range;

use lsp_types::{Position, Range as LspRange, TextDocumentContentChangeEvent};

/// The line starts of one text, for converting offsets and positions.
#[derive(Debug, Clone)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `text`.
    pub(crate) fn new(text: &str) -> Self {
        LineIndex {
            starts: crate::diag::text::line_starts(text),
        }
    }

    /// The editor position of byte `offset` (clamped to the text, and down to a character
    /// boundary).
    pub(crate) fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(to_u32(line), to_u32(character))
    }

    /// The editor range of a byte range.
    pub(crate) fn range(&self, text: &str, span: &Range<usize>) -> LspRange {
        LspRange::new(
            self.position(text, span.start),
            self.position(text, span.end),
        )
    }

    /// The byte offset of an editor position. A line past the end gives the end of the text; a
    /// column past the end of its line gives the end of the line; a column inside a surrogate
    /// pair gives the start of its character.
    pub(crate) fn offset(&self, text: &str, position: Position) -> usize {
        let line = position.line as usize;
        let Some(&start) = self.starts.get(line) else {
            return text.len();
        };
        let end = self.starts.get(line + 1).map_or(text.len(), |&next| {
            start + crate::diag::text::without_ending(&text[start..next]).len()
        });
        let mut units = 0usize;
        for (i, c) in text[start..end].char_indices() {
            if units + c.len_utf16() > position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Applies an editor's changes to `text`, in order: a change with a range replaces that range,
/// a change without one replaces the whole text.
pub(crate) fn apply_changes(text: &mut String, changes: Vec<TextDocumentContentChangeEvent>) {
    for change in changes {
        match change.range {
            None => *text = change.text,
            Some(range) => {
                let index = LineIndex::new(text);
                let start = index.offset(text, range.start);
                let end = index.offset(text, range.end).max(start);
                text.replace_range(start..end, &change.text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: count UTF-16 units of every character before `offset`, line by line,
    /// a line ending at `\n`, at a `\r` not followed by `\n`, or at `\r\n` (read as one).
    fn naive_position(text: &str, offset: usize) -> (u32, u32) {
        let (mut line, mut col, mut after_cr) = (0, 0, false);
        for c in text[..offset].chars() {
            match c {
                // The second half of `\r\n`: its line was counted at the `\r`.
                '\n' if after_cr => {}
                '\n' | '\r' => {
                    line += 1;
                    col = 0;
                }
                c => col += c.len_utf16(),
            }
            after_cr = c == '\r';
        }
        (line as u32, col as u32)
    }

    #[test]
    fn positions_count_utf16_units_both_ways() {
        let text = "6 ⊗ 13 = 15\nω𝔽 ⊕ x\r\n\nend\rlast\r\r";
        let index = LineIndex::new(text);
        // Inside a `\r\n` is no position of its own: it is the end of its line.
        let inside_crlf = text.find("\r\n").map(|i| i + 1);
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            if Some(offset) == inside_crlf {
                continue;
            }
            let p = index.position(text, offset);
            assert_eq!(
                (p.line, p.character),
                naive_position(text, offset),
                "at {offset}"
            );
            assert_eq!(index.offset(text, p), offset, "round trip at {offset}");
        }
    }

    #[test]
    fn out_of_range_positions_are_clamped() {
        let text = "ab\n⊕c";
        let index = LineIndex::new(text);
        assert_eq!(index.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(index.offset(text, Position::new(0, 99)), 2);
        assert_eq!(
            index.position(text, 4),
            Position::new(1, 0),
            "inside ⊕ rounds down"
        );
        let astral = "𝔽x";
        let i = LineIndex::new(astral);
        assert_eq!(
            i.offset(astral, Position::new(0, 1)),
            0,
            "inside a surrogate pair"
        );
        assert_eq!(i.offset(astral, Position::new(0, 2)), 4);
    }

    #[test]
    fn incremental_changes_apply_in_order() {
        let mut text = "6 ⊗ 13 = 14\nnext".to_string();
        let change = |l1, c1, l2, c2, t: &str| TextDocumentContentChangeEvent {
            range: Some(LspRange::new(Position::new(l1, c1), Position::new(l2, c2))),
            range_length: None,
            text: t.into(),
        };
        apply_changes(
            &mut text,
            vec![change(0, 9, 0, 11, "15"), change(1, 0, 1, 4, "last")],
        );
        assert_eq!(text, "6 ⊗ 13 = 15\nlast");
        apply_changes(
            &mut text,
            vec![TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text: "all new".into(),
            }],
        );
        assert_eq!(text, "all new");
    }
}
