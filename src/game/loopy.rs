//! Loopy impartial games: games whose positions may repeat, so that play can go on for ever.
//!
//! # Smith's theory
//!
//! C. A. B. Smith extended the Sprague–Grundy theory to game graphs with cycles. Every position
//! gets a *generalized Grundy value*: either a number `g`, or `∞` together with the set `K` of
//! the numbers its options have, written `∞_K`. A position has the number `g` exactly when no
//! option has value `g`, every smaller number is the value of some option, and every option whose
//! value is not a number below `g` (so `∞_…`, or a number above `g`) has an option of value `g`
//! itself, so that the opponent can always be sent back to `g`. A position that gets no number
//! is `∞_K`.
//!
//! From a value the outcome can be read: `0` loses for the player to move (P), another number
//! wins (N), `∞_K` wins when `0` is in `K` (move to a zero) and is otherwise a **draw** (D):
//! neither player can force a win, and good play goes on for ever. Values add as Nim heaps,
//! with `∞_K ⊕ a = ∞_{K ⊕ a}` and `∞_K ⊕ ∞_L = ∞_∅`, so a sum of loopy games is solved from the
//! values of its parts.
//!
//! # The algorithm
//!
//! Retrograde analysis in rounds `i = 0, 1, 2, …`. In round `i`, label `i` every unlabelled
//! vertex with no option labelled `i` all of whose options that are unlabelled or labelled `∞`
//! have an option labelled `i`, for as long as there is one; then label `∞` every unlabelled
//! vertex with no option labelled `i`. A vertex still unlabelled after round `i` has an option
//! labelled `i`, so it has more than `i` options, and the rounds end after the largest number of
//! options. Finally each `∞` vertex collects the numbers of its options into `K`.
//!
//! The tests check these values against a separate solver of outcomes (the classic labelling of
//! won, lost and drawn positions, applied to whole sums) and against the definition above.
//!
//! # The games
//!
//! * `loopy("1>0 2>1 1>2 2-3", 2)`: a token on vertex 2 of a directed graph, and a move slides
//!   it along an edge. `a>b` is a move from `a` to `b`, `a-b` moves both ways (the notation of
//!   [`parse_loopy`]). Vertices are numbers and need not be consecutive.
//! * `classic_northcott("W..B./B.W")`: Northcott's game in which a piece may also retreat: a
//!   move slides either piece of one row any number of squares left or right, without jumping
//!   over the other piece or leaving the board. Each row is one loopy game; the board is their
//!   sum.

use std::fmt;

use super::{GameError, Meter, NorthcottRow, Outcome};

/// The most edges of a `loopy` graph.
pub const MAX_LOOPY_EDGES: usize = 2_000;
/// The widest row of the classic Northcott's game (a row of `w` squares has about `w³/2` moves
/// among its positions).
pub const MAX_LOOPY_ROW: u64 = 16;

/// A position of a loopy game.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LoopyGame {
    /// A token on vertex `at` of a directed graph.
    Graph {
        /// The moves `(from, to)`, sorted, without repeats.
        edges: Vec<(u64, u64)>,
        /// The vertex of the token.
        at: u64,
    },
    /// One row of Northcott's game in which pieces may also retreat.
    Northcott(NorthcottRow),
}

/// A generalized Grundy value: a number, or `∞` with the numbers reachable in one move.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LoopyValue {
    /// A finite value.
    Finite(u64),
    /// `∞_K`: the set `K` of the finite values of the options, sorted.
    Infinite(Vec<u64>),
}

impl LoopyValue {
    /// The value of a sum: numbers add as Nim heaps, `∞_K ⊕ a = ∞_{K ⊕ a}`, and two infinite
    /// values make `∞_∅`.
    pub fn add(&self, other: &LoopyValue) -> LoopyValue {
        match (self, other) {
            (LoopyValue::Finite(a), LoopyValue::Finite(b)) => LoopyValue::Finite(a ^ b),
            (LoopyValue::Infinite(k), LoopyValue::Finite(a))
            | (LoopyValue::Finite(a), LoopyValue::Infinite(k)) => {
                let mut k: Vec<u64> = k.iter().map(|x| x ^ a).collect();
                k.sort_unstable();
                LoopyValue::Infinite(k)
            }
            (LoopyValue::Infinite(_), LoopyValue::Infinite(_)) => LoopyValue::Infinite(Vec::new()),
        }
    }

    /// Who wins: P for 0, N for another number or an `∞_K` with 0 in `K`, else a draw.
    pub fn outcome(&self) -> Outcome {
        match self {
            LoopyValue::Finite(0) => Outcome::P,
            LoopyValue::Finite(_) => Outcome::N,
            LoopyValue::Infinite(k) if k.contains(&0) => Outcome::N,
            LoopyValue::Infinite(_) => Outcome::D,
        }
    }
}

impl fmt::Display for LoopyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopyValue::Finite(g) => write!(f, "{g}"),
            LoopyValue::Infinite(k) => {
                f.write_str("∞{")?;
                super::join(f, k, ", ")?;
                f.write_str("}")
            }
        }
    }
}

/// Parses a loopy graph: moves separated by white space or commas, `a>b` a move from vertex `a`
/// to vertex `b`, `a-b` moves both ways. Returns the sorted moves.
pub fn parse_loopy(text: &str) -> Result<Vec<(u64, u64)>, GameError> {
    let mut edges = Vec::new();
    let mut offset = 0;
    for token in text.split(|c: char| c.is_whitespace() || c == ',') {
        let at = offset;
        offset += token.len() + 1;
        if token.is_empty() {
            continue;
        }
        let bad = |reason: &str| GameError::MalformedGraph {
            input: text.to_string(),
            token: token.to_string(),
            offset: at,
            reason: reason.to_string(),
        };
        let (sep, both) = match (token.find('>'), token.find('-')) {
            (Some(i), None) => (i, false),
            (None, Some(i)) => (i, true),
            _ => return Err(bad("a move is written `a>b`, or `a-b` for both ways")),
        };
        let num = |s: &str| {
            s.parse::<u64>()
                .map_err(|_| bad("a vertex is a number such as 0 or 17"))
        };
        let (a, b) = (num(&token[..sep])?, num(&token[sep + 1..])?);
        edges.push((a, b));
        if both {
            edges.push((b, a));
        }
        if edges.len() > MAX_LOOPY_EDGES {
            return Err(bad(&format!("more than {MAX_LOOPY_EDGES} moves")));
        }
    }
    edges.sort_unstable();
    edges.dedup();
    Ok(edges)
}

impl LoopyGame {
    /// A token on vertex `at` of the graph written in the notation of [`parse_loopy`].
    pub fn graph(text: &str, at: u64) -> Result<LoopyGame, GameError> {
        let edges = parse_loopy(text)?;
        Ok(LoopyGame::Graph { edges, at })
    }

    /// One row of the classic Northcott's game, at most [`MAX_LOOPY_ROW`] squares wide.
    pub fn northcott_row(row: NorthcottRow) -> Result<LoopyGame, GameError> {
        if row.width() > MAX_LOOPY_ROW {
            return Err(GameError::InvalidGame {
                game: format!("classic_northcott(\"{row}\")"),
                reason: format!(
                    "a row of the classic game may have at most {MAX_LOOPY_ROW} squares"
                ),
            });
        }
        Ok(LoopyGame::Northcott(row))
    }

    /// The positions after each move.
    pub fn options(&self) -> Vec<LoopyGame> {
        match self {
            LoopyGame::Graph { edges, at } => {
                let from = edges.partition_point(|e| e.0 < *at);
                edges[from..]
                    .iter()
                    .take_while(|e| e.0 == *at)
                    .map(|e| LoopyGame::Graph {
                        edges: edges.clone(),
                        at: e.1,
                    })
                    .collect()
            }
            LoopyGame::Northcott(row) => row_moves(row)
                .into_iter()
                .map(LoopyGame::Northcott)
                .collect(),
        }
    }

    /// The generalized Grundy value of this position.
    pub(crate) fn value(&self, meter: &mut Meter) -> Result<LoopyValue, GameError> {
        let (succ, start) = match self {
            LoopyGame::Graph { edges, at } => graph_positions(edges, *at),
            LoopyGame::Northcott(row) => row_positions(row),
        };
        meter.charge(succ.len() as u64)?;
        Ok(smith_values(&succ, meter)?.swap_remove(start))
    }
}

impl fmt::Display for LoopyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopyGame::Graph { edges, at } => {
                f.write_str("loopy(\"")?;
                for (i, (a, b)) in edges.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{a}>{b}")?;
                }
                write!(f, "\", {at})")
            }
            LoopyGame::Northcott(row) => write!(f, "classic_northcott(\"{row}\")"),
        }
    }
}

/// Every move of one piece of a classic Northcott row: left or right, any distance, not onto or
/// past the other piece, not off the board.
fn row_moves(row: &NorthcottRow) -> Vec<NorthcottRow> {
    let (w, white, black) = (row.width(), row.white(), row.black());
    let mut out = Vec::new();
    let (lo, hi) = (white.min(black), white.max(black));
    let place = |left: u64, right: u64| {
        // The piece order never changes: whoever was on the left stays there.
        let (white, black) = if white < black {
            (left, right)
        } else {
            (right, left)
        };
        NorthcottRow::new(w, white, black).ok()
    };
    out.extend((0..hi).filter(|&x| x != lo).filter_map(|x| place(x, hi)));
    out.extend(
        (lo + 1..w)
            .filter(|&x| x != hi)
            .filter_map(|x| place(lo, x)),
    );
    out
}

/// The graph of a `loopy` game as successor lists over indices, and the index of `at`.
fn graph_positions(edges: &[(u64, u64)], at: u64) -> (Vec<Vec<usize>>, usize) {
    let mut names: Vec<u64> = edges.iter().flat_map(|&(a, b)| [a, b]).collect();
    names.push(at);
    names.sort_unstable();
    names.dedup();
    let index = |v: u64| names.binary_search(&v).unwrap_or(0);
    let mut succ = vec![Vec::new(); names.len()];
    for &(a, b) in edges {
        succ[index(a)].push(index(b));
    }
    (succ, index(at))
}

/// Every position of the row's width with the same piece order, as successor lists, and the
/// index of `row`.
fn row_positions(row: &NorthcottRow) -> (Vec<Vec<usize>>, usize) {
    let w = row.width();
    // Positions are the pairs lo < hi of columns, numbered row by row.
    let id = |lo: u64, hi: u64| (lo * w + hi) as usize;
    let mut succ = vec![Vec::new(); (w * w) as usize];
    for lo in 0..w {
        for hi in lo + 1..w {
            let (white, black) = if row.white() < row.black() {
                (lo, hi)
            } else {
                (hi, lo)
            };
            if let Ok(r) = NorthcottRow::new(w, white, black) {
                succ[id(lo, hi)] = row_moves(&r)
                    .iter()
                    .map(|m| id(m.white().min(m.black()), m.white().max(m.black())))
                    .collect();
            }
        }
    }
    let start = id(row.white().min(row.black()), row.white().max(row.black()));
    (succ, start)
}

/// A label of Smith's algorithm.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Label {
    Open,
    Finite(u64),
    Infinite,
}

/// The generalized Grundy values of every vertex of a graph given by successor lists.
fn smith_values(succ: &[Vec<usize>], meter: &mut Meter) -> Result<Vec<LoopyValue>, GameError> {
    let n = succ.len();
    let mut label = vec![Label::Open; n];
    let mut round = 0u64;
    while label.contains(&Label::Open) {
        let i = Label::Finite(round);
        let has_i = |label: &[Label], v: usize| succ[v].iter().any(|&w| label[w] == i);
        loop {
            let mut changed = false;
            for u in 0..n {
                meter.step()?;
                if label[u] != Label::Open || has_i(&label, u) {
                    continue;
                }
                let reversible = succ[u].iter().all(|&v| match label[v] {
                    Label::Finite(j) => j < round,
                    Label::Open | Label::Infinite => has_i(&label, v),
                });
                if reversible {
                    label[u] = i;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for u in 0..n {
            if label[u] == Label::Open && !has_i(&label, u) {
                label[u] = Label::Infinite;
            }
        }
        round += 1;
    }
    Ok((0..n)
        .map(|u| match label[u] {
            Label::Finite(g) => LoopyValue::Finite(g),
            _ => {
                let mut k: Vec<u64> = succ[u]
                    .iter()
                    .filter_map(|&v| match label[v] {
                        Label::Finite(g) => Some(g),
                        _ => None,
                    })
                    .collect();
                k.sort_unstable();
                k.dedup();
                LoopyValue::Infinite(k)
            }
        })
        .collect())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::game::Budget;

    fn value(g: &LoopyGame) -> LoopyValue {
        g.value(&mut Meter::new(&Budget::default())).unwrap()
    }

    #[test]
    fn a_two_cycle_with_an_exit_and_a_pure_cycle() {
        // 1 ⇄ 2 and 2 → 0: from 2 move to 0 and win; from 1 the only move goes to 2.
        let g = |at| value(&LoopyGame::graph("1-2 2>0", at).unwrap());
        assert_eq!(g(0), LoopyValue::Finite(0));
        assert_eq!(g(2), LoopyValue::Finite(1));
        assert_eq!(g(1), LoopyValue::Finite(0));
        // A cycle with no exit: a draw.
        let c = value(&LoopyGame::graph("0>1 1>0", 0).unwrap());
        assert_eq!(c, LoopyValue::Infinite(Vec::new()));
        assert_eq!(c.outcome(), Outcome::D);
    }

    #[test]
    fn malformed_graphs_are_located() {
        let e = parse_loopy("1>2 3=4").unwrap_err();
        assert!(e.to_string().contains("`3=4` at byte 4"), "{e}");
        assert!(parse_loopy("1>x").is_err());
    }
}
