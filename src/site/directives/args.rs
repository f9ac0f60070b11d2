//! What every directive shares: the list of directives with their signatures, and reading
//! and checking arguments. An argument error points at the argument, a count error at the
//! call, and both say how the directive is used.

use crate::claim::{Directive, LessonChecker, Value};
use crate::diag::{Code, Diagnostic, Span};
use crate::game::{Game, GameError};

/// Every directive, with its signature, for suggestions and documentation.
pub(crate) const DIRECTIVES: &[(&str, &str)] = &[
    (
        "addition_table",
        "addition_table(n): the nim-sums a ⊕ b for a, b < n",
    ),
    (
        "multiplication_table",
        "multiplication_table(n): the nim-products a ⊗ b for a, b < n",
    ),
    (
        "powers_table",
        "powers_table(n): the nim-products 2^i ⊗ 2^j for i, j < n",
    ),
    (
        "expansion",
        "expansion(a, b): the worked expansion of the nim-product a ⊗ b, every step verified",
    ),
    (
        "grundy_table",
        "grundy_table(\"cram\", rows, cols): Grundy values of Cram m × n for m ≤ rows, n ≤ cols; grundy_table(\"kayles\" | \"dawsons_kayles\" | \"grundys_game\" | \"0.137\", n): values of heaps 0 … n−1",
    ),
    (
        "sequence_table",
        "sequence_table(\"0.77\", n): the Grundy values of heaps 0 … n−1 of an octal game, one proven period to a row, pre-period marked",
    ),
    (
        "rare_table",
        "rare_table(\"grundys_game\", mask, n): the rare values among heaps 0 … n−1 (an even number of ones in value AND mask), with how many heaps have each, the first and the last",
    ),
    (
        "draw",
        "draw(G): an SVG of a Nim, Cram, Green Hackenbush, Northcott or Kayles position, with its value",
    ),
    (
        "cram_diagram",
        "cram_diagram(\"AA##/B###/B.##\"): a Cram board, rows split by `/`, `#` free, `.` blocked, a letter on the two cells of a placed domino",
    ),
    (
        "game_graph",
        "game_graph(G): the positions and moves of G (at most 60 positions), P-positions filled",
    ),
    (
        "play",
        "play(nim(3, 5, 7)) or play(kayles(10)): play against the computer's perfect strategy in the page",
    ),
    (
        "exercise",
        "exercise(\"Compute 6 ⊗ 13\", 6 * 13): a question the student answers on the page; the build computes the answer",
    ),
    (
        "choice",
        "choice(\"Which positions are P?\", [nim(1, 2, 3), nim(5, 5)]) or choice(\"Which hold?\", [\"2 * 3 = 1\", \"3 * 3 = 2\"]): a multiple-choice question; the engine decides which options are correct",
    ),
    (
        "practice",
        "practice(\"nim-sum\" | \"nim-product\" | \"inverse\", n) or practice(\"grundy\", \"kayles\", n): endless random problems drawn in the browser",
    ),
];

/// An error at `span` of the lesson.
pub(super) fn error(checker: &LessonChecker, span: &Span, msg: impl Into<String>) -> Diagnostic {
    unplaced(msg).at(checker.file(), span.clone())
}

/// A directive error not yet placed in the lesson: a drawer knows what is wrong with a position
/// but not where its argument was written, so its caller adds the place with [`Diagnostic::at`].
pub(super) fn unplaced(msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Code::InvalidDirective, msg.into())
}

/// Checks that the directive has `n` arguments.
pub(super) fn arity(checker: &LessonChecker, d: &Directive, n: usize) -> Result<(), Diagnostic> {
    if d.args.len() == n {
        return Ok(());
    }
    let usage = DIRECTIVES
        .iter()
        .find(|(name, _)| *name == d.name)
        .map_or("", |(_, u)| u);
    Err(error(
        checker,
        &d.span,
        format!(
            "`{}` takes {n} argument(s), but {} were given",
            d.name,
            d.args.len()
        ),
    )
    .help(format!("usage: {usage}")))
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
