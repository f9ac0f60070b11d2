//! The evaluator: computes the value of an expression.
//!
//! Values are nimbers (every natural number is one), outcome classes, lists and strings. The
//! nim operators act in the field of nimbers; inside `int(…)` the same symbols are ordinary
//! integer arithmetic. Every operation checks the size budget before it computes, so a claim
//! such as `int(2^(10^9))` is refused at once rather than filling the memory.

use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::Zero;

use super::ast::{BinOp, Expr, ExprKind};
use super::builtins::{self, nearest, Call};
use super::value::{as_ordinal, number, over_budget, to_nimber, Value};
use super::{ClaimError, Limits};
use crate::diag::{Code, Span};
use crate::game::Game;
use crate::nim::ordinal;
use crate::nim::Nimber;

/// The names visible to an expression: `let` bindings of the lesson, then quantified variables.
pub(crate) struct Scope<'a> {
    /// Bindings made by `let`, in force for the rest of the lesson.
    pub lets: &'a HashMap<String, Value>,
    /// Variables bound by a quantifier, innermost last.
    pub locals: &'a [(&'a str, Value)],
}

impl Scope<'_> {
    fn get(&self, name: &str) -> Option<&Value> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
            .or_else(|| self.lets.get(name))
    }

    fn names(&self) -> impl Iterator<Item = &str> {
        self.locals
            .iter()
            .map(|(n, _)| *n)
            .chain(self.lets.keys().map(String::as_str))
    }
}

/// Evaluates `e` in `scope`.
pub(crate) fn eval(e: &Expr, scope: &Scope<'_>, limits: &Limits) -> Result<Value, ClaimError> {
    match &e.kind {
        ExprKind::Num(n) => Ok(Value::Num(n.clone())),
        ExprKind::Str(s) => Ok(Value::Str(s.clone())),
        ExprKind::Bool(b) => Ok(Value::Bool(*b)),
        ExprKind::Var(name) => scope.get(name).cloned().ok_or_else(|| {
            let mut err = ClaimError::new(e.span.clone(), format!("unknown name `{name}`"))
                .code(Code::UnknownName);
            if let Some(best) = nearest(name, scope.names()) {
                err = err.help(format!("a name with a similar spelling is `{best}`"));
            } else {
                err = err.help("bind it first with `let` in an earlier claim of this lesson");
            }
            err
        }),
        ExprKind::List(items) => items
            .iter()
            .map(|i| eval(i, scope, limits))
            .collect::<Result<_, _>>()
            .map(Value::List),
        ExprKind::Paren(inner) | ExprKind::Int(inner) => eval(inner, scope, limits),
        ExprKind::Bin { op, lhs, rhs } => {
            let a = eval(lhs, scope, limits)?;
            let b = eval(rhs, scope, limits)?;
            if let (BinOp::NimAdd, Value::Game(g), Value::Game(h)) = (op, &a, &b) {
                // The disjunctive sum: a move is made in exactly one of the games. Sums are
                // kept flat, so `a + b + c` is the same value as the engine's three-part sums.
                let mut parts = Vec::new();
                for x in [g, h] {
                    match x {
                        Game::Sum(inner) => parts.extend(inner.iter().cloned()),
                        other => parts.push(other.clone()),
                    }
                }
                return Game::sum(parts)
                    .map(Value::Game)
                    .map_err(|err| ClaimError::new(e.span.clone(), err.to_string()));
            }
            if matches!(a, Value::Ordinal(_)) || matches!(b, Value::Ordinal(_)) {
                return ordinal_binary(*op, &a, &b, e, &lhs.span, &rhs.span);
            }
            let a = number(&a, &lhs.span)?;
            let b = number(&b, &rhs.span)?;
            binary(*op, a, b, e.span.clone(), &rhs.span, limits).map(Value::Num)
        }
        ExprKind::Call {
            name,
            name_span,
            args,
        } => {
            let values = args
                .iter()
                .map(|a| eval(a, scope, limits))
                .collect::<Result<Vec<_>, _>>()?;
            let function = builtins::function(name)
                .ok_or_else(|| builtins::unknown_function(name, name_span))?;
            function.call(&Call {
                name,
                args: &values,
                exprs: args,
                span: &e.span,
                limits,
            })
        }
    }
}

/// Nim arithmetic where one side is an infinite ordinal.
fn ordinal_binary(
    op: BinOp,
    a: &Value,
    b: &Value,
    e: &Expr,
    lhs_span: &Span,
    rhs_span: &Span,
) -> Result<Value, ClaimError> {
    let err = |x: ordinal::OrdinalError| ClaimError::new(e.span.clone(), x.to_string());
    let x = as_ordinal(a, lhs_span)?;
    let r = match op {
        BinOp::NimAdd => Ok(x.nim_add(&as_ordinal(b, rhs_span)?)),
        BinOp::NimMul => x.nim_mul(&as_ordinal(b, rhs_span)?).map_err(err),
        BinOp::NimDiv => x.nim_div(&as_ordinal(b, rhs_span)?).map_err(err),
        BinOp::NimPow => {
            let n = number(b, rhs_span)?;
            x.pow_big(&n.to_biguint()).map_err(err)
        }
        _ => Err(ClaimError::new(
            e.span.clone(),
            format!(
                "`{}` is ordinary integer arithmetic, which is not defined here for ordinals",
                op.symbol()
            ),
        )),
    }?;
    Ok(Value::from_ordinal(r))
}

fn binary(
    op: BinOp,
    a: &Nimber,
    b: &Nimber,
    span: Span,
    rhs_span: &Span,
    limits: &Limits,
) -> Result<Nimber, ClaimError> {
    let nim_err = |e: crate::nim::NimError| ClaimError::new(span.clone(), e.to_string());
    // Fast paths for small operands: quantified claims evaluate these millions of times.
    if let (Some(x), Some(y)) = (a.to_u64(), b.to_u64()) {
        let (x, y) = (u128::from(x), u128::from(y));
        let small = match op {
            BinOp::Add => Some(x + y),
            BinOp::Sub => x.checked_sub(y),
            BinOp::Mul => Some(x * y),
            BinOp::Div => x.checked_div(y),
            BinOp::Mod => x.checked_rem(y),
            BinOp::NimPow => return Ok(a.pow_u64(y as u64)),
            _ => None,
        };
        if let Some(v) = small {
            return Ok(Nimber::from_u128(v));
        }
    }
    match op {
        BinOp::NimAdd => Ok(a.nim_add(b)),
        BinOp::NimMul => Ok(a.nim_mul(b)),
        BinOp::NimDiv => {
            if b.is_zero() {
                return Err(ClaimError::new(span, format!("division by zero: {a} ⊘ 0"))
                    .note("0 has no nim-inverse"));
            }
            a.nim_div(b).map_err(nim_err)
        }
        BinOp::NimPow => Ok(a.pow(&b.to_biguint())),
        BinOp::Add => to_nimber(a.to_biguint() + b.to_biguint(), &span, limits),
        BinOp::Sub => {
            let (x, y) = (a.to_biguint(), b.to_biguint());
            if x < y {
                return Err(ClaimError::new(
                    span,
                    format!("{a} − {b} is negative; values are natural numbers"),
                ));
            }
            to_nimber(x - y, &span, limits)
        }
        BinOp::Mul => {
            let bits = a.bit_len() + b.bit_len();
            // Saturating: a budget may be as large as `u64::MAX` (a library caller's limits).
            if bits > limits.max_bits.saturating_add(1) {
                return Err(over_budget(bits, &span, limits));
            }
            to_nimber(a.to_biguint() * b.to_biguint(), &span, limits)
        }
        BinOp::Div | BinOp::Mod => {
            if b.is_zero() {
                return Err(ClaimError::new(
                    rhs_span.clone(),
                    format!("division by zero in `{a} {} 0`", op.symbol()),
                ));
            }
            let (x, y) = (a.to_biguint(), b.to_biguint());
            let r = if op == BinOp::Div { x / y } else { x % y };
            to_nimber(r, &span, limits)
        }
        BinOp::Pow => {
            let x = a.to_biguint();
            if x.is_zero() || x == BigUint::from(1u32) {
                return Ok(if b.is_zero() {
                    Nimber::from_u64(1)
                } else {
                    a.clone()
                });
            }
            let bits = b
                .to_u64()
                .and_then(|e| e.checked_mul(x.bits().saturating_sub(1).max(1)))
                .unwrap_or(u64::MAX);
            if bits > limits.max_bits {
                return Err(over_budget(bits, &span, limits));
            }
            let e = b.to_u64().and_then(|e| u32::try_from(e).ok()).unwrap_or(0);
            to_nimber(x.pow(e), &span, limits)
        }
    }
}
