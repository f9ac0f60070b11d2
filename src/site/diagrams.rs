//! Diagrams and game tables drawn at build time: Grundy tables, octal sequences laid out by their
//! period, and inline SVG pictures of Cram boards, Green Hackenbush graphs, Nim heaps, Northcott
//! rows, Kayles pins and game graphs.
//!
//! Every number on a diagram comes from the game engine when the site is built, within the
//! lesson's budget; a budget that runs out is a located error that names it. Every drawing is
//! bounded (board sizes, heap sizes, edges, positions), so a page cannot ask for an SVG of
//! unbounded size. Colours are never written into the SVG: shapes carry classes, and
//! `style.css` colours them with the theme's CSS variables, so light and dark themes both work.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::time::Instant;

use crate::claim::{Directive, LessonChecker, Value};
use crate::diag::{Code, Diagnostic, Span};
use crate::game::{self, Board, Budget, Game, GameError, Graph, NorthcottRow, OctalCode};

use super::blocks::{arity, error, side};
use super::mathml::escape;

/// The most positions `game_graph` draws.
pub const MAX_GRAPH_POSITIONS: usize = 60;
/// The most edges `draw` draws for a Green Hackenbush graph.
pub const MAX_HACKENBUSH_EDGES: usize = 80;
/// The most heaps `draw` draws for Nim.
pub const MAX_NIM_HEAPS: usize = 16;
/// The most counters in one drawn Nim heap.
pub const MAX_NIM_HEAP: u64 = 30;
/// The most rows of a drawn Northcott board.
pub const MAX_NORTHCOTT_ROWS: usize = 16;
/// The most squares in one drawn Northcott row.
pub const MAX_NORTHCOTT_WIDTH: u64 = 40;
/// The most pins in a drawn Kayles row.
pub const MAX_PINS: u64 = 60;
/// The widest period laid out one period per row by `sequence_table`.
pub const MAX_ROW_PERIOD: u64 = 40;

/// Turns an engine error into a diagnostic at `span`; a budget error says how to raise it.
pub(super) fn game_error(checker: &LessonChecker, span: &Span, e: GameError) -> Diagnostic {
    let budget = matches!(e, GameError::BudgetExceeded { .. });
    let d = error(checker, span, e.to_string());
    if budget {
        let d = Diagnostic {
            code: Code::BudgetExceeded,
            ..d
        };
        d.help("the budget is set by `max-positions` and `max-seconds` under [nimbook] in book.toml; raise it or ask for a smaller game")
    } else {
        d
    }
}

/// The game argument at `arg`.
pub(super) fn game_arg<'a>(
    checker: &LessonChecker,
    arg: &'a (Value, Span),
) -> Result<&'a Game, Diagnostic> {
    match &arg.0 {
        Value::Game(g) => Ok(g),
        other => Err(error(
            checker,
            &arg.1,
            format!("expected a game such as nim(3, 4, 5), found `{other}`"),
        )),
    }
}

fn str_arg<'a>(
    checker: &LessonChecker,
    arg: &'a (Value, Span),
    example: &str,
) -> Result<&'a str, Diagnostic> {
    match &arg.0 {
        Value::Str(s) => Ok(s),
        other => Err(error(
            checker,
            &arg.1,
            format!("expected a string such as {example}, found `{other}`"),
        )),
    }
}

fn fmt_num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Opens an inline SVG of the given size, labelled for screen readers.
pub(super) fn svg_open(kind: &str, w: f64, h: f64, label: &str) -> String {
    let (w, h) = (fmt_num(w), fmt_num(h));
    let label = escape(label);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"nim-svg {kind}\" role=\"img\" aria-label=\"{label}\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\"><title>{label}</title>"
    )
}

fn figure(svg: &str, caption: &str) -> String {
    format!("<figure class=\"nim-figure\">{svg}<figcaption>{caption}</figcaption></figure>\n")
}

fn join<T: ToString>(items: &[T], sep: &str) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

// ---------------------------------------------------------------------------------------------
// Tables

/// A table row: its label and its `(class, text)` cells.
type Row = (String, Vec<(&'static str, String)>);

/// A table with column labels and labelled rows of `(class, text)` cells.
fn grid_table(class: &str, caption: &str, corner: &str, cols: &[String], rows: &[Row]) -> String {
    // The caption is a figcaption under the table rather than a <caption>: a table's caption
    // is as narrow as the table, and these tables can be a few columns wide.
    let mut h = format!(
        "<figure class=\"nim-figure nim-table-figure\"><div class=\"nim-table-wrap\"><table class=\"nim-table {class}\"><thead><tr><th class=\"corner\">{}</th>",
        escape(corner)
    );
    for c in cols {
        let _ = write!(h, "<th>{}</th>", escape(c));
    }
    h.push_str("</tr></thead><tbody>");
    for (label, cells) in rows {
        let _ = write!(h, "<tr><th>{}</th>", escape(label));
        for (cls, text) in cells {
            if cls.is_empty() {
                let _ = write!(h, "<td>{}</td>", escape(text));
            } else {
                let _ = write!(h, "<td class=\"{cls}\">{}</td>", escape(text));
            }
        }
        h.push_str("</tr>");
    }
    let _ = writeln!(
        h,
        "</tbody></table></div><figcaption>{caption}</figcaption></figure>"
    );
    h
}

/// Values laid out `width` to a row, with a class per heap size.
fn rows_of(
    values: &[u64],
    width: u64,
    class: impl Fn(u64) -> &'static str,
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

/// The Grundy values of heaps `0 … n−1` of a named heap game or an octal code.
fn heap_values(
    checker: &LessonChecker,
    name: &str,
    at: &Span,
    n: u64,
    budget: &Budget,
) -> Result<(String, Vec<u64>), Diagnostic> {
    let code = match name {
        "kayles" => OctalCode::kayles(),
        "dawsons_kayles" => OctalCode::dawsons_kayles(),
        "grundys_game" => {
            let start = Instant::now();
            let mut out = Vec::with_capacity(n as usize);
            for k in 0..n {
                let b = Budget {
                    max_time: budget.max_time.saturating_sub(start.elapsed()),
                    ..*budget
                };
                let v = Game::grundys_game(k)
                    .grundy(&b)
                    .map_err(|e| game_error(checker, at, e))?;
                out.push(v);
            }
            return Ok(("Grundy's game".into(), out));
        }
        other => {
            if !other.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
                return Err(error(
                    checker,
                    at,
                    format!("unknown game `{other}` for a Grundy table"),
                )
                .help("use \"cram\", \"kayles\", \"dawsons_kayles\", \"grundys_game\" or an octal code such as \"0.137\""));
            }
            other
                .parse::<OctalCode>()
                .map_err(|e| game_error(checker, at, e))?
        }
    };
    let title = match name {
        "kayles" => "Kayles".to_string(),
        "dawsons_kayles" => "Dawson's Kayles".to_string(),
        _ => format!("the octal game {code}"),
    };
    let seq = game::octal_sequence(&code, n.saturating_sub(1), budget)
        .map_err(|e| game_error(checker, at, e))?;
    Ok((title, seq.into_iter().take(n as usize).collect()))
}

/// `grundy_table("cram", rows, cols)` and `grundy_table(game, n)`.
pub(super) fn grundy_table(checker: &LessonChecker, d: &Directive) -> Result<String, Diagnostic> {
    let Some(first) = d.args.first() else {
        return arity(checker, d, 2).map(|_| String::new());
    };
    let name = str_arg(checker, first, "\"cram\" or \"kayles\"")?;
    let budget = checker.limits().game;
    if name == "cram" {
        arity(checker, d, 3)?;
        let rows = side(checker, &d.args[1])?;
        let cols = side(checker, &d.args[2])?;
        if rows.saturating_mul(cols) > 64 {
            return Err(error(
                checker,
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
                    game_error(checker, &d.span, e)
                        .note(format!("while computing the value of cram({m}, {n})"))
                })?;
                vals[i][j] = g;
            }
        }
        let col_labels: Vec<String> = (1..=cols).map(|n| n.to_string()).collect();
        let body: Vec<_> = vals
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let cells = row
                    .iter()
                    .map(|v| (if *v == 0 { "p" } else { "" }, v.to_string()))
                    .collect();
                ((i + 1).to_string(), cells)
            })
            .collect();
        let caption = format!(
            "Grundy values of Cram on an empty m × n board (rows m = 1 … {rows}, columns n = 1 … {cols}), computed by nimbook's engine; value 0 (shaded) is a P-position, a win for the second player."
        );
        return Ok(grid_table("grundy", &caption, "m \\ n", &col_labels, &body));
    }
    arity(checker, d, 2)?;
    let n = side(checker, &d.args[1])?;
    let (title, values) = heap_values(checker, name, &first.1, n, &budget)?;
    let (cols, body) = rows_of(&values, 10, |k| {
        if values.get(k as usize) == Some(&0) {
            "p"
        } else {
            ""
        }
    });
    let caption = format!(
        "Grundy values of {} for heaps 0 … {}, ten to a row (the heap is the row label plus the column label), computed by nimbook's engine; value 0 (shaded) is a P-position.",
        escape(&title),
        n - 1
    );
    Ok(grid_table("grundy", &caption, "n", &cols, &body))
}

/// `sequence_table("0.77", n)`.
pub(super) fn sequence_table(checker: &LessonChecker, d: &Directive) -> Result<String, Diagnostic> {
    arity(checker, d, 2)?;
    let text = str_arg(checker, &d.args[0], "\"0.77\"")?;
    let code: OctalCode = text
        .parse()
        .map_err(|e| game_error(checker, &d.args[0].1, e))?;
    let budget = checker.limits().game;
    let p = game::period(&code, &budget).map_err(|e| game_error(checker, &d.span, e))?;
    let width = if p.period <= MAX_ROW_PERIOD {
        p.period.max(1)
    } else {
        10
    };
    let max = checker.limits().max_table;
    let max_n = max.saturating_mul(width);
    let n = match &d.args[1].0 {
        Value::Num(x) => match x.to_u64() {
            Some(v) if (1..=max_n).contains(&v) => v,
            _ => {
                return Err(error(
                    checker,
                    &d.args[1].1,
                    format!(
                        "a sequence table holds 1 to {max_n} values ({max} rows of {width}, [nimbook] max-table), not {x}"
                    ),
                ))
            }
        },
        other => {
            return Err(error(
                checker,
                &d.args[1].1,
                format!("expected a number, found `{other}`"),
            ))
        }
    };
    let seq =
        game::octal_sequence(&code, n - 1, &budget).map_err(|e| game_error(checker, &d.span, e))?;
    let values: Vec<u64> = seq.into_iter().take(n as usize).collect();
    let (cols, body) = rows_of(&values, width, |k| {
        if k < p.preperiod {
            "pre"
        } else {
            "periodic"
        }
    });
    let layout = if p.period <= MAX_ROW_PERIOD {
        format!("one period ({}) to a row", p.period)
    } else {
        format!(
            "ten to a row, since the period {} is longer than {MAX_ROW_PERIOD}",
            p.period
        )
    };
    let mut caption = format!(
        "Grundy values of the octal game {code} for heaps 0 … {}, {layout}. The engine proved (Guy–Smith criterion) that the sequence has pre-period {} and period {}: <span class=\"key pre\">grey</span> cells are the pre-period, <span class=\"key periodic\">green</span> cells repeat with period {}.",
        n - 1,
        p.preperiod,
        p.period,
        p.period
    );
    if n <= p.preperiod {
        caption.push_str(" This table ends before the periodic part begins.");
    }
    Ok(grid_table("sequence", &caption, "n", &cols, &body))
}

// ---------------------------------------------------------------------------------------------
// Drawings

/// `draw(G)`.
pub(super) fn draw(checker: &LessonChecker, d: &Directive) -> Result<String, Diagnostic> {
    arity(checker, d, 1)?;
    let game = game_arg(checker, &d.args[0])?;
    let budget = checker.limits().game;
    let span = &d.span;
    match game {
        Game::Cram(b) | Game::MisereCram(b) => {
            let caption = cram_caption(checker, span, game, &budget)?;
            let svg = cram_svg(b, &[], &format!("Cram board {b}"));
            Ok(figure(&svg, &caption))
        }
        Game::Hackenbush(g) => {
            let value = game
                .grundy(&budget)
                .map_err(|e| game_error(checker, span, e))?;
            let (svg, dropped) = hackenbush_svg(g)
                .map_err(|m| error(checker, &d.args[0].1, m))?;
            let mut caption = if g.edges().is_empty() {
                format!("Green Hackenbush with no edges: value {value}, computed by the engine.")
            } else {
                format!(
                    "Green Hackenbush <code>{}</code>: value {value}, computed by the engine.",
                    escape(&g.to_string())
                )
            };
            if dropped > 0 {
                let _ = write!(
                    caption,
                    " {dropped} edge{} not connected to the ground {} not drawn: {} away at once.",
                    if dropped == 1 { "" } else { "s" },
                    if dropped == 1 { "is" } else { "are" },
                    if dropped == 1 { "it falls" } else { "they fall" }
                );
            }
            Ok(figure(&svg, &caption))
        }
        Game::Nim(h) | Game::MisereNim(h) => {
            let svg = nim_svg(h).map_err(|m| error(checker, &d.args[0].1, m))?;
            let caption = if matches!(game, Game::Nim(_)) {
                let v = game
                    .grundy(&budget)
                    .map_err(|e| game_error(checker, span, e))?;
                let sum = if h.is_empty() {
                    "0".to_string()
                } else {
                    join(h, " ⊕ ")
                };
                format!(
                    "Nim heaps {}: nim-sum {sum} = {v}, so {}",
                    if h.is_empty() { "(none)".into() } else { join(h, ", ") },
                    outcome_sentence(v == 0)
                )
            } else {
                let o = game
                    .outcome(&budget)
                    .map_err(|e| game_error(checker, span, e))?;
                format!(
                    "Misère Nim heaps {} (the last player to move loses): {}",
                    join(h, ", "),
                    outcome_sentence(o == game::Outcome::P)
                )
            };
            Ok(figure(&svg, &caption))
        }
        Game::Northcott(rows) => {
            let v = game
                .grundy(&budget)
                .map_err(|e| game_error(checker, span, e))?;
            let svg = northcott_svg(rows).map_err(|m| error(checker, &d.args[0].1, m))?;
            let gaps: Vec<u64> = rows.iter().map(NorthcottRow::gap).collect();
            let caption = format!(
                "Northcott's game: gaps {} between the pieces, value {v} (computed by the engine), so {}",
                join(&gaps, ", "),
                outcome_sentence(v == 0)
            );
            Ok(figure(&svg, &caption))
        }
        Game::Octal { code, n }
            if *code == OctalCode::kayles() || *code == OctalCode::dawsons_kayles() =>
        {
            let v = game
                .grundy(&budget)
                .map_err(|e| game_error(checker, span, e))?;
            let svg = pins_svg(*n).map_err(|m| error(checker, &d.args[0].1, m))?;
            let caption = format!(
                "{} on a row of {n} pins: value {v} (computed by the engine), so {}",
                if *code == OctalCode::kayles() {
                    "Kayles"
                } else {
                    "Dawson's Kayles"
                },
                outcome_sentence(v == 0)
            );
            Ok(figure(&svg, &caption))
        }
        other => Err(error(
            checker,
            &d.args[0].1,
            format!("draw() cannot draw `{other}`"),
        )
        .help("draw() draws Nim, Cram, Green Hackenbush, Northcott and Kayles positions; game_graph(G) shows the positions of any small game")),
    }
}

fn outcome_sentence(p: bool) -> &'static str {
    if p {
        "a P-position: the player to move loses."
    } else {
        "an N-position: the player to move wins."
    }
}

fn cram_caption(
    checker: &LessonChecker,
    span: &Span,
    game: &Game,
    budget: &Budget,
) -> Result<String, Diagnostic> {
    if game.is_misere() {
        let o = game
            .outcome(budget)
            .map_err(|e| game_error(checker, span, e))?;
        Ok(format!(
            "Misère Cram (the last player to move loses): outcome {o}, computed by the engine, so {}",
            outcome_sentence(o == game::Outcome::P)
        ))
    } else {
        let v = game
            .grundy(budget)
            .map_err(|e| game_error(checker, span, e))?;
        Ok(format!(
            "Cram: Grundy value {v}, computed by the engine, so {}",
            outcome_sentence(v == 0)
        ))
    }
}

/// A placed domino: its letter and its two cells `(row, col)`.
type Domino = (char, (u64, u64), (u64, u64));

fn cram_svg(board: &Board, dominoes: &[Domino], label: &str) -> String {
    let (rows, cols) = (board.rows(), board.cols());
    let s = (600.0 / cols as f64)
        .min(400.0 / rows as f64)
        .clamp(8.0, 36.0);
    let pad = 3.0;
    let (w, h) = (cols as f64 * s + 2.0 * pad, rows as f64 * s + 2.0 * pad);
    let mut svg = svg_open("cram", w, h, label);
    for r in 0..rows {
        for c in 0..cols {
            let covered = dominoes.iter().any(|&(_, a, b)| a == (r, c) || b == (r, c));
            let cls = if covered {
                "cell covered"
            } else if board.is_free(r, c) {
                "cell free"
            } else {
                "cell blocked"
            };
            let _ = write!(
                svg,
                "<rect class=\"{cls}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                fmt_num(pad + c as f64 * s),
                fmt_num(pad + r as f64 * s),
                fmt_num(s),
                fmt_num(s)
            );
        }
    }
    for &(letter, (r1, c1), (r2, c2)) in dominoes {
        let (r, c) = (r1.min(r2), c1.min(c2));
        let (dw, dh) = (
            (c1.abs_diff(c2) + 1) as f64 * s,
            (r1.abs_diff(r2) + 1) as f64 * s,
        );
        let inset = (s * 0.12).max(1.5);
        let (x, y) = (pad + c as f64 * s, pad + r as f64 * s);
        let _ = write!(
            svg,
            "<rect class=\"domino\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"/><text class=\"domino-label\" x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>",
            fmt_num(x + inset),
            fmt_num(y + inset),
            fmt_num(dw - 2.0 * inset),
            fmt_num(dh - 2.0 * inset),
            fmt_num(s * 0.25),
            fmt_num(x + dw / 2.0),
            fmt_num(y + dh / 2.0 + s * 0.15),
            fmt_num(s * 0.42),
            escape(&letter.to_string())
        );
    }
    svg.push_str("</svg>");
    svg
}

/// `cram_diagram("AA##/B###/B.##")`.
pub(super) fn cram_diagram(checker: &LessonChecker, d: &Directive) -> Result<String, Diagnostic> {
    arity(checker, d, 1)?;
    let text = str_arg(checker, &d.args[0], "\"AA##/B###/B.##\"")?;
    let span = &d.args[0].1;
    // The string's characters sit right after the opening quote when the literal is written
    // plainly, so an error can point at the offending character.
    let plain = checker.file().text.get(span.clone()) == Some(&format!("\"{text}\"")[..]);
    let at = |offset: usize, len: usize| -> Span {
        if plain {
            span.start + 1 + offset..span.start + 1 + offset + len
        } else {
            span.clone()
        }
    };
    let mut grid: Vec<Vec<char>> = vec![Vec::new()];
    let mut first: BTreeMap<char, usize> = BTreeMap::new();
    let mut cells: BTreeMap<char, Vec<(u64, u64)>> = BTreeMap::new();
    for (i, ch) in text.char_indices() {
        match ch {
            '/' => grid.push(Vec::new()),
            c if c.is_whitespace() => {}
            '#' | '.' => {
                if let Some(row) = grid.last_mut() {
                    row.push(ch);
                }
            }
            c if c.is_alphabetic() => {
                let r = grid.len() as u64 - 1;
                if let Some(row) = grid.last_mut() {
                    cells.entry(c).or_default().push((r, row.len() as u64));
                    row.push(c);
                }
                first.entry(c).or_insert(i);
            }
            c => {
                return Err(error(
                    checker,
                    &at(i, c.len_utf8()),
                    format!("`{c}` is not a cell of a Cram diagram"),
                )
                .help("use `#` for a free cell, `.` for a blocked cell, a letter for each cell of a placed domino, and `/` between rows"))
            }
        }
    }
    let cols = grid.iter().map(Vec::len).max().unwrap_or(0);
    if cols == 0 || grid.len() * cols > 64 {
        return Err(error(
            checker,
            span,
            format!(
                "a Cram diagram needs between 1 and 64 cells in its frame, not {} × {cols}",
                grid.len()
            ),
        ));
    }
    let mut dominoes = Vec::new();
    for (letter, where_) in &cells {
        let off = first.get(letter).copied().unwrap_or(0);
        let ok = where_.len() == 2 && {
            let ((r1, c1), (r2, c2)) = (where_[0], where_[1]);
            r1.abs_diff(r2) + c1.abs_diff(c2) == 1
        };
        if !ok {
            let found = if where_.len() == 2 {
                "two cells that are not side by side".to_string()
            } else {
                format!(
                    "{} cell{}",
                    where_.len(),
                    if where_.len() == 1 { "" } else { "s" }
                )
            };
            return Err(error(
                checker,
                &at(off, letter.len_utf8()),
                format!("domino `{letter}` must cover exactly two orthogonally adjacent cells, but it covers {found}"),
            )
            .help("write each domino's letter in the two cells it covers, next to each other in a row or in a column"));
        }
        dominoes.push((*letter, where_[0], where_[1]));
    }
    let cells_text: String = grid
        .iter()
        .map(|row| {
            row.iter()
                .map(|&c| if c == '#' { '#' } else { '.' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/");
    let game = Game::cram_cells(&cells_text).map_err(|e| game_error(checker, span, e))?;
    let Game::Cram(board) = &game else {
        return Err(error(checker, span, "not a Cram board"));
    };
    // The frame as written: a blocked cell and a domino cell look alike to the engine, so the
    // drawing shades only `.` cells and lays the dominoes on top.
    let budget = checker.limits().game;
    let v = game
        .grundy(&budget)
        .map_err(|e| game_error(checker, &d.span, e))?;
    let svg = cram_svg(
        board,
        &dominoes,
        &format!(
            "Cram board {text} with {} domino{} placed",
            dominoes.len(),
            if dominoes.len() == 1 { "" } else { "es" }
        ),
    );
    let caption = format!(
        "Cram with {} domino{} placed: the free cells <code>{}</code> have Grundy value {v}, computed by the engine, so {}",
        dominoes.len(),
        if dominoes.len() == 1 { "" } else { "es" },
        escape(&cells_text),
        outcome_sentence(v == 0)
    );
    Ok(figure(&svg, &caption))
}

/// Green Hackenbush: returns the SVG and the number of floating edges left out.
fn hackenbush_svg(graph: &Graph) -> Result<(String, usize), String> {
    let grounded = graph.grounded();
    let edges = grounded.edges();
    let dropped = graph.edges().len() - edges.len();
    if edges.len() > MAX_HACKENBUSH_EDGES {
        return Err(format!(
            "draw() draws Hackenbush graphs of at most {MAX_HACKENBUSH_EDGES} edges; this one has {}",
            edges.len()
        ));
    }
    let mut adj: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut mult: BTreeMap<(u32, u32), usize> = BTreeMap::new();
    for &(a, b) in edges {
        *mult.entry((a, b)).or_default() += 1;
        if a != b {
            adj.entry(a).or_default().insert(b);
            adj.entry(b).or_default().insert(a);
        }
    }
    // BFS levels from the ground.
    let mut level: BTreeMap<u32, usize> = BTreeMap::new();
    level.insert(0, 0);
    let mut queue = VecDeque::from([0u32]);
    while let Some(v) = queue.pop_front() {
        let l = level.get(&v).copied().unwrap_or(0);
        for &u in adj.get(&v).into_iter().flatten() {
            if let std::collections::btree_map::Entry::Vacant(e) = level.entry(u) {
                e.insert(l + 1);
                queue.push_back(u);
            }
        }
    }
    let depth = level.values().copied().max().unwrap_or(0);
    let mut levels: Vec<Vec<u32>> = vec![Vec::new(); depth + 1];
    for (&v, &l) in &level {
        if v != 0 {
            levels[l].push(v);
        }
    }
    let ground_loops = mult.get(&(0, 0)).copied().unwrap_or(0);
    let widest = levels.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let slot = 64.0;
    let graph_w = widest as f64 * slot;
    let w = graph_w + ground_loops as f64 * 36.0 + 24.0;
    let (top, step) = (40.0, 64.0);
    let ground_y = top + depth as f64 * step;
    let h = ground_y + 22.0;
    let mut x: BTreeMap<u32, f64> = BTreeMap::new();
    for (l, members) in levels.iter().enumerate().skip(1) {
        let mut order: Vec<(f64, u32)> = members
            .iter()
            .map(|&v| {
                let parents: Vec<f64> = adj
                    .get(&v)
                    .into_iter()
                    .flatten()
                    .filter(|u| level.get(u) == Some(&(l - 1)) && **u != 0)
                    .filter_map(|u| x.get(u).copied())
                    .collect();
                let bary = if parents.is_empty() {
                    f64::from(v)
                } else {
                    parents.iter().sum::<f64>() / parents.len() as f64
                };
                (bary, v)
            })
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let n = order.len() as f64;
        for (i, (_, v)) in order.iter().enumerate() {
            x.insert(*v, 12.0 + graph_w * (i as f64 + 0.5) / n);
        }
    }
    let pos = |v: u32| -> (f64, f64) {
        let l = level.get(&v).copied().unwrap_or(0);
        (
            x.get(&v).copied().unwrap_or(12.0),
            ground_y - l as f64 * step,
        )
    };
    let mut svg = svg_open(
        "hackenbush",
        w,
        h,
        &format!("Green Hackenbush graph {graph}"),
    );
    let _ = write!(
        svg,
        "<rect class=\"ground-fill\" x=\"0\" y=\"{}\" width=\"{}\" height=\"20\"/><line class=\"ground\" x1=\"0\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
        fmt_num(ground_y),
        fmt_num(w),
        fmt_num(ground_y),
        fmt_num(w),
        fmt_num(ground_y)
    );
    let mut loop_slot = 0usize;
    for (&(a, b), &k) in &mult {
        if a == b {
            let (cx, cy) = if a == 0 {
                loop_slot += 1;
                (12.0 + graph_w + 36.0 * loop_slot as f64 - 18.0, ground_y)
            } else {
                pos(a)
            };
            for i in 0..k {
                let (spread, height) = (9.0 + 4.0 * i as f64, 24.0 + 9.0 * i as f64);
                let _ = write!(
                    svg,
                    "<path class=\"edge\" d=\"M{} {} C{} {} {} {} {} {}\"/>",
                    fmt_num(cx),
                    fmt_num(cy),
                    fmt_num(cx - spread - 8.0),
                    fmt_num(cy - height),
                    fmt_num(cx + spread + 8.0),
                    fmt_num(cy - height),
                    fmt_num(cx),
                    fmt_num(cy)
                );
            }
            continue;
        }
        let (p, q) = if a == 0 {
            let (bx, _) = pos(b);
            ((bx, ground_y), pos(b))
        } else {
            (pos(a), pos(b))
        };
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (nx, ny) = (-dy / len, dx / len);
        for i in 0..k {
            let off = (i as f64 - (k as f64 - 1.0) / 2.0) * 22.0;
            if off == 0.0 {
                let _ = write!(
                    svg,
                    "<line class=\"edge\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                    fmt_num(p.0),
                    fmt_num(p.1),
                    fmt_num(q.0),
                    fmt_num(q.1)
                );
            } else {
                let (cx, cy) = ((p.0 + q.0) / 2.0 + nx * off, (p.1 + q.1) / 2.0 + ny * off);
                let _ = write!(
                    svg,
                    "<path class=\"edge\" d=\"M{} {} Q{} {} {} {}\"/>",
                    fmt_num(p.0),
                    fmt_num(p.1),
                    fmt_num(cx),
                    fmt_num(cy),
                    fmt_num(q.0),
                    fmt_num(q.1)
                );
            }
        }
    }
    for &v in x.keys() {
        let (vx, vy) = pos(v);
        let _ = write!(
            svg,
            "<circle class=\"vertex\" cx=\"{}\" cy=\"{}\" r=\"4\"/>",
            fmt_num(vx),
            fmt_num(vy)
        );
    }
    svg.push_str("</svg>");
    Ok((svg, dropped))
}

/// Nim heaps as columns of counters.
pub(super) fn nim_svg(heaps: &[u64]) -> Result<String, String> {
    if heaps.len() > MAX_NIM_HEAPS {
        return Err(format!(
            "draw() draws at most {MAX_NIM_HEAPS} Nim heaps; this game has {}",
            heaps.len()
        ));
    }
    if let Some(big) = heaps.iter().find(|&&h| h > MAX_NIM_HEAP) {
        return Err(format!(
            "draw() draws Nim heaps of at most {MAX_NIM_HEAP} counters; this game has a heap of {big}"
        ));
    }
    let tallest = heaps.iter().copied().max().unwrap_or(0).max(1);
    let (col, r, step) = (40.0, 8.5, 19.0);
    let w = (heaps.len().max(1)) as f64 * col + 8.0;
    let base = 8.0 + tallest as f64 * step;
    let h = base + 24.0;
    let label = if heaps.is_empty() {
        "Nim with no heaps".to_string()
    } else {
        format!("Nim heaps {}", join(heaps, ", "))
    };
    let mut svg = svg_open("nim", w, h, &label);
    for (i, &heap) in heaps.iter().enumerate() {
        let cx = 4.0 + col * (i as f64 + 0.5);
        for k in 0..heap {
            let _ = write!(
                svg,
                "<circle class=\"counter\" cx=\"{}\" cy=\"{}\" r=\"{r}\"/>",
                fmt_num(cx),
                fmt_num(base - step * (k as f64 + 0.5))
            );
        }
        let _ = write!(
            svg,
            "<line class=\"base\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text class=\"heap-size\" x=\"{}\" y=\"{}\">{heap}</text>",
            fmt_num(cx - col / 2.0 + 4.0),
            fmt_num(base + 2.0),
            fmt_num(cx + col / 2.0 - 4.0),
            fmt_num(base + 2.0),
            fmt_num(cx),
            fmt_num(base + 18.0)
        );
    }
    svg.push_str("</svg>");
    Ok(svg)
}

/// A row of Kayles pins.
pub(super) fn pins_svg(n: u64) -> Result<String, String> {
    if n > MAX_PINS {
        return Err(format!(
            "a row of at most {MAX_PINS} pins can be drawn; this one has {n}"
        ));
    }
    let step = 24.0;
    let w = n.max(1) as f64 * step + 8.0;
    let h = 64.0;
    let mut svg = svg_open("kayles", w, h, &format!("A row of {n} pins"));
    for i in 0..n {
        let cx = 4.0 + step * (i as f64 + 0.5);
        let _ = write!(
            svg,
            "<rect class=\"pin\" x=\"{}\" y=\"8\" width=\"12\" height=\"36\" rx=\"6\"/><text class=\"pin-number\" x=\"{}\" y=\"60\">{}</text>",
            fmt_num(cx - 6.0),
            fmt_num(cx),
            i + 1
        );
    }
    svg.push_str("</svg>");
    Ok(svg)
}

fn northcott_svg(rows: &[NorthcottRow]) -> Result<String, String> {
    if rows.len() > MAX_NORTHCOTT_ROWS {
        return Err(format!(
            "draw() draws at most {MAX_NORTHCOTT_ROWS} Northcott rows; this board has {}",
            rows.len()
        ));
    }
    let widest = rows.iter().map(NorthcottRow::width).max().unwrap_or(1);
    if widest > MAX_NORTHCOTT_WIDTH {
        return Err(format!(
            "draw() draws Northcott rows of at most {MAX_NORTHCOTT_WIDTH} squares; this board has a row of {widest}"
        ));
    }
    let s = 28.0;
    let (w, h) = (widest as f64 * s + 6.0, rows.len() as f64 * (s + 6.0) + 6.0);
    let mut svg = svg_open(
        "northcott",
        w,
        h,
        &format!(
            "Northcott board {}",
            rows.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("/")
        ),
    );
    for (r, row) in rows.iter().enumerate() {
        let y = 3.0 + r as f64 * (s + 6.0);
        for c in 0..row.width() {
            let x = 3.0 + c as f64 * s;
            let _ = write!(
                svg,
                "<rect class=\"square\" x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\"/>",
                fmt_num(x),
                fmt_num(y)
            );
            let piece = if c == row.white() {
                Some("piece white")
            } else if c == row.black() {
                Some("piece black")
            } else {
                None
            };
            if let Some(cls) = piece {
                let _ = write!(
                    svg,
                    "<circle class=\"{cls}\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                    fmt_num(x + s / 2.0),
                    fmt_num(y + s / 2.0),
                    fmt_num(s * 0.34)
                );
            }
        }
    }
    svg.push_str("</svg>");
    Ok(svg)
}

// ---------------------------------------------------------------------------------------------
// Game graphs

/// A compact label for a position: Nim heaps as `2·3·4`, the empty position as `∅`.
fn position_label(g: &Game) -> String {
    match g {
        Game::Nim(h) if h.is_empty() => "∅".into(),
        Game::Nim(h) => join(h, "·"),
        Game::Sum(parts) if parts.is_empty() => "∅".into(),
        Game::Sum(parts) => parts
            .iter()
            .map(position_label)
            .collect::<Vec<_>>()
            .join(" + "),
        other => other.to_string(),
    }
}

/// `game_graph(G)`.
pub(super) fn game_graph(checker: &LessonChecker, d: &Directive) -> Result<String, Diagnostic> {
    arity(checker, d, 1)?;
    let game = game_arg(checker, &d.args[0])?;
    let budget = checker.limits().game;
    let gg = game
        .graph(&budget)
        .map_err(|e| game_error(checker, &d.span, e))?;
    let n = gg.positions.len();
    if n > MAX_GRAPH_POSITIONS {
        return Err(error(
            checker,
            &d.args[0].1,
            format!("`{game}` has {n} positions; game_graph draws at most {MAX_GRAPH_POSITIONS}"),
        )
        .help("draw a smaller game; positions(G), moves(G) and ppositions(G) count a larger one"));
    }
    // Longest path from the root: every edge then points down at least one level.
    let mut indeg = vec![0usize; n];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in &gg.edges {
        if a < n && b < n && a != b {
            indeg[b] += 1;
            out[a].push(b);
            parents[b].push(a);
        }
    }
    let mut level = vec![0usize; n];
    let mut queue: VecDeque<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
    let mut seen = 0;
    while let Some(v) = queue.pop_front() {
        seen += 1;
        for &u in &out[v] {
            level[u] = level[u].max(level[v] + 1);
            indeg[u] -= 1;
            if indeg[u] == 0 {
                queue.push_back(u);
            }
        }
    }
    if seen != n {
        return Err(error(
            checker,
            &d.span,
            "the game graph has a cycle, so it cannot be drawn in layers",
        ));
    }
    let depth = level.iter().copied().max().unwrap_or(0);
    let labels: Vec<String> = gg.positions.iter().map(position_label).collect();
    let shown: Vec<String> = labels
        .iter()
        .map(|l| {
            if l.chars().count() > 30 {
                let head: String = l.chars().take(29).collect();
                format!("{head}…")
            } else {
                l.clone()
            }
        })
        .collect();
    let widths: Vec<f64> = shown
        .iter()
        .map(|l| (l.chars().count() as f64 * 7.4 + 18.0).max(34.0))
        .collect();
    let gap = 14.0;
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); depth + 1];
    for (i, &l) in level.iter().enumerate() {
        layers[l].push(i);
    }
    let layer_w = |layer: &[usize]| -> f64 {
        layer.iter().map(|&i| widths[i]).sum::<f64>() + gap * layer.len().saturating_sub(1) as f64
    };
    let w = layers.iter().map(|l| layer_w(l)).fold(0.0, f64::max) + 16.0;
    let (node_h, step) = (26.0, 68.0);
    let h = depth as f64 * step + node_h + 16.0;
    let mut x = vec![0.0f64; n];
    for layer in &mut layers {
        // Barycentre ordering: a node sits under the mean of its parents, so arrows cross less.
        let mut keyed: Vec<(f64, usize)> = layer
            .iter()
            .map(|&i| {
                let p = &parents[i];
                let k = if p.is_empty() {
                    0.0
                } else {
                    p.iter().map(|&j| x[j]).sum::<f64>() / p.len() as f64
                };
                (k, i)
            })
            .collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        *layer = keyed.into_iter().map(|(_, i)| i).collect();
        let mut cur = (w - layer_w(layer)) / 2.0;
        for &i in layer.iter() {
            x[i] = cur + widths[i] / 2.0;
            cur += widths[i] + gap;
        }
    }
    let y = |i: usize| 8.0 + level[i] as f64 * step;
    let (positions, moves, ps) = gg.counts();
    let marker = format!("gg-arrow-{}", d.span.start);
    let mut svg = svg_open(
        "game-graph",
        w,
        h,
        &format!("Game graph of {game}: {positions} positions, {moves} moves, {ps} P-positions"),
    );
    let _ = write!(
        svg,
        "<defs><marker id=\"{marker}\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path class=\"gg-arrowhead\" d=\"M0 0L10 5L0 10z\"/></marker></defs>"
    );
    for &(a, b) in &gg.edges {
        if a >= n || b >= n || a == b {
            continue;
        }
        let _ = write!(
            svg,
            "<line class=\"gg-edge\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" marker-end=\"url(#{marker})\"/>",
            fmt_num(x[a]),
            fmt_num(y(a) + node_h),
            fmt_num(x[b]),
            fmt_num(y(b) - 1.0)
        );
    }
    for i in 0..n {
        let p = gg.p_positions.get(i).copied().unwrap_or(false);
        let _ = write!(
            svg,
            "<g class=\"gg-node {}\"><title>{}{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{node_h}\" rx=\"9\"/><text x=\"{}\" y=\"{}\">{}</text></g>",
            if p { "p" } else { "n" },
            escape(&gg.positions[i].to_string()),
            if p { ": a P-position" } else { ": an N-position" },
            fmt_num(x[i] - widths[i] / 2.0),
            fmt_num(y(i)),
            fmt_num(widths[i]),
            fmt_num(x[i]),
            fmt_num(y(i) + 17.5),
            escape(&shown[i])
        );
    }
    svg.push_str("</svg>");
    let misere = if game.is_misere() {
        " A misère game is taken whole, and its P-positions are those where the player to move loses under the misère rule (the last player to move loses)."
    } else {
        ""
    };
    let caption = format!(
        "The game graph of <code>{}</code>, computed by the engine: {positions} position{}, {moves} move{}, {ps} P-position{}. \
         <span class=\"gg-key p\"></span> P-position (the player to move loses) \
         <span class=\"gg-key n\"></span> N-position (the player to move wins). \
         Each position is a multiset of components: positions reached in different ways are drawn once, \
         components with no move left (an empty heap, a lone Cram cell) are dropped, and Cram regions are taken up to rotation and reflection. \
         Every arrow points down: a position's row is the length of the longest line of play that reaches it.{misere}",
        escape(&game.to_string()),
        if positions == 1 { "" } else { "s" },
        if moves == 1 { "" } else { "s" },
        if ps == 1 { "" } else { "s" },
    );
    Ok(format!(
        "<figure class=\"nim-figure game-graph-figure\"><div class=\"nim-figure-scroll\">{svg}</div><figcaption>{caption}</figcaption></figure>\n"
    ))
}
