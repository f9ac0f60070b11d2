//! Running an external command of the book: a preprocessor (asked `supports RENDERER`, then
//! called on the book, each in the book root through the shell) or a renderer (in its own
//! folder, as mdBook runs it), fed on a thread and killed after its time limit.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::diag::{Code, Diagnostic, Level};
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

/// Asks every external preprocessor that runs for `renderer` whether it supports it, before
/// any of them runs, so that all the missing ones are named at once (mdBook names only the
/// first). A missing one that is not `optional` is fatal.
pub(super) fn ask_support(
    root: &Path,
    config: &Config,
    order: &[String],
    limit: Duration,
    renderer: &str,
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
            .is_some_and(|r| !r.iter().any(|r| r == renderer));
        if table.is_builtin(name) || other_renderer {
            continue;
        }
        let command = table.command_line(name);
        let answer = supports(root, &command, name, limit, renderer)?;
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

/// `COMMAND supports RENDERER`: exit 0 means yes. A shell that cannot find the command exits
/// 127.
fn supports(
    root: &Path,
    command: &str,
    name: &str,
    limit: Duration,
    renderer: &str,
) -> Result<Support, Fatal> {
    let mut c = shell(root, &format!("{command} supports {renderer}"));
    c.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let out = run_bounded(c, None, Who::Preprocessor(name), limit)?;
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
    let out = run_bounded(c, Some(input), Who::Preprocessor(name), limit)?;
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

/// Whose command runs, for the wording and the code of its errors.
#[derive(Debug, Clone, Copy)]
enum Who<'a> {
    /// `[preprocessor.NAME]`.
    Preprocessor(&'a str),
    /// `[output.NAME]`.
    Renderer(&'a str),
}

impl Who<'_> {
    fn code(self) -> Code {
        match self {
            Who::Preprocessor(_) => Code::PreprocessorError,
            Who::Renderer(_) => Code::RendererError,
        }
    }

    /// The `[nimbook]` key of its time limit.
    fn limit_key(self) -> &'static str {
        match self {
            Who::Preprocessor(_) => "preprocessor-seconds",
            Who::Renderer(_) => "renderer-seconds",
        }
    }
}

impl std::fmt::Display for Who<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Who::Preprocessor(name) => write!(f, "preprocessor `{name}`"),
            Who::Renderer(name) => write!(f, "renderer `{name}`"),
        }
    }
}

/// Runs `c`, feeding it `input`, and kills it after `limit`. Output is read on threads so that
/// a preprocessor writing more than a pipe holds cannot block.
fn run_bounded(
    mut c: Command,
    input: Option<&str>,
    who: Who<'_>,
    limit: Duration,
) -> Result<Output, Fatal> {
    let child = c.spawn().map_err(|e| not_run(who, &e))?;
    finish(child, input, who, limit)
}

/// The error for a command that could not be started.
fn not_run(who: Who<'_>, e: &std::io::Error) -> Fatal {
    Box::new(Diagnostic::error(
        who.code(),
        format!("{who} could not be run: {e}"),
    ))
}

/// Feeds a started command `input`, reads its output, and kills it after `limit`.
fn finish(
    mut child: std::process::Child,
    input: Option<&str>,
    who: Who<'_>,
    limit: Duration,
) -> Result<Output, Fatal> {
    let io_err = |e: std::io::Error| not_run(who, &e);
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
                    Diagnostic::error(
                        who.code(),
                        format!("{who} did not finish within {} s", limit.as_secs()),
                    )
                    .help(format!(
                        "raise `{}` in the [nimbook] table of book.toml if it needs longer",
                        who.limit_key()
                    )),
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
            who.code(),
            format!("{who} wrote output that is not UTF-8"),
        ))
    })?;
    Ok(Output {
        status: status.code(),
        stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    })
}

/// Runs the renderer `name` of `[output.NAME]` as mdBook 0.5 runs it: `command` split into
/// words as a shell would (without running one), a program named by a path of more than one
/// part taken relative to the book root `root`, started in its own `folder` with mdBook's
/// render context (`context`, JSON) on its standard input and its output going to nimbook's.
/// A program that cannot be found is a warning when the renderer is `optional`, an error
/// otherwise; so is an exit status other than 0.
pub(crate) fn render(
    root: &Path,
    folder: &Path,
    (name, command, optional): (&str, &str, bool),
    context: &str,
    limit: Duration,
) -> Result<Option<Diagnostic>, Fatal> {
    let who = Who::Renderer(name);
    let mut words = shlex::Shlex::new(command);
    let Some(program) = words.next() else {
        return Err(Box::new(Diagnostic::error(
            who.code(),
            format!("{who} has an empty `command`"),
        )));
    };
    let program = std::path::PathBuf::from(program);
    let program = if program.components().count() > 1 {
        root.join(program)
    } else {
        program
    };
    let mut c = Command::new(program);
    c.args(words)
        .current_dir(folder)
        .stdin(Stdio::piped())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit());
    let child = match c.spawn() {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let d = Diagnostic::new(
                if optional {
                    Level::Warning
                } else {
                    Level::Error
                },
                who.code(),
                format!("{who} was not run: `{command}` was not found"),
            );
            if optional {
                return Ok(Some(d));
            }
            return Err(Box::new(d.help(format!(
                "install it, or set `optional = true` in [output.{name}] to build without it"
            ))));
        }
        Err(e) => return Err(not_run(who, &e)),
    };
    let out = finish(child, Some(context), who, limit)?;
    match out.status {
        Some(0) => Ok(None),
        status => Err(Box::new(Diagnostic::error(
            who.code(),
            format!(
                "{who} failed ({})",
                status.map_or_else(
                    || "killed by a signal".to_string(),
                    |s| format!("exit status {s}")
                )
            ),
        ))),
    }
}
