//! Sparse multivariate polynomials with nimber coefficients.
//!
//! A polynomial is a map from monomials (one exponent per variable, each an arbitrary natural
//! number) to their non-zero coefficients, so `a ^ (2^64)` is one term and costs nothing.
//! Every operation works in a [`Ring`], which knows, for each variable, whether it ranges over
//! all nimbers or over a finite field `GF(q)`, `q = 2^(2^k)`. In the second case the ring
//! computes in `GF(q)[x]/(x^q − x)`: since every element of `GF(q)` satisfies `x^q = x`, an
//! exponent `e ≥ 1` may be replaced by `((e − 1) mod (q − 1)) + 1`, and after that reduction two
//! polynomials agree on every point of the field exactly when they are equal.
//!
//! Powers use the Frobenius map: in characteristic 2, `(Σ cᵢ mᵢ)^(2^j) = Σ cᵢ^(2^j) mᵢ^(2^j)`,
//! so `p^e` is the product of one such image for each set bit of `e`. Every product checks the
//! term budget before it is formed.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::nim::Nimber;

/// The exponents of one monomial, one per variable.
pub(crate) type Monomial = Vec<BigUint>;

/// A polynomial: its non-zero terms.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Poly {
    terms: BTreeMap<Monomial, Nimber>,
}

impl Poly {
    /// Whether this is the zero polynomial.
    pub(crate) fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The number of terms.
    pub(crate) fn len(&self) -> usize {
        self.terms.len()
    }

    /// The largest coefficient, which decides the field the values live in.
    pub(crate) fn largest_coefficient(&self) -> Option<&Nimber> {
        self.terms.values().max()
    }

    fn add_term(&mut self, m: Monomial, c: Nimber) {
        if c.is_zero() {
            return;
        }
        match self.terms.entry(m) {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(c);
            }
            std::collections::btree_map::Entry::Occupied(mut o) => {
                let sum = o.get().nim_add(&c);
                if sum.is_zero() {
                    o.remove();
                } else {
                    *o.get_mut() = sum;
                }
            }
        }
    }

    /// The value at `point` (one nimber per variable).
    #[cfg(test)]
    pub(crate) fn eval(&self, point: &[Nimber]) -> Nimber {
        let mut sum = Nimber::zero();
        for (m, c) in &self.terms {
            let mut t = c.clone();
            for (x, e) in point.iter().zip(m) {
                if !e.is_zero() {
                    t = t.nim_mul(&x.pow(e));
                }
            }
            sum = sum.nim_add(&t);
        }
        sum
    }
}

/// A budget of the expansion that was exceeded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Overrun {
    /// A polynomial would have more terms than the budget.
    Terms {
        /// How many terms it would have had (at least).
        reached: usize,
        /// The budget.
        budget: usize,
    },
    /// The expansion or the search for a counterexample ran out of time.
    Time {
        /// The budget, in seconds.
        seconds: u64,
    },
    /// An exponent would need more bits than the budget.
    Degree {
        /// The bits of the exponent.
        bits: u64,
        /// The budget.
        budget: u64,
    },
}

impl std::fmt::Display for Overrun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Overrun::Terms { reached, budget } => write!(
                f,
                "expanding the polynomial needs at least {reached} terms; the budget is {budget} terms ([nimbook] max-terms)"
            ),
            Overrun::Time { seconds } => write!(
                f,
                "the polynomial method ran out of its time budget of {seconds} s ([nimbook] max-seconds)"
            ),
            Overrun::Degree { bits, budget } => write!(
                f,
                "expanding the polynomial needs an exponent of {bits} bits; the degree budget is {budget} bits ([nimbook] max-bits)"
            ),
        }
    }
}

/// Polynomials in a fixed list of variables, each over all nimbers or over one finite field.
#[derive(Debug, Clone)]
pub(crate) struct Ring {
    /// For each variable, `Some(q)` when it ranges over `GF(q)` (exponents reduced with
    /// `x^q = x`), `None` when it ranges over an infinite set.
    fields: Vec<Option<BigUint>>,
    /// The most terms one polynomial may have.
    max_terms: usize,
    /// The most bits one exponent may have.
    max_degree_bits: u64,
    /// When the work must stop, and the budget that sets it.
    deadline: Option<std::time::Instant>,
    seconds: u64,
}

impl Ring {
    /// A ring with one variable per entry of `fields`, whose work stops after `time`.
    pub(crate) fn new(
        fields: Vec<Option<BigUint>>,
        max_terms: usize,
        max_degree_bits: u64,
        time: std::time::Duration,
    ) -> Self {
        Ring {
            fields,
            max_terms,
            max_degree_bits,
            // A time too far off for the clock to hold is no deadline (a library caller's
            // `Duration::MAX`), rather than a panic.
            deadline: std::time::Instant::now().checked_add(time),
            seconds: time.as_secs(),
        }
    }

    fn check_time(&self) -> Result<(), Overrun> {
        if self
            .deadline
            .is_some_and(|deadline| std::time::Instant::now() > deadline)
            || crate::game::cancel::is_raised()
        {
            return Err(Overrun::Time {
                seconds: self.seconds,
            });
        }
        Ok(())
    }

    /// The number of variables.
    pub(crate) fn arity(&self) -> usize {
        self.fields.len()
    }

    /// The field `GF(q)` of variable `v`, if it is finite.
    pub(crate) fn field(&self, v: usize) -> Option<&BigUint> {
        self.fields.get(v).and_then(Option::as_ref)
    }

    /// The constant `c`.
    pub(crate) fn constant(&self, c: Nimber) -> Poly {
        let mut p = Poly::default();
        p.add_term(vec![BigUint::zero(); self.arity()], c);
        p
    }

    /// The variable `v` itself.
    pub(crate) fn var(&self, v: usize) -> Poly {
        let mut m = vec![BigUint::zero(); self.arity()];
        if let Some(slot) = m.get_mut(v) {
            *slot = BigUint::one();
        }
        let mut p = Poly::default();
        p.add_term(m, Nimber::one());
        p
    }

    /// `p ⊕ q`.
    pub(crate) fn add(&self, p: &Poly, q: &Poly) -> Poly {
        let mut r = p.clone();
        for (m, c) in &q.terms {
            r.add_term(m.clone(), c.clone());
        }
        r
    }

    /// Reduces one exponent of variable `v` with `x^q = x`.
    fn reduce(&self, v: usize, e: BigUint) -> BigUint {
        match self.field(v) {
            Some(q) if !e.is_zero() => ((e - 1u32) % (q - 1u32)) + 1u32,
            _ => e,
        }
    }

    fn check_degree(&self, e: &BigUint) -> Result<(), Overrun> {
        if e.bits() > self.max_degree_bits {
            return Err(Overrun::Degree {
                bits: e.bits(),
                budget: self.max_degree_bits,
            });
        }
        Ok(())
    }

    /// `p ⊗ q`, refused before it is formed when it could have more terms than the budget.
    pub(crate) fn mul(&self, p: &Poly, q: &Poly) -> Result<Poly, Overrun> {
        let bound = p.len().saturating_mul(q.len());
        // The product has at most `bound` terms; forming it costs `bound` nimber products.
        if bound > self.max_terms.saturating_mul(16) {
            return Err(Overrun::Terms {
                reached: p.len().max(q.len()).max(self.max_terms.saturating_add(1)),
                budget: self.max_terms,
            });
        }
        let mut r = Poly::default();
        for (m1, c1) in &p.terms {
            self.check_time()?;
            for (m2, c2) in &q.terms {
                let mut m = Vec::with_capacity(m1.len());
                for (v, (e1, e2)) in m1.iter().zip(m2).enumerate() {
                    let e = self.reduce(v, e1 + e2);
                    self.check_degree(&e)?;
                    m.push(e);
                }
                r.add_term(m, c1.nim_mul(c2));
            }
        }
        if r.len() > self.max_terms {
            return Err(Overrun::Terms {
                reached: r.len(),
                budget: self.max_terms,
            });
        }
        Ok(r)
    }

    /// The image of `p` under the Frobenius map applied `j` times: `p^(2^j)`.
    fn frobenius(&self, p: &Poly, j: u64) -> Result<Poly, Overrun> {
        let two_j = BigUint::one() << j;
        let mut r = Poly::default();
        for (m, c) in &p.terms {
            let mut image = Vec::with_capacity(m.len());
            for (v, e) in m.iter().enumerate() {
                let e = self.reduce(v, e * &two_j);
                self.check_degree(&e)?;
                image.push(e);
            }
            r.add_term(image, c.pow(&two_j));
        }
        Ok(r)
    }

    /// `p^e` for an ordinary exponent `e` (with `p^0 = 1`, also for `p = 0`).
    pub(crate) fn pow(&self, p: &Poly, e: &BigUint) -> Result<Poly, Overrun> {
        let mut r = self.constant(Nimber::one());
        for j in 0..e.bits() {
            if e.bit(j) {
                self.check_time()?;
                let image = self.frobenius(p, j)?;
                r = self.mul(&r, &image)?;
            }
        }
        Ok(r)
    }

    /// A point at which `p` is not zero, with each variable's value taken from its list of
    /// `candidates`; `None` when none is found among them. `p` must be reduced in this ring,
    /// so that a non-zero `p` is non-zero as a function.
    ///
    /// The search is by variables: `p` is written as a polynomial in one variable `v` whose
    /// coefficients are polynomials in the others; a point where one coefficient (the one with
    /// fewest terms) is non-zero is found first, and then a value of `v` that is not a root of
    /// the resulting polynomial in `v` alone. `tries` bounds the number of evaluations, and the
    /// ring's deadline their time.
    pub(crate) fn nonzero_point(
        &self,
        p: &Poly,
        candidates: &[Vec<Nimber>],
        tries: &mut u64,
    ) -> Result<Option<Vec<Nimber>>, Overrun> {
        if p.is_zero() {
            return Ok(None);
        }
        let n = self.arity();
        let Some(v) = (0..n).find(|&v| p.terms.keys().any(|m| !m[v].is_zero())) else {
            // A non-zero constant: any point will do.
            return Ok(candidates
                .iter()
                .map(|c| c.first().cloned())
                .collect::<Option<Vec<_>>>());
        };
        let mut groups: BTreeMap<BigUint, Poly> = BTreeMap::new();
        for (m, c) in &p.terms {
            let mut rest = m.clone();
            let e = std::mem::take(&mut rest[v]);
            groups.entry(e).or_default().add_term(rest, c.clone());
        }
        let Some(coefficient) = groups.values().min_by_key(|q| q.len()) else {
            return Ok(None);
        };
        let Some(mut point) = self.nonzero_point(coefficient, candidates, tries)? else {
            return Ok(None);
        };
        // The polynomial in v alone, the other variables set to `point`.
        let mut alone: BTreeMap<&BigUint, Nimber> = BTreeMap::new();
        for (m, c) in &p.terms {
            let mut t = c.clone();
            for (j, (x, e)) in point.iter().zip(m).enumerate() {
                if j != v && !e.is_zero() {
                    t = t.nim_mul(&x.pow(e));
                }
            }
            let slot = alone.entry(&m[v]).or_default();
            *slot = slot.nim_add(&t);
        }
        for x in candidates.get(v).into_iter().flatten() {
            if *tries == 0 {
                return Ok(None);
            }
            *tries -= 1;
            self.check_time()?;
            let value = alone
                .iter()
                .fold(Nimber::zero(), |s, (e, c)| s.nim_add(&c.nim_mul(&x.pow(e))));
            if !value.is_zero() {
                point[v] = x.clone();
                return Ok(Some(point));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const SECOND: std::time::Duration = std::time::Duration::from_secs(10);

    fn n(v: u64) -> Nimber {
        Nimber::from_u64(v)
    }

    #[test]
    fn frobenius_makes_squaring_additive() {
        let r = Ring::new(vec![None, None], 100, 4096, SECOND);
        let s = r.add(&r.var(0), &r.var(1));
        let sq = r.pow(&s, &BigUint::from(2u32)).unwrap();
        let expected = r.add(
            &r.pow(&r.var(0), &BigUint::from(2u32)).unwrap(),
            &r.pow(&r.var(1), &BigUint::from(2u32)).unwrap(),
        );
        assert_eq!(sq, expected);
        // (a + 1)^3 = a^3 + a^2 + a + 1, by the plain product.
        let a1 = r.add(&r.var(0), &r.constant(n(1)));
        let cube = r.pow(&a1, &BigUint::from(3u32)).unwrap();
        let plain = r.mul(&r.mul(&a1, &a1).unwrap(), &a1).unwrap();
        assert_eq!(cube, plain);
        assert_eq!(cube.len(), 4);
    }

    #[test]
    fn exponents_reduce_in_a_finite_field() {
        // Over GF(16), a^16 = a and a^31 = a^1 (31 − 1 = 30 ≡ 0 mod 15).
        let r = Ring::new(vec![Some(BigUint::from(16u32))], 100, 4096, SECOND);
        let a = r.var(0);
        assert_eq!(r.pow(&a, &BigUint::from(16u32)).unwrap(), a);
        assert_eq!(r.pow(&a, &BigUint::from(31u32)).unwrap(), a);
        assert_ne!(r.pow(&a, &BigUint::from(15u32)).unwrap(), a);
        // a^0 = 1 is not reduced to a.
        assert_eq!(r.pow(&a, &BigUint::zero()).unwrap(), r.constant(n(1)));
    }

    #[test]
    fn the_term_budget_is_named() {
        let r = Ring::new(vec![None; 4], 10_000, 4096, SECOND);
        let s = (0..4).fold(Poly::default(), |s, v| r.add(&s, &r.var(v)));
        let e = r.pow(&s, &BigUint::from((1u32 << 20) - 1)).unwrap_err();
        assert!(e.to_string().contains("max-terms"), "{e}");
    }

    #[test]
    fn a_nonzero_point_is_found_in_a_larger_field() {
        // a^4 + a vanishes exactly on GF(4) = {0, 1, 2, 3}.
        let r = Ring::new(vec![None], 100, 4096, SECOND);
        let p = r.add(&r.pow(&r.var(0), &BigUint::from(4u32)).unwrap(), &r.var(0));
        let cands = vec![(0..8).map(n).collect::<Vec<_>>()];
        let point = r.nonzero_point(&p, &cands, &mut 100).unwrap().unwrap();
        assert_eq!(point, vec![n(4)]);
        assert!(!p.eval(&point).is_zero());
    }
}
