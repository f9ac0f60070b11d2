//! Values of the claim language and the conversions every part of it shares: a value as a
//! number, a count or an ordinal, with an error at the place the value was written when it is
//! of the wrong kind, and a computed integer as a nimber within the `max-bits` budget.

use std::fmt;

use num_bigint::BigUint;

use super::ast::OutcomeClass;
use super::{ClaimError, Limits};
use crate::diag::Span;
use crate::game::Game;
use crate::nim::ordinal::Ordinal;
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
            Value::List(items) => super::ast::write_list(f, "[", items, "]"),
            Value::Str(s) => write!(f, "\"{s}\""),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Poly(p) => write!(f, "{p}"),
            Value::Game(g) => write!(f, "{g}"),
            Value::Ordinal(o) => write!(f, "{o}"),
        }
    }
}

impl Value {
    /// What kind of value this is, with its article, for messages: `a number`.
    pub(crate) fn kind(&self) -> &'static str {
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

    /// The text of a string value (the site's directives read their arguments with these three).
    #[cfg(feature = "site")]
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The items of a list value.
    #[cfg(feature = "site")]
    pub(crate) fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(items) => Some(items),
            _ => None,
        }
    }

    /// The game of a game value.
    #[cfg(feature = "site")]
    pub(crate) fn as_game(&self) -> Option<&Game> {
        match self {
            Value::Game(g) => Some(g),
            _ => None,
        }
    }
}

/// An operand of ordinal arithmetic: an ordinal, or a finite nimber below 2^64.
pub(crate) fn as_ordinal(v: &Value, span: &Span) -> Result<Ordinal, ClaimError> {
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

/// The number `v`, or an error at `span` naming what it is instead.
pub(crate) fn number<'v>(v: &'v Value, span: &Span) -> Result<&'v Nimber, ClaimError> {
    match v {
        Value::Num(n) => Ok(n),
        other => Err(ClaimError::new(
            span.clone(),
            format!("expected a number, found {} `{other}`", other.kind()),
        )),
    }
}

/// An integer result as a nimber, or a budget error at `span` if it has more than `max-bits`
/// bits.
pub(crate) fn to_nimber(v: BigUint, span: &Span, limits: &Limits) -> Result<Nimber, ClaimError> {
    if v.bits() > limits.max_bits {
        return Err(over_budget(v.bits(), span, limits));
    }
    Nimber::from_biguint(&v).map_err(|e| ClaimError::new(span.clone(), e.to_string()))
}

/// The error for a result of about `bits` bits, over the `max-bits` budget.
pub(crate) fn over_budget(bits: u64, span: &Span, limits: &Limits) -> ClaimError {
    ClaimError::budget(
        span.clone(),
        format!(
            "result would have about {bits} bits; the budget is {} bits ([nimbook] max-bits)",
            limits.max_bits
        ),
    )
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
