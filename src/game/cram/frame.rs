//! Bitboards of one frame shape: the masks of horizontal and vertical domino places, flood
//! fill into connected regions, cropping, and the eight symmetries of the square with the
//! canonical key of a region (the least of its images).

/// The mask of the first `cells` bits.
pub(super) fn full_mask(cells: u32) -> u64 {
    if cells >= 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    }
}

#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) h: u32,
    pub(super) w: u32,
    pub(super) full: u64,
    /// Cells not in the last column (may be the left cell of a horizontal domino).
    pub(super) not_last: u64,
    /// Cells not in the first column.
    pub(super) not_first: u64,
}

impl Frame {
    pub(super) fn new(h: u32, w: u32) -> Frame {
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
    pub(super) fn hpairs(&self, b: u64) -> u64 {
        b & (b >> 1) & self.not_last
    }

    #[inline]
    pub(super) fn vpairs(&self, b: u64) -> u64 {
        if self.w >= 64 {
            0
        } else {
            b & (b >> self.w)
        }
    }

    /// Each domino as the two-bit mask it covers.
    pub(super) fn dominoes(&self, b: u64) -> impl Iterator<Item = u64> + '_ {
        let h = self.hpairs(b);
        let v = self.vpairs(b);
        let w = self.w;
        bits(h)
            .map(|i| 3u64 << i)
            .chain(bits(v).map(move |i| (1u64 << i) | (1u64 << (i + w))))
    }

    #[inline]
    pub(super) fn grow(&self, s: u64) -> u64 {
        let w = self.w;
        let up = if w >= 64 { 0 } else { s >> w };
        let down = if w >= 64 { 0 } else { s << w };
        (s | ((s << 1) & self.not_first) | ((s >> 1) & self.not_last) | up | down) & self.full
    }

    /// The connected components of `b`.
    pub(super) fn components(&self, b: u64, out: &mut Vec<u64>) {
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
    pub(super) fn crop(&self, b: u64) -> (u32, u32, u64) {
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

pub(super) fn bits(mut x: u64) -> impl Iterator<Item = u32> {
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
pub(super) fn rot180(h: u32, w: u32, b: u64) -> u64 {
    b.reverse_bits() >> (64 - h * w)
}

pub(super) fn flip_rows(h: u32, w: u32, b: u64) -> u64 {
    let m = full_mask(w);
    let mut out = 0u64;
    for r in 0..h {
        out |= ((b >> (r * w)) & m) << ((h - 1 - r) * w);
    }
    out
}

pub(super) fn transpose(h: u32, w: u32, b: u64) -> u64 {
    let mut out = 0u64;
    for i in bits(b) {
        let (r, c) = (i / w, i % w);
        out |= 1 << (c * h + r);
    }
    out
}

#[inline]
pub(super) fn key(h: u32, w: u32, b: u64) -> u128 {
    (u128::from(h) << 72) | (u128::from(w) << 64) | u128::from(b)
}

/// The least key among the eight images of a cropped region under the symmetries of the
/// square.
///
/// Regions whose box fits in 8 × 8 (all but long thin ones) are keyed in an 8 × 8 layout, bit
/// `8r + c`, where the symmetries are a handful of word operations: reversing the byte order
/// flips the rows, reversing the bits inside each byte flips the columns, and three
/// delta-swaps transpose. Larger boxes use the packed layout and a loop over the cells.
pub(super) fn canonical_key(h: u32, w: u32, b: u64) -> u128 {
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
pub(super) fn embed8(h: u32, w: u32, b: u64) -> u64 {
    let m = full_mask(w);
    let mut x = 0u64;
    for r in 0..h {
        x |= ((b >> (r * w)) & m) << (8 * r);
    }
    x
}

/// The inverse of [`embed8`].
pub(super) fn unembed8(h: u32, w: u32, x: u64) -> u64 {
    let m = full_mask(w);
    let mut b = 0u64;
    for r in 0..h {
        b |= ((x >> (8 * r)) & m) << (r * w);
    }
    b
}

/// Transposes an 8 × 8 bit matrix, bit `8r + c` to bit `8c + r`.
pub(super) fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^= t ^ (t << 28);
    x
}

pub(super) fn canonical_key8(h: u32, w: u32, b: u64) -> u128 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cram::parse_cells;

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
