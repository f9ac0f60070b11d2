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
