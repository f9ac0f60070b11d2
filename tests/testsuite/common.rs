//! Helpers shared by the test modules: the engines' default budget, ordinals by their
//! spelling, fixture books, copies of them, and running the real binary.

use nimbook::game::Budget;
use nimbook::nim::ordinal::Ordinal;

/// The engines' default budget.
pub(crate) fn budget() -> Budget {
    Budget::default()
}

/// The ordinal spelled `s`; a spelling that does not parse fails the test.
pub(crate) fn o(s: &str) -> Ordinal {
    match Ordinal::parse(s) {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    }
}

#[cfg(feature = "site")]
pub(crate) use books::*;

#[cfg(feature = "site")]
mod books {
    use std::path::{Path, PathBuf};
    use std::process::{Command, Output};
    use std::sync::{Mutex, OnceLock};

    /// The path of a fixture book under `tests/fixtures/`.
    pub(crate) fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    /// Copies a folder tree.
    pub(crate) fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("read fixture") {
            let entry = entry.expect("entry");
            let target = to.join(entry.file_name());
            if entry.path().is_dir() {
                copy_dir(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).expect("copy");
            }
        }
    }

    /// Writes each `(path, text)` under `dir`, making the folders it needs.
    pub(crate) fn write_files(dir: &Path, files: &[(&str, &str)]) {
        for (path, text) in files {
            let path = dir.join(path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).expect("mkdir");
            }
            std::fs::write(path, text).expect("write");
        }
    }

    /// Copies a fixture into a fresh temporary folder, so that a build can write next to it.
    pub(crate) fn copy_fixture(name: &str) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().expect("temp dir");
        copy_dir(&fixture(name), tmp.path());
        tmp
    }

    /// Runs `nimbook ARGS DIR` without colour.
    pub(crate) fn nimbook(args: &[&str], dir: &Path) -> Output {
        Command::new(env!("CARGO_BIN_EXE_nimbook"))
            .args(args)
            .arg(dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("run nimbook")
    }

    /// Runs `nimbook ARGS` without colour.
    pub(crate) fn run(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_nimbook"))
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .expect("run nimbook")
    }

    /// Text from HTML with nimbook's and pulldown-cmark's escapes undone.
    pub(crate) fn unescape(s: &str) -> String {
        s.replace("&quot;", "\"")
            .replace("&#x27;", "'")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    }

    /// Standard error, with `/` for every path separator.
    pub(crate) fn stderr(o: &Output) -> String {
        String::from_utf8_lossy(&o.stderr).replace('\\', "/")
    }

    /// The output folder of a fixture built once for the whole test run (tests that only read
    /// the site share it), under cargo's temporary folder for tests.
    pub(crate) fn built(name: &str) -> PathBuf {
        built_book(name, &fixture(name), &[])
    }

    /// The output folder of the book at `source` built once for the whole test run with the
    /// options `args`, kept under `name`.
    pub(crate) fn built_book(name: &str, source: &Path, args: &[&str]) -> PathBuf {
        static BUILT: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
        let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("built")
            .join(name);
        let mut done = BUILT
            .get_or_init(|| Mutex::new(Vec::new()))
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if !done.iter().any(|n| n == name) {
            let _ = std::fs::remove_dir_all(&out);
            let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
                .arg("build")
                .arg(source)
                .args(args)
                .arg("-d")
                .arg(&out)
                .env("NO_COLOR", "1")
                .output()
                .expect("run nimbook");
            assert!(o.status.success(), "{name}: {}", stderr(&o));
            done.push(name.to_string());
        }
        out
    }
}
