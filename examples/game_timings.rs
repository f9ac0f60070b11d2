//! Timed runs of the game engine's speed targets.
//!
//! `cargo run --release --no-default-features --example game_timings -- [what]...` where
//! `what` is `cram`, `cram-big`, `misere`, `kayles`, `periods` or `0.16` (default: all but
//! `cram-big` and `0.16`).

use std::time::{Duration, Instant};

use nimbook::game::{octal_sequence_by_mex, period, Budget, Game, OctalCode};

fn budget() -> Budget {
    Budget {
        max_positions: 2_000_000_000,
        max_time: Duration::from_secs(600),
        ..Budget::default()
    }
}

fn cram(r: u64, c: u64) {
    let t = Instant::now();
    let g = Game::cram(r, c).and_then(|g| g.grundy(&budget()));
    match g {
        Ok(v) => println!(
            "cram({r}, {c}) = {v}  in {:.3} s",
            t.elapsed().as_secs_f64()
        ),
        Err(e) => println!("cram({r}, {c}): {e}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let want = |w: &str| {
        if args.is_empty() {
            w != "0.16" && w != "cram-big" && w != "misere"
        } else {
            args.iter().any(|a| a == w)
        }
    };
    if want("cram") {
        cram(4, 7);
        let t = Instant::now();
        for r in 1..=35u64 {
            for c in r..=35u64 {
                if r * c <= 35 {
                    cram(r, c);
                }
            }
        }
        println!(
            "all rectangles of at most 35 cells: {:.3} s",
            t.elapsed().as_secs_f64()
        );
    }
    if want("cram-big") {
        cram(4, 9);
        cram(5, 8);
        cram(6, 6);
    }
    if want("misere") {
        for (r, c) in [
            (3, 4),
            (4, 4),
            (3, 6),
            (4, 5),
            (5, 5),
            (4, 6),
            (4, 7),
            (5, 6),
        ] {
            let t = Instant::now();
            match Game::misere_cram(r, c).and_then(|g| g.outcome(&budget())) {
                Ok(o) => println!(
                    "misere_cram({r}, {c}) is {o}  in {:.3} s",
                    t.elapsed().as_secs_f64()
                ),
                Err(e) => println!("misere_cram({r}, {c}): {e}"),
            }
        }
    }
    if want("kayles") {
        let t = Instant::now();
        let k = OctalCode::kayles();
        match octal_sequence_by_mex(&k, 100_000, &budget()) {
            Ok(s) => println!(
                "kayles 0..=100000: last {} in {:.3} s",
                s.last().copied().unwrap_or(0),
                t.elapsed().as_secs_f64()
            ),
            Err(e) => println!("kayles: {e}"),
        }
    }
    if want("periods") {
        for code in ["0.77", "0.07", "0.137", "0.51", "4.7"] {
            let t = Instant::now();
            let c: OctalCode = code.parse().expect("valid code");
            match period(&c, &budget()) {
                Ok(p) => println!(
                    "{code}: preperiod {} period {} in {:.3} s",
                    p.preperiod,
                    p.period,
                    t.elapsed().as_secs_f64()
                ),
                Err(e) => println!("{code}: {e}"),
            }
        }
    }
    if want("0.16") {
        let c: OctalCode = "0.16".parse().expect("valid code");
        let t = Instant::now();
        match octal_sequence_by_mex(&c, 400_000, &budget()) {
            Ok(_) => println!("0.16 to 400000 in {:.3} s", t.elapsed().as_secs_f64()),
            Err(e) => println!("0.16: {e}"),
        }
        let t = Instant::now();
        match period(&c, &budget()) {
            Ok(p) => println!(
                "0.16: preperiod {} period {} in {:.3} s",
                p.preperiod,
                p.period,
                t.elapsed().as_secs_f64()
            ),
            Err(e) => println!("0.16: {e}"),
        }
    }
}
