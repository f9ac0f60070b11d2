//! `play(G)`: a small game to play against the computer, in the page, offline.
//!
//! The block is written as a static drawing of the start position inside an element of class
//! `nim-widget`, with the game in `data-` attributes. `widget.js` (a site asset loaded with
//! `defer`) turns it into buttons; without JavaScript the drawing stays. The computer plays the
//! engine's perfect strategy: for Nim the nim-sum, for Kayles the Grundy values of rows of
//! `0 … n` pins, for Wythoff's game the values of every square of the board, computed here by
//! the engine at build time and embedded as JSON, so the script does no game theory of its own
//! beyond the nim-sum of those values (or, for the queen, finding a square of value 0).

use crate::claim::Directive;
use crate::diag::{Diagnostic, Span};
use crate::game::{self, Game, HeapRule, OctalCode};
use crate::site::lesson::context::DirectiveEnv;

use crate::site::lesson::blocks::{Block, Widget, WidgetGame};

use super::args::{error, game_arg, game_error};
use super::draw::{nim_svg, pins_svg};
use super::wythoff::board_svg;

/// The most heaps a playable Nim game may have.
pub(super) const MAX_PLAY_HEAPS: usize = 8;
/// The largest heap of a playable Nim game.
pub(super) const MAX_PLAY_HEAP: u64 = 20;
/// The most pins of a playable Kayles row.
pub(super) const MAX_PLAY_PINS: u64 = 40;
/// The largest column or row of the queen in a playable Wythoff's game: a board of 13 squares
/// a side still has squares of 23 px on a 390 px phone (measured by `tests/browser/wythoff.mjs`).
pub(super) const MAX_PLAY_SQUARE: u64 = 12;

/// `play(nim(3, 5, 7))` and `play(kayles(10))`.
pub(super) fn play(env: &DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let at = &d.args[0].1;
    let game = game_arg(env, &d.args[0])?;
    let budget = env.limits().game;
    match game {
        Game::Nim(heaps) => {
            if heaps.is_empty() || heaps.len() > MAX_PLAY_HEAPS {
                return Err(error(
                    env,
                    at,
                    format!(
                        "play() takes Nim with 1 to {MAX_PLAY_HEAPS} heaps, not {}",
                        heaps.len()
                    ),
                ));
            }
            if let Some(big) = heaps.iter().find(|&&h| h > MAX_PLAY_HEAP) {
                return Err(error(
                    env,
                    at,
                    format!(
                        "play() takes Nim heaps of at most {MAX_PLAY_HEAP} counters, not {big}"
                    ),
                ));
            }
            let svg = nim_svg(heaps, None).map_err(|e| e.at(env.file(), at.clone()))?;
            widget(
                env,
                d,
                game,
                WidgetGame::Nim {
                    heaps: heaps.clone(),
                },
                svg,
                format!(
                    "Nim with heaps {}",
                    heaps
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        }
        Game::Octal { code, n } if *code == OctalCode::kayles() => {
            if *n == 0 || *n > MAX_PLAY_PINS {
                return Err(error(
                    env,
                    at,
                    format!("play() takes Kayles on 1 to {MAX_PLAY_PINS} pins, not {n}"),
                ));
            }
            let grundy =
                game::octal_sequence(code, *n, &budget).map_err(|e| game_error(env, &d.span, e))?;
            let svg = pins_svg(*n, None).map_err(|e| e.at(env.file(), at.clone()))?;
            widget(
                env,
                d,
                game,
                WidgetGame::Kayles { pins: *n, grundy },
                svg,
                format!("Kayles on a row of {n} pins"),
            )
        }
        Game::Heaps(h) if h.rule() == HeapRule::Wythoff => match h.heaps() {
            &[a, b] => play_wythoff(env, d, game, (a, b)),
            _ => Err(unplayable(env, at, game)),
        },
        other => Err(unplayable(env, at, other)),
    }
}

fn unplayable(env: &DirectiveEnv<'_>, at: &Span, game: &Game) -> Diagnostic {
    error(env, at, format!("play() cannot play `{game}`")).help(
        "play() takes Nim, such as nim(3, 5, 7), Kayles, such as kayles(10), or Wythoff's game, such as wythoff(9, 12)",
    )
}

/// `play(wythoff(a, b))`: the queen starts at column `a`, row `b` of a board that keeps that
/// size. The engine's values of every square go with it (`data-grundy`, a list of columns), so
/// the computer and the hint move to a square of value 0 when there is one.
fn play_wythoff(
    env: &DirectiveEnv<'_>,
    d: &Directive,
    game: &Game,
    (a, b): (u64, u64),
) -> Result<Block, Diagnostic> {
    let at = &d.args[0].1;
    if a > MAX_PLAY_SQUARE || b > MAX_PLAY_SQUARE || a + b == 0 {
        return Err(error(
            env,
            at,
            format!(
                "play() takes Wythoff's queen in columns and rows up to {MAX_PLAY_SQUARE}, not in the corner; this queen is at ({a}, {b})"
            ),
        )
        .help(format!(
            "a board of more than {} squares a side does not fit a phone's screen",
            MAX_PLAY_SQUARE + 1
        )));
    }
    let budget = env.limits().game;
    let values = game::wythoff_table(a, b, &budget).map_err(|e| game_error(env, &d.span, e))?;
    let svg = board_svg(a, b, None, None).map_err(|e| e.at(env.file(), at.clone()))?;
    widget(
        env,
        d,
        game,
        WidgetGame::Wythoff {
            queen: (a, b),
            grundy: values,
        },
        svg,
        format!("Wythoff's game, the queen at column {a}, row {b},"),
    )
}

/// The widget of `game`: what the page's script plays, and the static form that stands for it
/// without a script (the start position drawn, its value and its winning moves, all from the
/// engine).
fn widget(
    env: &DirectiveEnv<'_>,
    d: &Directive,
    game: &Game,
    data: WidgetGame,
    svg: String,
    title: String,
) -> Result<Block, Diagnostic> {
    let budget = env.limits().game;
    let err = |e| game_error(env, &d.span, e);
    let value = game.grundy(&budget).map_err(err)?;
    let mut winning = Vec::new();
    for m in game.moves_from().map_err(err)? {
        if m.grundy(&budget).map_err(err)? == 0 {
            winning.push(m.to_string());
        }
    }
    let winning_count = winning.len();
    winning.truncate(Widget::MAX_MOVES);
    Ok(Block::Widget(Widget {
        game: data,
        title,
        svg,
        position: game.to_string(),
        value,
        winning,
        winning_count,
    }))
}
