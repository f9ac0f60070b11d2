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
    (
        "mock_turtles",
        "mock_turtles(n): Mock Turtles, one heads coin at place n; turn one, two or three coins",
    ),
    (
        "wythoff",
        "wythoff(a, b): Wythoff's game, the queen at (a, b) (two heaps a and b)",
    ),
    (
        "moores_nim",
        "moores_nim(k, h1, h2, …): Moore's Nim, take from 1 … k heaps",
    ),
    (
        "staircase_nim",
        "staircase_nim(h1, h2, …): Staircase Nim, h1 coins on step 1, h2 on step 2, …",
    ),
    (
        "poker_nim",
        "poker_nim(r, m, h1, …): Poker Nim, r raises left in the game, heaps at most m",
    ),
    (
        "welter",
        "welter(c1, c2, …): Welter's game, coins on squares c1, c2, … (from 0, distinct)",
    ),
    (
        "moores_rule",
        "moores_rule(k, h1, …): P when every binary column count is a multiple of k + 1, else N",
    ),
    (
        "welter_function",
        "welter_function(c1, c2, …): Welter's function by Conway's mating rule",
    ),
    ("grundy", "grundy(G): the Grundy value of G"),
    (
        "loopy",
        "loopy(\"1>0 1-2\", v): a token on vertex v of a graph with cycles; a>b a move, a-b both ways",
    ),
    (
        "classic_northcott",
        "classic_northcott(\"W..B/B.W\"): Northcott's game in which pieces may also retreat (loopy)",
    ),
    ("outcome", "outcome(G): P, N, or D (a draw, in a loopy game)"),
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
];

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
        "wythoff" | "moores_nim" | "staircase_nim" | "poker_nim" | "welter" | "moores_rule"
        | "welter_function" => {
            let counts = (0..args.len()).map(count).collect::<Result<Vec<_>, _>>()?;
            classic(name, &counts, span)
        }
        "kayles" | "dawsons_kayles" | "grundys_game" | "twins" | "turning_turtles" | "ruler"
        | "mock_turtles" => {
            arity(name, args, 1, span)?;
            let n = count(0)?;
            Ok(Value::Game(match name {
                "kayles" => Game::kayles(n),
                "dawsons_kayles" => Game::dawsons_kayles(n),
                "twins" => Game::twins(n),
                "turning_turtles" => Game::turning_turtles(n),
                "ruler" => Game::ruler(n),
                "mock_turtles" => Game::mock_turtles(n),
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
        "loopy" => {
            arity(name, args, 2, span)?;
            let s = str_arg(&args[0], &at(0), "\"1>0 1-2\"")?;
            let v = count(1)?;
            Game::loopy(s, v)
                .map(Value::Game)
                .map_err(|e| game_error(&at(0), e))
        }
        "cram_cells" | "misere_cram_cells" | "green_hackenbush" | "northcott"
        | "classic_northcott" => {
            arity(name, args, 1, span)?;
            let s = str_arg(&args[0], &at(0), "\"##./###\"")?;
            let r = match name {
                "cram_cells" => Game::cram_cells(s),
                "misere_cram_cells" => Game::misere_cram_cells(s),
                "green_hackenbush" => Game::green_hackenbush(s),
                "classic_northcott" => Game::classic_northcott(s),
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
        _ => Err(ClaimError::new(
            span.clone(),
            format!("unknown function `{name}`"),
        )),
    }
}

/// The games of Part III given by a list of numbers, and the two rules checked against them.
fn classic(name: &str, counts: &[u64], span: &Span) -> Result<Value, ClaimError> {
    let at_least = |n: usize, example: &str| {
        if counts.len() < n {
            Err(ClaimError::new(
                span.clone(),
                format!("`{name}` takes at least {n} argument(s), such as {example}"),
            ))
        } else {
            Ok(())
        }
    };
    let err = |e: GameError| game_error(span, e);
    let g = |r: Result<Game, GameError>| r.map(Value::Game).map_err(err);
    match name {
        "wythoff" => match counts {
            [a, b] => Ok(Value::Game(Game::wythoff(*a, *b))),
            _ => Err(ClaimError::new(
                span.clone(),
                format!(
                    "`wythoff` takes 2 arguments, but {} were given",
                    counts.len()
                ),
            )),
        },
        "moores_nim" => {
            at_least(1, "moores_nim(2, 1, 2, 3)")?;
            g(Game::moores_nim(counts[0], counts[1..].to_vec()))
        }
        "staircase_nim" => g(Game::staircase_nim(counts.to_vec())),
        "poker_nim" => {
            at_least(2, "poker_nim(2, 5, 1, 4, 5)")?;
            g(Game::poker_nim(counts[0], counts[1], counts[2..].to_vec()))
        }
        "welter" => g(Game::welter(counts.to_vec())),
        "moores_rule" => {
            at_least(1, "moores_rule(2, 1, 2, 3)")?;
            if counts[0] == 0 {
                return Err(ClaimError::new(span.clone(), "k must be at least 1"));
            }
            Ok(Value::Outcome(class(game::moores_rule(
                counts[0],
                &counts[1..],
            ))))
        }
        _ => game::welter_function(counts).map(count_value).map_err(err),
    }
}

/// The outcome class of a game as a value.
pub(crate) fn outcome(game: &Game, budget: &game::Budget) -> Result<Value, GameError> {
    game.outcome(budget).map(|o| Value::Outcome(class(o)))
}

/// The claim language's name for an outcome.
fn class(o: Outcome) -> OutcomeClass {
    match o {
        Outcome::P => OutcomeClass::P,
        Outcome::N => OutcomeClass::N,
        Outcome::D => OutcomeClass::D,
    }
}
