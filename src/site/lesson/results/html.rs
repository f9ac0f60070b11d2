//! Named results as HTML: the status line under a result's heading, and the results page
//! (`results.html`): every result by chapter, with its status and links, and the drawing of
//! which result uses which.
//!
//! The drawing is laid out in layers by the layered barycentre layout of the game graphs
//! (`directives::layout`): a result that uses nothing stands in the top layer, every other one
//! a layer below the lowest result it uses, and an arrow leads from a result to each result
//! that uses it. A box's border says its status twice, by colour (from the theme's CSS
//! variables, so both themes work) and by its line (solid, thick, dashed, dotted), and the
//! legend says which is which; the table beside it is the same graph as text, both ways
//! (uses and used by), for screen readers and the keyboard.

use std::collections::HashMap;

use super::graph::{relative, ResultRow};
use super::{and_list, NamedResult};
use crate::site::html::escape;
use crate::site::lesson::directives::layout::barycentre_layers;
use crate::site::lesson::directives::svg::{fmt_num, svg_open};

/// The status words, in the legend's order, with what each means.
const LEGEND: [(&str, &str); 4] = [
    ("proved", "proved for every case by a method the build ran"),
    ("checked", "checked case by case, up to a bound"),
    ("computed", "values the engines computed"),
    ("stated", "a proof in prose"),
];

/// The line under a result's heading: its label, its status (linking what it rests on) and,
/// unless it is stated (whose status lists them), the results it uses.
pub(crate) fn status_line(r: &NamedResult) -> String {
    let status = r.status();
    let own = r.resolved.as_ref().map_or("", |x| x.href.as_str());
    let link = |label: &str, href: &str| {
        format!(
            "<a href=\"{}\">{}</a>",
            escape(&relative(own, href)),
            escape(label)
        )
    };
    let mut html = format!(
        "<p class=\"result-status status-{}\"><span class=\"result-label\">{}</span> <span class=\"result-word\">{}</span>",
        status.evidence.word(),
        escape(&r.label()),
        escape(&status.evidence.to_string())
    );
    if !status.resting_on.is_empty() {
        let links: Vec<String> = status
            .resting_on
            .iter()
            .map(|x| link(&x.label, &x.href))
            .collect();
        html.push_str(&format!(", {} {}", status.resting_word(), and_list(&links)));
    }
    if let Some(resolved) = &r.resolved {
        if status.evidence != super::Evidence::Stated && !resolved.uses.is_empty() {
            let links: Vec<String> = resolved
                .uses
                .iter()
                .map(|x| link(&x.label, &x.href))
                .collect();
            html.push_str(&format!("; uses {}", and_list(&links)));
        }
    }
    html.push_str("</p>\n");
    html
}

/// The body of `results.html`: the legend, the drawing, and one table per chapter.
pub(crate) fn page(rows: &[ResultRow]) -> String {
    let mut html = String::from("<h1 id=\"results\">Results</h1>\n");
    if rows.is_empty() {
        html.push_str("<p>This book names no results.</p>\n");
        return html;
    }
    html.push_str(&format!(
        "<p>The {} named results of this book, with the status the build gave each: how its own claims were established, and which results that are only stated it rests on.</p>\n",
        rows.len()
    ));
    html.push_str("<ul class=\"result-legend\">\n");
    for (word, meaning) in LEGEND {
        html.push_str(&format!(
            "<li class=\"status-{word}\"><span class=\"result-swatch\" aria-hidden=\"true\"></span><strong>{word}</strong>: {meaning}</li>\n"
        ));
    }
    html.push_str("</ul>\n");
    html.push_str(&drawing(rows));
    html.push_str(&tables(rows));
    html
}

/// One table per chapter: each result's label and title (a link to it), its status, the
/// results it uses and those that use it.
fn tables(rows: &[ResultRow]) -> String {
    let by_name: HashMap<&str, &ResultRow> = rows.iter().map(|r| (r.name.as_str(), r)).collect();
    let mut used_by: HashMap<&str, Vec<&ResultRow>> = HashMap::new();
    for r in rows {
        for u in &r.uses {
            used_by.entry(u.as_str()).or_default().push(r);
        }
    }
    let link = |r: &ResultRow| format!("<a href=\"{}\">{}</a>", escape(&r.href), escape(&r.label));
    let mut html = String::new();
    let mut chapter: Option<&str> = None;
    for r in rows {
        if chapter != Some(r.chapter.as_str()) {
            if chapter.is_some() {
                html.push_str("</tbody></table></div>\n");
            }
            chapter = Some(&r.chapter);
            html.push_str(&format!(
                "<h2>{}</h2>\n<div class=\"table-wrap\"><table class=\"results-table\"><thead><tr><th scope=\"col\">Result</th><th scope=\"col\">Status</th><th scope=\"col\">Uses</th><th scope=\"col\">Used by</th></tr></thead><tbody>\n",
                escape(&r.chapter)
            ));
        }
        let uses: Vec<String> = r
            .uses
            .iter()
            .filter_map(|u| by_name.get(u.as_str()).map(|x| link(x)))
            .collect();
        let users: Vec<String> = used_by
            .get(r.name.as_str())
            .map(|v| v.iter().map(|x| link(x)).collect())
            .unwrap_or_default();
        html.push_str(&format!(
            "<tr class=\"status-{}\"><th scope=\"row\"><a href=\"{}\">{}</a> {}</th><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            r.evidence,
            escape(&r.href),
            escape(&r.label),
            escape(&r.title),
            escape(&r.status),
            if uses.is_empty() { "—".into() } else { uses.join(", ") },
            if users.is_empty() { "—".into() } else { users.join(", ") },
        ));
    }
    html.push_str("</tbody></table></div>\n");
    html
}

/// Box size and spacing of the drawing, in SVG units.
const BOX_W: f64 = 118.0;
const BOX_H: f64 = 30.0;
const GAP_X: f64 = 14.0;
const GAP_Y: f64 = 46.0;

/// The uses graph as SVG, in layers: a result one layer below the lowest result it uses.
fn drawing(rows: &[ResultRow]) -> String {
    let index: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.as_str(), i))
        .collect();
    // A name used twice (already an error) keeps its first result.
    let parents: Vec<Vec<usize>> = rows
        .iter()
        .map(|r| {
            r.uses
                .iter()
                .filter_map(|u| index.get(u.as_str()).copied())
                .collect()
        })
        .collect();
    let depth = depths(&parents);
    let layers_n = depth.iter().max().map_or(0, |d| d + 1);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); layers_n];
    for (i, &d) in depth.iter().enumerate() {
        layers[d].push(i);
    }
    let widest = layers.iter().map(Vec::len).max().unwrap_or(1);
    let width = widest as f64 * (BOX_W + GAP_X) + GAP_X;
    let x = barycentre_layers(
        &mut layers,
        &parents,
        |i| i as f64,
        |layer, x| {
            let used = layer.len() as f64 * (BOX_W + GAP_X) - GAP_X;
            let left = (width - used) / 2.0;
            for (k, &i) in layer.iter().enumerate() {
                x[i] = left + k as f64 * (BOX_W + GAP_X) + BOX_W / 2.0;
            }
        },
    );
    let y = |i: usize| GAP_X + depth[i] as f64 * (BOX_H + GAP_Y);
    let height = layers_n as f64 * (BOX_H + GAP_Y) - GAP_Y + 2.0 * GAP_X;
    let label = format!(
        "Which result uses which: {} results in {} layers, each below the results it uses; the tables below list the same uses",
        rows.len(),
        layers_n
    );
    let mut svg = svg_open("results-graph", width, height, &label);
    svg.push_str("<defs><marker id=\"results-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path class=\"arrow-head\" d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>");
    for (i, ps) in parents.iter().enumerate() {
        for &p in ps {
            svg.push_str(&format!(
                "<line class=\"use\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" marker-end=\"url(#results-arrow)\"/>",
                fmt_num(x[p]),
                fmt_num(y(p) + BOX_H),
                fmt_num(x[i]),
                fmt_num(y(i))
            ));
        }
    }
    for (i, r) in rows.iter().enumerate() {
        svg.push_str(&format!(
            "<g class=\"result status-{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\"/><text x=\"{}\" y=\"{}\">{}</text></g>",
            r.evidence,
            fmt_num(x[i] - BOX_W / 2.0),
            fmt_num(y(i)),
            fmt_num(BOX_W),
            fmt_num(BOX_H),
            fmt_num(x[i]),
            fmt_num(y(i) + BOX_H / 2.0 + 5.0),
            escape(&r.label)
        ));
    }
    svg.push_str("</svg>");
    format!("<figure class=\"nim-figure results-figure\"><div class=\"nim-figure-scroll\">{svg}</div><figcaption>Each arrow leads from a result to a result whose proof uses it.</figcaption></figure>\n")
}

/// Each node's layer: 0 for a result that uses nothing, else one more than the deepest result
/// it uses. A cycle (already an error) is cut where the search meets a node it is inside.
fn depths(parents: &[Vec<usize>]) -> Vec<usize> {
    let mut depth: Vec<Option<usize>> = vec![None; parents.len()];
    for start in 0..parents.len() {
        // An explicit stack, so a long chain of uses cannot overflow.
        let mut stack = vec![(start, 0usize)];
        let mut on_path = vec![false; parents.len()];
        on_path[start] = true;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if depth[node].is_some() {
                on_path[node] = false;
                stack.pop();
                continue;
            }
            if let Some(&p) = parents[node].get(*next) {
                *next += 1;
                if depth[p].is_none() && !on_path[p] {
                    on_path[p] = true;
                    stack.push((p, 0));
                }
            } else {
                let d = parents[node]
                    .iter()
                    .filter_map(|&p| depth[p])
                    .max()
                    .map_or(0, |d| d + 1);
                depth[node] = Some(d);
                on_path[node] = false;
                stack.pop();
            }
        }
    }
    depth.into_iter().map(|d| d.unwrap_or(0)).collect()
}
