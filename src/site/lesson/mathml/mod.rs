//! Claims and values as MathML, written at build time, so pages need no script to show them.

use crate::claim::ast::{
    binder_groups, BinOp, Claim, Expr, ExprKind, OutcomeClass, Quantifier, Range, Statement,
};
use crate::claim::Value;

use crate::site::html::escape;

fn mo(out: &mut String, op: &str) {
    // Brackets hug their contents; only operators and relations get the usual spacing.
    if matches!(op, "(" | ")" | "[" | "]" | "⌊" | "⌋") {
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
pub(crate) fn expr(out: &mut String, e: &Expr) {
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
        ExprKind::Str(s) => string(out, s),
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
        ExprKind::Call { .. } if e.ordinal_literal().is_some() => {
            if let Some(o) = e.ordinal_literal() {
                ordinal(out, &o);
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
                if lhs.needs_brackets_as_base() {
                    bracketed(out, lhs);
                } else {
                    expr(out, lhs);
                }
                out.push_str("</mrow><mrow>");
                // A nim-power is marked in its exponent, `2^⊗3`, so that it cannot be read as
                // the ordinary power 2³ = 8: nim-powers of numerals differ from ordinary ones.
                if *op == BinOp::NimPow {
                    mo(out, "⊗");
                }
                expr(out, rhs);
                out.push_str("</mrow></msup>");
            }
            // Ordinary division rounds down, so it is shown as the floor of the quotient.
            BinOp::Div => {
                mo(out, "⌊");
                operand(out, lhs, *op);
                mo(out, "/");
                operand(out, rhs, *op);
                mo(out, "⌋");
            }
            _ => {
                operand(out, lhs, *op);
                mo(out, op.symbol());
                operand(out, rhs, *op);
            }
        },
        // As in the text: an `int(…)` is bracketed by its operand rule where it meets another
        // operation, and needs no brackets of its own as an argument or a side.
        ExprKind::Int(inner) => expr(out, inner),
        ExprKind::Paren(inner) => {
            mo(out, "(");
            expr(out, inner);
            mo(out, ")");
        }
    }
}

fn bracketed(out: &mut String, e: &Expr) {
    mo(out, "(");
    expr(out, e);
    mo(out, ")");
}

/// An operand of `parent`, bracketed where a reader could group it otherwise.
fn operand(out: &mut String, e: &Expr, parent: BinOp) {
    if e.needs_brackets_under(parent) {
        bracketed(out, e);
    } else {
        expr(out, e);
    }
}

/// A string literal, with its quotes drawn: `period("0.77")` is a code, not the number 0.77.
/// `<ms>` would say the same, but MathML Core draws no quotes around it.
fn string(out: &mut String, s: &str) {
    out.push_str("<mtext>\"");
    out.push_str(&escape(s));
    out.push_str("\"</mtext>");
}

/// An ordinal in Cantor normal form, as mathematics: `ω^(ω^2)·3 + ω + 4`.
pub(crate) fn ordinal(out: &mut String, o: &crate::nim::ordinal::Ordinal) {
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
pub(crate) fn value(out: &mut String, v: &Value) {
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
pub(crate) fn statement(
    out: &mut String,
    s: &Statement,
    value_of: Option<&Value>,
    witness: Option<&str>,
) {
    match s {
        Statement::Claim(c) => claim(out, c),
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
            // Binders that share a bound were written together: `a, b < 256`.
            for (i, group) in binder_groups(binders).enumerate() {
                if i > 0 {
                    mo(out, ",");
                }
                for (k, b) in group.iter().enumerate() {
                    if k > 0 {
                        mo(out, ",");
                    }
                    out.push_str("<mi>");
                    out.push_str(&escape(&b.name));
                    out.push_str("</mi>");
                }
                match &group[0].range {
                    Range::Below { bound, inclusive } => {
                        mo(out, if *inclusive { "≤" } else { "<" });
                        expr(out, bound);
                    }
                    Range::From { start, inclusive } => {
                        mo(out, if *inclusive { "≥" } else { ">" });
                        expr(out, start);
                    }
                    Range::All => {}
                }
            }
            mo(out, ":");
            out.push_str("<mspace width=\"0.5em\"/>");
            claim(out, body);
            if let Some(w) = witness {
                out.push_str("<mspace width=\"1em\"/><mtext>(for example ");
                out.push_str(&escape(w));
                out.push_str(")</mtext>");
            }
        }
        Statement::Expr(e) => expr(out, e),
    }
}

/// Writes a claim (a chain of relations or an outcome class) as MathML.
pub(crate) fn claim(out: &mut String, c: &Claim) {
    match c {
        Claim::Chain(chain) => {
            expr(out, &chain.first);
            for l in &chain.links {
                mo(out, l.rel.symbol());
                expr(out, &l.rhs);
            }
        }
        Claim::Is { expr: e, class, .. } => {
            expr(out, e);
            let (article, letter) = match class {
                OutcomeClass::P => ("a", "P"),
                OutcomeClass::N => ("an", "N"),
                OutcomeClass::D => ("a", "D"),
            };
            out.push_str(&format!(
                "<mtext>&#160;is {article}&#160;</mtext><mi mathvariant=\"normal\">{letter}"
            ));
            out.push_str("</mi><mtext>-position</mtext>");
        }
    }
}

/// Keeps the LaTeX a `<math>` element was made from as its annotation
/// (`<annotation encoding="application/x-tex">`), so that screen readers and copy and paste
/// can have it: the content goes into `<semantics>`, first as one `<mrow>`. Markup that is not
/// one `<math>` element is returned as it is.
pub(crate) fn with_tex_annotation(markup: &str, tex: &str) -> String {
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

/// The text a reader reads in [`statement`]'s markup, for the `alttext` of its `<math>`: the
/// same notation (`⊕ ⊗ ^⊗ ⌊/⌋`), never the source spelling, which could be misread.
pub(crate) fn statement_text(
    s: &Statement,
    value_of: Option<&Value>,
    witness: Option<&str>,
) -> String {
    let mut text = s.to_string();
    if let (Statement::Let { value: e, .. }, Some(v)) = (s, value_of) {
        if !matches!(e.kind, ExprKind::Num(_)) {
            text.push_str(&format!(" = {}", value_text(v)));
        }
    }
    if let Some(w) = witness {
        text.push_str(&format!(" (for example {w})"));
    }
    text
}

/// The text a reader reads in [`value`]'s markup: an ordinal in the page's notation
/// (`ω^2·3 + ω`), anything else as it displays.
pub(super) fn value_text(v: &Value) -> String {
    match v {
        Value::Ordinal(o) => crate::claim::ast::ordinal_text(o),
        other => other.to_string(),
    }
}

/// Wraps markup in a `<math>` element.
pub(crate) fn math(inner: &str, display: bool, alt: &str) -> String {
    format!(
        "<math{} alttext=\"{}\">{inner}</math>",
        if display { " display=\"block\"" } else { "" },
        escape(alt)
    )
}

/// The deepest nesting of groups (`{…}`, `\left…\right`, `\begin…\end`, a command's `[…]`)
/// a formula may have. pulldown-latex reads each group's text again at every level it is nested
/// in, so a formula's cost grows with its length times its depth: bounded here, it is linear in
/// the length. Real formulas nest a handful of levels.
pub(crate) const MAX_TEX_DEPTH: usize = 64;

/// How deep the groups of `tex` nest, read in one pass as pulldown-latex reads them: braces,
/// `\left` and `\right`, `\begin` and `\end`, and a `[` right after a command (an optional
/// argument); escaped characters and `%` comments do not count.
fn tex_depth(tex: &str) -> usize {
    let bytes = tex.as_bytes();
    let mut open: Vec<u8> = Vec::new();
    let mut deepest = 0;
    let mut after_command = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        match b {
            b'\\' => {
                let word = bytes[i..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .count();
                let name = &bytes[i..i + word];
                // A control symbol (`\{`) is one escaped character.
                i += word.max(1).min(bytes.len() - i);
                match name {
                    b"begin" | b"left" => open.push(b'b'),
                    b"end" | b"right" if open.last() == Some(&b'b') => {
                        open.pop();
                    }
                    _ => {}
                }
                after_command = word > 0;
                deepest = deepest.max(open.len());
                continue;
            }
            b'%' => {
                i += bytes[i..].iter().take_while(|&&c| c != b'\n').count();
            }
            b'{' => open.push(b'{'),
            b'[' if after_command => open.push(b'['),
            b'}' | b']' if open.last() == Some(&(if b == b'}' { b'{' } else { b'[' })) => {
                open.pop();
            }
            _ => {}
        }
        after_command = after_command && b.is_ascii_whitespace();
        deepest = deepest.max(open.len());
    }
    deepest
}

/// Renders LaTeX math to MathML, or says why it cannot.
pub(crate) fn render_tex(tex: &str, display: bool) -> Result<String, String> {
    use pulldown_latex::config::DisplayMode;
    let depth = tex_depth(tex);
    if depth > MAX_TEX_DEPTH {
        return Err(format!(
            "the formula nests {depth} groups deep, more than the {MAX_TEX_DEPTH} levels a formula may nest"
        ));
    }
    let storage = pulldown_latex::Storage::new();
    let events: Vec<_> = pulldown_latex::Parser::new(tex, &storage).collect();
    if let Some(Err(e)) = events.iter().find(|e| e.is_err()) {
        // The first line of the message is the reason; the rest repeats the input.
        let msg = e.to_string();
        let first = msg
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("parsing error: ");
        return Err(first.to_string());
    }
    let config = pulldown_latex::RenderConfig {
        display_mode: if display {
            DisplayMode::Block
        } else {
            DisplayMode::Inline
        },
        ..Default::default()
    };
    let mut html = String::new();
    pulldown_latex::push_mathml(&mut html, events.into_iter(), config)
        .map_err(|e| e.to_string())?;
    Ok(with_tex_annotation(well_formed(&html).trim(), tex))
}

/// Escapes the `<`, `>` and `&` that pulldown-latex leaves raw in text (as in `<mo><</mo>` for
/// `a < b`), so that every `<math>` element is well-formed XML.
pub(crate) fn well_formed(markup: &str) -> String {
    let mut out = String::with_capacity(markup.len() + 16);
    let chars = markup.char_indices();
    let mut in_tag = false;
    let mut quote: Option<char> = None;
    for (i, c) in chars {
        if in_tag {
            out.push(c);
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (None, '"' | '\'') => quote = Some(c),
                (None, '>') => in_tag = false,
                _ => {}
            }
            continue;
        }
        match c {
            '<' => {
                let rest = &markup[i + 1..];
                let starts_tag = rest
                    .strip_prefix('/')
                    .unwrap_or(rest)
                    .starts_with(|ch: char| ch.is_ascii_alphabetic());
                if starts_tag {
                    in_tag = true;
                    out.push('<');
                } else {
                    out.push_str("&lt;");
                }
            }
            '>' => out.push_str("&gt;"),
            '&' => {
                let rest = &markup[i + 1..];
                let entity = rest
                    .find(';')
                    .filter(|&n| n > 0 && n <= 10)
                    .is_some_and(|n| {
                        rest[..n]
                            .chars()
                            .all(|ch| ch.is_ascii_alphanumeric() || ch == '#')
                    });
                out.push_str(if entity { "&" } else { "&amp;" });
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod reading;

#[cfg(test)]
mod tests {
    use super::well_formed;
    use crate::claim::{lexer, parser, Limits};

    fn markup(claim: &str) -> String {
        let limits = Limits::default();
        let toks = lexer::lex(claim, &limits).unwrap_or_default();
        let mut out = String::new();
        match parser::parse_statement(&toks, &limits, true) {
            Ok(s) => super::statement(&mut out, &s.stmt, None, None),
            Err(e) => panic!("{claim}: {e:?}"),
        }
        out
    }

    #[test]
    fn a_nim_power_is_marked_and_an_ordinary_one_is_not() {
        assert_eq!(
            markup("2 ^ 3"),
            "<msup><mrow><mn>2</mn></mrow><mrow><mo>⊗</mo><mn>3</mn></mrow></msup>"
        );
        let ordinary = markup("int(2 ^ 3)");
        assert!(
            ordinary.contains("<msup><mrow><mn>2</mn></mrow><mrow><mn>3</mn></mrow></msup>")
                && !ordinary.contains('⊗'),
            "{ordinary}"
        );
        // The exponent of a nim-power is ordinary: `+`, not `⊕`.
        assert!(markup("a ^ (2 + 1)").contains(
            "<mo>⊗</mo><mo stretchy=\"false\" lspace=\"0\" rspace=\"0\">(</mo><mn>2</mn><mo>+</mo>"
        ));
    }

    #[test]
    fn ordinary_division_is_a_floor_and_mod_is_bracketed() {
        let m = markup("int(7 / 2)");
        assert!(
            m.contains(">⌊</mo><mn>7</mn><mo>/</mo><mn>2</mn><mo") && m.contains(">⌋</mo>"),
            "{m}"
        );
        let m = markup("3 + 5 mod 4");
        assert!(m.starts_with("<mn>3</mn><mo>⊕</mo><mo stretchy=\"false\" lspace=\"0\" rspace=\"0\">(</mo><mn>5</mn><mo>mod</mo>"), "{m}");
        let m = markup("forall a < 2^64: a = a");
        assert!(
            m.contains("<mo>&lt;</mo><msup><mrow><mn>2</mn></mrow><mrow><mn>64</mn></mrow></msup>"),
            "{m}"
        );
    }

    #[test]
    fn raw_text_in_mathml_is_escaped_and_markup_kept() {
        assert_eq!(
            well_formed(
                "<mo><</mo><mo>></mo><mi mathvariant=\"a>b\">x</mi><mo>&</mo><mo>&lt;</mo>"
            ),
            "<mo>&lt;</mo><mo>&gt;</mo><mi mathvariant=\"a>b\">x</mi><mo>&amp;</mo><mo>&lt;</mo>"
        );
    }

    #[test]
    fn formulas_nest_as_deep_as_their_groups() {
        assert_eq!(super::tex_depth("x"), 0);
        assert_eq!(super::tex_depth(r"\frac{1}{2^{n}}"), 2);
        assert_eq!(super::tex_depth(r"\left( \frac{a}{b} \right)"), 2);
        assert_eq!(super::tex_depth(r"\begin{matrix} a \\ b \end{matrix}"), 2);
        assert_eq!(
            super::tex_depth(r"\sqrt[3]{x} [0, 1)"),
            1,
            "a `[` is a group after a command only"
        );
        assert_eq!(super::tex_depth(r"\{ \} % {{{ a comment"), 0);
        let deep = r"\frac{1}{".repeat(100) + &"}".repeat(100);
        assert_eq!(super::tex_depth(&deep), 100);
        let refused = super::render_tex(&deep, true).err().unwrap_or_default();
        assert!(
            refused.contains("nests 100 groups deep, more than the 64"),
            "{refused}"
        );
        let fits = r"\frac{1}{".repeat(60) + &"}".repeat(60);
        assert!(super::render_tex(&fits, true).is_ok());
    }

    #[test]
    fn latex_keeps_its_source_as_an_annotation() {
        let html = super::render_tex("a < b^{2}", false).unwrap_or_default();
        assert!(html.starts_with("<math"), "{html}");
        assert!(
            html.ends_with(
                "<annotation encoding=\"application/x-tex\">a &lt; b^{2}</annotation></semantics></math>"
            ),
            "{html}"
        );
        assert_eq!(html.matches("<semantics><mrow>").count(), 1, "{html}");
        let block = super::render_tex("x", true).unwrap_or_default();
        assert!(
            block.contains("display=\"block\"") && block.contains("application/x-tex"),
            "{block}"
        );
    }
}
