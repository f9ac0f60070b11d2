//! The one way a book makes nimbook read a file, and what `--untrusted` takes away from a book.
//!
//! A book is often somebody else's: a pull request from a fork, checked by CI with tokens in
//! its environment. Every file a book can name is read through [`Reader`]: `book.toml`, the
//! chapters of `SUMMARY.md`, `{{#include}}` and its siblings, the 404 page, `additional-css`
//! and `-js`, the book's templates and `theme/head.hbs`, the images a handout inlines and the
//! static files copied into the site. The reader resolves `..` and symbolic links first (so a
//! link inside the book that points out of it is out), and reads only a *regular file* inside
//! the book's *boundary* or a folder listed in `[nimbook] include-roots`.
//!
//! The boundary is the git work tree that holds the book: the nearest folder at or above the
//! book root that has a `.git` entry (a folder, or the file of a worktree or submodule), so a
//! guide in `guide/` of its repository can include `../README.md`, as mdBook allows. Without
//! one, and always under `--untrusted`, it is the book root (the folder of `book.toml`).
//! A work tree that is the file-system root or the home folder is not a boundary either (a
//! dotfiles repository would otherwise open the whole home folder): the book root is.
//!
//! Nothing under a `.git` folder is ever read, where `actions/checkout` keeps the job's token,
//! and no folder of `include-roots` may reach `/proc`, `/sys`, `/dev`, the file-system root,
//! the home folder or a hidden folder in it (`~/.ssh`), whatever the spelling: the rule is
//! checked on the canonical path, after `..` and symbolic links ([`forbidden`]), and breaking it
//! is a located `book.toml` error, in trusted builds too. A named pipe, a device, a socket or a
//! folder is refused before it is opened, and the opened file is checked again, so one swapped
//! in meanwhile cannot stall the build; every read stops at `max-lesson-bytes`.
//! `/proc/self/environ`, `/etc/hostname` and `/dev/zero` are therefore out of a book's reach.
//!
//! [`Trust::Untrusted`] (`--untrusted`, or `NIMBOOK_UNTRUSTED=1`) also takes away what
//! `book.toml` could otherwise grant ([`restrict`]): external preprocessors and renderers (any
//! command at all) do not run, `include-roots` is ignored, the boundary is the book root, the
//! book's own templates are not used, every budget is at most its default, and a `build-dir`
//! outside the book becomes `book`.
//!
//! [`restrict`]: super::untrusted::restrict

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::{Code, Diagnostic, Fatal, SourceFile};

/// The default of `max-lesson-bytes`: the largest source file (a lesson or `SUMMARY.md`) read.
/// Lessons are rendered in memory, and a page of code and math takes about forty times its
/// source in memory, so this bound keeps one file from taking the machine's memory.
pub(crate) const DEFAULT_MAX_LESSON_BYTES: u64 = 4 << 20;

/// A path as shown in diagnostics: relative to the book root, with `/` separators.
pub(crate) fn display_name(root: &Path, path: &Path) -> String {
    let Ok(rel) = path.strip_prefix(root) else {
        // Outside the root (an absolute include): the path as written.
        return path.to_string_lossy().replace('\\', "/");
    };
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// How far a book is trusted: whether `book.toml` may run commands, widen the folders nimbook
/// reads, replace the templates and raise the budgets.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Trust {
    /// The book is the user's own: `book.toml` is obeyed (mdBook's behaviour). Files are read
    /// from the book root and `include-roots` only, even so.
    #[default]
    Trusted,
    /// The book may be a stranger's (`--untrusted`): no external preprocessor runs, files are
    /// read from the book root only, the built-in templates are used and no budget is raised.
    Untrusted,
}

impl Trust {
    /// [`Trust::Untrusted`] when `flag` is set (`--untrusted`) or the environment variable
    /// `NIMBOOK_UNTRUSTED` is `1`, `true` or `yes`, so a CI file can ask for it without
    /// changing the command.
    pub fn from_flag_or_env(flag: bool) -> Trust {
        let env = std::env::var("NIMBOOK_UNTRUSTED")
            .is_ok_and(|v| matches!(v.trim(), "1" | "true" | "yes"));
        if flag || env {
            Trust::Untrusted
        } else {
            Trust::Trusted
        }
    }
}

/// The confined reader of a book's files; see the module documentation.
#[derive(Debug, Clone)]
pub(crate) struct Reader {
    /// The book root as given, for the names of files in diagnostics.
    root: PathBuf,
    /// The canonical folders files may be read from: the boundary, then `include-roots`.
    roots: Vec<PathBuf>,
    /// The most bytes read from one file.
    max_bytes: u64,
    /// Whether `--untrusted` narrowed the roots (for the wording of a refusal).
    untrusted: bool,
}

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// There is no such file (or a symbolic link leads nowhere).
    Missing,
    /// The file resolves to this path, outside every allowed folder.
    Outside(PathBuf),
    /// The file is inside a `.git` folder, which holds credentials (`actions/checkout` keeps
    /// the job's token in `.git/config`).
    InGit,
    /// The file is not a regular file: what it is instead ("a named pipe").
    NotRegular(&'static str),
    /// The file is longer than the limit: its length.
    TooLong(u64),
    /// Reading failed.
    Io(std::io::Error),
}

/// The places no folder of `include-roots` may reach, as the rule names them.
pub(crate) const FORBIDDEN: &str =
    "/proc, /sys, /dev, the file-system root, the home folder and the hidden folders in it, and anything under a .git folder";

/// Why the canonical folder `dir` may never be read from, or `None` when it may: it is the
/// file-system root, under `/proc`, `/sys` or `/dev` (the running system: `/proc/self/environ`
/// is the build's environment), the home folder, a folder above it (which holds it), or a
/// hidden folder in it (`~/.ssh`, `~/.aws`), or it is under a `.git` folder.
pub(crate) fn forbidden(dir: &Path) -> Option<String> {
    if dir.parent().is_none() {
        return Some("it is the file-system root".into());
    }
    for system in ["/proc", "/sys", "/dev"] {
        if dir.starts_with(system) {
            return Some(format!("it is inside {system}"));
        }
    }
    if dir.components().any(|c| c.as_os_str() == ".git") {
        return Some("it is inside a .git folder".into());
    }
    for home in homes() {
        if home.starts_with(dir) {
            return Some(if home == dir {
                "it is the home folder".into()
            } else {
                format!("it holds the home folder {}", home.display())
            });
        }
        let hidden = dir
            .strip_prefix(&home)
            .ok()
            .and_then(|rel| rel.components().next());
        if hidden.is_some_and(|c| c.as_os_str().to_string_lossy().starts_with('.')) {
            return Some(format!(
                "it is inside a hidden folder of the home folder {}",
                home.display()
            ));
        }
    }
    None
}

/// The home folder, canonical, as `$HOME` and the user database name it (they can differ).
fn homes() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::env::var_os("HOME")
        .map(PathBuf::from)
        .into_iter()
        .chain(std::env::home_dir())
        .filter(|h| h.is_absolute())
        .map(|h| std::fs::canonicalize(&h).unwrap_or(h))
        .collect();
    out.dedup();
    out
}

/// The git work tree that holds the canonical book root `root`: the nearest folder at or above
/// it with a `.git` entry, unless that is a forbidden place (a home folder kept in git).
pub(crate) fn work_tree(root: &Path) -> Option<PathBuf> {
    let top = root
        .ancestors()
        .find(|dir| dir.join(".git").symlink_metadata().is_ok())?;
    forbidden(top).is_none().then(|| top.to_path_buf())
}

/// The canonical folder of one `include-roots` entry (relative to the book root `root`), or
/// why it cannot be one: it does not exist, or it reaches a forbidden place. The diagnostic
/// has no place; [`super::config::Config::reader`] puts it at the entry in `book.toml`.
pub(crate) fn include_root(root: &Path, dir: &Path) -> Result<PathBuf, Diagnostic> {
    let folder = std::fs::canonicalize(root.join(dir)).map_err(|e| {
        Diagnostic::error(
            Code::InvalidConfig,
            format!("cannot open the folder {} of `include-roots`: {e}", dir.display()),
        )
        .help("`include-roots` in the [nimbook] table of book.toml lists folders that exist, relative to the book root")
    })?;
    match forbidden(&folder) {
        None => Ok(folder),
        Some(why) => Err(Diagnostic::error(
            Code::InvalidConfig,
            format!(
                "`include-roots` may not name {}: {why} (it resolves to {})",
                dir.display(),
                folder.display()
            ),
        )
        .label("a folder no book may read")
        .note(format!("no book ever reads {FORBIDDEN}, whatever the spelling, after `..` and symbolic links are resolved"))
        .help("list only the folders the book's includes need, such as the repository's `examples`")),
    }
}

impl Reader {
    /// A reader of the book at `root`, its boundary (the git work tree that holds it, or the
    /// root itself when there is none or under `--untrusted`) and the folders `extra` (relative
    /// to the root, from `include-roots`), reading at most `max_bytes` of a file. A folder of
    /// `extra` that does not exist or that reaches a forbidden place ([`forbidden`]) is a
    /// configuration error.
    pub(crate) fn new(
        root: &Path,
        extra: &[PathBuf],
        max_bytes: u64,
        trust: Trust,
    ) -> Result<Reader, Fatal> {
        let book = std::fs::canonicalize(root).map_err(|e| {
            Box::new(Diagnostic::error(
                Code::InvalidConfig,
                format!("cannot open the book root {}: {e}", root.display()),
            ))
        })?;
        let boundary = match trust {
            Trust::Untrusted => None,
            Trust::Trusted => work_tree(&book),
        };
        let mut roots = vec![boundary.unwrap_or(book)];
        for dir in extra {
            roots.push(include_root(root, dir).map_err(Box::new)?);
        }
        Ok(Reader {
            root: root.to_path_buf(),
            roots,
            max_bytes,
            untrusted: trust == Trust::Untrusted,
        })
    }

    /// The boundary in words, for a refusal.
    fn boundary_name(&self) -> String {
        let book = std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        match self.roots.first() {
            Some(b) if *b != book => format!("the git work tree that holds it ({})", b.display()),
            _ if self.untrusted => {
                "its root (the folder of book.toml; --untrusted reads no further)".into()
            }
            _ => "its root (the folder of book.toml; no git work tree holds it)".into(),
        }
    }

    /// The book root as given.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// The most bytes read from one file.
    pub(crate) fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// A path as shown in diagnostics: relative to the book root when it is under it.
    pub(crate) fn name(&self, path: &Path) -> String {
        display_name(&self.root, path)
    }

    /// Whether `path` is inside the allowed folders once `..` and links are resolved (it need
    /// not be a file).
    pub(crate) fn contains(&self, path: &Path) -> bool {
        std::fs::canonicalize(path).is_ok_and(|real| self.roots.iter().any(|r| real.starts_with(r)))
    }

    /// The canonical path of `path`, if it is a regular file inside the allowed folders.
    fn check(&self, path: &Path) -> Result<PathBuf, Refusal> {
        let real = std::fs::canonicalize(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Refusal::Missing,
            _ => Refusal::Io(e),
        })?;
        if !self.roots.iter().any(|r| real.starts_with(r)) {
            return Err(Refusal::Outside(real));
        }
        if real.components().any(|c| c.as_os_str() == ".git") {
            return Err(Refusal::InGit);
        }
        // `real` has no links left, so this is the file itself; nothing is opened yet.
        regular(&std::fs::metadata(&real).map_err(Refusal::Io)?)?;
        Ok(real)
    }

    /// Opens `path` for reading if it is a regular file inside the allowed folders.
    pub(crate) fn open(&self, path: &Path) -> Result<File, Refusal> {
        let real = self.check(path)?;
        let file = open_no_wait(&real).map_err(Refusal::Io)?;
        // Checked again on the open file: a pipe put in its place since would block reads.
        regular(&file.metadata().map_err(Refusal::Io)?)?;
        Ok(file)
    }

    /// The bytes of `path`, at most the reader's limit.
    pub(crate) fn bytes(&self, path: &Path) -> Result<Vec<u8>, Refusal> {
        let file = self.open(path)?;
        let mut bytes = Vec::new();
        file.take(self.max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(Refusal::Io)?;
        if bytes.len() as u64 > self.max_bytes {
            let size = std::fs::metadata(path).map_or(bytes.len() as u64, |m| m.len());
            return Err(Refusal::TooLong(size));
        }
        Ok(bytes)
    }

    /// A text file of the book as a source file named by its path from the book root.
    /// A refusal is a diagnostic of code `code` (a file that is too long, of `budget-exceeded`);
    /// text that is not UTF-8 is a `not-utf8` error at the first bad byte.
    pub(crate) fn source(&self, path: &Path, code: Code) -> Result<Arc<SourceFile>, Diagnostic> {
        let name = self.name(path);
        let bytes = self
            .bytes(path)
            .map_err(|r| self.refused(&r, &name, code))?;
        match String::from_utf8(bytes) {
            Ok(text) => Ok(SourceFile::new(name, text)),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let file = SourceFile::new(name.clone(), text);
                Err(
                    Diagnostic::error(Code::NotUtf8, format!("{name} is not valid UTF-8"))
                        .at(&file, at..at + 1)
                        .label(format!("invalid byte at offset {at}"))
                        .help("save the file as UTF-8"),
                )
            }
        }
    }

    /// A refusal to read the file shown as `name`, as a diagnostic of code `code` (without a
    /// place: the caller knows where the file was named). It never quotes the file.
    pub(crate) fn refused(&self, refusal: &Refusal, name: &str, code: Code) -> Diagnostic {
        match refusal {
            Refusal::Missing => {
                Diagnostic::error(code, format!("cannot read {name}: no such file"))
            }
            Refusal::Outside(real) => {
                let d = Diagnostic::error(
                    code,
                    format!(
                        "cannot read {name}: it is outside the book (it resolves to {})",
                        real.display()
                    ),
                )
                .note(format!(
                    "a book is read only from inside {} and the folders of `include-roots`, after `..` and symbolic links are resolved",
                    self.boundary_name()
                ));
                if self.untrusted {
                    d.note("with --untrusted (or NIMBOOK_UNTRUSTED=1) `include-roots` is ignored: nothing outside the book root is read")
                } else {
                    d.help("to allow it, list its folder in `include-roots = [\"…\"]` in the [nimbook] table of book.toml (paths relative to the book root)")
                }
            }
            Refusal::InGit => Diagnostic::error(code, format!("cannot read {name}: it is inside a .git folder"))
                .note("nothing under .git is read: it holds credentials (actions/checkout keeps the job's token in .git/config)"),
            Refusal::NotRegular(kind) => {
                Diagnostic::error(code, format!("cannot read {name}: it is {kind}, not a regular file"))
                    .note("only regular files are read, so that a named pipe or a device cannot stall or flood the build")
            }
            Refusal::TooLong(size) => Diagnostic::error(
                Code::BudgetExceeded,
                format!(
                    "{name} is {size} bytes long, more than the limit of {} bytes per source file (`max-lesson-bytes`)",
                    self.max_bytes
                ),
            )
            .help("split it into several files, or raise `max-lesson-bytes` in the [nimbook] table of book.toml"),
            Refusal::Io(e) => Diagnostic::error(code, format!("cannot read {name}: {e}")),
        }
    }
}

/// `Ok` for a regular file; otherwise what the file is.
fn regular(meta: &Metadata) -> Result<(), Refusal> {
    let t = meta.file_type();
    if t.is_file() {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Err(Refusal::NotRegular("a named pipe (FIFO)"));
        }
        if t.is_char_device() || t.is_block_device() {
            return Err(Refusal::NotRegular("a device"));
        }
        if t.is_socket() {
            return Err(Refusal::NotRegular("a socket"));
        }
    }
    Err(Refusal::NotRegular(if t.is_dir() {
        "a folder"
    } else {
        "not a file"
    }))
}

/// Opens a file without waiting: a named pipe opened without `O_NONBLOCK` blocks until a
/// writer comes, which would stall the build before its type could be checked. The path has no
/// links left, so the last component must not be one either (`O_NOFOLLOW`).
fn open_no_wait(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book() -> (tempfile::TempDir, tempfile::TempDir) {
        let inside = tempfile::tempdir().expect("temp");
        let outside = tempfile::tempdir().expect("temp");
        std::fs::write(inside.path().join("a.md"), "inside").expect("write");
        std::fs::write(outside.path().join("secret.txt"), "hunter2").expect("write");
        (inside, outside)
    }

    #[test]
    fn reads_regular_files_inside_and_refuses_the_rest() {
        let (inside, outside) = book();
        let r = Reader::new(inside.path(), &[], 100, Trust::Trusted).expect("reader");
        assert_eq!(
            r.bytes(&inside.path().join("a.md")).ok(),
            Some(b"inside".to_vec())
        );
        let secret = outside.path().join("secret.txt");
        assert!(matches!(r.bytes(&secret), Err(Refusal::Outside(_))));
        let climbing = inside
            .path()
            .join("..")
            .join(outside.path().file_name().expect("name"))
            .join("secret.txt");
        assert!(matches!(r.bytes(&climbing), Err(Refusal::Outside(_))));
        assert!(matches!(
            r.bytes(inside.path()),
            Err(Refusal::NotRegular("a folder"))
        ));
        assert!(matches!(
            r.bytes(&inside.path().join("nope")),
            Err(Refusal::Missing)
        ));
        std::fs::create_dir_all(inside.path().join(".git")).expect("mkdir");
        std::fs::write(inside.path().join(".git/config"), "token").expect("write");
        assert!(matches!(
            r.bytes(&inside.path().join(".git/config")),
            Err(Refusal::InGit)
        ));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&secret, inside.path().join("link")).expect("symlink");
            assert!(matches!(
                r.bytes(&inside.path().join("link")),
                Err(Refusal::Outside(_))
            ));
        }
    }

    #[test]
    fn include_roots_widen_the_reader_and_the_limit_holds() {
        let (inside, outside) = book();
        let rel = PathBuf::from("..").join(outside.path().file_name().expect("name"));
        let r = Reader::new(inside.path(), &[rel], 3, Trust::Trusted).expect("reader");
        assert!(matches!(
            r.bytes(&outside.path().join("secret.txt")),
            Err(Refusal::TooLong(7))
        ));
        let r = Reader::new(inside.path(), &[], 7, Trust::Trusted).expect("reader");
        assert!(r.contains(inside.path()));
        assert!(!r.contains(outside.path()));
    }
}
