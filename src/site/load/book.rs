//! The book: its chapters in reading order, loaded from the source folder.
//!
//! With a `SUMMARY.md` (mdBook's format), the summary fixes the order and the nesting. Without
//! one, every `.md` file under the source folder is a chapter, in the order of their paths, and
//! folders nest. Every file is read as UTF-8; a file that is not is a diagnostic naming it.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use walkdir::WalkDir;

use super::confine::{Reader, Refusal};
use crate::diag::{Code, Diagnostic, SourceFile};

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

/// Finds the chapters of the book under `src`, reading through the book's confined reader.
/// A chapter of `SUMMARY.md` must be a file under `src` (its page is written at the same path
/// under the output folder), and a readable one.
pub(crate) fn chapters(files: &Reader, src: &Path) -> Result<Vec<Chapter>, Diagnostic> {
    let summary = src.join("SUMMARY.md");
    if summary.symlink_metadata().is_ok() {
        let file = files.source(&summary, Code::MalformedSummary)?;
        let chapters = parse_summary(&file)?;
        for c in &chapters {
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
                return Err(d.at(&file, find_in(&file, p)));
            }
        }
        return Ok(chapters);
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
    Ok(out)
}

fn find_in(file: &SourceFile, p: &Path) -> std::ops::Range<usize> {
    let needle = p.to_string_lossy();
    file.text
        .find(needle.as_ref())
        .map_or(0..0, |i| i..i + needle.len())
}

/// Parses mdBook's `SUMMARY.md`: an optional `# Summary` title, prefix chapters as bare links,
/// numbered chapters as list items (nested by indentation, to any depth), draft chapters with
/// an empty target, `# Part` titles, `---` separators, and suffix chapters as bare links after
/// the list. Titles are inline markdown: `` `code` `` and `\` escapes become plain text.
pub(crate) fn parse_summary(file: &Arc<SourceFile>) -> Result<Vec<Chapter>, Diagnostic> {
    let mut out = Vec::new();
    let mut counters: Vec<usize> = Vec::new();
    let mut indents: Vec<usize> = Vec::new();
    let mut part: Option<String> = None;
    let mut separator = false;
    let mut seen_title = false;
    let mut in_comment = false;
    let mut offset = 0;
    for line in file.text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end();
        let trimmed = body.trim_start();
        let indent = body.len() - trimmed.len();
        let here = start + indent..start + body.len();
        // An HTML comment, which may run over several lines, is not an entry.
        if in_comment {
            in_comment = !trimmed.contains("-->");
            continue;
        }
        if let Some(comment) = trimmed.strip_prefix("<!--") {
            in_comment = !comment.contains("-->");
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        if let Some(h) = trimmed.strip_prefix('#') {
            let h = h.trim_start_matches('#').trim();
            if !seen_title && out.is_empty() && part.is_none() {
                seen_title = true;
                if h.eq_ignore_ascii_case("summary") {
                    continue;
                }
            }
            part = Some(h.to_string());
            continue;
        }
        if trimmed.chars().all(|c| c == '-') && trimmed.len() >= 3 {
            separator = true;
            continue;
        }
        let (item, numbered) = match trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
        {
            Some(rest) => (rest.trim(), true),
            None => (trimmed, false),
        };
        let Some((title, target)) = parse_link(item) else {
            return Err(
                Diagnostic::error(Code::MalformedSummary, "malformed SUMMARY.md entry")
                    .at(file, here)
                    .label("expected `- [Title](file.md)` or `[Title](file.md)`"),
            );
        };
        let depth = if numbered {
            while indents.last().is_some_and(|&i| i > indent) {
                indents.pop();
                counters.pop();
            }
            if indents.last() != Some(&indent) {
                indents.push(indent);
                counters.push(0);
            }
            if let Some(last) = counters.last_mut() {
                *last += 1;
            }
            indents.len() - 1
        } else {
            0
        };
        let number = numbered.then(|| counters.iter().map(|c| format!("{c}.")).collect::<String>());
        let path = (!target.is_empty()).then(|| {
            PathBuf::from(
                target
                    .trim_start_matches("./")
                    .split('#')
                    .next()
                    .unwrap_or(""),
            )
        });
        out.push(Chapter {
            title: plain_title(title),
            path,
            depth,
            number,
            part: part.take(),
            separator: std::mem::take(&mut separator),
            page_title: None,
        });
    }
    Ok(out)
}

/// The text of a title written in inline markdown, as mdBook shows it in the sidebar: code
/// spans lose their backticks, escapes their backslash, emphasis its stars.
fn plain_title(title: &str) -> String {
    use pulldown_cmark::{Event, Parser};
    let mut out = String::new();
    for event in Parser::new(title) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            _ => {}
        }
    }
    out
}

/// `[title](target)` at the start of `s`. Brackets in the title and parentheses in the
/// target nest; what follows the link (`(aside)`) is not part of it, as in mdBook.
fn parse_link(s: &str) -> Option<(&str, &str)> {
    let rest = s.strip_prefix('[')?;
    let close = matching(rest, b'[', b']')?;
    let title = &rest[..close];
    let after = rest[close + 1..].strip_prefix('(')?;
    let end = matching(after, b'(', b')')?;
    Some((title, after[..end].trim()))
}

/// The byte index of the `close` that ends the text, which starts just after an `open`;
/// backslash escapes are skipped.
fn matching(text: &str, open: u8, close: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b if b == open => depth += 1,
            b if b == close && depth == 0 => return Some(i),
            b if b == close => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chapters of a SUMMARY.md of `text` (none if it does not parse).
    fn summary(text: &str) -> Vec<Chapter> {
        parse_summary(&SourceFile::new("SUMMARY.md", text)).unwrap_or_default()
    }

    /// Each chapter as (title, depth, number, has a file, is a separator).
    type Row<'a> = (&'a str, usize, Option<&'a str>, bool, bool);

    fn rows(chapters: &[Chapter]) -> Vec<Row<'_>> {
        chapters
            .iter()
            .map(|c| {
                let number = c.number.as_deref();
                (
                    c.title.as_str(),
                    c.depth,
                    number,
                    c.path.is_some(),
                    c.separator,
                )
            })
            .collect()
    }

    #[test]
    fn summary_nesting_and_numbers() {
        let ch = summary(
            "# Summary\n\n[Intro](intro.md)\n\n- [A](a.md)\n  - [A1](a1.md)\n- [B](b.md)\n\n# Games\n\n- [C](c.md)\n",
        );
        assert_eq!(
            rows(&ch),
            [
                ("Intro", 0, None, true, false),
                ("A", 0, Some("1."), true, false),
                ("A1", 1, Some("1.1."), true, false),
                ("B", 0, Some("2."), true, false),
                ("C", 0, Some("3."), true, false),
            ]
        );
        assert_eq!(ch[4].part.as_deref(), Some("Games"));
    }

    #[test]
    fn summary_drafts_separators_deep_nesting_and_code_titles() {
        let ch = summary(
            "- [The `nim` fence](a.md)\n  - [B](b.md)\n    - [C](c.md)\n      - [D](d.md)\n- [Draft]()\n\n---\n\n[End](e.md)\n",
        );
        assert_eq!(
            rows(&ch),
            [
                ("The nim fence", 0, Some("1."), true, false),
                ("B", 1, Some("1.1."), true, false),
                ("C", 2, Some("1.1.1."), true, false),
                ("D", 3, Some("1.1.1.1."), true, false),
                ("Draft", 0, Some("2."), false, false),
                ("End", 0, None, true, true),
            ]
        );
    }

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

    #[test]
    fn malformed_summary_line_is_located() {
        let f = SourceFile::new("src/SUMMARY.md", "# Summary\n- [A](a.md)\n- oops\n");
        let d = parse_summary(&f).err().map(|d| d.position());
        assert_eq!(d, Some(Some(("src/SUMMARY.md".into(), 3, 1))));
    }
}
