//! Claims that compute nothing.
//!
//! A span `nim: 27` shows 27, but nothing computed it: the page claims a verified number that is
//! only a copy of its source. Likewise `6 * 13 = 6 * 13` holds whatever the nim-product is, and
//! `15 = 15` (or `15 = 0xf`) compares two literals. Such a claim is *vacuous*: the lint
//! `vacuous-claims` reports it, with a help line that says what to write instead.

use super::ast::{Expr, ExprKind, Statement};

/// Why a statement computes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Vacuity {
    /// A bare literal shown as a value: `nim: 27`.
    BareLiteral,
    /// A relation whose two sides are the same expression: `6 * 13 = 6 * 13`.
    SameSides {
        /// The side, as shown.
        side: String,
    },
    /// A relation between two literals: `15 = 15`, `3 < 4`.
    LiteralSides,
}

/// Whether `stmt` computes nothing, and why. A quantified statement is vacuous when its body
/// is; a `let` never is (it names a value for later claims).
pub fn vacuity(stmt: &Statement) -> Option<Vacuity> {
    match stmt {
        Statement::Expr(e) => is_literal(e).then_some(Vacuity::BareLiteral),
        Statement::Claim(chain) => {
            let mut lhs = &chain.first;
            for link in &chain.links {
                if is_literal(lhs) && is_literal(&link.rhs) {
                    return Some(Vacuity::LiteralSides);
                }
                if same(lhs, &link.rhs) {
                    return Some(Vacuity::SameSides {
                        side: lhs.to_string(),
                    });
                }
                lhs = &link.rhs;
            }
            None
        }
        Statement::Quantified { body, .. } => vacuity(body),
        Statement::Is { .. } | Statement::Let { .. } => None,
    }
}

/// A number literal, perhaps in brackets or `int(…)`.
fn is_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Num(_) => true,
        ExprKind::Paren(inner) | ExprKind::Int(inner) => is_literal(inner),
        _ => false,
    }
}

/// Structural equality, ignoring spans and brackets.
fn same(a: &Expr, b: &Expr) -> bool {
    use ExprKind::*;
    match (&a.kind, &b.kind) {
        (Paren(x), _) => same(x, b),
        (_, Paren(y)) => same(a, y),
        (Num(x), Num(y)) => x == y,
        (Var(x), Var(y)) | (Str(x), Str(y)) => x == y,
        (Bool(x), Bool(y)) => x == y,
        (List(x), List(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (
            Call {
                name: n, args: x, ..
            },
            Call {
                name: m, args: y, ..
            },
        ) => n == m && x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (
            Bin {
                op: o,
                lhs: l1,
                rhs: r1,
            },
            Bin {
                op: p,
                lhs: l2,
                rhs: r2,
            },
        ) => o == p && same(l1, l2) && same(r1, r2),
        (Int(x), Int(y)) => same(x, y),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::{lexer, parser, Limits};

    fn of(text: &str) -> Option<Vacuity> {
        let toks = lexer::lex(text, &Limits::default()).unwrap_or_default();
        match parser::parse_statement(&toks, &Limits::default(), true) {
            Ok(s) => vacuity(&s.stmt),
            Err(e) => panic!("{text}: {e:?}"),
        }
    }

    #[test]
    fn literals_and_identical_sides_compute_nothing() {
        assert_eq!(of("27"), Some(Vacuity::BareLiteral));
        assert_eq!(of("(27)"), Some(Vacuity::BareLiteral));
        assert_eq!(
            of("6 * 13 = 6 * 13"),
            Some(Vacuity::SameSides {
                side: "6 ⊗ 13".into()
            })
        );
        assert_eq!(
            of("6 * 13 = (6 * 13)"),
            Some(Vacuity::SameSides {
                side: "6 ⊗ 13".into()
            })
        );
        assert_eq!(of("15 = 0xf"), Some(Vacuity::LiteralSides));
        assert_eq!(of("15 = 15"), Some(Vacuity::LiteralSides));
        assert_eq!(
            of("forall a < 4: a = a"),
            Some(Vacuity::SameSides { side: "a".into() })
        );
        assert_eq!(of("6 * 13 = 15 = 15"), Some(Vacuity::LiteralSides));
    }

    #[test]
    fn computations_are_not_vacuous() {
        for text in [
            "6 * 13",
            "6 * 13 = 15",
            "13 * 6 = 6 * 13",
            "int(2^13)",
            "grundy(nim(3))",
            "forall a < 4: a * 1 = a",
            "let x = 5",
            "nim(1, 2, 3) is P",
        ] {
            assert_eq!(of(text), None, "{text}");
        }
    }
}
