//! The book: its chapters in reading order, loaded from the source folder.
//!
//! With a `SUMMARY.md` (mdBook's format, read by [`super::summary`]), the summary fixes the
//! order and the nesting. Without one, every `.md` file under the source folder is a chapter,
//! in the order of their paths, and folders nest. Every file is read as UTF-8; a file that is not is a diagnostic naming it.

use std::path::{Component, Path, PathBuf};

use walkdir::WalkDir;

use super::confine::{Reader, Refusal};
use crate::diag::{Code, Diagnostic};

/// One lesson of the book.
#[derive(Debug, Clone)]
pub(crate) struct Chapter {
    /// The title shown in navigation.
    pub title: String,
    /// The source path relative to the source folder (`None` for a draft with no file).
    pub path: Option<PathBuf>,
    /// Nesting depth, 0 for top-level chapters.
    pub depth: usize,
    /// The section number such as `2.1.`, for numbered chapters.
    pub number: Option<String>,
    /// A part title that precedes this chapter in the sidebar.
    pub part: Option<String>,
    /// Whether a separator (`---` in `SUMMARY.md`) precedes this chapter in the sidebar.
    pub separator: bool,
    /// The page title set by `{{#title …}}`, for the browser tab; the chapter title otherwise.
    pub page_title: Option<String>,
}

impl Chapter {
    /// A lesson that is not in the book's contents (an editor may open any file of the book).
    pub(crate) fn loose(path: PathBuf) -> Self {
        Chapter {
            title: path.display().to_string(),
            path: Some(path),
            depth: 0,
            number: None,
            part: None,
            separator: false,
            page_title: None,
        }
    }

    /// The output path of the page, relative to the output folder. As in mdBook, a
    /// `README.md` is its folder's `index.html`, so links into a published book keep working.
    pub(crate) fn out_path(&self) -> Option<PathBuf> {
        self.path.as_deref().map(page_path)
    }
}

/// The page written for the source file at `path` (relative to the source folder):
/// `a/b.md` → `a/b.html`, and `a/README.md` → `a/index.html`.
pub(crate) fn page_path(path: &Path) -> PathBuf {
    if path
        .file_name()
        .is_some_and(|s| s.eq_ignore_ascii_case("readme.md"))
    {
        path.with_file_name("index.html")
    } else {
        path.with_extension("html")
    }
}

/// Every file under `dir`, in sorted order, skipping hidden files and folders.
fn files_under(dir: &Path) -> Result<Vec<PathBuf>, Diagnostic> {
    let walker = WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.'));
    let mut out = Vec::new();
    for entry in walker {
        let entry = entry.map_err(|e| {
            Diagnostic::error(Code::IoError, format!("cannot list {}: {e}", dir.display()))
        })?;
        if entry.file_type().is_file() {
            out.push(entry.into_path());
        }
    }
    Ok(out)
}

/// The files of the source folder that are not lessons (images, downloads), to be copied into
/// the site as they are: their paths relative to the source folder.
pub(crate) fn static_files(src: &Path) -> Result<Vec<PathBuf>, Diagnostic> {
    Ok(files_under(src)?
        .into_iter()
        .filter(|p| p.extension().is_none_or(|x| x != "md"))
        .map(|p| p.strip_prefix(src).map(Path::to_path_buf).unwrap_or(p))
        .collect())
}

/// Finds the chapters of the book under `src`, reading through the book's confined reader,
/// with the warnings about them (a file that `SUMMARY.md` lists twice). A chapter of
/// `SUMMARY.md` must be a file under `src` (its page is written at the same path under the
/// output folder), and a readable one.
pub(crate) fn chapters(
    files: &Reader,
    src: &Path,
) -> Result<(Vec<Chapter>, Vec<Diagnostic>), Diagnostic> {
    let summary = src.join("SUMMARY.md");
    if summary.symlink_metadata().is_ok() {
        let file = files.source(&summary, Code::MalformedSummary)?;
        let (entries, warnings) = super::summary::parse(&file)?;
        for (c, at) in &entries {
            let Some(p) = &c.path else { continue };
            let name = files.name(&src.join(p));
            let problem = if !p
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
            {
                Some(Diagnostic::error(
                    Code::MalformedSummary,
                    format!("SUMMARY.md names {name}, which is not under the source folder"),
                )
                .note("a chapter's page is written at its path under the output folder, so the path cannot climb out or be absolute"))
            } else {
                match files.open(&src.join(p)) {
                    Ok(_) => None,
                    Err(Refusal::Missing) => Some(Diagnostic::error(
                        Code::MalformedSummary,
                        format!("SUMMARY.md names {name}, which does not exist"),
                    )),
                    Err(r) => Some(files.refused(&r, &name, Code::MalformedSummary)),
                }
            };
            if let Some(d) = problem {
                return Err(d.at(&file, at.clone()));
            }
        }
        return Ok((entries.into_iter().map(|(c, _)| c).collect(), warnings));
    }
    let mut out = Vec::new();
    for p in files_under(src)? {
        let p = p.as_path();
        if p.extension().is_none_or(|x| x != "md") {
            continue;
        }
        let rel = p.strip_prefix(src).unwrap_or(p).to_path_buf();
        let title = rel
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push(Chapter {
            title,
            depth: rel.components().count().saturating_sub(1),
            path: Some(rel),
            number: None,
            part: None,
            separator: false,
            page_title: None,
        });
    }
    Ok((out, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readme_is_its_folders_index_page() {
        assert_eq!(
            page_path(Path::new("README.md")),
            PathBuf::from("index.html")
        );
        assert_eq!(
            page_path(Path::new("cli/README.md")),
            PathBuf::from("cli/index.html")
        );
        assert_eq!(
            page_path(Path::new("cli/a.md")),
            PathBuf::from("cli/a.html")
        );
    }
}
