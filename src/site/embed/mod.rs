//! One chapter of a book that another tool builds: mdBook, running `nimbook mdbook` as a
//! preprocessor. The chapter goes through the lesson stage ([`super::lesson::render`], with
//! [`LessonSettings`] whose flavour is mdBook's markdown plus nimbook's claim forms), and the
//! caller gets what
//! each claim, directive and `nim:` span became ([`Fragment`]), so that it can put them into
//! the chapter's markdown and leave everything else to that tool.
//!
//! The text mdBook hands over has its `{{#include}}`s expanded already. To point a diagnostic at
//! the file the author wrote, the chapter's own file is read again and expanded by
//! [`super::load::include`]; the result is compared with mdBook's text line by line (identical text
//! maps byte for byte), exactly as an external preprocessor's answer is in a nimbook build.

use std::path::Path;
use std::sync::Arc;

pub(crate) mod splice;

use super::lesson::markdown::{Flavour, Fragment};
use super::lesson::{LessonSettings, Rendered};
use super::load::config::{Config, NimbookTable};
use super::load::confine::DEFAULT_MAX_LESSON_BYTES;
use super::load::confine::{Reader, Trust};
use super::load::sourcemap::SourceMap;
use super::Fatal;
use super::LintLevel;
use crate::diag::{Code, Diagnostic, Level, SourceFile};

/// A book's settings for its embedded chapters.
pub(crate) struct Settings {
    config: Config,
    lesson: LessonSettings,
    root: std::path::PathBuf,
    /// Every file read for a chapter goes through the book's confined reader.
    files: Reader,
}

impl Settings {
    /// The settings of the book at `root`: `book.toml`'s mdBook keys, with the keys of
    /// `[preprocessor.nimbook]` that are nimbook's (the same as those of `[nimbook]`) as the
    /// budgets and lint levels.
    pub(crate) fn load(root: &Path) -> Result<Settings, Fatal> {
        let trust = Trust::from_flag_or_env(false);
        let toml_files = Reader::new(root, &[], DEFAULT_MAX_LESSON_BYTES, trust)?;
        let (mut config, _) = Config::read(&toml_files)?;
        if trust == Trust::Untrusted {
            // The warnings are mdBook's to give: it ran the commands itself.
            let _ = super::load::untrusted::restrict(&mut config, "book.toml");
        }
        // The table is `[preprocessor.nimbook]`, or any other whose command runs nimbook.
        let table = config.preprocessor.get("nimbook").or_else(|| {
            config.preprocessor.values().find(|t| {
                t.command
                    .as_deref()
                    .is_some_and(|c| c.contains("nimbook mdbook"))
            })
        });
        let extra = table.map(|t| t.extra.clone()).unwrap_or_default();
        let nimbook: NimbookTable = toml::Value::Table(extra).try_into().map_err(|e| {
            Box::new(
                Diagnostic::error(
                    Code::InvalidConfig,
                    format!("invalid [preprocessor.nimbook] in book.toml: {e}"),
                )
                .help("it takes the keys of nimbook's own [nimbook] table (README: Configuration)"),
            )
        })?;
        // As in nimbook's own build of an mdBook book, the number lints are off unless the
        // table names them: an existing textbook is not expected to account for its numbers.
        let lints = super::Lints {
            unverified_numbers: nimbook.unverified_numbers.unwrap_or(LintLevel::Allow),
            vacuous_claims: nimbook.vacuous_claims.unwrap_or(LintLevel::Allow),
            // mdBook resolves the links of its book; the lesson stage is given no pages.
            broken_links: nimbook.broken_links.unwrap_or(LintLevel::Allow),
        };
        let include_roots = match trust {
            Trust::Untrusted => Vec::new(),
            _ => nimbook.include_roots.clone(),
        };
        let files = Reader::new(root, &include_roots, config.max_lesson_bytes(), trust)?;
        config.nimbook = Some(nimbook);
        let mut flavour = Flavour::of(&config);
        // The chapter stays mdBook's markdown: only the claim forms are nimbook's. `$` is a
        // dollar sign, and LaTeX in MathJax's delimiters is MathJax's to draw.
        flavour.claims = true;
        flavour.dollar_math = false;
        flavour.mdbook_ids = true;
        flavour.fragments = true;
        let lesson = LessonSettings::with_flavour(flavour, lints, &config);
        Ok(Settings {
            config,
            lesson,
            root: root.to_path_buf(),
            files,
        })
    }
}

/// A chapter after checking.
pub(crate) struct Embedded {
    /// What each claim block, directive block and `nim:` span became, in document order.
    pub(crate) fragments: Vec<Fragment>,
    /// Every diagnostic, located in the files the author wrote.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Claims checked.
    pub(crate) claims: usize,
    /// Errors among the diagnostics.
    pub(crate) errors: usize,
}

/// Checks one chapter: `content` as mdBook hands it over, from the file `source_path` of the
/// source folder (none for a chapter a preprocessor made up), shown as the page `page`.
pub(crate) fn chapter(
    settings: &Settings,
    source_path: Option<&Path>,
    name: &str,
    content: &str,
    page: &str,
) -> Embedded {
    let (file, map) = mapped(settings, source_path, name, content);
    let Rendered {
        page: rendered,
        diagnostics,
        claims,
    } = super::lesson::render(Arc::clone(&file), page, &settings.lesson);
    let diagnostics: Vec<Diagnostic> = diagnostics
        .into_iter()
        // The book's LaTeX is MathJax's to draw (or mdBook's to leave alone): that nimbook's
        // renderer cannot read a formula is not the author's error here.
        .filter(|d| d.code != Code::LatexError)
        .map(|d| map.relocate(&file, d))
        .collect();
    Embedded {
        fragments: rendered.fragments,
        errors: diagnostics
            .iter()
            .filter(|d| d.level == Level::Error)
            .count(),
        diagnostics,
        claims,
    }
}

/// The chapter's text as a file, and where each byte of it came from.
fn mapped(
    settings: &Settings,
    source_path: Option<&Path>,
    name: &str,
    content: &str,
) -> (Arc<SourceFile>, SourceMap) {
    let root = &settings.root;
    let src = settings.config.src_dir(root);
    // The text as its source file holds it (one kind of line ending), so that the lesson
    // stage's ranges are ranges of it.
    let content = &*crate::diag::text::normalize(content);
    let original = source_path.map(|p| src.join(p)).and_then(|path| {
        settings
            .files
            .source(&path, Code::IoError)
            .ok()
            .map(|f| (path, f))
    });
    let Some((path, original)) = original else {
        // A chapter with no file of its own: its diagnostics name the chapter.
        let file = SourceFile::new(format!("<chapter {name}>"), content);
        let map = SourceMap::identity(&file);
        return (file, map);
    };
    let file = SourceFile::new(original.name.clone(), content);
    let identity = SourceMap::identity(&original);
    let dir = path.parent().map_or_else(|| src.clone(), Path::to_path_buf);
    let expanded = super::load::include::expand(&settings.files, &original.text, &identity, &dir);
    let map = if expanded.text == content {
        expanded.map
    } else {
        super::preprocess::remap(&expanded.text, &expanded.map, content)
    };
    (file, map)
}
