//! mdBook's features in nimbook: a book that uses claims and mdBook's markdown together, external
//! preprocessors run as mdBook runs them (with a small preprocessor each test writes itself),
//! includes, and the `nim` fence rule.

use crate::common;

use std::path::Path;

use nimbook::diag::{Level, MessageFormat};
use nimbook::site::{build, check, Options, Progress};

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn errors(report: &nimbook::site::Report) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.level == Level::Error)
        .map(|d| d.render(MessageFormat::Human, false))
        .collect()
}

#[test]
fn claims_and_mdbook_features_build_together() {
    let book = common::copy_fixture("mixed");
    let report = build(&Options::new(book.path()), &Progress::none()).expect("build");
    assert_eq!(errors(&report), Vec::<String>::new());
    // 6*13=15 and 7+14=9 (included from outside src), 3*3=2, and the inline sum.
    assert_eq!(report.summary(), "checked 3 claims in 6 lessons: all hold");
    let out = book.path().join("out");
    let game = read(&out.join("games/index.html"));
    assert!(game.contains("<title>Nim, the game · "), "{game}");
    assert!(game.contains("class=\"admonition note\""));
    assert!(game.contains("<dl>") && game.contains("<dd>"));
    assert!(game.contains("“smart” – and"), "smart punctuation");
    let footnotes = game
        .find("<ol class=\"footnote-definition\">")
        .expect("footnotes");
    assert!(
        footnotes > game.find("raw-anchor").expect("anchor"),
        "footnotes at the end"
    );
    assert!(game.contains("href=\"#fr-why-1\""), "back-link");
    assert!(game.contains("nim-claim holds"));
    let sums = read(&out.join("games/sums.html"));
    assert!(sums.contains("<math"), "LaTeX in a nimbook book");
    // A hidden Rust line is in the page, behind mdBook's toggle (issue 31).
    assert!(
        sums.contains("<span class=\"boring\">") && sums.contains("main"),
        "hidden Rust line"
    );
    assert!(sums.contains("heaps"));
    let index = read(&out.join("index.html"));
    assert!(index.contains("href=\"games/index.html\""));
    // The sidebar is one file for the whole site (issue 16), not a copy in every page.
    let toc = read(&out.join("toc.html"));
    let sidebar_draft = toc.contains("<span class=\"draft\">Not written yet</span>");
    assert!(sidebar_draft && toc.contains("class=\"spacer\""), "{toc}");
    assert!(toc.contains("depth-3"));
    assert!(
        toc.contains("The nim game"),
        "backticks dropped from the summary title"
    );
    for page in [
        "404.html",
        "print.html",
        "toc.html",
        "old/nim.html",
        "notes.html",
    ] {
        assert!(out.join(page).is_file(), "{page}");
    }
    assert!(read(&out.join("old/nim.html")).contains("URL=../games/sums.html"));
}

#[test]
fn a_false_claim_from_an_included_file_points_into_that_file() {
    let book = common::copy_fixture("mixed");
    let listing = book.path().join("listings/claims.txt");
    std::fs::write(&listing, read(&listing).replace("7 + 14 = 9", "7 + 14 = 8")).expect("write");
    let report = check(&Options::new(book.path()), &Progress::none()).expect("check");
    let e = errors(&report);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("listings/claims.txt:4:1"), "{}", e[0]);
}

#[test]
fn a_missing_include_is_located() {
    let book = common::copy_fixture("mixed");
    let page = book.path().join("src/games/deepest.md");
    std::fs::write(&page, "# Deepest\n\n{{#include nothing.rs}}\n").expect("write");
    let report = check(&Options::new(book.path()), &Progress::none()).expect("check");
    let e = errors(&report);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("cannot include nothing.rs: no such file"),
        "{}",
        e[0]
    );
    assert!(e[0].contains("src/games/deepest.md:3:1"), "{}", e[0]);
}

/// Writes a preprocessor script into the book and registers it in book.toml.
fn with_preprocessor(book: &Path, script: &str, table: &str) {
    std::fs::write(book.join("pp.py"), script).expect("write preprocessor");
    let toml = read(&book.join("book.toml"));
    std::fs::write(
        book.join("book.toml"),
        format!("{toml}\n[preprocessor.pp]\ncommand = \"python3 pp.py\"\n{table}"),
    )
    .expect("write book.toml");
}

const PREAMBLE: &str = r#"import json, sys
if len(sys.argv) > 1 and sys.argv[1] == "supports":
    sys.exit(0 if sys.argv[2] == "html" else 1)
context, book = json.load(sys.stdin)
"#;

fn python() -> bool {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("NIMBOOK_REQUIRE_REALBOOKS").is_none(),
            "python3 is needed for the preprocessor tests"
        );
        eprintln!("skipped: python3 is not installed");
    }
    ok
}

#[test]
fn a_preprocessor_sees_the_book_and_its_claims_are_checked_in_the_original_file() {
    if !python() {
        return;
    }
    let book = common::copy_fixture("mixed");
    // Inserts two lines at the top of every chapter and adds a claim to Deeper; records the
    // context and the order of the chapters it was given.
    let script = format!(
        "{PREAMBLE}{}",
        r#"
names = []
def walk(items):
    for item in items:
        if isinstance(item, dict) and "Chapter" in item:
            ch = item["Chapter"]
            names.append(ch["name"])
            ch["content"] = "Added by pp.\n\n" + ch["content"]
            if ch["source_path"] == "games/deeper.md":
                ch["content"] += "\n```nim\n2 * 2 = 3\n```\n"
            walk(ch["sub_items"])
walk(book["items"])
with open("seen.json", "w") as f:
    json.dump({"renderer": context["renderer"], "version": context["mdbook_version"], "names": names,
               "setting": context["config"]["preprocessor"]["pp"].get("setting")}, f)
print(json.dumps(book))
"#
    );
    with_preprocessor(book.path(), &script, "setting = 7\n");
    let page = book.path().join("src/games/sums.md");
    std::fs::write(
        &page,
        read(&page).replace("`nim: 5 + 11`", "`nim: 5 + 11 = 4`"),
    )
    .expect("write");
    let report = check(&Options::new(book.path()), &Progress::none()).expect("check");
    let e = errors(&report);
    assert_eq!(e.len(), 1, "{e:?}");
    // Line 3 of the file, although the preprocessor moved it to line 5.
    assert!(e[0].contains("src/games/sums.md:3:"), "{}", e[0]);
    let seen = read(&book.path().join("seen.json"));
    assert!(seen.contains("\"renderer\": \"html\""), "{seen}");
    assert!(seen.contains("\"setting\": 7"), "{seen}");
    assert!(
        seen.contains("[\"Welcome\", \"The nim game\", \"Sums\", \"Deeper\", \"Deepest\", \"Not written yet\", \"Notes\"]"),
        "{seen}"
    );
    // The claim the preprocessor wrote was checked (3 + 1 from the first test's count, and
    // `2 * 2 = 3` holds: 2 ⊗ 2 = 3).
    std::fs::write(
        &page,
        read(&page).replace("`nim: 5 + 11 = 4`", "`nim: 5 + 11`"),
    )
    .expect("write");
    let report = build(&Options::new(book.path()), &Progress::none()).expect("build");
    assert_eq!(errors(&report), Vec::<String>::new());
    assert_eq!(report.summary(), "checked 4 claims in 6 lessons: all hold");
    assert!(read(&book.path().join("out/games/deeper.html")).contains("Added by pp."));
}

#[test]
fn preprocessors_that_fail_hang_or_answer_nonsense_stop_the_build_and_name_themselves() {
    if !python() {
        return;
    }
    for (body, expected) in [
        (
            "sys.stderr.write('boom\\n'); sys.exit(3)\n",
            "preprocessor `pp` failed (exit status 3)",
        ),
        (
            "print('not json')\n",
            "preprocessor `pp` did not answer with a book",
        ),
        (
            "import time; time.sleep(60)\n",
            "preprocessor `pp` did not finish within 4 s",
        ),
    ] {
        let book = common::copy_fixture("mixed");
        let toml = read(&book.path().join("book.toml"));
        std::fs::write(
            book.path().join("book.toml"),
            toml.replace("max-bits = 256", "max-bits = 256\npreprocessor-seconds = 4"),
        )
        .expect("write");
        with_preprocessor(book.path(), &format!("{PREAMBLE}{body}"), "");
        let err = build(&Options::new(book.path()), &Progress::none())
            .err()
            .map(|d| d.render(MessageFormat::Human, false))
            .unwrap_or_default();
        assert!(err.contains(expected), "{err}");
        assert!(!book.path().join("out").exists(), "nothing is written");
    }
}

#[test]
fn a_preprocessor_for_another_renderer_and_a_missing_optional_one_are_skipped() {
    let book = common::copy_fixture("mixed");
    let toml = read(&book.path().join("book.toml"));
    std::fs::write(
        book.path().join("book.toml"),
        format!("{toml}\n[preprocessor.pdf]\ncommand = \"false\"\nrenderers = [\"pdf\"]\n[preprocessor.gone]\ncommand = \"no-such-command-anywhere\"\noptional = true\n"),
    )
    .expect("write");
    let report = check(&Options::new(book.path()), &Progress::none()).expect("check");
    assert_eq!(errors(&report), Vec::<String>::new());
    assert!(report.diagnostics.iter().any(|d| d
        .message
        .contains("optional preprocessor `gone` was not run")));
}

#[test]
fn a_nim_language_book_builds_and_claims_never_stop_silently() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path();
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(root.join("book.toml"), "[book]\ntitle = \"Nim\"\n").expect("write");
    std::fs::write(root.join("src/SUMMARY.md"), "[Intro](intro.md)\n").expect("write");
    std::fs::write(
        root.join("src/intro.md"),
        "# Nim\n\nSet `$HOME/.nimble/bin` in `$PATH`.\n\n```nim\nproc hello(name: string) =\n  echo \"Hello, \", name\n```\n\n```nim\n6 * 13 = 15\n```\n",
    )
    .expect("write");
    let report = build(&Options::new(root), &Progress::none()).expect("build");
    assert_eq!(errors(&report), Vec::<String>::new());
    let warnings: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.level == Level::Warning)
        .map(|d| d.render(MessageFormat::Human, false))
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("src/intro.md:10:1"), "{}", warnings[0]);
    let html = read(&root.join("book/intro.html"));
    assert!(
        html.contains("<code>$HOME/.nimble/bin</code>"),
        "no LaTeX in an mdBook book"
    );
    assert!(html.contains("language-nim"));
    assert!(!html.contains("nim-claim"));
}
