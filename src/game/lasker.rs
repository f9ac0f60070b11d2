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

/// An arithmetic period of a value sequence: `g(n + period) = g(n) + saltus` for every
/// `n ≥ preperiod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArithmeticPeriodicity {
    /// The first heap size from which the sequence repeats with the shift.
    pub preperiod: u64,
    /// The length of the repeating block.
    pub period: u64,
    /// What each block adds to the values (a power of two).
    pub saltus: u64,
    /// How many values (heaps `0 … checked − 1`) the criterion read.
    pub checked: u64,
}

/// The first `n` values of the shared table, if that many have been computed (for tests that
/// compare what the criterion read with an oracle).
#[cfg(test)]
pub(crate) fn lasker_period_values(n: usize) -> Option<Vec<u64>> {
    let table = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    table.get(..n).map(<[u64]>::to_vec)
}

/// The largest heap the arithmetic-periodicity search of Lasker's Nim computes values for.
const LASKER_SEARCH_LIMIT: u64 = 1 << 10;

/// Proves the arithmetic period of Lasker's Nim by the shift–residue criterion
/// (`shift_residue`), reading values from the definition for ever longer prefixes.
pub fn lasker_period(b: &super::Budget) -> Result<ArithmeticPeriodicity, GameError> {
    let mut meter = Meter::new(b);
    let mut len = 16;
    loop {
        lasker_value(len - 1, &mut meter)?;
        let g: Vec<u64> = {
            let table = TABLE.lock().unwrap_or_else(|e| e.into_inner());
            table[..len as usize].to_vec()
        };
        if let Some(found) = shift_residue(&g) {
            return Ok(found);
        }
        if len >= LASKER_SEARCH_LIMIT {
            return Err(GameError::BudgetExceeded {
                budget: format!("heaps below {LASKER_SEARCH_LIMIT} for an arithmetic period"),
                reached: "no period proved among them".into(),
            });
        }
        len *= 2;
    }
}

/// The shift–residue criterion as the lessons state it (`criterion("shift-residue")`): what
/// the function `shift_residue` checks, in words; its proof is in that function's documentation.
pub const SHIFT_RESIDUE: &str = "Let a heap of $n$ counters move to any smaller heap, or to nothing, or to two non-empty heaps adding up to $n$, and write $g(n)$ for its value. Take $n_0 \\ge 1$, $p \\ge 1$, a power of two $s$ and a length $L \\ge \\max(2n_0, n_0 + p)$. Write $\\mathrm{lo}(v) = v \\bmod s$ for the last bits of a value, $\\lambda(r)$ for $\\mathrm{lo}(g(n))$ at the heaps $n \\ge n_0$ with $n \\equiv r \\pmod p$, $P$ for the largest value of a heap below $n_0$ and $V$ for the largest value of a heap below $n_0 + p$.

1. The shift: $g(n + p) = g(n) + s$ for $n_0 \\le n < L$.
2. The residues: for each residue $r$ modulo $p$, $\\lambda(r)$ is none of the values $\\lambda(x) \\oplus \\lambda(y)$ with $x + y \\equiv r \\pmod p$, and none of the values $\\mathrm{lo}(g(a)) \\oplus \\lambda(r - a)$ with $1 \\le a < n_0$.
3. The small values: every value up to $P + s$ is the value of some heap below $L$, and $g(N) + s > V$ for every heap $N$ with $L \\le N < L + p$.
4. The gaps: for every heap $N$ with $L \\le N < L + p$, every value below $g(N)$ that no smaller heap has is the value $g(c) \\oplus g(h)$ of a split $c + h = N$ with $h \\ge n_0$ and $g(c) < s$.

Then $g(n + p) = g(n) + s$ for every $n \\ge n_0$: the values are arithmetic-periodic with period $p$ and saltus $s$ from $n_0$. The engine tries the least $L$ that meets condition 3.";

/// The shift–residue criterion for a heap game in which a heap of `n` may become any single
/// smaller heap (or nothing) or two non-empty heaps adding up to `n` (Lasker's Nim). It looks for
/// `n₀ ≥ 1`, `p ≥ 1` and a power of two `s` with `g(n + p) = g(n) + s` and checks, on the prefix
/// `g` (heaps `0 … g.len() − 1`), the conditions under which that holds for every `n ≥ n₀`.
///
/// Write `lo(v) = v mod s`. The XOR of parts acts on `lo` alone (`s` is a power of two), so for
/// heaps from `n₀` on, `lo(g(n))` depends on `n mod p` only; call it `λ(n mod p)`. Let `P` be the
/// largest value below `n₀`, `V` the largest below `n₀ + p`, and `B = P + s + 1`. The conditions,
/// for some `L ≥ max(2n₀, n₀ + p)` with `L + p ≤ g.len()`:
///
/// 1. `g(n + p) = g(n) + s` for `n₀ ≤ n < L`;
/// 2. no split has the residue of the heap's own value: for each residue `r`, `λ(r)` is none of
///    `λ(x) ⊕ λ(y)` with `x + y ≡ r (mod p)`, nor `lo(g(a)) ⊕ λ(r − a)` for `1 ≤ a < n₀`;
/// 3. every value below `B` is the value of some heap below `L`, and `g(N) + s > V` for
///    `L ≤ N < L + p`;
/// 4. for `L ≤ N < L + p`, every value below `g(N)` that no heap below `N` has is the value of
///    a *shiftable* split `c + h = N`: `h ≥ n₀` and `g(c) < s`.
///
/// Proof that then `g(N + p) = g(N) + s` for every `N ≥ L`, by induction on `N`, carrying (4)
/// from `N` to `N + p`. Let `g = g(N)` and `S'` the option values of `N + p`.
/// *`g + s` is not in `S'`.* A single heap `m ≥ n₀ + p` has `g(m) = g(m − p) + s`, and
/// `g(m − p) ≠ g` since `m − p < N` is an option of `N`; a heap `m < n₀ + p` has
/// `g(m) ≤ V < g + s` (values grow by `s` a period, so the least `g(N)` for `N ≥ L` is in the
/// first period, where (3) holds). A split has `lo` in the set of (2) for the residue of
/// `N + p`, which misses `λ(N mod p) = lo(g + s)`; `N ≥ 2n₀` makes one part at least `n₀`.
/// *Every `v < g + s` is in `S'`.* If `v < B`, some heap below `L` has value `v`, and it is an
/// option. Otherwise, if no heap below `N + p` has value `v`, then neither does a heap `m` with
/// `n₀ ≤ m < N` have `v − s` (else `m + p` would have `v`), nor one below `n₀` (`v − s ≥ B − s`
/// is above `P`); `v − s < g`, so by (4) a shiftable split `c + h = N` has value `v − s`, and
/// `c + (h + p)` is a split of `N + p` of value `g(c) ⊕ (g(h) + s) = v` (as `g(c) < s`).
/// So `g(N + p) = g + s`. *(4) for `N + p`.* A value `u` missed by the heaps below `N + p` is at
/// least `B`, and `u − s` is missed by the heaps below `N` (as just shown), so it is the value of
/// a shiftable split `c + h` of `N`, and `c + (h + p)` is a shiftable split of `N + p` of value
/// `u`. ∎
///
/// So the values of heaps `0 … L + p − 1` decide it; the least `L` meeting (3) is used.
pub(crate) fn shift_residue(g: &[u64]) -> Option<ArithmeticPeriodicity> {
    let len = g.len();
    for p in 1..len / 3 {
        // The least n0 >= 1 from which g(n + p) − g(n) is one constant over the prefix.
        let last = len - p - 1;
        let Some(s) = g[last + p].checked_sub(g[last]) else {
            continue;
        };
        if s == 0 || !s.is_power_of_two() {
            continue;
        }
        let mut n0 = last;
        while n0 > 1 && g[n0 - 1 + p] == g[n0 - 1] + s {
            n0 -= 1;
        }
        if let Some(found) = conditions(g, n0, p, s) {
            return Some(found);
        }
    }
    None
}

/// Conditions (2) to (4) of [`shift_residue`] for one `n₀`, `p`, `s`, with condition (1) known
/// for `n₀ ≤ n < g.len() − p`.
fn conditions(g: &[u64], n0: usize, p: usize, s: u64) -> Option<ArithmeticPeriodicity> {
    let lo = |v: u64| v & (s - 1);
    // λ(r) for residues r mod p, read in the first period.
    let lambda: Vec<u64> = (0..p).map(|r| lo(g[n0 + (r + p - n0 % p) % p])).collect();
    for r in 0..p {
        let mut splits = (0..p).map(|x| lambda[x] ^ lambda[(r + p - x) % p]);
        let mut small = (1..n0).map(|a| lo(g[a]) ^ lambda[(r + p - a % p) % p]);
        if splits.any(|v| v == lambda[r]) || small.any(|v| v == lambda[r]) {
            return None;
        }
    }
    let top_pre = g[..n0].iter().copied().max()?;
    let top_first = g[..n0 + p].iter().copied().max()?;
    let bound = top_pre + s + 1;
    // The least L at which every value below `bound` has appeared.
    let mut seen = vec![false; usize::try_from(bound).ok()?];
    let mut missing = seen.len();
    let mut cover = 0;
    while missing > 0 {
        let v = *g.get(cover)?;
        if let Some(slot) = seen.get_mut(v as usize) {
            if !*slot {
                *slot = true;
                missing -= 1;
            }
        }
        cover += 1;
    }
    let l = cover.max(2 * n0).max(n0 + p);
    if l + p > g.len() {
        return None;
    }
    // The values of the heaps below `big`, one heap added each step.
    let mut below: std::collections::HashSet<u64> = g[..l].iter().copied().collect();
    for big in l..l + p {
        if g[big] + s <= top_first {
            return None;
        }
        for u in (0..g[big]).filter(|u| !below.contains(u)) {
            let shiftable = (1..big).any(|c| big - c >= n0 && g[c] < s && g[c] ^ g[big - c] == u);
            if !shiftable {
                return None;
            }
        }
        below.insert(g[big]);
    }
    Some(ArithmeticPeriodicity {
        preperiod: n0 as u64,
        period: p as u64,
        saltus: s,
        checked: (l + p) as u64,
    })
}
