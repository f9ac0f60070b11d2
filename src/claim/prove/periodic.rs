//! The eventually-periodic method, for claims about one natural number `n`.
//!
//! A sequence `s(n)` is *eventually periodic* with pre-period `n₀` and period `p` when
//! `s(n + p) = s(n)` for every `n ≥ n₀`. These sequences are closed under everything the claim
//! language does to values: any function of eventually periodic arguments is again eventually
//! periodic, with pre-period the largest of theirs and period the least common multiple. So the
//! truth of a claim is eventually periodic once every place where `n` occurs is, and the claim
//! holds for every `n ≥ K` exactly when it holds on the finite window
//! `K ≤ n < max(K, n₀) + p`, which the evaluator then checks case by case.
//!
//! The sequences known to be eventually periodic, with their pre-period and period:
//!
//! - anything that does not mention `n` (period 1);
//! - `i(n) mod k` for a constant `k ≥ 1`, where `i(n)` is an index (below): period `k` from 0;
//! - `grundy(G)`, `outcome(G)` and `G is P`/`G is N`, where `G` is a subtraction game with a
//!   finite set (its values depend only on the last `max(S)` values, so a window that comes
//!   back proves the period), an octal game whose period the engine proves by the Guy–Smith
//!   criterion, or a sum of such games (Grundy values add), each on a heap given by an index;
//!   any game whose arguments all repeat (`nim(n mod 4)`) repeats with them;
//! - an index is `int(a·n + c)` with constants `a ≥ 1` and `c` (a sequence with pre-period `P`
//!   and period `p` read at `a·n + c` has period `p / gcd(a, p)` from `⌈(P − c)/a⌉`), or `n ⊕ c` for a
//!   constant `c` (period `lcm(p, 2^m)` from `P + c`, `2^m` the power of two above `c`: adding a
//!   multiple of `2^m` does not change the low bits that `⊕ c` flips).
//!
//! `n` anywhere else (`order(n)`, `n * n`, `cram(2, n)`) is not known to repeat, and the method
//! says so.

use num_traits::ToPrimitive;

use super::{mentions, Domain, Stop, Window};
use crate::claim::ast::{BinOp, Claim, Expr, ExprKind};
use crate::claim::eval::{eval, Scope};
use crate::claim::value::{as_count, Value};
use crate::claim::{ClaimError, Limits};
use crate::game::{self, Periodicity};

/// Finds the window of `n` to check, or says why the claim is not known to be eventually
/// periodic in `var`.
pub(super) fn attempt(
    var: &str,
    domain: &Domain,
    body: &Claim,
    scope: &Scope<'_>,
    limits: &Limits,
) -> Result<Window, Stop> {
    let analysis = Analysis { var, scope, limits };
    let combined = match body {
        Claim::Chain(chain) => {
            let mut p = analysis.sequence(&chain.first)?;
            for link in &chain.links {
                p = combine(p, analysis.sequence(&link.rhs)?, &link.rhs)?;
            }
            p
        }
        Claim::Is { expr, .. } => analysis.game(expr)?,
    };
    let p = combined.unwrap_or(Periodicity {
        preperiod: 0,
        period: 1,
    });
    let too_large = |what: &str| {
        Stop::Error(ClaimError::budget(
            body_span(body),
            format!("{what} is beyond the numbers this checker can count"),
        ))
    };
    let (start, limit) = match domain {
        Domain::All => (0, None),
        Domain::From(k) => (k.to_u64().ok_or_else(|| too_large("the start"))?, None),
        Domain::Below(n) => (0, Some(n.to_u64().unwrap_or(u64::MAX))),
    };
    let from = start.max(p.preperiod);
    let mut end = from
        .checked_add(p.period)
        .ok_or_else(|| too_large("the window"))?;
    if let Some(limit) = limit {
        end = end.min(limit);
    }
    let cases = end.saturating_sub(start);
    if cases > limits.max_cases {
        return Err(Stop::Error(
            ClaimError::budget(
                body_span(body),
                format!(
                    "the claim repeats with period {} from {from}, but checking it needs {cases} cases; the budget is {} ([nimbook] max-cases)",
                    p.period, limits.max_cases
                ),
            )
            .help("raise max-cases in book.toml, or bound the variable"),
        ));
    }
    Ok(Window {
        start,
        end,
        period: p.period,
        from,
    })
}

fn body_span(body: &Claim) -> crate::diag::Span {
    match body {
        Claim::Chain(chain) => {
            let end = chain
                .links
                .last()
                .map_or(chain.first.span.end, |l| l.rhs.span.end);
            chain.first.span.start..end
        }
        Claim::Is {
            expr, class_span, ..
        } => expr.span.start..class_span.end,
    }
}

/// Pre-period the larger, period the least common multiple.
fn combine(
    a: Option<Periodicity>,
    b: Option<Periodicity>,
    at: &Expr,
) -> Result<Option<Periodicity>, Stop> {
    Ok(match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(Periodicity {
            preperiod: a.preperiod.max(b.preperiod),
            period: lcm(a.period, b.period).ok_or_else(|| {
                Stop::Error(ClaimError::budget(
                    at.span.clone(),
                    format!(
                        "the combined period, the least common multiple of {} and {}, is beyond the numbers this checker can count",
                        a.period, b.period
                    ),
                ))
            })?,
        }),
    })
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: u64, b: u64) -> Option<u64> {
    (a / gcd(a, b).max(1)).checked_mul(b)
}

/// Where a heap size comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Index {
    /// `a·n + c`, with `a ≥ 1`.
    Affine { a: u64, c: i128 },
    /// `n ⊕ c`.
    Xor(u64),
}

impl Index {
    /// The periodicity of `s(index(n))` when `s` has periodicity `p`.
    fn apply(self, p: Periodicity, at: &Expr) -> Result<Periodicity, Stop> {
        let overflow = || {
            Stop::Error(ClaimError::budget(
                at.span.clone(),
                "the period of this index is beyond the numbers this checker can count",
            ))
        };
        match self {
            Index::Affine { a, c } => {
                let need = i128::from(p.preperiod) - c;
                let pre = if need <= 0 {
                    0
                } else {
                    u64::try_from((need + i128::from(a) - 1) / i128::from(a))
                        .map_err(|_| overflow())?
                };
                // a·p / gcd(a, p) is a multiple of p, so p / gcd(a, p) is a period.
                Ok(Periodicity {
                    preperiod: pre,
                    period: p.period / gcd(a, p.period).max(1),
                })
            }
            Index::Xor(c) => {
                let block = 1u64
                    .checked_shl(64 - c.leading_zeros())
                    .ok_or_else(overflow)?;
                Ok(Periodicity {
                    preperiod: p.preperiod.checked_add(c).ok_or_else(overflow)?,
                    period: lcm(p.period, block).ok_or_else(overflow)?,
                })
            }
        }
    }
}

struct Analysis<'a> {
    var: &'a str,
    scope: &'a Scope<'a>,
    limits: &'a Limits,
}

impl Analysis<'_> {
    fn depends(&self, e: &Expr) -> bool {
        mentions(e, &[self.var])
    }

    fn constant_count(&self, e: &Expr) -> Result<u64, Stop> {
        let v = eval(e, self.scope, self.limits).map_err(Stop::Error)?;
        as_count(&v, &e.span).map_err(Stop::Error)
    }

    /// The periodicity of the value of `e` as `n` grows; `None` when it does not depend on `n`.
    fn sequence(&self, e: &Expr) -> Result<Option<Periodicity>, Stop> {
        if !self.depends(e) {
            return Ok(None);
        }
        match &e.kind {
            ExprKind::Var(_) => Err(Stop::refuse(
                e.span.clone(),
                format!(
                    "`{}` itself grows without repeating; values such as `{0} mod 4` or `grundy(kayles({0}))` repeat",
                    self.var
                ),
            )),
            ExprKind::Bin {
                op: BinOp::Mod,
                lhs,
                rhs,
            } if !self.depends(rhs) && self.index(lhs)?.is_some() => {
                let k = self.constant_count(rhs)?;
                if k == 0 {
                    return Err(Stop::Error(ClaimError::new(
                        rhs.span.clone(),
                        format!("division by zero in `{e}`"),
                    )));
                }
                let residues = Periodicity {
                    preperiod: 0,
                    period: k,
                };
                match self.index(lhs)? {
                    Some(index) => index.apply(residues, lhs).map(Some),
                    None => Ok(Some(residues)),
                }
            }
            ExprKind::Call { name, args, .. }
                if (name == "grundy" || name == "outcome") && args.len() == 1 =>
            {
                self.game(&args[0])
            }
            ExprKind::Call { name, .. }
                if crate::claim::builtins::is_game_function(name) =>
            {
                Err(Stop::refuse(
                    e.span.clone(),
                    format!(
                        "`{name}(…)` with an argument that depends on `{}` is not known to repeat; only Grundy values and outcomes of subtraction and octal games are",
                        self.var
                    ),
                ))
            }
            ExprKind::Call { args, .. } | ExprKind::List(args) => {
                let mut p = None;
                for a in args {
                    p = combine(p, self.sequence(a)?, a)?;
                }
                Ok(p)
            }
            ExprKind::Bin { lhs, rhs, .. } => {
                let p = self.sequence(lhs)?;
                combine(p, self.sequence(rhs)?, e)
            }
            ExprKind::Paren(inner) | ExprKind::Int(inner) => self.sequence(inner),
            ExprKind::Num(_) | ExprKind::Str(_) | ExprKind::Bool(_) => Ok(None),
        }
    }

    /// The periodicity of the Grundy value (and so of the outcome) of the game `g`.
    fn game(&self, g: &Expr) -> Result<Option<Periodicity>, Stop> {
        if !self.depends(g) {
            return Ok(None);
        }
        let budget = &self.limits.game;
        let engine = |r: Result<Periodicity, game::GameError>| {
            r.map_err(|err| Stop::Error(ClaimError::new(g.span.clone(), err.to_string())))
        };
        let no_period = |what: &str| {
            Stop::refuse(
                g.span.clone(),
                format!(
                    "{what} has no proved period as `{}` grows; only subtraction games with a finite set, octal games and their sums do",
                    self.var
                ),
            )
        };
        match &g.kind {
            ExprKind::Paren(inner) => self.game(inner),
            ExprKind::Bin {
                op: BinOp::NimAdd,
                lhs,
                rhs,
            } => {
                let p = self.game(lhs)?;
                combine(p, self.game(rhs)?, g)
            }
            ExprKind::Call { name, args, .. } => {
                let (base, heap) = match (name.as_str(), args.as_slice()) {
                    ("subtraction", [set, heap]) if !self.depends(set) => {
                        let set = match eval(set, self.scope, self.limits).map_err(Stop::Error)? {
                            Value::List(items) => items
                                .iter()
                                .map(|v| as_count(v, &set.span))
                                .collect::<Result<Vec<_>, _>>()
                                .map_err(Stop::Error)?,
                            other => {
                                return Err(Stop::Error(ClaimError::new(
                                    set.span.clone(),
                                    format!("expected a list of removals such as [1, 3, 4], found `{other}`"),
                                )))
                            }
                        };
                        (engine(game::subtraction_period(&set, budget))?, heap)
                    }
                    ("octal", [code, heap]) if !self.depends(code) => {
                        let code = match eval(code, self.scope, self.limits).map_err(Stop::Error)? {
                            Value::Str(s) => s,
                            other => {
                                return Err(Stop::Error(ClaimError::new(
                                    code.span.clone(),
                                    format!("expected a string such as \"0.77\", found `{other}`"),
                                )))
                            }
                        };
                        let code: game::OctalCode =
                            code.parse().map_err(|err: game::GameError| {
                                Stop::Error(ClaimError::new(g.span.clone(), err.to_string()))
                            })?;
                        (engine(game::period(&code, budget))?, heap)
                    }
                    ("kayles", [heap]) => (
                        engine(game::period(&game::OctalCode::kayles(), budget))?,
                        heap,
                    ),
                    ("dawsons_kayles", [heap]) => (
                        engine(game::period(&game::OctalCode::dawsons_kayles(), budget))?,
                        heap,
                    ),
                    _ => return self.arguments_repeat(name, args, g),
                };
                match self.index(heap)? {
                    Some(index) => index.apply(base, heap).map(Some),
                    // A heap that itself repeats, such as `n mod 7`, makes a position that
                    // repeats.
                    None => self.sequence(heap).map_err(|r| match r {
                        Stop::Refused(_) => Stop::refuse(
                            heap.span.clone(),
                            format!(
                                "a heap size that depends on `{}` must be `{0}`, `int(a·{0} + c)`, `{0} ⊕ c` or repeat itself",
                                self.var
                            ),
                        ),
                        error => error,
                    }),
                }
            }
            _ => Err(no_period(&format!("`{g}`"))),
        }
    }

    /// A game built from arguments that all repeat (`nim(n mod 4)`, `cram(2, grundy(kayles(n)))`)
    /// is one of finitely many positions in turn, so it repeats with them.
    fn arguments_repeat(
        &self,
        name: &str,
        args: &[Expr],
        g: &Expr,
    ) -> Result<Option<Periodicity>, Stop> {
        let mut p = None;
        for a in args {
            let q = self.sequence(a).map_err(|r| match r {
                Stop::Refused(_) => Stop::refuse(
                    g.span.clone(),
                    format!(
                        "`{name}(…)` has no proved period as `{}` grows; only subtraction games with a finite set, octal games, their sums, and games whose arguments repeat do",
                        self.var
                    ),
                ),
                error => error,
            })?;
            p = combine(p, q, a)?;
        }
        Ok(p)
    }

    /// `e` as an index `a·n + c` or `n ⊕ c`, if it is one.
    fn index(&self, e: &Expr) -> Result<Option<Index>, Stop> {
        match &e.kind {
            ExprKind::Var(v) if v == self.var => Ok(Some(Index::Affine { a: 1, c: 0 })),
            ExprKind::Paren(inner) => self.index(inner),
            ExprKind::Int(inner) => Ok(self
                .ordinary(inner)?
                .filter(|&(a, _)| a >= 1)
                .map(|(a, c)| Index::Affine { a, c })),
            ExprKind::Bin {
                op: BinOp::NimAdd,
                lhs,
                rhs,
            } => {
                let (var, constant) = if self.depends(rhs) {
                    (rhs, lhs)
                } else {
                    (lhs, rhs)
                };
                if self.depends(constant)
                    || !matches!(self.index(var)?, Some(Index::Affine { a: 1, c: 0 }))
                {
                    return Ok(None);
                }
                Ok(Some(Index::Xor(self.constant_count(constant)?)))
            }
            _ => Ok(None),
        }
    }

    /// `e`, in ordinary arithmetic, as `a·n + c`, if it is one.
    fn ordinary(&self, e: &Expr) -> Result<Option<(u64, i128)>, Stop> {
        if !self.depends(e) {
            let c = self.constant_count(e)?;
            return Ok(Some((0, i128::from(c))));
        }
        let pair = |l: Option<(u64, i128)>, r: Option<(u64, i128)>| l.zip(r);
        Ok(match &e.kind {
            ExprKind::Var(_) => Some((1, 0)),
            ExprKind::Paren(inner) | ExprKind::Int(inner) => self.ordinary(inner)?,
            ExprKind::Bin { op, lhs, rhs } => {
                let both = pair(self.ordinary(lhs)?, self.ordinary(rhs)?);
                match (op, both) {
                    (BinOp::Add, Some(((a1, c1), (a2, c2)))) => {
                        a1.checked_add(a2).zip(c1.checked_add(c2))
                    }
                    (BinOp::Sub, Some(((a1, c1), (0, c2)))) => Some((a1, c1 - c2)),
                    (BinOp::Mul, Some(((0, k), (a, c)) | ((a, c), (0, k)))) => {
                        let k64 = u64::try_from(k).ok();
                        k64.and_then(|k64| a.checked_mul(k64)).zip(c.checked_mul(k))
                    }
                    _ => None,
                }
            }
            _ => None,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn indices_shift_the_pre_period() {
        let p = Periodicity {
            preperiod: 71,
            period: 12,
        };
        let e = Expr {
            kind: ExprKind::Num(crate::nim::Nimber::zero()),
            span: 0..0,
        };
        let shifted = Index::Affine { a: 1, c: 12 }.apply(p, &e).unwrap();
        assert_eq!((shifted.preperiod, shifted.period), (59, 12));
        let doubled = Index::Affine { a: 2, c: 0 }.apply(p, &e).unwrap();
        assert_eq!((doubled.preperiod, doubled.period), (36, 6));
        let xored = Index::Xor(12).apply(p, &e).unwrap();
        assert_eq!((xored.preperiod, xored.period), (83, 48));
        assert_eq!(lcm(4, 6), Some(12));
    }
}
