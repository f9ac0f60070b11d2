//! Field structure: orders, primitive elements, discrete logarithms, conjugates, minimal
//! polynomials and quadratic equations.
//!
//! # The multiplicative group
//!
//! The nonzero nimbers below `2^(2^k)` form a cyclic group of order
//! `2^(2^k) - 1 = (2^1 + 1)(2^2 + 1)(2^4 + 1) ⋯ (2^(2^(k-1)) + 1)`, a product of the Fermat
//! numbers `F_i = 2^(2^i) + 1`. The order of `x` is the least `n` with `x^n = 1`; it divides
//! the group order, and since each Fermat number here is squarefree and they are pairwise
//! coprime, `n` is found by starting from the group order and dropping each prime `p` for
//! which `x^(n/p)` is still 1. That needs the prime factors, so orders are known exactly as
//! far as the Fermat numbers are factored: this engine carries `F_0` to `F_11`, i.e. fields up
//! to `GF(2^4096)`. The largest factors are stored as cofactors and checked at run time to
//! divide exactly (and by the tests to be probable primes).
//!
//! # Discrete logarithms in `GF(2^64)`
//!
//! `2^64 - 1 = 3 · 5 · 17 · 257 · 641 · 65537 · 6700417`, all small primes, so the
//! Pohlig–Hellman method applies: a homomorphism onto the subgroup of order `m` for each
//! factor `m` of the group order turns the problem into one in that subgroup, where
//! baby-step giant-step solves it in about `√m` products, and the Chinese remainder theorem
//! glues the residues together. The tower makes the homomorphisms cheap: the conjugate of
//! `y = a1 Y ⊕ a0` over `GF(2^32)` is `y^(2^32) = a1 Y ⊕ (a0 ⊕ a1)`, so `y^(2^32 - 1)` and
//! the norm `y^(2^32 + 1)` cost one product and one inverse each, and one level down the
//! norm to `GF(2^16)` has its logarithm in the 16-bit table. That leaves baby-step
//! giant-step only for the primes 65537, 641 and 6700417. The engine fixes one primitive
//! element `g` and precomputes the baby steps once, so `log_b(t)` is two logarithms to the
//! base `g` and a linear congruence `x · log_g(b) ≡ log_g(t) (mod 2^64 - 1)`, whose least
//! solution is the answer.
//!
//! # Quadratics
//!
//! Over characteristic 2, `x² + x = c` is the heart of every quadratic: `a x² + b x + c = 0`
//! becomes `y² + y = a c / b²` with `x = (b/a) y`. Its two roots differ by 1. Write the
//! field one level down, `x = x1 X ⊕ x0` with `X² = X ⊕ h`; then
//! `x² ⊕ x = (x1² ⊕ x1) X ⊕ (x1² h ⊕ x0² ⊕ x0)`, a pair of the same equations a level lower.
//! The equation has a root inside `GF(2^(2^k))` exactly when the top bit (bit `2^k - 1`) of
//! `c` is 0 (that bit is the absolute trace); otherwise the roots lie one level up, at
//! `2^(2^k) ⊕ y` with `y² ⊕ y = c ⊕ 2^(2^k - 1)`. So in the nimbers every such equation has
//! two roots.

use std::sync::OnceLock;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

use super::product::{mul64, pow64};
use super::small::{mod_inv, tables};
use super::{NimError, Nimber, Poly2, MAX_LEVEL};

/// Known prime factors of the Fermat numbers `F_0 .. F_11`, small ones first. When the last
/// factor of `F_i` is not listed it is the cofactor `F_i / (product of the listed ones)`.
const FERMAT_FACTORS: [&[&str]; 12] = [
    &["3"],
    &["5"],
    &["17"],
    &["257"],
    &["65537"],
    &["641", "6700417"],
    &["274177", "67280421310721"],
    &["59649589127497217", "5704689200685129054721"],
    &["1238926361552897"],
    &[
        "2424833",
        "7455602825647884208337395736200454918783366342657",
    ],
    &[
        "45592577",
        "6487031809",
        "4659775785220018543264560743076778192897",
    ],
    &[
        "319489",
        "974849",
        "167988556341760475137",
        "3560841906445833920513",
    ],
];

/// The highest field level `k` whose group order `2^(2^k) - 1` the engine can factor
/// (12: fields up to `GF(2^4096)`).
pub const MAX_ORDER_LEVEL: u32 = FERMAT_FACTORS.len() as u32;

/// The prime factors of `F_i`, or `None` if the stored factors do not divide it exactly.
fn fermat_primes(i: usize) -> Option<&'static [BigUint]> {
    static CACHE: OnceLock<Vec<Option<Vec<BigUint>>>> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        (0..FERMAT_FACTORS.len())
            .map(|i| {
                let f = (BigUint::one() << (1u64 << i)) + 1u32;
                let mut rest = f;
                let mut primes = Vec::new();
                for s in FERMAT_FACTORS[i] {
                    let p = BigUint::parse_bytes(s.as_bytes(), 10)?;
                    let (q, r) = rest.div_rem(&p);
                    if !r.is_zero() {
                        return None;
                    }
                    rest = q;
                    primes.push(p);
                }
                if !rest.is_one() {
                    primes.push(rest);
                }
                Some(primes)
            })
            .collect()
    });
    all.get(i)?.as_deref()
}

/// The prime factors of `2^(2^k) - 1`, each once (the group order is squarefree as far as
/// it is factored here); [`NimError::Unsupported`] above [`MAX_ORDER_LEVEL`].
pub fn group_order_primes(k: u32) -> Result<Vec<BigUint>, NimError> {
    if k > MAX_ORDER_LEVEL {
        return Err(NimError::Unsupported(format!(
            "the order of GF(2^(2^{k}))^× is not factored here: orders are known up to GF(2^(2^{MAX_ORDER_LEVEL}))"
        )));
    }
    let mut v = Vec::new();
    for i in 0..k as usize {
        let ps = fermat_primes(i).ok_or_else(|| {
            NimError::Unsupported(format!(
                "the stored factors of the Fermat number F_{i} do not check out"
            ))
        })?;
        v.extend(ps.iter().cloned());
    }
    Ok(v)
}

/// The primes of `2^64 - 1`.
const P64: [u64; 7] = [3, 5, 17, 257, 641, 65537, 6700417];

/// Baby-step tables for one prime `p`: `g_p = g^((2^64-1)/p)` and its first `m` powers.
struct Baby {
    p: u64,
    m: u64,
    /// `g_p^(-m)`, the giant step.
    giant: u64,
    /// Open addressing: key `g_p^j` (never 0), value `j`.
    keys: Vec<u64>,
    vals: Vec<u32>,
}

impl Baby {
    fn slot(&self, k: u64) -> usize {
        (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (self.keys.len() - 1)
    }

    fn find(&self, k: u64) -> Option<u64> {
        let mut i = self.slot(k);
        loop {
            match self.keys[i] {
                0 => return None,
                x if x == k => return Some(self.vals[i] as u64),
                _ => i = (i + 1) & (self.keys.len() - 1),
            }
        }
    }

    /// The `x < p` with `g_p^x = y`, for `y` in the subgroup of order `p`.
    fn solve(&self, mut y: u64) -> Option<u64> {
        let mut i = 0;
        while i * self.m < self.p {
            if let Some(j) = self.find(y) {
                return Some(i * self.m + j);
            }
            y = mul64(y, self.giant);
            i += 1;
        }
        None
    }
}

impl Baby {
    /// Baby steps `gp^j` for `j < m`, for `gp` of prime order `p`.
    fn new(gp: u64, p: u64, m: u64) -> Baby {
        let t = tables();
        let m = m.min(p);
        let cap = (2 * m as usize).next_power_of_two();
        let mut b = Baby {
            p,
            m,
            giant: 0,
            keys: vec![0; cap],
            vals: vec![0; cap],
        };
        let mut x = 1u64;
        for j in 0..m {
            let mut i = b.slot(x);
            while b.keys[i] != 0 {
                i = (i + 1) & (cap - 1);
            }
            b.keys[i] = x;
            b.vals[i] = j as u32;
            x = mul64(x, gp);
        }
        // x = gp^m now; the giant step divides by it.
        b.giant = t.inv64(x);
        b
    }
}

/// The conjugate `y^(2^32)` of `y` over `GF(2^32)`: `Y = 2^32` goes to the other root
/// `Y ⊕ 1` of `z² + z + 2^31`, so `a1 Y ⊕ a0` goes to `a1 Y ⊕ (a0 ⊕ a1)`.
fn conj32(y: u64) -> u64 {
    y ^ (y >> 32)
}

/// The conjugate `u^(2^16)` of `u` in `GF(2^32)` over `GF(2^16)`.
fn conj16(u: u64) -> u64 {
    u ^ ((u >> 16) & 0xffff)
}

/// The tower decomposition of `y ∈ GF(2^64)^×` used by the logarithm: the parts of `y` in
/// the subgroups of order 65535, 65537, 641 and 6700417, each reached through norms and
/// conjugates (cheap) instead of large powers.
///
/// * `y^(2^32 - 1) = conj32(y)/y` lies in the subgroup of order `2^32 + 1 = 641 · 6700417`;
///   powers by 6700417 and 641 split it further;
/// * the norm `u = y^(2^32 + 1) = y ⊗ conj32(y)` lies in `GF(2^32)`, and the same step one
///   level down gives `u^(2^16 + 1) ∈ GF(2^16)` (whose logarithm is one table read) and
///   `u^(2^16 - 1)` of order dividing 65537.
fn parts(y: u64) -> (u64, u64, u64, u64) {
    let t = tables();
    let c = conj32(y);
    let v = mul64(c, t.inv64(y));
    let u = mul64(y, c);
    let cu = conj16(u);
    let u16 = mul64(u, cu);
    let u65537 = mul64(cu, t.inv64(u));
    (u16, u65537, pow64(v, 6_700_417), pow64(v, 641))
}

struct Log64 {
    /// `log16` of the GF(2^16) part of the generator, inverted modulo 65535.
    inv_log_g16: u64,
    /// Baby steps for the parts of orders 65537, 641 and 6700417.
    babies: [Baby; 3],
}

fn log64_tables() -> &'static Log64 {
    static T: OnceLock<Log64> = OnceLock::new();
    T.get_or_init(|| {
        let t = tables();
        let n = u64::MAX;
        // Elements below 2^32 lie in the subfield GF(2^32); about 40% of the rest generate.
        let g = (1u64 << 32..(1u64 << 32) + 4096)
            .find(|&g| P64.iter().all(|p| pow64(g, n / p) != 1))
            .unwrap_or(1 << 32);
        let (g16, g65537, g641, g6700417) = parts(g);
        let inv_log_g16 = mod_inv(t.log16(g16 as u32) as u128, 65_535).unwrap_or(0) as u64;
        Log64 {
            inv_log_g16,
            babies: [
                Baby::new(g65537, 65_537, 1 << 13),
                Baby::new(g641, 641, 641),
                Baby::new(g6700417, 6_700_417, 1 << 16),
            ],
        }
    })
}

/// `log_g(y)` modulo `2^64 - 1` for nonzero `y`, with the engine's fixed generator `g`.
fn log_g64(y: u64) -> Option<u64> {
    let t = tables();
    let lt = log64_tables();
    let (y16, y65537, y641, y6700417) = parts(y);
    // Residues of log_g(y) modulo the four coprime factors of 2^64 - 1.
    let r = [
        (
            t.log16(y16 as u32) as u64 * lt.inv_log_g16 % 65_535,
            65_535u64,
        ),
        (lt.babies[0].solve(y65537)?, 65_537),
        (lt.babies[1].solve(y641)?, 641),
        (lt.babies[2].solve(y6700417)?, 6_700_417),
    ];
    let n = u64::MAX as u128;
    let mut x: u128 = 0;
    for (ri, mi) in r {
        // CRT: ri · M · (M⁻¹ mod mi) is ≡ ri mod mi and ≡ 0 mod the other factors.
        let big_m = n / mi as u128;
        let inv = mod_inv(big_m % mi as u128, mi as u128)?;
        x = (x + (ri as u128 * inv % mi as u128) * big_m) % n;
    }
    Some(x as u64)
}

impl Nimber {
    /// The multiplicative order: the least `n >= 1` with `self^n = 1`. An error for 0, and
    /// [`NimError::Unsupported`] above `GF(2^4096)`, where the group order is not factored
    /// here.
    pub fn order(&self) -> Result<BigUint, NimError> {
        if self.is_zero() {
            return Err(NimError::ZeroHasNoOrder);
        }
        let k = self.field_level();
        // Check the factor table first, so that an unsupported level fails before any work.
        group_order_primes(k).map_err(|e| {
            NimError::Unsupported(format!("cannot compute the order of {}: {e}", short(self)))
        })?;
        order_in_tower(self, k)
    }

    /// The order by the definition: start from the group order `2^(2^k) - 1` and divide out
    /// each prime `p` while `self^(n/p) = 1`. Slower than [`Nimber::order`] (powers with
    /// `2^k`-bit exponents for every prime); kept as a test oracle.
    pub fn order_by_definition(&self) -> Result<BigUint, NimError> {
        if self.is_zero() {
            return Err(NimError::ZeroHasNoOrder);
        }
        let k = self.field_level();
        let primes = group_order_primes(k)?;
        let mut n = (BigUint::one() << (1u64 << k)) - 1u32;
        for p in &primes {
            let q = &n / p;
            if self.pow(&q).is_one() {
                n = q;
            }
        }
        Ok(n)
    }

    /// Whether `self` generates the multiplicative group of `GF(2^(2^k))`, `k` its
    /// [`field_level`](Nimber::field_level). An error for 0 and where [`Nimber::order`] is one.
    pub fn is_primitive(&self) -> Result<bool, NimError> {
        let o = self.order()?;
        Ok(o == (BigUint::one() << (1u64 << self.field_level())) - 1u32)
    }

    /// The discrete logarithm: the least `x >= 0` with `self^x = target`, or
    /// [`NimError::NoLogarithm`] if there is none. Implemented for `self` and `target` in
    /// `GF(2^64)` (Pohlig–Hellman with baby-step giant-step); [`NimError::Unsupported`]
    /// beyond.
    pub fn log(&self, target: &Self) -> Result<BigUint, NimError> {
        let none = || NimError::NoLogarithm {
            base: short(self),
            target: short(target),
        };
        if self.is_zero() {
            // 0^0 = 1 and 0^x = 0 for x >= 1.
            return match target.to_u64() {
                Some(1) => Ok(BigUint::zero()),
                Some(0) => Ok(BigUint::one()),
                _ => Err(none()),
            };
        }
        if target.is_zero() || target.field_level() > self.field_level() {
            // The powers of self stay inside the field of self.
            return Err(none());
        }
        let (Some(b), Some(t)) = (self.to_u64(), target.to_u64()) else {
            return Err(NimError::Unsupported(format!(
                "discrete logarithms are implemented in GF(2^64) only, not for base {} and target {}",
                short(self),
                short(target)
            )));
        };
        let n = u64::MAX as u128;
        let lb = log_g64(b).ok_or_else(none)? as u128;
        let lt = log_g64(t).ok_or_else(none)? as u128;
        // Solve x · lb ≡ lt (mod n). The solutions form one residue class modulo n/d.
        let d = lb.gcd(&n);
        if !lt.is_multiple_of(d) {
            return Err(none());
        }
        let m = n / d;
        let inv = mod_inv((lb / d) % m, m).ok_or_else(none)?;
        let x = (lt / d) % m * inv % m;
        Ok(BigUint::from(x))
    }

    /// The distinct Frobenius conjugates `self, self², self⁴, ...` (the roots of the minimal
    /// polynomial), in that order.
    pub fn conjugates(&self) -> Vec<Self> {
        let mut v = vec![self.clone()];
        let mut y = self.square();
        while &y != self {
            let next = y.square();
            v.push(y);
            y = next;
        }
        v
    }

    /// The minimal polynomial over `GF(2)`: the least-degree monic polynomial with
    /// coefficients 0 and 1 that vanishes at `self`. Its roots are the
    /// [conjugates](Nimber::conjugates), and its degree is `2^k` for `k` the
    /// [`field_level`](Nimber::field_level) (the subfields of `GF(2^(2^k))` are exactly the
    /// smaller levels of the tower).
    ///
    /// Computed without multiplying out the conjugates: the bits `s_i = Tr(self^i)` (the trace
    /// to `GF(2)` is the top bit of the field, see [`Nimber::solve_x2_plus_x`]) satisfy the
    /// linear recurrence whose characteristic polynomial is the minimal polynomial, and the
    /// Berlekamp–Massey algorithm recovers it from `2d` terms: `2d` products and `O(d²)` bit
    /// operations for degree `d`.
    pub fn minpoly(&self) -> Poly2 {
        let k = self.field_level();
        let d = 1usize << k;
        let top = (1u64 << k) - 1;
        let mut seq = Vec::with_capacity(2 * d);
        let mut y = Nimber::one();
        for _ in 0..2 * d {
            seq.push(y.bit(top));
            y = y.nim_mul(self);
        }
        let c = berlekamp_massey(&seq);
        // m_j = c_(L-j): the connection polynomial reversed.
        Poly2::from_coeffs(c.into_iter().rev().collect())
    }

    /// The minimal polynomial as the product of `x ⊕ c` over the conjugates `c` (about `d²`
    /// products): the slow definition, kept as a test oracle for [`Nimber::minpoly`].
    pub fn minpoly_by_conjugates(&self) -> Poly2 {
        // coeffs[i] is the coefficient of x^i of the running product.
        let mut coeffs = vec![Nimber::one()];
        for c in self.conjugates() {
            // Multiply by (x + c).
            let mut next = vec![Nimber::zero(); coeffs.len() + 1];
            for (i, a) in coeffs.iter().enumerate() {
                next[i + 1] = next[i + 1].nim_add(a);
                next[i] = next[i].nim_add(&a.nim_mul(&c));
            }
            coeffs = next;
        }
        // Galois theory: the coefficients are fixed by squaring, so each is 0 or 1.
        Poly2::from_coeffs(coeffs.iter().map(|c| c.is_one()).collect())
    }

    /// All roots of `x² ⊕ x = c` among the nimbers, sorted: two roots `y` and `y ⊕ 1`. They
    /// lie in the field of `c` or one level up; the list is empty only if that is past
    /// [`MAX_LEVEL`].
    pub fn solve_x2_plus_x(c: &Self) -> Vec<Self> {
        let k = c.field_level();
        let top = (1u64 << k) - 1;
        let y = if !c.bit(top) {
            solve_trace0(c, k)
        } else {
            if k + 1 > MAX_LEVEL {
                return Vec::new();
            }
            // Roots one level up: Y = 2^(2^k) satisfies Y² ⊕ Y = 2^(2^k - 1).
            let big_y = pow2(1u64 << k);
            big_y.nim_add(&solve_trace0(&c.nim_add(&pow2(top)), k))
        };
        let z = y.nim_add(&Nimber::one());
        let mut v = vec![y, z];
        v.sort();
        v
    }

    /// All roots of `a ⊗ x² ⊕ b ⊗ x ⊕ c = 0` among the nimbers, sorted. With `a = 0` the
    /// equation is linear; `a = b = c = 0` is [`NimError::EveryNimberIsARoot`].
    pub fn solve_quadratic(a: &Self, b: &Self, c: &Self) -> Result<Vec<Self>, NimError> {
        if a.is_zero() {
            if b.is_zero() {
                return if c.is_zero() {
                    Err(NimError::EveryNimberIsARoot)
                } else {
                    Ok(Vec::new())
                };
            }
            return Ok(vec![c.nim_div(b)?]);
        }
        if b.is_zero() {
            // a x² = c has the single (double) root √(c/a).
            return Ok(vec![c.nim_div(a)?.sqrt()]);
        }
        // x = (b/a) y turns the equation into y² + y = a c / b².
        let s = b.nim_div(a)?;
        let rhs = a.nim_mul(c).nim_div(&b.square())?;
        let mut v: Vec<Self> = Nimber::solve_x2_plus_x(&rhs)
            .iter()
            .map(|y| y.nim_mul(&s))
            .collect();
        v.sort();
        Ok(v)
    }

    /// Bit `i` of the value.
    pub(crate) fn bit(&self, i: u64) -> bool {
        match &self.0 {
            super::Repr::Small(v) => i < 128 && (v >> i) & 1 == 1,
            super::Repr::Big(l) => l
                .get((i / 64) as usize)
                .is_some_and(|w| (w >> (i % 64)) & 1 == 1),
        }
    }

    /// The high and low halves at bit `h`.
    fn split_at_bit(&self, h: u64) -> (Self, Self) {
        let v = self.to_biguint();
        let hi = &v >> h;
        let lo = v - (&hi << h);
        (
            Nimber::from_limbs(hi.to_u64_digits()),
            Nimber::from_limbs(lo.to_u64_digits()),
        )
    }
}

/// The nimber `2^i`.
pub(crate) fn pow2(i: u64) -> Nimber {
    if i < 128 {
        Nimber::from_u128(1u128 << i)
    } else {
        let mut v = vec![0u64; (i / 64) as usize + 1];
        v[(i / 64) as usize] = 1 << (i % 64);
        Nimber::from_limbs(v)
    }
}

/// One root of `x² ⊕ x = c` in `GF(2^(2^k))`, for `c` in that field with top bit 0.
fn solve_trace0(c: &Nimber, k: u32) -> Nimber {
    if k == 0 {
        return Nimber::zero();
    }
    let half = 1u64 << (k - 1);
    let (c1, c0) = c.split_at_bit(half);
    let h = pow2(half - 1);
    let mut x1 = solve_trace0(&c1, k - 1);
    let mut rhs = c0.nim_add(&x1.nim_add(&c1).nim_mul(&h));
    if rhs.bit(half - 1) {
        // The other root x1 ⊕ 1 of the upper equation shifts the lower one by h.
        x1 = x1.nim_add(&Nimber::one());
        rhs = rhs.nim_add(&h);
    }
    let x0 = solve_trace0(&rhs, k - 1);
    let shifted = Nimber::from_limbs((x1.to_biguint() << half).to_u64_digits());
    shifted.nim_add(&x0)
}

/// The order of a nonzero `x` in `GF(2^(2^k))^×`, one level of the tower at a time.
///
/// With `H = 2^(k-1)`, the group order is `(2^H - 1)(2^H + 1)`, two coprime factors, so
/// the group is the product of its subgroups of those orders and the order of `x` is the
/// product of the orders of its two parts. The part in the subgroup of order `2^H - 1` is
/// represented by the norm `x^(2^H + 1) = x ⊗ conj(x)`, an element of the half-size field
/// (recursion), and the part in the subgroup of order `2^H + 1 = F_(k-1)` by
/// `x^(2^H - 1) = conj(x)/x`, whose order needs only the primes of that one Fermat number.
/// The conjugate `conj(x) = x^(2^H)` of `x = x1 X ⊕ x0` is `x1 X ⊕ (x0 ⊕ x1)`.
fn order_in_tower(x: &Nimber, k: u32) -> Result<BigUint, NimError> {
    if k == 0 {
        return Ok(BigUint::one());
    }
    let h = 1u64 << (k - 1);
    let (x1, _) = x.split_at_bit(h);
    let conj = x.nim_add(&x1);
    let norm = x.nim_mul(&conj);
    let twist = conj.nim_div(x)?;
    let order_a = order_in_tower(&norm, k - 1)?;
    let primes = fermat_primes((k - 1) as usize).ok_or_else(|| {
        NimError::Unsupported(format!(
            "the stored factors of the Fermat number F_{} do not check out",
            k - 1
        ))
    })?;
    let mut n = (BigUint::one() << h) + 1u32;
    for p in primes {
        let q = &n / p;
        if twist.pow(&q).is_one() {
            n = q;
        }
    }
    Ok(order_a * n)
}

/// The Berlekamp–Massey algorithm over `GF(2)`: the shortest connection polynomial
/// `1 + c_1 z + ... + c_L z^L` (as `[1, c_1, ..., c_L]`) with `s_n = c_1 s_(n-1) ⊕ ... ⊕
/// c_L s_(n-L)` for all `n >= L`.
fn berlekamp_massey(s: &[bool]) -> Vec<bool> {
    let mut c = vec![true];
    let mut b = vec![true];
    let mut l = 0usize;
    let mut m = 1usize;
    for n in 0..s.len() {
        let mut d = s[n];
        for i in 1..=l.min(c.len() - 1) {
            d ^= c[i] & s[n - i];
        }
        if !d {
            m += 1;
            continue;
        }
        let prev = c.clone();
        if c.len() < b.len() + m {
            c.resize(b.len() + m, false);
        }
        for (i, &bi) in b.iter().enumerate() {
            c[i + m] ^= bi;
        }
        if 2 * l <= n {
            l = n + 1 - l;
            b = prev;
            m = 1;
        } else {
            m += 1;
        }
    }
    c.resize(l + 1, false);
    c
}

/// A nimber for an error message: decimal if short, else its bit length.
fn short(x: &Nimber) -> String {
    if x.bit_len() <= 128 {
        x.to_string()
    } else {
        format!("a {}-bit nimber", x.bit_len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_fermat_factors_divide() {
        for i in 0..FERMAT_FACTORS.len() {
            assert!(fermat_primes(i).is_some(), "F_{i}");
        }
    }

    #[test]
    fn small_logs() {
        let two = Nimber::from_u64(2);
        assert_eq!(two.log(&Nimber::from_u64(3)), Ok(BigUint::from(2u32)));
        assert_eq!(two.log(&Nimber::one()), Ok(BigUint::zero()));
        assert!(matches!(
            Nimber::one().log(&two),
            Err(NimError::NoLogarithm { .. })
        ));
    }

    #[test]
    fn quadratic_examples() {
        let n = Nimber::from_u64;
        assert_eq!(Nimber::solve_x2_plus_x(&n(1)), vec![n(2), n(3)]);
        assert_eq!(Nimber::solve_x2_plus_x(&n(0)), vec![n(0), n(1)]);
        assert_eq!(
            Nimber::solve_quadratic(&n(0), &n(0), &n(0)),
            Err(NimError::EveryNimberIsARoot)
        );
        assert_eq!(Nimber::solve_quadratic(&n(0), &n(0), &n(5)), Ok(vec![]));
    }
}
