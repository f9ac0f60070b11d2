//! Published values of nim-arithmetic below ω^(ω^ω), and Lenstra's excesses recomputed.

use crate::common::o;

use nimbook::nim::ordinal::{alpha, lenstra_excess, Ordinal, OrdinalError};
use num_bigint::BigUint;

fn ok(r: Result<Ordinal, OrdinalError>) -> Ordinal {
    match r {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn conway_omega_is_the_cube_root_of_two() {
    // ONAG ch. 6: ω³ = 2, and products of powers of ω below ω³ are ordinal products.
    assert_eq!(ok(o("w").pow(3)), o("2"));
    assert_eq!(ok(o("w").nim_mul(&o("w"))), o("w^2"));
    assert_eq!(ok(o("w^2").nim_mul(&o("w"))), o("2"));
    assert_eq!(ok(o("w").nim_mul(&o("5"))), o("w*5"));
    // ω⁻¹ = ω²/2 = ω²·3, since 2 ⊗ 3 = 1.
    assert_eq!(ok(o("w").inv()), o("w^2*3"));
}

#[test]
fn first_alphas_are_conways_and_lenstras() {
    assert_eq!(ok(alpha(3)), o("2"));
    assert_eq!(ok(alpha(5)), o("4"));
    assert_eq!(ok(alpha(7)), o("w + 1"));
    assert_eq!(ok(alpha(11)), o("w^w + 1"));
    assert_eq!(ok(alpha(13)), o("w + 4"));
    assert_eq!(ok(alpha(17)), o("16"));
    assert_eq!(ok(alpha(19)), o("w^3 + 4"));
    assert_eq!(ok(alpha(23)), o("w^(w^3) + 1"));
    assert_eq!(ok(alpha(29)), o("w^(w^2) + 4"));
    assert_eq!(ok(alpha(31)), o("w^w + 1"));
    assert_eq!(ok(alpha(37)), o("w^3 + 4"));
    assert_eq!(ok(alpha(41)), o("w^w + 1"));
    assert_eq!(ok(alpha(43)), o("w^(w^2) + 1"));
    assert_eq!(ok(alpha(47)), o("w^(w^7) + 1"));
}

#[test]
fn every_tabulated_alpha_is_below_its_kappa() {
    let primes = [
        3u64, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89,
        97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181,
        191, 193, 197, 199, 211, 223, 227, 229, 233, 239, 241, 251, 257,
    ];
    for (n, &p) in primes.iter().enumerate() {
        let a = ok(alpha(p));
        let mut e = vec![0u64; n + 1];
        e[n] = 1;
        let kappa = ok(Ordinal::monomial(&e, 1));
        assert!(a < kappa, "alpha({p}) = {a}");
        assert!(!a.is_zero());
    }
    assert!(matches!(
        alpha(263),
        Err(OrdinalError::UnknownExcess { p: 263, .. })
    ));
    assert_eq!(alpha(9), Err(OrdinalError::NotOddPrime(9)));
    assert_eq!(alpha(2), Err(OrdinalError::NotOddPrime(2)));
}

/// The degree of x over GF(2): the least d with x^(2^d) = x, if at most `cap`.
fn degree_at_most(x: &Ordinal, cap: u64) -> Option<u64> {
    let mut y = x.clone();
    for d in 1..=cap {
        y = ok(y.pow(2));
        if &y == x {
            return Some(d);
        }
    }
    None
}

fn degree(x: &Ordinal) -> u64 {
    match degree_at_most(x, 6000) {
        Some(d) => d,
        None => panic!("degree of {x} above 6000"),
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn order_of_two(p: u64) -> u64 {
    (1..p).find(|&k| (1u64 << k) % p == 1).unwrap_or(p)
}

/// Whether x is a p-th power among the nimbers below ω^(ω^n): with D a multiple of the
/// degree of x and of f(p) whose prime factors are all below p, that field contains
/// GF(2^D), the p-th roots of unity, and x; and x is a p-th power there exactly when
/// x^((2^D − 1)/p) = 1 (p does not divide D, so the p-part of 2^D − 1 does not grow in
/// larger subfields).
fn is_pth_power(x: &Ordinal, p: u64) -> bool {
    let d = degree(x);
    let f = order_of_two(p);
    let big_d = d / gcd(d, f) * f;
    assert!(!big_d.is_multiple_of(p));
    let e = ((BigUint::from(1u8) << big_d) - 1u8) / p;
    // Square and multiply by hand, so that each step has its own work budget.
    let mut y = Ordinal::one();
    for i in (0..e.bits()).rev() {
        y = ok(y.pow(2));
        if e.bit(i) {
            y = ok(y.nim_mul(x));
        }
    }
    y == Ordinal::one()
}

#[test]
fn lenstra_excesses_recomputed_up_to_43() {
    recompute_excesses(&[3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43]);
}

#[test]
#[ignore = "about a minute in release mode: arithmetic in GF(2^5060)"]
fn lenstra_excess_recomputed_for_47() {
    recompute_excesses(&[47]);
}

#[test]
#[ignore = "a few minutes in release mode"]
fn lenstra_excesses_recomputed_where_the_field_is_small() {
    // Every tabulated prime whose α_p has degree at most 1000 over GF(2).
    let mut done = Vec::new();
    for p in (3u64..=257).filter(|&p| (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0)) {
        let a = ok(alpha(p));
        if degree_at_most(&a, 1000).is_some() {
            recompute_excesses(&[p]);
            done.push(p);
        }
    }
    println!("excess recomputed for {done:?}");
}

fn recompute_excesses(primes: &[u64]) {
    // Lenstra's theorem: α_p = κ_f(p) + m_p with m_p the least m such that κ_f(p) + m is not
    // a p-th power below κ_p. Recompute m_p from the engine (which only uses α_r for r < p).
    for &p in primes {
        let m = match lenstra_excess(p) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        };
        let kappa = ok(alpha(p)).nim_add(&Ordinal::from_u64(m));
        let mut found = None;
        for c in 0..8 {
            let x = kappa.nim_add(&Ordinal::from_u64(c));
            if !is_pth_power(&x, p) {
                found = Some(c);
                break;
            }
        }
        assert_eq!(found, Some(m), "excess of {p}");
    }
}
