//! `nimbook handout`: chapters as one self-contained HTML file, to mail, archive or print.
//!
//! A handout must open anywhere, years later, with no network and no site beside it. So
//! everything a page loads is put inside the file: the stylesheets are inlined in a `<style>`,
//! the math font becomes a `data:` URI, an `<img>` of an SVG from the book becomes the SVG
//! itself and any other local resource a `data:` URI. A resource on another host cannot be
//! inlined; it is dropped with a warning rather than fetched when the file is read.
//!
//! The lessons are checked exactly as `build` checks them, and a content error writes nothing.
//! Heading anchors are unique within a lesson but not across lessons, so every `id` is prefixed
//! with its lesson's key, and links are rewritten to match: `#x` within a lesson, and
//! `other.html#x` to an included lesson, become in-file anchors; a link to a lesson that is not
//! in the handout loses its `href` (it would lead nowhere). The rewrite walks the HTML tag by
//! tag with the same small scanner as the search index, in one linear pass.

mod key;
mod rewrite;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::Serialize;
use tera::Context;

use crate::diag::{Code, Diagnostic};
use crate::site::html::url_path;
use crate::site::lesson::book::{Book, Lesson};
use crate::site::lesson::report::{Progress, Report};
use crate::site::load::config::TextDirection;
use crate::site::load::{Fatal, Options};
use crate::site::render::templates;
use rewrite::{inline_css_urls, PageRewrite};

#[derive(Serialize)]
struct HandoutLesson {
    id: String,
    title: String,
    number: String,
    content: String,
}

/// The id an element of a lesson gets in the handout: prefixed by the lesson's key, so the ids
/// of different lessons cannot clash.
fn handout_id(key: &str, id: &str) -> String {
    format!("{key}--{id}")
}

#[derive(Serialize)]
struct HandoutBook<'a> {
    title: &'a str,
    authors: &'a [String],
    language: &'a str,
    direction: TextDirection,
}

/// Puts the book's title, authors, language and direction in `ctx` as `book`; returns the
/// title (the handout and the answer key both name the book by it).
pub(super) fn insert_book(ctx: &mut Context, book: &Book) -> String {
    let b = &book.config.book;
    let title = b.title.clone().unwrap_or_else(|| "nimbook".into());
    ctx.insert(
        "book",
        &HandoutBook {
            title: &title,
            authors: &b.authors,
            language: &b.language,
            direction: b.text_direction,
        },
    );
    title
}

fn warning(message: impl Into<String>) -> Diagnostic {
    Diagnostic::warning(Code::MissingResource, message)
}

/// A chapter's source path as written on the command line: relative, `/` separators.
fn source_name(path: &Path) -> String {
    url_path(path)
}

/// `nimbook handout`: checks the chosen chapters (or all with `all`) and writes them to `file`
/// as one HTML file. An unknown chapter name is a usage error (the returned `Fatal`); content
/// errors come back in the report and nothing is written.
/// The file is `options.output`, which a handout needs.
pub fn handout(options: &Options, names: &[String], all: bool) -> Result<Report, Fatal> {
    let Some(file) = options.output.as_deref() else {
        return Err(Box::new(
            Diagnostic::error(Code::IoError, "a handout needs a file to be written to")
                .help("name it with `-o FILE.html`"),
        ));
    };
    let (mut book, diags) = Book::load(options)?;
    if !diags.is_empty() {
        return Ok(Report {
            errors: diags.len(),
            diagnostics: diags,
            ..Report::default()
        });
    }
    if !all {
        choose_chapters(&mut book, names)?;
    }
    book.chapters.retain(|c| c.path.is_some());
    if book.chapters.is_empty() {
        return Err(Box::new(Diagnostic::error(
            Code::UnknownChapter,
            "the book has no chapter with a source file to put in a handout",
        )));
    }
    if file.is_dir() {
        return Err(Box::new(Diagnostic::error(
            Code::IoError,
            format!(
                "{} is a folder; give the handout a file name such as handout.html",
                file.display()
            ),
        )));
    }
    let mut store = crate::site::cache::Store::open(options);
    book.settings.set_memo(store.view());
    let (lessons, mut report) = book.check(&Progress::none());
    store.finish(&mut report);
    if report.errors > 0 {
        return Ok(report);
    }
    if options.handout_pdf {
        return printed(&book, &lessons, report, file, options.answer_key);
    }
    let (html, warnings) = render(&book, &lessons)?;
    // A resource the confined reader refused is an error: the handout is not written.
    let refused = warnings
        .iter()
        .filter(|d| d.level == crate::diag::Level::Error)
        .count();
    report.errors += refused;
    report.diagnostics.extend(warnings);
    if refused > 0 {
        return Ok(report);
    }
    crate::site::output::write_file_atomically(file, html.as_bytes())?;
    report.output = Some(file.to_path_buf());
    if options.answer_key {
        let path = key::path_of(file);
        let html = key::render(&book, &lessons)?;
        crate::site::output::write_file_atomically(&path, html.as_bytes())?;
        report.answer_key = Some(path);
    }
    Ok(report)
}

/// `handout --pdf`: the chosen lessons typeset as `file`, and with `answers` the teacher's key
/// beside it (`FILE.answers.pdf`); nothing is written if either cannot be typeset.
fn printed(
    book: &Book,
    lessons: &[Lesson],
    mut report: Report,
    file: &Path,
    answers: bool,
) -> Result<Report, Fatal> {
    use crate::site::print::{typeset, Edition};
    let Some(pdf) = typeset(book, lessons, &mut report, Edition::Book)? else {
        return Ok(report);
    };
    let key = if answers {
        let Some(key) = typeset(book, lessons, &mut report, Edition::Key)? else {
            return Ok(report);
        };
        let mut path = key::path_of(file);
        path.set_extension("pdf");
        Some((path, key))
    } else {
        None
    };
    crate::site::output::write_file_atomically(file, &pdf)?;
    report.output = Some(file.to_path_buf());
    if let Some((path, key)) = key {
        crate::site::output::write_file_atomically(&path, &key)?;
        report.answer_key = Some(path);
    }
    Ok(report)
}

/// Keeps the chapters named on the command line (by source path or title), in the book's
/// order; a name that matches no chapter is a usage error that lists the chapters.
fn choose_chapters(book: &mut Book, names: &[String]) -> Result<(), Fatal> {
    let titles = chapter_titles(book);
    let mut wanted = HashSet::new();
    for name in names {
        let wanted_path = name.trim_start_matches("./").replace('\\', "/");
        let found = book.chapters.iter().zip(&titles).position(|(c, title)| {
            c.path.as_ref().is_some_and(|p| {
                source_name(p) == wanted_path
                    || title.trim().eq_ignore_ascii_case(name.trim())
                    || c.title.trim().eq_ignore_ascii_case(name.trim())
            })
        });
        match found {
            Some(i) => {
                wanted.insert(i);
            }
            None => {
                let list = book
                    .chapters
                    .iter()
                    .zip(&titles)
                    .filter_map(|(c, t)| {
                        c.path.as_ref().map(|p| format!("{} ({t})", source_name(p)))
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(Box::new(
                    Diagnostic::error(
                        Code::UnknownChapter,
                        format!("no chapter named `{name}` in this book"),
                    )
                    .note(format!("available chapters: {list}"))
                    .help("name a chapter by its source path or its title, or use --all"),
                ));
            }
        }
    }
    // The book's order, whatever the order of the arguments.
    let chapters = std::mem::take(&mut book.chapters);
    book.chapters = chapters
        .into_iter()
        .enumerate()
        .filter(|(i, _)| wanted.contains(i))
        .map(|(_, c)| c)
        .collect();
    Ok(())
}

/// The title of each chapter, as a reader would name it.
fn chapter_titles(book: &Book) -> Vec<String> {
    // In a book without SUMMARY.md a chapter's title is its first `#` heading, which the
    // chapter list only learns when the lesson is rendered: read it now, cheaply.
    let walked = !book.src.join("SUMMARY.md").is_file();
    book.chapters
        .iter()
        .map(|c| match (&c.path, walked) {
            (Some(p), true) => book
                .sources
                .get(p)
                .and_then(|s| first_heading(&s.file.text))
                .unwrap_or_else(|| c.title.clone()),
            _ => c.title.clone(),
        })
        .collect()
}

/// The text of the first level-1 heading of a markdown text (a lesson as the book read it).
fn first_heading(text: &str) -> Option<String> {
    use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
    let mut title: Option<String> = None;
    for event in Parser::new_ext(text, crate::site::lesson::markdown::options()) {
        match (&mut title, event) {
            (
                None,
                Event::Start(Tag::Heading {
                    level: HeadingLevel::H1,
                    ..
                }),
            ) => title = Some(String::new()),
            (Some(t), Event::Text(s) | Event::Code(s)) => t.push_str(&s),
            (Some(_), Event::End(TagEnd::Heading(_))) => break,
            _ => {}
        }
    }
    title
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}

/// The key of a lesson: a slug of its page's path, unique in the handout.
fn lesson_keys(lessons: &[Lesson]) -> Vec<(String, String)> {
    let mut seen = HashSet::new();
    lessons
        .iter()
        .filter_map(|l| l.chapter.out_path())
        .map(|p| {
            let url = url_path(&p);
            let base = crate::site::html::slug(url.trim_end_matches(".html"));
            let mut key = base.clone();
            let mut n = 1;
            while !seen.insert(key.clone()) {
                n += 1;
                key = format!("{base}-{n}");
            }
            (url, key)
        })
        .collect()
}

/// Renders the handout into one string, with any warnings about resources it could not inline.
pub(super) fn render(book: &Book, lessons: &[Lesson]) -> Result<(String, Vec<Diagnostic>), Fatal> {
    let (tera, assets) = templates::load(book.own_templates())?;
    let mut warnings = Vec::new();
    let keys = lesson_keys(lessons);
    let by_url: BTreeMap<&str, &str> = keys.iter().map(|(u, k)| (u.as_str(), k.as_str())).collect();
    let mut items = Vec::new();
    // In graded mode the handout, like the pages, carries no key: `--answers` writes it apart.
    let answers = if book.config.answers_hidden() {
        Vec::new()
    } else {
        key::entries(lessons, Some(&keys))
    };
    for (lesson, (url, key)) in lessons.iter().zip(&keys) {
        let source_dir = lesson
            .chapter
            .path
            .as_ref()
            .and_then(|p| p.parent())
            .map_or_else(|| book.src.clone(), |d| book.src.join(d));
        let page = PageRewrite {
            key,
            url,
            included: &by_url,
            source_dir: &source_dir,
            files: &book.files,
            source: lesson
                .chapter
                .path
                .as_ref()
                .and_then(|p| book.sources.get(p))
                .map(|s| &s.file),
        };
        items.push(HandoutLesson {
            id: key.clone(),
            title: lesson.chapter.title.clone(),
            number: lesson.chapter.number.clone().unwrap_or_default(),
            content: page.rewrite(&lesson.page.html, &mut warnings),
        });
    }
    let css = stylesheet(&assets, &mut warnings);
    let mut ctx = Context::new();
    let book_title = insert_book(&mut ctx, book);
    let title = match items.as_slice() {
        [one] => one.title.clone(),
        _ => book_title,
    };
    ctx.insert("title", &title);
    ctx.insert("css", &css);
    // The exercises' script comes along whenever there are exercises, graded or not.
    let has_answers = lessons.iter().any(|l| !l.page.answers.is_empty());
    ctx.insert("script", &script(&assets, &items, has_answers));
    ctx.insert("answers", &answers);
    ctx.insert("lessons", &items);
    Ok((render_template(&tera, &ctx)?, warnings))
}

/// Renders `handout.html`, which makes both the handout and the teacher's answer key.
pub(super) fn render_template(tera: &tera::Tera, ctx: &Context) -> Result<String, Fatal> {
    tera.render("handout.html", ctx).map_err(|e| {
        Box::new(Diagnostic::error(
            Code::TemplateError,
            format!("template handout.html failed: {e}"),
        ))
    })
}

/// The handout's one script. The page script (keyboard-reachable scroll boxes) is inlined like
/// the styles; the play widgets' script only when a lesson has one; the exercises' script when
/// a lesson has an exercise (`has_answers`, which the key at the end answers for paper) or a
/// practice.
fn script(assets: &BTreeMap<String, String>, items: &[HandoutLesson], has_answers: bool) -> String {
    let has_widget = items.iter().any(|l| l.content.contains("nim-widget"));
    let has_exercise = has_answers || items.iter().any(|l| l.content.contains("nim-practice"));
    let mut script = String::new();
    for (name, wanted) in [
        ("page.js", true),
        ("widget.js", has_widget),
        ("exercise.js", has_exercise),
    ] {
        if let Some(js) = assets.get(name).filter(|_| wanted) {
            script.push_str(&js.replace("</", "<\\/"));
            script.push('\n');
        }
    }
    script
}

/// The handout's one stylesheet: the site's styles, the highlighting, the math styles and the
/// handout's own, their URLs inlined.
pub(super) fn stylesheet(
    assets: &BTreeMap<String, String>,
    warnings: &mut Vec<Diagnostic>,
) -> String {
    let mut css = String::new();
    for name in ["style.css", "highlight.css", "math.css", "handout.css"] {
        let text = match name {
            "highlight.css" => crate::site::lesson::highlight::stylesheet(),
            _ => assets.get(name).cloned().unwrap_or_default(),
        };
        css.push_str(&format!("/* {name} */\n"));
        css.push_str(&inline_css_urls(&text, warnings));
        css.push('\n');
    }
    // Nothing in a stylesheet may end the <style> element early.
    css.replace("</", "<\\/")
}
