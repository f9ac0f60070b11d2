//! `nimbook init`: a new course that checks and builds out of the box.
//!
//! The files come from `templates/init/`, compiled into the binary, so a course started with
//! `nimbook init` is the same wherever nimbook was installed from. The first lesson uses every
//! form once (a `nim` block, a derivation, a `nim:` span, a generated table, a worked expansion,
//! a diagram, a play widget and an exercise) and passes the book's own lints, which are denied:
//! a teacher who deletes it starts from a book that already holds every number to account.
//!
//! Nothing is written into a folder that holds anything unless the caller says so, since the
//! files have common names (`book.toml`, `.gitignore`) that an existing project may use.

use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic};
use crate::site::Fatal;

/// The file a workflow's git URL is spliced into, and the spelling of the hole.
const GIT_HOLE: &str = "{{NIMBOOK_GIT}}";

/// The course's files: where each goes, relative to the new book's root, and its text.
const FILES: [(&str, &str); 5] = [
    ("book.toml", include_str!("../templates/init/book.toml")),
    (
        "content/SUMMARY.md",
        include_str!("../templates/init/SUMMARY.md"),
    ),
    (
        "content/heaps.md",
        include_str!("../templates/init/heaps.md"),
    ),
    (".gitignore", include_str!("../templates/init/gitignore")),
    (
        ".github/workflows/book.yml",
        include_str!("../templates/init/book.yml"),
    ),
];

/// How to start a course.
#[derive(Debug, Default, Clone)]
#[non_exhaustive]
pub struct InitOptions {
    /// Write into a folder that is not empty, replacing files of the same names.
    pub force: bool,
    /// The git repository the workflow installs nimbook from (`cargo install --git`).
    pub git: Option<String>,
}

impl InitOptions {
    /// Options with `force` and the workflow's git URL.
    pub fn new(force: bool, git: Option<String>) -> Self {
        InitOptions { force, git }
    }
}

/// What `init` wrote.
#[derive(Debug)]
#[non_exhaustive]
pub struct Initialized {
    /// Every file written, as paths under the book root.
    pub written: Vec<PathBuf>,
    /// The files among them that existed before and were replaced (only with `force`).
    pub overwritten: Vec<PathBuf>,
    /// Whether the workflow has a git URL to install nimbook from; without one it reads the
    /// repository variable `NIMBOOK_GIT`.
    pub has_git: bool,
}

/// Writes a new course into `dir` (created if missing). A folder that holds anything is refused
/// without `force` (nothing is written), and the error names the files that would be replaced.
pub fn init(dir: &Path, options: &InitOptions) -> Result<Initialized, Fatal> {
    let existing = listing(dir)?;
    let clashes: Vec<PathBuf> = FILES
        .iter()
        .map(|(rel, _)| PathBuf::from(rel))
        .filter(|rel| dir.join(rel).exists())
        .collect();
    if !existing.is_empty() && !options.force {
        return Err(Box::new(refusal(dir, &existing, &clashes)));
    }
    let git = options
        .git
        .clone()
        .or_else(|| Some(env!("CARGO_PKG_REPOSITORY").to_string()))
        .filter(|g| !g.is_empty());
    let mut written = Vec::new();
    for (rel, text) in FILES {
        let path = dir.join(rel);
        let text = if rel.ends_with("book.yml") {
            text.replace(GIT_HOLE, &yaml_quoted(git.as_deref().unwrap_or("")))
        } else {
            text.to_string()
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io_error(&path, &e))?;
        }
        if path.is_dir() {
            return Err(Box::new(Diagnostic::error(
                Code::IoError,
                format!("{} is a folder, not a file", path.display()),
            )));
        }
        std::fs::write(&path, text).map_err(|e| io_error(&path, &e))?;
        written.push(PathBuf::from(rel));
    }
    Ok(Initialized {
        written,
        overwritten: clashes,
        has_git: git.is_some(),
    })
}

/// The entries of `dir`, sorted; none if it does not exist yet.
fn listing(dir: &Path) -> Result<Vec<String>, Fatal> {
    if !dir.exists() {
        return Ok(Vec::new());
    }
    if !dir.is_dir() {
        return Err(Box::new(Diagnostic::error(
            Code::IoError,
            format!("{} is a file, not a folder", dir.display()),
        )));
    }
    let entries = std::fs::read_dir(dir).map_err(|e| io_error(dir, &e))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| io_error(dir, &e))?;
        names.push(entry.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(names)
}

/// The error for a folder that is not empty: what is there, and what would be replaced.
fn refusal(dir: &Path, existing: &[String], clashes: &[PathBuf]) -> Diagnostic {
    let shown: Vec<&str> = existing.iter().take(5).map(String::as_str).collect();
    let more = existing.len().saturating_sub(shown.len());
    let mut d = Diagnostic::error(
        Code::IoError,
        format!("{} is not empty; nothing was written", dir.display()),
    )
    .note(format!(
        "it holds {}{}",
        shown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    ));
    d = if clashes.is_empty() {
        d.note("`--force` would replace none of them")
    } else {
        let names: Vec<String> = clashes.iter().map(|p| p.display().to_string()).collect();
        d.note(format!("`--force` would overwrite {}", names.join(", ")))
    };
    d.help("choose an empty or new folder, or pass `--force`")
}

/// A string as a single-quoted YAML scalar (GitHub expressions quote the same way).
fn yaml_quoted(s: &str) -> String {
    s.replace('\'', "''")
}

/// A file that could not be written, for `init` and `mdbook install` alike.
pub(crate) fn io_error(path: &Path, e: &std::io::Error) -> Fatal {
    Box::new(Diagnostic::error(
        Code::IoError,
        format!("cannot write {}: {e}", path.display()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_written_under_the_root() {
        for (rel, text) in FILES {
            assert!(Path::new(rel).is_relative(), "{rel}");
            assert!(!text.is_empty(), "{rel}");
        }
        let workflow = FILES[4].1;
        assert_eq!(workflow.matches(GIT_HOLE).count(), 1);
    }

    #[test]
    fn a_quote_in_the_git_url_stays_inside_the_yaml_string() {
        assert_eq!(yaml_quoted("https://x/it's"), "https://x/it''s");
    }
}
