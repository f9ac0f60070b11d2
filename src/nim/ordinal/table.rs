//! The odd primes, Lenstra's κ_h, and the table of excesses.
//!
//! # Where α_p comes from
//!
//! Let p be the (n+1)-th odd prime (p = 3 for n = 0, 5 for n = 1, …). The nimbers below
//! κ_p = ω^(ω^n) form a field K, and κ_p is a root of x^p − α_p for a unique α_p in K: the
//! p-th nim-power of ω^(ω^n) is α_p. Conway found α_3 = 2, α_5 = 4, α_7 = ω + 1;
//! Lenstra ("On the algebraic closure of two", 1977; "Nim multiplication", 1978) showed how to
//! compute every α_p. Write f(p) for the order of 2 modulo p (so p divides 2^f(p) − 1) and
//! d(x) for the degree of a nimber x over GF(2). For every h Lenstra defines a nimber κ_h:
//!
//! * for a prime power q = 2^j, κ_q = 2^(2^(j−1)), the Fermat 2-power of degree q;
//! * for a prime power q = r^j with r the (m+1)-th odd prime, κ_q = ω^(ω^m · r^(j−1));
//! * otherwise let q be the highest power of the smallest prime dividing h and g = h/q:
//!   κ_h = κ_g if q divides d(κ_g), and κ_h = κ_g + κ_q (nim-sum) if not.
//!
//! His theorem: α_p = κ_f(p) + m_p for a natural number m_p, the *excess* of p. The excess is
//! the least m that makes κ_f(p) + m fail to be a p-th power in K; deciding that takes
//! arithmetic in a finite field of 2^e_p elements, with e_p growing roughly exponentially
//! in p, and is why the excess is tabulated rather than computed here.
//!
//! The degrees follow from the construction: d(κ_2^j) = 2^j; d(κ_r^j) = r^j · d(α_r) for odd r,
//! because x^(r^j) − α_r is irreducible over the nimbers below κ_r; the degree of a nim-sum
//! of the κ's (and of a small finite excess) is the least common multiple of the degrees.
//! This module computes the sets of prime powers whose κ's sum to κ_f(p) by these rules
//! (`kappa_parts`); the tests check them against the sets tabulated in CGSuite (Aaron Siegel's
//! `NimFieldConstants.qSet`) for every odd prime up to 257.
//!
//! # Provenance of the excesses
//!
//! [`EXCESS`] is OEIS A380496, "Lenstra excess of the n-th odd prime", its first 54 terms
//! (the odd primes 3 to 257): a(1)–a(3) by Conway, a(4)–a(13) by Lenstra, a(14)–a(18) by
//! Lieven Le Bruyn, the rest by Aaron N. Siegel (2025, computed with CGSuite). OEIS lists
//! further terms; they are left out because the sets of κ's for p > 257 have not been
//! cross-checked against an independent table. The excess is 0 in every tabulated case where
//! κ_f(p) has a finite part, so "κ_f(p) + m_p" is the same whether + is read as the ordinal or
//! the nim-sum. A product that needs α_p for a larger p is refused with
//! [`OrdinalError::UnknownExcess`](super::OrdinalError::UnknownExcess), never guessed.

use std::sync::OnceLock;

use num_integer::Integer;

/// The Lenstra excess m_p of the (n+1)-th odd prime, n = 0, 1, …: OEIS A380496.
pub(crate) const EXCESS: [u64; 54] = [
    0, 0, 1, 1, 0, 0, 4, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1,
    0, 1, 0, 1, 4, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0,
];

/// The number of odd primes available as levels of exponents (ω^(ω^n) for n below this).
pub(crate) const MAX_LEVELS: usize = 1024;

/// The first [`MAX_LEVELS`] odd primes.
pub(crate) fn odd_primes() -> &'static [u64] {
    static PRIMES: OnceLock<Vec<u64>> = OnceLock::new();
    PRIMES.get_or_init(|| {
        // The 1024th odd prime is 8167.
        let limit = 9000usize;
        let mut composite = vec![false; limit];
        let mut out = Vec::with_capacity(MAX_LEVELS);
        for i in 2..limit {
            if composite[i] {
                continue;
            }
            let mut j = i * i;
            while j < limit {
                composite[j] = true;
                j += i;
            }
            if i > 2 && out.len() < MAX_LEVELS {
                out.push(i as u64);
            }
        }
        out
    })
}

/// The index n of an odd prime p (p is the (n+1)-th odd prime), if p is one of the first
/// [`MAX_LEVELS`] odd primes.
pub(crate) fn odd_prime_index(p: u64) -> Option<usize> {
    odd_primes().binary_search(&p).ok()
}

/// The multiplicative order of 2 modulo the odd prime p.
pub(crate) fn order_of_two(p: u64) -> u64 {
    let mut x = 2 % p;
    let mut k = 1;
    while x != 1 {
        x = x * 2 % p;
        k += 1;
    }
    k
}

/// One α_p in terms of Lenstra's κ's: α_p = (sum of κ_q over `parts`) + `excess`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AlphaSpec {
    /// The prime powers q whose κ_q sum to κ_f(p), largest prime first.
    pub parts: Vec<u64>,
    /// The excess m_p.
    pub excess: u64,
}

fn lcm(a: u128, b: u128) -> Option<u128> {
    (a / a.gcd(&b)).checked_mul(b)
}

/// The degree over GF(2) of the finite nimber m: the least 2^j with m < 2^(2^j).
fn finite_degree(m: u64) -> u128 {
    let mut d = 1u128;
    while d < 64 && (m >> d) != 0 {
        d *= 2;
    }
    d
}

/// Factor h into prime powers, smallest prime first.
fn prime_powers(mut h: u64) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut r = 2;
    while r * r <= h {
        if h.is_multiple_of(r) {
            let mut q = 1;
            while h.is_multiple_of(r) {
                h /= r;
                q *= r;
            }
            out.push((r, q));
        }
        r += 1;
    }
    if h > 1 {
        out.push((h, h));
    }
    out
}

/// The sets of κ's and the degrees d(α_p), for every tabulated prime, computed once.
pub(crate) fn alpha_specs() -> &'static [AlphaSpec] {
    static SPECS: OnceLock<Vec<AlphaSpec>> = OnceLock::new();
    SPECS.get_or_init(|| {
        let primes = odd_primes();
        let mut specs: Vec<AlphaSpec> = Vec::new();
        let mut alpha_degree: Vec<u128> = Vec::new();
        for (n, &excess) in EXCESS.iter().enumerate() {
            let p = primes[n];
            // κ_h for h = f(p), built from the largest prime down, as in Lenstra's recursion.
            let factors = prime_powers(order_of_two(p));
            let mut parts: Vec<u64> = Vec::new();
            let mut degree = 1u128;
            let mut ok = true;
            for &(r, q) in factors.iter().rev() {
                let dq = if r == 2 {
                    Some(u128::from(q))
                } else {
                    odd_prime_index(r)
                        .and_then(|i| alpha_degree.get(i))
                        .and_then(|&d| d.checked_mul(u128::from(q)))
                };
                let Some(dq) = dq else {
                    ok = false;
                    break;
                };
                if parts.is_empty() || !degree.is_multiple_of(u128::from(q)) {
                    parts.push(q);
                    match lcm(degree, dq) {
                        Some(d) => degree = d,
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
            }
            if !ok {
                break;
            }
            let Some(d) = lcm(degree, finite_degree(excess)) else {
                break;
            };
            alpha_degree.push(d);
            specs.push(AlphaSpec { parts, excess });
        }
        specs
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_and_orders() {
        let p = odd_primes();
        assert_eq!(&p[..6], &[3, 5, 7, 11, 13, 17]);
        assert_eq!(p.len(), MAX_LEVELS);
        assert_eq!(p[MAX_LEVELS - 1], 8167);
        assert_eq!(order_of_two(7), 3);
        assert_eq!(order_of_two(11), 10);
        assert_eq!(order_of_two(257), 16);
        assert_eq!(odd_prime_index(47), Some(13));
    }

    #[test]
    fn kappa_parts_match_cgsuite() {
        // CGSuite, NimFieldConstants.qSet, for the odd primes 3 to 257 (as sets).
        let expected: [&[u64]; 54] = [
            &[2],
            &[4],
            &[3],
            &[5],
            &[4, 3],
            &[8],
            &[9],
            &[11],
            &[4, 7],
            &[5],
            &[4, 9],
            &[5],
            &[7],
            &[23],
            &[13],
            &[29],
            &[3, 5],
            &[3, 11],
            &[5, 7],
            &[9],
            &[13],
            &[41],
            &[11],
            &[16, 3],
            &[25],
            &[3, 17],
            &[53],
            &[4, 9],
            &[4, 7],
            &[7],
            &[5, 13],
            &[17],
            &[3, 23],
            &[37],
            &[3, 5],
            &[13],
            &[81],
            &[83],
            &[4, 43],
            &[89],
            &[9, 5],
            &[5, 19],
            &[32, 3],
            &[4, 49],
            &[9, 11],
            &[5, 7],
            &[37],
            &[113],
            &[19],
            &[29],
            &[7, 17],
            &[8, 3],
            &[25],
            &[16],
        ];
        let specs = alpha_specs();
        assert_eq!(specs.len(), 54);
        for (n, want) in expected.iter().enumerate() {
            let mut got = specs[n].parts.clone();
            got.sort_unstable();
            let mut want = want.to_vec();
            want.sort_unstable();
            assert_eq!(got, want, "p = {}", odd_primes()[n]);
        }
    }
}
