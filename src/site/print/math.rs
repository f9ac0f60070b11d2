//! Mathematics as Typst math markup: the claim notation's items (`lesson::notation`) and LaTeX,
//! from the events of the same parser (pulldown-latex) that makes the page's MathML.
//!
//! Why not a LaTeX-to-Typst converter such as `mitex`: the page's MathML comes from
//! pulldown-latex, so a formula that renders on the page parses here the same way, a formula
//! that does not parse is already a located error, and the book needs no second LaTeX grammar
//! (nor the Typst-side definitions such a converter's output calls). Measured on the course's
//! 1 862 formulas, every one converts (`tests/testsuite/pdf.rs` typesets them all).
//!
//! Every atom is written with a space after it, so that letters never run together into a
//! Typst identifier, and every ASCII punctuation character is escaped, so that nothing in a
//! formula is read as Typst syntax (`/` as a fraction, `(` as a group, `<-` as an arrow).

use pulldown_latex::event::{
    Content, DimensionUnit, EnvironmentFlow, Font, Grouping, ScriptPosition, ScriptType,
    StateChange, Style, Visual,
};
use pulldown_latex::{Parser, Storage};

use super::markup::string;
use crate::site::lesson::notation::Math;

/// A formula as Typst math markup (without the dollar signs) and its text for a screen reader.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Typeset {
    /// The markup.
    pub(crate) markup: String,
    /// The text a reader reads.
    pub(crate) alt: String,
}

/// One character as a Typst math atom: ASCII punctuation escaped.
fn atom(out: &mut String, c: char) {
    if c.is_ascii_punctuation() {
        out.push('\\');
    }
    out.push(c);
    out.push(' ');
}

/// Items of the reader's notation as Typst math.
pub(crate) fn notation(out: &mut String, items: &[Math]) {
    let mut i = 0;
    while i < items.len() {
        // `P` and `-position` are one word: Typst would space a letter and a text apart.
        if let (Math::Upright(letter), Some(Math::Text(rest))) = (&items[i], items.get(i + 1)) {
            if rest.starts_with('-') {
                string(out, &format!("{letter}{rest}"));
                i += 2;
                continue;
            }
        }
        notation_one(out, &items[i]);
        i += 1;
    }
}

fn notation_one(out: &mut String, item: &Math) {
    match item {
        Math::Num(n) => {
            out.push_str(n);
            out.push(' ');
        }
        // One letter is a variable, in italics; a name of several is upright, as MathML draws
        // an `<mi>` of several letters.
        Math::Ident(v) => match single(v) {
            Some(c) => atom(out, c),
            None => string(out, v),
        },
        Math::Upright(v) => {
            out.push_str("upright(");
            string(out, v);
            out.push_str(") ");
        }
        Math::Op(o) => match single(o) {
            Some(c) => atom(out, c),
            // `mod`: a word that is a binary operator, spaced as one.
            None => {
                out.push_str("class(\"binary\", ");
                string(out, o);
                out.push_str(") ");
            }
        },
        Math::Text(t) => string(out, t),
        Math::Str(s) => string(out, &format!("\"{s}\"")),
        Math::Space(quarters) => {
            out.push_str(&format!("#h({}em) ", f64::from(*quarters) / 4.0));
        }
        Math::Row(items) => notation(out, items),
        Math::Sup(base, exponent) => {
            out.push_str("attach(");
            group(out, base);
            out.push_str(", t: ");
            group(out, exponent);
            out.push_str(") ");
        }
    }
}

/// An item as one argument: an empty row is an empty string, so the argument is never empty.
fn group(out: &mut String, item: &Math) {
    match item {
        Math::Row(items) if items.is_empty() => out.push_str("\"\""),
        other => notation_one(out, other),
    }
}

fn single(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

/// LaTeX as Typst math, or why it cannot be read (the lesson stage has already reported a
/// formula that does not parse, so this is for formulas inside blocks made elsewhere).
pub(crate) fn tex(source: &str) -> Result<Typeset, String> {
    let storage = Storage::new();
    let events: Result<Vec<_>, _> = Parser::new(source, &storage).collect();
    let events = events.map_err(|e| e.to_string())?;
    let mut reader = TexReader {
        events: &events,
        at: 0,
        alt: String::new(),
    };
    let mut markup = String::new();
    reader.sequence(&mut markup, Context::Top);
    Ok(Typeset {
        markup,
        alt: reader.alt.split_whitespace().collect::<Vec<_>>().join(" "),
    })
}

/// Where a sequence of elements stands: what separates its cells, if it is an environment.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    /// The whole formula or a group.
    Top,
    /// A matrix or an array: cells separated by `,`, rows by `;`.
    Matrix,
    /// `cases`: rows separated by `,`, the columns aligned with `&`.
    Cases,
    /// An aligned environment: `&` and line breaks as they are.
    Aligned,
}

struct TexReader<'e, 'a> {
    events: &'e [pulldown_latex::event::Event<'a>],
    at: usize,
    alt: String,
}

impl TexReader<'_, '_> {
    /// Elements up to the end of the current group (or of the formula).
    fn sequence(&mut self, out: &mut String, context: Context) {
        use pulldown_latex::event::Event;
        while let Some(event) = self.events.get(self.at) {
            match event {
                Event::End => {
                    self.at += 1;
                    return;
                }
                Event::EnvironmentFlow(flow) => {
                    self.at += 1;
                    flow_mark(out, flow, context);
                    self.alt.push(' ');
                }
                Event::StateChange(change) => {
                    self.at += 1;
                    // A change holds to the end of the group: the rest of it goes inside.
                    let wrapper = state_wrapper(change);
                    let mut rest = String::new();
                    self.sequence(&mut rest, context);
                    match wrapper {
                        Some(f) => {
                            out.push_str(f);
                            out.push('(');
                            out.push_str(if rest.trim().is_empty() {
                                "\"\""
                            } else {
                                &rest
                            });
                            out.push_str(") ");
                        }
                        None => out.push_str(&rest),
                    }
                    return;
                }
                _ => self.element(out),
            }
        }
    }

    /// One element, as one argument: never empty.
    fn argument(&mut self, out: &mut String) {
        let mut inner = String::new();
        self.element(&mut inner);
        if inner.trim().is_empty() {
            out.push_str("\"\"");
        } else {
            out.push_str(&inner);
        }
    }

    /// One element: a content, a group, a visual or a script.
    fn element(&mut self, out: &mut String) {
        use pulldown_latex::event::Event;
        let Some(event) = self.events.get(self.at) else {
            return;
        };
        self.at += 1;
        match event {
            Event::Content(c) => self.content(out, c),
            Event::Begin(grouping) => self.group(out, grouping),
            Event::Visual(v) => self.visual(out, *v),
            Event::Script { ty, position } => self.script(out, *ty, *position),
            Event::Space { width, .. } => {
                if let Some(w) = width {
                    let em = match w.unit {
                        DimensionUnit::Em => f64::from(w.value),
                        DimensionUnit::Mu => f64::from(w.value) / 18.0,
                        DimensionUnit::Ex => f64::from(w.value) * 0.43,
                        DimensionUnit::Pt | DimensionUnit::Bp => f64::from(w.value) / 10.0,
                        _ => f64::from(w.value) / 10.0,
                    };
                    out.push_str(&format!("#h({em:.3}em) "));
                }
                self.alt.push(' ');
            }
            // Flow and state events are read by `sequence`; alone (an argument that is one)
            // they show nothing.
            Event::StateChange(_) | Event::EnvironmentFlow(_) | Event::End => {}
        }
    }

    fn content(&mut self, out: &mut String, c: &Content<'_>) {
        match c {
            Content::Text(t) => {
                string(out, t);
                self.alt.push_str(t);
            }
            Content::Number(n) => {
                for ch in n.chars() {
                    if ch.is_ascii_digit() {
                        out.push(ch);
                    } else {
                        out.push('\\');
                        out.push(ch);
                    }
                }
                out.push(' ');
                self.alt.push_str(n);
            }
            Content::Function(f) => {
                out.push_str("op(");
                string(out, f);
                out.push_str(") ");
                self.alt.push(' ');
                self.alt.push_str(f);
                self.alt.push(' ');
            }
            Content::Ordinary { content, .. } => {
                atom(out, *content);
                self.alt.push(*content);
            }
            Content::LargeOp { content, .. } | Content::BinaryOp { content, .. } => {
                atom(out, *content);
                self.alt.push(' ');
                self.alt.push(*content);
                self.alt.push(' ');
            }
            Content::Relation { content, .. } => {
                let mut buf = [0u8; 8];
                let text = std::str::from_utf8(content.encode_utf8_to_buf(&mut buf))
                    .unwrap_or("=")
                    .to_string();
                for ch in text.chars() {
                    atom(out, ch);
                }
                self.alt.push(' ');
                self.alt.push_str(&text);
                self.alt.push(' ');
            }
            Content::Delimiter { content, .. } => {
                atom(out, *content);
                self.alt.push(*content);
            }
            Content::Punctuation(p) => {
                atom(out, *p);
                self.alt.push(*p);
                self.alt.push(' ');
            }
        }
    }

    fn group(&mut self, out: &mut String, grouping: &Grouping) {
        match grouping {
            Grouping::Normal => {
                let mut inner = String::new();
                self.sequence(&mut inner, Context::Top);
                out.push_str(&inner);
            }
            Grouping::LeftRight(open, close) => {
                out.push_str("lr(");
                if let Some(o) = open {
                    atom(out, *o);
                    self.alt.push(*o);
                }
                self.sequence(out, Context::Top);
                if let Some(c) = close {
                    atom(out, *c);
                    self.alt.push(*c);
                }
                out.push_str(") ");
            }
            Grouping::Array(_) | Grouping::Matrix { .. } | Grouping::SubArray { .. } => {
                out.push_str("mat(delim: #none, ");
                self.sequence(out, Context::Matrix);
                out.push_str(") ");
            }
            Grouping::Cases { .. } => {
                out.push_str("cases(");
                self.sequence(out, Context::Cases);
                out.push_str(") ");
            }
            _ => {
                out.push_str("display(");
                self.sequence(out, Context::Aligned);
                out.push_str(") ");
            }
        }
    }

    fn visual(&mut self, out: &mut String, v: Visual) {
        match v {
            Visual::SquareRoot => {
                out.push_str("sqrt(");
                self.alt.push_str(" √(");
                self.argument(out);
                self.alt.push(')');
                out.push_str(") ");
            }
            Visual::Root => {
                let mut radicand = String::new();
                self.alt.push_str(" √(");
                self.argument(&mut radicand);
                self.alt.push(')');
                let mut index = String::new();
                self.argument(&mut index);
                out.push_str(&format!("root({index}, {radicand}) "));
            }
            Visual::Fraction(_) => {
                out.push_str("frac(");
                self.alt.push('(');
                self.argument(out);
                self.alt.push_str(")/(");
                out.push_str(", ");
                self.argument(out);
                self.alt.push(')');
                out.push_str(") ");
            }
            Visual::Negation => {
                out.push_str("cancel(");
                self.argument(out);
                out.push_str(") ");
            }
        }
    }

    fn script(&mut self, out: &mut String, ty: ScriptType, position: ScriptPosition) {
        let mut base = String::new();
        self.argument(&mut base);
        if position == ScriptPosition::AboveBelow {
            base = format!("limits({base})");
        }
        out.push_str("attach(");
        out.push_str(&base);
        if matches!(ty, ScriptType::Subscript | ScriptType::SubSuperscript) {
            out.push_str(", b: ");
            self.alt.push('_');
            self.argument(out);
        }
        if matches!(ty, ScriptType::Superscript | ScriptType::SubSuperscript) {
            out.push_str(", t: ");
            self.alt.push('^');
            self.argument(out);
        }
        out.push_str(") ");
    }
}

/// What a flow event of an environment becomes.
fn flow_mark(out: &mut String, flow: &EnvironmentFlow, context: Context) {
    let newline = matches!(flow, EnvironmentFlow::NewLine { .. });
    out.push_str(match (context, newline) {
        (Context::Matrix, false) => ", ",
        (Context::Matrix, true) => "; ",
        (Context::Cases, false) => "& ",
        (Context::Cases, true) => ", ",
        (_, false) => "& ",
        (_, true) => "\\\n",
    });
}

/// The Typst function that a state change wraps the rest of its group in, if any.
fn state_wrapper(change: &StateChange) -> Option<&'static str> {
    match change {
        StateChange::Font(Some(font)) => Some(match font {
            Font::Bold | Font::BoldSymbol => "bold",
            Font::BoldItalic => "bold",
            Font::BoldScript => "cal",
            Font::Script => "cal",
            Font::Fraktur | Font::BoldFraktur => "frak",
            Font::Monospace => "mono",
            Font::SansSerif | Font::BoldSansSerif => "sans",
            Font::SansSerifItalic | Font::SansSerifBoldItalic => "sans",
            Font::DoubleStruck | Font::DoubleStruckItalic => "bb",
            Font::Italic => "italic",
            Font::UpRight => "upright",
        }),
        StateChange::Font(None) => Some("upright"),
        StateChange::Style(style) => Some(match style {
            Style::Display => "display",
            Style::Text => "inline",
            Style::Script => "script",
            Style::ScriptScript => "sscript",
        }),
        StateChange::Color(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_never_run_together_and_punctuation_is_escaped() {
        let t = tex("ab + (c/d)").expect("parses");
        assert!(t.markup.contains("a b "), "{}", t.markup);
        assert!(t.markup.contains("\\( "), "{}", t.markup);
        assert!(t.markup.contains("\\/ "), "{}", t.markup);
    }

    #[test]
    fn the_nim_operators_are_their_symbols_and_the_text_reads_them() {
        let t = tex("6 \\otimes 13 = 15").expect("parses");
        assert_eq!(t.markup.trim(), "6 ⊗ 13 \\= 15");
        assert_eq!(t.alt, "6 ⊗ 13 = 15");
    }

    #[test]
    fn scripts_fractions_and_fonts_become_calls() {
        let t = tex("2^{2^n} \\frac{1}{2} \\mathcal{G}").expect("parses");
        assert!(t.markup.contains("attach(2 , t: attach("), "{}", t.markup);
        assert!(t.markup.contains("frac(1 , 2 )"), "{}", t.markup);
        assert!(t.markup.contains("cal(G )"), "{}", t.markup);
    }

    #[test]
    fn the_notation_writes_brackets_and_nim_powers() {
        let mut out = String::new();
        notation(
            &mut out,
            &[Math::Sup(
                Box::new(Math::Row(vec![Math::Num("2".into())])),
                Box::new(Math::Row(vec![Math::Op("⊗".into()), Math::Num("3".into())])),
            )],
        );
        assert_eq!(out, "attach(2 , t: ⊗ 3 ) ");
    }
}
