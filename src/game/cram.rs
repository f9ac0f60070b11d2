//! Cram: boards, the cell notation, and the bitboard solver.
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

use std::fmt;

use super::octal::octal_values;
use super::{Budget, GameError, Meter, OctalCode};
use rustc_hash::FxHashMap;

/// A Cram board: a frame of at most 64 cells and the set of its free cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    rows: u8,
    cols: u8,
    free: u64,
}

fn full_mask(cells: u32) -> u64 {
    if cells >= 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    }
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

/// A placed domino of a [`DominoDiagram`]: its letter and its two cells `(row, col)`.
pub type Domino = (char, (u64, u64), (u64, u64));

/// A Cram position drawn with the dominoes already placed: the cell notation of
/// [`parse_cells`], where a letter marks both cells of one domino, as in `"AA##/B###/B.##"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DominoDiagram {
    /// The cells left to play in the notation of [`parse_cells`]: a domino's cells are `.`.
    pub cells: String,
    /// The placed dominoes, in the order of their letters.
    pub dominoes: Vec<Domino>,
}

/// Why a domino diagram does not parse. Offsets are byte offsets into the diagram's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DominoError {
    /// A character that is not `#`, `.`, a letter, `/` or white space.
    NotACell {
        /// Where it stands.
        offset: usize,
        /// The character.
        found: char,
    },
    /// The frame (rows × longest row) has no cells or more than 64.
    Frame {
        /// Rows of the frame.
        rows: usize,
        /// Columns of the frame.
        cols: usize,
    },
    /// A letter that does not mark exactly two cells side by side.
    Domino {
        /// Where the letter first stands.
        offset: usize,
        /// The letter.
        letter: char,
        /// How many cells it marks (2 when they are not side by side).
        cells: usize,
    },
}

impl fmt::Display for DominoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DominoError::NotACell { found, .. } => {
                write!(f, "`{found}` is not a cell of a Cram diagram")
            }
            DominoError::Frame { rows, cols } => write!(
                f,
                "a Cram diagram needs between 1 and 64 cells in its frame, not {rows} × {cols}"
            ),
            DominoError::Domino { letter, cells, .. } => {
                let found = if *cells == 2 {
                    "two cells that are not side by side".to_string()
                } else {
                    format!("{cells} cell{}", if *cells == 1 { "" } else { "s" })
                };
                write!(
                    f,
                    "domino `{letter}` must cover exactly two orthogonally adjacent cells, but it covers {found}"
                )
            }
        }
    }
}

/// Parses a domino diagram: rows split by `/`, `#` a free cell, `.` a blocked cell, a letter on
/// each of the two cells of a placed domino; white space is ignored.
pub fn parse_domino_diagram(text: &str) -> Result<DominoDiagram, DominoError> {
    use std::collections::BTreeMap;
    let mut grid: Vec<Vec<char>> = vec![Vec::new()];
    let mut first: BTreeMap<char, usize> = BTreeMap::new();
    let mut cells: BTreeMap<char, Vec<(u64, u64)>> = BTreeMap::new();
    for (i, ch) in text.char_indices() {
        match ch {
            '/' => grid.push(Vec::new()),
            c if c.is_whitespace() => {}
            '#' | '.' => {
                if let Some(row) = grid.last_mut() {
                    row.push(ch);
                }
            }
            c if c.is_alphabetic() => {
                let r = grid.len() as u64 - 1;
                if let Some(row) = grid.last_mut() {
                    cells.entry(c).or_default().push((r, row.len() as u64));
                    row.push(c);
                }
                first.entry(c).or_insert(i);
            }
            c => {
                return Err(DominoError::NotACell {
                    offset: i,
                    found: c,
                })
            }
        }
    }
    let cols = grid.iter().map(Vec::len).max().unwrap_or(0);
    if cols == 0 || grid.len() * cols > 64 {
        return Err(DominoError::Frame {
            rows: grid.len(),
            cols,
        });
    }
    let mut dominoes = Vec::new();
    for (letter, at) in &cells {
        let adjacent = at.len() == 2 && {
            let ((r1, c1), (r2, c2)) = (at[0], at[1]);
            r1.abs_diff(r2) + c1.abs_diff(c2) == 1
        };
        if !adjacent {
            return Err(DominoError::Domino {
                offset: first.get(letter).copied().unwrap_or(0),
                letter: *letter,
                cells: at.len(),
            });
        }
        dominoes.push((*letter, at[0], at[1]));
    }
    let cells = grid
        .iter()
        .map(|row| {
            row.iter()
                .map(|&c| if c == '#' { '#' } else { '.' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/");
    Ok(DominoDiagram { cells, dominoes })
}

/// Masks of one frame shape.
#[derive(Clone, Copy)]
struct Frame {
    h: u32,
    w: u32,
    full: u64,
    /// Cells not in the last column (may be the left cell of a horizontal domino).
    not_last: u64,
    /// Cells not in the first column.
    not_first: u64,
}

impl Frame {
    fn new(h: u32, w: u32) -> Frame {
        let full = full_mask(h * w);
        let mut last = 0u64;
        let mut first = 0u64;
        for r in 0..h {
            last |= 1 << (r * w + w - 1);
            first |= 1 << (r * w);
        }
        Frame {
            h,
            w,
            full,
            not_last: full & !last,
            not_first: full & !first,
        }
    }

    #[inline]
    fn hpairs(&self, b: u64) -> u64 {
        b & (b >> 1) & self.not_last
    }

    #[inline]
    fn vpairs(&self, b: u64) -> u64 {
        if self.w >= 64 {
            0
        } else {
            b & (b >> self.w)
        }
    }

    /// Each domino as the two-bit mask it covers.
    fn dominoes(&self, b: u64) -> impl Iterator<Item = u64> + '_ {
        let h = self.hpairs(b);
        let v = self.vpairs(b);
        let w = self.w;
        bits(h)
            .map(|i| 3u64 << i)
            .chain(bits(v).map(move |i| (1u64 << i) | (1u64 << (i + w))))
    }

    #[inline]
    fn grow(&self, s: u64) -> u64 {
        let w = self.w;
        let up = if w >= 64 { 0 } else { s >> w };
        let down = if w >= 64 { 0 } else { s << w };
        (s | ((s << 1) & self.not_first) | ((s >> 1) & self.not_last) | up | down) & self.full
    }

    /// The connected components of `b`.
    fn components(&self, b: u64, out: &mut Vec<u64>) {
        out.clear();
        let mut rest = b;
        while rest != 0 {
            let mut comp = rest & rest.wrapping_neg();
            loop {
                let next = self.grow(comp) & b;
                if next == comp {
                    break;
                }
                comp = next;
            }
            rest &= !comp;
            out.push(comp);
        }
    }

    /// Crops `b` (non-empty) to its bounding box: the new height, width and bits.
    fn crop(&self, b: u64) -> (u32, u32, u64) {
        let w = self.w;
        let rmin = b.trailing_zeros() / w;
        let rmax = (63 - b.leading_zeros()) / w;
        let row_mask = full_mask(w);
        let mut cols = 0u64;
        for r in rmin..=rmax {
            cols |= (b >> (r * w)) & row_mask;
        }
        let cmin = cols.trailing_zeros();
        let cmax = 63 - cols.leading_zeros();
        let cw = cmax - cmin + 1;
        let ch = rmax - rmin + 1;
        let cmask = full_mask(cw);
        let mut out = 0u64;
        for r in rmin..=rmax {
            out |= ((b >> (r * w + cmin)) & cmask) << ((r - rmin) * cw);
        }
        (ch, cw, out)
    }
}

fn bits(mut x: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if x == 0 {
            None
        } else {
            let i = x.trailing_zeros();
            x &= x - 1;
            Some(i)
        }
    })
}

#[inline]
fn rot180(h: u32, w: u32, b: u64) -> u64 {
    b.reverse_bits() >> (64 - h * w)
}

fn flip_rows(h: u32, w: u32, b: u64) -> u64 {
    let m = full_mask(w);
    let mut out = 0u64;
    for r in 0..h {
        out |= ((b >> (r * w)) & m) << ((h - 1 - r) * w);
    }
    out
}

fn transpose(h: u32, w: u32, b: u64) -> u64 {
    let mut out = 0u64;
    for i in bits(b) {
        let (r, c) = (i / w, i % w);
        out |= 1 << (c * h + r);
    }
    out
}

#[inline]
fn key(h: u32, w: u32, b: u64) -> u128 {
    (u128::from(h) << 72) | (u128::from(w) << 64) | u128::from(b)
}

/// The least key among the eight images of a cropped region under the symmetries of the
/// square.
///
/// Regions whose box fits in 8 × 8 (all but long thin ones) are keyed in an 8 × 8 layout, bit
/// `8r + c`, where the symmetries are a handful of word operations: reversing the byte order
/// flips the rows, reversing the bits inside each byte flips the columns, and three
/// delta-swaps transpose. Larger boxes use the packed layout and a loop over the cells.
fn canonical_key(h: u32, w: u32, b: u64) -> u128 {
    if h <= 8 && w <= 8 {
        return canonical_key8(h, w, b);
    }
    let mut best = u128::MAX;
    let t = transpose(h, w, b);
    for (hh, ww, x) in [(h, w, b), (w, h, t)] {
        let f = flip_rows(hh, ww, x);
        for y in [x, rot180(hh, ww, x), f, rot180(hh, ww, f)] {
            best = best.min(key(hh, ww, y));
        }
    }
    best
}

/// `b` (packed, `w` bits a row) in the 8 × 8 layout.
fn embed8(h: u32, w: u32, b: u64) -> u64 {
    let m = full_mask(w);
    let mut x = 0u64;
    for r in 0..h {
        x |= ((b >> (r * w)) & m) << (8 * r);
    }
    x
}

/// The inverse of [`embed8`].
fn unembed8(h: u32, w: u32, x: u64) -> u64 {
    let m = full_mask(w);
    let mut b = 0u64;
    for r in 0..h {
        b |= ((x >> (8 * r)) & m) << (r * w);
    }
    b
}

/// Transposes an 8 × 8 bit matrix, bit `8r + c` to bit `8c + r`.
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^= t ^ (t << 28);
    x
}

fn canonical_key8(h: u32, w: u32, b: u64) -> u128 {
    let m = embed8(h, w, b);
    let mut best = u128::MAX;
    for (hh, ww, x) in [(h, w, m), (w, h, transpose8(m))] {
        let rows = x.swap_bytes() >> (8 * (8 - hh));
        let lows = 0x0101_0101_0101_0101u64 * ((1u64 << ww) - 1);
        let cols = |y: u64| (y.reverse_bits().swap_bytes() >> (8 - ww)) & lows;
        for y in [x, rows, cols(x), cols(rows)] {
            best = best.min(key(hh, ww, y));
        }
    }
    best
}

/// Which shortcuts the Cram solver may use. All of them are theorems; switching them off is
/// for testing and for measuring what they are worth. With everything off the solver takes
/// the mex of the values of all options of every region, memoising regions as they are.
///
/// The outcome search: the value of a region `R` is the least `n` for which `R + ⋆n` is a
/// P-position, and showing that `R + ⋆n` is an N-position needs only one winning move. An
/// option of `R + ⋆n` is a domino (leaving regions `S₁ … Sₖ` and the heap) or a smaller heap.
/// Regions of known value are folded into the heap, two copies of a region cancel, the smaller
/// unknown regions are valued exactly and the largest is searched with the heap. Options that
/// known values settle are tried first, then the others, fewest cells first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CramOptions {
    /// Store regions under their least image by the symmetries of the square.
    pub symmetry: bool,
    /// Use Dawson's Kayles for path-shaped regions.
    pub paths: bool,
    /// Give value 0 to regions with the point-symmetry strategy.
    pub point_symmetry: bool,
    /// Find values by outcome search of `region + ⋆n` instead of by the mex of every option.
    pub outcome_search: bool,
}

impl Default for CramOptions {
    /// Everything on.
    fn default() -> Self {
        CramOptions {
            symmetry: true,
            paths: true,
            point_symmetry: true,
            outcome_search: true,
        }
    }
}

/// The Grundy value of a Cram board with the chosen shortcuts.
pub fn cram_grundy(board: &Board, options: CramOptions, b: &Budget) -> Result<u64, GameError> {
    let mut meter = Meter::new(b);
    let mut s = CramSolver::new(options, &mut meter)?;
    s.board_value(board, &mut meter)
}

/// Memoised Cram solver, shared by all the Cram boards of one search.
pub(crate) struct CramSolver {
    options: CramOptions,
    frames: Vec<Option<Frame>>,
    table: FxHashMap<u128, u8>,
    /// Outcomes of `region + ⋆n` found to be N-positions, keyed by region key with `n` in bits
    /// 80 and up. (P-positions go to `table`: `region + ⋆n` is P exactly when the region's value
    /// is `n`.)
    wins: FxHashMap<u128, ()>,
    misere: FxHashMap<u128, bool>,
    dawson: Vec<u64>,
    scratch: Vec<Vec<u64>>,
}

impl CramSolver {
    pub(crate) fn new(options: CramOptions, meter: &mut Meter) -> Result<Self, GameError> {
        let dawson = octal_values(&OctalCode::dawsons_kayles(), 64, meter)?;
        Ok(CramSolver {
            options,
            frames: vec![None; 65 * 65],
            table: FxHashMap::default(),
            wins: FxHashMap::default(),
            misere: FxHashMap::default(),
            dawson,
            scratch: Vec::new(),
        })
    }

    fn frame(&mut self, h: u32, w: u32) -> Frame {
        let i = (h * 65 + w) as usize;
        match self.frames.get(i).copied().flatten() {
            Some(f) => f,
            None => {
                let f = Frame::new(h, w);
                if let Some(slot) = self.frames.get_mut(i) {
                    *slot = Some(f);
                }
                f
            }
        }
    }

    /// The value of a whole board.
    pub(crate) fn board_value(&mut self, b: &Board, meter: &mut Meter) -> Result<u64, GameError> {
        let v = self.region_value(u32::from(b.rows), u32::from(b.cols), b.free, meter)?;
        Ok(u64::from(v))
    }

    /// The nim-sum of the values of the components of `b` in an `h × w` frame.
    fn region_value(&mut self, h: u32, w: u32, b: u64, meter: &mut Meter) -> Result<u8, GameError> {
        let f = self.frame(h, w);
        if f.hpairs(b) | f.vpairs(b) == 0 {
            return Ok(0);
        }
        let mut comps = self.scratch.pop().unwrap_or_default();
        f.components(b, &mut comps);
        let mut x = 0u8;
        let mut result = Ok(());
        for &c in comps.iter() {
            if c & (c - 1) == 0 {
                continue;
            }
            let (ch, cw, cb) = f.crop(c);
            match self.component_value(ch, cw, cb, meter) {
                Ok(v) => x ^= v,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.scratch.push(comps);
        result.map(|()| x)
    }

    /// The canonical (cropped, symmetry-reduced) components of a board that have at least one
    /// domino, each as a board.
    pub(crate) fn canonical_components(&mut self, b: &Board) -> Vec<Board> {
        let f = self.frame(u32::from(b.rows), u32::from(b.cols));
        let mut comps = Vec::new();
        f.components(b.free, &mut comps);
        let mut out = Vec::new();
        for c in comps {
            if f.hpairs(c) | f.vpairs(c) == 0 {
                continue;
            }
            let (h, w, x) = f.crop(c);
            out.push(board_of_key(canonical_key(h, w, x)));
        }
        out
    }

    /// The whole board, isolated cells removed, cropped and symmetry-reduced (for misère play).
    pub(crate) fn canonical_whole(&mut self, b: &Board) -> Board {
        let (h, w, x) = self.reduce_whole(u32::from(b.rows), u32::from(b.cols), b.free);
        if x == 0 {
            return Board {
                rows: 1,
                cols: 1,
                free: 0,
            };
        }
        board_of_key(canonical_key(h, w, x))
    }

    fn reduce_whole(&mut self, h: u32, w: u32, b: u64) -> (u32, u32, u64) {
        let f = self.frame(h, w);
        let hp = f.hpairs(b);
        let vp = f.vpairs(b);
        let live = hp | (hp << 1) | vp | if w >= 64 { 0 } else { vp << w };
        if live == 0 {
            return (h, w, 0);
        }
        f.crop(live)
    }

    fn component_value(
        &mut self,
        h: u32,
        w: u32,
        b: u64,
        meter: &mut Meter,
    ) -> Result<u8, GameError> {
        if self.options.outcome_search {
            return match self.quick_value(h, w, b) {
                (Some(v), _) => Ok(v),
                (None, k) => self.exact(&Comp { h, w, b, k }, meter),
            };
        }
        let f = self.frame(h, w);
        let hp = f.hpairs(b);
        let vp = f.vpairs(b);
        if hp | vp == 0 {
            return Ok(0);
        }
        let n = b.count_ones();
        if self.options.paths {
            let edges = hp.count_ones() + vp.count_ones();
            if edges + 1 == n && max_degree_at_most_two(&f, b) {
                let v = self.dawson.get(n as usize).copied().unwrap_or(0);
                return Ok(v as u8);
            }
        }
        let k = if self.options.symmetry {
            canonical_key(h, w, b)
        } else {
            key(h, w, b)
        };
        if let Some(&v) = self.table.get(&k) {
            return Ok(v);
        }
        if self.options.point_symmetry && point_symmetric_strategy(&f, b) {
            self.table.insert(k, 0);
            return Ok(0);
        }
        meter.tick()?;
        // Values of Cram regions of at most 64 cells are far below 128; a u128 holds the
        // options' values.
        let mut seen: u128 = 0;
        for pair in f.dominoes(b) {
            let v = self.region_value(h, w, b & !pair, meter)?;
            seen |= 1u128 << (v & 127);
        }
        let v = (!seen).trailing_zeros() as u8;
        self.table.insert(k, v);
        Ok(v)
    }

    /// The value of a region when it is known without search: no domino, a path, already in
    /// the table, or point-symmetric. Also returns the region's table key.
    fn quick_value(&mut self, h: u32, w: u32, b: u64) -> (Option<u8>, u128) {
        let f = self.frame(h, w);
        let hp = f.hpairs(b);
        let vp = f.vpairs(b);
        if hp | vp == 0 {
            return (Some(0), 0);
        }
        if self.options.paths {
            let n = b.count_ones();
            let edges = hp.count_ones() + vp.count_ones();
            if edges + 1 == n && max_degree_at_most_two(&f, b) {
                let v = self.dawson.get(n as usize).copied().unwrap_or(0);
                return (Some(v as u8), 0);
            }
        }
        let k = if self.options.symmetry {
            canonical_key(h, w, b)
        } else {
            key(h, w, b)
        };
        if let Some(&v) = self.table.get(&k) {
            return (Some(v), k);
        }
        if self.options.point_symmetry && point_symmetric_strategy(&f, b) {
            self.table.insert(k, 0);
            return (Some(0), k);
        }
        (None, k)
    }

    /// The exact value of a region not known without search: the least `n` for which
    /// `region + ⋆n` is a P-position.
    fn exact(&mut self, c: &Comp, meter: &mut Meter) -> Result<u8, GameError> {
        let mut n = 0u8;
        loop {
            if let Some(&v) = self.table.get(&c.k) {
                return Ok(v);
            }
            if !self.wins(c, n, meter)? {
                return Ok(n);
            }
            n = n.saturating_add(1);
            if n == u8::MAX {
                return Err(GameError::Unsupported {
                    game: "cram".into(),
                    reason: "a region value above 254".into(),
                });
            }
        }
    }

    /// Whether `region + ⋆n` is an N-position. A move is either a domino in the region or a
    /// move of the nim heap to a smaller `⋆u`.
    ///
    /// The search looks for one winning move, so the order of trial matters: first the options
    /// whose regions all have known values (no search at all), then the others, those with the
    /// fewest cells still to be searched first, and the moves of the nim heap last.
    fn wins(&mut self, c: &Comp, n: u8, meter: &mut Meter) -> Result<bool, GameError> {
        if let Some(&v) = self.table.get(&c.k) {
            return Ok(v != n);
        }
        let ok = c.k | (u128::from(n) << 80);
        if self.wins.contains_key(&ok) {
            return Ok(true);
        }
        let f = self.frame(c.h, c.w);
        let moves = f.hpairs(c.b).count_ones() + f.vpairs(c.b).count_ones();
        // A value is at most the number of options, so with a larger heap the winning move is
        // to bring the heap down to the region's value.
        if u32::from(n) > moves {
            return Ok(true);
        }
        meter.tick()?;
        // Options not settled by known values: (cells to search, heap, range in `arena`).
        let mut pending: Vec<(u32, u8, usize, usize)> = Vec::new();
        let mut arena: Vec<Comp> = Vec::new();
        let mut win = false;
        for pair in f.dominoes(c.b) {
            let start = arena.len();
            match self.classify(&f, c.b & !pair, n, &mut arena) {
                Ok(true) => {
                    win = true;
                    break;
                }
                Ok(false) => {}
                Err(x) => {
                    let cost = arena[start..].iter().map(|c| c.b.count_ones()).sum();
                    pending.push((cost, x, start, arena.len()));
                }
            }
        }
        if !win {
            pending.sort_unstable_by_key(|p| p.0);
            for &(_, x, start, end) in &pending {
                if self.resolve(x, &arena[start..end], meter)? {
                    win = true;
                    break;
                }
            }
        }
        if !win {
            for u in 0..n {
                if !self.wins(c, u, meter)? {
                    win = true;
                    break;
                }
            }
        }
        if win {
            self.wins.insert(ok, ());
        } else {
            self.table.insert(c.k, n);
        }
        Ok(win)
    }

    /// Whether the option `b` (in frame `f`) plus `⋆n` is a P-position, as far as known
    /// values tell: `Ok(p)` when they settle it, otherwise `Err(x)` with the regions still
    /// unknown pushed on `arena` and `x` the nim-sum of `⋆n` and the known regions.
    fn classify(&mut self, f: &Frame, b: u64, n: u8, arena: &mut Vec<Comp>) -> Result<bool, u8> {
        let mut comps = self.scratch.pop().unwrap_or_default();
        f.components(b, &mut comps);
        let start = arena.len();
        let mut x = n;
        for &cb in comps.iter() {
            if cb & (cb - 1) == 0 {
                continue;
            }
            let (h, w, cropped) = f.crop(cb);
            match self.quick_value(h, w, cropped) {
                (Some(v), _) => x ^= v,
                (None, k) => {
                    // Two copies of one region cancel: g ⊕ g = 0.
                    if let Some(i) = arena[start..].iter().position(|c| c.k == k) {
                        arena.swap_remove(start + i);
                    } else {
                        arena.push(Comp {
                            h,
                            w,
                            b: cropped,
                            k,
                        });
                    }
                }
            }
        }
        self.scratch.push(comps);
        match &arena[start..] {
            [] => Ok(x == 0),
            [only] if self.wins.contains_key(&(only.k | (u128::from(x) << 80))) => {
                // Known to be an N-position already: not the move we look for.
                arena.truncate(start);
                Ok(false)
            }
            _ => Err(x),
        }
    }

    /// Whether `⋆x` plus the given regions is a P-position: the smaller regions are valued
    /// exactly, and the largest is searched with the rest folded into its heap.
    fn resolve(&mut self, x: u8, regions: &[Comp], meter: &mut Meter) -> Result<bool, GameError> {
        let mut largest = 0;
        for (i, c) in regions.iter().enumerate() {
            if c.b.count_ones() > regions[largest].b.count_ones() {
                largest = i;
            }
        }
        let mut x = x;
        for (i, c) in regions.iter().enumerate() {
            if i != largest {
                x ^= self.exact(c, meter)?;
            }
        }
        match regions.get(largest) {
            Some(c) => Ok(!self.wins(c, x, meter)?),
            None => Ok(x == 0),
        }
    }

    /// Misère outcome of a whole board: `true` when the player to move wins.
    pub(crate) fn misere_next_wins(
        &mut self,
        b: &Board,
        meter: &mut Meter,
    ) -> Result<bool, GameError> {
        let (h, w, x) = self.reduce_whole(u32::from(b.rows), u32::from(b.cols), b.free);
        self.misere_rec(h, w, x, meter)
    }

    fn misere_rec(&mut self, h: u32, w: u32, b: u64, meter: &mut Meter) -> Result<bool, GameError> {
        if b == 0 {
            // No move: in misère play the player to move wins.
            return Ok(true);
        }
        let k = if self.options.symmetry {
            canonical_key(h, w, b)
        } else {
            key(h, w, b)
        };
        if let Some(&v) = self.misere.get(&k) {
            return Ok(v);
        }
        meter.tick()?;
        let f = self.frame(h, w);
        let mut wins = false;
        let pairs: Vec<u64> = f.dominoes(b).collect();
        for pair in pairs {
            let (ch, cw, cb) = self.reduce_whole(h, w, b & !pair);
            if !self.misere_rec(ch, cw, cb, meter)? {
                wins = true;
                break;
            }
        }
        self.misere.insert(k, wins);
        Ok(wins)
    }
}

/// A region in its cropped frame, with its table key.
struct Comp {
    h: u32,
    w: u32,
    b: u64,
    k: u128,
}

/// The board of a key made by [`canonical_key`].
fn board_of_key(k: u128) -> Board {
    let rows = ((k >> 72) & 0xff) as u32;
    let cols = ((k >> 64) & 0xff) as u32;
    let free = if rows <= 8 && cols <= 8 {
        unembed8(rows, cols, k as u64)
    } else {
        k as u64
    };
    Board {
        rows: rows as u8,
        cols: cols as u8,
        free,
    }
}

/// Whether no cell of `b` has three or more free neighbours.
fn max_degree_at_most_two(f: &Frame, b: u64) -> bool {
    let l = ((b << 1) & f.not_first) & b;
    let r = ((b >> 1) & f.not_last) & b;
    let (u, d) = if f.w >= 64 {
        (0, 0)
    } else {
        ((b << f.w) & b, (b >> f.w) & b)
    };
    let three = (l & r & u) | (l & r & d) | (l & u & d) | (r & u & d);
    three == 0
}

/// Whether `b` is unchanged by the half turn of its frame and no free cell is its own image
/// or adjacent to it.
fn point_symmetric_strategy(f: &Frame, b: u64) -> bool {
    let n = f.h * f.w;
    if rot180(f.h, f.w, b) != b {
        return false;
    }
    // Cells that are their own image or next to it lie in the middle of the frame.
    for i in bits(b) {
        let j = n - 1 - i;
        if j == i {
            return false;
        }
        let (ri, ci) = (i / f.w, i % f.w);
        let (rj, cj) = (j / f.w, j % f.w);
        if ri.abs_diff(rj) + ci.abs_diff(cj) == 1 {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domino_diagrams_name_their_dominoes_and_their_mistakes() {
        let d = parse_domino_diagram("AA##/B###/B.##").expect("diagram");
        assert_eq!(d.cells, "..##/.###/..##");
        assert_eq!(
            d.dominoes,
            vec![('A', (0, 0), (0, 1)), ('B', (1, 0), (2, 0))]
        );
        let not_a_cell = DominoError::NotACell {
            offset: 1,
            found: '?',
        };
        assert_eq!(parse_domino_diagram("#?#"), Err(not_a_cell));
        let apart = DominoError::Domino {
            offset: 0,
            letter: 'A',
            cells: 2,
        };
        assert_eq!(parse_domino_diagram("A#A"), Err(apart));
        let alone = DominoError::Domino {
            offset: 3,
            letter: 'B',
            cells: 1,
        };
        assert_eq!(parse_domino_diagram("#/#B"), Err(alone));
        assert_eq!(
            parse_domino_diagram("/"),
            Err(DominoError::Frame { rows: 2, cols: 0 })
        );
    }

    #[test]
    fn cells_round_trip() {
        let b = parse_cells("##./# ##/").unwrap();
        assert_eq!(b.rows(), 3);
        assert_eq!(b.to_string(), "##./###/...");
        assert_eq!(parse_cells(&b.to_string()).unwrap(), b);
        let e = parse_cells("##x").unwrap_err();
        assert!(e.to_string().contains("byte 2"), "{e}");
    }

    #[test]
    fn fast_symmetries_match_the_cell_loop() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let h = 1 + (x % 8) as u32;
            let w = 1 + ((x >> 8) % 8) as u32;
            let b = (x >> 16) & full_mask(h * w);
            // The slow way: every image in the packed layout, then re-embedded.
            let t = transpose(h, w, b);
            let mut slow = u128::MAX;
            for (hh, ww, y) in [(h, w, b), (w, h, t)] {
                let f = flip_rows(hh, ww, y);
                for z in [y, rot180(hh, ww, y), f, rot180(hh, ww, f)] {
                    slow = slow.min(key(hh, ww, embed8(hh, ww, z)));
                }
            }
            assert_eq!(canonical_key(h, w, b), slow, "{h}x{w} {b:b}");
            assert_eq!(unembed8(h, w, embed8(h, w, b)), b);
        }
    }

    #[test]
    fn symmetry_keys_agree() {
        let b = parse_cells("##./.##/..#").unwrap();
        let f = Frame::new(3, 3);
        let (h, w, x) = f.crop(b.free);
        let k = canonical_key(h, w, x);
        let t = transpose(h, w, x);
        assert_eq!(canonical_key(w, h, t), k);
        assert_eq!(canonical_key(h, w, rot180(h, w, x)), k);
    }
}
