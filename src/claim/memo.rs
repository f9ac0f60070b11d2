//! The seam between the checker and a memory of results decided before, such as the site's
//! cache across builds: before it evaluates a statement the [`Checker`](super::Checker) asks
//! [`Recall::recall`] with the statement's [`MemoKey`], and it tells [`Recall::remember`]
//! what it decided. This module knows no file and no format; what a memory keeps, and where,
//! is its own business.
//!
//! A key is sound by construction: it spells out everything the result of a statement depends
//! on, so two statements with the same key have the same result under the same engine.
//!
//! - The statement as parsed, with every span left out: neither where it stands nor how it is
//!   spelled (`6 * 13` or `6 ⊗ 13`, spaces, comments) counts, only the tree.
//! - The value of every name it mentions: the evaluator reads a `let` binding only through a
//!   name in the tree ([`super::eval`]'s `Scope`), so these are all the bindings it can see.
//!   A name bound by a quantifier is looked up too, which costs nothing but a spare line.
//! - The limits it is decided under ([`Limits`], the engines' budget among them), so a result
//!   is never reused under another budget.
//!
//! The engine's own version is the memory's to add (the site's cache keys its whole file by
//! a hash of the engine's sources). Only what was decided without a diagnostic is remembered:
//! a claim that holds, a binding, a value. A failure or an error, a budget that ran out among
//! them, is decided again every time, so its diagnostic is always the one the text asks for.
//!
//! Every part of a key is written with `Debug`, which for the syntax tree and the values is
//! derived: every field in order, strings quoted and escaped, on one line. Two different trees
//! or values therefore never print alike.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use super::ast::{Claim, Expr, ExprKind, Range, Statement};
#[cfg(feature = "site")]
use super::check::Directive;
use super::check::Status;
use super::prove::Established;
use super::value::Value;
use super::Limits;

/// Everything the result of one statement or directive depends on, but the engine's version,
/// spelled out (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct MemoKey(String);

impl MemoKey {
    /// The key of a statement decided with the bindings `lets` under `limits`.
    pub(crate) fn statement(
        stmt: &Statement,
        lets: &HashMap<String, Value>,
        limits: &Limits,
    ) -> MemoKey {
        let mut stmt = stmt.clone();
        stmt.remap(&|_| 0);
        let mut names = BTreeSet::new();
        statement_names(&stmt, &mut names);
        let mut key = format!("statement\n{limits:?}\n{stmt:?}\n");
        write_bindings(&mut key, names.into_iter(), lets);
        MemoKey(key)
    }

    /// The key of a directive under `limits`: its name, its arguments as parsed and their
    /// values. What it reads of the lesson beyond them (the bindings in scope, its place among
    /// the questions) a memory must check on its own: see `site::lesson::memo`.
    #[cfg(feature = "site")]
    pub(crate) fn directive(d: &Directive, limits: &Limits) -> MemoKey {
        let mut exprs = d.exprs.clone();
        for e in &mut exprs {
            e.remap(&|_| 0);
        }
        let values: Vec<&Value> = d.args.iter().map(|(v, _)| v).collect();
        MemoKey(format!(
            "directive\n{limits:?}\n{}\n{exprs:?}\n{values:?}\n",
            d.name
        ))
    }

    /// The key as text.
    #[cfg(feature = "site")]
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// Every binding of `lets`, sorted by name, one a line: what a directive that evaluates in
/// the lesson's scope may have read.
#[cfg(feature = "site")]
pub(crate) fn scope_text(lets: &HashMap<String, Value>) -> String {
    let mut names: Vec<&str> = lets.keys().map(String::as_str).collect();
    names.sort_unstable();
    let mut out = String::new();
    write_bindings(&mut out, names.into_iter(), lets);
    out
}

/// `name = value` (its `Debug`), or `name unbound`, one a line.
fn write_bindings<'a>(
    out: &mut String,
    names: impl Iterator<Item = &'a str>,
    lets: &HashMap<String, Value>,
) {
    for name in names {
        let _ = match lets.get(name) {
            Some(v) => writeln!(out, "{name} = {v:?}"),
            None => writeln!(out, "{name} unbound"),
        };
    }
}

/// Every name a statement mentions.
fn statement_names<'a>(stmt: &'a Statement, out: &mut BTreeSet<&'a str>) {
    match stmt {
        Statement::Claim(claim) => claim_names(claim, out),
        Statement::Let { value, .. } => expr_names(value, out),
        Statement::Expr(e) => expr_names(e, out),
        Statement::Quantified { binders, body, .. } => {
            for b in binders {
                if let Range::Below { bound: e, .. } | Range::From { start: e, .. } = &b.range {
                    expr_names(e, out);
                }
            }
            claim_names(body, out);
        }
    }
}

fn claim_names<'a>(claim: &'a Claim, out: &mut BTreeSet<&'a str>) {
    match claim {
        Claim::Chain(chain) => {
            expr_names(&chain.first, out);
            for link in &chain.links {
                expr_names(&link.rhs, out);
            }
        }
        Claim::Is { expr, .. } => expr_names(expr, out),
    }
}

fn expr_names<'a>(e: &'a Expr, out: &mut BTreeSet<&'a str>) {
    match &e.kind {
        ExprKind::Var(name) => {
            out.insert(name);
        }
        ExprKind::List(items) | ExprKind::Call { args: items, .. } => {
            items.iter().for_each(|i| expr_names(i, out));
        }
        ExprKind::Bin { lhs, rhs, .. } => {
            expr_names(lhs, out);
            expr_names(rhs, out);
        }
        ExprKind::Int(inner) | ExprKind::Paren(inner) => expr_names(inner, out),
        ExprKind::Num(_) | ExprKind::Str(_) | ExprKind::Bool(_) => {}
    }
}

/// What became of a statement: everything its [`Checked`](super::Checked) holds beyond the
/// parsed statement and its text. A memory is told, and recalls, only those decided without a
/// diagnostic ([`Status::Holds`], [`Status::Bound`] or [`Status::Value`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decided {
    /// What became of it.
    pub(crate) status: Status,
    /// The value of a binding or a bare expression.
    pub(crate) value: Option<Value>,
    /// The witness an `exists` found.
    pub(crate) witness: Option<String>,
    /// How a quantified claim was established.
    pub(crate) established: Option<Established>,
}

impl Decided {
    /// A statement with `status` and nothing more to show.
    pub(crate) fn of(status: Status) -> Decided {
        Decided {
            status,
            value: None,
            witness: None,
            established: None,
        }
    }
}

/// A memory of decided statements. The checker calls it from the thread that checks the
/// lesson, and lessons are checked in parallel, hence `Sync`.
pub(crate) trait Recall: Send + Sync {
    /// What was decided before under `key`, if anything.
    fn recall(&self, key: &MemoKey) -> Option<Decided>;
    /// Remembers what was just decided under `key`.
    fn remember(&self, key: &MemoKey, decided: &Decided);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::lexer::lex;
    use crate::claim::parser::parse_statement;
    use crate::nim::Nimber;

    fn key(text: &str, lets: &[(&str, u64)]) -> MemoKey {
        let limits = Limits::default();
        let toks = lex(text, &limits).expect("lexes");
        let stmt = parse_statement(&toks, &limits, true).expect("parses");
        let lets = lets
            .iter()
            .map(|(n, v)| (n.to_string(), Value::Num(Nimber::from_u64(*v))))
            .collect();
        MemoKey::statement(&stmt.stmt, &lets, &limits)
    }

    #[test]
    fn spelling_and_place_do_not_count() {
        assert_eq!(key("6 * 13 = 15", &[]), key("6⊗13   =  15", &[]));
        assert_eq!(
            key("x + 1 = 4", &[("x", 5)]),
            key("  x ⊕ 1 = 4", &[("x", 5)])
        );
    }

    #[test]
    fn the_tree_and_the_names_used_count() {
        assert_ne!(key("6 * 13 = 15", &[]), key("6 * 13 = 14", &[]));
        assert_ne!(key("6 * 13 = 15", &[]), key("13 * 6 = 15", &[]));
        assert_ne!(key("x + 1 = 4", &[("x", 5)]), key("x + 1 = 4", &[("x", 6)]));
        assert_ne!(key("x + 1 = 4", &[("x", 5)]), key("x + 1 = 4", &[]));
        // A binding the statement does not name is not part of its key.
        assert_eq!(
            key("x + 1 = 4", &[("x", 5)]),
            key("x + 1 = 4", &[("x", 5), ("y", 1)])
        );
    }

    #[test]
    fn limits_count() {
        let limits = Limits::default();
        let toks = lex("forall a < 4: a + a = 0", &limits).expect("lexes");
        let stmt = parse_statement(&toks, &limits, true).expect("parses").stmt;
        let lets = HashMap::new();
        let base = MemoKey::statement(&stmt, &lets, &limits);
        let lower = Limits {
            max_cases: 3,
            ..Limits::default()
        };
        assert_ne!(base, MemoKey::statement(&stmt, &lets, &lower));
        let mut slower = Limits::default();
        slower.game.max_time /= 2;
        assert_ne!(base, MemoKey::statement(&stmt, &lets, &slower));
    }
}
