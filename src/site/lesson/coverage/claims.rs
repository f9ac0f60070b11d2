//! What checked claims add to the account: their literals and values, the operands of a
//! sentence, the values remembered for help lines, and vacuous claims.

use crate::claim::ast::{ExprKind, Statement};
use crate::claim::vacuous::{vacuity, Vacuity};
use crate::claim::{Checked, Checker, Established, Status, Value};
use crate::diag::{Code, Diagnostic, Level};
use crate::nim::Nimber;
use crate::site::load::lints::LintLevel;

use super::{Coverage, Known, NEARBY};
use crate::site::lesson::context::LessonContext;

impl Coverage<'_> {
    /// Accounts for one checked statement; `in_sentence` for an inline span, whose numbers
    /// become operands of its sentence.
    pub(super) fn claim(&mut self, c: &Checked, checker: &mut LessonContext, in_sentence: bool) {
        let Some(stmt) = &c.stmt else {
            return;
        };
        // A range that is empty only once its bound is evaluated (`a < int(3 - 3)`) shows as
        // "checked (0 cases)": as vacuous as `a < 0`.
        let no_cases = matches!(c.established, Some(Established::Checked { cases: 0 }));
        let v = vacuity(&stmt.stmt).or_else(|| {
            no_cases.then(|| Vacuity::EmptyRange {
                name: quantified_names(&stmt.stmt),
            })
        });
        if let Some(v) = v {
            self.vacuous_claim(c, &v, checker);
            return;
        }
        if !matches!(c.status, Status::Holds | Status::Bound | Status::Value) {
            return;
        }
        let mut numbers = Vec::new();
        literals(&stmt.stmt, false, &mut numbers);
        self.counts.verified += numbers.len();
        if in_sentence {
            // Only what the claim says a number *is* verifies prose: `5 + 7 ≠ 12` says
            // nothing of the 12 a sentence may call the nim-sum, nor of the 5 and 7 it adds.
            numbers.clear();
            literals(&stmt.stmt, true, &mut numbers);
            let operands = &mut self.sentence.operands;
            operands.extend(numbers.iter().map(|n| n.to_string()));
            if let (Status::Value, Some(v)) = (c.status, &c.value) {
                shown_numbers(v, operands);
            }
        }
        if let (Status::Value, Some(v)) = (c.status, &c.value) {
            if matches!(v, Value::Num(_)) {
                self.counts.verified += 1;
            }
            self.remember(stmt.span.start, v.to_string(), c.source.clone());
        }
        if let Statement::Claim(crate::claim::ast::Claim::Chain(chain)) = &stmt.stmt {
            // In a link `expr = 15` that holds, 15 is the value of `expr`.
            let mut lhs = &chain.first;
            for link in &chain.links {
                if link.rel == crate::claim::ast::Rel::Eq {
                    for (side, other) in [(lhs, &link.rhs), (&link.rhs, lhs)] {
                        if let ExprKind::Num(n) = &other.kind {
                            if !matches!(side.kind, ExprKind::Num(_)) {
                                let text = self.source.get(side.span.clone()).unwrap_or("");
                                self.remember(side.span.start, n.to_string(), text.to_string());
                            }
                        }
                    }
                }
                lhs = &link.rhs;
            }
        }
    }

    fn remember(&mut self, offset: usize, value: String, source: String) {
        self.known.entry(value.clone()).or_default().push(Known {
            offset,
            value,
            source,
        });
    }

    fn vacuous_claim(&mut self, c: &Checked, v: &Vacuity, checker: &mut LessonContext) {
        let Some(stmt) = &c.stmt else {
            return;
        };
        let level = match self.lints.vacuous_claims {
            LintLevel::Allow => return,
            LintLevel::Warn => Level::Warning,
            LintLevel::Deny => Level::Error,
        };
        let file = std::sync::Arc::clone(checker.file());
        let d = Diagnostic::new(level, Code::VacuousClaim, "this claim computes nothing")
            .at(&file, stmt.span.clone());
        let d = match v {
            Vacuity::BareLiteral => {
                let shown = c.value.as_ref().map(|v| v.to_string()).unwrap_or_default();
                let mut d = d
                    .label(format!("`{}` only repeats the number {shown}", c.source))
                    .help(format!(
                        "to show {shown} as a computed value, write the computation that gives it, such as `nim: grundy(…)`; a number that needs no checking is plain text"
                    ));
                if let Some(k) = self.nearest(&shown, stmt.span.start) {
                    d = d.help(format!(
                        "{shown} is the value of `{}` nearby: write `nim: {}`",
                        k.source, k.source
                    ));
                }
                d
            }
            Vacuity::SameSides { side } => {
                let value = evaluate(side_source(self.source, stmt), checker);
                d.label(format!("both sides are `{side}`"))
                    .help(match value {
                        Some(v) => format!(
                            "write the value on one side: `nim: {} = {v}`",
                            side_source(self.source, stmt)
                        ),
                        None => "write what the expression equals on the other side".to_string(),
                    })
            }
            Vacuity::LiteralSides => d
                .label("both sides are numbers as written")
                .help("compare a computation with a number, such as `nim: 6 * 13 = 15`"),
            Vacuity::EmptyRange { name } => d
                .label(format!(
                    "`{name}` takes no value, so there is no case to check"
                ))
                .help("give the quantifier a range with at least one value"),
            Vacuity::IdleVariable { name } => d
                .label(format!("the claim never uses `{name}`"))
                .help(format!(
                    "use `{name}` in the claim, or state the claim without the quantifier"
                )),
            Vacuity::NothingNew { part, reason } => d
                .label(format!("`{part}` computes nothing new: {reason}"))
                .help(
                    "state what is worth checking; a number that needs no checking is plain text",
                ),
        };
        self.vacuous.push(d);
    }

    /// The claim nearest to `offset` (within [`NEARBY`] bytes) whose value is `value`.
    pub(super) fn nearest(&self, value: &str, offset: usize) -> Option<&Known> {
        self.known
            .get(value)?
            .iter()
            .filter(|k| k.offset.abs_diff(offset) <= NEARBY && k.value == value)
            .min_by_key(|k| k.offset.abs_diff(offset))
    }
}

/// The variables of a quantified statement, as written: `a, b`.
fn quantified_names(stmt: &Statement) -> String {
    match stmt {
        Statement::Quantified { binders, .. } => binders
            .iter()
            .map(|b| b.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        _ => String::new(),
    }
}

/// The source text of the first side of a claim's first link (empty for a quantified claim).
fn side_source<'a>(source: &'a str, stmt: &crate::claim::ast::Spanned) -> &'a str {
    let span = match &stmt.stmt {
        Statement::Claim(crate::claim::ast::Claim::Chain(chain)) => chain.first.span.clone(),
        Statement::Quantified { .. } => return "",
        _ => stmt.span.clone(),
    };
    source.get(span).unwrap_or("")
}

/// The value of a closed expression (no names), for a help line.
fn evaluate(text: &str, checker: &LessonContext) -> Option<String> {
    if text.is_empty() {
        return None;
    }
    let mut scratch = Checker::new(
        crate::diag::SourceFile::new("<help>", ""),
        checker.limits().clone(),
    );
    crate::claim::calc(text, &mut scratch).ok()
}

/// The number literals of a statement, in the order written (quantifier bounds included). With
/// `equal_only`, only those of the sides of a chain that stand beside an `=`: the literals a
/// claim states a value of, or computes one from.
fn literals<'a>(stmt: &'a Statement, equal_only: bool, out: &mut Vec<&'a Nimber>) {
    fn expr<'a>(e: &'a crate::claim::ast::Expr, out: &mut Vec<&'a Nimber>) {
        match &e.kind {
            ExprKind::Num(n) => out.push(n),
            ExprKind::List(items) => items.iter().for_each(|i| expr(i, out)),
            ExprKind::Call { args, .. } => args.iter().for_each(|a| expr(a, out)),
            ExprKind::Bin { lhs, rhs, .. } => {
                expr(lhs, out);
                expr(rhs, out);
            }
            ExprKind::Int(inner) | ExprKind::Paren(inner) => expr(inner, out),
            ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::Bool(_) => {}
        }
    }
    let claim = |c: &'a crate::claim::ast::Claim, out: &mut Vec<&'a Nimber>| {
        match c {
            crate::claim::ast::Claim::Chain(chain) => {
                let eq = |k: usize| {
                    chain
                        .links
                        .get(k)
                        .is_some_and(|l| l.rel == crate::claim::ast::Rel::Eq)
                };
                // Side `k` stands between links `k - 1` and `k`.
                let sides = std::iter::once(&chain.first).chain(chain.links.iter().map(|l| &l.rhs));
                for (k, side) in sides.enumerate() {
                    if !equal_only || eq(k) || (k > 0 && eq(k - 1)) {
                        expr(side, out);
                    }
                }
            }
            crate::claim::ast::Claim::Is { expr: e, .. } => expr(e, out),
        }
    };
    match stmt {
        Statement::Claim(c) => claim(c, out),
        Statement::Expr(e) | Statement::Let { value: e, .. } => expr(e, out),
        Statement::Quantified { binders, body, .. } => {
            for group in crate::claim::ast::binder_groups(binders) {
                if let Some(bound) = group[0].range.bound() {
                    expr(bound, out);
                }
            }
            claim(body, out);
        }
    }
}

/// The numbers a shown value puts on the page, in decimal: a number, or the numbers of a list.
fn shown_numbers(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Num(n) => out.push(n.to_string()),
        Value::List(items) => items.iter().for_each(|i| shown_numbers(i, out)),
        _ => {}
    }
}
