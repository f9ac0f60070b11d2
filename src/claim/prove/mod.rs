//! Proofs of quantified claims that are too large, or infinite, to check case by case.
//!
//! A `forall` claim is established in one of three ways, and the page says which:
//!
//! 1. **checked**: every case is evaluated, when the ranges are bounded and hold at most
//!    `[nimbook] max-cases` cases (the checker does this itself, before asking for a proof);
//! 2. **proved (polynomial identity)**: both sides are polynomials in the variables and are
//!    equal as polynomials, over all nimbers or reduced in `GF(2^(2^k))` (`identity`);
//! 3. **proved (period p from n₀)**: the claim is about one natural number whose every
//!    occurrence is eventually periodic, or arithmetic-periodic with both sides of every
//!    comparison growing alike (**proved (arithmetic period p, saltus s, from n₀)**), so a
//!    finite window decides it (`periodic`, `pattern`).
//!
//! When no method applies the claim is an error that says why each one fails and suggests a
//! bound: a claim is never called true because some of its cases were sampled.

mod identity;
mod pattern;
mod periodic;
mod poly;

use std::fmt;

/// A criterion a proof applies, stated once, beside the code that checks it, for the lessons
/// to show (`criterion(name)`): the page cannot state one thing while the prover checks
/// another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Criterion {
    /// The name a lesson asks for it by: `guy-smith`.
    pub name: &'static str,
    /// Its title: `The Guy–Smith criterion`.
    pub title: &'static str,
    /// The statement: paragraphs apart by a blank line, numbered conditions (`1. …`) one a
    /// paragraph, inline math between dollar signs.
    pub statement: &'static str,
}

/// Every criterion the provers apply.
pub const CRITERIA: &[Criterion] = &[
    Criterion {
        name: "guy-smith",
        title: "The Guy–Smith criterion",
        statement: crate::game::GUY_SMITH,
    },
    Criterion {
        name: "shift-residue",
        title: "The shift–residue criterion",
        statement: crate::game::SHIFT_RESIDUE,
    },
    Criterion {
        name: "polynomial-identity",
        title: "The polynomial-identity method",
        statement: identity::POLYNOMIAL_IDENTITY,
    },
];

use num_bigint::BigUint;

use super::ast::{Binder, Claim, Expr, ExprKind};
use super::eval::Scope;
use super::{ClaimError, Limits};
use crate::diag::Span;
use crate::nim::Nimber;

/// How a quantified claim was established, with the theorems a proof rests on. The cache of
/// decided results (`site::lesson::memo`) writes it as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "site",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case", deny_unknown_fields)
)]
#[non_exhaustive]
pub enum Established {
    /// Every one of `cases` cases was evaluated.
    Checked {
        /// How many.
        cases: u64,
    },
    /// The two sides of every `=` are the same polynomial. Expanding and collecting uses the
    /// laws of a commutative ring of characteristic 2, so the proof rests on the theorem that
    /// the nimbers form a field (Conway's), which the page names.
    Polynomial,
    /// The claim repeats with `period` from `from` on, and every case up to `from + period`
    /// was evaluated.
    Periodic {
        /// The period.
        period: u64,
        /// Where the repetition starts (at least the quantifier's own start).
        from: u64,
        /// What the compared sides add every period (0 when they repeat): the claim is then
        /// *arithmetic-periodic*, and its truth still repeats since both sides grow alike.
        saltus: u64,
        /// Whether the period of an octal or hexadecimal game was used, which the engine proves
        /// by the Guy–Smith periodicity theorem (a theorem the page names as the proof's premise).
        guy_smith: bool,
        /// Whether the arithmetic period of Lasker's Nim was used, which the engine proves by
        /// the shift–residue criterion ([`crate::game::lasker_period`]).
        shift_residue: bool,
    },
}

impl fmt::Display for Established {
    /// `checked (65 536 cases)`, `proved (polynomial identity; nimbers form a field)`,
    /// `proved (period 12 from 71; Guy–Smith)`, `proved (arithmetic period 4, saltus 4, from 1;
    /// shift–residue criterion)`: a proof names the theorem it rests on.
    /// Thousands are grouped with no-break spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Established::Checked { cases: 1 } => write!(f, "checked (1 case)"),
            Established::Checked { cases } => write!(f, "checked ({} cases)", grouped(*cases)),
            Established::Polynomial => {
                write!(f, "proved (polynomial identity; nimbers form a field)")
            }
            Established::Periodic {
                period,
                from,
                saltus,
                guy_smith,
                shift_residue,
            } => {
                if *saltus == 0 {
                    write!(
                        f,
                        "proved (period {} from {}",
                        grouped(*period),
                        grouped(*from)
                    )?;
                } else {
                    write!(
                        f,
                        "proved (arithmetic period {}, saltus {}, from {}",
                        grouped(*period),
                        grouped(*saltus),
                        grouped(*from)
                    )?;
                }
                if *guy_smith {
                    f.write_str("; Guy–Smith")?;
                }
                if *shift_residue {
                    f.write_str("; shift–residue criterion")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// `65536` as `65 536` (with U+00A0 between the groups).
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{a0}');
        }
        out.push(c);
    }
    out
}

/// The values one variable ranges over, with its bound evaluated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Domain {
    /// `0 ≤ x < n`.
    Below(BigUint),
    /// `x ≥ k`.
    From(BigUint),
    /// Every natural number.
    All,
}

/// The cases a periodic claim must be checked for: `start ≤ n < end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    /// The first case.
    pub(crate) start: u64,
    /// One past the last case.
    pub(crate) end: u64,
    /// The period of the claim's truth.
    pub(crate) period: u64,
    /// Where the repetition starts (at least `start`).
    pub(crate) from: u64,
    /// What the compared sides add every period (0 when they repeat).
    pub(crate) saltus: u64,
    /// Whether an octal or hexadecimal game's period (the Guy–Smith theorem) was used.
    pub(crate) guy_smith: bool,
    /// Whether Lasker's Nim's arithmetic period (the shift–residue criterion) was used.
    pub(crate) shift_residue: bool,
}

/// What the prover found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Plan {
    /// The claim holds for every value.
    Proved(Established),
    /// The claim fails at this point (one value per variable), which the checker confirms with
    /// the evaluator.
    Refuted(Vec<Nimber>),
    /// The claim holds exactly when it holds for the cases of this window.
    Window(Window),
}

/// Why a method does not apply, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    span: Span,
    reason: String,
}

/// How a method stopped without a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The method does not apply to this claim.
    Refused(Refusal),
    /// The method applies but the claim is in error (a budget, a division by zero).
    Error(ClaimError),
}

impl Stop {
    fn refuse(span: Span, reason: impl Into<String>) -> Stop {
        Stop::Refused(Refusal {
            span,
            reason: reason.into(),
        })
    }
}

/// Whether `e` mentions one of `names` as a variable.
pub(crate) fn mentions(e: &Expr, names: &[&str]) -> bool {
    match &e.kind {
        ExprKind::Var(v) => names.contains(&v.as_str()),
        ExprKind::Num(_) | ExprKind::Str(_) | ExprKind::Bool(_) => false,
        ExprKind::List(items) | ExprKind::Call { args: items, .. } => {
            items.iter().any(|i| mentions(i, names))
        }
        ExprKind::Bin { lhs, rhs, .. } => mentions(lhs, names) || mentions(rhs, names),
        ExprKind::Int(inner) | ExprKind::Paren(inner) => mentions(inner, names),
    }
}

/// Finds a way to decide `forall binders: body` over `domains`, or explains (as the error)
/// why none applies, with a suggested bound.
pub(crate) fn plan(
    binders: &[Binder],
    domains: &[Domain],
    body: &Claim,
    scope: &Scope<'_>,
    limits: &Limits,
) -> Result<Plan, ClaimError> {
    let as_identity = match identity::attempt(binders, domains, body, scope, limits) {
        Ok(plan) => return Ok(plan),
        Err(Stop::Error(e)) => return Err(e),
        Err(Stop::Refused(r)) => r,
    };
    let as_sequence = match (binders, domains) {
        ([b], [d]) => match periodic::attempt(&b.name, d, body, scope, limits) {
            Ok(window) => return Ok(Plan::Window(window)),
            Err(Stop::Error(e)) => return Err(e),
            Err(Stop::Refused(r)) => Some(r),
        },
        _ => None,
    };
    let names: Vec<&str> = binders.iter().map(|b| b.name.as_str()).collect();
    let primary = as_sequence.as_ref().unwrap_or(&as_identity);
    let mut e = ClaimError::new(
        primary.span.clone(),
        format!(
            "cannot prove this claim for every value: {}",
            primary.reason
        ),
    )
    .code(crate::diag::Code::CannotProve);
    e = e.note(format!("not a polynomial identity: {}", as_identity.reason));
    match as_sequence {
        Some(r) => e = e.note(format!("not eventually periodic: {}", r.reason)),
        None => {
            e = e.note("the periodic method needs a claim about a single variable `n`");
        }
    }
    let side = [1000u64, 256, 64, 16, 4]
        .into_iter()
        .find(|&b| {
            b.checked_pow(names.len() as u32)
                .is_some_and(|c| c <= limits.max_cases.min(1_000_000))
        })
        .unwrap_or(2);
    Err(e.help(format!(
        "bound the variables to check finitely many cases instead, for example `forall {} < {side}: …`",
        names.join(", ")
    )))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
