//! The hardware path: 64- and 128-bit nim-products through a carry-less multiplier.
//!
//! On CPUs with AVX-512 and GFNI, module `gfni` is faster still and takes precedence; this
//! path serves every other x86-64 CPU (PCLMULQDQ dates from 2010).
//!
//! # Why a change of basis works
//!
//! The nimbers below `2^64` form the field `GF(2^64)`, and so does `GF(2)[x]/(p)` for any
//! irreducible polynomial `p` of degree 64 over `GF(2)`. Finite fields of the same size are
//! isomorphic, and an isomorphism is fixed by choosing where `x` goes: any root `r` of `p` in
//! the nimbers. Then `φ(Σ c_i x^i) = ⊕ c_i r^i` (powers are nim-powers) is a bijection that
//! turns the polynomial product modulo `p` into the nim-product.
//!
//! `φ` is `GF(2)`-linear, so it is a 64×64 bit matrix `M` whose column `i` is `r^i`, and its
//! inverse `M⁻¹` takes a nimber to the coefficients of its polynomial. A product becomes
//!
//! ```text
//! a ⊗ b = M( (M⁻¹a · M⁻¹b) mod p )
//! ```
//!
//! where `·` is the carry-less product of two 64-bit words, one `PCLMULQDQ` instruction on
//! x86-64. A bit-matrix times a vector is the exclusive or of the images of the vector's
//! eight bytes, so each matrix is stored as eight tables of 256 words (16 KiB): a conversion is
//! eight table reads. The conversions are written in assembly (see `hw`): that way they
//! inline into the caller, and each byte costs one `movzx` and a third of a shift.
//!
//! # The modulus
//!
//! `p = x^64 + x^4 + x^3 + x + 1`, a pentanomial (degree 64 has no irreducible trinomial).
//! Reducing a 128-bit product uses `x^64 ≡ x^4 + x^3 + x + 1` twice, because the first pass
//! can spill up to four bits past `x^63`; each pass is one more carry-less product by the
//! five-bit constant, which takes fewer instructions than the equivalent shifts.
//!
//! # Finding the isomorphism
//!
//! Nothing is hard-coded: the root `r` is computed when the tables are built, with the
//! log/exp engine of module `small`. Since `p` splits into 64 linear factors over `GF(2^64)`,
//! equal-degree splitting finds a root: for a nimber `β`, the trace polynomial
//! `T(x) = Σ_(i<64) (βx)^(2^i) mod f` takes only the values 0 and 1 at the roots of `f` (it is
//! the trace to `GF(2)`), so `gcd(f, T)` collects the roots where `Tr(βr) = 0`. As `β` runs
//! through the basis `1, 2, 4, ...`, two distinct roots are separated by some `β`, so the
//! factor shrinks until it is linear, `x ⊕ r`. Because `f` divides `p`, `T` may be taken
//! modulo `p` instead, and there it is cheap: `T = Σ β^(2^i) · (x^(2^i) mod p)`, where the
//! `x^(2^i) mod p` have bit coefficients and come from 64 carry-less squarings. The whole
//! search costs well under a millisecond in a release build. The build then checks itself: `M` must be
//! invertible (which also proves `p` irreducible: otherwise the minimal polynomial of `r`
//! would have degree below 64 and the powers `r^i` would be dependent).
//!
//! # 128 bits
//!
//! With `X = 2^64`, `X ⊗ X = X ⊕ H` for `H = 2^63`, so Karatsuba over 64-bit halves needs
//! three 64-bit products and one product by the constant `H`; all four happen in the
//! polynomial basis (`H` is converted once, at build time), the sums are taken before
//! reducing (reduction is linear), and only the two halves of the result are converted back.
//!
//! # Safety
//!
//! The only `unsafe` here is the inline assembly: the table reads of `hw::apply` (in bounds
//! by construction, see there) and `PCLMULQDQ` in `hw::mulmod`. An [`Engine`] is only ever
//! constructed after `is_x86_feature_detected!("pclmulqdq")` has said yes, so holding one is
//! the proof that the instruction exists. Elsewhere the crate denies `unsafe`; the
//! exceptions are this module and `gfni`.

#![allow(unsafe_code)]

use std::sync::OnceLock;

use super::small::{engine_once, tables, Tables};

/// The low part of the modulus `p = x^64 + x^4 + x^3 + x + 1`.
const P_LOW: u64 = 0b1_1011;

/// A 64×64 bit matrix as eight byte-indexed tables: `t[k][v]` is the image of `v << 8k`.
type ByteTables = [[u64; 256]; 8];

/// The conversion tables and the converted Fermat half, built once; holding one proves that
/// the CPU has `PCLMULQDQ`.
pub(crate) struct Engine {
    /// `M⁻¹`: nimber → polynomial coefficients.
    to_poly: Box<ByteTables>,
    /// `M`: polynomial coefficients → nimber.
    to_nim: Box<ByteTables>,
    /// `M⁻¹(2^63)`, the polynomial of the half `H` used by the 128-bit product.
    half: u64,
}

/// The engine, if this CPU has a carry-less multiplier; built on first use.
#[inline]
pub(crate) fn engine() -> Option<&'static Engine> {
    static E: OnceLock<Option<Engine>> = OnceLock::new();
    engine_once(&E, has_pclmul, || {
        Basis::find(tables()).map(Basis::into_engine)
    })
}

#[cfg(target_arch = "x86_64")]
fn has_pclmul() -> bool {
    std::arch::is_x86_feature_detected!("pclmulqdq")
}

#[cfg(not(target_arch = "x86_64"))]
fn has_pclmul() -> bool {
    false
}

/// `v` times the matrix stored as byte tables.
#[inline(always)]
fn apply(t: &ByteTables, v: u64) -> u64 {
    let b = v.to_le_bytes();
    (t[0][b[0] as usize] ^ t[1][b[1] as usize])
        ^ (t[2][b[2] as usize] ^ t[3][b[3] as usize])
        ^ ((t[4][b[4] as usize] ^ t[5][b[5] as usize])
            ^ (t[6][b[6] as usize] ^ t[7][b[7] as usize]))
}

/// `hi · x^64 + lo` modulo `p`, with shifts (the hardware path uses the multiplier).
fn reduce(lo: u64, hi: u64) -> u64 {
    // hi · (x^4 + x^3 + x + 1): the low 64 bits, and the (at most four) bits past x^63.
    let t = hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4);
    let o = (hi >> 63) ^ (hi >> 61) ^ (hi >> 60);
    lo ^ t ^ o ^ (o << 1) ^ (o << 3) ^ (o << 4)
}

/// Carry-less product in software, `(low, high)`: it squares the bit-polynomials
/// `x^(2^i) mod p` while the tables are built, and lets the tests check the tables without
/// the instruction.
fn clmul_soft(a: u64, b: u64) -> (u64, u64) {
    let (mut lo, mut hi) = (0u64, 0u64);
    for i in 0..64 {
        if (b >> i) & 1 == 1 {
            lo ^= a << i;
            if i > 0 {
                hi ^= a >> (64 - i);
            }
        }
    }
    (lo, hi)
}

/// Polynomial product modulo `p` in software.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn mulmod_soft(a: u64, b: u64) -> u64 {
    let (lo, hi) = clmul_soft(a, b);
    reduce(lo, hi)
}

#[cfg(target_arch = "x86_64")]
mod hw {
    use std::arch::asm;
    use std::arch::x86_64::_mm_cvtsi64_si128;

    use super::{ByteTables, Engine, P_LOW};

    // The hardware path is written as inline assembly rather than with the
    // `std::arch` intrinsics. Intrinsics need `#[target_feature(enable = "pclmulqdq")]`
    // functions, which cannot be inlined into callers built without the feature, so every
    // product paid for a call; assembly carries no such attribute and inlines into the
    // caller's loop. It also lets each byte of a word be read with `movzx` from the low
    // and high byte registers, eleven instructions for eight bytes where the compiler
    // emits about seventeen.

    /// `v` times the matrix stored as byte tables: the same map as [`super::apply`].
    ///
    /// This one needs no CPU feature beyond x86-64 itself.
    #[inline(always)]
    pub(super) fn apply(t: &ByteTables, v: u64) -> u64 {
        let out: u64;
        // SAFETY: the eight reads are `t[k][byte k of v]` for k < 8: every index is a byte,
        // below 256, and table k starts 2048·k bytes into `t`, so all reads are inside the
        // 16 KiB that `t` borrows. Nothing is written but the declared registers.
        unsafe {
            asm!(
                "movzx {i:e}, {v:l}",
                "movzx {j:e}, {v:h}",
                "mov {o}, qword ptr [{t} + 8*{i}]",
                "mov {w}, qword ptr [{t} + 8*{j} + 2048]",
                "shr {v}, 16",
                "movzx {i:e}, {v:l}",
                "movzx {j:e}, {v:h}",
                "xor {o}, qword ptr [{t} + 8*{i} + 4096]",
                "xor {w}, qword ptr [{t} + 8*{j} + 6144]",
                "shr {v}, 16",
                "movzx {i:e}, {v:l}",
                "movzx {j:e}, {v:h}",
                "xor {o}, qword ptr [{t} + 8*{i} + 8192]",
                "xor {w}, qword ptr [{t} + 8*{j} + 10240]",
                "shr {v}, 16",
                "movzx {i:e}, {v:l}",
                "movzx {j:e}, {v:h}",
                "xor {o}, qword ptr [{t} + 8*{i} + 12288]",
                "xor {w}, qword ptr [{t} + 8*{j} + 14336]",
                "xor {o}, {w}",
                t = in(reg) t.as_ptr(),
                v = inout(reg_abcd) v => _,
                i = out(reg) _,
                // `movzx` from a high-byte register cannot take a REX prefix, so its
                // destination must be one of the legacy registers too.
                j = out(reg_abcd) _,
                w = out(reg) _,
                o = out(reg) out,
                options(pure, readonly, nostack),
            );
        }
        out
    }

    /// The polynomial product `a · b mod p`: one carry-less product, then two more by the
    /// low part of `p` to fold the high word back (`x^64 ≡ x^4 + x^3 + x + 1`): the first
    /// fold leaves at most three bits past `x^63`, the second none.
    ///
    /// # Safety
    ///
    /// The CPU must support `pclmulqdq`.
    #[inline(always)]
    pub(super) unsafe fn mulmod(a: u64, b: u64) -> u64 {
        // The constant goes in as a vector operand, so a loop of products loads it once.
        let p = _mm_cvtsi64_si128(P_LOW as i64);
        let out: u64;
        // SAFETY: register-only SSE2 and PCLMULQDQ instructions; the caller vouches for
        // PCLMULQDQ and SSE2 is part of x86-64.
        unsafe {
            asm!(
                "movq {z}, {a}",
                "movq {q}, {b}",
                "pclmulqdq {z}, {q}, 0x00",
                "movdqa {t}, {z}",
                // t = high word of z times (p - x^64)
                "pclmulqdq {t}, {p}, 0x01",
                "pxor {z}, {t}",
                // t = high word of that times (p - x^64), under eight bits
                "pclmulqdq {t}, {p}, 0x01",
                "pxor {z}, {t}",
                "movq {o}, {z}",
                a = in(reg) a,
                b = in(reg) b,
                p = in(xmm_reg) p,
                o = lateout(reg) out,
                z = out(xmm_reg) _,
                q = out(xmm_reg) _,
                t = out(xmm_reg) _,
                options(pure, nomem, nostack),
            );
        }
        out
    }

    /// `a ⊗ b` for 64-bit nimbers.
    ///
    /// # Safety
    ///
    /// The CPU must support `pclmulqdq`.
    #[inline(always)]
    pub(super) unsafe fn mul64(e: &Engine, a: u64, b: u64) -> u64 {
        // SAFETY: the caller vouches for `pclmulqdq`.
        let z = unsafe { mulmod(apply(&e.to_poly, a), apply(&e.to_poly, b)) };
        apply(&e.to_nim, z)
    }

    /// `a ⊗ b` for 128-bit nimbers: Karatsuba over 64-bit halves in the polynomial basis.
    ///
    /// # Safety
    ///
    /// The CPU must support `pclmulqdq`.
    #[inline]
    pub(super) unsafe fn mul128(e: &Engine, a: u128, b: u128) -> u128 {
        let (a0, a1) = (
            apply(&e.to_poly, a as u64),
            apply(&e.to_poly, (a >> 64) as u64),
        );
        let (b0, b1) = (
            apply(&e.to_poly, b as u64),
            apply(&e.to_poly, (b >> 64) as u64),
        );
        // SAFETY: the caller vouches for `pclmulqdq`.
        let (c00, cm, c11h) = unsafe {
            (
                mulmod(a0, b0),
                mulmod(a0 ^ a1, b0 ^ b1),
                mulmod(mulmod(a1, b1), e.half),
            )
        };
        let hi = cm ^ c00;
        let lo = c00 ^ c11h;
        ((apply(&e.to_nim, hi) as u128) << 64) | apply(&e.to_nim, lo) as u128
    }
}

impl Engine {
    /// Nim-product of 64-bit nimbers.
    #[inline]
    pub(crate) fn mul64(&self, a: u64, b: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: an `Engine` exists only if `pclmulqdq` was detected at run time
            // (see `engine`), which is the one requirement of `hw::mul64`.
            unsafe { hw::mul64(self, a, b) }
        }
        // No engine is built off x86-64 (see `has_pclmul`); this keeps the method total.
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.mul64_soft(a, b)
        }
    }

    /// Nim-product of 128-bit nimbers.
    #[inline]
    pub(crate) fn mul128(&self, a: u128, b: u128) -> u128 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: as in `mul64`, holding an `Engine` proves `pclmulqdq` is available.
            unsafe { hw::mul128(self, a, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.mul128_soft(a, b)
        }
    }

    /// The same 64-bit product with the carry-less multiply done in software (slow; it checks
    /// the basis change independently of the instruction).
    #[cfg(any(test, not(target_arch = "x86_64")))]
    fn mul64_soft(&self, a: u64, b: u64) -> u64 {
        let p = mulmod_soft(apply(&self.to_poly, a), apply(&self.to_poly, b));
        apply(&self.to_nim, p)
    }

    /// The 128-bit product with the carry-less multiply done in software.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    fn mul128_soft(&self, a: u128, b: u128) -> u128 {
        let (a0, a1) = (
            apply(&self.to_poly, a as u64),
            apply(&self.to_poly, (a >> 64) as u64),
        );
        let (b0, b1) = (
            apply(&self.to_poly, b as u64),
            apply(&self.to_poly, (b >> 64) as u64),
        );
        let c00 = mulmod_soft(a0, b0);
        let c11 = mulmod_soft(a1, b1);
        let cm = mulmod_soft(a0 ^ a1, b0 ^ b1);
        let hi = cm ^ c00;
        let lo = c00 ^ mulmod_soft(c11, self.half);
        ((apply(&self.to_nim, hi) as u128) << 64) | apply(&self.to_nim, lo) as u128
    }
}

/// The isomorphism between `GF(2)[x]/(p)` and the nimbers below `2^64`: the root `r` and the
/// pairs `(r^i, x^i)` reduced so that the nimber side of pair `b` is `2^b`.
struct Basis {
    /// `powers[i] = r^i`: column `i` of `M`.
    powers: [u64; 64],
    /// `inverse[b] = M⁻¹(2^b)`: the polynomial of the nimber `2^b`.
    inverse: [u64; 64],
}

impl Basis {
    /// Finds a root of `p` among the nimbers and inverts `M`; `None` if either fails (which
    /// would mean `p` is not irreducible).
    fn find(t: &Tables) -> Option<Basis> {
        let r = root_of_p(t)?;
        let mut powers = [0u64; 64];
        let mut y = 1u64;
        for slot in powers.iter_mut() {
            *slot = y;
            y = t.mul64_log(y, r);
        }
        // y = r^64 now; r is a root of p exactly when r^64 = r^4 ⊕ r^3 ⊕ r ⊕ 1.
        if y != powers[4] ^ powers[3] ^ powers[1] ^ powers[0] {
            return None;
        }
        let inverse = invert(&powers)?;
        Some(Basis { powers, inverse })
    }

    fn into_engine(self) -> Engine {
        let to_nim = byte_tables(&self.powers);
        let to_poly = byte_tables(&self.inverse);
        let half = apply(&to_poly, 1 << 63);
        Engine {
            to_poly,
            to_nim,
            half,
        }
    }
}

/// The byte tables of the matrix whose column `i` is `cols[i]`.
fn byte_tables(cols: &[u64; 64]) -> Box<ByteTables> {
    let mut t = Box::new([[0u64; 256]; 8]);
    for (k, table) in t.iter_mut().enumerate() {
        for v in 1..256usize {
            // The image of v is the image of its lowest bit plus that of the rest.
            let low = v.trailing_zeros() as usize;
            table[v] = table[v & (v - 1)] ^ cols[8 * k + low];
        }
    }
    t
}

/// The inverse of the matrix with columns `cols`, as its columns: `out[b]` is the vector `c`
/// with `Σ c_i cols[i] = 2^b`. Gauss–Jordan on pairs `(cols[i], 2^i)`; `None` if singular.
fn invert(cols: &[u64; 64]) -> Option<[u64; 64]> {
    // pivot[b]: a pair whose first word has highest bit b.
    let mut pivot: [Option<(u64, u64)>; 64] = [None; 64];
    for (i, &c) in cols.iter().enumerate() {
        let (mut v, mut w) = (c, 1u64 << i);
        while v != 0 {
            let b = 63 - v.leading_zeros() as usize;
            match pivot[b] {
                Some((pv, pw)) => {
                    v ^= pv;
                    w ^= pw;
                }
                None => {
                    pivot[b] = Some((v, w));
                    break;
                }
            }
        }
        if v == 0 {
            return None;
        }
    }
    let mut out = [0u64; 64];
    // Clear bit b from every higher pivot, lowest b first: pivot b has no lower bits left by
    // then, so clearing never brings one back.
    for b in 0..64 {
        let (pv, pw) = pivot[b]?;
        for (v, w) in pivot.iter_mut().skip(b + 1).flatten() {
            if (*v >> b) & 1 == 1 {
                *v ^= pv;
                *w ^= pw;
            }
        }
        out[b] = pw;
    }
    Some(out)
}

/// Polynomials over the nimbers below `2^64`, lowest coefficient first, no trailing zeros.
type NimPoly = Vec<u64>;

fn trim(mut f: NimPoly) -> NimPoly {
    while f.last() == Some(&0) {
        f.pop();
    }
    f
}

/// `a mod f` for monic `f` of degree at least 1.
fn rem(t: &Tables, mut a: NimPoly, f: &[u64]) -> NimPoly {
    let d = f.len() - 1;
    while a.len() > d {
        let top = a.len() - 1;
        let c = a[top];
        if c != 0 {
            for (j, &fj) in f[..d].iter().enumerate() {
                match fj {
                    0 => {}
                    1 => a[top - d + j] ^= c,
                    _ => a[top - d + j] ^= t.mul64_log(c, fj),
                }
            }
        }
        a.pop();
    }
    trim(a)
}

/// `f` divided by its leading coefficient.
fn monic(t: &Tables, f: NimPoly) -> NimPoly {
    match f.last() {
        Some(&lead) if lead > 1 => {
            let inv = t.inv64(lead);
            f.iter().map(|&c| t.mul64_log(c, inv)).collect()
        }
        _ => f,
    }
}

/// The monic greatest common divisor.
fn gcd(t: &Tables, a: NimPoly, b: NimPoly) -> NimPoly {
    let (mut a, mut b) = (monic(t, trim(a)), monic(t, trim(b)));
    while !b.is_empty() {
        let r = monic(t, rem(t, a, &b));
        a = b;
        b = r;
    }
    a
}

/// `x^(2^i) mod p` for `i < 64`, as bit-polynomials: `p` has coefficients in `GF(2)`, so these
/// do too, and squaring a bit-polynomial is a carry-less square.
fn frobenius_powers() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut y = 0b10u64;
    for slot in out.iter_mut() {
        *slot = y;
        let (lo, hi) = clmul_soft(y, y);
        y = reduce(lo, hi);
    }
    out
}

/// The trace polynomial `Σ_(i<64) (βx)^(2^i) = Σ_(i<64) β^(2^i) x^(2^i) mod p`, from the
/// bit-polynomials `x^(2^i) mod p`: no polynomial arithmetic over the nimbers is needed.
fn trace_poly(t: &Tables, beta: u64, xpow: &[u64; 64]) -> NimPoly {
    let mut acc = vec![0u64; 64];
    let mut b = beta;
    for &xp in xpow {
        for (j, a) in acc.iter_mut().enumerate() {
            if (xp >> j) & 1 == 1 {
                *a ^= b;
            }
        }
        b = t.sq64(b);
    }
    trim(acc)
}

/// A root of `p` among the nimbers below `2^64`, by equal-degree splitting.
fn root_of_p(t: &Tables) -> Option<u64> {
    let mut f: NimPoly = vec![0; 65];
    f[64] = 1;
    for (i, slot) in f.iter_mut().enumerate().take(5) {
        *slot = (P_LOW >> i) & 1;
    }
    let xpow = frobenius_powers();
    while f.len() > 2 {
        // Some basis element separates two of f's distinct roots; if none does, f has a
        // repeated or missing root and p was not what it should be. The trace polynomial is
        // taken modulo p, not f: since f divides p, the gcd with f is the same.
        let g = (0..64).find_map(|k| {
            let g = gcd(t, f.clone(), trace_poly(t, 1 << k, &xpow));
            (g.len() > 1 && g.len() < f.len()).then_some(g)
        })?;
        f = g;
    }
    // f = x ⊕ r.
    Some(f[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_has_minimal_polynomial_p() {
        let e = Basis::find(tables()).map(|b| b.powers[1]);
        let r = e.map(crate::nim::Nimber::from_u64);
        let mp = r.map(|r| r.minpoly());
        let mut want = vec![false; 65];
        for i in [0, 1, 3, 4, 64] {
            want[i] = true;
        }
        assert_eq!(mp, Some(crate::nim::Poly2::from_coeffs(want)));
    }

    #[test]
    fn the_engine_is_used_when_the_cpu_has_pclmulqdq() {
        assert_eq!(engine().is_some(), has_pclmul());
    }

    /// The assembly against the portable code it replaces: `apply` byte for byte, and the
    /// products against the log tables. (On CPUs with GFNI the public products take the
    /// other path, so this is where the carry-less one is checked.)
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_assembly_agrees_with_the_portable_code() {
        let Some(e) = engine() else { return };
        let t = tables();
        for s in crate::nim::xorshift(0x2545_f491_4f6c_dd1d).take(20_000) {
            let (a, b) = (s, s.rotate_left(23) ^ 0xff00);
            assert_eq!(hw::apply(&e.to_poly, a), apply(&e.to_poly, a));
            assert_eq!(hw::apply(&e.to_nim, a), apply(&e.to_nim, a));
            // SAFETY: an engine exists, so the CPU has `pclmulqdq`.
            assert_eq!(unsafe { hw::mulmod(a, b) }, mulmod_soft(a, b));
            assert_eq!(e.mul64(a, b), t.mul64_log(a, b), "{a} ⊗ {b}");
            let (x, y) = (
                ((a as u128) << 64) | b as u128,
                (b as u128) << 3 | a as u128,
            );
            assert_eq!(e.mul128(x, y), t.mul128_log(x, y), "{x} ⊗ {y}");
        }
    }

    #[test]
    fn the_tables_are_inverse_to_each_other() {
        let Some(b) = Basis::find(tables()) else {
            panic!("no isomorphism found")
        };
        let e = b.into_engine();
        for x in [0u64, 1, 2, 3, 1 << 63, u64::MAX, 0x0123_4567_89ab_cdef] {
            assert_eq!(apply(&e.to_nim, apply(&e.to_poly, x)), x);
            assert_eq!(apply(&e.to_poly, apply(&e.to_nim, x)), x);
        }
    }

    #[test]
    fn software_clmul_path_agrees_with_the_log_tables() {
        let t = tables();
        let Some(b) = Basis::find(t) else {
            panic!("no isomorphism found")
        };
        let e = b.into_engine();
        for s in crate::nim::xorshift(0x9e37_79b9_7f4a_7c15).take(2000) {
            let a = s;
            let b = s.rotate_left(29) ^ 0x5555;
            assert_eq!(e.mul64_soft(a, b), t.mul64_log(a, b), "{a} ⊗ {b}");
            let (x, y) = (
                ((a as u128) << 64) | b as u128,
                ((b as u128) << 64) | a as u128,
            );
            assert_eq!(e.mul128_soft(x, y), t.mul128_log(x, y), "{x} ⊗ {y}");
        }
    }
}
