//! Running an external preprocessor: asking it `supports html`, then calling it on the book,
//! each in the book root through the shell, fed on a thread and killed after its time limit.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::diag::{Code, Diagnostic};
use crate::site::load::config::{Config, PreprocessorTable};
use crate::site::load::Fatal;

/// The command of an external preprocessor, or `None` when it is not to run: it is for other
/// renderers, does not support HTML, or is optional and missing (a warning says so). `answers`
/// holds what each one said to `supports html` (see [`ask_support`]).
pub(super) fn external(
    name: &str,
    table: &PreprocessorTable,
    answers: &HashMap<String, Support>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<String> {
    let command = table.command_line(name);
    match answers.get(name)? {
        Support::Yes => Some(command),
        Support::No => None,
        Support::Missing => {
            warnings.push(Diagnostic::warning(
                Code::PreprocessorError,
                format!(
                    "the optional preprocessor `{name}` was not run: `{command}` was not found"
                ),
            ));
            None
        }
    }
}

/// Asks every external preprocessor that runs for HTML whether it supports the renderer,
/// before any of them runs, so that all the missing ones are named at once (mdBook names only
/// the first). A missing one that is not `optional` is fatal.
pub(super) fn ask_support(
    root: &Path,
    config: &Config,
    order: &[String],
    limit: Duration,
) -> Result<HashMap<String, Support>, Fatal> {
    let mut answers = HashMap::new();
    let mut missing = Vec::new();
    for name in order {
        let Some(table) = config.preprocessor.get(name) else {
            continue;
        };
        let other_renderer = table
            .renderers
            .as_ref()
            .is_some_and(|r| !r.iter().any(|r| r == "html"));
        if table.is_builtin(name) || other_renderer {
            continue;
        }
        let command = table.command_line(name);
        let answer = supports(root, &command, name, limit)?;
        if answer == Support::Missing && !table.optional {
            missing.push(format!("`{name}` (`{command}`)"));
        }
        answers.insert(name.clone(), answer);
    }
    if missing.is_empty() {
        return Ok(answers);
    }
    let (what, them) = if missing.len() == 1 {
        ("preprocessor", "it")
    } else {
        ("preprocessors", "each")
    };
    Err(Box::new(
        Diagnostic::error(
            Code::PreprocessorError,
            format!("{what} {} not found", missing.join(", ")),
        )
        .help(format!(
            "install {them}, or set `optional = true` in its [preprocessor.NAME] table to build without it"
        )),
    ))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Support {
    Yes,
    No,
    Missing,
}

fn shell(root: &Path, command: &str) -> Command {
    let mut c = if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.arg("/C").arg(command);
        c
    } else {
        let mut c = Command::new("sh");
        c.arg("-c").arg(command);
        c
    };
    c.current_dir(root);
    c
}

/// `COMMAND supports html`: exit 0 means yes. A shell that cannot find the command exits 127.
fn supports(root: &Path, command: &str, name: &str, limit: Duration) -> Result<Support, Fatal> {
    let mut c = shell(root, &format!("{command} supports html"));
    c.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let out = run_bounded(c, None, name, limit)?;
    Ok(match out.status {
        Some(0) => Support::Yes,
        Some(127) => Support::Missing,
        _ => Support::No,
    })
}

/// Runs the preprocessor on the book and returns its standard output.
pub(super) fn call(
    root: &Path,
    command: &str,
    name: &str,
    input: &str,
    limit: Duration,
) -> Result<String, Fatal> {
    let mut c = shell(root, command);
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let out = run_bounded(c, Some(input), name, limit)?;
    if out.status != Some(0) {
        let mut d = Diagnostic::error(
            Code::PreprocessorError,
            format!(
                "preprocessor `{name}` failed ({})",
                out.status.map_or_else(
                    || "killed by a signal".to_string(),
                    |s| format!("exit status {s}")
                )
            ),
        );
        for line in out.stderr.lines().filter(|l| !l.trim().is_empty()).take(20) {
            d = d.note(line.to_string());
        }
        return Err(Box::new(d));
    }
    Ok(out.stdout)
}

struct Output {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `c`, feeding it `input`, and kills it after `limit`. Output is read on threads so that
/// a preprocessor writing more than a pipe holds cannot block.
fn run_bounded(
    mut c: Command,
    input: Option<&str>,
    name: &str,
    limit: Duration,
) -> Result<Output, Fatal> {
    let io_err = |e: std::io::Error| {
        Box::new(Diagnostic::error(
            Code::PreprocessorError,
            format!("preprocessor `{name}` could not be run: {e}"),
        ))
    };
    let mut child = c.spawn().map_err(io_err)?;
    let feeder = match (input, child.stdin.take()) {
        (Some(text), Some(mut stdin)) => {
            let text = text.to_string();
            Some(std::thread::spawn(move || {
                // A preprocessor may exit without reading everything; that is its answer.
                let _ = stdin.write_all(text.as_bytes());
            }))
        }
        _ => None,
    };
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut s);
            }
            s
        })
    };
    let out = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        match child.try_wait().map_err(io_err)? {
            Some(s) => break s,
            None if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Box::new(
                    Diagnostic::error(Code::PreprocessorError, format!(
                        "preprocessor `{name}` did not finish within {} s",
                        limit.as_secs()
                    ))
                    .help("raise `preprocessor-seconds` in the [nimbook] table of book.toml if it needs longer"),
                ));
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let stdout = String::from_utf8(stdout).map_err(|_| {
        Box::new(Diagnostic::error(
            Code::PreprocessorError,
            format!("preprocessor `{name}` wrote output that is not UTF-8"),
        ))
    })?;
    Ok(Output {
        status: status.code(),
        stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    })
}
