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

/// The nim-products of all pairs of nimbers below 256, computed once with `Nimber::nim_mul`.
fn byte_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0u8; 256 * 256];
        for a in 0..256u64 {
            for b in a..256u64 {
                let v = Nimber::from_u64(a)
                    .nim_mul(&Nimber::from_u64(b))
                    .to_u64()
                    .unwrap_or(0);
                // Nimbers below 256 form the field GF(256), so the product fits a byte.
                let v = (v & 0xff) as u8;
                t[(a * 256 + b) as usize] = v;
                t[(b * 256 + a) as usize] = v;
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
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let a = s;
            let b = s.rotate_left(23) ^ 0x5555;
            assert_eq!(mul(a, b), reference(a, b), "{a} * {b}");
            assert_eq!(mul(a & 0xffff, b), reference(a & 0xffff, b));
        }
        for a in 0..64 {
            for b in 0..64 {
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
