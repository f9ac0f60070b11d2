//! The nim-product of ordinals: monomials multiply by adding their exponents digit by digit
//! in base p_n, a carry out of a level's last place brings in a factor α_p, and the finite
//! coefficients multiply in GF(2^64). Squares are taken term by term (Frobenius).

use super::work::{cost, term_map, TermMap, Work};
use super::{table, Exponent, Ordinal, OrdinalError, MAX_TERMS};

/// The base-p digits of a, least significant first.
pub(super) fn digits(mut a: u64, p: u64) -> Vec<u64> {
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

/// α_p for the (n+1)-th odd prime, as an ordinal: the sum of Lenstra's κ's plus the excess.
pub(super) fn alpha_value(n: usize) -> Option<&'static Ordinal> {
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
        accumulate(e2, crate::nim::mul64(c, *ca), &mut next, acc, work)?;
    }
    work.leave();
    pending.push(n);
    Ok(())
}

/// Adds the product of two terms `c·m` to `acc`, within the work and term budgets.
fn add_product(
    (ea, ca): (&Exponent, u64),
    (eb, cb): (&Exponent, u64),
    overflow: &mut Vec<usize>,
    acc: &mut TermMap,
    work: &mut Work<'_>,
) -> Result<(), OrdinalError> {
    let c = crate::nim::mul64(ca, cb);
    let e = add_exponents(ea, eb, overflow);
    accumulate(e, c, overflow, acc, work)?;
    work.check_terms(acc.len())
}

/// The nim-product with a work counter.
pub(super) fn mul(a: &Ordinal, b: &Ordinal, work: &mut Work<'_>) -> Result<Ordinal, OrdinalError> {
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
            add_product((ea, *ca), (eb, *cb), &mut overflow, &mut acc, work)?;
        }
    }
    Ok(Ordinal::from_map(acc))
}

/// The nim-square, term by term: in characteristic 2, (Σ c·m)² = Σ c²·m² (Frobenius).
pub(super) fn square(a: &Ordinal, work: &mut Work<'_>) -> Result<Ordinal, OrdinalError> {
    let mut acc = term_map(a.terms.len());
    let mut overflow = Vec::new();
    let a_len = a.terms.first().map_or(0, |t| t.0 .0.len());
    work.spend(a.terms.len() as u64 * cost(a_len))?;
    for (e, c) in &a.terms {
        add_product((e, *c), (e, *c), &mut overflow, &mut acc, work)?;
    }
    Ok(Ordinal::from_map(acc))
}
