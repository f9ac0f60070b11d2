//! Arithmetic-periodic sequences, the values the periodic method follows as `n` grows.
//!
//! A sequence `s(n)` has the *pattern* `(n₀, p, σ)` when `s(n + p) = s(n) + σ` for every
//! `n ≥ n₀`, with `σ ≥ 0` in ordinary arithmetic: a periodic sequence is the case `σ = 0`, `n`
//! itself is `(0, 1, 1)`. Patterns are closed under the ordinary operations with constants and
//! under sums; a comparison of two sides with the same `σ` (taken over a common period) has a
//! truth value that is periodic, since their difference is.
//!
//! Saltuses are never negative: every value then only grows from one period to the next, so a
//! subtraction that stays at or above zero on the cases checked stays there for ever (the
//! evaluator refuses a negative natural number, and a decreasing side would reach one beyond
//! the window).

use num_integer::Integer;

/// `s(n + period) = s(n) + saltus` for every `n ≥ preperiod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pattern {
    pub(super) preperiod: u64,
    pub(super) period: u64,
    pub(super) saltus: u64,
}

/// Why an operation on patterns has no pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Beyond {
    /// A number too large to count.
    Overflow,
    /// The result would decrease from one period to the next.
    Decreasing,
}

pub(super) fn lcm(a: u64, b: u64) -> Option<u64> {
    (a / a.gcd(&b).max(1)).checked_mul(b)
}

impl Pattern {
    /// A sequence that does not change.
    pub(super) const CONSTANT: Pattern = Pattern {
        preperiod: 0,
        period: 1,
        saltus: 0,
    };

    /// `n` itself.
    pub(super) const IDENTITY: Pattern = Pattern {
        preperiod: 0,
        period: 1,
        saltus: 1,
    };

    /// Whether the sequence is eventually periodic.
    pub(super) fn is_periodic(self) -> bool {
        self.saltus == 0
    }

    /// The same sequence seen with the period `period`, a multiple of its own.
    fn over(self, period: u64) -> Result<Pattern, Beyond> {
        let times = period / self.period;
        Ok(Pattern {
            preperiod: self.preperiod,
            period,
            saltus: self.saltus.checked_mul(times).ok_or(Beyond::Overflow)?,
        })
    }

    /// Both over their common period and pre-period.
    fn aligned(self, other: Pattern) -> Result<(Pattern, Pattern), Beyond> {
        let period = lcm(self.period, other.period).ok_or(Beyond::Overflow)?;
        let pre = self.preperiod.max(other.preperiod);
        let (mut a, mut b) = (self.over(period)?, other.over(period)?);
        a.preperiod = pre;
        b.preperiod = pre;
        Ok((a, b))
    }

    /// `s + t`, in ordinary arithmetic or as any function of two periodic sequences.
    pub(super) fn plus(self, other: Pattern) -> Result<Pattern, Beyond> {
        let (a, b) = self.aligned(other)?;
        Ok(Pattern {
            saltus: a.saltus.checked_add(b.saltus).ok_or(Beyond::Overflow)?,
            ..a
        })
    }

    /// `s − t`, which must not decrease.
    pub(super) fn minus(self, other: Pattern) -> Result<Pattern, Beyond> {
        let (a, b) = self.aligned(other)?;
        Ok(Pattern {
            saltus: a.saltus.checked_sub(b.saltus).ok_or(Beyond::Decreasing)?,
            ..a
        })
    }

    /// `k · s` for a constant `k`.
    pub(super) fn times(self, k: u64) -> Result<Pattern, Beyond> {
        Ok(Pattern {
            saltus: self.saltus.checked_mul(k).ok_or(Beyond::Overflow)?,
            ..self
        })
    }

    /// `⌊s / k⌋` for a constant `k ≥ 1`: with `g = gcd(k, σ)`, adding `k/g` periods adds
    /// `k · σ/g`, so the quotient gains `σ/g`.
    pub(super) fn divided(self, k: u64) -> Result<Pattern, Beyond> {
        let g = k.gcd(&self.saltus).max(1);
        Ok(Pattern {
            preperiod: self.preperiod,
            period: self.period.checked_mul(k / g).ok_or(Beyond::Overflow)?,
            saltus: self.saltus / g,
        })
    }

    /// `s mod k` for a constant `k ≥ 1`: after `k/g` periods the value has grown by a multiple
    /// of `k` (`g = gcd(k, σ)`, and `g = k` when `σ = 0`).
    pub(super) fn modulo(self, k: u64) -> Result<Pattern, Beyond> {
        let g = k.gcd(&self.saltus).max(1);
        Ok(Pattern {
            preperiod: self.preperiod,
            period: self.period.checked_mul(k / g).ok_or(Beyond::Overflow)?,
            saltus: 0,
        })
    }

    /// The truth of a comparison of `s` with `t`: periodic when both grow alike, since then
    /// their difference is periodic; `None` when they grow at different rates.
    pub(super) fn compared(self, other: Pattern) -> Result<Option<Pattern>, Beyond> {
        let (a, b) = self.aligned(other)?;
        Ok((a.saltus == b.saltus).then_some(Pattern { saltus: 0, ..a }))
    }

    /// The saltus over `period`, a multiple of this pattern's period.
    pub(super) fn saltus_over(self, period: u64) -> Option<u64> {
        self.saltus.checked_mul(period / self.period)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Every operation against the sequences it describes, written out.
    #[test]
    fn patterns_describe_their_sequences() {
        let seq = |f: &dyn Fn(u64) -> u64, p: Pattern| {
            (p.preperiod..p.preperiod + 200).all(|n| f(n + p.period) == f(n) + p.saltus)
        };
        let id = Pattern::IDENTITY;
        let three = id.times(3).unwrap();
        assert!(seq(&|n| 3 * n, three));
        let quarter = three.divided(4).unwrap();
        assert_eq!((quarter.period, quarter.saltus), (4, 3));
        assert!(seq(&|n| 3 * n / 4, quarter));
        let even = id.times(2).unwrap().divided(2).unwrap();
        assert_eq!((even.period, even.saltus), (1, 1));
        let m = three.modulo(6).unwrap();
        assert_eq!((m.period, m.saltus), (2, 0));
        assert!(seq(&|n| (3 * n) % 6, m));
        let d = three.minus(id).unwrap();
        assert!(seq(&|n| 2 * n, d));
        assert_eq!(id.minus(three), Err(Beyond::Decreasing));
        let eq = quarter.compared(id).unwrap();
        assert_eq!(eq, None);
        let same = three
            .compared(id.plus(id).unwrap().plus(id).unwrap())
            .unwrap();
        assert_eq!(same.map(|p| p.saltus), Some(0));
    }
}
