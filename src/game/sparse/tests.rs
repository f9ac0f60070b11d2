use super::*;
use crate::game::{Budget, TakeAndBreak};
use std::time::Duration;

/// A budget no test reaches: these tests compare values, and a run cut short by a loaded
/// machine would fail them for the wrong reason.
fn ample() -> Budget {
    Budget {
        max_positions: u64::MAX,
        max_time: Duration::from_secs(3600),
        ..Budget::default()
    }
}

/// The values by the definition: every option listed, then the least value not among them.
fn by_definition(rules: &Rules, n: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for h in 0..n {
        let mut options = Vec::new();
        for (k, &d) in rules.digits.iter().enumerate() {
            if k == h && d & 1 != 0 {
                options.push(0);
            }
            if k < h && d & 2 != 0 {
                options.push(g[h - k]);
            }
        }
        for s in &rules.splits {
            // Every pair of non-empty heaps a ≤ b that the split can leave.
            for a in 1..h {
                for b in a..h {
                    if s.removed + a + b == h && (s.equal || a != b) {
                        options.push(g[a] ^ g[b]);
                    }
                }
            }
        }
        let mut v = 0;
        while options.contains(&v) {
            v += 1;
        }
        g.push(v);
    }
    g
}

fn computed(mut seq: Sequence, n: usize) -> Vec<u32> {
    let mut meter = Meter::new(&ample());
    seq.extend(n as u64, &mut meter).unwrap();
    (0..n)
        .map(|i| seq.values().get(i).unwrap() as u32)
        .collect()
}

#[test]
fn both_methods_agree_with_the_definition_on_small_heaps() {
    let mut games = vec![Rules::grundys_game()];
    for code in [
        "0.77",
        "0.07",
        "4.7",
        "0.106",
        "0.165",
        "0.6",
        "0.0000004",
        "4.0",
    ] {
        let c: crate::game::OctalCode = code.parse().unwrap();
        games.push(Rules::octal(c.digits()));
    }
    for rules in games {
        let want = by_definition(&rules, 800);
        assert_eq!(
            computed(Sequence::plain(rules.clone()), 800),
            want,
            "{rules:?}"
        );
        assert_eq!(
            computed(Sequence::new(rules.clone()), 800),
            want,
            "{rules:?}"
        );
    }
}

fn octal(code: &str) -> Rules {
    let c: crate::game::OctalCode = code.parse().unwrap();
    Rules::octal(c.digits())
}

fn extended(rules: Rules, n: usize) -> Sequence {
    let mut seq = Sequence::new(rules);
    seq.extend(n as u64, &mut Meter::new(&ample())).unwrap();
    seq
}

#[test]
fn the_domain_form_of_the_sparse_space_computes_0_106() {
    // 0.106 has no sparse space of the range form (about half the heaps are rare under every
    // mask), but under the mask 13 in the domain form only a handful are.
    let n = 30_000;
    let seq = extended(octal("0.106"), n);
    let space = seq.state.space.expect("a sparse space");
    assert!(space.domain, "{space:?}");
    assert!(
        seq.state.rare.len() < 100,
        "{} rare heaps",
        seq.state.rare.len()
    );
    assert!(seq.state.tail.is_none());
    let plain = computed(Sequence::plain(octal("0.106")), n);
    assert_eq!(computed(seq, n), plain);
}

#[test]
// The plain oracle to 80 000 heaps takes minutes unoptimised; `cargo test --release` runs it.
#[cfg_attr(debug_assertions, ignore)]
fn a_repeating_stretch_computes_dawsons_kayles_and_0_165() {
    // Dawson's Kayles has no sparse space of either form; 0.165 repeats from heap 5181 with
    // period 1550, and its rare heaps keep growing in number.
    for (code, n) in [("0.07", 30_000), ("0.165", 80_000)] {
        let seq = extended(octal(code), n);
        let tail = seq.state.tail.as_ref().expect("a repeating stretch");
        assert!(tail.has_small_table(), "{code}");
        let plain = computed(Sequence::plain(octal(code)), n);
        assert_eq!(computed(seq, n), plain, "{code}");
    }
}

#[test]
fn values_widen_when_a_value_does_not_fit() {
    let mut v = Values::Narrow(vec![1, 255]);
    v.push(256);
    assert!(matches!(v, Values::Mid(_)));
    v.push(70_000);
    assert!(matches!(v, Values::Wide(_)));
    assert_eq!(v.to_u64(10), vec![1, 255, 256, 70_000]);
    let mut w = Values::Narrow(vec![9]);
    w.push(1 << 20);
    assert_eq!(w.to_u64(2), vec![9, 1 << 20]);
}

#[test]
fn agree_from_finds_where_the_period_starts() {
    let v = Values::Narrow(vec![5, 1, 2, 3, 1, 2, 3, 1, 2]);
    assert_eq!(v.agree_from(3), 1);
    assert_eq!(v.agree_from(1), 8);
}
