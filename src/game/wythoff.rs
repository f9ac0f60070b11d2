//! Wythoff's game: a queen on a quarter-infinite board moves any distance left, down or
//! diagonally down-left; the player who puts it in the corner `(0, 0)` wins. Equivalently, two
//! heaps, and a move takes any number from one heap or the same number from both.
//!
//! The value of `(i, j)` is the mex of the values on its row to the left, its column below and
//! its diagonal below-left. The table is filled row by row keeping, for every column and every
//! diagonal, the set of values met so far as a bitset (and one more for the current row), so a
//! cell costs a few word operations per 64 possible values instead of a walk over its options.
//! A value is at most the number of options, `i + j + min(i, j)`, which sizes the bitsets.
//!
//! The P-positions, the pairs `(⌊kφ⌋, ⌊kφ²⌋)` of Wythoff's theorem, are not used here; the
//! tests and the lesson check them against this table.

use super::{Budget, GameError, Meter};

/// The most cells one Wythoff table may hold.
pub const MAX_WYTHOFF_CELLS: u64 = 1 << 22;

/// The Grundy value of the queen at `(a, b)`.
pub(crate) fn wythoff_value(a: u64, b: u64, meter: &mut Meter) -> Result<u64, GameError> {
    let (a, b) = (a.min(b), a.max(b));
    let mut last = 0;
    wythoff_fill(a, b, meter, |i, j, v| {
        if (i, j) == (a, b) {
            last = v;
        }
    })?;
    Ok(last)
}

/// The values of every `(i, j)` with `i ≤ a` and `j ≤ b`: row `i` of the result holds the
/// values `(i, 0) … (i, b)`.
pub fn wythoff_table(a: u64, b: u64, budget: &Budget) -> Result<Vec<Vec<u64>>, GameError> {
    let meter = &mut Meter::new(budget);
    let mut rows: Vec<Vec<u64>> = Vec::new();
    wythoff_fill(a, b, meter, |i, _, v| {
        if rows.len() as u64 <= i {
            rows.push(Vec::new());
        }
        if let Some(r) = rows.last_mut() {
            r.push(v);
        }
    })?;
    Ok(rows)
}

/// Fills the table over `0 … a` × `0 … b` in row order, giving each cell to `cell`.
fn wythoff_fill(
    a: u64,
    b: u64,
    meter: &mut Meter,
    mut cell: impl FnMut(u64, u64, u64),
) -> Result<(), GameError> {
    let cells = (u128::from(a) + 1) * (u128::from(b) + 1);
    if cells > u128::from(MAX_WYTHOFF_CELLS) {
        return Err(GameError::BudgetExceeded {
            budget: format!("{MAX_WYTHOFF_CELLS} cells in one Wythoff table"),
            reached: format!("asking for a table of {cells} cells"),
        });
    }
    // Both sides fit in usize now: their product is at most 2^22.
    let (ua, ub) = (a as usize, b as usize);
    meter.charge(cells as u64)?;
    let width = (ua + ub + ua.min(ub) + 2).div_ceil(64);
    let mut cols = vec![0u64; (ub + 1) * width];
    let mut diags = vec![0u64; (ua + ub + 1) * width];
    let mut row = vec![0u64; width];
    for i in 0..=ua {
        row.fill(0);
        for j in 0..=ub {
            meter.step()?;
            let (c, d) = (j * width, (i + ub - j) * width);
            let mut v = width * 64;
            for w in 0..width {
                let taken = row[w] | cols[c + w] | diags[d + w];
                if taken != u64::MAX {
                    v = w * 64 + (!taken).trailing_zeros() as usize;
                    break;
                }
            }
            let (w, bit) = (v / 64, 1u64 << (v % 64));
            if w < width {
                row[w] |= bit;
                cols[c + w] |= bit;
                diags[d + w] |= bit;
            }
            cell(i as u64, j as u64, v as u64);
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_first_row_is_nim_and_the_table_is_symmetric() {
        let t = wythoff_table(9, 9, &Budget::default()).unwrap();
        for (i, row) in t.iter().enumerate() {
            assert_eq!(t[0][i], i as u64);
            for (j, &v) in row.iter().enumerate() {
                assert_eq!(v, t[j][i]);
            }
        }
    }

    #[test]
    fn a_table_over_the_limit_is_refused_before_any_work() {
        let mut m = Meter::new(&Budget::default());
        let e = wythoff_value(1 << 12, 1 << 12, &mut m).unwrap_err();
        assert!(e.to_string().contains("cells in one Wythoff table"), "{e}");
    }
}
