//! The choice of product path, made once at run time: AVX-512 with GFNI (module `gfni`) if the
//! CPU has it, else the carry-less multiplier (module `clmul`), else the log/exp tables of
//! module `small`, which are the oracle for both. The choice lives here, above the three
//! paths, so that the fast paths can build on the tables without the tables knowing them.

use super::small::{tables, Tables};
use super::{clmul, gfni};

/// The product path this CPU takes.
enum Path {
    Gfni(&'static gfni::Gfni),
    Clmul(&'static clmul::Engine),
    Tables(&'static Tables),
}

/// AVX-512 with GFNI (module `gfni`) if the CPU has it, else the carry-less multiplier
/// (module `clmul`), else the log/exp tables, which are the oracle for both.
#[inline]
fn path() -> Path {
    if let Some(g) = gfni::engine() {
        Path::Gfni(g)
    } else if let Some(e) = clmul::engine() {
        Path::Clmul(e)
    } else {
        Path::Tables(tables())
    }
}

/// Nim-product of two 64-bit nimbers (the fast path behind [`super::Nimber::nim_mul`]), by
/// the fastest path this CPU has.
#[inline]
pub fn mul64(a: u64, b: u64) -> u64 {
    match path() {
        Path::Gfni(g) => g.mul64(a, b),
        Path::Clmul(e) => e.mul64(a, b),
        Path::Tables(t) => t.mul64_log(a, b),
    }
}

/// Nim-product of two 128-bit nimbers, by the same choice of path as [`mul64`].
#[inline]
pub fn mul128(a: u128, b: u128) -> u128 {
    match path() {
        Path::Gfni(g) => g.mul128(a, b),
        Path::Clmul(e) => e.mul128(a, b),
        Path::Tables(t) => t.mul128_log(a, b),
    }
}

/// Inverse in `GF(2^128)` through the norm over `GF(2^64)` (see module `small`), with the
/// fast 64-bit product; the caller rules out 0.
pub(crate) fn inv128(x: u128) -> u128 {
    let t = tables();
    let (x0, x1) = (x as u64, (x >> 64) as u64);
    let n = mul64(x0, x0 ^ x1) ^ t.mulh64(t.sq64(x1));
    let ni = t.inv64(n);
    ((mul64(x1, ni) as u128) << 64) | mul64(x0 ^ x1, ni) as u128
}

/// `x^e` in `GF(2^64)` by square-and-multiply.
pub(crate) fn pow64(mut x: u64, mut e: u64) -> u64 {
    let t = tables();
    let mut r = 1u64;
    while e > 0 {
        if e & 1 == 1 {
            r = mul64(r, x);
        }
        x = t.sq64(x);
        e >>= 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_products() {
        let t = tables();
        for (a, b, c) in [(6u64, 13, 15), (100, 200, 62), (16, 16, 24), (10, 7, 6)] {
            assert_eq!(mul64(a, b), c, "{a} ⊗ {b}");
            assert_eq!(t.mul64_log(a, b), c, "{a} ⊗ {b} from the log tables");
            assert_eq!(
                mul128(a as u128, b as u128),
                c as u128,
                "{a} ⊗ {b} in 128 bits"
            );
            assert_eq!(t.mul128_log(a as u128, b as u128), c as u128);
        }
    }

    #[test]
    fn the_fast_path_agrees_with_the_log_tables_on_16_bit_factors() {
        // Every 16-bit a against a sample of b, and each factor also lifted into every
        // 16-bit slot of the word, so all eight conversion tables and the Fermat halves of
        // both widths are exercised.
        let t = tables();
        for a in 0u64..65536 {
            for b in [
                0u64,
                1,
                2,
                3,
                0x8000,
                0xffff,
                a ^ 0x5a5a,
                a.wrapping_mul(40503) & 0xffff,
            ] {
                assert_eq!(mul64(a, b), t.mul64_log(a, b), "{a} ⊗ {b}");
                let s = 16 * (a % 4) as u32;
                let (x, y) = (a << s, b << (48 - s));
                assert_eq!(mul64(x, y), t.mul64_log(x, y), "{x} ⊗ {y}");
                let (x, y) = ((a as u128) << (2 * s), (b as u128) << (112 - 2 * s));
                assert_eq!(mul128(x, y), t.mul128_log(x, y), "{x} ⊗ {y}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn the_fast_path_agrees_with_the_log_tables(a: u64, b: u64, x: u128, y: u128) {
            let t = tables();
            proptest::prop_assert_eq!(mul64(a, b), t.mul64_log(a, b));
            proptest::prop_assert_eq!(mul128(x, y), t.mul128_log(x, y));
        }
    }

    #[test]
    fn square_inverse_and_power_agree_with_products() {
        let t = tables();
        for x in [2u64, 3, 0x1234_5678_9abc_def0, u64::MAX, 1 << 40, 12345] {
            assert_eq!(t.sq64(x), mul64(x, x), "square of {x}");
            assert_eq!(mul64(x, t.inv64(x)), 1, "inverse of {x}");
            let mut r = 1;
            for e in 0u64..40 {
                assert_eq!(pow64(x, e), r, "{x}^{e}");
                r = mul64(r, x);
            }
        }
    }
}
