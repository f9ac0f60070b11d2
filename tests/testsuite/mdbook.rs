//! nimbook inside mdBook: `nimbook mdbook install` on books written into temporary folders (no
//! part of this repository), then the real `mdbook` (0.5.4; `.ci/run` installs it) builds them
//! with `nimbook mdbook` as a preprocessor. The oracles are mdBook's own exit code and pages, and
//! values fixed by the definitions: nim-sums are XOR, and 6 ⊗ 13 = 15 (Conway's table).

use crate::common::copy_dir;
use crate::realbooks::{mdbook, realbooks, skip};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The folder of the `nimbook` binary under test, put first on mdBook's `PATH` so that its
/// `command = "nimbook mdbook"` runs this build.
fn path_with_nimbook() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_nimbook"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let mut paths = vec![bin];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).expect("PATH")
}

fn run_mdbook(mdbook: &str, args: &[&str], root: &Path) -> Output {
    Command::new(mdbook)
        .args(args)
        .current_dir(root)
        .env("PATH", path_with_nimbook())
        .env("NO_COLOR", "1")
        .output()
        .expect("run mdbook")
}

fn install(root: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(["mdbook", "install"])
        .arg(root)
        .output()
        .expect("run nimbook mdbook install")
}

fn text(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
    .replace('\\', "/")
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A small mdBook book: a chapter with every form, and one that includes a file with a claim.
fn small_book(root: &Path, extra_toml: &str) {
    write(
        root,
        "book.toml",
        &format!("# my book\n[book]\ntitle = \"Small\" # kept\n{extra_toml}"),
    );
    write(
        root,
        "src/SUMMARY.md",
        "# Summary\n\n- [Nim](nim.md)\n- [Included](inc.md)\n",
    );
    write(
        root,
        "src/nim.md",
        "# Nim\n\nThe product `nim: 6 * 13` in running text.\n\n\
         ```nim\n6 * 13 = 15\nnim(1, 2, 3) is P\n```\n\n\
         > Quoted:\n> ```nimbook\n> addition_table(4)\n> ```\n> still quoted\n\n\
         ```nimbook\nplay(nim(3, 5, 7))\nexercise(\"Compute 6 ⊗ 13\", 6 * 13)\n```\n",
    );
    write(
        root,
        "src/inc.md",
        "# Included\n\nBefore.\n\n{{#include parts/claims.md}}\n",
    );
    write(
        root,
        "src/parts/claims.md",
        "Some words.\n\n```nim\n5 + 3 = 6\n```\n",
    );
}

/// The text of `<main>` of a built page.
fn main_of(page: &Path) -> String {
    let html = std::fs::read_to_string(page).expect("a built page");
    let start = html.find("<main>").expect("<main>");
    let end = html.find("</main>").expect("</main>");
    html[start..end].to_string()
}

#[test]
fn a_small_book_builds_with_computed_values_and_verified_marks() {
    let Some(mdbook) = mdbook() else {
        return skip("no mdbook on PATH");
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    small_book(tmp.path(), "");
    let installed = install(tmp.path());
    assert!(installed.status.success(), "{}", text(&installed));
    let built = run_mdbook(&mdbook, &["build"], tmp.path());
    assert!(built.status.success(), "{}", text(&built));

    let page = main_of(&tmp.path().join("book/nim.html"));
    // The span shows the value, 6 ⊗ 13 = 15, and the block's claims carry the mark.
    assert!(page.contains("<math alttext=\"15\">"), "{page}");
    assert_eq!(page.matches("✓ verified").count(), 2, "{page}");
    // The addition table of 4 is XOR, cell by cell, in row order.
    let cells: Vec<u32> = page
        .split("<td")
        .skip(1)
        .filter_map(|c| c.split('>').nth(1)?.split('<').next()?.parse().ok())
        .collect();
    let xor: Vec<u32> = (0..4).flat_map(|a| (0..4).map(move |b| a ^ b)).collect();
    assert_eq!(cells, xor, "{page}");
    // The quotation goes on after the table: one blockquote, not two.
    assert_eq!(page.matches("<blockquote").count(), 1, "{page}");
    assert!(page.contains("nim-widget"), "{page}");
    assert!(page.contains("nim-exercise"), "{page}");
    // The rest is mdBook's own: its heading anchors.
    assert!(
        page.contains("<a class=\"header\" href=\"#nim\">"),
        "{page}"
    );
    // The included claim was checked and rendered too.
    let inc = main_of(&tmp.path().join("book/inc.html"));
    assert!(inc.contains("alttext=\"5 ⊕ 3 = 6\""), "{inc}");
    // The assets the pages need are in the site.
    assert!(tmp
        .path()
        .join("book/nimbook/fonts/latinmodern-math.woff2")
        .is_file());
    let html = std::fs::read_to_string(tmp.path().join("book/nim.html")).expect("page");
    assert!(
        html.contains("nimbook/nimbook"),
        "no stylesheet or script linked"
    );
}

#[test]
fn a_false_claim_fails_the_build_at_the_authors_file_and_line() {
    let Some(mdbook) = mdbook() else {
        return skip("no mdbook on PATH");
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    small_book(tmp.path(), "");
    assert!(install(tmp.path()).status.success());
    // In the included file, line 4: 5 ⊕ 3 is 6, not 7.
    write(
        tmp.path(),
        "src/parts/claims.md",
        "Some words.\n\n```nim\n5 + 3 = 7\n```\n",
    );
    let built = run_mdbook(&mdbook, &["build"], tmp.path());
    let out = text(&built);
    assert!(!built.status.success(), "{out}");
    assert!(out.contains("error: claim does not hold"), "{out}");
    assert!(out.contains("--> src/parts/claims.md:4:1"), "{out}");

    // In a chapter's own text, after a span: line 3, column 13 (the span's claim).
    write(
        tmp.path(),
        "src/parts/claims.md",
        "Some words.\n\n```nim\n5 + 3 = 6\n```\n",
    );
    write(
        tmp.path(),
        "src/inc.md",
        "# Included\n\nA claim: `nim: 2 * 3 = 2` here.\n\n{{#include parts/claims.md}}\n",
    );
    let built = run_mdbook(&mdbook, &["build"], tmp.path());
    let out = text(&built);
    assert!(!built.status.success(), "{out}");
    assert!(out.contains("--> src/inc.md:3:"), "{out}");
}

#[test]
fn lints_configured_in_the_preprocessor_table_apply() {
    let Some(mdbook) = mdbook() else {
        return skip("no mdbook on PATH");
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    small_book(
        tmp.path(),
        "\n[preprocessor.nimbook]\ncommand = \"nimbook mdbook\"\nunverified-numbers = \"deny\"\n",
    );
    write(
        tmp.path(),
        "src/inc.md",
        "# Included\n\nThere are 42 heaps.\n",
    );
    let built = run_mdbook(&mdbook, &["build"], tmp.path());
    let out = text(&built);
    assert!(!built.status.success(), "{out}");
    assert!(out.contains("--> src/inc.md:3:11"), "{out}");

    // Not named, the lints are off, as in nimbook's own build of an mdBook book.
    write(
        tmp.path(),
        "book.toml",
        "[book]\ntitle = \"Small\"\n[preprocessor.nimbook]\ncommand = \"nimbook mdbook\"\n",
    );
    let built = run_mdbook(&mdbook, &["build"], tmp.path());
    assert!(built.status.success(), "{}", text(&built));
}

/// A chapter with an exercise, a choice and worked answers that state both keys.
const GRADED_CHAPTER: &str = "# Exercises\n\n\
    ```nimbook\nexercise(\"Compute 6 ⊗ 13\", 6 * 13)\n\
    choice(\"Which positions are P?\", [nim(1, 2, 3), nim(5, 5), nim(1, 2)])\n```\n\n\
    <details>\n<summary>Worked answers</summary>\n\n\
    Multiply by parts: `nim: 6 * 13 = 15`; `nim: nim(1, 2, 3) is P` and `nim: nim(5, 5) is P`.\n\n\
    </details>\n\nAfter the answers.\n";

#[test]
fn graded_mode_in_the_preprocessor_table_hides_every_key() {
    let Some(mdbook) = mdbook() else {
        return skip("no mdbook on PATH");
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    let table = "[preprocessor.nimbook]\ncommand = \"nimbook mdbook\"\n";
    let book = |graded: &str| format!("[book]\ntitle = \"Graded\"\n{table}{graded}");
    write(tmp.path(), "book.toml", &book("answers = \"hidden\"\n"));
    write(tmp.path(), "src/SUMMARY.md", "# Summary\n\n- [Ex](ex.md)\n");
    write(tmp.path(), "src/ex.md", GRADED_CHAPTER);
    let built = run_mdbook(&mdbook, &["build"], tmp.path());
    assert!(built.status.success(), "{}", text(&built));
    let page = main_of(&tmp.path().join("book/ex.html"));
    // No key in plain text, no worked answers, no "Show the answer"; the text after them stays.
    for leak in [
        "data-answer=",
        "Multiply by parts",
        "Worked answers",
        "Show the answer",
    ] {
        assert!(!page.contains(leak), "{leak} in {page}");
    }
    assert!(page.contains("After the answers."), "{page}");
    // 6 ⊗ 13 = 15 (Conway's table), salted with the book's title and the question's place.
    let hash = crate::exercises::sha256_hex("Graded/ex.md#exercise-1\n15");
    assert!(page.contains(&format!("data-hash=\"{hash}\"")), "{page}");
    assert_eq!(page.matches("data-hash=").count(), 2, "{page}");

    // The default (self-study) keeps the key and the worked answers.
    write(tmp.path(), "book.toml", &book(""));
    let built = run_mdbook(&mdbook, &["build"], tmp.path());
    assert!(built.status.success(), "{}", text(&built));
    let page = main_of(&tmp.path().join("book/ex.html"));
    assert!(page.contains("data-answer=\"15\"") && page.contains("Multiply by parts"));
}

#[test]
fn another_renderer_gets_the_claims_as_plain_text() {
    let Some(mdbook) = mdbook() else {
        return skip("no mdbook on PATH");
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    small_book(
        tmp.path(),
        "\n[preprocessor.nimbook]\ncommand = \"nimbook mdbook\"\n\n[output.markdown]\n",
    );
    let built = run_mdbook(&mdbook, &["build"], tmp.path());
    assert!(built.status.success(), "{}", text(&built));
    let md = std::fs::read_to_string(tmp.path().join("book/nim.md"))
        .or_else(|_| std::fs::read_to_string(tmp.path().join("book/markdown/nim.md")))
        .expect("the markdown renderer's chapter");
    assert!(md.contains("The product 15 in running text."), "{md}");
    assert!(md.contains("6 ⊗ 13 = 15 ✓ verified"), "{md}");
    assert!(!md.contains("<math"), "{md}");
    assert!(!md.contains("```nim\n"), "{md}");

    // A false claim fails for this renderer too.
    write(
        tmp.path(),
        "src/parts/claims.md",
        "Some words.\n\n```nim\n5 + 3 = 7\n```\n",
    );
    let built = run_mdbook(&mdbook, &["build"], tmp.path());
    assert!(!built.status.success(), "{}", text(&built));
}

/// Every file under `dir`, relative, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<_> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|entry| entry.expect("a readable entry"))
        .filter(|entry| !entry.file_type().is_dir())
        .map(|entry| {
            let rel = entry.path().strip_prefix(dir).expect("under").to_path_buf();
            (rel, std::fs::read(entry.path()).expect("read"))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn install_keeps_comments_and_twice_changes_nothing() {
    let tmp = tempfile::tempdir().expect("temp dir");
    small_book(
        tmp.path(),
        "\n[output.html]\nadditional-css = [\"mine.css\"] # mine\n",
    );
    let first = install(tmp.path());
    assert!(first.status.success(), "{}", text(&first));
    let toml = std::fs::read_to_string(tmp.path().join("book.toml")).expect("book.toml");
    assert!(
        toml.starts_with("# my book\n[book]\ntitle = \"Small\" # kept\n"),
        "{toml}"
    );
    assert!(toml.contains("\"mine.css\""), "{toml}");
    assert!(toml.contains("[preprocessor.nimbook]"), "{toml}");
    let before = files(tmp.path());
    let second = install(tmp.path());
    assert!(second.status.success(), "{}", text(&second));
    assert_eq!(files(tmp.path()), before);
}

#[test]
fn supports_every_renderer() {
    for renderer in ["html", "markdown", "epub"] {
        let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
            .args(["mdbook", "supports", renderer])
            .output()
            .expect("run");
        assert!(o.status.success(), "{renderer}");
    }
}

#[test]
fn the_mdbook_guide_with_a_chapter_of_claims() {
    let Some(mdbook) = mdbook() else {
        return skip("no mdbook on PATH");
    };
    let Some(books) = realbooks() else {
        return skip("no real books");
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    copy_dir(&books.join("mdbook-guide"), tmp.path());
    let guide = tmp.path().join("guide");
    let summary = guide.join("src/SUMMARY.md");
    let s = std::fs::read_to_string(&summary).expect("SUMMARY.md");
    // A numbered chapter after the user guide's last one (the summary ends with suffix
    // chapters, which a list may not follow).
    let last = "- [Creating a book](guide/creating.md)\n";
    assert!(s.contains(last), "the guide's SUMMARY.md changed");
    let s = s.replacen(last, &format!("{last}- [Nimbers](nimbers.md)\n"), 1);
    std::fs::write(&summary, s).expect("write");
    write(
        &guide,
        "src/nimbers.md",
        "# Nimbers\n\nThe nim-sum of 3, 5 and 7 is `nim: 3 + 5 + 7`.\n\n\
         ```nim\n6 * 13 = 15\n```\n\n```nimbook\nmultiplication_table(4)\n```\n",
    );
    assert!(install(&guide).status.success());
    let built = run_mdbook(&mdbook, &["build"], &guide);
    assert!(built.status.success(), "{}", text(&built));
    let page = main_of(&guide.join("book/nimbers.html"));
    // 3 ⊕ 5 ⊕ 7 = 1: XOR.
    assert!(
        page.contains(&format!("<math alttext=\"{}\">", 3 ^ 5 ^ 7)),
        "{page}"
    );
    assert!(page.contains("✓ verified"), "{page}");
    assert!(page.contains("nim-table"), "{page}");
    // The guide's own pages are still there, MathJax's LaTeX untouched.
    let math = std::fs::read_to_string(guide.join("book/format/mathjax.html")).expect("page");
    assert!(math.contains("\\("), "the guide's LaTeX is left to MathJax");

    // One wrong claim: the build fails at its line.
    write(
        &guide,
        "src/nimbers.md",
        "# Nimbers\n\nText.\n\n```nim\n6 * 13 = 14\n```\n",
    );
    let built = run_mdbook(&mdbook, &["build"], &guide);
    let out = text(&built);
    assert!(!built.status.success(), "{out}");
    assert!(out.contains("--> src/nimbers.md:6:1"), "{out}");
}
