//! Build-size, build-time and memory figures for generated books, nimbook and mdBook side by side.
//!
//! ```text
//! cargo build --release && cargo run --release --example scale -- [OPTIONS] N...
//! ```
//!
//! For every chapter count `N` the book is generated once with
//! `../shared/bench/make_synthbook.py` (or `--synth PATH`) into `target/scale/book-N`, then
//! built `--runs R` times (default 3) by `target/release/nimbook build` and, when `mdbook` is on
//! the `PATH` and `--no-mdbook` is not given, by `mdbook build`, the two alternating so that
//! both see the same machine load. For each it prints the median wall time, the size of the
//! output folder (the sum of the file sizes) and the largest peak resident set size of the runs.
//! Peak memory comes from GNU `/usr/bin/time -f %M` (shown as `-` when it is not installed).
//!
//! `--book DIR` measures an existing book instead of a generated one (Rust by Example, say):
//! `cargo run --release --example scale -- --runs 10 --book ../shared/realbooks/rust-by-example`.
//!
//! The figures are printed as rows of a Markdown table, in the layout of issue 16.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// One measured build: wall seconds, output bytes, peak RSS in KiB (if known).
struct Run {
    seconds: f64,
    bytes: u64,
    peak_kib: Option<u64>,
}

/// What the command line asked for.
struct Options {
    runs: usize,
    synth: PathBuf,
    mdbook: bool,
    books: Vec<Target>,
}

enum Target {
    Synthetic(usize),
    Existing(PathBuf),
}

fn usage() -> ! {
    eprintln!(
        "usage: scale [--runs R] [--synth make_synthbook.py] [--no-mdbook] [--book DIR]... [N]..."
    );
    std::process::exit(2);
}

fn options() -> Options {
    let mut o = Options {
        runs: 3,
        synth: PathBuf::from("../shared/bench/make_synthbook.py"),
        mdbook: true,
        books: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => {
                o.runs = args
                    .next()
                    .and_then(|r| r.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            "--synth" => o.synth = args.next().map(PathBuf::from).unwrap_or_else(|| usage()),
            "--no-mdbook" => o.mdbook = false,
            "--book" => o.books.push(Target::Existing(
                args.next().map(PathBuf::from).unwrap_or_else(|| usage()),
            )),
            n => o
                .books
                .push(Target::Synthetic(n.parse().unwrap_or_else(|_| usage()))),
        }
    }
    if o.books.is_empty() || o.runs == 0 {
        usage();
    }
    o
}

/// The sum of the sizes of the files under `dir`.
fn folder_size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => folder_size(&e.path()),
            Ok(_) => e.metadata().map_or(0, |m| m.len()),
            Err(_) => 0,
        })
        .sum()
}

/// Runs `program args` under `/usr/bin/time` (when present) and measures it.
fn measure(program: &Path, args: &[&Path], out: &Path) -> Run {
    let _ = std::fs::remove_dir_all(out);
    let time = Path::new("/usr/bin/time");
    let rss_file = out.with_extension("rss");
    let mut cmd = if time.is_file() {
        let mut c = Command::new(time);
        c.arg("-f").arg("%M").arg("-o").arg(&rss_file).arg(program);
        c
    } else {
        Command::new(program)
    };
    cmd.args(args).stdout(Stdio::null()).stderr(Stdio::piped());
    let start = Instant::now();
    let output = cmd.output().unwrap_or_else(|e| {
        eprintln!("cannot run {}: {e}", program.display());
        std::process::exit(2);
    });
    let seconds = start.elapsed().as_secs_f64();
    if !output.status.success() {
        eprintln!(
            "{} failed:\n{}",
            program.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        std::process::exit(1);
    }
    let peak_kib = std::fs::read_to_string(&rss_file)
        .ok()
        .and_then(|s| s.lines().last().and_then(|l| l.trim().parse().ok()));
    Run {
        seconds,
        bytes: folder_size(out),
        peak_kib,
    }
}

/// Median time, size of the last output, largest peak.
fn summary(runs: &[Run]) -> (f64, u64, Option<u64>) {
    let mut t: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
    t.sort_by(f64::total_cmp);
    let median = if t.len() % 2 == 1 {
        t[t.len() / 2]
    } else {
        (t[t.len() / 2 - 1] + t[t.len() / 2]) / 2.0
    };
    let bytes = runs.last().map_or(0, |r| r.bytes);
    let peak = runs.iter().filter_map(|r| r.peak_kib).max();
    (median, bytes, peak)
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn peak(kib: Option<u64>) -> String {
    kib.map_or("-".into(), |k| format!("{:.0} MB", k as f64 * 1024.0 / 1e6))
}

fn on_path(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn main() {
    let o = options();
    let exe = std::env::current_exe().unwrap_or_default();
    // target/release/examples/scale → target/release/nimbook
    let release = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let nimbook = release.join("nimbook");
    if !nimbook.is_file() {
        eprintln!(
            "{} is missing: run `cargo build --release` first",
            nimbook.display()
        );
        std::process::exit(2);
    }
    let work = release.parent().unwrap_or(Path::new(".")).join("scale");
    let _ = std::fs::create_dir_all(&work);
    let mdbook = o.mdbook && on_path("mdbook");
    println!(
        "| book | nimbook time | mdBook time | ratio | nimbook output | mdBook output | nimbook peak memory | mdBook peak memory |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for target in &o.books {
        let (label, book) = match target {
            Target::Synthetic(n) => {
                let book = work.join(format!("book-{n}"));
                if !book.join("src/SUMMARY.md").is_file() {
                    let status = Command::new("python3")
                        .arg(&o.synth)
                        .arg(&book)
                        .arg(n.to_string())
                        .stdout(Stdio::null())
                        .status();
                    if !status.is_ok_and(|s| s.success()) {
                        eprintln!("cannot generate the book with {}", o.synth.display());
                        std::process::exit(2);
                    }
                }
                (format!("{n} chapters"), book)
            }
            Target::Existing(dir) => (dir.display().to_string(), dir.clone()),
        };
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        let ours_out = work.join("out-nimbook");
        let theirs_out = work.join("out-mdbook");
        for _ in 0..o.runs {
            ours.push(measure(
                &nimbook,
                &[Path::new("build"), &book, Path::new("-d"), &ours_out],
                &ours_out,
            ));
            if mdbook {
                theirs.push(measure(
                    Path::new("mdbook"),
                    &[Path::new("build"), &book, Path::new("-d"), &theirs_out],
                    &theirs_out,
                ));
            }
        }
        let (t, size, rss) = summary(&ours);
        if mdbook {
            let (mt, msize, mrss) = summary(&theirs);
            println!(
                "| {label} | {t:.3} s | {mt:.3} s | {:.2}× | {} | {} | {} | {} |",
                t / mt,
                mb(size),
                mb(msize),
                peak(rss),
                peak(mrss)
            );
        } else {
            println!(
                "| {label} | {t:.3} s | - | - | {} | - | {} | - |",
                mb(size),
                peak(rss)
            );
        }
    }
}
