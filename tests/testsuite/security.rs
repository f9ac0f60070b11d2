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

#[test]
fn every_include_trick_is_a_located_error_and_the_secret_stays_out() {
    let s = Scene::new(MDBOOK);
    let outside = s.outside();
    let abs = outside.join("secret.txt");
    s.link(&abs, "src/leak.txt");
    s.link(&outside, "src/updir");
    s.fifo("src/fifo");
    let tricks = [
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
    ];
    let mut page = String::from("# Tricks\n");
    for t in &tricks {
        page.push_str(&format!("\n{t}\n"));
    }
    s.write("src/SUMMARY.md", "# Summary\n\n- [Tricks](tricks.md)\n");
    s.write("src/tricks.md", &page);
    let places: Vec<String> = (0..tricks.len())
        .map(|i| format!("src/tricks.md:{}", 3 + 2 * i))
        .collect();
    for cmd in ["build", "check"] {
        let args: &[&str] = if cmd == "build" {
            &["build", "book", "-d", "out"]
        } else {
            &["check", "book"]
        };
        let r = s.run(args, &[]);
        assert_located(&r, &places);
        assert_eq!(
            r.stderr.matches("--> src/tricks.md:").count(),
            tricks.len(),
            "one error for each trick:\n{}",
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
    assert!(
        !s.tmp.path().join("out").exists(),
        "a failed build writes nothing"
    );
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
    let r = s.run(&["build", "book", "-d", "out", "--untrusted"], &[]);
    assert_located(&r, &["src/a.md:3".to_string()]);
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
