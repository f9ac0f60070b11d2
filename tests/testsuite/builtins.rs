//! The registry of builtins as the user sees it: `nimbook calc --list`, held to the guide's
//! reference tables in both directions (so the documentation cannot drift from what the binary
//! knows), and the arity errors and suggestions that come from the same registry.

use std::collections::BTreeSet;

use crate::common::run;

/// One builtin as listed: kind (`function` or `directive`), usage, description.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Listed {
    kind: String,
    usage: String,
    description: String,
}

/// The lines of `nimbook calc --list`, read as `KIND  USAGE — DESCRIPTION`.
fn listed() -> Vec<Listed> {
    let out = run(&["calc", "--list"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    text.lines()
        .map(|line| {
            let (kind, rest) = line.split_once(' ').expect("a kind, then the usage");
            let (usage, description) = rest
                .trim_start()
                .split_once(" — ")
                .unwrap_or_else(|| panic!("no ` — ` in {line:?}"));
            Listed {
                kind: kind.to_string(),
                usage: usage.to_string(),
                description: description.to_string(),
            }
        })
        .collect()
}

/// The rows (usage, description) of the `reference(…)` tables on the built guide's page
/// `page`, as a reader gets them (code marks removed).
fn guide_rows(page: &str) -> BTreeSet<(String, String)> {
    let rows: BTreeSet<(String, String)> = crate::guide::reference_rows(page)
        .into_iter()
        .map(|row| {
            assert_eq!(row.len(), 2, "a row of two cells on {page}: {row:?}");
            (row[0].clone(), row[1].clone())
        })
        .collect();
    assert!(!rows.is_empty(), "{page} has reference tables");
    rows
}

fn of_kind(all: &[Listed], kind: &str) -> BTreeSet<(String, String)> {
    all.iter()
        .filter(|b| b.kind == kind)
        .map(|b| (b.usage.clone(), b.description.clone()))
        .collect()
}

/// Both directions at once: what the guide lacks and what it has beyond the registry.
fn assert_same(
    kind: &str,
    registry: &BTreeSet<(String, String)>,
    guide: &BTreeSet<(String, String)>,
) {
    let missing: Vec<_> = registry.difference(guide).collect();
    let extra: Vec<_> = guide.difference(registry).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "the guide and the registry disagree on {kind}s.\nnot in the guide: {missing:#?}\nin the guide but not registered (or worded differently): {extra:#?}"
    );
}

#[test]
fn every_function_is_in_the_guides_reference_and_nothing_else_is() {
    let all = listed();
    assert_same(
        "function",
        &of_kind(&all, "function"),
        &guide_rows("functions.html"),
    );
}

#[test]
fn every_directive_is_in_the_guides_reference_and_nothing_else_is() {
    let all = listed();
    assert_same(
        "directive",
        &of_kind(&all, "directive"),
        &guide_rows("directives.html"),
    );
}

#[test]
fn the_list_is_functions_then_directives_each_sorted_by_name() {
    let all = listed();
    assert!(all.len() >= 40, "only {} builtins", all.len());
    let kinds: Vec<&str> = all.iter().map(|b| b.kind.as_str()).collect();
    let first_directive = kinds.iter().position(|k| *k == "directive");
    let first_directive = first_directive.expect("some directives");
    assert!(first_directive > 0, "some functions");
    assert!(kinds[..first_directive].iter().all(|k| *k == "function"));
    assert!(kinds[first_directive..].iter().all(|k| *k == "directive"));
    for part in [&all[..first_directive], &all[first_directive..]] {
        let names: Vec<&str> = part
            .iter()
            .map(|b| b.usage.split('(').next().expect("a name"))
            .collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted, "sorted by name, each once");
    }
    // A few entries known from the language itself.
    for (kind, usage) in [
        ("function", "grundy(G)"),
        ("function", "log(a, b)"),
        ("function", "roots(c) or roots(a, b, c)"),
        ("directive", "draw(G)"),
    ] {
        assert!(
            all.iter().any(|b| b.kind == kind && b.usage == usage),
            "{kind} {usage} is not listed"
        );
    }
}

#[test]
fn arity_errors_and_suggestions_come_from_the_registry() {
    let cases = [
        ("log(2)", "`log` takes 2 arguments, but 1 was given"),
        ("inv(2, 3)", "`inv` takes 1 argument, but 2 were given"),
        (
            "roots(1, 2)",
            "`roots` takes 1 or 3 arguments, but 2 were given",
        ),
        ("grundy()", "`grundy` takes 1 argument, but 0 were given"),
        (
            "kayles(1, 2)",
            "`kayles` takes 1 argument, but 2 were given",
        ),
        ("gundy(nim(1))", "unknown function `gundy`"),
    ];
    for (expr, message) in cases {
        let out = run(&["calc", expr]);
        assert_eq!(out.status.code(), Some(1), "{expr}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{expr}: {err}");
    }
    // Any number of heaps is a Nim position, none at all included.
    let out = run(&["calc", "grundy(nim())", "grundy(nim(1, 2, 3, 4, 5, 6, 7))"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0\n0\n");
}
