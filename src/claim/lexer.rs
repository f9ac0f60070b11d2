//! The lexer: turns claim text into tokens, each with its byte span.

use super::{ClaimError, Limits};
use crate::diag::Span;

/// A token kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A number literal as written (decimal or `0x` hex, `_` allowed between digits).
    Num(String),
    /// A name: a variable, a function or a keyword.
    Ident(String),
    /// A double-quoted string.
    Str(String),
    /// `+`
    Plus,
    /// `⊕`
    Oplus,
    /// `*`
    Star,
    /// `⊗`
    Otimes,
    /// `/`
    Slash,
    /// `^`
    Caret,
    /// `-`
    Minus,
    /// `·`, ordinary multiplication inside `int(…)`
    Dot,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `=`
    Eq,
    /// `≠` or `!=`
    Ne,
    /// `<`
    Lt,
    /// `≤` or `<=`
    Le,
    /// `>`
    Gt,
    /// `≥` or `>=`
    Ge,
    /// The end of a line.
    Newline,
    /// The end of the input.
    Eof,
}

impl Tok {
    /// How the token reads in an error message.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Num(n) => format!("number `{}`", abbreviate(n)),
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Str(s) => format!("string \"{}\"", abbreviate(s)),
            Tok::Newline => "end of line".into(),
            Tok::Eof => "end of input".into(),
            t => format!("`{}`", t.symbol()),
        }
    }

    /// The symbol of a punctuation token.
    fn symbol(&self) -> &'static str {
        match self {
            Tok::Plus => "+",
            Tok::Oplus => "⊕",
            Tok::Star => "*",
            Tok::Otimes => "⊗",
            Tok::Slash => "/",
            Tok::Caret => "^",
            Tok::Minus => "-",
            Tok::Dot => "·",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Eq => "=",
            Tok::Ne => "≠",
            Tok::Lt => "<",
            Tok::Le => "≤",
            Tok::Gt => ">",
            Tok::Ge => "≥",
            _ => "",
        }
    }
}

/// Shortens long literals for messages.
pub(crate) fn abbreviate(s: &str) -> String {
    if s.chars().count() > 24 {
        let head: String = s.chars().take(10).collect();
        let tail: String = s
            .chars()
            .rev()
            .take(6)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!("{head}…{tail} ({} characters)", s.chars().count())
    } else {
        s.to_string()
    }
}

/// A token and where it stands.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    /// What it is.
    pub tok: Tok,
    /// Its byte span in the lexed text.
    pub span: Span,
}

/// Splits `text` into tokens. A `#` outside a string starts a comment that runs to the end of
/// the line.
pub(crate) fn lex(text: &str, limits: &Limits) -> Result<Vec<Token>, ClaimError> {
    let mut out = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let single = |tok: Tok| Token {
            tok,
            span: i..i + c.len_utf8(),
        };
        match c {
            '\n' => out.push(single(Tok::Newline)),
            c if c.is_whitespace() => {}
            '#' => {
                while let Some(&(_, d)) = it.peek() {
                    if d == '\n' {
                        break;
                    }
                    it.next();
                }
            }
            '0'..='9' => {
                let mut end = i + 1;
                while let Some(&(j, d)) = it.peek() {
                    if d.is_ascii_alphanumeric() || d == '_' {
                        end = j + 1;
                        it.next();
                    } else {
                        break;
                    }
                }
                let raw = &text[i..end];
                if raw.len() > limits.max_literal_len {
                    return Err(ClaimError::budget(
                        i..end,
                        format!(
                            "number literal has {} characters; the limit is {}",
                            raw.len(),
                            limits.max_literal_len
                        ),
                    ));
                }
                out.push(Token {
                    tok: Tok::Num(raw.to_string()),
                    span: i..end,
                });
            }
            c if c.is_alphabetic() || c == '_' => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = it.peek() {
                    if d.is_alphanumeric() || d == '_' {
                        end = j + d.len_utf8();
                        it.next();
                    } else {
                        break;
                    }
                }
                out.push(Token {
                    tok: Tok::Ident(text[i..end].to_string()),
                    span: i..end,
                });
            }
            '"' => {
                let mut s = String::new();
                let mut closed = None;
                for (j, d) in it.by_ref() {
                    match d {
                        '"' => {
                            closed = Some(j);
                            break;
                        }
                        '\n' => break,
                        d => s.push(d),
                    }
                }
                match closed {
                    Some(j) => out.push(Token {
                        tok: Tok::Str(s),
                        span: i..j + 1,
                    }),
                    None => {
                        return Err(ClaimError::syntax(
                            i..i + 1,
                            "string is not closed on its line",
                        ))
                    }
                }
            }
            '+' => out.push(single(Tok::Plus)),
            '⊕' => out.push(single(Tok::Oplus)),
            '*' => out.push(single(Tok::Star)),
            '⊗' => out.push(single(Tok::Otimes)),
            '/' => out.push(single(Tok::Slash)),
            '^' => out.push(single(Tok::Caret)),
            '-' | '−' => out.push(single(Tok::Minus)),
            '·' => out.push(single(Tok::Dot)),
            '(' => out.push(single(Tok::LParen)),
            ')' => out.push(single(Tok::RParen)),
            '[' => out.push(single(Tok::LBracket)),
            ']' => out.push(single(Tok::RBracket)),
            ',' => out.push(single(Tok::Comma)),
            ':' => out.push(single(Tok::Colon)),
            '=' => out.push(single(Tok::Eq)),
            '≠' => out.push(single(Tok::Ne)),
            '≤' => out.push(single(Tok::Le)),
            '≥' => out.push(single(Tok::Ge)),
            '!' | '<' | '>' => {
                let two = matches!(it.peek(), Some(&(_, '=')));
                if two {
                    it.next();
                }
                let tok = match (c, two) {
                    ('!', true) => Tok::Ne,
                    ('<', true) => Tok::Le,
                    ('>', true) => Tok::Ge,
                    ('<', false) => Tok::Lt,
                    ('>', false) => Tok::Gt,
                    _ => {
                        return Err(ClaimError::syntax(
                            i..i + 1,
                            "`!` must be followed by `=` (or write `≠`)",
                        ))
                    }
                };
                out.push(Token {
                    tok,
                    span: i..i + 1 + usize::from(two),
                });
            }
            other => {
                return Err(ClaimError::syntax(
                    i..i + other.len_utf8(),
                    format!("unexpected character `{other}`"),
                ))
            }
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        span: text.len()..text.len(),
    });
    Ok(out)
}
