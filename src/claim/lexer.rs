//! The lexer: turns claim text into tokens, each with its byte span.

use super::ast::Rel;
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
    /// A relation: `=`, `≠` (or `!=`), `<`, `≤` (or `<=`), `>`, `≥` (or `>=`).
    Rel(Rel),
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
            Tok::Rel(r) => r.symbol(),
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

/// The characters still to read, with their byte offsets.
type Chars<'t> = std::iter::Peekable<std::str::CharIndices<'t>>;

/// Splits `text` into tokens. A `#` outside a string starts a comment that runs to the end of
/// the line.
pub(crate) fn lex(text: &str, limits: &Limits) -> Result<Vec<Token>, ClaimError> {
    let mut out = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if let Some(tok) = punctuation(c) {
            out.push(Token {
                tok,
                span: i..i + c.len_utf8(),
            });
            continue;
        }
        let token = match c {
            c if c.is_whitespace() => continue,
            '#' => {
                while it.next_if(|&(_, d)| d != '\n').is_some() {}
                continue;
            }
            '0'..='9' => number(text, i, &mut it, limits)?,
            c if c.is_alphabetic() || c == '_' => {
                let end = run(&mut it, i + c.len_utf8(), |d| {
                    d.is_alphanumeric() || d == '_'
                });
                Token {
                    tok: Tok::Ident(text[i..end].to_string()),
                    span: i..end,
                }
            }
            '"' => string(i, &mut it)?,
            '!' | '<' | '>' => comparison(c, i, &mut it)?,
            other => {
                return Err(ClaimError::syntax(
                    i..i + other.len_utf8(),
                    format!("unexpected character `{other}`"),
                ))
            }
        };
        out.push(token);
    }
    out.push(Token {
        tok: Tok::Eof,
        span: text.len()..text.len(),
    });
    Ok(out)
}

/// The token of a character that is a token on its own.
fn punctuation(c: char) -> Option<Tok> {
    Some(match c {
        '\n' => Tok::Newline,
        '+' => Tok::Plus,
        '⊕' => Tok::Oplus,
        '*' => Tok::Star,
        '⊗' => Tok::Otimes,
        '/' => Tok::Slash,
        '^' => Tok::Caret,
        '-' | '−' => Tok::Minus,
        '·' => Tok::Dot,
        '(' => Tok::LParen,
        ')' => Tok::RParen,
        '[' => Tok::LBracket,
        ']' => Tok::RBracket,
        ',' => Tok::Comma,
        ':' => Tok::Colon,
        '=' => Tok::Rel(Rel::Eq),
        '≠' => Tok::Rel(Rel::Ne),
        '≤' => Tok::Rel(Rel::Le),
        '≥' => Tok::Rel(Rel::Ge),
        _ => return None,
    })
}

/// Consumes the characters that satisfy `more`; returns the end of the run that began before
/// `end`.
fn run(it: &mut Chars<'_>, mut end: usize, more: impl Fn(char) -> bool) -> usize {
    while let Some((j, d)) = it.next_if(|&(_, d)| more(d)) {
        end = j + d.len_utf8();
    }
    end
}

/// A number literal starting at `i`: a digit, then ASCII letters, digits and underscores, read
/// as one token for the parser to accept or refuse whole; its length is bounded.
fn number(text: &str, i: usize, it: &mut Chars<'_>, limits: &Limits) -> Result<Token, ClaimError> {
    let end = run(it, i + 1, |d| d.is_ascii_alphanumeric() || d == '_');
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
    Ok(Token {
        tok: Tok::Num(raw.to_string()),
        span: i..end,
    })
}

/// A string whose opening quote is at `i`; it must close on its line.
fn string(i: usize, it: &mut Chars<'_>) -> Result<Token, ClaimError> {
    let mut s = String::new();
    for (j, d) in it.by_ref() {
        match d {
            '"' => {
                return Ok(Token {
                    tok: Tok::Str(s),
                    span: i..j + 1,
                })
            }
            '\n' => break,
            d => s.push(d),
        }
    }
    Err(ClaimError::syntax(
        i..i + 1,
        "string is not closed on its line",
    ))
}

/// `!=`, `<`, `<=`, `>` or `>=`, starting with `c` at `i`.
fn comparison(c: char, i: usize, it: &mut Chars<'_>) -> Result<Token, ClaimError> {
    let two = it.next_if(|&(_, d)| d == '=').is_some();
    let tok = match (c, two) {
        ('!', true) => Tok::Rel(Rel::Ne),
        ('<', true) => Tok::Rel(Rel::Le),
        ('>', true) => Tok::Rel(Rel::Ge),
        ('<', false) => Tok::Rel(Rel::Lt),
        ('>', false) => Tok::Rel(Rel::Gt),
        _ => {
            return Err(ClaimError::syntax(
                i..i + 1,
                "`!` must be followed by `=` (or write `≠`)",
            ))
        }
    };
    Ok(Token {
        tok,
        span: i..i + 1 + usize::from(two),
    })
}
