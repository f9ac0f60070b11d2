//! The reader's notation of the claim language: what a checked statement, an expression or a
//! value looks like as mathematics, decided once for every writer.
//!
//! A claim is written `6 * 13 = 15` and read `6 ⊗ 13 = 15`. Which symbol an operation gets,
//! where a bracket is drawn (`Expr::needs_brackets_under`, `Expr::needs_brackets_as_base`),
//! how a nim-power is marked (`2^⊗3`), how an ordinal or a string literal is shown: all of it
//! is decided here, from the claim's syntax tree, into a small tree of [`Math`] items. Every
//! writer (the page's MathML, `mathml`) writes that tree and decides nothing itself, so every
//! output shows the same statement, the one the checker decided.

use crate::claim::ast::{
    binder_groups, BinOp, Claim, Expr, ExprKind, OutcomeClass, Quantifier, Range, Statement,
};
use crate::claim::Value;

/// One item of a formula in the reader's notation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Math {
    /// A numeral.
    Num(String),
    /// A letter or a name (`a`, `ω`, `grundy`), in the style math gives it.
    Ident(String),
    /// A letter drawn upright: the outcome classes `P`, `N` and `D`.
    Upright(String),
    /// An operator, a relation, a bracket or a comma.
    Op(String),
    /// Words inside a formula (`is a`, `(for example 3)`, a value that is not a number).
    Text(String),
    /// A string literal, drawn with its quotes: `period("0.77")` is a code, not 0.77.
    Str(String),
    /// A space of this many quarter ems.
    Space(u8),
    /// Items that belong together: a base, an exponent, an ordinal.
    Row(Vec<Math>),
    /// A base with a raised exponent.
    Sup(Box<Math>, Box<Math>),
}

/// A formula in the reader's notation, and the same as plain text (what a screen reader says
/// and what a search finds).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Formula {
    /// The items, left to right.
    pub(crate) items: Vec<Math>,
    /// The text a reader reads in them.
    pub(crate) text: String,
}

fn op(out: &mut Vec<Math>, symbol: &str) {
    out.push(Math::Op(symbol.to_string()));
}

/// An expression in the reader's notation.
pub(crate) fn expr(out: &mut Vec<Math>, e: &Expr) {
    match &e.kind {
        ExprKind::Num(n) => out.push(Math::Num(n.to_string())),
        ExprKind::Var(v) => out.push(Math::Ident(v.clone())),
        ExprKind::Str(s) => out.push(Math::Str(s.clone())),
        ExprKind::Bool(b) => out.push(Math::Text(if *b { "true" } else { "false" }.into())),
        ExprKind::List(items) => {
            op(out, "[");
            sequence(out, items);
            op(out, "]");
        }
        ExprKind::Call { .. } if e.ordinal_literal().is_some() => {
            if let Some(o) = e.ordinal_literal() {
                ordinal(out, &o);
            }
        }
        ExprKind::Call { name, args, .. } => {
            out.push(Math::Ident(name.clone()));
            op(out, "(");
            sequence(out, args);
            op(out, ")");
        }
        ExprKind::Bin { op: o, lhs, rhs } => binary(out, *o, lhs, rhs),
        // As in the text: an `int(…)` is bracketed by its operand rule where it meets another
        // operation, and needs no brackets of its own as an argument or a side.
        ExprKind::Int(inner) => expr(out, inner),
        ExprKind::Paren(inner) => bracketed(out, inner),
    }
}

fn binary(out: &mut Vec<Math>, o: BinOp, lhs: &Expr, rhs: &Expr) {
    match o {
        BinOp::NimPow | BinOp::Pow => {
            let mut base = Vec::new();
            if lhs.needs_brackets_as_base() {
                bracketed(&mut base, lhs);
            } else {
                expr(&mut base, lhs);
            }
            let mut exponent = Vec::new();
            // A nim-power is marked in its exponent, `2^⊗3`, so that it cannot be read as the
            // ordinary power 2³ = 8: nim-powers of numerals differ from ordinary ones.
            if o == BinOp::NimPow {
                op(&mut exponent, "⊗");
            }
            expr(&mut exponent, rhs);
            out.push(Math::Sup(
                Box::new(Math::Row(base)),
                Box::new(Math::Row(exponent)),
            ));
        }
        // Ordinary division rounds down, so it is shown as the floor of the quotient.
        BinOp::Div => {
            op(out, "⌊");
            operand(out, lhs, o);
            op(out, "/");
            operand(out, rhs, o);
            op(out, "⌋");
        }
        _ => {
            operand(out, lhs, o);
            op(out, o.symbol());
            operand(out, rhs, o);
        }
    }
}

fn bracketed(out: &mut Vec<Math>, e: &Expr) {
    op(out, "(");
    expr(out, e);
    op(out, ")");
}

/// An operand of `parent`, bracketed where a reader could group it otherwise.
fn operand(out: &mut Vec<Math>, e: &Expr, parent: BinOp) {
    if e.needs_brackets_under(parent) {
        bracketed(out, e);
    } else {
        expr(out, e);
    }
}

fn sequence(out: &mut Vec<Math>, items: &[Expr]) {
    for (i, a) in items.iter().enumerate() {
        if i > 0 {
            op(out, ",");
        }
        expr(out, a);
    }
}

/// An ordinal in Cantor normal form, as mathematics: `ω^(ω^2)·3 + ω + 4`.
pub(crate) fn ordinal(out: &mut Vec<Math>, o: &crate::nim::ordinal::Ordinal) {
    let terms: Vec<_> = o.terms().collect();
    if terms.is_empty() {
        out.push(Math::Num("0".into()));
        return;
    }
    let omega = || Math::Ident("ω".into());
    let mut row = Vec::new();
    for (k, (exponent, coefficient)) in terms.iter().enumerate() {
        if k > 0 {
            op(&mut row, "+");
        }
        match exponent.iter().rposition(|&a| a != 0) {
            None => row.push(Math::Num(coefficient.to_string())),
            Some(_) => {
                let is_one =
                    exponent.first() == Some(&1) && exponent.iter().skip(1).all(|&a| a == 0);
                if is_one {
                    row.push(omega());
                } else {
                    // The exponent is itself a sum of powers of ω with finite coefficients.
                    let mut power = Vec::new();
                    for (i, &a) in exponent.iter().enumerate().rev() {
                        if a == 0 {
                            continue;
                        }
                        if !power.is_empty() {
                            op(&mut power, "+");
                        }
                        match i {
                            0 => power.push(Math::Num(a.to_string())),
                            1 => power.push(omega()),
                            _ => power.push(Math::Sup(
                                Box::new(omega()),
                                Box::new(Math::Num(i.to_string())),
                            )),
                        }
                        if i > 0 && a > 1 {
                            op(&mut power, "·");
                            power.push(Math::Num(a.to_string()));
                        }
                    }
                    row.push(Math::Sup(Box::new(omega()), Box::new(Math::Row(power))));
                }
                if *coefficient > 1 {
                    op(&mut row, "·");
                    row.push(Math::Num(coefficient.to_string()));
                }
            }
        }
    }
    out.push(Math::Row(row));
}

/// A value in the reader's notation.
pub(crate) fn value(out: &mut Vec<Math>, v: &Value) {
    match v {
        Value::Num(n) => out.push(Math::Num(n.to_string())),
        Value::Ordinal(o) => ordinal(out, o),
        other => out.push(Math::Text(other.to_string())),
    }
}

/// A statement in the reader's notation; `value_of` is the computed value of a `let` or bare
/// expression, `witness` the witness of an `exists`.
pub(crate) fn statement(
    out: &mut Vec<Math>,
    s: &Statement,
    value_of: Option<&Value>,
    witness: Option<&str>,
) {
    match s {
        Statement::Claim(c) => claim(out, c),
        Statement::Let { name, value: e, .. } => {
            out.push(Math::Ident(name.clone()));
            op(out, "≔");
            expr(out, e);
            if let Some(v) = value_of {
                if !matches!(e.kind, ExprKind::Num(_)) {
                    op(out, "=");
                    value(out, v);
                }
            }
        }
        Statement::Quantified {
            quantifier,
            binders,
            body,
        } => {
            op(
                out,
                match quantifier {
                    Quantifier::Forall => "∀",
                    Quantifier::Exists => "∃",
                },
            );
            // Binders that share a bound were written together: `a, b < 256`.
            for (i, group) in binder_groups(binders).enumerate() {
                if i > 0 {
                    op(out, ",");
                }
                for (k, b) in group.iter().enumerate() {
                    if k > 0 {
                        op(out, ",");
                    }
                    out.push(Math::Ident(b.name.clone()));
                }
                match &group[0].range {
                    Range::Below { bound, inclusive } => {
                        op(out, if *inclusive { "≤" } else { "<" });
                        expr(out, bound);
                    }
                    Range::From { start, inclusive } => {
                        op(out, if *inclusive { "≥" } else { ">" });
                        expr(out, start);
                    }
                    Range::All => {}
                }
            }
            op(out, ":");
            out.push(Math::Space(2));
            claim(out, body);
            if let Some(w) = witness {
                out.push(Math::Space(4));
                out.push(Math::Text(format!("(for example {w})")));
            }
        }
        Statement::Expr(e) => expr(out, e),
    }
}

/// A claim (a chain of relations or an outcome class) in the reader's notation.
pub(crate) fn claim(out: &mut Vec<Math>, c: &Claim) {
    match c {
        Claim::Chain(chain) => {
            expr(out, &chain.first);
            for l in &chain.links {
                op(out, l.rel.symbol());
                expr(out, &l.rhs);
            }
        }
        Claim::Is { expr: e, class, .. } => {
            expr(out, e);
            let (article, letter) = match class {
                OutcomeClass::P => ("a", "P"),
                OutcomeClass::N => ("an", "N"),
                OutcomeClass::D => ("a", "D"),
            };
            out.push(Math::Text(format!("\u{a0}is {article}\u{a0}")));
            out.push(Math::Upright(letter.into()));
            out.push(Math::Text("-position".into()));
        }
    }
}

/// The text a reader reads in [`statement`]'s notation: the same symbols (`⊕ ⊗ ^⊗ ⌊/⌋`),
/// never the source spelling, which could be misread.
pub(crate) fn statement_text(
    s: &Statement,
    value_of: Option<&Value>,
    witness: Option<&str>,
) -> String {
    let mut text = s.to_string();
    if let (Statement::Let { value: e, .. }, Some(v)) = (s, value_of) {
        if !matches!(e.kind, ExprKind::Num(_)) {
            text.push_str(&format!(" = {}", value_text(v)));
        }
    }
    if let Some(w) = witness {
        text.push_str(&format!(" (for example {w})"));
    }
    text
}

/// The text a reader reads in [`value`]'s notation: an ordinal in the page's notation
/// (`ω^2·3 + ω`), anything else as it displays.
pub(crate) fn value_text(v: &Value) -> String {
    match v {
        Value::Ordinal(o) => crate::claim::ast::ordinal_text(o),
        other => other.to_string(),
    }
}

impl Formula {
    /// A statement as the reader reads it.
    pub(crate) fn statement(
        s: &Statement,
        value_of: Option<&Value>,
        witness: Option<&str>,
    ) -> Self {
        let mut items = Vec::new();
        statement(&mut items, s, value_of, witness);
        Formula {
            items,
            text: statement_text(s, value_of, witness),
        }
    }

    /// An expression, read as `text`.
    pub(crate) fn expr(e: &Expr, text: String) -> Self {
        let mut items = Vec::new();
        expr(&mut items, e);
        Formula { items, text }
    }
}
