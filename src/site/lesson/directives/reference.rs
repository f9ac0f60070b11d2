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

use std::fmt::Write as _;

use super::args::{error, str_arg};
use crate::claim::builtins::{group, group_names, Signature};
use crate::claim::Directive;
use crate::diag::{nearest, Code, Diagnostic};
use crate::site::html::escape;
use crate::site::lesson::context::DirectiveEnv;
use crate::site::load::compat::{self, Support};
use crate::site::load::keys::KEYS;

/// The kinds that are not groups of functions.
const OTHER_KINDS: &[&str] = &["directives", "configuration", "mdbook", "diagnostics"];

/// `reference(kind)`.
pub(super) fn reference(env: &mut DirectiveEnv<'_>, d: &Directive) -> Result<String, Diagnostic> {
    let kind = str_arg(env, &d.args[0], "\"games\"")?;
    if let Some(functions) = group(kind) {
        return Ok(signatures(functions.collect()));
    }
    Ok(match kind {
        "directives" => signatures(super::list().collect()),
        "configuration" => configuration(),
        "mdbook" => mdbook(),
        "diagnostics" => diagnostics(),
        _ => return Err(unknown(env, d, kind)),
    })
}

/// The error for a kind that does not exist, with a suggestion and the list.
fn unknown(env: &DirectiveEnv<'_>, d: &Directive, kind: &str) -> Diagnostic {
    let kinds = || group_names().chain(OTHER_KINDS.iter().copied());
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

/// A table with a header row; every cell is HTML.
fn table(head: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    let mut h =
        String::from("<div class=\"table-wrap\"><table class=\"nim-reference\"><thead><tr>");
    for cell in head {
        let _ = write!(h, "<th>{}</th>", escape(cell));
    }
    h.push_str("</tr></thead><tbody>");
    for row in rows {
        h.push_str("<tr>");
        for cell in row {
            let _ = write!(h, "<td>{cell}</td>");
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table></div>\n");
    h
}

fn code(text: &str) -> String {
    format!("<code>{}</code>", escape(text))
}

/// Prose of the registry as HTML: escaped, and each pair of backticks a code span.
fn prose(text: &str) -> String {
    let mut html = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            html.push_str(&code(part));
        } else {
            html.push_str(&escape(part));
        }
    }
    html
}

/// Functions or directives: how each is called, and what it computes.
fn signatures(list: Vec<&Signature>) -> String {
    table(
        &["usage", "what it gives"],
        list.into_iter()
            .map(|s| vec![code(s.usage), prose(s.description)]),
    )
}

/// Every key nimbook reads itself, with its default (and its ceiling, where a key has one).
fn configuration() -> String {
    let ceilings = KEYS.iter().any(|k| k.ceiling.is_some());
    let mut head = vec!["key", "takes", "default"];
    if ceilings {
        head.push("ceiling");
    }
    head.push("what it does");
    table(
        &head,
        KEYS.iter().map(|k| {
            let mut row = vec![
                code(&format!("[{}] {}", k.table, k.name)),
                escape(k.takes),
                code(&(k.default)()),
            ];
            if ceilings {
                row.push(k.ceiling.map_or_else(String::new, |c| code(&c())));
            }
            row.push(prose(k.meaning));
            row
        }),
    )
}

/// What nimbook does with each key of mdBook's `book.toml` beyond `[book]` and `[build]`, which
/// the configuration table lists.
fn mdbook() -> String {
    let shown = |key: &str| {
        key.split('.')
            .map(|part| if part == "*" { "NAME" } else { part })
            .collect::<Vec<_>>()
            .join(".")
    };
    table(
        &["key", "what nimbook does"],
        compat::keys()
            .filter(|(key, _)| {
                !key.starts_with("book.") && !key.starts_with("build.") && !key.ends_with(".**")
            })
            .map(|(key, support)| {
                let does = match support {
                    Support::Works => "works as in mdBook".to_string(),
                    Support::WorksUnless(value, why) => {
                        format!("works; {} is ignored: {}", code(value), prose(why))
                    }
                    Support::Ignored(why) => format!("ignored: {}", prose(why)),
                };
                vec![code(&shown(key)), does]
            }),
    )
}

/// Every diagnostic code and what it means.
fn diagnostics() -> String {
    table(
        &["code", "what it means"],
        Code::ALL
            .iter()
            .map(|c| vec![code(c.as_str()), prose(c.summary())]),
    )
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
            ("numbers", "<code>inv(a)</code>"),
            ("games", "<code>kayles(n)</code>"),
            ("directives", "<code>reference(&quot;games&quot;)</code>"),
            ("configuration", "<code>[nimbook] max-bits</code>"),
            ("mdbook", "<code>preprocessor.NAME.command</code>"),
            ("diagnostics", "<td><code>false-claim</code></td>"),
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
