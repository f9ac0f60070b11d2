//! Games on several heaps (or coins) that are not sums of one-heap games: Wythoff's game,
//! Moore's Nim, Staircase Nim, Poker Nim and Welter's game.
//!
//! In each of them one move may touch several heaps at once, or a heap's moves depend on the
//! others, so the Sprague–Grundy theorem does not cut a position into pieces. Their values are
//! found by a memoised search from the rules: [`HeapSolver`] walks the positions depth first
//! with an explicit stack (a game of a thousand moves does not overflow the call stack), keyed
//! by a canonical form (heaps sorted where order does not matter), and takes the mex of each
//! position's options. Wythoff's game has its own table (module `wythoff`), since a queen's
//! row, column and diagonal share their values.
//!
//! The theorems the lessons state about these games (Moore's rule, Staircase Nim as Nim on the
//! odd steps, Poker Nim as Nim, Welter's function) are not used here: they are checked against
//! these searches.
//!
//! Every game here ends: each move lowers the sum of the heaps (Moore, Wythoff, Welter), moves
//! a counter one step nearer the ground (Staircase), or, in Poker Nim, spends one of the
//! finitely many raises or lowers the sum without spending one.

use std::fmt;

use rustc_hash::FxHashMap;

use super::wythoff::wythoff_value;
use super::{GameError, Meter, Outcome, MAX_LISTED_MOVES};

/// The most heaps (or coins) one position may have.
pub const MAX_HEAPS: usize = 64;

/// The rule of a [`HeapGame`].
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HeapRule {
    /// Wythoff's game on two heaps: take any number from one heap, or the same number from
    /// both (a queen moving left, down or diagonally towards the corner).
    Wythoff,
    /// Moore's Nim_k: take any numbers from at least one and at most `k` heaps.
    Moore(u64),
    /// Staircase Nim: heap `i` (from 0) is step `i + 1`; a move takes counters from one step
    /// down to the step below, from step 1 off the staircase.
    Staircase,
    /// Poker Nim: Nim in which a move may instead raise one heap, at most `cap` counters per
    /// heap and `raises` raises left in the whole game (shared by both players).
    Poker {
        /// Raises left in the whole game.
        raises: u64,
        /// The most counters a heap may hold.
        cap: u64,
    },
    /// Welter's game: coins on the squares of a strip numbered from 0, at most one a square; a
    /// move takes one coin to any free square on its left.
    Welter,
}

/// A position of one of the games of [`HeapRule`]: the rule and the heaps (for Welter's game
/// the squares of the coins), in the order written.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HeapGame {
    rule: HeapRule,
    heaps: Vec<u64>,
}

fn invalid(game: String, reason: impl Into<String>) -> GameError {
    GameError::InvalidGame {
        game,
        reason: reason.into(),
    }
}

impl HeapGame {
    /// A position of `rule` with these heaps, checked: Wythoff's game has two heaps, Moore's
    /// `k` is at least 1, a Poker Nim heap is at most its cap, Welter's coins are on different
    /// squares, and there are at most [`MAX_HEAPS`] heaps.
    pub fn new(rule: HeapRule, heaps: Vec<u64>) -> Result<HeapGame, GameError> {
        let game = HeapGame { rule, heaps };
        let say = || game.to_string();
        if game.heaps.len() > MAX_HEAPS {
            return Err(invalid(say(), format!("more than {MAX_HEAPS} heaps")));
        }
        match rule {
            HeapRule::Wythoff if game.heaps.len() != 2 => {
                return Err(invalid(say(), "Wythoff's game has exactly two heaps"));
            }
            HeapRule::Moore(0) => {
                return Err(invalid(
                    say(),
                    "k must be at least 1 (a move takes from 1 … k heaps)",
                ));
            }
            HeapRule::Poker { cap, .. } if game.heaps.iter().any(|&h| h > cap) => {
                return Err(invalid(say(), format!("a heap is above the cap of {cap}")));
            }
            HeapRule::Welter => {
                let mut c = game.heaps.clone();
                c.sort_unstable();
                if c.windows(2).any(|w| w[0] == w[1]) {
                    return Err(invalid(say(), "two coins are on the same square"));
                }
            }
            _ => {}
        }
        Ok(game)
    }

    /// A position known to be valid (two heaps for Wythoff's game).
    pub(crate) fn from_parts(rule: HeapRule, heaps: Vec<u64>) -> HeapGame {
        HeapGame { rule, heaps }
    }

    /// The rule.
    pub fn rule(&self) -> HeapRule {
        self.rule
    }

    /// The heaps (Welter: the squares of the coins), in the order written.
    pub fn heaps(&self) -> &[u64] {
        &self.heaps
    }

    /// How many moves there are, saturating.
    pub fn move_count(&self) -> u64 {
        let h = &self.heaps;
        let sum = h.iter().fold(0u64, |a, &x| a.saturating_add(x));
        match self.rule {
            HeapRule::Wythoff => sum.saturating_add(h[0].min(h[1])),
            HeapRule::Moore(k) => moore_move_count(h, k),
            HeapRule::Staircase => sum,
            HeapRule::Poker { raises, cap } => {
                let room = h.iter().fold(0u64, |a, &x| a.saturating_add(cap - x));
                sum.saturating_add(if raises > 0 { room } else { 0 })
            }
            HeapRule::Welter => {
                let mut c = h.clone();
                c.sort_unstable();
                // The coin at c[i] may go to any of the c[i] squares on its left but the i
                // taken by other coins.
                c.iter()
                    .enumerate()
                    .fold(0u64, |a, (i, &x)| a.saturating_add(x - i as u64))
            }
        }
    }

    /// The options, in the shape of the game as written (heaps keep their places). The caller
    /// bounds [`HeapGame::move_count`] first.
    pub fn options(&self) -> Vec<HeapGame> {
        let h = &self.heaps;
        let with = |heaps: Vec<u64>, rule: HeapRule| HeapGame { rule, heaps };
        let mut out = Vec::new();
        match self.rule {
            HeapRule::Wythoff => {
                let (a, b) = (h[0], h[1]);
                out.extend((0..a).map(|x| with(vec![x, b], self.rule)));
                out.extend((0..b).map(|y| with(vec![a, y], self.rule)));
                out.extend((1..=a.min(b)).map(|t| with(vec![a - t, b - t], self.rule)));
            }
            HeapRule::Moore(k) => {
                let mut cur = h.clone();
                moore_options(h, k, 0, 0, &mut cur, &mut |v| out.push(with(v, self.rule)));
            }
            HeapRule::Staircase => {
                for i in 0..h.len() {
                    for t in 1..=h[i] {
                        let mut v = h.clone();
                        v[i] -= t;
                        if i > 0 {
                            v[i - 1] += t;
                        }
                        out.push(with(v, self.rule));
                    }
                }
            }
            HeapRule::Poker { raises, cap } => {
                for i in 0..h.len() {
                    let mut v = h.clone();
                    for x in 0..h[i] {
                        v[i] = x;
                        out.push(with(v.clone(), self.rule));
                    }
                    if raises > 0 {
                        let rule = HeapRule::Poker {
                            raises: raises - 1,
                            cap,
                        };
                        for x in h[i] + 1..=cap {
                            v[i] = x;
                            out.push(with(v.clone(), rule));
                        }
                    }
                }
            }
            HeapRule::Welter => {
                for i in 0..h.len() {
                    for d in (0..h[i]).filter(|d| !h.contains(d)) {
                        let mut v = h.clone();
                        v[i] = d;
                        out.push(with(v, self.rule));
                    }
                }
            }
        }
        out
    }

    /// The position up to the order of heaps where order does not matter, with empty heaps
    /// dropped where they can never matter again: the key of the memo and of game graphs.
    pub(crate) fn canonical(&self) -> HeapGame {
        let mut heaps = self.heaps.clone();
        match self.rule {
            HeapRule::Wythoff | HeapRule::Poker { .. } | HeapRule::Welter => heaps.sort_unstable(),
            HeapRule::Moore(_) => {
                heaps.retain(|&x| x > 0);
                heaps.sort_unstable();
            }
            HeapRule::Staircase => {
                while heaps.last() == Some(&0) {
                    heaps.pop();
                }
            }
        }
        HeapGame {
            rule: self.rule,
            heaps,
        }
    }
}

/// The number of ways to lower at least one and at most `k` heaps, saturating: the sum over
/// such sets of heaps of the product of their sizes.
fn moore_move_count(h: &[u64], k: u64) -> u64 {
    // by[j]: the number of ways to lower exactly j of the heaps seen so far.
    let k = usize::try_from(k).unwrap_or(usize::MAX).min(h.len());
    let mut by = vec![0u64; k + 1];
    by[0] = 1;
    for &x in h {
        for j in (1..=k).rev() {
            by[j] = by[j].saturating_add(by[j - 1].saturating_mul(x));
        }
    }
    by[1..].iter().fold(0u64, |a, &x| a.saturating_add(x))
}

/// Calls `emit` with every position reached by lowering between 1 and `k` heaps, heaps from
/// `i` on still to choose, `changed` lowered so far.
fn moore_options(
    h: &[u64],
    k: u64,
    i: usize,
    changed: u64,
    cur: &mut Vec<u64>,
    emit: &mut dyn FnMut(Vec<u64>),
) {
    if i == h.len() {
        if changed > 0 {
            emit(cur.clone());
        }
        return;
    }
    moore_options(h, k, i + 1, changed, cur, emit);
    if changed < k {
        for x in 0..h[i] {
            cur[i] = x;
            moore_options(h, k, i + 1, changed + 1, cur, emit);
        }
        cur[i] = h[i];
    }
}

/// Moore's rule for Nim_k: a position is P exactly when, in every binary place, the number of
/// heaps with a 1 there is a multiple of `k + 1`. Only a rule: the lessons check it against
/// the search of `HeapSolver`.
pub fn moores_rule(k: u64, heaps: &[u64]) -> Outcome {
    let all_divisible = (0..64).all(|bit| {
        let ones = heaps.iter().filter(|&&h| h >> bit & 1 == 1).count() as u64;
        ones.is_multiple_of(k.saturating_add(1))
    });
    if all_divisible {
        Outcome::P
    } else {
        Outcome::N
    }
}

impl fmt::Display for HeapGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rule {
            HeapRule::Wythoff => f.write_str("wythoff(")?,
            HeapRule::Moore(k) => write!(f, "moores_nim({k}, ")?,
            HeapRule::Staircase => f.write_str("staircase_nim(")?,
            HeapRule::Poker { raises, cap } => write!(f, "poker_nim({raises}, {cap}, ")?,
            HeapRule::Welter => f.write_str("welter(")?,
        }
        super::join(f, &self.heaps, ", ")?;
        f.write_str(")")
    }
}

/// One position being searched: its options (canonical, without repeats), how many of them
/// have been looked at, and the values found so far.
struct Frame {
    key: HeapGame,
    options: Vec<HeapGame>,
    next: usize,
    seen: Vec<u64>,
}

/// The memoised search of the games of this module. One lives for one request.
#[derive(Default)]
pub(crate) struct HeapSolver {
    memo: FxHashMap<HeapGame, u64>,
}

impl HeapSolver {
    /// The Grundy value of `game`, by the mex over its options.
    pub(crate) fn value(&mut self, game: &HeapGame, meter: &mut Meter) -> Result<u64, GameError> {
        if game.rule == HeapRule::Wythoff {
            return wythoff_value(game.heaps[0], game.heaps[1], meter);
        }
        let root = game.canonical();
        if let Some(&v) = self.memo.get(&root) {
            return Ok(v);
        }
        let mut stack = vec![frame(root, meter)?];
        while let Some(top) = stack.last_mut() {
            if let Some(o) = top.options.get(top.next) {
                meter.step()?;
                match self.memo.get(o) {
                    Some(&v) => {
                        top.seen.push(v);
                        top.next += 1;
                    }
                    None => {
                        let child = frame(o.clone(), meter)?;
                        stack.push(child);
                    }
                }
            } else {
                let v = mex(&mut top.seen);
                let key = top.key.clone();
                stack.pop();
                self.memo.insert(key, v);
            }
        }
        Ok(self.memo.get(&game.canonical()).copied().unwrap_or(0))
    }
}

/// A new frame for the canonical position `key`: one position charged to the budget, and its
/// options listed (refused if there are more than [`MAX_LISTED_MOVES`]).
fn frame(key: HeapGame, meter: &mut Meter) -> Result<Frame, GameError> {
    meter.tick()?;
    let count = key.move_count();
    if count > MAX_LISTED_MOVES {
        return Err(GameError::TooManyMoves {
            game: key.to_string(),
            count,
            limit: MAX_LISTED_MOVES,
        });
    }
    for _ in 0..count / 1024 {
        meter.step()?;
    }
    let mut options: Vec<HeapGame> = key.options().iter().map(HeapGame::canonical).collect();
    options.sort_unstable();
    options.dedup();
    Ok(Frame {
        key,
        options,
        next: 0,
        seen: Vec::new(),
    })
}

/// The least value not in `seen` (which it sorts).
fn mex(seen: &mut [u64]) -> u64 {
    seen.sort_unstable();
    let mut m = 0;
    for &v in seen.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn move_counts_match_the_listed_options() {
        let games = [
            HeapGame::new(HeapRule::Wythoff, vec![3, 5]).unwrap(),
            HeapGame::new(HeapRule::Moore(2), vec![2, 3, 1, 4]).unwrap(),
            HeapGame::new(HeapRule::Staircase, vec![1, 0, 3]).unwrap(),
            HeapGame::new(HeapRule::Poker { raises: 1, cap: 4 }, vec![1, 4, 0]).unwrap(),
            HeapGame::new(HeapRule::Welter, vec![5, 2, 3]).unwrap(),
        ];
        for g in games {
            assert_eq!(g.options().len() as u64, g.move_count(), "{g}");
        }
    }

    #[test]
    fn bad_positions_are_refused() {
        assert!(HeapGame::new(HeapRule::Welter, vec![1, 3, 1]).is_err());
        assert!(HeapGame::new(HeapRule::Moore(0), vec![1]).is_err());
        assert!(HeapGame::new(HeapRule::Wythoff, vec![1]).is_err());
        let e = HeapGame::new(HeapRule::Poker { raises: 1, cap: 2 }, vec![3]).unwrap_err();
        assert!(e.to_string().contains("cap of 2"), "{e}");
    }

    #[test]
    fn a_huge_move_list_is_refused_not_built() {
        let g = HeapGame::new(HeapRule::Moore(3), vec![1 << 20; 3]).unwrap();
        let mut m = Meter::new(&super::super::Budget::default());
        let e = HeapSolver::default().value(&g, &mut m).unwrap_err();
        assert!(matches!(e, GameError::TooManyMoves { .. }), "{e}");
    }
}
