//! The answer key: at the end of a handout, and as the teacher's file of its own that
//! `handout --answers` writes beside the handout (`FILE.answers.html` for `-o FILE.html`).
//!
//! The key at the end of a handout lists each exercise's answer and links to it. The teacher's
//! file stands alone, so it links nowhere; it gives each question in full with the answer the
//! engine computed, the "Show the answer" text the pages show, and the lesson's worked answers,
//! which graded mode (`[nimbook] answers = "hidden"`) leaves out of the pages.

use std::path::{Path, PathBuf};

use serde::Serialize;
use tera::Context;

use super::{handout_id, insert_book, render_template, stylesheet};
use crate::site::lesson::book::{Book, Lesson};
use crate::site::load::Fatal;
use crate::site::render::templates;

/// One lesson's part of an answer key.
#[derive(Serialize)]
pub(super) struct HandoutAnswers {
    /// The lesson's element id in the handout; empty in the teacher's file, which links nowhere.
    id: String,
    title: String,
    number: String,
    items: Vec<HandoutAnswer>,
    /// The lesson's worked answers, as HTML (the teacher's file only).
    worked: Vec<String>,
}

#[derive(Serialize)]
struct HandoutAnswer {
    /// The exercise's element id in the handout; empty in the teacher's file.
    target: String,
    /// "Exercise 3".
    label: String,
    /// The question as written (the teacher's file only).
    question: String,
    /// The answer expression, or the options of a choice.
    source: String,
    /// The answer the engine computed.
    answer: String,
    /// The "Show the answer" text, as HTML (the teacher's file only).
    shown: String,
}

/// The key of `lessons`. With the lessons' handout ids (`keys`, as [`lesson_keys`] makes them)
/// it is the handout's own key, linked to the exercises; without, the teacher's file.
pub(super) fn entries(
    lessons: &[Lesson],
    keys: Option<&[(String, String)]>,
) -> Vec<HandoutAnswers> {
    let mut out = Vec::new();
    for (n, lesson) in lessons.iter().enumerate() {
        let page = &lesson.page;
        // The handout's own key lists the lessons with exercises; the teacher's file also those
        // with worked answers only.
        if page.answers.is_empty() && (keys.is_some() || page.worked.is_empty()) {
            continue;
        }
        let key = keys.map(|k| k[n].1.as_str());
        out.push(HandoutAnswers {
            id: key.unwrap_or_default().to_string(),
            title: lesson.chapter.title.clone(),
            number: lesson.chapter.number.clone().unwrap_or_default(),
            items: page
                .answers
                .iter()
                .enumerate()
                .map(|(i, a)| HandoutAnswer {
                    target: key.map(|k| handout_id(k, &a.id)).unwrap_or_default(),
                    label: format!("Exercise {}", i + 1),
                    question: if key.is_some() {
                        String::new()
                    } else {
                        a.question.clone()
                    },
                    source: a.source.clone(),
                    answer: a.answer.clone(),
                    shown: if key.is_some() {
                        String::new()
                    } else {
                        a.shown.clone()
                    },
                })
                .collect(),
            worked: if key.is_some() {
                Vec::new()
            } else {
                page.worked.clone()
            },
        });
    }
    out
}

/// Where the teacher's key of the handout `file` goes: `FILE.answers.html` beside it.
pub(super) fn path_of(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map_or_else(|| "handout".into(), |s| s.to_string_lossy().into_owned());
    file.with_file_name(format!("{stem}.answers.html"))
}

/// The teacher's key of `lessons` as one self-contained HTML file.
pub(super) fn render(book: &Book, lessons: &[Lesson]) -> Result<String, Fatal> {
    let (tera, assets) = templates::load(book.own_templates())?;
    // Stylesheets inline like a handout's; a resource that cannot be inlined was already
    // reported for the handout itself.
    let css = stylesheet(&assets, &mut Vec::new());
    let mut ctx = Context::new();
    let book_title = insert_book(&mut ctx, book);
    ctx.insert("title", &format!("Answer key: {book_title}"));
    ctx.insert("css", &css);
    ctx.insert("script", "");
    ctx.insert("answers", &entries(lessons, None));
    ctx.insert("lessons", &Vec::<()>::new());
    render_template(&tera, &ctx)
}
