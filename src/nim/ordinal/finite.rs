//! Arithmetic on the finite coefficients: nimbers below 2^64, the field GF(2^64).
//!
//! Every coefficient of an [`Ordinal`](super::Ordinal) is a finite nimber below 2^64, and
//! the nimbers below 2^64 form the field GF(2^64). The product is the one of
//! [`Nimber::nim_mul`]; this module adds what the ordinal engine needs on top of it: a fast
//! product for the inner loops (checked against `Nimber::nim_mul` in the tests) and the
//! inverse, computed as x^(2^64 − 2), since every non-zero x of GF(2^64) satisfies
//! x^(2^64 − 1) = 1.

use std::sync::OnceLock;

use crate::nim::Nimber;

/// The nim-products of all pairs of nimbers below 256, computed once: the products below 16
/// come from `Nimber::nim_mul`, the rest from them by the halving rule of [`mul_level`].
fn byte_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut small = [[0u8; 16]; 16];
        for (a, row) in small.iter_mut().enumerate() {
            for (b, v) in row.iter_mut().enumerate() {
                let p = Nimber::from_u64(a as u64)
                    .nim_mul(&Nimber::from_u64(b as u64))
                    .to_u64()
                    .unwrap_or(0);
                // Nimbers below 16 form the field GF(16), so the product fits 4 bits.
                *v = (p & 0xf) as u8;
            }
        }
        let m = |a: u8, b: u8| small[usize::from(a & 0xf)][usize::from(b & 0xf)];
        let mut t = vec![0u8; 256 * 256];
        for a in 0..256usize {
            for b in 0..256usize {
                let (a1, a0, b1, b0) = (
                    (a >> 4) as u8,
                    (a & 15) as u8,
                    (b >> 4) as u8,
                    (b & 15) as u8,
                );
                let hh = m(a1, b1);
                let ll = m(a0, b0);
                let mid = m(a1 ^ a0, b1 ^ b0) ^ ll;
                t[a * 256 + b] = (mid << 4) | (ll ^ m(hh, 8));
            }
        }
        t
    })
}

/// The nim-product of two nimbers below 2^(2^level), level ≥ 3, by Karatsuba on halves.
///
/// Below the Fermat 2-power F = 2^(2^(level−1)), write a = a1·F + a0. Then
/// a ⊗ b = (a1b1 + a1b0 + a0b1)·F + a0b0 + a1b1 ⊗ (F/2), because F ⊗ F = F + F/2
/// (every Fermat 2-power F satisfies F² = F + F/2 in nim arithmetic).
fn mul_level(a: u64, b: u64, level: u32, table: &[u8]) -> u64 {
    if a < 2 || b < 2 {
        return a * b;
    }
    if level <= 3 {
        return u64::from(table[((a & 0xff) * 256 + (b & 0xff)) as usize]);
    }
    let half = 1u32 << (level - 1);
    let mask = (1u64 << half) - 1;
    let (a1, a0, b1, b0) = (a >> half, a & mask, b >> half, b & mask);
    if a1 == 0 && b1 == 0 {
        return mul_level(a0, b0, level - 1, table);
    }
    let hh = mul_level(a1, b1, level - 1, table);
    let ll = mul_level(a0, b0, level - 1, table);
    let mid = mul_level(a1 ^ a0, b1 ^ b0, level - 1, table) ^ ll;
    (mid << half) | (ll ^ mul_level(hh, 1u64 << (half - 1), level - 1, table))
}

/// The nim-product of two nimbers below 2^64.
pub(crate) fn mul(a: u64, b: u64) -> u64 {
    if a < 2 || b < 2 {
        return a * b;
    }
    mul_level(a, b, 6, byte_table())
}

/// The nim-inverse of a non-zero nimber below 2^64 (0 maps to 0).
pub(crate) fn inv(x: u64) -> u64 {
    // x^(2^64 − 2) = x^2 · x^4 · … · x^(2^63).
    let mut result = 1u64;
    let mut sq = x;
    for _ in 1..64 {
        sq = mul(sq, sq);
        result = mul(result, sq);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(a: u64, b: u64) -> u64 {
        Nimber::from_u64(a)
            .nim_mul(&Nimber::from_u64(b))
            .to_u64()
            .unwrap_or(u64::MAX)
    }

    #[test]
    fn agrees_with_the_finite_engine() {
        for s in crate::nim::xorshift(0x9e37_79b9_7f4a_7c15).take(2000) {
            let a = s;
            let b = s.rotate_left(23) ^ 0x5555;
            assert_eq!(mul(a, b), reference(a, b), "{a} * {b}");
            assert_eq!(mul(a & 0xffff, b), reference(a & 0xffff, b));
        }
        for a in 0..256 {
            for b in 0..256 {
                assert_eq!(mul(a, b), reference(a, b));
            }
        }
    }

    #[test]
    fn inverses() {
        for x in [1u64, 2, 3, 7, 255, 256, 65_535, 1 << 40, u64::MAX] {
            assert_eq!(mul(x, inv(x)), 1, "{x}");
        }
    }
}
