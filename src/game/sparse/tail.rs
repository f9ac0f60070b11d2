//! The mex over the splits of a heap when the values before it repeat with a period: the
//! engine for games with no sparse space whose values settle (Dawson's Kayles has a 0 in every
//! period, so half its heaps are rare under every mask).
//!
//! Say every value computed so far, from heap `n₀` on, equals the value `p` heaps earlier. A
//! split of `s` counters into `a + (s − a)` with `n₀ ≤ a ≤ s − a` has both parts in that
//! stretch (both are below the heap being computed), so its value depends only on `a mod p`
//! and `s mod p`. When `a` runs over `p` or more consecutive sizes it meets every residue, so
//! those splits make exactly the set `T(s mod p) = { P(r) ⊕ P(s − r) : r mod p }` of the
//! period's values `P`, one table row. A split with its smaller part `a` below `n₀` and its
//! larger part in the stretch has the value `G(a) ⊕ P(s − a)`, which depends only on `a` and
//! `s mod p`: a second table `D(s mod p)` holds those for every `a < n₀`, when `s` is large
//! enough for every such larger part to be in the stretch. So a heap costs two table rows
//! instead of `s/2` steps (or, when the second table would be too big, `n₀` steps and a row).
//!
//! Nothing here assumes that the values go on repeating: each heap's value is the mex of its
//! options, all computed from values already known; when a new value breaks the repetition the
//! engine stops using the table. (The Guy–Smith theorem says when they must go on repeating;
//! the module `octal` uses it, this one does not.)

use super::values::{Cell, Values};
use super::{fitting, top, Marks, Rules};

/// The longest period looked for.
const MAX_PERIOD: usize = 1 << 14;

/// The most table bits kept: `p` rows of one bit per value.
const MAX_TABLE_BITS: usize = 1 << 26;

/// A stretch of values that repeat with period `period` from heap `start` on, and the table of
/// the values its splits make.
pub(super) struct Tail {
    start: usize,
    period: usize,
    /// Words per row.
    words: usize,
    /// Row `r`: bit `v` set when a split of `s ≡ r (mod period)` counters with both parts at
    /// least `start` has the value `v`.
    rows: Vec<u64>,
    /// Row `r`: bit `v` set when a split of `s ≡ r (mod period)` counters with its smaller part
    /// below `start` and its larger part at least `start` has the value `v`; `None` when the
    /// table would cost too much to build.
    small: Option<(Vec<u64>, usize)>,
}

impl Tail {
    /// The shortest period that the values repeat with over at least their second half, at
    /// least twice; `None` if there is none short enough to be worth a table.
    pub(super) fn find(values: &Values, old: Option<Tail>) -> Option<Tail> {
        let len = values.len();
        // The table costs period² steps to build: keep that within a few dozen passes over
        // the values (a stretch by the sparse space or the plain mex costs far more).
        let most = (len / 3)
            .min(MAX_PERIOD)
            .min(((64 * len) as f64).sqrt() as usize);
        // Checking a period costs the values it agrees over: stop after a few passes' worth
        // (Grundy's game repeats with period 3 over long stretches, but never for good).
        let mut work = 0usize;
        let mut found = None;
        for p in 1..=most {
            let n = values.agree_down_to(p, len / 2);
            work += len - p - n;
            if n <= len / 2 && values.agree_from(p) + 2 * p <= len {
                found = Some(p);
                break;
            }
            if work > 8 * len {
                return None;
            }
        }
        let p = found?;
        let start = values.agree_from(p);
        if let Some(t) = old.filter(|t| t.period == p && t.start == start) {
            return Some(t);
        }
        let value = |x: usize| -> u32 {
            // The heap of the stretch's first period with the residue of x.
            let i = start + (x + p - start % p) % p;
            values.get(i).unwrap_or(0) as u32
        };
        let period: Vec<u32> = (0..p).map(value).collect();
        let largest = period.iter().copied().max().unwrap_or(0);
        let words = ((largest as usize + 1).next_power_of_two()).div_ceil(64);
        if p * words * 64 > MAX_TABLE_BITS {
            return None;
        }
        let mut rows = vec![0u64; p * words];
        for r in 0..p {
            let row = &mut rows[r * words..(r + 1) * words];
            for (x, &u) in period.iter().enumerate() {
                let v = u ^ period[(r + p - x) % p];
                row[v as usize / 64] |= 1 << (v % 64);
            }
        }
        let first = start.max(1);
        let before: Vec<u32> = (1..first)
            .map(|a| values.get(a).unwrap_or(0) as u32)
            .collect();
        let small_words = ((before.iter().copied().max().unwrap_or(0).max(largest) as usize + 1)
            .next_power_of_two())
        .div_ceil(64)
        .max(words);
        let affordable = p * first <= 128 * len && p * small_words * 64 <= MAX_TABLE_BITS;
        let small = affordable.then(|| {
            let mut small = vec![0u64; p * small_words];
            for r in 0..p {
                let row = &mut small[r * small_words..(r + 1) * small_words];
                for (i, &u) in before.iter().enumerate() {
                    let a = i + 1;
                    let v = u ^ period[(r + p - a % p) % p];
                    row[v as usize / 64] |= 1 << (v % 64);
                }
            }
            small
        });
        Some(Tail {
            start,
            period: p,
            words,
            rows,
            small: small.map(|t| (t, small_words)),
        })
    }

    /// About how many steps a heap costs.
    pub(super) fn cost(&self) -> usize {
        match &self.small {
            Some((_, words)) => self.words + words,
            None => self.start + self.words,
        }
    }

    /// Whether the table of the splits with a small part was affordable.
    #[cfg(test)]
    pub(super) fn has_small_table(&self) -> bool {
        self.small.is_some()
    }

    /// Whether the value `x` of heap `h` (every heap below `h` known) keeps the repetition.
    pub(super) fn keeps<T: Cell>(&self, g: &[T], h: usize, x: u32) -> bool {
        h < self.start + self.period || g[h - self.period].get() == x
    }

    /// Marks every option of heap `h` that splits, and returns how many steps it took.
    pub(super) fn mark_splits<T: Cell>(
        &self,
        g: &[T],
        h: usize,
        rules: &Rules,
        marks: &mut Marks,
    ) -> u64 {
        let mut count = 0u64;
        let first = self.start.max(1);
        for (s, m) in fitting(&rules.splits, h) {
            let t = top(m, s.equal);
            let r = m % self.period;
            if t + 1 < first + self.period {
                // The splits in the stretch do not cover a period: one by one.
                count += direct(g, m, 1, t, marks);
                continue;
            }
            mark_row(&self.rows, self.words, r, marks);
            count += self.words as u64;
            match &self.small {
                // Every larger part of a split with a smaller part below the stretch is in it.
                Some((small, words)) if m + 1 >= self.start + first => {
                    mark_row(small, *words, r, marks);
                    count += *words as u64;
                }
                _ => count += direct(g, m, 1, first - 1, marks),
            }
        }
        count
    }
}

/// Marks the values of the splits `(a, m − a)` for `a = lo … hi`, and returns how many.
fn direct<T: Cell>(g: &[T], m: usize, lo: usize, hi: usize, marks: &mut Marks) -> u64 {
    if hi < lo {
        return 0;
    }
    for (&x, &y) in g[lo..=hi].iter().zip(g[m - hi..=m - lo].iter().rev()) {
        marks.set(x.get() ^ y.get());
    }
    (hi + 1 - lo) as u64
}

/// Marks the values whose bits row `r` of `table` (`words` words a row) holds.
fn mark_row(table: &[u64], words: usize, r: usize, marks: &mut Marks) {
    for (w, &bits) in table[r * words..(r + 1) * words].iter().enumerate() {
        let mut b = bits;
        while b != 0 {
            marks.set((w * 64) as u32 + b.trailing_zeros());
            b &= b - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sequence that is arbitrary below `n0` and repeats the period `pattern` from `n0` on.
    fn repeating(prefix: &[u8], pattern: &[u8], len: usize) -> Vec<u8> {
        let n0 = prefix.len();
        (0..len)
            .map(|i| {
                if i < n0 {
                    prefix[i]
                } else {
                    pattern[(i - n0) % pattern.len()]
                }
            })
            .collect()
    }

    /// The split values of heap `h`, one by one from the definition (without the engine's
    /// helpers): take `removed`, then cut the rest into non-empty `a ≤ b`, `a < b` unless equal
    /// parts are allowed.
    fn by_hand(g: &[u8], h: usize, rules: &Rules) -> Vec<u8> {
        let mut marks = vec![0u8; 256];
        for s in &rules.splits {
            let Some(m) = h.checked_sub(s.removed) else {
                continue;
            };
            for a in (1..m).filter(|&a| a < m - a || (s.equal && a == m - a)) {
                marks[usize::from(g[a] ^ g[m - a])] = 1;
            }
        }
        marks
    }

    #[test]
    fn the_tables_make_the_same_options_as_every_split() {
        let prefix = [0, 5, 1, 7, 7, 2, 9, 0, 3, 3, 12, 1, 0];
        let pattern = [4, 1, 6, 6, 2, 0, 1, 3, 2];
        let g = repeating(&prefix, &pattern, 400);
        let values = Values::Narrow(g.clone());
        let tail = Tail::find(&values, None).expect("a period");
        assert_eq!((tail.start, tail.period), (prefix.len(), pattern.len()));
        assert!(tail.has_small_table());
        let mut rules = vec![Rules::grundys_game()];
        for code in ["0.07", "0.165", "4.7", "0.0004"] {
            let c: crate::game::OctalCode = code.parse().unwrap();
            rules.push(Rules::octal(crate::game::TakeAndBreak::digits(&c)));
        }
        for r in &rules {
            for h in 0..400 {
                let mut marks = Marks(vec![0; 256]);
                tail.mark_splits(&g, h, r, &mut marks);
                assert_eq!(marks.0, by_hand(&g, h, r), "heap {h} of {r:?}");
            }
        }
    }

    #[test]
    fn a_value_that_breaks_the_repetition_is_noticed() {
        let g = repeating(&[3, 3, 3], &[1, 2, 0, 4], 64);
        let tail = Tail::find(&Values::Narrow(g.clone()), None).expect("a period");
        assert!(tail.keeps(&g, 64, u32::from(g[60])));
        assert!(!tail.keeps(&g, 64, u32::from(g[60]) + 1));
    }
}
