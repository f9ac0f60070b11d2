//! The cache of decided results across builds: the files under `.nimbook/cache/` in the book
//! root. A front end ([`crate::site::build`], `check`, `serve`, `handout`, the editor server)
//! opens the [`Store`] before the lessons are checked, which loads the file into a
//! [`Memo`] that the lesson stage reads and adds to, and saves it once they are done.
//!
//! What is remembered and why a remembered result is sound is `lesson::memo`'s story; this
//! module is the file. `results` holds one line of header, then the entries as JSON:
//!
//! ```text
//! nimbook-cache 1 <engine> <generation> <sha-256 of the rest>
//! [{"key":"<digest>","used":<generation>,"result":{…}}, …]
//! ```
//!
//! - `engine` is the engine's version ([`ENGINE`]): a file written by another build of
//!   nimbook is not read, and is replaced, without a word (that is what a new version does).
//! - A file that is truncated, garbled (its checksum does not match), of another format, too
//!   large, not a regular file or unreadable is ignored with one warning and rebuilt by the
//!   next save; a file that cannot be written is one warning too. Neither fails the build.
//! - Each save merges what this process decided into the file as it is on disk then (another
//!   build may have saved meanwhile) and writes it through a temporary file and a rename, so
//!   two builds at once leave one of their files whole, never a mixture; at worst the entries
//!   of the one that saved first are missing, and are decided again.
//! - The file holds at most [`MAX_BYTES`] of entries. Every save stamps the entries the
//!   process decided or recalled with a new generation; when the entries would pass the bound,
//!   those used longest ago are dropped first.
//! - A save happens only when something new was decided: a build that recalled everything
//!   writes nothing.
//!
//! The cache is not used with `--untrusted`: a stranger's book could bring a cache that says
//! its false claims hold. `--no-cache` (or `NIMBOOK_NO_CACHE=1`) skips it too, and
//! `nimbook cache clear` removes the folder ([`clear`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::diag::{Code, Diagnostic};
use crate::site::lesson::memo::{Memo, MemoView, Stored, ENGINE};
use crate::site::lesson::report::Report;
use crate::site::load::confine::{self, Reader, Refusal, Trust};
use crate::site::load::{Fatal, Options};

/// The cache's folder, relative to the book root.
pub(crate) const DIR: &str = ".nimbook/cache";
/// The file of results in it.
const FILE: &str = "results";
/// The first word of the file.
const MAGIC: &str = "nimbook-cache";
/// The version of the file's format.
const FORMAT: u32 = 1;
/// The most bytes of entries the file holds (32 MiB): when a save would pass it, the entries
/// used longest ago are dropped first.
pub(crate) const MAX_BYTES: usize = 32 << 20;
/// The longest file read: anything longer was not written by nimbook.
const MAX_READ: u64 = 2 * MAX_BYTES as u64;

/// One entry as the file holds it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    /// The digest of the engine's version and the result's key.
    key: String,
    /// The generation of the save that last found it used.
    used: u64,
    result: Stored,
}

/// What a file held: its generation and the entries, by digest, with when each was used.
#[derive(Default)]
struct Contents {
    generation: u64,
    entries: HashMap<String, (u64, Stored)>,
}

/// The cache of one book, opened by a front end: the memory its lessons share, and the file.
pub(crate) struct Store {
    /// `None` when the cache is not used.
    open: Option<Open>,
    /// Warnings not yet handed to a report.
    warnings: Vec<Diagnostic>,
}

struct Open {
    root: PathBuf,
    memo: Arc<Memo>,
    /// The file's generation, as last read or written.
    generation: u64,
    /// When each entry of the file was last used, by digest, as last read or written (the
    /// entries themselves are the memory's).
    used: HashMap<String, u64>,
    /// Whether a failed write goes unreported: it was reported already (a server saves after
    /// every rebuild), or the file could not be read either, which was.
    write_warned: bool,
}

impl Store {
    /// The cache of the book `options` names: loaded from its file, or empty (with a warning
    /// when the file was there but could not be used). Not used when `options` say so or the
    /// book is untrusted.
    pub(crate) fn open(options: &Options) -> Store {
        if !options.cache || options.trust == Trust::Untrusted {
            return Store {
                open: None,
                warnings: Vec::new(),
            };
        }
        let root = options.root.clone();
        let (contents, warning) = match read(&root) {
            Ok(contents) => (contents, None),
            Err(warning) => (Contents::default(), warning),
        };
        let mut used = HashMap::with_capacity(contents.entries.len());
        let loaded = contents
            .entries
            .into_iter()
            .map(|(k, (u, e))| {
                used.insert(k.clone(), u);
                (k, e)
            })
            .collect();
        Store {
            open: Some(Open {
                root,
                memo: Arc::new(Memo::new(loaded)),
                generation: contents.generation,
                used,
                write_warned: warning.is_some(),
            }),
            warnings: warning.into_iter().collect(),
        }
    }

    /// The view a build's lessons check through, if the cache is used.
    pub(crate) fn view(&self) -> Option<MemoView> {
        self.open
            .as_ref()
            .map(|o| MemoView::new(Arc::clone(&o.memo)))
    }

    /// The view of an editor's quick pass: recalls what a check under the book's `full`
    /// limits decided, remembers nothing.
    pub(crate) fn quick_view(&self, full: crate::claim::Limits) -> Option<MemoView> {
        self.open
            .as_ref()
            .map(|o| MemoView::read_only(Arc::clone(&o.memo), full))
    }

    /// Saves what was decided since the last save, if anything was, and gives the warnings
    /// not yet given (a file that could not be used when it was opened, or written now).
    pub(crate) fn save(&mut self) -> Vec<Diagnostic> {
        let mut warnings = std::mem::take(&mut self.warnings);
        if let Some(open) = &mut self.open {
            if open.memo.unsaved() {
                if let Err(e) = open.write() {
                    if !open.write_warned {
                        open.write_warned = true;
                        warnings.push(e);
                    }
                }
            }
        }
        warnings
    }

    /// Saves (see [`Store::save`]) and puts the warnings and what was recalled into `report`.
    pub(crate) fn finish(&mut self, report: &mut Report) {
        let warnings = self.save();
        report.diagnostics.extend(warnings);
        if let Some(open) = &self.open {
            report.cache = open.memo.usage();
        }
    }
}

impl Open {
    /// Merges the memory into the file as it is on disk now and writes it.
    fn write(&mut self) -> Result<(), Diagnostic> {
        let on_disk = read(&self.root).unwrap_or_default();
        let generation = self.generation.max(on_disk.generation) + 1;
        let mut merged = on_disk.entries;
        for (key, entry, used) in self.memo.entries() {
            let stamp = if used {
                generation
            } else {
                self.used.get(&key).copied().unwrap_or(0)
            };
            let on_disk = merged.get(&key).map_or(0, |(u, _)| *u);
            merged.insert(key, (on_disk.max(stamp), entry));
        }
        let lines = bounded(merged);
        let body = body(&lines);
        let text = format!(
            "{MAGIC} {FORMAT} {ENGINE} {generation} {}\n{body}",
            hex_sha256(body.as_bytes())
        );
        let dir = self.root.join(DIR);
        std::fs::create_dir_all(&dir).map_err(|e| self.cannot_write(&e.to_string()))?;
        let tag = dir.join("CACHEDIR.TAG");
        if !tag.exists() {
            // Backup tools skip a folder with this tag (https://bford.info/cachedir/).
            let _ = std::fs::write(
                &tag,
                "Signature: 8a477f597d28d172789f06886806bc55\n# nimbook's cache of decided results; `nimbook cache clear` removes it.\n",
            );
        }
        crate::site::output::write_file_atomically(&dir.join(FILE), text.as_bytes())
            .map_err(|fatal| self.cannot_write(&fatal.message))?;
        self.generation = generation;
        for (line, _) in lines {
            self.used.insert(line.key, line.used);
        }
        self.memo.saved();
        Ok(())
    }

    fn cannot_write(&self, why: &str) -> Diagnostic {
        Diagnostic::warning(
            Code::CacheUnusable,
            format!("cannot write the cache {}: {why}", shown(&self.root)),
        )
        .note("the site is not affected; the next build decides again what this one decided")
        .help("make the folder writable, or pass --no-cache")
    }
}

/// The entries to keep, each with its JSON, sorted by digest: the most recently used first,
/// while they fit in [`MAX_BYTES`]. An entry serde cannot write is left out.
fn bounded(entries: HashMap<String, (u64, Stored)>) -> Vec<(Line, String)> {
    let mut lines: Vec<(Line, String)> = entries
        .into_iter()
        .filter_map(|(key, (used, result))| {
            let line = Line { key, used, result };
            let json = serde_json::to_string(&line).ok()?;
            Some((line, json))
        })
        .collect();
    lines.sort_by(|(a, _), (b, _)| b.used.cmp(&a.used).then_with(|| a.key.cmp(&b.key)));
    let mut total = 0;
    lines.retain(|(_, json)| {
        // The line's own size, with its separator: the file is exactly these bytes.
        total += json.len() + 1;
        total <= MAX_BYTES
    });
    lines.sort_by(|(a, _), (b, _)| a.key.cmp(&b.key));
    lines
}

/// The JSON list of `lines`, from the JSON `bounded` wrote of each to measure it.
fn body(lines: &[(Line, String)]) -> String {
    let jsons: Vec<&str> = lines.iter().map(|(_, json)| json.as_str()).collect();
    format!("[{}]", jsons.join(","))
}

fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The file as the user's book shows it.
fn shown(root: &Path) -> String {
    confine::display_name(root, &root.join(DIR).join(FILE))
}

/// The file of the book at `root`: its contents; empty when there is none or it was written
/// by another engine; `Err` with a warning when it is there but cannot be used.
fn read(root: &Path) -> Result<Contents, Option<Diagnostic>> {
    let path = root.join(DIR).join(FILE);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(Contents::default());
    }
    let unusable = |why: String| {
        Some(
            Diagnostic::warning(
                Code::CacheUnusable,
                format!("the cache {} {why}; it is ignored and rebuilt", shown(root)),
            )
            .note("the site is not affected; claims it held are decided again"),
        )
    };
    // Through the confined reader, as a file of the book: inside the root, a regular file,
    // bounded, never a pipe that could stall the build.
    let reader = Reader::new(root, &[], MAX_READ, Trust::Trusted).map_err(|_| None)?;
    let bytes = match reader.bytes(&path) {
        Ok(bytes) => bytes,
        // Removed since it was seen (`nimbook cache clear` meanwhile).
        Err(Refusal::Missing) => return Ok(Contents::default()),
        Err(refusal) => {
            return Err(unusable(match refusal {
                Refusal::TooLong(size) => {
                    format!("is {size} bytes long, more than nimbook writes")
                }
                Refusal::NotRegular(kind) => format!("is {kind}, not a regular file"),
                Refusal::Outside(real) => {
                    format!("resolves to {}, outside the book", real.display())
                }
                Refusal::InGit => "is inside a .git folder".into(),
                Refusal::Io(e) => format!("cannot be read ({e})"),
                Refusal::Missing => "is missing".into(),
            }))
        }
    };
    let text = String::from_utf8(bytes).map_err(|_| unusable("is not text".into()))?;
    let (header, body) = text
        .split_once('\n')
        .ok_or_else(|| unusable("is truncated".into()))?;
    let words: Vec<&str> = header.split(' ').collect();
    let [magic, format, engine, generation, sum] = words[..] else {
        return Err(unusable("is not a nimbook cache".into()));
    };
    if magic != MAGIC {
        return Err(unusable("is not a nimbook cache".into()));
    }
    if format != FORMAT.to_string() {
        return Err(unusable(format!("is in format {format}, not {FORMAT}")));
    }
    if engine != ENGINE {
        // Another build of nimbook wrote it: nothing in it can be trusted, nothing is wrong.
        return Ok(Contents::default());
    }
    if sum != hex_sha256(body.as_bytes()) {
        return Err(unusable(
            "is truncated or garbled (its checksum does not match)".into(),
        ));
    }
    let generation = generation
        .parse()
        .map_err(|_| unusable("is garbled".into()))?;
    let lines: Vec<Line> =
        serde_json::from_str(body).map_err(|e| unusable(format!("is garbled ({e})")))?;
    Ok(Contents {
        generation,
        entries: lines
            .into_iter()
            .map(|l| (l.key, (l.used, l.result)))
            .collect(),
    })
}

/// Whether a command uses the cache: unless `--no-cache` was given (`no_cache`) or the
/// environment variable `NIMBOOK_NO_CACHE` is `1`, `true` or `yes` (for a CI file, or
/// `nimbook mdbook`, which mdBook runs without flags).
pub(crate) fn wanted(no_cache: bool) -> bool {
    let env =
        std::env::var("NIMBOOK_NO_CACHE").is_ok_and(|v| matches!(v.trim(), "1" | "true" | "yes"));
    !(no_cache || env)
}

/// `nimbook cache clear`: removes the cache of the book at `root`. Returns the folder removed,
/// or `None` when there was none.
pub(crate) fn clear(root: &Path) -> Result<Option<PathBuf>, Fatal> {
    let dir = root.join(DIR);
    match std::fs::symlink_metadata(&dir) {
        Err(_) => Ok(None),
        Ok(_) => std::fs::remove_dir_all(&dir)
            .or_else(|_| std::fs::remove_file(&dir))
            .map(|()| Some(dir.clone()))
            .map_err(|e| {
                Box::new(Diagnostic::error(
                    Code::IoError,
                    format!("cannot remove the cache {}: {e}", dir.display()),
                ))
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::lesson::memo::StoredStatus;

    fn entry(n: usize) -> Stored {
        Stored::Statement {
            status: StoredStatus::Holds,
            value: None,
            witness: Some("x".repeat(n)),
            established: None,
        }
    }

    #[test]
    fn the_bound_drops_the_entries_used_longest_ago() {
        let big = MAX_BYTES / 3;
        let entries: HashMap<String, (u64, Stored)> = [
            ("a".to_string(), (1, entry(big))),
            ("b".to_string(), (3, entry(big))),
            ("c".to_string(), (2, entry(big))),
            ("d".to_string(), (3, entry(10))),
        ]
        .into_iter()
        .collect();
        let kept: Vec<String> = bounded(entries).into_iter().map(|(l, _)| l.key).collect();
        assert_eq!(kept, ["b", "c", "d"]);
    }

    #[test]
    fn the_body_is_the_json_of_the_kept_lines() {
        let entries: HashMap<String, (u64, Stored)> = [
            ("b".to_string(), (2, entry(0))),
            ("a".to_string(), (1, entry(3))),
        ]
        .into_iter()
        .collect();
        let lines = bounded(entries);
        let list: Vec<&Line> = lines.iter().map(|(l, _)| l).collect();
        assert_eq!(body(&lines), serde_json::to_string(&list).expect("json"));
    }
}
