//! The notation of ordinals: canonical display, round trips, and every error kind.

use crate::common::o;

use nimbook::nim::ordinal::{parse, Ordinal, OrdinalError, MAX_TERMS};
use proptest::prelude::*;

#[test]
fn canonical_display() {
    let cases = [
        ("0", "0"),
        ("1", "1"),
        ("  7 ", "7"),
        ("w", "w"),
        ("ω", "w"),
        ("w*1", "w"),
        ("w^1", "w"),
        ("w^w + 1", "w^w + 1"),
        ("w^(w)", "w^w"),
        ("w^(w^2)*3+w+4", "w^(w^2)*3 + w + 4"),
        ("ω^(ω^2·3+1)", "w^(w^2*3 + 1)"),
        ("w^(w*2)·5 + w^(w + 1)", "w^(w*2)*5 + w^(w + 1)"),
        ("w^(5) + w^2", "w^5 + w^2"),
        ("w^(w + 1)*2", "w^(w + 1)*2"),
        (
            "w^(w^3 + w^2*2 + 7)*18446744073709551615",
            "w^(w^3 + w^2*2 + 7)*18446744073709551615",
        ),
    ];
    for (input, shown) in cases {
        let x = o(input);
        assert_eq!(x.to_string(), shown, "{input}");
        assert_eq!(o(shown), x, "{input}");
        assert_eq!(shown.parse::<Ordinal>(), Ok(x.clone()));
        assert_eq!(parse(shown), Ok(x));
    }
}

#[test]
fn ordinal_order() {
    let sorted = [
        "0",
        "1",
        "2",
        "w",
        "w + 1",
        "w*2",
        "w^2",
        "w^3*5 + 2",
        "w^w",
        "w^w*2",
        "w^(w + 1)",
        "w^(w*2)",
        "w^(w^2)",
        "w^(w^2 + 1)",
        "w^(w^3)",
    ];
    for pair in sorted.windows(2) {
        assert!(o(pair[0]) < o(pair[1]), "{} < {}", pair[0], pair[1]);
    }
}

fn malformed_at(s: &str) -> usize {
    match Ordinal::parse(s) {
        Err(OrdinalError::Malformed { offset, .. }) => offset,
        other => panic!("{s}: {other:?}"),
    }
}

#[test]
fn malformed_inputs_with_offsets() {
    assert_eq!(malformed_at(""), 0);
    assert_eq!(malformed_at("w +"), 3);
    assert_eq!(malformed_at("x"), 0);
    assert_eq!(malformed_at("1 + w"), 4);
    assert_eq!(malformed_at("w + w"), 4);
    assert_eq!(malformed_at("w^w^2"), 3);
    assert_eq!(malformed_at("w^(w + 1"), 8);
    assert_eq!(malformed_at("w*0"), 2);
    assert_eq!(malformed_at("w^0"), 2);
    assert_eq!(malformed_at("w + 0"), 4);
    assert_eq!(malformed_at("w 2"), 2);
    assert_eq!(malformed_at("w^"), 2);
    assert_eq!(malformed_at("ω^ω^"), 5);
}

#[test]
fn error_messages_are_one_line_and_name_the_input() {
    let inputs = ["w +", "w^(w^w)", "99999999999999999999", "w^(w^5000)"];
    for s in inputs {
        let e = match Ordinal::parse(s) {
            Err(e) => e.to_string(),
            Ok(x) => panic!("{s} parsed as {x}"),
        };
        assert!(!e.contains('\n'), "{e}");
        assert!(e.contains(&format!("`{s}`")), "{e}");
    }
}

#[test]
fn out_of_range() {
    for s in [
        "w^(w^w)",
        "w^(w^(w + 1))",
        "w^(w^(w^(w)))",
        "w^(w^w*2 + 1) + 1",
    ] {
        assert_eq!(
            Ordinal::parse(s),
            Err(OrdinalError::OutOfRange(s.to_string()))
        );
    }
    // Just below the bound is fine.
    assert!(Ordinal::parse("w^(w^1000 + 1)").is_ok());
}

#[test]
fn too_large() {
    for s in [
        "18446744073709551616",
        "w*18446744073709551616",
        "w^(w^2*99999999999)",
        "w^(w^1024)",
    ] {
        assert!(
            matches!(Ordinal::parse(s), Err(OrdinalError::TooLarge { .. })),
            "{s}: {:?}",
            Ordinal::parse(s)
        );
    }
    // 3^21 is the first power of 3 at least 2^32: w^(3^21 − 1) is allowed.
    assert!(Ordinal::parse("w^10460353202").is_ok());
    assert!(Ordinal::parse("w^10460353203").is_err());
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let s = format!("{}1{}", "w^(".repeat(10_000), ")".repeat(10_000));
    assert!(Ordinal::parse(&s).is_err());
}

#[test]
fn term_budget() {
    let s: Vec<String> = (0..=MAX_TERMS as u64)
        .rev()
        .map(|k| format!("w^{}", k + 1))
        .collect();
    let s = s.join(" + ");
    assert!(matches!(
        Ordinal::parse(&s),
        Err(OrdinalError::Budget { .. })
    ));
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "spends the whole work budget: slow in debug builds, run with --release"
)]
fn work_budget_refuses_large_products() {
    // Dense elements of a large field: the product is refused, not computed for hours.
    let mut x = Ordinal::zero();
    for k in 0..5000u64 {
        let m = Ordinal::monomial(&[k / 50 + 1, k % 50 + 1], 1).unwrap_or_default();
        x = x.nim_add(&m);
    }
    let r = x.nim_mul(&x.nim_add(&Ordinal::one()));
    assert!(
        matches!(r, Err(OrdinalError::Budget { .. })),
        "{:?}",
        r.map(|_| ())
    );
}

#[test]
fn unknown_excess_and_division_by_zero() {
    // 293 is the 61st odd prime: (ω^(ω^60))^293 needs α_293, past the table.
    let x = o("w^(w^60)");
    assert!(x.pow(292).is_ok());
    let e = x.pow(293).map(|_| ());
    assert!(
        matches!(e, Err(OrdinalError::UnknownExcess { p: 293, n: 60, .. })),
        "{e:?}"
    );
    let msg = x.pow(293).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(msg.contains("not tabulated"), "{msg}");
    assert!(matches!(
        o("w").nim_div(&Ordinal::zero()),
        Err(OrdinalError::DivisionByZero(_))
    ));
}

fn ordinal() -> impl Strategy<Value = Ordinal> {
    let exponent = proptest::collection::vec(0u64..40, 0..5);
    let coefficient = prop_oneof![1u64..20, any::<u64>()];
    proptest::collection::vec((exponent, coefficient), 0..8).prop_map(|ts| {
        ts.into_iter().fold(Ordinal::zero(), |acc, (e, c)| {
            acc.nim_add(&Ordinal::monomial(&e, c).unwrap_or_default())
        })
    })
}

proptest! {
    #[test]
    fn round_trip(x in ordinal()) {
        let s = x.to_string();
        prop_assert_eq!(Ordinal::parse(&s), Ok(x.clone()));
        let spaced = s.replace(' ', "").replace('w', " ω ").replace('*', " · ");
        prop_assert_eq!(Ordinal::parse(&spaced), Ok(x));
    }

    #[test]
    fn parser_never_panics(s in "[wω0-9^*·+() ]{0,40}") {
        let _ = Ordinal::parse(&s);
    }

    #[test]
    fn order_matches_display_order(a in ordinal(), b in ordinal()) {
        // The sum of two ordinals in CNF order is accepted exactly when a's last term is
        // above b's first, which the order must agree with.
        if let (Some(last), Some(first)) = (a.terms().last(), b.terms().next()) {
            let la = Ordinal::monomial(last.0, 1).unwrap_or_default();
            let fb = Ordinal::monomial(first.0, 1).unwrap_or_default();
            let joined = format!("{a} + {b}");
            prop_assert_eq!(Ordinal::parse(&joined).is_ok(), la > fb);
        }
    }
}

#[test]
fn wide_exponents_are_capped_in_memory() {
    // 5000 terms whose exponents reach ω^1000: 5 million exponent coefficients.
    let s: Vec<String> = (0..5000u64)
        .rev()
        .map(|k| format!("w^(w^1000 + {})", k + 1))
        .collect();
    let r = Ordinal::parse(&s.join(" + "));
    assert!(
        matches!(r, Err(OrdinalError::Budget { .. })),
        "{:?}",
        r.map(|_| ())
    );
    // 3000 of them fit.
    let s: Vec<String> = (0..3000u64)
        .rev()
        .map(|k| format!("w^(w^1000 + {})", k + 1))
        .collect();
    assert!(Ordinal::parse(&s.join(" + ")).is_ok());
}
