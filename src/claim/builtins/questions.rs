//! What the engine answers about a position or a game: Grundy values, outcome classes, the
//! size of the game graph, a winning move, and the values and periods of octal games. Every
//! answer is searched within the lesson's budget.

use super::{count_value, outcome, Call, Function};
use crate::claim::{ClaimError, Value};
use crate::game::{self, GameGraph, HexCode};

/// The functions of this group.
pub(super) const FUNCTIONS: &[Function] = registry! {
    Function;
    game "grundy", "grundy(G)", [1], "the Grundy value of G" => |c| {
        c.game(0)?
            .grundy(&c.limits.game)
            .map(count_value)
            .map_err(|e| c.game_error(e))
    };
    game "outcome", "outcome(G)", [1], "P or N, or D (a draw) for a loopy game" => |c| outcome(c.game(0)?, &c.limits.game).map_err(|e| c.game_error(e));
    game "winning_move", "winning_move(G)", [1], "the position after a winning move; an error at a P-position" => winning_move;
    game "positions", "positions(G)", [1], "the number of positions of G's game graph" => |c| graph_count(c, |g| g.positions.len());
    game "moves", "moves(G)", [1], "the number of moves of G's game graph" => |c| graph_count(c, |g| g.edges.len());
    game "ppositions", "ppositions(G)", [1], "the number of P-positions of G's game graph" => |c| graph_count(c, |g| g.p_positions.iter().filter(|&&p| p).count());
    game "period", "period(\"0.77\")", [1], "[pre-period, period] of an octal or hexadecimal game, proved by the Guy–Smith criterion" => |c| {
        let p = game::hexadecimal_period(&code(c)?, &c.limits.game).map_err(|e| c.game_error(e))?;
        Ok(Value::List(vec![
            count_value(p.preperiod),
            count_value(p.period),
        ]))
    };
    game "sequence", "sequence(\"0.77\", n)", [2], "the Grundy values of heaps 0 … n−1 of an octal or hexadecimal game" => sequence;
    game "rare_count", "rare_count(\"grundys_game\", mask, n)", [3], "how many of heaps 0 … n−1 have a rare value: an even number of ones in value AND mask" => sequence_fact;
    game "max_value", "max_value(\"grundys_game\", n)", [2], "the largest Grundy value among heaps 0 … n−1" => sequence_fact;
};

/// `rare_count(game, mask, n)` and `max_value(game, n)`: one number about the values of heaps
/// `0 … n−1` of `"grundys_game"`, `"kayles"`, `"dawsons_kayles"` or an octal code, computed
/// with the sparse space.
fn sequence_fact(c: &Call<'_>) -> Result<Value, ClaimError> {
    let (mask, n) = if c.args.len() == 3 {
        (Some(c.count(1)?), c.count(2)?)
    } else {
        (None, c.count(1)?)
    };
    let name = c.string(0, "\"grundys_game\"")?;
    let seq = game::named_heap_sequence(name, n, &c.limits.game)
        .ok_or_else(|| {
            ClaimError::new(
                c.at(0),
                format!("unknown heap game `{name}`: use \"grundys_game\", \"kayles\", \"dawsons_kayles\" or an octal code such as \"0.137\""),
            )
        })?
        .map_err(|e| c.game_error(e))?;
    Ok(count_value(match mask {
        Some(m) => seq
            .iter()
            .filter(|&&v| (v & m).count_ones() % 2 == 0)
            .count() as u64,
        None => seq.iter().copied().max().unwrap_or(0),
    }))
}

/// A count of G's game graph, where a position is a multiset of non-terminal components.
fn graph_count(c: &Call<'_>, count: fn(&GameGraph) -> usize) -> Result<Value, ClaimError> {
    let graph = c
        .game(0)?
        .graph(&c.limits.game)
        .map_err(|e| c.game_error(e))?;
    Ok(count_value(count(&graph) as u64))
}

fn winning_move(c: &Call<'_>) -> Result<Value, ClaimError> {
    let game = c.game(0)?;
    match game
        .winning_move(&c.limits.game)
        .map_err(|e| c.game_error(e))?
    {
        Some(next) => Ok(Value::Game(next)),
        None => Err(c.error(format!(
            "{game} is a P-position: every move loses, so there is no winning move"
        ))),
    }
}

/// The code in the first argument, octal or hexadecimal (every octal code is the hexadecimal
/// code of the same game).
fn code(c: &Call<'_>) -> Result<HexCode, ClaimError> {
    c.string(0, "\"0.77\"")?
        .parse()
        .map_err(|e| super::game_error(&c.at(0), e))
}

fn sequence(c: &Call<'_>) -> Result<Value, ClaimError> {
    let code = code(c)?;
    let n = c.count(1)?;
    if n > c.limits.max_cases {
        return Err(ClaimError::budget(
            c.at(1),
            format!(
                "a sequence of {n} values is over the budget of {} ([nimbook] max-cases)",
                c.limits.max_cases
            ),
        ));
    }
    // An octal code goes to the octal engine, which is faster and reaches larger heaps
    // (`hexadecimal_period` makes the same choice itself).
    let last = n.saturating_sub(1);
    let seq = match code.as_octal() {
        Some(octal) => game::octal_sequence(&octal, last, &c.limits.game),
        None => game::hexadecimal_sequence(&code, last, &c.limits.game),
    }
    .map_err(|e| c.game_error(e))?;
    Ok(Value::List(
        seq.into_iter().take(n as usize).map(count_value).collect(),
    ))
}
