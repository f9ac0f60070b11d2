use super::*;

fn o(s: &str) -> Ordinal {
    match Ordinal::parse(s) {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn carries_between_places() {
    // (ω^3)^3 = ω: κ_9 cubed is κ_3.
    assert_eq!(o("w^3").pow(3), Ok(o("w")));
    assert_eq!(o("w^9").pow(9), Ok(o("w")));
    // (ω^(ω·5))^5 = ω^ω.
    assert_eq!(o("w^(w*5)").pow(5), Ok(o("w^w")));
}

#[test]
fn inverses() {
    for s in [
        "w",
        "w + 1",
        "w^2 + w*3 + 7",
        "w^w",
        "w^(w^2)*3 + w + 4",
        "w^9 + 2",
    ] {
        let x = o(s);
        let i = x.inv().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(x.nim_mul(&i), Ok(Ordinal::one()), "{s}");
    }
    assert!(matches!(
        Ordinal::zero().inv(),
        Err(OrdinalError::DivisionByZero(_))
    ));
}
