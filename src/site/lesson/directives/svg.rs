//! SVG helpers for the drawings: the opening of an inline, labelled SVG, coordinates written
//! short, and the figure around a drawing.
//!
//! Colours are never written into the SVG: shapes carry classes, and `style.css` colours them
//! with the theme's CSS variables, so light and dark themes both work.

use crate::site::html::escape;
use crate::site::lesson::blocks::{Block, Figure, Frame, Run};

/// A coordinate with at most one decimal, and none when it is whole.
pub(crate) fn fmt_num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Opens an inline SVG of the given size, labelled for screen readers.
pub(crate) fn svg_open(kind: &str, w: f64, h: f64, label: &str) -> String {
    let (w, h) = (fmt_num(w), fmt_num(h));
    let label = escape(label);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"nim-svg {kind}\" role=\"img\" aria-label=\"{label}\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\"><title>{label}</title>"
    )
}

/// A drawing's text alternative: the position, and its value when the page states one.
pub(super) fn labelled(position: String, value: Option<&str>) -> String {
    match value {
        Some(v) => format!("{position}, value {v}"),
        None => position,
    }
}

/// A figure of a drawing with its caption.
pub(super) fn figure(svg: String, caption: Vec<Run>) -> Block {
    Block::Figure(Figure {
        svg,
        caption,
        frame: Frame::Plain,
    })
}

/// A figure of a drawing that may be wider than a phone, with its caption: on the page the
/// drawing scrolls sideways in a box of its own, the caption stays put. `class`, when given,
/// is added to the figure's.
pub(super) fn scrolling_figure(class: Option<&str>, svg: String, caption: Vec<Run>) -> Block {
    Block::Figure(Figure {
        svg,
        caption,
        frame: Frame::Scroll(class.map(str::to_string)),
    })
}

/// Items written one after another with `sep` between them.
pub(super) fn join<T: ToString>(items: &[T], sep: &str) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_drawing_names_its_position_and_the_value_the_page_states() {
        let nim = super::super::draw::nim_svg(&[3, 5, 7], Some("1")).unwrap_or_default();
        assert!(
            nim.contains("aria-label=\"Nim heaps 3, 5, 7, value 1\""),
            "{nim}"
        );
        assert!(
            nim.contains("<title>Nim heaps 3, 5, 7, value 1</title>"),
            "{nim}"
        );
        let pins = super::super::draw::pins_svg(4, None).unwrap_or_default();
        assert!(pins.contains("aria-label=\"A row of 4 pins\""), "{pins}");
    }
}
