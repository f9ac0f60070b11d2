//! The lesson stage as a library call: one lesson's text in, its fragment and findings out, no
//! book on disk.

use nimbook::diag::{Code, Level};
use nimbook::site::lesson::{check_lesson, LessonSettings};
use nimbook::site::{Lint, LintLevel};

#[test]
fn a_lesson_is_checked_without_a_book() {
    let text =
        "# Sums\n\nThe nim-sum `nim: 7 + 14 = 9` holds.\n\n```nim\n6 * 13 = 15\n6 * 13 = 14\n```\n";
    let lesson = check_lesson(text, "part/sums.md", &LessonSettings::default());
    assert_eq!(lesson.claims, 3);
    assert_eq!(lesson.errors, 1);
    let failed = &lesson.diagnostics[0];
    assert_eq!(failed.position(), Some(("part/sums.md".to_string(), 7, 1)));
    assert!(lesson.anchors.contains(&"sums".to_string()));
    assert_eq!(lesson.numbers.unverified, 0);
}

#[test]
fn settings_come_from_book_toml() {
    let toml = "[book]\ntitle = \"t\"\n\n[nimbook]\nunverified-numbers = \"deny\"\n";
    let settings = LessonSettings::from_book_toml(toml, "book.toml").unwrap();
    let lesson = check_lesson("There are 12 heaps.\n", "a.md", &settings);
    assert_eq!(lesson.numbers.unverified, 1);
    assert_eq!(lesson.errors, 1);
    assert_eq!(lesson.diagnostics[0].code, Code::UnverifiedNumber);

    let mut relaxed = settings.clone();
    relaxed.set_lint(Lint::UnverifiedNumbers, LintLevel::Allow);
    assert_eq!(
        check_lesson("There are 12 heaps.\n", "a.md", &relaxed).errors,
        0
    );

    // Without `[nimbook]` (and outside `content/`) a book speaks mdBook's markdown: a `nim`
    // fence is Nim code, not claims.
    let mdbook = LessonSettings::from_book_toml("[book]\ntitle = \"t\"\n", "book.toml").unwrap();
    let lesson = check_lesson("```nim\n6 * 13 = 14\n```\n", "a.md", &mdbook);
    assert_eq!((lesson.claims, lesson.errors), (0, 0));
    assert!(lesson.diagnostics.iter().all(|d| d.level == Level::Warning));

    let bad = LessonSettings::from_book_toml("[nimbook]\nmax-bits = \"x\"\n", "book.toml");
    assert_eq!(bad.unwrap_err().position().map(|p| p.1), Some(2));
}

#[test]
fn links_are_checked_against_the_pages_given() {
    let text = "# Here\n\n[ok](b.md#products) [own](#here) [no anchor](b.md#nope) \
                [no page](c.md) [picture](fig.png) [out](../std/x.html)\n";
    let unchecked = check_lesson(text, "a.md", &LessonSettings::default());
    assert_eq!(unchecked.errors, 0);

    let mut settings = LessonSettings::default();
    settings.set_pages([("b.md".to_string(), vec!["products".to_string()])]);
    let lesson = check_lesson(text, "a.md", &settings);
    let broken: Vec<_> = lesson
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::BrokenLink)
        .map(|d| d.position().map(|p| p.2))
        .collect();
    // `[no anchor](…)` starts at column 34 and `[no page](…)` at 57.
    assert_eq!(broken, [Some(34), Some(57)]);
    assert_eq!(lesson.errors, 2);
}

#[test]
fn no_budget_overflows_however_large() {
    // A library caller may set any limit: none may wrap around and refuse `5 + 3 = 6`, or stop
    // a deadline's arithmetic with a panic.
    let mut settings = LessonSettings::default();
    settings.set_limits(nimbook::claim::Limits {
        max_bits: u64::MAX,
        max_cases: u64::MAX,
        max_nodes: usize::MAX,
        max_depth: 64,
        max_literal_len: usize::MAX,
        max_table: u64::MAX,
        max_terms: usize::MAX,
        game: nimbook::game::Budget {
            max_positions: u64::MAX,
            max_time: std::time::Duration::MAX,
        },
    });
    let text = "```nim\n5 + 3 = 6\nint(3 * 5) = 15\n0x1f + 1 = 30\nforall a < 4: a + a = 0\nforall a, b: a * b = b * a\nint(2 ^ 3) = 8\n```\n";
    let lesson = check_lesson(text, "a.md", &settings);
    assert_eq!(
        (lesson.claims, lesson.errors),
        (6, 0),
        "{:?}",
        lesson.diagnostics
    );
}

#[test]
fn invisible_characters_in_a_snippet_are_escapes() {
    // U+202E would turn the rest of the terminal's line around; U+200B is not seen at all.
    let text = "```nim\n5 + 3 = 7 # \u{202e}evil\u{200b}\n```\n";
    let lesson = check_lesson(text, "a.md", &LessonSettings::default());
    assert_eq!(lesson.errors, 1);
    let shown = lesson.diagnostics[0].render(nimbook::diag::MessageFormat::Human, false);
    assert!(
        shown.contains("5 + 3 = 7 # \\u{202e}evil\\u{200b}"),
        "{shown}"
    );
    assert!(
        !shown.contains('\u{202e}') && !shown.contains('\u{fffd}'),
        "{shown}"
    );
    assert!(shown.contains("--> a.md:2:1"), "{shown}");
}
