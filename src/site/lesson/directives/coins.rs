//! `draw(G)` for coin-turning positions: a row of coins (Twins, Turning Turtles, Ruler) or a
//! Turning Corners grid. Heads coins are filled and marked "H", tails coins are hollow, so the
//! picture does not depend on colour; the value in the caption comes from the game engine.
//!
//! A position may be written with a coin more than once (`twins(2) + twins(2)`, as a winning
//! move can leave it); two copies of a coin are one coin turned twice, so the drawing shows the
//! coins that occur an odd number of times.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::claim::Directive;
use crate::diag::Diagnostic;
use crate::game::{CoinRule, Game};
use crate::site::lesson::context::DirectiveEnv;

use super::args::{game_error, unplaced};
use super::svg::{figure, fmt_num, svg_open};

/// The most coins in a drawn row.
pub(super) const MAX_COIN_ROW: u64 = 40;
/// The most rows, and the most columns, of a drawn Turning Corners grid.
pub(super) const MAX_COIN_GRID: u64 = 16;

/// A coin-turning position ready to draw: its rule and the places of its heads coins.
pub(super) struct CoinPosition {
    rule: CoinRule,
    heads: BTreeSet<(u64, u64)>,
}

/// The coins of `game` if it is a coin of one rule or a sum of such coins, else `None`.
pub(super) fn coin_position(game: &Game) -> Option<CoinPosition> {
    fn walk(g: &Game, rule: &mut Option<CoinRule>, heads: &mut BTreeSet<(u64, u64)>) -> bool {
        match g {
            Game::Coin(c) => {
                if rule.is_some_and(|r| r != c.rule) {
                    return false;
                }
                *rule = Some(c.rule);
                if !heads.remove(&(c.x, c.y)) {
                    heads.insert((c.x, c.y));
                }
                true
            }
            Game::Sum(parts) => parts.iter().all(|p| walk(p, rule, heads)),
            _ => false,
        }
    }
    let mut rule = None;
    let mut heads = BTreeSet::new();
    if walk(game, &mut rule, &mut heads) {
        rule.map(|rule| CoinPosition { rule, heads })
    } else {
        None
    }
}

fn title(rule: CoinRule) -> &'static str {
    match rule {
        CoinRule::Twins => "Twins",
        CoinRule::TurningTurtles => "Turning Turtles",
        CoinRule::Ruler => "The Ruler game",
        CoinRule::MockTurtles => "Mock Turtles",
        CoinRule::TurningCorners => "Turning Corners",
    }
}

/// `draw(G)` for a coin-turning position.
pub(super) fn draw_coins(
    env: &DirectiveEnv<'_>,
    d: &Directive,
    game: &Game,
    pos: &CoinPosition,
) -> Result<crate::site::lesson::blocks::Block, Diagnostic> {
    let arg_span = &d.args[0].1;
    let svg = if pos.rule.is_grid() {
        grid_svg(pos).map_err(|e| e.at(env.file(), arg_span.clone()))?
    } else {
        row_svg(pos).map_err(|e| e.at(env.file(), arg_span.clone()))?
    };
    let v = game
        .grundy(&env.limits().game)
        .map_err(|e| game_error(env, &d.span, e))?;
    let places: Vec<String> = pos
        .heads
        .iter()
        .map(|&(x, y)| {
            if pos.rule.is_grid() {
                format!("({x}, {y})")
            } else {
                x.to_string()
            }
        })
        .collect();
    let heads = if places.is_empty() {
        "no heads coins".to_string()
    } else if pos.rule.is_grid() {
        format!("heads at {}", places.join(", "))
    } else {
        format!("heads at places {} (counted from 0)", places.join(", "))
    };
    let outcome = if v == 0 {
        "a P-position: the player to move loses."
    } else {
        "an N-position: the player to move wins."
    };
    let caption = format!(
        "{}: {heads}; value {v}, the nim-sum of the coins' values (computed by the engine), so {outcome}",
        title(pos.rule)
    );
    Ok(figure(
        svg,
        vec![crate::site::lesson::blocks::Run::Prose(caption)],
    ))
}

const STEP: f64 = 30.0;
const RADIUS: f64 = 11.0;

fn coin(svg: &mut String, cx: f64, cy: f64, heads: bool) {
    let _ = write!(
        svg,
        "<circle class=\"coin {}\" cx=\"{}\" cy=\"{}\" r=\"{RADIUS}\"/>",
        if heads { "heads" } else { "tails" },
        fmt_num(cx),
        fmt_num(cy)
    );
    if heads {
        let _ = write!(
            svg,
            "<text class=\"coin-mark\" x=\"{}\" y=\"{}\">H</text>",
            fmt_num(cx),
            fmt_num(cy + 4.0)
        );
    }
}

fn index(svg: &mut String, x: f64, y: f64, i: u64) {
    let _ = write!(
        svg,
        "<text class=\"coin-index\" x=\"{}\" y=\"{}\">{i}</text>",
        fmt_num(x),
        fmt_num(y)
    );
}

/// How many coins along one axis (`axis` picks a head's coordinate) reach the last head.
fn extent(pos: &CoinPosition, axis: impl Fn(&(u64, u64)) -> u64) -> u64 {
    pos.heads.iter().map(|h| axis(h) + 1).max().unwrap_or(0)
}

fn row_svg(pos: &CoinPosition) -> Result<String, Diagnostic> {
    let n = extent(pos, |&(x, _)| x).max(1);
    if n > MAX_COIN_ROW {
        return Err(unplaced(format!(
            "a row of at most {MAX_COIN_ROW} coins can be drawn; this one needs {n}"
        )));
    }
    let (w, h) = (n as f64 * STEP + 8.0, 56.0);
    let label = format!("A row of {n} coins with {} heads", pos.heads.len());
    let mut svg = svg_open("coins", w, h, &label);
    for i in 0..n {
        let cx = 4.0 + STEP * (i as f64 + 0.5);
        coin(&mut svg, cx, 20.0, pos.heads.contains(&(i, 0)));
        index(&mut svg, cx, 50.0, i);
    }
    svg.push_str("</svg>");
    Ok(svg)
}

fn grid_svg(pos: &CoinPosition) -> Result<String, Diagnostic> {
    let rows = extent(pos, |&(x, _)| x).max(2);
    let cols = extent(pos, |&(_, y)| y).max(2);
    if rows > MAX_COIN_GRID || cols > MAX_COIN_GRID {
        return Err(unplaced(format!(
            "a grid of at most {MAX_COIN_GRID} × {MAX_COIN_GRID} coins can be drawn; this one needs {rows} × {cols}"
        )));
    }
    let margin = 22.0;
    let (w, h) = (
        margin + cols as f64 * STEP + 4.0,
        margin + rows as f64 * STEP + 4.0,
    );
    let label = format!(
        "A grid of {rows} rows and {cols} columns of coins with {} heads",
        pos.heads.len()
    );
    let mut svg = svg_open("coins", w, h, &label);
    for y in 0..cols {
        index(&mut svg, margin + STEP * (y as f64 + 0.5), 14.0, y);
    }
    for x in 0..rows {
        let cy = margin + STEP * (x as f64 + 0.5);
        index(&mut svg, 10.0, cy + 4.0, x);
        for y in 0..cols {
            let cx = margin + STEP * (y as f64 + 0.5);
            coin(&mut svg, cx, cy, pos.heads.contains(&(x, y)));
        }
    }
    svg.push_str("</svg>");
    Ok(svg)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn repeated_coins_cancel_and_mixed_rules_are_not_a_coin_position() {
        let g = Game::Sum(vec![Game::twins(2), Game::twins(5), Game::twins(2)]);
        let p = coin_position(&g).unwrap();
        assert_eq!(p.heads.into_iter().collect::<Vec<_>>(), vec![(5, 0)]);
        let mixed = Game::Sum(vec![Game::twins(2), Game::ruler(5)]);
        assert!(coin_position(&mixed).is_none());
        assert!(coin_position(&Game::nim(vec![3])).is_none());
    }

    #[test]
    fn drawings_are_bounded() {
        let far = coin_position(&Game::ruler(MAX_COIN_ROW)).unwrap();
        assert!(row_svg(&far).unwrap_err().message.contains("at most"));
        let big = coin_position(&Game::turning_corners(MAX_COIN_GRID, 1)).unwrap();
        assert!(grid_svg(&big).unwrap_err().message.contains("at most"));
        let ok = coin_position(&Game::turning_corners(3, 3)).unwrap();
        let svg = grid_svg(&ok).unwrap();
        assert_eq!(svg.matches("<circle").count(), 16);
        assert_eq!(svg.matches("coin heads").count(), 1);
    }
}
