//! Real mdBook books build unchanged, with mdBook's page paths and mdBook's visible text.
//!
//! The books live outside the repository (`../shared/realbooks`, or `NIMBOOK_REALBOOKS`) and are
//! never copied into it. Each is copied to a temporary folder and built twice, by nimbook and by
//! mdBook (`mdbook` on the path, or `MDBOOK`). The oracle is mdBook's own output: the same set
//! of pages, and per page the visible text of mdBook's `<main>` against nimbook's lesson text,
//! compared word by word. `.ci/run` sets `NIMBOOK_REQUIRE_REALBOOKS=1`, so a missing book or a
//! missing mdBook fails there; elsewhere the test says it was skipped.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) fn required() -> bool {
    std::env::var_os("NIMBOOK_REQUIRE_REALBOOKS").is_some()
}

pub(crate) fn skip(why: &str) {
    assert!(!required(), "real-book test cannot run: {why}");
    eprintln!("skipped: {why}");
}

pub(crate) fn realbooks() -> Option<PathBuf> {
    let dir = std::env::var_os("NIMBOOK_REALBOOKS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realbooks"),
        PathBuf::from,
    );
    dir.is_dir().then_some(dir)
}

pub(crate) fn mdbook() -> Option<String> {
    let cmd = std::env::var("MDBOOK").unwrap_or_else(|_| "mdbook".into());
    let ok = Command::new(&cmd)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(cmd)
}

/// Every `.html` file under `dir`, relative, with `/`.
fn pages(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("list output").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                let rel = p.strip_prefix(dir).expect("under dir");
                out.insert(
                    rel.components()
                        .map(|c| c.as_os_str().to_string_lossy())
                        .collect::<Vec<_>>()
                        .join("/"),
                );
            }
        }
    }
    out
}

/// The text a reader sees in `html` between `start` and `end`: tags dropped, scripts, styles,
/// SVG icons and hidden code lines (`boring`) left out, entities decoded, whitespace collapsed.
/// Heading anchors (`#`) and verified marks that nimbook adds on purpose are left out too.
fn visible_text(html: &str, start: &str, end: &str) -> String {
    let from = html.find(start).map_or(0, |i| i + start.len());
    let to = html[from..].find(end).map_or(html.len(), |i| from + i);
    let html = &html[from..to];
    let mut text = String::new();
    let mut skip: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        if skip.is_empty() {
            text.push_str(&rest[..lt]);
        }
        let tag_end = rest[lt..].find('>').map_or(rest.len(), |i| lt + i + 1);
        let tag = &rest[lt + 1..tag_end.saturating_sub(1)];
        rest = &rest[tag_end..];
        if tag.starts_with('!') {
            continue;
        }
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_lowercase();
        if closing {
            if skip.last() == Some(&name) {
                skip.pop();
            }
            continue;
        }
        let self_closing = tag.ends_with('/')
            || matches!(
                name.as_str(),
                "br" | "img" | "hr" | "input" | "meta" | "link" | "wbr"
            );
        let hidden = matches!(name.as_str(), "script" | "style" | "svg" | "annotation")
            || tag.contains("class=\"boring\"")
            || tag.contains("class=\"anchor\"")
            || tag.contains("class=\"verified\"")
            || tag.contains("class=\"footnote-backref\"");
        // Inside a skipped element only its own kind nests; anything hidden starts a skip.
        if !self_closing && (hidden || skip.last() == Some(&name)) {
            skip.push(name.clone());
        }
        let block = matches!(
            name.as_str(),
            "br" | "p"
                | "h1"
                | "h2"
                | "h3"
                | "h4"
                | "h5"
                | "h6"
                | "li"
                | "pre"
                | "div"
                | "tr"
                | "td"
                | "th"
                | "dt"
                | "dd"
                | "blockquote"
                | "hr"
                | "table"
                | "ul"
                | "ol"
        );
        if block && skip.is_empty() {
            text.push(' ');
        }
    }
    if skip.is_empty() {
        text.push_str(rest);
    }
    let decoded = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Word-level similarity in [0, 1]: twice the matched words over the words of both.
fn similarity(a: &str, b: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    f64::from(similar::TextDiff::from_words(a, b).ratio())
}

/// Builds `book/sub` (copied to a temporary folder) with mdBook, then with nimbook; a book
/// mdBook refuses is `None`, and nimbook must build every book that mdBook builds. `include_roots` are the folders outside the
/// book root that its includes read (mdBook reads anywhere; nimbook reads the git work tree
/// that holds the book, and the copies here have no `.git`, so they are added to the copy's
/// `[nimbook] include-roots` after mdBook's build).
fn build_both(
    book: &Path,
    sub: &str,
    include_roots: &[&str],
) -> Option<(tempfile::TempDir, PathBuf, PathBuf)> {
    let Some(mdbook) = mdbook() else {
        skip("`mdbook` is not installed (set MDBOOK or put it on the path)");
        return None;
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    common::copy_dir(book, &tmp.path().join("book"));
    let root = tmp.path().join("book").join(sub);
    let ours = tmp.path().join("nimbook-out");
    let theirs = tmp.path().join("mdbook-out");
    let status = Command::new(mdbook)
        .arg("build")
        .arg("-d")
        .arg(&theirs)
        .current_dir(&root)
        .output()
        .expect("run mdbook")
        .status;
    if !status.success() {
        eprintln!("{}: mdBook does not build it; not compared", root.display());
        return None;
    }
    if !include_roots.is_empty() {
        let toml = std::fs::read_to_string(root.join("book.toml")).expect("book.toml");
        let roots: Vec<String> = include_roots.iter().map(|r| format!("{r:?}")).collect();
        std::fs::write(
            root.join("book.toml"),
            format!(
                "{toml}\n[nimbook]\ninclude-roots = [{}]\n",
                roots.join(", ")
            ),
        )
        .expect("write book.toml");
    }
    let report = nimbook::site::build(
        &nimbook::site::Options::new(&root).output(&ours),
        &nimbook::site::Progress::none(),
    )
    .unwrap_or_else(|d| panic!("{}", d.render(nimbook::diag::MessageFormat::Human, false)));
    let errors: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| d.level == nimbook::diag::Level::Error)
        .map(|d| d.render(nimbook::diag::MessageFormat::Human, false))
        .collect();
    assert_eq!(report.errors, 0, "{}", errors.join("\n"));
    Some((tmp, ours, theirs))
}

/// Builds `book/sub` both ways and compares page paths and per-page text.
fn compare(name: &str, sub: &str, include_roots: &[&str], floor: f64, mean_floor: f64) {
    let Some(dir) = realbooks() else {
        skip("../shared/realbooks is not there (set NIMBOOK_REALBOOKS)");
        return;
    };
    compare_at(&dir.join(name), name, sub, include_roots, floor, mean_floor);
}

fn compare_at(
    book: &Path,
    name: &str,
    sub: &str,
    include_roots: &[&str],
    floor: f64,
    mean_floor: f64,
) {
    let Some((_tmp, ours, theirs)) = build_both(book, sub, include_roots) else {
        return;
    };
    let (p_ours, p_theirs) = (pages(&ours), pages(&theirs));
    assert_eq!(
        p_theirs.difference(&p_ours).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "pages mdBook writes and nimbook does not"
    );
    let mut figures = Vec::new();
    for page in &p_theirs {
        // Whole-book and table-of-contents pages and redirects have no single chapter text.
        if matches!(page.as_str(), "print.html" | "toc.html" | "404.html") {
            continue;
        }
        let theirs_html = std::fs::read_to_string(theirs.join(page)).expect("read mdBook page");
        if !theirs_html.contains("<main>") {
            continue;
        }
        let ours_html = std::fs::read_to_string(ours.join(page)).expect("read nimbook page");
        let a = visible_text(&theirs_html, "<main>", "</main>");
        let b = visible_text(&ours_html, "<article class=\"lesson\">", "</article>");
        figures.push((similarity(&a, &b), page.clone()));
    }
    figures.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mean = figures.iter().map(|f| f.0).sum::<f64>() / figures.len().max(1) as f64;
    eprintln!(
        "{name}: {} pages, mean text similarity {mean:.4}; lowest:",
        figures.len()
    );
    for (s, p) in figures.iter().take(8) {
        eprintln!("  {s:.4} {p}");
    }
    for (s, p) in &figures {
        assert!(
            *s >= floor,
            "{name}/{p}: text similarity {s:.4} is below {floor}"
        );
    }
    assert!(
        mean >= mean_floor,
        "{name}: mean similarity {mean:.4} is below {mean_floor}"
    );
}

#[test]
fn mdbook_guide_builds_unchanged() {
    // Its chapter on preprocessors includes the examples of mdBook's repository, beside the
    // book root.
    compare("mdbook-guide", "guide", &[".."], 0.90, 0.97);
}

#[test]
fn rust_by_example_builds_unchanged() {
    compare("rust-by-example", "", &[], 0.90, 0.97);
}

/// The folders under `dir`, at most two levels down, that hold a `book.toml`.
fn book_roots(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| {
            r.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    for book in names {
        if book.join("book.toml").is_file() {
            out.push((book, String::new()));
            continue;
        }
        let mut subs: Vec<PathBuf> = std::fs::read_dir(&book)
            .map(|r| r.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        subs.sort();
        for sub in subs.into_iter().filter(|s| s.join("book.toml").is_file()) {
            let name = sub
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push((book.clone(), name));
        }
    }
    out
}

/// Every other book in the real-book folder (held-out books are dropped in there): where
/// mdBook builds it, nimbook builds it unchanged, with mdBook's pages and text.
#[test]
fn every_real_book_that_mdbook_builds_nimbook_builds() {
    let Some(dir) = realbooks() else {
        skip("../shared/realbooks is not there (set NIMBOOK_REALBOOKS)");
        return;
    };
    let roots = book_roots(&dir);
    assert!(
        !roots.is_empty() || !required(),
        "no book in {}",
        dir.display()
    );
    for (book, sub) in roots {
        let name = book
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // These two have tests of their own, above.
        if name == "mdbook-guide" || name == "rust-by-example" {
            continue;
        }
        compare_at(&book, &name, &sub, &[], 0.90, 0.97);
    }
}

#[test]
fn visible_text_leaves_out_hidden_lines_and_marks() {
    let html = "<main><h1 id=\"a\"><a class=\"header\" href=\"#a\">Title</a></h1><pre><code><span class=\"boring\">fn main() {\n</span>let x = 1;</code></pre><script>var x;</script><p>A &amp; B</p></main>";
    assert_eq!(
        visible_text(html, "<main>", "</main>"),
        "Title let x = 1; A & B"
    );
}
