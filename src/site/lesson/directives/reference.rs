//! `reference(kind)`: a table of what nimbook itself knows, made from the one place the code
//! keeps it, so a page that lists it cannot drift from the build that checks the page. The
//! guide's reference chapters are these tables; a course may print one for its students (the
//! game functions, say) and know it matches the nimbook that built it.
//!
//! The kinds: a group of claim functions from the builtin registry (`"numbers"`,
//! `"ordinals"`, `"games"`, `"classics"`, `"questions"`), `"directives"` from the directive
//! registry, `"configuration"` from `site::load::keys` (every key nimbook reads itself, its
//! default and its ceiling), `"mdbook"` from `site::load::compat` (what nimbook does with
//! each of mdBook's keys) and `"diagnostics"` from `diag::Code` (every code and what it means).

use super::args::{error, str_arg};
use crate::claim::builtins::{group, group_names, Signature};
use crate::claim::Directive;
use crate::diag::{nearest, Code, Diagnostic};
use crate::site::lesson::blocks::{Block, Caption, Cell, Row, Run, Table};
use crate::site::lesson::context::DirectiveEnv;
use crate::site::load::compat::{self, Support};
use crate::site::load::keys::KEYS;

/// A function that draws a reference table under the caption it is given.
type Draw = fn(String) -> Block;

/// The kinds that are not groups of functions: each with its table's caption and the function
/// that draws the table.
const OTHER_KINDS: &[(&str, &str, Draw)] = &[
    ("directives", "The directives of nimbook blocks", directives),
    (
        "configuration",
        "The keys of book.toml that nimbook reads",
        configuration,
    ),
    (
        "mdbook",
        "What nimbook does with mdBook's other keys",
        mdbook,
    ),
    ("diagnostics", "The diagnostic codes", diagnostics),
];

/// `reference(kind)`.
pub(super) fn reference(env: &mut DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let kind = str_arg(env, &d.args[0], "\"games\"")?;
    if let Some(functions) = group(kind) {
        let caption = format!("The functions of the group \"{kind}\"");
        return Ok(signatures(caption, functions.collect()));
    }
    match OTHER_KINDS.iter().find(|(k, ..)| *k == kind) {
        Some((_, caption, draw)) => Ok(draw((*caption).to_string())),
        None => Err(unknown(env, d, kind)),
    }
}

/// The error for a kind that does not exist, with a suggestion and the list.
fn unknown(env: &DirectiveEnv<'_>, d: &Directive, kind: &str) -> Diagnostic {
    let kinds = || group_names().chain(OTHER_KINDS.iter().map(|(k, ..)| *k));
    let diag = error(env, &d.args[0].1, format!("unknown reference \"{kind}\""));
    let diag = match nearest(kind, kinds()) {
        Some(best) => diag.help(format!(
            "a reference with a similar name exists: \"{best}\""
        )),
        None => diag,
    };
    diag.help(format!(
        "the references are: {}",
        kinds().collect::<Vec<_>>().join(", ")
    ))
}

/// A table of text: its caption, its header row, and rows that open with a label.
fn table(caption: String, head: &[&str], rows: Vec<(Vec<Run>, Vec<Vec<Run>>)>) -> Block {
    Block::Table(Table {
        kind: Some("reference".into()),
        caption: Caption::Inside(caption),
        corner: head[0].to_string(),
        head: head[1..].iter().map(|h| Cell::text(None, *h)).collect(),
        rows: rows
            .into_iter()
            .map(|(label, cells)| Row {
                class: None,
                label,
                cells: cells
                    .into_iter()
                    .map(|runs| Cell { class: None, runs })
                    .collect(),
            })
            .collect(),
    })
}

fn code(text: &str) -> Vec<Run> {
    vec![Run::Code(text.to_string())]
}

/// nimbook's own words, each pair of backticks a code span.
fn prose(text: &str) -> Vec<Run> {
    text.split('`')
        .enumerate()
        .filter(|(_, part)| !part.is_empty())
        .map(|(i, part)| {
            if i % 2 == 1 {
                Run::Code(part.to_string())
            } else {
                Run::Prose(part.to_string())
            }
        })
        .collect()
}

/// Functions or directives: how each is called, and what it computes.
fn signatures(caption: String, list: Vec<&Signature>) -> Block {
    let rows = list
        .into_iter()
        .map(|s| (code(s.usage), vec![prose(s.description)]))
        .collect();
    table(caption, &["usage", "what it gives"], rows)
}

/// Every directive: how each is called, and what it computes.
fn directives(caption: String) -> Block {
    signatures(caption, super::list().collect())
}

/// Every key nimbook reads itself, with its default and its ceiling (empty for a key without one).
fn configuration(caption: String) -> Block {
    let head = ["key", "takes", "default", "ceiling", "what it does"];
    let rows = KEYS
        .iter()
        .map(|k| {
            let ceiling = k.ceiling().map_or_else(Vec::new, |(max, why)| {
                let mut runs = code(&max.to_string());
                runs.extend(prose(&format!(" ({why})")));
                runs
            });
            let cells = vec![
                prose(k.takes),
                code(&(k.default)()),
                ceiling,
                prose(k.meaning),
            ];
            (code(&format!("[{}] {}", k.table, k.name)), cells)
        })
        .collect();
    table(caption, &head, rows)
}

/// What nimbook does with each key of mdBook's `book.toml` beyond `[book]` and `[build]`, which
/// the configuration table lists.
fn mdbook(caption: String) -> Block {
    let shown = |key: &str| {
        key.split('.')
            .map(|part| if part == "*" { "NAME" } else { part })
            .collect::<Vec<_>>()
            .join(".")
    };
    let rows = compat::keys()
        .filter(|(key, _)| {
            !key.starts_with("book.") && !key.starts_with("build.") && !key.ends_with(".**")
        })
        .map(|(key, support)| {
            let does = match support {
                Support::Works => prose("works as in mdBook"),
                Support::WorksUnless(value, why) => {
                    let mut runs = prose("works; ");
                    runs.push(Run::Code(value.to_string()));
                    runs.extend(prose(&format!(" is ignored: {why}")));
                    runs
                }
                Support::Ignored(why) => prose(&format!("ignored: {why}")),
            };
            (code(&shown(key)), vec![does])
        })
        .collect();
    table(caption, &["key", "what nimbook does"], rows)
}

/// Every diagnostic code and what it means.
fn diagnostics(caption: String) -> Block {
    let rows = Code::ALL
        .iter()
        .map(|c| (code(c.as_str()), vec![prose(c.summary())]))
        .collect();
    table(caption, &["code", "what it means"], rows)
}

#[cfg(test)]
mod tests {
    use crate::site::lesson::{check_lesson, LessonSettings};

    fn check(block: &str) -> crate::site::lesson::LessonCheck {
        let text = format!("# T\n\n```nimbook\n{block}\n```\n");
        check_lesson(&text, "t.md", &LessonSettings::default())
    }

    #[test]
    fn every_kind_draws_a_table_of_its_source() {
        for (kind, row) in [
            ("numbers", "<th><code>inv(a)</code></th>"),
            ("games", "<th><code>kayles(n)</code></th>"),
            ("directives", "<code>reference(&quot;games&quot;)</code>"),
            ("configuration", "<code>[nimbook] max-bits</code>"),
            ("mdbook", "<code>preprocessor.NAME.command</code>"),
            ("diagnostics", "<th><code>false-claim</code></th>"),
        ] {
            let lesson = check(&format!("reference(\"{kind}\")"));
            assert_eq!(lesson.errors, 0, "{kind}: {:?}", lesson.diagnostics);
            assert!(lesson.html.contains(row), "{kind}: {}", lesson.html);
        }
        // A group holds its own functions only.
        let numbers = check("reference(\"numbers\")");
        assert!(!numbers.html.contains("kayles("), "{}", numbers.html);
    }

    #[test]
    fn an_unknown_kind_is_located_and_suggests_the_nearest() {
        let lesson = check("reference(\"game\")");
        assert_eq!(lesson.errors, 1);
        let d = &lesson.diagnostics[0];
        assert!(
            d.message.contains("unknown reference \"game\""),
            "{}",
            d.message
        );
        assert!(
            d.helps.iter().any(|h| h.contains("\"games\"")),
            "{:?}",
            d.helps
        );
        assert_eq!(d.position(), Some(("t.md".into(), 4, 11)));
    }
}
