//! `nimbook pdf`, `handout --pdf` and `[output.pdf]`: the printed book read back by poppler's
//! tools (`pdftotext`, `pdfinfo`, `pdffonts`, which `.ci/run` installs), never by nimbook.
//!
//! The oracle for what the paper must say is the site of the same book: the words and numbers
//! of every page's lesson, as a multiset, must nearly all be in the PDF's text; the markup a
//! page shows as text (in code) bounds what the paper may show.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use crate::common::{copy_dir, copy_fixture, fixture, nimbook, stderr, write_files};

/// Runs a poppler tool; a missing tool fails the test with what to install.
fn poppler(tool: &str, args: &[&str], pdf: &Path) -> String {
    let o = Command::new(tool)
        .args(args)
        .arg(pdf)
        .args(if tool == "pdftotext" {
            &["-"][..]
        } else {
            &[][..]
        })
        .output()
        .unwrap_or_else(|e| panic!("{tool} is needed (apt-get install poppler-utils): {e}"));
    assert!(
        o.status.success(),
        "{tool}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn text_of(pdf: &Path) -> String {
    poppler("pdftotext", &["-enc", "UTF-8"], pdf)
}

/// `nimbook ARGS` in `dir`, run there.
fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimbook"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .expect("run nimbook")
}

fn course_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The course printed once for the whole run, and its site built once.
fn course() -> &'static (PathBuf, PathBuf) {
    static COURSE: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    COURSE.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdf-course");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("mkdir");
        let pdf = dir.join("course.pdf");
        let o = run(&["pdf", "-o", pdf.to_str().expect("utf-8")], &course_root());
        assert!(o.status.success(), "{}", stderr(&o));
        let site = dir.join("site");
        let o = run(
            &["build", "-d", site.to_str().expect("utf-8")],
            &course_root(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        (pdf, site)
    })
}

/// The chapters of `SUMMARY.md` in order: (title, source path).
fn summary_chapters(root: &Path) -> Vec<(String, String)> {
    let summary = std::fs::read_to_string(root.join("content/SUMMARY.md")).expect("SUMMARY");
    summary
        .lines()
        .filter_map(|l| {
            let l = l.trim().strip_prefix("- [")?;
            let (title, rest) = l.split_once("](")?;
            Some((title.to_string(), rest.trim_end_matches(')').to_string()))
        })
        .collect()
}

#[test]
fn every_lesson_title_is_printed_in_summary_order() {
    let (pdf, _) = course();
    let text = text_of(pdf);
    // The body, without the table of contents (its lines end in dot leaders and a page).
    let body: String = text
        .lines()
        .filter(|l| !l.contains(". . ."))
        .collect::<Vec<_>>()
        .join("\n");
    let mut from = 0;
    for (title, _) in summary_chapters(&course_root()) {
        match body[from..].find(&title) {
            Some(at) => from += at + title.len(),
            None => panic!("{title} is missing, or out of SUMMARY's order"),
        }
    }
    // The contents list every lesson too, with a page number.
    for (title, _) in summary_chapters(&course_root()) {
        assert!(
            text.lines()
                .any(|l| l.contains(&title) && l.contains(". . .")),
            "{title} is not in the table of contents"
        );
    }
}

/// The text a reader reads in a page's lesson (inside `<main>`): tags, scripts, styles,
/// drawings and MathML annotations dropped, entities decoded.
fn page_text(html: &str) -> String {
    let main = html
        .split_once("<main")
        .and_then(|(_, rest)| rest.split_once("</main>"))
        .map_or(html, |(m, _)| m);
    let mut out = String::new();
    let mut rest = main;
    let skipped = ["script", "style", "svg", "annotation", "form"];
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        out.push(' ');
        let after = &rest[lt + 1..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if let Some(skip) = skipped.iter().find(|s| **s == name) {
            let close = format!("</{skip}>");
            rest = after.find(&close).map_or("", |i| &after[i + close.len()..]);
            continue;
        }
        rest = after.find('>').map_or("", |i| &after[i + 1..]);
    }
    out.push_str(rest);
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#160;", " ")
        .replace("&amp;", "&")
}

/// Words of two letters or more (lower case) and numbers: what must carry over.
fn tokens(text: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for raw in text.split(|c: char| !c.is_alphanumeric()) {
        let word = raw.to_lowercase();
        let digits = !word.is_empty() && word.chars().all(|c| c.is_ascii_digit());
        let letters = word.chars().count() >= 2 && word.chars().all(|c| c.is_ascii_alphabetic());
        if digits || letters {
            *counts.entry(word).or_insert(0) += 1;
        }
    }
    counts
}

#[test]
fn the_words_and_numbers_of_the_pages_are_on_paper() {
    let (pdf, site) = course();
    let printed = tokens(&text_of(pdf));
    let mut wanted = 0usize;
    let mut found = 0usize;
    let mut missing: HashMap<String, usize> = HashMap::new();
    for (_, path) in summary_chapters(&course_root()) {
        let page = site.join(path.replace(".md", ".html"));
        let html = std::fs::read_to_string(&page).expect("page");
        for (word, n) in tokens(&page_text(&html)) {
            let have = printed.get(&word).copied().unwrap_or(0);
            wanted += n;
            found += n.min(have);
            if have < n {
                *missing.entry(word).or_insert(0) += n - have;
            }
        }
    }
    let share = found as f64 / wanted as f64;
    let mut worst: Vec<_> = missing.into_iter().collect();
    worst.sort_by_key(|w| std::cmp::Reverse(w.1));
    assert!(
        share >= 0.97,
        "{found} of {wanted} words and numbers ({:.1}%) are printed; most missing: {:?}",
        share * 100.0,
        &worst[..worst.len().min(30)]
    );
}

#[test]
fn nim_operators_extract_as_text_and_no_markup_is_left_over() {
    let (pdf, site) = course();
    let text = text_of(pdf);
    assert!(text.contains('⊕') && text.contains('⊗'));
    assert!(
        text.contains("6 ⊗ 13 = 15") || text.contains("6⊗13=15"),
        "no 6 ⊗ 13 = 15"
    );
    // What the pages show as text (in code, where the course teaches its own syntax) bounds
    // what the paper may show; markup beyond that leaked.
    let mut shown = String::new();
    for (_, path) in summary_chapters(&course_root()) {
        let html = std::fs::read_to_string(site.join(path.replace(".md", ".html"))).expect("page");
        shown.push_str(&page_text(&html));
    }
    for leftover in [
        "{{", "nim:", "$$", "`", "<span", "<div", "<details", "<math", "#emph", "#raw",
    ] {
        let on_paper = text.matches(leftover).count();
        let on_pages = shown.matches(leftover).count();
        assert!(
            on_paper <= on_pages,
            "`{leftover}` is printed {on_paper} times but shown {on_pages} times on the pages"
        );
    }
}

#[test]
fn the_pdf_is_tagged_titled_and_embeds_every_font() {
    let (pdf, _) = course();
    let info = poppler("pdfinfo", &[], pdf);
    assert!(info.contains("Tagged:          yes"), "{info}");
    assert!(
        info.contains("Title:           Nimbers and Impartial Games"),
        "{info}"
    );
    let pages: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("pages");
    assert!(pages > 50, "{pages} pages");
    let fonts = poppler("pdffonts", &[], pdf);
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(!rows.is_empty(), "{fonts}");
    for row in rows {
        // name, type, encoding, then `emb sub uni` as yes/no.
        let flags: Vec<&str> = row.split_whitespace().rev().skip(2).take(3).collect();
        assert_eq!(flags.last(), Some(&"yes"), "not embedded: {row}");
    }
    let bytes = std::fs::read(pdf).expect("pdf");
    let lang = String::from_utf8_lossy(&bytes);
    assert!(
        lang.contains("/Lang (en)") || lang.contains("/Lang(en)"),
        "no document language"
    );
}

#[test]
fn the_same_book_gives_the_same_bytes() {
    let dir = tempfile::tempdir().expect("temp");
    let book = dir.path().join("book");
    copy_dir(&fixture("exercises"), &book);
    let (a, b) = (dir.path().join("a.pdf"), dir.path().join("b.pdf"));
    for out in [&a, &b] {
        let o = run(&["pdf", "-o", out.to_str().expect("utf-8")], &book);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert!(std::fs::read(&a).expect("a") == std::fs::read(&b).expect("b"));
    // Without SOURCE_DATE_EPOCH the book carries no date.
    let info = poppler("pdfinfo", &[], &a);
    assert!(!info.contains("CreationDate"), "{info}");
}

#[test]
fn a_false_claim_writes_no_pdf_and_leaves_the_old_one() {
    let tmp = copy_fixture("false-claim");
    let out = tmp.path().join("old.pdf");
    std::fs::write(&out, b"the previous book").expect("write");
    let o = run(&["pdf", "-o", out.to_str().expect("utf-8")], tmp.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).expect("old"), b"the previous book");
    // The same located diagnostics as `build`.
    let built = nimbook(&["build"], tmp.path());
    let first = |s: &str| {
        s.lines()
            .take_while(|l| !l.starts_with("checked"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(first(&stderr(&o)), first(&stderr(&built)));
    assert!(stderr(&o).contains("-->"), "{}", stderr(&o));
    // And nothing new by default either.
    let o = run(&["pdf"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    let pdfs = walk_pdfs(tmp.path());
    assert_eq!(pdfs, vec![out], "a PDF was written");
}

fn walk_pdfs(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read").flatten() {
        let p = entry.path();
        if p.is_dir() {
            found.extend(walk_pdfs(&p));
        } else if p.extension().is_some_and(|e| e == "pdf") {
            found.push(p);
        }
    }
    found
}

#[test]
fn a_handout_of_an_exercise_lesson_prints_with_its_key() {
    let tmp = copy_fixture("exercises");
    let out = tmp.path().join("h.pdf");
    let o = run(
        &[
            "handout",
            "01-answer.md",
            "--pdf",
            "--answers",
            "-o",
            out.to_str().expect("utf-8"),
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let key = tmp.path().join("h.answers.pdf");
    let (handout, key) = (text_of(&out), text_of(&key));
    assert!(
        handout.contains("Compute 6 ⊗ 13") || handout.contains("Compute 6⊗13"),
        "{handout}"
    );
    // The answers, from the definitions: 6 ⊗ 13 = 15 (the multiplication table of GF(16)),
    // 5 ⊕ 9 ⊕ 12 = 0 (XOR), Kayles' row of 5 has value 4 (Guy and Smith's table), nim(1, 2, 3)
    // is P (its nim-sum is 0).
    for answer in ["15", "= 0", "= 4", "P"] {
        assert!(key.contains(answer), "the key lacks {answer}: {key}");
    }
    assert!(key.contains("Answer key"), "{key}");
    // The handout's own appendix links back to the questions.
    assert!(handout.contains("Answers"), "{handout}");
}

#[test]
fn a_graded_book_prints_no_answers() {
    let tmp = copy_fixture("graded");
    let out = tmp.path().join("g.pdf");
    let o = run(&["pdf", "-o", out.to_str().expect("utf-8")], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = text_of(&out);
    assert!(!text.contains("Answers\n"), "{text}");
    assert!(!text.contains("Worked answers"), "{text}");
}

#[test]
fn output_pdf_puts_the_book_in_the_site_and_links_it_from_every_page() {
    let tmp = copy_fixture("exercises");
    let toml = tmp.path().join("book.toml");
    let mut text = std::fs::read_to_string(&toml).expect("toml");
    text.push_str("\n[output.pdf]\n");
    std::fs::write(&toml, text).expect("toml");
    let o = run(&["build"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let site = tmp.path().join("out");
    let pdf = site.join("exercises-fixture.pdf");
    assert!(pdf.is_file(), "no PDF in the site");
    assert!(text_of(&pdf).contains("Answer on the page"));
    let page = std::fs::read_to_string(site.join("01-answer.html")).expect("page");
    assert!(
        page.contains("<a class=\"pdf-link\" href=\"exercises-fixture.pdf\" type=\"application/pdf\" download>Download PDF</a>"),
        "{page}"
    );
}

/// A book of everything a printer can choke on: a missing image, a file that is not an image,
/// a table wider than the page, a 300-line code block, a lesson of one 50 000-character line.
fn hostile_book(dir: &Path) {
    std::fs::create_dir_all(dir.join("content")).expect("mkdir");
    std::fs::write(
        dir.join("book.toml"),
        "[book]\ntitle = \"Hostile\"\n[nimbook]\nunverified-numbers = \"allow\"\n# The missing picture is a located warning, and the book prints.\nbroken-links = \"warn\"\n",
    )
    .expect("toml");
    std::fs::write(
        dir.join("content/SUMMARY.md"),
        "# Summary\n\n- [Pictures](pictures.md)\n- [Long](long.md)\n",
    )
    .expect("summary");
    std::fs::write(
        dir.join("content/not-an-image.png"),
        b"this is text, not a PNG",
    )
    .expect("w");
    let header: Vec<String> = (0..40).map(|i| format!("column{i}")).collect();
    let rule: Vec<&str> = (0..40).map(|_| "---").collect();
    let row: Vec<String> = (0..40)
        .map(|i| format!("{}", 1_000_000_007u64 * i))
        .collect();
    let code: Vec<String> = (0..300).map(|i| format!("let line_{i} = {i};")).collect();
    std::fs::write(
        dir.join("content/pictures.md"),
        format!(
            "# Pictures\n\n![a missing picture](missing.png)\n\n![text in disguise](not-an-image.png)\n\n| {} |\n| {} |\n| {} |\n\n```rust\n{}\n```\n",
            header.join(" | "),
            rule.join(" | "),
            row.join(" | "),
            code.join("\n")
        ),
    )
    .expect("lesson");
    let long: String = "x".repeat(50_000);
    std::fs::write(dir.join("content/long.md"), format!("# Long\n\n{long}\n")).expect("w");
}

#[test]
fn bad_input_prints_with_located_warnings() {
    let tmp = tempfile::tempdir().expect("temp");
    hostile_book(tmp.path());
    let out = tmp.path().join("h.pdf");
    let o = run(&["pdf", "-o", out.to_str().expect("utf-8")], tmp.path());
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("warning") && err.contains("missing.png"),
        "{err}"
    );
    assert!(err.contains("not-an-image.png"), "{err}");
    assert!(err.contains("--> content/pictures.md:3:1"), "{err}");
    assert!(err.contains("wider than the printed page"), "{err}");
    let text = text_of(&out);
    assert!(
        text.contains("a missing picture"),
        "the image's text is printed instead"
    );
    assert!(
        text.contains("let line_299 = 299;"),
        "the long code block is printed whole"
    );
    // The long line prints whole, broken where it must be.
    let xs = text.chars().filter(|c| *c == 'x').count();
    assert!(xs >= 50_000, "{xs} of the 50 000 characters printed");
}

/// Raw HTML, footnotes and headings as authors of mdBook books write them.
#[test]
fn raw_html_footnotes_and_headings_print_as_the_page_reads() {
    let tmp = tempfile::tempdir().expect("temp");
    let dir = tmp.path();
    write_files(
        dir,
        &[
            (
                "book.toml",
                "[book]\ntitle = \"Raw\"\n[nimbook]\nunverified-numbers = \"allow\"\n",
            ),
            ("content/SUMMARY.md", "- [Raw](raw.md)\n"),
            (
                "content/dot.svg",
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\"><circle cx=\"4\" cy=\"4\" r=\"4\" fill=\"red\"/></svg>",
            ),
            (
                "content/raw.md",
                "# Raw\n\nCited here[^n].\n\n[^n]: The note.\n\n\
                 <details><summary>Summary words</summary>Body words</details>\n\n\
                 <div>\nText in a div\n</div>\n\n\
                 A dot <img src=\"dot.svg\" alt=\"a red dot\"> inline and <img src=\"gone.png\" alt=\"gone picture\">.\n\n\
                 <p>Before <img src=\"gone.png\" alt=\"spaced\"> after</p>\n\n\
                 ### Two levels down\n\nThe end.\n",
            ),
        ],
    );
    let out = dir.join("raw.pdf");
    let o = run(&["pdf", "-o", out.to_str().expect("utf-8")], dir);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    // The missing picture of raw HTML is a located warning, as a markdown image's is; the
    // picture that is there is not.
    assert!(
        err.contains("gone.png") && err.contains("--> content/raw.md:13:"),
        "{err}"
    );
    assert!(!err.contains("the image dot.svg"), "{err}");
    // `###` after `#` is printed one level down, so the PDF still conforms to PDF/UA-1.
    assert!(!err.contains("PDF/UA"), "{err}");
    let text = text_of(&out);
    // The footnote's mark is set against the word, with no space before the full stop.
    assert!(text.contains("here1."), "{text}");
    // The end of `<summary>` ends a line; line ends of the source are spaces, not breaks.
    assert!(!text.contains("Summary wordsBody"), "{text}");
    assert!(text.contains("Summary words\nBody words"), "{text}");
    assert!(text.contains("Text in a div\n"), "{text}");
    assert!(text.contains("[image: gone picture]"), "{text}");
    // Inside a block of raw HTML a picture keeps the spaces around it.
    assert!(text.contains("Before [image: spaced] after"), "{text}");
    assert!(
        !text.contains("a red dot"),
        "the picture is drawn, not described: {text}"
    );
}
