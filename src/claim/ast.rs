//! The syntax tree of claims and expressions. Every node keeps its byte span.

use crate::diag::Span;
use crate::nim::ordinal::Ordinal;
use crate::nim::Nimber;

/// An expression with its span.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What kind of expression.
    pub kind: ExprKind,
    /// Where it stands in the text.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// A number literal, as a nimber (every natural number is one).
    Num(Nimber),
    /// A name bound by `let` or a quantifier.
    Var(String),
    /// A string literal, the argument of `octal("0.77", 9)` and alike.
    Str(String),
    /// `true` or `false`.
    Bool(bool),
    /// A list `[1, 3, 4]`.
    List(Vec<Expr>),
    /// A function call `name(args)`.
    Call {
        /// The function's name.
        name: String,
        /// The span of the name alone.
        name_span: Span,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// A binary operation.
    Bin {
        /// The operator.
        op: BinOp,
        /// The left operand.
        lhs: Box<Expr>,
        /// The right operand.
        rhs: Box<Expr>,
    },
    /// `int(…)`: inside, `+ - * / ^ mod` are ordinary integer arithmetic.
    Int(Box<Expr>),
    /// A parenthesised expression, kept so that rendering shows the author's grouping.
    Paren(Box<Expr>),
}

/// Binary operators. The nim operators act in the field of nimbers; the ordinary ones on the
/// natural numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// Nim-addition `+` or `⊕`.
    NimAdd,
    /// Nim-multiplication `*` or `⊗`.
    NimMul,
    /// Nim-division `/`.
    NimDiv,
    /// Nim-power `a ^ n` (n an ordinary integer).
    NimPow,
    /// Ordinary `+` inside `int(…)`.
    Add,
    /// Ordinary `-` inside `int(…)`.
    Sub,
    /// Ordinary `*` or `·` inside `int(…)`.
    Mul,
    /// Ordinary integer division (rounding down) `/` inside `int(…)`.
    Div,
    /// Remainder `mod`, ordinary everywhere.
    Mod,
    /// Ordinary power `^` inside `int(…)`.
    Pow,
}

impl BinOp {
    /// The symbol used when the operation is displayed.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::NimAdd => "⊕",
            BinOp::NimMul => "⊗",
            BinOp::NimDiv => "⊘",
            BinOp::NimPow | BinOp::Pow => "^",
            BinOp::Add => "+",
            BinOp::Sub => "−",
            BinOp::Mul => "·",
            BinOp::Div => "/",
            BinOp::Mod => "mod",
        }
    }

    /// Binding strength: higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::NimAdd | BinOp::Add | BinOp::Sub => 1,
            BinOp::NimMul | BinOp::NimDiv | BinOp::Mul | BinOp::Div | BinOp::Mod => 2,
            BinOp::NimPow | BinOp::Pow => 3,
        }
    }
}

/// A relation between two sides of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rel {
    /// `=`
    Eq,
    /// `≠`
    Ne,
    /// `<`
    Lt,
    /// `≤`
    Le,
    /// `>`
    Gt,
    /// `≥`
    Ge,
}

impl Rel {
    /// The symbol used when the relation is displayed.
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Eq => "=",
            Rel::Ne => "≠",
            Rel::Lt => "<",
            Rel::Le => "≤",
            Rel::Gt => ">",
            Rel::Ge => "≥",
        }
    }
}

/// One link `a REL b` of a chain; `lhs` is the previous link's right side.
#[derive(Debug, Clone)]
pub struct Link {
    /// The relation.
    pub rel: Rel,
    /// Where the relation symbol stands.
    pub rel_span: Span,
    /// The right-hand side.
    pub rhs: Expr,
}

/// A chain `a = b = c …`: every link is checked on its own.
#[derive(Debug, Clone)]
pub struct Chain {
    /// The first expression.
    pub first: Expr,
    /// The links that follow.
    pub links: Vec<Link>,
}

/// `forall` or `exists`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantifier {
    /// Every value in range must satisfy the body.
    Forall,
    /// Some value in range must satisfy the body.
    Exists,
}

/// The values a quantified variable ranges over.
#[derive(Debug, Clone)]
pub enum Range {
    /// `x < N`, or `x ≤ N` when `inclusive`: the natural numbers below the bound.
    Below {
        /// The bound.
        bound: Expr,
        /// Whether the bound itself is included (`≤`).
        inclusive: bool,
    },
    /// `x ≥ K`, or `x > K` when not `inclusive`: every natural number from the start on.
    From {
        /// The start.
        start: Expr,
        /// Whether the start itself is included (`≥`).
        inclusive: bool,
    },
    /// No bound (`forall a, b: …`): every natural number, that is every finite nimber.
    All,
}

impl Range {
    /// The expression that bounds the range, if any.
    pub fn bound(&self) -> Option<&Expr> {
        match self {
            Range::Below { bound: e, .. } | Range::From { start: e, .. } => Some(e),
            Range::All => None,
        }
    }
}

/// One bound variable `x < N`, `x ≥ K` or `x` alone.
#[derive(Debug, Clone)]
pub struct Binder {
    /// The variable.
    pub name: String,
    /// Where the variable is written.
    pub span: Span,
    /// What it ranges over.
    pub range: Range,
}

/// The outcome class a position is claimed to have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutcomeClass {
    /// The previous player wins.
    P,
    /// The next player wins.
    N,
    /// Neither player can force a win: a draw, in a loopy game.
    D,
}

impl OutcomeClass {
    /// The letter, with the article English reads before it: "a P", "an N" (said "en").
    pub fn with_article(self) -> &'static str {
        match self {
            OutcomeClass::P => "a P",
            OutcomeClass::N => "an N",
            OutcomeClass::D => "a D",
        }
    }
}

/// A claim that is true or false: what a statement asserts, and what a quantifier asserts for
/// every (or some) value of its variables.
#[derive(Debug, Clone)]
pub enum Claim {
    /// A chain of relations.
    Chain(Chain),
    /// `G is P` or `G is N`.
    Is {
        /// The position.
        expr: Expr,
        /// The claimed class.
        class: OutcomeClass,
        /// The span of the class word.
        class_span: Span,
    },
}

/// A statement: one line of a `nim` block (with its continuation lines), or one inline form.
#[derive(Debug, Clone)]
pub enum Statement {
    /// A claim: a chain of relations or an outcome class.
    Claim(Claim),
    /// `let x = expr`.
    Let {
        /// The bound name.
        name: String,
        /// Where the name is written.
        name_span: Span,
        /// Its value.
        value: Expr,
    },
    /// `forall …: body` or `exists …: body`.
    Quantified {
        /// Which quantifier.
        quantifier: Quantifier,
        /// The bound variables.
        binders: Vec<Binder>,
        /// The claim checked for each assignment.
        body: Claim,
    },
    /// A bare expression: allowed inline, where its value is shown.
    Expr(Expr),
}

/// A statement with the span of its whole text.
#[derive(Debug, Clone)]
pub struct Spanned {
    /// The statement.
    pub stmt: Statement,
    /// Its whole span.
    pub span: Span,
}

/// Writes `items` between `open` and `close`, separated by `, `: a list or a call's arguments.
pub(crate) fn write_list<T: std::fmt::Display>(
    f: &mut std::fmt::Formatter<'_>,
    open: &str,
    items: &[T],
    close: &str,
) -> std::fmt::Result {
    f.write_str(open)?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    f.write_str(close)
}

impl std::fmt::Display for Expr {
    /// The expression in mathematical notation: `⊕ ⊗ ⊘` for the nim operations, `+ − · /`
    /// for ordinary ones, with the author's parentheses.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            ExprKind::Num(n) => write!(f, "{n}"),
            ExprKind::Var(v) => write!(f, "{v}"),
            ExprKind::Str(s) => write!(f, "\"{s}\""),
            ExprKind::Bool(b) => write!(f, "{b}"),
            ExprKind::List(items) => write_list(f, "[", items, "]"),
            ExprKind::Call { name, args, .. } => {
                // `ord("w^2*3 + w")` is shown as the ordinal it reads, as in the MathML.
                if let Some(o) = self.ordinal_literal() {
                    return f.write_str(&ordinal_text(&o));
                }
                write!(f, "{name}")?;
                write_list(f, "(", args, ")")
            }
            ExprKind::Bin { op, lhs, rhs } => {
                let operand = |f: &mut std::fmt::Formatter<'_>, e: &Expr| {
                    if e.needs_brackets_under(*op) {
                        write!(f, "({e})")
                    } else {
                        write!(f, "{e}")
                    }
                };
                match op {
                    BinOp::NimPow | BinOp::Pow => {
                        // The base and the exponent are bracketed unless they are one symbol
                        // or call: `(ω + 1)^⊗3`, `2^(n + 1)`.
                        if lhs.needs_brackets_as_base() {
                            write!(f, "({lhs})")?;
                        } else {
                            write!(f, "{lhs}")?;
                        }
                        write!(f, "^{}", if *op == BinOp::NimPow { "⊗" } else { "" })?;
                        if rhs.is_atom() {
                            write!(f, "{rhs}")
                        } else {
                            write!(f, "({rhs})")
                        }
                    }
                    BinOp::Div => {
                        write!(f, "⌊")?;
                        operand(f, lhs)?;
                        write!(f, "/")?;
                        operand(f, rhs)?;
                        write!(f, "⌋")
                    }
                    _ => {
                        operand(f, lhs)?;
                        write!(f, " {} ", op.symbol())?;
                        operand(f, rhs)
                    }
                }
            }
            // `int(…)` is a region of ordinary arithmetic; where it meets another operation
            // its operand rule brackets it, and as an argument or a side it needs none.
            ExprKind::Int(inner) => write!(f, "{inner}"),
            ExprKind::Paren(inner) => write!(f, "({inner})"),
        }
    }
}

impl std::fmt::Display for Claim {
    /// The claim in the notation of the rendered page.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Claim::Chain(chain) => {
                write!(f, "{}", chain.first)?;
                for l in &chain.links {
                    write!(f, " {} {}", l.rel.symbol(), l.rhs)?;
                }
                Ok(())
            }
            Claim::Is { expr, class, .. } => {
                write!(f, "{expr} is {}-position", class.with_article())
            }
        }
    }
}

impl std::fmt::Display for Statement {
    /// The statement as a reader reads it, in the notation of the rendered page: the text
    /// alternative of its MathML, and how notes quote it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Statement::Claim(claim) => write!(f, "{claim}"),
            Statement::Let { name, value, .. } => write!(f, "{name} ≔ {value}"),
            Statement::Quantified {
                quantifier,
                binders,
                body,
            } => {
                write!(
                    f,
                    "{}",
                    match quantifier {
                        Quantifier::Forall => "∀",
                        Quantifier::Exists => "∃",
                    }
                )?;
                write!(f, "{}: {body}", Ranges(binders))
            }
            Statement::Expr(e) => write!(f, "{e}"),
        }
    }
}

/// Whether an ordinal is shown as one symbol: a numeral, or one power `ω^e` with coefficient 1.
fn is_single_power(o: &Ordinal) -> bool {
    let terms: Vec<_> = o.terms().collect();
    o.is_finite() || matches!(terms.as_slice(), [(_, 1)])
}

/// An ordinal in Cantor normal form as the page writes it: `ω^2·3 + ω + 4`, `ω^(ω·2 + 1)`.
/// Each term is a power of ω times a natural coefficient, and the terms are added from the
/// largest down, so the text reads the same left to right as ordinal arithmetic.
pub fn ordinal_text(o: &Ordinal) -> String {
    let mut out = String::new();
    for (k, (exponent, coefficient)) in o.terms().enumerate() {
        if k > 0 {
            out.push_str(" + ");
        }
        let parts: Vec<String> = exponent
            .iter()
            .enumerate()
            .rev()
            .filter(|&(_, &a)| a != 0)
            .map(|(i, &a)| {
                let power = match i {
                    0 => return a.to_string(),
                    1 => "ω".to_string(),
                    _ => format!("ω^{i}"),
                };
                if a > 1 {
                    format!("{power}·{a}")
                } else {
                    power
                }
            })
            .collect();
        match parts.as_slice() {
            [] => {
                out.push_str(&coefficient.to_string());
                continue;
            }
            [one] if one == "1" => out.push('ω'),
            [one] if !one.contains(['·', '^']) => out.push_str(&format!("ω^{one}")),
            _ => out.push_str(&format!("ω^({})", parts.join(" + "))),
        }
        if coefficient > 1 {
            out.push_str(&format!("·{coefficient}"));
        }
    }
    if out.is_empty() {
        out.push('0');
    }
    out
}

/// What a quantifier's variables range over, as the reader's notation writes it: `a, b < 16`,
/// `n ≥ 1`, `a, b`.
#[derive(Debug, Clone, Copy)]
pub struct Ranges<'a>(pub &'a [Binder]);

impl std::fmt::Display for Ranges<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, group) in binder_groups(self.0).enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            let names: Vec<&str> = group.iter().map(|b| b.name.as_str()).collect();
            let names = names.join(", ");
            match &group[0].range {
                Range::Below { bound, inclusive } => {
                    let rel = if *inclusive { "≤" } else { "<" };
                    write!(f, "{names} {rel} {bound}")?;
                }
                Range::From { start, inclusive } => {
                    let rel = if *inclusive { "≥" } else { ">" };
                    write!(f, "{names} {rel} {start}")?;
                }
                Range::All => write!(f, "{names}")?,
            }
        }
        Ok(())
    }
}

/// The binders of a quantifier in the groups the author wrote them in: `a, b < 256` is one
/// group of two binders sharing a bound, and so is `a, b` with no bound.
pub fn binder_groups(binders: &[Binder]) -> impl Iterator<Item = &[Binder]> {
    binders.chunk_by(|a, b| a.range.bound().map(|e| &e.span) == b.range.bound().map(|e| &e.span))
}

impl Expr {
    /// Whether this expression, as an operand of `parent`, must be shown in brackets so that a
    /// reader groups it as the evaluator did. Precedence alone is trusted for `⊕ ⊗ + · −`,
    /// where it is the familiar one; but readers disagree on how tightly `mod` binds (many read
    /// `a + b mod n` as `(a + b) mod n`), so a `mod` inside another operation, and an operation
    /// inside a `mod`, are always bracketed.
    ///
    /// Two more kinds of operand are bracketed under every operation, because a reader reading
    /// left to right would otherwise split them: `int(…)` around an operation (`a ⊕ (b + c)`,
    /// where the `+` is ordinary), and an ordinal literal that is itself a sum or a product
    /// (`(ω + 1) ⊗ 2`, not `ω + 1 ⊗ 2`; `2 ⊗ (ω·3)`, not `2 ⊗ ω·3`).
    pub fn needs_brackets_under(&self, parent: BinOp) -> bool {
        match &self.kind {
            ExprKind::Bin { op, .. } => parent == BinOp::Mod || *op == BinOp::Mod,
            ExprKind::Int(inner) => matches!(inner.kind, ExprKind::Bin { .. }),
            ExprKind::Call { .. } => self.ordinal_literal().is_some_and(|o| !is_single_power(&o)),
            _ => false,
        }
    }

    /// Whether this expression, as the base of a power, must be bracketed: an operation, and
    /// an ordinal literal other than a numeral or `ω` itself (`(ω^ω)^⊗5`, not `ω^ω^⊗5`).
    pub fn needs_brackets_as_base(&self) -> bool {
        match &self.kind {
            ExprKind::Bin { .. } => true,
            ExprKind::Int(inner) => inner.needs_brackets_as_base(),
            ExprKind::Call { .. } => self.ordinal_literal().is_some_and(|o| {
                let terms: Vec<_> = o.terms().collect();
                !(o.is_finite() || matches!(terms.as_slice(), [(e, 1)] if *e == [1]))
            }),
            _ => false,
        }
    }

    /// Whether the expression is shown as one symbol, numeral or call, so that it needs no
    /// brackets as an exponent.
    fn is_atom(&self) -> bool {
        match &self.kind {
            ExprKind::Num(_) | ExprKind::Var(_) | ExprKind::Paren(_) | ExprKind::Bool(_) => true,
            ExprKind::Str(_) | ExprKind::List(_) => true,
            ExprKind::Int(inner) => inner.is_atom(),
            ExprKind::Call { .. } => !self.needs_brackets_as_base(),
            ExprKind::Bin { .. } => false,
        }
    }

    /// The ordinal of an `ord("…")` call with a literal that reads as one; such a call is
    /// shown as the ordinal itself (`ω^2·3 + ω`).
    pub fn ordinal_literal(&self) -> Option<Ordinal> {
        match &self.kind {
            ExprKind::Call { name, args, .. } if name == "ord" => match args.as_slice() {
                [Expr {
                    kind: ExprKind::Str(text),
                    ..
                }] => crate::nim::ordinal::parse(text).ok(),
                _ => None,
            },
            _ => None,
        }
    }

    /// Shifts every span in the tree through `map`, from text offsets to file offsets.
    pub fn remap(&mut self, map: &dyn Fn(usize) -> usize) {
        self.span = map(self.span.start)..map(self.span.end);
        match &mut self.kind {
            ExprKind::List(items) => items.iter_mut().for_each(|e| e.remap(map)),
            ExprKind::Call {
                name_span, args, ..
            } => {
                *name_span = map(name_span.start)..map(name_span.end);
                args.iter_mut().for_each(|e| e.remap(map));
            }
            ExprKind::Bin { lhs, rhs, .. } => {
                lhs.remap(map);
                rhs.remap(map);
            }
            ExprKind::Int(inner) | ExprKind::Paren(inner) => inner.remap(map),
            ExprKind::Num(_) | ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::Bool(_) => {}
        }
    }
}

impl Claim {
    /// Shifts every span in the claim through `map`.
    pub fn remap(&mut self, map: &dyn Fn(usize) -> usize) {
        match self {
            Claim::Chain(chain) => {
                chain.first.remap(map);
                for l in &mut chain.links {
                    l.rel_span = map(l.rel_span.start)..map(l.rel_span.end);
                    l.rhs.remap(map);
                }
            }
            Claim::Is {
                expr, class_span, ..
            } => {
                expr.remap(map);
                *class_span = map(class_span.start)..map(class_span.end);
            }
        }
    }
}

impl Statement {
    /// Shifts every span in the statement through `map`.
    pub fn remap(&mut self, map: &dyn Fn(usize) -> usize) {
        match self {
            Statement::Claim(claim) => claim.remap(map),
            Statement::Let {
                name_span, value, ..
            } => {
                *name_span = map(name_span.start)..map(name_span.end);
                value.remap(map);
            }
            Statement::Quantified { binders, body, .. } => {
                for b in binders {
                    b.span = map(b.span.start)..map(b.span.end);
                    match &mut b.range {
                        Range::Below { bound: e, .. } | Range::From { start: e, .. } => {
                            e.remap(map)
                        }
                        Range::All => {}
                    }
                }
                body.remap(map);
            }
            Statement::Expr(e) => e.remap(map),
        }
    }
}
