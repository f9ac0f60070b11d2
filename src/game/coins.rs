//! Coin-turning games: a row (or grid) of coins, some heads up; a move turns over a set of coins
//! allowed by the rule, one of which, the *far* coin, must go from heads to tails.
//!
//! # Why a position is a sum of single coins
//!
//! Every coin turned besides the far one lies before it (to its left in a row; above and to the
//! left in a grid), so the position strictly decreases and play ends. Now read a position with
//! heads coins `c₁ … cₖ` as the *sum* of the games "only `cᵢ` is heads". A move in the real
//! position that turns a heads coin `c` (other than the far one) to tails corresponds, in the
//! sum, to adding a second copy of the single-coin game `c`; and two copies of one game add up
//! to a P-position, so they may be cancelled without changing any Grundy value. Hence the value
//! of a position is the nim-sum of the values of its heads coins, and the value of one coin is
//! the mex, over the moves from it, of the nim-sum of the values of the *other* coins the move
//! turns (they were tails, so they all become heads).
//!
//! That is what this module computes: a table of coin values, each the mex over the moves from
//! the coin, filled in order. It never uses a closed formula (such as the nim-product for
//! Turning Corners); the lesson on coin-turning games checks the formulas against these tables.
//!
//! # The games (coins counted from 0)
//!
//! * `twins(n)`: turn exactly two coins, the right one from heads to tails.
//! * `turning_turtles(n)`: turn one or two coins, the right one from heads to tails.
//! * `mock_turtles(n)`: turn one, two or three coins, the right one from heads to tails. Its
//!   values are the odious numbers (an odd count of ones in binary), which the lesson checks.
//! * `ruler(n)`: turn a run of consecutive coins whose right end goes from heads to tails.
//! * `turning_corners(x, y)`: on a grid, turn the four corners `(a, b)`, `(a, y)`, `(x, b)`,
//!   `(x, y)` of a rectangle with `a < x` and `b < y`, where `(x, y)` goes from heads to tails.
//!
//! # Cost and the shared table
//!
//! The tables are shared by every search in the process, so that a claim over all `x, y < 64`
//! fills the Turning Corners table once. The budget is charged as if nothing were cached (the
//! number of coins in the table plus the number of moves looked at to fill it), so whether a
//! request fits the budget never depends on what ran before it. A table never holds more than
//! [`MAX_COINS`] coins.

use std::fmt;
use std::sync::Mutex;

use super::{GameError, Meter};

/// The most coins one value table may hold (for Turning Corners, the product of the two sides).
pub const MAX_COINS: u64 = 1 << 22;

/// The rule of a coin-turning game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CoinRule {
    /// Turn exactly two coins.
    Twins,
    /// Turn one or two coins.
    TurningTurtles,
    /// Turn a run of consecutive coins.
    Ruler,
    /// Turn one, two or three coins.
    MockTurtles,
    /// Turn the four corners of a rectangle on a grid.
    TurningCorners,
}

impl CoinRule {
    /// The claim-language name of the game.
    pub fn name(self) -> &'static str {
        match self {
            CoinRule::Twins => "twins",
            CoinRule::TurningTurtles => "turning_turtles",
            CoinRule::Ruler => "ruler",
            CoinRule::MockTurtles => "mock_turtles",
            CoinRule::TurningCorners => "turning_corners",
        }
    }

    /// Whether the coins lie on a grid (two coordinates) rather than in a row.
    pub fn is_grid(self) -> bool {
        self == CoinRule::TurningCorners
    }
}

/// A single heads coin of a coin-turning game; every other coin is tails. For a row, `y` is 0
/// and `x` is the coin's place, counted from 0 at the left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coin {
    /// The rule of the game.
    pub rule: CoinRule,
    /// The place in the row, or the row of the grid.
    pub x: u64,
    /// The column of the grid (0 for a row).
    pub y: u64,
}

impl Coin {
    /// A heads coin at place `n` of a row played by `rule`. For Turning Corners, the coin
    /// `(n, 0)`.
    pub fn in_row(rule: CoinRule, n: u64) -> Coin {
        Coin { rule, x: n, y: 0 }
    }

    /// A heads coin at `(x, y)` of a Turning Corners grid.
    pub fn corner(x: u64, y: u64) -> Coin {
        Coin {
            rule: CoinRule::TurningCorners,
            x,
            y,
        }
    }

    /// Whether any move turns this coin over as the far coin.
    pub fn has_move(&self) -> bool {
        match self.rule {
            CoinRule::Twins => self.x > 0,
            CoinRule::TurningTurtles | CoinRule::Ruler | CoinRule::MockTurtles => true,
            CoinRule::TurningCorners => self.x > 0 && self.y > 0,
        }
    }

    /// How many moves there are from this coin.
    pub fn move_count(&self) -> u64 {
        match self.rule {
            CoinRule::Twins => self.x,
            CoinRule::TurningTurtles | CoinRule::Ruler => self.x.saturating_add(1),
            CoinRule::TurningCorners => self.x.saturating_mul(self.y),
            // Alone, with one of the x coins on its left, or with two of them.
            CoinRule::MockTurtles => {
                let x = u128::from(self.x);
                u64::try_from(1 + x + x * x.saturating_sub(1) / 2).unwrap_or(u64::MAX)
            }
        }
    }

    /// The options of this coin: for each move, the other coins it turns (which become heads).
    /// The caller bounds [`Coin::move_count`] first.
    pub fn options(&self) -> Vec<Vec<Coin>> {
        let (x, y, rule) = (self.x, self.y, self.rule);
        let row = |n: u64| Coin::in_row(rule, n);
        match rule {
            CoinRule::Twins => (0..x).map(|m| vec![row(m)]).collect(),
            CoinRule::TurningTurtles => std::iter::once(Vec::new())
                .chain((0..x).map(|m| vec![row(m)]))
                .collect(),
            CoinRule::Ruler => (0..=x).map(|a| (a..x).map(row).collect()).collect(),
            CoinRule::MockTurtles => {
                let mut out = vec![Vec::new()];
                for b in 0..x {
                    out.push(vec![row(b)]);
                    out.extend((0..b).map(|a| vec![row(a), row(b)]));
                }
                out
            }
            CoinRule::TurningCorners => {
                let mut out = Vec::new();
                for a in 0..x {
                    for b in 0..y {
                        out.push(vec![
                            Coin::corner(a, b),
                            Coin::corner(a, y),
                            Coin::corner(x, b),
                        ]);
                    }
                }
                out
            }
        }
    }

    /// What filling the table up to this coin costs, counted from an empty table: the coins of
    /// the table plus the moves looked at. Saturates.
    fn cost(&self) -> u64 {
        let tri = |n: u64| (n as u128) * (n as u128 + 1) / 2;
        let c: u128 = match self.rule {
            // Coin k has k (Twins) or k + 1 moves, and there are n + 1 coins.
            CoinRule::Twins => tri(self.x) + self.x as u128 + 1,
            CoinRule::TurningTurtles | CoinRule::Ruler => tri(self.x + 1) + self.x as u128 + 1,
            CoinRule::TurningCorners => {
                tri(self.x) * tri(self.y) + (self.x as u128 + 1) * (self.y as u128 + 1)
            }
            // Coin k has 1 + k + k(k−1)/2 moves: the sum over k ≤ n is C(n+1, 1) + C(n+1, 2)
            // + C(n+1, 3).
            CoinRule::MockTurtles => {
                let n = self.x as u128 + 1;
                n + n * (n - 1) / 2 + n * (n - 1) * n.saturating_sub(2) / 6 + n
            }
        };
        u64::try_from(c).unwrap_or(u64::MAX)
    }

    /// How many coins the table must hold to reach this coin. Saturates.
    fn table_coins(&self) -> u64 {
        let c = (self.x as u128 + 1) * (self.y as u128 + 1);
        u64::try_from(c).unwrap_or(u64::MAX)
    }
}

impl fmt::Display for Coin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rule.is_grid() {
            write!(f, "{}({}, {})", self.rule.name(), self.x, self.y)
        } else {
            write!(f, "{}({})", self.rule.name(), self.x)
        }
    }
}

/// Coin values filled so far. A row table is a prefix; the grid table is a list of rows whose
/// lengths never increase, so every filled coin has all the coins its moves reach filled too.
#[derive(Default)]
struct Tables {
    twins: Vec<u64>,
    turtles: Vec<u64>,
    ruler: Vec<u64>,
    mock: Vec<u64>,
    corners: Vec<Vec<u64>>,
}

static TABLES: Mutex<Tables> = Mutex::new(Tables {
    twins: Vec::new(),
    turtles: Vec::new(),
    ruler: Vec::new(),
    mock: Vec::new(),
    corners: Vec::new(),
});

/// The least value not marked in `seen`.
fn mex(seen: &[bool]) -> u64 {
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u64
}

/// Marks `v` in `seen`. A coin with `k` options has a value of at most `k`, so `seen` holds
/// `k + 1` flags and larger values, which cannot change the mex, are skipped.
fn mark(seen: &mut [bool], v: u64) {
    if let Some(s) = usize::try_from(v).ok().and_then(|v| seen.get_mut(v)) {
        *s = true;
    }
}

/// The Grundy value of one heads coin, by the mex over its moves (see the module docs).
pub(crate) fn coin_value(coin: &Coin, meter: &mut Meter) -> Result<u64, GameError> {
    if coin.table_coins() > MAX_COINS {
        return Err(GameError::BudgetExceeded {
            budget: format!("{MAX_COINS} coins in one table"),
            reached: format!("asking for a table of {} coins", coin.table_coins()),
        });
    }
    meter.charge(coin.cost())?;
    // A poisoned lock only means another search stopped while filling; every state the tables
    // pass through is consistent, so the values are still right.
    let mut t = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let (x, y) = (coin.x as usize, coin.y as usize);
    match coin.rule {
        CoinRule::Twins => fill_row(&mut t.twins, x, meter, |t, n, seen| {
            for &v in &t[..n] {
                mark(seen, v);
            }
        }),
        CoinRule::TurningTurtles => fill_row(&mut t.turtles, x, meter, |t, n, seen| {
            mark(seen, 0);
            for &v in &t[..n] {
                mark(seen, v);
            }
        }),
        CoinRule::Ruler => fill_row(&mut t.ruler, x, meter, |t, n, seen| {
            // The run from a to n leaves coins a … n−1 heads.
            let mut run = 0;
            mark(seen, 0);
            for &v in t[..n].iter().rev() {
                run ^= v;
                mark(seen, run);
            }
        }),
        CoinRule::MockTurtles => fill_row(&mut t.mock, x, meter, mock_options),
        CoinRule::TurningCorners => fill_grid(&mut t.corners, x, y, meter),
    }
}

/// Marks the option values of Mock Turtles coin `n`: 0 (turn it alone), `t[b]` and
/// `t[a] ⊕ t[b]` for `a < b < n`. Distinct coins with one value make 0, already marked, so only
/// the distinct values are paired. Option values below `2^B` stay below it under `⊕`, so the
/// flags `seen` needs are bounded by the largest value, not by the number of moves.
fn mock_options(t: &[u64], n: usize, seen: &mut [bool]) {
    let mut values: Vec<u64> = t[..n].to_vec();
    values.sort_unstable();
    values.dedup();
    mark(seen, 0);
    for (i, &b) in values.iter().enumerate() {
        mark(seen, b);
        for &a in &values[..i] {
            mark(seen, a ^ b);
        }
    }
}

/// Fills a row table up to place `n`; `options` marks the option values of coin `k` given the
/// values of coins `0 … k−1`.
fn fill_row(
    table: &mut Vec<u64>,
    n: usize,
    meter: &mut Meter,
    options: impl Fn(&[u64], usize, &mut [bool]),
) -> Result<u64, GameError> {
    let mut seen = Vec::new();
    let mut top = table.iter().copied().max().unwrap_or(0);
    while table.len() <= n {
        let k = table.len();
        for _ in 0..(k * k) / 4096 + 1 {
            meter.step()?;
        }
        // A coin's value is at most its number of options, and a nim-sum of values below a
        // power of two stays below it, so either bound makes room for every value that can
        // decide the mex. The larger one is kept: too many flags cost only memory.
        let width = (k + 2).max(
            usize::try_from(top)
                .unwrap_or(usize::MAX / 4)
                .saturating_add(1)
                .next_power_of_two()
                + 1,
        );
        seen.clear();
        seen.resize(width, false);
        options(table, k, &mut seen);
        let v = mex(&seen);
        top = top.max(v);
        table.push(v);
    }
    Ok(table[n])
}

/// Fills the Turning Corners table over the rectangle `0 … x` × `0 … y`, row by row.
fn fill_grid(
    rows: &mut Vec<Vec<u64>>,
    x: usize,
    y: usize,
    meter: &mut Meter,
) -> Result<u64, GameError> {
    if rows.len() <= x {
        rows.resize_with(x + 1, Vec::new);
    }
    let mut seen = Vec::new();
    for i in 0..=x {
        while rows[i].len() <= y {
            let j = rows[i].len();
            seen.clear();
            seen.resize(i * j + 1, false);
            // The coins (a, b), (a, j) and (i, b) with a < i, b < j are filled: rows above
            // are at least as long as this one will be, and (i, b) comes earlier in this row.
            for a in 0..i {
                meter.step()?;
                let (upper, here) = (&rows[a], &rows[i]);
                let top = upper[j];
                for (&corner, &side) in upper[..j].iter().zip(&here[..j]) {
                    mark(&mut seen, corner ^ top ^ side);
                }
            }
            let v = mex(&seen);
            rows[i].push(v);
        }
    }
    Ok(rows[x][y])
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::game::Budget;

    #[test]
    fn options_list_the_other_coins_of_each_move() {
        let r = Coin::in_row(CoinRule::Ruler, 2);
        let opts = r.options();
        assert_eq!(opts.len() as u64, r.move_count());
        assert_eq!(opts[0].len(), 2);
        assert!(opts[2].is_empty());
        let c = Coin::corner(2, 3);
        assert_eq!(c.options().len() as u64, c.move_count());
        assert!(!Coin::corner(0, 5).has_move());
    }

    #[test]
    fn a_table_over_the_limit_is_refused_before_any_work() {
        let mut m = Meter::new(&Budget::default());
        let e = coin_value(&Coin::corner(1 << 20, 1 << 20), &mut m).unwrap_err();
        assert!(e.to_string().contains("coins in one table"), "{e}");
        let e = coin_value(&Coin::in_row(CoinRule::Ruler, 100_000), &mut m).unwrap_err();
        assert!(e.to_string().contains("positions"), "{e}");
    }
}
