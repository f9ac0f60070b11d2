//! Proof coverage: one fixture book per kind of finding (or of non-finding) under
//! `tests/fixtures/coverage/<kind>/`, with the human and the JSON output snapshotted; and the
//! lint levels from `book.toml` and the command line.

use crate::common::{copy_fixture, fixture, nimbook};

/// Standard error as written: these snapshots hold LaTeX, whose backslashes must stay.
fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn every_kind_has_a_snapshot_in_both_formats() {
    let dir = fixture("coverage");
    let mut kinds: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    kinds.sort();
    assert!(kinds.len() >= 20, "{kinds:?}");
    for kind in kinds {
        let book = dir.join(&kind);
        let human = nimbook(&["check"], &book);
        // Warnings by default: the check passes, unless the span itself is malformed or false.
        let expected = match kind.as_str() {
            "malformed-span" | "operand-failing" => 1,
            _ => 0,
        };
        assert_eq!(
            human.status.code(),
            Some(expected),
            "{kind}: {}",
            stderr(&human)
        );
        insta::assert_snapshot!(format!("{kind}-human"), stderr(&human));
        let json = nimbook(&["check", "--message-format", "json"], &book);
        let out = String::from_utf8_lossy(&json.stdout).into_owned();
        for line in out.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            assert!(v["code"].is_string(), "{kind}: {line}");
            assert!(v["line"].as_u64().is_some_and(|l| l >= 1), "{kind}: {line}");
        }
        insta::assert_snapshot!(format!("{kind}-json"), out);
    }
}

/// The numeral of each prose kind is found where it stands.
#[test]
fn findings_point_at_the_numeral() {
    for (kind, at) in [
        ("prose", "content/lesson.md:3:13"),
        ("heading", "content/lesson.md:3:8"),
        ("table-cell", "content/lesson.md:5:7"),
        ("list", "content/lesson.md:4:13"),
        ("alt-text", "content/lesson.md:3:16"),
        ("latex-equation", "content/lesson.md:3:22"),
        ("unclosed-latex", "content/lesson.md:3:12"),
    ] {
        let o = nimbook(&["check"], &fixture("coverage").join(kind));
        let err = stderr(&o);
        assert!(
            err.contains("warning: number is not verified") && err.contains(&format!("--> {at}")),
            "{kind}: {err}"
        );
    }
}

#[test]
fn notation_and_exemptions_are_not_findings_and_exemptions_are_counted() {
    let o = nimbook(&["check"], &fixture("coverage/latex-notation"));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    let o = nimbook(&["check"], &fixture("coverage/exemption"));
    let err = stderr(&o);
    assert!(!err.contains("warning"), "{err}");
    assert!(
        err.ends_with("numbers: 0 verified, 0 unverified, 2 exempt\n"),
        "{err}"
    );
}

#[test]
fn the_numbers_line_follows_the_unchanged_summary_and_coverage_adds_lessons() {
    let o = nimbook(&["check", "--coverage"], &fixture("basic"));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    let summary = lines
        .iter()
        .position(|l| *l == "checked 5 claims in 2 lessons: all hold")
        .unwrap_or(usize::MAX - 1);
    assert!(
        lines
            .get(summary + 1)
            .is_some_and(|l| l.starts_with("numbers: ")),
        "{err}"
    );
    assert!(err.contains("  01-sums.md: numbers: "), "{err}");
}

#[test]
fn a_denied_lint_fails_the_build_and_writes_nothing() {
    let book = copy_fixture("coverage-levels");
    let o = nimbook(&["build", "-d", "out"], book.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error: number is not verified"), "{err}");
    assert!(err.contains("--> content/lesson.md:3:11"), "{err}");
    // vacuous-claims = "allow" in book.toml: not reported.
    assert!(!err.contains("computes nothing"), "{err}");
    assert!(!book.path().join("out").exists());
}

#[test]
fn the_command_line_overrides_the_book() {
    let book = fixture("coverage-levels");
    let o = nimbook(&["check", "--warn", "unverified-numbers"], &book);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("warning: number is not verified"), "{err}");
    let o = nimbook(&["check", "--deny", "vacuous-claims"], &book);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error: this claim computes nothing"), "{err}");
    let o = nimbook(
        &[
            "check",
            "--warn",
            "unverified-numbers",
            "--warn",
            "vacuous-claims",
        ],
        &book,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: this claim computes nothing"),
        "{err}"
    );
    // A default book warns; --deny makes it fail.
    let o = nimbook(
        &["check", "--deny", "unverified-numbers"],
        &fixture("coverage/prose"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // An unknown lint is a usage error; a lint's diagnostic code names it too (issue 31:
    // `--deny broken-link`).
    let o = nimbook(&["check", "--deny", "unverified-numerals"], &book);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = nimbook(&["check", "--deny", "unverified-number"], &book);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn github_format_uses_warning_for_warnings() {
    let o = nimbook(
        &["check", "--message-format", "github"],
        &fixture("coverage/prose"),
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("::warning file=content/lesson.md,line=3,col=13"),
        "{out}"
    );
}

/// The operand rule, fixture by fixture: which numerals a `nim:` span of the same sentence
/// verifies, and where the unverified ones stand.
#[test]
fn a_span_verifies_its_operands_in_its_own_sentence_only() {
    for (kind, unverified, numbers) in [
        (
            "operand-same-sentence",
            &[][..],
            "numbers: 9 verified, 0 unverified, 0 exempt",
        ),
        (
            "operand-next-sentence",
            &["3:59", "5:11"][..],
            "numbers: 5 verified, 2 unverified, 0 exempt",
        ),
        (
            "operand-not-literal",
            &["3:62"][..],
            "numbers: 5 verified, 1 unverified, 0 exempt",
        ),
        (
            "operand-vacuous",
            &["3:13"][..],
            "numbers: 0 verified, 1 unverified, 0 exempt",
        ),
        (
            "operand-failing",
            &["3:10", "3:16"][..],
            "numbers: 0 verified, 2 unverified, 0 exempt",
        ),
        (
            "operand-latex",
            &["3:80", "3:90", "3:95"][..],
            "numbers: 6 verified, 3 unverified, 0 exempt",
        ),
        (
            "operand-table-row",
            &["6:3", "6:7", "6:11"][..],
            "numbers: 5 verified, 3 unverified, 0 exempt",
        ),
    ] {
        let o = nimbook(&["check"], &fixture("coverage").join(kind));
        let err = stderr(&o);
        let found: Vec<&str> = err
            .split("warning: number is not verified\n")
            .skip(1)
            .filter_map(|w| w.split("--> content/lesson.md:").nth(1))
            .filter_map(|w| w.lines().next())
            .collect();
        assert_eq!(found, unverified, "{kind}: {err}");
        assert!(err.ends_with(&format!("{numbers}\n")), "{kind}: {err}");
    }
    let o = nimbook(&["check"], &fixture("coverage/operand-failing"));
    assert!(
        stderr(&o).contains("error: claim does not hold"),
        "{}",
        stderr(&o)
    );
}

/// Five lessons of 60 unverified numbers each: the first 200 findings are shown one by one,
/// and every number is accounted for exactly once, one by one or in a sum.
#[test]
fn a_book_shows_at_most_two_hundred_findings_and_sums_up_the_rest() {
    let book = tempfile::tempdir().expect("temp dir");
    std::fs::write(book.path().join("book.toml"), "[book]\ntitle = \"many\"\n").expect("toml");
    let content = book.path().join("content");
    std::fs::create_dir(&content).expect("content");
    for lesson in 1..=5 {
        let heaps: Vec<String> = (1..=60).map(|n| format!("heap {n}")).collect();
        let text = format!("# Lesson\n\nThe heaps are {}.\n", heaps.join(", "));
        std::fs::write(content.join(format!("{lesson:02}.md")), text).expect("lesson");
    }
    let o = nimbook(&["check"], book.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let one_by_one = err.matches("warning: number is not verified\n").count();
    assert_eq!(
        one_by_one + err.matches("in this lesson are not verified").count(),
        200
    );
    // The sums: "N more numbers in this lesson" and, once, "N more numbers in K lessons".
    let summed: usize = err
        .lines()
        .filter_map(|l| l.strip_prefix("warning: "))
        .filter_map(|l| l.strip_suffix(" are not verified"))
        .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok())
        .sum();
    assert_eq!(one_by_one + summed, 300, "{err}");
    assert_eq!(err.matches("lessons are not verified").count(), 1, "{err}");
    assert!(
        err.contains("only the first 200 unverified numbers of a book are shown one by one"),
        "{err}"
    );
    assert!(
        err.ends_with("numbers: 0 verified, 300 unverified, 0 exempt\n"),
        "{err}"
    );
}

/// The text of every unverified number of a lesson checked on its own, in order.
fn unverified_in(text: &str) -> Vec<String> {
    let lesson = nimbook::site::lesson::check_lesson(
        text,
        "a.md",
        &nimbook::site::lesson::LessonSettings::default(),
    );
    let found: Vec<String> = lesson
        .diagnostics
        .iter()
        .filter(|d| d.code == nimbook::diag::Code::UnverifiedNumber)
        .filter_map(|d| d.location.as_ref())
        .map(|(_, span)| text[span.clone()].to_string())
        .collect();
    assert_eq!(found.len(), lesson.numbers.unverified);
    found
}

#[test]
fn the_issues_examples_are_unverified() {
    // Number words and ordinals, in prose and headings.
    assert_eq!(
        unverified_in("# The third row\n\nTwo rows of six squares.\n"),
        ["third", "Two", "six"]
    );
    // 5 ⊕ 7 = 2: a `≠` claim verifies none of its literals.
    assert_eq!(
        unverified_in("The nim-sum of 5 and 7 is 12, as `nim: 5 + 7 ≠ 12` shows.\n"),
        ["5", "7", "12"]
    );
    // `17 + 0` computes nothing new.
    assert_eq!(
        unverified_in("A board of 17 cells, `nim: 17 + 0`.\n"),
        ["17"]
    );
    // A text block is counted; a nim block right after it verifies it (2 ⊕ 3 = 1).
    assert_eq!(unverified_in("```text\ngap 2, gap 3\n```\n"), ["2", "3"]);
    assert_eq!(
        unverified_in("```text\ngap 2, gap 3\n```\n\n```nim\n2 + 3 = 1\n```\n"),
        Vec::<String>::new()
    );
    // What verifies a word: the value a span shows (2 ⊕ 3 = 1), or a literal of an `=` claim.
    assert_eq!(
        unverified_in("Heaps of two and three have nim-sum `nim: 2 + 3`, that is one.\n"),
        Vec::<String>::new()
    );
    // The pronoun `one` is not a number; `{…}` exempts a word.
    assert_eq!(
        unverified_in("The one on the left is for {two} players.\n"),
        Vec::<String>::new()
    );
}
