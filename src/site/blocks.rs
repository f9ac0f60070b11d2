//! Generated blocks: fenced blocks whose info string is `nimbook` hold directives, one call per
//! line, such as `multiplication_table(16)`. Each directive is parsed and its arguments
//! evaluated by the claim language, so `let` bindings work and errors point at the argument.
//! The content is computed by the engines at build time; nothing in a generated block is typed
//! by hand.

use std::fmt::Write as _;

use crate::claim::{Directive, LessonChecker, MappedText, Value};
use crate::diag::{Code, Diagnostic, Span};
use crate::nim::Nimber;

use super::mathml::escape;

/// Every directive, with its signature, for suggestions and documentation.
pub const DIRECTIVES: &[(&str, &str)] = &[
    (
        "addition_table",
        "addition_table(n): the nim-sums a ⊕ b for a, b < n",
    ),
    (
        "multiplication_table",
        "multiplication_table(n): the nim-products a ⊗ b for a, b < n",
    ),
    (
        "powers_table",
        "powers_table(n): the nim-products 2^i ⊗ 2^j for i, j < n",
    ),
    (
        "expansion",
        "expansion(a, b): the worked expansion of the nim-product a ⊗ b, every step verified",
    ),
    (
        "grundy_table",
        "grundy_table(\"cram\", rows, cols): Grundy values of Cram m × n for m ≤ rows, n ≤ cols; grundy_table(\"kayles\" | \"dawsons_kayles\" | \"grundys_game\" | \"0.137\", n): values of heaps 0 … n−1",
    ),
    (
        "sequence_table",
        "sequence_table(\"0.77\", n): the Grundy values of heaps 0 … n−1 of an octal game, one proven period to a row, pre-period marked",
    ),
    (
        "draw",
        "draw(G): an SVG of a Nim, Cram, Green Hackenbush, Northcott or Kayles position, with its value",
    ),
    (
        "cram_diagram",
        "cram_diagram(\"AA##/B###/B.##\"): a Cram board, rows split by `/`, `#` free, `.` blocked, a letter on the two cells of a placed domino",
    ),
    (
        "game_graph",
        "game_graph(G): the positions and moves of G (at most 60 positions), P-positions filled",
    ),
    (
        "play",
        "play(nim(3, 5, 7)) or play(kayles(10)): play against the computer's perfect strategy in the page",
    ),
];

/// Renders the directives of one `nimbook` block.
pub fn render(checker: &mut LessonChecker, block: &MappedText) -> String {
    let mut html = String::new();
    for d in checker.directives(block) {
        match render_one(checker, &d) {
            Ok(h) => html.push_str(&h),
            Err(diag) => checker.push_error(diag),
        }
    }
    html
}

pub(super) fn error(checker: &LessonChecker, span: &Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Code::InvalidDirective, msg.into()).at(checker.file(), span.clone())
}

pub(super) fn arity(checker: &LessonChecker, d: &Directive, n: usize) -> Result<(), Diagnostic> {
    if d.args.len() == n {
        return Ok(());
    }
    let usage = DIRECTIVES
        .iter()
        .find(|(name, _)| *name == d.name)
        .map_or("", |(_, u)| u);
    Err(error(
        checker,
        &d.span,
        format!(
            "`{}` takes {n} argument(s), but {} were given",
            d.name,
            d.args.len()
        ),
    )
    .help(format!("usage: {usage}")))
}

/// A table side: a number from 1 to the `max-table` budget.
pub(super) fn side(checker: &LessonChecker, arg: &(Value, Span)) -> Result<u64, Diagnostic> {
    let max = checker.limits().max_table;
    match &arg.0 {
        Value::Num(n) => match n.to_u64() {
            Some(v) if (1..=max).contains(&v) => Ok(v),
            _ => {
                let d = error(
                    checker,
                    &arg.1,
                    format!(
                        "a table side must be between 1 and {max} ([nimbook] max-table), not {n}"
                    ),
                );
                Err(if n.is_zero() {
                    d
                } else {
                    Diagnostic {
                        code: Code::BudgetExceeded,
                        ..d
                    }
                })
            }
        },
        other => Err(error(
            checker,
            &arg.1,
            format!("expected a number, found `{other}`"),
        )),
    }
}

fn render_one(checker: &mut LessonChecker, d: &Directive) -> Result<String, Diagnostic> {
    match d.name.as_str() {
        "addition_table" | "multiplication_table" => {
            arity(checker, d, 1)?;
            let n = side(checker, &d.args[0])?;
            let add = d.name == "addition_table";
            let label = |i: u64| i.to_string();
            Ok(table(
                if add { "⊕" } else { "⊗" },
                &format!(
                    "Nim-{} of a and b for a, b < {n}; lines mark the subfields of sizes 2, 4, 16 and 256",
                    if add { "sums" } else { "products" }
                ),
                n,
                label,
                is_fermat,
                |a, b| {
                    let (x, y) = (Nimber::from_u64(a), Nimber::from_u64(b));
                    if add { x.nim_add(&y) } else { x.nim_mul(&y) }.to_string()
                },
            ))
        }
        "powers_table" => {
            arity(checker, d, 1)?;
            let n = side(checker, &d.args[0])?.min(128);
            let pow2 = |i: u64| Nimber::from_biguint(&(num_bigint::BigUint::from(1u32) << i));
            let mut cells = Vec::with_capacity((n * n) as usize);
            for i in 0..n {
                for j in 0..n {
                    let (a, b) = (pow2(i), pow2(j));
                    match (a, b) {
                        (Ok(a), Ok(b)) => cells.push(a.nim_mul(&b).to_string()),
                        _ => return Err(error(checker, &d.span, "power of two beyond the engine")),
                    }
                }
            }
            Ok(table(
                "⊗",
                &format!(
                    "Nim-products 2^i ⊗ 2^j for i, j < {n}; lines mark where 2^i enters a larger field (i = 1, 2, 4, 8, …)"
                ),
                n,
                |i| format!("2<sup>{i}</sup>"),
                |i| i > 0 && i.is_power_of_two(),
                |a, b| cells[(a * n + b) as usize].clone(),
            ))
        }
        "expansion" => {
            arity(checker, d, 2)?;
            let num = |i: usize| match &d.args[i].0 {
                Value::Num(n) => Ok(n.clone()),
                other => Err(error(
                    checker,
                    &d.args[i].1,
                    format!("expected a number, found `{other}`"),
                )),
            };
            let (a, b) = (num(0)?, num(1)?);
            let steps = crate::nim::expand::product_steps(&a, &b);
            let texts: Vec<String> = steps.iter().map(|s| s.expr.clone()).collect();
            let exprs = checker.verify_steps(&texts, &d.span);
            let mut h = String::from("<div class=\"nim-expansion nim-claims\">\n");
            for (i, (step, expr)) in steps.iter().zip(exprs).enumerate() {
                let mut inner = String::new();
                if i > 0 {
                    inner.push_str("<mo>=</mo>");
                }
                if let Some(e) = &expr {
                    super::mathml::expr(&mut inner, e);
                }
                let _ = writeln!(
                    h,
                    "<div class=\"nim-claim step\">{}<span class=\"why\">{}</span>{}</div>",
                    super::mathml::math(&inner, false, &step.expr),
                    escape(&step.why),
                    if i > 0 { VERIFIED_MARK } else { "" }
                );
            }
            h.push_str("</div>\n");
            Ok(h)
        }
        "grundy_table" => super::diagrams::grundy_table(checker, d),
        "sequence_table" => super::diagrams::sequence_table(checker, d),
        "draw" => super::diagrams::draw(checker, d),
        "cram_diagram" => super::diagrams::cram_diagram(checker, d),
        "game_graph" => super::diagrams::game_graph(checker, d),
        "play" => super::widget::play(checker, d),
        _ => {
            let mut diag = error(
                checker,
                &d.name_span,
                format!("unknown directive `{}`", d.name),
            );
            if let Some(best) =
                crate::claim::eval::nearest(&d.name, DIRECTIVES.iter().map(|(n, _)| *n))
            {
                diag = diag.help(format!("a directive with a similar name exists: `{best}`"));
            } else {
                let names: Vec<_> = DIRECTIVES.iter().map(|(n, _)| *n).collect();
                diag = diag.help(format!("the directives are: {}", names.join(", ")));
            }
            Err(diag)
        }
    }
}

const VERIFIED_MARK: &str =
    "<span class=\"verified\" title=\"this step was checked by nimbook when the site was built\">✓</span>";

/// 2, 4, 16, 256, 65536, …: where a larger subfield GF(2^(2^k)) begins.
fn is_fermat(i: u64) -> bool {
    i >= 2 && i.is_power_of_two() && i.trailing_zeros().is_power_of_two()
}

fn table(
    corner: &str,
    caption: &str,
    n: u64,
    label: impl Fn(u64) -> String,
    boundary: impl Fn(u64) -> bool,
    cell: impl Fn(u64, u64) -> String,
) -> String {
    let mut h = String::with_capacity((n * n * 24) as usize);
    let _ = write!(
        h,
        "<div class=\"nim-table-wrap\"><table class=\"nim-table\"><caption>{}</caption><thead><tr><th class=\"corner\">{corner}</th>",
        escape(caption)
    );
    for j in 0..n {
        let cls = if boundary(j) {
            " class=\"field-start\""
        } else {
            ""
        };
        let _ = write!(h, "<th{cls}>{}</th>", label(j));
    }
    h.push_str("</tr></thead><tbody>");
    for i in 0..n {
        let row_cls = if boundary(i) {
            " class=\"field-start\""
        } else {
            ""
        };
        let _ = write!(h, "<tr{row_cls}><th>{}</th>", label(i));
        for j in 0..n {
            let cls = if boundary(j) {
                " class=\"field-start\""
            } else {
                ""
            };
            let _ = write!(h, "<td{cls}>{}</td>", cell(i, j));
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table></div>\n");
    h
}
