//! The preprocessing stage: a chapter's text from its file to what the checker reads.
//!
//! mdBook runs a chain of preprocessors over the whole book before rendering: its own `links`
//! (includes, see [`crate::site::load::include`]) and `index` (`README.md` becomes `index.md`), and any
//! `[preprocessor.NAME]` of `book.toml`. nimbook runs the same chain in the same order: a
//! topological order of the `before`/`after` constraints, ties broken by name, as mdBook 0.5
//! does. An external preprocessor is asked `COMMAND supports html` first (a non-zero exit skips
//! it), then gets `[context, book]` as JSON on standard input and answers with the book as JSON
//! on standard output. It runs in the book root, for at most `[nimbook] preprocessor-seconds`
//! (60 by default). A failure, a time-out or invalid JSON is fatal and names the preprocessor;
//! nothing is written.
//!
//! Claims are checked in the text the chain produced, so a preprocessor can generate them. Each
//! chapter keeps a [`SourceMap`] through the chain: an external preprocessor's answer is
//! compared with what it was given, line by line (a diff), so unchanged lines keep their exact
//! origin and changed ones point at the lines they replaced. A diagnostic therefore points into
//! the file the author wrote, even after a preprocessor has moved its line.

mod process;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::diag::{Code, Diagnostic, SourceFile};
use crate::site::load::book::Chapter;
use crate::site::load::config::{Config, PreprocessorTable};
use crate::site::load::sourcemap::SourceMap;
use crate::site::load::Fatal;
use process::{ask_support, call, external};

/// The mdBook version whose interface this stage speaks.
pub(super) const MDBOOK_VERSION: &str = "0.5.4";

/// A chapter's text as the checker reads it, and where it came from.
pub(crate) struct Source {
    /// The text after every preprocessor, named as the chapter's file.
    pub file: Arc<SourceFile>,
    /// Where each byte of `file` came from.
    pub map: SourceMap,
    /// Include errors, located in the files the author wrote.
    pub diagnostics: Vec<Diagnostic>,
}

/// One chapter moving through the chain.
struct Entry {
    chapter: Chapter,
    name: String,
    text: String,
    map: SourceMap,
    diagnostics: Vec<Diagnostic>,
}

/// One step of the chain.
enum Step<'a> {
    Links,
    Index,
    External(&'a str, &'a PreprocessorTable),
}

/// The names of the preprocessors to run, in mdBook's order.
fn order(config: &Config) -> Result<Vec<String>, Fatal> {
    let mut names: BTreeSet<String> = config.preprocessor.keys().cloned().collect();
    if config.build.use_default_preprocessors != Some(false) {
        names.insert("links".into());
        names.insert("index".into());
    }
    // Edges a → b: a runs before b.
    let mut after: BTreeMap<&str, BTreeSet<&str>> = names
        .iter()
        .map(|n| (n.as_str(), BTreeSet::new()))
        .collect();
    for (name, table) in &config.preprocessor {
        for (first, then, list) in table
            .before
            .iter()
            .map(|b| (name.as_str(), b.as_str(), "before"))
            .chain(
                table
                    .after
                    .iter()
                    .map(|a| (a.as_str(), name.as_str(), "after")),
            )
        {
            let other = if first == name { then } else { first };
            if !names.contains(other) {
                return Err(Box::new(
                    Diagnostic::error(Code::PreprocessorError, format!(
                        "preprocessor `{name}` is set to run {list} `{other}`, which is not configured"
                    ))
                    .help(format!("add a [preprocessor.{other}] table or remove it from `{list}`")),
                ));
            }
            after.entry(then).or_default().insert(first);
        }
    }
    let mut done: Vec<String> = Vec::new();
    let mut left: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    while !left.is_empty() {
        let ready = left
            .iter()
            .find(|n| {
                after
                    .get(*n)
                    .is_none_or(|deps| deps.iter().all(|d| !left.contains(d)))
            })
            .copied();
        let Some(next) = ready else {
            let cycle = left.iter().copied().collect::<Vec<_>>().join(", ");
            return Err(Box::new(Diagnostic::error(
                Code::PreprocessorError,
                format!(
                    "the `before`/`after` settings of the preprocessors form a cycle among {cycle}"
                ),
            )));
        };
        left.remove(next);
        done.push(next.to_string());
    }
    Ok(done)
}

/// The book after the chain.
pub(super) struct Prepared {
    /// The chapters as the last preprocessor left them.
    pub chapters: Vec<Chapter>,
    /// Each chapter's text, by source path.
    pub sources: HashMap<PathBuf, Source>,
    /// Optional preprocessors that are missing.
    pub warnings: Vec<Diagnostic>,
}

/// Reads every chapter (through the book's confined reader) and runs the chain.
pub(super) fn run(
    files: &crate::site::load::confine::Reader,
    config: &Config,
    src: &Path,
    chapters: Vec<Chapter>,
) -> Result<Prepared, Fatal> {
    let root = files.root();
    let (mut entries, mut unreadable) = read(files, src, chapters);
    let mut warnings = Vec::new();
    let mut indexed = false;
    let limit = Duration::from_secs(
        config
            .nimbook
            .as_ref()
            .and_then(|n| n.preprocessor_seconds)
            .unwrap_or(crate::site::load::config::DEFAULT_PREPROCESSOR_SECONDS),
    );
    let order = order(config)?;
    let answers = ask_support(root, config, &order, limit)?;
    for name in order {
        let step = match (name.as_str(), config.preprocessor.get(&name)) {
            ("links", t) if t.is_none_or(|t| t.command.is_none()) => Step::Links,
            ("index", t) if t.is_none_or(|t| t.command.is_none()) => Step::Index,
            (_, Some(t)) => Step::External(&name, t),
            _ => continue,
        };
        match step {
            Step::Links => links(files, src, &mut entries),
            Step::Index => indexed = true,
            Step::External(name, table) => {
                let Some(command) = external(name, table, &answers, &mut warnings) else {
                    continue;
                };
                let input = json!([context(root, config), to_json(&entries, indexed)]);
                let answer = call(root, &command, name, &input.to_string(), limit)?;
                entries = from_json(name, &answer, entries)?;
            }
        }
    }
    let mut chapters = Vec::with_capacity(entries.len());
    let mut sources = HashMap::new();
    for e in entries {
        if let Some(p) = &e.chapter.path {
            let source = match unreadable.remove(p) {
                Some(d) => Source {
                    file: SourceFile::new(e.name, String::new()),
                    map: SourceMap::new(),
                    diagnostics: vec![d],
                },
                None => {
                    let file = SourceFile::new(e.name, e.text);
                    let map = if e.map.is_identity() {
                        SourceMap::identity(&file)
                    } else {
                        e.map
                    };
                    Source {
                        file,
                        map,
                        diagnostics: e.diagnostics,
                    }
                }
            };
            sources.insert(p.clone(), source);
        }
        chapters.push(e.chapter);
    }
    Ok(Prepared {
        chapters,
        sources,
        warnings,
    })
}

/// Reads every chapter with a file: the entries the chain works on, and the files that could
/// not be read, with why.
fn read(
    files: &crate::site::load::confine::Reader,
    src: &Path,
    chapters: Vec<Chapter>,
) -> (Vec<Entry>, HashMap<PathBuf, Diagnostic>) {
    let mut entries = Vec::with_capacity(chapters.len());
    let mut unreadable = HashMap::new();
    for chapter in chapters {
        let (name, text, map) = match &chapter.path {
            Some(p) => match files.source(&src.join(p), Code::IoError) {
                Ok(file) => (
                    file.name.clone(),
                    file.text.clone(),
                    SourceMap::identity(&file),
                ),
                Err(d) => {
                    unreadable.insert(p.clone(), d);
                    (String::new(), String::new(), SourceMap::new())
                }
            },
            None => (String::new(), String::new(), SourceMap::new()),
        };
        entries.push(Entry {
            chapter,
            name,
            text,
            map,
            diagnostics: Vec::new(),
        });
    }
    (entries, unreadable)
}

/// The `links` preprocessor: includes expanded in every chapter, in parallel.
fn links(files: &crate::site::load::confine::Reader, src: &Path, entries: &mut [Entry]) {
    use rayon::prelude::*;
    entries.par_iter_mut().for_each(|e| {
        let Some(p) = &e.chapter.path else { return };
        if !e.text.contains("{{") {
            return;
        }
        let dir = src
            .join(p)
            .parent()
            .map_or_else(|| src.to_path_buf(), Path::to_path_buf);
        let x = crate::site::load::include::expand(files, &e.text, &e.map, &dir);
        e.text = x.text;
        e.map = x.map;
        e.diagnostics.extend(x.diagnostics);
        if x.title.is_some() {
            e.chapter.page_title = x.title;
        }
    });
}

/// The context mdBook gives a preprocessor.
fn context(root: &Path, config: &Config) -> Value {
    let table: toml::Table = config.text.parse().unwrap_or_default();
    let mut config_json = serde_json::to_value(&table).unwrap_or(Value::Null);
    if let Some(book) = config_json.get_mut("book").and_then(Value::as_object_mut) {
        book.entry("authors").or_insert(json!([]));
        book.entry("language")
            .or_insert(json!(config.book.language));
        book.entry("src").or_insert(json!("src"));
    }
    let root = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    json!({
        "root": root,
        "config": config_json,
        "renderer": "html",
        "mdbook_version": MDBOOK_VERSION,
    })
}

/// The book as mdBook serialises it: items nested by depth, with part titles and separators.
/// Both the 0.5 name (`items`) and the 0.4 name (`sections`) are filled, so preprocessors
/// built against either version read it.
fn to_json(entries: &[Entry], indexed: bool) -> Value {
    // A stack of (depth, items) being filled; each closed level becomes its parent's sub_items.
    let mut stack: Vec<(usize, Vec<Value>, Vec<String>)> = vec![(0, Vec::new(), Vec::new())];
    let close = |stack: &mut Vec<(usize, Vec<Value>, Vec<String>)>| {
        if let Some((_, items, _)) = stack.pop() {
            if let Some(parent) = stack.last_mut().and_then(|(_, v, _)| v.last_mut()) {
                parent["Chapter"]["sub_items"] = Value::Array(items);
            }
        }
    };
    for e in entries {
        let c = &e.chapter;
        while stack.len() > 1 && stack.last().is_some_and(|(d, _, _)| *d > c.depth) {
            close(&mut stack);
        }
        if c.depth + 1 > stack.len() {
            let parents = stack
                .last()
                .map(|(_, v, names)| {
                    let mut n = names.clone();
                    if let Some(Value::String(s)) = v.last().map(|x| &x["Chapter"]["name"]) {
                        n.push(s.clone());
                    }
                    n
                })
                .unwrap_or_default();
            stack.push((c.depth, Vec::new(), parents));
        }
        let Some((_, items, parents)) = stack.last_mut() else {
            break;
        };
        if let Some(part) = &c.part {
            items.push(json!({ "PartTitle": part }));
        }
        if c.separator {
            items.push(json!("Separator"));
        }
        let number: Option<Vec<u64>> = c
            .number
            .as_ref()
            .map(|n| n.split('.').filter_map(|x| x.parse().ok()).collect());
        let path = c.path.as_ref().map(|p| {
            let p = crate::site::html::url_path(p);
            if indexed
                && p.rsplit('/')
                    .next()
                    .is_some_and(|f| f.eq_ignore_ascii_case("readme.md"))
            {
                format!("{}index.md", &p[..p.len() - "readme.md".len()])
            } else {
                p
            }
        });
        items.push(json!({ "Chapter": {
            "name": c.title,
            "content": e.text,
            "number": number,
            "sub_items": [],
            "path": path,
            "source_path": c.path.as_ref().map(|p| crate::site::html::url_path(p)),
            "parent_names": parents,
        }}));
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    let items = stack.pop().map(|(_, v, _)| v).unwrap_or_default();
    json!({ "items": items, "sections": items, "__non_exhaustive": null })
}

/// The error for an answer of preprocessor `name` that is not a book, and why.
fn not_a_book(name: &str, why: impl Into<String>) -> Fatal {
    Box::new(
        Diagnostic::error(
            Code::PreprocessorError,
            format!("preprocessor `{name}` did not answer with a book"),
        )
        .note(why)
        .help("a preprocessor writes the book, as JSON, to standard output and nothing else"),
    )
}

/// Reads a preprocessor's answer back into entries, mapping each chapter's new text to the
/// one it was given.
fn from_json(name: &str, answer: &str, before: Vec<Entry>) -> Result<Vec<Entry>, Fatal> {
    let value: Value =
        serde_json::from_str(answer).map_err(|e| not_a_book(name, format!("invalid JSON: {e}")))?;
    let items = value
        .get("items")
        .or_else(|| value.get("sections"))
        .and_then(Value::as_array)
        .ok_or_else(|| not_a_book(name, "the object has no `items` list"))?;
    let mut old: HashMap<String, Entry> = HashMap::new();
    let mut drafts: Vec<Entry> = Vec::new();
    for e in before {
        match &e.chapter.path {
            Some(p) => {
                old.insert(crate::site::html::url_path(p), e);
            }
            None => drafts.push(e),
        }
    }
    let mut out = Vec::new();
    let mut part = None;
    let mut separator = false;
    walk(
        name,
        items,
        0,
        &mut part,
        &mut separator,
        &mut old,
        &mut out,
    )?;
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn walk(
    name: &str,
    items: &[Value],
    depth: usize,
    part: &mut Option<String>,
    separator: &mut bool,
    old: &mut HashMap<String, Entry>,
    out: &mut Vec<Entry>,
) -> Result<(), Fatal> {
    for item in items {
        if item.as_str() == Some("Separator") {
            *separator = true;
            continue;
        }
        if let Some(p) = item.get("PartTitle").and_then(Value::as_str) {
            *part = Some(p.to_string());
            continue;
        }
        let Some(c) = item.get("Chapter") else {
            return Err(not_a_book(
                name,
                format!("an item is neither a chapter, a part title nor a separator: {item}"),
            ));
        };
        let title = c
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| not_a_book(name, "a chapter has no `name`"))?;
        let content = c
            .get("content")
            .and_then(Value::as_str)
            .ok_or_else(|| not_a_book(name, "a chapter has no `content`"))?;
        // Read as every source text is, so that the diff against the text it was given and the
        // chapter's source file count the same bytes.
        let content = &*crate::diag::text::normalize(content);
        let source = c
            .get("source_path")
            .and_then(Value::as_str)
            .or_else(|| c.get("path").and_then(Value::as_str));
        let number = c.get("number").and_then(Value::as_array).map(|n| {
            n.iter()
                .filter_map(Value::as_u64)
                .map(|x| format!("{x}."))
                .collect::<String>()
        });
        let previous = source.and_then(|s| old.remove(s));
        let entry = match previous {
            Some(prev) => {
                let map = if prev.text == content {
                    prev.map
                } else {
                    remap(&prev.text, &prev.map, content)
                };
                Entry {
                    chapter: Chapter {
                        title: title.to_string(),
                        number,
                        depth,
                        part: part.take(),
                        separator: std::mem::take(separator),
                        ..prev.chapter
                    },
                    name: prev.name,
                    text: content.to_string(),
                    map,
                    diagnostics: prev.diagnostics,
                }
            }
            None => {
                // A chapter the preprocessor made up: its text is its own source.
                let path = source.map(PathBuf::from);
                let shown = format!("(preprocessor {name}) {}", source.unwrap_or(title));
                let file = SourceFile::new(shown.clone(), content);
                Entry {
                    chapter: Chapter {
                        title: title.to_string(),
                        path,
                        depth,
                        number,
                        part: part.take(),
                        separator: std::mem::take(separator),
                        page_title: None,
                    },
                    name: shown,
                    text: content.to_string(),
                    map: SourceMap::identity(&file),
                    diagnostics: Vec::new(),
                }
            }
        };
        out.push(entry);
        if let Some(sub) = c.get("sub_items").and_then(Value::as_array) {
            walk(name, sub, depth + 1, part, separator, old, out)?;
        }
    }
    Ok(())
}

/// The map of `new`, a preprocessor's rewrite of `old` (mapped by `map`): lines it kept map
/// where they came from, lines it changed map to the lines they replaced.
pub(super) fn remap(old: &str, map: &SourceMap, new: &str) -> SourceMap {
    use similar::{Algorithm, DiffOp, TextDiff};
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .timeout(Duration::from_secs(1))
        .diff_lines(old, new);
    // Byte offsets of the line starts in both texts.
    let starts = |s: &str| {
        let mut v = vec![0];
        v.extend(s.match_indices('\n').map(|(i, _)| i + 1));
        if v.last() != Some(&s.len()) {
            v.push(s.len());
        }
        v
    };
    let (os, ns) = (starts(old), starts(new));
    let at = |v: &Vec<usize>, i: usize| {
        v.get(i)
            .copied()
            .unwrap_or_else(|| v.last().copied().unwrap_or(0))
    };
    let mut out = SourceMap::new();
    for op in diff.ops() {
        match *op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                let _ = new_index;
                out.copy(map, at(&os, old_index)..at(&os, old_index + len));
            }
            DiffOp::Delete { .. } => {}
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => {
                let o = at(&os, old_index);
                // New lines stand for the line before them (where the preprocessor put them).
                let from = if o > 0 {
                    os.iter().rev().find(|&&s| s < o).copied().unwrap_or(0)
                } else {
                    0
                };
                out.replaced(
                    map,
                    from..o.max(from),
                    at(&ns, new_index + new_len) - at(&ns, new_index),
                );
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                out.replaced(
                    map,
                    at(&os, old_index)..at(&os, old_index + old_len),
                    at(&ns, new_index + new_len) - at(&ns, new_index),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
