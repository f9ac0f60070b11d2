//! A recursive-descent parser for statements, with limits on nesting and size so that no input
//! can overflow the stack or take unbounded time.
//!
//! Precedence, loosest first: relations (`= ≠ < ≤ > ≥`), sums (`+ ⊕`, and `-` inside `int`),
//! products (`* ⊗ / mod`, and `·` inside `int`), powers (`^`, right-associative). An exponent
//! and a quantifier's bound are always ordinary integers, so they are read with ordinary
//! arithmetic, as if inside `int(…)`.

use super::ast::*;
use super::lexer::{Tok, Token};
use super::{ClaimError, Limits};
use crate::diag::Span;
use crate::nim::Nimber;

/// Words that cannot be used as variable names.
pub(crate) const KEYWORDS: &[&str] = &[
    "let", "forall", "exists", "is", "mod", "int", "true", "false",
];

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    depth: usize,
    nodes: usize,
    limits: &'a Limits,
}

/// Parses one statement from `toks` (which end with `Eof`). With `allow_bare`, a bare
/// expression is accepted (the inline form shows its value).
pub(crate) fn parse_statement(
    toks: &[Token],
    limits: &Limits,
    allow_bare: bool,
) -> Result<Spanned, ClaimError> {
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        nodes: 0,
        limits,
    };
    p.skip_newlines();
    let start = p.peek_span().start;
    let stmt = p.statement(allow_bare)?;
    p.skip_newlines();
    if !matches!(p.peek(), Tok::Eof) {
        return Err(p.unexpected("end of the claim"));
    }
    let end = p.toks[p.pos.saturating_sub(1)].span.end.max(start);
    Ok(Spanned {
        stmt,
        span: start..end,
    })
}

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }

    fn peek_span(&self) -> Span {
        self.toks[self.pos.min(self.toks.len() - 1)].span.clone()
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos.min(self.toks.len() - 1)].clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn prev_end(&self) -> usize {
        self.toks[self.pos.saturating_sub(1)].span.end
    }

    fn skip_newlines(&mut self) {
        while matches!(self.peek(), Tok::Newline) {
            self.bump();
        }
    }

    fn is_ident(&self, word: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == word)
    }

    fn unexpected(&self, wanted: &str) -> ClaimError {
        ClaimError::syntax(
            self.peek_span(),
            format!("expected {wanted}, found {}", self.peek().describe()),
        )
    }

    fn expect(&mut self, tok: Tok, wanted: &str) -> Result<Span, ClaimError> {
        if *self.peek() == tok {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected(wanted))
        }
    }

    fn node(&mut self, kind: ExprKind, span: Span) -> Result<Expr, ClaimError> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(ClaimError::budget(
                span,
                format!(
                    "claim is too large: more than {} terms",
                    self.limits.max_nodes
                ),
            ));
        }
        Ok(Expr { kind, span })
    }

    fn statement(&mut self, allow_bare: bool) -> Result<Statement, ClaimError> {
        if self.is_ident("let") {
            self.bump();
            let (name, name_span) = self.variable_name()?;
            self.expect(Tok::Rel(Rel::Eq), "`=` after the name in `let`")?;
            let value = self.expr(false)?;
            return Ok(Statement::Let {
                name,
                name_span,
                value,
            });
        }
        let quantifier = if self.is_ident("forall") {
            Some(Quantifier::Forall)
        } else if self.is_ident("exists") {
            Some(Quantifier::Exists)
        } else {
            None
        };
        if let Some(quantifier) = quantifier {
            self.bump();
            let binders = self.binders()?;
            self.expect(Tok::Colon, "`:` after the quantified variables")?;
            let body = self.claim()?;
            return Ok(Statement::Quantified {
                quantifier,
                binders,
                body,
            });
        }
        self.relation(allow_bare)
    }

    fn variable_name(&mut self) -> Result<(String, Span), ClaimError> {
        match self.peek().clone() {
            Tok::Ident(name) if !KEYWORDS.contains(&name.as_str()) => {
                let span = self.bump().span;
                Ok((name, span))
            }
            _ => Err(self.unexpected("a variable name")),
        }
    }

    /// `a, b < 256`, `a < 4, b ≤ 7`, `n ≥ 71`, or names alone (`a, b`) for every value.
    fn binders(&mut self) -> Result<Vec<Binder>, ClaimError> {
        let mut out = Vec::new();
        loop {
            let mut names = vec![self.variable_name()?];
            while matches!(self.peek(), Tok::Comma) {
                self.bump();
                names.push(self.variable_name()?);
            }
            let range = match *self.peek() {
                Tok::Colon => Range::All,
                Tok::Rel(rel @ (Rel::Lt | Rel::Le | Rel::Gt | Rel::Ge)) => {
                    self.bump();
                    // A bound counts cases, so it is an ordinary integer.
                    let bound = self.expr(true)?;
                    match rel {
                        Rel::Lt | Rel::Le => Range::Below {
                            bound,
                            inclusive: rel == Rel::Le,
                        },
                        _ => Range::From {
                            start: bound,
                            inclusive: rel == Rel::Ge,
                        },
                    }
                }
                _ => return Err(self.unexpected("`<`, `≤`, `≥` or `>` and a bound, or `:`")),
            };
            for (name, span) in names {
                out.push(Binder {
                    name,
                    span,
                    range: range.clone(),
                });
            }
            if matches!(range, Range::All) {
                return Ok(out);
            }
            if matches!(self.peek(), Tok::Comma) {
                self.bump();
                continue;
            }
            return Ok(out);
        }
    }

    fn rel(&self) -> Option<Rel> {
        match self.peek() {
            Tok::Rel(r) => Some(*r),
            _ => None,
        }
    }

    fn relation(&mut self, allow_bare: bool) -> Result<Statement, ClaimError> {
        let first = self.expr(false)?;
        match self.claim_after(first)? {
            Ok(claim) => Ok(Statement::Claim(claim)),
            Err(first) if allow_bare => Ok(Statement::Expr(first)),
            Err(first) => Err(only_an_expression(&first)),
        }
    }

    /// A claim, where nothing else may stand (after a quantifier's `:`).
    fn claim(&mut self) -> Result<Claim, ClaimError> {
        let first = self.expr(false)?;
        self.claim_after(first)?
            .map_err(|first| only_an_expression(&first))
    }

    /// The rest of a claim that begins with `first`: `is P`, or a chain of relations. Gives
    /// `first` back when neither follows.
    fn claim_after(&mut self, first: Expr) -> Result<Result<Claim, Expr>, ClaimError> {
        if self.is_ident("is") {
            self.bump();
            let class = match self.peek() {
                Tok::Ident(s) if s == "P" => OutcomeClass::P,
                Tok::Ident(s) if s == "N" => OutcomeClass::N,
                Tok::Ident(s) if s == "D" => OutcomeClass::D,
                _ => return Err(self.unexpected("`P`, `N` or `D` (a draw) after `is`")),
            };
            let class_span = self.bump().span;
            return Ok(Ok(Claim::Is {
                expr: first,
                class,
                class_span,
            }));
        }
        let mut links = Vec::new();
        loop {
            // A line that begins with a relation continues the chain (a calc block).
            let save = self.pos;
            self.skip_newlines();
            let Some(rel) = self.rel() else {
                self.pos = save;
                break;
            };
            let rel_span = self.bump().span;
            let rhs = self.expr(false)?;
            links.push(Link { rel, rel_span, rhs });
        }
        if links.is_empty() {
            return Ok(Err(first));
        }
        Ok(Ok(Claim::Chain(Chain { first, links })))
    }

    fn enter(&mut self) -> Result<(), ClaimError> {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            return Err(ClaimError::budget(
                self.peek_span(),
                format!(
                    "expression is nested more than {} levels deep",
                    self.limits.max_depth
                ),
            ));
        }
        Ok(())
    }

    fn expr(&mut self, ordinary: bool) -> Result<Expr, ClaimError> {
        self.enter()?;
        let r = self.sum(ordinary);
        self.depth -= 1;
        r
    }

    /// Operands of `next` joined left to right by the operators `op_at` reads at the cursor
    /// (`None` ends the chain): sums of products, products of powers.
    fn left_assoc(
        &mut self,
        ordinary: bool,
        next: fn(&mut Self, bool) -> Result<Expr, ClaimError>,
        op_at: fn(&Self, bool) -> Result<Option<BinOp>, ClaimError>,
    ) -> Result<Expr, ClaimError> {
        let mut lhs = next(self, ordinary)?;
        while let Some(op) = op_at(self, ordinary)? {
            self.bump();
            let rhs = next(self, ordinary)?;
            lhs = self.binary(op, lhs, rhs)?;
        }
        Ok(lhs)
    }

    /// The error for an ordinary operator among nimbers, at the cursor.
    fn ordinary_outside_int(&self, what: &str, help: &str) -> ClaimError {
        ClaimError::syntax(
            self.peek_span(),
            format!("{what}, which is only allowed inside `int(…)`"),
        )
        .help(help)
    }

    fn sum(&mut self, ordinary: bool) -> Result<Expr, ClaimError> {
        self.left_assoc(ordinary, Self::product, Self::sum_op)
    }

    fn sum_op(&self, ordinary: bool) -> Result<Option<BinOp>, ClaimError> {
        Ok(Some(match self.peek() {
            Tok::Plus if ordinary => BinOp::Add,
            Tok::Plus | Tok::Oplus => BinOp::NimAdd,
            Tok::Minus if ordinary => BinOp::Sub,
            Tok::Minus => {
                return Err(self.ordinary_outside_int(
                    "`-` is ordinary subtraction",
                    "among nimbers, subtracting is the same as adding: write `+`",
                ))
            }
            _ => return Ok(None),
        }))
    }

    fn product(&mut self, ordinary: bool) -> Result<Expr, ClaimError> {
        self.left_assoc(ordinary, Self::power, Self::product_op)
    }

    fn product_op(&self, ordinary: bool) -> Result<Option<BinOp>, ClaimError> {
        Ok(Some(match self.peek() {
            Tok::Star | Tok::Dot if ordinary => BinOp::Mul,
            Tok::Star | Tok::Otimes => BinOp::NimMul,
            Tok::Slash if ordinary => BinOp::Div,
            Tok::Slash => BinOp::NimDiv,
            Tok::Ident(s) if s == "mod" => BinOp::Mod,
            Tok::Dot => {
                return Err(self.ordinary_outside_int(
                    "`·` is ordinary multiplication",
                    "write `*` or `⊗` for the nim-product",
                ))
            }
            _ => return Ok(None),
        }))
    }

    fn power(&mut self, ordinary: bool) -> Result<Expr, ClaimError> {
        let base = self.atom(ordinary)?;
        if !matches!(self.peek(), Tok::Caret) {
            return Ok(base);
        }
        self.bump();
        self.enter()?;
        // The exponent is an ordinary integer, so it is read with ordinary arithmetic.
        let exp = self.power(true);
        self.depth -= 1;
        let exp = exp?;
        let op = if ordinary { BinOp::Pow } else { BinOp::NimPow };
        self.binary(op, base, exp)
    }

    /// The node `lhs op rhs`, spanning both operands.
    fn binary(&mut self, op: BinOp, lhs: Expr, rhs: Expr) -> Result<Expr, ClaimError> {
        let span = lhs.span.start..rhs.span.end;
        self.node(
            ExprKind::Bin {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            span,
        )
    }

    fn atom(&mut self, ordinary: bool) -> Result<Expr, ClaimError> {
        let tok = self.bump();
        let start = tok.span.start;
        match tok.tok {
            Tok::Num(raw) => {
                let n = parse_number(&raw, tok.span.clone(), self.limits)?;
                self.node(ExprKind::Num(n), tok.span)
            }
            Tok::Str(s) => self.node(ExprKind::Str(s), tok.span),
            Tok::LParen => {
                let inner = self.expr(ordinary)?;
                self.expect(Tok::RParen, "`)`")?;
                let span = start..self.prev_end();
                self.node(ExprKind::Paren(Box::new(inner)), span)
            }
            Tok::LBracket => {
                self.enter()?;
                let items = self.list(Tok::RBracket, "`,` or `]`", ordinary);
                self.depth -= 1;
                let items = items?;
                let span = start..self.prev_end();
                self.node(ExprKind::List(items), span)
            }
            Tok::Ident(name) if name == "int" && matches!(self.peek(), Tok::LParen) => {
                self.bump();
                let inner = self.expr(true)?;
                self.expect(Tok::RParen, "`)` to close `int(`")?;
                let span = start..self.prev_end();
                self.node(ExprKind::Int(Box::new(inner)), span)
            }
            Tok::Ident(name) if name == "true" || name == "false" => {
                self.node(ExprKind::Bool(name == "true"), tok.span)
            }
            Tok::Ident(name) if KEYWORDS.contains(&name.as_str()) => Err(ClaimError::syntax(
                tok.span,
                format!("`{name}` is a keyword, not a value"),
            )),
            Tok::Ident(name) => {
                if matches!(self.peek(), Tok::LParen) {
                    self.bump();
                    self.enter()?;
                    let args = self.list(Tok::RParen, "`,` or `)`", ordinary);
                    self.depth -= 1;
                    let args = args?;
                    let span = start..self.prev_end();
                    self.node(
                        ExprKind::Call {
                            name,
                            name_span: tok.span,
                            args,
                        },
                        span,
                    )
                } else {
                    self.node(ExprKind::Var(name), tok.span)
                }
            }
            other => {
                self.pos -= usize::from(!matches!(other, Tok::Eof));
                Err(ClaimError::syntax(
                    tok.span,
                    format!("expected a value, found {}", other.describe()),
                ))
            }
        }
    }

    fn list(&mut self, close: Tok, wanted: &str, ordinary: bool) -> Result<Vec<Expr>, ClaimError> {
        let mut items = Vec::new();
        if *self.peek() == close {
            self.bump();
            return Ok(items);
        }
        loop {
            items.push(self.expr(ordinary)?);
            if matches!(self.peek(), Tok::Comma) {
                self.bump();
            } else if *self.peek() == close {
                self.bump();
                return Ok(items);
            } else {
                return Err(self.unexpected(wanted));
            }
        }
    }
}

/// The error for an expression where a claim was expected.
fn only_an_expression(first: &Expr) -> ClaimError {
    ClaimError::syntax(
        first.span.clone(),
        "expected a claim such as `a = b`, but this is only an expression",
    )
    .help("write what it equals, for example `6 * 13 = 15`")
}

/// Reads a decimal or `0x` hex literal (with optional `_` separators), refusing one whose value
/// would exceed the size budget before converting it.
pub(crate) fn parse_number(raw: &str, span: Span, limits: &Limits) -> Result<Nimber, ClaimError> {
    let (digits, radix) = match raw.strip_prefix("0x").or_else(|| raw.strip_prefix("0X")) {
        Some(h) => (h, 16u32),
        None => (raw, 10u32),
    };
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    let ok =
        !clean.is_empty() && !digits.starts_with('_') && clean.chars().all(|c| c.is_digit(radix));
    if !ok {
        return Err(ClaimError::syntax(
            span,
            format!(
                "`{}` is not a number (write decimal digits, or hex after `0x`)",
                super::lexer::abbreviate(raw)
            ),
        ));
    }
    let significant = clean.trim_start_matches('0').len() as u64;
    // Bits needed: at most 4 per hex digit, log2(10) < 3.33 per decimal digit.
    let bits = if radix == 16 {
        significant.saturating_mul(4)
    } else {
        significant.saturating_mul(3322).div_ceil(1000)
    };
    // Saturating: a budget may be as large as `u64::MAX` (a library caller's limits).
    if bits > limits.max_bits.saturating_add(4) {
        return Err(ClaimError::budget(
            span,
            format!(
                "number `{}` needs about {bits} bits; the budget is {} bits ([nimbook] max-bits)",
                super::lexer::abbreviate(raw),
                limits.max_bits
            ),
        ));
    }
    let n: Nimber = if radix == 16 {
        format!("0x{clean}").parse()
    } else {
        clean.parse()
    }
    .map_err(|e: crate::nim::NimError| ClaimError::budget(span.clone(), e.to_string()))?;
    if n.bit_len() > limits.max_bits {
        return Err(ClaimError::budget(
            span,
            format!(
                "number `{}` has {} bits; the budget is {} bits ([nimbook] max-bits)",
                super::lexer::abbreviate(raw),
                n.bit_len(),
                limits.max_bits
            ),
        ));
    }
    Ok(n)
}
