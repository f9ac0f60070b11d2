//! Criterion benchmarks of the nimber engine: 64- and 128-bit products, inverses and
//! discrete logarithms in GF(2^64).
//!
//! `cargo bench --no-default-features --bench nim`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nimbook::nim::{mul128, mul64, Nimber};

/// A fixed pseudo-random stream (xorshift), so runs are comparable.
fn stream(n: usize, mut s: u64) -> Vec<u64> {
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        })
        .collect()
}

fn products(c: &mut Criterion) {
    let xs = stream(1024, 0x9e37_79b9_7f4a_7c15);
    let ys = stream(1024, 0x2545_f491_4f6c_dd1d);
    let mut g = c.benchmark_group("product");
    g.throughput(Throughput::Elements(xs.len() as u64));
    g.bench_function("u64 x1024", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for (x, y) in xs.iter().zip(&ys) {
                acc ^= mul64(black_box(*x), black_box(*y));
            }
            acc
        })
    });
    let xw: Vec<u128> = xs
        .iter()
        .zip(&ys)
        .map(|(a, b)| ((*a as u128) << 64) | *b as u128)
        .collect();
    let yw: Vec<u128> = ys
        .iter()
        .zip(&xs)
        .map(|(a, b)| ((*a as u128) << 64) | (*b ^ 0x55) as u128)
        .collect();
    g.bench_function("u128 x1024", |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for (x, y) in xw.iter().zip(&yw) {
                acc ^= mul128(black_box(*x), black_box(*y));
            }
            acc
        })
    });
    g.finish();
}

fn inverse_and_log(c: &mut Criterion) {
    let xs: Vec<Nimber> = stream(256, 7)
        .into_iter()
        .map(|v| Nimber::from_u64(v | 1))
        .collect();
    let mut g = c.benchmark_group("gf64");
    g.throughput(Throughput::Elements(xs.len() as u64));
    g.bench_function("inverse x256", |b| {
        b.iter(|| {
            xs.iter()
                .map(|x| black_box(x).inv().ok())
                .filter(Option::is_some)
                .count()
        })
    });
    g.finish();
    let base = (1u64 << 32..)
        .map(Nimber::from_u64)
        .find(|x| x.is_primitive() == Ok(true));
    let targets: Vec<Nimber> = stream(64, 99).into_iter().map(Nimber::from_u64).collect();
    if let Some(base) = base {
        // Warm the precomputed tables once.
        let _ = base.log(&targets[0]);
        let mut i = 0;
        c.bench_function("gf64/discrete log", |b| {
            b.iter(|| {
                i = (i + 1) % targets.len();
                base.log(black_box(&targets[i])).ok()
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = products, inverse_and_log
}
criterion_main!(benches);
