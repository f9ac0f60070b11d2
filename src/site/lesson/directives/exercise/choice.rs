//! `choice(question, options, [class or value])`: a multiple-choice question whose correct
//! options the engine decides (see the module docs of `exercise`).

use crate::claim::ast::{Expr, ExprKind};
use crate::claim::{Directive, MappedText, Value};
use crate::diag::{Diagnostic, Span};
use crate::game::{Game, Outcome};
use crate::site::lesson::blocks::{Block, Choice, ChoiceOption, Run};
use crate::site::lesson::context::{AnswerKey, DirectiveEnv};
use crate::site::lesson::notation::{self, Formula};
use crate::site::lesson::page::blocks::runs_html;

use super::super::args::{error, game_error, typed_arg};
use super::hint::strip_parens;
use super::{graded, grading, next_id, question_arg, question_runs, MAX_OPTIONS};

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

/// One option, judged.
struct Judged {
    /// How it is shown.
    label: Run,
    /// Its text as a reader reads it (the checkbox's accessible name, and the answer key's).
    name: String,
    /// Its text as the claim language prints it: what a worked answer writes to name it.
    mention: String,
    /// Whether it is correct.
    correct: bool,
}

/// The options of a choice and where each was written: the items of a literal list, else the
/// list as a whole.
struct Options<'d> {
    values: &'d [Value],
    items: Option<&'d Vec<Expr>>,
    list_at: &'d Span,
}

impl Options<'_> {
    fn span(&self, i: usize) -> Span {
        self.items
            .map_or(self.list_at.clone(), |it| it[i].span.clone())
    }
}

fn options_of<'d>(checker: &DirectiveEnv<'_>, d: &'d Directive) -> Result<Options<'d>, Diagnostic> {
    let list_at = &d.args[1].1;
    let values = typed_arg(
        checker,
        &d.args[1],
        "a list of options such as [nim(1, 2, 3), nim(5, 5)]",
        Value::as_list,
    )?;
    if values.len() < 2 || values.len() > MAX_OPTIONS {
        return Err(error(
            checker,
            list_at,
            format!(
                "a choice has 2 to {MAX_OPTIONS} options, not {}",
                values.len()
            ),
        ));
    }
    let items = match &strip_parens(&d.exprs[1]).kind {
        ExprKind::List(items) if items.len() == values.len() => Some(items),
        _ => None,
    };
    Ok(Options {
        values,
        items,
        list_at,
    })
}

/// What the options are judged by: the third argument, else the kind of the first option.
fn judge_of(
    checker: &DirectiveEnv<'_>,
    d: &Directive,
    question: &str,
    options: &Options<'_>,
) -> Result<Judge, Diagnostic> {
    Ok(match (d.args.get(2), &options.values[0]) {
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
        (None, Value::Game(_)) => match class_in_question(question) {
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
                &options.span(0),
                format!("options such as `{other}` need the correct value as a third argument"),
            )
            .help("for example choice(\"What is 2 ⊗ 3?\", [1, 5, 6], 2 * 3)"))
        }
    })
}

/// Judges option `i`. `Ok(None)` when the option is a claim that does not parse or evaluate:
/// the claim's own error is already reported, and the directive adds none.
fn judge_option(
    checker: &mut DirectiveEnv<'_>,
    judge: &Judge,
    options: &Options<'_>,
    i: usize,
) -> Result<Option<Judged>, Diagnostic> {
    let at = options.span(i);
    let (opt, first) = (&options.values[i], &options.values[0]);
    let same_kind = std::mem::discriminant(opt) == std::mem::discriminant(first);
    if !same_kind && !matches!(judge, Judge::Equal(_)) {
        return Err(error(
            checker,
            &at,
            format!(
                "every option must be of one kind, but this is `{opt}` and the first is `{first}`"
            ),
        ));
    }
    let written = options
        .items
        .map_or_else(|| opt.to_string(), |it| it[i].to_string());
    let judged = match (judge, opt) {
        (Judge::Class(c), Value::Game(g)) => {
            let budget = checker.limits().game;
            let o = g
                .outcome(&budget)
                .map_err(|e| game_error(checker, &at, e))?;
            Judged {
                label: Run::Code(g.to_string()),
                name: g.to_string(),
                mention: written,
                correct: o == *c,
            }
        }
        (Judge::Truth, Value::Str(s)) => {
            // The string's text stands in the file just after its opening quote.
            let text = MappedText::contiguous(s, at.start + 1);
            let Some((holds, stmt)) = checker.decide(&text) else {
                return Ok(None);
            };
            let formula = Formula::statement(&stmt.stmt, None, None);
            let name = formula.text.clone();
            Judged {
                label: Run::Math(formula),
                mention: name.clone(),
                name,
                correct: holds,
            }
        }
        (Judge::Truth, Value::Bool(b)) => {
            let mut items = Vec::new();
            match options.items {
                Some(it) => notation::expr(&mut items, &it[i]),
                None => notation::value(&mut items, opt),
            }
            Judged {
                label: Run::Math(Formula {
                    items,
                    text: written.clone(),
                }),
                name: written.clone(),
                mention: written,
                correct: *b,
            }
        }
        (Judge::Equal(v), _) => {
            let mut items = Vec::new();
            notation::value(&mut items, opt);
            Judged {
                label: Run::Math(Formula {
                    items,
                    text: opt.to_string(),
                }),
                name: opt.to_string(),
                mention: written,
                correct: opt == v,
            }
        }
        (_, other) => {
            return Err(error(
                checker,
                &at,
                format!("an option of this choice must be a claim in quotes, a truth value or a position, not `{other}`"),
            ))
        }
    };
    Ok(Some(judged))
}

/// `choice("question", [options], [class or correct value])`; nothing when an option is a
/// claim that does not parse (its error is reported).
pub(in super::super) fn choice(
    checker: &mut DirectiveEnv<'_>,
    d: &Directive,
) -> Result<Option<Block>, Diagnostic> {
    let question = question_arg(checker, &d.args[0])?;
    let q_runs = question_runs(checker, &question, &d.args[0].1)?;
    let options = options_of(checker, d)?;
    let judge = judge_of(checker, d, &question, &options)?;
    let mut judged = Vec::new();
    for i in 0..options.values.len() {
        match judge_option(checker, &judge, &options, i)? {
            Some(j) => judged.push(j),
            None => return Ok(None),
        }
    }
    let (number, id) = next_id(checker);
    let correct: Vec<bool> = judged.iter().map(|j| j.correct).collect();
    let right = correct.iter().filter(|c| **c).count();
    let hint = match judge {
        Judge::Class(_) => {
            let games: Vec<&Game> = options.values.iter().filter_map(Value::as_game).collect();
            super::rules::class_hint(&games)
        }
        _ => format!(
            "{right} of the {} options {} correct.",
            judged.len(),
            if right == 1 { "is" } else { "are" }
        ),
    };
    let choice = Choice {
        grading: grading(checker, &id, &graded::choice_canonical(&correct)),
        id,
        number,
        question: q_runs,
        options: judged
            .iter()
            .map(|j| ChoiceOption {
                label: j.label.clone(),
                name: j.name.clone(),
                correct: j.correct,
            })
            .collect(),
        hint,
    };
    let shown = runs_html(&choice.shown());
    record(
        checker,
        d,
        &options,
        choice.id.clone(),
        question,
        &judged,
        shown,
    );
    Ok(Some(Block::Choice(choice)))
}

/// Records the choice in the lesson's answer key.
fn record(
    checker: &mut DirectiveEnv<'_>,
    d: &Directive,
    options: &Options<'_>,
    id: String,
    question: String,
    judged: &[Judged],
    shown: String,
) {
    let plain: Vec<String> = options
        .values
        .iter()
        .zip(judged)
        .filter(|(_, j)| j.correct)
        .map(|(o, _)| match o {
            Value::Str(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    let all: Vec<String> = match options.items {
        Some(items) => items.iter().map(ToString::to_string).collect(),
        None => options.values.iter().map(ToString::to_string).collect(),
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
        options: judged
            .iter()
            .map(|j| (j.mention.clone(), j.correct))
            .collect(),
        shown,
        span: d.span.clone(),
    });
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
}
