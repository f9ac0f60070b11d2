//! The checker: runs the statements of one lesson in order and turns every failure into a
//! diagnostic with the file position of the failing sub-expression.
//!
//! Checking never stops at the first failure: every statement of every block is checked, and a
//! statement that fails to parse is reported and skipped, so one run lists every error.
//!
//! The rooms: `failure` (evaluating a claim, and the diagnostic when a link fails) and
//! `quantified` (`forall` and `exists`: every case, or a proof).

mod failure;
mod quantified;

use std::collections::HashMap;
use std::sync::Arc;

use super::ast::{Claim, Expr, ExprKind, Spanned, Statement};
use super::eval::{eval, Scope};
use super::lexer::{lex, Tok};
use super::parser::parse_statement;
use super::prove::Established;
use super::value::Value;
use super::{ClaimError, Limits};
use crate::diag::{Code, Diagnostic, SourceFile, Span};
use failure::evaluate_claim;

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

/// Checks the statements of one source text, in document order: the `let` bindings in scope,
/// the claims counted, the diagnostics collected. It knows nothing of pages; the site's lesson
/// stage owns one per lesson.
pub struct Checker {
    file: Arc<SourceFile>,
    lets: HashMap<String, Value>,
    limits: Limits,
    diagnostics: Vec<Diagnostic>,
    claims: usize,
}

impl Checker {
    /// A checker for the lesson in `file`.
    pub fn new(file: Arc<SourceFile>, limits: Limits) -> Self {
        Checker {
            file,
            lets: HashMap::new(),
            limits,
            diagnostics: Vec::new(),
            claims: 0,
        }
    }

    /// Every diagnostic so far, in the order found.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Takes the diagnostics found so far, leaving none.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    /// Claims checked: every link of a chain, every `is`, every quantified claim, every step of
    /// a verified derivation, every decided option.
    pub fn claims(&self) -> usize {
        self.claims
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
                    self.push_diagnostic(
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
                            self.push_diagnostic(
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
                    self.push_diagnostic(
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

    /// Records a diagnostic found outside the claims of the lesson (bad math, a broken link).
    pub fn push_diagnostic(&mut self, d: Diagnostic) {
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

/// The names that the `let` statements of a block bind, each with the span of its statement in
/// `text` (a name is bound after it), read from the statements' first tokens without parsing or
/// evaluating the rest: for an editor, which must answer while the text is half typed and
/// before its check ends.
pub(crate) fn bindings(text: &str, limits: &Limits) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for range in statement_ranges(text) {
        let statement = &text[range.clone()];
        // A statement may not lex to its end while it is being typed; its start is enough.
        let tokens = lex(statement, limits)
            .or_else(|e| lex(statement.get(..e.span.start).unwrap_or_default(), limits));
        let Ok(tokens) = tokens else { continue };
        if let [first, second, ..] = tokens.as_slice() {
            if let (Tok::Ident(keyword), Tok::Ident(name)) = (&first.tok, &second.tok) {
                if keyword == "let" {
                    out.push((name.clone(), range.clone()));
                }
            }
        }
    }
    out
}

/// The answer to one `nimbook calc` line: the value of an expression, or `true`/`false` for a
/// claim. Errors come back as a one-line message with the column.
pub fn calc(line: &str, checker: &mut Checker) -> Result<String, String> {
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
