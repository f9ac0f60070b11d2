//! `draw(loopy("…", v))`: the graph of a loopy game, every vertex labelled with its generalized
//! Grundy value (Smith's `n` or `∞_K`) and filled by its outcome, the token's vertex ringed.
//!
//! A graph with cycles has no layers to draw it in (the game graph's layout follows the longest
//! line of play, which a cycle makes endless), so the vertices stand on a circle in numeric
//! order. Two moves between the same pair of vertices, one each way, are drawn as two arcs
//! bowed apart, so both arrowheads show; a move from a vertex to itself is a small loop outside
//! the circle. Every value is the engine's, computed for each vertex in turn.

use std::f64::consts::PI;
use std::fmt::Write as _;

use crate::claim::Directive;
use crate::diag::Diagnostic;
use crate::game::{Budget, GameError, LoopyValue, Meter, Outcome};
use crate::site::html::escape;
use crate::site::lesson::blocks::{Block, Run};
use crate::site::lesson::context::DirectiveEnv;

use super::args::{error, game_error};
use super::svg::{fmt_num, scrolling_figure, svg_open};

/// The most vertices `draw` draws for a loopy graph.
pub(super) const MAX_DRAW_VERTICES: usize = 16;
/// The most moves `draw` draws for a loopy graph.
pub(super) const MAX_DRAW_MOVES: usize = 48;

/// The radius of a vertex.
const NODE: f64 = 15.0;
/// Room beside the circle for the value labels.
const PAD: f64 = 72.0;

/// A value as the lesson writes it: `∞` with the set `K` as a subscript (`∅` when empty).
fn value_parts(v: &LoopyValue) -> (String, Option<String>) {
    match v {
        LoopyValue::Infinite(k) if k.is_empty() => ("∞".into(), Some("∅".into())),
        LoopyValue::Infinite(k) => (
            "∞".into(),
            Some(format!(
                "{{{}}}",
                k.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
            )),
        ),
        other => (other.to_string(), None),
    }
}

fn outcome_class(o: Outcome) -> &'static str {
    match o {
        Outcome::P => "p",
        Outcome::N => "n",
        _ => "d",
    }
}

fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::P => "a P-position: the player to move loses",
        Outcome::N => "an N-position: the player to move wins",
        _ => "a draw: neither player can force a win",
    }
}

/// Every vertex's value, by the engine, vertex by vertex.
fn values(
    edges: &[(u64, u64)],
    names: &[u64],
    budget: &Budget,
) -> Result<Vec<LoopyValue>, GameError> {
    let mut meter = Meter::new(budget);
    names
        .iter()
        .map(|&v| crate::game::LoopyGame::Graph {
            edges: edges.to_vec(),
            at: v,
        })
        .map(|g| g.value(&mut meter))
        .collect()
}

/// Where the vertices stand and how large the drawing is.
struct Layout {
    /// Each vertex's centre.
    pts: Vec<(f64, f64)>,
    /// The centre of the circle they stand on.
    centre: (f64, f64),
    w: f64,
    h: f64,
}

/// Where each vertex stands: on a circle from the top, clockwise (two vertices side by side),
/// moved so the drawing is only as large as its vertices and labels need.
fn places(n: usize, looped: bool) -> Layout {
    let r = (90.0 * n as f64 / (2.0 * PI)).max(55.0);
    let circle: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let t = match n {
                2 => PI * (1.0 - i as f64),
                _ => -PI / 2.0 + 2.0 * PI * i as f64 / n as f64,
            };
            if n == 1 {
                (0.0, 0.0)
            } else {
                (r * t.cos(), r * t.sin())
            }
        })
        .collect();
    // Room for a value label beside a vertex, and for a loop above or below one.
    let (pad_x, pad_y) = (PAD, NODE + if looped { 48.0 } else { 32.0 });
    let min_x = circle.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let max_x = circle.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let min_y = circle.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let max_y = circle.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let (dx, dy) = (pad_x - min_x, pad_y - min_y);
    let pts = circle.iter().map(|&(x, y)| (x + dx, y + dy)).collect();
    Layout {
        pts,
        centre: (dx, dy),
        w: max_x - min_x + 2.0 * pad_x,
        h: max_y - min_y + 2.0 * pad_y,
    }
}

fn unit(dx: f64, dy: f64) -> (f64, f64) {
    let l = dx.hypot(dy).max(1e-9);
    (dx / l, dy / l)
}

/// `draw(loopy("…", v))`.
pub(super) fn draw_loopy(
    env: &DirectiveEnv<'_>,
    d: &Directive,
    edges: &[(u64, u64)],
    at: u64,
    budget: &Budget,
) -> Result<Block, Diagnostic> {
    let mut names: Vec<u64> = edges.iter().flat_map(|&(a, b)| [a, b]).collect();
    names.push(at);
    names.sort_unstable();
    names.dedup();
    if names.len() > MAX_DRAW_VERTICES || edges.len() > MAX_DRAW_MOVES {
        return Err(error(
            env,
            &d.args[0].1,
            format!(
                "draw() draws a loopy graph of at most {MAX_DRAW_VERTICES} vertices and {MAX_DRAW_MOVES} moves; this one has {} and {}",
                names.len(),
                edges.len()
            ),
        ));
    }
    let vals = values(edges, &names, budget).map_err(|e| game_error(env, &d.span, e))?;
    let index = |v: u64| names.binary_search(&v).unwrap_or(0);
    let has_loop: Vec<bool> = (0..names.len())
        .map(|i| edges.iter().any(|&(a, b)| a == b && index(a) == i))
        .collect();
    let Layout { pts, centre, w, h } = places(names.len(), has_loop.contains(&true));
    let token = index(at);
    let summary = names
        .iter()
        .zip(&vals)
        .map(|(v, x)| match x {
            LoopyValue::Infinite(k) if k.is_empty() => format!("vertex {v}: ∞ with K empty"),
            LoopyValue::Infinite(_) => {
                let (_, k) = value_parts(x);
                format!("vertex {v}: ∞ with K = {}", k.unwrap_or_default())
            }
            _ => format!("vertex {v}: {x}"),
        })
        .collect::<Vec<_>>()
        .join("; ");
    let marker = format!("lp-arrow-{}", env.place(d));
    let mut svg = svg_open(
        "loopy",
        w,
        h,
        &format!(
            "A game graph of {} vertices and {} moves, the token on vertex {at}. Values: {summary}",
            names.len(),
            edges.len()
        ),
    );
    let _ = write!(
        svg,
        "<defs><marker id=\"{marker}\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path class=\"lp-arrowhead\" d=\"M0 0L10 5L0 10z\"/></marker></defs>"
    );
    for &(a, b) in edges {
        let (p, q) = (pts[index(a)], pts[index(b)]);
        let path = if a == b {
            self_loop(p, centre)
        } else {
            let back = edges.contains(&(b, a));
            arrow(p, q, if back { 20.0 } else { 0.0 })
        };
        let _ = write!(
            svg,
            "<path class=\"lp-edge\" d=\"{path}\" marker-end=\"url(#{marker})\"/>"
        );
    }
    for (i, (&(x, y), v)) in pts.iter().zip(&vals).enumerate() {
        let o = v.outcome();
        let _ = write!(
            svg,
            "<g class=\"lp-node {}{}\"><circle cx=\"{}\" cy=\"{}\" r=\"{NODE}\"/><text x=\"{}\" y=\"{}\">{}</text></g>",
            outcome_class(o),
            if i == token { " token" } else { "" },
            fmt_num(x),
            fmt_num(y),
            fmt_num(x),
            fmt_num(y + 4.5),
            names[i]
        );
        svg.push_str(&value_label(v, (x, y), centre, has_loop[i]));
    }
    svg.push_str("</svg>");
    let value = &vals[token];
    Ok(scrolling_figure(None, svg, caption(edges, at, value)))
}

/// The caption under a loopy graph: the position, the token's value and outcome, the key.
fn caption(edges: &[(u64, u64)], at: u64, value: &LoopyValue) -> Vec<Run> {
    let (main, sub) = value_parts(value);
    let mut caption = vec![
        Run::Prose("The graph of ".into()),
        Run::Code(format!("loopy(\"{}\", {at})", edge_text(edges))),
        Run::Prose(format!(
            ": each vertex carries its generalized value, computed by the engine. The token is on vertex {at} (ringed), value "
        )),
        Run::Text(main),
    ];
    if let Some(k) = sub {
        caption.push(Run::Sub(k));
    }
    let key = |class: &str| Run::Key {
        class: format!("lp-key {class}"),
        text: String::new(),
    };
    caption.extend([
        Run::Prose(format!(", so {}. ", outcome_words(value.outcome()))),
        key("p"),
        Run::Prose(" P-position ".into()),
        key("n"),
        Run::Prose(" N-position ".into()),
        key("d"),
        Run::Prose(" draw.".into()),
    ]);
    caption
}

/// The moves in the notation of `loopy`, a pair both ways written once as `a-b`.
fn edge_text(edges: &[(u64, u64)]) -> String {
    let mut out = Vec::new();
    for &(a, b) in edges {
        if a < b && edges.contains(&(b, a)) {
            out.push(format!("{a}-{b}"));
        } else if a > b && edges.contains(&(b, a)) {
            continue;
        } else {
            out.push(format!("{a}>{b}"));
        }
    }
    out.join(" ")
}

/// A move from `p` to `q`, between the circles' rims; bowed to its left by `bow` when the
/// opposite move is drawn too.
fn arrow(p: (f64, f64), q: (f64, f64), bow: f64) -> String {
    let (ux, uy) = unit(q.0 - p.0, q.1 - p.1);
    // Left of the direction of travel, in screen coordinates (y down).
    let ctrl = ((p.0 + q.0) / 2.0 + uy * bow, (p.1 + q.1) / 2.0 - ux * bow);
    let (sx, sy) = unit(ctrl.0 - p.0, ctrl.1 - p.1);
    let (ex, ey) = unit(ctrl.0 - q.0, ctrl.1 - q.1);
    let start = (p.0 + sx * NODE, p.1 + sy * NODE);
    let end = (q.0 + ex * (NODE + 1.0), q.1 + ey * (NODE + 1.0));
    format!(
        "M{} {}Q{} {} {} {}",
        fmt_num(start.0),
        fmt_num(start.1),
        fmt_num(ctrl.0),
        fmt_num(ctrl.1),
        fmt_num(end.0),
        fmt_num(end.1)
    )
}

/// The direction from the centre out through `p` (upwards for the centre itself).
fn outward(p: (f64, f64), centre: (f64, f64)) -> (f64, f64) {
    if (p.0 - centre.0).hypot(p.1 - centre.1) < 1.0 {
        (0.0, -1.0)
    } else {
        unit(p.0 - centre.0, p.1 - centre.1)
    }
}

/// A move from `p` to itself: a loop outside the circle, turned a little off the outward
/// direction so the value label beside it stays clear.
fn self_loop(p: (f64, f64), centre: (f64, f64)) -> String {
    let (ox, oy) = outward(p, centre);
    let rot = |t: f64| (ox * t.cos() - oy * t.sin(), ox * t.sin() + oy * t.cos());
    let at = |d: (f64, f64), r: f64| (p.0 + d.0 * r, p.1 + d.1 * r);
    let (a, b) = (rot(-1.7), rot(-0.7));
    let (s, c1, c2, e) = (
        at(a, NODE),
        at(a, NODE + 34.0),
        at(b, NODE + 34.0),
        at(b, NODE + 1.0),
    );
    format!(
        "M{} {}C{} {} {} {} {} {}",
        fmt_num(s.0),
        fmt_num(s.1),
        fmt_num(c1.0),
        fmt_num(c1.1),
        fmt_num(c2.0),
        fmt_num(c2.1),
        fmt_num(e.0),
        fmt_num(e.1)
    )
}

/// The value beside a vertex, outside the circle: `∞` with `K` as a subscript.
fn value_label(v: &LoopyValue, p: (f64, f64), centre: (f64, f64), looped: bool) -> String {
    let (ox, oy) = outward(p, centre);
    let r = NODE + if looped { 18.0 } else { 12.0 };
    let (x, y) = (p.0 + ox * r, p.1 + oy * r + 5.0 + oy.max(0.0) * 6.0);
    let anchor = if ox > 0.35 {
        "start"
    } else if ox < -0.35 {
        "end"
    } else {
        "middle"
    };
    let (main, sub) = value_parts(v);
    let sub = sub
        .map(|s| format!("<tspan class=\"lp-sub\" dy=\"4\">{}</tspan>", escape(&s)))
        .unwrap_or_default();
    format!(
        "<text class=\"lp-value {anchor}\" x=\"{}\" y=\"{}\">{}{sub}</text>",
        fmt_num(x),
        fmt_num(y),
        escape(&main)
    )
}
