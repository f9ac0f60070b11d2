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
//! ([`AnswerKey`]), which the handout prints at its end.

use std::fmt::Write as _;

use crate::claim::ast::{BinOp, Expr, ExprKind};
use crate::claim::builtins::Arity;
use crate::claim::{Directive, MappedText, Value};
use crate::diag::{Code, Diagnostic, Span};
use crate::game::{Game, OctalCode, Outcome};
use crate::nim::Nimber;
use crate::site::lesson::context::{AnswerKey, DirectiveEnv};

use super::args::{arity, error, game_error};
use crate::site::html::escape;
use crate::site::lesson::mathml;

/// The largest range of a nim-arithmetic practice: operands are below 2^64, the field the
/// page's JavaScript engine computes in.
pub(super) const MAX_PRACTICE_BITS: u32 = 64;
/// The most options a multiple-choice question may have.
pub(super) const MAX_OPTIONS: usize = 12;
/// The most options of a game a hint lists.
const MAX_HINT_MOVES: usize = 40;

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

/// The question as HTML: text, with `$…$` as inline LaTeX math.
fn question_html(checker: &DirectiveEnv<'_>, q: &str, at: &Span) -> Result<String, Diagnostic> {
    let mut out = String::new();
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
            let m = crate::site::lesson::mathml::render_tex(piece, false).map_err(|e| {
                error(
                    checker,
                    at,
                    format!("the math `{piece}` in the question does not parse: {e}"),
                )
            })?;
            out.push_str(&m);
        } else {
            out.push_str(&escape(piece));
        }
        in_math = !in_math;
    }
    Ok(out)
}

/// `exercise("question", answer)`.
pub(super) fn exercise(
    checker: &mut DirectiveEnv<'_>,
    d: &Directive,
) -> Result<String, Diagnostic> {
    let question = question_arg(checker, &d.args[0])?;
    let q_html = question_html(checker, &question, &d.args[0].1)?;
    let (answer, at) = (&d.args[1].0, &d.args[1].1);
    let (kind, key, shown) = match answer {
        Value::Num(n) => ("number", n.to_string(), n.to_string()),
        Value::Outcome(c) => {
            let s = match c {
                crate::claim::ast::OutcomeClass::P => "P",
                crate::claim::ast::OutcomeClass::N => "N",
                crate::claim::ast::OutcomeClass::D => "D",
            };
            ("outcome", s.to_string(), s.to_string())
        }
        Value::Bool(b) => ("truth", b.to_string(), b.to_string()),
        other => {
            return Err(error(
                checker,
                at,
                format!("the answer of an exercise must be a number, an outcome (P or N) or a truth value, not {other}"),
            )
            .help("a student types the answer, so it must be one they can type; ask for a number such as grundy(G) or outcome(G)"))
        }
    };
    let expr = &d.exprs[1];
    let hint = hint(checker, expr, at)?;
    let (n, id) = next_id(checker);
    let source = expr.to_string();
    let placeholder = match kind {
        "number" => "a number, such as 12 or 0xC",
        "outcome" => "P or N",
        _ => "true or false",
    };
    let mut h = String::new();
    let _ = write!(
        h,
        "<section class=\"nim-exercise\" id=\"{id}\" data-kind=\"{kind}\" data-answer=\"{}\">\
         <p class=\"nim-exercise-question\"><span class=\"nim-exercise-number\">Exercise {n}.</span> {q_html}</p>\
         <form class=\"nim-exercise-form\" hidden><label>Answer to exercise {n} ({placeholder}): \
         <input type=\"text\" autocomplete=\"off\" autocapitalize=\"off\" spellcheck=\"false\"></label> \
         <button type=\"submit\">Check</button></form>\
         <span class=\"nim-exercise-blank\" aria-hidden=\"true\"></span>\
         <p class=\"nim-exercise-feedback\" role=\"status\" aria-live=\"polite\"></p>",
        escape(&key)
    );
    if let Some(hint) = hint {
        let _ = write!(
            h,
            "<div class=\"nim-exercise-hint\" hidden><p class=\"nim-hint-title\">Hint</p>{hint}</div>"
        );
    }
    let _ = writeln!(
        h,
        "<details class=\"nim-exercise-answer\"><summary>Show the answer</summary><p>{}</p></details></section>",
        answer_html(&source, &shown)
    );
    checker.add_answer(AnswerKey {
        id,
        question,
        source,
        answer: shown,
    });
    Ok(h)
}

fn answer_html(source: &str, shown: &str) -> String {
    if source == shown {
        format!("<code>{}</code>", escape(shown))
    } else {
        format!(
            "<code>{}</code> = <strong>{}</strong>",
            escape(source),
            escape(shown)
        )
    }
}

fn strip_parens(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(inner) = &e.kind {
        e = inner;
    }
    e
}

/// The operands of a nim-sum `a + b + …`, left to right.
fn sum_terms<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    let e = strip_parens(e);
    match &e.kind {
        ExprKind::Bin {
            op: BinOp::NimAdd,
            lhs,
            rhs,
        } => {
            sum_terms(lhs, out);
            sum_terms(rhs, out);
        }
        _ => out.push(e),
    }
}

fn num_of(checker: &DirectiveEnv<'_>, e: &Expr) -> Option<Nimber> {
    match checker.evaluate(e) {
        Ok(Value::Num(n)) => Some(n),
        _ => None,
    }
}

/// A hint for the answer expression `e`, by its shape; `None` when there is none to give.
fn hint(checker: &mut DirectiveEnv<'_>, e: &Expr, at: &Span) -> Result<Option<String>, Diagnostic> {
    let e = strip_parens(e);
    match &e.kind {
        ExprKind::Bin {
            op: BinOp::NimMul,
            lhs,
            rhs,
        } => {
            let (Some(a), Some(b)) = (num_of(checker, lhs), num_of(checker, rhs)) else {
                return Ok(None);
            };
            Ok(Some(format!(
                "<p>The worked expansion, every step checked by nimbook:</p>{}",
                super::arithmetic::worked_product(checker, &a, &b, at)
            )))
        }
        ExprKind::Bin {
            op: BinOp::NimAdd, ..
        } => {
            let mut terms = Vec::new();
            sum_terms(e, &mut terms);
            let nums: Option<Vec<Nimber>> = terms.iter().map(|t| num_of(checker, t)).collect();
            Ok(nums.and_then(|n| sum_columns(&n)))
        }
        ExprKind::Call { name, args, .. }
            if (name == "grundy" || name == "outcome") && args.len() == 1 =>
        {
            match checker.evaluate(&args[0]) {
                Ok(Value::Game(g)) => move_list(checker, &g, name == "outcome", at).map(Some),
                _ => Ok(None),
            }
        }
        _ => Ok(None),
    }
}

/// A nim-sum written in binary, one operand to a row, added column by column without carries.
fn sum_columns(terms: &[Nimber]) -> Option<String> {
    let words: Option<Vec<u64>> = terms.iter().map(Nimber::to_u64).collect();
    let words = words?;
    let total = words.iter().fold(0u64, |acc, w| acc ^ w);
    let width = words
        .iter()
        .chain([&total])
        .map(|w| 64 - w.leading_zeros())
        .max()
        .unwrap_or(1)
        .max(1) as usize;
    let mut h = String::from(
        "<p>Write the numbers in binary and add each column without carrying: a column is 1 when it holds an odd number of ones.</p><table class=\"nim-columns\"><tbody>",
    );
    for (i, w) in words.iter().enumerate() {
        let _ = write!(
            h,
            "<tr><th scope=\"row\">{}{w}</th><td><code>{w:0width$b}</code></td></tr>",
            if i == 0 { "" } else { "⊕ " }
        );
    }
    let _ = write!(
        h,
        "<tr class=\"total\"><th scope=\"row\">= {total}</th><td><code>{total:0width$b}</code></td></tr></tbody></table>"
    );
    Some(h)
}

/// The options of `g` with their Grundy values (or outcomes), and the rule that decides `g`.
fn move_list(
    checker: &DirectiveEnv<'_>,
    g: &Game,
    outcome: bool,
    at: &Span,
) -> Result<String, Diagnostic> {
    let budget = checker.limits().game;
    let game_err = |e| game_error(checker, at, e);
    let moves = g.moves_from().map_err(game_err)?;
    let mut h = String::new();
    if moves.is_empty() {
        h.push_str("<p>There is no move from this position: the player to move loses, so its value is 0 and it is a P-position.</p>");
        return Ok(h);
    }
    let _ = write!(
        h,
        "<p>The moves from <code>{}</code> and the value of each position they lead to:</p><ul class=\"nim-moves\">",
        escape(&g.to_string())
    );
    let mut values = Vec::new();
    for m in moves.iter().take(MAX_HINT_MOVES) {
        // Misère and loopy games have no Grundy values to list (a loopy option may be a
        // draw), so their hint lists outcomes.
        if outcome && (g.is_misere() || g.is_loopy()) {
            let o = m.outcome(&budget).map_err(game_err)?;
            let _ = write!(h, "<li><code>{}</code>: {o}</li>", escape(&m.to_string()));
        } else {
            let v = m.grundy(&budget).map_err(game_err)?;
            values.push(v);
            let _ = write!(h, "<li><code>{}</code>: {v}</li>", escape(&m.to_string()));
        }
    }
    h.push_str("</ul>");
    if moves.len() > MAX_HINT_MOVES {
        let _ = write!(
            h,
            "<p>… and {} more moves.</p>",
            moves.len() - MAX_HINT_MOVES
        );
    }
    if outcome && g.is_loopy() {
        h.push_str("<p>A position wins (N) when some move leads to a P-position, loses (P) when every move leads to an N-position, and is otherwise a draw (D): the play can be kept going for ever.</p>");
    } else if outcome {
        h.push_str("<p>A position is P exactly when no move leads to a P-position (a position of value 0).</p>");
    } else {
        h.push_str("<p>The Grundy value is the mex, the least number not among the values of the options.</p>");
    }
    Ok(h)
}

/// What a choice's options are judged by.
enum Judge {
    /// Claims and truth values: correct when they hold.
    Truth,
    /// Positions: correct when in this outcome class.
    Class(Outcome),
    /// Any value: correct when equal to this one.
    Equal(Value),
}

/// The outcome class a question names, as a word: `P` or `N` (also `P-position`).
fn class_in_question(q: &str) -> Option<Outcome> {
    let words: Vec<&str> = q
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let p = words.contains(&"P");
    let n = words.contains(&"N");
    match (p, n) {
        (true, false) => Some(Outcome::P),
        (false, true) => Some(Outcome::N),
        _ => None,
    }
}

/// `choice("question", [options], [class or correct value])`.
pub(super) fn choice(checker: &mut DirectiveEnv<'_>, d: &Directive) -> Result<String, Diagnostic> {
    let question = question_arg(checker, &d.args[0])?;
    let q_html = question_html(checker, &question, &d.args[0].1)?;
    let (list, list_at) = (&d.args[1].0, &d.args[1].1);
    let Value::List(options) = list else {
        return Err(error(
            checker,
            list_at,
            format!("expected a list of options such as [nim(1, 2, 3), nim(5, 5)], found `{list}`"),
        ));
    };
    if options.len() < 2 || options.len() > MAX_OPTIONS {
        return Err(error(
            checker,
            list_at,
            format!(
                "a choice has 2 to {MAX_OPTIONS} options, not {}",
                options.len()
            ),
        ));
    }
    // Where each option was written: the items of a literal list, else the list as a whole.
    let item_exprs: Option<&Vec<Expr>> = match &strip_parens(&d.exprs[1]).kind {
        ExprKind::List(items) if items.len() == options.len() => Some(items),
        _ => None,
    };
    let item_span = |i: usize| item_exprs.map_or(list_at.clone(), |it| it[i].span.clone());
    let judge = match (d.args.get(2), &options[0]) {
        (Some((Value::Str(s), at)), Value::Game(_)) => match s.as_str() {
            "P" => Judge::Class(Outcome::P),
            "N" => Judge::Class(Outcome::N),
            _ => {
                return Err(error(
                    checker,
                    at,
                    format!("the class of a choice of positions is \"P\" or \"N\", not \"{s}\""),
                ))
            }
        },
        (Some((v, _)), _) => Judge::Equal(v.clone()),
        (None, Value::Game(_)) => match class_in_question(&question) {
            Some(c) => Judge::Class(c),
            None => {
                return Err(error(
                    checker,
                    &d.args[0].1,
                    "the question must name one outcome class, P or N, to judge positions by",
                )
                .help("name the class as a third argument: choice(\"…\", [positions], \"P\")"))
            }
        },
        (None, Value::Str(_) | Value::Bool(_)) => Judge::Truth,
        (None, other) => {
            return Err(error(
                checker,
                &item_span(0),
                format!("options such as `{other}` need the correct value as a third argument"),
            )
            .help("for example choice(\"What is 2 ⊗ 3?\", [1, 5, 6], 2 * 3)"))
        }
    };
    let budget = checker.limits().game;
    let mut labels = Vec::new();
    // Each option's text as a reader reads it, for its checkbox's accessible name: a label made
    // only of MathML gives the checkbox no name in every browser.
    let mut names = Vec::new();
    let mut correct = Vec::new();
    for (i, opt) in options.iter().enumerate() {
        let at = item_span(i);
        let same_kind = std::mem::discriminant(opt) == std::mem::discriminant(&options[0]);
        if !same_kind && !matches!(judge, Judge::Equal(_)) {
            return Err(error(
                checker,
                &at,
                format!(
                    "every option must be of one kind, but this is `{opt}` and the first is `{}`",
                    options[0]
                ),
            ));
        }
        let (label, name, ok) = match (&judge, opt) {
            (Judge::Class(c), Value::Game(g)) => {
                let o = g
                    .outcome(&budget)
                    .map_err(|e| game_error(checker, &at, e))?;
                (
                    format!("<code>{}</code>", escape(&g.to_string())),
                    g.to_string(),
                    o == *c,
                )
            }
            (Judge::Truth, Value::Str(s)) => {
                // The string's text stands in the file just after its opening quote.
                let text = MappedText::contiguous(s, at.start + 1);
                match checker.decide(&text) {
                    Some((holds, stmt)) => {
                        let mut inner = String::new();
                        mathml::statement(&mut inner, &stmt.stmt, None, None);
                        let name = mathml::statement_text(&stmt.stmt, None, None);
                        (mathml::math(&inner, false, &name), name, holds)
                    }
                    // The claim's own error is already reported; no second one for the directive.
                    None => return Ok(String::new()),
                }
            }
            (Judge::Truth, Value::Bool(b)) => {
                let shown = item_exprs.map_or_else(|| opt.to_string(), |it| it[i].to_string());
                let mut inner = String::new();
                match item_exprs {
                    Some(it) => mathml::expr(&mut inner, &it[i]),
                    None => mathml::value(&mut inner, opt),
                }
                (mathml::math(&inner, false, &shown), shown, *b)
            }
            (Judge::Equal(v), _) => {
                let mut inner = String::new();
                mathml::value(&mut inner, opt);
                (
                    mathml::math(&inner, false, &opt.to_string()),
                    opt.to_string(),
                    opt == v,
                )
            }
            (_, other) => {
                return Err(error(
                    checker,
                    &at,
                    format!("an option of this choice must be a claim in quotes, a truth value or a position, not `{other}`"),
                ))
            }
        };
        labels.push(label);
        names.push(name);
        correct.push(ok);
    }
    let (n, id) = next_id(checker);
    let key: Vec<String> = correct
        .iter()
        .enumerate()
        .filter(|(_, c)| **c)
        .map(|(i, _)| i.to_string())
        .collect();
    let mut h = String::new();
    let _ = write!(
        h,
        "<section class=\"nim-exercise nim-choice\" id=\"{id}\" data-kind=\"choice\" data-answer=\"{}\">\
         <form class=\"nim-exercise-form\"><fieldset><legend class=\"nim-exercise-question\"><span class=\"nim-exercise-number\">Exercise {n}.</span> {q_html} <span class=\"nim-choice-note\">(Select every correct option.)</span></legend><ul class=\"nim-options\">",
        key.join(",")
    );
    for (i, (label, name)) in labels.iter().zip(&names).enumerate() {
        let _ = write!(
            h,
            "<li><label><input type=\"checkbox\" value=\"{i}\" aria-label=\"{}\"> {label}</label></li>",
            escape(name)
        );
    }
    let right: Vec<&str> = labels
        .iter()
        .zip(&correct)
        .filter(|(_, c)| **c)
        .map(|(l, _)| l.as_str())
        .collect();
    let count = right.len();
    let hint = match judge {
        Judge::Class(_) => "A position is P when its Grundy value is 0; the value of a sum of games is the nim-sum of the values of its parts, so a Nim position is P exactly when the nim-sum of its heaps is 0.".to_string(),
        _ => format!(
            "{count} of the {} options {} correct.",
            labels.len(),
            if count == 1 { "is" } else { "are" }
        ),
    };
    let _ = writeln!(
        h,
        "</ul></fieldset><button type=\"submit\" hidden>Check</button></form>\
         <p class=\"nim-exercise-feedback\" role=\"status\" aria-live=\"polite\"></p>\
         <div class=\"nim-exercise-hint\" hidden><p class=\"nim-hint-title\">Hint</p><p>{}</p></div>\
         <details class=\"nim-exercise-answer\"><summary>Show the answer</summary><p>{}</p></details></section>",
        escape(&hint),
        if right.is_empty() {
            "None of the options is correct.".to_string()
        } else {
            right.join("; ")
        }
    );
    let plain: Vec<String> = options
        .iter()
        .zip(&correct)
        .filter(|(_, c)| **c)
        .map(|(o, _)| match o {
            Value::Str(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    let all: Vec<String> = match item_exprs {
        Some(items) => items.iter().map(ToString::to_string).collect(),
        None => options.iter().map(ToString::to_string).collect(),
    };
    checker.add_answer(AnswerKey {
        id,
        question,
        source: format!("[{}]", all.join(", ")),
        answer: if plain.is_empty() {
            "none of the options".into()
        } else {
            plain.join("; ")
        },
    });
    Ok(h)
}

/// `practice(kind, …)`.
pub(super) fn practice(
    checker: &mut DirectiveEnv<'_>,
    d: &Directive,
) -> Result<String, Diagnostic> {
    let (kind_value, kind_at) = &d.args[0];
    let Value::Str(kind) = kind_value else {
        return Err(error(
            checker,
            kind_at,
            format!("expected a practice kind such as \"nim-product\", found `{kind_value}`"),
        ));
    };
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
    let title;
    let data;
    if kind == "grundy" {
        arity(checker, d, Arity::Exactly(3))?;
        let (game_value, game_at) = (&d.args[1].0, &d.args[1].1);
        let Value::Str(game) = game_value else {
            return Err(error(
                checker,
                game_at,
                format!("expected a game such as \"kayles\", found `{game_value}`"),
            ));
        };
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
        let rule = match game.as_str() {
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
        title = format!("Grundy values of {name}, heaps of 1 to {n}");
        data = format!(
            "data-practice=\"grundy\" data-game=\"{}\" data-rule=\"{rule}\" data-max=\"{n}\" data-grundy=\"[{}]\"",
            escape(&name),
            values
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
    } else {
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
        title = match kind.as_str() {
            "nim-sum" => format!("Nim-sums a ⊕ b of numbers below {n}"),
            "nim-product" => format!("Nim-products a ⊗ b of numbers below {n}"),
            _ => format!("Nim-inverses of numbers from 1 to {}", &n - 1u32),
        };
        data = format!("data-practice=\"{kind}\" data-max=\"{n}\"");
    }
    let id = format!("practice-{}", d.span.start);
    Ok(format!(
        "<section class=\"nim-practice\" id=\"{id}\" {data}>\
         <p class=\"nim-practice-title\">Practice: {}</p>\
         <p class=\"nim-practice-problem\">Turn on JavaScript to draw practice problems without end.</p>\
         <form class=\"nim-exercise-form\" hidden><label>Your answer to the practice problem (a number, such as 12 or 0xC): \
         <input type=\"text\" autocomplete=\"off\" autocapitalize=\"off\" spellcheck=\"false\"></label> \
         <button type=\"submit\">Check</button> <button type=\"button\" class=\"nim-practice-new\">New problem</button></form>\
         <p class=\"nim-exercise-feedback\" role=\"status\" aria-live=\"polite\"></p>\
         <div class=\"nim-exercise-hint\" hidden></div></section>\n",
        escape(&title)
    ))
}

/// An octal code's digits, for the page script's move generator (`0.77` → `077`).
fn digits(code: &OctalCode) -> String {
    code.digits().iter().map(|d| char::from(b'0' + d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_names_its_class_as_a_word() {
        assert_eq!(
            class_in_question("Which positions are P?"),
            Some(Outcome::P)
        );
        assert_eq!(
            class_in_question("Which are N-positions?"),
            Some(Outcome::N)
        );
        assert_eq!(
            class_in_question("Which P-positions can you leave?"),
            Some(Outcome::P)
        );
        // Both, neither, or only inside a longer word: no class.
        assert_eq!(class_in_question("Which are P and which N?"), None);
        assert_eq!(class_in_question("Which does the first player win?"), None);
        assert_eq!(class_in_question("Which Positions are New?"), None);
    }

    #[test]
    fn a_sum_hint_writes_the_columns_in_binary() {
        let n = |x| Nimber::from_u64(x);
        let h = sum_columns(&[n(12), n(10)]).expect("small numbers");
        // 12 = 1100, 10 = 1010, 12 xor 10 = 0110 = 6 (column by column).
        assert!(h.contains("<code>1100</code>"), "{h}");
        assert!(h.contains("<code>1010</code>"), "{h}");
        assert!(h.contains("= 6</th><td><code>0110</code>"), "{h}");
    }
}
