//! Issue 31: minimal mdBook books, one per difference found in real books, built by nimbook and
//! held to what mdBook 0.5.4 does with them.
//!
//! Each test writes a small book into a temporary folder and builds it with the real binary.
//! The expected behaviour was read off `mdbook build` 0.5.4; when `mdbook` is installed (or
//! `MDBOOK` names it) each test also builds the book with it and checks the same property of
//! mdBook's output, so the oracle is re-read on every run. `.ci/run` sets
//! `NIMBOOK_REQUIRE_REALBOOKS=1`, which makes a missing `mdbook` a failure there.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A book in a temporary folder: `book.toml` and files under the book root.
pub(crate) fn book(toml: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::write(tmp.path().join("book.toml"), toml).expect("write book.toml");
    for (path, text) in files {
        let p = tmp.path().join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    tmp
}

/// Runs `nimbook build -d ROOT/ours ARGS ROOT`; the output folder is returned too.
pub(crate) fn ours(root: &Path, args: &[&str]) -> (Output, PathBuf) {
    let out = root.join("ours");
    let mut all = vec!["build", "-d", out.to_str().expect("utf-8 path")];
    all.extend_from_slice(args);
    (common::nimbook(&all, root), out)
}

/// Runs mdBook on the book into `ROOT/theirs`: whether it succeeded and where it wrote, or
/// `None` when mdBook is not installed (a failure under `NIMBOOK_REQUIRE_REALBOOKS`).
pub(crate) fn theirs(root: &Path) -> Option<(bool, PathBuf)> {
    let cmd = std::env::var("MDBOOK").unwrap_or_else(|_| "mdbook".into());
    let out = root.join("theirs");
    match Command::new(&cmd)
        .arg("build")
        .arg("-d")
        .arg(&out)
        .arg(root)
        .output()
    {
        Ok(o) => Some((o.status.success(), out)),
        Err(_) => {
            assert!(
                std::env::var_os("NIMBOOK_REQUIRE_REALBOOKS").is_none(),
                "mdbook is not installed"
            );
            None
        }
    }
}

pub(crate) fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The lesson text of a nimbook page (its `<article>`).
pub(crate) fn article(p: &Path) -> String {
    let html = read(p);
    let from = html
        .find("<article class=\"lesson\">")
        .map_or(0, |i| i + 24);
    let to = html[from..]
        .find("</article>")
        .map_or(html.len(), |i| from + i);
    html[from..to].to_string()
}

/// The chapter text of an mdBook page (its `<main>`).
pub(crate) fn main_of(p: &Path) -> String {
    let html = read(p);
    let from = html.find("<main>").map_or(0, |i| i + 6);
    let to = html[from..]
        .find("</main>")
        .map_or(html.len(), |i| from + i);
    html[from..to].to_string()
}

pub(crate) fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// The `-->` locations of the diagnostics with `code` on standard error.
pub(crate) fn located(o: &Output, what: &str) -> Vec<String> {
    let err = common::stderr(o);
    let mut out = Vec::new();
    let mut lines = err.lines().peekable();
    while let Some(l) = lines.next() {
        if l.starts_with(what) {
            if let Some(at) = lines.peek().and_then(|n| n.trim().strip_prefix("--> ")) {
                out.push(at.to_string());
            }
        }
    }
    out
}

const LINKS: &str = "# Intro\n\n[x](other.md#nope) [i](index.md) [q](other.md?highlight=new) <help@crates.io> [r](old.md) [m](missing.md) [s](other.md#section)\n";

fn links_book(extra_toml: &str) -> tempfile::TempDir {
    book(
        &format!("[book]\ntitle = \"T\"\n\n[output.html.redirect]\n\"/old.html\" = \"other.html\"\n{extra_toml}"),
        &[
            ("src/SUMMARY.md", "# Summary\n\n- [Intro](README.md)\n- [Other](other.md)\n"),
            ("src/README.md", LINKS),
            ("src/other.md", "# Other\n\n## Section\n"),
        ],
    )
}

#[test]
fn links_that_work_in_mdbook_are_not_broken_and_broken_ones_warn_in_an_mdbook_book() {
    let b = links_book("");
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    // Only the stale anchor and the missing page, as warnings.
    assert_eq!(
        located(&o, "warning: broken link"),
        vec!["src/README.md:3:1", "src/README.md:3:91"],
        "{}",
        common::stderr(&o)
    );
    let page = article(&out.join("index.html"));
    assert!(page.contains("href=\"mailto:help@crates.io\""), "{page}");
    assert!(page.contains("href=\"index.html\""), "{page}");
    assert!(page.contains("href=\"other.html?highlight=new\""), "{page}");
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok, "mdBook builds it");
        let m = main_of(&dir.join("index.html"));
        assert!(m.contains("href=\"mailto:help@crates.io\""), "{m}");
        assert!(m.contains("href=\"index.html\""), "{m}");
    }
}

#[test]
fn broken_link_is_a_lint_denied_in_a_nimbook_book() {
    let b = links_book("");
    let (o, out) = ours(b.path(), &["--deny", "broken-link"]);
    assert_eq!(code(&o), 1, "{}", common::stderr(&o));
    assert_eq!(located(&o, "error: broken link").len(), 2);
    assert!(!out.exists(), "a failed build writes nothing");
    let n = links_book("\n[nimbook]\n");
    let (o, _) = ours(n.path(), &[]);
    assert_eq!(code(&o), 1, "{}", common::stderr(&o));
    assert_eq!(located(&o, "error: broken link").len(), 2);
    let (o, _) = ours(n.path(), &["--warn", "broken-link"]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert_eq!(located(&o, "warning: broken link").len(), 2);
    let allowed = links_book("\n[nimbook]\nbroken-links = \"allow\"\n");
    let (o, _) = ours(allowed.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(!common::stderr(&o).contains("broken link"));
}

#[test]
fn redirects_with_dot_slash_keys_and_fragments_are_written_as_mdbook_writes_them() {
    let b = book(
        "[book]\ntitle = \"T\"\n\n[output.html.redirect]\n\"./old.html\" = \"other.html\"\n\"/intro.html\" = \"other.html\"\n\"/intro.html#old\" = \"other.html#new\"\n\"/other.html#gone\" = \"README.html#intro\"\n",
        &[
            ("src/SUMMARY.md", "- [Intro](README.md)\n- [Other](other.md)\n"),
            ("src/README.md", "# Intro\n\n[old](old.md)\n"),
            ("src/other.md", "# Other\n\n## New\n"),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(
        !common::stderr(&o).contains("broken link"),
        "{}",
        common::stderr(&o)
    );
    assert!(read(&out.join("old.html")).contains("URL=other.html"));
    let intro = read(&out.join("intro.html"));
    assert!(intro.contains("URL=other.html"), "{intro}");
    assert!(intro.contains("{\"#old\":\"other.html#new\"}"), "{intro}");
    // A fragment of a chapter's own page: the map goes into that page.
    let other = read(&out.join("other.html"));
    assert!(
        other.contains("{\"#gone\":\"README.html#intro\"}"),
        "{other}"
    );
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        assert!(read(&dir.join("intro.html")).contains("{\"#old\":\"other.html#new\"}"));
        assert!(read(&dir.join("other.html")).contains("{\"#gone\":\"README.html#intro\"}"));
        assert!(read(&dir.join("old.html")).contains("URL=other.html"));
    }
}

#[test]
fn a_redirect_with_only_fragment_entries_warns_where_mdbook_refuses() {
    let b = book(
        "[book]\ntitle = \"T\"\n\n[output.html.redirect]\n\"/intro.html#old\" = \"other.html#new\"\n",
        &[
            ("src/SUMMARY.md", "- [Other](other.md)\n"),
            ("src/other.md", "# Other\n\n## New\n"),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(common::stderr(&o).contains("only entries with a `#` fragment"));
    assert!(!out.join("intro.html").exists());
    if let Some((ok, _)) = theirs(b.path()) {
        assert!(!ok, "mdBook 0.5.4 refuses this");
    }
}

#[test]
fn summary_comments_and_text_after_a_link_are_left_out() {
    let b = book(
        "[book]\ntitle = \"T\"\n",
        &[
            (
                "src/SUMMARY.md",
                "# Summary\n\n<!--\n- [Hidden](hidden.md)\n-->\n\n- [Intro](README.md) (aside)\n- [Other](other.md)\n",
            ),
            ("src/README.md", "# Intro\n"),
            ("src/other.md", "# Other\n"),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(out.join("index.html").is_file() && out.join("other.html").is_file());
    let toc = read(&out.join("toc.html"));
    assert!(!toc.contains("Hidden") && !toc.contains("aside"), "{toc}");
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        let toc = read(&dir.join("toc.html"));
        assert!(!toc.contains("Hidden") && !toc.contains("aside"));
    }
}

const BRACES: &str =
    "# Intro\n\nThe set {1, 2, 3} and x^{2} and format!(\"{0}\") and `format!(\"{0}\")`.\n";

#[test]
fn braces_stay_in_an_mdbook_book() {
    let b = book(
        "[book]\ntitle = \"T\"\n",
        &[
            ("src/SUMMARY.md", "- [Intro](README.md)\n"),
            ("src/README.md", BRACES),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    let page = article(&out.join("index.html"));
    let expected =
        "The set {1, 2, 3} and x^{2} and format!(“{0}”) and <code>format!(\"{0}\")</code>.";
    assert!(page.contains(expected), "{page}");
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        let m = main_of(&dir.join("index.html"));
        assert!(m.contains(expected), "{m}");
    }
}

#[test]
fn mathjax_support_leaves_code_alone() {
    let b = book(
        "[book]\ntitle = \"T\"\n[output.html]\nmathjax-support = true\n",
        &[
            ("src/SUMMARY.md", "- [Intro](README.md)\n"),
            (
                "src/README.md",
                "# Intro\n\n```sh\nsed -e \"s/a\\(b*\\)c/\\1/g\"\n```\n\nInline `\\(x\\)` code.\n",
            ),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    let page = article(&out.join("index.html"));
    assert!(page.contains("s/a\\(b*\\)c/\\1/g"), "{page}");
    assert!(page.contains("<code>\\(x\\)</code>"), "{page}");
    assert!(!page.contains("<math"), "{page}");
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        let m = main_of(&dir.join("index.html"));
        assert!(m.contains("s/a\\(b*\\)c/\\1/g") && m.contains("<code>\\(x\\)</code>"));
    }
}

#[test]
fn the_front_page_of_an_mdbook_book_is_its_first_chapter_even_in_a_folder() {
    let b = book(
        "[book]\ntitle = \"T\"\n",
        &[
            (
                "src/SUMMARY.md",
                "- [Intro](intro/index.md)\n- [Other](other.md)\n",
            ),
            (
                "src/intro/index.md",
                "# Intro\n\nWelcome, reader.\n\n[other](../other.md)\n",
            ),
            ("src/other.md", "# Other\n"),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    let index = read(&out.join("index.html"));
    assert!(index.contains("Welcome, reader."), "{index}");
    assert!(!index.contains("numbers on these pages"), "{index}");
    assert!(
        !common::stderr(&o).contains("numbers"),
        "{}",
        common::stderr(&o)
    );
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        assert!(main_of(&dir.join("index.html")).contains("Welcome, reader."));
    }
}

#[test]
fn hidden_rust_lines_are_kept_behind_a_toggle() {
    let b = book(
        "[book]\ntitle = \"T\"\n",
        &[
            ("src/SUMMARY.md", "- [Intro](README.md)\n"),
            (
                "src/README.md",
                "# Intro\n\n```rust\n# fn main() {\nlet x = 1;\n# }\n```\n",
            ),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    let page = article(&out.join("index.html"));
    let boring = page.matches("<span class=\"boring\">").count();
    assert_eq!(boring, 2, "{page}");
    assert!(page.contains("main"), "{page}");
    assert!(!page.contains("# fn"), "the `# ` is dropped: {page}");
    assert!(read(&out.join("page.js")).contains("boring"));
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        let m = main_of(&dir.join("index.html"));
        assert_eq!(m.matches("<span class=\"boring\">").count(), 2, "{m}");
    }
}

#[test]
fn adjacent_footnote_markers_and_table_alignment_follow_mdbook() {
    let b = book(
        "[book]\ntitle = \"T\"\n",
        &[
            ("src/SUMMARY.md", "- [Intro](README.md)\n"),
            (
                "src/README.md",
                "# Intro\n\nFoot[^1][^2].\n\n[^1]: one\n[^2]: two\n\n| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |\n",
            ),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    let page = article(&out.join("index.html"));
    assert!(page.contains("</a></sup> <sup"), "{page}");
    for align in ["left", "center", "right"] {
        assert!(
            page.contains(&format!("<td style=\"text-align: {align}\">")),
            "{page}"
        );
    }
    // An unaligned column is not right-aligned by the stylesheet.
    let css = read(&out.join("style.css"));
    assert!(!css.contains(
        "th, td { border: 1px solid var(--rule); padding: 0.25rem 0.6rem; text-align: right; }"
    ));
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        let m = main_of(&dir.join("index.html"));
        assert!(m.contains("</a></sup> <sup"), "{m}");
        assert!(m.contains("<td style=\"text-align: center\">"), "{m}");
    }
}

#[test]
fn search_settings_of_mdbook_are_followed() {
    let b = book(
        "[book]\ntitle = \"T\"\n[output.html.search]\nheading-split-level = 1\nboost-title = 3\n[output.html.search.chapter]\n\"secret.md\" = { enable = false }\n",
        &[
            ("src/SUMMARY.md", "- [Intro](README.md)\n- [Secret](secret.md)\n"),
            ("src/README.md", "# Intro\n\nalpha\n\n## Part\n\nbeta\n"),
            ("src/secret.md", "# Secret\n\nzebra\n"),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(
        !common::stderr(&o).contains("output.html.search"),
        "{}",
        common::stderr(&o)
    );
    let index = read(&out.join("searchindex.js"));
    assert!(!index.contains("zebra"), "excluded chapter");
    assert!(index.contains("alpha") && index.contains("beta"));
    // Split at level 1 only: `## Part` is no section of its own.
    assert!(!index.contains("#part"), "{index}");
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        let js = std::fs::read_dir(&dir)
            .expect("list")
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with("searchindex"))
            .map(|e| read(&e.path()))
            .unwrap_or_default();
        assert!(js.contains("alpha") && !js.contains("zebra"));
    }
}

#[test]
fn preprocessors_missing_are_all_named_and_optional_ones_skipped() {
    let b = book(
        "[book]\ntitle = \"T\"\n[preprocessor.a]\ncommand = \"nimbook-no-such-a\"\n[preprocessor.b]\ncommand = \"nimbook-no-such-b\"\n",
        &[
            ("src/SUMMARY.md", "- [Intro](README.md)\n"),
            ("src/README.md", "# Intro\n"),
        ],
    );
    let (o, _) = ours(b.path(), &[]);
    assert_eq!(code(&o), 2, "{}", common::stderr(&o));
    let err = common::stderr(&o);
    assert!(err.contains("`a`") && err.contains("`b`"), "{err}");
    if let Some((ok, _)) = theirs(b.path()) {
        assert!(!ok);
    }
    let katex = book(
        "[book]\ntitle = \"T\"\n[preprocessor.katex]\noptional = true\n",
        &[
            ("src/SUMMARY.md", "- [Intro](README.md)\n"),
            (
                "src/README.md",
                "# Intro\n\nMath $[a](b)$ and $$x_1 [y](z)$$ here.\n",
            ),
        ],
    );
    let (o, _) = ours(katex.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    let err = common::stderr(&o);
    assert!(
        err.contains("optional preprocessor `katex` was not run"),
        "{err}"
    );
    if let Some((ok, _)) = theirs(katex.path()) {
        assert!(ok);
    }
}

#[test]
fn book_multilingual_is_accepted_with_a_warning_where_mdbook_refuses() {
    let b = book(
        "[book]\ntitle = \"T\"\nmultilingual = false\n",
        &[
            ("src/SUMMARY.md", "- [Intro](README.md)\n"),
            ("src/README.md", "# Intro\n"),
        ],
    );
    let (o, _) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(common::stderr(&o).contains("multilingual"));
    if let Some((ok, _)) = theirs(b.path()) {
        assert!(!ok, "mdBook 0.5.4 rejects book.multilingual");
    }
}

#[test]
fn nothing_nimbook_specific_in_an_mdbook_book() {
    let b = book(
        "[book]\ntitle = \"T\"\n",
        &[
            (
                "src/SUMMARY.md",
                "- [Intro](README.md)\n- [Other](other.md)\n",
            ),
            ("src/README.md", "# Intro\n\nIn 1990, 3 people met.\n"),
            ("src/other.md", "# Other\n"),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    for page in ["index.html", "other.html", "print.html", "toc.html"] {
        let html = read(&out.join(page));
        assert!(!html.contains("numbers on these pages"), "{page}");
        assert!(!html.contains("verified"), "{page}");
    }
}
