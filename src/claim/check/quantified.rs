//! Quantified claims: `forall` and `exists`, decided by checking every case when the ranges
//! are bounded and small enough, and otherwise by a proof ([`prove`]). Cases are checked in
//! parallel, but the case reported is always the first in order, so a report never depends on
//! the number of threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use rayon::prelude::*;

use super::failure::evaluate_claim;
use super::{Checker, Status};
use crate::claim::ast::{Binder, Claim, Quantifier, Range};
use crate::claim::eval::{eval, Scope};
use crate::claim::prove::{self, Domain, Established, Plan};
use crate::claim::value::Value;
use crate::claim::ClaimError;
use crate::diag::{Code, Diagnostic, Span};
use crate::nim::Nimber;

/// Why a quantified claim was not established: [`Status::Fails`] with a counterexample (or no
/// witness), or [`Status::Error`] when it could not be decided.
pub(super) type Undecided = (Status, Box<Diagnostic>);

fn fails(d: Box<Diagnostic>) -> Undecided {
    (Status::Fails, d)
}

fn error(d: Box<Diagnostic>) -> Undecided {
    (Status::Error, d)
}

/// An assignment of the quantified variables, as `a = 1, b = 2`.
fn describe(locals: &[(&str, Value)]) -> String {
    locals
        .iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A quantified claim being decided.
struct Question<'a> {
    quantifier: Quantifier,
    binders: &'a [Binder],
    body: &'a Claim,
    span: &'a Span,
}

impl Checker {
    /// Decides a quantified claim: by checking every case when the ranges are bounded and
    /// small enough, and otherwise by a proof ([`prove`]). Gives the witness of an `exists` and
    /// how a `forall` was established.
    pub(super) fn quantified(
        &self,
        quantifier: Quantifier,
        binders: &[Binder],
        body: &Claim,
        span: &Span,
    ) -> Result<(Option<String>, Option<Established>), Undecided> {
        let q = Question {
            quantifier,
            binders,
            body,
            span,
        };
        let domains = self.domains(binders)?;
        let max = self.limits.max_cases;
        // Bounded ranges: every case, when there are few enough.
        let sizes: Option<Vec<BigUint>> = domains
            .iter()
            .map(|d| match d {
                Domain::Below(n) => Some(n.clone()),
                Domain::From(_) | Domain::All => None,
            })
            .collect();
        let total = sizes.as_ref().map(|s| s.iter().product::<BigUint>());
        if let (Some(sizes), Some(total)) = (&sizes, total.as_ref().and_then(|t| t.to_u64())) {
            if total <= max {
                let starts = vec![0; sizes.len()];
                let sizes: Vec<u64> = sizes.iter().map(|s| s.to_u64().unwrap_or(0)).collect();
                let witness = self.enumerate(&q, &starts, &sizes, total, None)?;
                return Ok(match quantifier {
                    Quantifier::Forall => (witness, Some(Established::Checked { cases: total })),
                    Quantifier::Exists => (witness, None),
                });
            }
        }
        let too_many = total.as_ref().map(|total| {
            format!("quantified claim has {total} cases; the budget is {max} ([nimbook] max-cases)")
        });
        if quantifier == Quantifier::Exists {
            return Err(error(Box::new(self.unsearchable(too_many, span))));
        }
        let no_locals: [(&str, Value); 0] = [];
        let scope = Scope {
            lets: &self.lets,
            locals: &no_locals,
        };
        let plan =
            prove::plan(binders, &domains, body, &scope, &self.limits).map_err(|mut e| {
                if let Some(message) = &too_many {
                    e.message = format!("{message}, and it cannot be proved otherwise");
                }
                error(self.to_diagnostic(e))
            })?;
        match plan {
            Plan::Proved(how) => Ok((None, Some(how))),
            Plan::Window(w) => {
                let note = format!(
                    "the claim repeats with period {} from {}, so the cases {} ≤ {} < {} decide it",
                    w.period, w.from, w.start, binders[0].name, w.end
                );
                let cases = w.end - w.start;
                self.enumerate(&q, &[w.start], &[cases], cases, Some(&note))?;
                Ok((
                    None,
                    Some(Established::Periodic {
                        period: w.period,
                        from: w.from,
                        saltus: w.saltus,
                        guy_smith: w.guy_smith,
                        shift_residue: w.shift_residue,
                    }),
                ))
            }
            Plan::Refuted(point) => Err(self.refuted(&q, point)),
        }
    }

    /// The range of each quantified variable, its bound evaluated.
    fn domains(&self, binders: &[Binder]) -> Result<Vec<Domain>, Undecided> {
        let no_locals: [(&str, Value); 0] = [];
        let scope = Scope {
            lets: &self.lets,
            locals: &no_locals,
        };
        let mut domains = Vec::new();
        for b in binders {
            let Some(bound) = b.range.bound() else {
                domains.push(Domain::All);
                continue;
            };
            let v = eval(bound, &scope, &self.limits).map_err(|e| error(self.to_diagnostic(e)))?;
            let Value::Num(n) = v else {
                return Err(error(self.to_diagnostic(ClaimError::new(
                    bound.span.clone(),
                    format!("a bound must be a number, found `{v}`"),
                ))));
            };
            domains.push(match b.range {
                Range::Below { inclusive, .. } => {
                    Domain::Below(n.to_biguint() + u32::from(inclusive))
                }
                Range::From { inclusive, .. } => {
                    Domain::From(n.to_biguint() + u32::from(!inclusive))
                }
                Range::All => Domain::All,
            });
        }
        Ok(domains)
    }

    /// Why an `exists` cannot be searched: too many cases, or a variable without a bound.
    fn unsearchable(&self, too_many: Option<String>, span: &Span) -> Diagnostic {
        match too_many {
            Some(message) => Diagnostic::error(Code::BudgetExceeded, message)
                .at(&self.file, span.clone())
                .label("too many cases to search")
                .help("narrow the ranges, or raise max-cases in book.toml"),
            None => Diagnostic::error(
                Code::CannotProve,
                "`exists` needs a bound on every variable",
            )
            .at(&self.file, span.clone())
            .label("a search for a witness must end")
            .help("write a bound, for example `exists x < 256: …`"),
        }
    }

    /// The report for a `forall` the identity method refuted at `point`: the evaluator checks
    /// the case, so the counterexample shown is one the reader can verify.
    fn refuted(&self, q: &Question<'_>, point: Vec<Nimber>) -> Undecided {
        let locals: Vec<(&str, Value)> = q
            .binders
            .iter()
            .zip(point)
            .map(|(b, x)| (b.name.as_str(), Value::Num(x)))
            .collect();
        let case = describe(&locals);
        let scope = Scope {
            lets: &self.lets,
            locals: &locals,
        };
        match evaluate_claim(q.body, &scope, &self.limits) {
            Ok(Some(f)) => {
                let mut d = self.claim_failure(q.body, &f);
                d.message = "claim does not hold for every value".into();
                d.notes.insert(
                    0,
                    format!("counterexample: {case} (the two sides are different polynomials, and differ here)"),
                );
                fails(Box::new(d))
            }
            Ok(None) => error(Box::new(
                Diagnostic::error(Code::CannotProve, "cannot prove this claim for every value")
                    .at(&self.file, q.span.clone())
                    .note(format!(
                        "the sides differ as polynomials, but the evaluator finds the claim true at {case}"
                    )),
            )),
            Err(e) => error(self.case_error(e, &case)),
        }
    }

    /// An error met while checking one case, with the case named.
    fn case_error(&self, e: ClaimError, case: &str) -> Box<Diagnostic> {
        let mut d = self.to_diagnostic(e);
        d.notes.insert(0, format!("while checking the case {case}"));
        d
    }

    /// Checks every case of a quantified claim, variable `i` running over
    /// `starts[i] .. starts[i] + sizes[i]`, in parallel but reporting the first case (in order)
    /// that fails, or for `exists` the first that holds. `why` is a note added to a
    /// counterexample.
    fn enumerate(
        &self,
        q: &Question<'_>,
        starts: &[u64],
        sizes: &[u64],
        total: u64,
        why: Option<&str>,
    ) -> Result<Option<String>, Undecided> {
        let cases = Cases {
            checker: self,
            q,
            starts,
            sizes,
            total,
            started: Instant::now(),
            deadline: self.limits.game.max_time,
            timed_out: AtomicBool::new(false),
            checked: AtomicU64::new(0),
        };
        match q.quantifier {
            Quantifier::Forall => cases.forall(why).map(|()| None),
            Quantifier::Exists => cases.exists().map(Some),
        }
    }
}

/// The cases of one quantified claim, numbered `0 .. total`, and the clock they share.
///
/// The whole check shares one deadline, so that a quantifier over a slow question (a game
/// search in every case, say) cannot run on for hours: past it, every remaining case stops at
/// once and the check is reported as over its time budget.
struct Cases<'a> {
    checker: &'a Checker,
    q: &'a Question<'a>,
    starts: &'a [u64],
    sizes: &'a [u64],
    total: u64,
    started: Instant,
    deadline: Duration,
    timed_out: AtomicBool,
    checked: AtomicU64,
}

impl Cases<'_> {
    /// The values of the variables in case `index`, the last variable running fastest.
    fn assignment(&self, mut index: u64) -> Vec<(&str, Value)> {
        let mut out: Vec<(&str, Value)> = self
            .q
            .binders
            .iter()
            .map(|b| (b.name.as_str(), Value::Num(Nimber::zero())))
            .collect();
        for ((slot, &s), &start) in out.iter_mut().zip(self.sizes).zip(self.starts).rev() {
            slot.1 = Value::Num(Nimber::from_u128(
                u128::from(start) + u128::from(index % s.max(1)),
            ));
            index /= s.max(1);
        }
        out
    }

    /// Whether the deadline has passed. The clock is read, and progress counted, once every
    /// 1024 cases: shared counters touched on every case would cost more than a simple case.
    fn expired(&self, i: u64) -> bool {
        if i.is_multiple_of(1024) {
            self.checked
                .fetch_add(1024.min(self.total - i), Ordering::Relaxed);
            if self.started.elapsed() > self.deadline || crate::game::cancel::is_raised() {
                self.timed_out.store(true, Ordering::Relaxed);
            }
        }
        self.timed_out.load(Ordering::Relaxed)
    }

    fn over_time(&self) -> Undecided {
        let checked = self.checked.load(Ordering::Relaxed);
        error(Box::new(
            Diagnostic::error(
                Code::BudgetExceeded,
                format!(
                    "quantified claim ran out of its time budget of {} s after about {checked} of {} cases ([nimbook] max-seconds)",
                    self.deadline.as_secs(),
                    self.total
                ),
            )
            .at(&self.checker.file, self.q.span.clone())
            .label("too slow to check exhaustively")
            .help("narrow the ranges, or raise max-seconds in book.toml"),
        ))
    }

    /// The claim in case `i`: `Ok(None)` when it holds.
    fn outcome(&self, i: u64) -> Result<Option<super::failure::Failure>, ClaimError> {
        let locals = self.assignment(i);
        let scope = Scope {
            lets: &self.checker.lets,
            locals: &locals,
        };
        evaluate_claim(self.q.body, &scope, &self.checker.limits)
    }

    /// `forall`: every case holds, or the first that does not is the counterexample.
    fn forall(&self, why: Option<&str>) -> Result<(), Undecided> {
        let first_bad = (0..self.total)
            .into_par_iter()
            .find_first(|&i| self.expired(i) || !matches!(self.outcome(i), Ok(None)));
        if self.timed_out.load(Ordering::Relaxed) {
            return Err(self.over_time());
        }
        let Some(i) = first_bad else {
            return Ok(());
        };
        let case = describe(&self.assignment(i));
        match self.outcome(i) {
            Ok(Some(f)) => {
                let mut d = self.checker.claim_failure(self.q.body, &f);
                d.message = "claim does not hold for every case".into();
                d.notes.insert(
                    0,
                    format!(
                        "counterexample: {case} (the first of {} cases that fails)",
                        self.total
                    ),
                );
                if let Some(why) = why {
                    d.notes.insert(1, why.to_string());
                }
                Err(fails(Box::new(d)))
            }
            Err(e) => Err(error(self.checker.case_error(e, &case))),
            Ok(None) => Ok(()),
        }
    }

    /// `exists`: the first case that holds is the witness.
    fn exists(&self) -> Result<String, Undecided> {
        let witness = (0..self.total)
            .into_par_iter()
            .find_first(|&i| !self.expired(i) && matches!(self.outcome(i), Ok(None)));
        if let Some(i) = witness {
            return Ok(describe(&self.assignment(i)));
        }
        if self.timed_out.load(Ordering::Relaxed) {
            return Err(self.over_time());
        }
        // No witness: the claim is false only if every case was decided. This second pass
        // runs on the failure path alone.
        let broken = (0..self.total)
            .into_par_iter()
            .find_first(|&i| self.outcome(i).is_err());
        if let Some(i) = broken {
            if let Err(e) = self.outcome(i) {
                let case = describe(&self.assignment(i));
                return Err(error(self.checker.case_error(e, &case)));
            }
        }
        let total = self.total;
        Err(fails(Box::new(
            Diagnostic::error(Code::FalseClaim, "no case satisfies the claim")
                .at(&self.checker.file, self.q.span.clone())
                .label(format!("none of the {total} cases holds"))
                .note(format!("checked every one of the {total} cases")),
        )))
    }
}
