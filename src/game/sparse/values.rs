//! The stored values of a sequence, one, two or four bytes each.

use crate::game::GameError;

/// A stored value: `u8`, `u16` or `u32`.
pub(super) trait Cell: Copy {
    /// The largest value that fits.
    const MAX: u32;
    fn get(self) -> u32;
    /// `v` as a cell; the caller checked `v <= MAX`.
    fn new(v: u32) -> Self;
}

macro_rules! cell {
    ($t:ty) => {
        impl Cell for $t {
            const MAX: u32 = <$t>::MAX as u32;
            #[inline(always)]
            fn get(self) -> u32 {
                u32::from(self)
            }
            #[inline(always)]
            fn new(v: u32) -> Self {
                v as $t
            }
        }
    };
}
cell!(u8);
cell!(u16);
cell!(u32);

/// The values of a heap game, as compact as they fit.
#[derive(Debug, Clone)]
pub(crate) enum Values {
    /// Every value below 256.
    Narrow(Vec<u8>),
    /// Every value below 65 536.
    Mid(Vec<u16>),
    /// Anything else.
    Wide(Vec<u32>),
}

impl Values {
    /// How many heaps are known.
    pub(crate) fn len(&self) -> usize {
        match self {
            Values::Narrow(v) => v.len(),
            Values::Mid(v) => v.len(),
            Values::Wide(v) => v.len(),
        }
    }

    /// The value of heap `i`, if known.
    pub(crate) fn get(&self, i: usize) -> Option<u64> {
        match self {
            Values::Narrow(v) => v.get(i).map(|&x| u64::from(x)),
            Values::Mid(v) => v.get(i).map(|&x| u64::from(x)),
            Values::Wide(v) => v.get(i).map(|&x| u64::from(x)),
        }
    }

    /// The values of heaps `0 … len−1` (or fewer, if fewer are known) as `u64`.
    pub(crate) fn to_u64(&self, len: usize) -> Vec<u64> {
        let len = len.min(self.len());
        (0..len).filter_map(|i| self.get(i)).collect()
    }

    /// The smallest `n₀` with `g(i + p) = g(i)` for every `n₀ ≤ i < len − p` (`p ≥ 1`).
    pub(crate) fn agree_from(&self, p: usize) -> usize {
        self.agree_down_to(p, 0)
    }

    /// [`Values::agree_from`], but looking no further back than `floor`: the answer is `floor`
    /// when the values agree down to it.
    pub(crate) fn agree_down_to(&self, p: usize, floor: usize) -> usize {
        fn back<T: PartialEq>(g: &[T], p: usize, floor: usize) -> usize {
            let mut n = g.len().saturating_sub(p);
            while n > floor && g[n - 1] == g[n - 1 + p] {
                n -= 1;
            }
            n
        }
        match self {
            Values::Narrow(v) => back(v, p, floor),
            Values::Mid(v) => back(v, p, floor),
            Values::Wide(v) => back(v, p, floor),
        }
    }

    /// Appends the value of the next heap, widening the storage if it does not fit.
    pub(super) fn push(&mut self, x: u32) {
        match self {
            Values::Narrow(v) if x <= u32::from(u8::MAX) => v.push(x as u8),
            Values::Narrow(v) if x <= u32::from(u16::MAX) => {
                let mut w: Vec<u16> = v.iter().map(|&y| u16::from(y)).collect();
                w.push(x as u16);
                *self = Values::Mid(w);
            }
            Values::Narrow(v) => {
                let mut w: Vec<u32> = v.iter().map(|&y| u32::from(y)).collect();
                w.push(x);
                *self = Values::Wide(w);
            }
            Values::Mid(v) if x <= u32::from(u16::MAX) => v.push(x as u16),
            Values::Mid(v) => {
                let mut w: Vec<u32> = v.iter().map(|&y| u32::from(y)).collect();
                w.push(x);
                *self = Values::Wide(w);
            }
            Values::Wide(v) => v.push(x),
        }
    }

    pub(super) fn reserve(&mut self, extra: usize) -> Result<(), GameError> {
        let r = match self {
            Values::Narrow(v) => v.try_reserve_exact(extra),
            Values::Mid(v) => v.try_reserve_exact(extra),
            Values::Wide(v) => v.try_reserve_exact(extra),
        };
        r.map_err(|_| GameError::BudgetExceeded {
            budget: "available memory".into(),
            reached: format!("a request for {} more values", extra),
        })
    }
}
