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

/// SHA-256 as hex, straight from the `sha2` crate: the oracle for the hashes the pages carry.
pub(crate) fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Known answers of the `graded` fixture, from the definitions (see the test above for why):
/// 6 ⊗ 13 = 15, 5 ⊕ 9 ⊕ 12 = 0, Kayles 5 is 4, Nim 1, 2, 3 is P, 7 ⊗ 11 = 1; 2 generates
/// GF(4)* (2 ⊗ 2 = 3, 2 ⊗ 3 = 1), 3 ⊕ 12 = 15; the P-positions are options 0 and 2, and the
/// claims that hold are options 0 and 2.
const GRADED: [(&str, &str); 9] = [
    ("exercise-1", "15"),
    ("exercise-2", "0"),
    ("exercise-3", "4"),
    ("exercise-4", "P"),
    ("exercise-5", "11"),
    ("exercise-6", "true"),
    ("exercise-7", "15"),
    ("exercise-8", "0,2"),
    ("exercise-9", "0,2"),
];

#[test]
fn graded_pages_carry_salted_hashes_and_no_key() {
    let book = copy_fixture("graded");
    let root = book.path();
    let o = nimbook(&["build", root.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let page = std::fs::read_to_string(root.join("out/01-graded.html")).expect("page");
    let print = std::fs::read_to_string(root.join("out/print.html")).expect("print");
    for html in [&page, &print] {
        assert!(!html.contains("data-answer"), "a key in the page");
        assert!(
            !html.contains("nim-exercise-answer"),
            "a Show-the-answer box"
        );
        // The worked answers state the answers: left out.
        assert!(
            !html.contains("cancel heap by heap"),
            "worked answers in the page"
        );
        assert!(
            !html.contains("Worked answers"),
            "worked answers in the page"
        );
    }
    let mut hashes = std::collections::HashSet::new();
    for (id, answer) in GRADED {
        let at = page.find(&format!("id=\"{id}\"")).expect(id);
        let tag = &page[page[..at].rfind('<').expect("tag")..];
        let tag = &tag[..tag.find('>').expect("end of tag")];
        let salt = unescape(attr(tag, "data-salt"));
        let hash = attr(tag, "data-hash");
        assert!(
            salt.contains(id) && salt.starts_with("Graded fixture/"),
            "{salt}"
        );
        assert_eq!(hash, sha256_hex(&format!("{salt}\n{answer}")), "{id}");
        hashes.insert(hash.to_string());
    }
    // Exercises 1 and 7 have the same answer, and still different hashes.
    assert_eq!(hashes.len(), GRADED.len());
    // A product's hint is the method, not the worked expansion that ends in the answer.
    let first = &page[page.find("id=\"exercise-1\"").expect("1")..];
    let first = &first[..first.find("</section>").expect("end")];
    assert!(!first.contains("nim-expansion"), "{first}");
}

#[test]
fn handout_answers_writes_the_teachers_key_beside_the_handout() {
    let book = copy_fixture("graded");
    let file = book.path().join("graded.html");
    let o = handout_with_answers(book.path(), &file);
    let key_file = book.path().join("graded.answers.html");
    assert!(String::from_utf8_lossy(&o.stderr).contains("graded.answers.html"));
    // The handout of a graded book has no key: it goes to the teacher's file only.
    let handout = std::fs::read_to_string(&file).expect("handout");
    assert!(!handout.contains("id=\"answer-key\""));
    assert!(!handout.contains("data-answer=\"") && !handout.contains("cancel heap by heap"));
    assert!(handout.contains("data-hash") && handout.contains("sha256"));
    let key = std::fs::read_to_string(&key_file).expect("the teacher's key");
    let items: Vec<&str> = key.split("<li ").skip(1).collect();
    assert_eq!(items.len(), GRADED.len(), "{key}");
    for (item, (_, known)) in items.iter().zip(GRADED) {
        let source = unescape(attr(item, "data-source"));
        let answer = unescape(attr(item, "data-answer"));
        // It links nowhere: the questions are not in the file.
        assert!(!item.contains("href="), "{item}");
        if !source.starts_with('[') {
            assert_eq!(answer, known);
            assert_eq!(calc(&source), answer, "the key of {source}");
        }
    }
    assert!(key.contains("Which positions are P?"), "questions in full");
    assert!(key.contains("nim(1, 2, 3); nim(5, 5)"), "{key}");
    assert!(key.contains("cancel heap by heap"), "the worked answers");
    // Every answer is shown in the key, none behind a "Show the answer" button.
    assert_eq!(
        key.matches("class=\"answer-shown\"").count(),
        GRADED.len(),
        "{key}"
    );
    assert!(!key.contains("Show the answer"), "{key}");
}

/// Runs `nimbook handout --all --answers BOOK -o FILE`, which must succeed.
fn handout_with_answers(book: &Path, file: &Path) -> Output {
    let o = nimbook(&[
        "handout",
        "--all",
        "--answers",
        book.to_str().expect("utf-8"),
        "-o",
        file.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    o
}

#[test]
fn a_self_study_handout_keeps_its_key_and_answers_writes_the_file_too() {
    let book = copy_fixture("exercises");
    let file = book.path().join("h.html");
    handout_with_answers(book.path(), &file);
    let handout = std::fs::read_to_string(&file).expect("handout");
    assert!(handout.contains("id=\"answer-key\"") && handout.contains("data-answer=\"15\""));
    let key = std::fs::read_to_string(book.path().join("h.answers.html")).expect("key");
    assert_eq!(key.split("<li ").count() - 1, 8);
}

/// The `incomplete-answer` check, lesson by lesson.
#[test]
fn a_worked_answer_names_every_correct_option_or_none() {
    use nimbook::site::lesson::{check_lesson, LessonSettings};
    let lesson = |worked: &str| {
        format!(
            "# L\n\n```nimbook\nchoice(\"Which positions are P?\", [nim(1, 2, 3), nim(1, 2, 4), nim(5, 5)])\n```\n\n<details>\n<summary>Worked answers</summary>\n\n{worked}\n\n</details>\n"
        )
    };
    let errors = |worked: &str| {
        check_lesson(&lesson(worked), "l.md", &LessonSettings::default())
            .diagnostics
            .iter()
            .filter(|d| d.code == nimbook::diag::Code::IncompleteAnswer)
            .map(|d| d.position().map(|p| p.1))
            .collect::<Vec<_>>()
    };
    // One of the two P-positions: an error at the claim (line 11 of the lesson).
    assert_eq!(errors("```nim\nnim(1, 2, 3) is P\n```"), [Some(11)]);
    // Inline, inside a larger expression: still named.
    assert_eq!(
        errors("So `nim: grundy(nim(1, 2, 3)) = 0` wins."),
        [Some(10)]
    );
    // Both, in any form of claim: no error.
    assert!(errors("```nim\nnim(1, 2, 3) is P\ngrundy(nim(5, 5)) = 0\n```").is_empty());
    // None named (the build shows the key), or only the wrong one, whose claim is checked.
    assert!(errors("Cancel heap by heap.").is_empty());
    assert!(errors("```nim\nnim(1, 2, 4) is N\n```").is_empty());
    // Outside a worked-answers block a claim is not an explanation.
    let plain = "# L\n\n```nimbook\nchoice(\"Which positions are P?\", [nim(1, 2, 3), nim(5, 5)])\n```\n\n```nim\nnim(1, 2, 3) is P\n```\n";
    assert!(check_lesson(plain, "l.md", &LessonSettings::default())
        .diagnostics
        .is_empty());
}

/// A choice's hint states the rule of its own game (issue 39: Nim's rule, followed, calls
/// `wythoff(8, 13)`, `staircase_nim(3, 1, 3)` and `welter(0, 1, 2)` N-positions, and all three
/// are P), and an exercise's prompt lists the answers it accepts, a draw among them when the
/// game is loopy.
#[test]
fn a_hint_speaks_of_its_own_game_and_a_prompt_lists_its_answers() {
    use nimbook::site::lesson::{check_lesson, LessonSettings};
    let hint_of = |options: &str| {
        let text =
            format!("# L\n\n```nimbook\nchoice(\"Which are P?\", [{options}], \"P\")\n```\n");
        let lesson = check_lesson(&text, "l.md", &LessonSettings::default());
        assert!(lesson.diagnostics.is_empty(), "{:?}", lesson.diagnostics);
        let at = lesson.html.find("nim-hint-title").expect("a hint");
        let end = lesson.html[at..].find("</div>").expect("closed") + at;
        lesson.html[at..end].to_string()
    };
    let nims = "the nim-sum of its heaps is 0";
    for (options, own) in [
        ("wythoff(8, 13), wythoff(9, 14)", "⌊kφ⌋"),
        (
            "staircase_nim(3, 1, 3), staircase_nim(1, 1, 1)",
            "odd steps",
        ),
        ("welter(0, 1, 2), welter(1, 2, 4)", "Welter&#39;s function"),
        (
            "loopy(\"0>1 1>0 1>2\", 0), loopy(\"0>1 1>0\", 0)",
            "a draw (D)",
        ),
        (
            "subtraction([1, 2, 3], 6) + nim(2), subtraction([1, 2, 3], 7) + nim(2)",
            "nim-sum of the values of its parts",
        ),
    ] {
        let hint = hint_of(options);
        assert!(
            hint.contains(own) && !hint.contains(nims),
            "{options}: {hint}"
        );
    }
    assert!(hint_of("nim(1, 2, 3), nim(5, 6)").contains(nims));
    let prompt_of = |answer: &str| {
        let text = format!("# L\n\n```nimbook\nexercise(\"Which?\", {answer})\n```\n");
        let html = check_lesson(&text, "l.md", &LessonSettings::default()).html;
        let at = html.find("Answer to exercise 1 (").expect("a prompt") + 21;
        html[at..at + html[at..].find(')').expect("closed") + 1].to_string()
    };
    assert_eq!(prompt_of("outcome(nim(1, 2, 3))"), "(P or N)");
    assert_eq!(prompt_of("outcome(loopy(\"0>1 1>0\", 0))"), "(P, N or D)");
    // A loopy game that is decided still offers the draw: the prompt must not give it away.
    assert_eq!(
        prompt_of("outcome(loopy(\"0>1 1>0 1>2\", 0))"),
        "(P, N or D)"
    );
    assert_eq!(prompt_of("grundy(nim(3))"), "(a number, such as 12 or 0xC)");
    assert_eq!(prompt_of("is_primitive(2)"), "(true or false)");
}
