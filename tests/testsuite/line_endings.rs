//! A book reads the same whatever its line endings. CommonMark counts `\n`, `\r\n` and a lone
//! `\r` as line endings; a lesson saved on Windows, on a classic Mac or by a tool that mixes
//! them must give the claims, diagnostics (lines and columns included) and pages of the same
//! lesson with `\n`. Every book of `tests/fixtures/` (the error fixtures among them) and the
//! course itself are rewritten with each ending and with all three mixed, built, and compared
//! with the `\n` build: the JSON diagnostics, the exit code and every file written.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::common::{copy_dir, fixture};

/// The forms a text is rewritten in: each line ending replaced.
#[derive(Debug, Clone, Copy)]
enum Form {
    Lf,
    CrLf,
    Cr,
    /// `\n`, `\r`, `\r\n` in turn (in that order, so that no `\r` is followed by a `\n` that
    /// would make one ending of two).
    Mixed,
}

const FORMS: [Form; 4] = [Form::Lf, Form::CrLf, Form::Cr, Form::Mixed];

/// `text` (with `\n` endings) with its endings in `form`.
fn rewritten(text: &str, form: Form) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let Some(body) = line.strip_suffix('\n') else {
            out.push_str(line);
            continue;
        };
        out.push_str(body);
        out.push_str(match (form, i % 3) {
            (Form::Lf, _) | (Form::Mixed, 0) => "\n",
            (Form::CrLf, _) | (Form::Mixed, 2) => "\r\n",
            (Form::Cr, _) | (Form::Mixed, _) => "\r",
        });
    }
    out
}

/// Rewrites every text file under `dir` in `form`.
fn rewrite_tree(dir: &Path, form: Form) {
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rewrite_tree(&path, form);
            continue;
        }
        let text_file = path
            .extension()
            .is_some_and(|e| ["md", "toml", "txt", "rs"].contains(&e.to_str().unwrap_or("")));
        if text_file {
            let text = std::fs::read_to_string(&path).expect("text");
            assert!(!text.contains('\r'), "{} has a \\r already", path.display());
            std::fs::write(&path, rewritten(&text, form)).expect("write");
        }
    }
}

/// Every fixture book: each folder under `tests/fixtures/` with a `book.toml`.
fn fixture_books(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.join("book.toml").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            fixture_books(&path, out);
        }
    }
}

/// What a build said and wrote: the exit code, standard output and error (the book's folder
/// written as `<book>`), and every file of the site.
#[derive(Debug, PartialEq)]
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    files: Vec<(String, Vec<u8>)>,
}

/// Builds the copy of a book at `book` with JSON diagnostics.
fn build(book: &Path) -> Outcome {
    let out = book.join("site-out");
    let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(["build", "--message-format", "json", "-d"])
        .arg(&out)
        .arg(book)
        .env("NO_COLOR", "1")
        .output()
        .expect("run nimbook");
    let shown = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes)
            .replace(&book.display().to_string(), "<book>")
            .replace('\\', "/")
    };
    let mut files = Vec::new();
    site_files(&out, &out, &mut files);
    files.sort();
    Outcome {
        code: o.status.code(),
        stdout: shown(&o.stdout),
        stderr: shown(&o.stderr),
        files,
    }
}

fn site_files(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            site_files(root, &path, out);
        } else {
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            out.push((name, std::fs::read(&path).expect("read")));
        }
    }
}

/// Copies a book (with `copy`), rewrites it in every form, builds each copy, and asserts that
/// each form gives what `\n` gives.
fn assert_same_in_every_form(name: &str, copy: impl Fn(&Path) + Sync) {
    let outcomes: Vec<(Form, Outcome)> = std::thread::scope(|s| {
        let runs: Vec<_> = FORMS
            .iter()
            .map(|&form| {
                let copy = &copy;
                s.spawn(move || {
                    let tmp = tempfile::tempdir().expect("temp dir");
                    copy(tmp.path());
                    rewrite_tree(tmp.path(), form);
                    (form, build(tmp.path()))
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().expect("run")).collect()
    });
    let (_, lf) = &outcomes[0];
    for (form, outcome) in &outcomes[1..] {
        assert_eq!(outcome.code, lf.code, "{name} in {form:?}: exit code");
        assert_eq!(
            outcome.stdout, lf.stdout,
            "{name} in {form:?}: diagnostics differ"
        );
        assert_eq!(outcome.stderr, lf.stderr, "{name} in {form:?}: messages");
        let names = |o: &Outcome| o.files.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
        assert_eq!(names(outcome), names(lf), "{name} in {form:?}: files");
        for ((file, bytes), (_, expected)) in outcome.files.iter().zip(&lf.files) {
            assert!(
                bytes == expected,
                "{name} in {form:?}: {file} differs from the `\\n` build"
            );
        }
    }
}

#[test]
fn every_fixture_reads_the_same_with_every_line_ending() {
    let mut books = Vec::new();
    fixture_books(&fixture(""), &mut books);
    books.sort();
    assert!(books.len() >= 50, "{books:?}");
    for book in books {
        let name = book.display().to_string();
        assert_same_in_every_form(&name, |to| copy_dir(&book, to));
    }
}

#[test]
fn the_course_reads_the_same_with_every_line_ending() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_same_in_every_form("the course", |to| {
        copy_dir(&root.join("content"), &to.join("content"));
        // A search's clock is the one budget that depends on the machine's load, and four
        // builds run at once here: it is raised so that every claim is decided as in CI.
        let toml = std::fs::read_to_string(root.join("book.toml")).expect("book.toml");
        assert!(
            toml.trim_end().ends_with("unverified-numbers = \"deny\""),
            "{toml}"
        );
        std::fs::write(to.join("book.toml"), toml + "max-seconds = 3600\n").expect("write");
    });
}

#[test]
fn a_lesson_with_cr_endings_only_is_checked() {
    // The defect of issue 37: with `\r` alone the lesson was one heading and nothing was checked.
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(tmp.path().join("content")).expect("content");
    std::fs::write(
        tmp.path().join("book.toml"),
        "[book]\ntitle = \"t\"\nsrc = \"content\"\n[nimbook]\n",
    )
    .expect("book.toml");
    std::fs::write(
        tmp.path().join("content/l.md"),
        "# L\r\r```nim\r5 + 3 = 7\r```\r\rtext `nim: 5 + 3 = 7` end\r",
    )
    .expect("lesson");
    let o = build(tmp.path());
    assert_eq!(o.code, Some(1), "{o:?}");
    let places: Vec<(u64, u64, String)> = o
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|d| d["code"] == "false-claim")
        .map(|d| {
            (
                d["line"].as_u64().unwrap_or(0),
                d["column"].as_u64().unwrap_or(0),
                d["end_column"].to_string(),
            )
        })
        .collect();
    assert_eq!(
        places,
        [(4, 1, "10".to_string()), (7, 12, "21".to_string())],
        "{o:?}"
    );
}

#[test]
fn nul_becomes_the_replacement_character_everywhere() {
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(tmp.path().join("content")).expect("content");
    std::fs::write(
        tmp.path().join("book.toml"),
        "[book]\ntitle = \"t\"\nsrc = \"content\"\n[nimbook]\n",
    )
    .expect("book.toml");
    std::fs::write(
        tmp.path().join("content/SUMMARY.md"),
        "# Summary\n\n- [L\0a](l.md)\n",
    )
    .expect("summary");
    std::fs::write(tmp.path().join("content/l.md"), "# L\n\nhel\0lo\n").expect("lesson");
    let o = build(tmp.path());
    assert_eq!(o.code, Some(0), "{o:?}");
    let handout = tmp.path().join("handout.html");
    let h = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(["handout", "--all", "-o"])
        .arg(&handout)
        .arg(tmp.path())
        .output()
        .expect("run nimbook");
    assert!(h.status.success(), "{h:?}");
    let mut files = o.files;
    files.push((
        "handout.html".into(),
        std::fs::read(&handout).expect("handout"),
    ));
    let text_files = files
        .iter()
        .filter(|(name, _)| [".html", ".js"].iter().any(|e| name.ends_with(e)));
    let mut seen = 0;
    for (name, bytes) in text_files {
        assert!(!bytes.contains(&0), "{name} holds a NUL");
        let text = String::from_utf8_lossy(bytes);
        seen += usize::from(text.contains("hel\u{FFFD}lo"));
    }
    // The page, the print page, the search index and the handout.
    assert!(seen >= 4, "U+FFFD in only {seen} files");
}
