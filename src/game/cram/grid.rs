//! The bitboards of the search: one row stride for a whole search, neighbour shifts, flood
//! fill, the exact reductions of a position, and the canonical image of a region.
//!
//! A board of `rows × cols ≤ 64` cells is laid out with `rows ≤ cols` (a board is turned a
//! quarter if need be, which changes no value) and cell `(r, c)` at bit `r·s + c`, where the
//! stride `s` is 8 when `cols ≤ 8` and `cols` otherwise. In the stride-8 layout every region
//! lives in an 8 × 8 square, and the eight symmetries of the square are a few word
//! operations: reversing the byte order flips the rows, reversing the bits of each byte flips
//! the columns, three delta swaps transpose. A wider stride has at most `⌊64 / s⌋ ≤ 7` rows;
//! there the half turn is one bit reversal, the row flip is a loop over the rows, and a
//! region is transposed (by a table that spreads one row into one column) only when its
//! transpose fits the rows there are.
//!
//! A region is *aligned* when its top row and its left column hold a cell. Its **key** is the
//! least of its aligned images (least as a 64-bit number) among those the layout holds. Two
//! regions get the same key exactly when one is an image of the other, because the images a
//! layout holds are closed under the symmetries that map between them.

use super::frame::full_mask;

/// The geometry of one stride.
#[derive(Debug, Clone)]
pub(super) struct Grid {
    /// Bits per row.
    stride: u32,
    /// Rows the layout holds: 8 for stride 8, `⌊64 / stride⌋` otherwise.
    rows: u32,
    full: u64,
    /// Cells not in the first column.
    not_first: u64,
    /// Cells not in the last column.
    not_last: u64,
    /// For a stride above 8: bit `c` of the index spread to bit `c·stride`, for rows of at most
    /// 7 cells (the transpose of a row).
    spread: Vec<u64>,
    /// For each bounding box `h × w` (index `(h − 1)·stride + w − 1`), the places of its
    /// dominoes nearest the centre first: a cell index, plus 64 for a vertical domino.
    orders: Vec<Vec<u8>>,
}

/// A region's key and what the search learns while computing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Canonical {
    /// The least aligned image.
    pub(super) key: u64,
    /// The region is unchanged by the half turn of its bounding box and no cell is its own
    /// image or next to it: the second player copies every move, so its value is 0.
    pub(super) mirror_zero: bool,
}

impl Grid {
    /// The layout for a board of `cols` columns (the longer side).
    pub(super) fn new(cols: u32) -> Grid {
        let stride = if cols <= 8 { 8 } else { cols.min(64) };
        let rows = if stride == 8 { 8 } else { 64 / stride };
        let full = full_mask(rows * stride);
        let mut first = 0u64;
        let mut last = 0u64;
        for r in 0..rows {
            first |= 1 << (r * stride);
            last |= 1 << (r * stride + stride - 1);
        }
        let spread = if stride == 8 {
            Vec::new()
        } else {
            (0..128u64)
                .map(|x| {
                    (0..7u32)
                        .filter(|c| x >> c & 1 == 1)
                        .fold(0u64, |a, c| a | 1u64.checked_shl(c * stride).unwrap_or(0))
                })
                .collect()
        };
        let orders = (0..rows * stride)
            .map(|i| centre_order(stride, i / stride + 1, i % stride + 1))
            .collect();
        Grid {
            stride,
            rows,
            full,
            not_first: full & !first,
            not_last: full & !last,
            spread,
            orders,
        }
    }

    /// Bits per row.
    pub(super) fn stride(&self) -> u32 {
        self.stride
    }

    /// Moves every cell one column right (cells of the last column fall off).
    #[inline]
    fn right(&self, b: u64) -> u64 {
        (b << 1) & self.not_first
    }

    /// Moves every cell one column left.
    #[inline]
    fn left(&self, b: u64) -> u64 {
        (b >> 1) & self.not_last
    }

    /// Moves every cell one row down.
    #[inline]
    fn down(&self, b: u64) -> u64 {
        (b << self.stride) & self.full
    }

    /// Moves every cell one row up.
    #[inline]
    fn up(&self, b: u64) -> u64 {
        b >> self.stride
    }

    /// The cells next to some cell of `b`.
    #[inline]
    pub(super) fn neighbours(&self, b: u64) -> u64 {
        self.right(b) | self.left(b) | self.up(b) | self.down(b)
    }

    /// The left cells of the horizontal dominoes of `b`.
    #[inline]
    pub(super) fn horizontal(&self, b: u64) -> u64 {
        b & self.left(b)
    }

    /// The upper cells of the vertical dominoes of `b`.
    #[inline]
    pub(super) fn vertical(&self, b: u64) -> u64 {
        b & self.up(b)
    }

    /// How many dominoes fit on `b`.
    #[inline]
    pub(super) fn domino_count(&self, b: u64) -> u32 {
        self.horizontal(b).count_ones() + self.vertical(b).count_ones()
    }

    /// Whether some domino fits on `b`.
    #[inline]
    pub(super) fn has_domino(&self, b: u64) -> bool {
        self.horizontal(b) | self.vertical(b) != 0
    }

    /// The dominoes of an aligned region, each as its two cells, those nearest the centre of
    /// its bounding box first (ties: by cell, horizontal before vertical): the order the
    /// search tries options in, since a move near the centre most often splits a region or
    /// answers it.
    pub(super) fn centre_first(&self, b: u64) -> impl Iterator<Item = u64> + '_ {
        let (_, h, w) = self.align(b);
        let horizontal = self.horizontal(b);
        let vertical = self.vertical(b);
        let s = self.stride;
        let places = self
            .orders
            .get(((h - 1) * self.stride + (w - 1)) as usize)
            .map_or(&[][..], Vec::as_slice);
        places.iter().filter_map(move |&p| {
            let i = u32::from(p & 63);
            if p & 64 == 0 {
                (horizontal >> i & 1 == 1).then_some(3u64 << i)
            } else {
                (vertical >> i & 1 == 1).then_some((1u64 << i) | (1u64 << (i + s)))
            }
        })
    }

    /// The cells of `b` with exactly one free neighbour, and those with three or more.
    #[inline]
    pub(super) fn degrees(&self, b: u64) -> (u64, u64) {
        let r = self.horizontal(b);
        let l = b & self.right(b);
        let d = self.vertical(b);
        let u = b & self.down(b);
        let any = l | r | u | d;
        let two = (l & r) | (u & d) | ((l | r) & (u | d));
        let three = (l & r & (u | d)) | (u & d & (l | r));
        (any & !two, three)
    }

    /// `b` with the cells removed that never change a value or a misère outcome (the module
    /// documentation of `cram` proves each rule):
    ///
    /// * **stars**: of the leaves (cells with one free neighbour) hanging on one cell, all but
    ///   one;
    /// * **blocked cells**: a cell that is not a leaf, has no leaf next to it, and whose every
    ///   neighbour has a leaf (an isolated cell is one of them).
    ///
    /// Removing cells can make new leaves, so the rules run until nothing changes.
    pub(super) fn reduce(&self, mut b: u64) -> u64 {
        loop {
            let (leaves, _) = self.degrees(b);
            // The leaves by the side their neighbour is on; a leaf whose neighbour already
            // keeps a leaf of an earlier side, or of the same side, goes.
            let mut kept_centres = 0u64;
            let mut drop = 0u64;
            // Neighbour below: the leaf is the upper cell.
            let below = leaves & self.up(b);
            kept_centres |= self.down(below);
            // Neighbour to the right.
            let right = leaves & self.left(b);
            let centres = self.right(right);
            drop |= self.left(centres & kept_centres);
            kept_centres |= centres;
            // Neighbour above.
            let above = leaves & self.down(b);
            let centres = self.up(above);
            drop |= self.down(centres & kept_centres);
            kept_centres |= centres;
            // Neighbour to the left.
            let left = leaves & self.right(b);
            let centres = self.left(left);
            drop |= self.right(centres & kept_centres);
            // Cells next to a leaf are the centres; a cell that is neither, and has no
            // neighbour outside the centres, is blocked.
            let centres = self.neighbours(leaves) & b;
            let blocked = b & !leaves & !centres & !self.neighbours(b & !centres);
            let next = b & !drop & !blocked;
            if next == b {
                return b;
            }
            b = next;
        }
    }

    /// The left cells of the horizontal links that a region may drop: in every 2 × 2 block
    /// whose top left cell has its left and upper neighbours blocked and whose bottom right
    /// cell has its right and lower neighbours blocked (or the mirror image of that), both
    /// horizontal links of the block. The module documentation of `cram` proves that a
    /// region without them has the same value, so they matter only for splitting regions.
    #[inline]
    pub(super) fn cuts(&self, b: u64) -> u64 {
        let (r, l, d, u) = (self.right(b), self.left(b), self.down(b), self.up(b));
        // Top-left corners with the block to their right and below, whose bottom right cell
        // is a bottom-right corner; and the mirror image.
        let tl = b & !r & !d;
        let br = b & !l & !u;
        let corners = tl & l & u & self.up(self.left(br));
        let tr = b & !l & !d;
        let bl = b & !r & !u;
        let mirrored = tr & r & u & self.up(self.right(bl));
        corners | self.down(corners) | self.left(mirrored) | self.left(self.down(mirrored))
    }

    /// The connected component of `b` that holds the lowest cell of `b` (non-empty), with the
    /// horizontal links whose left cells are in `cut` dropped.
    #[inline]
    pub(super) fn lowest_component(&self, b: u64, cut: u64) -> u64 {
        let mut c = b & b.wrapping_neg();
        loop {
            let next =
                (c | self.right(c & !cut) | (self.left(c) & !cut) | self.up(c) | self.down(c)) & b;
            if next == c {
                return c;
            }
            c = next;
        }
    }

    /// The columns `b` occupies, as the bits of one row.
    #[inline]
    fn columns(&self, b: u64) -> u64 {
        if self.stride == 8 {
            let mut c = b | b >> 32;
            c |= c >> 16;
            c |= c >> 8;
            c & 0xff
        } else {
            let row = full_mask(self.stride);
            let mut c = 0;
            let mut x = b;
            while x != 0 {
                c |= x & row;
                x >>= self.stride;
            }
            c
        }
    }

    /// `b` (non-empty) moved to the top left corner, with the height and width of its box.
    #[inline]
    pub(super) fn align(&self, b: u64) -> (u64, u32, u32) {
        let b = b >> (b.trailing_zeros() / self.stride * self.stride);
        let cols = self.columns(b);
        let cmin = cols.trailing_zeros();
        let b = b >> cmin;
        let w = 64 - cols.leading_zeros() - cmin;
        let h = (63 - b.leading_zeros()) / self.stride + 1;
        (b, h, w)
    }

    /// The half turn of an aligned `h × w` region.
    #[inline]
    fn half_turn(&self, b: u64, h: u32, w: u32) -> u64 {
        b.reverse_bits() >> (64 - ((h - 1) * self.stride + w))
    }

    /// The row flip of an aligned region of `h` rows.
    #[inline]
    fn flip_rows(&self, b: u64, h: u32) -> u64 {
        if self.stride == 8 {
            return b.swap_bytes() >> (8 * (8 - h));
        }
        let row = full_mask(self.stride);
        let mut out = 0;
        for r in 0..h {
            out |= ((b >> (r * self.stride)) & row) << ((h - 1 - r) * self.stride);
        }
        out
    }

    /// The transpose of an aligned `h × w` region, or `None` when it does not fit the layout.
    #[inline]
    fn transpose(&self, b: u64, h: u32, w: u32) -> Option<u64> {
        if self.stride == 8 {
            return Some(transpose8(b));
        }
        if w > self.rows {
            return None;
        }
        let row = full_mask(w);
        let mut out = 0;
        for r in 0..h {
            let cells = ((b >> (r * self.stride)) & row) as usize;
            out |= self.spread.get(cells).copied().unwrap_or(0) << r;
        }
        Some(out)
    }

    /// The least of the four images of an aligned `h × w` region under the row flip, the
    /// column flip and the half turn; and whether the half turn leaves it unchanged.
    #[inline]
    fn least_of_four(&self, b: u64, h: u32, w: u32) -> (u64, bool) {
        let turned = self.half_turn(b, h, w);
        let flipped = self.flip_rows(b, h);
        let both = self.flip_rows(turned, h);
        (b.min(turned).min(flipped).min(both), turned == b)
    }

    /// The key of a region (non-empty), with symmetry (`symmetric`) or only aligned.
    pub(super) fn canonical(&self, b: u64, symmetric: bool) -> Canonical {
        let (b, h, w) = self.align(b);
        let (mut key, turned_same) = if symmetric {
            self.least_of_four(b, h, w)
        } else {
            (b, self.half_turn(b, h, w) == b)
        };
        let mut mirror_zero = turned_same && self.centre_is_blocked(b, h, w);
        let transposed = if symmetric || h == w {
            self.transpose(b, h, w)
        } else {
            None
        };
        if let Some(t) = transposed {
            if symmetric {
                key = key.min(self.least_of_four(t, w, h).0);
            }
            if h == w && !mirror_zero {
                mirror_zero = self.diagonal_zero(b, t, h);
            }
        }
        Canonical { key, mirror_zero }
    }

    /// Whether an aligned `n × n` region `b` (with transpose `t`) is its own image by the
    /// reflection in a diagonal of its box, with every cell of that diagonal blocked. Then no
    /// domino meets its image (its two cells would be each other's images, at an even distance,
    /// or one would be on the diagonal), so the second player copies every move: value 0.
    fn diagonal_zero(&self, b: u64, t: u64, n: u32) -> bool {
        let cell = |r: u32, c: u32| 1u64 << (r * self.stride + c);
        let main = (0..n).fold(0, |a, i| a | cell(i, i));
        let anti = (0..n).fold(0, |a, i| a | cell(i, n - 1 - i));
        (t == b && b & main == 0) || (self.half_turn(t, n, n) == b && b & anti == 0)
    }

    /// Whether the cells of an aligned `h × w` box that are their own image by the half turn,
    /// or next to it, are blocked in `b`. Such cells are only at the centre: the centre cell
    /// when both sides are odd, the two cells on either side of the centre when one is.
    fn centre_is_blocked(&self, b: u64, h: u32, w: u32) -> bool {
        let cell = |r: u32, c: u32| 1u64 << (r * self.stride + c);
        let centre = match (h % 2, w % 2) {
            (0, 0) => 0,
            (1, 1) => cell(h / 2, w / 2),
            (1, 0) => cell(h / 2, w / 2 - 1) | cell(h / 2, w / 2),
            _ => cell(h / 2 - 1, w / 2) | cell(h / 2, w / 2),
        };
        b & centre == 0
    }
}

/// The domino places of an `h × w` box in stride `s`, nearest its centre first.
fn centre_order(s: u32, h: u32, w: u32) -> Vec<u8> {
    // Twice the distance of a cell from the centre, in rows plus columns.
    let dist = |i: u32| (2 * (i / s)).abs_diff(h - 1) + (2 * (i % s)).abs_diff(w - 1);
    let mut places: Vec<(u32, u8)> = Vec::new();
    for r in 0..h {
        for c in 0..w {
            let i = r * s + c;
            if c + 1 < w {
                places.push((dist(i) + dist(i + 1), i as u8));
            }
            if r + 1 < h && i + s < 64 {
                places.push((dist(i) + dist(i + s), i as u8 | 64));
            }
        }
    }
    places.sort_unstable();
    places.into_iter().map(|(_, p)| p).collect()
}

/// Transposes an 8 × 8 bit matrix, bit `8r + c` to bit `8c + r`.
#[inline]
pub(super) fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^= t ^ (t << 28);
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells of a picture, rows separated by `/`, `#` a cell, in stride `s`.
    fn cells(s: u32, picture: &str) -> u64 {
        let mut b = 0;
        for (r, row) in picture.split('/').enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '#' {
                    b |= 1u64 << (r as u32 * s + c as u32);
                }
            }
        }
        b
    }

    /// All images of a picture under the eight symmetries, by rewriting coordinates.
    fn images(picture: &str) -> Vec<String> {
        let rows: Vec<Vec<bool>> = picture
            .split('/')
            .map(|r| r.chars().map(|c| c == '#').collect())
            .collect();
        let h = rows.len();
        let w = rows.iter().map(Vec::len).max().unwrap_or(0);
        let at = |r: usize, c: usize| rows[r].get(c).copied().unwrap_or(false);
        let mut out = Vec::new();
        for t in 0..8 {
            let (hh, ww) = if t & 4 == 0 { (h, w) } else { (w, h) };
            let mut s = Vec::new();
            for r in 0..hh {
                let mut line = String::new();
                for c in 0..ww {
                    let (mut y, mut x) = if t & 4 == 0 { (r, c) } else { (c, r) };
                    if t & 1 == 1 {
                        y = h - 1 - y;
                    }
                    if t & 2 == 2 {
                        x = w - 1 - x;
                    }
                    line.push(if at(y, x) { '#' } else { '.' });
                }
                s.push(line);
            }
            out.push(s.join("/"));
        }
        out
    }

    #[test]
    fn images_share_one_key() {
        for s in [8, 9, 11, 16] {
            let g = Grid::new(s);
            for p in ["##./.##/..#", "#", "###/#..", "##../.###/...#", "#.#/###"] {
                let keys: Vec<u64> = images(p)
                    .iter()
                    .filter(|q| q.split('/').count() as u32 <= g.rows)
                    .map(|q| {
                        let shift = if (q.split('/').count() as u32) < g.rows {
                            s + 1
                        } else {
                            1
                        };
                        g.canonical(cells(s, q) << shift, true).key
                    })
                    .collect();
                assert!(keys.windows(2).all(|k| k[0] == k[1]), "{s} {p} {keys:?}");
            }
        }
    }

    #[test]
    fn different_shapes_have_different_keys() {
        let g = Grid::new(8);
        let a = g.canonical(cells(8, "###/#.."), true).key;
        let b = g.canonical(cells(8, "###/.#."), true).key;
        assert_ne!(a, b);
    }

    #[test]
    fn the_half_turn_strategy_needs_a_free_centre_blocked() {
        let g = Grid::new(8);
        assert!(g.canonical(cells(8, "####/####"), true).mirror_zero);
        assert!(!g.canonical(cells(8, "###/###"), true).mirror_zero);
        assert!(g.canonical(cells(8, "###/#.#/###"), true).mirror_zero);
        assert!(!g.canonical(cells(8, "###/###/###"), true).mirror_zero);
        // The reflection in a diagonal, with the diagonal blocked.
        assert!(g.canonical(cells(8, ".##/#.#/##."), true).mirror_zero);
        assert!(
            g.canonical(cells(8, ".###/#.##/##.#/###."), true)
                .mirror_zero
        );
        assert!(g.canonical(cells(8, "##./#.#/.##"), true).mirror_zero);
        assert!(!g.canonical(cells(8, "###/#.#/##."), true).mirror_zero);
    }

    #[test]
    fn reductions_keep_one_leaf_per_centre_and_drop_blocked_cells() {
        let g = Grid::new(8);
        // A plus sign: four leaves on one centre, three go.
        let plus = cells(8, ".#./###/.#.");
        assert_eq!(g.reduce(plus).count_ones(), 2);
        // A path of five: the middle cell's neighbours both carry leaves.
        let path = cells(8, "#####");
        assert_eq!(g.reduce(path), cells(8, "##.##"));
        // A 2 × 2 square has no leaf and stays.
        let square = cells(8, "##/##");
        assert_eq!(g.reduce(square), square);
        assert_eq!(g.reduce(cells(8, "#.#")), 0);
    }
}
