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

/// Functions or directives: how each is called, and what it computes.
fn signatures(list: Vec<&Signature>) -> String {
    table(
        &["usage", "what it gives"],
        list.into_iter()
            .map(|s| vec![code(s.usage), escape(s.description)]),
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
            row.push(escape(k.meaning));
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
                        format!(
                            "works; <code>{}</code> is ignored: {}",
                            escape(value),
                            escape(why)
                        )
                    }
                    Support::Ignored(why) => format!("ignored: {}", escape(why)),
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
            .map(|c| vec![code(c.as_str()), escape(c.summary())]),
    )
}
