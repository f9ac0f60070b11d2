//! The guide in `guide/`, the user's manual, built by nimbook with both coverage lints denied:
//! it names every command and option, every diagnostic code and every configuration key;
//! `nimbook explain` answers for every code with the text of the code's page; a failing example
//! that stops failing breaks the build; and the README stays a short front door that still
//! carries the two set-up commands.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{built_book, run, stderr, unescape};

/// The repository root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The guide's site, built once for the run with both lints denied on the command line (so the
/// guide stays strict even if its book.toml is loosened).
pub(crate) fn built() -> PathBuf {
    built_book(
        "guide",
        &root().join("guide"),
        &["--deny", "vacuous-claims", "--deny", "unverified-numbers"],
    )
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The text of every page of the built guide, tags removed, entities undone.
fn guide_text() -> String {
    let mut text = String::new();
    for entry in walk(&built()) {
        if entry.extension().is_some_and(|e| e == "html") {
            let html = std::fs::read_to_string(&entry).expect("read a page");
            text.push_str(&unescape(&strip_tags(&html)));
            text.push('\n');
        }
    }
    text
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read the site") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// The rows of the `reference(…)` tables on the built guide's page `page`: each the row's
/// label and its cells, as text (tags removed, entities undone).
pub(crate) fn reference_rows(page: &str) -> Vec<Vec<String>> {
    let html = std::fs::read_to_string(built().join(page)).expect("read the page");
    let text = |cell: &str| unescape(&strip_tags(cell));
    let mut rows = Vec::new();
    for table in html.split("<table class=\"nim-table reference\">").skip(1) {
        let body = table.split("</tbody>").next().unwrap_or_default();
        let body = body.split("<tbody>").nth(1).unwrap_or_default();
        for row in body.split("<tr>").skip(1) {
            let label = row
                .split("<th>")
                .nth(1)
                .and_then(|c| c.split("</th>").next());
            let mut cells = vec![text(label.unwrap_or_default())];
            cells.extend(
                row.split("<td>")
                    .skip(1)
                    .map(|c| text(c.split("</td>").next().unwrap_or_default())),
            );
            rows.push(cells);
        }
    }
    rows
}

/// The subcommands a `--help` text lists under `Commands:`, without `help`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// The long options a `--help` text lists (`--dest-dir`), without `--help` and `--version`.
fn long_options(help: &str) -> BTreeSet<String> {
    help.split(|c: char| c.is_whitespace() || c == ',' || c == '<' || c == '[')
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| {
            w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric())
                .to_string()
        })
        .filter(|w| w != "--help" && w != "--version")
        .collect()
}

#[test]
fn the_guide_builds_with_both_lints_denied_and_shows_its_examples() {
    let site = built();
    for page in ["index.html", "claims.html", "diagnostics/false-claim.html"] {
        assert!(site.join(page).is_file(), "{page} was written");
    }
    // Failing examples show the error as the build printed it, under their source.
    let page = std::fs::read_to_string(site.join("diagnostics/false-claim.html")).expect("read");
    assert!(page.contains("class=\"nim-diagnostic\""), "no error shown");
    assert!(page.contains("error: claim does not hold"), "{page}");
    assert!(page.contains("5 ⊕ 11 is 14, not 10"), "{page}");
}

#[test]
fn the_guide_names_every_command_and_every_option() {
    let text = guide_text();
    let top = stdout(&run(&["--help"]));
    let commands = subcommands(&top);
    assert!(commands.len() >= 9, "{commands:?}");
    for command in &commands {
        assert!(
            text.contains(&format!("nimbook {command}")),
            "the guide never names `nimbook {command}`"
        );
        let help = stdout(&run(&[command, "--help"]));
        let mut forms = vec![(command.clone(), help.clone())];
        for sub in subcommands(&help) {
            assert!(
                text.contains(&format!("nimbook {command} {sub}")),
                "the guide never names `nimbook {command} {sub}`"
            );
            forms.push((
                format!("{command} {sub}"),
                stdout(&run(&[command, &sub, "--help"])),
            ));
        }
        for (form, help) in forms {
            for option in long_options(&help) {
                assert!(
                    text.contains(&option),
                    "the guide never names `{option}` of `nimbook {form}`"
                );
            }
        }
    }
}

#[test]
fn every_code_has_its_page_and_explain_prints_that_page() {
    let list = stdout(&run(&["explain", "--list"]));
    let codes: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(codes.len() >= 27, "{list}");
    let summary = std::fs::read_to_string(root().join("guide/src/SUMMARY.md")).expect("SUMMARY");
    let pages: BTreeSet<String> = std::fs::read_dir(root().join("guide/src/diagnostics"))
        .expect("the diagnostics folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    let expected: BTreeSet<String> = codes.iter().map(|c| format!("{c}.md")).collect();
    assert_eq!(
        pages, expected,
        "a page for every code and for nothing else"
    );
    let table: Vec<Vec<String>> = reference_rows("diagnostics.html");
    for code in &codes {
        let explained = run(&["explain", code]);
        assert_eq!(
            explained.status.code(),
            Some(0),
            "{code}: {}",
            stderr(&explained)
        );
        // The explanation is the file the guide's page includes, and that page is nothing else.
        let source = root().join(format!("src/diag/explain/{code}.md"));
        let text = std::fs::read_to_string(&source).expect("the explanation");
        assert_eq!(stdout(&explained), text, "{code}");
        let page = std::fs::read_to_string(root().join(format!("guide/src/diagnostics/{code}.md")))
            .expect("the page");
        assert_eq!(
            page.trim(),
            format!("{{{{#include ../../../src/diag/explain/{code}.md}}}}"),
            "{code}: the guide's page is the explanation"
        );
        assert!(
            summary.contains(&format!("[{code}](diagnostics/{code}.md)")),
            "SUMMARY.md lists {code}"
        );
        let built_page = std::fs::read_to_string(built().join(format!("diagnostics/{code}.html")))
            .expect("read");
        assert!(
            built_page.contains(&format!("<code>{code}</code></h1>")),
            "{code}"
        );
        // The chapter's table has the code with the meaning `explain --list` gives it.
        let meaning = list
            .lines()
            .find(|l| l.split_whitespace().next() == Some(code))
            .map(|l| l[code.len()..].trim().replace('`', ""))
            .expect("listed");
        assert!(
            table.contains(&vec![code.to_string(), meaning.clone()]),
            "no row `{code}: {meaning}` in {table:?}"
        );
    }
    // And nothing in the table that is not a code.
    assert_eq!(
        table.len(),
        codes.len(),
        "the diagnostics table has a row per code"
    );
}

#[test]
fn explain_refuses_an_unknown_code_and_suggests_the_nearest() {
    let o = run(&["explain", "flase-claim"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("`flase-claim` is not a diagnostic code"),
        "{err}"
    );
    assert!(err.contains("`false-claim`"), "{err}");
    assert!(err.contains("nimbook explain --list"), "{err}");
    assert!(o.stdout.is_empty());
    let o = run(&["explain"]);
    assert_eq!(o.status.code(), Some(2), "a code or --list is required");
}

/// Every row of the configuration reference is a key a book may set, with the default the
/// table gives and any value up to the ceiling it names, and none above (the other direction, every key of the typed tables in the reference, is held
/// by the unit tests of `site::load::keys`).
#[test]
fn every_key_of_the_configuration_reference_is_accepted_with_its_default_up_to_its_ceiling() {
    let rows = reference_rows("configuration.html");
    let (mut keys, mut ceilings) = (0, 0);
    // The first table of the page is the keys nimbook reads (the second, mdBook's other keys).
    for cells in rows.iter().take_while(|r| r[0].starts_with('[')) {
        let (key, default) = (&cells[0], &cells[2]);
        let (table, name) = key
            .trim_start_matches('[')
            .split_once("] ")
            .unwrap_or_else(|| panic!("a key `[table] name`: {key}"));
        // The default as TOML when it is a value; a key without one is set to a value of its kind.
        let value = match default.split(" (").next().unwrap_or_default() {
            "none" if cells[1].contains("string") => "\"x\"".to_string(),
            "none" => "false".to_string(),
            d if format!("v = {d}").parse::<toml::Table>().is_ok() => d.to_string(),
            _ => "\"content\"".to_string(),
        };
        let (code, err) = check_with(&format!("[{table}]\n{name} = {value}\n"));
        assert!(
            code != Some(2) && !err.contains("invalid-config") && !err.contains("unknown field"),
            "{name} = {value}: {err}"
        );
        // A ceiling the page names is the largest value accepted.
        let ceiling = cells[3].split(' ').next().unwrap_or_default();
        if let Ok(max) = ceiling.parse::<u64>() {
            let (code, err) = check_with(&format!("[{table}]\n{name} = {max}\n"));
            assert_ne!(code, Some(2), "{name} = {max}, its ceiling: {err}");
            let (code, err) = check_with(&format!("[{table}]\n{name} = {}\n", max + 1));
            assert_eq!(code, Some(2), "{name} above its ceiling {max}: {err}");
            assert!(err.contains("ceiling"), "{err}");
            ceilings += 1;
        }
        keys += 1;
    }
    assert!(keys >= 20, "only {keys} keys");
    assert!(ceilings >= 8, "only {ceilings} ceilings");
}

/// Checks a book of one empty lesson with `book.toml` `toml`: the exit code and standard error.
fn check_with(toml: &str) -> (Option<i32>, String) {
    let book = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(book.path().join("content")).expect("mkdir");
    std::fs::write(book.path().join("content/a.md"), "# A\n").expect("write");
    std::fs::write(book.path().join("book.toml"), toml).expect("write");
    let o = run(&["check", book.path().to_str().expect("utf-8")]);
    (o.status.code(), stderr(&o))
}

#[test]
fn a_failing_example_that_stops_failing_breaks_the_guide() {
    let book = tempfile::tempdir().expect("temp dir");
    let src = book.path().join("src");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(book.path().join("book.toml"), "[nimbook]\n").expect("write");
    let lesson =
        std::fs::read_to_string(root().join("guide/src/getting-started.md")).expect("read");
    std::fs::write(src.join("SUMMARY.md"), "- [Start](getting-started.md)\n").expect("write");
    let dir = book.path().to_str().expect("utf-8");
    // As the guide has it, the lesson builds: its failing example fails as it says.
    std::fs::write(src.join("getting-started.md"), &lesson).expect("write");
    let o = run(&["check", dir, "--warn", "broken-links"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Corrected, the example holds, and the build fails at its `fails=` word.
    let fence = "```nim fails=false-claim\n6 * 13 = 14\n```";
    assert!(
        lesson.contains(fence),
        "the example is still in getting-started.md"
    );
    let line = lesson[..lesson.find(fence).expect("found")].lines().count() + 1;
    let corrected = lesson.replace(fence, "```nim fails=false-claim\n6 * 13 = 15\n```");
    std::fs::write(src.join("getting-started.md"), corrected).expect("write");
    let o = run(&[
        "check",
        dir,
        "--warn",
        "broken-links",
        "--message-format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let found: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON diagnostic"))
        .filter(|d: &serde_json::Value| d["level"] == "error")
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "example-mismatch");
    assert_eq!(found[0]["file"], "src/getting-started.md");
    assert_eq!(found[0]["line"], line);
    assert_eq!(found[0]["column"], 8, "at `fails=`");
    // Failing with another code breaks it too.
    let other = lesson.replace(fence, "```nim fails=false-claim\n6 * = 14\n```");
    std::fs::write(src.join("getting-started.md"), other).expect("write");
    let o = run(&["check", dir, "--warn", "broken-links"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("but it reports `syntax-error`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_readme_is_a_short_front_door_that_carries_the_two_commands() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines");
    for command in ["cargo run --release -- build", "cargo test --release"] {
        assert!(
            readme.contains(&format!("\n{command}\n")),
            "README.md lost `{command}`"
        );
    }
    // CI runs the README's test command as it is written there.
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run");
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test --release"),
        ".ci/run"
    );
    // Its links into the guide name pages that exist.
    let mut links = 0;
    for part in readme.split("](guide/src/").skip(1) {
        let path = part.split([')', '#']).next().unwrap_or_default();
        assert!(
            root().join("guide/src").join(path).is_file(),
            "README links to {path}"
        );
        links += 1;
    }
    assert!(links >= 5, "README.md links into the guide");
}

/// The block of `text` fenced by `open` (a line of its own) up to the next line `close`.
fn fenced<'t>(text: &'t str, after: &str, open: &str, close: &str) -> &'t str {
    let from = text
        .find(after)
        .unwrap_or_else(|| panic!("README.md has {after:?}"));
    let start = text[from..]
        .find(&format!("\n{open}\n"))
        .expect("the block")
        + from
        + open.len()
        + 2;
    let end = text[start..]
        .find(&format!("\n{close}\n"))
        .expect("its end")
        + start;
    &text[start..=end]
}

/// The README's tour quotes a failing claim and its error: the error is what nimbook prints for
/// that lesson, word for word.
#[test]
fn the_readmes_quoted_error_is_what_nimbook_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lesson = fenced(
        &readme,
        "A false claim stops the build",
        "````markdown",
        "````",
    );
    let quoted = fenced(&readme, "A false claim stops the build", "```text", "```");
    let book = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(book.path().join("content")).expect("mkdir");
    std::fs::write(book.path().join("book.toml"), "[nimbook]\n").expect("write");
    std::fs::write(book.path().join("content/lesson.md"), lesson).expect("write");
    let o = run(&["check", book.path().to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1));
    let printed = stderr(&o);
    let first = printed.split("\n\n").next().unwrap_or_default();
    assert_eq!(
        format!("{first}\n"),
        quoted,
        "README.md quotes another error"
    );
}
