//! The product checked against a slow, obviously-correct reference.
//!
//! `naive_mul` follows the definition of the tower directly: take the highest generator
//! κ = ω^(ω^n·p^k) of either factor, write both factors as polynomials in κ over the nimbers
//! below κ, multiply the polynomials (recursively, coefficient by coefficient), and reduce with
//! κ^p = ω^(ω^n·p^(k−1)) (or α_p when k = 0). Below ω it defers to the finite engine
//! `Nimber::nim_mul`. It shares no code with the engine's digit-carrying product except
//! the table of α_p (through `alpha`).

use nimbook::nim::ordinal::{alpha, Ordinal};
use nimbook::nim::Nimber;
use proptest::prelude::*;

fn odd_prime(n: usize) -> u64 {
    (3u64..)
        .step_by(2)
        .filter(|&q| {
            (3..q)
                .step_by(2)
                .take_while(|d| d * d <= q)
                .all(|d| q % d != 0)
        })
        .nth(n)
        .unwrap_or(3)
}

fn ok(r: Result<Ordinal, nimbook::nim::ordinal::OrdinalError>) -> Ordinal {
    match r {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    }
}

/// The highest generator (n, k) of x, if x is infinite.
fn top(x: &Ordinal) -> Option<(usize, u32)> {
    x.terms()
        .filter(|(e, _)| !e.is_empty())
        .map(|(e, _)| {
            let n = e.len() - 1;
            let p = odd_prime(n);
            let mut k = 0;
            let mut a = e[n];
            while a >= p {
                a /= p;
                k += 1;
            }
            (n, k)
        })
        .max()
}

/// x as Σ x_i κ^i with κ = (n, k).
fn split(x: &Ordinal, n: usize, k: u32, p: u64) -> Vec<Ordinal> {
    let pk = p.pow(k);
    let mut parts = vec![Ordinal::zero(); p as usize];
    for (e, c) in x.terms() {
        let mut e = e.to_vec();
        let d = if e.len() > n { (e[n] / pk) % p } else { 0 };
        if d > 0 {
            e[n] -= d * pk;
        }
        parts[d as usize] = parts[d as usize].nim_add(&ok(Ordinal::monomial(&e, c)));
    }
    parts
}

/// y ⊗ κ^i for y below κ: the digit i at place k of level n.
fn shift(y: &Ordinal, n: usize, k: u32, p: u64, i: u64) -> Ordinal {
    let mut out = Ordinal::zero();
    for (e, c) in y.terms() {
        let mut e = e.to_vec();
        if e.len() <= n {
            e.resize(n + 1, 0);
        }
        e[n] += i * p.pow(k);
        out = out.nim_add(&ok(Ordinal::monomial(&e, c)));
    }
    out
}

fn naive_mul(a: &Ordinal, b: &Ordinal) -> Ordinal {
    let Some((n, k)) = top(a).max(top(b)) else {
        let x = Nimber::from_u64(a.to_u64().unwrap_or(0));
        let y = Nimber::from_u64(b.to_u64().unwrap_or(0));
        return Ordinal::from_u64(x.nim_mul(&y).to_u64().unwrap_or(0));
    };
    let p = odd_prime(n);
    let xs = split(a, n, k, p);
    let ys = split(b, n, k, p);
    let mut prod = vec![Ordinal::zero(); 2 * p as usize - 1];
    for (i, x) in xs.iter().enumerate() {
        for (j, y) in ys.iter().enumerate() {
            if !x.is_zero() && !y.is_zero() {
                prod[i + j] = prod[i + j].nim_add(&naive_mul(x, y));
            }
        }
    }
    let kappa_p = if k > 0 {
        let mut e = vec![0u64; n + 1];
        e[n] = p.pow(k - 1);
        ok(Ordinal::monomial(&e, 1))
    } else {
        ok(alpha(p))
    };
    for m in (p as usize..prod.len()).rev() {
        let hi = std::mem::take(&mut prod[m]);
        if !hi.is_zero() {
            let lo = naive_mul(&hi, &kappa_p);
            prod[m - p as usize] = prod[m - p as usize].nim_add(&lo);
        }
    }
    let mut out = Ordinal::zero();
    for (i, c) in prod.iter().take(p as usize).enumerate() {
        out = out.nim_add(&shift(c, n, k, p, i as u64));
    }
    out
}

fn ordinal(bounds: [u64; 3]) -> impl Strategy<Value = Ordinal> {
    let exponent = (0..bounds[0], 0..bounds[1], 0..bounds[2]).prop_map(|(a, b, c)| vec![a, b, c]);
    let coefficient = prop_oneof![3 => 1u64..8, 1 => any::<u64>()];
    proptest::collection::vec((exponent, coefficient), 0..6).prop_map(|ts| {
        ts.into_iter().fold(Ordinal::zero(), |acc, (e, c)| {
            acc.nim_add(&Ordinal::monomial(&e, c).unwrap_or_default())
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn product_agrees_with_naive_below_w_w3(a in ordinal([10, 6, 8]), b in ordinal([10, 6, 8])) {
        prop_assert_eq!(ok(a.nim_mul(&b)), naive_mul(&a, &b));
    }
}

#[test]
fn product_agrees_with_naive_on_higher_levels() {
    // α_23 = ω^(ω^3) + 1, α_29 = ω^(ω^2) + 4, α_19 = ω^3 + 4: carries through several levels.
    let cases = [
        (
            "w^(w^8*22 + w^3*10 + 2)*3 + w^(w^7*5) + 1",
            "w^(w^8*5 + w^2*6 + 8)*7 + w^(w^3*4)",
        ),
        (
            "w^(w^9*28 + w^7*18) + w^(w^2*6)*2",
            "w^(w^9 + w^4*12 + 1)*5 + 9",
        ),
        (
            "w^(w^6*18 + 26)*3 + w^(w^6*3)",
            "w^(w^6*16 + w + 1)*2 + w^2",
        ),
    ];
    assert_eq!(
        naive_mul(&ok(Ordinal::parse("w")), &ok(Ordinal::parse("w^2"))),
        Ordinal::from_u64(2)
    );
    for (x, y) in cases {
        let (a, b) = (ok(Ordinal::parse(x)), ok(Ordinal::parse(y)));
        assert_eq!(ok(a.nim_mul(&b)), naive_mul(&a, &b), "{x} * {y}");
    }
}
