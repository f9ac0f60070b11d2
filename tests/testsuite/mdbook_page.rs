//! Issue 38: what mdBook 0.5.4 shows on a page, and how it reads `SUMMARY.md` and includes,
//! held side by side with mdBook on a minimal book per point.
//!
//! The expected behaviour was read off `mdbook build` 0.5.4. Where `mdbook` is installed each
//! test builds the same book with it and compares the same property of both outputs (the
//! table of contents, the links of the top bar, the classes and text of code blocks), so the
//! oracle is re-read on every run; `.ci/run` requires it.

use crate::common;
use crate::mdbook_parity::{article, book, code, main_of, ours, read, theirs};

/// Every chapter link of a table of contents page (`toc.html`, both tools write one): its
/// target and its text (number and title), tags dropped; and the part titles, in order.
fn toc(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at..];
        if let Some(t) = rest.strip_prefix("<a href=\"") {
            let href = t.split('"').next().unwrap_or("").to_string();
            let end = t.find("</a>").unwrap_or(t.len());
            let inner = &t[t.find('>').map_or(0, |i| i + 1)..end];
            out.push(format!("{href} {}", text(inner)));
        } else if let Some(t) = rest.strip_prefix("<li class=\"part-title\">") {
            out.push(format!("part {}", text(&t[..t.find("</li>").unwrap_or(0)])));
        }
        rest = &rest[1..];
    }
    // nimbook's page also links the site's own files (style sheets are not `<a>`; the top
    // bar's links are), so keep the chapter links only.
    out.retain(|l| (l.contains(".html ") && !l.starts_with("toc.html ")) || l.starts_with("part "));
    out
}

/// The text of some HTML: tags dropped, white space collapsed.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The `href` of the first link of `html` whose opening tag holds `marker`, entities decoded.
fn link_with(html: &str, marker: &str) -> Option<String> {
    let at = html.find(marker)?;
    let tag_start = html[..at].rfind("<a ")?;
    let tag = &html[tag_start..at + html[at..].find('>')?];
    let href = tag.split("href=\"").nth(1)?.split('"').next()?;
    Some(decode(href))
}

/// `text` with its character references (`&amp;`, `&#x2F;`, `&#61;`) decoded.
fn decode(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';') else { break };
        let name = &rest[1..end];
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            _ => name
                .strip_prefix("#x")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn summary_with_leading_text_and_an_underlined_title_is_read_as_mdbook_reads_it() {
    // The Rhai book's SUMMARY.md starts with its title underlined, then a line of text.
    let summary = "The Rhai Scripting Language\n==========\n\nA line of plain text.\n\n[The Book](index.md)\n\n- [A](a.md)\n  - [B](b.md)\n- [Draft]()\n\n# Part\n\n- [C](c.md)\n\n---\n\n[Suffix](s.md)\n";
    let mut files = vec![("src/SUMMARY.md", summary)];
    for f in [
        "src/index.md",
        "src/a.md",
        "src/b.md",
        "src/c.md",
        "src/s.md",
    ] {
        files.push((f, "# Page\n"));
    }
    let b = book("[book]\ntitle = \"T\"\n", &files);
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    let ours_toc = toc(&read(&out.join("toc.html")));
    assert_eq!(
        ours_toc,
        [
            "index.html The Book",
            "a.html 1. A",
            "b.html 1.1. B",
            "part Part",
            "c.html 3. C",
            "s.html Suffix"
        ]
    );
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok, "mdBook builds it");
        assert_eq!(toc(&read(&dir.join("toc.html"))), ours_toc);
    }
}

#[test]
fn a_file_listed_twice_in_summary_is_a_warning_that_names_both_lines() {
    let b = book(
        "[book]\ntitle = \"T\"\n",
        &[
            (
                "src/SUMMARY.md",
                "# Summary\n\n- [A](a.md)\n- [B](b.md)\n- [A again](a.md)\n",
            ),
            ("src/a.md", "# A\n"),
            ("src/b.md", "# B\n"),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    let err = common::stderr(&o);
    assert_eq!(code(&o), 0, "{err}");
    assert!(
        err.contains("warning: SUMMARY.md lists a.md twice, on lines 3 and 5"),
        "{err}"
    );
    assert!(err.contains("--> src/SUMMARY.md:5:3"), "{err}");
    assert!(err.contains("first listed at src/SUMMARY.md:3:3"), "{err}");
    let warning = &err[err.find("warning: SUMMARY.md").unwrap_or(0)..];
    let warning = &warning[..warning.find("\n\n").unwrap_or(warning.len())];
    insta::assert_snapshot!("summary_file_listed_twice", warning);
    assert!(out.join("a.html").is_file());
    if let Some((ok, _)) = theirs(b.path()) {
        assert!(!ok, "mdBook refuses a file listed twice");
    }
}

#[test]
fn the_repository_and_edit_links_are_mdbooks() {
    for (src, toml_src) in [("src", ""), ("docs/text", "src = \"docs/text\"\n")] {
        let summary = format!("{src}/SUMMARY.md");
        let readme = format!("{src}/README.md");
        let sub = format!("{src}/sub/page.md");
        let b = book(
            &format!("[book]\ntitle = \"T\"\n{toml_src}[output.html]\ngit-repository-url = \"https://example.org/r\"\nedit-url-template = \"https://example.org/r/edit/main/guide/{{path}}?x=1\"\n"),
            &[
                (&summary, "- [Intro](README.md)\n- [Page](sub/page.md)\n"),
                (&readme, "# Intro\n"),
                (&sub, "# Page\n"),
            ],
        );
        let (o, out) = ours(b.path(), &[]);
        assert_eq!(code(&o), 0, "{}", common::stderr(&o));
        let err = common::stderr(&o);
        assert!(!err.contains("ignored by nimbook"), "{err}");
        let page = read(&out.join("sub/page.html"));
        assert_eq!(
            link_with(&page, "title=\"Git repository\"").as_deref(),
            Some("https://example.org/r")
        );
        let edit = link_with(&page, "rel=\"edit\"");
        assert_eq!(
            edit.as_deref(),
            Some(format!("https://example.org/r/edit/main/guide/{src}/sub/page.md?x=1").as_str())
        );
        let front = read(&out.join("index.html"));
        if let Some((ok, dir)) = theirs(b.path()) {
            assert!(ok);
            let m = read(&dir.join("sub/page.html"));
            assert_eq!(link_with(&m, "rel=\"edit\""), edit);
            assert_eq!(
                link_with(&m, "title=\"Git repository\""),
                link_with(&page, "title=\"Git repository\"")
            );
            assert_eq!(
                link_with(&read(&dir.join("index.html")), "rel=\"edit\""),
                link_with(&front, "rel=\"edit\"")
            );
        }
    }
}

/// Each code block of some HTML: whether its `<pre>` is a playground block, the classes of its
/// `<code>`, and its text with each hidden line in `[…]`.
fn code_blocks(html: &str) -> Vec<(bool, String, String)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<pre") {
        rest = &rest[at..];
        let pre_tag = &rest[..rest.find('>').unwrap_or(0)];
        let playground = pre_tag.contains("playground");
        let Some(code_at) = rest.find("<code") else {
            break;
        };
        let code_tag_end = rest[code_at..].find('>').map_or(0, |i| code_at + i);
        let code_tag = &rest[code_at..code_tag_end];
        let classes = code_tag
            .split("class=\"")
            .nth(1)
            .and_then(|c| c.split('"').next())
            .unwrap_or("")
            .to_string();
        let end = rest.find("</code></pre>").unwrap_or(rest.len());
        let body = rest[code_tag_end + 1..end].replace("<span class=\"boring\">", "\u{1}");
        // A hidden line's span ends after its newline; mark the end with `]`.
        let mut text = String::new();
        let mut depth = 0usize;
        let mut boring_at: Vec<usize> = Vec::new();
        let mut i = 0;
        let b = body.as_bytes();
        while i < b.len() {
            if body[i..].starts_with('\u{1}') {
                boring_at.push(depth);
                text.push('[');
                i += 1;
            } else if body[i..].starts_with("</span>") {
                if boring_at.last() == Some(&depth) {
                    boring_at.pop();
                    text.push(']');
                } else {
                    depth = depth.saturating_sub(1);
                }
                i += 7;
            } else if body[i..].starts_with("<span") {
                depth += 1;
                i += body[i..].find('>').map_or(body.len() - i, |j| j + 1);
            } else {
                let c = body[i..].chars().next().unwrap_or(' ');
                text.push(c);
                i += c.len_utf8();
            }
        }
        out.push((playground, decode(&classes), decode(&text)));
        rest = &rest[end..];
    }
    out
}

const FENCES: &str = "# Code\n\n```rust\nlet x = 1;\n```\n\n```rust,ignore\nlet y = 2;\n```\n\n```rust,no_run,should_panic\n#![allow(dead_code)]\nfn main() { panic!() }\n```\n\n```rust,compile_fail,edition2018\nlet z: u8 = 300;\n```\n\n```rust,editable\n# fn main() {\nlet w = 4;\n# }\n```\n\n```rust,noplayground\n# use std::io;\nlet v = 5;\n```\n\n```rust\n#![feature(never_type)]\n\nlet n = 6;\n```\n\n```python,hidelines=!!!\n!!!import os\nprint(1)\n```\n";

#[test]
fn rust_blocks_are_playground_blocks_as_mdbook_marks_and_wraps_them() {
    for playground in [
        "[rust]\nedition = \"2021\"\n",
        "[rust]\nedition = \"2024\"\n[output.html.playground]\neditable = true\n",
        "[output.html.playground]\nrunnable = false\n",
    ] {
        let b = book(
            &format!("[book]\ntitle = \"T\"\n{playground}"),
            &[
                ("src/SUMMARY.md", "- [Code](code.md)\n"),
                ("src/code.md", FENCES),
            ],
        );
        let (o, out) = ours(b.path(), &[]);
        assert_eq!(code(&o), 0, "{}", common::stderr(&o));
        let ours_blocks = code_blocks(&article(&out.join("code.html")));
        assert_eq!(ours_blocks.len(), 8, "{ours_blocks:?}");
        // The first block, without `fn main`, runs inside a hidden one, unless not runnable.
        let runnable = !playground.contains("runnable = false");
        assert_eq!(ours_blocks[0].0, runnable);
        assert_eq!(
            ours_blocks[0]
                .2
                .starts_with("[#![allow(unused)]\n][fn main() {\n]"),
            runnable,
            "{:?}",
            ours_blocks[0]
        );
        if let Some((ok, dir)) = theirs(b.path()) {
            assert!(ok);
            let m = code_blocks(&main_of(&dir.join("code.html")));
            assert_eq!(ours_blocks, m, "{playground}");
        }
    }
}

#[test]
fn theme_head_html_goes_into_every_page_and_a_handlebars_expression_is_a_warning() {
    let files = [
        ("src/SUMMARY.md", "- [A](README.md)\n- [B](sub/b.md)\n"),
        ("src/README.md", "# A\n"),
        ("src/sub/b.md", "# B\n"),
        (
            "theme/head.hbs",
            "{{! analytics }}\n<meta name=\"x-test-head\" content=\"from head.hbs\">\n",
        ),
    ];
    let b = book("[book]\ntitle = \"T\"\n", &files);
    let (o, out) = ours(b.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(
        !common::stderr(&o).contains("head.hbs"),
        "{}",
        common::stderr(&o)
    );
    for page in ["index.html", "sub/b.html", "print.html", "404.html"] {
        let html = read(&out.join(page));
        let head = &html[..html.find("</head>").expect("a head")];
        assert!(
            head.contains("<meta name=\"x-test-head\" content=\"from head.hbs\">"),
            "{page}"
        );
        assert!(!head.contains("analytics"), "{page}");
    }
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        let m = read(&dir.join("sub/b.html"));
        assert!(m[..m.find("</head>").expect("head")].contains("x-test-head"));
    }
    std::fs::write(
        b.path().join("theme/head.hbs"),
        "<script>\n  var x = \"{{ path }}\";\n</script>\n",
    )
    .expect("write");
    let (o, out) = ours(b.path(), &[]);
    let err = common::stderr(&o);
    assert_eq!(code(&o), 0, "{err}");
    assert!(
        err.contains("warning: theme/head.hbs is not used: it has a Handlebars expression"),
        "{err}"
    );
    assert!(err.contains("--> theme/head.hbs:2:12"), "{err}");
    assert!(!read(&out.join("index.html")).contains("var x"));
}

#[test]
fn themes_and_search_options_are_honoured() {
    let b = book(
        "[book]\ntitle = \"T\"\n[output.html]\ndefault-theme = \"navy\"\npreferred-dark-theme = \"rust\"\n[output.html.search]\nuse-boolean-and = true\nexpand = false\n",
        &[("src/SUMMARY.md", "- [A](a.md)\n"), ("src/a.md", "# A\n")],
    );
    let (o, out) = ours(b.path(), &[]);
    let err = common::stderr(&o);
    assert_eq!(code(&o), 0, "{err}");
    assert!(!err.contains("ignored by nimbook"), "{err}");
    let page = read(&out.join("a.html"));
    assert!(page.contains("\"data-theme-light\", \"dark\""), "{page}");
    assert!(page.contains("\"data-theme-dark\", \"light\""), "{page}");
    let index = read(&out.join("searchindex.js"));
    assert!(index.contains("\"and\":true,\"expand\":false"), "{index}");
    // mdBook's defaults in an mdBook book: any word, expanded; nimbook's own themes.
    let plain = book("[book]\ntitle = \"T\"\n", &[("src/a.md", "# A\n")]);
    let (o, out) = ours(plain.path(), &[]);
    assert_eq!(code(&o), 0, "{}", common::stderr(&o));
    assert!(read(&out.join("searchindex.js")).contains("\"and\":false,\"expand\":true"));
    assert!(!read(&out.join("a.html")).contains("data-theme-light"));
}

#[test]
fn an_include_mdbook_cannot_do_is_a_warning_and_the_text_is_what_mdbook_makes_of_it() {
    let b = book(
        "[book]\ntitle = \"T\"\n",
        &[
            ("src/SUMMARY.md", "- [A](a.md)\n"),
            (
                "src/a.md",
                "# A\n\nbefore {{#include nope.md}} after\n\nanchor: {{#include f.rs:nowhere}} :end\n\nout: {{#include ../../outside.txt}}\n",
            ),
            ("src/f.rs", "fn f() {}\n"),
        ],
    );
    let (o, out) = ours(b.path(), &[]);
    let err = common::stderr(&o);
    assert_eq!(code(&o), 0, "{err}");
    for line in [3, 5, 7] {
        assert!(
            err.contains(&format!("--> src/a.md:{line}:")),
            "{line}: {err}"
        );
    }
    assert_eq!(err.matches("warning: cannot").count(), 3, "{err}");
    let page = article(&out.join("a.html"));
    assert!(page.contains("before {{#include nope.md}} after"), "{page}");
    assert!(page.contains("anchor:  :end"), "{page}");
    if let Some((ok, dir)) = theirs(b.path()) {
        assert!(ok);
        let m = main_of(&dir.join("a.html"));
        assert!(m.contains("before {{#include nope.md}} after"), "{m}");
        assert!(m.contains("anchor:  :end"), "{m}");
        assert!(m.contains("out: {{#include ../../outside.txt}}"), "{m}");
    }
    // In a nimbook book the same includes are errors, and nothing is written.
    let n = book(
        "[book]\ntitle = \"T\"\n[nimbook]\n",
        &[
            ("src/SUMMARY.md", "- [A](a.md)\n"),
            ("src/a.md", "# A\n\n{{#include nope.md}}\n"),
        ],
    );
    let (o, out) = ours(n.path(), &[]);
    assert_eq!(code(&o), 1, "{}", common::stderr(&o));
    assert!(common::stderr(&o).contains("error: cannot include nope.md: no such file"));
    assert!(!out.exists());
}
