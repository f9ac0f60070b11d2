//! Arithmetic of the nimber engine against slow oracles, field laws and published values.

use nimbook::nim::naive::{
    naive_add, naive_inv, naive_mul, naive_mul_fermat, naive_mul_fermat_big,
};
use nimbook::nim::{NimError, Nimber};
use num_bigint::BigUint;
use proptest::prelude::*;

fn n(v: u64) -> Nimber {
    Nimber::from_u64(v)
}

fn big(digits: &[u32]) -> Nimber {
    Nimber::from_biguint(&BigUint::from_slice(digits)).expect("test values are below the cap")
}

#[test]
fn every_pair_below_256_matches_the_mex_definitions() {
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            let (x, y) = (n(a as u64), n(b as u64));
            assert_eq!(x.nim_add(&y).to_u64(), Some(naive_add(a, b)), "{a} ⊕ {b}");
            assert_eq!(x.nim_mul(&y).to_u64(), Some(naive_mul(a, b)), "{a} ⊗ {b}");
        }
    }
}

#[test]
fn inverses_below_256_match_conways_construction() {
    for a in 1..=255u8 {
        assert_eq!(
            n(a as u64).inv().ok().and_then(|x| x.to_u64()),
            naive_inv(a),
            "1/{a}"
        );
    }
    assert_eq!(naive_inv(0), None);
}

#[test]
fn fermat_oracle_agrees_with_mex_oracle() {
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            assert_eq!(
                naive_mul_fermat(a as u128, b as u128),
                naive_mul(a, b) as u128
            );
        }
    }
}

#[test]
fn published_values() {
    assert_eq!(n(100).nim_mul(&n(200)), n(62));
    assert_eq!(n(100).inv(), Ok(n(57)));
    assert_eq!(n(16).nim_mul(&n(16)), n(24));
    assert_eq!(n(6).nim_mul(&n(13)), n(15));
    assert_eq!(n(10).nim_mul(&n(7)), n(6));
    // Small pairs in the style of the Library Checker "Nim Product (64 bit)" sample. By hand:
    // 9 ⊗ 10 = (8 ⊕ 1) ⊗ (8 ⊕ 2) = 13 ⊕ 12 ⊕ 8 ⊕ 2 = 11 (the mex oracle agrees, below).
    for (a, b, c) in [(1, 1, 1), (2, 2, 3), (3, 3, 2), (9, 10, 11)] {
        assert_eq!(n(a).nim_mul(&n(b)), n(c), "{a} ⊗ {b}");
    }
}

/// The Fermat 2-power rules, checked directly on the 64-bit and wider paths.
#[test]
fn fermat_two_power_rules() {
    for k in 0..9u32 {
        let f = Nimber::from_biguint(&(BigUint::from(1u32) << (1u64 << k))).expect("small");
        let half =
            Nimber::from_biguint(&(BigUint::from(1u32) << ((1u64 << k) - 1))).expect("small");
        // F ⊗ F = F ⊕ F/2
        assert_eq!(f.nim_mul(&f), f.nim_add(&half), "F = 2^(2^{k})");
        // F ⊗ x = F·x for x < F
        for x in [1u64, 2, 3, 5, 200, 0xffff, 0xdead_beef, u64::MAX] {
            let xb = BigUint::from(x);
            if xb < f.to_biguint() {
                let want = Nimber::from_biguint(&(f.to_biguint() * &xb)).expect("small");
                assert_eq!(f.nim_mul(&n(x)), want, "2^(2^{k}) ⊗ {x}");
            }
        }
    }
    // 2^63 ⊗ 2^63 = 2^32 ⊗ 2^31 ⊗ 2^32 ⊗ 2^31 computed by the oracle
    assert_eq!(
        n(1 << 63).nim_mul(&n(1 << 63)).to_u128(),
        Some(naive_mul_fermat(1 << 63, 1 << 63))
    );
}

#[test]
fn errors_name_their_input() {
    assert_eq!(
        n(0).inv(),
        Err(NimError::DivisionByZero {
            dividend: "1".into()
        })
    );
    let e = n(7).nim_div(&n(0)).expect_err("division by zero");
    assert_eq!(e.to_string(), "cannot divide 7 by 0");
    let e = "12x".parse::<Nimber>().expect_err("malformed");
    assert!(e.to_string().contains("12x"), "{e}");
    let e = n(0).order().expect_err("zero");
    assert!(e.to_string().contains('0'));
}

#[test]
fn huge_product_2_400_squared() {
    let x = Nimber::from_biguint(&(BigUint::from(1u32) << 400u32)).expect("small");
    let want = naive_mul_fermat_big(&x.to_biguint(), &x.to_biguint());
    assert_eq!(x.nim_mul(&x).to_biguint(), want);
    assert_eq!(x.square().to_biguint(), want);
}

#[test]
fn pow_reduces_huge_exponents() {
    let x = n(0x1234_5678_9abc_def1);
    let m = (BigUint::from(1u32) << 64u32) - 1u32;
    let e = BigUint::from(12345u32);
    assert_eq!(x.pow(&(&m * 1000u32 + &e)), x.pow(&e));
    assert_eq!(n(0).pow(&BigUint::from(0u32)), n(1));
    assert_eq!(n(0).pow(&BigUint::from(5u32)), n(0));
    let huge = BigUint::from(1u32) << 100_000u32;
    let y = big(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let _ = y.pow(&huge);
}

fn any_big() -> impl Strategy<Value = Nimber> {
    prop::collection::vec(any::<u32>(), 1..13).prop_map(|d| big(&d))
}

fn any_u128() -> impl Strategy<Value = Nimber> {
    any::<u128>().prop_map(Nimber::from_u128)
}

fn any_u64() -> impl Strategy<Value = Nimber> {
    any::<u64>().prop_map(Nimber::from_u64)
}

fn laws(a: &Nimber, b: &Nimber, c: &Nimber) {
    assert_eq!(a.nim_mul(b), b.nim_mul(a), "commutativity");
    assert_eq!(
        a.nim_mul(&b.nim_mul(c)),
        a.nim_mul(b).nim_mul(c),
        "associativity"
    );
    assert_eq!(
        a.nim_mul(&b.nim_add(c)),
        a.nim_mul(b).nim_add(&a.nim_mul(c)),
        "distributivity"
    );
    assert_eq!(a.nim_mul(&Nimber::one()), a.clone(), "unit");
    assert_eq!(a.square(), a.nim_mul(a), "square");
    assert_eq!(a.square().sqrt(), a.clone(), "sqrt(square)");
    assert_eq!(a.sqrt().square(), a.clone(), "square(sqrt)");
    if !a.is_zero() {
        let i = a.inv().expect("nonzero");
        assert!(a.nim_mul(&i).is_one(), "inverse");
        assert_eq!(
            b.nim_div(a).expect("nonzero").nim_mul(a),
            b.clone(),
            "division"
        );
    }
    let (e1, e2) = (BigUint::from(37u32), BigUint::from(1000u32));
    assert_eq!(
        a.pow(&e1).nim_mul(&a.pow(&e2)),
        a.pow(&(&e1 + &e2)),
        "x^m x^n = x^(m+n)"
    );
    assert_eq!(
        a.pow(&e1).pow(&BigUint::from(3u32)),
        a.pow(&(&e1 * 3u32)),
        "(x^m)^n"
    );
    assert_eq!(
        a.nim_mul(b).pow(&e1),
        a.pow(&e1).nim_mul(&b.pow(&e1)),
        "(xy)^n"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn field_laws_u64(a in any_u64(), b in any_u64(), c in any_u64()) {
        laws(&a, &b, &c);
    }

    #[test]
    fn field_laws_u128(a in any_u128(), b in any_u128(), c in any_u128()) {
        laws(&a, &b, &c);
    }

    #[test]
    fn field_laws_mixed_widths(a in any_big(), b in any_u128(), c in any_u64()) {
        laws(&a, &b, &c);
        laws(&b, &c, &a);
    }

    #[test]
    fn field_laws_big(a in any_big(), b in any_big(), c in any_big()) {
        laws(&a, &b, &c);
    }

    #[test]
    fn u64_path_matches_the_fermat_oracle(a: u64, b: u64) {
        prop_assert_eq!(Nimber::from_u64(a).nim_mul(&Nimber::from_u64(b)).to_u128(),
            Some(naive_mul_fermat(a as u128, b as u128)));
    }

    #[test]
    fn u128_path_matches_the_fermat_oracle(a: u128, b: u128) {
        prop_assert_eq!(Nimber::from_u128(a).nim_mul(&Nimber::from_u128(b)).to_u128(),
            Some(naive_mul_fermat(a, b)));
    }

    #[test]
    fn big_path_matches_the_fermat_oracle(a in any_big(), b in any_big()) {
        prop_assert_eq!(a.nim_mul(&b).to_biguint(),
            naive_mul_fermat_big(&a.to_biguint(), &b.to_biguint()));
    }

    /// Small values pushed through the wide paths (by pairing with a wide factor of the
    /// same field) agree with the narrow paths.
    #[test]
    fn representations_agree(a: u64, b: u64, c in any_big()) {
        let (x, y) = (Nimber::from_u64(a), Nimber::from_u64(b));
        let xy = x.nim_mul(&y);
        // (x ⊗ y) computed as ((x ⊗ c) ⊗ y) ⊗ c⁻¹ goes through the limb path.
        if !c.is_zero() {
            let via_big = x.nim_mul(&c).nim_mul(&y).nim_div(&c).expect("nonzero");
            prop_assert_eq!(&via_big, &xy);
        }
        // u128 path on values below 2^64 (one factor widened by adding then removing 2^64).
        let wide = Nimber::from_u128(1u128 << 64);
        let via_128 = x.nim_add(&wide).nim_mul(&y).nim_add(&wide.nim_mul(&y));
        prop_assert_eq!(&via_128, &xy);
        prop_assert_eq!(xy.to_biguint(), BigUint::from(naive_mul_fermat(a as u128, b as u128)));
        // Round trips through the big-integer and text forms.
        prop_assert_eq!(Nimber::from_biguint(&c.to_biguint()).ok(), Some(c.clone()));
        prop_assert_eq!(c.to_string().parse::<Nimber>().ok(), Some(c.clone()));
        prop_assert_eq!(format!("{:#x}", c).parse::<Nimber>().ok(), Some(c.clone()));
    }
}
