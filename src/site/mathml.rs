//! Claims and values as MathML, written at build time, so pages need no script to show them.

use crate::claim::ast::{BinOp, Expr, ExprKind, OutcomeClass, Quantifier, Statement};
use crate::claim::Value;

/// Escapes text for HTML and XML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn mo(out: &mut String, op: &str) {
    // Brackets hug their contents; only operators and relations get the usual spacing.
    if matches!(op, "(" | ")" | "[" | "]") {
        out.push_str("<mo stretchy=\"false\" lspace=\"0\" rspace=\"0\">");
        out.push_str(op);
        out.push_str("</mo>");
        return;
    }
    out.push_str("<mo>");
    out.push_str(&escape(op));
    out.push_str("</mo>");
}

/// Writes an expression as MathML presentation markup (without the `<math>` wrapper).
pub fn expr(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Num(n) => {
            out.push_str("<mn>");
            out.push_str(&n.to_string());
            out.push_str("</mn>");
        }
        ExprKind::Var(v) => {
            out.push_str("<mi>");
            out.push_str(&escape(v));
            out.push_str("</mi>");
        }
        ExprKind::Str(s) => {
            out.push_str("<ms>");
            out.push_str(&escape(s));
            out.push_str("</ms>");
        }
        ExprKind::Bool(b) => {
            out.push_str("<mtext>");
            out.push_str(if *b { "true" } else { "false" });
            out.push_str("</mtext>");
        }
        ExprKind::List(items) => {
            mo(out, "[");
            sequence(out, items);
            mo(out, "]");
        }
        ExprKind::Call { name, args, .. }
            if name == "ord"
                && matches!(
                    args.as_slice(),
                    [Expr {
                        kind: ExprKind::Str(_),
                        ..
                    }]
                ) =>
        {
            let ExprKind::Str(text) = &args[0].kind else {
                return;
            };
            match crate::nim::ordinal::parse(text) {
                Ok(o) => ordinal(out, &o),
                Err(_) => {
                    out.push_str("<ms>");
                    out.push_str(&escape(text));
                    out.push_str("</ms>");
                }
            }
        }
        ExprKind::Call { name, args, .. } => {
            out.push_str("<mi>");
            out.push_str(&escape(name));
            out.push_str("</mi>");
            mo(out, "(");
            sequence(out, args);
            mo(out, ")");
        }
        ExprKind::Bin { op, lhs, rhs } => match op {
            BinOp::NimPow | BinOp::Pow => {
                out.push_str("<msup><mrow>");
                if needs_parens_as_base(lhs) {
                    mo(out, "(");
                    expr(out, lhs);
                    mo(out, ")");
                } else {
                    expr(out, lhs);
                }
                out.push_str("</mrow><mrow>");
                expr(out, rhs);
                out.push_str("</mrow></msup>");
            }
            _ => {
                expr(out, lhs);
                mo(out, op.symbol());
                expr(out, rhs);
            }
        },
        ExprKind::Int(inner) => {
            if matches!(inner.kind, ExprKind::Bin { .. }) {
                mo(out, "(");
                expr(out, inner);
                mo(out, ")");
            } else {
                expr(out, inner);
            }
        }
        ExprKind::Paren(inner) => {
            mo(out, "(");
            expr(out, inner);
            mo(out, ")");
        }
    }
}

/// Whether a base of a power must be bracketed to be read right: `(ω^ω)^5`, not `ω^ω^5`.
fn needs_parens_as_base(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Bin { .. } => true,
        ExprKind::Call { name, args, .. } if name == "ord" => match args.as_slice() {
            [Expr {
                kind: ExprKind::Str(text),
                ..
            }] => crate::nim::ordinal::parse(text).is_ok_and(|o| {
                let terms: Vec<_> = o.terms().collect();
                !(o.is_finite() || matches!(terms.as_slice(), [(e, 1)] if *e == [1]))
            }),
            _ => false,
        },
        _ => false,
    }
}

/// An ordinal in Cantor normal form, as mathematics: `ω^(ω^2)·3 + ω + 4`.
pub fn ordinal(out: &mut String, o: &crate::nim::ordinal::Ordinal) {
    let terms: Vec<_> = o.terms().collect();
    if terms.is_empty() {
        out.push_str("<mn>0</mn>");
        return;
    }
    out.push_str("<mrow>");
    for (k, (exponent, coefficient)) in terms.iter().enumerate() {
        if k > 0 {
            mo(out, "+");
        }
        let degree = exponent.iter().rposition(|&a| a != 0);
        match degree {
            None => out.push_str(&format!("<mn>{coefficient}</mn>")),
            Some(_) => {
                let is_one =
                    exponent.first() == Some(&1) && exponent.iter().skip(1).all(|&a| a == 0);
                if is_one {
                    out.push_str("<mi>ω</mi>");
                } else {
                    out.push_str("<msup><mi>ω</mi><mrow>");
                    // The exponent is itself a sum of powers of ω with finite coefficients.
                    let mut first = true;
                    for (i, &a) in exponent.iter().enumerate().rev() {
                        if a == 0 {
                            continue;
                        }
                        if !first {
                            mo(out, "+");
                        }
                        first = false;
                        match i {
                            0 => out.push_str(&format!("<mn>{a}</mn>")),
                            1 => out.push_str("<mi>ω</mi>"),
                            _ => out.push_str(&format!("<msup><mi>ω</mi><mn>{i}</mn></msup>")),
                        }
                        if i > 0 && a > 1 {
                            mo(out, "·");
                            out.push_str(&format!("<mn>{a}</mn>"));
                        }
                    }
                    out.push_str("</mrow></msup>");
                }
                if *coefficient > 1 {
                    mo(out, "·");
                    out.push_str(&format!("<mn>{coefficient}</mn>"));
                }
            }
        }
    }
    out.push_str("</mrow>");
}

fn sequence(out: &mut String, items: &[Expr]) {
    for (i, a) in items.iter().enumerate() {
        if i > 0 {
            mo(out, ",");
        }
        expr(out, a);
    }
}

/// Writes a value as MathML.
pub fn value(out: &mut String, v: &Value) {
    match v {
        Value::Num(n) => {
            out.push_str("<mn>");
            out.push_str(&n.to_string());
            out.push_str("</mn>");
        }
        Value::Ordinal(o) => ordinal(out, o),
        other => {
            out.push_str("<mtext>");
            out.push_str(&escape(&other.to_string()));
            out.push_str("</mtext>");
        }
    }
}

/// Writes a statement as MathML; `value` is the computed value of a `let` or bare expression,
/// `witness` the witness of an `exists`.
pub fn statement(out: &mut String, s: &Statement, value_of: Option<&Value>, witness: Option<&str>) {
    match s {
        Statement::Claim(chain) => {
            expr(out, &chain.first);
            for l in &chain.links {
                mo(out, l.rel.symbol());
                expr(out, &l.rhs);
            }
        }
        Statement::Is { expr: e, class, .. } => {
            expr(out, e);
            out.push_str("<mtext>&#160;is a&#160;</mtext><mi mathvariant=\"normal\">");
            out.push_str(match class {
                OutcomeClass::P => "P",
                OutcomeClass::N => "N",
            });
            out.push_str("</mi><mtext>-position</mtext>");
        }
        Statement::Let { name, value: e, .. } => {
            out.push_str("<mi>");
            out.push_str(&escape(name));
            out.push_str("</mi>");
            mo(out, "≔");
            expr(out, e);
            if let Some(v) = value_of {
                if !matches!(e.kind, ExprKind::Num(_)) {
                    mo(out, "=");
                    value(out, v);
                }
            }
        }
        Statement::Quantified {
            quantifier,
            binders,
            body,
        } => {
            mo(
                out,
                match quantifier {
                    Quantifier::Forall => "∀",
                    Quantifier::Exists => "∃",
                },
            );
            let mut i = 0;
            while i < binders.len() {
                if i > 0 {
                    mo(out, ",");
                }
                // Binders that share a bound were written together: `a, b < 256`.
                let mut j = i;
                while j + 1 < binders.len() && binders[j + 1].bound.span == binders[i].bound.span {
                    j += 1;
                }
                for (k, b) in binders[i..=j].iter().enumerate() {
                    if k > 0 {
                        mo(out, ",");
                    }
                    out.push_str("<mi>");
                    out.push_str(&escape(&b.name));
                    out.push_str("</mi>");
                }
                mo(out, if binders[i].inclusive { "≤" } else { "<" });
                expr(out, &binders[i].bound);
                i = j + 1;
            }
            mo(out, ":");
            out.push_str("<mspace width=\"0.5em\"/>");
            statement(out, body, None, None);
            if let Some(w) = witness {
                out.push_str("<mspace width=\"1em\"/><mtext>(for example ");
                out.push_str(&escape(w));
                out.push_str(")</mtext>");
            }
        }
        Statement::Expr(e) => expr(out, e),
    }
}

/// Keeps the LaTeX a `<math>` element was made from as its annotation
/// (`<annotation encoding="application/x-tex">`), so that screen readers and copy and paste
/// can have it: the content goes into `<semantics>`, first as one `<mrow>`. Markup that is not
/// one `<math>` element is returned as it is.
pub fn with_tex_annotation(markup: &str, tex: &str) -> String {
    let body = markup
        .strip_prefix("<math")
        .and_then(|rest| rest.split_once('>'))
        .and_then(|(attrs, rest)| Some((attrs, rest.strip_suffix("</math>")?)));
    match body {
        Some((attrs, inner)) if !attrs.ends_with('/') && !inner.contains("<math") => format!(
            "<math{attrs}><semantics><mrow>{inner}</mrow>\
             <annotation encoding=\"application/x-tex\">{}</annotation></semantics></math>",
            escape(tex)
        ),
        _ => markup.to_string(),
    }
}

/// Wraps markup in a `<math>` element.
pub fn math(inner: &str, display: bool, alt: &str) -> String {
    format!(
        "<math{} alttext=\"{}\">{inner}</math>",
        if display { " display=\"block\"" } else { "" },
        escape(alt)
    )
}
