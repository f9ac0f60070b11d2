//! Cram: boards, the cell notation, and the bitboard solver.
//!
//! The rooms: this module (the [`Board`] and its cell notation), `diagram` (boards drawn with
//! placed dominoes), `frame` (bitboard masks, flood fill and the eight symmetries) and
//! `solver` (the Grundy values, below).
//!
//! A board is a frame of `rows × cols ≤ 64` cells stored as one `u64`, bit `r·cols + c` set
//! when the cell in row `r`, column `c` is free. A domino covers two free cells that share a
//! side, so the game only depends on the graph of free cells and their adjacencies.
//!
//! The solver computes Grundy values with these ideas, each of them a theorem:
//!
//! 1. **Components.** Free cells that are not connected by a path of adjacent free cells never
//!    interact, so a board is the sum of its connected regions and its value is the nim-sum of
//!    theirs. Regions are found by flood fill on the bitboard.
//! 2. **Symmetry.** A region has the same value as its images under the eight symmetries of
//!    the square, so each region is cropped to its bounding box and stored under the least of
//!    its eight images, in a transposition table keyed by that bitboard.
//! 3. **Paths.** When the adjacency graph of a region is a path of `n` cells, a domino removes
//!    two neighbouring cells of the path and leaves two shorter paths: that is Dawson's Kayles
//!    (`0.07`) on a heap of `n`, whose values are computed once.
//! 4. **Point symmetry.** When a region is unchanged by the half turn about the centre of its
//!    frame, and no free cell is its own image or next to it, the second player wins by
//!    answering every domino with its mirror image (which is always free: it cannot overlap the
//!    domino just played, because no cell is next to its own image). So the region is a
//!    P-position, of value 0. Every empty even × even board is such a region.
//! 5. **Values by outcome search.** The value of a region `R` is the least `n` for which
//!    `R + ⋆n` is a P-position. Proving that `R + ⋆n` is an N-position needs only *one* winning
//!    move, and most of the positions met are N-positions, so searching outcomes visits far
//!    fewer regions than taking the mex of every option of every region. An option of `R + ⋆n`
//!    is a domino (leaving regions `S₁ … Sₖ` and the heap) or a smaller heap `⋆u`. Regions of
//!    known value are folded into the heap, two copies of one region cancel, the smaller of the
//!    remaining regions are valued exactly, and the largest is searched with the heap. Options
//!    settled by known values are tried first, then the others with the fewest cells left to
//!    search. A value never exceeds the number of options, so `R + ⋆n` with more options than
//!    dominoes in `R` is an N-position at once. P-positions found this way are exactly the
//!    values (`R + ⋆n` is P iff `R` has value `n`), and N-positions are remembered in a second
//!    table.
//!
//! For an even × odd board the first player wins by playing the central domino and then
//! mirroring, so its outcome is N; its Grundy value is still searched for, since the mirror
//! argument says nothing about it.
//!
//! Ideas 3, 4 and 5 (and 2) can be switched off ([`CramOptions`]); the tests check that every
//! combination gives the answers of the plain mex search.
//!
//! Misère Cram has no theory of sums, so a misère board is searched whole (with symmetry and
//! with isolated cells, which can never be covered, removed).

mod diagram;
mod frame;
mod solver;

use std::fmt;

use super::GameError;
use frame::{full_mask, Frame};

pub use diagram::{parse_domino_diagram, Domino, DominoDiagram, DominoError};
pub(crate) use solver::CramSolver;
pub use solver::{cram_grundy, CramOptions};

/// A Cram board: a frame of at most 64 cells and the set of its free cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    rows: u8,
    cols: u8,
    free: u64,
}

impl Board {
    /// The empty `rows × cols` board, all cells free. At most 64 cells, and no side of 0.
    pub fn rectangle(rows: u64, cols: u64) -> Result<Board, GameError> {
        if rows == 0 || cols == 0 || rows.saturating_mul(cols) > 64 {
            return Err(GameError::InvalidGame {
                game: format!("cram({rows}, {cols})"),
                reason: "a Cram board needs both sides positive and at most 64 cells".into(),
            });
        }
        Ok(Board {
            rows: rows as u8,
            cols: cols as u8,
            free: full_mask((rows * cols) as u32),
        })
    }

    /// A board from its frame and bitboard of free cells (bit `r·cols + c`). Bits outside the
    /// frame are ignored.
    pub fn from_bits(rows: u64, cols: u64, free: u64) -> Result<Board, GameError> {
        let b = Board::rectangle(rows, cols)?;
        Ok(Board {
            free: free & b.free,
            ..b
        })
    }

    /// The number of rows of the frame.
    pub fn rows(&self) -> u64 {
        u64::from(self.rows)
    }

    /// The number of columns of the frame.
    pub fn cols(&self) -> u64 {
        u64::from(self.cols)
    }

    /// The free cells, bit `r·cols + c`.
    pub fn free_bits(&self) -> u64 {
        self.free
    }

    /// Whether the cell in row `r`, column `c` is free.
    pub fn is_free(&self, r: u64, c: u64) -> bool {
        r < self.rows() && c < self.cols() && self.free >> (r * self.cols() + c) & 1 == 1
    }

    /// `Some((rows, cols))` when every cell of the frame is free.
    pub fn as_rectangle(&self) -> Option<(u64, u64)> {
        let full = full_mask(u32::from(self.rows) * u32::from(self.cols));
        (self.free == full).then(|| (self.rows(), self.cols()))
    }

    /// The boards after each possible domino, horizontal dominoes first, in cell order.
    pub fn moves(&self) -> Vec<Board> {
        let f = Frame::new(u32::from(self.rows), u32::from(self.cols));
        let mut out = Vec::new();
        for pair in f.dominoes(self.free) {
            out.push(Board {
                free: self.free & !pair,
                ..*self
            });
        }
        out
    }
}

impl fmt::Display for Board {
    /// The cell notation of [`parse_cells`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.rows() {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..self.cols() {
                f.write_str(if self.is_free(r, c) { "#" } else { "." })?;
            }
        }
        Ok(())
    }
}

/// Parses the Cram cell notation: rows from top to bottom separated by `/`, `#` a free cell,
/// `.` a blocked cell; whitespace is ignored and shorter rows are padded with blocked cells.
/// The frame (rows × longest row) may have at most 64 cells. Example: `"###/#.#/###"` is a
/// 3 × 3 ring.
pub fn parse_cells(s: &str) -> Result<Board, GameError> {
    let bad = |offset: usize, reason: String| GameError::MalformedBoard {
        input: s.to_string(),
        offset,
        reason,
    };
    let mut rows: Vec<Vec<bool>> = vec![Vec::new()];
    for (i, ch) in s.char_indices() {
        match ch {
            '/' => rows.push(Vec::new()),
            '#' | '.' => {
                if let Some(r) = rows.last_mut() {
                    r.push(ch == '#');
                }
            }
            c if c.is_whitespace() => {}
            c => {
                return Err(bad(
                    i,
                    format!(
                        "`{c}` is not a cell: use `#` for free, `.` for blocked, `/` between rows"
                    ),
                ))
            }
        }
    }
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    if cols == 0 {
        return Err(bad(0, "the board has no cells".into()));
    }
    let n = rows.len() * cols;
    if n > 64 {
        return Err(bad(
            s.len(),
            format!(
                "the frame has {} × {} = {n} cells, more than 64",
                rows.len(),
                cols
            ),
        ));
    }
    let mut free = 0u64;
    for (r, row) in rows.iter().enumerate() {
        for (c, &x) in row.iter().enumerate() {
            if x {
                free |= 1 << (r * cols + c);
            }
        }
    }
    Board::from_bits(rows.len() as u64, cols as u64, free)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        let b = parse_cells("##./# ##/").unwrap();
        assert_eq!(b.rows(), 3);
        assert_eq!(b.to_string(), "##./###/...");
        assert_eq!(parse_cells(&b.to_string()).unwrap(), b);
        let e = parse_cells("##x").unwrap_err();
        assert!(e.to_string().contains("byte 2"), "{e}");
    }
}
