//! What the engine answers about a position or a game: Grundy values, outcome classes, the
//! size of the game graph, a winning move, and the values and periods of octal games. Every
//! answer is searched within the lesson's budget.

use super::{count_value, outcome, Arity, Call, Function, Signature};
use crate::claim::{ClaimError, Value};
use crate::game::{self, GameGraph, OctalCode};

/// The functions of this group.
pub(super) const FUNCTIONS: &[Function] = &[
    Function::game(
        Signature::new(
            "grundy",
            "grundy(G)",
            Arity::Exactly(1),
            "the Grundy value of G",
        ),
        |c| {
            c.game(0)?
                .grundy(&c.limits.game)
                .map(count_value)
                .map_err(|e| c.game_error(e))
        },
    ),
    Function::game(
        Signature::new(
            "outcome",
            "outcome(G)",
            Arity::Exactly(1),
            "P or N, or D (a draw) for a loopy game",
        ),
        |c| outcome(c.game(0)?, &c.limits.game).map_err(|e| c.game_error(e)),
    ),
    Function::game(
        Signature::new(
            "winning_move",
            "winning_move(G)",
            Arity::Exactly(1),
            "the position after a winning move; an error at a P-position",
        ),
        winning_move,
    ),
    Function::game(
        Signature::new(
            "positions",
            "positions(G)",
            Arity::Exactly(1),
            "the number of positions of G's game graph",
        ),
        |c| graph_count(c, |g| g.positions.len()),
    ),
    Function::game(
        Signature::new(
            "moves",
            "moves(G)",
            Arity::Exactly(1),
            "the number of moves of G's game graph",
        ),
        |c| graph_count(c, |g| g.edges.len()),
    ),
    Function::game(
        Signature::new(
            "ppositions",
            "ppositions(G)",
            Arity::Exactly(1),
            "the number of P-positions of G's game graph",
        ),
        |c| graph_count(c, |g| g.p_positions.iter().filter(|&&p| p).count()),
    ),
    Function::game(
        Signature::new(
            "period",
            "period(\"0.77\")",
            Arity::Exactly(1),
            "[pre-period, period] of an octal or hexadecimal game, proved by the Guy–Smith criterion",
        ),
        |c| {
            let p = match code(c)? {
                Code::Octal(code) => game::period(&code, &c.limits.game),
                Code::Hexadecimal(code) => game::hexadecimal_period(&code, &c.limits.game),
            }
            .map_err(|e| c.game_error(e))?;
            Ok(Value::List(vec![
                count_value(p.preperiod),
                count_value(p.period),
            ]))
        },
    ),
    Function::game(
        Signature::new(
            "sequence",
            "sequence(\"0.77\", n)",
            Arity::Exactly(2),
            "the Grundy values of heaps 0 … n−1 of an octal or hexadecimal game",
        ),
        sequence,
    ),
    Function::game(
        Signature::new(
            "rare_count",
            "rare_count(\"grundys_game\", mask, n)",
            Arity::Exactly(3),
            "how many of heaps 0 … n−1 have a rare value: an even number of ones in value AND mask",
        ),
        sequence_fact,
    ),
    Function::game(
        Signature::new(
            "max_value",
            "max_value(\"grundys_game\", n)",
            Arity::Exactly(2),
            "the largest Grundy value among heaps 0 … n−1",
        ),
        sequence_fact,
    ),
];

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

/// An octal code, or a hexadecimal one that allows three heaps (every octal code is the
/// hexadecimal code of the same game, and goes to the faster octal engine).
enum Code {
    Octal(OctalCode),
    Hexadecimal(game::HexCode),
}

/// The code in the first argument.
fn code(c: &Call<'_>) -> Result<Code, ClaimError> {
    let text = c.string(0, "\"0.77\"")?;
    let hex: game::HexCode = text.parse().map_err(|e| super::game_error(&c.at(0), e))?;
    Ok(match hex.as_octal() {
        Some(octal) => Code::Octal(octal),
        None => Code::Hexadecimal(hex),
    })
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
    let seq = match code {
        Code::Octal(code) => game::octal_sequence(&code, n.saturating_sub(1), &c.limits.game),
        Code::Hexadecimal(code) => {
            game::hexadecimal_sequence(&code, n.saturating_sub(1), &c.limits.game)
        }
    }
    .map_err(|e| c.game_error(e))?;
    Ok(Value::List(
        seq.into_iter().take(n as usize).map(count_value).collect(),
    ))
}
