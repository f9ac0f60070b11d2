//! The nim-inverse of an ordinal: the extended Euclidean algorithm on x(t) and t^p − c, where
//! κ, the highest generator of x, is a root of t^p − c over the field below it; one inverse in
//! that field finishes it, found the same way one level down.

use super::product::{alpha_value, digits, mul};
use super::work::{term_map, Work};
use super::{table, Exponent, Ordinal, OrdinalError};

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
pub(super) fn inv(x: &Ordinal, work: &mut Work<'_>) -> Result<Ordinal, OrdinalError> {
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
    let kappa = Generator::new(n, k, work)?;
    let (s, r) = euclid(kappa.split(x), &kappa, work)?;
    work.enter()?;
    let rinv = inv(&r, work)?;
    work.leave();
    kappa.join(&s, &rinv, work)
}

/// The generator κ = κ_{n,k} = ω^(ω^n·p^k) (p = p_n) and the c with κ^p = c below it.
struct Generator {
    n: usize,
    p: u64,
    /// p^k, the place of κ's digit in the exponent coefficient a_n.
    pk: u64,
    c: Ordinal,
}

impl Generator {
    fn new(n: usize, k: usize, work: &Work<'_>) -> Result<Self, OrdinalError> {
        let p = table::odd_primes()[n];
        let pk = p.pow(k as u32);
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
        Ok(Generator { n, p, pk, c })
    }

    /// x = Σ x_i κ^i with x_i below κ, as the polynomial [x_0, x_1, …, x_(p−1)].
    fn split(&self, x: &Ordinal) -> Poly {
        let (n, p, pk) = (self.n, self.p, self.pk);
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
        xs
    }

    /// The ordinal Σ s_i κ^i ⊗ y: κ^i ⊗ z for z below κ puts digit i at (n, k).
    fn join(&self, s: &Poly, y: &Ordinal, work: &mut Work<'_>) -> Result<Ordinal, OrdinalError> {
        let mut acc = term_map(0);
        for (i, si) in s.iter().enumerate() {
            let z = mul(si, y, work)?;
            for (e, cf) in z.terms {
                let mut e2 = e.0;
                if i > 0 {
                    e2.resize(e2.len().max(self.n + 1), 0);
                    e2[self.n] += i as u64 * self.pk;
                }
                *acc.entry(Exponent::trim(e2)).or_insert(0) ^= cf;
            }
        }
        work.check_terms(acc.len())?;
        Ok(Ordinal::from_map(acc))
    }
}

/// Extended Euclid with pseudo-division on x(t) and t^p − c: returns s and the constant r
/// with s · x ≡ r (mod κ^p − c).
fn euclid(
    xs: Poly,
    kappa: &Generator,
    work: &mut Work<'_>,
) -> Result<(Poly, Ordinal), OrdinalError> {
    let p = kappa.p as usize;
    // Invariant: s_j · x ≡ r_j (mod κ^p − c).
    let mut r0: Poly = vec![Ordinal::zero(); p + 1];
    r0[0] = kappa.c.clone();
    r0[p] = Ordinal::one();
    let mut s0: Poly = vec![Ordinal::zero()];
    let mut r1 = xs;
    poly_trim(&mut r1);
    let mut s1: Poly = vec![Ordinal::one()];
    while r1.len() > 1 {
        while r0.len() >= r1.len() {
            pseudo_step(&mut r0, &mut s0, &r1, &s1, kappa, work)?;
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
    Ok((s1, r))
}

/// One step of pseudo-division: r0 ← lead1·r0 + lead0·t^shift·r1 cancels r0's leading
/// term, and the same on s (reduced modulo κ^p = c).
fn pseudo_step(
    r0: &mut Poly,
    s0: &mut Poly,
    r1: &Poly,
    s1: &Poly,
    kappa: &Generator,
    work: &mut Work<'_>,
) -> Result<(), OrdinalError> {
    let p = kappa.p as usize;
    let shift = r0.len() - r1.len();
    let lead0 = r0.last().cloned().unwrap_or_default();
    let lead1 = r1.last().cloned().unwrap_or_default();
    work.spend(1)?;
    let mut nr = Vec::with_capacity(r0.len());
    for (i, r) in r0.iter().enumerate() {
        let mut v = mul(&lead1, r, work)?;
        if i >= shift {
            v = v.nim_add(&mul(&lead0, &r1[i - shift], work)?);
        }
        nr.push(v);
    }
    poly_trim(&mut nr);
    *r0 = nr;
    let len = s0.len().max(s1.len() + shift);
    let mut ns = vec![Ordinal::zero(); len];
    for (i, s) in s0.iter().enumerate() {
        ns[i] = mul(&lead1, s, work)?;
    }
    for (i, s) in s1.iter().enumerate() {
        ns[i + shift] = ns[i + shift].nim_add(&mul(&lead0, s, work)?);
    }
    // Reduce modulo κ^p = c.
    while ns.len() > p {
        let top = ns.pop().unwrap_or_default();
        let i = ns.len() - p;
        ns[i] = ns[i].nim_add(&mul(&top, &kappa.c, work)?);
    }
    poly_trim(&mut ns);
    *s0 = ns;
    Ok(())
}
