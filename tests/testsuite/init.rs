//! `nimbook init`: a new course that builds with no warning, and a folder that is not empty is
//! left as it was.

use crate::common::{nimbook, stderr};

use std::path::Path;

/// Every file under `dir`, relative, with its bytes.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in files_under(dir) {
        let rel = entry.strip_prefix(dir).expect("under dir");
        out.push((
            rel.to_string_lossy().replace('\\', "/"),
            std::fs::read(&entry).expect("read"),
        ));
    }
    out.sort();
    out
}

fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|entry| entry.expect("a readable entry"))
        .filter(|entry| !entry.file_type().is_dir())
        .map(walkdir::DirEntry::into_path)
        .collect()
}

#[test]
fn init_then_build_passes_with_no_warning() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path().join("course");
    let init = nimbook(&["init"], &root);
    assert!(init.status.success(), "{}", stderr(&init));
    let workflow = root.join(".github/workflows/book.yml");
    let text = std::fs::read_to_string(&workflow).expect("the workflow is written");
    assert!(
        text.contains("nimbook check --message-format github"),
        "{text}"
    );
    assert!(text.contains("actions/upload-pages-artifact"), "{text}");
    assert!(text.contains("NIMBOOK_UNTRUSTED"), "{text}");
    assert!(root.join(".gitignore").is_file());
    assert!(root.join("content/SUMMARY.md").is_file());

    // Both lints denied: a warning would be an error, and `--deny` keeps it so if book.toml
    // changes.
    let build = nimbook(
        &[
            "build",
            "--deny",
            "unverified-numbers",
            "--deny",
            "vacuous-claims",
        ],
        &root,
    );
    let err = stderr(&build);
    assert_eq!(build.status.code(), Some(0), "{err}");
    assert!(!err.contains("warning"), "{err}");
    assert!(err.contains(": all hold"), "{err}");
    let page = std::fs::read_to_string(root.join("book/heaps.html")).expect("the lesson's page");
    // Every form of the first lesson reached the page: a play widget, an exercise, a table, a
    // drawing. The classes are the ones the course's own lessons get.
    for class in [
        "nim-widget",
        "nim-exercise",
        "nim-table",
        "nim-expansion",
        "nim-svg",
        "nim-claim",
    ] {
        assert!(
            page.contains(class),
            "no {class} on the first lesson's page"
        );
    }
}

#[test]
fn init_refuses_a_folder_that_is_not_empty_and_writes_nothing() {
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::write(tmp.path().join("book.toml"), "# mine\n").expect("write");
    std::fs::write(tmp.path().join("notes.txt"), "keep\n").expect("write");
    let before = snapshot(tmp.path());
    let init = nimbook(&["init"], tmp.path());
    let err = stderr(&init);
    assert_eq!(init.status.code(), Some(2), "{err}");
    assert!(err.contains("not empty"), "{err}");
    // It names what `--force` would overwrite, and only that.
    assert!(err.contains("would overwrite book.toml"), "{err}");
    assert!(!err.contains("overwrite notes.txt"), "{err}");
    assert_eq!(snapshot(tmp.path()), before);

    let forced = nimbook(&["init", "--force"], tmp.path());
    let err = stderr(&forced);
    assert!(forced.status.success(), "{err}");
    assert!(err.contains("overwrote book.toml"), "{err}");
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("notes.txt")).expect("read"),
        "keep\n"
    );
}
