//! Times the Cram engine board by board: the value (held to the table Piotr Beling published
//! with igsolve), the CPU time, the regions searched and the size of the tables.
//!
//! `cargo run --release --no-default-features --example cram_timings -- [ROWSxCOLS]...
//! [--table-mib N] [--misere]`. Without boards: 5x6 4x9 5x8 4x10 4x11. Each board is solved by a
//! fresh search; CPU time (user + system) is read from `/proc/self/stat` where there is one.
//! Side by side with igsolve: `/usr/bin/time -v igsolve cram ROWS COLS` for each board.

use std::time::{Duration, Instant};

use nimbook::game::{cram_search, Board, Budget, CramOptions, Game};

/// Beling's table, written once for this example and the tests.
#[path = "../tests/testsuite/cram/beling.rs"]
mod beling;

/// CPU seconds (user + system) of this process so far, from `/proc/self/stat` (clock ticks of
/// 1/100 s), or `None` where it cannot be read.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces; the fields after its closing parenthesis are fixed.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut table_mib = 4096u64;
    let mut misere = false;
    let mut boards = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--table-mib" {
            table_mib = it.next().and_then(|n| n.parse().ok()).unwrap_or(table_mib);
        } else if a == "--misere" {
            misere = true;
        } else if let Some((r, c)) = a.split_once('x') {
            match (r.parse::<u64>(), c.parse::<u64>()) {
                (Ok(r), Ok(c)) => boards.push((r, c)),
                _ => eprintln!("not a board: {a} (write ROWSxCOLS)"),
            }
        } else {
            eprintln!("not a board: {a} (write ROWSxCOLS)");
        }
    }
    if boards.is_empty() {
        boards = vec![(5, 6), (4, 9), (5, 8), (4, 10), (4, 11)];
    }
    let budget = Budget {
        max_positions: u64::MAX,
        max_time: Duration::from_secs(3600),
        max_table_bytes: table_mib << 20,
    };
    println!("board   value  published  CPU s   wall s  positions    table entries  table MiB");
    for (r, c) in boards {
        let cpu = cpu_seconds();
        let wall = Instant::now();
        if misere {
            let outcome = Game::misere_cram(r, c).and_then(|g| g.outcome(&budget));
            let cpu = cpu_seconds().zip(cpu).map(|(b, a)| b - a);
            match outcome {
                Ok(o) => println!(
                    "misere {r}x{c}: {o}  CPU {}  wall {:.2} s",
                    cpu.map_or("?".into(), |s| format!("{s:.2} s")),
                    wall.elapsed().as_secs_f64()
                ),
                Err(e) => println!("misere {r}x{c}: {e}"),
            }
            continue;
        }
        let run =
            Board::rectangle(r, c).and_then(|b| cram_search(&b, CramOptions::default(), &budget));
        let cpu = cpu_seconds().zip(cpu).map(|(b, a)| b - a);
        let wall = wall.elapsed().as_secs_f64();
        let published = beling::published(r, c);
        match run {
            Ok(s) => {
                let check = match published {
                    Some(v) if v == s.value => format!("{v}"),
                    Some(v) => format!("{v} MISMATCH"),
                    None => "-".into(),
                };
                println!(
                    "{:<7} {:>5}  {:>9}  {:>6}  {:>7.2}  {:>11}  {:>13}  {:>9.1}{}",
                    format!("{r}x{c}"),
                    s.value,
                    check,
                    cpu.map_or("?".into(), |s| format!("{s:.2}")),
                    wall,
                    s.positions,
                    s.table_entries,
                    s.table_bytes as f64 / (1u64 << 20) as f64,
                    if s.forgotten > 0 {
                        format!("  ({} forgotten at the budget)", s.forgotten)
                    } else {
                        String::new()
                    }
                );
            }
            Err(e) => println!("{r}x{c}: {e}"),
        }
    }
}
