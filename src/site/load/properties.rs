//! Property tests of the loaders on hostile input: `SUMMARY.md`, `book.toml` and include links
//! on arbitrary bytes and on structured generators that stay close to the real grammar (so the
//! cases reach deep into the parsers instead of stopping at the first byte). The property is
//! the one a build promises: no panic, and every finding is a diagnostic, located when it is
//! about a place. That their cost grows linearly is measured by `examples/linearity.py`
//! (cases `summary*`, `toml-keys`, `includes`, `anchors`), not asserted in a test.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;

use super::book::parse_summary;
use super::config::Config;
use super::confine::{Reader, Trust};
use super::include::expand;
use super::sourcemap::SourceMap;
use crate::diag::SourceFile;

/// Text from arbitrary bytes, as a reader of a file that is not quite UTF-8 would see it.
fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A line ending, any of the three.
fn ending() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("\n"), Just("\r\n"), Just("\r")]
}

/// One line of something like a `SUMMARY.md`.
fn summary_line() -> impl Strategy<Value = String> {
    let title = "[a-zA-Z0-9 `\\\\*_\\[\\]()#<>!-]{0,12}";
    let path = prop_oneof![
        Just(String::new()),
        "[a-z]{1,6}\\.md",
        "\\.\\./[a-z]{1,4}\\.md",
        "/[a-z]{1,4}",
        "[a-z/ %:#?.]{0,10}",
    ];
    let indent = "[ \t]{0,9}";
    prop_oneof![
        Just("# Summary".to_string()),
        "# [A-Za-z ]{0,10}",
        Just("---".to_string()),
        Just("<!-- a comment".to_string()),
        Just("-->".to_string()),
        (indent, "[-*+]", title, path.clone())
            .prop_map(|(i, m, t, p)| format!("{i}{m} [{t}]({p})")),
        (title, path).prop_map(|(t, p)| format!("[{t}]({p})")),
        "[^\n\r]{0,30}",
    ]
}

/// A `book.toml` value of any TOML type, the odd one huge, negative or of the wrong kind.
fn toml_value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        Just("18446744073709551615".to_string()),
        Just("99999999999999999999999".to_string()),
        "\"[a-z./ \\\\]{0,12}\"",
        Just("true".to_string()),
        Just("[\"a\", \"..\", \"/\"]".to_string()),
        Just("{ x = 1 }".to_string()),
        Just("1.5e300".to_string()),
    ]
}

/// A `book.toml` of known tables and keys (and a few unknown ones), with values of any type.
fn book_toml() -> impl Strategy<Value = String> {
    let table = prop_oneof![
        Just("book"),
        Just("build"),
        Just("nimbook"),
        Just("output.html"),
        Just("output.html.search"),
        Just("output.html.fold"),
        Just("output.html.redirect"),
        Just("preprocessor.links"),
        Just("preprocessor.nimbook"),
        Just("rust"),
    ];
    let key = prop_oneof![
        Just("title"),
        Just("src"),
        Just("language"),
        Just("text-direction"),
        Just("build-dir"),
        Just("max-bits"),
        Just("max-cases"),
        Just("max-table"),
        Just("max-terms"),
        Just("max-positions"),
        Just("max-seconds"),
        Just("max-lesson-bytes"),
        Just("preprocessor-seconds"),
        Just("include-roots"),
        Just("answers"),
        Just("unverified-numbers"),
        Just("broken-links"),
        Just("level"),
        Just("heading-split-level"),
        Just("command"),
        Just("\"/old.html\""),
        Just("no-such-key"),
    ];
    let entry = (key, toml_value()).prop_map(|(k, v)| format!("{k} = {v}"));
    let section = (table, prop::collection::vec(entry, 0..6))
        .prop_map(|(t, entries)| format!("[{t}]\n{}\n", entries.join("\n")));
    prop::collection::vec(section, 0..6).prop_map(|s| s.concat())
}

/// A tiny book on disk for include links: a lesson folder with files holding anchors, and a
/// secret beside the book that no include may read.
fn include_book() -> &'static (tempfile::TempDir, PathBuf) {
    static BOOK: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    BOOK.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("book");
        let src = root.join("src");
        std::fs::create_dir_all(src.join("sub")).unwrap();
        std::fs::write(root.join("book.toml"), "[book]\n").unwrap();
        std::fs::write(
            src.join("code.rs"),
            "// ANCHOR: a\nfn a() {}\n// ANCHOR_END: a\r\n// ANCHOR: b\r// ANCHOR: a\rx\r",
        )
        .unwrap();
        std::fs::write(src.join("self.md"), "{{#include self.md}}\n").unwrap();
        std::fs::write(src.join("sub/up.md"), "{{#include ../code.rs:a}}\n").unwrap();
        std::fs::write(tmp.path().join("secret.txt"), "SECRET-VALUE\n").unwrap();
        (tmp, src)
    })
}

/// One piece of a chapter: text, or an include link of any kind and spelling.
fn include_piece() -> impl Strategy<Value = String> {
    let path = prop_oneof![
        Just("code.rs"),
        Just("self.md"),
        Just("sub/up.md"),
        Just("../../secret.txt"),
        Just("/etc/passwd"),
        Just("missing.rs"),
        Just(""),
        Just("sub"),
    ];
    let part = prop_oneof![
        Just(String::new()),
        "(:[0-9]{0,3}){1,2}",
        ":[a-z]{0,2}",
        Just(":18446744073709551616".to_string()),
        "[:\\x00-\\x1f ]{0,4}",
    ];
    let command = prop_oneof![
        Just("include"),
        Just("rustdoc_include"),
        Just("playground"),
        Just("title"),
        Just("nonsense"),
    ];
    prop_oneof![
        "[^{}]{0,20}",
        Just("{{".to_string()),
        Just("}}".to_string()),
        Just("\\{{#include code.rs}}".to_string()),
        (command, path, part, "( [a-z_=,]{0,8})?")
            .prop_map(|(c, p, part, attrs)| format!("{{{{#{c} {p}{part}{attrs}}}}}")),
    ]
}

/// Expands `text` as the chapter `src/page.md` of the include book, and checks what a build
/// relies on: no secret in the text, every diagnostic located.
fn check_expansion(text: &str) -> Result<(), TestCaseError> {
    let (_, src) = include_book();
    let root = src.parent().unwrap_or(src);
    let files = Reader::new(root, &[], 1 << 16, Trust::Trusted)
        .map_err(|e| TestCaseError::fail(e.message.clone()))?;
    let file = SourceFile::new("src/page.md", text);
    let x = expand(&files, &file.text, &SourceMap::identity(&file), src);
    prop_assert!(!x.text.contains("SECRET-VALUE"));
    for d in &x.diagnostics {
        prop_assert!(d.location.is_some(), "{}", d.message);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn summary_of_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_summary(&SourceFile::new("SUMMARY.md", lossy(&bytes)));
    }

    #[test]
    fn summary_of_summary_like_lines_never_panics(
        lines in prop::collection::vec((summary_line(), ending()), 0..40)
    ) {
        let text: String = lines.iter().map(|(l, e)| format!("{l}{e}")).collect();
        let file = SourceFile::new("SUMMARY.md", text);
        match parse_summary(&file) {
            Ok(chapters) => {
                // Every chapter is written as a link.
                prop_assert!(chapters.len() <= file.text.matches("](").count(), "{chapters:?}");
            }
            Err(d) => prop_assert!(d.location.is_some(), "{}", d.message),
        }
    }

    #[test]
    fn book_toml_of_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(config) = Config::parse(&lossy(&bytes), "book.toml") {
            let _ = (config.limits(), config.lints(), config.is_nimbook());
        }
    }

    #[test]
    fn book_toml_of_known_keys_never_panics(text in book_toml()) {
        match Config::parse(&text, "book.toml") {
            Ok(config) => {
                let _ = (config.limits(), config.lints(), config.is_nimbook());
                let _ = (config.max_lesson_bytes(), config.src_dir(Path::new("/book")));
                let _ = super::compat::warnings(Path::new("/nonexistent"), &text, "book.toml");
            }
            // A refusal points at the place in book.toml, when TOML names one.
            Err(d) => prop_assert!(d.message.starts_with("invalid book.toml"), "{}", d.message),
        }
    }

    #[test]
    fn include_links_of_arbitrary_text_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_expansion(&lossy(&bytes))?;
    }

    #[test]
    fn include_links_of_every_spelling_never_panic(
        pieces in prop::collection::vec(include_piece(), 0..12)
    ) {
        check_expansion(&pieces.concat())?;
    }
}

#[test]
fn the_generators_reach_the_parsers() {
    // Sanity for the structured generators: their kind of text does parse when it is right.
    let text =
        "# Summary\r\n[Intro](a.md)\r- [One](b.md)\n  - [Two](c.md)\r\n---\n# Part\n- [Three]()\n";
    let chapters = parse_summary(&SourceFile::new("SUMMARY.md", text)).unwrap_or_default();
    assert_eq!(chapters.len(), 4, "{chapters:?}");
    assert!(Config::parse(
        "[nimbook]\nmax-bits = 64\n[output.html.fold]\nlevel = 1\n",
        "book.toml"
    )
    .is_ok());
    let (_, src) = include_book();
    let files = Reader::new(src.parent().unwrap_or(src), &[], 1 << 16, Trust::Trusted).unwrap();
    let file = SourceFile::new("src/page.md", "{{#include code.rs:a}}");
    let x = expand(&files, &file.text, &SourceMap::identity(&file), src);
    assert_eq!(x.text, "fn a() {}", "{:?}", x.diagnostics);
}
