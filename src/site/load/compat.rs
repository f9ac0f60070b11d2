//! What nimbook does with each key of mdBook 0.5's `book.toml`.
//!
//! A teacher moving a course from mdBook should learn from the first build which settings
//! carry over. So every key mdBook 0.5 documents is listed here once, with what nimbook does
//! with it: it works, or it is accepted and a warning names it and says why it has no effect.
//! The README's table of keys is this list in prose. Keys nimbook and mdBook both do not know are
//! still errors (`[book]`, `[build]` and `[nimbook]` reject them while they are read).

use std::path::Path;
use std::sync::Arc;

use crate::diag::{Code, Diagnostic, SourceFile};

/// What happens to one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Support {
    /// nimbook acts on it.
    Works,
    /// nimbook acts on it, except for the value given, which it ignores with this reason.
    WorksUnless(&'static str, &'static str),
    /// Accepted and ignored, for this reason (said in the warning).
    Ignored(&'static str),
}

const NO_THEME: &str =
    "mdBook's Handlebars theme is not used; nimbook's templates are Tera files, overridden from the book's `templates/` folder";

/// Every key of mdBook 0.5's `book.toml` that nimbook acts on, as a dotted path. `*` stands
/// for any one name (a preprocessor), `**` for any name with dots (a redirect source).
const WORKS: &[&str] = &[
    "book.title",
    "book.authors",
    "book.description",
    "book.src",
    "book.language",
    "build.build-dir",
    "build.use-default-preprocessors",
    "build.extra-watch-dirs",
    "rust.edition",
    "preprocessor.links",
    "preprocessor.index",
    "preprocessor.*",
    "preprocessor.*.command",
    "preprocessor.*.renderers",
    "preprocessor.*.before",
    "preprocessor.*.after",
    "preprocessor.*.optional",
    "output.*",
    "output.html",
    "output.html.smart-punctuation",
    "output.html.curly-quotes",
    "output.html.definition-lists",
    "output.html.admonitions",
    "output.html.mathjax-support",
    "output.html.additional-css",
    "output.html.additional-js",
    "output.html.no-section-label",
    "output.html.input-404",
    "output.html.site-url",
    "output.html.cname",
    "output.html.print",
    "output.html.print.enable",
    "output.html.print.page-break",
    "output.html.fold",
    "output.html.fold.enable",
    "output.html.fold.level",
    "output.html.code",
    "output.html.code.hidelines",
    "output.html.code.hidelines.**",
    "output.html.search",
    "output.html.search.enable",
    "output.html.search.limit-results",
    "output.html.search.boost-title",
    "output.html.search.boost-hierarchy",
    "output.html.search.boost-paragraph",
    "output.html.search.heading-split-level",
    "output.html.search.chapter",
    "output.html.search.chapter.**",
    "output.html.redirect",
    "output.html.redirect.**",
    "output.html.search.use-boolean-and",
    "output.html.search.expand",
    "output.html.git-repository-url",
    "output.html.edit-url-template",
    "output.html.default-theme",
    "output.html.preferred-dark-theme",
    "output.html.playground",
    "output.html.playground.runnable",
    "output.html.playground.editable",
    "output.html.playground.copyable",
    "output.html.playpen",
    "output.html.playpen.editable",
    "output.pdf",
    "output.pdf.file",
];

/// The other keys of mdBook 0.5's `book.toml`, grouped by what nimbook does with them; looked
/// up after [`WORKS`].
const PARTLY: &[(&[&str], Support)] = &[
    (
        &["book.text-direction"],
        Support::WorksUnless("rtl", "pages are laid out left to right"),
    ),
    (
        &["book.multilingual"],
        Support::Ignored("mdBook 0.5 rejects this old key; nimbook accepts it and does nothing with it"),
    ),

    (
        &["build.create-missing"],
        Support::WorksUnless(
            "true",
            "nimbook never writes into the sources: a chapter file that SUMMARY.md names and that does not exist is an error",
        ),
    ),

    (&["output.html.theme"], Support::Ignored(NO_THEME)),

    (
        &["output.html.copy-fonts"],
        Support::Ignored("nimbook writes only the math font its pages use"),
    ),
    (
        &["output.html.git-repository-icon"],
        Support::Ignored("the repository link shows nimbook's own icon, not Font Awesome's"),
    ),
    (
        &["output.html.live-reload-endpoint"],
        Support::Ignored("`nimbook serve` has its own reload channel"),
    ),
    (
        &["output.html.hash-files"],
        Support::Ignored("nimbook's asset names are fixed; it does not add content hashes to them"),
    ),
    (
        &["output.html.sidebar-header-nav"],
        Support::Ignored("nimbook's pages list their headings beside the text, not in the sidebar"),
    ),
    (
        &[
            "output.html.playground.copy-js",
            "output.html.playground.line-numbers",
            "output.html.playpen.line-numbers",
        ],
        Support::Ignored(
            "nimbook edits code in the page itself, without mdBook's Ace editor and its line numbers",
        ),
    ),
    (
        &[
            "output.html.search.teaser-word-count",
            "output.html.search.copy-js",
        ],
        Support::Ignored("nimbook's search shows its own snippets, from its own script"),
    ),
    (
        &["output.html.search.use-boolean-and"],
        Support::Ignored("nimbook's search always lists only sections with every term"),
    ),
    (
        &["output.pdf.*"],
        Support::Ignored(
            "nimbook typesets its own PDF with Typst; the settings of mdBook's `mdbook-pdf` renderer (headless Chrome) do not apply",
        ),
    ),
    (
        &["output.*"],
        Support::Ignored("nimbook writes HTML (and with `[output.pdf]` a PDF) only; other mdBook renderers are not run"),
    ),
];

/// Every key of mdBook 0.5's `book.toml` with what nimbook does with it: the keys it acts on,
/// then the others, as this file lists them (`*` stands for any name, `**` for any path).
pub(crate) fn keys() -> impl Iterator<Item = (&'static str, Support)> {
    WORKS.iter().map(|&k| (k, Support::Works)).chain(
        PARTLY
            .iter()
            .flat_map(|&(keys, support)| keys.iter().map(move |&k| (k, support))),
    )
}

/// What nimbook does with the key at `path` (dotted), or `None` if mdBook 0.5 has no such key.
pub(crate) fn support(path: &str) -> Option<Support> {
    if WORKS.iter().any(|k| matches(k, path)) {
        return Some(Support::Works);
    }
    PARTLY
        .iter()
        .find(|(keys, _)| keys.iter().any(|k| matches(k, path)))
        .map(|&(_, s)| s)
}

fn matches(pattern: &str, path: &str) -> bool {
    // `**` is any name, dots included (a redirect's source path holds dots of its own).
    if let Some(table) = pattern.strip_suffix(".**") {
        return path
            .strip_prefix(table)
            .is_some_and(|rest| rest.starts_with('.') && rest.len() > 1);
    }
    let p: Vec<&str> = pattern.split('.').collect();
    let k: Vec<&str> = path.split('.').collect();
    p.len() == k.len() && p.iter().zip(&k).all(|(a, b)| *a == "*" || a == b)
}

/// The warnings for `book.toml` (text `text`, shown as `name`): one for every key that nimbook
/// accepts and ignores, one for every `[output.html]` key that mdBook 0.5 does not know, and one
/// for every `theme/*.hbs` file of the book.
pub(crate) fn warnings(root: &Path, text: &str, name: &str) -> Vec<Diagnostic> {
    let mut out = key_warnings(text, name);
    let theme = root.join("theme");
    if let Ok(entries) = std::fs::read_dir(&theme) {
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            // `head.hbs` is used: its HTML goes into every page's head (`super::theme`).
            .filter(|n| n.ends_with(".hbs") && n != "head.hbs")
            .collect();
        names.sort();
        for n in names {
            out.push(
                Diagnostic::warning(Code::IgnoredSetting, format!("theme/{n} is not used"))
                    .note(NO_THEME)
                    .help("to change the page layout, override the templates in `templates/`"),
            );
        }
    }
    out
}

/// The warnings for the keys of `book.toml` (text `text`, shown as `name`) that nimbook accepts
/// and ignores, or that mdBook 0.5 does not know under `[output.html]`; reads no file.
pub(crate) fn key_warnings(text: &str, name: &str) -> Vec<Diagnostic> {
    let Ok(table) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let file = SourceFile::new(name, text);
    let mut out = Vec::new();
    let places = Places::of(&file.text);
    walk(&table, "", (&file, &places), &mut out);
    out
}

fn walk(
    table: &toml::Table,
    prefix: &str,
    (file, places): (&Arc<SourceFile>, &Places),
    out: &mut Vec<Diagnostic>,
) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        // `[nimbook]`, `[book]` and `[build]` are checked strictly when they are read; the
        // settings of a custom preprocessor or of a renderer other than HTML belong to it.
        let renderers_own = prefix.starts_with("output.") && !path.starts_with("output.html.");
        if path == "nimbook"
            || (path.starts_with("preprocessor.") && prefix.contains('.'))
            || renderers_own
        {
            continue;
        }
        // Every finding here is a warning at the key, with a note that says why.
        let warn = |message: String, why: &str| {
            Diagnostic::warning(Code::IgnoredSetting, message)
                .at(file, places.locate(&path))
                .note(why)
        };
        match support(&path) {
            Some(Support::Works) => {}
            Some(Support::WorksUnless(bad, why)) if value.to_string().trim_matches('"') == bad => {
                out.push(warn(
                    format!("`{path} = {value}` has no effect in nimbook"),
                    why,
                ));
            }
            Some(Support::WorksUnless(..)) => {}
            Some(Support::Ignored(why)) => {
                out.push(warn(format!("`{path}` is ignored by nimbook"), why));
                continue;
            }
            None if path.starts_with("output.html.") => {
                out.push(warn(
                    format!("`{path}` is not a key of mdBook 0.5"),
                    "nimbook ignores it",
                ));
                continue;
            }
            None => {}
        }
        if let toml::Value::Table(t) = value {
            walk(t, &path, (file, places), out);
        }
    }
}

/// Where each table and key of a `book.toml` is written, found in one pass over its lines, so
/// that locating every key of a large file is linear in its length.
struct Places {
    /// Each table header `[path]`, by its text between the brackets: the first one written.
    headers: std::collections::HashMap<String, std::ops::Range<usize>>,
    /// Each `key =` line (`key` bare or quoted) under a header: by `table.key` (`key` before
    /// any header), the first one written.
    keys: std::collections::HashMap<String, std::ops::Range<usize>>,
}

impl Places {
    fn of(text: &str) -> Self {
        let mut places = Places {
            headers: std::collections::HashMap::new(),
            keys: std::collections::HashMap::new(),
        };
        let mut table = String::new();
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let indent = line.len() - line.trim_start().len();
            let trimmed = line.trim();
            let start = offset + indent;
            offset += line.len();
            if let Some(inner) = trimmed.strip_prefix('[').filter(|t| !t.starts_with('[')) {
                if let Some(close) = inner.find(']') {
                    table = inner[..close].to_string();
                    let header = start..start + close + 2;
                    places.headers.entry(table.clone()).or_insert(header);
                }
                continue;
            }
            let Some((key, _)) = trimmed.split_once('=') else {
                continue;
            };
            let written = key.trim_end();
            let key = written.trim_matches('"');
            let at = start + usize::from(written.starts_with('"'));
            let path = if table.is_empty() {
                key.to_string()
            } else {
                format!("{table}.{key}")
            };
            places.keys.entry(path).or_insert(at..at + key.len());
        }
        places
    }

    /// Where the key at a dotted `path` is written: its `key =` line under its table header,
    /// or the header `[path]` itself; the start of the file if neither is found.
    fn locate(&self, path: &str) -> std::ops::Range<usize> {
        self.headers
            .get(path)
            .or_else(|| self.keys.get(path))
            .cloned()
            .unwrap_or(0..0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_of_the_two_shared_books_is_known() {
        for k in [
            "output.html.smart-punctuation",
            "output.html.playground.editable",
            "output.html.code.hidelines.python",
            "output.html.redirect./format/config.html",
            "output.html.fold.enable",
            "preprocessor.gettext",
            "output.html.playpen.line-numbers",
        ] {
            assert!(support(k).is_some(), "{k}");
        }
        assert_eq!(support("output.html.colour"), None);
    }

    #[test]
    fn keys_are_found_under_their_own_table() {
        let text = "top = 1\n[a]\nx = 1\n\"q\" = 2\nd.e = 3\n[b]\nx = 4\n";
        let places = Places::of(text);
        let at = |path: &str| {
            let r = places.locate(path);
            (text[..r.start].matches('\n').count(), &text[r])
        };
        assert_eq!(at("top"), (0, "top"));
        assert_eq!(at("a"), (1, "[a]"));
        assert_eq!(at("a.x"), (2, "x"));
        assert_eq!(at("a.q"), (3, "q"));
        assert_eq!(at("a.d.e"), (4, "d.e"));
        assert_eq!(at("b.x"), (6, "x"));
        assert_eq!(places.locate("c.x"), 0..0);
    }

    #[test]
    fn ignored_keys_warn_at_their_line() {
        let text = "[book]\ntitle = \"t\"\n[output.html]\ngit-repository-icon = \"x\"\nmathjax-support = true\n[output.html.fold]\nenable = true\n[output.html.playground]\nline-numbers = true\n";
        let w = warnings(Path::new("/nonexistent"), text, "book.toml");
        let got: Vec<_> = w
            .iter()
            .map(|d| (d.message.clone(), d.position().map(|p| p.1)))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "`output.html.git-repository-icon` is ignored by nimbook".to_string(),
                    Some(4)
                ),
                (
                    "`output.html.playground.line-numbers` is ignored by nimbook".to_string(),
                    Some(9)
                ),
            ]
        );
    }
}
