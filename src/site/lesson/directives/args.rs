//! What every directive shares: reading and checking arguments. An argument error points at the argument, a count error at the
//! call, and both say how the directive is used.

use crate::claim::builtins::Arity;
use crate::claim::{Directive, LessonChecker, Value};
use crate::diag::{Code, Diagnostic, Span};
use crate::game::{Game, GameError};

/// An error at `span` of the lesson.
pub(super) fn error(checker: &LessonChecker, span: &Span, msg: impl Into<String>) -> Diagnostic {
    unplaced(msg).at(checker.file(), span.clone())
}

/// A directive error not yet placed in the lesson: a drawer knows what is wrong with a position
/// but not where its argument was written, so its caller adds the place with [`Diagnostic::at`].
pub(super) fn unplaced(msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Code::InvalidDirective, msg.into())
}

/// Checks that the directive has as many arguments as `arity` admits: the registry's arity
/// at dispatch, or a narrower one for a form, such as `grundy_table("cram", rows, cols)`.
/// The error says how the directive is used.
pub(super) fn arity(
    checker: &LessonChecker,
    d: &Directive,
    arity: Arity,
) -> Result<(), Diagnostic> {
    arity.check(&d.name, d.args.len()).map_err(|message| {
        let usage = super::DIRECTIVES
            .iter()
            .find(|e| e.sig.name == d.name)
            .map_or(d.name.as_str(), |e| e.sig.usage);
        error(checker, &d.span, message).help(format!("usage: {usage}"))
    })
}

/// A table side: a number from 1 to the `max-table` budget.
pub(super) fn side(checker: &LessonChecker, arg: &(Value, Span)) -> Result<u64, Diagnostic> {
    let max = checker.limits().max_table;
    match &arg.0 {
        Value::Num(n) => match n.to_u64() {
            Some(v) if (1..=max).contains(&v) => Ok(v),
            _ => {
                let d = error(
                    checker,
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
            checker,
            &arg.1,
            format!("expected a number, found `{other}`"),
        )),
    }
}

/// Turns an engine error into a diagnostic at `span`; a budget error says how to raise it.
pub(super) fn game_error(checker: &LessonChecker, span: &Span, e: GameError) -> Diagnostic {
    let budget = matches!(e, GameError::BudgetExceeded { .. });
    let d = error(checker, span, e.to_string());
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

/// The game argument at `arg`.
pub(super) fn game_arg<'a>(
    checker: &LessonChecker,
    arg: &'a (Value, Span),
) -> Result<&'a Game, Diagnostic> {
    match &arg.0 {
        Value::Game(g) => Ok(g),
        other => Err(error(
            checker,
            &arg.1,
            format!("expected a game such as nim(3, 4, 5), found `{other}`"),
        )),
    }
}

/// The string argument at `arg`; `example` shows one in the error.
pub(super) fn str_arg<'a>(
    checker: &LessonChecker,
    arg: &'a (Value, Span),
    example: &str,
) -> Result<&'a str, Diagnostic> {
    match &arg.0 {
        Value::Str(s) => Ok(s),
        other => Err(error(
            checker,
            &arg.1,
            format!("expected a string such as {example}, found `{other}`"),
        )),
    }
}
