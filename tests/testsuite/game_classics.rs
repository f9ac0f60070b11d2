//! Wythoff's game, Moore's Nim, Staircase Nim, Poker Nim, Welter's game and Mock Turtles
//! against oracles written from the rules, and against published values.
//!
//! Each oracle enumerates the options of a whole position from the rules as this file states
//! them, memoises exact positions (no sorting, no symmetry), and takes the mex. The theorems
//! (Wythoff's pairs, Moore's rule, Staircase Nim as Nim on odd steps, Poker Nim as Nim,
//! Welter's function, the odious numbers) are checked against these oracles, never against the
//! engine's own search.

use std::collections::HashMap;

use crate::common::budget;
use nimbook::game::{moores_rule, welter_function, wythoff_table, Game, Outcome};

/// A move generator: the options of a position.
type Rule = dyn Fn(&[u64]) -> Vec<Vec<u64>>;

fn mex(mut vals: Vec<u64>) -> u64 {
    vals.sort_unstable();
    vals.dedup();
    (0..).zip(vals).take_while(|&(i, v)| i == v).count() as u64
}

/// A memoised oracle over positions written as vectors, with the options given by `rule`.
struct Oracle<F: Fn(&[u64]) -> Vec<Vec<u64>>> {
    rule: F,
    memo: HashMap<Vec<u64>, u64>,
}

impl<F: Fn(&[u64]) -> Vec<Vec<u64>>> Oracle<F> {
    fn new(rule: F) -> Self {
        Oracle {
            rule,
            memo: HashMap::new(),
        }
    }

    fn value(&mut self, p: &[u64]) -> u64 {
        if let Some(&v) = self.memo.get(p) {
            return v;
        }
        let opts = (self.rule)(p);
        let vals = opts.iter().map(|o| self.value(o)).collect();
        let v = mex(vals);
        self.memo.insert(p.to_vec(), v);
        v
    }
}

/// Every vector of `len` entries below `below`.
fn all_vectors(len: usize, below: u64) -> Vec<Vec<u64>> {
    let mut out = vec![Vec::new()];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|v| {
                (0..below).map(move |x| {
                    let mut w = v.clone();
                    w.push(x);
                    w
                })
            })
            .collect();
    }
    out
}

fn wythoff_rule(p: &[u64]) -> Vec<Vec<u64>> {
    let (a, b) = (p[0], p[1]);
    let mut out = Vec::new();
    for t in 1..=a {
        out.push(vec![a - t, b]);
        if t <= b {
            out.push(vec![a - t, b - t]);
        }
    }
    for t in 1..=b {
        out.push(vec![a, b - t]);
    }
    out
}

/// The integer square root, by bisection (independent of the claim language's `isqrt`).
fn isqrt(n: u64) -> u64 {
    let (mut lo, mut hi) = (0u64, 1u64 << 32);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if mid * mid <= n {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[test]
fn wythoff_values_match_the_oracle_and_the_engine_table() {
    let mut o = Oracle::new(wythoff_rule);
    let t = wythoff_table(24, 30, &budget()).unwrap();
    for a in 0..25u64 {
        for b in 0..31u64 {
            let v = o.value(&[a, b]);
            assert_eq!(t[a as usize][b as usize], v, "({a}, {b})");
            if (a + b) % 5 == 0 {
                assert_eq!(Game::wythoff(a, b).grundy(&budget()).unwrap(), v);
            }
        }
    }
}

#[test]
fn wythoff_p_positions_are_the_golden_pairs() {
    // Published: the lower and upper Wythoff sequences (OEIS A000201, A001950).
    let lower = [0u64, 1, 3, 4, 6, 8, 9, 11, 12, 14, 16, 17, 19, 21, 22, 24];
    let upper = [
        0u64, 2, 5, 7, 10, 13, 15, 18, 20, 23, 26, 28, 31, 34, 36, 39,
    ];
    for k in 0..lower.len() as u64 {
        // ⌊kφ⌋ = ⌊(k + √(5k²))/2⌋, and ⌊kφ²⌋ = ⌊kφ⌋ + k.
        let a = (k + isqrt(5 * k * k)) / 2;
        assert_eq!(a, lower[k as usize]);
        assert_eq!(a + k, upper[k as usize]);
    }
    let mut o = Oracle::new(wythoff_rule);
    let n = 40u64;
    for a in 0..n {
        for b in a..n {
            let golden = (0..n).any(|k| (k + isqrt(5 * k * k)) / 2 == a && a + k == b);
            assert_eq!(o.value(&[a, b]) == 0, golden, "({a}, {b})");
            assert_eq!(
                Game::wythoff(a, b).outcome(&budget()).unwrap() == Outcome::P,
                golden
            );
        }
    }
}

fn moore_rule(k: usize) -> impl Fn(&[u64]) -> Vec<Vec<u64>> {
    move |p: &[u64]| {
        // Every vector below p entrywise that differs from it in 1 … k places.
        let mut out = Vec::new();
        for q in all_vectors(p.len(), p.iter().max().map_or(0, |m| m + 1)) {
            let changed = q.iter().zip(p).filter(|(x, y)| x != y).count();
            if q.iter().zip(p).all(|(x, y)| x <= y) && (1..=k).contains(&changed) {
                out.push(q);
            }
        }
        out
    }
}

#[test]
fn moores_nim_matches_the_oracle_and_moores_rule() {
    for (k, heaps, below) in [(1usize, 3, 6u64), (2, 3, 6), (2, 4, 4), (3, 4, 4)] {
        let mut o = Oracle::new(moore_rule(k));
        for p in all_vectors(heaps, below) {
            let v = o.value(&p);
            let g = Game::moores_nim(k as u64, p.clone()).unwrap();
            assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
            let rule = if v == 0 { Outcome::P } else { Outcome::N };
            assert_eq!(moores_rule(k as u64, &p), rule, "{g}");
        }
    }
}

fn staircase_rule(p: &[u64]) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for i in 0..p.len() {
        for t in 1..=p[i] {
            let mut q = p.to_vec();
            q[i] -= t;
            if i > 0 {
                q[i - 1] += t;
            }
            out.push(q);
        }
    }
    out
}

#[test]
fn staircase_nim_is_nim_on_the_odd_steps() {
    let mut o = Oracle::new(staircase_rule);
    for p in all_vectors(4, 5) {
        let v = o.value(&p);
        let g = Game::staircase_nim(p.clone()).unwrap();
        assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
        assert_eq!(v, p[0] ^ p[2], "{g}");
    }
}

/// Poker Nim with the number of raises left as the last entry of the position.
fn poker_rule(cap: u64) -> impl Fn(&[u64]) -> Vec<Vec<u64>> {
    move |p: &[u64]| {
        let n = p.len() - 1;
        let raises = p[n];
        let mut out = Vec::new();
        for i in 0..n {
            for x in 0..=cap {
                let mut q = p.to_vec();
                q[i] = x;
                if x < p[i] {
                    out.push(q);
                } else if x > p[i] && raises > 0 {
                    q[n] = raises - 1;
                    out.push(q);
                }
            }
        }
        out
    }
}

#[test]
fn poker_nim_is_nim() {
    let cap = 4;
    let mut o = Oracle::new(poker_rule(cap));
    for mut p in all_vectors(3, cap + 1) {
        for raises in 0..3 {
            let heaps = p.clone();
            p.push(raises);
            let v = o.value(&p);
            p.pop();
            let g = Game::poker_nim(raises, cap, heaps.clone()).unwrap();
            assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
            assert_eq!(v, heaps[0] ^ heaps[1] ^ heaps[2], "{g}");
        }
    }
}

fn welter_rule(p: &[u64]) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for i in 0..p.len() {
        for d in 0..p[i] {
            if !p.contains(&d) {
                let mut q = p.to_vec();
                q[i] = d;
                out.push(q);
            }
        }
    }
    out
}

#[test]
fn welters_game_search_and_welters_function_agree_with_the_oracle() {
    let mut o = Oracle::new(welter_rule);
    for (coins, below) in [(2usize, 16u64), (3, 12), (4, 10)] {
        for p in all_vectors(coins, below) {
            if p.windows(2).any(|w| w[0] >= w[1]) {
                continue;
            }
            let v = o.value(&p);
            assert_eq!(welter_function(&p).unwrap(), v, "{p:?}");
            if p.iter().sum::<u64>() % 3 == 0 {
                let g = Game::welter(p.clone()).unwrap();
                assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
            }
        }
    }
}

#[test]
fn welters_function_agrees_with_the_engines_search_on_larger_positions() {
    // Five and six coins on 14 squares: the oracle above would take too long, so the engine's
    // search (checked against it on smaller positions) is the other side here.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..60 {
        let mut p: Vec<u64> = Vec::new();
        while p.len() < 5 + (seed % 2) as usize {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let c = seed % 14;
            if !p.contains(&c) {
                p.push(c);
            }
        }
        let g = Game::welter(p.clone()).unwrap();
        assert_eq!(
            g.grundy(&budget()).unwrap(),
            welter_function(&p).unwrap(),
            "{g}"
        );
    }
}

/// Mock Turtles on a row of `n` coins, a position a bit mask of heads: turn one, two or three
/// coins, the right one from heads to tails.
fn mock_rule(p: &[u64]) -> Vec<Vec<u64>> {
    let (mask, n) = (p[0], p[1]);
    let mut out = Vec::new();
    for c in (0..n).filter(|c| mask >> c & 1 == 1) {
        let flip = |m: u64| vec![mask ^ m, n];
        out.push(flip(1 << c));
        for b in 0..c {
            out.push(flip(1 << c | 1 << b));
            for a in 0..b {
                out.push(flip(1 << c | 1 << b | 1 << a));
            }
        }
    }
    out
}

#[test]
fn mock_turtles_values_are_the_odious_numbers() {
    // Published: the odious numbers (OEIS A000069).
    let odious = [
        1u64, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21, 22, 25, 26, 28, 31, 32, 35,
    ];
    for (n, &v) in odious.iter().enumerate() {
        assert_eq!(Game::mock_turtles(n as u64).grundy(&budget()).unwrap(), v);
    }
    let mut o = Oracle::new(mock_rule);
    let n = 9;
    for mask in 0..1u64 << n {
        let v = o.value(&[mask, n]);
        let coins: Vec<Game> = (0..n)
            .filter(|c| mask >> c & 1 == 1)
            .map(Game::mock_turtles)
            .collect();
        assert_eq!(Game::Sum(coins).grundy(&budget()).unwrap(), v, "{mask:b}");
    }
    let far = Game::mock_turtles(300).grundy(&budget()).unwrap();
    assert_eq!(far.count_ones() % 2, 1);
    assert_eq!(far, 2 * 300 + 1 - u64::from(300u64.count_ones() % 2));
}

#[test]
fn winning_moves_of_the_new_games_are_legal_and_win() {
    let games = [
        (Game::wythoff(7, 11), vec![7u64, 11]),
        (
            Game::moores_nim(2, vec![3, 5, 6, 1]).unwrap(),
            vec![3, 5, 6, 1],
        ),
        (
            Game::staircase_nim(vec![2, 5, 4, 1]).unwrap(),
            vec![2, 5, 4, 1],
        ),
        (Game::welter(vec![2, 5, 9, 11]).unwrap(), vec![2, 5, 9, 11]),
    ];
    let rules: [&Rule; 4] = [&wythoff_rule, &moore_rule(2), &staircase_rule, &welter_rule];
    for ((g, p), rule) in games.into_iter().zip(rules) {
        let mut o = Oracle::new(rule);
        assert_ne!(o.value(&p), 0, "{g}");
        let Some(Game::Heaps(next)) = g.winning_move(&budget()).unwrap() else {
            panic!("{g}: no winning move");
        };
        let q = next.heaps().to_vec();
        assert!(rule(&p).contains(&q), "{g} → {q:?} is not a move");
        assert_eq!(o.value(&q), 0, "{g} → {q:?} does not win");
    }
}

#[test]
fn laskers_nim_matches_the_oracle_and_published_values() {
    // A position is a sorted list of heaps: take any number from one, or split one in two.
    let rule = |p: &[u64]| {
        let mut out = Vec::new();
        for i in 0..p.len() {
            let rest: Vec<u64> = p
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &h)| h)
                .collect();
            let mut push = |mut q: Vec<u64>| {
                q.retain(|&h| h > 0);
                q.sort_unstable();
                out.push(q);
            };
            for m in 0..p[i] {
                push([rest.clone(), vec![m]].concat());
            }
            for a in 1..=p[i] / 2 {
                push([rest.clone(), vec![a, p[i] - a]].concat());
            }
        }
        out
    };
    let mut o = Oracle::new(rule);
    // Published (Winning Ways): 0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11.
    let published = [0u64, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11];
    for (n, &v) in published.iter().enumerate() {
        assert_eq!(Game::laskers_nim(n as u64).grundy(&budget()).unwrap(), v);
    }
    for n in 0..15u64 {
        let v = if n == 0 { 0 } else { o.value(&[n]) };
        assert_eq!(Game::laskers_nim(n).grundy(&budget()).unwrap(), v, "{n}");
    }
    for n in 1..300u64 {
        let want = match n % 4 {
            3 => n + 1,
            0 => n - 1,
            _ => n,
        };
        assert_eq!(Game::laskers_nim(n).grundy(&budget()).unwrap(), want, "{n}");
    }
}

#[test]
fn positions_print_in_a_spelling_that_reads_back() {
    assert_eq!(Game::wythoff(3, 5).to_string(), "wythoff(3, 5)");
    assert_eq!(
        Game::moores_nim(2, vec![1, 2]).unwrap().to_string(),
        "moores_nim(2, 1, 2)"
    );
    assert_eq!(
        Game::poker_nim(1, 5, vec![3, 4]).unwrap().to_string(),
        "poker_nim(1, 5, 3, 4)"
    );
    assert_eq!(Game::mock_turtles(4).to_string(), "mock_turtles(4)");
    assert_eq!(Game::welter(vec![]).unwrap().grundy(&budget()).unwrap(), 0);
}

/// A hexadecimal heap's options from the rules: remove `k`, then leave 0, 1, 2 or 3 non-empty
/// heaps as the bits 1, 2, 4, 8 of digit `k` allow (parts as a sorted list).
fn hexadecimal_rule(digits: &[u8], h: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for (k, &d) in digits.iter().enumerate() {
        let Some(m) = h.checked_sub(k as u64) else {
            continue;
        };
        for parts in 0..4u32 {
            if d & (1 << parts) == 0 {
                continue;
            }
            // Every way to write m as `parts` positive numbers, in order, then sorted.
            let mut stack = vec![(Vec::new(), m)];
            while let Some((chosen, left)) = stack.pop() {
                if chosen.len() as u32 == parts {
                    if left == 0 {
                        let mut p: Vec<u64> = chosen;
                        p.sort_unstable();
                        out.push(p);
                    }
                    continue;
                }
                for x in 1..=left {
                    stack.push(([chosen.clone(), vec![x]].concat(), left - x));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn hexadecimal_games_match_the_oracle() {
    for (code, digits) in [
        ("0.F", vec![0u8, 15]),
        ("0.8", vec![0, 8]),
        ("0.9F", vec![0, 9, 15]),
        ("0.BF", vec![0, 11, 15]),
        ("4.F", vec![4, 15]),
        ("8.1", vec![8, 1]),
        ("0.77", vec![0, 7, 7]),
    ] {
        let mut o = Oracle::new(|p: &[u64]| {
            // A position is a sorted list of heaps; a move replaces one heap by its parts.
            let mut out = Vec::new();
            for i in 0..p.len() {
                for parts in hexadecimal_rule(&digits, p[i]) {
                    let mut q: Vec<u64> = p[..i].iter().chain(&p[i + 1..]).copied().collect();
                    q.extend(parts);
                    q.sort_unstable();
                    out.push(q);
                }
            }
            out
        });
        let seq =
            nimbook::game::hexadecimal_sequence(&code.parse().unwrap(), 24, &budget()).unwrap();
        for n in 0..25u64 {
            let want = if n == 0 { 0 } else { o.value(&[n]) };
            let g = Game::hexadecimal(code, n).unwrap();
            assert_eq!(g.grundy(&budget()).unwrap(), want, "{code} {n}");
            assert_eq!(seq[n as usize], want, "{code} {n}");
        }
        // Two heaps, read by the oracle as one position: the engine's sum must agree.
        let pair = Game::sum(vec![
            Game::hexadecimal(code, 5).unwrap(),
            Game::hexadecimal(code, 7).unwrap(),
        ])
        .unwrap();
        let want = if o.value(&[5, 7]) == 0 {
            Outcome::P
        } else {
            Outcome::N
        };
        assert_eq!(pair.outcome(&budget()).unwrap(), want, "{code}");
    }
    assert_eq!(
        Game::hexadecimal("0.9f", 3).unwrap().to_string(),
        "hexadecimal(\"0.9F\", 3)"
    );
    for bad in ["0.G", "1.F", "0.", "F"] {
        assert!(Game::hexadecimal(bad, 3).is_err(), "{bad}");
    }
}
