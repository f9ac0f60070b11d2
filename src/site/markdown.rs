//! One lesson from markdown to HTML, with its claims checked on the way.
//!
//! pulldown-cmark yields events with byte offsets into the lesson. The pass below rewrites the
//! event stream in place: `nim` blocks and `` `nim: …` `` code spans go to the checker (their
//! offsets become file offsets, so diagnostics point at the right column) and come back as
//! MathML with a verified mark; other fenced code is highlighted; headings get anchors. No
//! regular expression touches the markdown and no placeholder string is swapped in later.

use std::collections::HashMap;
use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::claims;
use super::coverage::{Coverage, Lints, NumberCounts};
use super::highlight::highlight;
use super::html::{escape, is_external, resolve_relative};
use super::mathml;
use crate::claim::{LessonChecker, MappedText};
use crate::diag::{Code, Diagnostic};

/// A heading of a page, for the outline.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Heading {
    /// 1 for `#`, 2 for `##`, …
    pub level: u8,
    /// The anchor id.
    pub id: String,
    /// The text.
    pub title: String,
}

/// A link from a lesson to a page of the book, to be checked once every page is known.
#[derive(Debug, Clone)]
pub struct InternalLink {
    /// The target's source path relative to the source folder (`a/b.md`), or the page's own
    /// path for a bare `#anchor`.
    pub target: String,
    /// The anchor after `#`, if any.
    pub anchor: Option<String>,
    /// Where the link stands in the lesson.
    pub span: Range<usize>,
}

/// A lesson rendered to HTML.
#[derive(Debug, Clone)]
pub struct RenderedPage {
    /// The body HTML.
    pub html: String,
    /// The headings, in order.
    pub headings: Vec<Heading>,
    /// Links to pages and anchors of the book.
    pub links: Vec<InternalLink>,
    /// The answer key of the page's exercises, in document order.
    pub answers: Vec<crate::claim::AnswerKey>,
    /// The lesson's number account (see [`super::coverage`]).
    pub numbers: NumberCounts,
}

/// Rewrites a link to a `.md` lesson into a link to its page, and records it for checking.
fn internal_link(
    page: &str,
    url: &str,
    span: Range<usize>,
    links: &mut Vec<InternalLink>,
) -> Option<String> {
    if url.is_empty() || is_external(url) {
        return None;
    }
    let (path, anchor) = match url.split_once('#') {
        Some((p, a)) => (p, Some(a.to_string())),
        None => (url, None),
    };
    let target = if path.is_empty() {
        page.to_string()
    } else {
        resolve_relative(page, path).unwrap_or_else(|| format!("../{path}"))
    };
    links.push(InternalLink {
        target,
        anchor: anchor.clone(),
        span,
    });
    let rewritten = path.strip_suffix(".md").map(|stem| format!("{stem}.html"));
    rewritten.map(|p| match anchor {
        Some(a) => format!("{p}#{a}"),
        None => p,
    })
}

/// The markdown extensions nimbook enables.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_MATH
}

/// Renders the lesson held by `checker` (whose source path, relative to the source folder, is
/// `page`), checking every claim in document order and keeping its number account under
/// `lints`.
pub fn render(checker: &mut LessonChecker, page: &str, lints: Lints) -> RenderedPage {
    let mut links = Vec::new();
    let file = std::sync::Arc::clone(checker.file());
    let source = file.text.as_str();
    let mut coverage = Coverage::new(source, lints);
    let events: Vec<(Event<'_>, Range<usize>)> = Parser::new_ext(source, options())
        .into_offset_iter()
        .collect();
    let mut out: Vec<Event<'_>> = Vec::with_capacity(events.len());
    let mut headings = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut i = 0;
    while i < events.len() {
        let (event, range) = &events[i];
        coverage.structure(event);
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split(|c: char| c.is_whitespace() || c == ',')
                        .next()
                        .unwrap_or("")
                        .to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                let mut block = MappedText::default();
                let mut j = i + 1;
                while j < events.len() {
                    match &events[j].0 {
                        Event::Text(t) => block.push(t, text_offset(source, t, &events[j].1)),
                        Event::End(TagEnd::CodeBlock) => break,
                        _ => {}
                    }
                    j += 1;
                }
                let html = if lang == "nim" {
                    let results = checker.check_block(&block);
                    coverage.claims(&results, checker);
                    claims::block(&results)
                } else if lang == "nimbook" {
                    super::directives::render(checker, &block)
                } else if lang.is_empty() {
                    format!("<pre><code>{}</code></pre>\n", escape(&block.text))
                } else {
                    format!(
                        "<pre class=\"code\"><code class=\"language-{}\">{}</code></pre>\n",
                        escape(&lang),
                        highlight(&block.text, &lang)
                    )
                };
                out.push(Event::Html(CowStr::from(html)));
                i = j + 1;
                continue;
            }
            Event::Code(code) if code.trim_start().starts_with("nim:") => {
                let offset = text_offset(source, code, range);
                let lead = code.len() - code.trim_start().len() + "nim:".len();
                let body = &code[lead..];
                let text = MappedText::contiguous(body, offset + lead);
                let result = checker.check_inline(&text);
                coverage.span(&result, checker);
                out.push(Event::InlineHtml(CowStr::from(claims::inline(&result))));
            }
            Event::InlineMath(tex) | Event::DisplayMath(tex) => {
                let display = matches!(event, Event::DisplayMath(_));
                coverage.latex(tex, text_offset(source, tex, range));
                match mathml::render_tex(tex, display) {
                    Ok(html) => out.push(Event::InlineHtml(CowStr::from(html))),
                    Err(reason) => {
                        checker.push_error(
                            Diagnostic::error(Code::LatexError, format!("LaTeX error: {reason}"))
                                .at(&file, range.clone())
                                .label("this math does not parse"),
                        );
                        out.push(Event::Code(tex.clone()));
                    }
                }
            }
            Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }) => {
                let mut title = String::new();
                let mut j = i + 1;
                while j < events.len() && !matches!(events[j].0, Event::End(TagEnd::Heading(_))) {
                    match &events[j].0 {
                        Event::Text(t) => title.push_str(&super::coverage::shown(t)),
                        Event::Code(t) => title.push_str(t),
                        _ => {}
                    }
                    j += 1;
                }
                let base = id.as_ref().map_or_else(|| slug(&title), |s| s.to_string());
                let n = ids.entry(base.clone()).or_insert(0);
                let anchor = if *n == 0 {
                    base.clone()
                } else {
                    format!("{base}-{n}")
                };
                *n += 1;
                headings.push(Heading {
                    level: heading_number(*level),
                    id: anchor.clone(),
                    title: title.clone(),
                });
                out.push(Event::Start(Tag::Heading {
                    level: *level,
                    id: Some(CowStr::from(anchor.clone())),
                    classes: classes.clone(),
                    attrs: attrs.clone(),
                }));
                // The anchor is for the mouse: hidden from screen readers (the heading says it
                // all) and so out of the Tab order too, or a keyboard would land on nothing.
                out.push(Event::InlineHtml(CowStr::from(format!(
                    "<a class=\"anchor\" href=\"#{}\" aria-hidden=\"true\" tabindex=\"-1\">#</a>",
                    escape(&anchor)
                ))));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest = internal_link(page, dest_url, range.clone(), &mut links)
                    .map_or_else(|| dest_url.clone(), CowStr::from);
                out.push(Event::Start(Tag::Link {
                    link_type: *link_type,
                    dest_url: dest,
                    title: title.clone(),
                    id: id.clone(),
                }));
            }
            // A wide table scrolls in its own box instead of widening the page.
            Event::Start(Tag::Table(_)) => {
                out.push(Event::Html(CowStr::from("<div class=\"table-wrap\">")));
                out.push(event.clone());
            }
            Event::End(TagEnd::Table) => {
                out.push(event.clone());
                out.push(Event::Html(CowStr::from("</div>\n")));
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                let _ = internal_link(page, dest_url, range.clone(), &mut links);
                out.push(event.clone());
            }
            Event::Text(t) => match coverage.prose(t, text_offset(source, t, range)) {
                std::borrow::Cow::Borrowed(_) => out.push(event.clone()),
                std::borrow::Cow::Owned(shown) => out.push(Event::Text(CowStr::from(shown))),
            },
            other => out.push(other.clone()),
        }
        i += 1;
    }
    let numbers = coverage.finish(checker);
    let mut html = String::with_capacity(source.len() * 2);
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    RenderedPage {
        html,
        headings,
        links,
        answers: std::mem::take(&mut checker.answers),
        numbers,
    }
}

/// Where the text of an event begins in the file: inside its range, found by search because
/// code spans and indented blocks strip characters around it.
fn text_offset(source: &str, text: &str, range: &Range<usize>) -> usize {
    let slice = source.get(range.clone()).unwrap_or("");
    if slice == text {
        return range.start;
    }
    slice.find(text).map_or(range.start, |i| range.start + i)
}

fn heading_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// A URL fragment from heading text: lower case, words joined by `-`.
pub fn slug(title: &str) -> String {
    let mut s = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if (c.is_whitespace() || c == '-' || c == '_') && !s.ends_with('-') && !s.is_empty()
        {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() {
        "section".into()
    } else {
        s
    }
}
