//! The load stage: `book.toml` (typed, with what happens to each mdBook key), the chapter list
//! from `SUMMARY.md` or the source folder, `{{#include}}` and friends, and the source map that
//! carries every byte of a rewritten chapter back to the file the author wrote.

pub(crate) mod book;
pub(crate) mod compat;
pub(crate) mod config;
pub(crate) mod include;
pub(crate) mod lints;
pub(crate) mod redirects;
pub(crate) mod sourcemap;

use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic};
use book::Chapter;
use config::Config;
use lints::{Lint, LintLevel};

/// A failure that stops the run before content is judged: configuration, usage or I/O
/// (exit code 2).
pub type Fatal = Box<Diagnostic>;

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
    /// Warnings about the configuration (mdBook keys nimbook ignores).
    pub(crate) warnings: Vec<Diagnostic>,
}

/// Reads `book.toml` (once) and finds the chapters. A missing or malformed `book.toml` is
/// fatal; a malformed `SUMMARY.md` is a content error in the returned diagnostics.
pub(crate) fn load(root: &Path) -> Result<(Loaded, Vec<Diagnostic>), Fatal> {
    let (config, text) = Config::read(root)?;
    let toml_path = root.join("book.toml");
    let warnings = compat::warnings(root, &text, &book::display_name(root, &toml_path));
    let src = config.src_dir(root);
    if !src.is_dir() {
        return Err(Box::new(
            Diagnostic::error(
                Code::InvalidConfig,
                format!(
                    "the source folder {} does not exist",
                    book::display_name(root, &src)
                ),
            )
            .help("set `src` in the [book] table of book.toml"),
        ));
    }
    let (chapters, diags) = match book::chapters(root, &src, config.max_lesson_bytes()) {
        Ok(c) => (c, Vec::new()),
        Err(d) => (Vec::new(), vec![d]),
    };
    Ok((
        Loaded {
            root: root.to_path_buf(),
            config,
            src,
            chapters,
            warnings,
        },
        diags,
    ))
}
