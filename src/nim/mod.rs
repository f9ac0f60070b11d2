//! Nimber arithmetic (placeholder engine, u64 only; replaced by the full engine of issue 3).

pub mod ordinal;
use std::fmt;
use std::str::FromStr;

use num_bigint::BigUint;

/// Errors of nimber arithmetic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NimError {
    /// A number literal that is not a valid decimal or `0x` hex number.
    #[error("`{0}` is not a number")]
    Malformed(String),
    /// A value too large for this engine.
    #[error("`{0}` is too large: at most 64 bits")]
    TooLarge(String),
}

/// A finite nimber.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nimber(u64);

impl Nimber {
    /// The nimber with the given value.
    pub fn from_u64(v: u64) -> Self {
        Nimber(v)
    }
    /// The value, if it fits in a u64.
    pub fn to_u64(&self) -> Option<u64> {
        Some(self.0)
    }
    /// The value as an ordinary integer.
    pub fn to_biguint(&self) -> BigUint {
        BigUint::from(self.0)
    }
    /// The nimber whose value is `v`.
    pub fn from_biguint(v: &BigUint) -> Result<Self, NimError> {
        u64::try_from(v)
            .map(Nimber)
            .map_err(|_| NimError::TooLarge(v.to_string()))
    }
    /// Nim-sum.
    pub fn nim_add(&self, o: &Self) -> Self {
        Nimber(self.0 ^ o.0)
    }
    /// Nim-product.
    pub fn nim_mul(&self, o: &Self) -> Self {
        Nimber(mul64(self.0, o.0, 6))
    }
}

fn mul64(a: u64, b: u64, level: u32) -> u64 {
    if level == 0 {
        return a & b;
    }
    let half = 1u32 << (level - 1);
    let mask = (1u64 << half) - 1;
    let (a1, a0, b1, b0) = (a >> half, a & mask, b >> half, b & mask);
    let hh = mul64(a1, b1, level - 1);
    let ll = mul64(a0, b0, level - 1);
    let mid = mul64(a1 ^ a0, b1 ^ b0, level - 1) ^ ll;
    ((mid) << half) | (ll ^ mul64(hh, 1u64 << (half - 1), level - 1))
}

impl fmt::Display for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Nimber {
    type Err = NimError;
    fn from_str(s: &str) -> Result<Self, NimError> {
        let r = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            BigUint::parse_bytes(h.as_bytes(), 16)
        } else {
            BigUint::parse_bytes(s.as_bytes(), 10)
        };
        let v = r.ok_or_else(|| NimError::Malformed(s.to_string()))?;
        Nimber::from_biguint(&v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn published_products() {
        let m = |a, b| Nimber(a).nim_mul(&Nimber(b)).0;
        assert_eq!(m(6, 13), 15);
        assert_eq!(m(100, 200), 62);
        assert_eq!(m(16, 16), 24);
        assert_eq!(m(10, 7), 6);
    }
}
