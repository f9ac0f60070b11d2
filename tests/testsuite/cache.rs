//! The cache of decided results (`.nimbook/cache/`): sound, robust, and invisible in the output.
//!
//! Whether a result was recalled or decided again is read off the page, not off the cache's
//! own bookkeeping: the test *poisons* the cache, rewriting a remembered result into one the
//! engine would never give (a `forall` checked in 999 cases where it has 64, a table with a
//! comment no directive writes) and fixing the file's checksum, so that a page showing the
//! poison was built from the cache and a page without it was decided again. Every other check
//! compares a build with the cache against a build with `--no-cache`, file for file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::common::{copy_dir, nimbook, stderr, write_files};
use crate::exercises::sha256_hex;

/// What the poisoned `forall` shows when it is recalled, and what the engine says.
const POISONED: &str = "checked (999 cases)";
const DECIDED: &str = "checked (64 cases)";
/// What a poisoned directive's output carries: words no directive writes, which survive the
/// page's escaping.
const MARK: &str = "poisoned-by-the-test";

const LESSON: &str = "# Keys\n\nA binding and a claim that uses it.\n\n```nim\nlet x = 5\nforall a < 64: a * x = x * a\n```\n\n```nimbook\ngrundy_table(\"kayles\", 12)\n```\n";

/// A book in a temporary folder: `lesson.md` with `lesson`, and `extra` lines in `[nimbook]`.
fn book(lesson: &str, extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write_files(
        root,
        &[
            ("content/SUMMARY.md", "# Summary\n\n- [Keys](lesson.md)\n"),
            ("content/lesson.md", lesson),
        ],
    );
    set_toml(root, extra);
    dir
}

fn set_toml(root: &Path, extra: &str) {
    std::fs::write(
        root.join("book.toml"),
        format!("[book]\ntitle = \"Cache\"\nsrc = \"content\"\n\n[nimbook]\n{extra}"),
    )
    .expect("write");
}

fn edit(root: &Path, from: &str, to: &str) {
    let path = root.join("content/lesson.md");
    let text = std::fs::read_to_string(&path).expect("lesson");
    assert!(text.contains(from), "{from} in {text}");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

fn build(root: &Path, args: &[&str]) -> Output {
    let mut all = vec!["build"];
    all.extend(args);
    nimbook(&all, root)
}

/// Builds and gives the lesson's page; the build must pass.
fn page(root: &Path) -> String {
    let o = build(root, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::read_to_string(root.join("book/lesson.html")).expect("page")
}

fn results(root: &Path) -> PathBuf {
    root.join(".nimbook/cache/results")
}

/// Rewrites every remembered result with `f` and puts a matching checksum in the header.
fn poison(root: &Path, f: impl Fn(&mut Value)) {
    let text = std::fs::read_to_string(results(root)).expect("the cache was written");
    let (header, body) = text.split_once('\n').expect("a header line");
    let mut lines: Value = serde_json::from_str(body).expect("JSON");
    for line in lines.as_array_mut().expect("a list") {
        f(&mut line["result"]);
    }
    let body = lines.to_string();
    let mut words: Vec<&str> = header.split(' ').collect();
    let sum = sha256_hex(&body);
    *words.last_mut().expect("words") = &sum;
    std::fs::write(results(root), format!("{}\n{body}", words.join(" "))).expect("write");
}

/// The `forall` claims 999 cases, and every directive's output carries [`MARK`].
fn poison_all(root: &Path) {
    poison(root, |result| {
        if result["established"]["checked"]["cases"] == 64 {
            result["established"]["checked"]["cases"] = 999.into();
        }
        if let Some(output) = result.get_mut("output") {
            mark_text(output);
        }
    });
}

/// Appends [`MARK`] to the first run of text or drawing of a directive's block, so that each
/// recalled directive shows it once; whether it found one.
fn mark_text(block: &mut Value) -> bool {
    match block {
        Value::Object(fields) => {
            fields
                .iter_mut()
                .any(|(name, field)| match (name.as_str(), field.as_str()) {
                    ("Text" | "Prose" | "svg", Some(text)) => {
                        *field = format!("{text}{MARK}").into();
                        true
                    }
                    _ => mark_text(field),
                })
        }
        Value::Array(items) => items.iter_mut().any(mark_text),
        _ => false,
    }
}

/// A warm, poisoned book: its page shows that the `forall` (if the lesson has it) and the
/// directives were recalled.
fn poisoned(lesson: &str, extra: &str) -> tempfile::TempDir {
    let dir = book(lesson, extra);
    let cold = page(dir.path());
    assert!(!cold.contains(MARK) && !cold.contains(POISONED), "{cold}");
    poison_all(dir.path());
    let warm = page(dir.path());
    assert!(warm.contains(MARK), "{warm}");
    assert_eq!(cold.contains(DECIDED), warm.contains(POISONED), "{warm}");
    dir
}

#[test]
fn every_input_of_a_key_decides_the_claim_again() {
    // The claim itself, and the value of the name it uses.
    let dir = poisoned(LESSON, "");
    edit(dir.path(), "a * x = x * a", "x * a = a * x");
    assert!(page(dir.path()).contains(DECIDED));
    let dir = poisoned(LESSON, "");
    edit(dir.path(), "let x = 5", "let x = 6");
    assert!(page(dir.path()).contains(DECIDED));
    // Each budget in force.
    for budget in [
        "max-bits = 64",
        "max-cases = 64",
        "max-table = 16",
        "max-terms = 100",
        "max-positions = 100000",
        "max-seconds = 30",
    ] {
        let dir = poisoned(LESSON, "");
        set_toml(dir.path(), &format!("{budget}\n"));
        let page = page(dir.path());
        assert!(page.contains(DECIDED), "{budget}: {page}");
        assert!(!page.contains(MARK), "{budget}: {page}");
    }
    // The engine: a file another build of nimbook wrote is not read, and not complained of.
    let dir = poisoned(LESSON, "");
    let text = std::fs::read_to_string(results(dir.path())).expect("cache");
    let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
    words[2] = "0".repeat(64);
    std::fs::write(results(dir.path()), words.join(" ")).expect("write");
    let o = build(dir.path(), &[]);
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    let page = std::fs::read_to_string(dir.path().join("book/lesson.html")).expect("page");
    assert!(page.contains(DECIDED) && !page.contains(MARK), "{page}");
}

#[test]
fn spelling_and_place_are_not_part_of_a_key() {
    let dir = poisoned(LESSON, "");
    // Another spelling of the same claim, and text above both the claim and the table: still
    // recalled (the poison shows).
    edit(
        dir.path(),
        "a * x = x * a",
        "a ⊗ x   =   x ⊗ a   # the same claim",
    );
    edit(
        dir.path(),
        "# Keys\n",
        "# Keys\n\nA new paragraph above everything.\n",
    );
    let page = page(dir.path());
    assert!(page.contains(POISONED) && page.contains(MARK), "{page}");
}

#[test]
fn a_directive_is_decided_again_when_its_arguments_or_names_change() {
    let lesson =
        "# Keys\n\n```nim\nlet n = 12\n```\n\n```nimbook\ngrundy_table(\"kayles\", n)\n```\n";
    let dir = poisoned(lesson, "");
    edit(dir.path(), "let n = 12", "let n = 13");
    assert!(!page(dir.path()).contains(MARK));
    let dir = poisoned(lesson, "");
    edit(dir.path(), "\"kayles\"", "\"dawsons_kayles\"");
    assert!(!page(dir.path()).contains(MARK));
}

#[test]
fn a_directive_that_uses_its_place_is_recalled_only_there() {
    // A game graph's arrowheads get an id from where the graph stands; a question its number
    // from the questions before it.
    let lesson = "# Places\n\n```nimbook\ngame_graph(nim(1, 2))\nexercise(\"Compute 6 ⊗ 13\", 6 * 13)\n```\n";
    let dir = poisoned(lesson, "");
    let same = page(dir.path());
    assert_eq!(same.matches(MARK).count(), 2, "{same}");
    edit(
        dir.path(),
        "# Places\n",
        "# Places\n\nText above the graph.\n",
    );
    let moved = page(dir.path());
    assert_eq!(moved.matches(MARK).count(), 1, "{moved}");
    assert!(moved.contains("Exercise 1."), "{moved}");
    edit(
        dir.path(),
        "```nimbook\n",
        "```nimbook\nexercise(\"Compute 2 ⊗ 3\", 2 * 3)\n",
    );
    let renumbered = page(dir.path());
    assert!(!renumbered.contains(MARK), "{renumbered}");
    assert!(renumbered.contains("Exercise 2."), "{renumbered}");
}

#[test]
fn a_false_claim_introduced_after_a_warm_build_still_fails() {
    let dir = book(LESSON, "");
    page(dir.path());
    page(dir.path());
    edit(dir.path(), "let x = 5", "let x = 5\n6 * 13 = 14");
    let o = build(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("claim does not hold"), "{}", stderr(&o));
    // A claim made false through the name it uses.
    let lesson = "# Names\n\n```nim\nlet x = 5\nx * 3 = 15\n```\n";
    let dir = book(lesson, "");
    page(dir.path());
    edit(dir.path(), "let x = 5", "let x = 6");
    let o = build(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("claim does not hold"), "{}", stderr(&o));
}

#[test]
fn a_lowered_max_cases_fails_a_claim_that_now_exceeds_it() {
    // Checked case by case: no proof covers it once the cases are too many.
    let lesson = "# Cases\n\n```nim\nforall a < 64: int(a * a) mod 7 < 7\n```\n";
    let dir = book(lesson, "");
    page(dir.path());
    page(dir.path());
    set_toml(dir.path(), "max-cases = 63\n");
    let o = build(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("max-cases"), "{}", stderr(&o));
}

/// Every file under `dir`, by path relative to it.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let rel = path.strip_prefix(dir).expect("under dir").to_path_buf();
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    out
}

/// Asserts that two sites hold the same files, byte for byte.
fn same_site(a: &Path, b: &Path) {
    let (a, b) = (files(a), files(b));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (path, bytes) in &a {
        assert!(b[path] == *bytes, "{} differs", path.display());
    }
}

/// The warnings about the cache's file.
fn cache_warnings(o: &Output) -> usize {
    stderr(o)
        .lines()
        .filter(|l| l.starts_with("warning: ") && l.contains("the cache"))
        .count()
}

/// A way to spoil a file's bytes.
type Garble = fn(&[u8]) -> Vec<u8>;

#[test]
fn a_garbled_cache_is_one_warning_and_the_same_site() {
    let lesson = format!("{LESSON}\n```nimbook\nexercise(\"Compute 6 ⊗ 13\", 6 * 13)\n```\n");
    let reference = book(&lesson, "");
    let o = build(reference.path(), &["--no-cache"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!reference.path().join(".nimbook").exists());
    let garbles: [(&str, Garble); 6] = [
        ("truncated", |b| b[..b.len() / 2].to_vec()),
        ("a byte flipped", |b| {
            let mut b = b.to_vec();
            let i = b.len() - 20;
            b[i] ^= 0x20;
            b
        }),
        ("another format", |b| {
            String::from_utf8_lossy(b)
                .replacen("nimbook-cache 1 ", "nimbook-cache 99 ", 1)
                .into_bytes()
        }),
        ("not a cache", |_| b"hello\nworld\n".to_vec()),
        ("empty", |_| Vec::new()),
        ("not text", |_| vec![0xff, 0xfe, 0, 1, 2, 3]),
    ];
    for (what, garble) in garbles {
        let dir = book(&lesson, "");
        page(dir.path());
        // Every file of the cache garbled.
        for (rel, bytes) in files(&dir.path().join(".nimbook/cache")) {
            let path = dir.path().join(".nimbook/cache").join(rel);
            std::fs::write(path, garble(&bytes)).expect("write");
        }
        let o = build(dir.path(), &[]);
        assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(&o));
        assert_eq!(cache_warnings(&o), 1, "{what}: {}", stderr(&o));
        same_site(&reference.path().join("book"), &dir.path().join("book"));
        // Rebuilt: the next build reads it without a word.
        let o = build(dir.path(), &[]);
        assert_eq!(cache_warnings(&o), 0, "{what}: {}", stderr(&o));
        same_site(&reference.path().join("book"), &dir.path().join("book"));
    }
}

#[test]
fn an_unusable_cache_folder_is_one_warning() {
    // A folder where the file should be cannot be read or replaced; a file where the folder
    // should be cannot be written into. Either way: one warning, and the build passes.
    let dir = book(LESSON, "");
    std::fs::create_dir_all(results(dir.path()).join("inside")).expect("mkdir");
    let o = build(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(cache_warnings(&o), 1, "{}", stderr(&o));
    let dir = book(LESSON, "");
    std::fs::create_dir(dir.path().join(".nimbook")).expect("mkdir");
    std::fs::write(dir.path().join(".nimbook/cache"), "a file").expect("write");
    let o = build(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(cache_warnings(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write the cache"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn two_builds_at_once_leave_a_readable_cache() {
    let dir = book(LESSON, "");
    let root = dir.path();
    for round in 0..4 {
        // Something new to decide in every round, so that both builds save.
        edit(
            root,
            "```nim\n",
            &format!("```nim\nforall a < {}: a + a = 0\n", 100 + round),
        );
        let children: Vec<_> = (0..3)
            .map(|i| {
                Command::new(env!("CARGO_BIN_EXE_nimbook"))
                    .args(["build", "-d"])
                    .arg(root.join(format!("out-{i}")))
                    .arg(root)
                    .env("NO_COLOR", "1")
                    .output()
            })
            .collect();
        for child in children {
            let o = child.expect("run nimbook");
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            assert_eq!(cache_warnings(&o), 0, "{}", stderr(&o));
        }
    }
    // Readable: a build after them finds nothing wrong and recalls (the poison shows).
    poison_all(root);
    let page = page(root);
    assert!(page.contains(MARK), "{page}");
}

#[test]
fn no_cache_untrusted_and_clear_leave_no_cache() {
    let dir = book(LESSON, "");
    let o = build(dir.path(), &["--no-cache"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!dir.path().join(".nimbook").exists());
    let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .arg("check")
        .arg(dir.path())
        .env("NIMBOOK_NO_CACHE", "1")
        .output()
        .expect("run nimbook");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!dir.path().join(".nimbook").exists());
    // A stranger's book could bring a cache that says its false claims hold: it is not read.
    let o = build(dir.path(), &["--untrusted"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!dir.path().join(".nimbook").exists());
    page(dir.path());
    poison_all(dir.path());
    let o = build(dir.path(), &["--untrusted"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = std::fs::read_to_string(dir.path().join("book/lesson.html")).expect("page");
    assert!(page.contains(DECIDED) && !page.contains(MARK), "{page}");
    // `check` and `handout` read the same cache.
    let handout = dir.path().join("h.html");
    let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .arg("handout")
        .arg(dir.path())
        .args(["lesson.md", "-o"])
        .arg(&handout)
        .output()
        .expect("run nimbook");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&handout).expect("handout");
    assert!(text.contains(POISONED) && text.contains(MARK));
    let o = nimbook(&["cache", "clear"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!dir.path().join(".nimbook/cache").exists());
    let o = nimbook(&["cache", "clear"], dir.path());
    assert!(stderr(&o).contains("has no cache"), "{}", stderr(&o));
}

#[test]
fn serve_rebuilds_through_the_cache() {
    // The live site of `nimbook serve`: its first build recalls, and so does a rebuild after
    // an edit, for what the edit did not touch.
    let dir = poisoned(LESSON, "");
    let options = nimbook::site::Options::new(dir.path())
        .cache(true)
        .output(dir.path().join("live"));
    let progress = nimbook::site::Progress::none();
    let (live, report) = nimbook::site::LiveSite::build(&options, &progress).expect("builds");
    assert!(report.cache.recalled >= 3, "{:?}", report.cache);
    let page = std::fs::read_to_string(dir.path().join("live/lesson.html")).expect("page");
    assert!(page.contains(POISONED), "{page}");
    let mut live = live.expect("a live site");
    edit(dir.path(), "A binding", "One binding");
    let lesson = dir.path().join("content/lesson.md");
    let update = live.update(&[lesson]).expect("a lesson").expect("rebuilt");
    assert_eq!(update.rechecked, 1);
    let page = std::fs::read_to_string(dir.path().join("live/lesson.html")).expect("page");
    assert!(
        page.contains("One binding") && page.contains(POISONED),
        "{page}"
    );
}

#[test]
fn init_ignores_the_cache_and_ci_keeps_it() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path().join("course");
    let o = nimbook(&["init"], &root);
    assert!(o.status.success(), "{}", stderr(&o));
    let ignore = std::fs::read_to_string(root.join(".gitignore")).expect("gitignore");
    assert!(ignore.lines().any(|l| l == ".nimbook/"), "{ignore}");
    let workflow =
        std::fs::read_to_string(root.join(".github/workflows/book.yml")).expect("workflow");
    assert!(
        workflow.contains("uses: actions/cache@v4") && workflow.contains("path: .nimbook/cache"),
        "{workflow}"
    );
}

/// A copy of the course (its `book.toml`, lessons and templates) in a temporary folder.
fn course() -> tempfile::TempDir {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let toml = std::fs::read_to_string(repo.join("book.toml")).expect("book.toml");
    // The time budget of one search raised, the same in every build of the test, so that a
    // loaded machine running the other tests at once cannot push Grundy's game past it.
    assert!(toml.contains("[nimbook]\n") && !toml.contains("max-seconds"));
    let toml = toml.replace("[nimbook]\n", "[nimbook]\nmax-seconds = 3600\n");
    std::fs::write(dir.path().join("book.toml"), toml).expect("write");
    copy_dir(&repo.join("content"), &dir.path().join("content"));
    copy_dir(&repo.join("templates"), &dir.path().join("templates"));
    dir
}

#[test]
fn the_course_is_byte_identical_with_and_without_the_cache() {
    let reference = course();
    let o = build(reference.path(), &["--no-cache"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The cache is filled by a build of the course with every lesson's text moved down by a
    // paragraph, so that every result is recalled at another place than it was decided.
    let moved = course();
    for entry in std::fs::read_dir(moved.path().join("content")).expect("lessons") {
        let path = entry.expect("entry").path();
        if path.file_name().is_some_and(|n| n == "SUMMARY.md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("lesson");
        let (title, rest) = text.split_once('\n').expect("a title line");
        let text = format!("{title}\n\nA paragraph that moves the lesson down.\n{rest}");
        std::fs::write(&path, text).expect("write");
    }
    let o = build(moved.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let warm = course();
    copy_dir(
        &moved.path().join(".nimbook"),
        &warm.path().join(".nimbook"),
    );
    for _ in 0..2 {
        let o = build(warm.path(), &[]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        same_site(&reference.path().join("book"), &warm.path().join("book"));
    }
}
