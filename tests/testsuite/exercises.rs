//! Exercises on the page: the `exercises` fixture book built with the real binary, its
//! exercise blocks snapshotted, and the answer key of its handout checked against the engine
//! (`nimbook calc`, which evaluates each answer expression afresh).

use crate::common::copy_fixture;

use std::path::Path;
use std::process::{Command, Output};

fn nimbook(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run nimbook")
}

fn calc(expr: &str) -> String {
    let o = nimbook(&["calc", expr]);
    assert!(o.status.success(), "calc {expr}: {:?}", o);
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Every element that starts with `<section class="nim-…` up to its `</section>`, one to a line.
fn sections(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<section class=\"nim-") {
        let tail = &rest[start..];
        let end = tail.find("</section>").expect("closed") + "</section>".len();
        out.push_str(&tail[..end]);
        out.push('\n');
        rest = &tail[end..];
    }
    out
}

fn attr<'a>(tag: &'a str, name: &str) -> &'a str {
    let key = format!("{name}=\"");
    let start = tag.find(&key).expect(name) + key.len();
    let len = tag[start..].find('"').expect("closed");
    &tag[start..start + len]
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn exercise_blocks_render_with_keys_computed_by_the_build() {
    let book = copy_fixture("exercises");
    let root = book.path();
    let o = nimbook(&["build", root.to_str().expect("utf-8")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains(": all hold"), "{err}");
    let page = std::fs::read_to_string(root.join("out/01-answer.html")).expect("page");
    insta::assert_snapshot!("exercise_sections", sections(&page));
    // Known answers, from the definitions rather than from the engine: 6 ⊗ 13 = 15 (the
    // mdBook-free worked example of the course), 5 ⊕ 9 ⊕ 12 = 0101 ^ 1001 ^ 1100 = 0000,
    // Kayles on 5 pins has Grundy value 4 (Guy and Smith's table), Nim 1, 2, 3 is P,
    // and 7 ⊗ 11 = 1 (so the inverse of 7 is 11).
    for (id, key) in [
        ("exercise-1", "15"),
        ("exercise-2", "0"),
        ("exercise-3", "4"),
        ("exercise-4", "P"),
        ("exercise-5", "11"),
        // Nim positions: 1 ⊕ 2 ⊕ 3 = 0 and 5 ⊕ 5 = 0 are P, 1 ⊕ 2 ⊕ 4 = 7 is not.
        ("exercise-6", "0,2"),
        // 6 ⊗ 13 = 15 holds; 2 ⊗ 2 = 3, not 4; nim(1, 1) is P.
        ("exercise-7", "0,2"),
        // 2 ⊗ 3 = 1: option 0 of [1, 5, 6].
        ("exercise-8", "0"),
    ] {
        let at = page
            .find(&format!("id=\"{id}\""))
            .unwrap_or_else(|| panic!("{id}"));
        let tag = &page[page[..at].rfind('<').expect("tag")..][..300];
        assert_eq!(attr(tag, "data-answer"), key, "{id}: {tag}");
    }
    // The sidebar (one table of contents for the site, in toc.js) knows how many exercises the
    // lesson has, for the progress mark.
    let toc = std::fs::read_to_string(root.join("out/toc.js")).expect("toc.js");
    assert!(
        toc.contains("data-exercises=\\\"8\\\""),
        "no exercise count"
    );
    assert!(page.contains("exercise.js\" data-root=\"\""));
    assert!(root.join("out/exercise.js").is_file());
}

#[test]
fn a_handouts_answer_key_agrees_with_the_engine() {
    let book = copy_fixture("exercises");
    let file = book.path().join("handout.html");
    let o = nimbook(&[
        "handout",
        "--all",
        book.path().to_str().expect("utf-8"),
        "-o",
        file.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{:?}", o);
    let html = std::fs::read_to_string(&file).expect("handout");
    let key_at = html.find("id=\"answer-key\"").expect("an answer key");
    // The key comes after every lesson.
    assert!(html.rfind("handout-lesson").expect("lesson") < key_at);
    let key = &html[key_at..];
    let items: Vec<&str> = key.split("<li ").skip(1).collect();
    assert_eq!(items.len(), 8, "{key}");
    let mut choices = Vec::new();
    for item in items {
        let source = unescape(attr(item, "data-source"));
        let answer = unescape(attr(item, "data-answer"));
        // Each entry links to its question in the handout.
        let target = attr(item, "href").trim_start_matches('#');
        assert!(html.contains(&format!("id=\"{target}\"")), "{target}");
        if source.starts_with('[') {
            choices.push(answer);
        } else {
            assert_eq!(calc(&source), answer, "the key of {source}");
        }
    }
    // The choices: judge every option with the engine and compare with the key.
    let positions = ["nim(1, 2, 3)", "nim(1, 2, 4)", "nim(5, 5)"];
    let p: Vec<&str> = positions
        .iter()
        .copied()
        .filter(|g| calc(&format!("outcome({g})")) == "P")
        .collect();
    assert_eq!(choices[0], p.join("; "));
    let claims = ["6 * 13 = 15", "2 * 2 = 4", "nim(1, 1) is P"];
    let holds: Vec<&str> = claims
        .iter()
        .copied()
        .filter(|c| calc(c) == "true")
        .collect();
    assert_eq!(choices[1], holds.join("; "));
    let values = ["1", "5", "6"];
    let v = calc("2 * 3");
    assert_eq!(
        choices[2],
        values.iter().copied().find(|x| *x == v).expect("a match")
    );
    // The exercises print as questions with a blank, and the page script comes along.
    assert!(html.contains("nim-exercise-blank"));
    assert!(html.contains("nimbookNimber"));
}

#[test]
fn an_exercise_answer_that_fails_is_a_located_error_and_nothing_is_written() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/errors/exercise-answer");
    let out = tempfile::tempdir().expect("temp");
    let o = nimbook(&[
        "build",
        dir.to_str().expect("utf-8"),
        "-d",
        out.path().join("site").to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--> content/lesson.md:4:27"));
    assert!(!out.path().join("site").exists());
}
