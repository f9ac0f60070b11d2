//! The fast path: nimbers below `2^64` and `2^128`.
//!
//! On x86-64, module `product` sends 64- and 128-bit products through module `gfni` when the
//! CPU has AVX-512 and GFNI (27 byte products in one vector instruction), else through module
//! `clmul` when it has a carry-less multiplier (a change of basis to `GF(2)[x]/(p)`); the
//! tables here remain the portable path, the oracle for both, and the engine of every other
//! operation (squares, roots, inverses at the 16- and 32-bit levels). This module imports
//! neither of them: they build on its tables.
//!
//! Everything here rests on one table pair, the discrete logarithm and exponential of the
//! field of nimbers below `2^16 = 65536`. That field is `GF(2^16)`, its multiplicative group
//! is cyclic of order 65535, and once a generator `g` is fixed, `x ⊗ y = g^(log x + log y)`:
//! a product of 16-bit nimbers is two table reads and an ordinary addition.
//!
//! Wider products climb the tower of quadratic extensions. With `X = 2^16` (a Fermat
//! 2-power), every 32-bit nimber is `a1 ⊗ X ⊕ a0` with 16-bit `a1`, `a0`, and the Fermat rule
//! `X ⊗ X = X ⊕ X/2` says `X` is a root of `X² + X + h` with `h = X/2 = 2^15`. So
//!
//! ```text
//! (a1 X ⊕ a0) ⊗ (b1 X ⊕ b0) = (a1b1 ⊕ a1b0 ⊕ a0b1) X ⊕ (a0b0 ⊕ a1b1 ⊗ h)
//! ```
//!
//! In the log domain the four 16-bit products are four additions of logarithms, and the
//! factor `h` is one more addition of the constant `log h`. The 64-bit product uses the
//! Karatsuba form of the same identity one level up (three 32-bit products instead of four),
//! and the 128-bit product does it once more over 64-bit halves.
//!
//! Multiplying by the "half" `H_k = 2^(2^k - 1)` of a level recurs so often that it has its
//! own routine (`mulh*`): since `H_k = X ⊗ H_(k-1)` with `X = 2^(2^(k-1))`,
//! `(x1 X ⊕ x0) ⊗ H_k = ((x1 ⊕ x0) ⊗ H') X ⊕ x1 ⊗ H' ⊗ H'`.
//!
//! Zero has no logarithm. Rather than branch, `log 0` is a sentinel larger than any sum of
//! genuine logarithms, and the exponential table reads 0 from there on, so a product with a
//! zero factor comes out 0 without a test. That part of the table is never written, and the
//! allocator hands it out as untouched zero pages.

use std::sync::OnceLock;

/// Order of the multiplicative group of `GF(2^16)`.
const ORDER16: u32 = 65_535;
/// Length of the exponential table: an index is at most two logarithms (possibly the
/// sentinel `log 0 < 2^19`) plus three times `log h < 2^16`, so below `2^20`.
const EXP_LEN: usize = 1 << 20;

/// The log/exp tables of `GF(2^16)` and the logarithm of `h = 2^15`.
pub(crate) struct Tables {
    log: Box<[u32; 1 << 16]>,
    exp: Box<[u16; EXP_LEN]>,
    log_h: u32,
}

/// The 16-bit product by the definition-level recursion on Fermat 2-powers, used only to
/// build the tables (once).
fn slow_mul(a: u32, b: u32, bits: u32) -> u32 {
    if a < 2 || b < 2 {
        return a * b;
    }
    let half = bits / 2;
    let mask = (1u32 << half) - 1;
    let (a1, a0, b1, b0) = (a >> half, a & mask, b >> half, b & mask);
    let c00 = slow_mul(a0, b0, half);
    let c11 = slow_mul(a1, b1, half);
    let cm = slow_mul(a0 ^ a1, b0 ^ b1, half);
    ((cm ^ c00) << half) | (c00 ^ slow_mul(c11, 1 << (half - 1), half))
}

fn slow_pow(mut g: u32, mut e: u32) -> u32 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = slow_mul(r, g, 16);
        }
        g = slow_mul(g, g, 16);
        e >>= 1;
    }
    r
}

fn build() -> Tables {
    // The smallest generator: its powers to 65535/p differ from 1 for every prime p | 65535.
    // Elements below 256 lie in the subfield GF(2^8), so the search starts above it.
    let g = (256u32..65536)
        .find(|&g| {
            [3u32, 5, 17, 257]
                .iter()
                .all(|p| slow_pow(g, ORDER16 / p) != 1)
        })
        .unwrap_or(2);
    // x ↦ x ⊗ g is GF(2)-linear, so it is the exclusive or of the images of x's two bytes:
    // two 256-entry tables replace the slow product in the loop below.
    let mut times_g = [[0u32; 256]; 2];
    for (half, table) in times_g.iter_mut().enumerate() {
        for (v, slot) in table.iter_mut().enumerate() {
            *slot = slow_mul((v as u32) << (8 * half), g, 16);
        }
    }
    let mut log0 = vec![0u32; 1 << 16];
    let mut exp0 = vec![0u32; ORDER16 as usize];
    let mut x = 1u32;
    for i in 0..ORDER16 {
        log0[x as usize] = i;
        exp0[i as usize] = x;
        x = times_g[0][(x & 0xff) as usize] ^ times_g[1][(x >> 8) as usize];
    }
    // Re-choose the generator as g^u (u a unit modulo 65535) to make log h as small as
    // possible: the exponential table is read at sums of two logarithms plus up to three
    // copies of log h, so a small log h keeps the part of the table in use near 256 KiB.
    // With v = u⁻¹ running over the units as u does, log h = j ⊗ v mod 65535 needs no inverse
    // in the scan; the smallest u among the minimisers keeps the choice canonical.
    let n16 = ORDER16 as u64;
    let j = log0[1 << 15] as u64;
    let is_unit = |v: &u64| [3u64, 5, 17, 257].iter().all(|p| !v.is_multiple_of(*p));
    let log_h = (1..n16)
        .filter(is_unit)
        .map(|v| j * v % n16)
        .min()
        .unwrap_or(j);
    let u = (1..n16)
        .filter(is_unit)
        .filter(|v| j * v % n16 == log_h)
        .map(|v| inv_mod(v, n16))
        .min()
        .unwrap_or(1);
    let u_inv = inv_mod(u, n16);
    // Sums of genuine logarithms stay below `zero_log`; any sum with log 0 lands at or above
    // it, where the table is 0.
    let zero_log = 2 * (ORDER16 - 1) + 3 * log_h as u32 + 1;
    // The new logarithm of exp0[i] = g^i is i ⊗ u⁻¹, and the new exponential at n is
    // exp0[n u]: both indices advance by a constant modulo 65535, without a division.
    let mut log = vec![zero_log; 1 << 16];
    let mut l = 0u64;
    for &x in &exp0 {
        log[x as usize] = l as u32;
        l += u_inv;
        if l >= n16 {
            l -= n16;
        }
    }
    let mut exp = vec![0u16; EXP_LEN];
    let mut i = 0u64;
    for e in exp.iter_mut().take(zero_log as usize) {
        *e = exp0[i as usize] as u16;
        i += u;
        if i >= n16 {
            i -= n16;
        }
    }
    let log: Box<[u32; 1 << 16]> = match log.into_boxed_slice().try_into() {
        Ok(b) => b,
        Err(_) => unreachable!("length is 2^16 by construction"),
    };
    let exp: Box<[u16; EXP_LEN]> = match exp.into_boxed_slice().try_into() {
        Ok(b) => b,
        Err(_) => unreachable!("length is EXP_LEN by construction"),
    };
    let log_h = log[1 << 15];
    Tables { log, exp, log_h }
}

/// Inverse of the unit `a` modulo `m` (by Fermat–Euler would need φ(m); the extended
/// Euclidean algorithm does not).
fn inv_mod(a: u64, m: u64) -> u64 {
    // A unit always has an inverse, below `m`.
    mod_inv(a.into(), m.into()).map_or(0, |x| x as u64)
}

/// Inverse of `a` modulo `m` (for coprime `a`, `m`), by the extended Euclidean algorithm.
pub(super) fn mod_inv(a: u128, m: u128) -> Option<u128> {
    if m == 1 {
        return Some(0);
    }
    let (mut r0, mut r1) = (a as i128, m as i128);
    let (mut s0, mut s1) = (1i128, 0i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    if r0 != 1 {
        return None;
    }
    Some(s0.rem_euclid(m as i128) as u128)
}

/// The shared tables, built on first use.
#[inline]
pub(crate) fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build)
}

/// The engine in `cell`, built on first use by `build` if `present` says the CPU has its
/// instructions; `None` for good otherwise. Every fast path is made this way, so that holding
/// one is the proof that its instructions exist.
#[inline]
pub(super) fn engine_once<T>(
    cell: &'static OnceLock<Option<T>>,
    present: fn() -> bool,
    build: impl FnOnce() -> Option<T>,
) -> Option<&'static T> {
    cell.get_or_init(|| if present() { build() } else { None })
        .as_ref()
}

impl Tables {
    #[inline(always)]
    fn lg(&self, x: u32) -> u32 {
        self.log[(x & 0xffff) as usize]
    }
    #[inline(always)]
    fn ex(&self, i: u32) -> u32 {
        self.exp[(i as usize) & (EXP_LEN - 1)] as u32
    }

    /// The logarithm of a nonzero `x < 2^16` to the table's generator (in `0..65535`).
    #[inline]
    pub(crate) fn log16(&self, x: u32) -> u32 {
        self.lg(x)
    }

    /// Product in `GF(2^16)`.
    #[inline(always)]
    pub(crate) fn mul16(&self, a: u32, b: u32) -> u32 {
        self.ex(self.lg(a) + self.lg(b))
    }

    /// `x ⊗ 2^15`.
    #[inline(always)]
    fn mulh16(&self, x: u32) -> u32 {
        self.ex(self.lg(x) + self.log_h)
    }

    /// Product in `GF(2^32)`, schoolbook in the log domain.
    #[inline(always)]
    pub(crate) fn mul32(&self, a: u32, b: u32) -> u32 {
        let (la0, la1) = (self.lg(a), self.lg(a >> 16));
        let (lb0, lb1) = (self.lg(b), self.lg(b >> 16));
        let l11 = la1 + lb1;
        let hi = self.ex(la0 + lb1) ^ self.ex(la1 + lb0) ^ self.ex(l11);
        let lo = self.ex(la0 + lb0) ^ self.ex(l11 + self.log_h);
        (hi << 16) | lo
    }

    /// `x ⊗ 2^31`.
    #[inline(always)]
    fn mulh32(&self, x: u32) -> u32 {
        let (x0, x1) = (x & 0xffff, x >> 16);
        let hi = self.ex(self.lg(x0 ^ x1) + self.log_h);
        let lo = self.ex(self.lg(x1) + 2 * self.log_h);
        (hi << 16) | lo
    }

    /// Product in `GF(2^64)` from the log/exp tables: Karatsuba over 32-bit halves (the
    /// portable path, and the oracle for the carry-less one).
    ///
    /// With `Y = 2^32` and `H = Y/2 = X ⊗ h`, the low half needs `a1b1 ⊗ H`; writing
    /// `a1b1 = p X ⊕ q` gives `a1b1 ⊗ H = (p ⊕ q) h X ⊕ p h²`, and every term of `p` and
    /// `q` is a single exponential, so `a1b1 ⊗ H` comes straight from the logarithms of the
    /// four 16-bit pieces without taking the logarithm of an intermediate result.
    #[inline(always)]
    pub(crate) fn mul64_log(&self, a: u64, b: u64) -> u64 {
        let (a0, a1) = (a as u32, (a >> 32) as u32);
        let (b0, b1) = (b as u32, (b >> 32) as u32);
        let c00 = self.mul32(a0, b0);
        let cm = self.mul32(a0 ^ a1, b0 ^ b1);
        let (l0, l1) = (self.lg(a1), self.lg(a1 >> 16));
        let (m0, m1) = (self.lg(b1), self.lg(b1 >> 16));
        let (lh, l2h) = (self.log_h, 2 * self.log_h);
        let (s01, s10, s11, s00) = (l0 + m1, l1 + m0, l1 + m1, l0 + m0);
        // p = e(s01) ⊕ e(s10) ⊕ e(s11), q = e(s00) ⊕ e(s11 + lh)
        let ph = self.ex(s01 + lh) ^ self.ex(s10 + lh) ^ self.ex(s11 + lh);
        let qh = self.ex(s00 + lh) ^ self.ex(s11 + l2h);
        let phh = self.ex(s01 + l2h) ^ self.ex(s10 + l2h) ^ self.ex(s11 + l2h);
        let c11h = ((ph ^ qh) << 16) | phh;
        (((cm ^ c00) as u64) << 32) | (c00 ^ c11h) as u64
    }

    /// `x ⊗ 2^31 ⊗ 2^31` for `x` in `GF(2^32)`. With `2^31 = X h`,
    /// `(X h)² = X h² ⊕ h³`, so for `x = p X ⊕ q` the product is
    /// `(p h² ⊕ p h³ ⊕ q h²) X ⊕ (p h³ ⊕ q h³)`: five exponentials of the two logarithms.
    #[inline(always)]
    fn mulhh32(&self, x: u32) -> u32 {
        let (lp, lq) = (self.lg(x >> 16), self.lg(x));
        let (l2, l3) = (2 * self.log_h, 3 * self.log_h);
        let p3 = self.ex(lp + l3);
        let hi = self.ex(lp + l2) ^ p3 ^ self.ex(lq + l2);
        let lo = p3 ^ self.ex(lq + l3);
        (hi << 16) | lo
    }

    /// `x ⊗ 2^63`.
    #[inline]
    pub(crate) fn mulh64(&self, x: u64) -> u64 {
        let (x0, x1) = (x as u32, (x >> 32) as u32);
        let hi = self.mulh32(x0 ^ x1);
        let lo = self.mulhh32(x1);
        ((hi as u64) << 32) | lo as u64
    }

    /// Product in `GF(2^128)` from the log/exp tables: Karatsuba over 64-bit halves.
    #[inline]
    pub(crate) fn mul128_log(&self, a: u128, b: u128) -> u128 {
        karatsuba128(a, b, |x, y| self.mul64_log(x, y), |x| self.mulh64(x))
    }

    /// `x ⊗ 2^127`.
    #[inline]
    pub(crate) fn mulh128(&self, x: u128) -> u128 {
        let (x0, x1) = (x as u64, (x >> 64) as u64);
        let hi = self.mulh64(x0 ^ x1);
        let lo = self.mulh64(self.mulh64(x1));
        ((hi as u128) << 64) | lo as u128
    }

    // Squaring is GF(2)-linear (the Frobenius map): (x1 X ⊕ x0)² = x1² X ⊕ x0² ⊕ x1² h.

    #[inline]
    fn sq16(&self, x: u32) -> u32 {
        self.ex(2 * self.lg(x))
    }

    #[inline]
    fn sq32(&self, x: u32) -> u32 {
        let (x0, x1) = (x & 0xffff, x >> 16);
        let l1 = 2 * self.lg(x1);
        (self.ex(l1) << 16) | (self.sq16(x0) ^ self.ex(l1 + self.log_h))
    }

    /// Square in `GF(2^64)`.
    #[inline]
    pub(crate) fn sq64(&self, x: u64) -> u64 {
        let (x0, x1) = (x as u32, (x >> 32) as u32);
        let s1 = self.sq32(x1);
        ((s1 as u64) << 32) | (self.sq32(x0) ^ self.mulh32(s1)) as u64
    }

    /// Square in `GF(2^128)`.
    #[inline]
    pub(crate) fn sq128(&self, x: u128) -> u128 {
        let (x0, x1) = (x as u64, (x >> 64) as u64);
        let s1 = self.sq64(x1);
        ((s1 as u128) << 64) | (self.sq64(x0) ^ self.mulh64(s1)) as u128
    }

    // The square root undoes the square level by level: if y = y1 X ⊕ y0 squares to
    // x1 X ⊕ x0, then y1² = x1 and y0² = x0 ⊕ x1 h.

    fn sqrt16(&self, x: u32) -> u32 {
        if x & 0xffff == 0 {
            return 0;
        }
        let l = self.lg(x);
        // 2 is invertible modulo the odd order 65535: halve l, or l + 65535.
        let half = if l.is_multiple_of(2) {
            l / 2
        } else {
            (l + ORDER16) / 2
        };
        self.ex(half)
    }

    fn sqrt32(&self, x: u32) -> u32 {
        let (x0, x1) = (x & 0xffff, x >> 16);
        (self.sqrt16(x1) << 16) | self.sqrt16(x0 ^ self.mulh16(x1))
    }

    /// Square root in `GF(2^64)`.
    pub(crate) fn sqrt64(&self, x: u64) -> u64 {
        let (x0, x1) = (x as u32, (x >> 32) as u32);
        ((self.sqrt32(x1) as u64) << 32) | self.sqrt32(x0 ^ self.mulh32(x1)) as u64
    }

    /// Square root in `GF(2^128)`.
    pub(crate) fn sqrt128(&self, x: u128) -> u128 {
        let (x0, x1) = (x as u64, (x >> 64) as u64);
        ((self.sqrt64(x1) as u128) << 64) | self.sqrt64(x0 ^ self.mulh64(x1)) as u128
    }

    // Inverse through the norm. The conjugate of X over the half-size field is X ⊕ 1 (the
    // other root of X² + X + h), so x = x1 X ⊕ x0 has conjugate x1 X ⊕ (x0 ⊕ x1) and norm
    // N = x ⊗ conj(x) = x0 ⊗ (x0 ⊕ x1) ⊕ x1² ⊗ h, an element of the half-size field.
    // Then 1/x = conj(x) ⊗ (1/N): one inverse a level down and three products.

    fn inv16(&self, x: u32) -> u32 {
        let l = self.lg(x);
        self.ex(if l == 0 { 0 } else { ORDER16 - l })
    }

    fn inv32(&self, x: u32) -> u32 {
        let (x0, x1) = (x & 0xffff, x >> 16);
        let n = self.mul16(x0, x0 ^ x1) ^ self.ex(2 * self.lg(x1) + self.log_h);
        let ni = self.inv16(n);
        (self.mul16(x1, ni) << 16) | self.mul16(x0 ^ x1, ni)
    }

    /// Inverse in `GF(2^64)`; the caller rules out 0.
    pub(crate) fn inv64(&self, x: u64) -> u64 {
        let (x0, x1) = (x as u32, (x >> 32) as u32);
        let n = self.mul32(x0, x0 ^ x1) ^ self.mulh32(self.sq32(x1));
        let ni = self.inv32(n);
        ((self.mul32(x1, ni) as u64) << 32) | self.mul32(x0 ^ x1, ni) as u64
    }
}

/// A 128-bit product from a 64-bit one: with `X = 2^64`, `X ⊗ X = X ⊕ H` for `H = 2^63`, so
/// three 64-bit products and one by `H` (`mulh`) suffice.
#[inline(always)]
pub(crate) fn karatsuba128(
    a: u128,
    b: u128,
    mul: impl Fn(u64, u64) -> u64,
    mulh: impl Fn(u64) -> u64,
) -> u128 {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let c00 = mul(a0, b0);
    let c11 = mul(a1, b1);
    let cm = mul(a0 ^ a1, b0 ^ b1);
    (((cm ^ c00) as u128) << 64) | (c00 ^ mulh(c11)) as u128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_the_slow_recursion_on_16_bits() {
        let t = tables();
        for a in (0u32..65536).step_by(97) {
            for b in (0u32..65536).step_by(89) {
                assert_eq!(t.mul16(a, b), slow_mul(a, b, 16), "{a} ⊗ {b}");
            }
        }
    }
}
