//! The values of Cram boards Piotr Beling published with igsolve (its README): the oracle of
//! the Cram tests, and what `examples/cram_timings.rs` holds its values to (it includes this
//! file by path, so that the table is written once).

/// Beling's table: `(rows, cols, value)`, `rows ≤ cols`.
const PUBLISHED: &[(u64, u64, u64)] = &[
    (4, 4, 0),
    (4, 5, 2),
    (4, 6, 0),
    (4, 7, 3),
    (4, 8, 0),
    (4, 9, 1),
    (4, 10, 0),
    (4, 11, 1),
    (4, 12, 0),
    (4, 13, 3),
    (4, 14, 0),
    (4, 15, 4),
    (5, 5, 0),
    (5, 6, 2),
    (5, 7, 1),
    (5, 8, 1),
    (5, 9, 1),
    (5, 10, 2),
    (5, 11, 0),
    (5, 12, 3),
    (6, 6, 0),
    (6, 7, 5),
    (6, 8, 0),
    (6, 9, 1),
    (6, 10, 0),
    (7, 7, 1),
    (7, 8, 3),
    (7, 9, 1),
];

/// The published value of the `rows × cols` board (either way round), if the table has it.
pub(crate) fn published(rows: u64, cols: u64) -> Option<u64> {
    let (lo, hi) = (rows.min(cols), rows.max(cols));
    PUBLISHED
        .iter()
        .find(|&&(r, c, _)| (r, c) == (lo, hi))
        .map(|&(_, _, v)| v)
}
