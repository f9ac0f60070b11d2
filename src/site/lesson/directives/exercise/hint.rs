//! Hints for an exercise, prepared from the shape of its answer expression: the worked
//! expansion of a product, the binary columns of a nim-sum, the options of a game and their
//! values.

use std::fmt::Write as _;

use crate::claim::ast::{BinOp, Expr, ExprKind};
use crate::claim::Value;
use crate::diag::{Diagnostic, Span};
use crate::game::Game;
use crate::nim::Nimber;
use crate::site::html::escape;
use crate::site::lesson::context::DirectiveEnv;

use super::super::args::game_error;

/// The most options of a game a hint lists.
const MAX_HINT_MOVES: usize = 40;

/// The hint of a product in graded mode: the method, not the expansion, whose last line is the
/// answer.
const PRODUCT_RULE: &str = "<p>Split both factors into sums of powers of two and distribute. A product of powers of two is a product of distinct Fermat 2-powers 2, 4, 16, 256, …, and a Fermat 2-power F has F ⊗ F = F ⊕ F/2.</p>";

pub(super) fn strip_parens(mut e: &Expr) -> &Expr {
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

/// A hint for the answer expression `e`, by its shape; `None` when there is none to give. In
/// graded mode (`hidden`) a hint stops short of the answer: a product's worked expansion and a
/// sum's total line would be the key in plain text.
pub(super) fn hint(
    checker: &mut DirectiveEnv<'_>,
    e: &Expr,
    at: &Span,
    hidden: bool,
) -> Result<Option<String>, Diagnostic> {
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
            if hidden {
                return Ok(Some(PRODUCT_RULE.to_string()));
            }
            Ok(Some(format!(
                "<p>The worked expansion, every step checked by nimbook:</p>{}",
                super::super::arithmetic::worked_product(checker, &a, &b, at)
            )))
        }
        ExprKind::Bin {
            op: BinOp::NimAdd, ..
        } => {
            let mut terms = Vec::new();
            sum_terms(e, &mut terms);
            let nums: Option<Vec<Nimber>> = terms.iter().map(|t| num_of(checker, t)).collect();
            Ok(nums.and_then(|n| sum_columns(&n, !hidden)))
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

/// A nim-sum written in binary, one operand to a row, added column by column without carries;
/// with its total row when `total`.
pub(super) fn sum_columns(terms: &[Nimber], total: bool) -> Option<String> {
    let words: Option<Vec<u64>> = terms.iter().map(Nimber::to_u64).collect();
    let words = words?;
    let sum = words.iter().fold(0u64, |acc, w| acc ^ w);
    let width = words
        .iter()
        .chain([&sum])
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
    if total {
        let _ = write!(
            h,
            "<tr class=\"total\"><th scope=\"row\">= {sum}</th><td><code>{sum:0width$b}</code></td></tr>"
        );
    }
    h.push_str("</tbody></table>");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sum_hint_writes_the_columns_in_binary() {
        let n = |x| Nimber::from_u64(x);
        let h = sum_columns(&[n(12), n(10)], true).expect("small numbers");
        // 12 = 1100, 10 = 1010, 12 xor 10 = 0110 = 6 (column by column).
        assert!(h.contains("<code>1100</code>"), "{h}");
        assert!(h.contains("<code>1010</code>"), "{h}");
        assert!(h.contains("= 6</th><td><code>0110</code>"), "{h}");
    }

    #[test]
    fn a_graded_sum_hint_leaves_out_the_total() {
        let n = |x| Nimber::from_u64(x);
        let h = sum_columns(&[n(12), n(10)], false).expect("small numbers");
        assert!(h.contains("<code>1100</code>"), "{h}");
        assert!(!h.contains("0110") && !h.contains("= 6"), "{h}");
    }
}
