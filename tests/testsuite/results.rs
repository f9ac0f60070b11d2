//! Named results: the `results` fixture book's statuses, its results page, `check --results`
//! in both formats, and the uses graph held against the uses its sources declare, read here
//! from the markdown without nimbook.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/results")
}

fn check_results(format: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(["check", "--results", "--message-format", format])
        .arg(fixture())
        .env("NO_COLOR", "1")
        .output()
        .expect("run nimbook");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The summary line is the check's own, unchanged.
    assert!(String::from_utf8_lossy(&o.stderr).contains("checked 4 claims in 2 lessons: all hold"));
    String::from_utf8_lossy(&o.stdout).replace('\\', "/")
}

#[test]
fn check_results_prints_every_result_with_its_status() {
    let human = check_results("human");
    insta::assert_snapshot!("results_human", human);
    // A checked result that uses a stated one says so.
    assert!(human.contains("Values of sums: checked (64 cases, a, b < 8), given Definition 1.2"));
    // A proved result that uses only a checked one rests on nothing stated.
    assert!(human.contains("Commutativity: proved (polynomial identity; nimbers form a field)  ("));
    let json = check_results("json");
    insta::assert_snapshot!("results_json", json);
    for line in json.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        assert_eq!(v["type"], "result");
        assert!(["proved", "checked", "computed", "stated"]
            .contains(&v["evidence"].as_str().unwrap_or("")));
    }
    assert_eq!(json.lines().count(), 7);
}

/// `(user, used)` for every `uses=` in the fixture's markdown, read without nimbook.
fn declared_uses() -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for f in ["defs.md", "theorems.md"] {
        let text = std::fs::read_to_string(fixture().join("content").join(f)).expect("read");
        for line in text.lines().filter(|l| l.starts_with('#')) {
            let Some(attrs) = line.rsplit_once('{').map(|(_, a)| a.trim_end_matches('}')) else {
                continue;
            };
            let name = attrs.split_whitespace().find_map(|w| w.strip_prefix('#'));
            let uses = attrs
                .split_whitespace()
                .find_map(|w| w.strip_prefix("uses="));
            if let (Some(name), Some(uses)) = (name, uses) {
                for u in uses.split(',') {
                    out.insert((name.to_string(), u.to_string()));
                }
            }
        }
    }
    out
}

#[test]
fn the_results_page_draws_and_lists_exactly_the_declared_uses() {
    let tmp = tempfile::tempdir().expect("tmp");
    let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(["build"])
        .arg(fixture())
        .arg("-d")
        .arg(tmp.path())
        .output()
        .expect("run nimbook");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let page = std::fs::read_to_string(tmp.path().join("results.html")).expect("results.html");
    let start = page.find("<h1 id=\"results\"").expect("body");
    let end = page[start..]
        .find("</main>")
        .map_or(page.len(), |e| start + e);
    insta::assert_snapshot!("results_page", &page[start..end]);
    let declared = declared_uses();
    assert_eq!(declared.len(), 6);
    // The drawing: one arrow per declared use.
    assert_eq!(page.matches("<line class=\"use\"").count(), declared.len());
    // The table: every row's "Uses" cell links exactly the declared uses, and its "Used by"
    // cell exactly the results that declare it.
    let rows: Vec<&str> = page.split("<tr class=\"status-").skip(1).collect();
    assert_eq!(rows.len(), 7);
    let mut uses_seen = BTreeSet::new();
    let mut used_by_seen = BTreeSet::new();
    for row in rows {
        let name = row
            .split("#")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .expect("name");
        let cells: Vec<&str> = row.split("<td>").skip(1).collect();
        let names = |cell: &str| -> Vec<String> {
            cell.split("href=\"")
                .skip(1)
                .filter_map(|h| h.split('"').next()?.split('#').nth(1).map(str::to_string))
                .collect()
        };
        for u in names(cells[1]) {
            uses_seen.insert((name.to_string(), u));
        }
        for u in names(cells[2]) {
            used_by_seen.insert((u, name.to_string()));
        }
    }
    assert_eq!(uses_seen, declared);
    assert_eq!(used_by_seen, declared);
    // Every page's sidebar links the results page.
    let toc = std::fs::read_to_string(tmp.path().join("toc.js")).expect("toc.js");
    assert!(toc.contains("results.html"));
    // The status line under a heading links what it rests on.
    let theorems = std::fs::read_to_string(tmp.path().join("theorems.html")).expect("page");
    assert!(theorems.contains("<span class=\"result-word\">checked (64 cases, a, b &lt; 8)</span>, given <a href=\"defs.html#value\">Definition 1.2</a>"));
}

#[test]
fn a_book_without_results_has_no_results_page() {
    let tmp = tempfile::tempdir().expect("tmp");
    let basic = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic");
    let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(["build"])
        .arg(&basic)
        .arg("-d")
        .arg(tmp.path())
        .output()
        .expect("run nimbook");
    assert_eq!(o.status.code(), Some(0));
    assert!(!tmp.path().join("results.html").exists());
}
