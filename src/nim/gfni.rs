//! The vector path: a 64-bit nim-product in 21 AVX-512 instructions (five of them load
//! constants), with no change of basis and no table bigger than five 64-byte vectors.
//!
//! # The idea
//!
//! A nimber below `2^64` is eight bytes, and each byte is a coordinate over the subfield
//! `GF(2^8)` of nimbers below 256: byte `S` multiplies the basis element `e_S = 2^(8S)`,
//! which is the nim-product of the Fermat 2-powers `F_0 = 2^8`, `F_1 = 2^16`, `F_2 = 2^32`
//! picked out by the bits of `S`. The tower rule `F² = F ⊕ h` (with `h = F/2`) gives, for
//! `x = x1 F ⊕ x0` and `y = y1 F ⊕ y0`,
//!
//! ```text
//! x ⊗ y = p0 ⊗ (1 ⊕ F)  ⊕  p1 ⊗ h  ⊕  p2 ⊗ F,
//!     p0 = x0 y0,  p1 = x1 y1,  p2 = (x0 ⊕ x1)(y0 ⊕ y1)          (Karatsuba)
//! ```
//!
//! Applied at all three levels this writes the product as
//!
//! ```text
//! a ⊗ b = ⊕_v  (A_v ⊗ B_v) · E_v          for v in {0, 1, 2}³ (27 terms),
//! ```
//!
//! where `A_v` is the exclusive or of a fixed set of bytes of `a` (one byte, two, four or
//! all eight), likewise `B_v`, and `E_v` is a fixed 64-bit nimber: the product of
//! `1 ⊕ F_m`, `h_m` or `F_m` over the three levels. So the whole product is 27 byte
//! products in `GF(2^8)` and some fixed `GF(2^8)`-linear bookkeeping. `E_v` has 67
//! non-zero bytes in all, but only 39 distinct pairs `(v, c)` of a term and a byte value
//! `c` of `E_v`, and those fall into 8 groups of at most 8 pairs with one `c` per group:
//! exactly one 64-byte vector, one group per 64-bit lane.
//!
//! # The instructions
//!
//! GFNI has two byte operations. `GF2P8MULB` multiplies bytes in `GF(2^8)`, but in the AES
//! representation `GF(2)[x]/(x^8 + x^4 + x^3 + x + 1)`, not the nimber one; the two are
//! isomorphic through an 8×8 bit matrix `Φ` found at start-up (a nimber root of the AES
//! polynomial). `GF2P8AFFINEQB` multiplies every byte of a lane by the lane's 8×8 bit
//! matrix. With a *data* word as the matrix and constant bytes as the vectors, it does the
//! two things the bookkeeping needs inside a lane: transpose a word into bit planes while
//! applying any linear map to each byte, and take the exclusive or of any subsets of a
//! word's bytes. The product is then:
//!
//! 1. broadcast `a` and `b` to all eight lanes;
//! 2. bit planes of `Φ(c_l ⊗ a_S)` in lane `l` (the group's constant `c_l` is folded in
//!    here), and of `Φ(b_S)`;
//! 3. subset sums: slot `j` of lane `l` becomes `Φ(c_l ⊗ A_v)` and `Φ(B_v)` for its term `v`;
//! 4. one `GF2P8MULB`: slot `j` holds `Φ(c_l ⊗ A_v ⊗ B_v)`;
//! 5. bit planes of `Φ⁻¹` of the slots, then subset sums giving, in byte `U` of lane `l`,
//!    the lane's share of output byte `U`;
//! 6. the exclusive or of the eight lanes is the product.
//!
//! All constants (five vectors of 64 bytes) are derived at start-up from the log/exp
//! tables of module `small`; `Gfni::mul64_model` replays the same steps in plain Rust, so
//! the constants are tested on every machine, and the instructions are tested against the
//! tables wherever the CPU has them.
//!
//! # Safety
//!
//! The instructions are emitted by inline assembly, which needs no `#[target_feature]`
//! and therefore inlines into callers; it touches only `zmm16`–`zmm20`, which also keeps
//! the upper halves of `ymm0`–`ymm15` clean (no `vzeroupper` needed). A [`Gfni`] is only
//! built after `avx512f`, `avx512vl` and `gfni` were detected at run time, so holding one is
//! the proof that the instructions exist.

#![allow(unsafe_code)]

use std::sync::OnceLock;

use super::small::{engine_once, karatsuba128, tables, Tables};

/// The five constant vectors, in the order the assembly reads them.
#[repr(C, align(64))]
pub(crate) struct Gfni {
    /// Lane `l`, byte `s`: row `7 - s` of the bit matrix of `x ↦ Φ(c_l ⊗ x)`.
    planes_a: [u8; 64],
    /// Every lane, byte `s`: row `7 - s` of `Φ`.
    planes_b: [u8; 64],
    /// Lane `l`, byte `j`: the bytes of the operand summed into slot `j` (bit `7 - S` for
    /// byte `S`).
    slots: [u8; 64],
    /// Every lane, byte `s`: row `7 - s` of `Φ⁻¹`.
    planes_out: [u8; 64],
    /// Lane `l`, byte `U`: the slots of lane `l` that add into output byte `U` (bit `7 - j`
    /// for slot `j`).
    outputs: [u8; 64],
}

/// The engine, if this CPU has AVX-512 and GFNI; built on first use.
#[inline]
pub(crate) fn engine() -> Option<&'static Gfni> {
    static G: OnceLock<Option<Gfni>> = OnceLock::new();
    engine_once(&G, has_gfni, || Gfni::build(tables()))
}

#[cfg(target_arch = "x86_64")]
fn has_gfni() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("gfni")
}

#[cfg(not(target_arch = "x86_64"))]
fn has_gfni() -> bool {
    false
}

/// The AES polynomial `x^8 + x^4 + x^3 + x + 1`, the modulus of `GF2P8MULB`.
const AES: u16 = 0x11b;

#[cfg(any(test, not(target_arch = "x86_64")))]
/// Product in the AES representation of `GF(2^8)`.
fn aes_mul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0u8;
    while b != 0 {
        if b & 1 == 1 {
            r ^= a;
        }
        let carry = a & 0x80 != 0;
        a <<= 1;
        if carry {
            a ^= (AES & 0xff) as u8;
        }
        b >>= 1;
    }
    r
}

/// The rows of the bit matrix of a linear map of bytes: bit `s` of `f(x)` is the parity of
/// `x & rows[s]`.
fn rows(f: impl Fn(u8) -> u8) -> [u8; 8] {
    let mut out = [0u8; 8];
    for (s, row) in out.iter_mut().enumerate() {
        for k in 0..8 {
            *row |= ((f(1 << k) >> s) & 1) << k;
        }
    }
    out
}

#[cfg(any(test, not(target_arch = "x86_64")))]
/// One byte of `GF2P8AFFINEQB` with a zero constant: bit `b` of the result is the parity of
/// `x` and byte `7 - b` of the matrix word.
fn affine_byte(matrix: u64, x: u8) -> u8 {
    let mut r = 0u8;
    for b in 0..8 {
        let row = (matrix >> (8 * (7 - b))) as u8;
        r |= (((row & x).count_ones() & 1) as u8) << b;
    }
    r
}

#[cfg(any(test, not(target_arch = "x86_64")))]
/// `GF2P8AFFINEQB` on a whole vector: lane `l`'s matrix is `m[l]`.
fn affine(x: &[u8; 64], m: &[u64; 8]) -> [u8; 64] {
    std::array::from_fn(|i| affine_byte(m[i / 8], x[i]))
}

#[cfg(any(test, not(target_arch = "x86_64")))]
/// A vector as eight little-endian words.
fn words(v: &[u8; 64]) -> [u64; 8] {
    std::array::from_fn(|l| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&v[8 * l..8 * l + 8]);
        u64::from_le_bytes(w)
    })
}

/// A Karatsuba term: its digits `(v2, v1, v0)` and the bytes of its nimber `E_v`.
type Term = ([u8; 3], [u8; 8]);

/// The three levels of the tower over `GF(2^8)`: the Fermat 2-power `F_m` and its half.
const LEVELS: [(u64, u64); 3] = [(1 << 8, 1 << 7), (1 << 16, 1 << 15), (1 << 32, 1 << 31)];

impl Gfni {
    /// Derives the constants; `None` if something does not fit (which would be a bug, and the
    /// tests say it does not happen).
    fn build(t: &Tables) -> Option<Gfni> {
        let nim = |a: u64, b: u64| t.mul64_log(a, b);
        // Φ: nimber bytes → AES bytes, from a nimber root of the AES polynomial.
        let pow = |x: u64, n: u32| (0..n).fold(1u64, |acc, _| nim(acc, x));
        let root = (2u64..256).find(|&r| {
            (0..=8)
                .filter(|i| (AES >> i) & 1 == 1)
                .fold(0, |s, i| s ^ pow(r, i))
                == 0
        })?;
        let mut to_nim = [0u8; 256];
        let mut to_aes = [0u8; 256];
        for v in 0..256u32 {
            let n = (0..8)
                .filter(|i| (v >> i) & 1 == 1)
                .fold(0u64, |s, i| s ^ pow(root, i));
            to_nim[v as usize] = n as u8;
            to_aes[n as usize] = v as u8;
        }
        // The 27 Karatsuba terms: digits (v2, v1, v0), digit 0 = low half, 1 = high half,
        // 2 = their sum; E_v is the product of the per-level factors.
        let mut groups: Vec<(u8, Vec<Term>)> = Vec::new();
        for code in 0..27u8 {
            let v = [code / 9, code / 3 % 3, code % 3];
            let e = (0..3)
                .fold(1u64, |e, m| {
                    let (f, h) = LEVELS[2 - m];
                    nim(e, [f ^ 1, h, f][v[m] as usize])
                })
                .to_le_bytes();
            // One slot per distinct non-zero byte value c of E_v, in a group (lane) of c.
            let mut values: Vec<u8> = e.iter().copied().filter(|&c| c != 0).collect();
            values.sort_unstable();
            values.dedup();
            for c in values {
                match groups.iter_mut().find(|(gc, vs)| *gc == c && vs.len() < 8) {
                    Some((_, vs)) => vs.push((v, e)),
                    None => groups.push((c, vec![(v, e)])),
                }
            }
        }
        if groups.len() > 8 {
            return None;
        }
        let phi = rows(|x| to_aes[x as usize]);
        let psi = rows(|x| to_nim[x as usize]);
        let mut g = Gfni {
            planes_a: [0; 64],
            planes_b: [0; 64],
            slots: [0; 64],
            planes_out: [0; 64],
            outputs: [0; 64],
        };
        for lane in 0..8 {
            let (c, vs) = groups
                .get(lane)
                .map_or((1, &[][..]), |(c, vs)| (*c, &vs[..]));
            let scaled = rows(|x| to_aes[nim(c as u64, x as u64) as usize]);
            for s in 0..8 {
                g.planes_a[8 * lane + s] = scaled[7 - s];
                g.planes_b[8 * lane + s] = phi[7 - s];
                g.planes_out[8 * lane + s] = psi[7 - s];
            }
            for (j, (v, e)) in vs.iter().enumerate() {
                // Byte S of the operand is in the sum when each of its three level bits
                // matches the digit (or the digit is 2, "both halves").
                let mut mask = 0u8;
                for s in 0..8u8 {
                    let bits = [(s >> 2) & 1, (s >> 1) & 1, s & 1];
                    if (0..3).all(|m| v[m] == 2 || v[m] == bits[m]) {
                        mask |= 1 << (7 - s);
                    }
                }
                g.slots[8 * lane + j] = mask;
                for (u, &eu) in e.iter().enumerate() {
                    if eu == c {
                        g.outputs[8 * lane + u] |= 1 << (7 - j);
                    }
                }
            }
        }
        Some(g)
    }

    /// The six steps in plain Rust, instruction by instruction: the oracle for the
    /// constants on any machine.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    pub(crate) fn mul64_model(&self, a: u64, b: u64) -> u64 {
        let ta = affine(&self.planes_a, &[a; 8]);
        let tb = affine(&self.planes_b, &[b; 8]);
        let ka = affine(&self.slots, &words(&ta));
        let kb = affine(&self.slots, &words(&tb));
        let p: [u8; 64] = std::array::from_fn(|i| aes_mul(ka[i], kb[i]));
        let t = affine(&self.planes_out, &words(&p));
        let y = affine(&self.outputs, &words(&t));
        words(&y).iter().fold(0, |z, w| z ^ w)
    }

    /// `a ⊗ b` for 64-bit nimbers.
    #[inline(always)]
    pub(crate) fn mul64(&self, a: u64, b: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            let out: u64;
            // SAFETY: a `Gfni` exists only if AVX-512F, AVX-512VL and GFNI were detected (see
            // `engine`), which covers every instruction below. The five reads are the five
            // 64-byte fields of `self` (`repr(C)`, so at offsets 0, 64, ..., 256); only the
            // declared registers are written.
            unsafe {
                std::arch::asm!(
                    "vpbroadcastq zmm16, {a}",
                    "vpbroadcastq zmm17, {b}",
                    "vmovdqu64 zmm18, zmmword ptr [{c}]",
                    "vmovdqu64 zmm19, zmmword ptr [{c} + 64]",
                    "vmovdqu64 zmm20, zmmword ptr [{c} + 128]",
                    // bit planes of Φ(c_l ⊗ a_S) and of Φ(b_S)
                    "vgf2p8affineqb zmm16, zmm18, zmm16, 0",
                    "vgf2p8affineqb zmm17, zmm19, zmm17, 0",
                    // subset sums into the slots
                    "vgf2p8affineqb zmm16, zmm20, zmm16, 0",
                    "vgf2p8affineqb zmm17, zmm20, zmm17, 0",
                    "vgf2p8mulb zmm16, zmm16, zmm17",
                    "vmovdqu64 zmm18, zmmword ptr [{c} + 192]",
                    "vmovdqu64 zmm19, zmmword ptr [{c} + 256]",
                    // bit planes of Φ⁻¹ of the slots, then each lane's share of each byte
                    "vgf2p8affineqb zmm16, zmm18, zmm16, 0",
                    "vgf2p8affineqb zmm16, zmm19, zmm16, 0",
                    // exclusive or of the eight lanes
                    "vextracti64x4 ymm17, zmm16, 1",
                    "vpxorq ymm16, ymm16, ymm17",
                    "vextracti32x4 xmm17, ymm16, 1",
                    "vpxorq xmm16, xmm16, xmm17",
                    "vpshufd xmm17, xmm16, 0x4e",
                    "vpxorq xmm16, xmm16, xmm17",
                    "vmovq {out}, xmm16",
                    a = in(reg) a,
                    b = in(reg) b,
                    c = in(reg) self as *const Gfni,
                    out = lateout(reg) out,
                    out("zmm16") _,
                    out("zmm17") _,
                    out("zmm18") _,
                    out("zmm19") _,
                    out("zmm20") _,
                    options(pure, readonly, nostack),
                );
            }
            out
        }
        // No engine is built off x86-64 (see `has_gfni`); this keeps the method total.
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.mul64_model(a, b)
        }
    }

    /// `a ⊗ b` for 128-bit nimbers: Karatsuba over 64-bit halves.
    #[inline]
    pub(crate) fn mul128(&self, a: u128, b: u128) -> u128 {
        karatsuba128(a, b, |x, y| self.mul64(x, y), |x| self.mul64(x, 1 << 63))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nim::xorshift;

    #[test]
    fn the_constants_fit_in_one_vector() {
        assert!(Gfni::build(tables()).is_some());
    }

    #[test]
    fn the_model_agrees_with_the_log_tables() {
        let t = tables();
        let g = Gfni::build(t).expect("constants");
        for (a, b) in xorshift(0x2545_f491_4f6c_dd1d).zip(xorshift(99)).take(3000) {
            assert_eq!(g.mul64_model(a, b), t.mul64_log(a, b), "{a} ⊗ {b}");
        }
        assert_eq!(g.mul64_model(100, 200), 62);
        assert_eq!(g.mul64_model(u64::MAX, 0), 0);
    }

    #[test]
    fn the_instructions_agree_with_the_model_and_the_tables() {
        assert_eq!(engine().is_some(), has_gfni());
        let Some(g) = engine() else { return };
        let t = tables();
        for (a, b) in xorshift(7)
            .zip(xorshift(0x9e37_79b9_7f4a_7c15))
            .take(100_000)
        {
            assert_eq!(g.mul64(a, b), t.mul64_log(a, b), "{a} ⊗ {b}");
        }
        for (a, b) in xorshift(3).zip(xorshift(5)).take(500) {
            assert_eq!(g.mul64(a, b), g.mul64_model(a, b));
            let (x, y) = (
                ((a as u128) << 64) | b as u128,
                ((b as u128) << 64) | a as u128,
            );
            assert_eq!(g.mul128(x, y), t.mul128_log(x, y), "{x} ⊗ {y}");
        }
        for a in [0u64, 1, 2, 255, 256, 1 << 63, u64::MAX] {
            for b in [0u64, 1, 3, 1 << 32, u64::MAX] {
                assert_eq!(g.mul64(a, b), t.mul64_log(a, b), "{a} ⊗ {b}");
            }
        }
    }
}
