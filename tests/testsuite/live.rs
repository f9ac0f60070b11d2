//! `nimbook serve`'s partial rebuilds: after an edit, the patched site must be byte for byte the
//! site a clean build writes.

use crate::common::copy_fixture;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use nimbook::site::LiveSite;

/// Every file under `dir` (hidden ones included) with its bytes, by relative path.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("read output") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let rel = path.strip_prefix(base).expect("under base").to_path_buf();
                out.insert(rel, std::fs::read(&path).expect("read file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Asserts that the live site in `patched` is what a clean build of `root` writes.
fn assert_same_as_clean_build(root: &Path, patched: &Path) {
    let clean = root.join("clean");
    let report = nimbook::site::build(
        &nimbook::site::Options::new(root).output(&clean),
        &nimbook::site::Progress::none(),
    )
    .expect("clean build");
    assert_eq!(report.errors, 0, "{:?}", report.diagnostics);
    let (a, b) = (tree(patched), tree(&clean));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    for (path, bytes) in &a {
        assert!(
            bytes == &b[path],
            "{} differs from a clean build",
            path.display()
        );
    }
}

fn start(root: &Path) -> (LiveSite, PathBuf) {
    let out = root.join("live");
    let (live, report) = LiveSite::build(
        &nimbook::site::Options::new(root).output(&out),
        &nimbook::site::Progress::none(),
    )
    .expect("first build");
    assert_eq!(report.errors, 0, "{:?}", report.diagnostics);
    (live.expect("a live site after a clean build"), out)
}

#[test]
fn an_edited_lesson_is_patched_to_what_a_clean_build_writes() {
    let book = copy_fixture("basic");
    let (mut live, out) = start(book.path());
    let lesson = book.path().join("content/01-sums.md");
    let text = std::fs::read_to_string(&lesson).expect("lesson");
    std::fs::write(
        &lesson,
        format!("{text}\n## A new section\n\nThe nim-sum `nim: 3 + 5 = 6` holds.\n"),
    )
    .expect("edit");
    let update = live
        .update(&[lesson])
        .expect("a partial rebuild")
        .expect("no I/O error");
    assert_eq!(update.rechecked, 1);
    assert_eq!(update.report.errors, 0, "{:?}", update.report.diagnostics);
    assert_eq!(update.report.lessons, 2);
    assert_eq!(update.report.claims, 6);
    // The page and the search index at least; the new numbers change the front page's figure.
    assert!(update.written >= 2, "{}", update.written);
    assert_same_as_clean_build(book.path(), &out);
}

#[test]
fn a_new_title_patches_the_neighbours_the_contents_and_the_front_page() {
    let book = copy_fixture("basic");
    let (mut live, out) = start(book.path());
    let lesson = book.path().join("content/02-products.md");
    let text = std::fs::read_to_string(&lesson).expect("lesson");
    let first_line = text.lines().next().unwrap_or_default().to_string();
    std::fs::write(
        &lesson,
        text.replacen(&first_line, "# Products, renamed", 1),
    )
    .expect("edit");
    let update = live
        .update(&[lesson])
        .expect("a partial rebuild")
        .expect("no I/O error");
    assert_eq!(update.rechecked, 1);
    assert_eq!(update.report.errors, 0, "{:?}", update.report.diagnostics);
    let toc = std::fs::read_to_string(out.join("toc.js")).expect("toc.js");
    assert!(toc.contains("Products, renamed"), "{toc}");
    assert_same_as_clean_build(book.path(), &out);
}

#[test]
fn nothing_is_written_while_an_edit_has_errors_and_everything_once_it_is_fixed() {
    let book = copy_fixture("basic");
    let (mut live, out) = start(book.path());
    let before = tree(&out);
    let lesson = book.path().join("content/01-sums.md");
    let text = std::fs::read_to_string(&lesson).expect("lesson");
    std::fs::write(&lesson, format!("{text}\n`nim: 3 + 5 = 7`\n")).expect("edit");
    let update = live
        .update(std::slice::from_ref(&lesson))
        .expect("partial")
        .expect("no I/O error");
    assert_eq!(update.report.errors, 1);
    assert_eq!(update.written, 0);
    assert!(tree(&out) == before, "a failed rebuild wrote files");
    // A link that breaks when another lesson changes is found too.
    let other = book.path().join("content/02-products.md");
    let products = std::fs::read_to_string(&other).expect("lesson");
    std::fs::write(&other, products.replace("Fermat powers", "Powers")).expect("edit");
    let update = live
        .update(std::slice::from_ref(&other))
        .expect("partial")
        .expect("no I/O error");
    assert!(update.report.errors >= 2, "{:?}", update.report.diagnostics);
    std::fs::write(&lesson, format!("{text}\n`nim: 3 + 5 = 6`\n")).expect("fix");
    std::fs::write(&other, &products).expect("fix");
    let update = live
        .update(&[lesson, other])
        .expect("partial")
        .expect("no I/O error");
    assert_eq!(update.report.errors, 0, "{:?}", update.report.diagnostics);
    assert_eq!(update.rechecked, 2);
    assert_same_as_clean_build(book.path(), &out);
}

#[test]
fn static_files_are_copied_and_removed_as_a_clean_build_would() {
    let book = copy_fixture("basic");
    let (mut live, out) = start(book.path());
    let picture = book.path().join("content/picture.svg");
    std::fs::write(&picture, "<svg xmlns=\"http://www.w3.org/2000/svg\"/>").expect("add");
    let update = live
        .update(std::slice::from_ref(&picture))
        .expect("partial")
        .expect("no I/O error");
    assert_eq!(update.rechecked, 0);
    assert!(out.join("picture.svg").is_file());
    assert_same_as_clean_build(book.path(), &out);
    std::fs::remove_file(&picture).expect("remove");
    let _ = std::fs::remove_dir_all(book.path().join("clean"));
    live.update(&[picture])
        .expect("partial")
        .expect("no I/O error");
    assert!(!out.join("picture.svg").exists());
    assert_same_as_clean_build(book.path(), &out);
}

#[test]
fn a_new_lesson_or_a_new_summary_asks_for_a_whole_build() {
    let book = copy_fixture("basic");
    let (mut live, _) = start(book.path());
    // The fixture has no SUMMARY.md: every .md file is a lesson.
    let new = book.path().join("content/03-more.md");
    std::fs::write(&new, "# More\n").expect("add");
    assert!(live.update(&[new]).is_none());
    let summary = book.path().join("content/SUMMARY.md");
    std::fs::write(&summary, "- [Sums](01-sums.md)\n").expect("add");
    assert!(live.update(&[summary]).is_none());
    let config = book.path().join("book.toml");
    assert!(live.update(&[config]).is_none());
}
