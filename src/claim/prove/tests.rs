//! Tests of the prover, through the checker as a lesson uses it. Expected results come from
//! hand computation or from slow oracles that share no code with the prover: nimber products by
//! their mex definition ([`crate::nim::naive`]) and Grundy values by a plain mex loop.

use proptest::prelude::*;

use crate::claim::{Checker, Established, Limits, MappedText, Status};
use crate::diag::SourceFile;
use crate::nim::naive::naive_mul;

/// Checks one statement; gives its status, how it was established, and the first diagnostic's
/// message and notes.
fn check(text: &str, limits: Limits) -> (Status, Option<Established>, String, Vec<String>) {
    let mut c = Checker::new(SourceFile::new("t.md", text), limits);
    let mut results = c.check_block(&MappedText::contiguous(text, 0));
    let r = results.remove(0);
    let (message, notes) = c
        .diagnostics()
        .first()
        .map(|d| (d.message.clone(), d.notes.clone()))
        .unwrap_or_default();
    (r.status, r.established, message, notes)
}

fn decide(text: &str) -> (Status, Option<Established>, String, Vec<String>) {
    check(text, Limits::default())
}

/// The value given to `name` in a `counterexample: a = 4, b = 0 (…)` note.
fn counterexample(notes: &[String], name: &str) -> Option<String> {
    let note = notes.iter().find(|n| n.starts_with("counterexample: "))?;
    let body = note.strip_prefix("counterexample: ")?;
    let body = body.split(" (").next()?;
    body.split(", ").find_map(|kv| {
        let (k, v) = kv.split_once(" = ")?;
        (k == name).then(|| v.to_string())
    })
}

#[test]
fn methods_are_named_as_the_page_shows_them() {
    assert_eq!(
        Established::Checked { cases: 65536 }.to_string(),
        "checked (65\u{a0}536 cases)"
    );
    assert_eq!(
        Established::Periodic {
            period: 12,
            from: 71,
            guy_smith: true,
            saltus: 0,
            shift_residue: false,
        }
        .to_string(),
        "proved (period 12 from 71; Guy–Smith)"
    );
    assert_eq!(
        Established::Periodic {
            period: 4,
            from: 0,
            guy_smith: false,
            saltus: 0,
            shift_residue: false,
        }
        .to_string(),
        "proved (period 4 from 0)"
    );
    assert_eq!(
        Established::Polynomial.to_string(),
        "proved (polynomial identity; nimbers form a field)"
    );
    assert_eq!(super::grouped(1_234_567), "1\u{a0}234\u{a0}567");
    assert_eq!(super::grouped(999), "999");
}

#[test]
fn the_field_laws_are_polynomial_identities() {
    for claim in [
        "forall a, b, c: a * (b + c) = a * b + a * c",
        "forall a, b: (a + b) ^ 2 = a ^ 2 + b ^ 2",
        "forall a, b: a * b = b * a",
        "forall a, b, c: (a * b) * c = a * (b * c)",
        "forall a: a + a = 0",
        "forall a, b: (a + b) ^ (2^100) = a ^ (2^100) + b ^ (2^100)",
        "forall a: square(a) = a * a",
        "forall a: a / 3 * 3 = a",
    ] {
        let (status, how, message, _) = decide(claim);
        assert_eq!(status, Status::Holds, "{claim}: {message}");
        assert_eq!(how, Some(Established::Polynomial), "{claim}");
    }
}

#[test]
fn fermat_bounds_reduce_exponents() {
    // Every element of GF(q) satisfies x^q = x: so the first holds, and by hand the roots of
    // x^(2^32) − x are exactly the nimbers below 2^32, so the least counterexample is 2^32.
    let (status, how, message, _) = decide("forall a < 2^64: a ^ (2^64) = a");
    assert_eq!(
        (status, how),
        (Status::Holds, Some(Established::Polynomial)),
        "{message}"
    );
    let (status, _, message, notes) = decide("forall a < 2^64: a ^ (2^32) = a");
    assert_eq!(status, Status::Fails, "{message}");
    assert_eq!(
        counterexample(&notes, "a").as_deref(),
        Some("4294967296"),
        "{notes:?}"
    );
    // x^4 = x exactly on GF(4) = {0, 1, 2, 3}: the counterexample is 4 or above.
    let (status, _, _, notes) = decide("forall a: a ^ 4 = a");
    assert_eq!(status, Status::Fails);
    assert_eq!(
        counterexample(&notes, "a").as_deref(),
        Some("4"),
        "{notes:?}"
    );
    // Frobenius: squaring 2^k times is the identity on GF(2^(2^k)); square roots there are
    // the power q/2.
    let few = || Limits {
        max_cases: 1,
        ..Limits::default()
    };
    for k in 0..=6 {
        let claim = format!("forall x < 2^(2^{k}): x ^ (2^(2^{k})) = x");
        let (status, how, message, _) = check(&claim, few());
        assert_eq!(
            (status, how),
            (Status::Holds, Some(Established::Polynomial)),
            "{claim}: {message}"
        );
    }
    let (status, _, message, _) = check("forall x < 256: sqrt(x) = x ^ 128", few());
    assert_eq!(status, Status::Holds, "{message}");
    let (status, _, message, _) = decide("forall x < 2^64: sqrt(x) = x ^ (2^63)");
    assert_eq!(status, Status::Holds, "{message}");
}

#[test]
fn a_bound_that_is_not_a_fermat_power_is_proved_through_the_field_above_it() {
    // Holds on GF(2^64), so below 10^15 too.
    let (status, how, _, _) = decide("forall a < 10^15: a ^ (2^64) = a");
    assert_eq!(
        (status, how),
        (Status::Holds, Some(Established::Polynomial))
    );
    // Fails below 2^32 + 5 at 2^32.
    let (status, _, _, notes) = decide("forall a < 2^32 + 5: a ^ (2^32) = a");
    assert_eq!(status, Status::Fails);
    assert_eq!(counterexample(&notes, "a").as_deref(), Some("4294967296"));
    // 10^9 < 2^32, and x^(2^32) = x on GF(2^32).
    let (status, how, _, _) = decide("forall a < 10^9: a ^ (2^32) = a");
    assert_eq!(
        (status, how),
        (Status::Holds, Some(Established::Polynomial))
    );
}

/// Grundy values of a subtraction game by a plain mex loop.
fn subtraction_values(set: &[u64], len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..len {
        let options: Vec<u64> = set
            .iter()
            .filter(|&&s| s as usize <= n)
            .map(|&s| g[n - s as usize])
            .collect();
        g.push((0..).find(|v| !options.contains(v)).unwrap_or(0));
    }
    g
}

/// Grundy values of Kayles (remove one or two adjacent pins) by a plain mex loop.
fn kayles_values(len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..len {
        let mut options = Vec::new();
        for take in 1..=2usize {
            for left in 0..=n.saturating_sub(take) {
                if left + take <= n {
                    options.push(g[left] ^ g[n - take - left]);
                }
            }
        }
        g.push((0..).find(|v| !options.contains(v)).unwrap_or(0));
    }
    g
}

#[test]
fn subtraction_and_kayles_periods() {
    let (status, how, message, _) = decide("forall n: grundy(subtraction([1, 2, 3], n)) = n mod 4");
    assert_eq!(status, Status::Holds, "{message}");
    assert_eq!(
        how,
        Some(Established::Periodic {
            period: 4,
            from: 0,
            guy_smith: false,
            saltus: 0,
            shift_residue: false
        })
    );
    let (status, how, message, _) =
        decide("forall n >= 71: grundy(kayles(n)) = grundy(kayles(int(n + 12)))");
    assert_eq!(status, Status::Holds, "{message}");
    assert_eq!(
        how,
        Some(Established::Periodic {
            period: 12,
            from: 71,
            guy_smith: true,
            saltus: 0,
            shift_residue: false
        })
    );
    // The least counterexample, from the mex loop.
    let g = kayles_values(200);
    let least = (0..180).find(|&n| g[n] != g[n + 12]);
    let (status, _, _, notes) = decide("forall n: grundy(kayles(n)) = grundy(kayles(int(n + 12)))");
    assert_eq!(status, Status::Fails);
    assert_eq!(
        counterexample(&notes, "n"),
        least.map(|n| n.to_string()),
        "{notes:?}"
    );
    // `n ⊕ 12` is not `n + 12`; the method handles it too, and it is false.
    let (status, _, _, _) = decide("forall n >= 71: grundy(kayles(n)) = grundy(kayles(n + 12))");
    assert_eq!(status, Status::Fails);
    // Outcome classes repeat with the Grundy values.
    let (status, how, _, _) = decide("forall n: subtraction([1, 2, 3], int(4 * n)) is P");
    assert_eq!(status, Status::Holds);
    assert_eq!(
        how,
        Some(Established::Periodic {
            period: 1,
            from: 0,
            guy_smith: false,
            saltus: 0,
            shift_residue: false
        })
    );
}

#[test]
fn what_cannot_be_proved_is_an_error_that_says_why() {
    for (claim, why) in [
        ("forall n: grundy(cram(2, 2 * n)) = 0", "cram"),
        ("forall n: order(n) = 1", "grows without repeating"),
        ("forall n: log(2, n) = 1", "grows without repeating"),
        ("forall a, n: a ^ n = a", "exponent"),
        ("forall a: ord(\"w\") * a = a * ord(\"w\")", "ordinal"),
        ("forall n: grundy(grundys_game(n)) = 0", "grundys_game"),
    ] {
        let (status, _, message, notes) = decide(claim);
        assert_eq!(status, Status::Error, "{claim}");
        assert!(message.starts_with("cannot prove"), "{claim}: {message}");
        let all = format!("{message} {}", notes.join(" "));
        assert!(all.contains(why), "{claim}: {all}");
    }
    // An unbounded `exists` is refused.
    assert_refused("exists n: n * n = 2", Limits::default(), "bound");
}

/// Asserts that `claim`, checked within `limits`, is an error whose message names `needle`, and
/// returns the message.
fn assert_refused(claim: &str, limits: Limits, needle: &str) -> String {
    let (status, _, message, _) = check(claim, limits);
    assert_eq!(status, Status::Error, "{claim}: {message}");
    assert!(message.contains(needle), "{claim}: {message}");
    message
}

#[test]
fn expansion_budgets_are_named() {
    let four_terms = Limits {
        max_terms: 4,
        ..Limits::default()
    };
    let huge = "forall a, b, c, d: (a + b + c + d) ^ (2^20 - 1) = 0";
    assert_refused(huge, Limits::default(), "max-terms");
    let small = "forall a, b: (a + b) ^ 15 = a ^ 15 + b ^ 15";
    assert_refused(small, four_terms, "budget is 4 terms");
}

#[test]
fn a_window_over_the_case_budget_is_named() {
    let ten_cases = Limits {
        max_cases: 10,
        ..Limits::default()
    };
    assert_refused(
        "forall n: grundy(kayles(n)) = grundy(kayles(n))",
        ten_cases,
        "max-cases",
    );
}

/// An expression over the variables `a` and `b` and nimbers below 16, with its value computed
/// by the mex-definition oracle.
#[derive(Debug, Clone)]
enum Term {
    A,
    B,
    Const(u8),
    Sum(Box<Term>, Box<Term>),
    Product(Box<Term>, Box<Term>),
    Power(Box<Term>, u32),
}

impl Term {
    fn text(&self) -> String {
        match self {
            Term::A => "a".into(),
            Term::B => "b".into(),
            Term::Const(c) => c.to_string(),
            Term::Sum(x, y) => format!("({} + {})", x.text(), y.text()),
            Term::Product(x, y) => format!("({} * {})", x.text(), y.text()),
            Term::Power(x, e) => format!("({}) ^ {e}", x.text()),
        }
    }

    fn value(&self, a: u8, b: u8) -> u8 {
        match self {
            Term::A => a,
            Term::B => b,
            Term::Const(c) => *c,
            Term::Sum(x, y) => x.value(a, b) ^ y.value(a, b),
            Term::Product(x, y) => naive_mul(x.value(a, b), y.value(a, b)) as u8,
            Term::Power(x, e) => {
                let base = x.value(a, b);
                (0..*e).fold(1u8, |r, _| naive_mul(r, base) as u8)
            }
        }
    }
}

fn term(constants: u8) -> impl Strategy<Value = Term> {
    let leaf = prop_oneof![
        Just(Term::A),
        Just(Term::B),
        (0..constants).prop_map(Term::Const)
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(x, y)| Term::Sum(Box::new(x), Box::new(y))),
            (inner.clone(), inner.clone())
                .prop_map(|(x, y)| Term::Product(Box::new(x), Box::new(y))),
            (inner, 0u32..40).prop_map(|(x, e)| Term::Power(Box::new(x), e)),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Over GF(16), with the case budget too small to enumerate, the prover's verdict is the
    /// brute-force verdict of the mex-definition oracle over all 256 pairs.
    #[test]
    fn reduced_identities_agree_with_brute_force(x in term(16), y in term(16)) {
        let claim = format!("forall a, b < 16: {} = {}", x.text(), y.text());
        let holds = (0..16).all(|a| (0..16).all(|b| x.value(a, b) == y.value(a, b)));
        let limits = Limits { max_cases: 1, ..Limits::default() };
        let (status, how, message, notes) = check(&claim, limits);
        if holds {
            prop_assert_eq!(status, Status::Holds, "{} {}", claim, message);
            prop_assert_eq!(how, Some(Established::Polynomial));
        } else {
            prop_assert_eq!(status, Status::Fails, "{} {}", claim, message);
            let a: u8 = counterexample(&notes, "a").and_then(|v| v.parse().ok()).unwrap_or(99);
            let b: u8 = counterexample(&notes, "b").and_then(|v| v.parse().ok()).unwrap_or(99);
            prop_assert!(a < 16 && b < 16, "{:?}", notes);
            prop_assert_ne!(x.value(a, b), y.value(a, b));
        }
    }

    /// Identities true by the field laws are proved over all nimbers; adding a non-zero
    /// constant or a monomial to one side makes them false, with a counterexample at which the
    /// evaluator finds the sides different.
    #[test]
    fn laws_are_proved_and_perturbations_refuted(
        x in term(255), y in term(255), z in term(255), law in 0usize..5, k in 1u32..6,
        shift in 1u8..255, monomial in any::<bool>()
    ) {
        // Parenthesised, since `^` is right-associative: `x ^ k` must raise all of x.
        let (x, y, z) = (format!("({})", x.text()), format!("({})", y.text()), format!("({})", z.text()));
        let (lhs, rhs) = match law {
            0 => (format!("{x} * ({y} + {z})"), format!("{x} * {y} + {x} * {z}")),
            1 => (format!("({x} + {y}) ^ (2^{k})"), format!("{x} ^ (2^{k}) + {y} ^ (2^{k})")),
            2 => (format!("({x} * {y}) ^ {k}"), format!("{x} ^ {k} * {y} ^ {k}")),
            3 => (format!("{x} ^ {k} * {x} ^ 3"), format!("{x} ^ int({k} + 3)")),
            _ => (format!("({x} + {y}) * ({x} + {y})"), format!("{x} * {x} + {y} * {y}")),
        };
        let limits = Limits { max_terms: 100_000, ..Limits::default() };
        let (status, how, message, _) = check(&format!("forall a, b: {lhs} = {rhs}"), limits.clone());
        // A budget error is possible for large random terms; anything else must be a proof.
        if status == Status::Error {
            prop_assert!(message.contains("max-terms"), "{}", message);
            return Ok(());
        }
        prop_assert_eq!(status, Status::Holds, "{}", message);
        prop_assert_eq!(how, Some(Established::Polynomial));
        let extra = if monomial { format!("a ^ {k}") } else { shift.to_string() };
        let claim = format!("forall a, b: {lhs} = {rhs} + {extra}");
        let (status, _, message, notes) = check(&claim, limits.clone());
        if status == Status::Error {
            prop_assert!(message.contains("max-terms"), "{}", message);
            return Ok(());
        }
        prop_assert_eq!(status, Status::Fails, "{} {}", claim, message);
        let a = counterexample(&notes, "a").unwrap_or_default();
        let b = counterexample(&notes, "b").unwrap_or_default();
        let confirm = format!("let a = {a}\nlet b = {b}\n{lhs} = {rhs} + {extra}\n");
        let mut c = Checker::new(SourceFile::new("c.md", &confirm), limits);
        let results = c.check_block(&MappedText::contiguous(&confirm, 0));
        prop_assert_eq!(results[2].status, Status::Fails, "{}", confirm);
    }

    /// A subtraction game's claimed period, found by the mex loop, is proved; one less than it
    /// is refuted at the least counterexample the mex loop finds.
    #[test]
    fn subtraction_periods_agree_with_the_mex_loop(set in proptest::collection::btree_set(1u64..9, 1..4)) {
        let set: Vec<u64> = set.into_iter().collect();
        let g = subtraction_values(&set, 3000);
        // The least period p with g(n + p) = g(n) for every n ≥ some n0 in the computed range.
        let p: usize = (1..1000).find(|&p| (1000..2000).all(|n| g[n] == g[n + p])).unwrap_or(0);
        prop_assume!(p > 1);
        let list = format!("{set:?}");
        let shifted = |from: &str, by: usize| format!(
            "forall n{from}: grundy(subtraction({list}, n)) = grundy(subtraction({list}, int(n + {by})))"
        );
        // From the last exception on, the claim holds.
        let n0 = (0..2000).rev().find(|&n| g[n] != g[n + p]).map_or(0, |n| n + 1);
        let (status, how, message, _) = decide(&shifted(&format!(" >= {n0}"), p));
        prop_assert_eq!(status, Status::Holds, "{}", message);
        let periodic = matches!(how, Some(Established::Periodic { .. }));
        prop_assert!(periodic, "{:?}", how);
        let least = (0..2000).find(|&n| g[n] != g[n + p]);
        let (status, _, _, notes) = decide(&shifted("", p));
        match least {
            None => prop_assert_eq!(status, Status::Holds),
            Some(n) => prop_assert_eq!(counterexample(&notes, "n"), Some(n.to_string())),
        }
        let wrong = p - 1;
        let least = (0..2000).find(|&n| g[n] != g[n + wrong]);
        let (status, _, _, notes) = decide(&shifted("", wrong));
        prop_assert_eq!(status, Status::Fails);
        prop_assert_eq!(counterexample(&notes, "n"), least.map(|n| n.to_string()));
    }
}

#[test]
fn calc_answers_the_new_forms() {
    let mut c = Checker::new(SourceFile::new("<calc>", ""), Limits::default());
    let mut ask = |line: &str| crate::claim::calc(line, &mut c);
    assert_eq!(
        ask("forall a, b: (a + b) ^ 2 = a ^ 2 + b ^ 2"),
        Ok("true".into())
    );
    assert_eq!(ask("forall a: a ^ 4 = a"), Ok("false".into()));
    assert_eq!(
        ask("forall n ≥ 71: grundy(kayles(n)) = grundy(kayles(int(n + 12)))"),
        Ok("true".into())
    );
    assert_eq!(ask("forall n >= 1: kayles(n) is N"), Ok("true".into()));
    let e = ask("forall n: order(n) = 1").unwrap_err();
    assert!(
        e.starts_with("cannot prove") && e.contains("help: bound"),
        "{e}"
    );
}

/// Lasker's Nim by its definition: a heap of `n` may become any smaller heap or two non-empty
/// heaps adding up to `n`; a plain mex over those options.
fn lasker_values(n: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for h in 0..n {
        let mut options: Vec<u64> = g.clone();
        options.extend((1..=h / 2).map(|a| g[a] ^ g[h - a]));
        g.push((0..).find(|v| !options.contains(v)).unwrap_or(0));
    }
    g
}

#[test]
fn lasker_rule_is_proved_for_every_heap() {
    let arithmetic = |period, from, saltus| {
        Some(Established::Periodic {
            period,
            from,
            saltus,
            guy_smith: false,
            shift_residue: true,
        })
    };
    // The rule in one line: n, plus one when n ≡ 3, minus one when n ≡ 0 (mod 4), n ≥ 1.
    let one_line =
        "forall n >= 1: int(grundy(laskers_nim(n)) + ((n + 3) mod 4) / 3) = int(n + (n mod 4) / 3)";
    let (status, how, message, _) = decide(one_line);
    assert_eq!(status, Status::Holds, "{message}");
    assert_eq!(how, arithmetic(4, 1, 4));
    assert_eq!(
        how.map(|h| h.to_string()).unwrap_or_default(),
        "proved (arithmetic period 4, saltus 4, from 1; shift–residue criterion)"
    );
    // By residues: each one a claim for every k. Heap 4k + r is worth 4k + 1, 4k + 2, 4k + 4
    // for r = 1, 2, 3, and 4k − 1 for r = 0 (k ≥ 1, heap 0 being the base case).
    for (bound, heap, value, from) in [
        ("", "+ 1", "+ 1", 0),
        ("", "+ 2", "+ 2", 0),
        ("", "+ 3", "+ 4", 0),
        (" >= 1", "", "- 1", 1),
    ] {
        let claim =
            format!("forall k{bound}: grundy(laskers_nim(int(4 * k {heap}))) = int(4 * k {value})");
        let claim = claim.replace(" )", ")");
        let (status, how, message, _) = decide(&claim);
        assert_eq!(status, Status::Holds, "{claim}: {message}");
        assert_eq!(how, arithmetic(1, from, 4), "{claim}");
    }
    // The shift itself, and the rule agreeing with the mex oracle on many heaps.
    let (status, _, message, _) =
        decide("forall n >= 1: grundy(laskers_nim(int(n + 4))) = int(grundy(laskers_nim(n)) + 4)");
    assert_eq!(status, Status::Holds, "{message}");
    let g = lasker_values(3000);
    for (n, &v) in g.iter().enumerate().skip(1) {
        let rule = n + usize::from(n % 4 == 3) - usize::from(n % 4 == 0);
        assert_eq!(v, rule as u64, "{n}");
    }
    let found = crate::game::lasker_period(&crate::game::Budget::default()).unwrap();
    assert_eq!(
        (found.preperiod, found.period, found.saltus),
        (1, 4, 4),
        "{found:?}"
    );
    // The criterion read heaps 0 … 8 only, and they are the oracle's.
    assert_eq!(found.checked, 9);
    assert_eq!(crate::game::lasker_period_values(9), Some(g[..9].to_vec()));
}

#[test]
fn lasker_claims_that_fail_are_refuted_or_refused() {
    let g = lasker_values(1200);
    // False at heap 3, the first where the value is not the heap.
    let (status, _, _, notes) = decide("forall n: grundy(laskers_nim(n)) = n");
    assert_eq!(status, Status::Fails);
    let least = (0..1200).find(|&n| g[n] != n as u64);
    assert_eq!(counterexample(&notes, "n"), least.map(|n| n.to_string()));
    // False first far out (the thousands digit of the value moves one heap early at 999): the
    // window of period 1000 reaches it, and the counterexample is the oracle's.
    let (status, _, message, notes) =
        decide("forall n >= 1: int(grundy(laskers_nim(n)) / 1000) = int(n / 1000)");
    assert_eq!(status, Status::Fails, "{message}");
    let least = (1..1200).find(|&n| g[n] / 1000 != n as u64 / 1000);
    assert_eq!(least, Some(999));
    assert_eq!(counterexample(&notes, "n"), least.map(|n| n.to_string()));
    // True for every heap below 1000 and false later, but the sides grow at different rates;
    // a nim-sum or an outcome of the growing value, or a heap that is no index: the method
    // refuses each for its reason, and the claim is an error, never true.
    let different_rates = "the two sides grow at different rates";
    for (claim, why) in [
        ("forall n: grundy(laskers_nim(n)) < 1000", different_rates),
        ("forall n: grundy(laskers_nim(n)) ≠ 5000", different_rates),
        (
            "forall n: grundy(laskers_nim(n)) + 1 = grundy(laskers_nim(n)) + 1",
            "a nim-sum of a value that grows without repeating",
        ),
        (
            "forall n: outcome(laskers_nim(n)) = outcome(laskers_nim(n))",
            "the outcome or nim-sum of a value that grows without repeating",
        ),
        (
            "forall n: grundy(laskers_nim(int(n * n))) = 0",
            "a heap size that depends on `n` must be",
        ),
    ] {
        let message = assert_refused(claim, Limits::default(), why);
        assert!(message.starts_with("cannot prove"), "{claim}: {message}");
    }
}

/// Hexadecimal games by their definition: remove `k` and leave 0, 1, 2 or 3 non-empty heaps
/// as the bits 1, 2, 4, 8 of digit `k` allow; a plain mex over every ordered choice of parts.
fn hexadecimal_values(digits: &[u8], n: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for h in 0..n {
        let mut options = Vec::new();
        for (k, &d) in digits.iter().enumerate().skip(1).filter(|&(k, _)| k <= h) {
            let m = h - k;
            if d & 1 != 0 && m == 0 {
                options.push(0);
            }
            if d & 2 != 0 && m > 0 {
                options.push(g[m]);
            }
            for a in 1..m {
                if d & 4 != 0 {
                    options.push(g[a] ^ g[m - a]);
                }
                for b in 1..m - a {
                    if d & 8 != 0 {
                        options.push(g[a] ^ g[b] ^ g[m - a - b]);
                    }
                }
            }
        }
        g.push((0..).find(|v| !options.contains(v)).unwrap_or(0));
    }
    g
}

#[test]
fn hexadecimal_periods_are_proved_and_growing_ones_refused() {
    // 0.F: remove one counter, leave up to three heaps.
    let g = hexadecimal_values(&[0, 15], 400);
    assert!((0..398).all(|n| g[n + 2] == g[n]) && g[..2] == [0, 1]);
    let (status, how, message, _) = decide("forall n: grundy(hexadecimal(\"0.F\", n)) = n mod 2");
    assert_eq!(status, Status::Holds, "{message}");
    assert!(
        matches!(
            how,
            Some(Established::Periodic {
                period: 2,
                guy_smith: true,
                saltus: 0,
                ..
            })
        ),
        "{how:?}"
    );
    // 0.8 (remove one, leave exactly three heaps) grows: ⌊(n − 1)/3⌋ from 1 by the oracle, true
    // on every heap computed, but no criterion here covers a hexadecimal game whose values
    // grow, so the claim is an error: the engine's search for a period gives up.
    let g = hexadecimal_values(&[0, 8], 300);
    assert!((1..300).all(|n| g[n] == (n as u64 - 1) / 3));
    let (status, _, message, _) =
        decide("forall n >= 1: grundy(hexadecimal(\"0.8\", n)) = int((n - 1) / 3)");
    assert_eq!(status, Status::Error, "{message}");
    assert!(message.contains("no period of 0.8 proved"), "{message}");
}
