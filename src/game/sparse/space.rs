//! The classes of the sparse space, and the choice of the mask by a Walsh–Hadamard transform.

use super::values::Values;

/// The most bits a mask may select: the transform costs `B·2^B` steps.
const MAX_MASK_BITS: u32 = 20;

/// How heaps are sorted into rare and common: by the parity of `popcount(G(h) & mask)`, and,
/// in the domain form, also by the parity of the heap `h` itself.
///
/// Write `q(h) = popcount(G(h) & mask) + [domain]·h (mod 2)`. A heap is rare when `q(h)` is
/// `class`. A split of `s` counters into `a + b` has a value whose masked parity is
/// `q(a) + q(b) + [domain]·s`: so a split with one rare and one common part has the parity
/// `1 + [domain]·s`, and a split whose parts are of one class has `[domain]·s`. What matters
/// is only that the first kind is made by walking the rare heaps; see the module `sparse`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Space {
    pub(super) mask: u32,
    pub(super) domain: bool,
    /// The `q` of a rare heap.
    pub(super) class: bool,
}

#[inline(always)]
fn parity(v: u32) -> bool {
    v.count_ones() % 2 == 1
}

impl Space {
    /// Whether heap `h` of value `v` is rare.
    #[inline(always)]
    pub(super) fn is_rare(self, h: usize, v: u32) -> bool {
        (parity(v & self.mask) ^ (self.domain && h % 2 == 1)) == self.class
    }

    /// The masked parity of the value of a split of `s` counters whose two parts are of one
    /// class: such values may need step 2; the other parity is made only with a rare part.
    #[inline(always)]
    pub(super) fn same_class_parity(self, s: usize) -> bool {
        self.domain && s % 2 == 1
    }

    /// Whether `v` can be the value of a split of `s` counters into parts of one class.
    #[inline(always)]
    pub(super) fn is_hard(self, s: usize, v: u32) -> bool {
        parity(v & self.mask) == self.same_class_parity(s)
    }
}

/// The value histograms of the heaps `1 … n−1`, even heaps and odd heaps apart.
pub(super) struct Histogram {
    even: Vec<u64>,
    odd: Vec<u64>,
}

impl Histogram {
    pub(super) fn of(values: &Values) -> Histogram {
        let mut h = Histogram {
            even: Vec::new(),
            odd: Vec::new(),
        };
        for i in 1..values.len() {
            let v = values.get(i).unwrap_or(0) as usize;
            let side = if i % 2 == 0 { &mut h.even } else { &mut h.odd };
            if v >= side.len() {
                side.resize(v + 1, 0);
            }
            side[v] += 1;
        }
        h
    }

    /// How many heaps are rare under `space`.
    pub(super) fn rare(&self, space: Space) -> u64 {
        let count = |hist: &[u64], odd_heap: bool| -> u64 {
            hist.iter()
                .enumerate()
                .filter(|&(v, _)| {
                    let heap = usize::from(odd_heap);
                    space.is_rare(heap, v as u32)
                })
                .map(|(_, c)| c)
                .sum()
        };
        count(&self.even, false) + count(&self.odd, true)
    }

    /// The space with the fewest rare heaps, and that number: among the masks of the range form,
    /// and, if `domain` is given (the class every split forces, see [`Space`]), of the domain
    /// form too.
    pub(super) fn fewest_rare(&self, domain: Option<bool>) -> (Space, u64) {
        let len = self.even.len().max(self.odd.len());
        let bits = (usize::BITS - len.saturating_sub(1).leading_zeros()).clamp(1, MAX_MASK_BITS);
        let (we, ne) = transform(&self.even, bits);
        let (wo, no) = transform(&self.odd, bits);
        let mut best = (
            Space {
                mask: 1,
                domain: false,
                class: false,
            },
            u64::MAX,
        );
        for m in 1..we.len() {
            // w[m] counts a heap of even masked parity as +1 and of odd parity as −1.
            let range = ((ne + no + we[m] + wo[m]) / 2) as u64;
            let mut consider = |count: u64, domain: bool, class: bool| {
                if count < best.1 {
                    let mask = m as u32;
                    best = (
                        Space {
                            mask,
                            domain,
                            class,
                        },
                        count,
                    );
                }
            };
            consider(range, false, false);
            if let Some(class) = domain {
                // Rare: even parity on even heaps and odd parity on odd heaps when the class
                // is 0, the other way round when it is 1.
                let count = if class {
                    (ne - we[m] + no + wo[m]) / 2
                } else {
                    (ne + we[m] + no - wo[m]) / 2
                };
                consider(count as u64, true, class);
            }
        }
        best
    }
}

/// The Walsh–Hadamard transform of a histogram over `bits` bits (values at or above `2^bits`
/// folded onto their low bits, which is all a mask of `bits` bits sees), and its total.
fn transform(hist: &[u64], bits: u32) -> (Vec<i64>, i64) {
    let size = 1usize << bits;
    let mut w = vec![0i64; size];
    let mut total = 0i64;
    for (v, &c) in hist.iter().enumerate() {
        w[v & (size - 1)] += c as i64;
        total += c as i64;
    }
    let mut len = 1;
    while len < size {
        for block in (0..size).step_by(2 * len) {
            for i in block..block + len {
                let (x, y) = (w[i], w[i + len]);
                w[i] = x + y;
                w[i + len] = x - y;
            }
        }
        len *= 2;
    }
    (w, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transform_counts_rare_heaps_under_every_space() {
        let even = [3u64, 0, 5, 1, 7, 2, 0, 4, 1, 1];
        let odd = [0u64, 2, 1, 6, 0, 0, 3, 1, 0, 2, 5];
        let hist = Histogram {
            even: even.to_vec(),
            odd: odd.to_vec(),
        };
        let by_hand = |s: Space| -> u64 {
            let side = |h: &[u64], heap: usize| -> u64 {
                h.iter()
                    .enumerate()
                    .filter(|&(v, _)| {
                        let p = (v as u32 & s.mask).count_ones() % 2 == 1;
                        (p ^ (s.domain && heap == 1)) == s.class
                    })
                    .map(|(_, c)| c)
                    .sum()
            };
            side(&even, 0) + side(&odd, 1)
        };
        for domain in [None, Some(false), Some(true)] {
            let (space, count) = hist.fewest_rare(domain);
            assert_eq!(by_hand(space), count, "{domain:?}");
            assert_eq!(hist.rare(space), count);
            for mask in 1..16 {
                let range = Space {
                    mask,
                    domain: false,
                    class: false,
                };
                assert!(by_hand(range) >= count, "{range:?} beats {space:?}");
                if let Some(class) = domain {
                    let d = Space {
                        mask,
                        domain: true,
                        class,
                    };
                    assert!(by_hand(d) >= count, "{d:?} beats {space:?}");
                }
            }
        }
    }
}
