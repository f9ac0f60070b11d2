//! Writing the site: all or nothing.
//!
//! Pages are written, as they are rendered, to a fresh sibling folder ([`Staging`]), which
//! replaces the output folder in two renames once the whole site is there. A failed build therefore leaves the previous site
//! as it was, and a reader never sees half a site. Only a folder that nimbook made (it holds
//! the marker file) is ever replaced, so a mistyped `build-dir` cannot delete someone's files.
//! A single file (a handout) is written the same way: to a temporary sibling, then renamed.

use std::fs;
use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic};
use crate::site::load::Fatal;

pub(crate) mod renderers;

/// The file that marks a folder as nimbook's output.
pub(super) const MARKER: &str = ".nimbook-build";

fn io_error(what: &str, path: &Path, e: std::io::Error) -> Fatal {
    Box::new(Diagnostic::error(
        Code::IoError,
        format!("cannot {what} {}: {e}", path.display()),
    ))
}

/// Absolute form of a path that may not exist yet: its nearest existing ancestor is
/// canonicalised and the rest appended (so an existing path comes back canonical).
pub(crate) fn absolute(p: &Path) -> PathBuf {
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    };
    let mut existing = joined.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => break,
        }
    }
    let mut out = fs::canonicalize(existing).unwrap_or_else(|_| existing.to_path_buf());
    for name in rest.into_iter().rev() {
        out.push(name);
    }
    out
}

/// Refuses an output folder that is, or contains, the source folder or the book root, and an
/// existing folder that nimbook did not make.
pub(super) fn guard(root: &Path, src: &Path, out: &Path) -> Result<(), Fatal> {
    guard_sources(root, src, out)?;
    let out_abs = absolute(out);
    if out_abs.exists() {
        let ours = out_abs.join(MARKER).is_file()
            || fs::read_dir(&out_abs).is_ok_and(|mut d| d.next().is_none());
        if !out_abs.is_dir() || !ours {
            return Err(Box::new(
                Diagnostic::error(
                    Code::UnsafeOutput,
                    format!(
                        "the output folder {} exists and was not made by nimbook",
                        out.display()
                    ),
                )
                .help("remove it, or choose another `build-dir` in book.toml"),
            ));
        }
    }
    Ok(())
}

/// Refuses an output folder that is, or contains, the source folder or the book root. A
/// renderer's folder, which the renderer keeps, is held to this only.
pub(super) fn guard_sources(root: &Path, src: &Path, out: &Path) -> Result<(), Fatal> {
    let (root, src, out_abs) = (absolute(root), absolute(src), absolute(out));
    if src.starts_with(&out_abs) || root.starts_with(&out_abs) {
        return Err(Box::new(
            Diagnostic::error(
                Code::UnsafeOutput,
                format!(
                    "the output folder {} is or contains the book's sources",
                    out.display()
                ),
            )
            .help("choose another `build-dir` in the [build] table of book.toml"),
        ));
    }
    Ok(())
}

/// A site being written: a fresh staging folder beside the output folder, filled file by file
/// as pages are rendered, that replaces the output folder only on [`Staging::commit`]. Dropped
/// without a commit (an error on the way), it removes itself and the old site stays.
pub(super) struct Staging {
    out: PathBuf,
    staging: PathBuf,
    retired: PathBuf,
    committed: bool,
}

impl Staging {
    /// Makes an empty staging folder for the new content of `out`.
    pub(super) fn begin(out: &Path) -> Result<Staging, Fatal> {
        let out = absolute(out);
        let parent = out.parent().unwrap_or(Path::new(".")).to_path_buf();
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "book".into());
        fs::create_dir_all(&parent).map_err(|e| io_error("create", &parent, e))?;
        let staging = parent.join(format!(".{name}.nimbook-new-{}", std::process::id()));
        let retired = parent.join(format!(".{name}.nimbook-old-{}", std::process::id()));
        let _ = fs::remove_dir_all(&staging);
        fs::create_dir_all(&staging).map_err(|e| io_error("create", &staging, e))?;
        Ok(Staging {
            out,
            staging,
            retired,
            committed: false,
        })
    }

    /// Writes one file (a path relative to the output folder). Safe to call from several
    /// threads at once.
    pub(super) fn write(&self, rel: &Path, bytes: &[u8]) -> Result<(), Fatal> {
        // Every caller builds `rel` from the book's paths; none may climb out of the output.
        if !rel.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        }) {
            return Err(Box::new(Diagnostic::error(
                Code::IoError,
                format!("{} is not a path inside the output folder", rel.display()),
            )));
        }
        let path = self.staging.join(rel);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|e| io_error("create", dir, e))?;
        }
        fs::write(&path, bytes).map_err(|e| io_error("write", &path, e))
    }

    /// Marks the staged folder as nimbook's and puts it in place of the output folder.
    pub(super) fn commit(mut self) -> Result<(), Fatal> {
        fs::write(
            self.staging.join(MARKER),
            b"made by nimbook; replaced on every build\n",
        )
        .map_err(|e| io_error("write", &self.staging, e))?;
        if self.out.exists() {
            fs::rename(&self.out, &self.retired).map_err(|e| io_error("replace", &self.out, e))?;
        }
        if let Err(e) = fs::rename(&self.staging, &self.out) {
            let _ = fs::rename(&self.retired, &self.out);
            return Err(io_error("replace", &self.out, e));
        }
        self.committed = true;
        let _ = fs::remove_dir_all(&self.retired);
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.staging);
        }
    }
}

/// Replaces one file of a built site in place with [`write_file_atomically`], or removes it
/// (`None`). Used by `nimbook serve` to patch a site after an edit.
pub(super) fn replace_file(out: &Path, rel: &Path, bytes: Option<&[u8]>) -> Result<(), Fatal> {
    let path = out.join(rel);
    match bytes {
        Some(bytes) => write_file_atomically(&path, bytes),
        None => match fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_error("remove", &path, e)),
            _ => Ok(()),
        },
    }
}

/// Writes one file (`nimbook pdf`'s book) into the output folder `out` of the book at `root`
/// (sources in `src`), atomically, making the folder if needed. The folder is held to the same
/// rule as a build's: one that holds the sources, or that nimbook did not make, is refused; a
/// folder made here is marked as nimbook's, so a later build may replace it.
pub(super) fn write_into_output(
    root: &Path,
    src: &Path,
    out: &Path,
    name: &str,
    bytes: &[u8],
) -> Result<(), Fatal> {
    guard(root, src, out)?;
    fs::create_dir_all(out).map_err(|e| io_error("create", out, e))?;
    let marker = out.join(MARKER);
    if !marker.is_file() {
        fs::write(&marker, b"made by nimbook; replaced on every build\n")
            .map_err(|e| io_error("write", &marker, e))?;
    }
    write_file_atomically(&out.join(name), bytes)
}

/// Writes `bytes` to `file` through a temporary sibling and a rename, so a reader never sees
/// half a file (a handout, a page patched by `nimbook serve`).
pub(super) fn write_file_atomically(file: &Path, bytes: &[u8]) -> Result<(), Fatal> {
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir).map_err(|e| io_error("create", &dir, e))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "handout.html".into());
    let tmp = dir.join(format!(".{name}.nimbook-{}", std::process::id()));
    fs::write(&tmp, bytes).map_err(|e| io_error("write", &tmp, e))?;
    fs::rename(&tmp, file).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io_error("write", file, e)
    })
}
