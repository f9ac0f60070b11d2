//! What decides the outcome class of a position, game by game, in words: the hint of a `choice`
//! among positions.
//!
//! A hint that states Nim's rule for every game misleads on every game that is not Nim: the
//! nim-sum of the heaps calls `wythoff(8, 13)`, `staircase_nim(3, 1, 3)` and `welter(0, 1, 2)`
//! N-positions, and all three are P. So each kind of game the engine plays has its own sentence:
//! the rule for its P-positions where the course proves one, else how its Grundy value is found;
//! a choice among sums adds that a sum is worth the nim-sum of its parts, and one among loopy
//! positions says how P, N and D are told apart. The tests below follow each stated P-rule on
//! positions and compare it with the engine's search.

use crate::game::{CoinRule, Game, HeapRule};

/// A kind of game, as far as the rule that decides its positions goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Nim,
    Poker,
    Staircase,
    Moore(u64),
    Wythoff,
    Welter,
    Lasker,
    Subtraction,
    Octal,
    Hexadecimal,
    Grundys,
    Cram,
    Northcott,
    Hackenbush,
    Coin(CoinRule),
    Loopy,
    MisereNim,
    MisereCram,
}

/// The kind of a game that is not a sum (`parts` takes sums apart first; a sum, were one
/// passed, is a sum of values like a Nim position's heaps).
fn kind(g: &Game) -> Kind {
    match g {
        Game::Nim(_) | Game::Sum(_) => Kind::Nim,
        Game::MisereNim(_) => Kind::MisereNim,
        Game::Subtraction { .. } => Kind::Subtraction,
        Game::Octal { .. } => Kind::Octal,
        Game::Hexadecimal { .. } => Kind::Hexadecimal,
        Game::Grundys(_) => Kind::Grundys,
        Game::Lasker(_) => Kind::Lasker,
        Game::Cram(_) => Kind::Cram,
        Game::MisereCram(_) => Kind::MisereCram,
        Game::Northcott(_) => Kind::Northcott,
        Game::Hackenbush(_) => Kind::Hackenbush,
        Game::Coin(c) => Kind::Coin(c.rule),
        Game::Heaps(h) => match h.rule() {
            HeapRule::Wythoff => Kind::Wythoff,
            HeapRule::Moore(k) => Kind::Moore(k),
            HeapRule::Staircase => Kind::Staircase,
            HeapRule::Poker { .. } => Kind::Poker,
            HeapRule::Welter => Kind::Welter,
        },
        Game::Loopy(_) => Kind::Loopy,
    }
}

/// The components of `g`: itself, or the parts of a sum, however nested.
fn parts<'g>(g: &'g Game, out: &mut Vec<&'g Game>) {
    match g {
        Game::Sum(ps) => ps.iter().for_each(|p| parts(p, out)),
        other => out.push(other),
    }
}

impl Kind {
    /// The P-positions of this kind, as a sentence, when the course proves a rule that names
    /// them without computing values.
    fn p_rule(self) -> Option<String> {
        Some(match self {
            Kind::Nim => "A Nim position is P exactly when the nim-sum of its heaps is 0.".into(),
            Kind::Poker => "A Poker Nim position is P exactly when the nim-sum of its heaps is 0, as in Nim, whatever raises are left.".into(),
            Kind::Staircase => "A Staircase Nim position is P exactly when the nim-sum of the coins on the odd steps (the first, third, fifth, … from the bottom) is 0; the coins on the even steps do not count.".into(),
            Kind::Moore(k) => format!("A position of Moore's Nim with k = {k} is P exactly when, in every binary place, the number of heaps with a one in that place is a multiple of k + 1 = {}.", u128::from(k) + 1),
            Kind::Wythoff => "A queen is on a losing square (a P-position) exactly when her two coordinates, in some order, are ⌊kφ⌋ and ⌊kφ⌋ + k for some k = 0, 1, 2, …, where φ = (1 + √5)/2: the smaller coordinate is ⌊kφ⌋, and k is the difference of the two.".into(),
            Kind::Welter => "A position of Welter's game is P exactly when Welter's function of its squares is 0: the nim-sum of all the squares and of the brackets of the mates (pair off the squares that agree in the most final binary digits, then the most among the rest, and so on; mates that agree in exactly their last v digits have the bracket 2^(v+1) − 1).".into(),
            // The first lesson has no Grundy values yet: its rule is the recursive one.
            Kind::Subtraction => "A heap of a subtraction game is P exactly when every heap a move can leave is an N-position, and N when some move leaves a P-position; the empty heap is P.".into(),
            Kind::Northcott => "A position of Northcott's game is P exactly when the nim-sum of its gaps, the numbers of empty squares between the two pieces of each row, is 0.".into(),
            Kind::MisereNim => "In misère play the player who makes the last move loses. A misère Nim position with a heap of two or more is P exactly when the nim-sum of its heaps is 0, as in Nim; when no heap has more than one counter, it is P exactly when the number of heaps of one is odd.".into(),
            Kind::MisereCram => "In misère play the player who makes the last move loses, and no rule of values decides it: a position is P exactly when every move from it leads to an N-position, so a position without a move is N.".into(),
            _ => return None,
        })
    }

    /// How a position of this kind is worth its Grundy value, as a sentence.
    fn value(self) -> &'static str {
        match self {
            Kind::Nim => "A Nim heap of n counters is worth n.",
            Kind::Poker => "Poker Nim is worth the nim-sum of its heaps, whatever raises are left.",
            Kind::Staircase => "Staircase Nim is worth the nim-sum of the coins on its odd steps.",
            Kind::Moore(_) => "Moore's Nim has no known rule for its values: each is the mex of the values of its options.",
            Kind::Wythoff => "A queen's value has no known formula: it is the mex of the values of the squares she can reach.",
            Kind::Welter => "Welter's game is worth Welter's function of its squares.",
            Kind::Lasker => "A heap of n ≥ 1 in Lasker's Nim is worth n when n leaves the remainder 1 or 2 on division by 4, n + 1 when it leaves 3, and n − 1 when it leaves 0.",
            Kind::Subtraction => "A heap of a subtraction game is worth the mex of the values of the heaps a move can leave.",
            Kind::Octal => "A heap of an octal game (Kayles among them) is worth the mex of the values of what a move leaves, heaps left side by side being worth the nim-sum of their values.",
            Kind::Hexadecimal => "A heap of a hexadecimal game is worth the mex of the values of what a move leaves, heaps left side by side being worth the nim-sum of their values.",
            Kind::Grundys => "A heap of Grundy's game is worth the mex of the values of the pairs of unequal heaps it can be split into, each pair worth the nim-sum of its values.",
            Kind::Cram => "A Cram board is worth the mex of the values of the boards a domino can leave, and a board in separate pieces is worth the nim-sum of the values of its pieces.",
            Kind::Northcott => "A row of Northcott's game is worth its gap, the number of empty squares between its two pieces.",
            Kind::Hackenbush => "A Green Hackenbush stalk of n edges is worth n; branches hanging from one vertex may be replaced by a stalk as long as their nim-sum (the colon principle), and the vertices of a cycle may be fused into one, each edge of the cycle becoming a loop worth one edge (the fusion principle).",
            Kind::Coin(CoinRule::Twins) => "A heads coin at place n of Twins is worth n.",
            Kind::Coin(CoinRule::TurningTurtles) => "A heads coin at place n of Turning Turtles (places from 0) is worth n + 1.",
            Kind::Coin(CoinRule::Ruler) => "A heads coin at place n of the Ruler game (places from 0) is worth the largest power of two that divides n + 1.",
            Kind::Coin(CoinRule::MockTurtles) => "A heads coin at place n of Mock Turtles (places from 0) is worth whichever of 2n and 2n + 1 has an odd number of ones in binary.",
            Kind::Coin(CoinRule::TurningCorners) => "A heads coin at (x, y) of Turning Corners is worth x ⊗ y.",
            Kind::Loopy | Kind::MisereNim | Kind::MisereCram => "",
        }
    }
}

/// What decides a loopy position, and its sums.
const LOOPY: &str = "These positions may repeat, so play may never end. A position is P when every move leads to an N-position, N when some move leads to a P-position, and a draw (D) when neither holds: the player to move cannot win, but can keep the play going for ever. In Smith's values, P is the value 0; N is any other number, or ∞_K with 0 in K; D is ∞_K without 0. A sum adds values as Nim does, with ∞_K ⊕ a = ∞_(K ⊕ a), and two infinite parts make ∞_∅.";

/// The kinds of game among the parts of `positions`, in order of appearance, and whether any of
/// them is a sum.
fn kinds_of(positions: &[&Game]) -> (Vec<Kind>, bool) {
    let mut kinds: Vec<Kind> = Vec::new();
    let mut sums = false;
    for g in positions {
        let mut ps = Vec::new();
        parts(g, &mut ps);
        sums |= ps.len() > 1;
        for k in ps.into_iter().map(kind) {
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
    }
    (kinds, sums)
}

/// The hint of a choice among `positions`: what decides their outcome classes.
pub(super) fn class_hint(positions: &[&Game]) -> String {
    let (kinds, sums) = kinds_of(positions);
    if let ([only], false) = (kinds.as_slice(), sums) {
        if let Some(rule) = only.p_rule() {
            return rule;
        }
    }
    let mut h = if kinds.contains(&Kind::Loopy) {
        LOOPY.to_string()
    } else if sums {
        "A position is P exactly when its Grundy value is 0, and a sum is worth the nim-sum of the values of its parts.".to_string()
    } else {
        "A position is P exactly when its Grundy value is 0.".to_string()
    };
    for k in &kinds {
        if !k.value().is_empty() {
            h.push(' ');
            h.push_str(k.value());
        }
    }
    if sums && kinds.iter().any(|k| matches!(k, Kind::Coin(_))) {
        h.push_str(
            " A coin named twice in a sum is a coin turned back to tails: the two copies cancel.",
        );
    }
    h
}

#[cfg(test)]
mod tests {
    //! Each P-rule a hint states is followed here as a student would follow it, from the words
    //! of the rule, and compared with the engine's search of the game.

    use super::*;
    use crate::game::{Budget, HeapGame, Outcome};

    fn heaps(rule: HeapRule, h: &[u64]) -> Game {
        Game::Heaps(HeapGame::new(rule, h.to_vec()).expect("a valid position"))
    }

    fn is_p(g: &Game) -> bool {
        g.outcome(&Budget::default()).expect("a small game") == Outcome::P
    }

    fn xor(h: impl IntoIterator<Item = u64>) -> u64 {
        h.into_iter().fold(0, |a, b| a ^ b)
    }

    /// Wythoff's rule as stated: the smaller coordinate is ⌊kφ⌋ with k the difference, where
    /// ⌊kφ⌋ = ⌊(k + ⌊√(5k²)⌋)/2⌋ in whole numbers.
    fn follow_wythoff(a: u64, b: u64) -> bool {
        let k = a.abs_diff(b);
        let five_k2 = 5 * k * k;
        let mut r = 0u64;
        while (r + 1) * (r + 1) <= five_k2 {
            r += 1;
        }
        a.min(b) == (k + r) / 2
    }

    /// The odd steps (first, third, …) are the heaps at even indices.
    fn follow_staircase(h: &[u64]) -> bool {
        xor(h.iter().copied().step_by(2)) == 0
    }

    /// Welter's function as the hint states it: pair off the squares that agree in the most
    /// final binary digits, then the most among the rest; mates agreeing in exactly their last
    /// v digits add the bracket 2^(v+1) − 1.
    fn follow_welter(squares: &[u64]) -> bool {
        let agree = |x: u64, y: u64| u64::from((x ^ y).trailing_zeros());
        let mut left: Vec<u64> = squares.to_vec();
        let mut value = xor(squares.iter().copied());
        while left.len() >= 2 {
            let mut best = (0, 1);
            for i in 0..left.len() {
                for j in i + 1..left.len() {
                    if agree(left[i], left[j]) > agree(left[best.0], left[best.1]) {
                        best = (i, j);
                    }
                }
            }
            value ^= (1 << (agree(left[best.0], left[best.1]) + 1)) - 1;
            left.remove(best.1);
            left.remove(best.0);
        }
        value == 0
    }

    fn follow_moore(k: u64, h: &[u64]) -> bool {
        (0..8).all(|bit| {
            let ones = h.iter().filter(|&&x| x >> bit & 1 == 1).count() as u64;
            ones.is_multiple_of(k + 1)
        })
    }

    fn follow_misere_nim(h: &[u64]) -> bool {
        if h.iter().all(|&x| x <= 1) {
            h.iter().filter(|&&x| x == 1).count() % 2 == 1
        } else {
            xor(h.iter().copied()) == 0
        }
    }

    #[test]
    fn the_hints_of_the_issues_examples_speak_of_their_own_game() {
        let nims = "the nim-sum of its heaps";
        for (g, own) in [
            (heaps(HeapRule::Wythoff, &[8, 13]), "⌊kφ⌋"),
            (heaps(HeapRule::Staircase, &[3, 1, 3]), "odd steps"),
            (heaps(HeapRule::Welter, &[0, 1, 2]), "Welter's function"),
        ] {
            let hint = class_hint(&[&g]);
            assert!(hint.contains(own) && !hint.contains(nims), "{g}: {hint}");
            // Nim's rule would call each of them N; the game's own rule, followed, says P.
            assert!(is_p(&g), "{g}");
        }
        assert!(follow_wythoff(8, 13) && follow_staircase(&[3, 1, 3]) && follow_welter(&[0, 1, 2]));
    }

    #[test]
    fn the_stated_rules_agree_with_the_search() {
        for a in 0..14 {
            for b in 0..14 {
                let g = heaps(HeapRule::Wythoff, &[a, b]);
                assert_eq!(follow_wythoff(a, b), is_p(&g), "{g}");
            }
        }
        for h in small_tuples(4, 4) {
            let g = heaps(HeapRule::Staircase, &h);
            assert_eq!(follow_staircase(&h), is_p(&g), "{g}");
            assert_eq!(
                follow_misere_nim(&h),
                is_p(&Game::MisereNim(h.clone())),
                "{h:?}"
            );
            for k in 1..4 {
                let g = heaps(HeapRule::Moore(k), &h);
                assert_eq!(follow_moore(k, &h), is_p(&g), "{g}");
            }
            let mut squares = h.clone();
            squares.sort_unstable();
            squares.dedup();
            if squares.len() == h.len() {
                let g = heaps(HeapRule::Welter, &h);
                assert_eq!(follow_welter(&h), is_p(&g), "{g}");
            }
        }
        for h in small_tuples(3, 9) {
            if h[0] != h[1] && h[1] != h[2] && h[0] != h[2] {
                let g = heaps(HeapRule::Welter, &h);
                assert_eq!(follow_welter(&h), is_p(&g), "{g}");
            }
        }
    }

    /// Every tuple of `len` numbers below `below`.
    fn small_tuples(len: u32, below: u64) -> Vec<Vec<u64>> {
        (0..below.pow(len))
            .map(|mut i| {
                (0..len)
                    .map(|_| {
                        let d = i % below;
                        i /= below;
                        d
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_choice_among_loopy_positions_tells_of_draws_and_one_among_sums_of_the_nim_sum() {
        let loopy = Game::Loopy(crate::game::LoopyGame::graph("0>1 1>0", 0).expect("a graph"));
        assert!(class_hint(&[&loopy]).contains("a draw (D)"));
        let sum = Game::Sum(vec![Game::Nim(vec![3]), Game::Lasker(4)]);
        let hint = class_hint(&[&sum]);
        assert!(
            hint.contains("nim-sum of the values of its parts"),
            "{hint}"
        );
        assert!(
            hint.contains("Lasker's Nim") && hint.contains("Nim heap of n"),
            "{hint}"
        );
        let nim = Game::Nim(vec![1, 2, 3]);
        assert_eq!(
            class_hint(&[&nim]),
            "A Nim position is P exactly when the nim-sum of its heaps is 0."
        );
    }
}
