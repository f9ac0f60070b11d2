//! Exact nim-arithmetic on the ordinals below ω^(ω^ω): the algebraic closure of GF(2).
//!
//! # The field
//!
//! Conway's nim-sum and nim-product turn the class of all ordinals into a field of
//! characteristic 2. The finite nimbers form the union of the fields GF(2^(2^k)); Conway
//! showed that the ordinals below ω^(ω^ω) form the algebraic closure of GF(2), and that
//! inside it the ordinal notation *is* the field structure, once a handful of constants
//! α_p are known.
//!
//! Every ordinal below ω^(ω^ω) has a Cantor normal form
//! ω^e₁·c₁ + ω^e₂·c₂ + … with e₁ > e₂ > … below ω^ω and finite coefficients c_i. Each
//! exponent is itself e = ω^N·a_N + … + ω·a₁ + a₀ with natural a_n. Nim-addition is simple:
//! the nim-sum of two ordinals adds the coefficients of equal exponents as finite nimbers
//! (bitwise exclusive or). Multiplication needs the tower of fields below.
//!
//! # The tower
//!
//! Let p_n be the (n+1)-th odd prime (p₀ = 3, p₁ = 5, p₂ = 7, …) and write each a_n in base
//! p_n: a_n = Σ_k d_{n,k}·p_n^k with digits 0 ≤ d_{n,k} < p_n. Put
//! κ_{n,k} = ω^(ω^n·p_n^k). Then ω^e is the nim-product of the powers κ_{n,k}^{d_{n,k}} and
//! ω^e·c is that product times the finite nimber c: for digits below p the nim-product of
//! these κ's coincides with the ordinal product. Lenstra (1978), building on Conway (ONAG,
//! ch. 6), showed that each κ_{n,k} generates a field extension of prime degree p_n over the
//! nimbers below it, cut out by a pure equation:
//!
//! * κ_{n,k}^p = κ_{n,k−1} for k ≥ 1 (for instance (ω³)³ = ω);
//! * κ_{n,0}^p = α_p, where κ_{n,0} = ω^(ω^n) and α_p is a nimber below ω^(ω^n).
//!
//! So to multiply two monomials one adds their exponents digit by digit in base p_n, and a
//! digit that reaches p turns into a carry one place *down*; a carry out of the last place
//! becomes a factor α_p, which is a small sum of lower monomials and is multiplied in
//! recursively (it can carry again, but only at lower levels). The finite coefficients
//! multiply in GF(2^64), as [`Nimber::nim_mul`](crate::nim::Nimber::nim_mul) does.
//!
//! # The constants α_p
//!
//! α_p is the p-th nim-power of ω^(ω^n), the first generator of level n, where p is the
//! (n+1)-th odd prime. Conway found α₃ = 2 (so ω³ = 2), α₅ = 4 and α₇ = ω + 1; Lenstra
//! found α₁₁ = ω^ω + 1 and a general recipe: with f(p) the order of 2 modulo p,
//! α_p = κ_f(p) + m_p, where κ_h is an explicit sum of generators (and of a Fermat 2-power)
//! built from the prime-power factors of h, and the *excess* m_p is a small natural number,
//! the least m for which κ_f(p) + m is not a p-th power below ω^(ω^n).
//!
//! The excesses are hard to compute (the work grows roughly exponentially with p), so they
//! come from a table: OEIS A380496, "Lenstra excess of the n-th odd prime", for the 54 odd
//! primes 3 to 257. Its terms are due to Conway (p ≤ 7), Lenstra (p ≤ 43), Lieven Le Bruyn
//! (p ≤ 67) and Aaron N. Siegel (the rest, computed with CGSuite, 2025). The κ_f(p) are
//! computed here from Lenstra's definition, and the tests compare them with the sets
//! tabulated in CGSuite for every p ≤ 257. The tests also *recompute* the excess with this
//! engine, by Lenstra's criterion: x is a p-th power below ω^(ω^n) exactly when
//! x^((2^D − 1)/p) = 1, where D is a multiple of f(p) and of the degree of x with all prime
//! factors below p. That runs on every test for p ≤ 43; two ignored (slower) tests extend it
//! to p = 47 and to every tabulated p whose α_p has degree at most 1000 over GF(2), 41 of
//! the 54 primes in all (including m₁₉ = m₁₆₃ = 4), and every one agrees with the table. OEIS lists excesses for
//! some larger primes; they are not used, because the κ_f(p) for p > 257 have not been
//! cross-checked. A product that needs α_p for p > 257 is
//! [`OrdinalError::UnknownExcess`], never a guess. See [`alpha`] and [`lenstra_excess`].
//!
//! # Inverses
//!
//! An element x whose highest generator is κ = κ_{n,k} is a polynomial of degree below p in κ
//! over the field K of nimbers below κ, and κ is a root of t^p − c with c in K. The extended
//! Euclidean algorithm on x(t) and t^p − c, with pseudo-division (multiplying by leading
//! coefficients instead of dividing by them), produces s(t) with s·x = r for a non-zero r in
//! K; then x⁻¹ = s·r⁻¹ needs one inverse in K, found the same way one level down, down to
//! the finite nimbers, where x⁻¹ = x^(2^64 − 2). Powers use repeated squaring, and a square
//! costs one monomial product per term, since squaring is additive in characteristic 2.
//!
//! # Notation
//!
//! [`Ordinal::parse`] (also [`parse`] and `str::parse`) reads a Cantor normal form:
//!
//! ```text
//! ordinal  := "0" | term ( "+" term )*
//! term     := natural | omega [ "^" exponent ] [ times natural ]
//! exponent := natural | omega | "(" ordinal ")"
//! omega    := "w" | "ω"
//! times    := "*" | "·"
//! natural  := decimal digits
//! ```
//!
//! Spaces may appear between any two tokens. The terms must be in strictly decreasing order
//! (`w + 1`, not `1 + w`: as ordinals 1 + ω is ω, and reading it as a nim-sum would hide a
//! mistake). Coefficients and exponents are positive (`w*0` and `w^0` are refused). A
//! non-atomic exponent needs parentheses: `w^(w^2)`, `w^(w*2 + 1)`, while `w^w^2` is refused
//! as ambiguous. The value must be below ω^(ω^ω): `w^(w^w)` is refused.
//!
//! `Display` writes the canonical form: terms from the largest down joined by `" + "`; a
//! term is its coefficient alone when the exponent is 0, and otherwise `w`, `w^k` (finite
//! k ≥ 2), `w^w`, or `w^(…)` around any other exponent, followed by `*c` (no spaces) when the
//! coefficient c is at least 2. Exponents are written by the same rules; zero is `0`. So
//! `ω^(ω^2·3+1)` is displayed `w^(w^2*3 + 1)`, and parsing a display gives back the ordinal.
//!
//! # Limits
//!
//! Coefficients are finite nimbers below 2^64; the coefficient a_n of ω^n in an exponent is
//! below [`exponent_cap`]`(n)`, the first power of p_n that is at least 2^32; exponents use
//! ω^n for n below 1024; an ordinal has at most [`MAX_TERMS`] terms and [`MAX_CELLS`]
//! exponent coefficients in all, and one operation does at most [`WORK_BUDGET`] units of
//! work (about one monomial product each). Anything past these is an
//! [`OrdinalError`] (one line, naming the input), never a panic or a hang.
//!
//! # Example
//!
//! ```
//! use nimbook::nim::ordinal::{alpha, Ordinal};
//!
//! let w: Ordinal = "w".parse()?;
//! assert_eq!(w.pow(3)?, Ordinal::from_u64(2));
//! assert_eq!(alpha(7)?.to_string(), "w + 1");
//! let x: Ordinal = "w^(w^2)*3 + w + 4".parse()?;
//! assert_eq!(x.nim_mul(&x.inv()?)?, Ordinal::one());
//! # Ok::<(), nimbook::nim::ordinal::OrdinalError>(())
//! ```

mod inverse;
mod notation;
mod product;
mod table;
mod work;

use std::cmp::Ordering;

use num_bigint::BigUint;

use crate::nim::Nimber;
use inverse::inv;
use product::{mul, square};
use work::{Operation, TermMap, Work};

/// The coefficients a_n of an exponent ω^N·a_N + … + a₀ must be below the first power of
/// p_n (the (n+1)-th odd prime) that is at least this number, 2^32; see [`exponent_cap`].
pub const MAX_EXPONENT_COEFFICIENT: u64 = 1 << 32;

/// The bound on the coefficient a_n of ω^n in an exponent: the least power of p_n (the
/// (n+1)-th odd prime) that is at least [`MAX_EXPONENT_COEFFICIENT`], or 0 when n ≥ 1024.
///
/// The bound is a power of p_n so that the exponents below it are exactly those with a
/// fixed number of base-p_n digits, and products (which add digits and carry downwards)
/// never leave that set.
pub fn exponent_cap(n: usize) -> u64 {
    let Some(&p) = table::odd_primes().get(n) else {
        return 0;
    };
    let mut c = 1u64;
    while c < MAX_EXPONENT_COEFFICIENT {
        c *= p;
    }
    c
}
/// The most terms an ordinal may have, as input or as a result.
pub const MAX_TERMS: usize = 100_000;
/// The most exponent coefficients (terms × levels of the longest exponent) an ordinal may
/// store, as input or as a result: 4 million, 32 MB.
pub const MAX_CELLS: usize = 4_000_000;
/// The work one operation may do, in units of one monomial product (on exponents of fewer
/// than 16 levels; longer exponents cost one more unit per 16 levels) or one Euclid step.
pub const WORK_BUDGET: u64 = 2_000_000;
/// The deepest recursion (through the α's in a product, or down the tower in an inverse).
const MAX_DEPTH: u32 = 512;

/// Errors of ordinal nim-arithmetic and notation. Every message is one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OrdinalError {
    /// The text is not an ordinal in Cantor normal form.
    #[error("`{input}` is not an ordinal in Cantor normal form: {reason} at byte {offset}")]
    Malformed {
        /// The text that was parsed.
        input: String,
        /// Byte offset of the problem in `input`.
        offset: usize,
        /// What was wrong.
        reason: String,
    },
    /// The ordinal is at or beyond ω^(ω^ω).
    #[error("`{0}` is not below w^(w^w): only ordinals below w^(w^w) are nimbers of the algebraic closure of 2")]
    OutOfRange(String),
    /// A coefficient (or exponent coefficient or level) past the caps of this engine.
    #[error("`{input}` is too large: {what}")]
    TooLarge {
        /// The text or value concerned.
        input: String,
        /// Which cap was passed.
        what: String,
    },
    /// The operation needs α_p for a prime p whose excess is not tabulated.
    #[error("`{input}` needs (w^(w^{n}))^{p}, but the Lenstra excess of {p} is not tabulated (known for odd primes up to {known})")]
    UnknownExcess {
        /// The operation that needed it.
        input: String,
        /// The odd prime.
        p: u64,
        /// Its index: p is the (n+1)-th odd prime.
        n: usize,
        /// The largest tabulated prime.
        known: u64,
    },
    /// The operation would pass the term cap or the work budget.
    #[error("`{input}` was refused: {what}")]
    Budget {
        /// The operation concerned.
        input: String,
        /// Which budget was exhausted.
        what: String,
    },
    /// Inverse of (or division by) zero.
    #[error("`{0}` has no inverse: 0 is not invertible")]
    DivisionByZero(String),
    /// `alpha` was asked about a number that is not an odd prime.
    #[error("`{0}` is not an odd prime")]
    NotOddPrime(u64),
}

/// An exponent ω^N·a_N + … + ω·a₁ + a₀ below ω^ω, stored as [a₀, a₁, …, a_N] with a_N ≠ 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
struct Exponent(Vec<u64>);

impl Ord for Exponent {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

impl PartialOrd for Exponent {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Exponent {
    fn trim(mut v: Vec<u64>) -> Self {
        while v.last() == Some(&0) {
            v.pop();
        }
        Exponent(v)
    }
}

/// An ordinal below ω^(ω^ω), in Cantor normal form with finite coefficients.
///
/// The value is Σ ω^e·c over its terms; the exponents e are ordinals below ω^ω and the
/// coefficients c are naturals below 2^64 (read as finite nimbers). The derived equality and
/// hashing are those of the ordinal, because the form is kept canonical (exponents strictly
/// decreasing, no zero coefficient). `Ord` is the ordinal order; `Default` is 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Ordinal {
    /// Terms with strictly decreasing exponents and non-zero coefficients.
    terms: Vec<(Exponent, u64)>,
}

impl Ord for Ordinal {
    fn cmp(&self, other: &Self) -> Ordering {
        for (a, b) in self.terms.iter().zip(&other.terms) {
            let c = a.0.cmp(&b.0).then(a.1.cmp(&b.1));
            if c != Ordering::Equal {
                return c;
            }
        }
        self.terms.len().cmp(&other.terms.len())
    }
}

impl PartialOrd for Ordinal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ordinal {
    /// The ordinal 0.
    pub fn zero() -> Self {
        Ordinal { terms: Vec::new() }
    }

    /// The ordinal 1.
    pub fn one() -> Self {
        Ordinal::from_u64(1)
    }

    /// The finite ordinal (and nimber) `n`.
    pub fn from_u64(n: u64) -> Self {
        if n == 0 {
            Ordinal::zero()
        } else {
            Ordinal {
                terms: vec![(Exponent::default(), n)],
            }
        }
    }

    /// The ordinal ω.
    pub fn omega() -> Self {
        Ordinal {
            terms: vec![(Exponent(vec![1]), 1)],
        }
    }

    /// The ordinal ω^e·c, where e = Σ ω^n·`exponent[n]` (`exponent[0]` is the finite part).
    ///
    /// Errors if an exponent coefficient `exponent[n]` is not below [`exponent_cap`]`(n)` or
    /// the exponent uses ω^n for n ≥ 1024.
    pub fn monomial(exponent: &[u64], coefficient: u64) -> Result<Self, OrdinalError> {
        if exponent.len() > table::MAX_LEVELS {
            return Err(OrdinalError::TooLarge {
                input: format!("{exponent:?}"),
                what: format!("exponents may use w^n only for n < {}", table::MAX_LEVELS),
            });
        }
        for (n, &a) in exponent.iter().enumerate() {
            if a >= exponent_cap(n) {
                return Err(OrdinalError::TooLarge {
                    input: a.to_string(),
                    what: format!(
                        "the coefficient of w^{n} in an exponent must be below {}",
                        exponent_cap(n)
                    ),
                });
            }
        }
        if coefficient == 0 {
            return Ok(Ordinal::zero());
        }
        Ok(Ordinal {
            terms: vec![(Exponent::trim(exponent.to_vec()), coefficient)],
        })
    }

    /// The finite nimber as an ordinal (errors if it is 2^64 or more).
    pub fn from_nimber(n: &Nimber) -> Result<Self, OrdinalError> {
        n.to_u64()
            .map(Ordinal::from_u64)
            .ok_or_else(|| OrdinalError::TooLarge {
                input: n.to_string(),
                what: "coefficients are below 2^64".to_string(),
            })
    }

    /// The finite nimber equal to this ordinal, if it is finite.
    pub fn to_nimber(&self) -> Option<Nimber> {
        self.to_u64().map(Nimber::from_u64)
    }

    /// The value, if the ordinal is finite.
    pub fn to_u64(&self) -> Option<u64> {
        match self.terms.as_slice() {
            [] => Some(0),
            [(e, c)] if e.0.is_empty() => Some(*c),
            _ => None,
        }
    }

    /// Whether this is 0.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// Whether this ordinal is finite.
    pub fn is_finite(&self) -> bool {
        self.to_u64().is_some()
    }

    /// The terms ω^e·c from the largest down, each as (e, c) with e = Σ ω^n·`e[n]`.
    pub fn terms(&self) -> impl Iterator<Item = (&[u64], u64)> + '_ {
        self.terms.iter().map(|(e, c)| (e.0.as_slice(), *c))
    }

    /// Build from unsorted terms, adding coefficients of equal exponents as nimbers.
    fn from_map(map: TermMap) -> Self {
        let mut terms: Vec<(Exponent, u64)> = map.into_iter().filter(|t| t.1 != 0).collect();
        terms.sort_unstable_by(|a, b| b.0.cmp(&a.0));
        Ordinal { terms }
    }

    /// The nim-sum: coefficients of equal exponents are added as finite nimbers (xor).
    pub fn nim_add(&self, other: &Ordinal) -> Ordinal {
        let mut out = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            let ord = match (self.terms.get(i), other.terms.get(j)) {
                (Some(a), Some(b)) => b.0.cmp(&a.0),
                (Some(_), None) => Ordering::Less,
                _ => Ordering::Greater,
            };
            match ord {
                Ordering::Less => {
                    out.push(self.terms[i].clone());
                    i += 1;
                }
                Ordering::Greater => {
                    out.push(other.terms[j].clone());
                    j += 1;
                }
                Ordering::Equal => {
                    let c = self.terms[i].1 ^ other.terms[j].1;
                    if c != 0 {
                        out.push((self.terms[i].0.clone(), c));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        Ordinal { terms: out }
    }

    /// The nim-product. Errors only past the caps or when an untabulated α_p is needed.
    pub fn nim_mul(&self, other: &Ordinal) -> Result<Ordinal, OrdinalError> {
        let mut work = Work::new(Operation::Mul(self, other));
        mul(self, other, &mut work)
    }

    /// The nim-inverse; an error for 0.
    pub fn inv(&self) -> Result<Ordinal, OrdinalError> {
        if self.is_zero() {
            return Err(OrdinalError::DivisionByZero(self.to_string()));
        }
        let mut work = Work::new(Operation::Inv(self));
        inv(self, &mut work)
    }

    /// The nim-quotient self ⊘ other; an error when other is 0.
    pub fn nim_div(&self, other: &Ordinal) -> Result<Ordinal, OrdinalError> {
        if other.is_zero() {
            return Err(OrdinalError::DivisionByZero(other.to_string()));
        }
        let mut work = Work::new(Operation::Div(self, other));
        let i = inv(other, &mut work)?;
        mul(self, &i, &mut work)
    }

    /// The nim-power self^e (with 0^0 = 1).
    pub fn pow(&self, e: u64) -> Result<Ordinal, OrdinalError> {
        self.pow_big(&BigUint::from(e))
    }

    /// The nim-power self^e for a big exponent (with 0^0 = 1), by repeated squaring.
    pub fn pow_big(&self, e: &BigUint) -> Result<Ordinal, OrdinalError> {
        let mut work = Work::new(Operation::Pow(self, e));
        let mut result = Ordinal::one();
        for i in (0..e.bits()).rev() {
            result = square(&result, &mut work)?;
            if e.bit(i) {
                result = mul(&result, self, &mut work)?;
            }
        }
        Ok(result)
    }
}

/// The p-th nim-power of ω^(ω^n), where p is the (n+1)-th odd prime: Lenstra's α_p.
///
/// Computed by [`Ordinal::pow`], so the value is what the multiplication engine actually
/// uses. α₃ = 2, α₅ = 4, α₇ = w + 1, α₁₁ = w^w + 1, α₁₃ = w + 4, α₁₉ = w^3 + 4, …
/// Tabulated for the odd primes up to 257 (the sources and checks are in the module
/// documentation, section "The constants α_p"): [`OrdinalError::UnknownExcess`] for larger
/// primes, [`OrdinalError::NotOddPrime`] for numbers that are not odd primes.
pub fn alpha(p: u64) -> Result<Ordinal, OrdinalError> {
    let n = table::odd_prime_index(p).ok_or(OrdinalError::NotOddPrime(p))?;
    let mut e = vec![0u64; n + 1];
    e[n] = 1;
    let kappa = Ordinal {
        terms: vec![(Exponent(e), 1)],
    };
    kappa.pow(p)
}

/// The Lenstra excess m_p of an odd prime p (OEIS A380496), if tabulated.
pub fn lenstra_excess(p: u64) -> Result<u64, OrdinalError> {
    let n = table::odd_prime_index(p).ok_or(OrdinalError::NotOddPrime(p))?;
    table::EXCESS
        .get(n)
        .copied()
        .ok_or_else(|| OrdinalError::UnknownExcess {
            input: format!("lenstra_excess({p})"),
            p,
            n,
            known: table::odd_primes()[table::EXCESS.len() - 1],
        })
}

/// Parse an ordinal in Cantor normal form; see [`Ordinal::parse`].
pub fn parse(s: &str) -> Result<Ordinal, OrdinalError> {
    Ordinal::parse(s)
}

#[cfg(test)]
mod tests;
