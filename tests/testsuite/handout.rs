//! Integration tests of `nimbook handout` on the `basic` fixture book, with the real binary.

use crate::common::{copy_dir, fixture, stderr};

use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Output};

use base64::Engine;

/// A fresh copy of the basic fixture, so tests may edit it and write beside it.
fn basic() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("temp dir");
    copy_dir(&fixture("basic"), tmp.path());
    tmp
}

fn handout(book: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .arg("handout")
        .arg(book)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run nimbook")
}

/// The values of every `name="…"` attribute in `html`.
fn attr_values<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let pat = format!(" {name}=\"");
    html.match_indices(&pat)
        .filter_map(|(i, _)| {
            let rest = &html[i + pat.len()..];
            rest.find('"').map(|e| &rest[..e])
        })
        .collect()
}

/// Checks that a handout loads nothing from outside itself.
fn assert_self_contained(html: &str) {
    assert!(
        !html.contains("<link"),
        "no <link> may load a stylesheet or anything else"
    );
    for src in attr_values(html, "src") {
        assert!(src.starts_with("data:"), "src={src} is not inline");
    }
    for href in attr_values(html, "href") {
        assert!(
            href.starts_with('#'),
            "href={href} leaves the file (the fixture has no outside links)"
        );
    }
    let mut rest = html;
    while let Some(i) = rest.find("url(") {
        let target = rest[i + 4..].trim_start_matches(['"', '\'']);
        assert!(
            target.starts_with("data:") || target.starts_with(['"', '\'', ')']),
            "a CSS url() is not inline: {}",
            &target[..target.len().min(60)]
        );
        rest = &rest[i + 4..];
    }
}

#[test]
fn all_chapters_make_one_self_contained_printable_file() {
    let book = basic();
    let file = book.path().join("handout.html");
    let o = handout(
        book.path(),
        &["--all", "-o", file.to_str().expect("utf-8 path")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&file).expect("handout written");
    assert_self_contained(&html);
    // Both lessons, in book order, each on its own printed page.
    let sums = html
        .find("<h1 id=\"01-sums--sums\"")
        .expect("the sums lesson");
    let products = html
        .find("<h1 id=\"02-products--products\"")
        .expect("the products lesson");
    assert!(sums < products);
    assert!(html.contains("break-before: page"));
    assert!(html.contains("@media print"));
    // The stylesheets are inside: one rule from each.
    for css in ["style.css", "math.css", "highlight.css"] {
        assert!(html.contains(&format!("/* {css} */")), "{css} is inlined");
    }
    assert!(
        html.contains(".hl-"),
        "the highlighting classes are inlined"
    );
    // The math font is the very file nimbook ships, as a data: URI.
    let font = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/fonts/latinmodern-math.woff2"),
    )
    .expect("font");
    let encoded = base64::engine::general_purpose::STANDARD.encode(font);
    assert!(html.contains(&format!("url(\"data:font/woff2;base64,{encoded}\")")));
    // Claims were checked and rendered as MathML.
    assert!(html.contains("<math"));
    assert!(html.contains("✓ verified"));
    // Every in-file link has its target, and no id is used twice.
    let ids: Vec<&str> = attr_values(&html, "id");
    let unique: HashSet<&str> = ids.iter().copied().collect();
    assert_eq!(ids.len(), unique.len(), "duplicate ids: {ids:?}");
    for href in attr_values(&html, "href") {
        let target = href.trim_start_matches('#');
        assert!(unique.contains(target), "#{target} has no target");
    }
    // One script, the page script (scroll boxes reachable by keyboard): no live reload, no
    // search, and no widget here to need the widget's script.
    assert_eq!(html.matches("<script").count(), 1);
    assert!(html.contains("markScrollBoxes"));
    assert!(!html.contains("nimbookSearchIndex") && !html.contains("makeKayles"));
}

#[test]
fn links_between_included_chapters_become_anchors_and_others_lose_their_href() {
    let book = basic();
    let sums = book.path().join("content/01-sums.md");
    let mut text = std::fs::read_to_string(&sums).expect("read");
    text.push_str(
        "\nSee [Fermat powers](02-products.md#fermat-powers), [products](02-products.html) \
         and [the start](#sums).\n",
    );
    std::fs::write(&sums, text).expect("write");

    let both = book.path().join("both.html");
    let o = handout(
        book.path(),
        &[
            "01-sums.md",
            "02-products.md",
            "-o",
            both.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&both).expect("written");
    assert!(html.contains("<a href=\"#02-products--fermat-powers\">Fermat powers</a>"));
    assert!(html.contains("<a href=\"#02-products\">products</a>"));
    assert!(html.contains("<a href=\"#01-sums--sums\">the start</a>"));
    assert!(html.contains("id=\"02-products--fermat-powers\""));
    assert_self_contained(&html);

    let one = book.path().join("one.html");
    let o = handout(
        book.path(),
        &["01-sums.md", "-o", one.to_str().expect("utf-8")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&one).expect("written");
    assert!(html.contains("<a title=\"not in this handout\">Fermat powers</a>"));
    assert!(!html.contains("Products</h1>"), "only the chosen chapter");
    assert_self_contained(&html);
}

#[test]
fn a_chapter_is_named_by_its_source_path_or_its_title() {
    let book = basic();
    for name in ["02-products.md", "Products", "products"] {
        let file = book.path().join("p.html");
        let _ = std::fs::remove_file(&file);
        let o = handout(book.path(), &[name, "-o", file.to_str().expect("utf-8")]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let html = std::fs::read_to_string(&file).expect("written");
        assert!(html.contains("Fermat powers"), "{name}");
        assert!(!html.contains("01-sums--sums"), "{name}: only one chapter");
        assert!(html.contains("<title>Products</title>"), "{name}");
    }
}

#[test]
fn an_unknown_chapter_is_a_usage_error_that_lists_the_chapters() {
    let book = basic();
    let file = book.path().join("x.html");
    let o = handout(
        book.path(),
        &[
            "01-sums.md",
            "no-such.md",
            "-o",
            file.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("no chapter named `no-such.md`"), "{err}");
    for available in ["01-sums.md (Sums)", "02-products.md (Products)"] {
        assert!(err.contains(available), "{err}");
    }
    assert!(!file.exists(), "nothing written");

    let o = handout(book.path(), &["-o", file.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2), "no chapter and no --all");
    assert!(!file.exists());
}

#[test]
fn a_content_error_fails_like_build_and_writes_nothing() {
    let book = basic();
    let products = book.path().join("content/02-products.md");
    let mut text = std::fs::read_to_string(&products).expect("read");
    text.push_str("\n```nim\n16 * 16 = 25\n```\n");
    std::fs::write(&products, text).expect("write");
    let file = book.path().join("broken.html");
    let o = handout(book.path(), &["--all", "-o", file.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("claim does not hold"), "{}", stderr(&o));
    assert!(stderr(&o).contains("02-products.md"), "{}", stderr(&o));
    assert!(!file.exists(), "nothing written");
    // A chapter without the error still makes a handout.
    let o = handout(
        book.path(),
        &["01-sums.md", "-o", file.to_str().expect("utf-8")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(file.exists());
}

#[test]
fn lint_levels_on_the_command_line_apply_to_a_handout() {
    let book = basic();
    let sums = book.path().join("content/01-sums.md");
    let mut text = std::fs::read_to_string(&sums).expect("read");
    text.push_str("\nThere are 12 heaps on the table.\n");
    std::fs::write(&sums, text).expect("write");
    let file = book.path().join("sums.html");
    let out = file.to_str().expect("utf-8");
    // The book's level (warn): a warning, and the handout is written.
    let o = handout(book.path(), &["01-sums.md", "-o", out]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning"), "{}", stderr(&o));
    assert!(file.exists());
    std::fs::remove_file(&file).expect("remove");
    // `--deny` makes the same finding an error: exit 1, nothing written.
    let o = handout(
        book.path(),
        &["01-sums.md", "-o", out, "--deny", "unverified-numbers"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("12"), "{}", stderr(&o));
    assert!(!file.exists(), "nothing written");
}

/// Every `id` of a handout, and every reference to one: `href="#…"`, `xlink:href="#…"` and
/// `url(#…)` anywhere (presentation attributes such as `marker-end`, `style`).
fn ids_and_references(html: &str) -> (HashSet<String>, Vec<String>) {
    let ids: HashSet<String> = attr_values(html, "id")
        .into_iter()
        .map(str::to_string)
        .collect();
    let mut refs: Vec<String> = attr_values(html, "href")
        .into_iter()
        .chain(attr_values(html, "xlink:href"))
        .filter_map(|h| h.strip_prefix('#'))
        .map(str::to_string)
        .collect();
    for (i, _) in html.match_indices("url(#") {
        let rest = &html[i + "url(#".len()..];
        if let Some(end) = rest.find(')') {
            refs.push(rest[..end].to_string());
        }
    }
    (ids, refs)
}

/// Regression: the handout prefixed every `id` but left `marker-end="url(#…)"` alone, so the
/// arrowheads of game graphs vanished. Every lesson's handout must resolve every reference.
#[test]
fn every_id_reference_of_every_lesson_handout_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lessons: Vec<String> = std::fs::read_dir(root.join("content"))
        .expect("content")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md") && n != "SUMMARY.md")
        .collect();
    lessons.sort();
    assert!(lessons.len() >= 10, "{lessons:?}");
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut url_refs = 0;
    for lesson in &lessons {
        let file = tmp.path().join(format!("{lesson}.html"));
        let o = handout(
            root,
            &[lesson.as_str(), "-o", file.to_str().expect("utf-8 path")],
        );
        assert!(o.status.success(), "{lesson}: {}", stderr(&o));
        let html = std::fs::read_to_string(&file).expect("handout");
        let (ids, refs) = ids_and_references(&html);
        url_refs += html.matches("url(#").count();
        for r in refs {
            assert!(
                ids.contains(&r),
                "{lesson}: #{r} names no id of its handout"
            );
        }
    }
    // The course draws game graphs, whose arrowheads are `url(#…)` references.
    assert!(url_refs > 0, "no url(#…) reference in any handout");
}
