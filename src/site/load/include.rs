//! mdBook's links preprocessor: `{{#include}}`, `{{#rustdoc_include}}`, `{{#playground}}` and
//! `{{#title}}`, expanded the way mdBook expands them.
//!
//! The syntax is mdBook's: `{{#include path}}`, `{{#include path:anchor}}`, or a 1-based line
//! range `path:5`, `path:5:`, `path::9`, `path:5:9`. An anchor's lines are those between
//! `ANCHOR: name` and `ANCHOR_END: name`, without any anchor lines; a line range copies the
//! lines as they are (mdBook 0.5.4 does the same, checked against it). `rustdoc_include` keeps the whole file but hides the lines
//! outside the range with `# `, and `playground` wraps the file in a `rust` fence with its
//! attributes. `\{{#include …}}` is written as it is, without the backslash. An include is
//! expanded again relative to its own file, up to mdBook's depth of 10.
//!
//! Like mdBook, this is text substitution: a link inside a code block is expanded too. A file
//! that cannot be included (missing, outside the book's boundary, not a regular file), a missing
//! anchor and a cycle are located diagnostics rather than log lines: errors in a nimbook book,
//! warnings in an mdBook book, where the text is left as mdBook leaves it (the link as written
//! for a file it cannot read, nothing for a missing anchor or a cycle), because mdBook reports
//! and skips them. A file longer than `max-lesson-bytes` is an error in every book: that bound
//! is nimbook's. The expanded text carries a [`SourceMap`], so a claim that came from an
//! included file is reported at its line in that file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::confine::Reader;
use super::sourcemap::SourceMap;
use crate::diag::{Code, Diagnostic, Level, SourceFile};

/// mdBook's limit on nested includes.
pub(crate) const MAX_DEPTH: usize = 10;

/// A chapter's text with its links expanded.
pub(crate) struct Expanded {
    /// The text.
    pub text: String,
    /// Where each byte of it came from.
    pub map: SourceMap,
    /// The page title set by `{{#title …}}`, if any.
    pub title: Option<String>,
    /// Missing files and anchors, and includes nested too deep.
    pub diagnostics: Vec<Diagnostic>,
}

/// Expands the links of `text` (mapped by `map`), a file in the folder `dir`. Every file is
/// read through `files`, the book's confined reader: only regular files inside the book's
/// boundary or `include-roots`, each at most `max-lesson-bytes` long, which also bounds the
/// expanded chapter. `faults` is the level of an include that cannot be done
/// ([`crate::site::load::config::Config::include_faults`]).
pub(crate) fn expand(
    files: &Reader,
    text: &str,
    map: &SourceMap,
    dir: &Path,
    faults: Level,
) -> Expanded {
    let mut out = Expanded {
        text: String::with_capacity(text.len()),
        map: SourceMap::new(),
        title: None,
        diagnostics: Vec::new(),
    };
    expand_into(files, text, map, (dir, faults), 0, &mut out);
    out
}

/// One `{{#…}}` link found in a text.
struct Link<'a> {
    /// Its byte range in the text.
    span: std::ops::Range<usize>,
    kind: LinkKind<'a>,
}

enum LinkKind<'a> {
    /// `\{{#…}}`: the text without its backslash.
    Escaped,
    /// `{{#title …}}`.
    Title(&'a str),
    /// `{{#include …}}`, `{{#rustdoc_include …}}`, `{{#playground …}}`.
    File {
        kind: FileKind,
        path: &'a str,
        part: Part<'a>,
        attrs: Vec<&'a str>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FileKind {
    Include,
    RustdocInclude,
    Playground,
}

/// Which lines of a file: a 0-based half-open range, or the lines of an anchor.
enum Part<'a> {
    Lines(usize, Option<usize>),
    Anchor(&'a str),
}

/// Why an include was not done: the diagnostic (without a place), and what mdBook puts in the
/// link's place, when it goes on (`None`: the link as written).
struct Missed {
    diagnostic: Diagnostic,
    mdbook_text: Option<String>,
}

/// The text a `{{#include …}}` brings in, its map and the folder its own includes are
/// relative to; or why it cannot.
fn include_file(
    files: &Reader,
    dir: &Path,
    path: &str,
    kind: FileKind,
    part: &Part<'_>,
    attrs: &[&str],
) -> Result<(String, SourceMap, Option<PathBuf>), Missed> {
    let target = dir.join(path);
    let unread = |diagnostic| Missed {
        diagnostic,
        mdbook_text: None,
    };
    // Through the book's confined reader: inside the book's boundary or `include-roots`, a
    // regular file, at most `max-lesson-bytes`.
    match files.source(&target, Code::IncludeError) {
        Err(_) if target.symlink_metadata().is_err() => Err(unread(
            Diagnostic::error(
                Code::IncludeError,
                format!("cannot include {path}: no such file"),
            )
            .label(format!("{} does not exist", files.name(&target)))
            .help("paths are relative to the folder of the file that includes them"),
        )),
        Err(d) => Err(unread(d.label(format!("`{path}` is named here")))),
        Ok(file) => match select(&file, kind, part, attrs) {
            Ok((t, m)) => Ok((t, m, target.parent().map(Path::to_path_buf))),
            // mdBook includes nothing for an anchor it does not find.
            Err(anchor) => Err(Missed {
                diagnostic: Diagnostic::error(
                    Code::IncludeError,
                    format!("cannot include {path}: it has no anchor `{anchor}`"),
                )
                .label("no `ANCHOR: name` line with this name")
                .help(format!(
                    "mark the lines with `ANCHOR: {anchor}` and `ANCHOR_END: {anchor}` comments"
                )),
                mdbook_text: Some(String::new()),
            }),
        },
    }
}

fn expand_into(
    files: &Reader,
    text: &str,
    map: &SourceMap,
    (dir, faults): (&Path, Level),
    depth: usize,
    out: &mut Expanded,
) {
    let max_bytes = files.max_bytes();
    let mut done = 0;
    let mut from = 0;
    while let Some(link) = next_link(text, from) {
        from = link.span.end;
        let here = || map.locate(link.span.clone());
        let located = |d: Diagnostic| match here() {
            Some((file, span)) => d.at(&file, span),
            None => d,
        };
        let replacement: Option<(String, SourceMap, Option<PathBuf>)> = match &link.kind {
            LinkKind::Escaped => {
                copy(out, text, map, done..link.span.start);
                done = link.span.start + 1;
                continue;
            }
            LinkKind::Title(title) => {
                out.title = Some(title.trim().to_string());
                Some((String::new(), SourceMap::new(), None))
            }
            LinkKind::File {
                kind,
                path,
                part,
                attrs,
            } => match include_file(files, dir, path, *kind, part, attrs) {
                Ok(included) => Some(included),
                Err(missed) => {
                    let mut d = missed.diagnostic;
                    d.level = faults;
                    out.diagnostics.push(located(d));
                    // In an mdBook book the text is what mdBook makes of it; in a nimbook book
                    // the error fails the build, and the link stays as written meanwhile.
                    match missed.mdbook_text {
                        Some(t) if faults == Level::Warning => Some((t, SourceMap::new(), None)),
                        _ => None,
                    }
                }
            },
        };
        let Some((new_text, new_map, new_dir)) = replacement else {
            continue;
        };
        copy(out, text, map, done..link.span.start);
        done = link.span.end;
        let grown = (out.text.len() + new_text.len()) as u64;
        match new_dir {
            _ if grown > max_bytes => {
                out.diagnostics.push(located(
                    Diagnostic::error(
                        Code::IncludeError,
                        format!("the chapter grows past {max_bytes} bytes with its includes"),
                    )
                    .label("this include is the one too many")
                    .help("raise `max-lesson-bytes` in the [nimbook] table of book.toml, or include less"),
                ));
            }
            Some(_) if depth >= MAX_DEPTH => {
                out.diagnostics.push(located(
                    Diagnostic::new(faults, Code::IncludeError, format!(
                        "includes nested more than {MAX_DEPTH} deep"
                    ))
                    .label("this include is the one too many")
                    .note("mdBook stops at the same depth; this is usually a file that includes itself"),
                ));
            }
            Some(d) => expand_into(files, &new_text, &new_map, (&d, faults), depth + 1, out),
            None => {
                out.map.copy(&new_map, 0..new_text.len());
                out.text.push_str(&new_text);
            }
        }
    }
    copy(out, text, map, done..text.len());
}

fn copy(out: &mut Expanded, text: &str, map: &SourceMap, range: std::ops::Range<usize>) {
    if range.is_empty() {
        return;
    }
    out.map.copy(map, range.clone());
    out.text.push_str(&text[range]);
}

/// The first link at or after `from`.
fn next_link(text: &str, mut from: usize) -> Option<Link<'_>> {
    let bytes = text.as_bytes();
    while let Some(i) = text[from..].find("{{").map(|i| i + from) {
        from = i + 2;
        if i > 0 && bytes[i - 1] == b'\\' && text[i + 2..].starts_with('#') {
            // mdBook's escape runs to the last `}}` of the line.
            let line_end = text[i..].find('\n').map_or(text.len(), |n| i + n);
            if let Some(close) = text[i..line_end].rfind("}}") {
                return Some(Link {
                    span: i - 1..i + close + 2,
                    kind: LinkKind::Escaped,
                });
            }
            continue;
        }
        let rest = &text[i + 2..];
        let after_ws = rest.trim_start();
        let Some(body) = after_ws.strip_prefix('#') else {
            continue;
        };
        let name_len = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        let name = &body[..name_len];
        let args = &body[name_len..];
        let trimmed = args.trim_start();
        if name.is_empty() || trimmed.len() == args.len() {
            continue;
        }
        let Some(arg_len) = trimmed.find('}') else {
            continue;
        };
        if arg_len == 0 || !trimmed[arg_len..].starts_with("}}") {
            continue;
        }
        let arg = &trimmed[..arg_len];
        let end = text.len() - trimmed.len() + arg_len + 2;
        let kind = match name {
            "title" => LinkKind::Title(arg),
            "include" | "rustdoc_include" | "playground" | "playpen" => {
                let (file_arg, props) = arg.split_once(' ').unwrap_or((arg, ""));
                let kind = match name {
                    "include" => FileKind::Include,
                    "rustdoc_include" => FileKind::RustdocInclude,
                    _ => FileKind::Playground,
                };
                let (path, part) = if kind == FileKind::Playground {
                    (file_arg, Part::Lines(0, None))
                } else {
                    let (p, spec) = file_arg
                        .split_once(':')
                        .map_or((file_arg, None), |(p, s)| (p, Some(s)));
                    (p, part(spec))
                };
                LinkKind::File {
                    kind,
                    path: path.trim(),
                    part,
                    attrs: props.split_whitespace().collect(),
                }
            }
            _ => continue,
        };
        return Some(Link { span: i..end, kind });
    }
    None
}

/// mdBook's reading of what follows the path: line numbers are 1-based and the end is inclusive;
/// anything that does not start with a number is an anchor.
fn part(spec: Option<&str>) -> Part<'_> {
    let Some(spec) = spec else {
        return Part::Lines(0, None);
    };
    let mut parts = spec.splitn(3, ':');
    let first = parts.next().unwrap_or("");
    let start = match first.parse::<usize>() {
        Ok(n) => Some(n.saturating_sub(1)),
        Err(_) if first.is_empty() => None,
        Err(_) => return Part::Anchor(first),
    };
    let end = parts.next().map(str::parse::<usize>);
    match (start, end) {
        (Some(s), Some(Ok(e))) => Part::Lines(s, Some(e)),
        (Some(s), Some(Err(_))) => Part::Lines(s, None),
        (Some(s), None) => Part::Lines(s, Some(s + 1)),
        (None, Some(Ok(e))) => Part::Lines(0, Some(e)),
        (None, _) => Part::Lines(0, None),
    }
}

fn is_anchor_start(line: &str) -> Option<&str> {
    anchor_name(line, "ANCHOR:")
}

fn is_anchor_end(line: &str) -> Option<&str> {
    anchor_name(line, "ANCHOR_END:")
}

/// The name after `marker` in a line (`// ANCHOR: name`), as mdBook's pattern reads it.
fn anchor_name<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let i = line.find(marker)?;
    let rest = line[i + marker.len()..].trim_start();
    let n = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    (n > 0).then(|| &rest[..n])
}

/// The chosen part of `file` as text and map: `Err(anchor)` if the anchor is missing.
fn select<'a>(
    file: &Arc<SourceFile>,
    kind: FileKind,
    part: &Part<'a>,
    attrs: &[&str],
) -> Result<(String, SourceMap), &'a str> {
    let text = file.text.as_str();
    // Every line with its offset, `\r\n` and `\n` removed as `str::lines` does.
    let mut lines = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        lines.push((offset, line));
        offset += raw.len();
    }
    // Which lines are kept, and whether each is shown (rustdoc_include hides the others).
    let mut keep: Vec<(usize, &str, bool)> = Vec::new();
    match part {
        Part::Lines(start, end) => {
            let end = end.unwrap_or(usize::MAX);
            // mdBook 0.5 keeps anchor lines in a line range; only an anchor's own
            // selection leaves them out.
            for (i, &(o, l)) in lines.iter().enumerate() {
                let inside = i >= *start && i < end;
                match kind {
                    FileKind::Playground => keep.push((o, l, true)),
                    FileKind::Include if inside => keep.push((o, l, true)),
                    FileKind::RustdocInclude => keep.push((o, l, inside)),
                    FileKind::Include => {}
                }
            }
        }
        Part::Anchor(name) => {
            let mut found = false;
            let mut inside = false;
            for &(o, l) in &lines {
                if inside {
                    if is_anchor_end(l) == Some(name) {
                        inside = false;
                        if kind == FileKind::Include {
                            break;
                        }
                    } else if is_anchor_start(l).is_none() && is_anchor_end(l).is_none() {
                        keep.push((o, l, true));
                    }
                } else if is_anchor_start(l) == Some(name) {
                    found = true;
                    inside = true;
                } else if kind == FileKind::RustdocInclude
                    && is_anchor_start(l).is_none()
                    && is_anchor_end(l).is_none()
                {
                    keep.push((o, l, false));
                }
            }
            if !found {
                return Err(name);
            }
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut map = SourceMap::new();
    let own = SourceMap::identity(file);
    if kind == FileKind::Playground {
        let fence = if attrs.is_empty() {
            "```rust\n".to_string()
        } else {
            format!("```rust,{}\n", attrs.join(","))
        };
        map.replaced(&own, 0..0, fence.len());
        out.push_str(&fence);
    }
    for (n, (o, l, shown)) in keep.iter().enumerate() {
        if n > 0 {
            map.replaced(&own, *o..*o, 1);
            out.push('\n');
        }
        if !shown {
            map.replaced(&own, *o..*o, 2);
            out.push_str("# ");
        }
        map.include(file, *o, l.len());
        out.push_str(l);
    }
    if kind == FileKind::Playground {
        map.replaced(&own, text.len()..text.len(), 5);
        out.push_str("\n```\n");
    }
    Ok((out, map))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::load::confine::Trust;

    fn run(page: &str, files: &[(&str, &str)]) -> (String, Vec<String>, Option<String>) {
        let dir = tempfile::tempdir().ok();
        let root = dir.as_ref().map_or(Path::new("."), |d| d.path());
        for (name, text) in files {
            let p = root.join(name);
            if let Some(parent) = p.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let _ = std::fs::write(p, text);
        }
        let file = SourceFile::new("page.md", page);
        let files = Reader::new(root, &[], 1 << 20, Trust::Trusted).expect("reader");
        let e = expand(
            &files,
            page,
            &SourceMap::identity(&file),
            root,
            Level::Error,
        );
        let diags = e
            .diagnostics
            .iter()
            .map(|d| {
                let (f, l, c) = d.position().unwrap_or_default();
                format!("{f}:{l}:{c}: {}", d.message)
            })
            .collect();
        (e.text, diags, e.title)
    }

    const CODE: &str =
        "fn main() {\n    // ANCHOR: body\n    let x = 1;\n    // ANCHOR_END: body\n}\n";

    #[test]
    fn whole_file_ranges_and_anchors() {
        let f = [("a.rs", CODE)];
        assert_eq!(run("{{#include a.rs}}", &f).0, CODE.trim_end());
        assert_eq!(
            run("{{#include a.rs:2:4}}", &f).0,
            "    // ANCHOR: body\n    let x = 1;\n    // ANCHOR_END: body"
        );
        assert_eq!(run("{{#include a.rs:body}}", &f).0, "    let x = 1;");
        assert_eq!(run("{{#include a.rs:3}}", &f).0, "    let x = 1;");
        assert_eq!(run("{{#include a.rs::1}}", &f).0, "fn main() {");
        assert_eq!(
            run("{{#include a.rs:3:}}", &f).0,
            "    let x = 1;\n    // ANCHOR_END: body\n}"
        );
        assert_eq!(
            run("{{#rustdoc_include a.rs:body}}", &f).0,
            "# fn main() {\n    let x = 1;\n# }"
        );
        assert_eq!(
            run(
                "x {{#playground a.rs editable}} y",
                &[("a.rs", "fn f() {}\n")]
            )
            .0,
            "x ```rust,editable\nfn f() {}\n```\n y"
        );
        assert_eq!(run("\\{{#include a.rs}}", &f).0, "{{#include a.rs}}");
        let (text, _, title) = run("{{#title The Title}}# H", &f);
        assert_eq!(
            (text.as_str(), title.as_deref()),
            ("# H", Some("The Title"))
        );
    }

    #[test]
    fn missing_file_and_anchor_are_located() {
        let f = [("a.rs", CODE)];
        let (_, d, _) = run("x\n  {{#include nope.rs}}", &f);
        assert_eq!(d, vec!["page.md:2:3: cannot include nope.rs: no such file"]);
        let (_, d, _) = run("{{#include a.rs:tail}}", &f);
        assert_eq!(
            d,
            vec!["page.md:1:1: cannot include a.rs: it has no anchor `tail`"]
        );
    }

    #[test]
    fn nested_includes_resolve_from_their_own_folder_and_stop_at_the_depth_limit() {
        let f = [
            ("sub/b.md", "B {{#include c.md}}"),
            ("sub/c.md", "C"),
            ("loop.md", "{{#include loop.md}}"),
        ];
        assert_eq!(run("{{#include sub/b.md}}", &f).0, "B C");
        let (_, d, _) = run("{{#include loop.md}}", &f);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].starts_with("loop.md:1:1: includes nested more than 10"),
            "{d:?}"
        );
    }

    #[test]
    fn a_claim_from_an_included_file_maps_to_that_file() {
        let dir = tempfile::tempdir().ok();
        let root = dir.as_ref().map_or(Path::new("."), |d| d.path());
        let _ = std::fs::write(root.join("c.txt"), "one\ntwo 6 * 13 = 14\n");
        let page = SourceFile::new("page.md", "# T\n{{#include c.txt:2}}\n");
        let files = Reader::new(root, &[], 1 << 20, Trust::Trusted).expect("reader");
        let e = expand(
            &files,
            &page.text,
            &SourceMap::identity(&page),
            root,
            Level::Error,
        );
        let at = e.text.find("6 * 13").unwrap_or(0);
        let (file, span) = e
            .map
            .locate(at..at + 6)
            .unwrap_or((Arc::clone(&page), 0..0));
        assert_eq!(file.name, "c.txt");
        assert_eq!(file.line_col(span.start), (2, 5));
    }
}
