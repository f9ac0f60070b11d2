//! The domino-diagram notation: a Cram position drawn with the dominoes already placed, a
//! letter on both cells of each, as in `"AA##/B###/B.##"`.

use std::fmt;

/// A placed domino of a [`DominoDiagram`]: its letter and its two cells `(row, col)`.
pub type Domino = (char, (u64, u64), (u64, u64));

/// A Cram position drawn with the dominoes already placed: the cell notation of
/// [`parse_cells`](super::parse_cells), where a letter marks both cells of one domino, as in `"AA##/B###/B.##"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DominoDiagram {
    /// The cells left to play in the notation of [`parse_cells`](super::parse_cells): a domino's cells are `.`.
    pub cells: String,
    /// The placed dominoes, in the order of their letters.
    pub dominoes: Vec<Domino>,
}

/// Why a domino diagram does not parse. Offsets are byte offsets into the diagram's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DominoError {
    /// A character that is not `#`, `.`, a letter, `/` or white space.
    NotACell {
        /// Where it stands.
        offset: usize,
        /// The character.
        found: char,
    },
    /// The frame (rows × longest row) has no cells or more than 64.
    Frame {
        /// Rows of the frame.
        rows: usize,
        /// Columns of the frame.
        cols: usize,
    },
    /// A letter that does not mark exactly two cells side by side.
    Domino {
        /// Where the letter first stands.
        offset: usize,
        /// The letter.
        letter: char,
        /// How many cells it marks (2 when they are not side by side).
        cells: usize,
    },
}

impl fmt::Display for DominoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DominoError::NotACell { found, .. } => {
                write!(f, "`{found}` is not a cell of a Cram diagram")
            }
            DominoError::Frame { rows, cols } => write!(
                f,
                "a Cram diagram needs between 1 and 64 cells in its frame, not {rows} × {cols}"
            ),
            DominoError::Domino { letter, cells, .. } => {
                let found = if *cells == 2 {
                    "two cells that are not side by side".to_string()
                } else {
                    format!("{cells} cell{}", if *cells == 1 { "" } else { "s" })
                };
                write!(
                    f,
                    "domino `{letter}` must cover exactly two orthogonally adjacent cells, but it covers {found}"
                )
            }
        }
    }
}

/// Parses a domino diagram: rows split by `/`, `#` a free cell, `.` a blocked cell, a letter on
/// each of the two cells of a placed domino; white space is ignored.
pub fn parse_domino_diagram(text: &str) -> Result<DominoDiagram, DominoError> {
    use std::collections::BTreeMap;
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
                return Err(DominoError::NotACell {
                    offset: i,
                    found: c,
                })
            }
        }
    }
    let cols = grid.iter().map(Vec::len).max().unwrap_or(0);
    if cols == 0 || grid.len() * cols > 64 {
        return Err(DominoError::Frame {
            rows: grid.len(),
            cols,
        });
    }
    let mut dominoes = Vec::new();
    for (letter, at) in &cells {
        let adjacent = at.len() == 2 && {
            let ((r1, c1), (r2, c2)) = (at[0], at[1]);
            r1.abs_diff(r2) + c1.abs_diff(c2) == 1
        };
        if !adjacent {
            return Err(DominoError::Domino {
                offset: first.get(letter).copied().unwrap_or(0),
                letter: *letter,
                cells: at.len(),
            });
        }
        dominoes.push((*letter, at[0], at[1]));
    }
    let cells = grid
        .iter()
        .map(|row| {
            row.iter()
                .map(|&c| if c == '#' { '#' } else { '.' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/");
    Ok(DominoDiagram { cells, dominoes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domino_diagrams_name_their_dominoes_and_their_mistakes() {
        let d = parse_domino_diagram("AA##/B###/B.##").expect("diagram");
        assert_eq!(d.cells, "..##/.###/..##");
        assert_eq!(
            d.dominoes,
            vec![('A', (0, 0), (0, 1)), ('B', (1, 0), (2, 0))]
        );
        let not_a_cell = DominoError::NotACell {
            offset: 1,
            found: '?',
        };
        assert_eq!(parse_domino_diagram("#?#"), Err(not_a_cell));
        let apart = DominoError::Domino {
            offset: 0,
            letter: 'A',
            cells: 2,
        };
        assert_eq!(parse_domino_diagram("A#A"), Err(apart));
        let alone = DominoError::Domino {
            offset: 3,
            letter: 'B',
            cells: 1,
        };
        assert_eq!(parse_domino_diagram("#/#B"), Err(alone));
        assert_eq!(
            parse_domino_diagram("/"),
            Err(DominoError::Frame { rows: 2, cols: 0 })
        );
    }
}
