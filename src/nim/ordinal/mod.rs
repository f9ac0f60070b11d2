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

mod notation;
mod table;

use std::cmp::Ordering;

use num_bigint::BigUint;

use crate::nim::Nimber;

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

/// Terms being accumulated: exponent to coefficient. Exponents are short vectors of small
/// integers and every operation is bounded by the work budget, so a fast non-keyed hash is
/// enough.
type TermMap = rustc_hash::FxHashMap<Exponent, u64>;

fn term_map(capacity: usize) -> TermMap {
    TermMap::with_capacity_and_hasher(capacity, Default::default())
}

/// The operation being computed, kept to name it in errors.
enum Operation<'a> {
    Mul(&'a Ordinal, &'a Ordinal),
    Div(&'a Ordinal, &'a Ordinal),
    Inv(&'a Ordinal),
    Pow(&'a Ordinal, &'a BigUint),
}

/// The work counter of one operation.
struct Work<'a> {
    left: u64,
    depth: u32,
    /// The levels of the longest exponent of the operands; results are never wider.
    width: usize,
    op: Operation<'a>,
}

impl<'a> Work<'a> {
    fn new(op: Operation<'a>) -> Self {
        let width = |x: &Ordinal| x.terms.first().map_or(0, |t| t.0 .0.len());
        let width = match op {
            Operation::Mul(a, b) | Operation::Div(a, b) => width(a).max(width(b)),
            Operation::Inv(a) | Operation::Pow(a, _) => width(a),
        };
        Work {
            left: WORK_BUDGET,
            depth: 0,
            width,
            op,
        }
    }
    /// The operation, written out (long operands cut short), for error messages.
    fn input(&self) -> String {
        match self.op {
            Operation::Mul(a, b) => format!("({}) * ({})", short(a), short(b)),
            Operation::Div(a, b) => format!("({}) / ({})", short(a), short(b)),
            Operation::Inv(a) => format!("inv({})", short(a)),
            Operation::Pow(a, e) => {
                let digits = e.to_string();
                let e = if digits.len() > 40 {
                    format!("{}...({} digits)", &digits[..20], digits.len())
                } else {
                    digits
                };
                format!("({})^{e}", short(a))
            }
        }
    }
    fn spend(&mut self, n: u64) -> Result<(), OrdinalError> {
        if self.left < n {
            return Err(OrdinalError::Budget {
                input: self.input(),
                what: format!("more than {WORK_BUDGET} monomial products"),
            });
        }
        self.left -= n;
        Ok(())
    }
    /// Enter one level of recursion; refuse past [`MAX_DEPTH`] so the stack stays small.
    fn enter(&mut self) -> Result<(), OrdinalError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(OrdinalError::Budget {
                input: self.input(),
                what: format!("recursion deeper than {MAX_DEPTH} levels of the tower"),
            });
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
    fn check_terms(&self, n: usize) -> Result<(), OrdinalError> {
        if n > MAX_TERMS || n.saturating_mul(self.width.max(1)) > MAX_CELLS {
            return Err(OrdinalError::Budget {
                input: self.input(),
                what: format!(
                    "the result would have more than {MAX_TERMS} terms or {MAX_CELLS} exponent coefficients"
                ),
            });
        }
        Ok(())
    }
    fn unknown(&self, n: usize) -> OrdinalError {
        let primes = table::odd_primes();
        OrdinalError::UnknownExcess {
            input: self.input(),
            p: primes[n],
            n,
            known: primes[table::alpha_specs().len().saturating_sub(1)],
        }
    }
}

/// The display of an ordinal, cut to 60 characters for error messages.
fn short(x: &Ordinal) -> String {
    let s = x.to_string();
    if s.chars().count() <= 60 {
        s
    } else {
        let mut t: String = s.chars().take(57).collect();
        t.push_str("...");
        t
    }
}

/// The base-p digits of a, least significant first.
fn digits(mut a: u64, p: u64) -> Vec<u64> {
    let mut d = Vec::new();
    while a > 0 {
        d.push(a % p);
        a /= p;
    }
    d
}

/// Multiply two monomials' exponents: add digit by digit in base p_n with carries downward.
/// Returns the reduced exponent and the levels n whose last place carried out (each such
/// level contributes one factor α_{p_n}).
fn add_exponents(a: &Exponent, b: &Exponent, overflow: &mut Vec<usize>) -> Exponent {
    overflow.clear();
    let (long, short) = if a.0.len() >= b.0.len() {
        (a, b)
    } else {
        (b, a)
    };
    let mut out = long.0.clone();
    let primes = table::odd_primes();
    for (n, &y) in short.0.iter().enumerate() {
        let x = out[n];
        if y == 0 {
            continue;
        }
        if x == 0 {
            out[n] = y;
            continue;
        }
        let p = primes[n];
        // Fast path: adding the lowest digits without any carry.
        if x % p + y % p < p && (x < p || y < p) {
            out[n] = x + y;
            continue;
        }
        // Base-p digits, least significant first (at most 21 of them below the caps).
        let mut dx = [0u64; 32];
        let mut dy = [0u64; 32];
        let mut len = 0;
        let (mut u, mut v) = (x, y);
        while (u > 0 || v > 0) && len < 32 {
            dx[len] = u % p;
            dy[len] = v % p;
            u /= p;
            v /= p;
            len += 1;
        }
        // Walk the places from the highest down; a place that reaches p carries one down.
        let mut carry = 0u64;
        for k in (0..len).rev() {
            let d = dx[k] + dy[k] + carry;
            if d >= p {
                dx[k] = d - p;
                carry = 1;
            } else {
                dx[k] = d;
                carry = 0;
            }
        }
        let sum = dx[..len].iter().rev().fold(0u64, |acc, &d| acc * p + d);
        if carry == 1 {
            overflow.push(n);
        }
        out[n] = sum;
    }
    Exponent::trim(out)
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

/// α_p for the (n+1)-th odd prime, as an ordinal: the sum of Lenstra's κ's plus the excess.
fn alpha_value(n: usize) -> Option<&'static Ordinal> {
    static ALPHAS: std::sync::OnceLock<Vec<Ordinal>> = std::sync::OnceLock::new();
    let all = ALPHAS.get_or_init(|| {
        let primes = table::odd_primes();
        let mut out = Vec::new();
        for spec in table::alpha_specs() {
            let mut a = Ordinal::from_u64(spec.excess);
            let mut ok = true;
            for &q in &spec.parts {
                let kappa = if q.is_power_of_two() {
                    // κ_{2^j} = 2^(2^(j-1)), a finite nimber; it must fit a coefficient.
                    let j = q.trailing_zeros();
                    if j == 0 || j > 6 {
                        ok = false;
                        break;
                    }
                    Ordinal::from_u64(1u64 << (1u32 << (j - 1)))
                } else {
                    // q = r^j: κ_q = ω^(ω^m · r^(j-1)) with r the (m+1)-th odd prime.
                    let Some((m, r)) = primes.iter().enumerate().find(|(_, &r)| q % r == 0) else {
                        ok = false;
                        break;
                    };
                    let mut exp = vec![0u64; m + 1];
                    exp[m] = q / r;
                    Ordinal {
                        terms: vec![(Exponent(exp), 1)],
                    }
                };
                a = a.nim_add(&kappa);
            }
            if !ok {
                break;
            }
            out.push(a);
        }
        out
    });
    all.get(n)
}

/// Add c·ω^e ⊗ Π α_{p_n} (n over `pending`) into `acc`.
///
/// Each α_{p_n} only involves levels below n, so multiplying by it can only carry at lower
/// levels; taking the highest pending level first makes the recursion shallow and finite.
fn accumulate(
    e: Exponent,
    c: u64,
    pending: &mut Vec<usize>,
    acc: &mut TermMap,
    work: &mut Work<'_>,
) -> Result<(), OrdinalError> {
    let Some(n) = pending.pop() else {
        *acc.entry(e).or_insert(0) ^= c;
        return Ok(());
    };
    let alpha = alpha_value(n).ok_or_else(|| work.unknown(n))?;
    work.spend(alpha.terms.len() as u64 * cost(e.0.len()))?;
    work.enter()?;
    let mut overflow = Vec::new();
    for (ea, ca) in &alpha.terms {
        let e2 = add_exponents(&e, ea, &mut overflow);
        // Merge the two ascending lists of levels still to multiply in.
        let mut next = Vec::with_capacity(pending.len() + overflow.len());
        let (mut i, mut j) = (0, 0);
        while i < pending.len() || j < overflow.len() {
            if j == overflow.len() || (i < pending.len() && pending[i] <= overflow[j]) {
                next.push(pending[i]);
                i += 1;
            } else {
                next.push(overflow[j]);
                j += 1;
            }
        }
        accumulate(e2, crate::nim::small::mul64(c, *ca), &mut next, acc, work)?;
    }
    work.leave();
    pending.push(n);
    Ok(())
}

/// The budget units of one monomial product on exponents of `len` levels: copying and
/// hashing an exponent costs time in proportion to its length.
fn cost(len: usize) -> u64 {
    1 + len as u64 / 16
}

/// The nim-product with a work counter.
fn mul(a: &Ordinal, b: &Ordinal, work: &mut Work<'_>) -> Result<Ordinal, OrdinalError> {
    if a.is_zero() || b.is_zero() {
        return Ok(Ordinal::zero());
    }
    let mut acc = term_map(a.terms.len().saturating_mul(b.terms.len()).min(MAX_TERMS));
    let mut overflow = Vec::new();
    // Exponents are sorted, so the first term has the longest exponent.
    let b_len = b.terms.first().map_or(0, |t| t.0 .0.len());
    for (ea, ca) in &a.terms {
        work.spend(b.terms.len() as u64 * cost(ea.0.len().max(b_len)))?;
        for (eb, cb) in &b.terms {
            let c = crate::nim::small::mul64(*ca, *cb);
            let e = add_exponents(ea, eb, &mut overflow);
            if overflow.is_empty() {
                *acc.entry(e).or_insert(0) ^= c;
            } else {
                accumulate(e, c, &mut overflow, &mut acc, work)?;
            }
            work.check_terms(acc.len())?;
        }
    }
    Ok(Ordinal::from_map(acc))
}

/// The nim-square, term by term: in characteristic 2, (Σ c·m)² = Σ c²·m² (Frobenius).
fn square(a: &Ordinal, work: &mut Work<'_>) -> Result<Ordinal, OrdinalError> {
    let mut acc = term_map(a.terms.len());
    let mut overflow = Vec::new();
    let a_len = a.terms.first().map_or(0, |t| t.0 .0.len());
    work.spend(a.terms.len() as u64 * cost(a_len))?;
    for (e, c) in &a.terms {
        let c2 = crate::nim::small::mul64(*c, *c);
        let e2 = add_exponents(e, e, &mut overflow);
        if overflow.is_empty() {
            *acc.entry(e2).or_insert(0) ^= c2;
        } else {
            accumulate(e2, c2, &mut overflow, &mut acc, work)?;
        }
        work.check_terms(acc.len())?;
    }
    Ok(Ordinal::from_map(acc))
}

/// The generator κ_{n,k} = ω^(ω^n·p_n^k) of highest rank in x, as (n, k), if x is infinite.
fn top_generator(x: &Ordinal) -> Option<(usize, usize)> {
    let primes = table::odd_primes();
    x.terms
        .iter()
        .filter_map(|(e, _)| {
            let n = e.0.len().checked_sub(1)?;
            let k = digits(e.0[n], primes[n]).len() - 1;
            Some((n, k))
        })
        .max()
}

/// A polynomial in κ over the field below κ: coefficient i is the part of degree i.
type Poly = Vec<Ordinal>;

fn poly_trim(p: &mut Poly) {
    while p.last().is_some_and(Ordinal::is_zero) {
        p.pop();
    }
}

/// The nim-inverse with a work counter (x is not zero).
fn inv(x: &Ordinal, work: &mut Work<'_>) -> Result<Ordinal, OrdinalError> {
    let Some((n, k)) = top_generator(x) else {
        let v = x.to_u64().unwrap_or(0);
        // x is not zero; the guard keeps a zero from reaching the table inverse all the same.
        let inverse = if v == 0 {
            0
        } else {
            crate::nim::small::tables().inv64(v)
        };
        return Ok(Ordinal::from_u64(inverse));
    };
    let p = table::odd_primes()[n];
    let pk = p.pow(k as u32);
    // Split x = Σ x_i κ^i with x_i below κ.
    let mut xs: Poly = vec![Ordinal::zero(); p as usize];
    for (e, c) in &x.terms {
        let d = if e.0.len() == n + 1 {
            (e.0[n] / pk) % p
        } else {
            0
        };
        let mut e2 = e.0.clone();
        if d != 0 {
            e2[n] -= d * pk;
        }
        xs[d as usize].terms.push((Exponent::trim(e2), *c));
    }
    for xi in &mut xs {
        xi.terms.sort_unstable_by(|a, b| b.0.cmp(&a.0));
    }
    // κ^p = c, with c = κ_{n,k-1} or α_p.
    let c = if k >= 1 {
        let mut e = vec![0u64; n + 1];
        e[n] = pk / p;
        Ordinal {
            terms: vec![(Exponent(e), 1)],
        }
    } else {
        alpha_value(n).ok_or_else(|| work.unknown(n))?.clone()
    };
    // Extended Euclid with pseudo-division: invariant s_j · x ≡ r_j (mod κ^p − c).
    let mut r0: Poly = vec![Ordinal::zero(); p as usize + 1];
    r0[0] = c.clone();
    r0[p as usize] = Ordinal::one();
    let mut s0: Poly = vec![Ordinal::zero()];
    let mut r1 = xs;
    poly_trim(&mut r1);
    let mut s1: Poly = vec![Ordinal::one()];
    while r1.len() > 1 {
        while r0.len() >= r1.len() {
            let shift = r0.len() - r1.len();
            let lead0 = r0.last().cloned().unwrap_or_default();
            let lead1 = r1.last().cloned().unwrap_or_default();
            work.spend(1)?;
            // r0 ← lead1·r0 + lead0·t^shift·r1, and the same on s.
            let mut nr = Vec::with_capacity(r0.len());
            for (i, r) in r0.iter().enumerate() {
                let mut v = mul(&lead1, r, work)?;
                if i >= shift {
                    v = v.nim_add(&mul(&lead0, &r1[i - shift], work)?);
                }
                nr.push(v);
            }
            poly_trim(&mut nr);
            r0 = nr;
            let len = s0.len().max(s1.len() + shift);
            let mut ns = vec![Ordinal::zero(); len];
            for (i, s) in s0.iter().enumerate() {
                ns[i] = mul(&lead1, s, work)?;
            }
            for (i, s) in s1.iter().enumerate() {
                ns[i + shift] = ns[i + shift].nim_add(&mul(&lead0, s, work)?);
            }
            // Reduce modulo κ^p = c.
            while ns.len() > p as usize {
                let top = ns.pop().unwrap_or_default();
                let i = ns.len() - p as usize;
                ns[i] = ns[i].nim_add(&mul(&top, &c, work)?);
            }
            poly_trim(&mut ns);
            s0 = ns;
            if r0.is_empty() {
                break;
            }
        }
        if r0.is_empty() {
            // Cannot happen: κ^p − c is irreducible, so the gcd with x ≠ 0 is a constant.
            return Err(OrdinalError::Budget {
                input: work.input(),
                what: "internal error: the Euclidean algorithm found a common factor".into(),
            });
        }
        std::mem::swap(&mut r0, &mut r1);
        std::mem::swap(&mut s0, &mut s1);
    }
    let r = r1.pop().unwrap_or_default();
    work.enter()?;
    let rinv = inv(&r, work)?;
    work.leave();
    // Reassemble s1 as an ordinal: κ^i ⊗ y for y below κ puts digit i at (n, k).
    let mut acc = term_map(0);
    for (i, si) in s1.iter().enumerate() {
        let y = mul(si, &rinv, work)?;
        for (e, cf) in y.terms {
            let mut e2 = e.0;
            if i > 0 {
                e2.resize(e2.len().max(n + 1), 0);
                e2[n] += i as u64 * pk;
            }
            *acc.entry(Exponent::trim(e2)).or_insert(0) ^= cf;
        }
    }
    work.check_terms(acc.len())?;
    Ok(Ordinal::from_map(acc))
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
