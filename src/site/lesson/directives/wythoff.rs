//! Wythoff's game drawn: the board from the corner `(0, 0)` to the queen's square, the queen on
//! it, and for `draw(wythoff(a, b))` the losing squares (the P-positions) shaded from the
//! engine's table of values, so a reader sees the pairs `(⌊kφ⌋, ⌊kφ²⌋)` line up on the board.
//! The play widget shows the same board without the shading (it would give the game away)
//! until its script takes over.
//!
//! Squares are `(column, row)`: the queen of `wythoff(a, b)` stands in column `a` and row `b`,
//! the corner bottom left, as the lesson describes the board.

use std::fmt::Write as _;

use crate::claim::Directive;
use crate::diag::Diagnostic;
use crate::game::{self, Budget};
use crate::site::lesson::context::DirectiveEnv;

use super::args::{game_error, unplaced};
use super::svg::{figure, fmt_num, labelled, svg_open};

/// The largest column or row of a drawn Wythoff board.
pub(super) const MAX_DRAW_SQUARE: u64 = 30;

/// The side of one square, in SVG units.
const CELL: f64 = 22.0;
/// Room for the row numbers on the left and the column numbers below.
const MARGIN: f64 = 20.0;

/// The board `0 … a` × `0 … b` with the queen at `(a, b)`. With `values` (the engine's table,
/// `values[column][row]`) the squares of value 0 are shaded.
pub(super) fn board_svg(
    a: u64,
    b: u64,
    values: Option<&[Vec<u64>]>,
    value: Option<&str>,
) -> Result<String, Diagnostic> {
    if a > MAX_DRAW_SQUARE || b > MAX_DRAW_SQUARE {
        return Err(unplaced(format!(
            "a Wythoff board is drawn up to column and row {MAX_DRAW_SQUARE}; the queen is at ({a}, {b})"
        )));
    }
    let (cols, rows) = (a + 1, b + 1);
    let w = MARGIN + cols as f64 * CELL + 4.0;
    let h = rows as f64 * CELL + MARGIN + 4.0;
    let mut svg = svg_open(
        "wythoff",
        w,
        h,
        &labelled(
            format!("A Wythoff board of {cols} columns and {rows} rows, the queen at column {a}, row {b}"),
            value,
        ),
    );
    // Row r is drawn from the bottom: row 0 lowest, as on the lesson's board.
    let left = |c: u64| MARGIN + c as f64 * CELL;
    let top = |r: u64| 2.0 + (b - r) as f64 * CELL;
    for c in 0..cols {
        for r in 0..rows {
            let losing = values
                .and_then(|t| t.get(c as usize))
                .and_then(|col| col.get(r as usize))
                == Some(&0);
            let _ = write!(
                svg,
                "<rect class=\"square{}\" x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\"/>",
                if losing { " p" } else { "" },
                fmt_num(left(c)),
                fmt_num(top(r)),
            );
        }
    }
    for c in 0..cols {
        let _ = write!(
            svg,
            "<text class=\"axis\" x=\"{}\" y=\"{}\">{c}</text>",
            fmt_num(left(c) + CELL / 2.0),
            fmt_num(top(0) + CELL + 14.0)
        );
    }
    for r in 0..rows {
        let _ = write!(
            svg,
            "<text class=\"axis\" x=\"{}\" y=\"{}\">{r}</text>",
            fmt_num(MARGIN / 2.0),
            fmt_num(top(r) + CELL / 2.0 + 4.0)
        );
    }
    svg.push_str(&queen(left(a) + CELL / 2.0, top(b) + CELL / 2.0));
    svg.push_str("</svg>");
    Ok(svg)
}

/// A queen's crown centred at `(x, y)`, drawn as a path so it needs no font.
fn queen(x: f64, y: f64) -> String {
    let p = |dx: f64, dy: f64| format!("{} {}", fmt_num(x + dx), fmt_num(y + dy));
    format!(
        "<path class=\"queen\" d=\"M{}L{}L{}L{}L{}L{}L{}Z\"/><rect class=\"queen\" x=\"{}\" y=\"{}\" width=\"14\" height=\"3\"/>",
        p(-7.0, 4.0),
        p(-8.5, -5.0),
        p(-3.5, -0.5),
        p(0.0, -8.0),
        p(3.5, -0.5),
        p(8.5, -5.0),
        p(7.0, 4.0),
        fmt_num(x - 7.0),
        fmt_num(y + 5.0),
    )
}

/// `draw(wythoff(a, b))`: the board with the losing squares shaded and the queen's value.
pub(super) fn draw_wythoff(
    env: &DirectiveEnv<'_>,
    d: &Directive,
    (a, b): (u64, u64),
    budget: &Budget,
) -> Result<crate::site::lesson::blocks::Block, Diagnostic> {
    let at = &d.args[0].1;
    if a > MAX_DRAW_SQUARE || b > MAX_DRAW_SQUARE {
        return Err(super::args::error(
            env,
            at,
            format!("draw() draws a Wythoff board up to column and row {MAX_DRAW_SQUARE}, not the queen at ({a}, {b})"),
        )
        .help("grundy_table(\"wythoff\", rows, cols) tabulates a larger corner of the board"));
    }
    let values = game::wythoff_table(a, b, budget).map_err(|e| game_error(env, &d.span, e))?;
    // The table ends at the queen's square: her value is its last cell.
    let v = values[a as usize][b as usize];
    let losing = values.iter().flatten().filter(|&&x| x == 0).count();
    let svg = board_svg(a, b, Some(&values), Some(&v.to_string()))
        .map_err(|e| e.at(env.file(), at.clone()))?;
    let caption = format!(
        "Wythoff's game with the queen at ({a}, {b}), column {a} and row {b}: value {v} (computed by the engine), so {} \
         The queen moves left, down or diagonally down-left; the {losing} shaded square{} of this board {} the losing squares, \
         from which every move leads to a winning one.",
        if v == 0 {
            "a P-position: the player to move loses."
        } else {
            "an N-position: the player to move wins."
        },
        if losing == 1 { "" } else { "s" },
        if losing == 1 { "is" } else { "are" },
    );
    Ok(figure(
        svg,
        vec![crate::site::lesson::blocks::Run::Prose(caption)],
    ))
}
