//! Field laws of nim-arithmetic on random ordinals below ω^(ω^k), k = 1, 2, 3, and agreement
//! with the finite engine below ω.

use nimbook::nim::ordinal::Ordinal;
use nimbook::nim::Nimber;
use proptest::prelude::*;

/// A random ordinal below ω^(ω^k): up to `terms` terms, the coefficient of ω^n in each
/// exponent below `bounds[n]`, and coefficients that are mostly small.
fn ordinal(k: usize, bounds: [u64; 3], terms: usize) -> impl Strategy<Value = Ordinal> {
    let exponent = proptest::collection::vec(0u64..1000, k).prop_map(move |v| {
        v.iter()
            .enumerate()
            .map(|(n, a)| a % bounds[n])
            .collect::<Vec<u64>>()
    });
    let coefficient = prop_oneof![4 => 1u64..16, 1 => any::<u64>()];
    proptest::collection::vec((exponent, coefficient), 0..=terms).prop_map(|ts| {
        ts.into_iter().fold(Ordinal::zero(), |acc, (e, c)| {
            let m = Ordinal::monomial(&e, c).unwrap_or_default();
            acc.nim_add(&m)
        })
    })
}

fn mul(a: &Ordinal, b: &Ordinal) -> Ordinal {
    match a.nim_mul(b) {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    }
}

macro_rules! field_laws {
    ($name:ident, $k:expr, $bounds:expr, $terms:expr, $cases:expr) => {
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(ProptestConfig::with_cases($cases))]

                #[test]
                fn ring_laws(
                    a in ordinal($k, $bounds, $terms),
                    b in ordinal($k, $bounds, $terms),
                    c in ordinal($k, $bounds, $terms),
                ) {
                    prop_assert_eq!(mul(&a, &b), mul(&b, &a));
                    prop_assert_eq!(mul(&mul(&a, &b), &c), mul(&a, &mul(&b, &c)));
                    prop_assert_eq!(mul(&a, &b.nim_add(&c)), mul(&a, &b).nim_add(&mul(&a, &c)));
                    prop_assert_eq!(mul(&a, &Ordinal::one()), a.clone());
                    prop_assert_eq!(a.nim_add(&a), Ordinal::zero());
                    prop_assert_eq!(a.nim_add(&b).nim_add(&c), a.nim_add(&b.nim_add(&c)));
                }

                #[test]
                fn powers(a in ordinal($k, $bounds, $terms), m in 0u64..6, n in 0u64..6) {
                    let pm = a.pow(m).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    let pn = a.pow(n).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    prop_assert_eq!(a.pow(m + n), Ok(mul(&pm, &pn)));
                    // Squaring is additive in characteristic 2.
                    let b = a.nim_add(&Ordinal::from_u64(3));
                    prop_assert_eq!(
                        mul(&a.nim_add(&b), &a.nim_add(&b)),
                        mul(&a, &a).nim_add(&mul(&b, &b))
                    );
                }
            }
        }
    };
}

macro_rules! inverse_laws {
    ($name:ident, $k:expr, $bounds:expr, $terms:expr, $cases:expr) => {
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(ProptestConfig::with_cases($cases))]

                #[test]
                fn inverse_and_division(
                    a in ordinal($k, $bounds, $terms),
                    b in ordinal($k, $bounds, $terms),
                ) {
                    if a.is_zero() {
                        prop_assert!(a.inv().is_err());
                    } else {
                        let i = a.inv().map_err(|e| TestCaseError::fail(e.to_string()))?;
                        prop_assert_eq!(mul(&a, &i), Ordinal::one());
                        let q = b.nim_div(&a).map_err(|e| TestCaseError::fail(e.to_string()))?;
                        prop_assert_eq!(mul(&q, &a), b);
                    }
                }
            }
        }
    };
}

// Below ω^ω: generators ω, ω^3, ω^9, … (p = 3).
field_laws!(below_w_w, 1, [30, 1, 1], 6, 128);
inverse_laws!(inverse_below_w_w, 1, [9, 1, 1], 5, 64);
// Below ω^(ω^2): adds ω^ω, ω^(ω·5), … (p = 5).
field_laws!(below_w_w2, 2, [12, 30, 1], 6, 128);
inverse_laws!(inverse_below_w_w2, 2, [9, 5, 1], 5, 48);
// Below ω^(ω^3): adds ω^(ω^2), … (p = 7), where α₇ = ω + 1 is not finite.
field_laws!(below_w_w3, 3, [10, 10, 20], 6, 96);
inverse_laws!(inverse_below_w_w3, 3, [3, 5, 7], 4, 32);

proptest! {
    #[test]
    fn finite_agrees_with_nimber(a in any::<u64>(), b in any::<u64>()) {
        let want = Nimber::from_u64(a).nim_mul(&Nimber::from_u64(b));
        let got = mul(&Ordinal::from_u64(a), &Ordinal::from_u64(b));
        prop_assert_eq!(got.to_nimber(), Some(want));
        prop_assert_eq!(
            Ordinal::from_u64(a).nim_add(&Ordinal::from_u64(b)).to_nimber(),
            Some(Nimber::from_u64(a).nim_add(&Nimber::from_u64(b)))
        );
        if a != 0 {
            let i = Ordinal::from_u64(a).inv().map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(i.to_nimber().map(|i| i.nim_mul(&Nimber::from_u64(a))), Some(Nimber::from_u64(1)));
        }
    }
}

#[test]
fn finite_exhaustive_below_256() {
    for a in 0..256u64 {
        for b in 0..256u64 {
            let want = Nimber::from_u64(a).nim_mul(&Nimber::from_u64(b));
            assert_eq!(
                mul(&Ordinal::from_u64(a), &Ordinal::from_u64(b)).to_nimber(),
                Some(want)
            );
        }
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "spends the whole work budget: slow in debug builds, run with --release"
)]
fn inverse_in_a_huge_field_is_refused_not_hung() {
    // Generators κ up to ω^(ω^2·7): a field of dimension 27·25·49 over GF(2^64), where the
    // inverse is dense; the work budget refuses it in about a second.
    let x: Ordinal = match "w^(w^2*9 + w*6 + 1)*15 + w^(w^2*6 + w*8)*12 + w^(w^2*6 + w*3 + 9)*8 + w^(w^2*4 + w*4 + 5)*6 + w^(w^2*2 + 7)*11 + w^(w*4 + 4)*13".parse() {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    };
    let r = x.inv();
    assert!(
        matches!(r, Err(nimbook::nim::ordinal::OrdinalError::Budget { .. })),
        "{:?}",
        r.map(|_| ())
    );
}
