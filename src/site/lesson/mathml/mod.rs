//! Claims, values and LaTeX as MathML, written at build time, so pages need no script to show
//! them. What a claim looks like is decided by `notation`; this module writes its items as
//! MathML, and turns LaTeX into MathML with pulldown-latex.

use super::notation::{self, Math};
use crate::claim::ast::{Expr, Statement};
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

/// Writes items of the reader's notation as MathML presentation markup (without the `<math>`
/// wrapper).
pub(crate) fn write(out: &mut String, items: &[Math]) {
    for item in items {
        write_one(out, item);
    }
}

fn write_one(out: &mut String, item: &Math) {
    match item {
        Math::Num(n) => {
            out.push_str("<mn>");
            out.push_str(&escape(n));
            out.push_str("</mn>");
        }
        Math::Ident(v) => {
            out.push_str("<mi>");
            out.push_str(&escape(v));
            out.push_str("</mi>");
        }
        Math::Upright(v) => {
            out.push_str("<mi mathvariant=\"normal\">");
            out.push_str(&escape(v));
            out.push_str("</mi>");
        }
        Math::Op(o) => mo(out, o),
        Math::Text(t) => {
            out.push_str("<mtext>");
            // A no-break space is written as a reference, so the markup shows it.
            out.push_str(&escape(t).replace('\u{a0}', "&#160;"));
            out.push_str("</mtext>");
        }
        // `<ms>` would say the same, but MathML Core draws no quotes around it.
        Math::Str(s) => {
            out.push_str("<mtext>\"");
            out.push_str(&escape(s));
            out.push_str("\"</mtext>");
        }
        Math::Space(quarters) => {
            let em = f64::from(*quarters) / 4.0;
            out.push_str(&format!("<mspace width=\"{em}em\"/>"));
        }
        Math::Row(items) => {
            out.push_str("<mrow>");
            write(out, items);
            out.push_str("</mrow>");
        }
        Math::Sup(base, exponent) => {
            out.push_str("<msup>");
            write_one(out, base);
            write_one(out, exponent);
            out.push_str("</msup>");
        }
    }
}

/// Writes an expression as MathML presentation markup (without the `<math>` wrapper).
pub(crate) fn expr(out: &mut String, e: &Expr) {
    let mut items = Vec::new();
    notation::expr(&mut items, e);
    write(out, &items);
}

/// Writes a value as MathML.
pub(crate) fn value(out: &mut String, v: &Value) {
    let mut items = Vec::new();
    notation::value(&mut items, v);
    write(out, &items);
}

/// Writes a statement as MathML; `value_of` is the computed value of a `let` or bare
/// expression, `witness` the witness of an `exists`.
pub(crate) fn statement(
    out: &mut String,
    s: &Statement,
    value_of: Option<&Value>,
    witness: Option<&str>,
) {
    let mut items = Vec::new();
    notation::statement(&mut items, s, value_of, witness);
    write(out, &items);
}

/// A formula of the reader's notation as one `<math>` element, its text as `alttext`.
pub(crate) fn formula(f: &notation::Formula, display: bool) -> String {
    let mut inner = String::new();
    write(&mut inner, &f.items);
    math(&inner, display, &f.text)
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

/// Wraps markup in a `<math>` element.
pub(crate) fn math(inner: &str, display: bool, alt: &str) -> String {
    format!(
        "<math{} alttext=\"{}\">{inner}</math>",
        if display { " display=\"block\"" } else { "" },
        escape(alt)
    )
}

/// Whether LaTeX math parses (and so renders), or why not: what the lesson stage asks before a
/// formula goes into the document.
pub(crate) fn parse_tex(tex: &str, display: bool) -> Result<(), String> {
    render_tex(tex, display).map(|_| ())
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
