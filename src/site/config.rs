//! `book.toml`, read into typed tables that reject unknown keys.
//!
//! The `[book]` and `[build]` tables take mdBook's keys, so an mdBook book builds unchanged;
//! `[nimbook]` holds the budgets of the checker. mdBook's `[output.*]` and `[preprocessor.*]`
//! tables are accepted and ignored, since they configure mdBook's own back ends.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use super::coverage::{LintLevel, Lints};
use crate::claim::Limits;
use crate::diag::{Code, Diagnostic, SourceFile};

/// The whole of `book.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// `[book]`
    #[serde(default)]
    pub book: BookTable,
    /// `[build]`
    #[serde(default)]
    pub build: BuildTable,
    /// `[nimbook]`
    #[serde(default)]
    pub nimbook: NimbookTable,
    /// mdBook's renderer settings: accepted, not used.
    #[serde(default)]
    pub output: Option<toml::Table>,
    /// mdBook's preprocessor settings: accepted, not used.
    #[serde(default)]
    pub preprocessor: Option<toml::Table>,
    /// mdBook's `[rust]` table: accepted, not used.
    #[serde(default)]
    pub rust: Option<toml::Table>,
}

/// `[book]`: mdBook's keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookTable {
    /// The book's title.
    #[serde(default)]
    pub title: Option<String>,
    /// The authors.
    #[serde(default)]
    pub authors: Vec<String>,
    /// A one-line description, used in the page metadata.
    #[serde(default)]
    pub description: Option<String>,
    /// The language code of the text, for `<html lang=…>`.
    #[serde(default = "default_language")]
    pub language: String,
    /// The folder of the lessons, relative to the book root.
    #[serde(default = "default_src")]
    pub src: PathBuf,
    /// mdBook's old `multilingual` flag: accepted, not used.
    #[serde(default)]
    pub multilingual: Option<bool>,
    /// The direction of the text, written as `<html dir=…>`.
    #[serde(default, rename = "text-direction")]
    pub text_direction: TextDirection,
}

/// mdBook's `text-direction`: which way the book's script runs.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TextDirection {
    /// Left to right.
    #[default]
    Ltr,
    /// Right to left.
    Rtl,
}

impl Default for BookTable {
    fn default() -> Self {
        BookTable {
            title: None,
            authors: Vec::new(),
            description: None,
            language: default_language(),
            src: default_src(),
            multilingual: None,
            text_direction: TextDirection::default(),
        }
    }
}

fn default_language() -> String {
    "en".into()
}
fn default_src() -> PathBuf {
    PathBuf::from("content")
}
fn default_build_dir() -> PathBuf {
    PathBuf::from("book")
}

/// `[build]`: mdBook's keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BuildTable {
    /// The output folder, relative to the book root.
    #[serde(default = "default_build_dir")]
    pub build_dir: PathBuf,
    /// mdBook creates missing chapter files; nimbook reports them instead. Accepted.
    #[serde(default)]
    pub create_missing: Option<bool>,
    /// mdBook's preprocessor switch: accepted, not used.
    #[serde(default)]
    pub use_default_preprocessors: Option<bool>,
    /// Extra folders, relative to the book root, whose changes make `serve` rebuild.
    #[serde(default)]
    pub extra_watch_dirs: Vec<PathBuf>,
}

impl Default for BuildTable {
    fn default() -> Self {
        BuildTable {
            build_dir: default_build_dir(),
            create_missing: None,
            use_default_preprocessors: None,
            extra_watch_dirs: Vec::new(),
        }
    }
}

/// `[nimbook]`: the checker's budgets.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct NimbookTable {
    /// The largest number, in bits, that a claim may write or compute.
    pub max_bits: Option<u64>,
    /// The most cases one quantified claim may check.
    pub max_cases: Option<u64>,
    /// The largest side of a generated table.
    pub max_table: Option<u64>,
    /// The most terms of a polynomial expanded to prove an identity.
    pub max_terms: Option<usize>,
    /// The most positions one game search may examine.
    pub max_positions: Option<u64>,
    /// The most seconds one game search may take.
    pub max_seconds: Option<u64>,
    /// The longest source file (a lesson or `SUMMARY.md`), in bytes.
    pub max_lesson_bytes: Option<u64>,
    /// The level of the `unverified-numbers` lint: `"allow"`, `"warn"` (the default) or
    /// `"deny"`.
    pub unverified_numbers: Option<LintLevel>,
    /// The level of the `vacuous-claims` lint.
    pub vacuous_claims: Option<LintLevel>,
}

impl Config {
    /// Reads and checks `book.toml` in `root`. Errors carry the file position.
    pub fn load(root: &Path) -> Result<Config, Box<Diagnostic>> {
        let path = root.join("book.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Box::new(
                Diagnostic::error(
                    Code::InvalidConfig,
                    format!("cannot read {}: {e}", path.display()),
                )
                .help("a book root holds a book.toml; run `nimbook` in it or name it"),
            )
        })?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Parses the text of a `book.toml` shown as `name` in errors.
    pub fn parse(text: &str, name: &str) -> Result<Config, Box<Diagnostic>> {
        toml::from_str::<Config>(text).map_err(|e| {
            let file = SourceFile::new(name, text);
            let message = e.message().to_string();
            let d = Diagnostic::error(Code::InvalidConfig, format!("invalid book.toml: {message}"));
            Box::new(match e.span() {
                Some(span) => d.at(&Arc::clone(&file), span),
                None => d,
            })
        })
    }

    /// The longest source file read, from `max-lesson-bytes` or its default.
    pub fn max_lesson_bytes(&self) -> u64 {
        self.nimbook
            .max_lesson_bytes
            .unwrap_or(super::book::DEFAULT_MAX_LESSON_BYTES)
    }

    /// The lint levels of `[nimbook]`; a lint not named is `"warn"`.
    pub fn lints(&self) -> Lints {
        Lints {
            unverified_numbers: self.nimbook.unverified_numbers.unwrap_or_default(),
            vacuous_claims: self.nimbook.vacuous_claims.unwrap_or_default(),
        }
    }

    /// The checker's limits, from the defaults and `[nimbook]`.
    pub fn limits(&self) -> Limits {
        let mut l = Limits::default();
        if let Some(b) = self.nimbook.max_bits {
            l.max_bits = b;
        }
        if let Some(c) = self.nimbook.max_cases {
            l.max_cases = c;
        }
        if let Some(t) = self.nimbook.max_table {
            l.max_table = t;
        }
        if let Some(t) = self.nimbook.max_terms {
            l.max_terms = t;
        }
        if let Some(p) = self.nimbook.max_positions {
            l.game.max_positions = p;
        }
        if let Some(s) = self.nimbook.max_seconds {
            l.game.max_time = std::time::Duration::from_secs(s);
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_is_an_error_with_its_line() {
        let err = Config::parse("[book]\ntitle = \"x\"\ncolour = 3\n", "book.toml")
            .err()
            .map(|d| d.render(crate::diag::MessageFormat::Human, false))
            .unwrap_or_default();
        assert!(err.contains("unknown field `colour`"), "{err}");
        assert!(err.contains("book.toml:3:1"), "{err}");
    }

    #[test]
    fn lint_levels_default_to_warn_and_reject_unknown_levels() {
        let c = Config::parse("[nimbook]\nvacuous-claims = \"deny\"\n", "book.toml");
        let lints = c.map(|c| c.lints()).map_err(|d| d.message.clone());
        assert_eq!(
            lints,
            Ok(Lints {
                unverified_numbers: LintLevel::Warn,
                vacuous_claims: LintLevel::Deny
            })
        );
        let err = Config::parse("[nimbook]\nunverified-numbers = \"forbid\"\n", "book.toml")
            .err()
            .map(|d| d.render(crate::diag::MessageFormat::Human, false))
            .unwrap_or_default();
        assert!(
            err.contains("unknown variant `forbid`") && err.contains("book.toml:2"),
            "{err}"
        );
    }

    #[test]
    fn mdbook_keys_are_accepted() {
        let c = Config::parse(
            "[book]\ntitle = \"t\"\nauthors = [\"a\"]\nlanguage = \"en\"\nsrc = \"src\"\n[build]\nbuild-dir = \"out\"\n[output.html]\nmathjax-support = true\n",
            "book.toml",
        );
        let c = c.map_err(|d| d.message.clone());
        assert_eq!(
            c.as_ref().map(|c| c.build.build_dir.clone()),
            Ok(PathBuf::from("out"))
        );
        assert_eq!(c.map(|c| c.book.src), Ok(PathBuf::from("src")));
    }

    #[test]
    fn text_direction_is_ltr_or_rtl_and_a_typo_is_located() {
        let rtl = Config::parse("[book]\ntext-direction = \"rtl\"\n", "book.toml")
            .map(|c| c.book.text_direction);
        assert!(matches!(rtl, Ok(TextDirection::Rtl)));
        let default = Config::parse("[book]\n", "book.toml").map(|c| c.book.text_direction);
        assert!(matches!(default, Ok(TextDirection::Ltr)));
        let err = Config::parse("[book]\ntext-direction = \"up\"\n", "book.toml")
            .err()
            .map(|d| d.render(crate::diag::MessageFormat::Human, false))
            .unwrap_or_default();
        assert!(err.contains("book.toml:2:18"), "{err}");
        assert!(err.contains("ltr") && err.contains("rtl"), "{err}");
    }
}
