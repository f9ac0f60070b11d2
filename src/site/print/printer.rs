//! The state of one printing: the labels links point at, the files the world will hold (the
//! drawings in print colours, the book's images, read and checked before typesetting), the
//! warnings, and the answers appendix as it grows.

use std::collections::HashMap;
use std::path::Path;

use super::{markup, style, world};
use crate::diag::{Code, Diagnostic};
use crate::site::html::{attr, decode_attr, scan_tag, TagToken};
use crate::site::lesson::book::{Book, Lesson};
use crate::site::lesson::document::{Node, Target};
use crate::site::lesson::markdown::target_of;
use pulldown_cmark::Event;

/// What one lesson is in the printed book.
pub(crate) struct Chapter {
    /// Its source path relative to the source folder (`part/b.md`).
    pub(crate) path: String,
    /// Its title in `SUMMARY.md`.
    pub(crate) title: String,
    /// Its number (`2.1.`), if numbered.
    pub(crate) number: Option<String>,
    /// The level of Typst heading its `#` becomes.
    pub(crate) level: usize,
    /// Its text, to place warnings.
    pub(crate) file: Option<std::sync::Arc<crate::diag::SourceFile>>,
}

/// The Typst level of a markdown heading level (1 for `#`).
pub(crate) fn heading_level(level: pulldown_cmark::HeadingLevel) -> usize {
    level as usize
}

/// What an answer of the appendix answers.
pub(crate) enum Answer {
    /// Exercise number n of its lesson.
    Exercise(usize),
    /// A practice, by title.
    Practice(String),
}

/// One entry of the answers appendix.
pub(crate) struct AnswerEntry {
    /// The label of the question in the chapter.
    pub(crate) label: String,
    /// What it answers.
    pub(crate) what: Answer,
    /// The question, as Typst markup (for the teacher's key).
    pub(crate) question: String,
    /// The answer, as Typst markup.
    pub(crate) markup: String,
}

/// The answers of one chapter: its title and entries, and its worked answers.
pub(crate) struct ChapterAnswers {
    /// The chapter's title.
    pub(crate) title: String,
    /// Its entries, in order.
    pub(crate) entries: Vec<AnswerEntry>,
    /// Its worked-answers blocks, as Typst markup.
    pub(crate) worked: Vec<String>,
}

/// The labels links point at: a chapter's and each heading's.
#[derive(Default)]
pub(crate) struct Labels {
    targets: HashMap<(String, Option<String>), String>,
    fresh: usize,
}

impl Labels {
    /// The label of the heading with `anchor` in the lesson at `path`.
    pub(crate) fn heading(&mut self, path: &str, anchor: &str) -> String {
        match self
            .targets
            .get(&(path.to_string(), Some(anchor.to_string())))
        {
            Some(l) => l.clone(),
            None => self.fresh("h"),
        }
    }

    /// The label a link to `path` (and `anchor`) leads to, if that lesson is printed: the
    /// heading, or the chapter's start when the anchor is not a heading.
    pub(crate) fn target(&self, path: &str, anchor: Option<&str>) -> Option<String> {
        let key = |a: Option<&str>| (path.to_string(), a.map(str::to_string));
        self.targets
            .get(&key(anchor))
            .or_else(|| self.targets.get(&key(None)))
            .cloned()
    }

    /// A label not used before, `prefix` and a number.
    pub(crate) fn fresh(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    pub(super) fn insert(&mut self, path: &str, anchor: Option<&str>, label: String) {
        self.targets
            .entry((path.to_string(), anchor.map(str::to_string)))
            .or_insert(label);
    }
}

/// The state of one printing: labels, files for the world, warnings, the answers appendix.
pub(crate) struct Printer {
    pub(crate) labels: Labels,
    pub(crate) warnings: Vec<Diagnostic>,
    pub(crate) answers: Vec<ChapterAnswers>,
    pub(super) files: Vec<(String, Vec<u8>)>,
    drawings: HashMap<String, String>,
    /// Each image the lessons name, by source path: its path in the world, or why not.
    images: HashMap<String, Result<String, String>>,
    svg_style: String,
}

impl Printer {
    /// A printer for `lessons` of `book`: every image they name is read (through the book's
    /// confined reader) and checked before typesetting starts.
    pub(super) fn new(book: &Book, lessons: &[Lesson]) -> Self {
        let mut printer = Printer {
            labels: Labels::default(),
            warnings: Vec::new(),
            answers: Vec::new(),
            files: Vec::new(),
            drawings: HashMap::new(),
            images: HashMap::new(),
            svg_style: style::svg_style(),
        };
        for lesson in lessons {
            let page = lesson
                .chapter
                .path
                .as_deref()
                .map(crate::site::html::url_path);
            for node in &lesson.page.document.nodes {
                match node {
                    Node::Image(link) => printer.load_image(book, link.target.as_ref()),
                    Node::Markdown(Event::Html(html) | Event::InlineHtml(html)) => {
                        for (src, _) in html_images(html) {
                            let target = page.as_deref().and_then(|p| target_of(p, &src));
                            printer.load_image(book, target.as_ref());
                        }
                    }
                    _ => {}
                }
            }
        }
        printer
    }

    fn load_image(&mut self, book: &Book, target: Option<&Target>) {
        let Some(target) = target else {
            return;
        };
        if self.images.contains_key(&target.path) {
            return;
        }
        let read = read_image(book, &target.path).and_then(|bytes| {
            world::check_image(&bytes).map_err(|why| why.to_string())?;
            let path = format!("/images/{}", self.files.len());
            self.files.push((path.clone(), bytes));
            Ok(path)
        });
        self.images.insert(target.path.clone(), read);
    }

    /// The path in the world of the image at `url` (which leads to `target` in the book), or
    /// why it cannot be printed.
    pub(crate) fn image(&self, url: &str, target: Option<&Target>) -> Result<String, String> {
        let Some(target) = target else {
            return Err(format!(
                "the image {url} is not a file of the book, and the printed book fetches nothing; it is printed as its text"
            ));
        };
        match self.images.get(&target.path) {
            Some(Ok(path)) => Ok(path.clone()),
            Some(Err(why)) => Err(format!(
                "the image {url} cannot be printed: {why}; it is printed as its text"
            )),
            None => Err(format!("the image {url} was not read")),
        }
    }

    /// The path in the world of a drawing, in print colours (the same drawing once).
    pub(crate) fn drawing(&mut self, svg: &str) -> String {
        let styled = style::styled_svg(svg, &self.svg_style);
        if let Some(path) = self.drawings.get(&styled) {
            return path.clone();
        }
        let path = format!("/drawings/{}.svg", self.drawings.len());
        self.files.push((path.clone(), styled.clone().into_bytes()));
        self.drawings.insert(styled, path.clone());
        path
    }
}

/// The `src` and `alt` of an `<img>` tag, entities decoded; `None` for any other tag.
pub(crate) fn img_source(tag: &TagToken<'_>) -> Option<(String, String)> {
    if tag.name != "img" || tag.closing {
        return None;
    }
    let src = decode_attr(attr(tag.attrs, "src")?);
    let alt = attr(tag.attrs, "alt").map(decode_attr).unwrap_or_default();
    Some((src, alt))
}

/// The `src` and `alt` of each `<img>` tag in raw HTML.
fn html_images(html: &str) -> impl Iterator<Item = (String, String)> + '_ {
    html.match_indices('<')
        .filter_map(|(i, _)| scan_tag(html, i))
        .filter_map(|tag| img_source(&tag))
}

/// The bytes of the image at `path` (relative to the source folder), read through the book's
/// confined reader.
fn read_image(book: &Book, path: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let full = book.src.join(Path::new(path));
    let mut bytes = Vec::new();
    let mut file = book.files.open(&full).map_err(|r| {
        book.files
            .refused(&r, &book.files.name(&full), Code::MissingResource)
            .message
    })?;
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("it cannot be read: {e}"))?;
    Ok(bytes)
}

impl markup::LessonWriter<'_, '_> {
    /// Adds an entry to the answers appendix of the current chapter.
    pub(crate) fn answer(&mut self, entry: AnswerEntry) {
        if let Some(chapter) = self.printer.answers.last_mut() {
            chapter.entries.push(entry);
        }
    }
}
