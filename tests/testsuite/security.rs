//! A book from a stranger cannot read the machine (issue 30). Every test builds a book under a
//! secret-looking environment variable, next to a folder that holds the same secret in a file,
//! and tries to read it by every spelling a book has: includes (absolute, `/proc/self/environ`,
//! `..`, a link inside the book pointing out, a folder linked in), special files (a named
//! pipe, `/dev/zero`, `/dev/urandom`, a folder), `SUMMARY.md` entries, `additional-css`,
//! `input-404`, templates, and images and stylesheets inlined into a handout. Each attempt must
//! be an error located where the book names the file; the secret must reach no output file and
//! no output stream; and no build may hang (each run has a time limit). `--untrusted` must
//! stop a preprocessor that would write a file.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The secret of one test run: not guessable from the code, so that finding it in an output
/// can only mean it was read.
fn secret() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    format!("hunter2-{:016x}", h.finish())
}

/// What one run of nimbook printed.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `nimbook ARGS` in `cwd` with `SECRET_TOKEN` set (and `extra` variables), killing it
/// and failing the test if it takes longer than a minute (a named pipe would block for ever).
fn run(args: &[&str], cwd: &Path, secret: &str, extra: &[(&str, &str)]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("SECRET_TOKEN", secret)
        .env_remove("NIMBOOK_UNTRUSTED")
        .envs(extra.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nimbook");
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("nimbook {args:?} ran for more than a minute: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        stdout: reader.join().expect("stdout"),
        stderr: err_reader.join().expect("stderr").replace('\\', "/"),
    }
}

/// A temporary folder holding `outside/` (the secret as a file, and as markdown and an image)
/// and an empty book at `book/` with `src/`.
struct Scene {
    tmp: tempfile::TempDir,
    secret: String,
}

impl Scene {
    fn new(book_toml: &str) -> Scene {
        let tmp = tempfile::tempdir().expect("temp dir");
        let secret = secret();
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(&outside).expect("mkdir");
        for name in ["secret.txt", "secret.md", "secret.png", "secret.css"] {
            std::fs::write(outside.join(name), format!("{secret}\n")).expect("write");
        }
        std::fs::create_dir_all(tmp.path().join("book/src/sub")).expect("mkdir");
        std::fs::write(tmp.path().join("book/book.toml"), book_toml).expect("write");
        Scene { tmp, secret }
    }

    fn book(&self) -> PathBuf {
        self.tmp.path().join("book")
    }

    fn outside(&self) -> PathBuf {
        self.tmp.path().join("outside")
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.book().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    fn link(&self, target: &Path, rel: &str) {
        std::os::unix::fs::symlink(target, self.book().join(rel)).expect("symlink");
    }

    fn fifo(&self, rel: &str) {
        let status = Command::new("mkfifo")
            .arg(self.book().join(rel))
            .status()
            .expect("mkfifo");
        assert!(status.success(), "mkfifo");
    }

    /// Runs nimbook in the scene's folder and checks that the secret is in nothing it printed
    /// and no file it wrote (anywhere in the scene but `outside/`).
    fn run(&self, args: &[&str], extra: &[(&str, &str)]) -> Run {
        let r = run(args, self.tmp.path(), &self.secret, extra);
        assert!(
            !r.stdout.contains(&self.secret) && !r.stderr.contains(&self.secret),
            "the secret was printed by nimbook {args:?}:\n{}\n{}",
            r.stdout,
            r.stderr
        );
        self.assert_no_file_holds_secret(&self.tmp.path().join("book"));
        self.assert_no_file_holds_secret(&self.tmp.path().join("out"));
        r
    }

    fn assert_no_file_holds_secret(&self, dir: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let entry = entry.expect("entry");
            let t = entry.file_type().expect("type");
            if t.is_dir() {
                self.assert_no_file_holds_secret(&entry.path());
            } else if t.is_file() {
                let bytes = std::fs::read(entry.path()).expect("read output");
                assert!(
                    !String::from_utf8_lossy(&bytes).contains(&self.secret),
                    "{} holds the secret",
                    entry.path().display()
                );
            }
        }
    }
}

/// Asserts that `run` failed (exit 1 or 2) with an error at each `places` (`file:line`).
fn assert_located(r: &Run, places: &[String]) {
    assert!(
        matches!(r.code, Some(1 | 2)),
        "exit {:?}:\n{}",
        r.code,
        r.stderr
    );
    for place in places {
        assert!(
            r.stderr.contains(&format!("--> {place}:")),
            "no error at {place}:\n{}",
            r.stderr
        );
    }
}

const MDBOOK: &str = "[book]\ntitle = \"t\"\n";

/// Every spelling of an include that reaches out of the book: absolute, `/proc/self/environ`,
/// `..` in several forms, a link inside the book that points out, a folder linked in, special
/// files, a folder.
fn include_tricks(s: &Scene) -> Vec<String> {
    let outside = s.outside();
    let abs = outside.join("secret.txt");
    s.link(&abs, "src/leak.txt");
    s.link(&outside, "src/updir");
    s.fifo("src/fifo");
    vec![
        "{{#include /proc/self/environ}}".to_string(),
        format!("{{{{#include {}}}}}", abs.display()),
        "{{#include ../../outside/secret.txt}}".into(),
        "{{#include ./.././../outside/./secret.txt}}".into(),
        "{{#include sub/../../../outside/secret.txt}}".into(),
        "{{#include leak.txt}}".into(),
        "{{#include updir/secret.txt}}".into(),
        format!("{{{{#include /proc/self/root{}}}}}", abs.display()),
        "{{#rustdoc_include ../../outside/secret.txt:1}}".into(),
        "{{#playground ../../outside/secret.txt}}".into(),
        "{{#include fifo}}".into(),
        "{{#include /dev/zero}}".into(),
        "{{#include /dev/urandom}}".into(),
        "{{#include sub}}".into(),
    ]
}

#[test]
fn every_include_trick_is_located_and_the_secret_stays_out() {
    // An mdBook book goes on as mdBook does, with a located warning for each and the link
    // left as written; a nimbook book fails with a located error for each.
    for (toml, level, code) in [
        (MDBOOK.to_string(), "warning", Some(0)),
        (format!("{MDBOOK}[nimbook]\n"), "error", Some(1)),
    ] {
        let s = Scene::new(&toml);
        let tricks = include_tricks(&s);
        let mut page = String::from("# Tricks\n");
        for t in &tricks {
            page.push_str(&format!("\n{t}\n"));
        }
        s.write("src/SUMMARY.md", "# Summary\n\n- [Tricks](tricks.md)\n");
        s.write("src/tricks.md", &page);
        for cmd in ["build", "check"] {
            let args: &[&str] = if cmd == "build" {
                &["build", "book", "-d", "out"]
            } else {
                &["check", "book"]
            };
            let r = s.run(args, &[]);
            assert_eq!(r.code, code, "{level}: {}", r.stderr);
            for i in 0..tricks.len() {
                let place = format!("--> src/tricks.md:{}:", 3 + 2 * i);
                assert!(
                    r.stderr.contains(&place),
                    "no {level} at {place}:\n{}",
                    r.stderr
                );
            }
            assert_eq!(
                r.stderr.matches("--> src/tricks.md:").count(),
                tricks.len(),
                "one {level} for each trick:\n{}",
                r.stderr
            );
            assert_eq!(
                r.stderr.matches(&format!("{level}: cannot")).count(),
                tricks.len(),
                "{}",
                r.stderr
            );
            assert!(r.stderr.contains("include-roots"), "{}", r.stderr);
            for why in [
                "it is a named pipe (FIFO), not a regular file",
                "it is a folder, not a regular file",
                "cannot read /dev/zero: it is outside the book",
                "cannot read /proc/self/environ: it is outside the book",
            ] {
                assert!(r.stderr.contains(why), "{why}: {}", r.stderr);
            }
        }
        if level == "warning" {
            // The links stay as written, as mdBook leaves a file it cannot read.
            let built = std::fs::read_to_string(s.tmp.path().join("out/tricks.html"))
                .expect("the mdBook book is built");
            assert!(built.contains("{{#include fifo}}"), "{built}");
        } else {
            assert!(
                !s.tmp.path().join("out").exists(),
                "a failed build writes nothing"
            );
        }
    }
}

/// Runs nimbook in `cwd` with a secret in the environment, and checks that the secret is in
/// nothing it printed and in no file under `written`.
fn run_keeping(
    args: &[&str],
    cwd: &Path,
    secret: &str,
    env: &[(&str, &str)],
    written: &Path,
) -> Run {
    let r = run(args, cwd, secret, env);
    assert!(
        !r.stdout.contains(secret) && !r.stderr.contains(secret),
        "the secret was printed by nimbook {args:?}"
    );
    let mut stack = vec![written.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(bytes) = std::fs::read(&p) {
                assert!(
                    !String::from_utf8_lossy(&bytes).contains(secret),
                    "{} holds the secret",
                    p.display()
                );
            }
        }
    }
    r
}

#[test]
fn the_boundary_is_the_git_work_tree_that_holds_the_book_and_never_its_git_folder() {
    // repo/.git/config holds a token; repo/guide is the book; outside/ is beside the repo.
    let tmp = tempfile::tempdir().expect("temp dir");
    let secret = secret();
    let repo = tmp.path().join("repo");
    let book = repo.join("guide");
    std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
    std::fs::write(repo.join(".git/config"), format!("token = {secret}\n")).expect("write");
    std::fs::write(repo.join("README.md"), "The repository's own README.\n").expect("write");
    std::fs::create_dir_all(tmp.path().join("outside")).expect("mkdir");
    std::fs::write(tmp.path().join("outside/secret.txt"), &secret).expect("write");
    std::fs::create_dir_all(book.join("src")).expect("mkdir");
    std::os::unix::fs::symlink(repo.join(".git"), book.join("src/gitlink")).expect("symlink");
    let page = "# A\n\n{{#include ../../README.md}}\n\n{{#include ../../.git/config}}\n\n{{#include gitlink/config}}\n\n{{#include ../../../outside/secret.txt}}\n";
    std::fs::write(book.join("src/a.md"), page).expect("write");
    for (toml, level) in [
        ("[book]\ntitle = \"t\"\n", "warning"),
        ("[book]\ntitle = \"t\"\n[nimbook]\n", "error"),
    ] {
        std::fs::write(book.join("book.toml"), toml).expect("write");
        let out = tmp.path().join("out");
        let r = run_keeping(
            &["build", "repo/guide", "-d", "out"],
            tmp.path(),
            &secret,
            &[],
            &tmp.path().join("out"),
        );
        // The README beside the book is in the work tree: no diagnostic at line 3.
        assert!(!r.stderr.contains("--> src/a.md:3:"), "{}", r.stderr);
        for line in [5, 7, 9] {
            assert!(
                r.stderr.contains(&format!("--> src/a.md:{line}:")),
                "no {level} at line {line}: {}",
                r.stderr
            );
        }
        assert_eq!(
            r.stderr.matches(&format!("{level}: cannot read")).count(),
            3,
            "{}",
            r.stderr
        );
        assert_eq!(
            r.stderr.matches("it is inside a .git folder").count(),
            2,
            "{}",
            r.stderr
        );
        assert!(
            r.stderr.contains("the git work tree that holds it"),
            "{}",
            r.stderr
        );
        if level == "warning" {
            assert_eq!(r.code, Some(0), "{}", r.stderr);
            let html = std::fs::read_to_string(out.join("a.html")).expect("page");
            assert!(
                html.contains("The repository&#39;s own README.")
                    || html.contains("The repository’s own README."),
                "{html}"
            );
        } else {
            assert_eq!(r.code, Some(1), "{}", r.stderr);
        }
        // --untrusted keeps the book root as the boundary: the README is out too.
        let r = run_keeping(
            &["check", "repo/guide", "--untrusted"],
            tmp.path(),
            &secret,
            &[],
            &tmp.path().join("out"),
        );
        assert!(r.stderr.contains("--> src/a.md:3:"), "{}", r.stderr);
        assert!(
            r.stderr.contains("--untrusted reads no further"),
            "{}",
            r.stderr
        );
    }
}

#[test]
fn include_roots_never_reach_the_system_the_root_or_the_home_folder() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let secret = secret();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(home.join(".ssh")).expect("mkdir");
    std::fs::create_dir_all(home.join("books")).expect("mkdir");
    let book = tmp.path().join("book");
    std::fs::create_dir_all(book.join("src")).expect("mkdir");
    std::fs::write(
        book.join("src/a.md"),
        "# A\n\n{{#include /proc/self/environ}}\n",
    )
    .expect("write");
    std::os::unix::fs::symlink("/proc", book.join("proclink")).expect("symlink");
    std::os::unix::fs::symlink(&home, book.join("homelink")).expect("symlink");
    let home_s = home.display().to_string();
    let spellings = [
        ("/proc/self".to_string(), "inside /proc"),
        ("/proc".to_string(), "inside /proc"),
        ("/".to_string(), "the file-system root"),
        ("../../../../../../../../proc".to_string(), "inside /proc"),
        (
            "../../../../../../../..".to_string(),
            "the file-system root",
        ),
        ("proclink".to_string(), "inside /proc"),
        ("proclink/self/..".to_string(), "inside /proc"),
        ("/sys".to_string(), "inside /sys"),
        ("/dev".to_string(), "inside /dev"),
        (home_s.clone(), "the home folder"),
        ("homelink".to_string(), "the home folder"),
        (format!("{home_s}/books/.."), "the home folder"),
        (tmp.path().display().to_string(), "holds the home folder"),
        (format!("{home_s}/.ssh"), "hidden folder of the home folder"),
        (
            "homelink/.ssh".to_string(),
            "hidden folder of the home folder",
        ),
    ];
    for (spelling, why) in spellings {
        for nimbook in [false, true] {
            let table = if nimbook { "max-bits = 64\n" } else { "" };
            std::fs::write(
                book.join("book.toml"),
                format!(
                    "[book]\ntitle = \"t\"\n[nimbook]\n{table}include-roots = [\"{spelling}\"]\n"
                ),
            )
            .expect("write");
            for cmd in [&["build", "book", "-d", "out"][..], &["check", "book"][..]] {
                let home_env = home.to_str().expect("utf-8");
                let r = run_keeping(
                    cmd,
                    tmp.path(),
                    &secret,
                    &[("HOME", home_env)],
                    &tmp.path().join("out"),
                );
                assert_eq!(r.code, Some(2), "{spelling}: {}", r.stderr);
                let line = if nimbook { 5 } else { 4 };
                assert!(
                    r.stderr.contains(&format!("--> book.toml:{line}:")),
                    "{spelling}: not located: {}",
                    r.stderr
                );
                assert!(r.stderr.contains(why), "{spelling}: {why}: {}", r.stderr);
                assert!(
                    r.stderr.contains("no book ever reads /proc, /sys, /dev, the file-system root, the home folder"),
                    "{spelling}: the rule is named: {}",
                    r.stderr
                );
                assert!(
                    !tmp.path().join("out").exists(),
                    "{spelling}: nothing written"
                );
            }
        }
    }
    // A folder inside the home folder that is not hidden is fine.
    std::fs::write(
        book.join("src/a.md"),
        "# A\n\n{{#include ../../home/books/n.txt}}\n",
    )
    .expect("write");
    std::fs::write(home.join("books/n.txt"), "notes\n").expect("write");
    std::fs::write(
        book.join("book.toml"),
        format!("[book]\ntitle = \"t\"\n[nimbook]\ninclude-roots = [\"{home_s}/books\"]\n"),
    )
    .expect("write");
    let r = run_keeping(
        &["build", "book", "-d", "out"],
        tmp.path(),
        &secret,
        &[("HOME", home.to_str().expect("utf-8"))],
        &tmp.path().join("out"),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn summary_entries_stay_under_the_source_folder() {
    let cases: [(&str, &str); 4] = [
        (
            "[Out](../../outside/secret.md)",
            "not under the source folder",
        ),
        ("[Env](/proc/self/environ)", "not under the source folder"),
        ("[Leak](leak.md)", "outside the book"),
        ("[Pipe](fifo.md)", "named pipe"),
    ];
    for (entry, why) in cases {
        let s = Scene::new(MDBOOK);
        s.link(&s.outside().join("secret.md"), "src/leak.md");
        s.fifo("src/fifo.md");
        s.write("src/a.md", "# A\n");
        s.write(
            "src/SUMMARY.md",
            &format!("# Summary\n\n- [A](a.md)\n- {entry}\n"),
        );
        let r = s.run(&["build", "book", "-d", "out"], &[]);
        assert_located(&r, &["src/SUMMARY.md:4".to_string()]);
        assert!(r.stderr.contains(why), "{entry}: {}", r.stderr);
    }
}

#[test]
fn a_walked_book_skips_a_lesson_that_links_out_of_it() {
    // Without SUMMARY.md the lessons are the markdown files found; a link is not one (with
    // SUMMARY.md naming it, it is refused: `summary_entries_stay_under_the_source_folder`).
    let s = Scene::new(MDBOOK);
    s.link(&s.outside().join("secret.md"), "src/walked.md");
    s.write("src/a.md", "# A\n");
    let r = s.run(&["build", "book", "-d", "out"], &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(s.tmp.path().join("out/a.html").is_file());
    assert!(!s.tmp.path().join("out/walked.html").exists());
}

#[test]
fn stylesheets_scripts_the_404_page_and_templates_stay_in_the_book() {
    let cases = [
        (
            "[output.html]\nadditional-css = [\"../outside/secret.css\"]\n",
            "book.toml:4",
        ),
        (
            "[output.html]\nadditional-js = [\"src/leak.txt\"]\n",
            "book.toml:4",
        ),
        (
            "[output.html]\nadditional-css = [\"src/fifo\"]\n",
            "book.toml:4",
        ),
        (
            "[output.html]\ninput-404 = \"../../outside/secret.md\"\n",
            "book.toml:4",
        ),
        (
            "[output.html]\ninput-404 = \"/proc/self/environ\"\n",
            "book.toml:4",
        ),
        ("", "templates/page.html:1"),
    ];
    for (table, place) in cases {
        let s = Scene::new(&format!("{MDBOOK}{table}"));
        s.link(&s.outside().join("secret.txt"), "src/leak.txt");
        s.fifo("src/fifo");
        std::fs::create_dir_all(s.book().join("templates")).expect("mkdir");
        if table.is_empty() {
            s.link(&s.outside().join("secret.txt"), "templates/page.html");
        }
        s.write("src/a.md", "# A\n");
        let r = s.run(&["build", "book", "-d", "out"], &[]);
        assert_located(&r, &[place.to_string()]);
    }
}

#[test]
fn templates_cannot_read_the_environment() {
    let s = Scene::new(MDBOOK);
    s.write(
        "templates/page.html",
        "<p>{{ get_env(name=\"SECRET_TOKEN\") }}</p>\n",
    );
    s.write("src/a.md", "# A\n");
    let r = s.run(&["build", "book", "-d", "out"], &[]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("cannot read the environment"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_handout_inlines_no_image_or_stylesheet_from_outside() {
    let s = Scene::new(MDBOOK);
    s.link(&s.outside().join("secret.png"), "src/leak.png");
    s.fifo("src/pipe.svg");
    s.write(
        "src/a.md",
        "# A\n\n![x](../../outside/secret.png)\n\n![y](leak.png)\n\n<img src=\"pipe.svg\" alt=\"p\">\n\n<span style=\"background: url(../../outside/secret.css)\">z</span>\n\n<img src=\"sub/../../../outside/secret.png\" alt=\"q\">\n",
    );
    let r = s.run(&["handout", "book", "a.md", "-o", "out/h.html"], &[]);
    let places: Vec<String> = [3, 5, 7, 9, 11]
        .iter()
        .map(|l| format!("src/a.md:{l}"))
        .collect();
    assert_located(&r, &places);
    assert!(!s.tmp.path().join("out/h.html").exists(), "nothing written");
}

#[test]
fn special_files_and_links_in_the_source_folder_are_not_copied() {
    let s = Scene::new(MDBOOK);
    s.link(&s.outside().join("secret.txt"), "src/leak.txt");
    s.link(&s.outside(), "src/updir");
    s.link(Path::new("/dev/zero"), "src/zero.bin");
    s.fifo("src/fifo");
    s.write("src/a.md", "# A\n\nfine\n");
    let r = s.run(&["build", "book", "-d", "out"], &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(s.tmp.path().join("out/a.html").is_file());
}

#[test]
fn include_roots_allow_a_folder_and_untrusted_ignores_them() {
    let s = Scene::new("[book]\ntitle = \"t\"\n[nimbook]\ninclude-roots = [\"../outside\"]\n");
    std::fs::write(s.outside().join("shared.txt"), "shared text\n").expect("write");
    s.write("src/a.md", "# A\n\n{{#include ../../outside/shared.txt}}\n");
    let r = s.run(&["build", "book", "-d", "out"], &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let page = std::fs::read_to_string(s.tmp.path().join("out/a.html")).expect("page");
    assert!(page.contains("shared text"), "{page}");
    // A [nimbook] table of include-roots alone keeps an mdBook book's flavour: `$x$` stays
    // text, where a nimbook book would render it as math.
    s.write(
        "src/a.md",
        "# A\n\n$x$ {{#include ../../outside/shared.txt}}\n",
    );
    let r = s.run(&["build", "book", "-d", "out"], &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let page = std::fs::read_to_string(s.tmp.path().join("out/a.html")).expect("page");
    assert!(page.contains("$x$"), "{page}");
    // Untrusted, the include is refused; in an mdBook book that is a located warning.
    let r = s.run(&["build", "book", "-d", "out", "--untrusted"], &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stderr.contains("warning: cannot read"), "{}", r.stderr);
    assert!(r.stderr.contains("--> src/a.md:3:"), "{}", r.stderr);
    assert!(
        r.stderr.contains("`include-roots` in book.toml is ignored"),
        "{}",
        r.stderr
    );
}

#[test]
fn untrusted_runs_no_preprocessor_and_uses_the_built_in_templates() {
    let toml = "[book]\ntitle = \"t\"\n[preprocessor.evil]\ncommand = \"touch pwned; cat\"\n";
    let s = Scene::new(toml);
    s.write(
        "templates/page.html",
        "<p>BOOK-TEMPLATE</p>{{ content | safe }}\n",
    );
    s.write("src/a.md", "# A\n");
    let pwned = s.book().join("pwned");
    for (args, env) in [
        (&["build", "book", "-d", "out", "--untrusted"][..], &[][..]),
        (&["check", "book", "--untrusted"][..], &[][..]),
        (
            &["handout", "book", "a.md", "-o", "out/h.html", "--untrusted"][..],
            &[][..],
        ),
        (
            &["build", "book", "-d", "out"][..],
            &[("NIMBOOK_UNTRUSTED", "1")][..],
        ),
    ] {
        let r = s.run(args, env);
        assert!(!pwned.exists(), "{args:?} ran the preprocessor");
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
        assert_eq!(
            r.stderr
                .matches("the preprocessor `evil` was not run")
                .count(),
            1,
            "{}",
            r.stderr
        );
        assert!(r.stderr.contains("built-in templates"), "{}", r.stderr);
    }
    let page = std::fs::read_to_string(s.tmp.path().join("out/a.html")).expect("page");
    assert!(!page.contains("BOOK-TEMPLATE"), "{page}");
    // Trusted, the same book runs its preprocessor (so the test above can fail).
    let r = s.run(&["build", "book", "-d", "out"], &[]);
    assert!(
        pwned.exists(),
        "the trusted build runs the preprocessor: {}",
        r.stderr
    );
}
