#![allow(clippy::unwrap_used)]
//! The game engine against brute-force oracles.
//!
//! Every oracle here is written from the rules alone: it enumerates whole positions, takes the
//! mex of the options of the *whole* position, memoises exact positions only, and never splits
//! a position into components, uses symmetry or any theorem. The engine (which does all of
//! those) must agree on every small position.

use std::collections::HashMap;

use nimbook::game::{parse_cells, Budget, Game, OctalCode, Outcome};

fn budget() -> Budget {
    Budget::default()
}

fn mex(mut vals: Vec<u64>) -> u64 {
    vals.sort_unstable();
    vals.dedup();
    let mut m = 0;
    for v in vals {
        if v == m {
            m += 1;
        }
    }
    m
}

/// A tiny deterministic generator, so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Checks `winning_move` against a brute-force value function `value` (0 = P) and the
/// engine's own `moves_from`.
fn check_winning_move(g: &Game, value: &mut dyn FnMut(&Game) -> u64) {
    let v = value(g);
    let w = g.winning_move(&budget()).unwrap();
    match w {
        None => assert_eq!(v, 0, "{g} is N but no winning move was found"),
        Some(m) => {
            assert_ne!(v, 0, "{g} is P but the engine moved to {m}");
            let opts = g.moves_from().unwrap();
            assert!(opts.contains(&m), "{m} is not a move from {g}");
            assert_eq!(
                value(&m),
                0,
                "the move {g} -> {m} does not reach a P-position"
            );
        }
    }
}

// ---------------------------------------------------------------- Nim and misère Nim

fn nim_positions(max_heaps: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..max_heaps {
        let mut next = out.clone();
        for p in &out {
            if p.len() == max_heaps - 1 || p.len() < max_heaps {
                for h in 0..=max {
                    let mut q = p.clone();
                    q.push(h);
                    next.push(q);
                }
            }
        }
        next.sort();
        next.dedup();
        next.retain(|p| p.len() <= max_heaps);
        out = next;
    }
    out
}

fn brute_nim(h: &[u64], misere: bool, memo: &mut HashMap<Vec<u64>, u64>) -> u64 {
    if let Some(&v) = memo.get(h) {
        return v;
    }
    let mut opts = Vec::new();
    for i in 0..h.len() {
        for x in 0..h[i] {
            let mut k = h.to_vec();
            k[i] = x;
            opts.push(brute_nim(&k, misere, memo));
        }
    }
    let v = if misere {
        // 1 = the player to move wins, 0 = loses. No move: the player to move wins.
        if opts.is_empty() {
            1
        } else {
            u64::from(opts.contains(&0))
        }
    } else {
        mex(opts)
    };
    memo.insert(h.to_vec(), v);
    v
}

#[test]
fn nim_matches_brute_force() {
    let mut memo = HashMap::new();
    for h in nim_positions(3, 5) {
        let g = Game::nim(h.clone());
        let v = brute_nim(&h, false, &mut memo);
        assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
        check_winning_move(&g, &mut |m: &Game| match m {
            Game::Nim(k) => brute_nim(k, false, &mut HashMap::new()),
            _ => panic!("not nim: {m}"),
        });
    }
}

#[test]
fn misere_nim_follows_boutons_rule() {
    let mut memo = HashMap::new();
    for h in nim_positions(4, 4) {
        let g = Game::misere_nim(h.clone());
        let next_wins = brute_nim(&h, true, &mut memo) == 1;
        let expected = if next_wins { Outcome::N } else { Outcome::P };
        assert_eq!(g.outcome(&budget()).unwrap(), expected, "{g}");
        assert!(g.grundy(&budget()).is_err());
        let w = g.winning_move(&budget()).unwrap();
        let has_moves = h.iter().any(|&x| x > 0);
        match w {
            None => assert!(!next_wins || !has_moves, "{g}: no winning move found"),
            Some(Game::MisereNim(k)) => {
                assert!(next_wins);
                assert!(g
                    .moves_from()
                    .unwrap()
                    .contains(&Game::MisereNim(k.clone())));
                assert_eq!(brute_nim(&k, true, &mut memo), 0, "{g} -> {k:?}");
            }
            Some(other) => panic!("{other}"),
        }
    }
}

// ---------------------------------------------------------------- heap games

/// Grundy value of a multiset of heaps under `options` (each option of one heap is a list of
/// heaps), computed on the whole multiset.
fn brute_heaps(
    heaps: &[u64],
    options: &dyn Fn(u64) -> Vec<Vec<u64>>,
    memo: &mut HashMap<Vec<u64>, u64>,
) -> u64 {
    let mut key = heaps.to_vec();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut vals = Vec::new();
    for i in 0..key.len() {
        for opt in options(key[i]) {
            let mut next: Vec<u64> = key.clone();
            next.remove(i);
            next.extend(opt.iter().copied().filter(|&x| x > 0));
            vals.push(brute_heaps(&next, options, memo));
        }
    }
    let v = mex(vals);
    memo.insert(key, v);
    v
}

/// Options of an octal heap straight from the digits of the code.
fn octal_rule(code: &str) -> impl Fn(u64) -> Vec<Vec<u64>> {
    let (head, tail) = code.split_once('.').unwrap();
    let mut digits: Vec<u64> = vec![head.parse().unwrap_or(0)];
    digits.extend(tail.chars().map(|c| c.to_digit(8).unwrap() as u64));
    move |n| {
        let mut out = Vec::new();
        for (k, &d) in digits.iter().enumerate() {
            let k = k as u64;
            if k > n {
                continue;
            }
            let m = n - k;
            if d & 1 != 0 && m == 0 {
                out.push(vec![]);
            }
            if d & 2 != 0 && m > 0 {
                out.push(vec![m]);
            }
            if d & 4 != 0 {
                for a in 1..m {
                    out.push(vec![a, m - a]);
                }
            }
        }
        out
    }
}

#[test]
fn octal_games_match_brute_force_on_sums() {
    for code in [
        "0.77", "0.07", "0.137", "4.7", "0.16", "0.6", "0.51", "0.4", "0.337", "4.04",
    ] {
        let rule = octal_rule(code);
        let mut memo = HashMap::new();
        for a in 0..=9u64 {
            for b in 0..=a.min(6) {
                let heaps = [a, b];
                let v = brute_heaps(&heaps, &rule, &mut memo);
                let g = Game::sum(vec![
                    Game::octal(code, a).unwrap(),
                    Game::octal(code, b).unwrap(),
                ])
                .unwrap();
                assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
                let single = Game::octal(code, a).unwrap();
                let mut value = |m: &Game| {
                    let hs = heaps_of(m);
                    brute_heaps(&hs, &rule, &mut memo)
                };
                check_winning_move(&single, &mut value);
                check_winning_move(&g, &mut value);
            }
        }
    }
}

fn heaps_of(g: &Game) -> Vec<u64> {
    match g {
        Game::Octal { n, .. } | Game::Grundys(n) | Game::Subtraction { n, .. } => vec![*n],
        Game::Sum(ps) => ps.iter().flat_map(heaps_of).collect(),
        other => panic!("not a heap game: {other}"),
    }
}

#[test]
fn grundys_game_matches_brute_force() {
    let rule = |n: u64| -> Vec<Vec<u64>> {
        (1..n)
            .filter(|&a| 2 * a != n)
            .map(|a| vec![a, n - a])
            .collect()
    };
    let mut memo = HashMap::new();
    for n in 0..=18 {
        let v = brute_heaps(&[n], &rule, &mut memo);
        let g = Game::grundys_game(n);
        assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
        check_winning_move(&g, &mut |m: &Game| {
            brute_heaps(&heaps_of(m), &rule, &mut memo)
        });
    }
}

#[test]
fn subtraction_games_match_brute_force() {
    for set in [vec![1, 3, 4], vec![2, 5], vec![1, 2, 3], vec![3, 1, 7, 7]] {
        let s = set.clone();
        let rule = move |n: u64| -> Vec<Vec<u64>> {
            s.iter()
                .filter(|&&k| k <= n)
                .map(|&k| vec![n - k])
                .collect()
        };
        let mut memo = HashMap::new();
        for n in 0..=40 {
            let v = brute_heaps(&[n], &rule, &mut memo);
            let g = Game::subtraction(&set, n).unwrap();
            assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
            check_winning_move(&g, &mut |m: &Game| {
                brute_heaps(&heaps_of(m), &rule, &mut memo)
            });
        }
    }
}

// ---------------------------------------------------------------- Cram

/// Cram on a grid of booleans, as the rules say: mex over all dominoes of the whole board.
fn brute_cram(
    rows: usize,
    cols: usize,
    free: u64,
    misere: bool,
    memo: &mut HashMap<u64, u64>,
) -> u64 {
    if let Some(&v) = memo.get(&free) {
        return v;
    }
    let at = |r: usize, c: usize| free >> (r * cols + c) & 1 == 1;
    let mut vals = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if !at(r, c) {
                continue;
            }
            if c + 1 < cols && at(r, c + 1) {
                let next = free & !(1 << (r * cols + c)) & !(1 << (r * cols + c + 1));
                vals.push(brute_cram(rows, cols, next, misere, memo));
            }
            if r + 1 < rows && at(r + 1, c) {
                let next = free & !(1 << (r * cols + c)) & !(1 << ((r + 1) * cols + c));
                vals.push(brute_cram(rows, cols, next, misere, memo));
            }
        }
    }
    let v = if misere {
        if vals.is_empty() {
            1
        } else {
            u64::from(vals.contains(&0))
        }
    } else {
        mex(vals)
    };
    memo.insert(free, v);
    v
}

fn board_string(rows: usize, cols: usize, free: u64) -> String {
    let mut s = String::new();
    for r in 0..rows {
        if r > 0 {
            s.push('/');
        }
        for c in 0..cols {
            s.push(if free >> (r * cols + c) & 1 == 1 {
                '#'
            } else {
                '.'
            });
        }
    }
    s
}

#[test]
fn cram_rectangles_match_brute_force() {
    for rows in 1..=4usize {
        for cols in rows..=6usize {
            if rows * cols > 20 {
                continue;
            }
            let full = (1u64 << (rows * cols)) - 1;
            let v = brute_cram(rows, cols, full, false, &mut HashMap::new());
            let g = Game::cram(rows as u64, cols as u64).unwrap();
            assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
            let t = Game::cram(cols as u64, rows as u64).unwrap();
            assert_eq!(t.grundy(&budget()).unwrap(), v, "{t}");
        }
    }
}

#[test]
fn cram_random_cell_sets_match_brute_force() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..150 {
        let rows = 1 + rng.below(5) as usize;
        let cols = 1 + rng.below(5) as usize;
        let n = rows * cols;
        let mut free = 0u64;
        for i in 0..n {
            if rng.below(10) < 7 {
                free |= 1 << i;
            }
        }
        let cells = board_string(rows, cols, free);
        let board = parse_cells(&cells).unwrap();
        assert_eq!(board.to_string(), cells);
        let mut memo = HashMap::new();
        let v = brute_cram(rows, cols, free, false, &mut memo);
        let g = Game::Cram(board);
        assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
        check_winning_move(&g, &mut |m: &Game| match m {
            Game::Cram(b) => brute_cram(rows, cols, b.free_bits(), false, &mut memo),
            _ => panic!("{m}"),
        });
        // Misère play, the whole board.
        let mut mmemo = HashMap::new();
        let next_wins = brute_cram(rows, cols, free, true, &mut mmemo) == 1;
        let mg = Game::MisereCram(board);
        let expected = if next_wins { Outcome::N } else { Outcome::P };
        assert_eq!(mg.outcome(&budget()).unwrap(), expected, "{mg}");
        match mg.winning_move(&budget()).unwrap() {
            Some(Game::MisereCram(b)) => {
                assert!(next_wins);
                assert_eq!(brute_cram(rows, cols, b.free_bits(), true, &mut mmemo), 0);
            }
            Some(other) => panic!("{other}"),
            None => assert!(!next_wins || board.moves().is_empty(), "{mg}"),
        }
    }
}

#[test]
fn misere_cram_rectangles_match_brute_force() {
    for (rows, cols) in [(1, 5), (2, 3), (2, 4), (3, 3), (3, 4), (2, 6), (4, 4)] {
        let full = (1u64 << (rows * cols)) - 1;
        let next_wins = brute_cram(rows, cols, full, true, &mut HashMap::new()) == 1;
        let g = Game::misere_cram(rows as u64, cols as u64).unwrap();
        let expected = if next_wins { Outcome::N } else { Outcome::P };
        assert_eq!(g.outcome(&budget()).unwrap(), expected, "{g}");
    }
}

// ---------------------------------------------------------------- Northcott

#[test]
fn northcott_matches_brute_force() {
    // Positions as (width, white, black) triples; the brute force moves pieces square by square
    // from the rules, on the whole board.
    fn brute(rows: &[(u64, u64, u64)], memo: &mut HashMap<Vec<(u64, u64, u64)>, u64>) -> u64 {
        if let Some(&v) = memo.get(rows) {
            return v;
        }
        let mut vals = Vec::new();
        for (i, &(w, a, b)) in rows.iter().enumerate() {
            for to in 0..w {
                // white moves towards black without reaching or passing it
                let white_ok = (a < b && to > a && to < b) || (a > b && to < a && to > b);
                let black_ok = (b < a && to > b && to < a) || (b > a && to < b && to > a);
                if white_ok {
                    let mut r = rows.to_vec();
                    r[i] = (w, to, b);
                    vals.push(brute(&r, memo));
                }
                if black_ok {
                    let mut r = rows.to_vec();
                    r[i] = (w, a, to);
                    vals.push(brute(&r, memo));
                }
            }
        }
        let v = mex(vals);
        memo.insert(rows.to_vec(), v);
        v
    }
    let mut memo = HashMap::new();
    let mut rng = Rng(42);
    for _ in 0..60 {
        let nrows = 1 + rng.below(3);
        let mut rows = Vec::new();
        for _ in 0..nrows {
            let w = 2 + rng.below(6);
            let a = rng.below(w);
            let mut b = rng.below(w);
            if a == b {
                b = (a + 1) % w;
            }
            rows.push((w, a, b));
        }
        let g = Game::northcott_rows(&rows).unwrap();
        let v = brute(&rows, &mut memo);
        assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
        let gaps = rows.iter().fold(0, |x, &(_, a, b)| x ^ (a.abs_diff(b) - 1));
        assert_eq!(v, gaps, "Northcott is Nim on the gaps");
        // The printed spelling parses back to the same game.
        let printed = g.to_string();
        let inner = printed
            .strip_prefix("northcott(\"")
            .and_then(|s| s.strip_suffix("\")"))
            .unwrap();
        assert_eq!(Game::northcott(inner).unwrap(), g);
        check_winning_move(&g, &mut |m: &Game| match m {
            Game::Northcott(rs) => {
                let t: Vec<(u64, u64, u64)> = rs
                    .iter()
                    .map(|r| (r.width(), r.white(), r.black()))
                    .collect();
                brute(&t, &mut memo)
            }
            _ => panic!("{m}"),
        });
    }
}

// ---------------------------------------------------------------- Green Hackenbush

fn brute_hackenbush(edges: &[(u32, u32)], memo: &mut HashMap<Vec<(u32, u32)>, u64>) -> u64 {
    let mut key = edges.to_vec();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut vals = Vec::new();
    for i in 0..key.len() {
        let mut rest = key.clone();
        rest.remove(i);
        // Keep only what is still connected to the ground.
        let mut reach = vec![0u32];
        loop {
            let before = reach.len();
            for &(a, b) in &rest {
                if reach.contains(&a) && !reach.contains(&b) {
                    reach.push(b);
                }
                if reach.contains(&b) && !reach.contains(&a) {
                    reach.push(a);
                }
            }
            if reach.len() == before {
                break;
            }
        }
        rest.retain(|&(a, _)| reach.contains(&a));
        vals.push(brute_hackenbush(&rest, memo));
    }
    let v = mex(vals);
    memo.insert(key, v);
    v
}

#[test]
fn hackenbush_matches_brute_force_on_random_graphs() {
    let mut rng = Rng(7);
    let mut memo = HashMap::new();
    for _ in 0..400 {
        let m = 1 + rng.below(8);
        let nv = 2 + rng.below(5) as u32;
        let mut edges = Vec::new();
        let mut text = Vec::new();
        for _ in 0..m {
            let a = rng.below(u64::from(nv)) as u32;
            let b = rng.below(u64::from(nv)) as u32;
            edges.push((a.min(b), a.max(b)));
            text.push(format!("{a}-{b}"));
        }
        let g = Game::green_hackenbush(&text.join(" ")).unwrap();
        // Floating edges are not part of the game: brute force on the grounded part.
        let v = brute_hackenbush(
            &match &g {
                Game::Hackenbush(gr) => gr.grounded().edges().to_vec(),
                _ => unreachable!(),
            },
            &mut memo,
        );
        assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
        check_winning_move(&g, &mut |m: &Game| match m {
            Game::Hackenbush(gr) => brute_hackenbush(gr.grounded().edges(), &mut memo),
            _ => panic!("{m}"),
        });
    }
}

#[test]
fn hackenbush_trees_follow_the_colon_principle() {
    // A star of k twigs on one stalk edge: 1 + (k mod 2).
    for k in 0..6u32 {
        let mut s = String::from("0-1");
        for i in 0..k {
            s.push_str(&format!(" 1-{}", i + 2));
        }
        let g = Game::green_hackenbush(&s).unwrap();
        assert_eq!(g.grundy(&budget()).unwrap(), 1 + u64::from(k % 2), "{g}");
    }
}

// ---------------------------------------------------------------- sums of different games

#[test]
fn mixed_sums_nim_add_and_win() {
    let parts = vec![
        Game::kayles(7),
        Game::cram(2, 3).unwrap(),
        Game::green_hackenbush("0-1 1-2").unwrap(),
        Game::nim(vec![3]),
        Game::northcott("W..B").unwrap(),
    ];
    let values: Vec<u64> = parts.iter().map(|p| p.grundy(&budget()).unwrap()).collect();
    let g = Game::sum(parts).unwrap();
    let total = g.grundy(&budget()).unwrap();
    assert_eq!(total, values.iter().fold(0, |a, v| a ^ v));
    let m = g.winning_move(&budget()).unwrap();
    if total == 0 {
        assert!(m.is_none());
    } else {
        let m = m.unwrap();
        assert!(g.moves_from().unwrap().contains(&m));
        assert_eq!(m.grundy(&budget()).unwrap(), 0);
    }
    assert_eq!(OctalCode::kayles().to_string(), "0.77");
}

// ---------------------------------------------------------------- coin-turning games

/// The moves of a coin-turning game on `n` coins, written from the rules alone: each move is
/// `(far, turned)`, where coin `far` must be heads and every coin in the bit mask `turned`
/// (which includes `far`) is turned over.
struct CoinBoard {
    coins: u32,
    moves: Vec<(u32, u32)>,
}

impl CoinBoard {
    /// A row of `n` coins, coin `i` being bit `i`; `rule` lists, for a far coin `r`, the sets
    /// of coins turned with it.
    fn row(n: u32, rule: impl Fn(u32) -> Vec<u32>) -> CoinBoard {
        let mut moves = Vec::new();
        for r in 0..n {
            for others in rule(r) {
                moves.push((r, others | 1 << r));
            }
        }
        CoinBoard { coins: n, moves }
    }

    /// A `w × h` Turning Corners grid, coin `(x, y)` being bit `x·h + y`.
    fn corners(w: u32, h: u32) -> CoinBoard {
        let bit = |x: u32, y: u32| 1u32 << (x * h + y);
        let mut moves = Vec::new();
        for x in 0..w {
            for y in 0..h {
                for a in 0..x {
                    for b in 0..y {
                        moves.push((x * h + y, bit(x, y) | bit(a, y) | bit(x, b) | bit(a, b)));
                    }
                }
            }
        }
        CoinBoard {
            coins: w * h,
            moves,
        }
    }

    /// The Grundy value of every set of heads coins, by the mex over the moves of the whole
    /// position. A move turns its far coin from heads to tails and otherwise only coins of
    /// lower index, so it always lowers the mask and the masks can be taken in increasing order.
    fn values(&self) -> Vec<u64> {
        let mut g = vec![0u64; 1 << self.coins];
        for mask in 0..1u32 << self.coins {
            let opts = self
                .moves
                .iter()
                .filter(|(far, _)| mask & 1 << far != 0)
                .map(|(_, turned)| g[(mask ^ turned) as usize])
                .collect();
            g[mask as usize] = mex(opts);
        }
        g
    }

    /// Whether a move turns the heads set `from` into `to`.
    fn is_move(&self, from: u32, to: u32) -> bool {
        self.moves
            .iter()
            .any(|&(far, turned)| from & 1 << far != 0 && from ^ turned == to)
    }
}

/// The heads set of an engine position made of single coins (two copies of a coin cancel, as
/// turning a coin twice leaves it as it was).
fn heads_of(g: &Game, bit: &dyn Fn(u64, u64) -> u32) -> u32 {
    match g {
        Game::Coin(c) => 1 << bit(c.x, c.y),
        Game::Sum(parts) => parts.iter().fold(0, |m, p| m ^ heads_of(p, bit)),
        Game::Nim(h) if h.is_empty() => 0,
        other => panic!("{other} is not a coin position"),
    }
}

/// Checks the engine on every heads set of a board against the brute-force values, and its
/// winning move on every `step`-th set.
fn check_coins(
    board: &CoinBoard,
    coin: &dyn Fn(u32) -> Game,
    bit: &dyn Fn(u64, u64) -> u32,
    step: u32,
) {
    let truth = board.values();
    for mask in 0..1u32 << board.coins {
        let parts: Vec<Game> = (0..board.coins)
            .filter(|i| mask & 1 << i != 0)
            .map(coin)
            .collect();
        let g = Game::sum(parts).unwrap();
        let v = truth[mask as usize];
        assert_eq!(g.grundy(&budget()).unwrap(), v, "{g} (heads {mask:#b})");
        if mask % step == 0 {
            match g.winning_move(&budget()).unwrap() {
                None => assert_eq!(v, 0, "{g} is N but no winning move was found"),
                Some(m) => {
                    let to = heads_of(&m, bit);
                    assert!(board.is_move(mask, to), "{g} -> {m} is not a legal move");
                    assert_eq!(
                        truth[to as usize], 0,
                        "{g} -> {m} does not reach a P-position"
                    );
                }
            }
        }
    }
}

#[test]
fn coin_rows_match_brute_force_on_every_heads_set() {
    let n = 12;
    let row_bit = |x: u64, _: u64| x as u32;
    let twins = CoinBoard::row(n, |r| (0..r).map(|l| 1 << l).collect());
    check_coins(&twins, &|i| Game::twins(i.into()), &row_bit, 7);
    let turtles = CoinBoard::row(n, |r| {
        std::iter::once(0).chain((0..r).map(|l| 1 << l)).collect()
    });
    check_coins(&turtles, &|i| Game::turning_turtles(i.into()), &row_bit, 7);
    // A run a..=r: the coins a..r besides the far coin r.
    let ruler = CoinBoard::row(n, |r| (0..=r).map(|a| (1 << r) - (1 << a)).collect());
    check_coins(&ruler, &|i| Game::ruler(i.into()), &row_bit, 7);
}

#[test]
fn turning_corners_matches_brute_force_on_every_heads_set() {
    for (w, h) in [(3u32, 4u32), (4, 4), (2, 7)] {
        let board = CoinBoard::corners(w, h);
        let coin = move |i: u32| Game::turning_corners((i / h).into(), (i % h).into());
        let bit = move |x: u64, y: u64| x as u32 * h + y as u32;
        check_coins(&board, &coin, &bit, 13);
    }
}

#[test]
fn coin_rows_have_their_published_values() {
    // Coins counted from 0: Twins is Nim with heap n, Turning Turtles Nim with heap n + 1, and
    // a Ruler coin is worth the largest power of two dividing n + 1.
    for n in 0..3000u64 {
        assert_eq!(Game::twins(n).grundy(&budget()).unwrap(), n);
        assert_eq!(Game::turning_turtles(n).grundy(&budget()).unwrap(), n + 1);
        let mut p = 1;
        while (n + 1) % (2 * p) == 0 {
            p *= 2;
        }
        assert_eq!(Game::ruler(n).grundy(&budget()).unwrap(), p, "ruler({n})");
    }
}

#[test]
fn tartan_theorem_turning_corners_is_the_nim_product() {
    // The oracle is the mex definition of the nim-product, evaluated by `nim::naive`.
    for x in 0..64u8 {
        for y in 0..64u8 {
            let g = Game::turning_corners(x.into(), y.into());
            assert_eq!(
                g.grundy(&budget()).unwrap(),
                nimbook::nim::naive::naive_mul(x, y),
                "{g}"
            );
        }
    }
}

#[test]
fn coin_games_refuse_what_is_over_budget() {
    let small = Budget {
        max_positions: 1000,
        ..Budget::default()
    };
    let e = Game::ruler(100).grundy(&small).unwrap_err();
    assert!(e.to_string().contains("1000 positions"), "{e}");
    let e = Game::turning_corners(1 << 30, 1 << 30)
        .grundy(&budget())
        .unwrap_err();
    assert!(e.to_string().contains("coins in one table"), "{e}");
    let e = Game::twins(u64::MAX).moves_from().unwrap_err();
    assert!(e.to_string().contains("moves"), "{e}");
}
