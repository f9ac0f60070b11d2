//! Benchmarks of nim-arithmetic on ordinals below ω^(ω^ω).
//!
//! The target of issue 8: a product of two ordinals below ω^(ω^3) with small coefficients
//! in well under a millisecond. Run with
//! `cargo bench --no-default-features --bench ordinal -- --measurement-time 2 --warm-up-time 1`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use nimbook::nim::ordinal::{alpha, Ordinal};

fn ord(s: &str) -> Ordinal {
    Ordinal::parse(s).unwrap_or_default()
}

/// A deterministic pseudo-random ordinal below ω^(ω^3) with `terms` terms, exponent
/// coefficients below `bound` and coefficients below 16.
fn random(seed: u64, terms: usize, bound: u64) -> Ordinal {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut x = Ordinal::zero();
    for _ in 0..terms {
        let e = [next() % bound, next() % bound, next() % bound];
        let c = next() % 15 + 1;
        if let Ok(m) = Ordinal::monomial(&e, c) {
            x = x.nim_add(&m);
        }
    }
    x
}

fn products(c: &mut Criterion) {
    let a = ord(
        "w^(w^2*3 + w*4 + 2)*5 + w^(w^2 + w*2)*3 + w^(w*3 + 1)*7 + w^(w + 5)*2 + w^4*9 + w*3 + 11",
    );
    let b = ord(
        "w^(w^2*6 + 5)*2 + w^(w^2*2 + w*4 + 8)*13 + w^(w*2 + 2) + w^(w + 1)*6 + w^7*3 + w^2 + 5",
    );
    c.bench_function("mul 7x7 terms below w^(w^3)", |bench| {
        bench.iter(|| black_box(&a).nim_mul(black_box(&b)))
    });
    let x = random(1, 10, 10);
    let y = random(2, 10, 10);
    c.bench_function(
        "mul 10x10 random terms below w^(w^3), exponent digits < 10",
        |bench| bench.iter(|| black_box(&x).nim_mul(black_box(&y))),
    );
    let x = random(3, 30, 30);
    let y = random(4, 30, 30);
    c.bench_function(
        "mul 30x30 random terms below w^(w^3), exponent digits < 30",
        |bench| bench.iter(|| black_box(&x).nim_mul(black_box(&y))),
    );
    let w = ord("w");
    c.bench_function("w^(2^64 - 1) by repeated squaring", |bench| {
        bench.iter(|| black_box(&w).pow(u64::MAX))
    });
}

fn inverses(c: &mut Criterion) {
    let x = ord("w^(w^2 + w*3 + 2)*5 + w^(w*4 + 1)*3 + w^2 + 7");
    c.bench_function("inv of 4 terms below w^(w^3)", |bench| {
        bench.iter(|| black_box(&x).inv())
    });
    c.bench_function("alpha(47)", |bench| bench.iter(|| alpha(black_box(47))));
}

fn notation(c: &mut Criterion) {
    let s =
        "w^(w^2*3 + w*4 + 2)*5 + w^(w^2 + w*2)*3 + w^(w*3 + 1)*7 + w^(w + 5)*2 + w^4*9 + w*3 + 11";
    c.bench_function("parse 7 terms", |bench| {
        bench.iter(|| Ordinal::parse(black_box(s)))
    });
}

criterion_group!(benches, products, inverses, notation);
criterion_main!(benches);
