//! Nimber arithmetic.
//!
//! # What a nimber is
//!
//! The nimbers are the non-negative integers with two new operations, defined by Conway with
//! the *minimal excludant* (`mex`, the least non-negative integer not in a set):
//!
//! ```text
//! a ⊕ b = mex({a' ⊕ b : a' < a} ∪ {a ⊕ b' : b' < b})
//! a ⊗ b = mex{a' ⊗ b ⊕ a ⊗ b' ⊕ a' ⊗ b' : a' < a, b' < b}
//! ```
//!
//! The nim-sum `⊕` turns out to be the bitwise exclusive or. The nim-product is subtler, but
//! with `⊕` it makes the nimbers a field of characteristic 2, and the nimbers below
//! `2^(2^k)` form a subfield `GF(2^(2^k))` for every `k` (1, 2, 4, 16, 256, 65536, ...).
//! [`naive`] implements these definitions literally; it is slow and serves as the test oracle.
//!
//! # How to compute a product
//!
//! The numbers `2^(2^k)` = 2, 4, 16, 256, 65536, ... are the *Fermat 2-powers*. Two rules
//! follow from the definition and determine every product:
//!
//! * if `F` is a Fermat 2-power and `x < F`, then `F ⊗ x = F · x` (the ordinary product);
//! * `F ⊗ F = F ⊕ F/2` (= `3F/2`); for example `16 ⊗ 16 = 24`.
//!
//! Writing a nimber below `2^(2^(k+1))` as `a1 ⊗ F ⊕ a0` with `F = 2^(2^k)` and halves below
//! `F`, the second rule says `F² = F ⊕ h` with `h = F/2`, so
//!
//! ```text
//! (a1 F ⊕ a0) ⊗ (b1 F ⊕ b0) = ((a1 ⊕ a0)(b1 ⊕ b0) ⊕ a0 b0) F ⊕ (a0 b0 ⊕ (a1 b1) ⊗ h)
//! ```
//!
//! which is Karatsuba's trick: three half-size products and one product by the constant `h`.
//! [`Nimber`] applies it with a 16-bit log/exp table at the bottom (module `small`), for
//! 64-bit and 128-bit values, and over `u64` limbs for larger ones (module `big`). The same
//! tower gives the square root, the inverse (through the norm to the half-size field) and the
//! roots of `x² + x = c`, each one level at a time.
//!
//! # Beyond arithmetic
//!
//! [`Nimber::order`], [`Nimber::log`] and friends use the factorisation of the group order
//! `2^(2^k) - 1 = F_0 · F_1 ⋯ F_(k-1)` into Fermat numbers `F_i = 2^(2^i) + 1`. [`expand`]
//! writes out a product the way a student would, step by step.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use num_bigint::BigUint;
use num_traits::{One, Zero};

mod big;
mod clmul;
pub mod expand;
mod field;
mod gfni;
pub mod naive;
pub mod ordinal;
mod poly;
mod product;
mod small;

pub use field::{group_order_primes, MAX_ORDER_LEVEL};
pub use poly::Poly2;
pub use product::{mul128, mul64};

/// The largest field level a [`Nimber`] may live in: values have at most `2^MAX_LEVEL` bits.
///
/// The cap keeps every operation quick: at 8192 bits a product takes well under a
/// millisecond, and the costliest operations (a power with an 8192-bit exponent, a minimal
/// polynomial of degree 8192) about a second in a release build. It still holds the Fermat
/// 2-power `2^4096` and its square.
pub const MAX_LEVEL: u32 = 13;
/// The largest bit length of a [`Nimber`] (8192 bits, the field `GF(2^8192)`).
pub const MAX_BITS: u64 = 1 << MAX_LEVEL;

/// Errors of nimber arithmetic. Every message is one line and names the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NimError {
    /// A number literal that is not a valid decimal or `0x` hex number.
    #[error("`{0}` is not a number (expected decimal digits, or 0x and hex digits)")]
    Malformed(String),
    /// A value wider than [`MAX_BITS`].
    #[error("{what} is too large: a nimber has at most {max_bits} bits")]
    TooLarge {
        /// The offending value or a description of it.
        what: String,
        /// The cap, [`MAX_BITS`].
        max_bits: u64,
    },
    /// Division by the nimber 0 (also the inverse of 0).
    #[error("cannot divide {dividend} by 0")]
    DivisionByZero {
        /// The dividend (1 for an inverse).
        dividend: String,
    },
    /// 0 has no multiplicative order and generates nothing.
    #[error("0 has no multiplicative order")]
    ZeroHasNoOrder,
    /// No power of `base` equals `target`.
    #[error("no power of {base} equals {target}")]
    NoLogarithm {
        /// The base of the logarithm.
        base: String,
        /// The value whose logarithm was asked for.
        target: String,
    },
    /// A computation beyond what this engine knows how to do (named in the message).
    #[error("{0}")]
    Unsupported(String),
    /// `0·x² ⊕ 0·x ⊕ 0 = 0`: every nimber is a root.
    #[error("0 ⊗ x ⊗ x ⊕ 0 ⊗ x ⊕ 0 = 0 holds for every nimber x")]
    EveryNimberIsARoot,
}

/// Internal representation; `Big` is used exactly for values of at least `2^128`, stored as
/// trimmed little-endian limbs, so derived equality and hashing are canonical.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Small(u128),
    Big(Vec<u64>),
}

/// A finite nimber: a non-negative integer of at most [`MAX_BITS`] bits, with nim-sum and
/// nim-product. Ordered as ordinary integers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nimber(Repr);

impl Default for Nimber {
    fn default() -> Self {
        Nimber(Repr::Small(0))
    }
}

impl PartialOrd for Nimber {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Nimber {
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.cmp(b),
            (Repr::Small(_), Repr::Big(_)) => Ordering::Less,
            (Repr::Big(_), Repr::Small(_)) => Ordering::Greater,
            (Repr::Big(a), Repr::Big(b)) => a
                .len()
                .cmp(&b.len())
                .then_with(|| a.iter().rev().cmp(b.iter().rev())),
        }
    }
}

impl From<u64> for Nimber {
    fn from(v: u64) -> Self {
        Nimber::from_u64(v)
    }
}

impl Nimber {
    /// The nimber 0.
    pub fn zero() -> Self {
        Nimber(Repr::Small(0))
    }

    /// The nimber 1.
    pub fn one() -> Self {
        Nimber(Repr::Small(1))
    }

    /// The nimber with value `v`.
    pub fn from_u64(v: u64) -> Self {
        Nimber(Repr::Small(v as u128))
    }

    /// The nimber with value `v`.
    pub fn from_u128(v: u128) -> Self {
        Nimber(Repr::Small(v))
    }

    /// The value, if it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        match self.0 {
            Repr::Small(v) => u64::try_from(v).ok(),
            Repr::Big(_) => None,
        }
    }

    /// The value, if it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        match self.0 {
            Repr::Small(v) => Some(v),
            Repr::Big(_) => None,
        }
    }

    /// The value as an ordinary integer.
    pub fn to_biguint(&self) -> BigUint {
        match &self.0 {
            Repr::Small(v) => BigUint::from(*v),
            Repr::Big(l) => {
                let digits: Vec<u32> = l
                    .iter()
                    .flat_map(|&x| [x as u32, (x >> 32) as u32])
                    .collect();
                BigUint::new(digits)
            }
        }
    }

    /// The nimber whose value is `v`; an error if `v` has more than [`MAX_BITS`] bits.
    pub fn from_biguint(v: &BigUint) -> Result<Self, NimError> {
        if v.bits() > MAX_BITS {
            return Err(NimError::TooLarge {
                what: format!("a {}-bit number", v.bits()),
                max_bits: MAX_BITS,
            });
        }
        Ok(Self::from_limbs(v.to_u64_digits()))
    }

    /// Builds a nimber from little-endian limbs (any length; trailing zeros allowed).
    pub(crate) fn from_limbs(mut v: Vec<u64>) -> Self {
        while v.last() == Some(&0) {
            v.pop();
        }
        match v.len() {
            0 => Nimber::zero(),
            1 => Nimber::from_u64(v[0]),
            2 => Nimber::from_u128((v[0] as u128) | ((v[1] as u128) << 64)),
            _ => Nimber(Repr::Big(v)),
        }
    }

    /// Little-endian limbs padded to `len` (a length at least the trimmed one).
    fn limbs(&self, len: usize) -> Vec<u64> {
        let mut v = match &self.0 {
            Repr::Small(x) => vec![*x as u64, (*x >> 64) as u64],
            Repr::Big(l) => l.clone(),
        };
        v.resize(len.max(v.len()), 0);
        v.truncate(len);
        v
    }

    /// Number of limbs of the field this nimber lives in (a power of two, at least 1).
    fn field_limbs(&self) -> usize {
        let l = self.field_level();
        if l <= 6 {
            1
        } else {
            1usize << (l - 6)
        }
    }

    /// Number of bits of the value (0 for 0).
    pub fn bit_len(&self) -> u64 {
        match &self.0 {
            Repr::Small(v) => 128 - v.leading_zeros() as u64,
            Repr::Big(l) => {
                let top = l.last().copied().unwrap_or(0);
                64 * l.len() as u64 - top.leading_zeros() as u64
            }
        }
    }

    /// Whether this is the nimber 0.
    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small(0))
    }

    /// Whether this is the nimber 1.
    pub fn is_one(&self) -> bool {
        matches!(self.0, Repr::Small(1))
    }

    /// The `k` of the smallest field `GF(2^(2^k))` holding this nimber, i.e. the least `k`
    /// with `self < 2^(2^k)` (0 for 0 and 1).
    pub fn field_level(&self) -> u32 {
        let n = self.bit_len();
        if n <= 1 {
            0
        } else {
            (n - 1).ilog2() + 1
        }
    }

    /// Nim-sum (bitwise exclusive or).
    pub fn nim_add(&self, o: &Self) -> Self {
        match (&self.0, &o.0) {
            (Repr::Small(a), Repr::Small(b)) => Nimber::from_u128(a ^ b),
            _ => {
                let n = self.limb_count().max(o.limb_count());
                let a = self.limbs(n);
                let b = o.limbs(n);
                Nimber::from_limbs(a.iter().zip(&b).map(|(x, y)| x ^ y).collect())
            }
        }
    }

    fn limb_count(&self) -> usize {
        match &self.0 {
            Repr::Small(_) => 2,
            Repr::Big(l) => l.len(),
        }
    }

    /// Nim-product.
    pub fn nim_mul(&self, o: &Self) -> Self {
        let t = small::tables();
        match (&self.0, &o.0) {
            (Repr::Small(a), Repr::Small(b)) => {
                if (a | b) >> 64 == 0 {
                    Nimber::from_u64(mul64(*a as u64, *b as u64))
                } else {
                    Nimber::from_u128(mul128(*a, *b))
                }
            }
            _ => {
                let (x, y) = if self.field_limbs() >= o.field_limbs() {
                    (self, o)
                } else {
                    (o, self)
                };
                let a = x.limbs(x.field_limbs());
                let b = y.limbs(y.field_limbs());
                Nimber::from_limbs(big::mul(t, &a, &b))
            }
        }
    }

    /// Nim-square `self ⊗ self` (a GF(2)-linear map, cheaper than a product).
    pub fn square(&self) -> Self {
        self.linear(small::Tables::sq64, small::Tables::sq128, big::square)
    }

    /// The unique square root: the `y` with `y ⊗ y = self` (squaring is a bijection in
    /// characteristic 2, and `y` lies in the same field as `self`).
    pub fn sqrt(&self) -> Self {
        self.linear(small::Tables::sqrt64, small::Tables::sqrt128, big::sqrt)
    }

    /// A map that keeps every nimber in its own field, applied at the narrowest width that
    /// holds `self`: 64 bits, 128 bits, or the limbs of its field.
    fn linear(
        &self,
        w64: fn(&small::Tables, u64) -> u64,
        w128: fn(&small::Tables, u128) -> u128,
        limbs: fn(&small::Tables, &[u64]) -> Vec<u64>,
    ) -> Self {
        let t = small::tables();
        match &self.0 {
            Repr::Small(a) if a >> 64 == 0 => Nimber::from_u64(w64(t, *a as u64)),
            Repr::Small(a) => Nimber::from_u128(w128(t, *a)),
            Repr::Big(_) => Nimber::from_limbs(limbs(t, &self.limbs(self.field_limbs()))),
        }
    }

    /// Multiplicative inverse; [`NimError::DivisionByZero`] for 0.
    pub fn inv(&self) -> Result<Self, NimError> {
        let t = small::tables();
        match &self.0 {
            Repr::Small(0) => Err(NimError::DivisionByZero {
                dividend: "1".into(),
            }),
            Repr::Small(a) if a >> 64 == 0 => Ok(Nimber::from_u64(t.inv64(*a as u64))),
            Repr::Small(a) => Ok(Nimber::from_u128(product::inv128(*a))),
            Repr::Big(_) => Ok(Nimber::from_limbs(big::inv(
                t,
                &self.limbs(self.field_limbs()),
            ))),
        }
    }

    /// Nim-quotient `self ⊗ o⁻¹`; [`NimError::DivisionByZero`] if `o` is 0.
    pub fn nim_div(&self, o: &Self) -> Result<Self, NimError> {
        if o.is_zero() {
            return Err(NimError::DivisionByZero {
                dividend: self.to_string(),
            });
        }
        Ok(self.nim_mul(&o.inv()?))
    }

    /// `self` to the ordinary integer power `e` (repeated nim-product), with `0^0 = 1`.
    ///
    /// The exponent is first reduced modulo `2^(2^k) - 1`, the order of the multiplicative
    /// group of the field `GF(2^(2^k))` holding `self`, so huge exponents are cheap.
    pub fn pow(&self, e: &BigUint) -> Self {
        if e.is_zero() || self.is_one() {
            return Nimber::one();
        }
        if self.is_zero() {
            return Nimber::zero();
        }
        let k = self.field_level();
        let m = (BigUint::one() << (1u64 << k)) - 1u32;
        let e = e % &m;
        if let (Some(x), Some(e)) = (self.to_u64(), u64::try_from(&e).ok()) {
            return Nimber::from_u64(product::pow64(x, e));
        }
        let mut r = Nimber::one();
        let mut base = self.clone();
        for i in 0..e.bits() {
            if e.bit(i) {
                r = r.nim_mul(&base);
            }
            base = base.square();
        }
        r
    }

    /// `self` to a small ordinary power.
    pub fn pow_u64(&self, e: u64) -> Self {
        self.pow(&BigUint::from(e))
    }
}

impl fmt::Display for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match &self.0 {
            Repr::Small(v) => v.to_string(),
            Repr::Big(_) => self.to_biguint().to_string(),
        };
        f.pad_integral(true, "", &s)
    }
}

impl fmt::LowerHex for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match &self.0 {
            Repr::Small(v) => format!("{v:x}"),
            Repr::Big(_) => self.to_biguint().to_str_radix(16),
        };
        f.pad_integral(true, "0x", &s)
    }
}

impl FromStr for Nimber {
    type Err = NimError;

    /// Decimal digits, or `0x`/`0X` followed by hex digits; any size up to [`MAX_BITS`].
    fn from_str(s: &str) -> Result<Self, NimError> {
        let malformed = || NimError::Malformed(s.to_string());
        let (digits, radix) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(h) => (h, 16),
            None => (s, 10),
        };
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return Err(malformed());
        }
        // A cheap bound before parsing: a decimal digit carries less than 4 bits.
        if digits.len() as u64 > MAX_BITS / 3 + 2 {
            return Err(NimError::TooLarge {
                what: format!("a {}-digit literal", digits.len()),
                max_bits: MAX_BITS,
            });
        }
        let v = BigUint::parse_bytes(digits.as_bytes(), radix).ok_or_else(malformed)?;
        Nimber::from_biguint(&v)
    }
}

/// A fixed pseudo-random stream (xorshift64) for the unit tests of the fast paths: the same
/// seed gives the same inputs on every run.
#[cfg(test)]
pub(crate) fn xorshift(mut s: u64) -> impl Iterator<Item = u64> {
    std::iter::repeat_with(move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(v: u64) -> Nimber {
        Nimber::from_u64(v)
    }

    #[test]
    fn published_products() {
        assert_eq!(n(6).nim_mul(&n(13)), n(15));
        assert_eq!(n(100).nim_mul(&n(200)), n(62));
        assert_eq!(n(16).nim_mul(&n(16)), n(24));
        assert_eq!(n(10).nim_mul(&n(7)), n(6));
        assert_eq!(n(100).inv(), Ok(n(57)));
    }

    #[test]
    fn parse_and_print() {
        assert_eq!("0x1F".parse::<Nimber>(), Ok(n(31)));
        assert_eq!("123".parse::<Nimber>(), Ok(n(123)));
        assert!(matches!("12a".parse::<Nimber>(), Err(NimError::Malformed(s)) if s == "12a"));
        assert!("".parse::<Nimber>().is_err());
        assert!("0x".parse::<Nimber>().is_err());
        assert!("+5".parse::<Nimber>().is_err());
        let big: Nimber = "340282366920938463463374607431768211456"
            .parse()
            .unwrap_or_default();
        assert_eq!(big.bit_len(), 129);
        assert_eq!(big.to_string(), "340282366920938463463374607431768211456");
        assert_eq!(format!("{big:x}"), "100000000000000000000000000000000");
        assert_eq!(format!("{:#x}", n(255)), "0xff");
    }

    #[test]
    fn ordering_is_integer_order() {
        let a = Nimber::from_biguint(&(BigUint::one() << 200u32)).unwrap_or_default();
        let b = Nimber::from_biguint(&((BigUint::one() << 200u32) + 5u32)).unwrap_or_default();
        let c = Nimber::from_biguint(&(BigUint::one() << 300u32)).unwrap_or_default();
        let mut v = vec![
            c.clone(),
            b.clone(),
            n(7),
            a.clone(),
            Nimber::from_u128(u128::MAX),
        ];
        v.sort();
        assert_eq!(v, vec![n(7), Nimber::from_u128(u128::MAX), a, b, c]);
    }

    #[test]
    fn size_cap_is_an_error() {
        let v = BigUint::one() << MAX_BITS;
        assert!(matches!(
            Nimber::from_biguint(&v),
            Err(NimError::TooLarge { .. })
        ));
        let ok = (BigUint::one() << MAX_BITS) - 1u32;
        assert!(Nimber::from_biguint(&ok).is_ok());
    }
}
