//! The stable names of diagnostic kinds.
//!
//! Every [`Diagnostic`](super::Diagnostic) carries a [`Code`]: a kebab-case name that tools can
//! match on (the JSON output's `"code"` field) and that the lint options (`--deny
//! unverified-numbers`) and the README refer to. A name, once published, keeps its meaning;
//! new kinds get new names. The README's table of codes is checked against [`Code::ALL`] by a
//! test, so the two cannot drift apart.

use std::fmt;

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
    /// The printed book sets something differently to fit the page: a table wider than the
    /// page set smaller, a code line wider than the page broken (a warning).
    PrintLayout,
    /// Typst could not typeset the printed book (`nimbook pdf`); nothing is written.
    TypesetError,
}

impl Code {
    /// Every code, in the order of the README's table.
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
            Code::PrintLayout => "print-layout",
            Code::TypesetError => "typeset-error",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Code;

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

    /// The README documents every code, in a table row that starts with the name.
    #[test]
    fn the_readme_lists_every_code() {
        let readme = include_str!("../../README.md");
        for c in Code::ALL {
            assert!(
                readme.contains(&format!("| `{}` |", c.as_str())),
                "README.md has no row for `{c}`"
            );
        }
    }
}
