//! Slow, obviously-right reference implementations: the test oracle.
//!
//! Nothing here is clever. [`naive_add`] and [`naive_mul`] are Conway's `mex` definitions,
//! evaluated bottom-up into tables for operands below 256; [`naive_inv`] is Conway's
//! construction of the inverse as the `mex` of a set closed under one rule; and
//! [`naive_mul_fermat`] multiplies by the two Fermat 2-power rules with schoolbook (not
//! Karatsuba) splitting and no tables. The fast engine shares no code with any of them.

use std::sync::OnceLock;

use num_bigint::BigUint;

/// The least non-negative integer not marked in `seen`.
fn mex(seen: &[bool]) -> u64 {
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u64
}

/// Side of the naive tables: operands below 256.
const N: usize = 256;

fn add_table() -> &'static Vec<u16> {
    static T: OnceLock<Vec<u16>> = OnceLock::new();
    T.get_or_init(|| {
        // a ⊕ b = mex({a' ⊕ b : a' < a} ∪ {a ⊕ b' : b' < b})
        let mut t = vec![0u16; N * N];
        let mut seen = vec![false; 2 * N + 1];
        for a in 0..N {
            for b in 0..N {
                seen.iter_mut().for_each(|s| *s = false);
                for a2 in 0..a {
                    seen[t[a2 * N + b] as usize] = true;
                }
                for b2 in 0..b {
                    seen[t[a * N + b2] as usize] = true;
                }
                t[a * N + b] = mex(&seen) as u16;
            }
        }
        t
    })
}

fn mul_table() -> &'static Vec<u16> {
    static T: OnceLock<Vec<u16>> = OnceLock::new();
    T.get_or_init(|| {
        // a ⊗ b = mex{a' ⊗ b ⊕ a ⊗ b' ⊕ a' ⊗ b' : a' < a, b' < b}. The nim-sums inside are
        // exclusive ors: `add_table` is the mex definition of ⊕ and the tests check it
        // against exclusive or on the same range, so this is the definition, only faster to
        // evaluate (about 2^29 set insertions for the whole table).
        let mut t = vec![0u16; N * N];
        let mut seen = [0u64; 2 * N / 64 + 1];
        for a in 0..N {
            // The definition is symmetric in a and b, so b <= a suffices.
            for b in 0..=a {
                seen.iter_mut().for_each(|s| *s = 0);
                let row_a = &t[a * N..a * N + b];
                for a2 in 0..a {
                    let p = t[a2 * N + b];
                    let row_a2 = &t[a2 * N..a2 * N + b];
                    for (x, y) in row_a.iter().zip(row_a2) {
                        // Products below 256 stay below 256 (they form a field); were one
                        // not to, the masked value would make the table visibly wrong.
                        let v = ((p ^ x ^ y) as usize) & (2 * N - 1);
                        seen[v >> 6] |= 1 << (v & 63);
                    }
                }
                let m = seen
                    .iter()
                    .enumerate()
                    .find(|(_, w)| **w != u64::MAX)
                    .map_or(2 * N, |(i, w)| i * 64 + w.trailing_ones() as usize)
                    as u16;
                t[a * N + b] = m;
                t[b * N + a] = m;
            }
        }
        t
    })
}

/// `a ⊕ b` by the `mex` definition.
pub fn naive_add(a: u8, b: u8) -> u64 {
    add_table()[a as usize * N + b as usize] as u64
}

/// `a ⊗ b` by the `mex` definition.
pub fn naive_mul(a: u8, b: u8) -> u64 {
    mul_table()[a as usize * N + b as usize] as u64
}

/// The inverse of `a` by Conway's construction: `1/a` is the `mex` of the smallest set `S`
/// with `0 ∈ S` and `(1 ⊕ (a' ⊕ a) ⊗ s) ⊗ (1/a') ∈ S` for every `s ∈ S` and `0 < a' < a`
/// (the inverses of the smaller `a'` by the same construction). `None` for 0, or if the
/// closure ever left the range of the naive tables.
pub fn naive_inv(a: u8) -> Option<u64> {
    static T: OnceLock<Vec<Option<u64>>> = OnceLock::new();
    let t = T.get_or_init(|| {
        let mut inv: Vec<Option<u64>> = vec![None; N];
        for a in 1..N {
            inv[a] = conway_inverse(a, &inv);
        }
        inv
    });
    t[a as usize]
}

fn conway_inverse(a: usize, smaller: &[Option<u64>]) -> Option<u64> {
    let small = |x: u64| u8::try_from(x).ok();
    let mut set = vec![false; N];
    set[0] = true;
    let mut todo = vec![0u64];
    while let Some(s) = todo.pop() {
        for (a2, inv_a2) in smaller.iter().enumerate().take(a).skip(1) {
            let ia2 = small((*inv_a2)?)?;
            let t = naive_mul(small(naive_add(a2 as u8, a as u8))?, small(s)?);
            let v = naive_mul(small(naive_add(1, small(t)?))?, ia2);
            let slot = set.get_mut(v as usize)?;
            if !*slot {
                *slot = true;
                todo.push(v);
            }
        }
    }
    Some(mex(&set))
}

/// `a ⊗ b` for `a, b < 2^128` by the Fermat 2-power rules: split both at the largest
/// Fermat 2-power `F` below them, `a = a1 F ⊕ a0`, multiply out the four products, and use
/// `F ⊗ F = F ⊕ F/2` and `F ⊗ x = F·x` for `x < F`.
pub fn naive_mul_fermat(a: u128, b: u128) -> u128 {
    fermat(a, b, 7)
}

/// The products below 256, by the same recursion from `k = 0`, kept so that wide products
/// do not redo the bottom levels (`5^7` leaf products otherwise).
fn fermat_byte_table() -> &'static Vec<u8> {
    static T: OnceLock<Vec<u8>> = OnceLock::new();
    T.get_or_init(|| {
        (0..N * N)
            .map(|i| fermat_rec((i / N) as u128, (i % N) as u128, 3, false) as u8)
            .collect()
    })
}

fn fermat(a: u128, b: u128, k: u32) -> u128 {
    fermat_rec(a, b, k, true)
}

fn fermat_rec(a: u128, b: u128, k: u32, use_table: bool) -> u128 {
    if k == 0 {
        return a & b;
    }
    if k == 3 && use_table {
        return fermat_byte_table()[a as usize * N + b as usize] as u128;
    }
    let hb = 1u32 << (k - 1);
    let mask = (1u128 << hb) - 1;
    let (a1, a0, b1, b0) = (a >> hb, a & mask, b >> hb, b & mask);
    let f = |x, y| fermat_rec(x, y, k - 1, use_table);
    let hh = f(a1, b1);
    let hl = f(a1, b0) ^ f(a0, b1);
    let ll = f(a0, b0);
    // hh ⊗ F ⊗ F = hh ⊗ (F ⊕ F/2) = hh·F ⊕ hh ⊗ F/2
    ((hh ^ hl) << hb) ^ ll ^ f(hh, 1u128 << (hb - 1))
}

/// `a ⊗ b` for nimbers of any size, by the same schoolbook Fermat recursion on big integers.
/// Slow (five half-size products per level); for tests on a few hundred bits.
pub fn naive_mul_fermat_big(a: &BigUint, b: &BigUint) -> BigUint {
    let bits = a.bits().max(b.bits());
    let mut k = 0u32;
    while (1u64 << k) < bits {
        k += 1;
    }
    fermat_big(a, b, k)
}

fn fermat_big(a: &BigUint, b: &BigUint, k: u32) -> BigUint {
    if k <= 7 {
        let (Ok(x), Ok(y)) = (u128::try_from(a), u128::try_from(b)) else {
            return BigUint::default();
        };
        return BigUint::from(fermat(x, y, 7));
    }
    let hb = 1u64 << (k - 1);
    let (a1, b1) = (a >> hb, b >> hb);
    let a0 = a - (&a1 << hb);
    let b0 = b - (&b1 << hb);
    let hh = fermat_big(&a1, &b1, k - 1);
    let hl = fermat_big(&a1, &b0, k - 1) ^ fermat_big(&a0, &b1, k - 1);
    let ll = fermat_big(&a0, &b0, k - 1);
    let half = BigUint::from(1u32) << (hb - 1);
    ((&hh ^ &hl) << hb) ^ ll ^ fermat_big(&hh, &half, k - 1)
}
