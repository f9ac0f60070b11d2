//! The printed book's main Typst source: the title page with what the build checked, the
//! contents, parts and chapters in `SUMMARY.md`'s order, and the answers appendix; then its
//! export as a tagged PDF.

use std::fmt::Write as _;
use std::ops::Range;
use std::sync::Arc;

use typst::diag::SourceDiagnostic;
use typst::foundations::Smart;
use typst::WorldExt as _;
use typst_pdf::{PdfOptions, PdfStandard, PdfStandards};

use super::markup::{self, LessonWriter};
use super::world::{BookWorld, PREAMBLE};
use super::{heading_level, Answer, Chapter, ChapterAnswers, Edition, Printer};
use crate::diag::{Code, Diagnostic, SourceFile};
use crate::site::lesson::book::{Book, Lesson};
use crate::site::lesson::document::Node;
use crate::site::lesson::report::Report;
use crate::site::load::Fatal;

/// A span of the main source and the lesson it was written from.
pub(crate) struct Segment {
    range: Range<usize>,
    file: Option<Arc<SourceFile>>,
}

/// The main source of the printed `lessons`, and which lesson each part of it came from.
pub(crate) fn source(
    printer: &mut Printer,
    book: &Book,
    lessons: &[Lesson],
    report: &Report,
    edition: Edition,
) -> (String, Vec<Segment>) {
    let chapters = chapters(book, lessons);
    label_headings(printer, &chapters, lessons);
    let mut out = String::new();
    let _ = writeln!(out, "#import \"{PREAMBLE}\": *");
    title_page(&mut out, book, report, edition);
    let mut segments = Vec::new();
    for (chapter, lesson) in chapters.iter().zip(printed(lessons)) {
        if let (Some(part), Edition::Book) = (lesson.chapter.part.as_deref(), edition) {
            out.push_str("\n#nb-part[");
            markup::text(&mut out, part);
            out.push_str("]\n");
        }
        printer.answers.push(ChapterAnswers {
            title: chapter.title.clone(),
            entries: Vec::new(),
            worked: Vec::new(),
        });
        let start = out.len();
        let mut body = String::new();
        let doc = &lesson.page.document;
        let mut writer = LessonWriter::new(printer, chapter, doc);
        chapter_start(&mut body, &mut writer);
        writer.write(&mut body);
        let worked = writer.worked();
        if let Some(answers) = printer.answers.last_mut() {
            answers.worked = worked;
        }
        if edition == Edition::Book {
            out.push_str(&body);
        }
        segments.push(Segment {
            range: start..out.len(),
            file: chapter.file.clone(),
        });
    }
    let hidden = book.config.answers_hidden();
    if edition == Edition::Key || !hidden {
        appendix(&mut out, printer, &chapters, edition);
    }
    (out, segments)
}

/// The lessons that are printed: those with a source file (a draft has none).
fn printed(lessons: &[Lesson]) -> impl Iterator<Item = &Lesson> {
    lessons.iter().filter(|l| l.chapter.path.is_some())
}

/// What each printed lesson is in the printed book: its title, number and heading level.
fn chapters(book: &Book, lessons: &[Lesson]) -> Vec<Chapter> {
    let parts = book.chapters.iter().any(|c| c.part.is_some());
    printed(lessons)
        .map(|lesson| (lesson, &lesson.chapter))
        .map(|(lesson, c)| Chapter {
            path: c
                .path
                .as_deref()
                .map(crate::site::html::url_path)
                .unwrap_or_default(),
            title: c.title.clone(),
            number: c.number.clone(),
            level: 1 + usize::from(parts) + c.depth,
            file: lesson.page.document.file.clone(),
        })
        .collect()
}

/// Gives every heading of every lesson a label, and each lesson one for its start, so that
/// links between lessons can be resolved before any is written.
fn label_headings(printer: &mut Printer, chapters: &[Chapter], lessons: &[Lesson]) {
    for (i, (chapter, lesson)) in chapters.iter().zip(printed(lessons)).enumerate() {
        let mut first = None;
        for (k, h) in lesson.page.document.headings().enumerate() {
            let label = format!("c{i}-{k}");
            if first.is_none() && h.level == pulldown_cmark::HeadingLevel::H1 {
                first = Some(label.clone());
            }
            printer.labels.insert(&chapter.path, Some(&h.anchor), label);
        }
        let start = first.unwrap_or_else(|| format!("c{i}"));
        printer.labels.insert(&chapter.path, None, start);
    }
}

/// A lesson starts on a new page, with its title when its text does not open with a `#`
/// heading.
fn chapter_start(out: &mut String, w: &mut LessonWriter<'_, '_>) {
    out.push_str("\n#nb-chapter-break()\n");
    let opens_with_title = w.doc.nodes.iter().find_map(|n| match n {
        Node::Heading(h) => Some(heading_level(h.level) == 1),
        Node::Markdown(pulldown_cmark::Event::Html(_) | pulldown_cmark::Event::SoftBreak) => None,
        _ => Some(false),
    });
    if opens_with_title != Some(true) {
        let label = w
            .printer
            .labels
            .target(&w.chapter.path, None)
            .unwrap_or_default();
        let _ = write!(out, "#heading(level: {})[", w.chapter.level);
        if let Some(n) = &w.chapter.number {
            markup::text(out, n);
            out.push(' ');
        }
        markup::text(out, &w.chapter.title);
        let _ = writeln!(out, "] <{label}>\n");
    }
}

/// The title page: the book, its authors, and what its build checked.
fn title_page(out: &mut String, book: &Book, report: &Report, edition: Edition) {
    let b = &book.config.book;
    let title = b.title.clone().unwrap_or_else(|| "nimbook".into());
    let title = match edition {
        Edition::Book => title,
        Edition::Key => format!("Answer key: {title}"),
    };
    let (lang, region) = language(&b.language);
    out.push_str("#show: nb-book.with(title: ");
    markup::string(out, &title);
    out.push_str(", authors: (");
    for a in &b.authors {
        markup::string(out, a);
        out.push_str(", ");
    }
    out.push_str("), lang: ");
    markup::string(out, &lang);
    out.push_str(", region: ");
    match region {
        Some(r) => markup::string(out, &r),
        None => out.push_str("none"),
    }
    out.push_str(", description: ");
    match &b.description {
        Some(d) => markup::string(out, d),
        None => out.push_str("none"),
    }
    out.push_str(", summary: (");
    for line in summary(report) {
        out.push('[');
        markup::text(out, &line);
        out.push_str("], ");
    }
    out.push_str("))\n");
}

/// The lines of the checking summary: the build's own summary line and its number account.
fn summary(report: &Report) -> Vec<String> {
    let n = report.numbers;
    vec![
        report.summary(),
        format!(
            "numbers: {} verified, {} unverified, {} exempt",
            n.verified, n.unverified, n.exempt
        ),
    ]
}

/// Typst's language and region from `book.toml`'s `language` (`en`, `pt-BR`); a language
/// that is not two or three letters is English.
fn language(language: &str) -> (String, Option<String>) {
    let mut parts = language.split(['-', '_']);
    let lang = parts.next().unwrap_or("en").to_ascii_lowercase();
    let lang = if (2..=3).contains(&lang.len()) && lang.chars().all(|c| c.is_ascii_alphabetic()) {
        lang
    } else {
        "en".to_string()
    };
    let region = parts
        .next()
        .filter(|r| r.len() == 2 && r.chars().all(|c| c.is_ascii_alphabetic()))
        .map(str::to_ascii_uppercase);
    (lang, region)
}

/// The answers appendix: per chapter, each question's answer with a link back to it, and the
/// worked answers.
fn appendix(out: &mut String, printer: &Printer, chapters: &[Chapter], edition: Edition) {
    let any = printer
        .answers
        .iter()
        .any(|a| !a.entries.is_empty() || (edition == Edition::Key && !a.worked.is_empty()));
    if !any {
        return;
    }
    let level = chapters.iter().map(|c| c.level).min().unwrap_or(1);
    let _ = write!(
        out,
        "\n#nb-chapter-break()\n#heading(level: {level})[Answers]\n\n"
    );
    for chapter in &printer.answers {
        if chapter.entries.is_empty() && chapter.worked.is_empty() {
            continue;
        }
        let _ = write!(out, "#heading(level: {}, outlined: false)[", level + 1);
        markup::text(out, &chapter.title);
        out.push_str("]\n\n");
        for entry in &chapter.entries {
            let what = match &entry.what {
                Answer::Exercise(n) => format!("Exercise {n}"),
                Answer::Practice(title) => format!("Practice: {title}"),
            };
            if edition == Edition::Key {
                // The teacher's key stands alone: each question with its answer.
                out.push_str("#strong[");
                markup::text(out, &what);
                out.push_str(".] ");
                out.push_str(&entry.question);
                out.push_str("\n\n#pad(left: 1.5em)[");
                out.push_str(&entry.markup);
                out.push_str("]\n\n");
                continue;
            }
            let _ = write!(out, "#strong[#link(<{}>)[", entry.label);
            markup::text(out, &what);
            out.push_str("]]: ");
            out.push_str(&entry.markup);
            out.push_str("\n\n");
        }
        for worked in &chapter.worked {
            // The block's own summary ("Worked answers") is its first line.
            out.push_str("#nb-box[");
            out.push_str(worked);
            out.push_str("]\n\n");
        }
    }
}

/// An error of Typst, placed in the lesson whose part of the source it is in.
pub(crate) fn typeset_error(
    world: &BookWorld,
    segments: &[Segment],
    e: &SourceDiagnostic,
) -> Diagnostic {
    let at = world.range(e.span).map(|r| r.start);
    let in_main = e.span.id() == Some(world.main_source().id());
    let lesson = segments
        .iter()
        .find(|s| in_main && at.is_some_and(|a| s.range.contains(&a)));
    let d = Diagnostic::error(
        Code::TypesetError,
        format!("the printed book could not be typeset: {}", e.message),
    );
    let d = match lesson.and_then(|s| s.file.as_ref()) {
        Some(file) => d.note(format!("in the printed form of {}", file.name)),
        None => d,
    };
    d.help("this is a bug of nimbook's printing; the site builds as before")
}

/// The PDF of a typeset book: tagged and conforming to PDF/UA-1, with its title and language;
/// dated only by `SOURCE_DATE_EPOCH`. If the book cannot conform to PDF/UA-1 it is still
/// tagged, and a warning says why it does not conform.
pub(crate) fn export(
    document: &typst_layout::PagedDocument,
    title: &str,
) -> Result<(Vec<u8>, Vec<Diagnostic>), Fatal> {
    let options = |standards: PdfStandards| PdfOptions {
        ident: Smart::Custom(format!("nimbook:{title}")),
        creator: Smart::Custom(Some(format!("nimbook {}", env!("CARGO_PKG_VERSION")))),
        timestamp: source_date(),
        standards,
        tagged: true,
        ..PdfOptions::default()
    };
    let ua = PdfStandards::new(&[PdfStandard::Ua_1]).map_err(|e| {
        Box::new(Diagnostic::error(
            Code::TypesetError,
            e.message().to_string(),
        ))
    })?;
    match typst_pdf::pdf(document, &options(ua)) {
        Ok(pdf) => Ok((pdf, Vec::new())),
        Err(errors) => {
            let why = grouped(errors.iter().map(|e| e.message.to_string()));
            let pdf =
                typst_pdf::pdf(document, &options(PdfStandards::default())).map_err(|errors| {
                    let why: Vec<String> = errors.iter().map(|e| e.message.to_string()).collect();
                    Box::new(Diagnostic::error(
                        Code::TypesetError,
                        format!(
                            "the printed book could not be written as PDF: {}",
                            why.join("; ")
                        ),
                    ))
                })?;
            let warning = Diagnostic::warning(
                Code::PrintLayout,
                format!(
                    "the PDF is tagged but does not conform to PDF/UA-1: {}",
                    why.join("; ")
                ),
            );
            Ok((pdf, vec![warning]))
        }
    }
}

/// Each distinct message once, in order of first appearance, with how often it came when more
/// than once.
fn grouped(messages: impl Iterator<Item = String>) -> Vec<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for m in messages {
        match counts.iter_mut().find(|(seen, _)| *seen == m) {
            Some((_, n)) => *n += 1,
            None => counts.push((m, 1)),
        }
    }
    counts
        .into_iter()
        .map(|(m, n)| if n > 1 { format!("{m} ({n} times)") } else { m })
        .collect()
}

/// The date `SOURCE_DATE_EPOCH` gives (seconds since 1970, UTC), for reproducible builds.
fn source_date() -> Option<typst_pdf::Timestamp> {
    let secs: i64 = std::env::var("SOURCE_DATE_EPOCH")
        .ok()?
        .trim()
        .parse()
        .ok()?;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    let datetime = typst::foundations::Datetime::from_ymd_hms(
        i32::try_from(y).ok()?,
        m,
        d,
        u8::try_from(rest / 3600).ok()?,
        u8::try_from(rest % 3600 / 60).ok()?,
        u8::try_from(rest % 60).ok()?,
    )?;
    Some(typst_pdf::Timestamp::new_utc(datetime))
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// algorithm).
fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_since_1970_are_calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        // 2000-02-29, a leap day of a century divisible by 400: 30 years and 59 days on,
        // 7 leap days between.
        assert_eq!(civil_from_days(30 * 365 + 7 + 59), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
    }

    #[test]
    fn repeated_messages_are_counted_once() {
        let got = grouped(["a", "b", "a", "a"].into_iter().map(String::from));
        assert_eq!(got, ["a (3 times)", "b"]);
    }

    #[test]
    fn a_language_tag_gives_a_language_and_a_region() {
        assert_eq!(language("en"), ("en".into(), None));
        assert_eq!(language("pt-BR"), ("pt".into(), Some("BR".into())));
        assert_eq!(language("English"), ("en".into(), None));
    }
}
