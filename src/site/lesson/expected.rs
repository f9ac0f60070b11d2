//! Examples the build runs: a fenced block whose info string says what it must do. A manual
//! that explains a language must show both what to write and what comes of it, and anything
//! typed by hand beside an example goes stale the day the output changes. So:
//!
//! - ```` ```nim fails=false-claim ```` is a *failing example*: the build runs the block on its
//!   own and shows, under its source, the diagnostics exactly as `nimbook build` renders them;
//! - ```` ```markdown example ```` is a *worked example*: the build runs it and shows its source
//!   and then what it makes (for a lesson, the page).
//!
//! The block's own findings never fail the page. What fails it is an example that does not do
//! as it says: a failing example that holds, or reports another code, or names no code; a
//! worked example that reports anything. That is a located `example-mismatch` error at the word
//! that says what to expect.
//!
//! What the block holds is said by its language:
//!
//! - `nim`: claims, checked as a `nim` block of this lesson with a checker of its own (no `let`
//!   of the lesson is visible), so diagnostics name this file and its lines;
//! - `nimbook`: directives, likewise;
//! - `markdown` (or `md`): a whole lesson, `lesson.md`, of a nimbook book with both number lints
//!   denied (as `nimbook init` writes it) and no other lessons, so a link to another page is
//!   broken; with the word `mdbook`, a chapter of an mdBook book instead; with the word
//!   `summary`, a `SUMMARY.md`;
//! - `toml`: a `book.toml`, read as a build reads it (its mdBook keys included).
//!
//! Every example is checked under the lesson's own limits. A warning counts: an example of a
//! warning's code "fails" with that warning.

use std::ops::Range;
use std::sync::Arc;

use pulldown_cmark::CodeBlockKind;

use super::context::LessonContext;
use super::document::{self, CodeBlock, Document, Node, Shows};
use super::markdown::Flavour;
use super::LessonSettings;
use crate::claim::MappedText;
use crate::diag::{Code, Diagnostic, MessageFormat, SourceFile};
use crate::site::load::lints::{LintLevel, Lints};

/// What an example's block holds (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    /// Claims of this lesson, checked alone.
    Claims,
    /// Directives of this lesson, run alone.
    Directives,
    /// A lesson of its own; `mdbook`: of an mdBook book.
    Lesson { mdbook: bool },
    /// A `SUMMARY.md`.
    Summary,
    /// A `book.toml`.
    BookToml,
}

/// What an example must do.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Expect {
    /// Fail with this code, as written after `fails=`.
    Fails(String),
    /// Report nothing, and show what it makes.
    Works,
}

/// A fenced block marked `fails=CODE` or `example`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Example {
    /// What the block holds; `None` for a language that cannot be run.
    content: Option<Content>,
    /// The language as written, for the page's highlighting and the error.
    lang: String,
    /// What it must do.
    expect: Expect,
}

impl Example {
    /// The example a fence announces, if its info string has a word `fails=CODE` or `example`.
    /// Words are separated by white space or commas, as in mdBook's info strings; the first is
    /// the language, and words nimbook does not know are left alone.
    pub(super) fn of(kind: &CodeBlockKind<'_>) -> Option<Example> {
        let CodeBlockKind::Fenced(info) = kind else {
            return None;
        };
        let mut words = info
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty());
        let lang = words.next().unwrap_or("");
        let words: Vec<&str> = words.collect();
        let has = |word: &str| words.contains(&word);
        let expect = match words.iter().find_map(|w| w.strip_prefix("fails=")) {
            Some(code) => Expect::Fails(code.to_string()),
            None if has("example") => Expect::Works,
            None => return None,
        };
        let content = match lang {
            "nim" => Some(Content::Claims),
            "nimbook" => Some(Content::Directives),
            "markdown" | "md" if has("summary") => Some(Content::Summary),
            "markdown" | "md" => Some(Content::Lesson {
                mdbook: has("mdbook"),
            }),
            "toml" => Some(Content::BookToml),
            _ => None,
        };
        Some(Example {
            content,
            lang: lang.to_string(),
            expect,
        })
    }
}

/// What running an example gave: what it makes, and what it reports.
struct Ran {
    makes: Option<Document>,
    diagnostics: Vec<Diagnostic>,
}

/// Runs the example of the fenced block at `fence` whose text is `block`, and returns its node:
/// the source, then what nimbook reports (a failing example) or what the block makes (a worked
/// one). When the example does not do as it says, the lesson gets a located `example-mismatch`
/// error and the node is the source alone, as code.
pub(super) fn node(
    lesson: &mut LessonContext,
    example: &Example,
    block: &MappedText,
    fence: &Range<usize>,
) -> Node {
    // Claims and directives are shown as written; markdown and TOML highlighted as such.
    let lang = match example.lang.as_str() {
        "nim" | "nimbook" => "",
        other => other,
    };
    let source = CodeBlock {
        lang: lang.to_string(),
        text: block.text.clone(),
        hidden: Vec::new(),
        classes: Vec::new(),
        playground: false,
    };
    let shows = match example.content {
        Some(content) => outcome(&example.expect, run(lesson, content, block)),
        None => Err(Diagnostic::error(
            Code::ExampleMismatch,
            format!("a `{}` block cannot be run as an example", example.lang),
        )
        .label("read here")
        .help("examples are `nim`, `nimbook`, `markdown` and `toml` blocks")),
    };
    match shows {
        Ok(shows) => Node::Example(document::Example {
            range: fence.clone(),
            source,
            shows,
        }),
        Err(problem) => {
            let file = Arc::clone(lesson.file());
            lesson.report(problem.at(&file, expect_word(&file.text, fence)));
            Node::Code(source)
        }
    }
}

/// What the page shows under the source when the example did what it says; else the error.
fn outcome(expect: &Expect, ran: Ran) -> Result<Shows, Diagnostic> {
    match expect {
        Expect::Works => match ran.diagnostics.first() {
            None => Ok(Shows::Makes(ran.makes.map(Box::new))),
            Some(first) => Err(unwanted(
                format!("this example should hold, but it reports `{}`", first.code),
                "expected nothing reported",
                &ran.diagnostics,
            )),
        },
        Expect::Fails(name) => {
            let code = name.parse::<Code>().map_err(|unknown| {
                let d = Diagnostic::error(Code::ExampleMismatch, unknown.to_string())
                    .label("not a code")
                    .help("`nimbook explain --list` lists the codes");
                match unknown.suggestion {
                    Some(near) => d.help(format!("a code with a similar name exists: `{near}`")),
                    None => d,
                }
            })?;
            if let Some(problem) = mismatch(&ran.diagnostics, code) {
                return Err(problem);
            }
            let reports: Vec<String> = ran
                .diagnostics
                .iter()
                .map(|d| d.render(MessageFormat::Human, false))
                .collect();
            Ok(Shows::Reports(reports.join("\n\n").trim_end().to_string()))
        }
    }
}

/// What running the block makes and reports, in the order found.
fn run(lesson: &LessonContext, content: Content, block: &MappedText) -> Ran {
    let limits = lesson.limits().clone();
    let one = |node: Node| Document {
        nodes: vec![node],
        ..Document::default()
    };
    let (makes, diagnostics) = match content {
        Content::Claims | Content::Directives => {
            let mut alone = LessonContext::new(Arc::clone(lesson.file()), limits, None);
            let range = 0..0;
            let node = if content == Content::Claims {
                let checked = alone.check_block(block);
                Node::Claims { range, checked }
            } else {
                let blocks = super::directives::render(&mut alone, block);
                Node::Generated { range, blocks }
            };
            (Some(one(node)), alone.finish().diagnostics)
        }
        Content::Lesson { mdbook } => {
            let mut settings = if mdbook {
                LessonSettings::of(&crate::site::load::config::Config::default())
            } else {
                LessonSettings {
                    flavour: Flavour::nimbook(),
                    lints: Lints {
                        unverified_numbers: LintLevel::Deny,
                        vacuous_claims: LintLevel::Deny,
                        broken_links: LintLevel::Deny,
                    },
                    ..LessonSettings::default()
                }
            };
            settings.limits = limits;
            settings.set_pages([]);
            let checked = super::render_linked(&block.text, "lesson.md", &settings);
            (Some(checked.page.document), checked.diagnostics)
        }
        Content::Summary => {
            let file = SourceFile::new("SUMMARY.md", block.text.as_str());
            let found = match crate::site::load::summary::parse(&file) {
                Ok((_, warnings)) => warnings,
                Err(error) => vec![error],
            };
            (None, found)
        }
        Content::BookToml => {
            let found = match crate::site::load::config::Config::parse(&block.text, "book.toml") {
                Err(fatal) => vec![*fatal],
                Ok(_) => crate::site::load::compat::key_warnings(&block.text, "book.toml"),
            };
            (None, found)
        }
    };
    Ran { makes, diagnostics }
}

/// Why `found` is not a failure with `code`, if it is not: nothing was reported, or something
/// of another code was.
fn mismatch(found: &[Diagnostic], code: Code) -> Option<Diagnostic> {
    if found.is_empty() {
        return Some(
            Diagnostic::error(
                Code::ExampleMismatch,
                format!("this example should fail with `{code}`, but nothing is reported"),
            )
            .label("the example holds")
            .help(format!(
                "make the example fail with `{code}`, or remove `fails={code}` to show it as it is"
            )),
        );
    }
    let others: Vec<Diagnostic> = found.iter().filter(|d| d.code != code).cloned().collect();
    let first = others.first()?;
    Some(unwanted(
        format!(
            "this example should fail with `{code}`, but it reports `{}`",
            first.code
        ),
        &format!("expected only `{code}`"),
        &others,
    ))
}

/// An `example-mismatch` error that lists what the example reported and should not have.
fn unwanted(message: String, label: &str, found: &[Diagnostic]) -> Diagnostic {
    let mut d = Diagnostic::error(Code::ExampleMismatch, message).label(label);
    for other in found {
        let place = other
            .position()
            .map(|(file, line, col)| format!(" ({file}:{line}:{col})"))
            .unwrap_or_default();
        d = d.note(format!("`{}`: {}{place}", other.code, other.message));
    }
    d.help("an example shows one thing: mend the other findings")
}

/// Where the word that says what to expect (`fails=…` or `example`) stands in the fence at
/// `fence`; the fence's first line if it cannot be found.
fn expect_word(text: &str, fence: &Range<usize>) -> Range<usize> {
    let start = fence.start.min(text.len());
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = &text[start..line_end];
    let word = |w: &str| {
        line.match_indices(w)
            .map(|(at, _)| at)
            .find(|&at| line[..at].ends_with(|c: char| c.is_whitespace() || c == ','))
    };
    match word("fails=").or_else(|| word("example")) {
        Some(at) => {
            let len = line[at..]
                .find(|c: char| c.is_whitespace() || c == ',')
                .unwrap_or(line.len() - at);
            start + at..start + at + len
        }
        None => start..line_end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::lesson::{check_lesson, LessonSettings};

    fn check(text: &str) -> crate::site::lesson::LessonCheck {
        check_lesson(text, "guide.md", &LessonSettings::default())
    }

    #[test]
    fn the_info_string_names_the_language_and_the_code() {
        let of = |info: &str| Example::of(&CodeBlockKind::Fenced(info.into()));
        assert_eq!(of("nim"), None);
        assert_eq!(of("rust,ignore"), None);
        let e = of("nim fails=false-claim").map(|e| (e.content, e.expect));
        let fails = Expect::Fails("false-claim".into());
        assert_eq!(e, Some((Some(Content::Claims), fails)));
        let e = of("markdown,fails=unchecked-claims,mdbook").map(|e| e.content);
        assert_eq!(e, Some(Some(Content::Lesson { mdbook: true })));
        let e = of("md fails=malformed-summary summary").map(|e| e.content);
        assert_eq!(e, Some(Some(Content::Summary)));
        let e = of("markdown example").map(|e| (e.content, e.expect));
        assert_eq!(
            e,
            Some((Some(Content::Lesson { mdbook: false }), Expect::Works))
        );
        assert_eq!(of("python fails=x").map(|e| e.content), Some(None));
    }

    #[test]
    fn a_claim_that_fails_as_it_says_is_shown_with_its_error() {
        let lesson = check("# T\n\n```nim fails=false-claim\n6 * 13 = 14\n```\n");
        assert_eq!(lesson.errors, 0, "{:?}", lesson.diagnostics);
        assert_eq!(lesson.claims, 0, "an example's claims are not the lesson's");
        assert!(
            lesson.html.contains("error: claim does not hold"),
            "{}",
            lesson.html
        );
        // The error names the lesson's own file and line, as the build would print it.
        assert!(
            lesson.html.contains("--&gt; guide.md:4:1"),
            "{}",
            lesson.html
        );
        assert!(
            lesson.html.contains("6 ⊗ 13 is 15, not 14"),
            "{}",
            lesson.html
        );
    }

    #[test]
    fn an_example_that_holds_or_fails_otherwise_is_an_error_at_its_fails_word() {
        let holds = check("# T\n\n```nim fails=false-claim\n6 * 13 = 15\n```\n");
        assert_eq!(holds.errors, 1);
        let d = &holds.diagnostics[0];
        assert_eq!(d.code, Code::ExampleMismatch);
        assert!(d.message.contains("nothing is reported"), "{}", d.message);
        assert_eq!(d.position(), Some(("guide.md".into(), 3, 8)));

        let other = check("# T\n\n```nim fails=false-claim\n6 * = 14\n```\n");
        assert_eq!(other.errors, 1);
        let d = &other.diagnostics[0];
        assert!(
            d.message.contains("reports `syntax-error`"),
            "{}",
            d.message
        );
        assert!(d.notes[0].contains("guide.md:4:"), "{:?}", d.notes);

        let typo = check("# T\n\n```nim fails=flase-claim\n6 * 13 = 14\n```\n");
        let d = &typo.diagnostics[0];
        assert_eq!(d.code, Code::ExampleMismatch);
        assert!(
            d.helps.iter().any(|h| h.contains("`false-claim`")),
            "{:?}",
            d.helps
        );
    }

    #[test]
    fn whole_files_are_checked_as_lessons_summaries_and_book_tomls() {
        // A lesson with a prose number: the example's book denies the number lints.
        let lesson = check("# T\n\n```markdown fails=unverified-number\nThere are 7 heaps.\n```\n");
        assert_eq!(lesson.errors, 0, "{:?}", lesson.diagnostics);
        assert!(
            lesson.html.contains("--&gt; lesson.md:1:11"),
            "{}",
            lesson.html
        );
        // A link to another lesson: the example's book has no other lesson.
        let link = check("# T\n\n```markdown fails=broken-link\nSee [the next](next.md).\n```\n");
        assert_eq!(link.errors, 0, "{:?}", link.diagnostics);
        // In an mdBook book a block of claims is Nim code, with a warning.
        let mdbook =
            check("# T\n\n````md fails=unchecked-claims mdbook\n```nim\n1 + 1 = 0\n```\n````\n");
        assert_eq!(mdbook.errors, 0, "{:?}", mdbook.diagnostics);
        let summary = check("# T\n\n```md fails=malformed-summary summary\n- [A](a.md\n```\n");
        assert_eq!(summary.errors, 0, "{:?}", summary.diagnostics);
        let toml = check("# T\n\n```toml fails=invalid-config\n[nimbook]\nmax-bitz = 8\n```\n");
        assert_eq!(toml.errors, 0, "{:?}", toml.diagnostics);
        assert!(toml.html.contains("--&gt; book.toml:2:1"), "{}", toml.html);
        let ignored =
            check("# T\n\n```toml fails=ignored-setting\n[output.html]\ncopy-fonts = true\n```\n");
        assert_eq!(ignored.errors, 0, "{:?}", ignored.diagnostics);
    }

    #[test]
    fn a_worked_example_shows_its_page_and_must_report_nothing() {
        let lesson = check("# T\n\n````markdown example\nThe product `nim: 6 * 13`.\n````\n");
        assert_eq!(lesson.errors, 0, "{:?}", lesson.diagnostics);
        assert!(
            lesson.html.contains("class=\"nim-example-output\""),
            "{}",
            lesson.html
        );
        assert!(lesson.html.contains("<mn>15</mn>"), "{}", lesson.html);
        // An unverified number in the example's prose is reported, so the example fails.
        let bad = check("# T\n\n```markdown example\nThere are 7 heaps.\n```\n");
        assert_eq!(bad.errors, 1);
        let d = &bad.diagnostics[0];
        assert!(d
            .message
            .contains("should hold, but it reports `unverified-number`"));
        assert_eq!(d.position(), Some(("guide.md".into(), 3, 13)));
    }

    #[test]
    fn a_block_that_cannot_run_is_an_error() {
        let lesson = check("# T\n\n```python fails=false-claim\nprint(1)\n```\n");
        assert_eq!(lesson.errors, 1);
        assert!(lesson.diagnostics[0].message.contains("`python`"));
    }
}
