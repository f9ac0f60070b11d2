//! Hints for an exercise, prepared from the shape of its answer expression: the worked
//! expansion of a product, the binary columns of a nim-sum, the options of a game and their
//! values.

use crate::claim::ast::{BinOp, Expr, ExprKind};
use crate::claim::Value;
use crate::diag::{Diagnostic, Span};
use crate::game::Game;
use crate::nim::Nimber;
use crate::site::lesson::blocks::{Hint, MoveRule};
use crate::site::lesson::context::DirectiveEnv;

use super::super::args::game_error;

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
) -> Result<Option<Hint>, Diagnostic> {
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
                return Ok(Some(Hint::ProductRule));
            }
            Ok(Some(Hint::Expansion(
                super::super::arithmetic::worked_product(checker, &a, &b, at),
            )))
        }
        ExprKind::Bin {
            op: BinOp::NimAdd, ..
        } => {
            let mut terms = Vec::new();
            sum_terms(e, &mut terms);
            let nums: Option<Vec<u64>> = terms
                .iter()
                .map(|t| num_of(checker, t).and_then(|n| n.to_u64()))
                .collect();
            Ok(nums.map(|terms| Hint::Columns {
                total: (!hidden).then(|| terms.iter().fold(0u64, |acc, w| acc ^ w)),
                terms,
            }))
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

/// The options of `g` with their Grundy values (or outcomes), and the rule that decides `g`.
fn move_list(
    checker: &DirectiveEnv<'_>,
    g: &Game,
    outcome: bool,
    at: &Span,
) -> Result<Hint, Diagnostic> {
    let budget = checker.limits().game;
    let game_err = |e| game_error(checker, at, e);
    let moves = g.moves_from().map_err(game_err)?;
    if moves.is_empty() {
        return Ok(Hint::NoMoves);
    }
    let mut listed = Vec::new();
    for m in moves.iter().take(Hint::MAX_MOVES) {
        // Misère and loopy games have no Grundy values to list (a loopy option may be a
        // draw), so their hint lists outcomes.
        let shown = if outcome && (g.is_misere() || g.is_loopy()) {
            m.outcome(&budget).map_err(game_err)?.to_string()
        } else {
            m.grundy(&budget).map_err(game_err)?.to_string()
        };
        listed.push((m.to_string(), shown));
    }
    let rule = if outcome && g.is_loopy() {
        MoveRule::Loopy
    } else if outcome {
        MoveRule::Outcome
    } else {
        MoveRule::Mex
    };
    Ok(Hint::Moves {
        position: g.to_string(),
        moves: listed,
        more: moves.len().saturating_sub(Hint::MAX_MOVES),
        rule,
    })
}
