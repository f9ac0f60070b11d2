//! The evaluator: computes the value of an expression.
//!
//! Values are nimbers (every natural number is one), outcome classes, lists and strings. The
//! nim operators act in the field of nimbers; inside `int(…)` the same symbols are ordinary
//! integer arithmetic. Every operation checks the size budget before it computes, so a claim
//! such as `int(2^(10^9))` is refused at once rather than filling the memory.

use std::collections::HashMap;
use std::fmt;

use num_bigint::BigUint;
use num_traits::Zero;

use super::ast::{BinOp, Expr, ExprKind, OutcomeClass};
use super::{ClaimError, Limits};
use crate::diag::{Code, Span};
use crate::game::Game;
use crate::nim::ordinal::{self, Ordinal};
use crate::nim::{Nimber, Poly2};

/// A computed value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A nimber, which is also a natural number.
    Num(Nimber),
    /// The outcome class of a position, `P` or `N`.
    Outcome(OutcomeClass),
    /// A list of values.
    List(Vec<Value>),
    /// A string.
    Str(String),
    /// `true` or `false`, from a predicate such as `is_primitive`.
    Bool(bool),
    /// A polynomial over GF(2), such as a minimal polynomial.
    Poly(Poly2),
    /// A position of an impartial game.
    Game(Game),
    /// An infinite ordinal below ω^(ω^ω) (finite ones are kept as [`Value::Num`]).
    Ordinal(Ordinal),
}

impl Value {
    /// An ordinal as a value: finite ordinals become plain numbers, so that `ord("w")^3 = 2`
    /// compares a number with a number.
    pub fn from_ordinal(o: Ordinal) -> Value {
        match o.to_nimber() {
            Some(n) => Value::Num(n),
            None => Value::Ordinal(o),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Num(n) => write!(f, "{n}"),
            Value::Outcome(OutcomeClass::P) => write!(f, "P"),
            Value::Outcome(OutcomeClass::N) => write!(f, "N"),
            Value::Outcome(OutcomeClass::D) => write!(f, "D"),
            Value::List(items) => {
                write!(f, "[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{v}")?;
                }
                write!(f, "]")
            }
            Value::Str(s) => write!(f, "\"{s}\""),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Poly(p) => write!(f, "{p}"),
            Value::Game(g) => write!(f, "{g}"),
            Value::Ordinal(o) => write!(f, "{o}"),
        }
    }
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Num(_) => "a number",
            Value::Outcome(_) => "an outcome",
            Value::List(_) => "a list",
            Value::Str(_) => "a string",
            Value::Bool(_) => "a truth value",
            Value::Poly(_) => "a polynomial",
            Value::Game(_) => "a game",
            Value::Ordinal(_) => "an ordinal",
        }
    }
}

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

/// Every function the language knows, with a one-line description, for suggestions and docs.
pub(crate) const FUNCTIONS: &[(&str, &str)] = &[
    ("inv", "inv(a): the nim-inverse of a"),
    (
        "sqrt",
        "sqrt(a): the nim-square root of a (every nimber has exactly one)",
    ),
    ("square", "square(a): a ⊗ a"),
    ("order", "order(a): the multiplicative order of a"),
    ("log", "log(a, b): the least x with a^x = b"),
    (
        "field",
        "field(a): the k of the smallest field GF(2^(2^k)) holding a",
    ),
    (
        "minpoly",
        "minpoly(a): the minimal polynomial of a over GF(2)",
    ),
    (
        "conjugates",
        "conjugates(a): a, a^2, a^4, … without repeats",
    ),
    (
        "is_primitive",
        "is_primitive(a): whether a generates the multiplicative group of its field",
    ),
    (
        "roots",
        "roots(c): the roots of x² + x = c; roots(a, b, c): the roots of a·x² + b·x + c = 0",
    ),
    ("poly", "poly(\"x^3 + x + 1\"): a polynomial over GF(2)"),
    (
        "ord",
        "ord(\"w^w + 1\"): an ordinal below ω^(ω^ω) in Cantor normal form, with w or ω",
    ),
    (
        "alpha",
        "alpha(p): (ω^(ω^n))^p for the (n+1)-th odd prime p, as a smaller ordinal",
    ),
    (
        "excess",
        "excess(p): Lenstra's excess of the odd prime p (from the published table)",
    ),
    (
        "mex",
        "mex([a, b, …]): the least natural number not in the list",
    ),
    ("fermat", "fermat(k): the Fermat 2-power 2^(2^k)"),
    (
        "isqrt",
        "isqrt(n): the integer square root ⌊√n⌋ of the ordinary integer n",
    ),
    (
        "popcount",
        "popcount(n): the number of ones in n written in binary",
    ),
];

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
            call(name, name_span, &values, args, &e.span, limits)
        }
    }
}

/// An operand of ordinal arithmetic: an ordinal, or a finite nimber below 2^64.
fn as_ordinal(v: &Value, span: &Span) -> Result<Ordinal, ClaimError> {
    match v {
        Value::Ordinal(o) => Ok(o.clone()),
        Value::Num(n) => {
            Ordinal::from_nimber(n).map_err(|e| ClaimError::new(span.clone(), e.to_string()))
        }
        other => Err(ClaimError::new(
            span.clone(),
            format!(
                "expected an ordinal or a number, found {} `{other}`",
                other.kind()
            ),
        )),
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

fn number<'v>(v: &'v Value, span: &Span) -> Result<&'v Nimber, ClaimError> {
    match v {
        Value::Num(n) => Ok(n),
        other => Err(ClaimError::new(
            span.clone(),
            format!("expected a number, found {} `{other}`", other.kind()),
        )),
    }
}

fn to_nimber(v: BigUint, span: &Span, limits: &Limits) -> Result<Nimber, ClaimError> {
    if v.bits() > limits.max_bits {
        return Err(over_budget(v.bits(), span, limits));
    }
    Nimber::from_biguint(&v).map_err(|e| ClaimError::new(span.clone(), e.to_string()))
}

fn over_budget(bits: u64, span: &Span, limits: &Limits) -> ClaimError {
    ClaimError::budget(
        span.clone(),
        format!(
            "result would have about {bits} bits; the budget is {} bits ([nimbook] max-bits)",
            limits.max_bits
        ),
    )
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
            if bits > limits.max_bits + 1 {
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

fn arity(name: &str, span: &Span, args: &[Value], n: usize) -> Result<(), ClaimError> {
    if args.len() == n {
        Ok(())
    } else {
        Err(ClaimError::new(
            span.clone(),
            format!(
                "`{name}` takes {n} argument{}, but {} {} given",
                if n == 1 { "" } else { "s" },
                args.len(),
                if args.len() == 1 { "was" } else { "were" }
            ),
        ))
    }
}

fn call(
    name: &str,
    name_span: &Span,
    args: &[Value],
    arg_exprs: &[Expr],
    span: &Span,
    limits: &Limits,
) -> Result<Value, ClaimError> {
    let arg_span = |i: usize| arg_exprs.get(i).map_or(span.clone(), |a| a.span.clone());
    match name {
        "inv" if matches!(args.first(), Some(Value::Ordinal(_))) => {
            arity(name, span, args, 1)?;
            let o = as_ordinal(&args[0], &arg_span(0))?;
            o.inv()
                .map(Value::from_ordinal)
                .map_err(|e| ClaimError::new(span.clone(), e.to_string()))
        }
        "ord" => {
            arity(name, span, args, 1)?;
            let Value::Str(text) = &args[0] else {
                return Err(ClaimError::new(
                    arg_span(0),
                    "ord takes a string, such as ord(\"w^w + 1\")",
                ));
            };
            ordinal::parse(text)
                .map(Value::from_ordinal)
                .map_err(|e| ClaimError::new(arg_span(0), e.to_string()))
        }
        "alpha" | "excess" => {
            arity(name, span, args, 1)?;
            let p = as_count(&args[0], &arg_span(0))?;
            let err = |e: ordinal::OrdinalError| ClaimError::new(span.clone(), e.to_string());
            if name == "alpha" {
                ordinal::alpha(p).map(Value::from_ordinal).map_err(err)
            } else {
                ordinal::lenstra_excess(p)
                    .map(|m| Value::Num(Nimber::from_u64(m)))
                    .map_err(err)
            }
        }
        "inv" => {
            arity(name, span, args, 1)?;
            let a = number(&args[0], &arg_span(0))?;
            if a.is_zero() {
                return Err(ClaimError::new(
                    span.clone(),
                    "inv(0): 0 has no nim-inverse",
                ));
            }
            a.inv()
                .map(Value::Num)
                .map_err(|e| ClaimError::new(span.clone(), e.to_string()))
        }
        "sqrt" | "square" | "order" | "field" | "minpoly" | "conjugates" | "is_primitive" => {
            arity(name, span, args, 1)?;
            let a = number(&args[0], &arg_span(0))?;
            let err = |e: crate::nim::NimError| {
                ClaimError::new(span.clone(), format!("{name}({a}): {e}"))
            };
            Ok(match name {
                "sqrt" => Value::Num(a.sqrt()),
                "square" => Value::Num(a.square()),
                "order" => Value::Num(to_nimber(a.order().map_err(err)?, span, limits)?),
                "field" => Value::Num(Nimber::from_u64(u64::from(a.field_level()))),
                "minpoly" => Value::Poly(a.minpoly()),
                "conjugates" => Value::List(a.conjugates().into_iter().map(Value::Num).collect()),
                _ => Value::Bool(a.is_primitive().map_err(err)?),
            })
        }
        "log" => {
            arity(name, span, args, 2)?;
            let a = number(&args[0], &arg_span(0))?;
            let b = number(&args[1], &arg_span(1))?;
            let x = a
                .log(b)
                .map_err(|e| ClaimError::new(span.clone(), format!("log({a}, {b}): {e}")))?;
            Ok(Value::Num(to_nimber(x, span, limits)?))
        }
        "roots" => {
            let nums = args
                .iter()
                .enumerate()
                .map(|(i, v)| number(v, &arg_span(i)).cloned())
                .collect::<Result<Vec<_>, _>>()?;
            let roots = match nums.as_slice() {
                [c] => Nimber::solve_x2_plus_x(c),
                [a, b, c] => Nimber::solve_quadratic(a, b, c)
                    .map_err(|e| ClaimError::new(span.clone(), e.to_string()))?,
                _ => {
                    return Err(ClaimError::new(
                        span.clone(),
                        format!(
                            "`roots` takes 1 or 3 arguments, but {} were given",
                            args.len()
                        ),
                    ))
                }
            };
            Ok(Value::List(roots.into_iter().map(Value::Num).collect()))
        }
        "poly" => {
            arity(name, span, args, 1)?;
            let Value::Str(text) = &args[0] else {
                return Err(ClaimError::new(
                    arg_span(0),
                    "poly takes a string, such as poly(\"x^3 + x + 1\")",
                ));
            };
            parse_poly(text, limits)
                .map(Value::Poly)
                .map_err(|m| ClaimError::new(arg_span(0), m))
        }
        "mex" => {
            arity(name, span, args, 1)?;
            let Value::List(items) = &args[0] else {
                return Err(ClaimError::new(
                    arg_span(0),
                    "mex takes a list, such as mex([0, 1, 3])",
                ));
            };
            let mut seen: Vec<u64> = Vec::new();
            for (i, v) in items.iter().enumerate() {
                let n = number(v, &arg_span(0))?;
                if let Some(x) = n.to_u64() {
                    if x <= items.len() as u64 {
                        seen.push(x);
                    }
                } else if i > limits.max_nodes {
                    break;
                }
            }
            seen.sort_unstable();
            seen.dedup();
            let mex = seen
                .iter()
                .enumerate()
                .find(|&(i, &x)| i as u64 != x)
                .map_or(seen.len() as u64, |(i, _)| i as u64);
            Ok(Value::Num(Nimber::from_u64(mex)))
        }
        "isqrt" | "popcount" => {
            arity(name, span, args, 1)?;
            let n = number(&args[0], &arg_span(0))?.to_biguint();
            let v = if name == "isqrt" {
                num_integer::Roots::sqrt(&n)
            } else {
                BigUint::from(n.count_ones())
            };
            to_nimber(v, span, limits).map(Value::Num)
        }
        "fermat" => {
            arity(name, span, args, 1)?;
            let k = number(&args[0], &arg_span(0))?;
            let k = k
                .to_u64()
                .filter(|&k| k < 64 && (1u64 << k) < limits.max_bits);
            let Some(k) = k else {
                return Err(ClaimError::budget(
                    arg_span(0),
                    format!(
                        "fermat(k) is 2^(2^k); the budget allows 2^k below {} bits",
                        limits.max_bits
                    ),
                ));
            };
            to_nimber(BigUint::from(1u32) << (1u64 << k), span, limits).map(Value::Num)
        }
        _ => {
            let spans: Vec<Span> = arg_exprs.iter().map(|a| a.span.clone()).collect();
            if let Some(r) = super::games::call(name, args, &spans, span, limits) {
                return r;
            }
            let mut err = ClaimError::new(name_span.clone(), format!("unknown function `{name}`"))
                .code(Code::UnknownFunction);
            let known = FUNCTIONS
                .iter()
                .chain(super::games::GAME_FUNCTIONS)
                .map(|(n, _)| *n);
            if let Some(best) = nearest(name, known) {
                err = err.help(format!("a function with a similar name exists: `{best}`"));
            }
            Err(err)
        }
    }
}

/// Reads a polynomial over GF(2) such as `x^3 + x + 1`: terms `1`, `x` and `x^k` joined by `+`;
/// a term written twice cancels, as it should in characteristic 2.
pub(crate) fn parse_poly(text: &str, limits: &Limits) -> Result<Poly2, String> {
    let mut coeffs: Vec<bool> = Vec::new();
    for term in text.split('+') {
        let t: String = term.chars().filter(|c| !c.is_whitespace()).collect();
        let power = match t.as_str() {
            "0" => continue,
            "1" => 0,
            "x" => 1,
            _ => t
                .strip_prefix("x^")
                .and_then(|k| k.parse::<usize>().ok())
                .filter(|&k| (k as u64) <= limits.max_bits)
                .ok_or_else(|| format!("`{}` is not a term such as 1, x or x^3", term.trim()))?,
        };
        if coeffs.len() <= power {
            coeffs.resize(power + 1, false);
        }
        coeffs[power] = !coeffs[power];
    }
    Ok(Poly2::from_coeffs(coeffs))
}

/// The closest name by edit distance, if one is close enough to be a likely typo.
pub(crate) fn nearest<'n>(
    name: &str,
    candidates: impl Iterator<Item = &'n str>,
) -> Option<&'n str> {
    candidates
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|&(d, c)| d <= 1.max(c.len() / 3) && d < name.len().max(c.len()))
        .min_by_key(|&(d, c)| (d, c))
        .map(|(_, c)| c)
}

/// Converts a value to a count, such as a heap size or a board side.
pub(crate) fn as_count(v: &Value, span: &Span) -> Result<u64, ClaimError> {
    let n = number(v, span)?;
    n.to_u64().ok_or_else(|| {
        ClaimError::new(
            span.clone(),
            format!("{n} is too large here: at most {}", u64::MAX),
        )
    })
}

/// Orders two values for `<` and its kin: numbers by their ordinary integer order.
pub(crate) fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => Some(x.cmp(y)),
        (Value::Ordinal(_), Value::Num(_) | Value::Ordinal(_))
        | (Value::Num(_), Value::Ordinal(_)) => {
            let span = 0..0;
            Some(as_ordinal(a, &span).ok()?.cmp(&as_ordinal(b, &span).ok()?))
        }
        _ => None,
    }
}
