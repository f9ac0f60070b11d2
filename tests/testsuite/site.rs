//! Integration tests: build fixture books with the real binary and look at the result.

use crate::common::{copy_fixture, fixture, nimbook, stderr};

use std::path::Path;
use std::process::Command;

#[test]
fn basic_book_builds_with_verified_claims_and_navigation() {
    let book = copy_fixture("basic");
    let o = nimbook(&["build"], book.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("checked 5 claims in 2 lessons: all hold"),
        "{}",
        stderr(&o)
    );
    let out = book.path().join("out");
    let sums = std::fs::read_to_string(out.join("01-sums.html")).expect("page");
    let products = std::fs::read_to_string(out.join("02-products.html")).expect("page");
    let index = std::fs::read_to_string(out.join("index.html")).expect("index");
    // Claims are rendered as MathML with the nim symbols and a verified mark.
    assert!(
        sums.contains("<mn>6</mn><mo>⊗</mo><mn>13</mn><mo>=</mo><mn>15</mn>"),
        "{sums}"
    );
    assert!(sums.contains("✓ verified"));
    // The inline value form shows the computed value, 7 ⊕ 14 = 9.
    assert!(sums.contains("<span class=\"nim-value\""));
    assert!(sums.contains("<mn>9</mn></math>"));
    // Ordinary code is highlighted at build time.
    assert!(sums.contains("class=\"hl-"), "no highlighting in {sums}");
    // Previous and next links.
    assert!(sums.contains("href=\"02-products.html\""));
    assert!(products.contains("rel=\"prev\" href=\"01-sums.html\""));
    // Links to lessons point at their pages.
    assert!(
        sums.contains("href=\"02-products.html#fermat-powers\""),
        "{sums}"
    );
    // Heading anchors and the index's table of contents.
    assert!(products.contains("id=\"fermat-powers\""));
    assert!(index.contains("Basic fixture") && index.contains("01-sums.html"));
    assert!(out.join("style.css").is_file() && out.join("highlight.css").is_file());
}

#[test]
fn check_writes_nothing_and_prints_the_summary() {
    let book = copy_fixture("basic");
    let o = nimbook(&["check"], book.path());
    assert_eq!(o.status.code(), Some(0));
    // The summary line is unchanged; the number account follows it.
    assert!(stderr(&o).contains("checked 5 claims in 2 lessons: all hold\nnumbers: "));
    assert!(!book.path().join("out").exists());
}

#[test]
fn false_claim_fails_the_build_with_its_location_and_writes_nothing() {
    let book = copy_fixture("false-claim");
    let o = nimbook(&["build"], book.path());
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("error: claim does not hold"), "{err}");
    assert!(err.contains("--> content/lesson.md:5:1"), "{err}");
    assert!(
        err.contains("--> content/lesson.md:8:19"),
        "every failure is reported: {err}"
    );
    assert!(
        err.contains("checked 3 claims in 1 lesson: 2 failed"),
        "{err}"
    );
    assert!(
        !book.path().join("out").exists(),
        "a failed build must not create output"
    );
    insta::assert_snapshot!("false_claim_diagnostics", err);
}

#[test]
fn failed_build_leaves_the_previous_site_untouched() {
    let book = copy_fixture("basic");
    assert_eq!(nimbook(&["build"], book.path()).status.code(), Some(0));
    let page = book.path().join("out/01-sums.html");
    let before = std::fs::read(&page).expect("page");
    let lesson = book.path().join("content/01-sums.md");
    let text = std::fs::read_to_string(&lesson).expect("lesson");
    std::fs::write(&lesson, text.replace("6 * 13 = 15", "6 * 13 = 14")).expect("write");
    assert_eq!(nimbook(&["build"], book.path()).status.code(), Some(1));
    assert_eq!(std::fs::read(&page).expect("page"), before);
}

#[test]
fn builds_are_byte_identical() {
    let book = copy_fixture("basic");
    assert_eq!(nimbook(&["build"], book.path()).status.code(), Some(0));
    let first = std::fs::read(book.path().join("out/01-sums.html")).expect("page");
    assert_eq!(nimbook(&["build"], book.path()).status.code(), Some(0));
    let second = std::fs::read(book.path().join("out/01-sums.html")).expect("page");
    assert_eq!(first, second);
}

#[test]
fn syntax_errors_are_reported_with_reasons() {
    let o = nimbook(&["check"], &fixture("syntax-error"));
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("syntax_error_diagnostics", stderr(&o));
}

#[test]
fn unknown_config_key_is_a_configuration_error() {
    let o = nimbook(&["check"], &fixture("unknown-key"));
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("unknown field `colour`"), "{err}");
    assert!(err.contains("book.toml:4:1"), "{err}");
}

#[test]
fn missing_book_toml_is_a_configuration_error() {
    let tmp = tempfile::tempdir().expect("tmp");
    let o = nimbook(&["build"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("book.toml"), "{}", stderr(&o));
}

#[test]
fn non_utf8_lesson_is_named() {
    let book = copy_fixture("basic");
    std::fs::write(book.path().join("content/03-bad.md"), b"# Bad\n\xff\xfe\n").expect("write");
    let o = nimbook(&["build"], book.path());
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("content/03-bad.md is not valid UTF-8"),
        "{err}"
    );
    assert!(err.contains("content/03-bad.md:2:1"), "{err}");
    assert!(!book.path().join("out").exists());
}

#[test]
fn output_folder_holding_the_sources_is_refused() {
    let book = copy_fixture("basic");
    let o = nimbook(&["build", "--dest-dir", "."], book.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(book.path().join("content/01-sums.md").is_file());
}

#[test]
fn calc_answers_every_line_and_fails_on_errors() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(["calc", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"6 * 13\n1 / 0\n100 * 200\n7 + 14 = 9\n")
        .expect("write");
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "15\n62\ntrue\n");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: division by zero"), "{err}");
    let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(["calc", "6 * 13", "100 * 200"])
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "15\n62\n");
}

#[test]
fn usage_errors_exit_with_2() {
    let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .arg("frobnicate")
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_shipped_course_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = nimbook(&["check"], root);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn every_math_element_is_well_formed_xml() {
    let book = copy_fixture("basic");
    assert_eq!(nimbook(&["build"], book.path()).status.code(), Some(0));
    let mut count = 0;
    for page in ["01-sums.html", "02-products.html"] {
        let html = std::fs::read_to_string(book.path().join("out").join(page)).expect("page");
        let mut rest = html.as_str();
        while let Some(start) = rest.find("<math") {
            let end = rest[start..].find("</math>").expect("closed math") + start + "</math>".len();
            let math = &rest[start..end];
            roxmltree::Document::parse(math).unwrap_or_else(|e| panic!("{e}: {math}"));
            count += 1;
            rest = &rest[end..];
        }
    }
    assert!(count >= 8, "only {count} math elements");
}

#[test]
fn a_claim_in_a_heading_reads_as_notation_in_the_contents_and_the_anchor() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let content = tmp.path().join("content");
    std::fs::create_dir_all(&content).expect("content");
    std::fs::write(tmp.path().join("book.toml"), "[book]\ntitle = \"t\"\n").expect("toml");
    std::fs::write(content.join("SUMMARY.md"), "# Summary\n\n- [A](a.md)\n").expect("summary");
    std::fs::write(
        content.join("a.md"),
        "# A\n\n## Why `nim: 2 * 3 = 1` holds\n\nText.\n",
    )
    .expect("lesson");
    let o = nimbook(&["build"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = std::fs::read_to_string(tmp.path().join("book/a.html")).expect("page");
    // 2 ⊗ 3 = 1 is what the reader reads, so the "On this page" entry says it, and the anchor
    // is made from it, not from the source spelling `nim: 2 * 3 = 1`.
    assert!(page.contains("<h2 id=\"why-2-3-1-holds\">"), "{page}");
    assert!(
        page.contains("href=\"#why-2-3-1-holds\">Why 2 ⊗ 3 = 1 holds</a>"),
        "{page}"
    );
    assert!(!page.contains("nim: 2"), "{page}");
}
