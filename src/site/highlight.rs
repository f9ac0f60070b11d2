//! Build-time syntax highlighting of ordinary fenced code with syntect.
//!
//! Code is marked up with CSS classes rather than inline colours, so that the light and dark
//! themes each bring their own palette (`highlight.css`, generated from two syntect themes).

use std::sync::OnceLock;

use syntect::highlighting::ThemeSet;
use syntect::html::{css_for_theme_with_class_style, ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::{SyntaxDefinition, SyntaxSet};
use syntect::util::LinesWithEndings;

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// Grammars syntect does not bundle: Nim, for books about the Nim language (in a non-nimbook
/// book a `nim` fence is Nim code). A set of their own, because rebuilding the default set to
/// add one grammar costs more than highlighting a large book.
fn extra_syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut builder = syntect::parsing::SyntaxSetBuilder::new();
        builder.add_plain_text_syntax();
        for grammar in EXTRA_GRAMMARS {
            if let Ok(def) = SyntaxDefinition::load_from_str(grammar, true, None) {
                builder.add(def);
            }
        }
        builder.build()
    })
}

/// Grammars added to syntect's defaults.
const EXTRA_GRAMMARS: &[&str] = &[include_str!("../../templates/syntaxes/nim.sublime-syntax")];

const STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

/// Highlights `code` written in `lang` (a fence's first word). Unknown languages are escaped
/// and shown plain.
pub fn highlight(code: &str, lang: &str) -> String {
    let (set, syntax) = match syntaxes().find_syntax_by_token(lang) {
        Some(found) => (syntaxes(), found),
        None => match extra_syntaxes().find_syntax_by_token(lang) {
            Some(found) => (extra_syntaxes(), found),
            None => (syntaxes(), syntaxes().find_syntax_plain_text()),
        },
    };
    let mut gen = ClassedHTMLGenerator::new_with_class_style(syntax, set, STYLE);
    for line in LinesWithEndings::from(code) {
        if gen
            .parse_html_for_line_which_includes_newline(line)
            .is_err()
        {
            return super::html::escape(code);
        }
    }
    gen.finalize()
}

/// The stylesheet for the highlighting classes: a light palette, and a dark one under
/// `prefers-color-scheme: dark`.
pub fn stylesheet() -> String {
    let themes = ThemeSet::load_defaults();
    let css = |name: &str| {
        themes
            .themes
            .get(name)
            .and_then(|t| css_for_theme_with_class_style(t, STYLE).ok())
            .unwrap_or_default()
    };
    let light = css("InspiredGitHub");
    let dark = css("base16-ocean.dark");
    format!("{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn nim_code_is_highlighted_as_nim() {
        let html = super::highlight(
            "proc hello(name: string) =\n  echo \"hi\"  # greet\n",
            "nim",
        );
        assert!(
            html.contains("hl-storage hl-type hl-function hl-nim"),
            "{html}"
        );
        assert!(html.contains("hl-string"), "{html}");
        assert!(html.contains("hl-comment"), "{html}");
    }
}
