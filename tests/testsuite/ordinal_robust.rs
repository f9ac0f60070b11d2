//! Operations on extreme ordinals (high levels, exponent coefficients at their caps, large
//! coefficients) return a value or an error, and never panic.

use nimbook::nim::ordinal::{exponent_cap, Ordinal};
use proptest::prelude::*;

/// A sparse exponent: a few levels anywhere below 1024, coefficients anywhere below the cap.
fn exponent() -> impl Strategy<Value = Vec<u64>> {
    let level = prop_oneof![0usize..4, 0usize..60, 0usize..1024];
    proptest::collection::vec((level, any::<u64>(), 0u8..3), 0..3).prop_map(|levels| {
        let top = levels.iter().map(|l| l.0 + 1).max().unwrap_or(0);
        let mut e = vec![0u64; top];
        for (n, a, kind) in levels {
            let cap = exponent_cap(n);
            e[n] = match kind {
                0 => cap - 1,
                1 => a % 8,
                _ => a % cap,
            };
        }
        e
    })
}

fn ordinal() -> impl Strategy<Value = Ordinal> {
    proptest::collection::vec((exponent(), any::<u64>()), 0..3).prop_map(|ts| {
        ts.into_iter().fold(Ordinal::zero(), |acc, (e, c)| {
            acc.nim_add(&Ordinal::monomial(&e, c).unwrap_or_default())
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]

    #[test]
    #[cfg_attr(debug_assertions, ignore = "spends the whole work budget: slow in debug builds, run with --release")]
    fn never_panics(a in ordinal(), b in ordinal(), e in any::<u64>()) {
        if let Ok(p) = a.nim_mul(&b) {
            prop_assert_eq!(Ordinal::parse(&p.to_string()), Ok(p));
        }
        let _ = a.pow(e);
        let _ = a.pow(e % 1000);
        if let Ok(i) = a.inv() {
            if let Ok(one) = a.nim_mul(&i) {
                prop_assert_eq!(one, Ordinal::one());
            }
        }
        let _ = b.nim_div(&a);
        prop_assert_eq!(Ordinal::parse(&a.to_string()), Ok(a));
    }
}
