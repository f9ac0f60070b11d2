//! When a claim fails: which link, the two values, and the diagnostic that says so, with a
//! hint when the author probably confused nim arithmetic with ordinary arithmetic.

use super::Checker;
use crate::claim::ast::{BinOp, Claim, Expr, ExprKind, OutcomeClass, Rel};
use crate::claim::builtins;
use crate::claim::eval::{eval, Scope};
use crate::claim::value::{compare, Value};
use crate::claim::{ClaimError, Limits};
use crate::diag::{Code, Diagnostic};

/// A failed link: which one, and the two values.
pub(super) struct Failure {
    link: usize,
    lhs: Value,
    rhs: Value,
}

impl Checker {
    /// The diagnostic for a claim whose link `f.link` does not hold.
    pub(super) fn claim_failure(&self, claim: &Claim, f: &Failure) -> Diagnostic {
        match claim {
            Claim::Is { expr, class, .. } => {
                let want = match class {
                    OutcomeClass::P => "P",
                    OutcomeClass::N => "N",
                    OutcomeClass::D => "D",
                };
                Diagnostic::error(Code::FalseClaim, "claim does not hold")
                    .at(&self.file, expr.span.start..expr.span.end)
                    .label(format!("this position is {}, not {want}", f.lhs))
                    .note(format!(
                        "{expr} is {} {}-position",
                        if f.lhs.to_string() == "N" { "an" } else { "a" },
                        f.lhs
                    ))
            }
            Claim::Chain(chain) => {
                let link = &chain.links[f.link];
                let lhs_expr = if f.link == 0 {
                    &chain.first
                } else {
                    &chain.links[f.link - 1].rhs
                };
                let span = lhs_expr.span.start..link.rhs.span.end;
                let rel = link.rel.symbol();
                let mut d = Diagnostic::error(Code::FalseClaim, "claim does not hold")
                    .at(&self.file, span)
                    .label(match link.rel {
                        Rel::Eq => format!("{lhs_expr} is {}, not {}", f.lhs, f.rhs),
                        _ => format!("{} {rel} {} is false", f.lhs, f.rhs),
                    });
                if chain.links.len() > 1 {
                    d = d.note(format!(
                        "link {} of {} in this chain fails",
                        f.link + 1,
                        chain.links.len()
                    ));
                }
                d = d.note(format!("left side `{lhs_expr}` evaluates to {}", f.lhs));
                d = d.note(format!("right side `{}` evaluates to {}", link.rhs, f.rhs));
                if link.rel == Rel::Eq {
                    for h in near_miss(lhs_expr, &f.lhs, &f.rhs)
                        .into_iter()
                        .chain(near_miss(&link.rhs, &f.rhs, &f.lhs))
                    {
                        d = d.help(h);
                    }
                }
                d
            }
        }
    }
}

/// Evaluates a claim: `Ok(None)` when it holds, `Ok(Some(failure))` when a link fails.
pub(super) fn evaluate_claim(
    claim: &Claim,
    scope: &Scope<'_>,
    limits: &Limits,
) -> Result<Option<Failure>, ClaimError> {
    match claim {
        Claim::Chain(chain) => {
            let mut lhs = eval(&chain.first, scope, limits)?;
            let mut lhs_span = chain.first.span.clone();
            for (i, link) in chain.links.iter().enumerate() {
                let rhs = eval(&link.rhs, scope, limits)?;
                let ok = match link.rel {
                    Rel::Eq => lhs == rhs,
                    Rel::Ne => lhs != rhs,
                    rel => {
                        let Some(ord) = compare(&lhs, &rhs) else {
                            return Err(ClaimError::new(
                                lhs_span.start..link.rhs.span.end,
                                format!("`{}` cannot compare {lhs} and {rhs}", rel.symbol()),
                            ));
                        };
                        match rel {
                            Rel::Lt => ord.is_lt(),
                            Rel::Le => ord.is_le(),
                            Rel::Gt => ord.is_gt(),
                            _ => ord.is_ge(),
                        }
                    }
                };
                if !ok {
                    return Ok(Some(Failure { link: i, lhs, rhs }));
                }
                lhs = rhs;
                lhs_span = link.rhs.span.clone();
            }
            Ok(None)
        }
        Claim::Is { expr, class, .. } => {
            let mut v = eval(expr, scope, limits)?;
            if let Value::Game(g) = &v {
                v = builtins::outcome(g, &limits.game)
                    .map_err(|e| builtins::game_error(&expr.span, e))?;
            }
            let actual = match v {
                Value::Outcome(c) => c,
                other => {
                    return Err(ClaimError::new(
                        expr.span.clone(),
                        format!("`is P` and `is N` need a game position, found `{other}`"),
                    ))
                }
            };
            if actual == *class {
                Ok(None)
            } else {
                Ok(Some(Failure {
                    link: 0,
                    lhs: Value::Outcome(actual),
                    rhs: Value::Outcome(*class),
                }))
            }
        }
    }
}

/// A hint when a side is a single nim operation on numbers whose ordinary result is what the
/// author wrote on the other side, or when the author probably confused the two arithmetics.
fn near_miss(side: &Expr, value: &Value, other: &Value) -> Option<String> {
    let ExprKind::Bin { op, lhs, rhs } = &side.kind else {
        return None;
    };
    let (ExprKind::Num(a), ExprKind::Num(b)) = (&lhs.kind, &rhs.kind) else {
        return None;
    };
    let (x, y) = (a.to_biguint(), b.to_biguint());
    let (what, ordinary, sym) = match op {
        BinOp::NimAdd => ("nim-sum", Some(&x + &y), "+"),
        BinOp::NimMul => ("nim-product", Some(&x * &y), "·"),
        BinOp::NimDiv => ("nim-quotient", None, "/"),
        BinOp::NimPow => ("nim-power", None, "^"),
        _ => return None,
    };
    let mut h = format!("as a {what}, {side} is {value}");
    if let (Some(o), Value::Num(w)) = (ordinary, other) {
        if o == w.to_biguint() {
            h.push_str(&format!(
                "; {w} is the ordinary {} {a} {sym} {b}",
                if *op == BinOp::NimAdd {
                    "sum"
                } else {
                    "product"
                }
            ));
        }
    }
    Some(h)
}
