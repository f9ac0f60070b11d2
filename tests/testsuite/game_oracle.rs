//! The game engine against brute-force oracles.
//!
//! Every oracle here is written from the rules alone: it enumerates whole positions, takes the
//! mex of the options of the *whole* position, memoises exact positions only, and never splits
//! a position into components, uses symmetry or any theorem. The engine (which does all of
//! those) must agree on every small position.

use crate::common::budget;

use std::collections::HashMap;

use nimbook::game::{parse_cells, Budget, Game, OctalCode, Outcome};

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

// ---------------------------------------------------------------- positions as the oracle sees them
//
// The winning-move checks below decide legality and value with a move generator of their own,
// written from the rules: a position is read off the game's parameters (heap sizes, free cells,
// edges, piece squares), never from the engine's move generator, its grounding or its values.

/// The rule of a heap game, from the game's parameters.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
enum Rule {
    Octal(String),
    Grundy,
    Subtraction(Vec<u64>),
}

/// One component of a position.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
enum Part {
    Nim(u64),
    Heap(Rule, u64),
    Cram {
        rows: u64,
        cols: u64,
        free: u64,
    },
    /// Edges `(low, high)`, sorted, only those connected to the ground (vertex 0).
    Hackenbush(Vec<(u32, u32)>),
    /// Rows as `(width, white, black)`.
    Northcott(Vec<(u64, u64, u64)>),
}

/// A whole position: its parts, sorted, with empty heaps left out.
type Position = Vec<Part>;

fn normalise(mut p: Position) -> Position {
    p.retain(|x| !matches!(x, Part::Nim(0) | Part::Heap(_, 0)));
    p.sort();
    p
}

/// The edges of a Green Hackenbush graph that a path joins to the ground, found here by flood
/// fill from vertex 0.
fn ground(edges: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut reach = vec![0u32];
    loop {
        let before = reach.len();
        for &(a, b) in edges {
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
    let mut out: Vec<(u32, u32)> = edges
        .iter()
        .filter(|&&(a, _)| reach.contains(&a))
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    out.sort_unstable();
    out
}

/// The oracle's reading of an engine position (normal or misère: the rule of play is the value
/// function's business).
fn position(g: &Game) -> Position {
    fn parts(g: &Game, out: &mut Position) {
        match g {
            Game::Nim(h) | Game::MisereNim(h) => out.extend(h.iter().map(|&x| Part::Nim(x))),
            Game::Octal { code, n } => out.push(Part::Heap(Rule::Octal(code.to_string()), *n)),
            Game::Grundys(n) => out.push(Part::Heap(Rule::Grundy, *n)),
            Game::Subtraction { set, n } => {
                out.push(Part::Heap(Rule::Subtraction(set.clone()), *n));
            }
            Game::Cram(b) | Game::MisereCram(b) => out.push(Part::Cram {
                rows: b.rows(),
                cols: b.cols(),
                free: b.free_bits(),
            }),
            Game::Hackenbush(gr) => out.push(Part::Hackenbush(ground(gr.edges()))),
            Game::Northcott(rs) => out.push(Part::Northcott(
                rs.iter()
                    .map(|r| (r.width(), r.white(), r.black()))
                    .collect(),
            )),
            Game::Sum(ps) => ps.iter().for_each(|p| parts(p, out)),
            // Coin-turning games have an oracle of their own (the coin-turning section below), which
            // searches sets of heads coins; no test here reads a coin through this one.
            Game::Coin(_) => unreachable!("coin positions are checked by the coin oracle"),
            // Wythoff, Moore, Staircase, Poker and Welter have their oracles in `game_classics`.
            Game::Heaps(_) => unreachable!("heap positions are checked in game_classics"),
            Game::Loopy(_) => unreachable!("loopy positions are checked in game_loopy"),
            Game::Lasker(_) => unreachable!("Lasker's Nim is checked in game_classics"),
            Game::Hexadecimal { .. } => {
                unreachable!("hexadecimal games are checked in game_classics")
            }
        }
    }
    let mut out = Vec::new();
    parts(g, &mut out);
    normalise(out)
}

fn grundys_rule(n: u64) -> Vec<Vec<u64>> {
    (1..n)
        .filter(|&a| 2 * a != n)
        .map(|a| vec![a, n - a])
        .collect()
}

fn subtraction_rule(set: &[u64], n: u64) -> Vec<Vec<u64>> {
    set.iter()
        .filter(|&&k| k <= n)
        .map(|&k| vec![n - k])
        .collect()
}

/// Every way to replace `part` by a move in it, from the rules.
fn part_options(part: &Part) -> Vec<Vec<Part>> {
    match part {
        Part::Nim(h) => (0..*h).map(|x| vec![Part::Nim(x)]).collect(),
        Part::Heap(rule, n) => {
            let heaps = match rule {
                Rule::Octal(code) => octal_rule(code)(*n),
                Rule::Grundy => grundys_rule(*n),
                Rule::Subtraction(set) => subtraction_rule(set, *n),
            };
            heaps
                .into_iter()
                .map(|hs| {
                    hs.into_iter()
                        .map(|h| Part::Heap(rule.clone(), h))
                        .collect()
                })
                .collect()
        }
        &Part::Cram { rows, cols, free } => {
            let at = |r: u64, c: u64| free >> (r * cols + c) & 1 == 1;
            let mut out = Vec::new();
            for r in 0..rows {
                for c in 0..cols {
                    let bit = 1u64 << (r * cols + c);
                    if at(r, c) && c + 1 < cols && at(r, c + 1) {
                        let next = free & !bit & !(bit << 1);
                        out.push(vec![Part::Cram {
                            rows,
                            cols,
                            free: next,
                        }]);
                    }
                    if at(r, c) && r + 1 < rows && at(r + 1, c) {
                        let next = free & !bit & !(bit << cols);
                        out.push(vec![Part::Cram {
                            rows,
                            cols,
                            free: next,
                        }]);
                    }
                }
            }
            out
        }
        Part::Hackenbush(edges) => (0..edges.len())
            .map(|i| {
                let mut rest = edges.clone();
                rest.remove(i);
                vec![Part::Hackenbush(ground(&rest))]
            })
            .collect(),
        Part::Northcott(rows) => {
            let mut out = Vec::new();
            for (i, &(w, a, b)) in rows.iter().enumerate() {
                for to in 0..w {
                    // A piece slides towards the other one without reaching or passing it.
                    let between = |from: u64, other: u64| {
                        (from < other && to > from && to < other)
                            || (from > other && to < from && to > other)
                    };
                    if between(a, b) {
                        let mut r = rows.clone();
                        r[i] = (w, to, b);
                        out.push(vec![Part::Northcott(r)]);
                    }
                    if between(b, a) {
                        let mut r = rows.clone();
                        r[i] = (w, a, to);
                        out.push(vec![Part::Northcott(r)]);
                    }
                }
            }
            out
        }
    }
}

/// Every position one move away: a move in exactly one part.
fn options(p: &Position) -> Vec<Position> {
    let mut out = Vec::new();
    for (i, part) in p.iter().enumerate() {
        for replacement in part_options(part) {
            let mut q = p.clone();
            q.remove(i);
            q.extend(replacement);
            out.push(normalise(q));
        }
    }
    out
}

/// The Grundy value of a whole position by full search (normal play): the mex of the values
/// of all its options, memoised on whole positions only.
fn value(p: &Position, memo: &mut HashMap<Position, u64>) -> u64 {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let vals = options(p).iter().map(|q| value(q, memo)).collect();
    let v = mex(vals);
    memo.insert(p.clone(), v);
    v
}

/// Checks the engine's `winning_move` against the oracle: a move exists exactly when the
/// oracle's value is not 0, it is one of the oracle's own options, and it reaches value 0.
fn check_winning_move(g: &Game, memo: &mut HashMap<Position, u64>) {
    let p = position(g);
    let v = value(&p, memo);
    match g.winning_move(&budget()).unwrap() {
        None => assert_eq!(v, 0, "{g} is N but no winning move was found"),
        Some(m) => {
            assert_ne!(v, 0, "{g} is P but the engine moved to {m}");
            let q = position(&m);
            assert!(options(&p).contains(&q), "{m} is not a move from {g}");
            assert_eq!(
                value(&q, memo),
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
    let mut positions = HashMap::new();
    for h in nim_positions(3, 5) {
        let g = Game::nim(h.clone());
        let v = brute_nim(&h, false, &mut memo);
        assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
        check_winning_move(&g, &mut positions);
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
                let m = Game::MisereNim(k.clone());
                assert!(options(&position(&g)).contains(&position(&m)), "{g} -> {m}");
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
        let mut positions = HashMap::new();
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
                check_winning_move(&Game::octal(code, a).unwrap(), &mut positions);
                check_winning_move(&g, &mut positions);
            }
        }
    }
}

#[test]
fn grundys_game_matches_brute_force() {
    let mut memo = HashMap::new();
    let mut positions = HashMap::new();
    for n in 0..=18 {
        let v = brute_heaps(&[n], &grundys_rule, &mut memo);
        let g = Game::grundys_game(n);
        assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
        check_winning_move(&g, &mut positions);
    }
}

#[test]
fn subtraction_games_match_brute_force() {
    for set in [vec![1, 3, 4], vec![2, 5], vec![1, 2, 3], vec![3, 1, 7, 7]] {
        let s = set.clone();
        let rule = move |n: u64| subtraction_rule(&s, n);
        let mut memo = HashMap::new();
        let mut positions = HashMap::new();
        for n in 0..=40 {
            let v = brute_heaps(&[n], &rule, &mut memo);
            let g = Game::subtraction(&set, n).unwrap();
            assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
            check_winning_move(&g, &mut positions);
        }
    }
}

// ---------------------------------------------------------------- Cram

/// Cram on a grid of booleans, as the rules say: mex over all dominoes of the whole board
/// (misère: 1 when the player to move wins).
pub(crate) fn brute_cram(
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
        check_winning_move(&g, &mut HashMap::new());
        // Misère play, the whole board.
        let mut mmemo = HashMap::new();
        let next_wins = brute_cram(rows, cols, free, true, &mut mmemo) == 1;
        let mg = Game::MisereCram(board);
        let expected = if next_wins { Outcome::N } else { Outcome::P };
        assert_eq!(mg.outcome(&budget()).unwrap(), expected, "{mg}");
        match mg.winning_move(&budget()).unwrap() {
            Some(m @ Game::MisereCram(b)) => {
                assert!(next_wins);
                assert!(
                    options(&position(&mg)).contains(&position(&m)),
                    "{mg} -> {m}"
                );
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
    let mut positions = HashMap::new();
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
        check_winning_move(&g, &mut positions);
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
        vals.push(brute_hackenbush(&ground(&rest), memo));
    }
    let v = mex(vals);
    memo.insert(key, v);
    v
}

#[test]
fn hackenbush_matches_brute_force_on_random_graphs() {
    let mut rng = Rng(7);
    let mut memo = HashMap::new();
    let mut positions = HashMap::new();
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
        // Floating edges are not part of the game: the oracle grounds the graph itself.
        let v = brute_hackenbush(&ground(&edges), &mut memo);
        assert_eq!(g.grundy(&budget()).unwrap(), v, "{g}");
        check_winning_move(&g, &mut positions);
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

/// A sum of five different games against a full search of the whole sum (not the nim-sum of
/// the parts' values, which is the theorem under test).
#[test]
fn mixed_sums_match_a_full_search_of_the_sum() {
    let parts = vec![
        Game::kayles(7),
        Game::cram(2, 3).unwrap(),
        Game::green_hackenbush("0-1 1-2").unwrap(),
        Game::nim(vec![3]),
        Game::northcott("W..B").unwrap(),
    ];
    let g = Game::sum(parts).unwrap();
    let mut positions = HashMap::new();
    let total = value(&position(&g), &mut positions);
    assert_eq!(g.grundy(&budget()).unwrap(), total, "{g}");
    check_winning_move(&g, &mut positions);
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
