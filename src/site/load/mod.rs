//! The load stage: `book.toml` (typed, with what happens to each mdBook key), the chapter list
//! from `SUMMARY.md` or the source folder, `{{#include}}` and friends, and the source map that
//! carries every byte of a rewritten chapter back to the file the author wrote.

pub(crate) mod book;
pub(crate) mod compat;
pub(crate) mod config;
pub(crate) mod confine;
pub(crate) mod include;
pub(crate) mod keys;
pub(crate) mod layout;
pub(crate) mod lints;
#[cfg(test)]
mod properties;
pub(crate) mod redirects;
pub(crate) mod sourcemap;
pub(crate) mod summary;
pub(crate) mod theme;
pub(crate) mod untrusted;

use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic};
use book::Chapter;
use config::Config;
use lints::{Lint, LintLevel};

pub use crate::diag::Fatal;

/// A lint level set on the command line, which overrides `book.toml`.
pub type LintOverride = (Lint, LintLevel);

/// What every command (`check`, `build`, `serve`, `handout`) is told: the book, the lint levels
/// given on the command line, and where to write.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Options {
    /// The book root, the folder of `book.toml`.
    pub root: PathBuf,
    /// Lint levels that override `book.toml`, in order: a later one wins.
    pub lints: Vec<LintOverride>,
    /// Where to write: the site's folder instead of the configured `build-dir` (`build`,
    /// `serve`), or the file (`handout`, which needs one).
    pub output: Option<PathBuf>,
    /// Whether `book.toml` and the book's templates are obeyed (`--untrusted`).
    pub trust: confine::Trust,
    /// `handout --answers`: also write the teacher's answer key, beside the handout (see
    /// [`crate::site::handout`]).
    pub answer_key: bool,
    /// Whether results decided in earlier builds are recalled from the book's cache
    /// (`.nimbook/cache/`) and new ones saved there. Off unless asked for; the command line
    /// asks unless given `--no-cache`. An untrusted book never uses it.
    pub cache: bool,
    /// `handout --pdf`: write the handout (and its key) as PDF, typeset like `nimbook pdf`.
    pub handout_pdf: bool,
}

impl Options {
    /// The options for the book in `root`: its own lint levels, its own output folder.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Options {
            root: root.into(),
            ..Options::default()
        }
    }

    /// Sets a lint's level over the book's.
    #[must_use]
    pub fn lint(mut self, lint: Lint, level: LintLevel) -> Self {
        self.lints.push((lint, level));
        self
    }

    /// Trusts the book as `trust` says.
    #[must_use]
    pub fn trust(mut self, trust: confine::Trust) -> Self {
        self.trust = trust;
        self
    }

    /// Uses the book's cache of decided results, or not (the field `cache`).
    #[must_use]
    pub fn cache(mut self, on: bool) -> Self {
        self.cache = on;
        self
    }

    /// Writes to `path`.
    #[must_use]
    pub fn output(mut self, path: impl Into<PathBuf>) -> Self {
        self.output = Some(path.into());
        self
    }
}

/// A book as read from its folder, before any preprocessor ran.
pub(crate) struct Loaded {
    /// The book root.
    pub(crate) root: PathBuf,
    /// The parsed `book.toml`.
    pub(crate) config: Config,
    /// The source folder.
    pub(crate) src: PathBuf,
    /// The chapters in reading order.
    pub(crate) chapters: Vec<Chapter>,
    /// Warnings about the configuration (mdBook keys nimbook ignores, what `--untrusted` took
    /// away).
    pub(crate) warnings: Vec<Diagnostic>,
    /// The one way to read a file the book names: inside the book root (or `include-roots`),
    /// regular files only, bounded.
    pub(crate) files: confine::Reader,
}

/// Reads `book.toml` (once) and finds the chapters. A missing or malformed `book.toml` is
/// fatal; a malformed `SUMMARY.md` is a content error in the returned diagnostics. Under
/// [`confine::Trust::Untrusted`], what an untrusted book may not ask for is taken away first
/// ([`untrusted::restrict`]); every file is read through the book's [`confine::Reader`].
pub(crate) fn load(root: &Path, trust: confine::Trust) -> Result<(Loaded, Vec<Diagnostic>), Fatal> {
    let toml_files = confine::Reader::new(root, &[], confine::DEFAULT_MAX_LESSON_BYTES, trust)?;
    let (mut config, text) = Config::read(&toml_files)?;
    let toml_path = root.join("book.toml");
    let shown = confine::display_name(root, &toml_path);
    let mut warnings = compat::warnings(root, &text, &shown);
    if trust == confine::Trust::Untrusted {
        warnings.extend(untrusted::restrict(&mut config, &shown));
        if root.join("templates").is_dir() {
            warnings.push(Diagnostic::warning(
                Code::TemplateError,
                "the book's templates/ folder is not used: --untrusted renders with the built-in templates",
            ));
        }
    }
    let files = config.reader(root, trust)?;
    let (head, theme_warnings) = theme::head(&files, root);
    config.html.head = head;
    warnings.extend(theme_warnings);
    let src = config.src_dir(root);
    // Both faults of the source folder name it the same way.
    let bad_src = |what: &str| {
        Diagnostic::error(
            Code::InvalidConfig,
            format!(
                "the source folder {} {what}",
                confine::display_name(root, &src)
            ),
        )
    };
    if !src.is_dir() {
        return Err(Box::new(
            bad_src("does not exist").help("set `src` in the [book] table of book.toml"),
        ));
    }
    if !files.contains(&src) {
        return Err(Box::new(bad_src("is outside the book").note("every file of the site is copied from the source folder, so it must be inside the book's git work tree (or its root) or a folder of `include-roots`")));
    }
    let (chapters, diags) = match book::chapters(&files, &src) {
        Ok((c, w)) => {
            warnings.extend(w);
            (c, Vec::new())
        }
        Err(d) => (Vec::new(), vec![d]),
    };
    Ok((
        Loaded {
            root: root.to_path_buf(),
            config,
            src,
            chapters,
            warnings,
            files,
        },
        diags,
    ))
}
