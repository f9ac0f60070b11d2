//! Northcott's game: rows with one white and one black piece, and its notation.
//!
//! A row whose pieces have `k` empty squares between them plays exactly like a Nim heap of `k`:
//! a move slides one piece towards the other by `1 … k` squares and leaves a gap of `0 … k-1`.
//! Squares outside the two pieces never matter in this impartial version (see the module
//! documentation of [`crate::game`] for the rules and why retreats are left out).

use std::fmt;

use super::GameError;

/// One row of Northcott's game: its width and the columns (from 0) of the two pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NorthcottRow {
    width: u64,
    white: u64,
    black: u64,
}

/// The widest row accepted (a row is printed square by square).
const MAX_WIDTH: u64 = 10_000;

impl NorthcottRow {
    /// A row of `width` squares with the white piece in column `white` and the black one in
    /// column `black`, columns counted from 0.
    pub fn new(width: u64, white: u64, black: u64) -> Result<NorthcottRow, GameError> {
        let bad = |reason: &str| GameError::InvalidGame {
            game: format!("northcott row ({width}, {white}, {black})"),
            reason: reason.to_string(),
        };
        if width > MAX_WIDTH {
            return Err(bad("a row may have at most 10000 squares"));
        }
        if white >= width || black >= width {
            return Err(bad("a piece lies outside the row"));
        }
        if white == black {
            return Err(bad("the two pieces are on the same square"));
        }
        Ok(NorthcottRow {
            width,
            white,
            black,
        })
    }

    /// The width of the row.
    pub fn width(&self) -> u64 {
        self.width
    }

    /// The column of the white piece.
    pub fn white(&self) -> u64 {
        self.white
    }

    /// The column of the black piece.
    pub fn black(&self) -> u64 {
        self.black
    }

    /// The number of empty squares between the pieces: the row's Nim heap.
    pub fn gap(&self) -> u64 {
        self.white.abs_diff(self.black) - 1
    }

    /// The rows after each move: every slide of either piece towards the other.
    pub fn moves(&self) -> Vec<NorthcottRow> {
        let (lo, hi) = (self.white.min(self.black), self.white.max(self.black));
        let mut out = Vec::new();
        for to in lo + 1..hi {
            // The left piece moves right to `to`.
            if self.white == lo {
                out.push(NorthcottRow { white: to, ..*self });
            } else {
                out.push(NorthcottRow { black: to, ..*self });
            }
        }
        for to in lo + 1..hi {
            // The right piece moves left to `to`.
            if self.white == hi {
                out.push(NorthcottRow { white: to, ..*self });
            } else {
                out.push(NorthcottRow { black: to, ..*self });
            }
        }
        out
    }

    /// The row after a move of the left piece that leaves a gap of `gap` (smaller than now).
    pub(crate) fn with_gap(&self, gap: u64) -> NorthcottRow {
        let (lo, hi) = (self.white.min(self.black), self.white.max(self.black));
        let to = hi.saturating_sub(gap + 1).max(lo);
        if self.white == lo {
            NorthcottRow { white: to, ..*self }
        } else {
            NorthcottRow { black: to, ..*self }
        }
    }
}

impl fmt::Display for NorthcottRow {
    /// The row in the notation of [`parse_northcott`], e.g. `W...B.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in 0..self.width {
            f.write_str(if c == self.white {
                "W"
            } else if c == self.black {
                "B"
            } else {
                "."
            })?;
        }
        Ok(())
    }
}

/// Parses the Northcott notation: rows separated by `/`, each with exactly one `W` (white
/// piece), one `B` (black piece) and `.` for empty squares; whitespace is ignored.
/// Example: `"W...B./..B.W"` has gaps 3 and 1.
pub fn parse_northcott(s: &str) -> Result<Vec<NorthcottRow>, GameError> {
    let bad = |offset: usize, reason: &str| GameError::MalformedBoard {
        input: s.to_string(),
        offset,
        reason: reason.to_string(),
    };
    let mut rows = Vec::new();
    let mut start = 0usize;
    for part in s.split('/') {
        let (mut width, mut white, mut black) = (0u64, None, None);
        for (i, ch) in part.char_indices() {
            let at = start + i;
            match ch {
                'W' | 'w' if white.is_none() => white = Some(width),
                'B' | 'b' if black.is_none() => black = Some(width),
                'W' | 'w' | 'B' | 'b' => return Err(bad(at, "a row has two pieces of one colour")),
                '.' => {}
                c if c.is_whitespace() => continue,
                _ => {
                    return Err(bad(
                        at,
                        "a square is `.`, `W` or `B`, and rows are separated by `/`",
                    ))
                }
            }
            width += 1;
        }
        match (white, black) {
            (Some(w), Some(b)) => {
                rows.push(NorthcottRow::new(width, w, b).map_err(|e| bad(start, &e.to_string()))?)
            }
            _ => return Err(bad(start, "every row needs one `W` and one `B`")),
        }
        start += part.len() + 1;
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        let rows = parse_northcott("W...B./..B.W").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].gap(), 3);
        assert_eq!(rows[1].gap(), 1);
        assert_eq!(rows[1].to_string(), "..B.W");
        assert!(parse_northcott("W..").is_err());
        assert!(parse_northcott("W.B/W.x.B")
            .unwrap_err()
            .to_string()
            .contains("byte 6"));
    }

    #[test]
    fn moves_cover_every_smaller_gap_twice() {
        let r = NorthcottRow::new(8, 1, 6).unwrap();
        let mut gaps: Vec<u64> = r.moves().iter().map(NorthcottRow::gap).collect();
        gaps.sort_unstable();
        assert_eq!(gaps, vec![0, 0, 1, 1, 2, 2, 3, 3]);
        assert_eq!(r.with_gap(2).gap(), 2);
    }
}
