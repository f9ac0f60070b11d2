//! The long explanation of every diagnostic code, one markdown file each in `explain/`,
//! compiled in. `nimbook explain CODE` prints one; the guide's page for the code includes the
//! same file, and the guide's build runs its failing examples, so an explanation whose example
//! stops failing breaks the guide.

use super::Code;

/// The explanation of `code`, as markdown.
pub(super) fn text(code: Code) -> &'static str {
    match code {
        Code::FalseClaim => include_str!("explain/false-claim.md"),
        Code::SyntaxError => include_str!("explain/syntax-error.md"),
        Code::UnknownName => include_str!("explain/unknown-name.md"),
        Code::UnknownFunction => include_str!("explain/unknown-function.md"),
        Code::EvaluationError => include_str!("explain/evaluation-error.md"),
        Code::BudgetExceeded => include_str!("explain/budget-exceeded.md"),
        Code::CannotProve => include_str!("explain/cannot-prove.md"),
        Code::InvalidDirective => include_str!("explain/invalid-directive.md"),
        Code::LatexError => include_str!("explain/latex-error.md"),
        Code::BrokenLink => include_str!("explain/broken-link.md"),
        Code::NotUtf8 => include_str!("explain/not-utf8.md"),
        Code::MalformedSummary => include_str!("explain/malformed-summary.md"),
        Code::InvalidConfig => include_str!("explain/invalid-config.md"),
        Code::TemplateError => include_str!("explain/template-error.md"),
        Code::IoError => include_str!("explain/io-error.md"),
        Code::UnsafeOutput => include_str!("explain/unsafe-output.md"),
        Code::UnknownChapter => include_str!("explain/unknown-chapter.md"),
        Code::MissingResource => include_str!("explain/missing-resource.md"),
        Code::RedefinedName => include_str!("explain/redefined-name.md"),
        Code::IgnoredSetting => include_str!("explain/ignored-setting.md"),
        Code::IncludeError => include_str!("explain/include-error.md"),
        Code::PreprocessorError => include_str!("explain/preprocessor-error.md"),
        Code::UncheckedClaims => include_str!("explain/unchecked-claims.md"),
        Code::UnverifiedNumber => include_str!("explain/unverified-number.md"),
        Code::VacuousClaim => include_str!("explain/vacuous-claim.md"),
        Code::IncompleteAnswer => include_str!("explain/incomplete-answer.md"),
        Code::ExampleMismatch => include_str!("explain/example-mismatch.md"),
        Code::RendererError => include_str!("explain/renderer-error.md"),
        Code::CacheUnusable => include_str!("explain/cache-unusable.md"),
        Code::InvalidResult => include_str!("explain/invalid-result.md"),
        Code::UnknownResult => include_str!("explain/unknown-result.md"),
        Code::ResultCycle => include_str!("explain/result-cycle.md"),
        Code::PrintLayout => include_str!("explain/print-layout.md"),
        Code::TypesetError => include_str!("explain/typeset-error.md"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each explanation is a page of its own: it opens with its code as the title, says what
    /// the code means, and shows an example and a fix under headings of their own.
    #[test]
    fn every_explanation_has_its_title_an_example_and_a_fix() {
        for &code in Code::ALL {
            let text = text(code);
            let title = format!("# `{code}`");
            assert_eq!(text.lines().next(), Some(title.as_str()), "{code}");
            assert!(text.contains("\n## Example\n"), "{code}: no example");
            assert!(text.contains("\n## How to fix it\n"), "{code}: no fix");
        }
    }
}
