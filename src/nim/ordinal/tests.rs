use super::*;

fn o(s: &str) -> Ordinal {
    match Ordinal::parse(s) {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    }
}

fn m(a: &str, b: &str) -> Ordinal {
    match o(a).nim_mul(&o(b)) {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn omega_cubed_is_two() {
    assert_eq!(o("w").pow(3), Ok(o("2")));
    assert_eq!(m("w", "w"), o("w^2"));
    assert_eq!(m("w^2", "w"), o("2"));
}

#[test]
fn first_alphas() {
    assert_eq!(alpha(3), Ok(o("2")));
    assert_eq!(alpha(5), Ok(o("4")));
    assert_eq!(alpha(7), Ok(o("w + 1")));
    assert_eq!(alpha(11), Ok(o("w^w + 1")));
    assert_eq!(alpha(13), Ok(o("w + 4")));
    assert_eq!(alpha(19), Ok(o("w^3 + 4")));
    assert_eq!(alpha(47), Ok(o("w^(w^7) + 1")));
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
fn finite_part_agrees() {
    for a in 0..40u64 {
        for b in 0..40u64 {
            let want = Nimber::from_u64(a).nim_mul(&Nimber::from_u64(b));
            let got = Ordinal::from_u64(a).nim_mul(&Ordinal::from_u64(b));
            assert_eq!(got.ok().and_then(|x| x.to_nimber()), Some(want));
        }
    }
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

#[test]
fn display() {
    for s in [
        "0",
        "1",
        "w",
        "w^w + 1",
        "w^(w^2)*3 + w + 4",
        "w^(w^2*3 + 1)",
        "w^(w + 1)*2",
    ] {
        assert_eq!(o(s).to_string(), s);
    }
    assert_eq!(o("ω^(ω^2·3+1)").to_string(), "w^(w^2*3 + 1)");
}

#[test]
fn unknown_excess() {
    let x = o("w^(w^54)");
    assert!(matches!(
        x.pow(263),
        Err(OrdinalError::UnknownExcess { p: 263, .. })
    ));
    assert!(x.nim_mul(&x).is_ok());
}
