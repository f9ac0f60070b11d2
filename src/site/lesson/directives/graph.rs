//! `game_graph(G)`: every position of a small game and every move between them, drawn in
//! layers with the P-positions filled, computed by the engine when the site is built.

use std::collections::VecDeque;
use std::fmt::Write as _;

use crate::claim::Directive;
use crate::diag::Diagnostic;
use crate::game::Game;
use crate::site::html::escape;
use crate::site::lesson::blocks::{Block, Run};
use crate::site::lesson::context::DirectiveEnv;

use super::args::{error, game_arg, game_error};
use super::layout::barycentre_layers;
use super::svg::{fmt_num, join, scrolling_figure, svg_open};

/// The most positions `game_graph` draws.
pub(super) const MAX_GRAPH_POSITIONS: usize = 60;

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
pub(super) fn game_graph(env: &DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let game = game_arg(env, &d.args[0])?;
    let budget = env.limits().game;
    let gg = game
        .graph(&budget)
        .map_err(|e| game_error(env, &d.span, e))?;
    let n = gg.positions.len();
    if n > MAX_GRAPH_POSITIONS {
        return Err(error(
            env,
            &d.args[0].1,
            format!("`{game}` has {n} positions; game_graph draws at most {MAX_GRAPH_POSITIONS}"),
        )
        .help("draw a smaller game; positions(G), moves(G) and ppositions(G) count a larger one"));
    }
    let Some((level, parents)) = levels(n, &gg.edges) else {
        return Err(error(
            env,
            &d.span,
            "the game graph has a cycle, so it cannot be drawn in layers",
        ));
    };
    let depth = level.iter().copied().max().unwrap_or(0);
    let (shown, widths) = node_labels(&gg.positions);
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
    // From the root down; each layer is packed, boxes as wide as their labels, and centred.
    let x = barycentre_layers(
        &mut layers,
        &parents,
        |_| 0.0,
        |layer, x| {
            let mut cur = (w - layer_w(layer)) / 2.0;
            for &i in layer {
                x[i] = cur + widths[i] / 2.0;
                cur += widths[i] + gap;
            }
        },
    );
    let y = |i: usize| 8.0 + level[i] as f64 * step;
    let (positions, moves, ps) = gg.counts();
    let marker = format!("gg-arrow-{}", env.place(d));
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
    let caption = caption(game, (positions, moves, ps));
    Ok(scrolling_figure(Some("game-graph-figure"), svg, caption))
}

/// Each position's level, the length of the longest path from a root to it (so every edge
/// points down at least one level), and each position's parents; `None` when the graph has a
/// cycle.
fn levels(n: usize, edges: &[(usize, usize)]) -> Option<(Vec<usize>, Vec<Vec<usize>>)> {
    let mut indeg = vec![0usize; n];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
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
    (seen == n).then_some((level, parents))
}

/// The caption under a game graph: its counts, the key, and how positions are drawn.
fn caption(game: &Game, (positions, moves, ps): (usize, usize, usize)) -> Vec<Run> {
    let misere = if game.is_misere() {
        " A misère game is taken whole, and its P-positions are those where the player to move loses under the misère rule (the last player to move loses)."
    } else {
        ""
    };
    let key = |class: &str| Run::Key {
        class: format!("gg-key {class}"),
        text: String::new(),
    };
    vec![
        Run::Prose("The game graph of ".into()),
        Run::Code(game.to_string()),
        Run::Prose(format!(
            ", computed by the engine: {positions} position{}, {moves} move{}, {ps} P-position{}. ",
            if positions == 1 { "" } else { "s" },
            if moves == 1 { "" } else { "s" },
            if ps == 1 { "" } else { "s" },
        )),
        key("p"),
        Run::Prose(" P-position (the player to move loses) ".into()),
        key("n"),
        Run::Prose(format!(
            " N-position (the player to move wins). \
             Each position is a multiset of components: positions reached in different ways are drawn once, \
             components with no move left (an empty heap, a lone Cram cell) are dropped, and Cram regions are taken up to rotation and reflection. \
             Every arrow points down: a position's row is the length of the longest line of play that reaches it.{misere}"
        )),
    ]
}

/// Each node's label, cut to 30 characters (its title holds it whole), and its box's width.
fn node_labels(positions: &[Game]) -> (Vec<String>, Vec<f64>) {
    let shown: Vec<String> = positions
        .iter()
        .map(|p| {
            let l = position_label(p);
            match l.char_indices().nth(29) {
                Some((cut, _)) if l.chars().count() > 30 => format!("{}…", &l[..cut]),
                _ => l,
            }
        })
        .collect();
    let widths = shown
        .iter()
        .map(|l| (l.chars().count() as f64 * 7.4 + 18.0).max(34.0))
        .collect();
    (shown, widths)
}
