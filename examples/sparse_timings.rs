//! Timed runs of the sparse-space engine against the plain mex, in the same run.
//!
//! `cargo run --release --no-default-features --example sparse_timings -- [what]...` where
//! `what` is `grundy` (Grundy's game to 10⁷, and 10⁵ both ways), `grundy-big` (to 10⁸),
//! `octal` (Kayles, Dawson's Kayles, 0.106 and 0.165 to 10⁶, and to 10⁵ plainly) or `period`
//! (`period("0.165")`, and `period("0.106")` under the default budget). The runs without
//! periods get 60 s each, so a run that the engine cannot speed up says how far it got (and
//! is not compared). Default: `grundy`, `octal`, `period`. Every run prints its wall time;
//! measure memory with `/usr/bin/time -v`.

use std::time::{Duration, Instant};

use nimbook::game::{
    grundys_sequence, grundys_sequence_plain, octal_sequence, octal_sequence_by_mex,
    octal_sequence_plain, period, Budget, Game, GameError, OctalCode,
};

fn budget(secs: u64) -> Budget {
    Budget {
        max_positions: 2_000_000_000,
        max_time: Duration::from_secs(secs),
        ..Budget::default()
    }
}

/// Runs `f`, printing its wall time and what it returned.
fn timed<T>(what: &str, f: impl FnOnce() -> T, show: impl Fn(&T) -> String) -> T {
    let t = Instant::now();
    let r = f();
    println!(
        "{what:<48} {:>9.3} s   {}",
        t.elapsed().as_secs_f64(),
        show(&r)
    );
    r
}

fn summary(r: &Result<Vec<u64>, GameError>) -> String {
    match r {
        Ok(v) => format!(
            "{} values, largest {}, last {}",
            v.len(),
            v.iter().max().unwrap_or(&0),
            v.last().unwrap_or(&0)
        ),
        Err(e) => e.to_string(),
    }
}

fn grundy(n: u64, secs: u64) {
    // The solver keeps the values one byte each; the value of the last heap needs them all.
    let _ = timed(
        &format!("Grundy's game, every heap below {n}"),
        || Game::grundys_game(n - 1).grundy(&budget(secs)),
        |r| format!("{r:?}"),
    );
}

fn grundy_both(n: u64) {
    let sparse = timed(
        &format!("Grundy's game below {n}, sparse space"),
        || grundys_sequence(n - 1, &budget(600)),
        summary,
    );
    let plain = timed(
        &format!("Grundy's game below {n}, plain mex"),
        || grundys_sequence_plain(n - 1, &budget(600)),
        summary,
    );
    match (&sparse, &plain) {
        (Ok(s), Ok(p)) => println!("  same values: {}", s == p),
        (Err(e), _) => println!("  the sparse space {}", stopped(e)),
        (_, Err(e)) => println!("  the plain method {}", stopped(e)),
    }
}

fn octal(code: &str, n: u64, plain_n: u64) {
    let Ok(c) = code.parse::<OctalCode>() else {
        return;
    };
    let _ = timed(
        &format!("{code} below {n}, with proved periods"),
        || octal_sequence(&c, n - 1, &budget(600)),
        summary,
    );
    let sparse = timed(
        &format!("{code} below {n}, sparse space, no periods"),
        || octal_sequence_by_mex(&c, n - 1, &budget(60)),
        summary,
    );
    let small = timed(
        &format!("{code} below {plain_n}, sparse space, no periods"),
        || octal_sequence_by_mex(&c, plain_n - 1, &budget(600)),
        summary,
    );
    let plain = timed(
        &format!("{code} below {plain_n}, plain mex"),
        || octal_sequence_plain(&c, plain_n - 1, &budget(600)),
        summary,
    );
    // A run that stopped has no values to compare: say which one, and how far it got.
    let verdict = |s: &Result<Vec<u64>, GameError>| match (s, &plain) {
        (Ok(s), Ok(p)) => format!("same values below {plain_n}: {}", s[..p.len()] == p[..]),
        (Err(e), _) => format!("the sparse space {}", stopped(e)),
        (_, Err(e)) => format!("the plain method {}", stopped(e)),
    };
    println!(
        "  to {n}: {}; to {plain_n}: {}",
        verdict(&sparse),
        verdict(&small)
    );
}

/// "timed out after N heaps" from a budget error, whose progress starts with the positions
/// (one a heap) computed.
fn stopped(e: &GameError) -> String {
    match e {
        GameError::BudgetExceeded { reached, .. } => {
            let heaps = reached.split(' ').next().unwrap_or("?");
            format!("timed out after {heaps} heaps, so no comparison")
        }
        other => format!("failed ({other}), so no comparison"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let want = |w: &str| {
        if args.is_empty() {
            w != "grundy-big"
        } else {
            args.iter().any(|a| a == w)
        }
    };
    if want("grundy") {
        grundy_both(100_000);
        grundy(10_000_000, 600);
    }
    if want("grundy-big") {
        grundy(100_000_000, 3600);
    }
    if want("octal") {
        for code in ["0.77", "0.07", "0.106", "0.165"] {
            octal(code, 1_000_000, 100_000);
        }
    }
    if want("period") {
        for code in ["0.165", "0.106"] {
            let Ok(c) = code.parse::<OctalCode>() else {
                continue;
            };
            let _ = timed(
                &format!("period(\"{code}\"), default budget"),
                || period(&c, &Budget::default()),
                |r| format!("{r:?}"),
            );
        }
    }
}
