//! Issue 38: several renderers, laid out and run as mdBook 0.5.4 runs them.
//!
//! Each test writes a small book with `[output.NAME]` tables whose commands are shell scripts
//! written by the test (one saves the render context it is given), builds it with nimbook and,
//! where `mdbook` is installed, with mdBook into a sibling folder, and compares what the two
//! wrote: the folders, the render context, mdBook's `markdown` renderer's files, and the exit
//! codes. `.ci/run` sets `NIMBOOK_REQUIRE_REALBOOKS=1`, so a missing `mdbook` fails there.

use crate::common;
use crate::mdbook_parity::{book, code, ours, read, theirs};

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

/// A command renderer that saves its standard input, and notes its working folder and first
/// argument, in the folder it runs in.
const DUMP: &str = "#!/bin/sh\npwd > cwd.txt\necho \"$1\" > arg.txt\ncat > ctx.json\n";

const CHAPTERS: &[(&str, &str)] = &[
    (
        "src/SUMMARY.md",
        "# Summary\n\n- [Intro](README.md)\n- [Part](part/a.md)\n  - [Deeper](part/b.md)\n",
    ),
    ("src/README.md", "# Intro\n\n{{#include part/b.md}}\n"),
    ("src/part/a.md", "# A\n\nalpha\n"),
    ("src/part/b.md", "# B\n\nbeta\n"),
];

/// A book with `toml` as its `book.toml`, the chapters above and the dump script.
fn renderer_book(toml: &str) -> tempfile::TempDir {
    let mut files = CHAPTERS.to_vec();
    files.push(("bin/dump.sh", DUMP));
    let b = book(toml, &files);
    make_executable(&b.path().join("bin/dump.sh"));
    b
}

fn make_executable(p: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The names of the entries of `dir`, files and folders, without nimbook's marker.
fn names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".nimbook-build")
        .collect()
}

/// Every chapter of a book in a render context, depth first: (name, path, source path,
/// content).
fn chapters(book: &Value) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<&Value> = book["items"]
        .as_array()
        .expect("items")
        .iter()
        .rev()
        .collect();
    while let Some(item) = stack.pop() {
        let Some(c) = item.get("Chapter") else {
            continue;
        };
        let s = |k: &str| c[k].as_str().unwrap_or_default().to_string();
        out.push((s("name"), s("path"), s("source_path"), s("content")));
        if let Some(subs) = c["sub_items"].as_array() {
            stack.extend(subs.iter().rev());
        }
    }
    out
}

/// Asserts that the standard error of `o` says `what`.
fn says(o: &std::process::Output, what: &str) {
    let err = common::stderr(o);
    assert!(err.contains(what), "{what}: {err}");
}

/// Builds the book at `root` with nimbook, which must fail with exit code 2 and say
/// `expected`, and with mdBook where it is installed, which must fail too.
fn fails_as_in_mdbook(root: &Path, expected: &str) {
    let (o, _) = ours(root, &[]);
    assert_eq!(code(&o), 2, "{}", common::stderr(&o));
    says(&o, expected);
    if let Some((ok, _)) = theirs(root) {
        assert!(!ok, "mdBook fails too");
    }
}

fn context(dir: &Path) -> Value {
    serde_json::from_str(&read(&dir.join("ctx.json"))).expect("the render context is JSON")
}

#[test]
fn one_renderer_writes_into_the_build_folder() {
    let b = renderer_book("[book]\ntitle = \"T\"\n[output.html]\n");
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(out.join("index.html").is_file());
    assert!(out.join("part/b.html").is_file());
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        assert!(dir.join("index.html").is_file());
    }
}

#[test]
fn several_renderers_write_into_folders_of_their_names_with_mdbooks_render_context() {
    let b = renderer_book(
        "[book]\ntitle = \"T\"\n[output.html]\n[output.dump]\ncommand = \"bin/dump.sh first\"\nsetting = 7\n[output.markdown]\n",
    );
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    let err = common::stderr(&o);
    assert!(!err.contains("ignored by nimbook"), "{err}");
    assert_eq!(
        names(&out),
        ["dump", "html", "markdown"].map(String::from).into()
    );
    assert!(out.join("html/index.html").is_file());
    assert!(out.join("html/part/b.html").is_file());
    let ctx = context(&out.join("dump"));
    // Run in its own folder, a command path taken from the book root, its arguments kept.
    let cwd = read(&out.join("dump/cwd.txt"));
    assert_eq!(
        Path::new(cwd.trim()).canonicalize().expect("cwd"),
        out.join("dump").canonicalize().expect("dump")
    );
    assert_eq!(read(&out.join("dump/arg.txt")).trim(), "first");
    assert_eq!(ctx["version"], "0.5.4");
    assert_eq!(ctx["config"]["output"]["dump"]["setting"], 7);
    let ours_chapters = chapters(&ctx["book"]);
    assert_eq!(
        ours_chapters
            .iter()
            .map(|c| (c.1.as_str(), c.2.as_str()))
            .collect::<Vec<_>>(),
        [
            ("index.md", "README.md"),
            ("part/a.md", "part/a.md"),
            ("part/b.md", "part/b.md")
        ]
    );
    assert!(ours_chapters[0].3.contains("beta"), "includes expanded");
    // mdBook's `markdown` renderer: each chapter after the preprocessors, at its path.
    assert_eq!(read(&out.join("markdown/index.md")), ours_chapters[0].3);
    assert_eq!(read(&out.join("markdown/part/b.md")), "# B\n\nbeta\n");
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok, "mdBook builds it");
        assert_eq!(names(&dir), names(&out));
        let theirs_ctx = context(&dir.join("dump"));
        for key in ["version", "root"] {
            assert_eq!(ctx[key], theirs_ctx[key], "{key}");
        }
        let keys = |v: &Value| {
            v.as_object()
                .map(|o| o.keys().cloned().collect::<BTreeSet<_>>())
        };
        assert_eq!(keys(&ctx), keys(&theirs_ctx));
        assert_eq!(ctx["config"]["output"], theirs_ctx["config"]["output"]);
        assert_eq!(
            ctx["config"]["book"]["title"],
            theirs_ctx["config"]["book"]["title"]
        );
        assert_eq!(ours_chapters, chapters(&theirs_ctx["book"]));
        let dest = |c: &Value| {
            Path::new(c["destination"].as_str().expect("destination"))
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        };
        assert_eq!(dest(&ctx), dest(&theirs_ctx));
        assert_eq!(names(&dir.join("markdown")), names(&out.join("markdown")));
        for f in ["index.md", "part/a.md", "part/b.md"] {
            assert_eq!(
                read(&dir.join("markdown").join(f)),
                read(&out.join("markdown").join(f)),
                "{f}"
            );
        }
    }
}

#[test]
fn an_optional_renderer_that_is_missing_warns_and_a_required_one_fails_as_in_mdbook() {
    let optional = renderer_book(
        "[book]\ntitle = \"T\"\n[output.html]\n[output.nothere]\ncommand = \"nimbook-test-no-such-program\"\noptional = true\n",
    );
    let (o, out) = ours(optional.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    says(
        &o,
        "warning: renderer `nothere` was not run: `nimbook-test-no-such-program` was not found",
    );
    assert!(out.join("html/index.html").is_file());
    if let Some((ok, _)) = theirs(optional.path()) {
        assert!(ok, "mdBook goes on without an optional renderer");
    }
    let required =
        renderer_book("[book]\ntitle = \"T\"\n[output.html]\n[output.nothere]\ncommand = \"nimbook-test-no-such-program\"\n");
    fails_as_in_mdbook(required.path(), "set `optional = true` in [output.nothere]");
}

#[test]
fn a_renderer_that_fails_fails_the_build() {
    let b = renderer_book(
        "[book]\ntitle = \"T\"\n[output.html]\n[output.bad]\ncommand = \"sh -c 'exit 3'\"\n",
    );
    fails_as_in_mdbook(b.path(), "error: renderer `bad` failed (exit status 3)");
}

#[test]
fn each_renderer_gets_the_book_of_the_preprocessors_that_support_it() {
    // A preprocessor for HTML only: the site has its mark, the other renderer's book does not.
    let b = renderer_book(
        "[book]\ntitle = \"T\"\n[output.html]\n[output.dump]\ncommand = \"bin/dump.sh\"\n[preprocessor.mark]\ncommand = \"python3 bin/mark.py\"\n",
    );
    std::fs::write(
        b.path().join("bin/mark.py"),
        "import json, sys\nif len(sys.argv) > 1 and sys.argv[1] == 'supports':\n    sys.exit(0 if sys.argv[2] == 'html' else 1)\ncontext, book = json.load(sys.stdin)\nprint(json.dumps(book).replace('alpha', 'ALPHA-MARK'))\n",
    )
    .expect("write");
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(read(&out.join("html/part/a.html")).contains("ALPHA-MARK"));
    let ctx = read(&out.join("dump/ctx.json"));
    assert!(
        ctx.contains("alpha") && !ctx.contains("ALPHA-MARK"),
        "{ctx}"
    );
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        assert!(read(&dir.join("html/part/a.html")).contains("ALPHA-MARK"));
        let theirs_ctx = read(&dir.join("dump/ctx.json"));
        assert!(!theirs_ctx.contains("ALPHA-MARK"), "{theirs_ctx}");
    }
}

#[test]
fn untrusted_runs_no_renderer_command_and_keeps_the_layout() {
    let b = renderer_book(
        "[book]\ntitle = \"T\"\n[output.html]\n[output.dump]\ncommand = \"bin/dump.sh\"\n",
    );
    let (o, out) = ours(b.path(), &["--untrusted"]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    says(
        &o,
        "the renderer `dump` was not run: --untrusted runs no command",
    );
    assert!(out.join("html/index.html").is_file());
    assert!(!out.join("dump/ctx.json").exists());
}

#[test]
fn build_dir_and_dash_d_follow_the_same_layout() {
    let b = renderer_book(
        "[book]\ntitle = \"T\"\n[build]\nbuild-dir = \"site\"\n[output.html]\n[output.markdown]\n",
    );
    let o = common::nimbook(&["build"], b.path());
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(b.path().join("site/html/index.html").is_file());
    assert!(b.path().join("site/markdown/index.md").is_file());
    says(&o, "wrote the site to");
    says(&o, "site/html");
}

#[test]
fn serve_previews_the_site_where_build_puts_it() {
    let b = renderer_book(
        "[book]\ntitle = \"T\"\n[output.html]\n[output.dump]\ncommand = \"bin/dump.sh\"\n",
    );
    let server = crate::serve::Server::start(b.path());
    let (status, body) = server.get("/part/b.html");
    drop(server);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("beta"), "{body}");
    assert!(b.path().join("book/html/part/b.html").is_file());
    assert!(
        !b.path().join("book/part").exists(),
        "nothing at the single-renderer place"
    );
    assert!(
        !b.path().join("book/dump/ctx.json").exists(),
        "serve runs only the site"
    );
}
