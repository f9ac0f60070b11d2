//! Cram: boards, the cell notation, and the solver.
//!
//! The rooms: this module (the [`Board`] and its cell notation, and the theorems the solver
//! rests on, below), `diagram` (boards drawn with placed dominoes), `frame` (the board's own
//! bitboard layout: masks, flood fill, cropping and the least image, for listing moves and
//! naming positions, and for the plain search), `grid` (the search's layout: one row stride,
//! the reductions, the keys), `table` (the bounded transposition table), `search` (the pruned
//! search and misère play) and `solver` (the options, the plain search, the dispatch).
//!
//! A board is a frame of `rows × cols ≤ 64` cells stored as one `u64`, bit `r·cols + c` set
//! when the cell in row `r`, column `c` is free. A domino covers two free cells that share a
//! side, so the game only depends on the graph of free cells and their adjacencies: a move
//! picks an edge of that graph and deletes both its ends.
//!
//! # What the solver uses, and why each step is exact
//!
//! Call two positions *equivalent* when each option of one is equivalent to some option of
//! the other, and back (by induction on the number of free cells). Equivalent positions have
//! the same Grundy value (the same set of option values, so the same mex) and the same misère
//! outcome (both have moves or neither, and a P-position among the options of one exactly when
//! among those of the other). Isomorphic graphs are equivalent, and so are two positions that
//! differ by *isolated* cells (cells with no free neighbour), which no domino ever covers.
//!
//! 1. **Components.** Free cells that are not connected by a path of adjacent free cells never
//!    interact, so a position is the sum of its connected regions and its value is the nim-sum
//!    of theirs (Sprague–Grundy). Two copies of one region cancel (`g ⊕ g = 0`).
//! 2. **Symmetry.** A region has the same value as its images under the eight symmetries of
//!    the square (isomorphic graphs), so it is stored under the least of its images.
//! 3. **Paths and cycles.** A region whose graph is a path of `n` cells is Dawson's Kayles
//!    (`0.07`) on a heap of `n`: a domino removes two neighbouring cells of the path and leaves
//!    two shorter paths. A cycle of `n` cells has one kind of option, a path of `n − 2` cells,
//!    so its value is 1 when that path's is 0, and 0 otherwise.
//! 4. **Point symmetry.** When a region is unchanged by the half turn about the centre of its
//!    bounding box, and no free cell is its own image or next to it (such cells can only be the
//!    centre cell or the two cells on either side of the centre), the second player wins by
//!    answering every domino with its image: the image is free (the position before the move
//!    was symmetric) and cannot overlap the domino just played (that would need a cell that is
//!    its own image or next to it). So the region has value 0; every empty even × even board is
//!    one.
//! 5. **Stars.** If cells `l₁` and `l₂` are both leaves (one free neighbour) of the same cell
//!    `c`, then `G` is equivalent to `G − l₂`. A domino away from `l₁, l₂, c` leaves the same
//!    situation on both sides (induction). `{l₁, c}` leaves `l₂` isolated, so it gives `G − l₂`'s
//!    option `{l₁, c}` up to an isolated cell; `{l₂, c}` gives the same, with `l₁` isolated; a
//!    domino `{c, y}` isolates the leaves on both sides.
//! 6. **Blocked cells.** If a cell `x` is not a leaf, no leaf is next to it, and each of its
//!    neighbours `y` has a leaf `l_y`, then `G` is equivalent to `G − x`. A domino not covering
//!    `x` keeps this true (a leaf loses its neighbour only to a domino that covers it too), so
//!    those options match by induction. A domino `{x, y}` isolates `l_y` and gives `G − x − y`,
//!    the same position as `G − l_y − y − x`; and `G − l_y − y` (an option of both sides) is
//!    equivalent to `G − l_y − y − x` by induction, since in it `x` still has the property.
//!    (An isolated cell is the case of no neighbours.) Removing cells can make new leaves, so
//!    rules 5 and 6 run until nothing changes.
//! 7. **Pinched blocks.** Take a 2 × 2 block `A B / C D` where `A`'s left and upper
//!    neighbours and `D`'s right and lower neighbours are blocked (or its mirror image), so
//!    that `A` and `D` touch only `B` and `C`. Dropping the links `A–B` and `C–D` from the graph
//!    gives an equivalent position. The domino `{A, B}` leaves `D` a leaf of `C`; `{B, D}`
//!    leaves `A` a leaf of `C`: the same graph, so `{A, B}` duplicates `{B, D}`, which the
//!    smaller graph has; likewise `{C, D}` duplicates `{A, C}`. A domino elsewhere keeps the
//!    block pinched, or removes `B` (then `A` and `D` are both leaves of `C`, and by rule 5 the
//!    link `C–D` does not matter) or `C` (the same with `B`). The links matter only for which
//!    cells form one region: a region that still holds both ends of a dropped link has the
//!    block pinched in it too, so it is valued with the link.
//! 8. **The pruned search** (Beling and Rogalski, *On pruning search trees of impartial games*,
//!    2020). The search asks of a region `G` with `m` dominoes whether its value lies in a set
//!    `W`, and answers with the value or with "not in `W`". It keeps the set `P ⊆ {0, …, m}`
//!    of values still possible, starting with all of them (a value is at most the number of
//!    options), and `T = max W`. It takes the options one by one: first those whose regions
//!    all have known values, removing each one's value from `P`; then the others, fewest
//!    cells first, each asked whether its value lies in `Q = (P − {max P}) ∩ {0, …, T}`; an
//!    answer in `Q` is removed from `P`, and "not in `Q`" removes `max P`. After `j` options
//!    of `m`, (a) `|P| ≥ m − j + 1`; (b) no value in `P ∩ {0, …, T}` is that of an option seen;
//!    (c) a value in `{0, …, T} − P` is either that of an option seen or larger than every
//!    value in `P`. Each step keeps (a), (b) and (c): removing `max P` after "not in `Q`"
//!    keeps (b) because the option's value is not in `Q = P − {max P}` below `T`, and (c)
//!    because `max P` exceeds all that remains. So at the end `P` is not empty; if `p = min P`
//!    is at most `T` then every value below `p` is an option's by (c), and `p` is not by (b):
//!    `p` is the mex, the value. If `p > T`, every value up to `T` is an option's, so the value
//!    is not in `W`. And as soon as `P ∩ W` is empty the answer is "not in `W`": a value `v`
//!    in `W` outside `P` would be larger than all of `P` by (c), so the `|P| ≥ m − j + 1`
//!    values of `P` would all be values of the `m − j` options not yet seen. An option that is
//!    a sum `x ⊕ S` of known values `x` and unknown regions has its smaller regions valued
//!    exactly and its largest `S` asked whether its value lies in `{q ⊕ x : q ∈ Q}`.
//!    The exact value of a region is found by aspiration: for `r = 0, 1, …`, is some option's
//!    value `r`? Each option is asked whether its value is `r` (a set of one), every value met
//!    on the way is remembered, and the first `r` no option has is the mex.
//! 9. **What is remembered.** The table keeps each region's value once found, and for a
//!    region found not to have a value in `W` the values below 12 it is known not to have; a
//!    later question is narrowed to the values not excluded, which changes no answer. Keys
//!    are exact (see `table`): a value read is always the value of the region asked about.
//!    The table is bounded by [`crate::game::Budget::max_table_bytes`]; at that size it
//!    forgets entries, which costs time and never correctness.
//!
//! Options are tried nearest the centre of the region first, which most often splits it or
//! answers the question. For an even × odd board the first player wins by playing the central
//! domino and then mirroring, so its outcome is N; its Grundy value is still searched for,
//! since the mirror argument says nothing about it.
//!
//! Every idea but the sum rule can be switched off ([`CramOptions`]); with all of them off
//! (and the pruned search off) the solver takes the mex of every option of every region, the
//! plain search the tests use as the oracle, written apart from the pruned search.
//!
//! Misère Cram has no theory of sums, so a misère board is searched whole, for its outcome:
//! rules 2, 5 and 6 (equivalences, which keep misère outcomes) and isolated cells removed, the
//! table and the move order of normal play.

mod diagram;
mod frame;
mod grid;
mod search;
mod solver;
mod table;

use std::fmt;

use super::GameError;
use frame::{full_mask, Frame};

pub use diagram::{parse_domino_diagram, Domino, DominoDiagram, DominoError};
pub(crate) use solver::CramSolver;
pub use solver::{cram_grundy, cram_search, CramOptions, CramSearch};

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
