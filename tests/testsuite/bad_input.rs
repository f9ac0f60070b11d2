//! Hostile sizes: a huge lesson, a huge SUMMARY.md, nesting a thousand levels deep. Each builds
//! or is refused with an error that names the limit; none panics, hangs or exhausts memory.
//! The inputs are generated here, not committed.

use std::path::Path;
use std::process::{Command, Output};

fn book(files: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        tmp.path().join("book.toml"),
        "[book]\ntitle = \"t\"\nsrc = \"src\"\n\n[nimbook]\n",
    )
    .expect("book.toml");
    std::fs::create_dir_all(tmp.path().join("src")).expect("src");
    for (name, text) in files {
        std::fs::write(tmp.path().join("src").join(name), text).expect("write");
    }
    tmp
}

fn build(dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(["build"])
        .arg(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run nimbook")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_lesson_of_50_mb_is_refused_with_the_limit_named_and_nothing_written() {
    let paragraph = "Some prose about nim, with `code` and $*3 \\oplus *5$.\n\n";
    let big = paragraph.repeat(50_000_000 / paragraph.len() + 1);
    let tmp = book(&[("big.md", &big), ("small.md", "# Small\n")]);
    let o = build(tmp.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("src/big.md is"), "{err}");
    assert!(err.contains("`max-lesson-bytes`"), "{err}");
    assert!(!tmp.path().join("book").exists());
    // Raising the limit in book.toml lets a larger lesson through.
    std::fs::write(
        tmp.path().join("book.toml"),
        "[book]\ntitle = \"t\"\nsrc = \"src\"\n[nimbook]\nmax-lesson-bytes = 100\n",
    )
    .expect("book.toml");
    std::fs::write(tmp.path().join("src/big.md"), "# Big\n\n".repeat(20)).expect("write");
    let o = build(tmp.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("more than the limit of 100 bytes"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_summary_of_100_000_entries_builds() {
    let mut summary = String::from("# Summary\n\n- [First](first.md)\n");
    for i in 0..100_000 {
        summary.push_str(&format!("- [Draft {i}]()\n"));
    }
    summary.push_str("- [Last](last.md)\n");
    let tmp = book(&[
        ("SUMMARY.md", &summary),
        ("first.md", "# First\n\nSee [the last](last.md).\n"),
        ("last.md", "# Last\n"),
    ]);
    let o = build(tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let toc = std::fs::read_to_string(tmp.path().join("book/toc.js")).expect("contents");
    // Numbered after the hundred thousand drafts before it.
    assert!(toc.contains("100002."), "{toc}");
}

#[test]
fn nesting_1000_levels_deep_builds() {
    let mut summary = String::from("# Summary\n\n");
    for depth in 0..1000 {
        let target = if depth == 999 { "deep.md" } else { "" };
        summary.push_str(&format!(
            "{}- [Level {depth}]({target})\n",
            "  ".repeat(depth)
        ));
    }
    let mut lesson = String::from("# Deep\n\n");
    lesson.push_str(&">".repeat(1000));
    lesson.push_str(" quoted\n\n");
    for depth in 0..1000 {
        lesson.push_str(&format!("{}- item {depth}\n", "  ".repeat(depth)));
    }
    lesson.push('\n');
    lesson.push_str(&format!("{}x{}\n\n", "*".repeat(1000), "*".repeat(1000)));
    lesson.push_str(&format!("{}x{}\n\n", "[".repeat(1000), "]".repeat(1000)));
    lesson.push_str(&format!(
        "`nim: {}1{}`\n",
        "(".repeat(1000),
        ")".repeat(1000)
    ));
    let tmp = book(&[("SUMMARY.md", &summary), ("deep.md", &lesson)]);
    let o = build(tmp.path());
    // The claim nested a thousand deep is refused by the claim parser's depth bound; the rest
    // of the page renders.
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("deep.md"), "{err}");
    let lesson = lesson.replace(
        &format!("`nim: {}1{}`\n", "(".repeat(1000), ")".repeat(1000)),
        "",
    );
    std::fs::write(tmp.path().join("src/deep.md"), lesson).expect("write");
    let o = build(tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = std::fs::read_to_string(tmp.path().join("book/deep.html")).expect("page");
    assert!(page.contains("item 999"));
}
