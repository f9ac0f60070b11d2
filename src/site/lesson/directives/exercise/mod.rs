//! Exercises a student answers on the page: `exercise`, `choice` and `practice`.
//!
//! The author never types an answer. For `exercise("Compute 6 ⊗ 13", 6 * 13)` the build
//! evaluates the answer expression, so the key the page carries was computed by the engine; a
//! hint is prepared from the shape of the expression (the worked expansion of a product, the
//! binary columns of a nim-sum, the options of a game and their values). For
//! `choice(question, options)` the engine decides which options are correct:
//!
//! - options that are claims, written as strings (`"6 * 13 = 15"`), are correct when they hold;
//! - options that are truth values (`is_primitive(3)`) are correct when true;
//! - options that are game positions are correct when they are in the outcome class the question
//!   asks about. An optional third argument `"P"` or `"N"` names the class; without it, the
//!   question must name exactly one of the two as a word ("Which positions are P?"), or the
//!   directive is an error, so a question can never be judged against the class it does not ask
//!   about;
//! - options of any other kind (numbers, say) need a third argument, the value that is correct:
//!   `choice("What is 2 ⊗ 3?", [1, 5, 6], 2 * 3)`.
//!
//! `practice(kind, …)` draws problems without end in the browser: `templates/exercise.js` holds
//! a small nimber implementation (checked against this engine on random cases by
//! `tests/browser/exercise-engine.mjs`), and for `"grundy"` the build embeds the game's Grundy
//! values, so the script only generates moves and takes a mex.
//!
//! Every exercise and choice is also recorded in the lesson's answer key
//! ([`AnswerKey`]), which the handout prints at its end and `handout --answers`
//! writes as a file of its own. The "Show the answer" box of each question is made from that
//! key: the computed value, or the options that hold. In graded mode (`graded`) a page carries
//! neither the key nor that box, only a salted hash of each answer.

mod choice;
mod graded;
mod hint;
mod practice;
mod rules;

use crate::claim::ast::{Expr, ExprKind, OutcomeClass};
use crate::claim::builtins::Arity;
use crate::claim::{Directive, Value};
use crate::diag::{Code, Diagnostic, Span};
use crate::game::{OctalCode, TakeAndBreak};
use crate::site::lesson::blocks::{
    AnswerKind, Block, Exercise, Grading, Practice, PracticeKind, Run,
};
use crate::site::lesson::context::{AnswerKey, DirectiveEnv};
use crate::site::lesson::page::blocks::runs_html;

use super::args::{arity, error, str_arg, typed_arg};

pub(super) use choice::choice;

/// The largest range of a nim-arithmetic practice: operands are below 2^64, the field the
/// page's JavaScript engine computes in.
pub(super) const MAX_PRACTICE_BITS: u32 = 64;
/// The most options a multiple-choice question may have.
pub(super) const MAX_OPTIONS: usize = 12;

/// The practice kinds, with what each draws.
pub(super) const PRACTICE_KINDS: &[(&str, &str)] = &[
    ("nim-sum", "practice(\"nim-sum\", n): a ⊕ b for random a, b < n"),
    (
        "nim-product",
        "practice(\"nim-product\", n): a ⊗ b for random a, b < n",
    ),
    (
        "inverse",
        "practice(\"inverse\", n): the nim-inverse of a random a with 0 < a < n",
    ),
    (
        "grundy",
        "practice(\"grundy\", \"kayles\", n): the Grundy value of a random heap of 1 … n (also \"dawsons_kayles\", \"grundys_game\" or an octal code)",
    ),
];

/// The next element id for a question of this lesson (`exercise-3`); exercises and choices are
/// numbered together, in document order.
fn next_id(checker: &DirectiveEnv<'_>) -> (usize, String) {
    let n = checker.answers_so_far() + 1;
    (n, format!("exercise-{n}"))
}

fn question_arg(checker: &DirectiveEnv<'_>, arg: &(Value, Span)) -> Result<String, Diagnostic> {
    match &arg.0 {
        Value::Str(s) if !s.trim().is_empty() => Ok(s.clone()),
        Value::Str(_) => Err(error(checker, &arg.1, "the question is empty")),
        other => Err(error(
            checker,
            &arg.1,
            format!(
                "expected the question as a string such as \"Compute 6 ⊗ 13\", found `{other}`"
            ),
        )),
    }
}

/// The question: text, with `$…$` as inline LaTeX math.
fn question_runs(checker: &DirectiveEnv<'_>, q: &str, at: &Span) -> Result<Vec<Run>, Diagnostic> {
    let mut out = Vec::new();
    let mut pieces = q.split('$');
    let mut in_math = false;
    let count = q.matches('$').count();
    if count % 2 == 1 {
        return Err(
            error(checker, at, "a `$` in the question is not closed").help(
                "write inline math between two dollar signs, as in \"Compute $6 \\otimes 13$\"",
            ),
        );
    }
    for piece in pieces.by_ref() {
        if in_math {
            crate::site::lesson::mathml::parse_tex(piece, false).map_err(|e| {
                error(
                    checker,
                    at,
                    format!("the math `{piece}` in the question does not parse: {e}"),
                )
            })?;
            out.push(Run::Tex(piece.to_string()));
        } else if !piece.is_empty() {
            out.push(Run::Text(piece.to_string()));
        }
        in_math = !in_math;
    }
    Ok(out)
}

/// The kind of an exercise's answer `answer`, written `expr`, and its canonical form (see
/// `graded`). An outcome offers a draw when it is one, or when `expr` asks for the outcome of a
/// loopy game, whose answer could have been one.
fn answer_of(
    checker: &DirectiveEnv<'_>,
    answer: &Value,
    expr: &Expr,
    at: &Span,
) -> Result<(AnswerKind, String), Diagnostic> {
    Ok(match answer {
        Value::Num(n) => (AnswerKind::Number, n.to_string()),
        Value::Outcome(c) => {
            let s = match c {
                OutcomeClass::P => "P",
                OutcomeClass::N => "N",
                OutcomeClass::D => "D",
            };
            let draws = matches!(c, OutcomeClass::D) || asks_loopy_outcome(checker, expr);
            (AnswerKind::Outcome { draws }, s.to_string())
        }
        Value::Bool(b) => (AnswerKind::Truth, b.to_string()),
        other => {
            return Err(error(
                checker,
                at,
                format!("the answer of an exercise must be a number, an outcome (P, N or D) or a truth value, not {other}"),
            )
            .help("a student types the answer, so it must be one they can type; ask for a number such as grundy(G) or outcome(G)"))
        }
    })
}

/// Whether `expr` is `outcome(G)` for a loopy game `G`.
fn asks_loopy_outcome(checker: &DirectiveEnv<'_>, expr: &Expr) -> bool {
    match &hint::strip_parens(expr).kind {
        ExprKind::Call { name, args, .. } if name == "outcome" && args.len() == 1 => {
            matches!(checker.evaluate(&args[0]), Ok(Value::Game(g)) if g.is_loopy())
        }
        _ => false,
    }
}

/// `exercise("question", answer)`.
pub(super) fn exercise(checker: &mut DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let question = question_arg(checker, &d.args[0])?;
    let q_runs = question_runs(checker, &question, &d.args[0].1)?;
    let (answer, at) = (&d.args[1].0, &d.args[1].1);
    let expr = &d.exprs[1];
    let (kind, key) = answer_of(checker, answer, expr, at)?;
    let hidden = checker.answer_salt().is_some();
    let hint = hint::hint(checker, expr, at, hidden)?;
    let (number, id) = next_id(checker);
    let exercise = Exercise {
        grading: grading(checker, &id, &key),
        id,
        number,
        kind,
        question: q_runs,
        hint,
        source: expr.to_string(),
        answer: key,
    };
    checker.add_answer(AnswerKey {
        id: exercise.id.clone(),
        question,
        source: exercise.source.clone(),
        answer: exercise.answer.clone(),
        options: Vec::new(),
        shown: runs_html(&exercise.shown()),
        span: d.span.clone(),
    });
    Ok(Block::Exercise(exercise))
}

/// How the page checks the answer `canonical` of question `id`: the answer itself, or in
/// graded mode its salted hash.
fn grading(checker: &DirectiveEnv<'_>, id: &str, canonical: &str) -> Grading {
    match checker.answer_salt() {
        None => Grading::Shown(canonical.to_string()),
        Some(lesson) => {
            let salt = graded::salt(lesson, id);
            let hash = graded::answer_hash(&salt, canonical);
            Grading::Hashed { salt, hash }
        }
    }
}

/// What the first argument of `practice` must be, as its error says.
const EXPECTED_KIND: &str = "a practice kind such as \"nim-product\"";

/// `practice(kind, …)`.
pub(super) fn practice(checker: &mut DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let kind_at = &d.args[0].1;
    let kind = typed_arg(checker, &d.args[0], EXPECTED_KIND, Value::as_str)?;
    let names = || PRACTICE_KINDS.iter().map(|(n, _)| *n);
    if !names().any(|n| n == kind) {
        let mut diag = error(
            checker,
            kind_at,
            format!("unknown practice kind \"{kind}\""),
        );
        if let Some(best) = crate::claim::builtins::nearest(kind, names()) {
            diag = diag.help(format!("a kind with a similar name exists: \"{best}\""));
        }
        return Err(diag.help(format!(
            "the kinds are: {}",
            names().collect::<Vec<_>>().join(", ")
        )));
    }
    let (title, kind) = if kind == "grundy" {
        grundy_practice(checker, d)?
    } else {
        range_practice(checker, d, kind)?
    };
    let id = format!("practice-{}", d.span.start);
    let problems = practice::problems(&kind, &id);
    Ok(Block::Practice(Practice {
        id,
        title,
        kind,
        problems,
    }))
}

/// An octal code's digits, for the page script's move generator (`0.77` → `077`).
fn digits(code: &OctalCode) -> String {
    code.digits().iter().map(|d| char::from(b'0' + d)).collect()
}

/// The title and the draw of `practice("grundy", game, n)`.
fn grundy_practice(
    checker: &mut DirectiveEnv<'_>,
    d: &Directive,
) -> Result<(String, PracticeKind), Diagnostic> {
    arity(checker, d, Arity::Exactly(3))?;
    let game_at = &d.args[1].1;
    let game = str_arg(checker, &d.args[1], "\"kayles\"")?;
    let max = checker.limits().max_table;
    let n = match &d.args[2].0 {
        Value::Num(v) => v.to_u64().filter(|v| (1..=max).contains(v)),
        _ => None,
    }
    .ok_or_else(|| Diagnostic {
        code: Code::BudgetExceeded,
        ..error(
            checker,
            &d.args[2].1,
            format!(
                "the largest heap must be a number from 1 to {max} ([nimbook] max-table), not {}",
                d.args[2].0
            ),
        )
    })?;
    let rule = match game {
        "grundys_game" => "grundys_game".to_string(),
        "kayles" => digits(&OctalCode::kayles()),
        "dawsons_kayles" => digits(&OctalCode::dawsons_kayles()),
        other => match other.parse::<OctalCode>() {
            Ok(code) if other.starts_with(|c: char| c.is_ascii_digit() || c == '.') => {
                digits(&code)
            }
            _ => {
                return Err(error(
                    checker,
                    game_at,
                    format!("unknown game \"{other}\" for Grundy practice"),
                )
                .help("use \"kayles\", \"dawsons_kayles\", \"grundys_game\" or an octal code such as \"0.137\""))
            }
        },
    };
    let budget = checker.limits().game;
    let (name, values) = super::grundy::heap_values(checker, game, game_at, n + 1, &budget)?;
    let title = format!("Grundy values of {name}, heaps of 1 to {n}");
    let kind = PracticeKind::Grundy {
        game: name,
        rule,
        max: n,
        values,
    };
    Ok((title, kind))
}

/// The title and the draw of a nim-arithmetic practice, `practice(kind, n)`.
fn range_practice(
    checker: &DirectiveEnv<'_>,
    d: &Directive,
    kind: &str,
) -> Result<(String, PracticeKind), Diagnostic> {
    arity(checker, d, Arity::Exactly(2))?;
    let (range, at) = (&d.args[1].0, &d.args[1].1);
    let n = match range {
        Value::Num(v) => Some(v.to_biguint()),
        _ => None,
    }
    .filter(|v| *v >= num_bigint::BigUint::from(2u32));
    let too_big = n
        .as_ref()
        .is_some_and(|v| *v > num_bigint::BigUint::from(1u32) << MAX_PRACTICE_BITS);
    let n = n.filter(|_| !too_big).ok_or_else(|| {
        let d = error(
            checker,
            at,
            format!(
                "the range of \"{kind}\" practice must be a number from 2 to 2^{MAX_PRACTICE_BITS} (the field of the page's JavaScript engine), not {range}"
            ),
        );
        if too_big {
            Diagnostic {
                code: Code::BudgetExceeded,
                ..d
            }
        } else {
            d
        }
    })?;
    let title = match kind {
        "nim-sum" => format!("Nim-sums a ⊕ b of numbers below {n}"),
        "nim-product" => format!("Nim-products a ⊗ b of numbers below {n}"),
        _ => format!("Nim-inverses of numbers from 1 to {}", &n - 1u32),
    };
    let kind = PracticeKind::Range {
        kind: kind.to_string(),
        max: n.to_string(),
    };
    Ok((title, kind))
}
