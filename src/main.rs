//! The `nimbook` command line: argument parsing, printing and exit codes.
//!
//! Exit codes: 0 when everything holds, 1 when the content is wrong (a false claim, a syntax
//! error, a file that is not UTF-8), 2 for usage, configuration and I/O failures.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use nimbook::claim::{builtins, calc, Checker, Limits};
use nimbook::diag::{Code, Diagnostic, MessageFormat, SourceFile};
use nimbook::site;
use nimbook::site::{Lint, LintLevel};

#[derive(Parser)]
#[command(
    name = "nimbook",
    version,
    about = "Build and verify a course on nimbers and impartial games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// rustc-style text
    Human,
    /// one JSON object per diagnostic
    Json,
    /// GitHub Actions annotations
    Github,
}

#[derive(clap::Args)]
struct Output {
    /// How to print diagnostics.
    #[arg(long, value_enum, default_value = "human")]
    message_format: Format,
}

/// Lint levels on the command line; they override `[nimbook]` in book.toml.
#[derive(clap::Args)]
struct LintArgs {
    /// Make a lint's findings errors (exit 1, nothing written): `unverified-numbers`,
    /// `vacuous-claims`, `broken-links` (also spelled `broken-link`). May be repeated.
    #[arg(long, value_name = "LINT")]
    deny: Vec<Lint>,
    /// Make a lint's findings warnings. May be repeated.
    #[arg(long, value_name = "LINT")]
    warn: Vec<Lint>,
}

impl LintArgs {
    /// The options of every command: the book in `dir`, these lint levels, and where to write.
    fn options(&self, dir: PathBuf, output: Option<PathBuf>) -> site::Options {
        let mut options = site::Options::new(dir);
        options.output = output;
        // `--deny` wins over `--warn` for the same lint.
        for &lint in &self.warn {
            options = options.lint(lint, LintLevel::Warn);
        }
        for &lint in &self.deny {
            options = options.lint(lint, LintLevel::Deny);
        }
        options
    }
}

/// How far the book is trusted.
#[derive(clap::Args)]
struct TrustArgs {
    /// Treat the book as a stranger's (a pull request from a fork): run no preprocessor
    /// command, read nothing outside the book root, use the built-in templates, keep every
    /// budget at its default or lower. `NIMBOOK_UNTRUSTED=1` does the same.
    #[arg(long)]
    untrusted: bool,
}

impl TrustArgs {
    fn trust(&self) -> site::Trust {
        site::Trust::from_flag_or_env(self.untrusted)
    }
}

/// Whether the cache of decided results is used.
#[derive(clap::Args)]
struct CacheArgs {
    /// Neither read nor write the cache of decided results (.nimbook/cache/ in the book root):
    /// decide every claim again. `NIMBOOK_NO_CACHE=1` does the same.
    #[arg(long)]
    no_cache: bool,
}

/// What every command that reads a book takes: how to print, lint levels, trust, the cache.
#[derive(clap::Args)]
struct Common {
    #[command(flatten)]
    output: Output,
    #[command(flatten)]
    lints: LintArgs,
    #[command(flatten)]
    trust: TrustArgs,
    #[command(flatten)]
    cache: CacheArgs,
}

impl Common {
    /// The options of the book in `dir`, written to `dest` if given.
    fn options(&self, dir: PathBuf, dest: Option<PathBuf>) -> site::Options {
        self.lints
            .options(dir, dest)
            .trust(self.trust.trust())
            .cache(site::cache_wanted(self.cache.no_cache))
    }
}

#[derive(Subcommand)]
enum Command {
    /// Check every claim and write the site.
    Build {
        /// The book root, the folder of book.toml.
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Write the site here instead of the configured build-dir.
        #[arg(short = 'd', long)]
        dest_dir: Option<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Check every claim; write no site (what was decided goes to the cache).
    Check {
        /// The book root, the folder of book.toml.
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Print the numbers line (verified, unverified, exempt) for every lesson too.
        #[arg(long)]
        coverage: bool,
        /// Print every named result with its status (on standard output; one JSON object a
        /// line with `--message-format json`).
        #[arg(long)]
        results: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Check every claim, then typeset the whole book as one PDF (tagged, with its outline and
    /// contents, the answers in an appendix), in process, with no TeX and no browser.
    Pdf {
        /// The book root, the folder of book.toml.
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// The PDF to write; by default into the site's folder, named after the book.
        #[arg(short = 'o', long = "output", value_name = "FILE.pdf")]
        file: Option<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Build the book, serve it on 127.0.0.1 and rebuild and reload pages on every change.
    Serve {
        /// The book root, the folder of book.toml.
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// The port on 127.0.0.1; 0 picks a free one.
        #[arg(short, long, default_value_t = 3000)]
        port: u16,
        /// Write the site here instead of the configured build-dir.
        #[arg(short = 'd', long)]
        dest_dir: Option<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Write chapters (or the whole book) as one self-contained, printable HTML file.
    Handout {
        /// The book root, the folder of book.toml.
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Chapters by source path (`nim-addition.md`) or title.
        #[arg(conflicts_with = "all")]
        chapters: Vec<String>,
        /// Every chapter of the book.
        #[arg(long)]
        all: bool,
        /// The HTML file to write.
        #[arg(short = 'o', long = "output", value_name = "FILE.html")]
        file: PathBuf,
        /// Also write the teacher's answer key, every exercise with its answer and the worked
        /// answers, to FILE.answers.html beside the handout.
        #[arg(long)]
        answers: bool,
        /// Typeset the handout as a PDF instead (the key, with `--answers`, as
        /// FILE.answers.pdf).
        #[arg(long)]
        pdf: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Start a new course: book.toml, a first lesson, .gitignore and a CI workflow.
    Init {
        /// The folder to write (created if missing); it must be empty unless `--force`.
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Write into a folder that is not empty, replacing files of the same names.
        #[arg(long)]
        force: bool,
        /// The git repository the workflow installs nimbook from.
        #[arg(long, value_name = "URL")]
        git: Option<String>,
    },
    /// Run as an mdBook preprocessor (mdBook runs this), or set a book up for it (`install`).
    Mdbook {
        #[command(subcommand)]
        action: Option<MdbookAction>,
    },
    /// Run a language server on standard input and output: claims checked as you type, with
    /// hover, completion, go to definition and quick fixes, in any editor that speaks LSP.
    Lsp {
        #[command(flatten)]
        cache: CacheArgs,
    },
    /// Explain a diagnostic code: what it means, a failing example, how to fix it.
    Explain {
        /// A code as diagnostics print it, such as `false-claim`.
        #[arg(required_unless_present = "list")]
        code: Option<String>,
        /// List every code with what it means, one a line.
        #[arg(long, conflicts_with = "code")]
        list: bool,
    },
    /// Manage the cache of decided results (.nimbook/cache/ in the book root).
    Cache {
        #[command(subcommand)]
        action: CacheAction,
    },
    /// Evaluate expressions and claims; `-` reads one per line from standard input.
    Calc {
        /// Expressions such as `6 * 13` or claims such as `7 + 14 = 9`.
        #[arg(required_unless_present = "list", allow_hyphen_values = true)]
        exprs: Vec<String>,
        /// List every function and directive, with its usage and what it computes, one a
        /// line: the functions, then the directives, each sorted by name.
        #[arg(long, conflicts_with = "exprs")]
        list: bool,
    },
}

/// `nimbook cache …`.
#[derive(Subcommand)]
enum CacheAction {
    /// Remove the cache, so that the next build decides every claim again.
    Clear {
        /// The book root, the folder of book.toml.
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
}

/// `nimbook mdbook …`: without a subcommand, preprocess the book mdBook sends on standard input.
#[derive(Subcommand)]
enum MdbookAction {
    /// Exit 0 if nimbook can preprocess for RENDERER (every renderer: HTML for `html`, plain
    /// text for the others).
    Supports {
        /// The renderer mdBook asks about.
        renderer: String,
    },
    /// Add `[preprocessor.nimbook]` and the stylesheet and script to an mdBook book's
    /// book.toml, and write those files and the math font.
    Install {
        /// The book root, the folder of book.toml.
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
}

/// `nimbook handout`: the chapters (or `--all`) as one file; `(file, answers, pdf)` are where
/// it goes, whether the key goes beside it, and whether it is typeset as a PDF.
fn run_handout(
    mut dir: PathBuf,
    mut chapters: Vec<String>,
    all: bool,
    (file, answers, pdf): (PathBuf, bool, bool),
    common: &Common,
) -> ExitCode {
    // `nimbook handout lesson.md -o x.html` in a book root: the first word is a chapter, not
    // the book folder.
    if !dir.join("book.toml").exists() && std::path::Path::new("book.toml").is_file() {
        chapters.insert(0, dir.to_string_lossy().into_owned());
        dir = PathBuf::from(".");
    }
    if all && !chapters.is_empty() {
        eprintln!("error: --all takes the whole book; leave out the chapter names");
        return ExitCode::from(2);
    }
    if chapters.is_empty() && !all {
        eprintln!("error: name the chapters to put in the handout, or pass --all");
        return ExitCode::from(2);
    }
    let mut options = common.options(dir, Some(file));
    options.answer_key = answers;
    options.handout_pdf = pdf;
    report(
        site::handout(&options, &chapters, all),
        common.output.message_format,
        Numbers::None,
    )
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Deep but bounded recursion in quantified claims runs on rayon's threads: give them room.
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(16 << 20)
        .build_global();
    match cli.command {
        Command::Lsp { cache } => match site::lsp(site::cache_wanted(cache.no_cache)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: nimbook lsp could not start: {e}");
                ExitCode::from(2)
            }
        },
        Command::Build {
            dir,
            dest_dir,
            common,
        } => report(
            site::build(&common.options(dir, dest_dir), &progress()),
            common.output.message_format,
            Numbers::None,
        ),
        Command::Pdf { dir, file, common } => report(
            site::pdf(&common.options(dir, file), &progress()),
            common.output.message_format,
            Numbers::None,
        ),
        Command::Check {
            dir,
            common,
            coverage,
            results,
        } => {
            let checked = site::check(&common.options(dir, None), &progress());
            if let (true, Ok(r)) = (results, &checked) {
                print_results(&r.results, format_of(common.output.message_format));
            }
            report(
                checked,
                common.output.message_format,
                if coverage {
                    Numbers::PerLesson
                } else {
                    Numbers::Book
                },
            )
        }
        Command::Serve {
            dir,
            port,
            dest_dir,
            common,
        } => run_serve(
            &common.options(dir, dest_dir),
            port,
            format_of(common.output.message_format),
        ),
        Command::Handout {
            dir,
            chapters,
            all,
            file,
            answers,
            pdf,
            common,
        } => run_handout(dir, chapters, all, (file, answers, pdf), &common),
        Command::Explain { list: true, .. } => list_codes(),
        Command::Explain { code, .. } => explain(code.as_deref().unwrap_or_default()),
        Command::Calc { list: true, .. } => list_builtins(),
        Command::Calc { exprs, .. } => run_calc(&exprs),
        Command::Init { dir, force, git } => run_init(&dir, force, git),
        Command::Mdbook { action } => run_mdbook(action),
        Command::Cache {
            action: CacheAction::Clear { dir },
        } => match site::clear_cache(&dir) {
            Ok(Some(removed)) => {
                eprintln!("removed {}", removed.display());
                ExitCode::SUCCESS
            }
            Ok(None) => {
                eprintln!("{} has no cache", dir.display());
                ExitCode::SUCCESS
            }
            Err(fatal) => {
                print_diagnostic(&fatal, MessageFormat::Human);
                ExitCode::from(2)
            }
        },
    }
}

fn run_mdbook(action: Option<MdbookAction>) -> ExitCode {
    use nimbook::mdbook;
    match action {
        Some(MdbookAction::Supports { renderer }) => {
            if mdbook::supports(&renderer) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Some(MdbookAction::Install { dir }) => match mdbook::install::install(&dir) {
            Err(fatal) => {
                print_diagnostic(&fatal, MessageFormat::Human);
                ExitCode::from(2)
            }
            Ok(done) => {
                if done.changed.is_empty() {
                    eprintln!("nimbook is already set up in {}", dir.display());
                }
                for path in &done.changed {
                    eprintln!("wrote {}", dir.join(path).display());
                }
                ExitCode::SUCCESS
            }
        },
        None => {
            let stdin = std::io::stdin();
            let stdout = std::io::stdout();
            match mdbook::run(stdin.lock(), stdout.lock()) {
                Err(fatal) => {
                    print_diagnostic(&fatal, MessageFormat::Human);
                    ExitCode::from(2)
                }
                Ok(report) => {
                    // On standard error, which mdBook shows; standard output is the book.
                    print_diagnostics(&report.diagnostics, MessageFormat::Human);
                    if report.errors > 0 {
                        eprintln!("nimbook: {}", report.summary());
                        ExitCode::from(1)
                    } else {
                        ExitCode::SUCCESS
                    }
                }
            }
        }
    }
}

fn run_init(dir: &std::path::Path, force: bool, git: Option<String>) -> ExitCode {
    match nimbook::init::init(dir, &nimbook::init::InitOptions::new(force, git)) {
        Err(fatal) => {
            print_diagnostic(&fatal, MessageFormat::Human);
            ExitCode::from(2)
        }
        Ok(done) => {
            for path in &done.overwritten {
                eprintln!("overwrote {}", path.display());
            }
            for path in &done.written {
                eprintln!("wrote {}", dir.join(path).display());
            }
            if !done.has_git {
                eprintln!(
                    "note: set the repository variable NIMBOOK_GIT (or run `nimbook init --git URL`) \
                     so that the workflow can install nimbook"
                );
            }
            eprintln!(
                "a new course is ready: `nimbook build {}` checks it and writes the site",
                dir.display()
            );
            ExitCode::SUCCESS
        }
    }
}

/// A progress bar on an interactive terminal; nothing in CI or when output is piped.
fn progress() -> site::Progress {
    if !std::io::stderr().is_terminal() || std::env::var_os("CI").is_some() {
        return site::Progress::none();
    }
    let bar = indicatif::ProgressBar::hidden();
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} checking {pos}/{len} lessons {wide_msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let (a, b) = (bar.clone(), bar);
    site::Progress::new(
        move |n| a.set_length(n as u64),
        move |title| {
            b.inc(1);
            b.set_message(title.to_string());
            if b.position() >= b.length().unwrap_or(0) {
                b.finish_and_clear();
            }
        },
    )
}

fn format_of(f: Format) -> MessageFormat {
    match f {
        Format::Human => MessageFormat::Human,
        Format::Json => MessageFormat::Json,
        Format::Github => MessageFormat::Github,
    }
}

fn print_diagnostic(d: &Diagnostic, format: MessageFormat) {
    print_diagnostics(std::slice::from_ref(d), format);
}

/// Prints diagnostics: human text on standard error, machine-readable records on standard
/// output, one per line. Each stream is written through one buffer and flushed once, because
/// thousands of warnings written one unbuffered `write` at a time cost more than the check.
/// `check --results`: the book's named results by chapter, on standard output. The words of
/// each status are the page's and the results page's.
fn print_results(rows: &[site::ResultRow], format: MessageFormat) {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if format == MessageFormat::Json {
        #[derive(serde::Serialize)]
        struct Line<'a> {
            r#type: &'static str,
            #[serde(flatten)]
            row: &'a site::ResultRow,
        }
        for row in rows {
            let line = Line {
                r#type: "result",
                row,
            };
            if let Ok(json) = serde_json::to_string(&line) {
                let _ = writeln!(out, "{json}");
            }
        }
        return;
    }
    let width = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0);
    let mut chapter = None;
    for r in rows {
        if chapter != Some(&r.chapter) {
            chapter = Some(&r.chapter);
            let _ = writeln!(out, "{}", r.chapter);
        }
        let _ = writeln!(
            out,
            "  {:width$}  {}: {}  ({}:{})",
            r.label, r.title, r.status, r.source, r.line
        );
    }
    if rows.is_empty() {
        let _ = writeln!(out, "no named results");
    }
}

fn print_diagnostics(diagnostics: &[Diagnostic], format: MessageFormat) {
    if diagnostics.is_empty() {
        return;
    }
    let color = format == MessageFormat::Human
        && std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none();
    let (stdout, stderr) = (std::io::stdout(), std::io::stderr());
    let mut out: Box<dyn Write> = match format {
        MessageFormat::Json | MessageFormat::Github => {
            Box::new(std::io::BufWriter::new(stdout.lock()))
        }
        // Human text goes to stderr, as would a format added later.
        _ => Box::new(std::io::BufWriter::new(stderr.lock())),
    };
    for d in diagnostics {
        let text = d.render(format, color);
        let end = if format == MessageFormat::Human {
            "\n\n"
        } else {
            "\n"
        };
        // A closed pipe loses the rest of the diagnostics; the exit code still tells.
        if write!(out, "{text}{end}").is_err() {
            break;
        }
    }
    let _ = out.flush();
}

/// Which number accounts to print after the summary line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Numbers {
    None,
    Book,
    PerLesson,
}

fn report(result: Result<site::Report, site::Fatal>, format: Format, numbers: Numbers) -> ExitCode {
    let format = format_of(format);
    match result {
        Err(fatal) => {
            print_diagnostic(&fatal, format);
            ExitCode::from(2)
        }
        Ok(report) => {
            print_diagnostics(&report.diagnostics, format);
            eprintln!("{}", report.summary());
            if numbers != Numbers::None {
                eprintln!("{}", report.numbers.summary());
            }
            if numbers == Numbers::PerLesson {
                for (lesson, counts) in &report.lesson_numbers {
                    eprintln!("  {lesson}: {}", counts.summary());
                }
            }
            if let Some(out) = &report.output {
                if out.is_dir() {
                    eprintln!("wrote the site to {}", out.display());
                } else {
                    eprintln!("wrote {}", out.display());
                }
            }
            if let Some(key) = &report.answer_key {
                eprintln!("wrote the answer key to {}", key.display());
            }
            if report.errors > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

fn run_serve(options: &site::Options, port: u16, format: MessageFormat) -> ExitCode {
    use site::{serve, ServeEvent};
    let mut on_event = |event: ServeEvent| match event {
        ServeEvent::Listening(url) => {
            // On stdout, so that scripts and tests can read the address.
            println!("serving at {url} (Ctrl-C stops)");
            let _ = std::io::stdout().flush();
        }
        ServeEvent::Built {
            report,
            elapsed,
            version,
            rechecked,
        } => {
            print_diagnostics(&report.diagnostics, format);
            let ms = elapsed.as_secs_f64() * 1000.0;
            if report.errors > 0 {
                eprintln!(
                    "{}; build failed in {ms:.0} ms, still serving the previous site",
                    report.summary()
                );
            } else {
                eprintln!(
                    "{}; built in {ms:.0} ms (version {version}, {rechecked} lesson{} rendered)",
                    report.summary(),
                    if rechecked == 1 { "" } else { "s" }
                );
            }
        }
        ServeEvent::Failed(fatal) => {
            print_diagnostic(&fatal, format);
            eprintln!("build failed; still serving the previous site");
        }
        ServeEvent::WatchError(e) => eprintln!("warning: watching the sources: {e}"),
        // The enum may grow; an event this command line does not know is not printed.
        _ => {}
    };
    match serve(options, port, &mut on_event) {
        Ok(()) => ExitCode::SUCCESS,
        Err(fatal) => {
            print_diagnostic(&fatal, format);
            ExitCode::from(2)
        }
    }
}

/// Prints the explanation of the diagnostic code `name`; an unknown name is a usage error
/// that suggests the nearest code.
fn explain(name: &str) -> ExitCode {
    match name.trim().parse::<Code>() {
        Ok(code) => write_out(code.explanation()),
        Err(unknown) => {
            eprintln!("error: {unknown}");
            if let Some(near) = unknown.suggestion {
                eprintln!("help: a code with a similar name exists: `{near}`");
            }
            eprintln!("help: `nimbook explain --list` lists every code");
            ExitCode::from(2)
        }
    }
}

/// Prints every diagnostic code and what it means, one a line, in the guide's order.
fn list_codes() -> ExitCode {
    let width = Code::ALL
        .iter()
        .map(|c| c.as_str().len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for code in Code::ALL {
        out.push_str(&format!("{:<width$}  {}\n", code.as_str(), code.summary()));
    }
    write_out(&out)
}

/// Writes `text` to standard output; a closed pipe is an I/O failure (exit 2).
fn write_out(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            ExitCode::from(2)
        }
    }
}

/// Prints every builtin, one a line: `function  grundy(G) — the Grundy value of G`.
fn list_builtins() -> ExitCode {
    let mut out = String::new();
    for (kind, builtins) in [
        ("function", builtins::functions().collect::<Vec<_>>()),
        ("directive", site::directives().collect()),
    ] {
        let mut builtins = builtins;
        builtins.sort_by_key(|s| s.name);
        for s in builtins {
            out.push_str(&format!("{kind:<9}  {} — {}\n", s.usage, s.description));
        }
    }
    write_out(&out)
}

fn run_calc(exprs: &[String]) -> ExitCode {
    let mut checker = Checker::new(SourceFile::new("<calc>", ""), Limits::default());
    let mut failed = false;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut answer = |line: &str, out: &mut dyn Write| match calc(line, &mut checker) {
        Ok(v) => {
            let _ = writeln!(out, "{v}");
        }
        Err(e) => {
            let _ = out.flush();
            eprintln!("error: {e}");
            failed = true;
        }
    };
    for e in exprs {
        if e == "-" {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                match line {
                    Ok(l) if l.trim().is_empty() => {}
                    Ok(l) => answer(&l, &mut out),
                    Err(err) => {
                        eprintln!("error: cannot read standard input: {err}");
                        return ExitCode::from(2);
                    }
                }
            }
        } else {
            answer(e, &mut out);
        }
    }
    let _ = out.flush();
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
