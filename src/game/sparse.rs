//! The sparse-space computation of heap games whose moves split a heap in two.
//!
//! # The problem
//!
//! In Grundy's game, and in every octal game with a digit that has the bit 4, a heap of `n`
//! may be split into two heaps `a` and `b`. The value of that option is `G(a) ⊕ G(b)`, so the
//! plain computation of `G(n)` looks at about `n/2` splits, and the first `N` values cost
//! about `N²/4` steps: a hundred thousand heaps take seconds, ten million take days.
//!
//! # Two classes of values
//!
//! Pick a non-zero bit mask `m`, and sort every value `v` by the parity of the number of
//! its bits that `m` selects, `popcount(v & m)`:
//!
//! - **rare** when the parity is even (0 is always rare: it has no bits at all);
//! - **common** when the parity is odd.
//!
//! Parity adds under exclusive or: `popcount((x ⊕ y) & m)` and `popcount(x & m) +
//! popcount(y & m)` have the same parity, because a bit selected in both `x` and `y` is
//! counted twice on the right and not at all on the left. So
//!
//! | `G(a)` | `G(b)` | `G(a) ⊕ G(b)` |
//! | --- | --- | --- |
//! | rare | rare | rare |
//! | common | common | rare |
//! | rare | common | common |
//! | common | rare | common |
//!
//! **A split has a common value exactly when one of its two heaps has a rare value.**
//! (Note the direction: with both parts rare, the value is rare, not common.)
//!
//! # Why that helps
//!
//! For a good mask, few heaps have rare values: the *sparse space*. Call the list of those
//! heaps `R`. The mex of heap `n` is found in two steps.
//!
//! 1. **Every common option value** is made by a split `(r, n' − r)` with `r` in `R` (`n'`
//!    the heap left after the counters a move removes). So walking `R` once, and marking
//!    `G(r) ⊕ G(n' − r)` for each `r < n'`, marks every common value among the options,
//!    together with some rare ones. That costs `|R|` steps instead of `n/2`. The options
//!    that do not split (take the heap, or leave one heap) are few and are all marked.
//! 2. **Walk up the candidates** `v = 0, 1, 2, …`. A marked `v` is an option: go on. An
//!    unmarked *common* `v` is not an option, since step 1 marked them all, so it is the mex.
//!    An unmarked *rare* `v` might still be made by a split of two common heaps, which step 1
//!    did not look at: look at the splits in order (`a = 1, 2, …`), marking what they make,
//!    until `v` turns up; if it never does, `v` is the mex. The walk over the splits resumes
//!    where it stopped for the next rare candidate, so each split is looked at at most once.
//!
//! Step 2 is usually short: the common heaps are the many, so the splits of two common heaps
//! make every small rare value within the first few splits. Only when the mex itself is rare
//! (and `n` joins `R`) does it walk every split, and that happens rarely — that is the
//! sparse space.
//!
//! Nothing in this argument depends on the mask being good: it only decides the speed. The
//! values are the mex of the options for any mask, which the tests check against the plain
//! computation.
//!
//! # The domain form
//!
//! Some games, 0.106 among them, have no sparse space of this kind (about half their heaps
//! are rare under every mask), but have one when the parity of the heap joins in, as
//! Flammenkamp observed: sort heap `h` by `q(h) = popcount(G(h) & m) + h (mod 2)`. A split of
//! `n'` counters into `a + b` has a value of masked parity `q(a) + q(b) + n'`, since
//! `a + b = n'`. So the splits with parts of one class make values of masked parity `n' mod 2`
//! only, and every value of the other parity comes from a split with one part of each class.
//! Take the rare class to be the one that holds few heaps, and the two steps work unchanged,
//! with "common value" meaning "masked parity other than `n' mod 2`". Where there are several
//! splitting moves they must all leave `n'` of one parity (so the classes of values agree),
//! and the rare class is then the one a heap whose value is the least such common candidate
//! falls into: `q = ` the parity of the counters removed. ([`space`] has the details; for
//! 0.106, under the mask 13, 15 of the first 10⁵ heaps are rare.)
//!
//! # Games whose values repeat
//!
//! Dawson's Kayles has no sparse space of either form: 0 is in every period of its values.
//! Once the values computed so far repeat with a period over their second half, each heap is
//! computed by table lookups instead ([`tail`]): still the mex of every option, from values
//! already known, and the engine stops using the tables if a value breaks the repetition.
//!
//! # Choosing how
//!
//! The first [`PREFIX`] heaps are computed plainly. Then, and again each time the number of
//! heaps doubles, the engine picks the mask (of either form) under which the fewest heaps so
//! far are rare. The count of rare heaps under every mask at once is a Walsh–Hadamard
//! transform of the value histogram: with `c(v)` heaps of value `v` and
//! `W(m) = Σ c(v)·(−1)^popcount(v & m)`, the rare heaps number `(N + W(m))/2` (the domain form
//! transforms the even and the odd heaps apart). If the values repeat and their tables make a
//! heap cheaper than the rare heaps would, the next stretch (up to the next review) uses the
//! tables. Otherwise, if no mask leaves the rare heaps sparse (more than a quarter of the
//! heaps), or if the heaps since the last review cost more than the plain mex would have spent
//! on them, the next stretch is computed plainly; a game with no splitting move at all is
//! always computed plainly, which is then as cheap. So the engine is never much slower than
//! the plain computation, and much faster where the sparse space is real.
//!
//! # Storage
//!
//! Values are stored one byte each while they fit, and widened to two or four bytes when a
//! larger value appears, so a hundred million heaps of Grundy's game take about a hundred
//! megabytes.

mod space;
mod tail;
mod values;

use self::space::{Histogram, Space};
use self::tail::Tail;
use self::values::Cell;
pub(crate) use self::values::Values;
use super::{GameError, Meter};

/// Heaps computed plainly before the first mask is chosen.
const PREFIX: usize = 1024;

/// Step 2 looks at the splits in runs of this many smaller parts, then at what it still needs.
const RUN: usize = 128;

/// The most heaps a sequence may hold (heaps are `u32` indices internally).
const MAX_HEAPS: u64 = u32::MAX as u64;

/// One way of splitting: remove `removed` counters, then split what is left in two non-empty
/// heaps, equal ones allowed or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Split {
    removed: usize,
    equal: bool,
}

/// How a heap game moves: the octal digits for the moves that leave at most one heap, and
/// the ways of splitting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rules {
    digits: Vec<u8>,
    splits: Vec<Split>,
}

impl Rules {
    /// The rules of an octal game with digits `d₀, d₁, …`.
    pub(crate) fn octal(digits: &[u8]) -> Rules {
        let splits = (0..digits.len())
            .filter(|&k| digits[k] & 4 != 0)
            .map(|removed| Split {
                removed,
                equal: true,
            })
            .collect();
        Rules {
            digits: digits.to_vec(),
            splits,
        }
    }

    /// Grundy's game: split a heap into two unequal non-empty heaps.
    pub(crate) fn grundys_game() -> Rules {
        Rules {
            digits: Vec::new(),
            splits: vec![Split {
                removed: 0,
                equal: false,
            }],
        }
    }
}

/// The option values of one heap, one byte a value: a store with no read before it is the
/// cheapest mark there is, and the inner loops do nothing else.
///
/// Every value known is below `width` (a power of two), so every exclusive or of two values
/// is too, and every option value has a place.
struct Marks(Vec<u8>);

impl Marks {
    #[inline(always)]
    fn set(&mut self, v: u32) {
        if let Some(b) = self.0.get_mut(v as usize) {
            *b = 1;
        }
    }

    #[inline(always)]
    fn has(&self, v: u32) -> bool {
        self.0.get(v as usize).is_some_and(|&b| b != 0)
    }

    fn clear(&mut self) {
        self.0.fill(0);
    }

    /// Makes room for every value below the next power of two above `v`.
    fn fit(&mut self, v: u32) {
        let width = (v as usize + 1).next_power_of_two().max(256);
        if width > self.0.len() {
            self.0.resize(width, 0);
        }
    }

    fn mex(&self) -> u32 {
        self.0.iter().position(|&b| b == 0).unwrap_or(self.0.len()) as u32
    }
}

/// Everything but the values: rules, sparse space, rare heaps, repeating stretch, scratch.
struct State {
    rules: Rules,
    /// The sparse space in use, if any.
    space: Option<Space>,
    /// The heaps (at least 1) that are rare under `space`, in increasing order.
    rare: Vec<u32>,
    /// The repeating stretch in use, if any: then every heap is computed with it.
    tail: Option<Tail>,
    /// The heap count at which the way of computing is next reviewed.
    review: usize,
    marks: Marks,
    /// Step 2's scratch: the values made only by splits with parts of one class that it still
    /// looks for.
    needed: Vec<u32>,
    /// Splits looked at by the sparse space since the last review, and what the plain mex
    /// would have looked at for the same heaps: if the first is not well below the second, the
    /// sparse space is not paying and the next stretch is computed plainly.
    spent: (u64, u64),
    /// Whether to use the sparse space at all (the plain computation is the tests' oracle).
    sparse: bool,
}

/// The value sequence of a heap game, computed on demand and kept.
pub(crate) struct Sequence {
    values: Values,
    state: State,
}

impl State {
    /// Files heap `h`, whose value `x` was just stored, under its class.
    #[inline]
    fn record(&mut self, h: usize, x: u32) {
        self.marks.fit(x);
        if h >= 1 && self.space.is_some_and(|s| s.is_rare(h, x)) {
            self.rare.push(h as u32);
        }
    }

    /// The class a split forces on a rare heap in the domain form, if every split forces the
    /// same one (see [`Space`]): the parity of the counters removed.
    fn domain_class(&self) -> Option<bool> {
        let first = self.rules.splits.first()?.removed % 2 == 1;
        let all = self
            .rules
            .splits
            .iter()
            .all(|s| (s.removed % 2 == 1) == first);
        all.then_some(first)
    }
}

impl Sequence {
    /// An empty sequence of a game with these rules, computed with the sparse space.
    pub(crate) fn new(rules: Rules) -> Sequence {
        Sequence::with(rules, true)
    }

    /// An empty sequence whose every value is computed plainly, split by split.
    pub(crate) fn plain(rules: Rules) -> Sequence {
        Sequence::with(rules, false)
    }

    fn with(rules: Rules, sparse: bool) -> Sequence {
        Sequence {
            values: Values::Narrow(Vec::new()),
            state: State {
                sparse: sparse && !rules.splits.is_empty(),
                rules,
                space: None,
                rare: Vec::new(),
                tail: None,
                review: PREFIX,
                spent: (0, 0),
                marks: Marks(vec![0; 256]),
                needed: Vec::new(),
            },
        }
    }

    /// The values known so far.
    pub(crate) fn values(&self) -> &Values {
        &self.values
    }

    /// Computes values until `len` heaps (`0 … len−1`) are known, each heap one position
    /// against the budget.
    pub(crate) fn extend(&mut self, len: u64, meter: &mut Meter) -> Result<(), GameError> {
        if len > MAX_HEAPS {
            return Err(GameError::BudgetExceeded {
                budget: format!("{MAX_HEAPS} heap sizes"),
                reached: format!("a request for {len} heap sizes"),
            });
        }
        let len = len as usize;
        let have = self.values.len();
        if len <= have {
            return Ok(());
        }
        meter.reserve((len - have) as u64)?;
        self.values.reserve(len - have)?;
        while self.values.len() < len {
            // Runs until the end, a value too wide for the storage, or a review.
            let stop = len.min(self.state.review.max(self.values.len() + 1));
            let wide = match &mut self.values {
                Values::Narrow(g) => run(g, &mut self.state, stop, meter)?,
                Values::Mid(g) => run(g, &mut self.state, stop, meter)?,
                Values::Wide(g) => run(g, &mut self.state, stop, meter)?,
            };
            if let Some(x) = wide {
                self.push(x);
            }
            if self.values.len() >= self.state.review {
                self.state.review = self.state.review.saturating_mul(2);
                if self.state.sparse {
                    review(&self.values, &mut self.state);
                }
            }
        }
        Ok(())
    }

    fn push(&mut self, x: u32) {
        let h = self.values.len();
        self.values.push(x);
        self.state.record(h, x);
    }
}

/// Computes heaps until `stop` are known, or returns a value too large for `T`.
fn run<T: Cell>(
    g: &mut Vec<T>,
    st: &mut State,
    stop: usize,
    meter: &mut Meter,
) -> Result<Option<u32>, GameError> {
    while g.len() < stop {
        meter.tick()?;
        let h = g.len();
        let x = if let Some(tail) = st.tail.take() {
            restart_marks(g, h, st);
            meter.steps(tail.mark_splits(g, h, &st.rules, &mut st.marks))?;
            let x = st.marks.mex();
            // A value that breaks the repetition ends the stretch (the heaps after it are
            // computed otherwise until the next review).
            if tail.keeps(g, h, x) {
                st.tail = Some(tail);
            }
            x
        } else if st.space.is_some() && st.rare.len() * 4 <= h {
            let plain: usize = fitting(&st.rules.splits, h)
                .map(|(s, m)| top(m, s.equal))
                .sum();
            st.spent.1 += plain as u64;
            sparse_mex(g, h, st, meter)?
        } else {
            plain_mex(g, h, st, meter)?
        };
        if x > T::MAX {
            return Ok(Some(x));
        }
        g.push(T::new(x));
        st.record(h, x);
    }
    Ok(None)
}

/// Clears the marks and marks the options that leave no heap or one heap.
#[inline]
fn restart_marks<T: Cell>(g: &[T], h: usize, st: &mut State) {
    st.marks.clear();
    mark_unsplit(&st.rules.digits, g, h, &mut st.marks);
}

/// The splits that can cut heap `h` in two nonempty heaps, each with the counters `m` that
/// are left to share between the two.
#[inline]
fn fitting(splits: &[Split], h: usize) -> impl Iterator<Item = (&Split, usize)> {
    splits
        .iter()
        .filter(move |s| h >= s.removed + 2)
        .map(move |s| (s, h - s.removed))
}

/// Marks the options that leave no heap or one heap (octal digit bits 1 and 2).
#[inline]
fn mark_unsplit<T: Cell>(digits: &[u8], g: &[T], h: usize, marks: &mut Marks) {
    for (k, &d) in digits.iter().enumerate().take(h + 1) {
        let m = h - k;
        if d & 1 != 0 && m == 0 {
            marks.set(0);
        }
        if d & 2 != 0 && m > 0 {
            marks.set(g[m].get());
        }
    }
}

/// The largest smaller part `a` of a split of `m` (`a ≤ m − a`, or `a < m − a`).
#[inline(always)]
fn top(m: usize, equal: bool) -> usize {
    if equal {
        m / 2
    } else {
        (m - 1) / 2
    }
}

/// The mex of heap `h` over every option.
fn plain_mex<T: Cell>(
    g: &[T],
    h: usize,
    st: &mut State,
    meter: &mut Meter,
) -> Result<u32, GameError> {
    restart_marks(g, h, st);
    let mut count = 0u64;
    for (s, m) in fitting(&st.rules.splits, h) {
        let t = top(m, s.equal);
        for (&x, &y) in g[1..=t].iter().zip(g[m - t..m].iter().rev()) {
            st.marks.set(x.get() ^ y.get());
        }
        count += t as u64;
    }
    meter.steps(count)?;
    Ok(st.marks.mex())
}

/// The mex of heap `h` by the sparse space (see the module documentation).
fn sparse_mex<T: Cell>(
    g: &[T],
    h: usize,
    st: &mut State,
    meter: &mut Meter,
) -> Result<u32, GameError> {
    let Some(space) = st.space else {
        return plain_mex(g, h, st, meter);
    };
    restart_marks(g, h, st);
    let mut count = 0u64;
    // Step 1: every split with a rare part.
    for (s, m) in fitting(&st.rules.splits, h) {
        let end = st.rare.partition_point(|&r| (r as usize) < m);
        // Grundy's game has no split into equal heaps: leave out a rare heap of m/2.
        let half = if !s.equal && m.is_multiple_of(2) {
            st.rare[..end].binary_search(&((m / 2) as u32)).ok()
        } else {
            None
        };
        let (below, above) = match half {
            Some(i) => (&st.rare[..i], &st.rare[i + 1..end]),
            None => (&st.rare[..end], &st.rare[end..end]),
        };
        for &r in below.iter().chain(above) {
            let r = r as usize;
            st.marks.set(g[r].get() ^ g[m - r].get());
        }
        count += end as u64;
    }
    // The least value that only a split with a rare part can make and that is not an option:
    // every such option is marked now. (Only the parity of the counters left matters, and in
    // the domain form every split removes counters of one parity.)
    let left = h + st.rules.splits.first().map_or(0, |s| s.removed);
    let mut first_common = 0u32;
    while st.marks.has(first_common) || space.is_hard(left, first_common) {
        first_common += 1;
    }
    st.needed.clear();
    st.needed
        .extend((0..first_common).filter(|&v| !st.marks.has(v)));
    if !st.needed.is_empty() {
        count += find_rare(g, h, st);
    }
    st.spent.0 += count;
    meter.steps(count)?;
    // A value still missing was made by no split at all.
    Ok(st.needed.first().copied().unwrap_or(first_common))
}

/// Step 2: looks through the splits, smaller part first, until every value in `needed`
/// is found or the splits run out; leaves in `needed` the values never found, and returns how
/// many splits it looked at.
///
/// It looks at every split, not only those of two common heaps: the others were seen in
/// step 1 already and cannot help, but skipping them would cost more than looking, since a
/// run of consecutive smaller parts is the fastest loop there is.
fn find_rare<T: Cell>(g: &[T], h: usize, st: &mut State) -> u64 {
    let needed = &mut st.needed;
    let marks = &mut st.marks;
    let mut next = 0;
    let mut count = 0u64;
    let most = st
        .rules
        .splits
        .iter()
        .filter(|s| h >= s.removed + 2)
        .map(|s| top(h - s.removed, s.equal))
        .max()
        .unwrap_or(0);
    let mut a = 1;
    while a <= most {
        let end = (a + RUN - 1).min(most);
        for s in &st.rules.splits {
            if h < s.removed + 2 {
                continue;
            }
            let m = h - s.removed;
            let t = top(m, s.equal).min(end);
            if a > t {
                continue;
            }
            // The pairs (a', m − a') for a' = a … t.
            for (&x, &y) in g[a..=t].iter().zip(g[m - t..=m - a].iter().rev()) {
                marks.set(x.get() ^ y.get());
            }
            count += (t + 1 - a) as u64;
        }
        while next < needed.len() && marks.has(needed[next]) {
            next += 1;
        }
        if next == needed.len() {
            needed.clear();
            return count;
        }
        a = end + 1;
    }
    needed.retain(|&v| !marks.has(v));
    count
}

/// Chooses how the next stretch (up to the next review) is computed.
///
/// - A repeating stretch ([`Tail`]) when the values repeat over their second half and that is
///   cheaper than the sparse space: a heap then costs the heaps before the stretch.
/// - Otherwise the space (mask, range or domain form) with the fewest rare heaps, if it
///   leaves at most a quarter of the heaps rare and the last stretch computed with the sparse
///   space cost less than the plain mex would have; the list of rare heaps is rebuilt when the
///   space changes.
/// - Otherwise the plain mex.
fn review(values: &Values, st: &mut State) {
    let n = values.len();
    let hist = Histogram::of(values);
    let (best, count) = hist.fewest_rare(st.domain_class());
    let (sparse, plain) = std::mem::take(&mut st.spent);
    st.tail = Tail::find(values, st.tail.take());
    let sparse_pays = sparse <= plain && count.saturating_mul(4) <= n as u64;
    let tail_cost = st.tail.as_ref().map_or(u64::MAX, |t| t.cost() as u64);
    if !sparse_pays || tail_cost <= count {
        // The sparse space cost more than the plain mex would have: the rare heaps are too
        // many (Grundy's game has many rare heaps among the first few thousand), so the next
        // stretch goes plain (or repeats), and the review after it tries the sparse space
        // again.
        st.space = None;
        st.rare.clear();
        return;
    }
    let current = st.space.map_or(u64::MAX, |s| hist.rare(s));
    if count < current {
        st.space = Some(best);
        let rare = |i: &usize| best.is_rare(*i, values.get(*i).unwrap_or(0) as u32);
        st.rare = (1..n).filter(rare).map(|i| i as u32).collect();
    }
    // The sparse space is cheaper than the repeating stretch.
    st.tail = None;
}

#[cfg(test)]
mod tests;
