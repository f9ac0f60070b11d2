//! The game functions of the claim language: constructors such as `nim(3, 4, 5)` and
//! `cram(3, 4)`, and questions such as `grundy(G)` and `winning_move(G)`, all answered by the
//! game engine within the lesson's budget.

use super::ast::OutcomeClass;
use super::eval::{as_count, Value};
use super::{ClaimError, Limits};
use crate::diag::{Code, Span};
use crate::game::{self, Game, GameError, Outcome};
use crate::nim::Nimber;

/// The game functions, with a one-line description each.
pub(crate) const GAME_FUNCTIONS: &[(&str, &str)] = &[
    ("nim", "nim(3, 4, 5): Nim with these heaps"),
    (
        "misere_nim",
        "misere_nim(1, 1, 2): misère Nim with these heaps",
    ),
    (
        "subtraction",
        "subtraction([1, 3, 4], n): the subtraction game on a heap of n",
    ),
    (
        "octal",
        "octal(\"0.77\", n): the octal game with this code on a heap of n",
    ),
    (
        "kayles",
        "kayles(n): Kayles, octal 0.77, on a row of n pins",
    ),
    (
        "dawsons_kayles",
        "dawsons_kayles(n): Dawson's Kayles, octal 0.07",
    ),
    (
        "grundys_game",
        "grundys_game(n): Grundy's game on a heap of n",
    ),
    ("cram", "cram(rows, cols): Cram on an empty rectangle"),
    (
        "misere_cram",
        "misere_cram(rows, cols): misère Cram on an empty rectangle",
    ),
    (
        "cram_cells",
        "cram_cells(\"##./###\"): Cram on a set of cells",
    ),
    (
        "misere_cram_cells",
        "misere_cram_cells(\"##./###\"): misère Cram on a set of cells",
    ),
    (
        "green_hackenbush",
        "green_hackenbush(\"0-1 1-2 1-3\"): Green Hackenbush, vertex 0 the ground",
    ),
    (
        "northcott",
        "northcott(\"W..B/B.W\"): Northcott's game, one row per `/`",
    ),
    (
        "twins",
        "twins(n): Twins, one heads coin at place n (from 0); turn two coins",
    ),
    (
        "turning_turtles",
        "turning_turtles(n): Turning Turtles, one heads coin at place n; turn one or two coins",
    ),
    (
        "ruler",
        "ruler(n): the Ruler game, one heads coin at place n; turn a run of coins",
    ),
    (
        "turning_corners",
        "turning_corners(x, y): Turning Corners, one heads coin at (x, y); turn a rectangle's corners",
    ),
    ("grundy", "grundy(G): the Grundy value of G"),
    ("outcome", "outcome(G): P or N"),
    (
        "positions",
        "positions(G): the number of positions of G's game graph",
    ),
    ("moves", "moves(G): the number of moves of G's game graph"),
    (
        "ppositions",
        "ppositions(G): the number of P-positions of G's game graph",
    ),
    (
        "winning_move",
        "winning_move(G): the position after a winning move",
    ),
    (
        "period",
        "period(\"0.77\"): [pre-period, period] of an octal game",
    ),
    (
        "sequence",
        "sequence(\"0.77\", n): the Grundy values of heaps 0 … n−1",
    ),
    (
        "rare_count",
        "rare_count(\"grundys_game\", mask, n): how many of heaps 0 … n−1 have a rare value, an even number of ones in value AND mask",
    ),
    (
        "max_value",
        "max_value(\"grundys_game\", n): the largest Grundy value among heaps 0 … n−1",
    ),
];

/// The values of heaps `0 … n−1` of a heap game named `"grundys_game"`, `"kayles"`,
/// `"dawsons_kayles"` or by an octal code; `None` if the name is none of these.
pub(crate) fn heap_sequence(
    name: &str,
    n: u64,
    budget: &game::Budget,
) -> Option<Result<Vec<u64>, GameError>> {
    let code = match name {
        "grundys_game" => {
            let seq = game::grundys_sequence(n.saturating_sub(1), budget);
            return Some(seq.map(|v| v.into_iter().take(n as usize).collect()));
        }
        "kayles" => game::OctalCode::kayles(),
        "dawsons_kayles" => game::OctalCode::dawsons_kayles(),
        other if other.starts_with(|c: char| c.is_ascii_digit() || c == '.') => {
            match other.parse::<game::OctalCode>() {
                Ok(c) => c,
                Err(e) => return Some(Err(e)),
            }
        }
        _ => return None,
    };
    let seq = game::octal_sequence(&code, n.saturating_sub(1), budget);
    Some(seq.map(|v| v.into_iter().take(n as usize).collect()))
}

/// An engine error as a claim error; a search that ran out of budget is [`Code::BudgetExceeded`].
pub(crate) fn game_error(span: &Span, e: GameError) -> ClaimError {
    let budget = matches!(e, GameError::BudgetExceeded { .. });
    let err = ClaimError::new(span.clone(), e.to_string());
    if budget {
        err.code(Code::BudgetExceeded)
    } else {
        err
    }
}

fn game_arg<'v>(v: &'v Value, span: &Span) -> Result<&'v Game, ClaimError> {
    match v {
        Value::Game(g) => Ok(g),
        other => Err(ClaimError::new(
            span.clone(),
            format!("expected a game such as nim(3, 4, 5), found `{other}`"),
        )),
    }
}

fn str_arg<'v>(v: &'v Value, span: &Span, example: &str) -> Result<&'v str, ClaimError> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(ClaimError::new(
            span.clone(),
            format!("expected a string such as {example}, found `{other}`"),
        )),
    }
}

fn count_value(n: u64) -> Value {
    Value::Num(Nimber::from_u64(n))
}

/// Calls game function `name`, or returns `None` if `name` is not one.
pub(crate) fn call(
    name: &str,
    args: &[Value],
    arg_spans: &[Span],
    span: &Span,
    limits: &Limits,
) -> Option<Result<Value, ClaimError>> {
    if !GAME_FUNCTIONS.iter().any(|(n, _)| *n == name) {
        return None;
    }
    Some(call_game(name, args, arg_spans, span, limits))
}

fn arity(name: &str, args: &[Value], n: usize, span: &Span) -> Result<(), ClaimError> {
    if args.len() == n {
        Ok(())
    } else {
        Err(ClaimError::new(
            span.clone(),
            format!(
                "`{name}` takes {n} argument(s), but {} were given",
                args.len()
            ),
        ))
    }
}

fn call_game(
    name: &str,
    args: &[Value],
    spans: &[Span],
    span: &Span,
    limits: &Limits,
) -> Result<Value, ClaimError> {
    let at = |i: usize| spans.get(i).cloned().unwrap_or_else(|| span.clone());
    let count = |i: usize| as_count(&args[i], &at(i));
    let budget = &limits.game;
    let g = |r: Result<Game, GameError>| r.map(Value::Game).map_err(|e| game_error(span, e));
    match name {
        "nim" | "misere_nim" => {
            let heaps = (0..args.len()).map(count).collect::<Result<Vec<_>, _>>()?;
            Ok(Value::Game(if name == "nim" {
                Game::nim(heaps)
            } else {
                Game::misere_nim(heaps)
            }))
        }
        "subtraction" => {
            arity(name, args, 2, span)?;
            let Value::List(items) = &args[0] else {
                return Err(ClaimError::new(
                    at(0),
                    "expected a list of removals such as [1, 3, 4]",
                ));
            };
            let set = items
                .iter()
                .map(|v| as_count(v, &at(0)))
                .collect::<Result<Vec<_>, _>>()?;
            g(Game::subtraction(&set, count(1)?))
        }
        "octal" => {
            arity(name, args, 2, span)?;
            g(Game::octal(
                str_arg(&args[0], &at(0), "\"0.77\"")?,
                count(1)?,
            ))
        }
        "kayles" | "dawsons_kayles" | "grundys_game" | "twins" | "turning_turtles" | "ruler" => {
            arity(name, args, 1, span)?;
            let n = count(0)?;
            Ok(Value::Game(match name {
                "kayles" => Game::kayles(n),
                "dawsons_kayles" => Game::dawsons_kayles(n),
                "twins" => Game::twins(n),
                "turning_turtles" => Game::turning_turtles(n),
                "ruler" => Game::ruler(n),
                _ => Game::grundys_game(n),
            }))
        }
        "turning_corners" => {
            arity(name, args, 2, span)?;
            Ok(Value::Game(Game::turning_corners(count(0)?, count(1)?)))
        }
        "cram" | "misere_cram" => {
            arity(name, args, 2, span)?;
            let (r, c) = (count(0)?, count(1)?);
            g(if name == "cram" {
                Game::cram(r, c)
            } else {
                Game::misere_cram(r, c)
            })
        }
        "cram_cells" | "misere_cram_cells" | "green_hackenbush" | "northcott" => {
            arity(name, args, 1, span)?;
            let s = str_arg(&args[0], &at(0), "\"##./###\"")?;
            let r = match name {
                "cram_cells" => Game::cram_cells(s),
                "misere_cram_cells" => Game::misere_cram_cells(s),
                "green_hackenbush" => Game::green_hackenbush(s),
                _ => Game::northcott(s),
            };
            r.map(Value::Game).map_err(|e| game_error(&at(0), e))
        }
        "grundy" => {
            arity(name, args, 1, span)?;
            let game = game_arg(&args[0], &at(0))?;
            game.grundy(budget)
                .map(count_value)
                .map_err(|e| game_error(span, e))
        }
        "outcome" => {
            arity(name, args, 1, span)?;
            let game = game_arg(&args[0], &at(0))?;
            outcome(game, budget).map_err(|e| game_error(span, e))
        }
        "positions" | "moves" | "ppositions" => {
            arity(name, args, 1, span)?;
            let game = game_arg(&args[0], &at(0))?;
            let graph = game.graph(budget).map_err(|e| game_error(span, e))?;
            let n = match name {
                "positions" => graph.positions.len(),
                "moves" => graph.edges.len(),
                _ => graph.p_positions.iter().filter(|&&p| p).count(),
            };
            Ok(count_value(n as u64))
        }
        "winning_move" => {
            arity(name, args, 1, span)?;
            let game = game_arg(&args[0], &at(0))?;
            match game.winning_move(budget).map_err(|e| game_error(span, e))? {
                Some(next) => Ok(Value::Game(next)),
                None => Err(ClaimError::new(
                    span.clone(),
                    format!(
                        "{game} is a P-position: every move loses, so there is no winning move"
                    ),
                )),
            }
        }
        "period" => {
            arity(name, args, 1, span)?;
            let code: game::OctalCode = str_arg(&args[0], &at(0), "\"0.77\"")?
                .parse()
                .map_err(|e| game_error(&at(0), e))?;
            let p = game::period(&code, budget).map_err(|e| game_error(span, e))?;
            Ok(Value::List(vec![
                count_value(p.preperiod),
                count_value(p.period),
            ]))
        }
        "sequence" => {
            arity(name, args, 2, span)?;
            let code: game::OctalCode = str_arg(&args[0], &at(0), "\"0.77\"")?
                .parse()
                .map_err(|e| game_error(&at(0), e))?;
            let n = count(1)?;
            if n > limits.max_cases {
                return Err(ClaimError::budget(
                    at(1),
                    format!(
                        "a sequence of {n} values is over the budget of {} ([nimbook] max-cases)",
                        limits.max_cases
                    ),
                ));
            }
            let seq = game::octal_sequence(&code, n.saturating_sub(1), budget)
                .map_err(|e| game_error(span, e))?;
            Ok(Value::List(
                seq.into_iter().take(n as usize).map(count_value).collect(),
            ))
        }
        "rare_count" | "max_value" => sequence_fact(name, args, spans, span, limits),
        _ => Err(ClaimError::new(
            span.clone(),
            format!("unknown function `{name}`"),
        )),
    }
}

/// `rare_count(game, mask, n)` and `max_value(game, n)`: one number about the values of heaps
/// `0 … n−1`, computed with the sparse space.
fn sequence_fact(
    name: &str,
    args: &[Value],
    spans: &[Span],
    span: &Span,
    limits: &Limits,
) -> Result<Value, ClaimError> {
    let at = |i: usize| spans.get(i).cloned().unwrap_or_else(|| span.clone());
    let count = |i: usize| as_count(&args[i], &at(i));
    let (mask, n_at) = if name == "rare_count" {
        arity(name, args, 3, span)?;
        (Some(count(1)?), 2)
    } else {
        arity(name, args, 2, span)?;
        (None, 1)
    };
    let game = str_arg(&args[0], &at(0), "\"grundys_game\"")?;
    let n = count(n_at)?;
    let seq = heap_sequence(game, n, &limits.game)
        .ok_or_else(|| {
            ClaimError::new(
                at(0),
                format!("unknown heap game `{game}`: use \"grundys_game\", \"kayles\", \"dawsons_kayles\" or an octal code such as \"0.137\""),
            )
        })?
        .map_err(|e| game_error(span, e))?;
    Ok(count_value(match mask {
        Some(m) => seq
            .iter()
            .filter(|&&v| (v & m).count_ones() % 2 == 0)
            .count() as u64,
        None => seq.iter().copied().max().unwrap_or(0),
    }))
}

/// The outcome class of a game as a value.
pub(crate) fn outcome(game: &Game, budget: &game::Budget) -> Result<Value, GameError> {
    game.outcome(budget).map(|o| {
        Value::Outcome(match o {
            Outcome::P => OutcomeClass::P,
            Outcome::N => OutcomeClass::N,
        })
    })
}
