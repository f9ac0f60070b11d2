//! The polynomial-identity method.
//!
//! When both sides of every `=` of a chain are polynomials in the quantified variables (built
//! from nimber constants, the variables, `+`, `*`, division by a constant, `square` and powers
//! with constant exponents), the claim is decided by algebra:
//!
//! - a variable with no upper bound ranges over an infinite field, and a non-zero polynomial
//!   over an infinite field is non-zero somewhere, so the claim holds exactly when the two sides
//!   are the same polynomial;
//! - a variable below a Fermat 2-power `q = 2^(2^k)` ranges over exactly `GF(q)`; after every
//!   exponent is reduced with `x^q = x` two polynomials agree on `GF(q)` exactly when they are
//!   equal (a non-zero polynomial of degree below `q` has fewer than `q` roots), so again the
//!   claim holds exactly when the reduced sides are equal. There `sqrt(x)` is `x^(q/2)`.
//! - a variable below another bound `N` lies in the smallest `GF(q)` with `q ≥ N`: equal
//!   reduced sides prove the claim, and different ones only say it fails somewhere below `q`.
//!
//! A false identity is reported with an actual counterexample. Values are tried from every
//! subfield level (`2^(2^j)`, its neighbours and pseudo-random elements), not only small
//! numbers: the least counterexample to `a ^ (2^32) = a` is `2^32`.

use num_bigint::BigUint;

/// The polynomial-identity method as the lessons state it (`criterion("polynomial-identity")`):
/// what [`attempt`] decides, in words (the module documentation says why each case is exact).
pub(crate) const POLYNOMIAL_IDENTITY: &str = "Let each side of every equation of a claim be a polynomial in its variables: built from nimber constants, the variables, $\\oplus$, $\\otimes$, division by a constant, squares and powers with fixed exponents. Expand both sides.

1. A variable with no upper bound ranges over all finite nimbers, an infinite field. The claim holds for every value exactly when the two sides are the same polynomial.
2. A variable below a Fermat 2-power $q = 2^{2^k}$ ranges over exactly the field $\\mathrm{GF}(q)$. Reduce every exponent by $x^q = x$ (so $\\sqrt{x}$ is $x^{q/2}$); the claim holds exactly when the reduced sides are the same polynomial.
3. A variable below any other bound lies in the smallest such field that holds its range. Equal reduced sides prove the claim there too; different ones do not decide it, and a value that tells the sides apart is searched for.

A false identity is reported with such a value. The method rests on the nimbers forming a field, in which a polynomial that is not zero has fewer roots than its degree plus one, so it is not zero everywhere on an infinite field, or on $\\mathrm{GF}(q)$ once its degree is below $q$.";
use num_traits::{One, Zero};

use super::poly::{Poly, Ring};
use super::{mentions, Domain, Plan, Stop};
use crate::claim::ast::{BinOp, Binder, Claim, Expr, ExprKind, Rel};
use crate::claim::eval::{eval, Scope};
use crate::claim::value::Value;
use crate::claim::{ClaimError, Limits};
use crate::nim::Nimber;

/// Decides the claim as a polynomial identity, or says why it is not one.
pub(super) fn attempt(
    binders: &[Binder],
    domains: &[Domain],
    body: &Claim,
    scope: &Scope<'_>,
    limits: &Limits,
) -> Result<Plan, Stop> {
    let chain = match body {
        Claim::Chain(chain) => chain,
        Claim::Is { expr, .. } => {
            return Err(Stop::refuse(
                expr.span.clone(),
                "an outcome class is not a polynomial identity",
            ))
        }
    };
    if let Some(link) = chain.links.iter().find(|l| l.rel != Rel::Eq) {
        return Err(Stop::refuse(
            link.rel_span.clone(),
            format!(
                "only `=` between polynomials is decided for every value, not `{}`",
                link.rel.symbol()
            ),
        ));
    }
    // For each variable: the field its values lie in, and whether they fill it.
    let mut fields = Vec::new();
    let mut exact = Vec::new();
    for d in domains {
        let (field, fills) = match d {
            Domain::Below(n) => match fermat_at_least(n) {
                Some(q) => {
                    let fills = q == *n;
                    (Some(q), fills)
                }
                None => (None, false),
            },
            Domain::From(_) | Domain::All => (None, true),
        };
        fields.push(field);
        exact.push(fills);
    }
    let ring = Ring::new(
        fields,
        limits.max_terms,
        limits.max_bits,
        limits.game.max_time,
    );
    let names: Vec<&str> = binders.iter().map(|b| b.name.as_str()).collect();
    let convert = Conversion {
        names: &names,
        ring: &ring,
        scope,
        limits,
    };
    let mut lhs = convert.poly(&chain.first)?;
    for link in &chain.links {
        let rhs = convert.poly(&link.rhs)?;
        let difference = ring.add(&lhs, &rhs);
        if !difference.is_zero() {
            let candidates: Vec<Vec<Nimber>> = domains
                .iter()
                .map(|d| candidates(d, limits.max_bits))
                .collect();
            let mut tries = 20_000;
            let found = ring.nonzero_point(&difference, &candidates, &mut tries);
            let span = chain.first.span.start..link.rhs.span.end;
            match found {
                Ok(Some(point)) => return Ok(Plan::Refuted(point)),
                Ok(None) => {}
                Err(o) => return Err(Stop::Error(ClaimError::budget(span, o.to_string()))),
            }
            let reason = if exact.iter().all(|&e| e) {
                "the two sides are different polynomials, but no value that tells them apart was found among those tried"
            } else {
                "the two sides are different polynomials on the field that holds the range, but no value in the range that tells them apart was found"
            };
            return Err(Stop::refuse(
                chain.first.span.start..link.rhs.span.end,
                reason,
            ));
        }
        lhs = rhs;
    }
    Ok(Plan::Proved(super::Established::Polynomial))
}

/// The least Fermat 2-power `2^(2^k)` at least `n` within the largest nimber field, if any.
fn fermat_at_least(n: &BigUint) -> Option<BigUint> {
    (0..=crate::nim::MAX_LEVEL)
        .map(|k| BigUint::one() << (1u64 << k))
        .find(|q| q >= n)
}

/// Turns expressions into polynomials in the quantified variables.
struct Conversion<'a> {
    names: &'a [&'a str],
    ring: &'a Ring,
    scope: &'a Scope<'a>,
    limits: &'a Limits,
}

impl Conversion<'_> {
    fn budget(&self, e: &Expr, r: Result<Poly, super::poly::Overrun>) -> Result<Poly, Stop> {
        r.map_err(|o| {
            Stop::Error(ClaimError::budget(e.span.clone(), o.to_string()).help(
                "raise the budget in book.toml, or bound the variables to check cases instead",
            ))
        })
    }

    /// The value of a sub-expression that does not mention the variables, as a nimber.
    fn constant(&self, e: &Expr) -> Result<Nimber, Stop> {
        match eval(e, self.scope, self.limits).map_err(Stop::Error)? {
            Value::Num(n) => Ok(n),
            Value::Ordinal(_) => Err(Stop::refuse(
                e.span.clone(),
                format!("`{e}` is an infinite ordinal; an identity mixing ordinals and nimbers is not decided for every value"),
            )),
            other => Err(Stop::refuse(
                e.span.clone(),
                format!("`{e}` is `{other}`, not a number"),
            )),
        }
    }

    fn poly(&self, e: &Expr) -> Result<Poly, Stop> {
        if !mentions(e, self.names) {
            return Ok(self.ring.constant(self.constant(e)?));
        }
        match &e.kind {
            ExprKind::Var(name) => match self.names.iter().position(|n| n == name) {
                Some(v) => Ok(self.ring.var(v)),
                None => Err(Stop::refuse(e.span.clone(), format!("`{name}` is unknown"))),
            },
            ExprKind::Paren(inner) => self.poly(inner),
            ExprKind::Bin { op, lhs, rhs } => match op {
                BinOp::NimAdd => Ok(self.ring.add(&self.poly(lhs)?, &self.poly(rhs)?)),
                BinOp::NimMul => {
                    let (p, q) = (self.poly(lhs)?, self.poly(rhs)?);
                    self.budget(e, self.ring.mul(&p, &q))
                }
                BinOp::NimDiv if !mentions(rhs, self.names) => {
                    let d = self.constant(rhs)?;
                    let inverse = d.inv().map_err(|err| {
                        Stop::Error(ClaimError::new(rhs.span.clone(), err.to_string()))
                    })?;
                    let p = self.poly(lhs)?;
                    self.budget(e, self.ring.mul(&p, &self.ring.constant(inverse)))
                }
                BinOp::NimDiv => Err(Stop::refuse(
                    rhs.span.clone(),
                    "a quotient by an expression in the variables is not a polynomial",
                )),
                BinOp::NimPow if mentions(rhs, self.names) => Err(Stop::refuse(
                    rhs.span.clone(),
                    "a variable used as an exponent is not a polynomial",
                )),
                BinOp::NimPow => {
                    let exponent = self.constant(rhs)?.to_biguint();
                    let p = self.poly(lhs)?;
                    self.budget(e, self.ring.pow(&p, &exponent))
                }
                _ => Err(Stop::refuse(
                    e.span.clone(),
                    format!(
                        "ordinary `{}` on the variables is not nimber arithmetic",
                        op.symbol()
                    ),
                )),
            },
            ExprKind::Call { name, args, .. } if args.len() == 1 && name == "square" => {
                let p = self.poly(&args[0])?;
                self.budget(e, self.ring.mul(&p, &p))
            }
            ExprKind::Call { name, args, .. } if args.len() == 1 && name == "sqrt" => {
                let p = self.poly(&args[0])?;
                match self.common_field(&p) {
                    // In GF(q) the square root is the power q/2, the inverse of squaring.
                    Some(q) => self.budget(e, self.ring.pow(&p, &(q >> 1u32))),
                    None => Err(Stop::refuse(
                        e.span.clone(),
                        "a square root is a polynomial only when every variable lies in a finite field",
                    )),
                }
            }
            ExprKind::Int(_) => Err(Stop::refuse(
                e.span.clone(),
                "ordinary arithmetic on the variables is not nimber arithmetic",
            )),
            ExprKind::Call { name, .. } => Err(Stop::refuse(
                e.span.clone(),
                format!("`{name}(…)` of a variable is not a polynomial"),
            )),
            ExprKind::Num(_) | ExprKind::Str(_) | ExprKind::Bool(_) | ExprKind::List(_) => {
                Err(Stop::refuse(e.span.clone(), "not a polynomial"))
            }
        }
    }

    /// The smallest `GF(q)` that holds every value of `p`: every variable is bounded by a
    /// field, and `q` also exceeds every coefficient.
    fn common_field(&self, p: &Poly) -> Option<BigUint> {
        let mut q = BigUint::from(2u32);
        for v in 0..self.ring.arity() {
            q = q.max(self.ring.field(v)?.clone());
        }
        if let Some(c) = p.largest_coefficient() {
            q = q.max(BigUint::one() << (1u64 << c.field_level()));
        }
        Some(q)
    }
}

/// Values to try for a variable of domain `d`, in increasing order: small numbers, and for
/// every subfield level `j` the Fermat 2-power `2^(2^j)`, its neighbours and pseudo-random
/// elements of the next level, up to `max_bits` bits.
pub(super) fn candidates(d: &Domain, max_bits: u64) -> Vec<Nimber> {
    let mut out: Vec<BigUint> = (0u32..8).map(BigUint::from).collect();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut j = 0u64;
    while (2u64 << j) <= max_bits.min(crate::nim::MAX_BITS) && j < 16 {
        let f = BigUint::one() << (1u64 << j);
        for k in 0u32..4 {
            out.push(&f + k);
        }
        out.push(&f << 1u32);
        // Elements of GF(2^(2^(j+1))), most of them outside every smaller field.
        let bits = 2u64 << j;
        for _ in 0..6 {
            let limbs: Vec<u64> = (0..bits.div_ceil(64)).map(|_| next()).collect();
            let mut x = BigUint::zero();
            for (i, l) in limbs.iter().enumerate() {
                x |= BigUint::from(*l) << (64 * i);
            }
            x &= (BigUint::one() << bits) - 1u32;
            out.push(x);
        }
        j += 1;
    }
    match d {
        Domain::Below(n) => {
            out.retain(|x| x < n);
            // A small field is searched in full.
            if *n <= BigUint::from(1u32 << 16) {
                let n = n.to_u64_digits().first().copied().unwrap_or(0);
                out.extend((0..n).map(BigUint::from));
            }
        }
        Domain::From(k) => {
            out.retain(|x| x >= k);
            out.extend((0u32..8).map(|i| k + i));
        }
        Domain::All => {}
    }
    out.sort();
    out.dedup();
    out.iter()
        .filter_map(|x| Nimber::from_biguint(x).ok())
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn fermat_bounds() {
        assert_eq!(fermat_at_least(&BigUint::from(16u32)), Some(16u32.into()));
        assert_eq!(fermat_at_least(&BigUint::from(17u32)), Some(256u32.into()));
        assert_eq!(fermat_at_least(&BigUint::from(0u32)), Some(2u32.into()));
    }

    #[test]
    fn candidates_stay_in_their_domain() {
        let below = candidates(&Domain::Below(BigUint::from(100u32)), 4096);
        assert_eq!(below.len(), 100);
        let from = candidates(&Domain::From(BigUint::from(1000u32)), 4096);
        assert!(from
            .iter()
            .all(|x| x.to_biguint() >= BigUint::from(1000u32)));
        let all = candidates(&Domain::All, 4096);
        assert!(all.contains(&Nimber::from_u128(1 << 64)));
        assert!(all.iter().all(|x| x.bit_len() <= 4096));
    }
}
