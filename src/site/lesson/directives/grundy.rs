//! Grundy tables of heap games and Cram boards, and octal sequences laid out by their period.
//! Every value comes from the game engine when the site is built, within the lesson's budget.

use std::time::Instant;

use crate::claim::builtins::Arity;
use crate::claim::{Directive, Value};
use crate::diag::{Diagnostic, Span};
use crate::game::{self, Budget, Game, OctalCode};
use crate::site::lesson::blocks::{Block, Caption, Cell, CellClass, Run};
use crate::site::lesson::context::DirectiveEnv;

use super::args::{arity, error, game_error, side, str_arg};
use super::table::Table;

/// The widest period laid out one period per row by `sequence_table`.
pub(super) const MAX_ROW_PERIOD: u64 = 40;

/// A table row: its label and its `(class, text)` cells.
type Row = (String, Vec<(Option<CellClass>, String)>);

/// A row of Grundy values labelled `label`, each value 0 (a P-position) shaded.
fn shaded_row(label: String, values: &[u64]) -> Row {
    let cells = values
        .iter()
        .map(|v| ((*v == 0).then_some(CellClass::P), v.to_string()))
        .collect();
    (label, cells)
}

/// A table of values under column labels, in labelled rows of `(class, text)` cells, with a
/// caption under it.
fn grid_table(
    kind: &'static str,
    caption: Vec<Run>,
    corner: &str,
    cols: &[String],
    rows: &[Row],
) -> Block {
    Table {
        kind: Some(kind),
        caption: Caption::Below(caption),
        corner: corner.to_string(),
    }
    .build(
        rows.len(),
        cols.len(),
        |j| Cell::text(None, cols[j].clone()),
        |i| (None, vec![Run::Text(rows[i].0.clone())]),
        |i, j| {
            let (class, text) = rows[i].1.get(j)?;
            Some(Cell::text(*class, text.clone()))
        },
    )
}

/// Values laid out `width` to a row, with a class per heap size.
fn rows_of(
    values: &[u64],
    width: u64,
    class: impl Fn(u64) -> Option<CellClass>,
) -> (Vec<String>, Vec<Row>) {
    let cols = (0..width).map(|j| format!("+{j}")).collect();
    let mut rows = Vec::new();
    for (r, chunk) in values.chunks(width.max(1) as usize).enumerate() {
        let base = r as u64 * width;
        let cells = chunk
            .iter()
            .enumerate()
            .map(|(j, v)| (class(base + j as u64), v.to_string()))
            .collect();
        rows.push((base.to_string(), cells));
    }
    (cols, rows)
}

/// The Grundy values of heaps `0 … n−1` of a named heap game or an octal or hexadecimal code,
/// with the game's name for a caption.
pub(super) fn heap_values(
    env: &DirectiveEnv<'_>,
    name: &str,
    at: &Span,
    n: u64,
    budget: &Budget,
) -> Result<(String, Vec<u64>), Diagnostic> {
    let values = game::named_heap_sequence(name, n, budget)
        .ok_or_else(|| {
            error(env, at, format!("unknown game `{name}` for a Grundy table"))
                .help("use \"cram\", \"kayles\", \"dawsons_kayles\", \"grundys_game\" or an octal code such as \"0.137\"")
        })?
        .map_err(|e| game_error(env, at, e))?;
    Ok((heap_game_title(name), values))
}

/// The caption's name of a heap game that [`game::named_heap_sequence`] knows.
fn heap_game_title(name: &str) -> String {
    match name {
        "kayles" => "Kayles".to_string(),
        "dawsons_kayles" => "Dawson's Kayles".to_string(),
        "grundys_game" => "Grundy's game".to_string(),
        code => code
            .parse::<OctalCode>()
            .map(|octal| format!("the octal game {octal}"))
            .or_else(|_| {
                code.parse::<game::HexCode>()
                    .map(|hex| format!("the hexadecimal game {hex}"))
            })
            .unwrap_or_else(|_| format!("the game {code}")),
    }
}

/// `grundy_table("cram", rows, cols)` and `grundy_table(game, n)`.
pub(super) fn grundy_table(env: &DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let first = &d.args[0];
    let name = str_arg(env, first, "\"cram\" or \"kayles\"")?;
    let budget = env.limits().game;
    if name == "cram" {
        arity(env, d, Arity::Exactly(3))?;
        let rows = side(env, &d.args[1])?;
        let cols = side(env, &d.args[2])?;
        if rows.saturating_mul(cols) > 64 {
            return Err(error(
                env,
                &d.span,
                format!(
                    "a Cram board has at most 64 cells, so a table up to {rows} × {cols} cannot be computed"
                ),
            )
            .help("ask for at most 64 cells in the largest board, e.g. grundy_table(\"cram\", 8, 8)"));
        }
        let start = Instant::now();
        let mut vals = vec![vec![0u64; cols as usize]; rows as usize];
        for m in 1..=rows {
            for n in 1..=cols {
                let (i, j) = ((m - 1) as usize, (n - 1) as usize);
                // An n × m board is an m × n board turned a quarter: compute it once.
                if n < m && m <= cols {
                    vals[i][j] = vals[j][i];
                    continue;
                }
                let b = Budget {
                    max_time: budget.max_time.saturating_sub(start.elapsed()),
                    ..budget
                };
                let g = Game::cram(m, n).and_then(|g| g.grundy(&b)).map_err(|e| {
                    game_error(env, &d.span, e)
                        .note(format!("while computing the value of cram({m}, {n})"))
                })?;
                vals[i][j] = g;
            }
        }
        let col_labels: Vec<String> = (1..=cols).map(|n| n.to_string()).collect();
        let body: Vec<_> = vals
            .iter()
            .enumerate()
            .map(|(i, row)| shaded_row((i + 1).to_string(), row))
            .collect();
        let caption = format!(
            "Grundy values of Cram on an empty m × n board (rows m = 1 … {rows}, columns n = 1 … {cols}), computed by nimbook's engine; value 0 (shaded) is a P-position, a win for the second player."
        );
        return Ok(grid_table(
            "grundy",
            vec![Run::Prose(caption)],
            "m \\ n",
            &col_labels,
            &body,
        ));
    }
    if name == "wythoff" {
        return wythoff_grid(env, d, &budget);
    }
    arity(env, d, Arity::Exactly(2))?;
    let n = side(env, &d.args[1])?;
    let (title, values) = heap_values(env, name, &first.1, n, &budget)?;
    let (cols, body) = rows_of(&values, 10, |k| {
        (values.get(k as usize) == Some(&0)).then_some(CellClass::P)
    });
    let caption = vec![
        Run::Prose("Grundy values of ".into()),
        Run::Text(title),
        Run::Prose(format!(
            " for heaps 0 … {}, ten to a row (the heap is the row label plus the column label), computed by nimbook's engine; value 0 (shaded) is a P-position.",
            n - 1
        )),
    ];
    Ok(grid_table("grundy", caption, "n", &cols, &body))
}

/// `grundy_table("wythoff", columns, rows)`: the queen's values on the squares `(a, b)` with
/// `a < columns` and `b < rows`, laid out as `draw` and `play` lay out the board: `a` the
/// column from the left, `b` the row from the bottom.
fn wythoff_grid(
    env: &DirectiveEnv<'_>,
    d: &Directive,
    budget: &Budget,
) -> Result<Block, Diagnostic> {
    arity(env, d, Arity::Exactly(3))?;
    let cols = side(env, &d.args[1])?;
    let rows = side(env, &d.args[2])?;
    // `by_a[a][b]` is the value of `(a, b)`.
    let by_a = game::wythoff_table(cols.saturating_sub(1), rows.saturating_sub(1), budget)
        .map_err(|e| game_error(env, &d.span, e))?;
    let col_labels: Vec<String> = (0..cols).map(|a| a.to_string()).collect();
    let body: Vec<Row> = (0..rows as usize)
        .rev()
        .map(|b| {
            let row: Vec<u64> = by_a.iter().filter_map(|col| col.get(b).copied()).collect();
            shaded_row(b.to_string(), &row)
        })
        .collect();
    let caption = format!(
        "Grundy values of Wythoff's game with the queen on square (a, b): a is the column, counted from 0 at the left, b the row, counted up from 0 at the bottom (a = 0 … {}, b = 0 … {}), as on the board; computed by nimbook's engine; value 0 (shaded) is a P-position.",
        cols.saturating_sub(1),
        rows.saturating_sub(1)
    );
    Ok(grid_table(
        "grundy",
        vec![Run::Prose(caption)],
        "b \\ a",
        &col_labels,
        &body,
    ))
}

/// `sequence_table("0.77", n)`.
pub(super) fn sequence_table(env: &DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let text = str_arg(env, &d.args[0], "\"0.77\"")?;
    let code: OctalCode = text.parse().map_err(|e| game_error(env, &d.args[0].1, e))?;
    let budget = env.limits().game;
    let p = game::period(&code, &budget).map_err(|e| game_error(env, &d.span, e))?;
    let width = if p.period <= MAX_ROW_PERIOD {
        p.period.max(1)
    } else {
        10
    };
    let max = env.limits().max_table;
    let max_n = max.saturating_mul(width);
    let n = match &d.args[1].0 {
        Value::Num(x) => match x.to_u64() {
            Some(v) if (1..=max_n).contains(&v) => v,
            _ => {
                return Err(error(
                    env,
                    &d.args[1].1,
                    format!(
                        "a sequence table holds 1 to {max_n} values ({max} rows of {width}, [nimbook] max-table), not {x}"
                    ),
                ))
            }
        },
        other => {
            return Err(error(
                env,
                &d.args[1].1,
                format!("expected a number, found `{other}`"),
            ))
        }
    };
    let seq =
        game::octal_sequence(&code, n - 1, &budget).map_err(|e| game_error(env, &d.span, e))?;
    let values: Vec<u64> = seq.into_iter().take(n as usize).collect();
    let (cols, body) = rows_of(&values, width, |k| {
        Some(if k < p.preperiod {
            CellClass::Pre
        } else {
            CellClass::Periodic
        })
    });
    let layout = if p.period <= MAX_ROW_PERIOD {
        format!("one period ({}) to a row", p.period)
    } else {
        format!(
            "ten to a row, since the period {} is longer than {MAX_ROW_PERIOD}",
            p.period
        )
    };
    let mut tail = format!(" cells repeat with period {}.", p.period);
    if n <= p.preperiod {
        tail.push_str(" This table ends before the periodic part begins.");
    }
    let caption = vec![
        Run::Prose(format!(
            "Grundy values of the octal game {code} for heaps 0 … {}, {layout}. The engine proved (Guy–Smith criterion) that the sequence has pre-period {} and period {}: ",
            n - 1,
            p.preperiod,
            p.period,
        )),
        Run::Key {
            class: "key pre".into(),
            text: "grey".into(),
        },
        Run::Prose(" cells are the pre-period, ".into()),
        Run::Key {
            class: "key periodic".into(),
            text: "green".into(),
        },
        Run::Prose(tail),
    ];
    Ok(grid_table("sequence", caption, "n", &cols, &body))
}

/// `rare_table(game, mask, n)`: the rare values among heaps `0 … n−1` (an even number of ones
/// in `value AND mask`), one row per value: how many heaps have it, the first and the last.
pub(super) fn rare_table(env: &DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    arity(env, d, Arity::Exactly(3))?;
    let name = str_arg(env, &d.args[0], "\"grundys_game\"")?;
    let count = |i: usize| match &d.args[i].0 {
        Value::Num(x) => x
            .to_u64()
            .ok_or_else(|| error(env, &d.args[i].1, format!("{x} is too large"))),
        other => Err(error(
            env,
            &d.args[i].1,
            format!("expected a number, found `{other}`"),
        )),
    };
    let (mask, n) = (count(1)?, count(2)?);
    let budget = env.limits().game;
    let values = game::named_heap_sequence(name, n, &budget)
        .ok_or_else(|| {
            error(env, &d.args[0].1, format!("unknown heap game `{name}`"))
                .help("use \"grundys_game\", \"kayles\", \"dawsons_kayles\" or an octal code such as \"0.137\"")
        })?
        .map_err(|e| game_error(env, &d.span, e))?;
    // value -> (heaps, first, last)
    let mut by_value: std::collections::BTreeMap<u64, (u64, usize, usize)> = Default::default();
    for (h, &v) in values.iter().enumerate() {
        if (v & mask).count_ones() % 2 == 0 {
            let e = by_value.entry(v).or_insert((0, h, h));
            e.0 += 1;
            e.2 = h;
        }
    }
    let max = env.limits().max_table;
    if by_value.len() as u64 > max {
        return Err(error(
            env,
            &d.span,
            format!(
                "{} rare values are more rows than the budget of {max} ([nimbook] max-table)",
                by_value.len()
            ),
        ));
    }
    let cols = ["heaps".to_string(), "first heap".into(), "last heap".into()];
    let rows: Vec<Row> = by_value
        .iter()
        .map(|(v, (k, first, last))| {
            let cells = vec![
                (None, k.to_string()),
                (None, first.to_string()),
                (None, last.to_string()),
            ];
            (v.to_string(), cells)
        })
        .collect();
    let rare: u64 = by_value.values().map(|e| e.0).sum();
    let largest = values.iter().copied().max().unwrap_or(0);
    let title = if name == "grundys_game" {
        "Grundy's game".to_string()
    } else {
        format!("the game {name}")
    };
    let caption = vec![
        Run::Prose("The rare values of ".into()),
        Run::Text(title),
        Run::Prose(format!(
            " among heaps 0 … {} under the mask {mask} (an even number of ones in value AND {mask}), one row per value: how many heaps have it, the first and the last. {rare} of the {n} heaps are rare, and the largest value of any of them is {largest}. Computed by nimbook's engine.",
            n.saturating_sub(1),
        )),
    ];
    Ok(grid_table("rare", caption, "value", &cols, &rows))
}
