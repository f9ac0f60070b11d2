//! Lasker's Nim: a move takes any number of counters from one heap, or splits a heap into two
//! non-empty heaps without taking anything.
//!
//! A heap's options are every smaller heap and every pair of heaps `a + b` with `a + b = n`, so
//! its value is the mex of all smaller values and the nim-sums `g(a) ⊕ g(n − a)`. The values are
//! computed from that definition, heap by heap; the rule by `n mod 4` that the lesson states
//! (`g(4k+1) = 4k+1`, `g(4k+2) = 4k+2`, `g(4k+3) = 4k+4`, `g(4k+4) = 4k+3`) is never used here.

use std::sync::Mutex;

use super::{GameError, Meter};

/// The largest heap whose value is computed (the table costs about `3n²/4` steps).
pub const MAX_LASKER_HEAP: u64 = 1 << 16;

/// Values computed so far, shared by every search in the process (as the coin tables are), so
/// that a claim over many heaps fills the table once. Every request is charged as if the table
/// were empty, so whether it fits the budget never depends on what ran before.
static TABLE: Mutex<Vec<u64>> = Mutex::new(Vec::new());

/// The value of a heap of `n`.
pub(crate) fn lasker_value(n: u64, meter: &mut Meter) -> Result<u64, GameError> {
    if n > MAX_LASKER_HEAP {
        return Err(GameError::BudgetExceeded {
            budget: format!("heaps up to {MAX_LASKER_HEAP} in Lasker's Nim"),
            reached: format!("asking for a heap of {n}"),
        });
    }
    // Heap k looks at k removals and k / 2 splits.
    meter.charge(n + 1 + n * (n + 1) / 2 + n * n / 4)?;
    // A poisoned lock only means another search stopped while filling; every prefix of the
    // table is correct.
    let mut g = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    let mut seen: Vec<bool> = Vec::new();
    while g.len() <= n as usize {
        let k = g.len();
        meter.check_time()?;
        // A value is at most the number of options.
        seen.clear();
        seen.resize(k + k / 2 + 2, false);
        for &v in g.iter() {
            if let Some(s) = seen.get_mut(v as usize) {
                *s = true;
            }
        }
        for a in 1..=k / 2 {
            if let Some(s) = seen.get_mut((g[a] ^ g[k - a]) as usize) {
                *s = true;
            }
        }
        let mex = seen.iter().position(|&s| !s).unwrap_or(seen.len());
        g.push(mex as u64);
    }
    Ok(g[n as usize])
}
