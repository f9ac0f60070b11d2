//! Benchmarks of the game engine's speed targets.
//!
//! `cargo bench --no-default-features --bench game`. The slow targets (Cram 4 × 9, 5 × 8 and
//! 6 × 6, the octal game 0.16 to 400 000) are timed by the example `game_timings` instead, since
//! criterion repeats every measurement.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use nimbook::game::{octal_sequence_by_mex, period, Budget, Game, OctalCode};

fn budget() -> Budget {
    Budget {
        max_positions: u64::MAX,
        max_time: Duration::from_secs(600),
        ..Budget::default()
    }
}

fn cram(c: &mut Criterion) {
    let mut g = c.benchmark_group("cram");
    g.sample_size(10);
    for (r, k) in [(4, 7), (3, 10), (5, 6)] {
        g.bench_function(format!("{r}x{k}"), |b| {
            b.iter(|| {
                Game::cram(r, k)
                    .and_then(|game| game.grundy(&budget()))
                    .map(black_box)
            })
        });
    }
    g.finish();
}

fn octal(c: &mut Criterion) {
    let mut g = c.benchmark_group("octal");
    g.sample_size(10);
    let kayles = OctalCode::kayles();
    g.bench_function("kayles_100000", |b| {
        b.iter(|| octal_sequence_by_mex(&kayles, 100_000, &budget()).map(black_box))
    });
    g.bench_function("kayles_period", |b| {
        b.iter(|| period(&kayles, &budget()).map(black_box))
    });
    g.finish();
}

fn graphs(c: &mut Criterion) {
    c.bench_function("nim_2_3_4_graph", |b| {
        b.iter(|| Game::nim(vec![2, 3, 4]).graph(&budget()).map(black_box))
    });
}

criterion_group!(benches, cram, octal, graphs);
criterion_main!(benches);
