//! The arbitrary-size path: nimbers as little-endian `u64` limbs.
//!
//! A slice of `2^j` limbs is an element of `GF(2^(2^(6+j)))`. Its low and high halves are the
//! coordinates over the half-size field, with `X = 2^(2^(5+j))` the Fermat 2-power between
//! them, and every operation here is the identity from [`super::small`] applied one level at
//! a time until the halves are single limbs, where the 64-bit tables take over.
//!
//! A product of a wide factor with a narrow one does not pad the narrow one: if `b` lies in
//! the half-size field then `(a1 X ⊕ a0) ⊗ b = (a1 ⊗ b) X ⊕ a0 ⊗ b`, two smaller products.

use super::small::Tables;

fn xor(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

fn xor_into(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

fn join(lo: Vec<u64>, hi: Vec<u64>) -> Vec<u64> {
    let mut v = lo;
    v.extend(hi);
    v
}

/// Product of `a` and `b`; both lengths are powers of two and `a.len() >= b.len()`. The
/// result has `a.len()` limbs.
pub(crate) fn mul(t: &Tables, a: &[u64], b: &[u64]) -> Vec<u64> {
    let n = a.len();
    if n == 1 {
        return vec![super::mul64(a[0], b[0])];
    }
    let h = n / 2;
    let (a0, a1) = a.split_at(h);
    if b.len() < n {
        return join(mul(t, a0, b), mul(t, a1, b));
    }
    if n == 2 {
        let x = super::mul128(
            (a[0] as u128) | ((a[1] as u128) << 64),
            (b[0] as u128) | ((b[1] as u128) << 64),
        );
        return vec![x as u64, (x >> 64) as u64];
    }
    let (b0, b1) = b.split_at(h);
    let c00 = mul(t, a0, b0);
    let c11 = mul(t, a1, b1);
    let mut hi = mul(t, &xor(a0, a1), &xor(b0, b1));
    xor_into(&mut hi, &c00);
    let mut lo = c00;
    xor_into(&mut lo, &mulh(t, &c11));
    join(lo, hi)
}

/// `x ⊗ 2^(64·len - 1)`, the half of the top Fermat 2-power of `x`'s level.
pub(crate) fn mulh(t: &Tables, x: &[u64]) -> Vec<u64> {
    let n = x.len();
    if n == 1 {
        return vec![t.mulh64(x[0])];
    }
    if n == 2 {
        let y = t.mulh128((x[0] as u128) | ((x[1] as u128) << 64));
        return vec![y as u64, (y >> 64) as u64];
    }
    let (x0, x1) = x.split_at(n / 2);
    let hi = mulh(t, &xor(x0, x1));
    let lo = mulh(t, &mulh(t, x1));
    join(lo, hi)
}

/// `leaf` on a single limb, else `step` on the low and high halves: one level of the
/// recursions below, which go down a level at a time to the 64-bit tables.
#[inline]
fn by_halves(
    t: &Tables,
    x: &[u64],
    leaf: fn(&Tables, u64) -> u64,
    step: impl FnOnce(&[u64], &[u64]) -> Vec<u64>,
) -> Vec<u64> {
    match x {
        [v] => vec![leaf(t, *v)],
        _ => {
            let (x0, x1) = x.split_at(x.len() / 2);
            step(x0, x1)
        }
    }
}

/// Square of `x`.
pub(crate) fn square(t: &Tables, x: &[u64]) -> Vec<u64> {
    by_halves(t, x, Tables::sq64, |x0, x1| {
        let s1 = square(t, x1);
        let mut lo = square(t, x0);
        xor_into(&mut lo, &mulh(t, &s1));
        join(lo, s1)
    })
}

/// Square root of `x`.
pub(crate) fn sqrt(t: &Tables, x: &[u64]) -> Vec<u64> {
    by_halves(t, x, Tables::sqrt64, |x0, x1| {
        let hi = sqrt(t, x1);
        let mut m = mulh(t, x1);
        xor_into(&mut m, x0);
        join(sqrt(t, &m), hi)
    })
}

/// Inverse of a nonzero `x` (via the norm down to the half-size field).
pub(crate) fn inv(t: &Tables, x: &[u64]) -> Vec<u64> {
    by_halves(t, x, Tables::inv64, |x0, x1| {
        let s = xor(x0, x1);
        let mut norm = mul(t, x0, &s);
        xor_into(&mut norm, &mulh(t, &square(t, x1)));
        let ni = inv(t, &norm);
        join(mul(t, &s, &ni), mul(t, x1, &ni))
    })
}
