//! SVG helpers for the drawings: the opening of an inline, labelled SVG, coordinates written
//! short, and the figure around a drawing.
//!
//! Colours are never written into the SVG: shapes carry classes, and `style.css` colours them
//! with the theme's CSS variables, so light and dark themes both work.

use crate::site::html::escape;

/// A coordinate with at most one decimal, and none when it is whole.
pub(super) fn fmt_num(x: f64) -> String {
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

/// A figure of a drawing with its caption (HTML).
pub(super) fn figure(svg: &str, caption: &str) -> String {
    format!("<figure class=\"nim-figure\">{svg}<figcaption>{caption}</figcaption></figure>\n")
}

/// Items written one after another with `sep` between them.
pub(super) fn join<T: ToString>(items: &[T], sep: &str) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}
