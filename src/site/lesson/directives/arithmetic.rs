//! Nim arithmetic directives: `addition_table(n)`, `multiplication_table(n)`,
//! `powers_table(n)` and `expansion(a, b)`. Every cell is computed by the nimber engine when
//! the site is built, and every step of an expansion is checked by the claim checker.

use crate::claim::{Directive, Value};
use crate::diag::{Diagnostic, Span};
use crate::nim::Nimber;
use crate::site::lesson::blocks::{Block, Caption, Cell, CellClass, Run, Step, Steps};
use crate::site::lesson::context::DirectiveEnv;
use crate::site::lesson::notation::Formula;

use super::args::{error, side};
use super::table::Table;

/// `addition_table(n)` and `multiplication_table(n)`.
pub(super) fn operation_table(
    env: &DirectiveEnv<'_>,
    d: &Directive,
    add: bool,
) -> Result<Block, Diagnostic> {
    let n = side(env, &d.args[0])?;
    let caption = format!(
        "Nim-{} of a and b for a, b < {n}; lines mark the subfields of sizes 2, 4, 16 and 256",
        if add { "sums" } else { "products" }
    );
    Ok(field_table(
        if add { "⊕" } else { "⊗" },
        &caption,
        n,
        |i| vec![Run::Text(i.to_string())],
        is_fermat,
        |a, b| {
            let (x, y) = (Nimber::from_u64(a), Nimber::from_u64(b));
            if add { x.nim_add(&y) } else { x.nim_mul(&y) }.to_string()
        },
    ))
}

/// `powers_table(n)`: the products `2^i ⊗ 2^j`.
pub(super) fn powers_table(env: &DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let n = side(env, &d.args[0])?.min(128);
    let pow2 = |i: u64| Nimber::from_biguint(&(num_bigint::BigUint::from(1u32) << i));
    let mut cells = Vec::with_capacity((n * n) as usize);
    for i in 0..n {
        for j in 0..n {
            match (pow2(i), pow2(j)) {
                (Ok(a), Ok(b)) => cells.push(a.nim_mul(&b).to_string()),
                _ => return Err(error(env, &d.span, "power of two beyond the engine")),
            }
        }
    }
    Ok(field_table(
        "⊗",
        &format!(
            "Nim-products 2^i ⊗ 2^j for i, j < {n}; lines mark where 2^i enters a larger field (i = 1, 2, 4, 8, …)"
        ),
        n,
        |i| vec![Run::Text("2".into()), Run::Sup(i.to_string())],
        |i| i > 0 && i.is_power_of_two(),
        |a, b| cells[(a * n + b) as usize].clone(),
    ))
}

/// `expansion(a, b)`: the worked expansion of a nim-product, every step verified.
pub(super) fn expansion(env: &mut DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let num = |i: usize| match &d.args[i].0 {
        Value::Num(n) => Ok(n.clone()),
        other => Err(error(
            env,
            &d.args[i].1,
            format!("expected a number, found `{other}`"),
        )),
    };
    let (a, b) = (num(0)?, num(1)?);
    Ok(Block::Steps(worked_product(env, &a, &b, &d.span)))
}

/// The worked expansion of the nim-product `a ⊗ b`, every step verified by the claim checker
/// (a failing step is reported at `at`); also the hint of an exercise that asks for a product.
pub(super) fn worked_product(
    env: &mut DirectiveEnv<'_>,
    a: &Nimber,
    b: &Nimber,
    at: &Span,
) -> Steps {
    let steps = crate::nim::expand::product_steps(a, b);
    let texts: Vec<String> = steps.iter().map(|s| s.expr.clone()).collect();
    let exprs = env.verify_steps(&texts, at);
    Steps {
        steps: steps
            .into_iter()
            .zip(exprs)
            .enumerate()
            .map(|(i, (step, expr))| Step {
                expr: match &expr {
                    Some(e) => Formula::expr(e, step.expr),
                    None => Formula {
                        items: Vec::new(),
                        text: step.expr,
                    },
                },
                why: step.why,
                verified: i > 0,
            })
            .collect(),
    }
}

/// 2, 4, 16, 256, 65536, …: where a larger subfield GF(2^(2^k)) begins.
fn is_fermat(i: u64) -> bool {
    i >= 2 && i.is_power_of_two() && i.trailing_zeros().is_power_of_two()
}

/// An `n × n` table of an operation, with lines where `boundary` says a subfield begins.
fn field_table(
    corner: &str,
    caption: &str,
    n: u64,
    label: impl Fn(u64) -> Vec<Run>,
    boundary: impl Fn(u64) -> bool,
    cell: impl Fn(u64, u64) -> String,
) -> Block {
    let class = |i: u64| boundary(i).then_some(CellClass::FieldStart);
    Table {
        kind: None,
        caption: Caption::Inside(caption.to_string()),
        corner: corner.to_string(),
    }
    .build(
        n as usize,
        n as usize,
        |j| Cell {
            class: class(j as u64),
            runs: label(j as u64),
        },
        |i| (class(i as u64), label(i as u64)),
        |i, j| Some(Cell::text(class(j as u64), cell(i as u64, j as u64))),
    )
}
