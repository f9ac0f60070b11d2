//! Reading and writing ordinals in Cantor normal form.
//!
//! The grammar and the canonical display are described in the documentation of the parent
//! module (section "Notation"). The parser is a recursive descent over the grammar that
//! first builds a form of any size ([`Cnf`]), checking the order of terms as it goes, and
//! only then checks that the value is below ω^(ω^ω) and within the caps, so that
//! `w^(w^w)` is reported as out of range rather than as a syntax error.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use super::{exponent_cap, table, Exponent, Ordinal, OrdinalError, MAX_CELLS, MAX_TERMS};

/// A parsed Cantor normal form of any size, before range checks: (exponent, coefficient).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Cnf(Vec<(Cnf, u64)>);

impl Cnf {
    fn natural(n: u64) -> Cnf {
        if n == 0 {
            Cnf(Vec::new())
        } else {
            Cnf(vec![(Cnf(Vec::new()), n)])
        }
    }
    fn cmp_ord(&self, other: &Cnf) -> Ordering {
        for (a, b) in self.0.iter().zip(&other.0) {
            let c = a.0.cmp_ord(&b.0).then(a.1.cmp(&b.1));
            if c != Ordering::Equal {
                return c;
            }
        }
        self.0.len().cmp(&other.0.len())
    }
}

/// The deepest nesting of parentheses accepted (deeper ones are far past ω^(ω^ω) anyway).
const MAX_DEPTH: usize = 16;

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    terms: usize,
}

impl<'a> Parser<'a> {
    fn malformed(&self, offset: usize, reason: &str) -> OrdinalError {
        OrdinalError::Malformed {
            input: self.src.to_string(),
            offset,
            reason: reason.to_string(),
        }
    }
    fn skip_ws(&mut self) {
        let rest = &self.src[self.pos..];
        let trimmed = rest.trim_start();
        self.pos += rest.len() - trimmed.len();
    }
    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.src[self.pos..].chars().next()
    }
    fn bump(&mut self) {
        if let Some(c) = self.src[self.pos..].chars().next() {
            self.pos += c.len_utf8();
        }
    }
    fn natural(&mut self) -> Result<u64, OrdinalError> {
        self.skip_ws();
        let start = self.pos;
        let rest = &self.src[self.pos..];
        let len = rest.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 {
            return Err(self.malformed(start, "expected a number"));
        }
        self.pos += len;
        let text = &rest[..len];
        text.parse::<u64>().map_err(|_| OrdinalError::TooLarge {
            input: self.src.to_string(),
            what: format!("`{text}` at byte {start} is not below 2^64"),
        })
    }
    fn ordinal(&mut self, depth: usize) -> Result<Cnf, OrdinalError> {
        if depth > MAX_DEPTH {
            return Err(self.malformed(self.pos, "parentheses nested too deeply"));
        }
        let mut terms: Vec<(Cnf, u64)> = Vec::new();
        loop {
            let start = {
                self.skip_ws();
                self.pos
            };
            let term = self.term(depth)?;
            if let Some(prev) = terms.last() {
                if prev.0.cmp_ord(&term.0) != Ordering::Greater {
                    return Err(self.malformed(
                        start,
                        "terms must be in strictly decreasing order (Cantor normal form)",
                    ));
                }
            }
            self.terms += 1;
            if self.terms > MAX_TERMS {
                return Err(OrdinalError::Budget {
                    input: format!("{}...", self.src.chars().take(40).collect::<String>()),
                    what: format!("more than {MAX_TERMS} terms"),
                });
            }
            terms.push(term);
            if self.peek() == Some('+') {
                self.bump();
            } else {
                break;
            }
        }
        Ok(Cnf(terms))
    }
    fn term(&mut self, depth: usize) -> Result<(Cnf, u64), OrdinalError> {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                let at = self.pos;
                let n = self.natural()?;
                if n == 0 {
                    // A lone 0 is the ordinal 0; 0 as a term of a longer sum is refused.
                    return Err(self.malformed(at, "zero term"));
                }
                Ok((Cnf(Vec::new()), n))
            }
            Some('w') | Some('ω') => {
                self.bump();
                let exponent = if self.peek() == Some('^') {
                    self.bump();
                    let at = self.pos;
                    let e = self.exponent(depth)?;
                    if e.0.is_empty() {
                        return Err(self.malformed(at, "exponent 0 (write the coefficient alone)"));
                    }
                    if self.peek() == Some('^') {
                        return Err(self.malformed(
                            self.pos,
                            "ambiguous tower of exponents: use parentheses, as in w^(w^2)",
                        ));
                    }
                    e
                } else {
                    Cnf::natural(1)
                };
                let coefficient = match self.peek() {
                    Some('*') | Some('·') => {
                        self.bump();
                        let at = self.pos;
                        let c = self.natural()?;
                        if c == 0 {
                            return Err(self.malformed(at, "coefficient 0"));
                        }
                        c
                    }
                    _ => 1,
                };
                Ok((exponent, coefficient))
            }
            Some(_) => Err(self.malformed(self.pos, "expected a number or w")),
            None => Err(self.malformed(self.pos, "unexpected end")),
        }
    }
    fn exponent(&mut self, depth: usize) -> Result<Cnf, OrdinalError> {
        match self.peek() {
            Some('(') => {
                self.bump();
                let e = self.ordinal(depth + 1)?;
                if self.peek() != Some(')') {
                    return Err(self.malformed(self.pos, "expected `)`"));
                }
                self.bump();
                Ok(e)
            }
            Some('w') | Some('ω') => {
                self.bump();
                Ok(Cnf(vec![(Cnf::natural(1), 1)]))
            }
            Some(c) if c.is_ascii_digit() => Ok(Cnf::natural(self.natural()?)),
            Some(_) => Err(self.malformed(self.pos, "expected an exponent")),
            None => Err(self.malformed(self.pos, "unexpected end")),
        }
    }
}

/// Convert a parsed form into an [`Ordinal`], checking it is below ω^(ω^ω) and the caps.
fn to_ordinal(src: &str, cnf: Cnf) -> Result<Ordinal, OrdinalError> {
    let out_of_range = || OrdinalError::OutOfRange(src.to_string());
    let mut terms = Vec::with_capacity(cnf.0.len());
    let mut cells = 0usize;
    for (exp, coefficient) in cnf.0 {
        // The exponent must be below ω^ω: each of its terms ω^k·a has k finite.
        let mut levels: Vec<u64> = Vec::new();
        for (k, a) in exp.0 {
            let k = match k.0.as_slice() {
                [] => 0,
                [(kk, v)] if kk.0.is_empty() => *v,
                _ => return Err(out_of_range()),
            };
            if k >= table::MAX_LEVELS as u64 {
                return Err(OrdinalError::TooLarge {
                    input: src.to_string(),
                    what: format!("exponents may use w^n only for n < {}", table::MAX_LEVELS),
                });
            }
            let k = k as usize;
            if a >= exponent_cap(k) {
                return Err(OrdinalError::TooLarge {
                    input: src.to_string(),
                    what: format!(
                        "the coefficient {a} of w^{k} in an exponent is not below {}",
                        exponent_cap(k)
                    ),
                });
            }
            if levels.len() <= k {
                levels.resize(k + 1, 0);
            }
            levels[k] = a;
        }
        let levels = Exponent::trim(levels);
        cells += levels.0.len();
        if cells > MAX_CELLS {
            return Err(OrdinalError::Budget {
                input: format!("{}...", src.chars().take(40).collect::<String>()),
                what: format!("more than {MAX_CELLS} exponent coefficients"),
            });
        }
        terms.push((levels, coefficient));
    }
    Ok(Ordinal { terms })
}

impl Ordinal {
    /// Parse an ordinal in Cantor normal form, e.g. `w^(w^2)*3 + w + 4` or `ω^(ω^2·3+1)`.
    ///
    /// The grammar is in the module documentation (section "Notation"): terms in strictly
    /// decreasing order joined by `+`, each a natural or `w`/`ω` with an optional exponent
    /// (a natural, `w`, or a parenthesised ordinal) and an optional coefficient after `*` or
    /// `·`. Errors: [`OrdinalError::Malformed`] with the byte offset,
    /// [`OrdinalError::OutOfRange`] at or past ω^(ω^ω), [`OrdinalError::TooLarge`] past the
    /// caps, [`OrdinalError::Budget`] past [`MAX_TERMS`] terms or [`MAX_CELLS`] exponent
    /// coefficients.
    pub fn parse(s: &str) -> Result<Ordinal, OrdinalError> {
        let mut parser = Parser {
            src: s,
            pos: 0,
            terms: 0,
        };
        if parser.peek().is_some_and(|c| c == '0') {
            let save = parser.pos;
            if parser.natural().ok() == Some(0) && parser.peek().is_none() {
                return Ok(Ordinal::zero());
            }
            parser.pos = save;
        }
        let cnf = parser.ordinal(0)?;
        if parser.peek().is_some() {
            return Err(parser.malformed(parser.pos, "unexpected character"));
        }
        to_ordinal(s, cnf)
    }
}

impl FromStr for Ordinal {
    type Err = OrdinalError;
    fn from_str(s: &str) -> Result<Self, OrdinalError> {
        Ordinal::parse(s)
    }
}

/// Write ω^e (without coefficient) where e is given by its levels.
fn write_power(f: &mut fmt::Formatter<'_>, levels: &[u64]) -> fmt::Result {
    match levels {
        [] => Ok(()),
        [1] => write!(f, "w"),
        [k] => write!(f, "w^{k}"),
        [0, 1] => write!(f, "w^w"),
        _ => {
            write!(f, "w^(")?;
            let mut first = true;
            for (k, &a) in levels.iter().enumerate().rev() {
                if a == 0 {
                    continue;
                }
                if !first {
                    write!(f, " + ")?;
                }
                first = false;
                match k {
                    0 => write!(f, "{a}")?,
                    _ => {
                        if k == 1 {
                            write!(f, "w")?;
                        } else {
                            write!(f, "w^{k}")?;
                        }
                        if a >= 2 {
                            write!(f, "*{a}")?;
                        }
                    }
                }
            }
            write!(f, ")")
        }
    }
}

/// The canonical notation, e.g. `w^(w^2)*3 + w + 4`: terms from the largest down joined by
/// `" + "`, `w` for ω, `*c` for coefficients c ≥ 2, parentheses around exponents other than a
/// natural or `w` (module documentation, section "Notation").
impl fmt::Display for Ordinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return write!(f, "0");
        }
        for (i, (e, c)) in self.terms.iter().enumerate() {
            if i > 0 {
                write!(f, " + ")?;
            }
            if e.0.is_empty() {
                write!(f, "{c}")?;
            } else {
                write_power(f, &e.0)?;
                if *c >= 2 {
                    write!(f, "*{c}")?;
                }
            }
        }
        Ok(())
    }
}
