//! The one table builder behind every generated table: nim-sums and nim-products, Grundy
//! values, octal sequences. A table has a corner cell, a header row, and rows that open with a
//! label; any header, row or cell may carry a class (field boundaries, shaded P-positions, the
//! pre-period of a sequence).

use crate::site::lesson::blocks::{self, Block, Caption, Cell, CellClass, Row};

/// The frame of a table: its kind, caption and corner cell.
pub(super) struct Table {
    /// What kind of table it is (`grundy`, `sequence`), a class after `nim-table`.
    pub kind: Option<&'static str>,
    /// The caption.
    pub caption: Caption,
    /// The top-left cell.
    pub corner: String,
}

impl Table {
    /// The table with `cols` columns headed by `head(j)` and `rows` rows; row `i` is opened by
    /// `row(i)` (the row's class and its label) and holds `cell(i, j)` for each column until the
    /// first `None` (the last row of a sequence may be short).
    pub(super) fn build(
        self,
        rows: usize,
        cols: usize,
        head: impl Fn(usize) -> Cell,
        row: impl Fn(usize) -> (Option<CellClass>, Vec<blocks::Run>),
        cell: impl Fn(usize, usize) -> Option<Cell>,
    ) -> Block {
        Block::Table(blocks::Table {
            kind: self.kind.map(str::to_string),
            caption: self.caption,
            corner: self.corner,
            head: (0..cols).map(head).collect(),
            rows: (0..rows)
                .map(|i| {
                    let (class, label) = row(i);
                    Row {
                        class,
                        label,
                        cells: (0..cols).map_while(|j| cell(i, j)).collect(),
                    }
                })
                .collect(),
        })
    }
}
