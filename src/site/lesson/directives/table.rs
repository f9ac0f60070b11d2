//! The one table builder behind every generated table: nim-sums and nim-products, Grundy
//! values, octal sequences. A table has a corner cell, a header row, and rows that open with a
//! label; any header, row or cell may carry a class for `style.css` (field boundaries, shaded
//! P-positions, the pre-period of a sequence).

use std::fmt::Write as _;

use crate::site::html::escape;

/// Where a table's caption goes.
pub(super) enum Caption<'a> {
    /// A `<caption>` inside the table, from plain text (escaped here).
    Inside(&'a str),
    /// A `<figcaption>` under the table, which sits in a figure, from HTML. A table's own
    /// caption is as narrow as the table, and some tables are a few columns wide.
    Below(&'a str),
}

/// A header or body cell: an optional class and the cell's HTML.
pub(super) type Cell = (Option<&'static str>, String);

/// The frame of a table: its extra class, caption and corner cell.
pub(super) struct Table<'a> {
    /// A class added after `nim-table`.
    pub class: Option<&'a str>,
    /// The caption.
    pub caption: Caption<'a>,
    /// The HTML of the top-left cell.
    pub corner: &'a str,
}

impl Table<'_> {
    /// The table with `cols` columns headed by `head(j)` and `rows` rows; row `i` is opened by
    /// `row(i)` (the row's class and its label cell's HTML) and holds `cell(i, j)` for each
    /// column until the first `None` (the last row of a sequence may be short).
    pub(super) fn render(
        &self,
        rows: usize,
        cols: usize,
        head: impl Fn(usize) -> Cell,
        row: impl Fn(usize) -> Cell,
        cell: impl Fn(usize, usize) -> Option<Cell>,
    ) -> String {
        let mut h = String::with_capacity(rows * cols * 24 + 256);
        if let Caption::Below(_) = self.caption {
            h.push_str("<figure class=\"nim-figure nim-table-figure\">");
        }
        h.push_str("<div class=\"nim-table-wrap\"><table class=\"nim-table");
        if let Some(class) = self.class {
            h.push(' ');
            h.push_str(class);
        }
        h.push_str("\">");
        if let Caption::Inside(text) = self.caption {
            let _ = write!(h, "<caption>{}</caption>", escape(text));
        }
        let _ = write!(h, "<thead><tr><th class=\"corner\">{}</th>", self.corner);
        for j in 0..cols {
            push_cell(&mut h, "th", head(j));
        }
        h.push_str("</tr></thead><tbody>");
        for i in 0..rows {
            let (class, label) = row(i);
            push_open(&mut h, "tr", class);
            let _ = write!(h, "<th>{label}</th>");
            for c in (0..cols).map_while(|j| cell(i, j)) {
                push_cell(&mut h, "td", c);
            }
            h.push_str("</tr>");
        }
        h.push_str("</tbody></table></div>");
        if let Caption::Below(caption) = self.caption {
            let _ = write!(h, "<figcaption>{caption}</figcaption></figure>");
        }
        h.push('\n');
        h
    }
}

fn push_open(h: &mut String, tag: &str, class: Option<&str>) {
    match class {
        Some(class) => {
            let _ = write!(h, "<{tag} class=\"{class}\">");
        }
        None => {
            let _ = write!(h, "<{tag}>");
        }
    }
}

fn push_cell(h: &mut String, tag: &str, (class, html): Cell) {
    push_open(h, tag, class);
    let _ = write!(h, "{html}</{tag}>");
}
