//! Claims that compute nothing.
//!
//! A span `nim: 27` shows 27, but nothing computed it: the page claims a verified number that is
//! only a copy of its source. Likewise `6 * 13 = 6 * 13` holds whatever the nim-product is, and
//! `15 = 15` (or `15 = 0xf`) compares two literals. Such a claim is *vacuous*: the lint
//! `vacuous-claims` reports it, with a help line that says what to write instead.
//!
//! Quantifiers can be idle too: `forall a < 0: …` has no case to check, and
//! `exists a < 4: 1 = 1 ⊕ 0` never looks at `a`. And a part such as `17 ⊕ 0`, `x ⊗ 1` or
//! `x ⊕ x` computes nothing new (its value is one of its operands, or 0 whatever it is), so a
//! span `nim: 17 + 0` only repeats 17. Under a quantifier such a part is a law
//! (`forall a: a ⊗ 1 = a` is worth checking), so it is vacuous only when it does not mention
//! a quantified variable.

use super::ast::{BinOp, Binder, Claim, Expr, ExprKind, Range, Statement};
use super::prove::mentions;

/// Why a statement computes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
    /// A quantifier whose range is empty as written: `forall a < 0: …`.
    EmptyRange {
        /// The variable with no values.
        name: String,
    },
    /// A quantified variable the claim never uses: `exists a < 4: 1 = 1`.
    IdleVariable {
        /// The variable.
        name: String,
    },
    /// A side whose value is one of its operands, or 0 whatever it is: `17 ⊕ 0`, `x ⊗ 1`,
    /// `x ⊕ x`.
    NothingNew {
        /// The part, as shown.
        part: String,
        /// Why it computes nothing, in words: "adding 0 changes nothing".
        reason: &'static str,
    },
}

/// Whether `stmt` computes nothing, and why. A quantified statement is vacuous when its range
/// is empty, when a variable is idle, or when its body is; a `let` never is (it names a
/// value for later claims), unless its value computes nothing new.
pub fn vacuity(stmt: &Statement) -> Option<Vacuity> {
    match stmt {
        Statement::Expr(e) => is_literal(e)
            .then_some(Vacuity::BareLiteral)
            .or_else(|| nothing_new(e, &[])),
        Statement::Claim(claim) => claim_vacuity(claim).or_else(|| claim_nothing_new(claim, &[])),
        Statement::Quantified { binders, body, .. } => quantifier_vacuity(binders, body)
            .or_else(|| claim_vacuity(body))
            .or_else(|| {
                let names: Vec<&str> = binders.iter().map(|b| b.name.as_str()).collect();
                claim_nothing_new(body, &names)
            }),
        Statement::Let { value, .. } => nothing_new(value, &[]),
    }
}

/// An empty range as written (`a < 0`), or a variable that neither the body nor a later bound
/// mentions.
fn quantifier_vacuity(binders: &[Binder], body: &Claim) -> Option<Vacuity> {
    for b in binders {
        if let Range::Below {
            bound,
            inclusive: false,
        } = &b.range
        {
            if matches!(literal_value(bound), Some(n) if n.is_zero()) {
                return Some(Vacuity::EmptyRange {
                    name: b.name.clone(),
                });
            }
        }
    }
    for (i, b) in binders.iter().enumerate() {
        let name = [b.name.as_str()];
        let in_bounds = binders[i + 1..]
            .iter()
            .filter_map(|later| later.range.bound())
            .any(|e| mentions(e, &name));
        if !in_bounds && !claim_mentions(body, &name) {
            return Some(Vacuity::IdleVariable {
                name: b.name.clone(),
            });
        }
    }
    None
}

fn claim_mentions(claim: &Claim, names: &[&str]) -> bool {
    match claim {
        Claim::Chain(chain) => {
            mentions(&chain.first, names) || chain.links.iter().any(|l| mentions(&l.rhs, names))
        }
        Claim::Is { expr, .. } => mentions(expr, names),
    }
}

fn claim_nothing_new(claim: &Claim, bound: &[&str]) -> Option<Vacuity> {
    match claim {
        // A chain that also computes something else (`1 ⊕ 1 = mex([0 ⊕ 1, 1 ⊕ 0])`, or
        // `grundy(G) = 2 ⊕ 2 = 0`) checks that computation; it is vacuous only when every side
        // is a number as written or computes nothing new.
        Claim::Chain(chain) => {
            let sides: Vec<&Expr> = std::iter::once(&chain.first)
                .chain(chain.links.iter().map(|l| &l.rhs))
                .collect();
            let found: Vec<Option<Vacuity>> = sides.iter().map(|e| nothing_new(e, bound)).collect();
            let idle = sides
                .iter()
                .zip(&found)
                .all(|(e, v)| v.is_some() || literal_value(e).is_some());
            if idle {
                found.into_iter().flatten().next()
            } else {
                None
            }
        }
        // `G ⊕ G is P` asks the game search about a sum of positions: it is the mirror
        // argument checked on a position, not arithmetic copied.
        Claim::Is { .. } => None,
    }
}

/// Whether `e`, a whole side or value, computes nothing new and mentions none of the
/// quantified variables `bound`. Only the whole is judged: inside a longer computation such a
/// part is a step of a worked derivation (`(1 ⊕ 3) ⊗ 1`), and the whole computes something.
fn nothing_new(e: &Expr, bound: &[&str]) -> Option<Vacuity> {
    match &e.kind {
        ExprKind::Bin { op, lhs, rhs } => {
            let is = |x: &Expr, k: u64| matches!(literal_value(x), Some(n) if n == crate::nim::Nimber::from(k));
            // `17 + 0` and `x * 1` copy a number or a name written in the span; `(a ⊕ b) ⊗ 1`
            // still computes `a ⊕ b`.
            let copy =
                |x: &Expr, y: &Expr, k: u64| is(x, k) && is_written(y) || is(y, k) && is_written(x);
            let reason = match op {
                BinOp::NimAdd | BinOp::Add if copy(lhs, rhs, 0) => Some("adding 0 changes nothing"),
                BinOp::Sub if is(rhs, 0) && is_written(lhs) => {
                    Some("subtracting 0 changes nothing")
                }
                BinOp::NimMul | BinOp::Mul if copy(lhs, rhs, 1) => {
                    Some("multiplying by 1 changes nothing")
                }
                BinOp::NimDiv | BinOp::Div if is(rhs, 1) && is_written(lhs) => {
                    Some("dividing by 1 changes nothing")
                }
                BinOp::NimAdd if same(lhs, rhs) && is_written(lhs) => {
                    Some("a nim-sum of a number with itself is 0 whatever the number")
                }
                BinOp::Sub if same(lhs, rhs) && is_written(lhs) => {
                    Some("a number minus itself is 0 whatever the number")
                }
                _ => None,
            };
            match reason {
                Some(reason) if !mentions(e, bound) => Some(Vacuity::NothingNew {
                    part: e.to_string(),
                    reason,
                }),
                _ => None,
            }
        }
        ExprKind::Int(inner) | ExprKind::Paren(inner) => nothing_new(inner, bound),
        _ => None,
    }
}

/// A number, a name or an ordinal as written, perhaps in brackets: what `x + 0` would only
/// copy. (A call such as `kayles(2)` may be a position, and `kayles(2) ⊕ kayles(2)` is then a
/// sum of games, not 0.)
fn is_written(e: &Expr) -> bool {
    if e.ordinal_literal().is_some() {
        return true;
    }
    match &e.kind {
        ExprKind::Num(_) | ExprKind::Var(_) => true,
        ExprKind::Paren(inner) | ExprKind::Int(inner) => is_written(inner),
        _ => false,
    }
}

/// The number a literal (perhaps in brackets or `int(…)`) stands for.
fn literal_value(e: &Expr) -> Option<crate::nim::Nimber> {
    match &e.kind {
        ExprKind::Num(n) => Some(n.clone()),
        ExprKind::Paren(inner) | ExprKind::Int(inner) => literal_value(inner),
        _ => None,
    }
}

/// Whether a claim computes nothing, and why.
fn claim_vacuity(claim: &Claim) -> Option<Vacuity> {
    match claim {
        Claim::Chain(chain) => {
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
        Claim::Is { .. } => None,
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
    fn empty_ranges_and_idle_variables_compute_nothing() {
        let empty = |n: &str| Some(Vacuity::EmptyRange { name: n.into() });
        assert_eq!(of("forall a < 0: a * 2 = 7"), empty("a"));
        assert_eq!(of("forall a < 3, b < 0x0: a * b = b * a"), empty("b"));
        assert_eq!(
            of("exists a < 4: 1 = 1 + 0"),
            Some(Vacuity::IdleVariable { name: "a".into() })
        );
        assert_eq!(
            of("forall a, b < 4: a * 3 = 3 * a"),
            Some(Vacuity::IdleVariable { name: "b".into() })
        );
        // A variable that only bounds a later one is used.
        assert_eq!(of("forall a < 4, b < a: b < a"), None);
        assert_eq!(of("forall a ≤ 0: a * 5 = 0"), None);
    }

    #[test]
    fn parts_that_compute_nothing_new_are_vacuous() {
        for (text, part) in [
            ("17 + 0", "17 ⊕ 0"),
            ("0 + 17", "0 ⊕ 17"),
            ("6 * 1 = 6", "6 ⊗ 1"),
            ("5 + 5 = 0", "5 ⊕ 5"),
            ("x + x = 0", "x ⊕ x"),
            ("ord(\"w\") + ord(\"w\") = 0", "ω ⊕ ω"),
            ("int(7 - 7) = 0", "7 − 7"),
            ("int(9 - 0) = 9", "9 − 0"),
            ("12 / 1 = 12", "12 ⊘ 1"),
            ("let y = x + 0", "x ⊕ 0"),
        ] {
            assert!(
                matches!(of(text), Some(Vacuity::NothingNew { part: p, .. }) if p == part),
                "{text}: {:?}",
                of(text)
            );
        }
        // The same shapes are laws when they mention a quantified variable.
        for text in [
            "forall a: a * 1 = a",
            "forall a < 16: a + a = 0",
            "forall a < 16: a + 0 = a",
            "6 * 13 + 1 = 14",
            "(3 + 1) * 1 + 2 = 6",
            "123 * 0 = 0",
            "(2 + 3) / 1 = 1",
            "1 + 1 = mex([0 + 1, 1 + 0]) = 0",
            "grundy(nim(2, 2)) = 2 + 2 = 0",
            "kayles(3) + kayles(3) is P",
            "winning_move(kayles(5)) = kayles(2) + kayles(2)",
        ] {
            assert_eq!(of(text), None, "{text}");
        }
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
