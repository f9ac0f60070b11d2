//! The stable names of diagnostic kinds, and what each means.
//!
//! Every [`Diagnostic`](super::Diagnostic) carries a [`Code`]: a kebab-case name that tools can
//! match on (the JSON output's `"code"` field) and that the lint options (`--deny
//! unverified-numbers`) refer to. A name, once published, keeps its meaning; new kinds get new
//! names. Each code has a one-line [summary](Code::summary) and a long
//! [explanation](Code::explanation) (what it means, a failing example, how to fix it), kept in
//! `src/diag/explain/CODE.md`: `nimbook explain CODE` prints it, and the guide's page for the
//! code includes the same file, so the two are one text.

use std::fmt;
use std::str::FromStr;

/// The kind of a diagnostic, with a stable kebab-case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Code {
    /// A claim that was decided and does not hold (including a counterexample to `forall`, no
    /// witness for `exists`, and a wrong step of a generated derivation).
    FalseClaim,
    /// A claim or directive that does not parse.
    SyntaxError,
    /// A name that no `let` or quantifier binds.
    UnknownName,
    /// A function or directive that does not exist.
    UnknownFunction,
    /// An expression that cannot be evaluated: a value of the wrong kind, a wrong number of
    /// arguments, a division by zero, a value outside a function's domain.
    EvaluationError,
    /// A bound was hit (`max-bits`, `max-cases`, `max-seconds`, `max-positions`, `max-table`,
    /// the size or depth of an expression): the claim was not decided. Also a source file longer
    /// than `max-lesson-bytes`.
    BudgetExceeded,
    /// A quantified claim with too many (or infinitely many) cases to check, which no proof
    /// method covers (or an `exists` without bounds): the claim was not decided.
    CannotProve,
    /// A `nimbook` directive whose arguments it cannot draw or compute.
    InvalidDirective,
    /// `$…$` or `$$…$$` that does not parse as LaTeX.
    LatexError,
    /// A link to a page, file or heading that the book does not have.
    BrokenLink,
    /// A source file that is not UTF-8.
    NotUtf8,
    /// A `SUMMARY.md` entry that is malformed or names a missing file.
    MalformedSummary,
    /// A `book.toml` that cannot be read or is invalid.
    InvalidConfig,
    /// A template that does not parse or fails to render.
    TemplateError,
    /// A file or folder that cannot be read, written, listed or watched; a port that cannot be
    /// opened.
    IoError,
    /// An output folder that nimbook will not replace (it holds the sources, or nimbook did not
    /// make it).
    UnsafeOutput,
    /// A handout names a chapter the book does not have.
    UnknownChapter,
    /// A handout or the printed book leaves out a resource it cannot inline or print: an image
    /// that is missing, not a file of the book, or not an image (a warning).
    MissingResource,
    /// A `let` binds a name that is already bound (a warning).
    RedefinedName,
    /// A key of mdBook's `book.toml`, or a `theme/*.hbs` file, that nimbook accepts and does not
    /// use (a warning that says why).
    IgnoredSetting,
    /// An `{{#include}}` (or `rustdoc_include`, `playground`) of a missing file or anchor, or
    /// nested deeper than mdBook's limit.
    IncludeError,
    /// An external preprocessor that fails, runs past its time limit, answers with something
    /// other than a book, or cannot be found (a warning when it is optional).
    PreprocessorError,
    /// A `nim` block in a book that is not a nimbook book, whose text reads as claims: shown as
    /// Nim code and not checked (a warning).
    UncheckedClaims,
    /// A numeral in a lesson that no claim produces or checks, and no exemption marks (the lint
    /// `unverified-numbers`).
    UnverifiedNumber,
    /// A claim or span that computes nothing: a bare literal, or two identical sides (the lint
    /// `vacuous-claims`).
    VacuousClaim,
    /// A worked answer that names some of a choice's correct options, in its claims, but not
    /// all of them.
    IncompleteAnswer,
    /// An example marked to fail with a code (```` ```nim fails=false-claim ````) that holds, or
    /// fails with another code.
    ExampleMismatch,
    /// A renderer of `[output.NAME]` (a command, or mdBook's `markdown`) that fails, runs past
    /// `renderer-seconds` or cannot be found (a warning when it is `optional`).
    RendererError,
    /// The cache of decided results (`.nimbook/cache/`) could not be read or written; it is
    /// ignored, and the build goes on without it.
    CacheUnusable,
    /// A named result's heading that is malformed: an unknown kind, a `uses` without a kind,
    /// or a name that two results take.
    InvalidResult,
    /// A `uses` name that no result of the book has.
    UnknownResult,
    /// Results whose `uses` lead back to themselves.
    ResultCycle,
    /// The printed book sets something differently to fit the page: a table wider than the
    /// page set smaller, a code line wider than the page broken (a warning).
    PrintLayout,
    /// Typst could not typeset the printed book (`nimbook pdf`); nothing is written.
    TypesetError,
}

impl Code {
    /// Every code, in the order the guide lists them: claims first, then the book, then the
    /// warnings and lints.
    pub const ALL: &'static [Code] = &[
        Code::FalseClaim,
        Code::SyntaxError,
        Code::UnknownName,
        Code::UnknownFunction,
        Code::EvaluationError,
        Code::BudgetExceeded,
        Code::CannotProve,
        Code::InvalidDirective,
        Code::LatexError,
        Code::BrokenLink,
        Code::NotUtf8,
        Code::MalformedSummary,
        Code::InvalidConfig,
        Code::TemplateError,
        Code::IoError,
        Code::UnsafeOutput,
        Code::UnknownChapter,
        Code::MissingResource,
        Code::RedefinedName,
        Code::IgnoredSetting,
        Code::IncludeError,
        Code::PreprocessorError,
        Code::UncheckedClaims,
        Code::UnverifiedNumber,
        Code::VacuousClaim,
        Code::IncompleteAnswer,
        Code::ExampleMismatch,
        Code::RendererError,
        Code::CacheUnusable,
        Code::InvalidResult,
        Code::UnknownResult,
        Code::ResultCycle,
        Code::PrintLayout,
        Code::TypesetError,
    ];

    /// The stable kebab-case name, as printed in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::FalseClaim => "false-claim",
            Code::SyntaxError => "syntax-error",
            Code::UnknownName => "unknown-name",
            Code::UnknownFunction => "unknown-function",
            Code::EvaluationError => "evaluation-error",
            Code::BudgetExceeded => "budget-exceeded",
            Code::CannotProve => "cannot-prove",
            Code::InvalidDirective => "invalid-directive",
            Code::LatexError => "latex-error",
            Code::BrokenLink => "broken-link",
            Code::NotUtf8 => "not-utf8",
            Code::MalformedSummary => "malformed-summary",
            Code::InvalidConfig => "invalid-config",
            Code::TemplateError => "template-error",
            Code::IoError => "io-error",
            Code::UnsafeOutput => "unsafe-output",
            Code::UnknownChapter => "unknown-chapter",
            Code::MissingResource => "missing-resource",
            Code::RedefinedName => "redefined-name",
            Code::IgnoredSetting => "ignored-setting",
            Code::IncludeError => "include-error",
            Code::PreprocessorError => "preprocessor-error",
            Code::UncheckedClaims => "unchecked-claims",
            Code::UnverifiedNumber => "unverified-number",
            Code::VacuousClaim => "vacuous-claim",
            Code::IncompleteAnswer => "incomplete-answer",
            Code::ExampleMismatch => "example-mismatch",
            Code::RendererError => "renderer-error",
            Code::CacheUnusable => "cache-unusable",
            Code::InvalidResult => "invalid-result",
            Code::UnknownResult => "unknown-result",
            Code::ResultCycle => "result-cycle",
            Code::PrintLayout => "print-layout",
            Code::TypesetError => "typeset-error",
        }
    }

    /// What the code means, in one line (`nimbook explain --list` and the guide's table).
    pub fn summary(self) -> &'static str {
        match self {
            Code::FalseClaim => "a claim was decided and does not hold",
            Code::SyntaxError => "a claim or directive does not parse",
            Code::UnknownName => "a name that no `let` or quantifier binds",
            Code::UnknownFunction => "a function or directive that does not exist",
            Code::EvaluationError => "an expression that cannot be evaluated: a value of the wrong kind, a wrong number of arguments, a value outside a function's domain",
            Code::BudgetExceeded => "a bound of the budget was hit, so the claim was not decided",
            Code::CannotProve => "a claim with too many cases that no proof method covers",
            Code::InvalidDirective => "a directive whose arguments it cannot draw or compute",
            Code::LatexError => "a formula between dollar signs that does not parse as LaTeX",
            Code::BrokenLink => "a link to a page, file or heading the book does not have",
            Code::NotUtf8 => "a source file that is not UTF-8",
            Code::MalformedSummary => "a SUMMARY.md entry that is malformed or names a missing file",
            Code::InvalidConfig => "a book.toml that cannot be read or is invalid",
            Code::TemplateError => "a template that does not parse or fails to render",
            Code::IoError => "a file or folder that cannot be read, written, listed or watched",
            Code::UnsafeOutput => "an output folder nimbook will not replace",
            Code::UnknownChapter => "a handout names a chapter the book does not have",
            Code::MissingResource => "a handout leaves out a resource it cannot inline",
            Code::RedefinedName => "a `let` binds a name that is already bound",
            Code::IgnoredSetting => "an mdBook setting that nimbook accepts and does not use",
            Code::IncludeError => "an include that cannot be read, or a file outside the book",
            Code::PreprocessorError => "an external preprocessor that fails, times out or cannot be found",
            Code::UncheckedClaims => "a `nim` block that reads as claims in a book that does not check them",
            Code::UnverifiedNumber => "a number in a lesson that nothing computes or checks",
            Code::VacuousClaim => "a claim or span that computes nothing",
            Code::IncompleteAnswer => "a worked answer that names some of a choice's correct options but not all",
            Code::ExampleMismatch => "an example marked to fail with a code that holds, or fails with another code",
            Code::RendererError => "a renderer of `[output.NAME]` that fails, times out or cannot be found",
            Code::CacheUnusable => "the cache of decided results cannot be read or written; it is ignored",
            Code::InvalidResult => "a named result's heading with an unknown kind, a `uses` but no kind, or a name two results take",
            Code::UnknownResult => "a `uses` name that no result of the book has",
            Code::ResultCycle => "named results whose `uses` lead back to themselves",
            Code::PrintLayout => "the printed book sets something differently to fit the page",
            Code::TypesetError => "the printed book could not be typeset; nothing is written",
        }
    }

    /// The long explanation of the code, as markdown: what it means, a failing example, how to
    /// fix it. `nimbook explain CODE` prints it; the guide's page for the code is this text.
    pub fn explanation(self) -> &'static str {
        super::explain::text(self)
    }
}

/// A name that is not a diagnostic code, with the code it was probably meant to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCode {
    /// The name as given.
    pub name: String,
    /// The code with the nearest name, when one is near enough to be a typo.
    pub suggestion: Option<Code>,
}

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a diagnostic code", self.name)
    }
}

impl std::error::Error for UnknownCode {}

impl FromStr for Code {
    type Err = UnknownCode;

    /// The code of this kebab-case name, as printed in diagnostics and JSON.
    fn from_str(name: &str) -> Result<Code, UnknownCode> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == name)
            .ok_or_else(|| UnknownCode {
                name: name.to_string(),
                suggestion: super::nearest(name, Code::ALL.iter().map(|c| c.as_str()))
                    .and_then(|n| Code::ALL.iter().copied().find(|c| c.as_str() == n)),
            })
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::{Code, UnknownCode};

    #[test]
    fn names_are_distinct_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for c in Code::ALL {
            let name = c.as_str();
            assert!(seen.insert(name), "{name} twice");
            assert!(
                name.chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'),
                "{name}"
            );
        }
    }

    #[test]
    fn every_name_reads_back_and_a_typo_is_suggested() {
        for &c in Code::ALL {
            assert_eq!(c.as_str().parse::<Code>(), Ok(c));
            assert!(
                !c.summary().is_empty() && !c.summary().ends_with('.'),
                "{c}"
            );
        }
        let typo = "flase-claim".parse::<Code>();
        assert_eq!(
            typo,
            Err(UnknownCode {
                name: "flase-claim".into(),
                suggestion: Some(Code::FalseClaim)
            })
        );
        assert_eq!("E0308".parse::<Code>().map_err(|e| e.suggestion), Err(None));
    }
}
