//! The games of Part III of the course, which are not sums of one-heap games (Wythoff, Moore,
//! Staircase, Poker, Welter, Mock Turtles) or may go on for ever (`loopy`, the classic
//! Northcott's game), and the two rules the lessons check against their searches:
//! `moores_rule` and `welter_function`, computed from binary digits alone.

use super::{class, count_value, Call, Function};
use crate::claim::{ClaimError, Value};
use crate::game::{self, Game, GameError};

/// The functions of this group.
pub(super) const FUNCTIONS: &[Function] = registry! {
    Function;
    game "wythoff", "wythoff(a, b)", [2], "Wythoff's game: the queen at (a, b), or two heaps; take from one heap or equally from both" => |c| Ok(Value::Game(Game::wythoff(c.count(0)?, c.count(1)?)));
    game "moores_nim", "moores_nim(k, h1, h2, …)", [..], "Moore's Nim: a move takes from at least one and at most k heaps" => |c| {
        let (k, heaps) = first_and_rest(c, "moores_nim(2, 1, 2, 3)")?;
        made(c, Game::moores_nim(k, heaps))
    };
    game "staircase_nim", "staircase_nim(h1, h2, …)", [..], "Staircase Nim: h1 coins on the lowest step, h2 on the next; move coins one step down" => |c| made(c, Game::staircase_nim(counts(c)?));
    game "poker_nim", "poker_nim(r, m, h1, h2, …)", [..], "Poker Nim: Nim where a move may instead raise a heap; r raises left, heaps at most m" => |c| {
        let all = counts(c)?;
        let [r, m, heaps @ ..] = all.as_slice() else {
            return Err(c.error("`poker_nim` needs the raises and the cap first, such as poker_nim(2, 5, 1, 4, 5)"));
        };
        made(c, Game::poker_nim(*r, *m, heaps.to_vec()))
    };
    game "welter", "welter(c1, c2, …)", [..], "Welter's game: coins on distinct squares numbered from 0, moved left onto free squares" => |c| made(c, Game::welter(counts(c)?));
    game "laskers_nim", "laskers_nim(n)", [1], "Lasker's Nim on a heap of n: take any number, or split the heap into two" => |c| Ok(Value::Game(Game::laskers_nim(c.count(0)?)));
    game "mock_turtles", "mock_turtles(n)", [1], "Mock Turtles: one heads coin at place n; a move turns one, two or three coins" => |c| Ok(Value::Game(Game::mock_turtles(c.count(0)?)));
    game "loopy", "loopy(\"1>0 1-2\", v)", [2], "a token on vertex v of a graph that may have cycles; a>b is a move, a-b both ways" => |c| {
        Game::loopy(c.string(0, "\"1>0 1-2\"")?, c.count(1)?)
            .map(Value::Game)
            .map_err(|e| super::game_error(&c.at(0), e))
    };
    game "classic_northcott", "classic_northcott(\"W..B/B.W\")", [1], "Northcott's game in which a piece may also retreat (loopy: a position may be a draw)" => |c| {
        Game::classic_northcott(c.string(0, "\"W..B/B.W\"")?)
            .map(Value::Game)
            .map_err(|e| super::game_error(&c.at(0), e))
    };
    number "moores_rule", "moores_rule(k, h1, h2, …)", [..], "P when in every binary place the number of heaps with a one is a multiple of k + 1, else N" => |c| {
        let (k, heaps) = first_and_rest(c, "moores_rule(2, 1, 2, 3)")?;
        if k == 0 {
            return Err(c.error("k must be at least 1"));
        }
        Ok(Value::Outcome(class(game::moores_rule(k, &heaps))))
    };
    number "welter_function", "welter_function(c1, c2, …)", [..], "Welter's function of distinct squares by Conway's mating rule" => |c| {
        game::welter_function(&counts(c)?)
            .map(count_value)
            .map_err(|e| c.game_error(e))
    };
};

/// Every argument as a count.
fn counts(c: &Call<'_>) -> Result<Vec<u64>, ClaimError> {
    (0..c.args.len()).map(|i| c.count(i)).collect()
}

/// The first argument (a parameter such as Moore's `k`) and the heaps after it.
fn first_and_rest(c: &Call<'_>, example: &str) -> Result<(u64, Vec<u64>), ClaimError> {
    let all = counts(c)?;
    match all.split_first() {
        Some((&k, rest)) => Ok((k, rest.to_vec())),
        None => Err(c.error(format!(
            "`{}` needs its parameter first, such as {example}",
            c.name
        ))),
    }
}

/// A position the engine made from counts; its errors are about the whole call.
fn made(c: &Call<'_>, game: Result<Game, GameError>) -> Result<Value, ClaimError> {
    game.map(Value::Game).map_err(|e| c.game_error(e))
}
