//! What every directive shares: reading and checking arguments. An argument error points at the argument, a count error at the
//! call, and both say how the directive is used.

use crate::claim::builtins::Arity;
use crate::claim::{Directive, Value};
use crate::diag::{Code, Diagnostic, Span};
use crate::game::{Game, GameError};
use crate::site::lesson::blocks::Run;
use crate::site::lesson::context::DirectiveEnv;

/// An error at `span` of the lesson.
pub(super) fn error(env: &DirectiveEnv<'_>, span: &Span, msg: impl Into<String>) -> Diagnostic {
    unplaced(msg).at(env.file(), span.clone())
}

/// A directive error not yet placed in the lesson: a drawer knows what is wrong with a position
/// but not where its argument was written, so its caller adds the place with [`Diagnostic::at`].
pub(super) fn unplaced(msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Code::InvalidDirective, msg.into())
}

/// Checks that the directive has as many arguments as `arity` admits: the registry's arity
/// at dispatch, or a narrower one for a form, such as `grundy_table("cram", rows, cols)`.
/// The error says how the directive is used.
pub(super) fn arity(env: &DirectiveEnv<'_>, d: &Directive, arity: Arity) -> Result<(), Diagnostic> {
    arity.check(&d.name, d.args.len()).map_err(|message| {
        let usage = super::DIRECTIVES
            .iter()
            .find(|e| e.sig.name == d.name)
            .map_or(d.name.as_str(), |e| e.sig.usage);
        error(env, &d.span, message).help(format!("usage: {usage}"))
    })
}

/// A table side: a number from 1 to the `max-table` budget.
pub(super) fn side(env: &DirectiveEnv<'_>, arg: &(Value, Span)) -> Result<u64, Diagnostic> {
    let max = env.limits().max_table;
    match &arg.0 {
        Value::Num(n) => match n.to_u64() {
            Some(v) if (1..=max).contains(&v) => Ok(v),
            _ => {
                let d = error(
                    env,
                    &arg.1,
                    format!(
                        "a table side must be between 1 and {max} ([nimbook] max-table), not {n}"
                    ),
                );
                Err(if n.is_zero() {
                    d
                } else {
                    Diagnostic {
                        code: Code::BudgetExceeded,
                        ..d
                    }
                })
            }
        },
        other => Err(error(
            env,
            &arg.1,
            format!("expected a number, found `{other}`"),
        )),
    }
}

/// Turns an engine error into a diagnostic at `span`; a budget error says how to raise it.
pub(super) fn game_error(env: &DirectiveEnv<'_>, span: &Span, e: GameError) -> Diagnostic {
    let budget = matches!(e, GameError::BudgetExceeded { .. });
    let d = error(env, span, e.to_string());
    if budget {
        let d = Diagnostic {
            code: Code::BudgetExceeded,
            ..d
        };
        d.help("the budget is set by `max-positions` and `max-seconds` under [nimbook] in book.toml; raise it or ask for a smaller game")
    } else {
        d
    }
}

/// The argument at `arg` as `pick` reads it, or an error that it is not `expected` (a kind
/// with an example: "a game such as nim(3, 4, 5)").
pub(super) fn typed_arg<'a, T: ?Sized>(
    env: &DirectiveEnv<'_>,
    arg: &'a (Value, Span),
    expected: &str,
    pick: impl FnOnce(&'a Value) -> Option<&'a T>,
) -> Result<&'a T, Diagnostic> {
    pick(&arg.0).ok_or_else(|| {
        error(
            env,
            &arg.1,
            format!("expected {expected}, found `{}`", arg.0),
        )
    })
}

/// The game argument at `arg`.
pub(super) fn game_arg<'a>(
    env: &DirectiveEnv<'_>,
    arg: &'a (Value, Span),
) -> Result<&'a Game, Diagnostic> {
    typed_arg(env, arg, "a game such as nim(3, 4, 5)", Value::as_game)
}

/// The string argument at `arg`; `example` shows one in the error.
pub(super) fn str_arg<'a>(
    env: &DirectiveEnv<'_>,
    arg: &'a (Value, Span),
    example: &str,
) -> Result<&'a str, Diagnostic> {
    typed_arg(
        env,
        arg,
        &format!("a string such as {example}"),
        Value::as_str,
    )
}

/// Text with inline LaTeX math between dollar signs and code between backticks, as runs: the
/// text of a question or of a criterion (`what` names it in an error at `at`).
pub(crate) fn math_runs(
    env: &DirectiveEnv<'_>,
    text: &str,
    at: &Span,
    what: &str,
) -> Result<Vec<Run>, Diagnostic> {
    if text.matches('$').count() % 2 == 1 {
        return Err(
            error(env, at, format!("a `$` in the {what} is not closed")).help(
                "write inline math between two dollar signs, as in \"Compute $6 \\otimes 13$\"",
            ),
        );
    }
    let mut out = Vec::new();
    for (i, piece) in text.split('$').enumerate() {
        if i % 2 == 1 {
            crate::site::lesson::mathml::parse_tex(piece).map_err(|e| {
                error(
                    env,
                    at,
                    format!("the math `{piece}` in the {what} does not parse: {e}"),
                )
            })?;
            out.push(Run::Tex(piece.to_string()));
        } else {
            code_runs(&mut out, piece);
        }
    }
    Ok(out)
}

/// Text with code between backticks (`` `0-1 1-2` ``), as runs; a backtick without its pair is
/// text.
fn code_runs(out: &mut Vec<Run>, text: &str) {
    let paired = text.matches('`').count().is_multiple_of(2);
    for (i, piece) in text.split('`').enumerate() {
        if piece.is_empty() {
            continue;
        }
        if paired && i % 2 == 1 {
            out.push(Run::Code(piece.to_string()));
        } else if paired {
            out.push(Run::Text(piece.to_string()));
        } else {
            out.push(Run::Text(text.to_string()));
            return;
        }
    }
}
