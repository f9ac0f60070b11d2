//! The eventually-periodic method, for claims about one natural number `n`.
//!
//! A sequence `s(n)` is *eventually periodic* with pre-period `n₀` and period `p` when
//! `s(n + p) = s(n)` for every `n ≥ n₀`, and *arithmetic-periodic* with saltus `σ` when
//! `s(n + p) = s(n) + σ` (module `pattern`). The method follows every place where `n` occurs as
//! such a sequence. The truth of a comparison of two sides that grow alike (the same saltus over
//! a common period) is then eventually periodic, and a claim holds for every `n ≥ K` exactly when
//! it holds on the finite window `K ≤ n < max(K, n₀) + p`, which the evaluator then checks case by
//! case.
//!
//! The sequences known, with their pre-period, period and saltus:
//!
//! - anything that does not mention `n` (period 1, saltus 0), and `n` itself (period 1, saltus 1);
//! - ordinary sums, differences that do not decrease, multiples, quotients and remainders by
//!   constants of known sequences (module `pattern`), and any function of periodic ones;
//! - `grundy(G)`, `outcome(G)` and `G is P`/`G is N`, where `G` is a subtraction game with a
//!   finite set (its values depend only on the last `max(S)` values, so a window that comes
//!   back proves the period), an octal or hexadecimal game whose period the engine proves by the
//!   Guy–Smith criterion, or a sum of such games (Grundy values add), each on a heap given by an
//!   index; any game whose arguments all repeat (`nim(n mod 4)`) repeats with them;
//! - `grundy(laskers_nim(i))`, arithmetic-periodic by the shift–residue criterion of
//!   [`crate::game::lasker_period`], for an index `i`;
//! - an index is `int(a·n + c)` with constants `a ≥ 1` and `c` (a sequence with pre-period `P`,
//!   period `p` and saltus `σ` read at `a·n + c` has period `p / gcd(a, p)` and saltus
//!   `σ·a / gcd(a, p)` from `⌈(P − c)/a⌉`), or `n ⊕ c` for a constant `c` (period
//!   `L = lcm(p, 2^m)` and saltus `σ·L/p` from `P + c`, `2^m` the power of two above `c`: adding a
//!   multiple of `2^m` does not change the low bits that `⊕ c` flips).
//!
//! `n` anywhere else (`order(n)`, `n * n`, `cram(2, n)`, the nim-sum of two growing values) is
//! not known to follow a pattern, and the method says so.

use std::cell::Cell;

use num_integer::Integer;
use num_traits::ToPrimitive;

use super::pattern::{lcm, Beyond, Pattern};
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
    let analysis = Analysis {
        var,
        scope,
        limits,
        guy_smith: Cell::new(false),
        shift_residue: Cell::new(false),
    };
    // The truth of every link, and how the sides grow: every link compares two sides that
    // grow alike, so all the sides of a chain grow as its first one does.
    let mut truth = Pattern::CONSTANT;
    let mut growth = Pattern::CONSTANT;
    match body {
        Claim::Chain(chain) => {
            growth = analysis.sequence(&chain.first)?;
            let mut prev = (&chain.first, growth);
            for link in &chain.links {
                let next = analysis.sequence(&link.rhs)?;
                let at = prev.0.span.start..link.rhs.span.end;
                let compared = prev.1.compared(next).map_err(|b| beyond(b, &at))?;
                let Some(t) = compared else {
                    return Err(Stop::refuse(
                        at,
                        format!(
                            "the two sides grow at different rates as `{var}` grows (saltus {} every {} and {} every {}), so their comparison is not periodic",
                            prev.1.saltus, prev.1.period, next.saltus, next.period
                        ),
                    ));
                };
                truth = truth.plus(t).map_err(|b| beyond(b, &at))?;
                prev = (&link.rhs, next);
            }
        }
        Claim::Is { expr, .. } => truth = analysis.periodic_game(expr)?,
    }
    let saltus = growth.saltus_over(truth.period).unwrap_or(0);
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
    let from = start.max(truth.preperiod);
    let mut end = from
        .checked_add(truth.period)
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
                    truth.period, limits.max_cases
                ),
            )
            .help("raise max-cases in book.toml, or bound the variable"),
        ));
    }
    Ok(Window {
        start,
        end,
        period: truth.period,
        from,
        saltus,
        guy_smith: analysis.guy_smith.get(),
        shift_residue: analysis.shift_residue.get(),
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

/// The error or refusal for an operation on patterns that has no pattern.
fn beyond(b: Beyond, at: &crate::diag::Span) -> Stop {
    match b {
        Beyond::Overflow => Stop::Error(ClaimError::budget(
            at.clone(),
            "the period of this expression is beyond the numbers this checker can count",
        )),
        Beyond::Decreasing => Stop::refuse(
            at.clone(),
            "this difference decreases as the variable grows, so it would become negative",
        ),
    }
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
    /// The pattern of `s(index(n))` when `s` has pattern `p`.
    fn apply(self, p: Pattern, at: &Expr) -> Result<Pattern, Stop> {
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
                // a·p / gcd(a, p) is a multiple of p: a/gcd(a, p) periods of `s`.
                let g = a.gcd(&p.period).max(1);
                Ok(Pattern {
                    preperiod: pre,
                    period: p.period / g,
                    saltus: p.saltus.checked_mul(a / g).ok_or_else(overflow)?,
                })
            }
            Index::Xor(c) => {
                let block = 1u64
                    .checked_shl(64 - c.leading_zeros())
                    .ok_or_else(overflow)?;
                let period = lcm(p.period, block).ok_or_else(overflow)?;
                Ok(Pattern {
                    preperiod: p.preperiod.checked_add(c).ok_or_else(overflow)?,
                    period,
                    saltus: p.saltus_over(period).ok_or_else(overflow)?,
                })
            }
        }
    }
}

fn periodic(p: Periodicity) -> Pattern {
    Pattern {
        preperiod: p.preperiod,
        period: p.period,
        saltus: 0,
    }
}

struct Analysis<'a> {
    var: &'a str,
    scope: &'a Scope<'a>,
    limits: &'a Limits,
    // Set when an octal or hexadecimal game's period is used: the proof then rests on the
    // Guy–Smith periodicity theorem, and the page says so.
    guy_smith: Cell<bool>,
    // Set when Lasker's Nim's arithmetic period is used (the shift–residue criterion).
    shift_residue: Cell<bool>,
}

impl Analysis<'_> {
    fn depends(&self, e: &Expr) -> bool {
        mentions(e, &[self.var])
    }

    fn constant_count(&self, e: &Expr) -> Result<u64, Stop> {
        let v = eval(e, self.scope, self.limits).map_err(Stop::Error)?;
        as_count(&v, &e.span).map_err(Stop::Error)
    }

    fn grows(&self, e: &Expr, what: &str) -> Stop {
        Stop::refuse(
            e.span.clone(),
            format!(
                "{what} of a value that grows without repeating as `{}` grows is not known to repeat; only sums, differences, multiples, quotients and remainders by constants of such values are",
                self.var
            ),
        )
    }

    /// `e`'s pattern, which must be periodic.
    fn periodic(&self, e: &Expr, what: &str) -> Result<Pattern, Stop> {
        let p = self.sequence(e)?;
        if p.is_periodic() {
            Ok(p)
        } else {
            Err(self.grows(e, what))
        }
    }

    /// The pattern of the value of `e` as `n` grows.
    fn sequence(&self, e: &Expr) -> Result<Pattern, Stop> {
        if !self.depends(e) {
            return Ok(Pattern::CONSTANT);
        }
        let at = |b| beyond(b, &e.span);
        match &e.kind {
            ExprKind::Var(_) => Ok(Pattern::IDENTITY),
            ExprKind::Bin { op, lhs, rhs } => match op {
                BinOp::Add => self.sequence(lhs)?.plus(self.sequence(rhs)?).map_err(at),
                BinOp::Sub => self.sequence(lhs)?.minus(self.sequence(rhs)?).map_err(at),
                BinOp::Mul | BinOp::Div | BinOp::Mod if !self.depends(rhs) => {
                    let k = self.constant_count(rhs)?;
                    let s = self.sequence(lhs)?;
                    match op {
                        BinOp::Mul => s.times(k).map_err(at),
                        _ if k == 0 => Err(Stop::Error(ClaimError::new(
                            rhs.span.clone(),
                            format!("division by zero in `{e}`"),
                        ))),
                        BinOp::Div => s.divided(k).map_err(at),
                        _ => s.modulo(k).map_err(at),
                    }
                }
                BinOp::Mul if !self.depends(lhs) => {
                    let k = self.constant_count(lhs)?;
                    self.sequence(rhs)?.times(k).map_err(at)
                }
                BinOp::NimAdd => match self.index(e)? {
                    Some(index) => index.apply(Pattern::IDENTITY, e),
                    None => self.both_periodic(lhs, rhs, e, "a nim-sum"),
                },
                _ => self.both_periodic(lhs, rhs, e, "this operation"),
            },
            ExprKind::Call { name, args, .. } if name == "grundy" && args.len() == 1 => {
                self.game(&args[0])
            }
            ExprKind::Call { name, args, .. } if name == "outcome" && args.len() == 1 => {
                self.periodic_game(&args[0])
            }
            ExprKind::Call { name, .. } if crate::claim::builtins::is_game_function(name) => {
                Err(Stop::refuse(
                    e.span.clone(),
                    format!(
                        "`{name}(…)` with an argument that depends on `{}` is not known to repeat; only Grundy values and outcomes of subtraction, octal and hexadecimal games and Lasker's Nim are",
                        self.var
                    ),
                ))
            }
            ExprKind::Call { args, .. } | ExprKind::List(args) => {
                let mut p = Pattern::CONSTANT;
                for a in args {
                    let q = self.periodic(a, "a function")?;
                    p = p.plus(q).map_err(at)?;
                }
                Ok(p)
            }
            ExprKind::Paren(inner) | ExprKind::Int(inner) => self.sequence(inner),
            ExprKind::Num(_) | ExprKind::Str(_) | ExprKind::Bool(_) => Ok(Pattern::CONSTANT),
        }
    }

    fn both_periodic(&self, l: &Expr, r: &Expr, e: &Expr, what: &str) -> Result<Pattern, Stop> {
        let a = self.periodic(l, what)?;
        let b = self.periodic(r, what)?;
        a.plus(b).map_err(|x| beyond(x, &e.span))
    }

    /// The pattern of a game's Grundy value, which must be periodic (for an outcome, a sum or
    /// `is P`: a value that grows is never 0 again, but where it stops being 0 the method does
    /// not know).
    fn periodic_game(&self, g: &Expr) -> Result<Pattern, Stop> {
        let p = self.game(g)?;
        if p.is_periodic() {
            Ok(p)
        } else {
            Err(self.grows(g, "the outcome or nim-sum"))
        }
    }

    /// The pattern of the Grundy value of the game `g`.
    fn game(&self, g: &Expr) -> Result<Pattern, Stop> {
        if !self.depends(g) {
            return Ok(Pattern::CONSTANT);
        }
        let budget = &self.limits.game;
        let engine = |r: Result<Periodicity, game::GameError>| {
            r.map(periodic)
                .map_err(|err| Stop::Error(ClaimError::new(g.span.clone(), err.to_string())))
        };
        match &g.kind {
            ExprKind::Paren(inner) => self.game(inner),
            ExprKind::Bin {
                op: BinOp::NimAdd,
                lhs,
                rhs,
            } => {
                let p = self.periodic_game(lhs)?;
                p.plus(self.periodic_game(rhs)?)
                    .map_err(|b| beyond(b, &g.span))
            }
            ExprKind::Call { name, args, .. } => {
                let (base, heap) = match (name.as_str(), args.as_slice()) {
                    ("subtraction", [set, heap]) if !self.depends(set) => {
                        let set = self.removals(set)?;
                        (engine(game::subtraction_period(&set, budget))?, heap)
                    }
                    ("octal" | "hexadecimal", [code, heap]) if !self.depends(code) => {
                        let code = self.code(code, name == "hexadecimal")?;
                        self.guy_smith.set(true);
                        (engine(game::hexadecimal_period(&code, budget))?, heap)
                    }
                    ("kayles", [heap]) => {
                        self.guy_smith.set(true);
                        let kayles = game::OctalCode::kayles();
                        (engine(game::period(&kayles, budget))?, heap)
                    }
                    ("dawsons_kayles", [heap]) => {
                        self.guy_smith.set(true);
                        let dawson = game::OctalCode::dawsons_kayles();
                        (engine(game::period(&dawson, budget))?, heap)
                    }
                    ("laskers_nim", [heap]) => {
                        let found = game::lasker_period(budget).map_err(|err| {
                            Stop::Error(ClaimError::new(g.span.clone(), err.to_string()))
                        })?;
                        self.shift_residue.set(true);
                        let base = Pattern {
                            preperiod: found.preperiod,
                            period: found.period,
                            saltus: found.saltus,
                        };
                        (base, heap)
                    }
                    _ => return self.arguments_repeat(name, args, g),
                };
                match self.index(heap)? {
                    Some(index) => index.apply(base, heap),
                    // A heap that itself repeats, such as `n mod 7`, makes a position that
                    // repeats.
                    None => self.repeats_or(heap, || {
                        Stop::refuse(
                            heap.span.clone(),
                            format!(
                                "a heap size that depends on `{}` must be `{0}`, `int(a·{0} + c)`, `{0} ⊕ c` or repeat itself",
                                self.var
                            ),
                        )
                    }),
                }
            }
            _ => Err(Stop::refuse(
                g.span.clone(),
                format!(
                    "`{g}` has no proved period as `{}` grows; only subtraction games with a finite set, octal and hexadecimal games, Lasker's Nim and their sums do",
                    self.var
                ),
            )),
        }
    }

    fn removals(&self, set: &Expr) -> Result<Vec<u64>, Stop> {
        match eval(set, self.scope, self.limits).map_err(Stop::Error)? {
            Value::List(items) => items
                .iter()
                .map(|v| as_count(v, &set.span))
                .collect::<Result<Vec<_>, _>>()
                .map_err(Stop::Error),
            other => Err(Stop::Error(ClaimError::new(
                set.span.clone(),
                format!("expected a list of removals such as [1, 3, 4], found `{other}`"),
            ))),
        }
    }

    fn code(&self, code: &Expr, hexadecimal: bool) -> Result<game::HexCode, Stop> {
        let text = match eval(code, self.scope, self.limits).map_err(Stop::Error)? {
            Value::Str(s) => s,
            other => {
                return Err(Stop::Error(ClaimError::new(
                    code.span.clone(),
                    format!("expected a string such as \"0.77\", found `{other}`"),
                )))
            }
        };
        let parsed = if hexadecimal {
            text.parse::<game::HexCode>()
        } else {
            text.parse::<game::OctalCode>().map(game::HexCode::from)
        };
        parsed.map_err(|err| Stop::Error(ClaimError::new(code.span.clone(), err.to_string())))
    }

    /// A game built from arguments that all repeat (`nim(n mod 4)`, `cram(2, grundy(kayles(n)))`)
    /// is one of finitely many positions in turn, so it repeats with them.
    fn arguments_repeat(&self, name: &str, args: &[Expr], g: &Expr) -> Result<Pattern, Stop> {
        let mut p = Pattern::CONSTANT;
        for a in args {
            let q = self.repeats_or(a, || {
                Stop::refuse(
                    g.span.clone(),
                    format!(
                        "`{name}(…)` has no proved period as `{}` grows; only subtraction games with a finite set, octal and hexadecimal games, Lasker's Nim, their sums, and games whose arguments repeat do",
                        self.var
                    ),
                )
            })?;
            p = p.plus(q).map_err(|b| beyond(b, &a.span))?;
        }
        Ok(p)
    }

    /// `e`'s pattern when it repeats; the refusal `why` when it grows or the method refuses it
    /// (an error, such as a division by zero, stays itself).
    fn repeats_or(&self, e: &Expr, why: impl FnOnce() -> Stop) -> Result<Pattern, Stop> {
        match self.sequence(e) {
            Ok(p) if p.is_periodic() => Ok(p),
            Ok(_) | Err(Stop::Refused(_)) => Err(why()),
            Err(error) => Err(error),
        }
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
        let p = Pattern {
            preperiod: 71,
            period: 12,
            saltus: 0,
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
        // Lasker's Nim, period 4 and saltus 4 from 1, read at 4n + 3: one step of n is one
        // period, from n = 0.
        let lasker = Pattern {
            preperiod: 1,
            period: 4,
            saltus: 4,
        };
        let residue = Index::Affine { a: 4, c: 3 }.apply(lasker, &e).unwrap();
        assert_eq!(
            residue,
            Pattern {
                preperiod: 0,
                period: 1,
                saltus: 4
            }
        );
        let halves = Index::Affine { a: 2, c: 0 }.apply(lasker, &e).unwrap();
        assert_eq!(
            halves,
            Pattern {
                preperiod: 1,
                period: 2,
                saltus: 4
            }
        );
    }
}
