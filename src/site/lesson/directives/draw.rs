//! `draw(G)` and `cram_diagram(…)`: inline SVG pictures of Nim heaps, Cram boards, Green
//! Hackenbush graphs, Northcott rows and Kayles pins, each captioned with the value the engine
//! computed when the site was built (coin-turning rows and grids are drawn by `coins`, Wythoff
//! boards by `wythoff`, loopy graphs by `loopy`). Every
//! drawing is bounded (heaps, squares, edges, pins), so a page cannot ask for an SVG of
//! unbounded size.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;

use crate::claim::Directive;
use crate::diag::{Diagnostic, Span};
use crate::game::{
    self, Board, Budget, Domino, DominoError, Game, Graph, HeapRule, LoopyGame, NorthcottRow,
    OctalCode,
};
use crate::site::html::escape;
use crate::site::lesson::context::DirectiveEnv;

use super::args::{error, game_arg, game_error, str_arg, unplaced};
use super::layout::barycentre_layers;
use super::svg::{figure, fmt_num, join, labelled, svg_open};
use crate::site::lesson::blocks::{Block, Run};

/// The most edges `draw` draws for a Green Hackenbush graph.
pub(super) const MAX_HACKENBUSH_EDGES: usize = 80;
/// The most heaps `draw` draws for Nim.
pub(super) const MAX_NIM_HEAPS: usize = 16;
/// The most counters in one drawn Nim heap.
pub(super) const MAX_NIM_HEAP: u64 = 30;
/// The most rows of a drawn Northcott board.
pub(super) const MAX_NORTHCOTT_ROWS: usize = 16;
/// The most squares in one drawn Northcott row.
pub(super) const MAX_NORTHCOTT_WIDTH: u64 = 40;
/// The most pins in a drawn Kayles row.
pub(super) const MAX_PINS: u64 = 60;
/// `draw(G)`.
pub(super) fn draw(env: &DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let game = game_arg(env, &d.args[0])?;
    let budget = env.limits().game;
    let span = &d.span;
    match game {
        Game::Cram(b) | Game::MisereCram(b) => {
            let caption = cram_caption(env, span, game, &budget)?;
            let svg = cram_svg(b, &[], &format!("Cram board {b}"));
            Ok(figure(svg, vec![Run::Prose(caption)]))
        }
        Game::Hackenbush(g) => draw_hackenbush(env, d, game, g, &budget),
        Game::Nim(h) | Game::MisereNim(h) => draw_nim(env, d, game, h, &budget),
        Game::Northcott(rows) => {
            let v = game
                .grundy(&budget)
                .map_err(|e| game_error(env, span, e))?;
            let svg = northcott_svg(rows, Some(&v.to_string())).map_err(|e| e.at(env.file(), d.args[0].1.clone()))?;
            let gaps: Vec<u64> = rows.iter().map(NorthcottRow::gap).collect();
            let caption = format!(
                "Northcott's game: gaps {} between the pieces, value {v} (computed by the engine), so {}",
                join(&gaps, ", "),
                outcome_sentence(v == 0)
            );
            Ok(figure(svg, vec![Run::Prose(caption)]))
        }
        Game::Octal { code, n }
            if *code == OctalCode::kayles() || *code == OctalCode::dawsons_kayles() =>
        {
            let v = game
                .grundy(&budget)
                .map_err(|e| game_error(env, span, e))?;
            let svg = pins_svg(*n, Some(&v.to_string())).map_err(|e| e.at(env.file(), d.args[0].1.clone()))?;
            let caption = format!(
                "{} on a row of {n} pins: value {v} (computed by the engine), so {}",
                if *code == OctalCode::kayles() {
                    "Kayles"
                } else {
                    "Dawson's Kayles"
                },
                outcome_sentence(v == 0)
            );
            Ok(figure(svg, vec![Run::Prose(caption)]))
        }
        Game::Heaps(h) if h.rule() == HeapRule::Wythoff => match h.heaps() {
            &[a, b] => super::wythoff::draw_wythoff(env, d, (a, b), &budget),
            _ => Err(error(env, &d.args[0].1, format!("draw() cannot draw `{game}`"))),
        },
        Game::Loopy(LoopyGame::Graph { edges, at }) => {
            super::loopy::draw_loopy(env, d, edges, *at, &budget)
        }
        other => match super::coins::coin_position(other) {
            Some(pos) => super::coins::draw_coins(env, d, other, &pos),
            None => Err(error(
                env,
                &d.args[0].1,
                format!("draw() cannot draw `{other}`"),
            )
            .help("draw() draws Nim, Cram, Green Hackenbush, Northcott and Kayles positions, coin-turning rows and grids, Wythoff boards and loopy graphs; game_graph(G) shows the positions of any small game")),
        },
    }
}

/// `draw(G)` of a Green Hackenbush position, with its value.
fn draw_hackenbush(
    env: &DirectiveEnv<'_>,
    d: &Directive,
    game: &Game,
    g: &Graph,
    budget: &Budget,
) -> Result<Block, Diagnostic> {
    let span = &d.span;
    let value = game.grundy(budget).map_err(|e| game_error(env, span, e))?;
    let (svg, dropped) = hackenbush_svg(g, Some(&value.to_string()))
        .map_err(|e| e.at(env.file(), d.args[0].1.clone()))?;
    let mut caption = if g.edges().is_empty() {
        vec![Run::Prose(format!(
            "Green Hackenbush with no edges: value {value}, computed by the engine."
        ))]
    } else {
        vec![
            Run::Prose("Green Hackenbush ".into()),
            Run::Code(g.to_string()),
            Run::Prose(format!(": value {value}, computed by the engine.")),
        ]
    };
    if dropped > 0 {
        let mut more = String::new();
        let _ = write!(
            more,
            " {dropped} edge{} not connected to the ground {} not drawn: {} away at once.",
            if dropped == 1 { "" } else { "s" },
            if dropped == 1 { "is" } else { "are" },
            if dropped == 1 {
                "it falls"
            } else {
                "they fall"
            }
        );
        caption.push(Run::Prose(more));
    }
    Ok(figure(svg, caption))
}

/// `draw(G)` of Nim heaps (with their nim-sum) or misère Nim heaps (with who wins).
fn draw_nim(
    env: &DirectiveEnv<'_>,
    d: &Directive,
    game: &Game,
    h: &[u64],
    budget: &Budget,
) -> Result<Block, Diagnostic> {
    let span = &d.span;
    let (svg, caption) = if matches!(game, Game::Nim(_)) {
        let v = game.grundy(budget).map_err(|e| game_error(env, span, e))?;
        let svg =
            nim_svg(h, Some(&v.to_string())).map_err(|e| e.at(env.file(), d.args[0].1.clone()))?;
        let sum = if h.is_empty() {
            "0".to_string()
        } else {
            join(h, " ⊕ ")
        };
        let caption = format!(
            "Nim heaps {}: nim-sum {sum} = {v}, so {}",
            if h.is_empty() {
                "(none)".into()
            } else {
                join(h, ", ")
            },
            outcome_sentence(v == 0)
        );
        (svg, caption)
    } else {
        let o = game.outcome(budget).map_err(|e| game_error(env, span, e))?;
        // A misère position has an outcome, not a Grundy value, so the drawing's text
        // names the position only; the caption says who wins.
        let svg = nim_svg(h, None).map_err(|e| e.at(env.file(), d.args[0].1.clone()))?;
        let caption = format!(
            "Misère Nim heaps {} (the last player to move loses): {}",
            join(h, ", "),
            outcome_sentence(o == game::Outcome::P)
        );
        (svg, caption)
    };
    Ok(figure(svg, vec![Run::Prose(caption)]))
}

fn outcome_sentence(p: bool) -> &'static str {
    if p {
        "a P-position: the player to move loses."
    } else {
        "an N-position: the player to move wins."
    }
}

fn cram_caption(
    env: &DirectiveEnv<'_>,
    span: &Span,
    game: &Game,
    budget: &Budget,
) -> Result<String, Diagnostic> {
    if game.is_misere() {
        let o = game.outcome(budget).map_err(|e| game_error(env, span, e))?;
        Ok(format!(
            "Misère Cram (the last player to move loses): outcome {o}, computed by the engine, so {}",
            outcome_sentence(o == game::Outcome::P)
        ))
    } else {
        let v = game.grundy(budget).map_err(|e| game_error(env, span, e))?;
        Ok(format!(
            "Cram: Grundy value {v}, computed by the engine, so {}",
            outcome_sentence(v == 0)
        ))
    }
}

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
pub(super) fn cram_diagram(env: &DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let text = str_arg(env, &d.args[0], "\"AA##/B###/B.##\"")?;
    let span = &d.args[0].1;
    // The string's characters sit right after the opening quote when the literal is written
    // plainly, so an error can point at the offending character. The text is read only for an
    // error, so that a drawing depends on the arguments alone (see `lesson::memo`).
    let at = |offset: usize, len: usize| -> Span {
        let plain = env.file().text.get(span.clone()) == Some(&format!("\"{text}\"")[..]);
        if plain {
            span.start + 1 + offset..span.start + 1 + offset + len
        } else {
            span.clone()
        }
    };
    let diagram = game::parse_domino_diagram(text).map_err(|e| {
        let (at, help) = match &e {
            DominoError::NotACell { offset, found } => (
                at(*offset, found.len_utf8()),
                Some("use `#` for a free cell, `.` for a blocked cell, a letter for each cell of a placed domino, and `/` between rows"),
            ),
            DominoError::Frame { .. } => (span.clone(), None),
            DominoError::Domino { offset, letter, .. } => (
                at(*offset, letter.len_utf8()),
                Some("write each domino's letter in the two cells it covers, next to each other in a row or in a column"),
            ),
        };
        let d = error(env, &at, e.to_string());
        match help {
            Some(help) => d.help(help),
            None => d,
        }
    })?;
    let (cells_text, dominoes) = (&diagram.cells, &diagram.dominoes);
    let game = Game::cram_cells(cells_text).map_err(|e| game_error(env, span, e))?;
    let Game::Cram(board) = &game else {
        return Err(error(env, span, "not a Cram board"));
    };
    // The frame as written: a blocked cell and a domino cell look alike to the engine, so the
    // drawing shades only `.` cells and lays the dominoes on top.
    let budget = env.limits().game;
    let v = game
        .grundy(&budget)
        .map_err(|e| game_error(env, &d.span, e))?;
    let svg = cram_svg(
        board,
        dominoes,
        &format!(
            "Cram board {text} with {} domino{} placed",
            dominoes.len(),
            if dominoes.len() == 1 { "" } else { "es" }
        ),
    );
    let caption = vec![
        Run::Prose(format!(
            "Cram with {} domino{} placed: the free cells ",
            dominoes.len(),
            if dominoes.len() == 1 { "" } else { "es" },
        )),
        Run::Code(cells_text.clone()),
        Run::Prose(format!(
            " have Grundy value {v}, computed by the engine, so {}",
            outcome_sentence(v == 0)
        )),
    ];
    Ok(figure(svg, caption))
}

/// Green Hackenbush: returns the SVG and the number of floating edges left out.
/// `value` (the page's value of the position, if it states one) joins the text alternative.
fn hackenbush_svg(graph: &Graph, value: Option<&str>) -> Result<(String, usize), Diagnostic> {
    let grounded = graph.grounded();
    let edges = grounded.edges();
    let dropped = graph.edges().len() - edges.len();
    if edges.len() > MAX_HACKENBUSH_EDGES {
        return Err(unplaced(format!(
            "draw() draws Hackenbush graphs of at most {MAX_HACKENBUSH_EDGES} edges; this one has {}",
            edges.len()
        )));
    }
    let Grounded { adj, mult, level } = ground_levels(edges);
    // Vertices are numbered in increasing order for the layout; the ground is not placed.
    let vertices: Vec<u32> = level.keys().copied().collect();
    let number: BTreeMap<u32, usize> = vertices.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let depth = level.values().copied().max().unwrap_or(0);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); depth + 1];
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); vertices.len()];
    for (i, &v) in vertices.iter().enumerate() {
        let l = level.get(&v).copied().unwrap_or(0);
        if v == 0 {
            continue;
        }
        layers[l].push(i);
        parents[i] = adj
            .get(&v)
            .into_iter()
            .flatten()
            .filter(|&&u| u != 0 && level.get(&u) == Some(&(l - 1)))
            .filter_map(|u| number.get(u).copied())
            .collect();
    }
    let ground_loops = mult.get(&(0, 0)).copied().unwrap_or(0);
    let widest = layers.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let slot = 64.0;
    let graph_w = widest as f64 * slot;
    let w = graph_w + ground_loops as f64 * 36.0 + 24.0;
    let (top, step) = (40.0, 64.0);
    let ground_y = top + depth as f64 * step;
    let h = ground_y + 22.0;
    // Layer 0 is the ground alone: the layers above it are laid out from the ground up, in
    // evenly spaced slots.
    let x = barycentre_layers(
        &mut layers[1..],
        &parents,
        |i| f64::from(vertices[i]),
        |layer, x| {
            let n = layer.len() as f64;
            for (slot, &i) in layer.iter().enumerate() {
                x[i] = 12.0 + graph_w * (slot as f64 + 0.5) / n;
            }
        },
    );
    let pos = |v: u32| -> (f64, f64) {
        let l = level.get(&v).copied().unwrap_or(0);
        let vx = match number.get(&v) {
            Some(&i) if v != 0 => x[i],
            _ => 12.0,
        };
        (vx, ground_y - l as f64 * step)
    };
    let mut svg = svg_open(
        "hackenbush",
        w,
        h,
        &labelled(format!("Green Hackenbush graph {graph}"), value),
    );
    let (gy, gw) = (fmt_num(ground_y), fmt_num(w));
    let _ = write!(
        svg,
        "<rect class=\"ground-fill\" x=\"0\" y=\"{gy}\" width=\"{gw}\" height=\"20\"/><line class=\"ground\" x1=\"0\" y1=\"{gy}\" x2=\"{gw}\" y2=\"{gy}\"/>",
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
            loops(&mut svg, (cx, cy), k);
            continue;
        }
        let (p, q) = if a == 0 {
            let (bx, _) = pos(b);
            ((bx, ground_y), pos(b))
        } else {
            (pos(a), pos(b))
        };
        edges_between(&mut svg, p, q, k);
    }
    for &v in vertices.iter().filter(|&&v| v != 0) {
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

/// A Hackenbush graph read for drawing.
struct Grounded {
    /// The neighbours of each vertex.
    adj: BTreeMap<u32, BTreeSet<u32>>,
    /// The multiplicity of each edge.
    mult: BTreeMap<(u32, u32), usize>,
    /// Each vertex's distance from the ground (vertex 0).
    level: BTreeMap<u32, usize>,
}

/// The neighbours, edge multiplicities and levels of a grounded graph, by breadth-first
/// search from the ground.
fn ground_levels(edges: &[(u32, u32)]) -> Grounded {
    let mut adj: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut mult: BTreeMap<(u32, u32), usize> = BTreeMap::new();
    for &(a, b) in edges {
        *mult.entry((a, b)).or_default() += 1;
        if a != b {
            adj.entry(a).or_default().insert(b);
            adj.entry(b).or_default().insert(a);
        }
    }
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
    Grounded { adj, mult, level }
}

/// `k` loops at the vertex at `(cx, cy)`, each a little wider and higher than the last.
fn loops(svg: &mut String, (cx, cy): (f64, f64), k: usize) {
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
}

/// `k` edges between two points: one straight, the others bowed to either side of it.
fn edges_between(svg: &mut String, p: (f64, f64), q: (f64, f64), k: usize) {
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

/// Nim heaps as columns of counters.
pub(super) fn nim_svg(heaps: &[u64], value: Option<&str>) -> Result<String, Diagnostic> {
    if heaps.len() > MAX_NIM_HEAPS {
        return Err(unplaced(format!(
            "draw() draws at most {MAX_NIM_HEAPS} Nim heaps; this game has {}",
            heaps.len()
        )));
    }
    if let Some(big) = heaps.iter().find(|&&h| h > MAX_NIM_HEAP) {
        return Err(unplaced(format!(
            "draw() draws Nim heaps of at most {MAX_NIM_HEAP} counters; this game has a heap of {big}"
        )));
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
    let mut svg = svg_open("nim", w, h, &labelled(label, value));
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
pub(super) fn pins_svg(n: u64, value: Option<&str>) -> Result<String, Diagnostic> {
    if n > MAX_PINS {
        return Err(unplaced(format!(
            "a row of at most {MAX_PINS} pins can be drawn; this one has {n}"
        )));
    }
    let step = 24.0;
    let w = n.max(1) as f64 * step + 8.0;
    let h = 64.0;
    let mut svg = svg_open(
        "kayles",
        w,
        h,
        &labelled(format!("A row of {n} pins"), value),
    );
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

fn northcott_svg(rows: &[NorthcottRow], value: Option<&str>) -> Result<String, Diagnostic> {
    if rows.len() > MAX_NORTHCOTT_ROWS {
        return Err(unplaced(format!(
            "draw() draws at most {MAX_NORTHCOTT_ROWS} Northcott rows; this board has {}",
            rows.len()
        )));
    }
    let widest = rows.iter().map(NorthcottRow::width).max().unwrap_or(1);
    if widest > MAX_NORTHCOTT_WIDTH {
        return Err(unplaced(format!(
            "draw() draws Northcott rows of at most {MAX_NORTHCOTT_WIDTH} squares; this board has a row of {widest}"
        )));
    }
    let s = 28.0;
    let (w, h) = (widest as f64 * s + 6.0, rows.len() as f64 * (s + 6.0) + 6.0);
    let mut svg = svg_open(
        "northcott",
        w,
        h,
        &labelled(
            format!(
                "Northcott board {}",
                rows.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("/")
            ),
            value,
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
