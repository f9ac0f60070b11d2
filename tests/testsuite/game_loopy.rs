//! Loopy games against an oracle of won, lost and drawn positions.
//!
//! The oracle knows nothing of Smith's values: on an explicit graph of whole positions it labels
//! a position lost when every move leads to a won position (so a position with no move is
//! lost), won when some move leads to a lost one, repeats until nothing changes, and calls the
//! rest drawn (play from them can be kept going for ever). Sums are checked on the graph of
//! pairs of positions, built by the oracle from its own move lists, so the engine's sum rule
//! for generalized values (`∞_K ⊕ a = ∞_{K ⊕ a}`, `∞ ⊕ ∞ = ∞_∅`) is tested, not assumed.

use crate::common::budget;
use nimbook::game::{Game, Outcome};

/// Won, lost or drawn for the player to move, for every vertex of `succ`.
pub(crate) fn wld(succ: &[Vec<usize>]) -> Vec<Outcome> {
    let n = succ.len();
    let mut out: Vec<Option<Outcome>> = vec![None; n];
    loop {
        let mut changed = false;
        for u in 0..n {
            if out[u].is_some() {
                continue;
            }
            if succ[u].iter().any(|&v| out[v] == Some(Outcome::P)) {
                out[u] = Some(Outcome::N);
                changed = true;
            } else if succ[u].iter().all(|&v| out[v] == Some(Outcome::N)) {
                out[u] = Some(Outcome::P);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    out.into_iter().map(|o| o.unwrap_or(Outcome::D)).collect()
}

/// The graph of pairs: a move is made in exactly one of the two graphs.
fn product(a: &[Vec<usize>], b: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let m = b.len();
    let mut succ = vec![Vec::new(); a.len() * m];
    for x in 0..a.len() {
        for y in 0..m {
            let s = &mut succ[x * m + y];
            s.extend(a[x].iter().map(|&x2| x2 * m + y));
            s.extend(b[y].iter().map(|&y2| x * m + y2));
        }
    }
    succ
}

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A random graph on `n` vertices and its `loopy` spelling.
fn random_graph(rng: &mut Rng, n: usize) -> (Vec<Vec<usize>>, String) {
    let mut succ = vec![Vec::new(); n];
    let mut text = Vec::new();
    for (u, s) in succ.iter_mut().enumerate() {
        for v in 0..n {
            if rng.below(100) < 30 {
                s.push(v);
                text.push(format!("{u}>{v}"));
            }
        }
    }
    // Name every vertex, even one without moves.
    text.extend((0..n).map(|u| format!("{u}>{}", n + u)));
    for s in succ.iter_mut() {
        s.sort_unstable();
    }
    // The extra vertices n + u are terminal positions reachable from u.
    let mut full = succ.clone();
    for (u, s) in full.iter_mut().enumerate() {
        s.push(n + u);
    }
    full.extend((0..n).map(|_| Vec::new()));
    (full, text.join(" "))
}

#[test]
fn single_graphs_and_their_sums_agree_with_won_lost_drawn() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut draws = 0;
    for _ in 0..60 {
        let n = 2 + rng.below(5) as usize;
        let (a, ta) = random_graph(&mut rng, n);
        let m = 2 + rng.below(4) as usize;
        let (b, tb) = random_graph(&mut rng, m);
        let oa = wld(&a);
        let pair = wld(&product(&a, &b));
        for x in 0..a.len() {
            let g = Game::loopy(&ta, x as u64).unwrap();
            assert_eq!(g.outcome(&budget()).unwrap(), oa[x], "{g}");
            for y in 0..b.len() {
                let h = Game::loopy(&tb, y as u64).unwrap();
                let sum = Game::sum(vec![g.clone(), h]).unwrap();
                let want = pair[x * b.len() + y];
                draws += usize::from(want == Outcome::D);
                assert_eq!(sum.outcome(&budget()).unwrap(), want, "{sum}");
            }
        }
    }
    // The random graphs must exercise draws, or the test proves little.
    assert!(draws > 50, "only {draws} drawn sums");
}

#[test]
fn a_sum_with_nim_shifts_the_reachable_values() {
    // 0 ⇄ 1 and 1 → 2: from 1 one can move to the end (value 0 there), so 1 is ∞ with {0}… or a
    // number; whatever the engine says, adding Nim heaps must agree with the oracle.
    let text = "0-1 1>2";
    let a = vec![vec![1], vec![0, 2], vec![]];
    for heap in 0..4usize {
        let nim: Vec<Vec<usize>> = (0..=heap).map(|h| (0..h).collect()).collect();
        let pair = wld(&product(&a, &nim));
        for x in 0..3 {
            let g = Game::sum(vec![
                Game::loopy(text, x as u64).unwrap(),
                Game::nim(vec![heap as u64]),
            ])
            .unwrap();
            assert_eq!(
                g.outcome(&budget()).unwrap(),
                pair[x * nim.len() + heap],
                "{g}"
            );
        }
    }
}

/// The moves of one row of the classic Northcott's game, from the rules: either piece slides
/// left or right, not onto or past the other piece, not off the board. A position is
/// `(left piece, right piece)`.
fn row_graph(width: usize) -> (Vec<(usize, usize)>, Vec<Vec<usize>>) {
    let mut pos = Vec::new();
    for l in 0..width {
        for r in l + 1..width {
            pos.push((l, r));
        }
    }
    let index = |p: (usize, usize)| pos.iter().position(|&q| q == p).unwrap();
    let succ = pos
        .iter()
        .map(|&(l, r)| {
            let mut s: Vec<usize> = (0..r).filter(|&x| x != l).map(|x| index((x, r))).collect();
            s.extend((l + 1..width).filter(|&x| x != r).map(|x| index((l, x))));
            s
        })
        .collect();
    (pos, succ)
}

fn row_text(width: usize, (l, r): (usize, usize), white_left: bool) -> String {
    (0..width)
        .map(|c| match (c == l, c == r, white_left) {
            (true, _, true) | (_, true, false) => 'W',
            (true, _, false) | (_, true, true) => 'B',
            _ => '.',
        })
        .collect()
}

#[test]
fn classic_northcott_rows_and_boards_agree_with_won_lost_drawn() {
    for w1 in 2..6 {
        let (p1, s1) = row_graph(w1);
        let o1 = wld(&s1);
        for (i, &pos) in p1.iter().enumerate() {
            let text = row_text(w1, pos, i % 2 == 0);
            let g = Game::classic_northcott(&text).unwrap();
            assert_eq!(g.outcome(&budget()).unwrap(), o1[i], "{text}");
        }
        for w2 in 2..5 {
            let (p2, s2) = row_graph(w2);
            let pair = wld(&product(&s1, &s2));
            for (i, &a) in p1.iter().enumerate() {
                for (j, &b) in p2.iter().enumerate() {
                    let text = format!("{}/{}", row_text(w1, a, true), row_text(w2, b, false));
                    let g = Game::classic_northcott(&text).unwrap();
                    let want = pair[i * p2.len() + j];
                    assert_eq!(g.outcome(&budget()).unwrap(), want, "{text}");
                }
            }
        }
    }
}

#[test]
fn winning_moves_of_loopy_games_reach_lost_positions() {
    let g = Game::classic_northcott("W..B./.B.W").unwrap();
    if g.outcome(&budget()).unwrap() == Outcome::N {
        let m = g.winning_move(&budget()).unwrap().unwrap();
        assert_eq!(m.outcome(&budget()).unwrap(), Outcome::P, "{m}");
        assert!(g.moves_from().unwrap().contains(&m));
    }
    let c = Game::loopy("0>1 1>0", 0).unwrap();
    assert_eq!(c.outcome(&budget()).unwrap(), Outcome::D);
    assert_eq!(c.winning_move(&budget()).unwrap(), None);
    assert!(c.grundy(&budget()).is_err());
    assert!(c.graph(&budget()).is_err());
}

/// The outcome for the player to move at `u`, by playing every line to its end or to a
/// position already on the line (a repetition is a draw): a win if some move wins, else a draw
/// if some move draws or repeats, else a loss. A winner never needs to repeat (each winning
/// move can bring the end nearer), so this agrees with won, lost and drawn.
fn play(succ: &[Vec<usize>], u: usize, line: &mut Vec<usize>) -> Outcome {
    line.push(u);
    let mut draw = false;
    let mut won = false;
    for &v in &succ[u] {
        if line.contains(&v) {
            draw = true;
            continue;
        }
        match play(succ, v, line) {
            Outcome::P => {
                won = true;
                break;
            }
            Outcome::D => draw = true,
            _ => {}
        }
    }
    line.pop();
    if won {
        Outcome::N
    } else if draw {
        Outcome::D
    } else {
        Outcome::P
    }
}

/// The generalized value of vertex `x`, read from play alone: `G` has the number `m` exactly
/// when `G + *m` is lost, and is `∞_K` when no such `m` exists, `K` the numbers `m` with
/// `G + *m` won (from `∞_K + *m = ∞_{K ⊕ m}`, a draw unless `m ∈ K`). Heaps up to `top` are
/// tried, enough when every value and every number in `K` is below it.
fn value_by_play(succ: &[Vec<usize>], x: usize, top: usize) -> String {
    let mut won = Vec::new();
    for m in 0..top {
        let nim: Vec<Vec<usize>> = (0..=m).map(|h| (0..h).collect()).collect();
        let sum = product(succ, &nim);
        match play(&sum, x * nim.len() + m, &mut Vec::new()) {
            Outcome::P => return m.to_string(),
            Outcome::N => won.push(m.to_string()),
            _ => {}
        }
    }
    format!("∞{{{}}}", won.join(", "))
}

/// A graph as `loopy` spells it, its successor lists, and the value of every vertex by hand.
type Case = (&'static str, Vec<Vec<usize>>, Vec<&'static str>);

/// Small loopy graphs of the kinds Winning Ways and Siegel use to show Smith's values (built
/// here, not copied): a cycle with no way out, a cycle with an exit, a self-loop beside a
/// terminal, a position on a cycle that still has a number, and `∞_K` for several `K`. The
/// values by hand are in the comments; play confirms each, and the engine must agree.
#[test]
fn small_loopy_graphs_have_the_values_play_shows() {
    let cases: [Case; 6] = [
        // Two positions that only lead to each other: play never ends.
        ("0-1", vec![vec![1], vec![0]], vec!["∞{}", "∞{}"]),
        // 0 ⇄ 1 and 1 → 2 (the end): 2 is 0; 0 only reaches 1, from which the opponent could
        // escape to 2, so 1 is not 0, and 0 is 0 since its only option has an option of
        // value 0; then 1 sees 0 and 0 and is 1.
        (
            "0-1 1>2",
            vec![vec![1], vec![0, 2], vec![]],
            vec!["0", "1", "0"],
        ),
        // A position that may stay put or end the game: moving to the end wins, ∞ with {0}.
        ("0>0 0>1", vec![vec![0, 1], vec![]], vec!["∞{0}", "0"]),
        // Staying put or moving to a 1: no move to 0, so a draw alone: ∞ with {1}; with *1
        // added it is ∞ with {0}, a win.
        (
            "0>0 0>1 1>2",
            vec![vec![0, 1], vec![2], vec![]],
            vec!["∞{1}", "1", "0"],
        ),
        // 2 ⇄ 3 is a cycle, yet 2 reaches 0 (the end), 1 (value 1) and 3, and 3 only returns to
        // 2: 3 is 0 (its one option reaches a 0), so 2 sees 0, 1, 0 and is 2.
        (
            "1>0 2>0 2>1 2-3",
            vec![vec![], vec![0], vec![0, 1, 3], vec![2]],
            vec!["0", "1", "2", "0"],
        ),
        // A self-loop beside moves to a 0 (the end) and a 2 (which sees 0 and 1): ∞ with
        // {0, 2}, a win.
        (
            "1>0 2>0 2>1 3>3 3>0 3>2",
            vec![vec![], vec![0], vec![0, 1], vec![3, 0, 2]],
            vec!["0", "1", "2", "∞{0, 2}"],
        ),
    ];
    for (text, succ, by_hand) in cases {
        for (x, want) in by_hand.iter().enumerate() {
            assert_eq!(value_by_play(&succ, x, 6), *want, "{text} at {x}: play");
            let g = Game::loopy(text, x as u64).unwrap();
            let engine = match g.grundy(&budget()) {
                Ok(v) => v.to_string(),
                Err(e) => {
                    let e = e.to_string();
                    // "… its generalized Grundy value is ∞{0, 2} (∞ with …"
                    let v = e.split("value is ").nth(1).unwrap();
                    v[..v.find('}').unwrap() + 1].to_string()
                }
            };
            assert_eq!(engine, *want, "{text} at {x}: engine");
        }
    }
}
