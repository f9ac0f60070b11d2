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

const NO_PLAYGROUND: &str =
    "nimbook pages do not send code to the Rust playground; code blocks are highlighted at build time";
const NO_SEARCH_TUNING: &str =
    "nimbook's search matches whole terms in its own index and shows its own snippets";
const NO_SEARCH_AND: &str = "nimbook's search always lists only sections with every term";
const NO_THEME: &str =
    "mdBook's Handlebars theme is not used; nimbook's templates are Tera files, overridden from the book's `templates/` folder";
const NO_COLOUR_MENU: &str =
    "nimbook's pages follow the reader's light or dark system setting and have no theme menu";
const NO_REPO_LINK: &str = "nimbook's pages show no repository or edit link";

/// Every key of mdBook 0.5's `book.toml`, as a dotted path, with what nimbook does with it.
/// `*` stands for any one name (a preprocessor), `**` for any name with dots (a redirect source).
pub(crate) const KEYS: &[(&str, Support)] = &[
    ("book.title", Support::Works),
    ("book.authors", Support::Works),
    ("book.description", Support::Works),
    ("book.src", Support::Works),
    ("book.language", Support::Works),
    (
        "book.text-direction",
        Support::WorksUnless("rtl", "pages are laid out left to right"),
    ),
    (
        "book.multilingual",
        Support::Ignored("mdBook 0.5 rejects this old key; nimbook accepts it and does nothing with it"),
    ),
    (
        "rust.edition",
        Support::Ignored("nimbook does not compile or run Rust examples (there is no `mdbook test`)"),
    ),
    ("build.build-dir", Support::Works),
    (
        "build.create-missing",
        Support::WorksUnless(
            "true",
            "nimbook never writes into the sources: a chapter file that SUMMARY.md names and that does not exist is an error",
        ),
    ),
    ("build.use-default-preprocessors", Support::Works),
    (
        "build.extra-watch-dirs",
        Support::Ignored("`nimbook serve` watches the source folder, book.toml and templates/ only"),
    ),
    ("preprocessor.links", Support::Works),
    ("preprocessor.index", Support::Works),
    ("preprocessor.*", Support::Works),
    ("preprocessor.*.command", Support::Works),
    ("preprocessor.*.renderers", Support::Works),
    ("preprocessor.*.before", Support::Works),
    ("preprocessor.*.after", Support::Works),
    ("preprocessor.*.optional", Support::Works),
    ("output.html", Support::Works),
    ("output.html.theme", Support::Ignored(NO_THEME)),
    ("output.html.default-theme", Support::Ignored(NO_COLOUR_MENU)),
    ("output.html.preferred-dark-theme", Support::Ignored(NO_COLOUR_MENU)),
    ("output.html.smart-punctuation", Support::Works),
    ("output.html.curly-quotes", Support::Works),
    ("output.html.definition-lists", Support::Works),
    ("output.html.admonitions", Support::Works),
    ("output.html.mathjax-support", Support::Works),
    (
        "output.html.copy-fonts",
        Support::Ignored("nimbook writes only the math font its pages use"),
    ),
    ("output.html.additional-css", Support::Works),
    ("output.html.additional-js", Support::Works),
    ("output.html.no-section-label", Support::Works),
    ("output.html.git-repository-url", Support::Ignored(NO_REPO_LINK)),
    ("output.html.git-repository-icon", Support::Ignored(NO_REPO_LINK)),
    ("output.html.edit-url-template", Support::Ignored(NO_REPO_LINK)),
    ("output.html.input-404", Support::Works),
    ("output.html.site-url", Support::Works),
    ("output.html.cname", Support::Works),
    (
        "output.html.live-reload-endpoint",
        Support::Ignored("`nimbook serve` has its own reload channel"),
    ),
    (
        "output.html.hash-files",
        Support::Ignored("nimbook's asset names are fixed; it does not add content hashes to them"),
    ),
    (
        "output.html.sidebar-header-nav",
        Support::Ignored("nimbook's pages list their headings beside the text, not in the sidebar"),
    ),
    ("output.html.print", Support::Works),
    ("output.html.print.enable", Support::Works),
    ("output.html.print.page-break", Support::Works),
    ("output.html.fold", Support::Works),
    ("output.html.fold.enable", Support::Works),
    ("output.html.fold.level", Support::Works),
    ("output.html.playground", Support::Ignored(NO_PLAYGROUND)),
    ("output.html.playground.editable", Support::Ignored(NO_PLAYGROUND)),
    ("output.html.playground.copyable", Support::Ignored(NO_PLAYGROUND)),
    ("output.html.playground.copy-js", Support::Ignored(NO_PLAYGROUND)),
    ("output.html.playground.line-numbers", Support::Ignored(NO_PLAYGROUND)),
    ("output.html.playground.runnable", Support::Ignored(NO_PLAYGROUND)),
    ("output.html.playpen", Support::Ignored(NO_PLAYGROUND)),
    ("output.html.playpen.editable", Support::Ignored(NO_PLAYGROUND)),
    ("output.html.playpen.line-numbers", Support::Ignored(NO_PLAYGROUND)),
    ("output.html.code", Support::Works),
    ("output.html.code.hidelines", Support::Works),
    ("output.html.code.hidelines.**", Support::Works),
    ("output.html.search", Support::Works),
    ("output.html.search.enable", Support::Works),
    ("output.html.search.limit-results", Support::Works),
    ("output.html.search.teaser-word-count", Support::Ignored(NO_SEARCH_TUNING)),
    ("output.html.search.use-boolean-and", Support::Ignored(NO_SEARCH_AND)),
    ("output.html.search.boost-title", Support::Works),
    ("output.html.search.boost-hierarchy", Support::Works),
    ("output.html.search.boost-paragraph", Support::Works),
    ("output.html.search.expand", Support::Ignored(NO_SEARCH_TUNING)),
    ("output.html.search.heading-split-level", Support::Works),
    ("output.html.search.copy-js", Support::Ignored(NO_SEARCH_TUNING)),
    ("output.html.search.chapter", Support::Works),
    ("output.html.search.chapter.**", Support::Works),
    ("output.html.redirect", Support::Works),
    ("output.html.redirect.**", Support::Works),
    (
        "output.*",
        Support::Ignored("nimbook writes HTML only; other mdBook renderers are not run"),
    ),
];

/// What nimbook does with the key at `path` (dotted), or `None` if mdBook 0.5 has no such key.
pub(crate) fn support(path: &str) -> Option<Support> {
    KEYS.iter().find(|(k, _)| matches(k, path)).map(|&(_, s)| s)
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
    let Ok(table) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let file = SourceFile::new(name, text);
    let mut out = Vec::new();
    walk(&table, "", &file, &mut out);
    let theme = root.join("theme");
    if let Ok(entries) = std::fs::read_dir(&theme) {
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".hbs"))
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

fn walk(table: &toml::Table, prefix: &str, file: &Arc<SourceFile>, out: &mut Vec<Diagnostic>) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        // `[nimbook]`, `[book]` and `[build]` are checked strictly when they are read; the
        // settings of a custom preprocessor belong to it.
        if path == "nimbook" || (path.starts_with("preprocessor.") && prefix.contains('.')) {
            continue;
        }
        // Every finding here is a warning at the key, with a note that says why.
        let warn = |message: String, why: &str| {
            Diagnostic::warning(Code::IgnoredSetting, message)
                .at(file, locate(&file.text, &path))
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
            walk(t, &path, file, out);
        }
    }
}

/// Where the key at a dotted `path` is written: its `key =` line under its table header, or
/// the header `[path]` itself; the start of the file if neither is found.
fn locate(text: &str, path: &str) -> std::ops::Range<usize> {
    let header = format!("[{path}]");
    if let Some(i) = text.find(&header) {
        return i..i + header.len();
    }
    let (table, key) = path.rsplit_once('.').unwrap_or(("", path));
    let from = if table.is_empty() {
        0
    } else {
        text.find(&format!("[{table}]")).unwrap_or(0)
    };
    let mut offset = from;
    for line in text[from..].split_inclusive('\n') {
        let trimmed = line.trim_start();
        let rest = trimmed
            .strip_prefix(key)
            .or_else(|| trimmed.strip_prefix(&format!("\"{key}\"")));
        if rest.is_some_and(|r| r.trim_start().starts_with('=')) {
            let start = offset + (line.len() - trimmed.len());
            return start..start + key.len();
        }
        offset += line.len();
    }
    0..0
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
    fn ignored_keys_warn_at_their_line() {
        let text = "[book]\ntitle = \"t\"\n[output.html]\ngit-repository-url = \"x\"\nmathjax-support = true\n[output.html.fold]\nenable = true\n[output.html.playground]\nrunnable = false\n";
        let w = warnings(Path::new("/nonexistent"), text, "book.toml");
        let got: Vec<_> = w
            .iter()
            .map(|d| (d.message.clone(), d.position().map(|p| p.1)))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "`output.html.git-repository-url` is ignored by nimbook".to_string(),
                    Some(4)
                ),
                (
                    "`output.html.playground` is ignored by nimbook".to_string(),
                    Some(8)
                ),
            ]
        );
    }
}
