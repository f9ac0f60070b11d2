//! Subfields, orders, logarithms, conjugates, minimal polynomials and quadratics.

use nimbook::nim::{NimError, Nimber};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;

fn n(v: u64) -> Nimber {
    Nimber::from_u64(v)
}

fn group_order(k: u32) -> BigUint {
    (BigUint::one() << (1u64 << k)) - 1u32
}

#[test]
fn small_subfields_are_closed_exhaustively() {
    for k in 0..=3u32 {
        let size = 1u64 << (1u32 << k);
        for a in 0..size {
            for b in 0..size {
                let p = n(a).nim_mul(&n(b));
                assert!(
                    p.to_u64().is_some_and(|p| p < size),
                    "{a} ⊗ {b} leaves GF({size})"
                );
                if b != 0 {
                    let q = n(a).nim_div(&n(b)).expect("nonzero");
                    assert!(q.to_u64().is_some_and(|q| q < size));
                }
            }
            assert!(n(a).sqrt().to_u64().is_some_and(|r| r < size));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn larger_subfields_are_closed(k in 4u32..=9, a in prop::collection::vec(any::<u32>(), 16), b in prop::collection::vec(any::<u32>(), 16)) {
        let bits = 1u64 << k;
        let mask = (BigUint::one() << bits) - 1u32;
        let x = Nimber::from_biguint(&(BigUint::from_slice(&a) & &mask)).expect("small");
        let y = Nimber::from_biguint(&(BigUint::from_slice(&b) & &mask)).expect("small");
        prop_assert!(x.nim_mul(&y).bit_len() <= bits);
        prop_assert!(x.sqrt().bit_len() <= bits);
        if !y.is_zero() {
            prop_assert!(x.nim_div(&y).expect("nonzero").bit_len() <= bits);
        }
        prop_assert!(x.field_level() <= k);
    }

    #[test]
    fn logs_in_gf_2_64(b: u64, e: u64) {
        prop_assume!(b > 1);
        let base = n(b);
        let target = base.pow(&BigUint::from(e));
        let x = base.log(&target).expect("a power of the base has a logarithm");
        prop_assert_eq!(base.pow(&x), target.clone());
        // Least: x is below the order of the base.
        let ord = base.order().expect("nonzero");
        prop_assert!(x < ord);
        prop_assert_eq!(x, BigUint::from(e) % &ord);
    }

    #[test]
    fn order_is_minimal_and_divides(v: u64) {
        prop_assume!(v != 0);
        let x = n(v);
        let o = x.order().expect("nonzero");
        let k = x.field_level();
        prop_assert!((group_order(k) % &o).is_zero());
        prop_assert_eq!(Ok(o.clone()), x.order_by_definition());
        prop_assert!(x.pow(&o).is_one());
        for p in [3u32, 5, 17, 257, 641, 65537, 6700417] {
            if (&o % p).is_zero() {
                prop_assert!(!x.pow(&(&o / p)).is_one(), "order of {} not minimal at {}", v, p);
            }
        }
    }

    #[test]
    fn quadratics_have_their_roots(a: u64, b: u64, c: u64) {
        let (a, b, c) = (n(a), n(b), n(c));
        match Nimber::solve_quadratic(&a, &b, &c) {
            Ok(roots) => {
                for r in &roots {
                    let v = a.nim_mul(&r.square()).nim_add(&b.nim_mul(r)).nim_add(&c);
                    prop_assert!(v.is_zero());
                }
                let mut sorted = roots.clone();
                sorted.sort();
                sorted.dedup();
                prop_assert_eq!(&sorted, &roots);
                if !a.is_zero() {
                    let want = if b.is_zero() { 1 } else { 2 };
                    prop_assert_eq!(roots.len(), want);
                }
            }
            Err(e) => prop_assert!(false, "{}", e),
        }
    }

    #[test]
    fn x2_plus_x_over_u128_and_big(c: u128, d in prop::collection::vec(any::<u32>(), 1..12)) {
        for c in [Nimber::from_u128(c), Nimber::from_biguint(&BigUint::from_slice(&d)).expect("small")] {
            let roots = Nimber::solve_x2_plus_x(&c);
            prop_assert_eq!(roots.len(), 2);
            for r in &roots {
                prop_assert_eq!(r.square().nim_add(r), c.clone());
                prop_assert!(r.field_level() <= c.field_level() + 1);
            }
        }
    }

    #[test]
    fn minpoly_vanishes_at_the_conjugates(v: u64) {
        let x = n(v);
        let p = x.minpoly();
        let conj = x.conjugates();
        prop_assert_eq!(p.degree(), conj.len());
        prop_assert_eq!(p.degree(), 1usize << x.field_level());
        prop_assert_eq!(&p, &x.minpoly_by_conjugates());
        for c in &conj {
            prop_assert!(p.eval(c).is_zero());
        }
    }
}

#[test]
fn quadratic_roots_in_the_next_field() {
    // x² + x = c with the top bit of c set has no root in c's field.
    for c in [1u64, 2, 3, 8, 200, 1 << 15, 1 << 31, 1 << 63] {
        let roots = Nimber::solve_x2_plus_x(&n(c));
        assert_eq!(roots.len(), 2);
        assert_eq!(
            roots[0].field_level(),
            n(c).field_level() + 1,
            "x² + x = {c}"
        );
    }
    let roots = Nimber::solve_x2_plus_x(&Nimber::from_u128(1 << 127));
    assert_eq!(roots[0].field_level(), 8);
    // At the size cap the roots would lie past it: no roots are returned.
    let top = Nimber::from_biguint(&(BigUint::one() << (nimbook::nim::MAX_BITS - 1)))
        .expect("at the cap");
    assert_eq!(Nimber::solve_x2_plus_x(&top), vec![]);
    let below = Nimber::from_biguint(&(BigUint::one() << (nimbook::nim::MAX_BITS - 2)))
        .expect("at the cap");
    assert_eq!(Nimber::solve_x2_plus_x(&below).len(), 2);
    assert_eq!(
        Nimber::solve_quadratic(&n(0), &n(0), &n(0)),
        Err(NimError::EveryNimberIsARoot)
    );
    assert_eq!(Nimber::solve_quadratic(&n(0), &n(3), &n(1)), Ok(vec![n(2)]));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn order_u128_matches_the_definition(v: u128, e in 0u32..200) {
        prop_assume!(v != 0);
        // Powers of v have orders with more structure than random elements.
        let x = Nimber::from_u128(v).pow(&BigUint::from(e).pow(3));
        prop_assert_eq!(x.order(), x.order_by_definition());
    }

    #[test]
    fn minpoly_u128_and_big(v: u128, d in prop::collection::vec(any::<u32>(), 5..8)) {
        for x in [Nimber::from_u128(v), Nimber::from_biguint(&BigUint::from_slice(&d)).expect("small")] {
            let p = x.minpoly();
            prop_assert_eq!(p.degree(), 1usize << x.field_level());
            prop_assert!(p.eval(&x).is_zero());
            if x.field_level() <= 7 {
                prop_assert_eq!(&p, &x.minpoly_by_conjugates());
            }
        }
    }
}

#[test]
fn minpolys_of_small_nimbers() {
    assert_eq!(n(0).minpoly().to_string(), "x");
    assert_eq!(n(1).minpoly().to_string(), "x + 1");
    assert_eq!(n(2).minpoly().to_string(), "x^2 + x + 1");
    assert_eq!(n(4).minpoly().degree(), 4);
    assert_eq!(n(2).conjugates(), vec![n(2), n(3)]);
}

#[test]
fn logs_without_solution_and_edge_cases() {
    // 2 lies in GF(4); 4 does not, so no power of 2 is 4.
    assert!(matches!(n(2).log(&n(4)), Err(NimError::NoLogarithm { .. })));
    assert!(matches!(n(5).log(&n(0)), Err(NimError::NoLogarithm { .. })));
    assert_eq!(n(0).log(&n(1)), Ok(BigUint::zero()));
    assert_eq!(n(0).log(&n(0)), Ok(BigUint::one()));
    assert_eq!(n(9).log(&n(1)), Ok(BigUint::zero()));
    let e = n(2).log(&n(4)).expect_err("no log");
    assert_eq!(e.to_string(), "no power of 2 equals 4");
    let wide = Nimber::from_u128(1 << 100);
    assert!(matches!(wide.log(&wide), Err(NimError::Unsupported(_))));
    // A target outside the base's field has no logarithm, whatever its size.
    assert!(matches!(n(2).log(&wide), Err(NimError::NoLogarithm { .. })));
    // A primitive element of GF(2^64) reaches everything.
    let g = (1u64 << 32..)
        .map(n)
        .find(|x| x.is_primitive().unwrap_or(false))
        .expect("one exists");
    let t = n(0xfedc_ba98_7654_3210);
    let x = g.log(&t).expect("primitive");
    assert_eq!(g.pow(&x), t);
}

#[test]
fn orders_and_primitive_elements() {
    assert_eq!(n(1).order(), Ok(BigUint::one()));
    assert_eq!(n(2).order(), Ok(BigUint::from(3u32)));
    assert_eq!(n(2).is_primitive(), Ok(true));
    assert_eq!(n(0).order(), Err(NimError::ZeroHasNoOrder));
    // Every nonzero element of GF(16) has order dividing 15, and φ(15) = 8 are primitive.
    let prim = (1..16u64)
        .filter(|&v| n(v).order() == Ok(BigUint::from(15u32)))
        .count();
    assert_eq!(prim, 8);
    // GF(2^128) and GF(2^256): orders divide the group order and are minimal.
    for (v, k) in [
        (
            Nimber::from_u128(0x1234_5678_9abc_def0_0fed_cba9_8765_4321),
            7u32,
        ),
        (
            Nimber::from_biguint(&((BigUint::one() << 255u32) + 12345u32)).expect("small"),
            8,
        ),
    ] {
        let o = v.order().expect("factored");
        assert!((group_order(k) % &o).is_zero());
        assert!(v.pow(&o).is_one());
        assert_eq!(Ok(o), v.order_by_definition());
    }
}

/// Miller–Rabin with fixed bases: a composite passes all of them with probability far below
/// 4^-20.
fn probably_prime(n: &BigUint) -> bool {
    let one = BigUint::one();
    let two = BigUint::from(2u32);
    if *n < two {
        return false;
    }
    for p in [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        if *n == BigUint::from(p) {
            return true;
        }
        if (n % p).is_zero() {
            return false;
        }
    }
    let m = n - &one;
    let s = m.trailing_zeros().unwrap_or(0);
    let d = &m >> s;
    'witness: for a in [
        2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71,
    ] {
        let mut x = BigUint::from(a).modpow(&d, n);
        if x == one || x == m {
            continue;
        }
        for _ in 1..s {
            x = x.modpow(&two, n);
            if x == m {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

#[test]
fn stored_group_order_factors_are_prime_and_complete() {
    use nimbook::nim::{group_order_primes, MAX_ORDER_LEVEL};
    for k in 0..=MAX_ORDER_LEVEL {
        let primes = group_order_primes(k).expect("stored factors divide");
        let product = primes.iter().fold(BigUint::one(), |acc, p| acc * p);
        assert_eq!(product, group_order(k), "factors of 2^(2^{k}) - 1");
        for p in &primes {
            assert!(probably_prime(p), "{p} is composite");
        }
    }
    assert!(matches!(
        group_order_primes(MAX_ORDER_LEVEL + 1),
        Err(NimError::Unsupported(_))
    ));
}
