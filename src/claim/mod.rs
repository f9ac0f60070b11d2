//! The claim language: what a lesson states, and the checker that verifies it.
//!
//! A lesson states facts in fenced blocks whose info string is `nim`, one claim per line, and
//! inline as `` `nim: 6 * 13 = 15` ``. The pipeline for one statement is
//! lexer → parser (an [`ast`] with a span on every node) → evaluator → [`Checker`]. Spans
//! are byte offsets into the lesson file, so every diagnostic can point at the failing
//! sub-expression.
//!
//! The language in brief (the authoring lesson of the course has the full tour):
//!
//! - `a + b`, `a ⊕ b`: nim-sum; `a * b`, `a ⊗ b`: nim-product; `a / b`: nim-quotient;
//!   `a ^ n`: nim-power with an ordinary exponent `n`.
//! - `int(…)`: ordinary integer arithmetic with `+ - * · / ^`; `mod` is ordinary everywhere.
//!   Exponents and quantifier bounds are ordinary integers, as if inside `int(…)`.
//!
//! What a reader sees is what was checked: the rendering (`Display` here, MathML in the site)
//! shows nim operations as `⊕ ⊗ ⊘` and a nim-power as `a^⊗n`, ordinary ones as `+ − · ^`,
//! ordinary division as `⌊a/b⌋`, and brackets a `mod` next to another operation, so that the
//! text read as ordinary mathematics is the statement decided. A claim that cannot be decided
//! (a budget ran out) is an error, never `false`.
//! - `a = b = c`, `≠`, `<`, `≤`, `>`, `≥`: chains, each link checked; a line that begins with a
//!   relation continues the previous claim (a calc chain).
//! - `G is P`, `G is N`: outcome classes of positions.
//! - `let x = …`: a binding visible to later claims of the lesson.
//! - `forall a, b < 256: …`, `exists x < 16: …`: exhaustive checks within a budget;
//!   `forall a, b: …` and `forall n ≥ 71: …` over every value, proved (see [`Established`]).
//! - `#` starts a comment.

pub mod ast;
pub mod builtins;
pub(crate) mod check;
pub(crate) mod eval;
pub(crate) mod lexer;
pub(crate) mod parser;
pub(crate) mod prove;
#[cfg(test)]
mod tests;
pub(crate) mod vacuous;
pub(crate) mod value;

pub(crate) use check::bindings;
pub use check::{calc, Checked, Checker, Directive, MappedText, Status};
pub use prove::Established;
pub use vacuous::{vacuity, Vacuity};
pub use value::Value;

use crate::diag::{Code, Diagnostic, Span};

/// Bounds on what one claim may ask for. Every bound that is hit is reported with its name.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The largest number, in bits, a literal or a result may have (`[nimbook] max-bits`).
    pub max_bits: u64,
    /// The most cases one quantified claim may check (`[nimbook] max-cases`).
    pub max_cases: u64,
    /// The most syntax-tree nodes in one statement.
    pub max_nodes: usize,
    /// The deepest nesting of parentheses and calls.
    pub max_depth: usize,
    /// The longest number literal, in characters, before it is even read.
    pub max_literal_len: usize,
    /// The largest side of a generated table (`[nimbook] max-table`).
    pub max_table: u64,
    /// The most terms of a polynomial expanded to prove an identity (`[nimbook] max-terms`).
    pub max_terms: usize,
    /// The budget of one game search (`[nimbook] max-positions` and `max-seconds`).
    pub game: crate::game::Budget,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bits: 4096,
            max_cases: 20_000_000,
            max_nodes: 2000,
            max_depth: 64,
            max_literal_len: 4096,
            max_table: 256,
            max_terms: 10_000,
            game: crate::game::Budget::default(),
        }
    }
}

/// An error in a claim, before it is tied to a file: a span in the text being checked, a
/// one-line reason, and notes and hints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimError {
    /// The kind of error.
    pub code: Code,
    /// Where.
    pub span: Span,
    /// What is wrong, in one line.
    pub message: String,
    /// What was computed.
    pub notes: Vec<String>,
    /// What was probably meant.
    pub helps: Vec<String>,
}

impl ClaimError {
    /// An expression that cannot be evaluated, at `span` ([`Code::EvaluationError`]; see
    /// [`ClaimError::code`] for other kinds).
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        ClaimError {
            code: Code::EvaluationError,
            span,
            message: message.into(),
            notes: Vec::new(),
            helps: Vec::new(),
        }
    }

    /// Text that does not parse, at `span`.
    pub fn syntax(span: Span, message: impl Into<String>) -> Self {
        ClaimError::new(span, message).code(Code::SyntaxError)
    }

    /// A bound that was hit, at `span`: the claim was not decided.
    pub fn budget(span: Span, message: impl Into<String>) -> Self {
        ClaimError::new(span, message).code(Code::BudgetExceeded)
    }

    /// Sets the kind.
    pub fn code(mut self, code: Code) -> Self {
        self.code = code;
        self
    }

    /// The diagnostic for this error in `file`: the one way from a claim error to a diagnostic.
    pub fn into_diagnostic(self, file: &std::sync::Arc<crate::diag::SourceFile>) -> Diagnostic {
        let mut d = Diagnostic::error(self.code, self.message).at(file, self.span);
        d.notes = self.notes;
        d.helps = self.helps;
        d
    }
}

crate::diag::remark_builders!(ClaimError);
