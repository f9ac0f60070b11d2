//! Every step of a worked expansion evaluates to the product, read back by a tiny parser.

use nimbook::nim::expand::{product_steps, Step};
use nimbook::nim::Nimber;
use num_bigint::BigUint;

/// Evaluates an expression of decimal numbers, `⊕`, `⊗` and parentheses (`⊗` binds tighter)
/// with the engine. `None` if anything else appears.
fn eval(s: &str) -> Option<Nimber> {
    let toks: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut pos = 0;
    let v = sum(&toks, &mut pos)?;
    (pos == toks.len()).then_some(v)
}

fn sum(t: &[char], p: &mut usize) -> Option<Nimber> {
    let mut v = prod(t, p)?;
    while t.get(*p) == Some(&'⊕') {
        *p += 1;
        v = v.nim_add(&prod(t, p)?);
    }
    Some(v)
}

fn prod(t: &[char], p: &mut usize) -> Option<Nimber> {
    let mut v = atom(t, p)?;
    while t.get(*p) == Some(&'⊗') {
        *p += 1;
        v = v.nim_mul(&atom(t, p)?);
    }
    Some(v)
}

fn atom(t: &[char], p: &mut usize) -> Option<Nimber> {
    if t.get(*p) == Some(&'(') {
        *p += 1;
        let v = sum(t, p)?;
        if t.get(*p) != Some(&')') {
            return None;
        }
        *p += 1;
        return Some(v);
    }
    let start = *p;
    while t.get(*p).is_some_and(|c| c.is_ascii_digit()) {
        *p += 1;
    }
    let digits: String = t[start..*p].iter().collect();
    let v = BigUint::parse_bytes(digits.as_bytes(), 10)?;
    Nimber::from_biguint(&v).ok()
}

fn check(a: &Nimber, b: &Nimber) -> Vec<Step> {
    let steps = product_steps(a, b);
    let want = a.nim_mul(b);
    assert_eq!(steps[0].expr, format!("{a} ⊗ {b}"));
    assert_eq!(
        steps.last().map(|s| s.expr.clone()),
        Some(want.to_string()),
        "{a} ⊗ {b}"
    );
    for s in &steps {
        assert_eq!(
            eval(&s.expr).as_ref(),
            Some(&want),
            "step `{}` of {a} ⊗ {b}",
            s.expr
        );
        assert!(!s.why.is_empty());
    }
    for w in steps.windows(2) {
        assert_ne!(w[0].expr, w[1].expr, "repeated step");
    }
    assert!(steps.len() <= 8, "{} steps for {a} ⊗ {b}", steps.len());
    steps
}

#[test]
fn every_product_below_64() {
    for a in 0..64u64 {
        for b in 0..64u64 {
            check(&Nimber::from_u64(a), &Nimber::from_u64(b));
        }
    }
}

#[test]
fn course_examples() {
    for (a, b, c) in [
        (6u64, 13u64, "15"),
        (10, 7, "6"),
        (100, 200, "62"),
        (16, 16, "24"),
    ] {
        let steps = check(&Nimber::from_u64(a), &Nimber::from_u64(b));
        assert_eq!(steps.last().map(|s| s.expr.as_str()), Some(c));
    }
    let steps = check(&Nimber::from_u64(16), &Nimber::from_u64(16));
    let exprs: Vec<&str> = steps.iter().map(|s| s.expr.as_str()).collect();
    assert_eq!(exprs, ["16 ⊗ 16", "16 ⊕ 8", "24"]);
}

#[test]
fn large_inputs_stay_short() {
    let x = Nimber::from_u64(u64::MAX);
    let steps = check(&x, &x);
    assert_eq!(steps.len(), 2);
    let big = Nimber::from_biguint(&(BigUint::from(1u32) << 400u32)).expect("small");
    check(&big, &big);
    check(&big, &Nimber::from_u64(0x8000_0000_0000_0003));
}
