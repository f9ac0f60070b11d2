//! The checker: runs the statements of one lesson in order and turns every failure into a
//! diagnostic with the file position of the failing sub-expression.
//!
//! Checking never stops at the first failure: every statement of every block is checked, and a
//! statement that fails to parse is reported and skipped, so one run lists every error.

use std::collections::HashMap;
use std::sync::Arc;

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use rayon::prelude::*;

use super::ast::{
    BinOp, Binder, Claim, Expr, ExprKind, OutcomeClass, Quantifier, Range, Rel, Spanned, Statement,
};
use super::builtins;
use super::eval::{eval, Scope};
use super::lexer::lex;
use super::parser::parse_statement;
use super::prove::{self, Domain, Established, Plan};
use super::value::{compare, Value};
use super::{ClaimError, Limits};
use crate::diag::{Code, Diagnostic, SourceFile, Span};

/// Text gathered from pieces of a file (the lines of a code block, say), with the way back from
/// an offset in the text to an offset in the file.
#[derive(Debug, Clone, Default)]
pub struct MappedText {
    /// The gathered text.
    pub text: String,
    pieces: Vec<(usize, usize)>,
}

impl MappedText {
    /// A text that stands in the file as it is, starting at `file_offset`.
    pub fn contiguous(text: &str, file_offset: usize) -> Self {
        let mut m = MappedText::default();
        m.push(text, file_offset);
        m
    }

    /// Appends a piece that starts at `file_offset` in the file.
    pub fn push(&mut self, piece: &str, file_offset: usize) {
        self.pieces.push((self.text.len(), file_offset));
        self.text.push_str(piece);
    }

    /// The file offset of text offset `local`.
    pub fn to_file(&self, local: usize) -> usize {
        let i = self.pieces.partition_point(|&(start, _)| start <= local);
        match i.checked_sub(1).and_then(|i| self.pieces.get(i)) {
            Some(&(start, file)) => file + (local - start),
            None => local,
        }
    }
}

/// A generated-block directive `name(args…)` with its arguments evaluated.
#[derive(Debug, Clone)]
pub struct Directive {
    /// The directive's name.
    pub name: String,
    /// Where the name stands.
    pub name_span: Span,
    /// The argument values and where each was written.
    pub args: Vec<(Value, Span)>,
    /// The arguments as written, for directives that look inside them (the items of a list).
    pub exprs: Vec<Expr>,
    /// The whole call.
    pub span: Span,
}

/// One entry of a lesson's answer key: an exercise or a multiple-choice question, with the
/// answer the engine computed when the lesson was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerKey {
    /// The element id of the question on the page (`exercise-3`).
    pub id: String,
    /// The question, as the author wrote it.
    pub question: String,
    /// The answer expression as written (`6 * 13`), or the options judged, for a choice.
    pub source: String,
    /// The answer, as the engine computed it (`15`; for a choice, the correct options).
    pub answer: String,
}

/// What became of one statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A claim that was checked and holds.
    Holds,
    /// A claim that does not hold.
    Fails,
    /// A statement that could not be parsed or evaluated.
    Error,
    /// A `let` binding.
    Bound,
    /// A bare expression, whose value is shown.
    Value,
}

/// One checked statement, for the site to render.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The parsed statement, with file spans; `None` when it did not parse.
    pub stmt: Option<Spanned>,
    /// What became of it.
    pub status: Status,
    /// The value of a bare expression or a `let`.
    pub value: Option<Value>,
    /// The statement's source text, as written.
    pub source: String,
    /// For `exists`, the witness found (`x = 3`).
    pub witness: Option<String>,
    /// For a `forall` that holds, how it was established.
    pub established: Option<Established>,
}

/// What became of one statement, before it is joined to its text.
struct Verdict {
    status: Status,
    value: Option<Value>,
    witness: Option<String>,
    established: Option<Established>,
}

impl Verdict {
    fn of(status: Status) -> Self {
        Verdict {
            status,
            value: None,
            witness: None,
            established: None,
        }
    }

    fn value(status: Status, value: Value) -> Self {
        Verdict {
            value: Some(value),
            ..Verdict::of(status)
        }
    }
}

/// Checks the statements of one lesson, in document order, and collects diagnostics.
pub struct LessonChecker {
    file: Arc<SourceFile>,
    lets: HashMap<String, Value>,
    limits: Limits,
    /// Every diagnostic so far.
    pub diagnostics: Vec<Diagnostic>,
    /// Claims checked: every link of a chain, every `is`, every quantified claim.
    pub claims: usize,
    /// The answer key of the lesson's exercises, in document order.
    pub answers: Vec<AnswerKey>,
}

/// A failed link: which one, and the two values.
struct Failure {
    link: usize,
    lhs: Value,
    rhs: Value,
}

impl LessonChecker {
    /// A checker for the lesson in `file`.
    pub fn new(file: Arc<SourceFile>, limits: Limits) -> Self {
        LessonChecker {
            file,
            lets: HashMap::new(),
            limits,
            diagnostics: Vec::new(),
            claims: 0,
            answers: Vec::new(),
        }
    }

    /// The lesson's file.
    pub fn file(&self) -> &Arc<SourceFile> {
        &self.file
    }

    /// Reads the directives of a generated block: one `name(arg, …)` call per line, with every
    /// argument evaluated in the lesson's scope. Errors are reported and the line skipped.
    pub fn directives(&mut self, block: &MappedText) -> Vec<Directive> {
        let mut out = Vec::new();
        for range in statement_ranges(&block.text) {
            let Some(stmt) = self.parse_text(block, range, true) else {
                continue;
            };
            match stmt.stmt {
                Statement::Expr(Expr {
                    kind:
                        ExprKind::Call {
                            name,
                            name_span,
                            args,
                        },
                    span,
                }) => {
                    let no_locals: [(&str, Value); 0] = [];
                    let scope = Scope {
                        lets: &self.lets,
                        locals: &no_locals,
                    };
                    let values: Result<Vec<_>, _> = args
                        .iter()
                        .map(|a| eval(a, &scope, &self.limits).map(|v| (v, a.span.clone())))
                        .collect();
                    match values {
                        Ok(values) => out.push(Directive {
                            name,
                            name_span,
                            args: values,
                            exprs: args,
                            span,
                        }),
                        Err(e) => self.report(e),
                    }
                }
                _ => self.report(ClaimError::syntax(
                    stmt.span,
                    "expected a directive such as `multiplication_table(16)`",
                )),
            }
        }
        out
    }

    /// Checks a worked derivation produced by an engine: every step must parse and have the
    /// same value as the one before it. Each link counts as a claim; a failure is reported at
    /// `at`, the directive that asked for the derivation.
    pub fn verify_steps(&mut self, steps: &[String], at: &Span) -> Vec<Option<Expr>> {
        let no_locals: [(&str, Value); 0] = [];
        let mut exprs = Vec::new();
        let mut previous: Option<(Value, String)> = None;
        for (i, step) in steps.iter().enumerate() {
            let parsed =
                lex(step, &self.limits).and_then(|toks| parse_statement(&toks, &self.limits, true));
            let expr = match parsed.map(|s| s.stmt) {
                Ok(Statement::Expr(e)) => e,
                Ok(_) | Err(_) => {
                    self.push_error(
                        Diagnostic::error(
                            Code::SyntaxError,
                            format!("step {} of a derivation does not parse: `{step}`", i + 1),
                        )
                        .at(&self.file, at.clone()),
                    );
                    exprs.push(None);
                    continue;
                }
            };
            let scope = Scope {
                lets: &self.lets,
                locals: &no_locals,
            };
            match eval(&expr, &scope, &self.limits) {
                Ok(v) => {
                    if let Some((pv, ps)) = &previous {
                        self.claims += 1;
                        if *pv != v {
                            self.push_error(
                                Diagnostic::error(
                                    Code::FalseClaim,
                                    "a step of the derivation does not hold",
                                )
                                .at(&self.file, at.clone())
                                .note(format!("`{ps}` is {pv}"))
                                .note(format!("`{step}` is {v}")),
                            );
                        }
                    }
                    previous = Some((v, step.clone()));
                }
                Err(e) => {
                    self.push_error(
                        Diagnostic::error(
                            e.code,
                            format!("step {} of a derivation: {}", i + 1, e.message),
                        )
                        .at(&self.file, at.clone()),
                    );
                }
            }
            exprs.push(Some(expr));
        }
        exprs
    }

    /// Decides a claim written as text, such as an option of a multiple-choice question:
    /// whether it holds, and the parsed statement. A claim that does not hold is an answer here,
    /// not an error; text that is not a claim, or that fails to evaluate, is reported and gives
    /// `None`. Each decided claim counts as checked.
    pub fn decide(&mut self, text: &MappedText) -> Option<(bool, Spanned)> {
        let stmt = self.parse_text(text, 0..text.text.len(), false)?;
        let Statement::Claim(claim) = &stmt.stmt else {
            self.report(ClaimError::new(
                stmt.span.clone(),
                "an option of a choice must be a claim such as `6 * 13 = 15` or `nim(1, 2, 3) is P`",
            ));
            return None;
        };
        let no_locals: [(&str, Value); 0] = [];
        let scope = Scope {
            lets: &self.lets,
            locals: &no_locals,
        };
        match evaluate_claim(claim, &scope, &self.limits) {
            Ok(failure) => {
                self.claims += 1;
                Some((failure.is_none(), stmt))
            }
            Err(e) => {
                self.report(e);
                None
            }
        }
    }

    /// The value of an expression in the lesson's scope, such as an operand of a directive's
    /// argument; nothing is reported.
    pub fn evaluate(&self, e: &Expr) -> Result<Value, ClaimError> {
        let no_locals: [(&str, Value); 0] = [];
        let scope = Scope {
            lets: &self.lets,
            locals: &no_locals,
        };
        eval(e, &scope, &self.limits)
    }

    /// The lesson's limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Records an error found outside the claims of the lesson (bad math, a broken link).
    pub fn push_error(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    /// Moves on to another source text, keeping the `let` bindings (used by `nimbook calc -`,
    /// where every input line is its own source).
    pub fn set_file(&mut self, file: Arc<SourceFile>) {
        self.file = file;
    }

    /// Checks a `nim` block: one statement per line, and lines that begin with a relation
    /// continue the statement before them.
    pub fn check_block(&mut self, block: &MappedText) -> Vec<Checked> {
        let mut out = Vec::new();
        for range in statement_ranges(&block.text) {
            out.push(self.check_text(block, range, false));
        }
        out
    }

    /// Checks an inline form (the text after `nim:`); a bare expression is allowed and its value
    /// is returned.
    pub fn check_inline(&mut self, text: &MappedText) -> Checked {
        self.check_text(text, 0..text.text.len(), true)
    }

    fn check_text(&mut self, text: &MappedText, range: Span, inline: bool) -> Checked {
        let source = text.text[range.clone()].trim().to_string();
        let Some(stmt) = self.parse_text(text, range, inline) else {
            return Checked {
                stmt: None,
                status: Status::Error,
                value: None,
                source,
                witness: None,
                established: None,
            };
        };
        let verdict = self.run(&stmt);
        Checked {
            stmt: Some(stmt),
            status: verdict.status,
            value: verdict.value,
            source,
            witness: verdict.witness,
            established: verdict.established,
        }
    }

    /// Parses one statement of `text` (the part in `range`), with spans mapped to the file.
    /// A syntax error is reported and gives `None`.
    fn parse_text(&mut self, text: &MappedText, range: Span, inline: bool) -> Option<Spanned> {
        let map = |local: usize| text.to_file(local);
        let shift = |s: &Span| s.start + range.start..s.end + range.start;
        let parsed = lex(&text.text[range.clone()], &self.limits)
            .map_err(|mut e| {
                e.span = shift(&e.span);
                e
            })
            .and_then(|mut toks| {
                for t in &mut toks {
                    t.span = shift(&t.span);
                }
                parse_statement(&toks, &self.limits, inline)
            });
        match parsed {
            Ok(mut stmt) => {
                stmt.stmt.remap(&map);
                stmt.span = map(stmt.span.start)..map(stmt.span.end);
                Some(stmt)
            }
            Err(mut e) => {
                e.span = map(e.span.start)..map(e.span.end);
                self.report(e);
                None
            }
        }
    }

    fn report(&mut self, e: ClaimError) {
        let d = e.into_diagnostic(&self.file);
        self.diagnostics.push(d);
    }

    fn run(&mut self, stmt: &Spanned) -> Verdict {
        let scope_locals: [(&str, Value); 0] = [];
        match &stmt.stmt {
            Statement::Let {
                name,
                name_span,
                value,
            } => {
                let scope = Scope {
                    lets: &self.lets,
                    locals: &scope_locals,
                };
                match eval(value, &scope, &self.limits) {
                    Ok(v) => {
                        if self.lets.contains_key(name) {
                            self.diagnostics.push(
                                Diagnostic::warning(
                                    Code::RedefinedName,
                                    format!("`{name}` is bound again"),
                                )
                                .at(&self.file, name_span.clone())
                                .note("later claims see the new value"),
                            );
                        }
                        self.lets.insert(name.clone(), v.clone());
                        Verdict::value(Status::Bound, v)
                    }
                    Err(e) => {
                        self.report(e);
                        Verdict::of(Status::Error)
                    }
                }
            }
            Statement::Expr(e) => {
                let scope = Scope {
                    lets: &self.lets,
                    locals: &scope_locals,
                };
                match eval(e, &scope, &self.limits) {
                    Ok(v) => Verdict::value(Status::Value, v),
                    Err(e) => {
                        self.report(e);
                        Verdict::of(Status::Error)
                    }
                }
            }
            Statement::Claim(claim) => {
                self.claims += match claim {
                    Claim::Chain(chain) => chain.links.len(),
                    Claim::Is { .. } => 1,
                };
                let scope = Scope {
                    lets: &self.lets,
                    locals: &scope_locals,
                };
                match evaluate_claim(claim, &scope, &self.limits) {
                    Ok(None) => Verdict::of(Status::Holds),
                    Ok(Some(f)) => {
                        let d = self.claim_failure(claim, &f);
                        self.diagnostics.push(d);
                        Verdict::of(Status::Fails)
                    }
                    Err(e) => {
                        self.report(e);
                        Verdict::of(Status::Error)
                    }
                }
            }
            Statement::Quantified {
                quantifier,
                binders,
                body,
            } => {
                self.claims += 1;
                match self.quantified(*quantifier, binders, body, &stmt.span) {
                    Ok((witness, established)) => Verdict {
                        witness,
                        established,
                        ..Verdict::of(Status::Holds)
                    },
                    Err((status, d)) => {
                        self.diagnostics.push(*d);
                        Verdict::of(status)
                    }
                }
            }
        }
    }

    fn to_diagnostic(&self, e: ClaimError) -> Box<Diagnostic> {
        Box::new(e.into_diagnostic(&self.file))
    }

    /// Decides a quantified claim: by checking every case when the ranges are bounded and
    /// small enough, and otherwise by a proof ([`prove`]). Gives the witness of an `exists` and
    /// how a `forall` was established.
    fn quantified(
        &self,
        quantifier: Quantifier,
        binders: &[Binder],
        body: &Claim,
        span: &Span,
    ) -> Result<(Option<String>, Option<Established>), Undecided> {
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
                let witness = self.enumerate(
                    quantifier, binders, body, &starts, &sizes, total, span, None,
                )?;
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
            let d = match too_many {
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
            };
            return Err(error(Box::new(d)));
        }
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
                self.enumerate(
                    quantifier,
                    binders,
                    body,
                    &[w.start],
                    &[w.end - w.start],
                    w.end - w.start,
                    span,
                    Some(&note),
                )?;
                Ok((
                    None,
                    Some(Established::Periodic {
                        period: w.period,
                        from: w.from,
                    }),
                ))
            }
            Plan::Refuted(point) => {
                let locals: Vec<(&str, Value)> = binders
                    .iter()
                    .zip(point)
                    .map(|(b, x)| (b.name.as_str(), Value::Num(x)))
                    .collect();
                let case = describe(&locals);
                let scope = Scope {
                    lets: &self.lets,
                    locals: &locals,
                };
                match evaluate_claim(body, &scope, &self.limits) {
                    Ok(Some(f)) => {
                        let mut d = self.claim_failure(body, &f);
                        d.message = "claim does not hold for every value".into();
                        d.notes.insert(
                            0,
                            format!("counterexample: {case} (the two sides are different polynomials, and differ here)"),
                        );
                        Err(fails(Box::new(d)))
                    }
                    Ok(None) => Err(error(Box::new(
                        Diagnostic::error(Code::CannotProve, "cannot prove this claim for every value")
                            .at(&self.file, span.clone())
                            .note(format!(
                                "the sides differ as polynomials, but the evaluator finds the claim true at {case}"
                            )),
                    ))),
                    Err(e) => {
                        let mut d = *self.to_diagnostic(e);
                        d.notes.insert(0, format!("while checking the case {case}"));
                        Err(error(Box::new(d)))
                    }
                }
            }
        }
    }

    /// Checks every case of a quantified claim, variable `i` running over
    /// `starts[i] .. starts[i] + sizes[i]`, in parallel but reporting the first case (in order)
    /// that fails, or for `exists` the first that holds. `why` is a note added to a
    /// counterexample.
    #[allow(clippy::too_many_arguments)]
    fn enumerate(
        &self,
        quantifier: Quantifier,
        binders: &[Binder],
        body: &Claim,
        starts: &[u64],
        sizes: &[u64],
        total: u64,
        span: &Span,
        why: Option<&str>,
    ) -> Result<Option<String>, Undecided> {
        let assignment = |mut index: u64| -> Vec<(&str, Value)> {
            let mut out: Vec<(&str, Value)> = binders
                .iter()
                .map(|b| (b.name.as_str(), Value::Num(crate::nim::Nimber::zero())))
                .collect();
            for ((slot, &s), &start) in out.iter_mut().zip(sizes).zip(starts).rev() {
                slot.1 = Value::Num(crate::nim::Nimber::from_u128(
                    u128::from(start) + u128::from(index % s.max(1)),
                ));
                index /= s.max(1);
            }
            out
        };
        // The whole check shares one deadline, so that a quantifier over a slow question (a game
        // search in every case, say) cannot run on for hours: past it, every remaining case
        // stops at once and the check is reported as over its time budget.
        let started = std::time::Instant::now();
        let deadline = self.limits.game.max_time;
        let timed_out = std::sync::atomic::AtomicBool::new(false);
        let checked = std::sync::atomic::AtomicU64::new(0);
        // The clock is read, and progress counted, once every 1024 cases: shared counters
        // touched on every case would cost more than a simple case itself.
        let expired = |i: u64| {
            if i % 1024 == 0 {
                checked.fetch_add(1024.min(total - i), std::sync::atomic::Ordering::Relaxed);
                if started.elapsed() > deadline || crate::game::cancel::is_raised() {
                    timed_out.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            timed_out.load(std::sync::atomic::Ordering::Relaxed)
        };
        let over_time = |checked: u64| {
            Box::new(
                Diagnostic::error(Code::BudgetExceeded, format!(
                    "quantified claim ran out of its time budget of {} s after about {checked} of {total} cases ([nimbook] max-seconds)",
                    deadline.as_secs()
                ))
                .at(&self.file, span.clone())
                .label("too slow to check exhaustively")
                .help("narrow the ranges, or raise max-seconds in book.toml"),
            )
        };
        let outcome = |i: u64| {
            let locals = assignment(i);
            let scope = Scope {
                lets: &self.lets,
                locals: &locals,
            };
            evaluate_claim(body, &scope, &self.limits)
        };
        match quantifier {
            Quantifier::Forall => {
                let first_bad = (0..total)
                    .into_par_iter()
                    .find_first(|&i| expired(i) || !matches!(outcome(i), Ok(None)));
                if timed_out.load(std::sync::atomic::Ordering::Relaxed) {
                    return Err(error(over_time(
                        checked.load(std::sync::atomic::Ordering::Relaxed),
                    )));
                }
                let Some(i) = first_bad else {
                    return Ok(None);
                };
                let locals = assignment(i);
                let case = describe(&locals);
                match outcome(i) {
                    Ok(Some(f)) => {
                        let mut d = self.claim_failure(body, &f);
                        d.message = "claim does not hold for every case".into();
                        d.notes.insert(
                            0,
                            format!(
                                "counterexample: {case} (the first of {total} cases that fails)"
                            ),
                        );
                        if let Some(why) = why {
                            d.notes.insert(1, why.to_string());
                        }
                        Err(fails(Box::new(d)))
                    }
                    Err(e) => {
                        let mut d = *self.to_diagnostic(e);
                        d.notes.insert(0, format!("while checking the case {case}"));
                        Err(error(Box::new(d)))
                    }
                    Ok(None) => Ok(None),
                }
            }
            Quantifier::Exists => {
                let witness = (0..total)
                    .into_par_iter()
                    .find_first(|&i| !expired(i) && matches!(outcome(i), Ok(None)));
                if witness.is_none() && timed_out.load(std::sync::atomic::Ordering::Relaxed) {
                    return Err(error(over_time(
                        checked.load(std::sync::atomic::Ordering::Relaxed),
                    )));
                }
                if witness.is_none() {
                    // No witness: the claim is false only if every case was decided. This
                    // second pass runs on the failure path alone.
                    let broken = (0..total)
                        .into_par_iter()
                        .find_first(|&i| outcome(i).is_err());
                    if let Some(i) = broken {
                        if let Err(e) = outcome(i) {
                            let case = describe(&assignment(i));
                            let mut d = *self.to_diagnostic(e);
                            d.notes.insert(0, format!("while checking the case {case}"));
                            return Err(error(Box::new(d)));
                        }
                    }
                }
                match witness {
                    Some(i) => Ok(Some(describe(&assignment(i)))),
                    None => Err(fails(Box::new(
                        Diagnostic::error(Code::FalseClaim, "no case satisfies the claim")
                            .at(&self.file, span.clone())
                            .label(format!("none of the {total} cases holds"))
                            .note(format!("checked every one of the {total} cases")),
                    ))),
                }
            }
        }
    }

    /// The diagnostic for a claim whose link `f.link` does not hold.
    fn claim_failure(&self, claim: &Claim, f: &Failure) -> Diagnostic {
        match claim {
            Claim::Is { expr, class, .. } => {
                let want = match class {
                    OutcomeClass::P => "P",
                    OutcomeClass::N => "N",
                    OutcomeClass::D => "D",
                };
                Diagnostic::error(Code::FalseClaim, "claim does not hold")
                    .at(&self.file, expr.span.start..expr.span.end)
                    .label(format!("this position is {}, not {want}", f.lhs))
                    .note(format!(
                        "{expr} is {} {}-position",
                        if f.lhs.to_string() == "N" { "an" } else { "a" },
                        f.lhs
                    ))
            }
            Claim::Chain(chain) => {
                let link = &chain.links[f.link];
                let lhs_expr = if f.link == 0 {
                    &chain.first
                } else {
                    &chain.links[f.link - 1].rhs
                };
                let span = lhs_expr.span.start..link.rhs.span.end;
                let rel = link.rel.symbol();
                let mut d = Diagnostic::error(Code::FalseClaim, "claim does not hold")
                    .at(&self.file, span)
                    .label(match link.rel {
                        Rel::Eq => format!("{lhs_expr} is {}, not {}", f.lhs, f.rhs),
                        _ => format!("{} {rel} {} is false", f.lhs, f.rhs),
                    });
                if chain.links.len() > 1 {
                    d = d.note(format!(
                        "link {} of {} in this chain fails",
                        f.link + 1,
                        chain.links.len()
                    ));
                }
                d = d.note(format!("left side `{lhs_expr}` evaluates to {}", f.lhs));
                d = d.note(format!("right side `{}` evaluates to {}", link.rhs, f.rhs));
                if link.rel == Rel::Eq {
                    for h in near_miss(lhs_expr, &f.lhs, &f.rhs)
                        .into_iter()
                        .chain(near_miss(&link.rhs, &f.rhs, &f.lhs))
                    {
                        d = d.help(h);
                    }
                }
                d
            }
        }
    }
}

/// Why a quantified claim was not established: [`Status::Fails`] with a counterexample (or no
/// witness), or [`Status::Error`] when it could not be decided.
type Undecided = (Status, Box<Diagnostic>);

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

/// A hint when a side is a single nim operation on numbers whose ordinary result is what the
/// author wrote on the other side, or when the author probably confused the two arithmetics.
fn near_miss(side: &Expr, value: &Value, other: &Value) -> Option<String> {
    let ExprKind::Bin { op, lhs, rhs } = &side.kind else {
        return None;
    };
    let (ExprKind::Num(a), ExprKind::Num(b)) = (&lhs.kind, &rhs.kind) else {
        return None;
    };
    let (x, y) = (a.to_biguint(), b.to_biguint());
    let (what, ordinary, sym) = match op {
        BinOp::NimAdd => ("nim-sum", Some(&x + &y), "+"),
        BinOp::NimMul => ("nim-product", Some(&x * &y), "·"),
        BinOp::NimDiv => ("nim-quotient", None, "/"),
        BinOp::NimPow => ("nim-power", None, "^"),
        _ => return None,
    };
    let mut h = format!("as a {what}, {side} is {value}");
    if let (Some(o), Value::Num(w)) = (ordinary, other) {
        if o == w.to_biguint() {
            h.push_str(&format!(
                "; {w} is the ordinary {} {a} {sym} {b}",
                if *op == BinOp::NimAdd {
                    "sum"
                } else {
                    "product"
                }
            ));
        }
    }
    Some(h)
}

/// Evaluates a claim: `Ok(None)` when it holds, `Ok(Some(failure))` when a link fails.
fn evaluate_claim(
    claim: &Claim,
    scope: &Scope<'_>,
    limits: &Limits,
) -> Result<Option<Failure>, ClaimError> {
    match claim {
        Claim::Chain(chain) => {
            let mut lhs = eval(&chain.first, scope, limits)?;
            let mut lhs_span = chain.first.span.clone();
            for (i, link) in chain.links.iter().enumerate() {
                let rhs = eval(&link.rhs, scope, limits)?;
                let ok = match link.rel {
                    Rel::Eq => lhs == rhs,
                    Rel::Ne => lhs != rhs,
                    rel => {
                        let Some(ord) = compare(&lhs, &rhs) else {
                            return Err(ClaimError::new(
                                lhs_span.start..link.rhs.span.end,
                                format!("`{}` cannot compare {lhs} and {rhs}", rel.symbol()),
                            ));
                        };
                        match rel {
                            Rel::Lt => ord.is_lt(),
                            Rel::Le => ord.is_le(),
                            Rel::Gt => ord.is_gt(),
                            _ => ord.is_ge(),
                        }
                    }
                };
                if !ok {
                    return Ok(Some(Failure { link: i, lhs, rhs }));
                }
                lhs = rhs;
                lhs_span = link.rhs.span.clone();
            }
            Ok(None)
        }
        Claim::Is { expr, class, .. } => {
            let mut v = eval(expr, scope, limits)?;
            if let Value::Game(g) = &v {
                v = builtins::outcome(g, &limits.game)
                    .map_err(|e| builtins::game_error(&expr.span, e))?;
            }
            let actual = match v {
                Value::Outcome(c) => c,
                other => {
                    return Err(ClaimError::new(
                        expr.span.clone(),
                        format!("`is P` and `is N` need a game position, found `{other}`"),
                    ))
                }
            };
            if actual == *class {
                Ok(None)
            } else {
                Ok(Some(Failure {
                    link: 0,
                    lhs: Value::Outcome(actual),
                    rhs: Value::Outcome(*class),
                }))
            }
        }
    }
}

/// Splits a block into statements: each non-blank, non-comment line starts one, and a line
/// whose first character is a relation symbol continues the one before it.
pub(crate) fn statement_ranges(text: &str) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let end = start + line.trim_end().len();
        if trimmed.trim().is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let continues = ["=", "≠", "!=", "<", "≤", ">", "≥"]
            .iter()
            .any(|p| trimmed.starts_with(p));
        match out.last_mut() {
            Some(last) if continues => last.end = end,
            _ => out.push(start..end),
        }
    }
    out
}

/// The answer to one `nimbook calc` line: the value of an expression, or `true`/`false` for a
/// claim. Errors come back as a one-line message with the column.
pub fn calc(line: &str, checker: &mut LessonChecker) -> Result<String, String> {
    let before = checker.diagnostics.len();
    checker.set_file(SourceFile::new("<calc>", line));
    let text = MappedText::contiguous(line, 0);
    let checked = checker.check_inline(&text);
    let errors: Vec<_> = checker.diagnostics.drain(before..).collect();
    if let Some(d) = errors
        .iter()
        .find(|d| d.level == crate::diag::Level::Error && checked.status == Status::Error)
    {
        let col = d
            .location
            .as_ref()
            .map(|(f, s)| f.line_col(s.start).1)
            .unwrap_or(1);
        let mut msg = format!("{} (column {col})", d.message);
        for n in &d.notes {
            msg.push_str(&format!("; note: {n}"));
        }
        for h in &d.helps {
            msg.push_str(&format!("; help: {h}"));
        }
        return Err(msg);
    }
    Ok(match checked.status {
        Status::Holds => "true".into(),
        Status::Fails => "false".into(),
        Status::Value | Status::Bound => checked.value.map(|v| v.to_string()).unwrap_or_default(),
        Status::Error => String::new(),
    })
}
