//! The Cram search: Grundy values of regions by a search that asks of each option only what
//! the answer still depends on, and misère outcomes of whole boards.
//!
//! The module documentation of `cram` states and proves the rules; this file follows it.

use super::grid::{Canonical, Grid};
use super::table::{Table, MIN_TABLE_BYTES};
use crate::game::{GameError, Meter};

/// The most dominoes that fit on 64 cells (an 8 × 8 board: 2 · 8 · 7).
const MAX_DOMINOES: usize = 112;

/// A set of Grundy values, bit `v` for the value `v`. A region's value is at most its number
/// of dominoes, at most 112 on 64 cells, so 128 bits hold every value.
type Values = u128;

/// The values `0..n` (`n ≤ 128`).
#[inline]
fn below(n: u32) -> Values {
    if n >= 128 {
        Values::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// `{v ⊕ x : v ∈ set}`: xoring by a power of two swaps neighbouring blocks of that size.
#[inline]
fn xor_each(mut set: Values, x: u8) -> Values {
    const LOW: [Values; 7] = [
        0x5555_5555_5555_5555_5555_5555_5555_5555,
        0x3333_3333_3333_3333_3333_3333_3333_3333,
        0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f,
        0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff,
        0x0000_ffff_0000_ffff_0000_ffff_0000_ffff,
        0x0000_0000_ffff_ffff_0000_0000_ffff_ffff,
        0x0000_0000_0000_0000_ffff_ffff_ffff_ffff,
    ];
    for (k, low) in LOW.iter().enumerate() {
        if x >> k & 1 == 1 {
            let s = 1u32 << k;
            set = ((set & low) << s) | ((set >> s) & low);
        }
    }
    set
}

/// Which rules the search uses (all of them are exact; see [`super::CramOptions`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Rules {
    pub(super) symmetry: bool,
    pub(super) paths: bool,
    pub(super) point_symmetry: bool,
    pub(super) reductions: bool,
}

/// An option whose value the known regions do not settle: its unknown regions are
/// `arena[start..end]`, the known ones fold into `known`.
#[derive(Clone, Copy)]
struct Pending {
    /// Sort key: the sum of the squares of the unknown regions' sizes, then the order found.
    order: u64,
    known: u8,
    start: u32,
    end: u32,
}

/// The payload bit of an exact value (the rank's top bit, so that exact values outrank
/// exclusions at eviction).
const EXACT: u16 = 1 << 12;
/// The values an exclusion can name: `0..12`.
const EXCLUDABLE: Values = (1 << 12) - 1;

/// What the table holds for a region: its value, or values it is known not to have.
#[derive(Clone, Copy)]
enum Entry {
    Value(u8),
    Excludes(Values),
}

impl Entry {
    fn read(payload: Option<u16>) -> Option<Entry> {
        payload.map(|p| {
            if p & EXACT != 0 {
                Entry::Value((p & 0x7f) as u8)
            } else {
                Entry::Excludes(Values::from(p) & EXCLUDABLE)
            }
        })
    }
}

/// The payload of an exact value of a region of `cells` cells: ranked by size, since a large
/// region costs most to search again.
fn exact_payload(value: u8, cells: u32) -> u16 {
    EXACT | (((cells.min(62) / 2) as u16) << 7) | u16::from(value & 0x7f)
}

/// What a region's value is known to be without searching it.
enum Known {
    Value(u8),
    Key(u64),
}

/// The search of one stride: its geometry, its tables and its work stacks.
pub(super) struct Engine {
    grid: Grid,
    rules: Rules,
    values: Table,
    misere: Option<Table>,
    /// Dawson's Kayles, the values of paths of `n` cells.
    dawson: Vec<u8>,
    /// The unknown regions of the options of every level of the search.
    arena: Vec<u64>,
    /// The options still to search, of every level.
    pending: Vec<Pending>,
}

impl Engine {
    pub(super) fn new(grid: Grid, rules: Rules, dawson: Vec<u8>, limit_bytes: u64) -> Engine {
        Engine {
            grid,
            rules,
            values: Table::new(limit_bytes),
            misere: None,
            dawson,
            arena: Vec::new(),
            pending: Vec::new(),
        }
    }

    pub(super) fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Bytes both tables take now.
    pub(super) fn bytes(&self) -> u64 {
        self.values.bytes() + self.misere.as_ref().map_or(0, Table::bytes)
    }

    /// Entries held and entries lost at the budget, both tables together.
    pub(super) fn counts(&self) -> (u64, u64) {
        let m = self
            .misere
            .as_ref()
            .map_or((0, 0), |t| (t.len(), t.evicted()));
        (self.values.len() + m.0, self.values.evicted() + m.1)
    }

    /// Lets the table of normal play (or of misère play) grow to `extra` more bytes than it
    /// takes now.
    pub(super) fn allow(&mut self, extra: u64, misere: bool) {
        let t = if misere {
            self.misere
                .get_or_insert_with(|| Table::new(MIN_TABLE_BYTES))
        } else {
            &mut self.values
        };
        t.set_limit(t.bytes().saturating_add(extra));
    }

    /// The nim-sum of the values of the regions of `b` (cells in this engine's layout).
    pub(super) fn position_value(&mut self, b: u64, meter: &mut Meter) -> Result<u8, GameError> {
        self.arena.clear();
        self.pending.clear();
        let x = self.split(b, 0, true);
        let mut total = x;
        for i in 0..self.arena.len() {
            let key = self.arena.get(i).copied().unwrap_or(0);
            total ^= self.value(key, meter)?;
        }
        self.arena.clear();
        Ok(total)
    }

    /// The value of the region `key`, by aspiration: for `r = 0, 1, …` the options are asked
    /// only whether their value is `r`, and the first `r` that no option has is the value.
    /// Every option valued on the way is remembered, so no option is searched twice for the
    /// same answer.
    fn value(&mut self, key: u64, meter: &mut Meter) -> Result<u8, GameError> {
        let excluded = match Entry::read(self.values.get(key)) {
            Some(Entry::Value(v)) => return Ok(v),
            Some(Entry::Excludes(e)) => e,
            None => 0,
        };
        meter.tick()?;
        let arena_base = self.arena.len();
        let pending_base = self.pending.len();
        let result = self.aspire(key, excluded, meter);
        self.arena.truncate(arena_base);
        self.pending.truncate(pending_base);
        let v = result?;
        self.values.insert(key, exact_payload(v, key.count_ones()));
        Ok(v)
    }

    /// The loop of [`Engine::value`] over the candidate values.
    fn aspire(&mut self, key: u64, excluded: Values, meter: &mut Meter) -> Result<u8, GameError> {
        let moves = self.grid.domino_count(key);
        let mut open = below(moves + 1);
        let pending_base = self.pending.len();
        // Nothing is wanted ahead of time: every option is listed.
        self.list_options(key, 0, &mut open)?;
        // `open` now holds the values no option is known to have; `seen` those some has, or
        // that the region is known not to have.
        let mut seen = (!open | excluded) & below(moves + 1);
        for r in 0..=moves {
            if seen >> r & 1 == 1 {
                continue;
            }
            let mut taken = false;
            for i in pending_base..self.pending.len() {
                let p = self.pending[i];
                if p.start == p.end {
                    continue;
                }
                if let Some(g) = self.option_in_set(i, 1u128 << r, meter)? {
                    seen |= 1u128 << g;
                    if u32::from(g) == r {
                        taken = true;
                        break;
                    }
                }
            }
            if !taken {
                return Ok(r as u8);
            }
        }
        // Unreachable by counting (the value is at most the number of options); the mex of
        // what was seen is still the value if every option was valued.
        Ok((!seen).trailing_zeros() as u8)
    }

    /// What is known of a region (connected, at least one cell) without searching it; the
    /// table is asked only if `lookup`.
    fn known(&self, c: u64, lookup: bool) -> Known {
        let n = c.count_ones();
        let edges = self.grid.domino_count(c);
        if edges == 0 {
            return Known::Value(0);
        }
        if self.rules.paths && (edges + 1 == n || edges == n) {
            let (leaves, three) = self.grid.degrees(c);
            let dk = |m: u32| self.dawson.get(m as usize).copied().unwrap_or(0);
            if three == 0 && edges + 1 == n {
                return Known::Value(dk(n));
            }
            if three == 0 && leaves == 0 {
                // A cycle: every domino leaves a path of n − 2 cells.
                return Known::Value(u8::from(dk(n - 2) == 0));
            }
        }
        let Canonical { key, mirror_zero } = self.grid.canonical(c, self.rules.symmetry);
        if self.rules.point_symmetry && mirror_zero {
            return Known::Value(0);
        }
        if !lookup {
            return Known::Key(key);
        }
        match Entry::read(self.values.get(key)) {
            Some(Entry::Value(v)) => Known::Value(v),
            _ => Known::Key(key),
        }
    }

    /// Splits `p` into its regions (after the reductions): returns the nim-sum of the known
    /// values and pushes the keys of the others on the arena after `start`; two copies of one
    /// region cancel (`g ⊕ g = 0`). The table is asked only if `lookup`.
    fn split(&mut self, p: u64, start: usize, lookup: bool) -> u8 {
        let mut rest = if self.rules.reductions {
            self.grid.reduce(p)
        } else {
            p
        };
        let mut x = 0;
        let cut = if self.rules.reductions {
            self.grid.cuts(rest)
        } else {
            0
        };
        while rest != 0 {
            let c = self.grid.lowest_component(rest, cut);
            rest &= !c;
            match self.known(c, lookup) {
                Known::Value(v) => x ^= v,
                Known::Key(k) => match self
                    .arena
                    .get(start..)
                    .and_then(|a| a.iter().position(|&a| a == k))
                {
                    Some(i) => {
                        self.arena.swap_remove(start + i);
                    }
                    None => self.arena.push(k),
                },
            }
        }
        x
    }

    /// The value of the region `key` if it is in `want` (non-empty); `None` only when it is
    /// not. A value outside `want` may be returned too.
    ///
    /// The options' values are narrowed in `open`, the values the region may still have as far
    /// as the options seen so far tell (see the module documentation of `cram` for the
    /// invariant and why each step keeps it).
    fn in_set(
        &mut self,
        key: u64,
        want: Values,
        meter: &mut Meter,
    ) -> Result<Option<u8>, GameError> {
        let excluded = match Entry::read(self.values.get(key)) {
            Some(Entry::Value(v)) => return Ok(Some(v)),
            Some(Entry::Excludes(e)) => e,
            None => 0,
        };
        // The value is not among the excluded, so it is in `want` exactly when it is in
        // what remains.
        let want = want & !excluded;
        let mut open = below(self.grid.domino_count(key) + 1);
        if open & want == 0 {
            return Ok(None);
        }
        meter.tick()?;
        let top = 127 - want.leading_zeros();
        let arena_base = self.arena.len();
        let pending_base = self.pending.len();
        let result = self.narrow(key, want, &mut open, meter);
        self.arena.truncate(arena_base);
        self.pending.truncate(pending_base);
        let not_in = match result? {
            Narrowed::NotWanted => want,
            Narrowed::Done { exact } => {
                let v = open.trailing_zeros();
                if exact || v <= top {
                    self.values
                        .insert(key, exact_payload(v as u8, key.count_ones()));
                    return Ok(Some(v as u8));
                }
                below(top + 1)
            }
        };
        // The value is not in `not_in`: remember it with what was known before.
        let excludes = (excluded | not_in) & EXCLUDABLE;
        if excludes != excluded {
            self.values.insert(key, excludes as u16);
        }
        Ok(None)
    }

    /// Lists the options of `key`: those whose regions all have known values leave `open`
    /// at once, the others go on the pending stack, cheapest first. `NotWanted` as soon as
    /// `open` and `want` part (`want = 0` wants nothing ahead of time and never stops).
    fn list_options(
        &mut self,
        key: u64,
        want: Values,
        open: &mut Values,
    ) -> Result<Narrowed, GameError> {
        let pending_base = self.pending.len();
        let (order, count) = self.order(key);
        for (found, &pair) in order[..count].iter().enumerate() {
            let start = self.arena.len();
            let x = self.split(key & !pair, start, true);
            let end = self.arena.len();
            if end == start {
                *open &= !(1u128 << x);
                if want != 0 && *open & want == 0 {
                    return Ok(Narrowed::NotWanted);
                }
            } else {
                let cost: u64 = self.arena[start..end]
                    .iter()
                    .map(|c| u64::from(c.count_ones()).pow(2))
                    .sum();
                self.pending.push(Pending {
                    order: (cost << 32) | found as u64,
                    known: x,
                    start: start as u32,
                    end: end as u32,
                });
            }
        }
        self.pending[pending_base..].sort_unstable_by_key(|p| p.order);
        Ok(Narrowed::Done { exact: true })
    }

    /// The two passes over the options of `key`: those settled by known values, then the
    /// others, cheapest first, each asked whether its value is among those still open (but
    /// the largest) that `want` cares about.
    fn narrow(
        &mut self,
        key: u64,
        want: Values,
        open: &mut Values,
        meter: &mut Meter,
    ) -> Result<Narrowed, GameError> {
        let pending_base = self.pending.len();
        if let Narrowed::NotWanted = self.list_options(key, want, open)? {
            return Ok(Narrowed::NotWanted);
        }
        let upto = below(128 - want.leading_zeros());
        let mut exact = true;
        for i in pending_base..self.pending.len() {
            if *open & want == 0 {
                return Ok(Narrowed::NotWanted);
            }
            let top_open = 127 - open.leading_zeros();
            let ask = *open & !(1u128 << top_open) & upto;
            let got = if ask == 0 {
                None
            } else {
                self.option_in_set(i, ask, meter)?
            };
            match got {
                Some(g) => *open &= !(1u128 << g),
                None => {
                    *open &= !(1u128 << top_open);
                    exact = false;
                }
            }
        }
        Ok(Narrowed::Done { exact })
    }

    /// The value of the pending option `i` if it is in `ask`: its smaller regions are valued
    /// exactly (once: the option then keeps only its largest region, their values folded into
    /// its known part), and the largest is searched with `ask` moved by their nim-sum. An
    /// option valued exactly is marked done (an empty range).
    fn option_in_set(
        &mut self,
        i: usize,
        ask: Values,
        meter: &mut Meter,
    ) -> Result<Option<u8>, GameError> {
        let Pending {
            mut known,
            start,
            end,
            ..
        } = self.pending[i];
        let (start, end) = (start as usize, end as usize);
        if end - start > 1 {
            let mut largest = start;
            for j in start..end {
                if self.arena[j].count_ones() > self.arena[largest].count_ones() {
                    largest = j;
                }
            }
            for j in start..end {
                if j != largest {
                    let k = self.arena[j];
                    known ^= self.value(k, meter)?;
                }
            }
            self.arena[start] = self.arena[largest];
            self.pending[i].known = known;
            self.pending[i].end = start as u32 + 1;
        }
        let k = self.arena[start];
        let got = self
            .in_set(k, xor_each(ask, known), meter)?
            .map(|g| g ^ known);
        if got.is_some() {
            self.pending[i].end = start as u32;
        }
        Ok(got)
    }

    /// The dominoes of the region `key` in the order they are tried (centre first), on the
    /// stack: the search below may not borrow the grid while it runs.
    fn order(&self, key: u64) -> ([u64; MAX_DOMINOES], usize) {
        let mut order = [0u64; MAX_DOMINOES];
        let mut count = 0;
        for (slot, pair) in order.iter_mut().zip(self.grid.centre_first(key)) {
            *slot = pair;
            count += 1;
        }
        (order, count)
    }

    /// Misère play: whether the player to move on `b` (any cells, in this engine's layout)
    /// wins.
    pub(super) fn misere_wins(&mut self, b: u64, meter: &mut Meter) -> Result<bool, GameError> {
        let p = if self.rules.reductions {
            self.grid.reduce(b)
        } else {
            b
        };
        if !self.grid.has_domino(p) {
            // No move: in misère play the player to move wins.
            return Ok(true);
        }
        let key = self.grid.canonical(p, self.rules.symmetry).key;
        let table = self
            .misere
            .get_or_insert_with(|| Table::new(MIN_TABLE_BYTES));
        if let Some(p) = table.get(key) {
            return Ok(p & 1 == 1);
        }
        meter.tick()?;
        let mut wins = false;
        let (order, count) = self.order(key);
        for &pair in &order[..count] {
            if !self.misere_wins(key & !pair, meter)? {
                wins = true;
                break;
            }
        }
        if let Some(t) = &mut self.misere {
            t.insert(key, exact_payload(u8::from(wins), key.count_ones()));
        }
        Ok(wins)
    }
}

/// How the passes over a region's options ended.
enum Narrowed {
    /// The region's value is not in the wanted set.
    NotWanted,
    /// Every option was looked at; `exact` when each was valued exactly.
    Done { exact: bool },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_each_moves_every_member() {
        for x in 0..128u8 {
            for set in [1u128, 0b1011, 1 << 100 | 1 << 3, Values::MAX >> 5] {
                let mut want = 0u128;
                for v in 0..128u32 {
                    if set >> v & 1 == 1 {
                        want |= 1 << (v ^ u32::from(x));
                    }
                }
                assert_eq!(xor_each(set, x), want, "{set:b} ^ {x}");
            }
        }
    }
}
