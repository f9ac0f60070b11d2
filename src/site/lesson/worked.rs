//! Worked answers: the explanations an author writes beside a lesson's exercises, in a
//! `<details>` block whose summary is "Worked answers".
//!
//! The key of every exercise and choice is computed by the engine and shown by the build (the
//! "Show the answer" box of `directives::exercise`). What the author writes around it is held
//! to that key twice. Every claim in it is checked like any other claim, so it cannot call a
//! wrong option right or state a wrong value. And an explanation that names some of a choice's
//! correct options must name all of them (`incomplete-answer`): a worked answer that names one
//! P-position of two reads as the whole answer. An explanation names an option by writing it
//! in a claim, as the choice wrote it: `grundy(kayles(4) + kayles(2) + kayles(3)) = 0` names
//! the option `kayles(4) + kayles(2) + kayles(3)`, and the claim `4^5 = 2` names the option
//! `"4^5 = 2"`. Naming a wrong option is allowed (to say why it fails); its claim is checked.
//!
//! The blocks are marked in the checked document; in graded mode (`[nimbook] answers =
//! "hidden"`) the page's writer leaves them out, since they state the answers, and keeps them
//! for the teacher's key (`handout --answers`).

use std::collections::HashSet;
use std::ops::Range;

use crate::claim::ast::{Claim, Expr, ExprKind, Statement};
use crate::claim::Checked;
use crate::diag::{Code, Diagnostic};

use super::context::{AnswerKey, LessonContext};
use super::document::Worked;
use super::notation::statement_text;

/// The worked-answer blocks of a lesson, found while its document is built.
#[derive(Default)]
pub(crate) struct WorkedAnswers {
    /// The latest `<details>` outside a block: its node and its byte offset.
    details: Option<(usize, usize)>,
    /// The block being read.
    open: Option<Open>,
    /// The blocks read, in document order.
    pub(crate) blocks: Vec<Worked>,
}

struct Open {
    /// Where it starts in the document's nodes and in the lesson.
    node: usize,
    start: usize,
    /// `<details>` elements open, its own included.
    depth: usize,
}

/// If an HTML line holds the summary of a worked-answers block, the rest of the line from the
/// summary's text on: what of the block the same line may still hold.
fn worked_summary(lower: &str) -> Option<&str> {
    let at = lower.find("<summary>")?;
    let rest = &lower[at + "<summary>".len()..];
    let text = rest.split("</summary>").next().unwrap_or("").trim();
    text.starts_with("worked answer").then_some(rest)
}

impl WorkedAnswers {
    /// Reads an HTML line outside a block, node `index` of the document and byte `at` of the
    /// lesson: a `<details>` is remembered, and a worked-answers summary opens a block at the
    /// latest one. Returns the rest of the line after the summary's start.
    fn open_at<'l>(&mut self, lower: &'l str, index: usize, at: usize) -> Option<&'l str> {
        if lower.contains("<details") {
            self.details = Some((index, at));
        }
        let rest = worked_summary(lower)?;
        let (node, start) = self.details.take()?;
        self.open = Some(Open {
            node,
            start,
            depth: 1,
        });
        Some(rest)
    }

    /// Reads one HTML node, node `index` of the document (it stands at `range`). When a block
    /// closes it is recorded.
    pub(crate) fn html(&mut self, html: &str, range: &Range<usize>, index: usize) {
        let lower = html.to_ascii_lowercase();
        // The part of the line inside the open block: all of it, or, when the block opens on
        // this line, what follows its summary (`<details><summary>Worked answers</summary>…
        // </details>` may be one line).
        let inside = match self.open {
            Some(_) => lower.as_str(),
            None => match self.open_at(&lower, index, range.start) {
                Some(rest) => rest,
                None => return,
            },
        };
        let Some(open) = &mut self.open else {
            return;
        };
        open.depth += inside.matches("<details").count();
        let closes = inside.matches("</details>").count();
        if closes < open.depth {
            open.depth -= closes;
            return;
        }
        let (first, start) = (open.node, open.start);
        self.open = None;
        self.blocks.push(Worked {
            nodes: first..index + 1,
            range: start..range.end,
        });
    }
}

/// What a statement names: its text and the text of every expression in it.
fn mentions(stmt: &Statement, out: &mut HashSet<String>) {
    out.insert(statement_text(stmt, None, None));
    match stmt {
        Statement::Claim(c) | Statement::Quantified { body: c, .. } => claim_mentions(c, out),
        Statement::Let { value, .. } | Statement::Expr(value) => expr_mentions(value, out),
    }
}

fn claim_mentions(c: &Claim, out: &mut HashSet<String>) {
    match c {
        Claim::Chain(chain) => {
            expr_mentions(&chain.first, out);
            for link in &chain.links {
                expr_mentions(&link.rhs, out);
            }
        }
        Claim::Is { expr, .. } => expr_mentions(expr, out),
    }
}

fn expr_mentions(e: &Expr, out: &mut HashSet<String>) {
    out.insert(e.to_string());
    match &e.kind {
        ExprKind::List(items) | ExprKind::Call { args: items, .. } => {
            for item in items {
                expr_mentions(item, out);
            }
        }
        ExprKind::Bin { lhs, rhs, .. } => {
            expr_mentions(lhs, out);
            expr_mentions(rhs, out);
        }
        ExprKind::Int(inner) | ExprKind::Paren(inner) => expr_mentions(inner, out),
        ExprKind::Num(_) | ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::Bool(_) => {}
    }
}

/// Holds every worked-answers block to the lesson's choices: a block's claims that name some
/// of a choice's correct options name all of them. One `incomplete-answer` error per choice
/// and block, at the first claim that names a correct option.
pub(crate) fn check(lesson: &mut LessonContext, blocks: &[Worked], checked: &[&Checked]) {
    let mut found = Vec::new();
    for block in blocks {
        // Each claim of the block with what it names, in document order.
        let claims: Vec<(Range<usize>, HashSet<String>)> = checked
            .iter()
            .filter_map(|c| c.stmt.as_ref())
            .filter(|s| block.range.start <= s.span.start && s.span.end <= block.range.end)
            .map(|s| {
                let mut names = HashSet::new();
                mentions(&s.stmt, &mut names);
                (s.span.clone(), names)
            })
            .collect();
        for (n, key) in lesson.answers().iter().enumerate() {
            if let Some(d) = incomplete(lesson, n + 1, key, &claims) {
                found.push(d);
            }
        }
    }
    for d in found {
        lesson.report(d);
    }
}

/// The error for choice `key` (exercise `number` of its lesson), if the claims name some of its
/// correct options but not all.
fn incomplete(
    lesson: &LessonContext,
    number: usize,
    key: &AnswerKey,
    claims: &[(Range<usize>, HashSet<String>)],
) -> Option<Diagnostic> {
    let correct: Vec<&str> = key
        .options
        .iter()
        .filter(|(_, c)| *c)
        .map(|(o, _)| o.as_str())
        .collect();
    let named = |o: &str| claims.iter().any(|(_, names)| names.contains(o));
    let first = claims
        .iter()
        .find(|(_, names)| correct.iter().any(|o| names.contains(*o)))?;
    let missing: Vec<&str> = correct.iter().copied().filter(|o| !named(o)).collect();
    if missing.is_empty() {
        return None;
    }
    let file = lesson.file();
    let (line, _) = file.line_col(key.span.start);
    let quote = |list: &[&str]| {
        list.iter()
            .map(|o| format!("`{o}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some(
        Diagnostic::error(
            Code::IncompleteAnswer,
            format!(
                "this worked answer names {} of the {} correct options of exercise {number}",
                correct.len() - missing.len(),
                correct.len()
            ),
        )
        .at(file, first.0.clone())
        .label("names a correct option")
        .note(format!(
            "exercise {number} (line {line}) has {} correct option{}: {}",
            correct.len(),
            if correct.len() == 1 { "" } else { "s" },
            quote(&correct)
        ))
        .note(format!("not named here: {}", quote(&missing)))
        .help("name every correct option in a claim, as the choice writes it, or none (the build shows the key)"),
    )
}

#[cfg(test)]
mod tests {
    use super::worked_summary;
    use crate::site::lesson::context::LessonContext;
    use crate::site::lesson::markdown::{render_with, Flavour};
    use crate::site::load::lints::Lints;

    /// The page and the worked-answers blocks of a lesson in graded mode.
    fn graded(text: &str) -> (String, Vec<String>) {
        let file = crate::diag::SourceFile::new("l.md", text);
        let mut lesson = LessonContext::new(file, crate::claim::Limits::default(), None);
        lesson.set_answer_salt(Some("Book/l.md".to_string()));
        let page = render_with(&mut lesson, "l.md", &Flavour::nimbook(), Lints::ALLOW);
        (page.html, page.worked)
    }

    #[test]
    fn a_worked_answers_block_on_one_line_is_left_out_in_graded_mode() {
        // Once the block that opened on one line was never closed: the answer was on the page.
        for text in [
            "Q\n\n<details><summary>Worked answers</summary>It is 15.</details>\n\nAfter.\n",
            "Q\n\n<details>\n<summary>Worked answers</summary>\nIt is 15.\n</details>\n\nAfter.\n",
            "Q\n\n<details><summary>Worked answers</summary>\n\nIt is 15.\n\n</details>\n\nAfter.\n",
        ] {
            let (html, worked) = graded(text);
            assert!(!html.contains("It is 15") && html.contains("After."), "{html}");
            assert_eq!(worked.len(), 1, "{text:?}");
            assert!(worked[0].contains("It is 15"), "{worked:?}");
        }
        // A `<details>` inside the block, opened and closed on the block's first line, does not
        // close the block.
        let (html, worked) = graded(
            "<details><summary>Worked answers</summary><details><summary>Step</summary>6</details>\n\nIt is 15.\n\n</details>\n\nAfter.\n",
        );
        assert!(
            !html.contains("It is 15") && html.contains("After."),
            "{html}"
        );
        assert_eq!(worked.len(), 1, "{worked:?}");
    }

    #[test]
    fn the_summary_names_the_block() {
        assert!(worked_summary("<summary>worked answers</summary>\n").is_some());
        assert!(worked_summary("<details><summary> worked answer </summary>").is_some());
        assert!(worked_summary("<summary>hint</summary>").is_none());
        assert!(worked_summary("<details>").is_none());
    }
}
