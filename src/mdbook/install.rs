//! `nimbook mdbook install`: sets an mdBook book up to run nimbook, as `mdbook-admonish install`
//! does for its own preprocessor.
//!
//! It adds `[preprocessor.nimbook]` and the stylesheet and script to `[output.html]` in
//! `book.toml`, edited with `toml_edit` so that the author's comments, order and spacing stay,
//! and writes the files the generated HTML needs: `nimbook/nimbook.css` (the rules of
//! `templates/` that style claims, tables, drawings, widgets and exercises, in mdBook's
//! colours), `nimbook/nimbook.js` (the widgets and the exercises) and the math font. The font
//! goes under the source folder, `src/nimbook/fonts/`, because mdBook copies that folder into the
//! site as it is, next to where the stylesheet lands, while it copies only the listed files of
//! `additional-css`. Running it again changes nothing: every file is written only when its bytes
//! differ.

use std::path::{Path, PathBuf};

use toml_edit::{Array, DocumentMut, Item, Table, Value};

use crate::diag::{Code, Diagnostic};
use crate::site::Fatal;

/// The command mdBook runs.
const COMMAND: &str = "nimbook mdbook";
/// Where the stylesheet and the script go, relative to the book root (and the site root).
const CSS: &str = "nimbook/nimbook.css";
const JS: &str = "nimbook/nimbook.js";
/// Where the font goes, relative to the source folder; `math.css` names it `fonts/…`, relative
/// to the stylesheet.
const FONT: &str = "nimbook/fonts/latinmodern-math.woff2";

const STYLE: &str = include_str!("../../templates/style.css");
const MATH: &str = include_str!("../../templates/math.css");
const WIDGET: &str = include_str!("../../templates/widget.js");
const EXERCISE: &str = include_str!("../../templates/exercise.js");
const FONT_BYTES: &[u8] = include_bytes!("../../templates/fonts/latinmodern-math.woff2");

/// What `install` changed.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Installed {
    /// The files written or rewritten, under the book root; empty when everything was already
    /// in place.
    pub changed: Vec<PathBuf>,
}

/// Sets up the mdBook book at `root` (the folder of its `book.toml`).
pub fn install(root: &Path) -> Result<Installed, Fatal> {
    let toml_path = root.join("book.toml");
    let text = std::fs::read_to_string(&toml_path).map_err(|e| {
        Box::new(
            Diagnostic::error(
                Code::InvalidConfig,
                format!("cannot read {}: {e}", toml_path.display()),
            )
            .help("run it in an mdBook book's root, the folder of book.toml, or name that folder"),
        )
    })?;
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        Box::new(Diagnostic::error(
            Code::InvalidConfig,
            format!("invalid book.toml: {}", e.message()),
        ))
    })?;
    let src = doc
        .get("book")
        .and_then(|b| b.get("src"))
        .and_then(Item::as_str)
        .unwrap_or("src")
        .to_string();
    edit(&mut doc).map_err(|what| {
        Box::new(Diagnostic::error(
            Code::InvalidConfig,
            format!("cannot add nimbook to book.toml: {what} is not a table or an array"),
        ))
    })?;
    let mut installed = Installed::default();
    let files: [(PathBuf, Vec<u8>); 4] = [
        (PathBuf::from("book.toml"), doc.to_string().into_bytes()),
        (PathBuf::from(CSS), stylesheet().into_bytes()),
        (
            PathBuf::from(JS),
            format!("{WIDGET}\n{EXERCISE}").into_bytes(),
        ),
        (Path::new(&src).join(FONT), FONT_BYTES.to_vec()),
    ];
    for (rel, bytes) in files {
        let path = root.join(&rel);
        if std::fs::read(&path).is_ok_and(|old| old == bytes) {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io_error(&path, &e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| io_error(&path, &e))?;
        installed.changed.push(rel);
    }
    Ok(installed)
}

/// Adds the preprocessor and the assets to `book.toml`, keeping what is there. The error names
/// a key that holds something else than expected.
fn edit(doc: &mut DocumentMut) -> Result<(), &'static str> {
    let preprocessor =
        implicit_table(doc.as_table_mut(), "preprocessor").ok_or("[preprocessor]")?;
    let nimbook = preprocessor
        .entry("nimbook")
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_like_mut()
        .ok_or("[preprocessor.nimbook]")?;
    if !nimbook.contains_key("command") {
        nimbook.insert("command", toml_edit::value(COMMAND));
    }
    let output = implicit_table(doc.as_table_mut(), "output").ok_or("[output]")?;
    let html = output
        .entry("html")
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_like_mut()
        .ok_or("[output.html]")?;
    for (key, file) in [("additional-css", CSS), ("additional-js", JS)] {
        let list = html
            .entry(key)
            .or_insert(Item::Value(Value::Array(Array::new())))
            .as_array_mut()
            .ok_or(key)?;
        if !list.iter().any(|v| v.as_str() == Some(file)) {
            list.push(file);
        }
    }
    Ok(())
}

/// The table `key` of `parent`, created without a header of its own (`[a.b]` needs no `[a]`).
fn implicit_table<'a>(parent: &'a mut Table, key: &str) -> Option<&'a mut Table> {
    let item = parent.entry(key).or_insert_with(|| {
        let mut t = Table::new();
        t.set_implicit(true);
        Item::Table(t)
    });
    item.as_table_mut()
}

/// The stylesheet for an mdBook book: nimbook's colours mapped to the mdBook theme's, the math
/// font and formulas (`math.css`), and every rule of `style.css` that styles an element the
/// generated HTML holds. Rules for nimbook's own page layout are left out, so mdBook's layout
/// is untouched.
pub(crate) fn stylesheet() -> String {
    let mut out = String::from(PALETTE);
    out.push_str(MATH);
    out.push('\n');
    for rule in element_rules(STYLE) {
        out.push_str(&rename_colours(&rule));
        out.push('\n');
    }
    out
}

/// nimbook's colours in an mdBook theme. mdBook sets `--bg`, `--fg`, `--links` and the table
/// colours on `<html>` for each of its themes; the green of a verified mark is nimbook's own, a
/// lighter one on the dark themes.
const PALETTE: &str = "/* nimbook in an mdBook book: written by `nimbook mdbook install`. */
:root {
  --nb-bg: var(--bg); --nb-fg: var(--fg); --nb-muted: var(--icons); --nb-accent: var(--links);
  --nb-rule: var(--table-border-color); --nb-sidebar-bg: var(--table-header-bg);
  --nb-code-bg: var(--quote-bg); --nb-focus: var(--links);
  --nb-ok: #1b6f35; --nb-ok-bg: #eaf6ee; --nb-fail: #b3261e;
}
html.coal, html.navy, html.ayu {
  --nb-ok: #7fd39a; --nb-ok-bg: #1f2d24; --nb-fail: #f28b82;
}
";

/// nimbook's colour names, renamed `--nb-…` so that they never clash with mdBook's own
/// `--bg`, `--fg` and `--sidebar-bg`.
const COLOURS: [&str; 11] = [
    "bg",
    "fg",
    "muted",
    "accent",
    "rule",
    "sidebar-bg",
    "code-bg",
    "ok-bg",
    "ok",
    "fail",
    "focus",
];

fn rename_colours(rule: &str) -> String {
    let mut out = String::with_capacity(rule.len());
    let mut rest = rule;
    while let Some(at) = rest.find("var(--") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "var(--".len()..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(after.len());
        let name = &after[..name_len];
        if COLOURS.contains(&name) {
            out.push_str("var(--nb-");
        } else {
            out.push_str("var(--");
        }
        out.push_str(name);
        rest = &after[name_len..];
    }
    out.push_str(rest);
    out
}

/// The class names of the elements nimbook generates.
const ELEMENT_CLASSES: [&str; 6] = [
    ".nim-",
    ".nw-",
    ".gg-",
    ".verified",
    ".formula-scroll",
    ".nimbook",
];

/// The rules of a stylesheet whose selectors name a generated element, and the custom
/// properties they use (`--piece-…`); `@media` blocks keep those of their rules.
fn element_rules(css: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (selector, body) in rules(css) {
        let selector = selector.trim();
        if selector.starts_with('@') {
            let inner: Vec<String> = element_rules(body);
            if !inner.is_empty() {
                out.push(format!("{selector} {{\n{}\n}}", inner.join("\n")));
            }
        } else if ELEMENT_CLASSES.iter().any(|c| selector.contains(c))
            || (selector == ":root" && body.contains("--piece-"))
        {
            out.push(format!("{selector} {{{body}}}"));
        }
    }
    out
}

/// The top-level rules of a stylesheet as (selector, body), comments removed.
fn rules(css: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let bytes = css.as_bytes();
    let (mut i, mut start) = (0, 0);
    let mut open = None;
    let mut depth = 0usize;
    while i < bytes.len() {
        if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
            let end = css[i + 2..].find("*/").map_or(css.len(), |p| i + 2 + p + 2);
            if depth == 0 {
                start = end;
            }
            i = end;
            continue;
        }
        match bytes[i] {
            b'{' => {
                if depth == 0 {
                    open = Some(i);
                }
                depth += 1;
            }
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    if let Some(o) = open.take() {
                        out.push((&css[start..o], &css[o + 1..i]));
                    }
                    start = i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

use crate::init::io_error;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stylesheet_keeps_element_rules_and_drops_the_layout() {
        let css = stylesheet();
        assert!(css.contains(".nim-claims {"), "{css}");
        assert!(css.contains(".nw-counter"), "{css}");
        assert!(css.contains("@font-face"), "{css}");
        assert!(css.contains("--piece-white"), "{css}");
        assert!(!css.contains(".sidebar {"), "{css}");
        assert!(!css.contains(".topbar"), "{css}");
        // Every colour is nimbook's renamed one, or one mdBook defines.
        for name in COLOURS {
            assert!(
                !css.contains(&format!("var(--{name})"))
                    || PALETTE.contains(&format!("var(--{name})")),
                "{name}"
            );
        }
        // Balanced braces: a rule cut in half would swallow the next.
        assert_eq!(css.matches('{').count(), css.matches('}').count());
    }

    #[test]
    fn rules_split_at_the_top_level_and_skip_comments() {
        let css = "/* a { } */ .a { x: 1; } @media print { .b { y: 2; } }";
        let found = rules(css);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].0.trim(), ".a");
        assert_eq!(found[1].0.trim(), "@media print");
        assert_eq!(rules(found[1].1).len(), 1);
    }

    #[test]
    fn editing_keeps_comments_and_adds_each_entry_once() {
        let text = "# my book\n[book]\ntitle = \"T\" # the title\n\n[output.html]\nadditional-css = [\"mine.css\"]\n";
        let mut doc: DocumentMut = text.parse().expect("toml");
        edit(&mut doc).expect("edit");
        let once = doc.to_string();
        edit(&mut doc).expect("edit");
        assert_eq!(doc.to_string(), once);
        assert!(
            once.starts_with("# my book\n[book]\ntitle = \"T\" # the title\n"),
            "{once}"
        );
        assert!(
            once.contains("additional-css = [\"mine.css\", \"nimbook/nimbook.css\"]"),
            "{once}"
        );
        assert!(
            once.contains("[preprocessor.nimbook]\ncommand = \"nimbook mdbook\""),
            "{once}"
        );
        assert!(!once.contains("[preprocessor]\n"), "{once}");
    }
}
