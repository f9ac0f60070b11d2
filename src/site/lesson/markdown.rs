//! One lesson from markdown to a checked document, and from that to HTML.
//!
//! pulldown-cmark yields events with byte offsets into the lesson. The pass below walks them
//! once and builds the lesson's [`Document`]: `nim` blocks and `` `nim: …` `` code spans go to
//! the checker (their offsets become file offsets, so diagnostics point at the right column)
//! and come back as checked statements; `nimbook` blocks run their directives into typed
//! blocks; LaTeX is parsed; headings get their anchors and links their targets. The page's
//! writer (`page`) then writes the document as HTML. No regular expression touches the markdown
//! and no placeholder string is swapped in later.
//!
//! A [`Flavour`] says which book this is. In a nimbook book (`book.toml` has `[nimbook]`, or
//! the lessons are in `content/`),
//! `nim` fences are claims, `nimbook` fences are directives and `$…$` is LaTeX. In any other
//! book the markdown means what it means to mdBook: a `nim` fence is code in the Nim language
//! (a warning says so when its text would also read as claims, so claims never stop being checked
//! silently), `$` is a dollar sign, and with `[output.html] mathjax-support` the MathJax
//! delimiters `\( \)`, `\[ \]` and `$$` become MathML at build time. Both flavours get mdBook's
//! admonitions, definition lists, footnotes gathered at the end with back-links, and hidden
//! `# ` lines in Rust code.

use std::collections::HashMap;
use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::context::LessonContext;
use super::coverage::{Coverage, NumberCounts};
use super::document::{self, Document, Link, Node, Target, Tex};
use super::mathml;
pub(crate) use super::page::Fragment;
use crate::claim::MappedText;
use crate::diag::{Code, Diagnostic};
use crate::site::html::{is_external, join_relative, mdbook_id, slug};
use crate::site::load::lints::Lints;

/// A heading of a page, for the outline.
#[derive(Debug, Clone, serde::Serialize)]
pub(crate) struct Heading {
    /// 1 for `#`, 2 for `##`, …
    pub level: u8,
    /// The anchor id.
    pub id: String,
    /// The text.
    pub title: String,
    /// Where the heading starts in the lesson (for an editor's go-to-definition).
    #[serde(skip)]
    pub offset: usize,
}

/// A link from a lesson to a page of the book, to be checked once every page is known.
#[derive(Debug, Clone)]
pub(crate) struct InternalLink {
    /// The target's source path relative to the source folder (`a/b.md`), or the page's own
    /// path for a bare `#anchor`.
    pub target: String,
    /// The anchor after `#`, if any.
    pub anchor: Option<String>,
    /// Where the link stands in the lesson.
    pub span: Range<usize>,
}

/// A lesson rendered to HTML.
#[derive(Debug, Clone, Default)]
pub struct RenderedPage {
    /// The body HTML.
    pub html: String,
    /// The headings, in order.
    pub(crate) headings: Vec<Heading>,
    /// Links to pages and anchors of the book.
    pub(crate) links: Vec<InternalLink>,
    /// The answer key of the page's exercises, in document order.
    pub answers: Vec<super::context::AnswerKey>,
    /// The HTML of the lesson's worked-answers blocks (see `worked`), in document order; left
    /// out of `html` in graded mode.
    pub(crate) worked: Vec<String>,
    /// Every `id` in the page (headings, footnotes, raw `<a id>` tags): the anchors a link may
    /// name.
    pub(crate) anchors: Vec<String>,
    /// The lesson's number account (see [`NumberCounts`](crate::site::NumberCounts)).
    pub numbers: NumberCounts,
    /// Every directive of the lesson's `nimbook` blocks that drew something: its span and its
    /// HTML, in document order (what an editor shows on hover).
    pub(crate) drawn: Vec<(Range<usize>, String)>,
    /// What each `nim` block, `nimbook` block and `nim:` span became, where it stood: what the
    /// mdBook preprocessor puts in their place, leaving the rest of the chapter to mdBook. Kept
    /// only when the flavour asks ([`Flavour::fragments`]).
    pub(crate) fragments: Vec<Fragment>,
    /// The checked document the HTML was written from, for the other writers (the printed
    /// book) and for an editor (every statement as it was checked).
    pub(crate) document: Document,
}

/// Which markdown a book speaks: nimbook's, or mdBook's (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct Flavour {
    /// `nim` fences are claims, `nimbook` fences directives, `` `nim: …` `` spans inline claims.
    pub claims: bool,
    /// `$…$` and `$$…$$` are LaTeX.
    pub dollar_math: bool,
    /// MathJax's delimiters are LaTeX: `\( \)`, `\[ \]` and `$$`.
    pub mathjax: bool,
    /// Curly quotes and dashes.
    pub smart_punctuation: bool,
    /// `Term` / `: definition` lists.
    pub definition_lists: bool,
    /// `> [!NOTE]` admonitions.
    pub admonitions: bool,
    /// Heading ids as mdBook makes them (`A_b c` → `a_b-c`) instead of nimbook's slugs.
    pub mdbook_ids: bool,
    /// How code blocks are shown: hidden lines, the playground.
    pub code: super::codelines::CodeSettings,
    /// Keep each claim's and directive's HTML with its place ([`RenderedPage::fragments`]).
    pub fragments: bool,
}

impl Flavour {
    /// A nimbook book with the default settings.
    pub(crate) fn nimbook() -> Self {
        Flavour {
            claims: true,
            dollar_math: true,
            mathjax: false,
            smart_punctuation: false,
            definition_lists: true,
            admonitions: true,
            mdbook_ids: false,
            code: super::codelines::CodeSettings::default(),
            fragments: false,
        }
    }

    /// The flavour of the book configured by `config`.
    pub(crate) fn of(config: &crate::site::load::config::Config) -> Self {
        let nimbook = config.is_nimbook();
        Flavour {
            claims: nimbook,
            dollar_math: nimbook,
            mathjax: config.html.mathjax_support,
            smart_punctuation: config.smart_punctuation(),
            definition_lists: config.html.definition_lists.unwrap_or(true),
            admonitions: config.html.admonitions.unwrap_or(true),
            mdbook_ids: !nimbook,
            code: super::codelines::CodeSettings::of(config),
            fragments: false,
        }
    }

    /// The pulldown-cmark extensions for this flavour.
    pub(crate) fn options(&self) -> Options {
        let mut o = Options::ENABLE_TABLES
            | Options::ENABLE_FOOTNOTES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS
            | Options::ENABLE_HEADING_ATTRIBUTES;
        if self.dollar_math || self.mathjax {
            o |= Options::ENABLE_MATH;
        }
        if self.smart_punctuation {
            o |= Options::ENABLE_SMART_PUNCTUATION;
        }
        if self.definition_lists {
            o |= Options::ENABLE_DEFINITION_LIST;
        }
        if self.admonitions {
            o |= Options::ENABLE_GFM;
        }
        o
    }
}

/// Where the address `url`, written in the lesson `page`, leads inside the book (as a
/// markdown link's target: an `<img src>` of raw HTML is read by the same rule); `None` for an
/// outside address.
#[cfg(feature = "pdf")]
pub(crate) fn target_of(page: &str, url: &str) -> Option<Target> {
    internal_link(page, url).map(|(target, _)| target)
}

/// Where a link within the book leads, and the address the page uses for it (a link to a `.md` lesson rewritten to its page); `None` for an outside link.
fn internal_link(page: &str, url: &str) -> Option<(Target, Option<String>)> {
    if url.is_empty() || is_external(url) {
        return None;
    }
    let (path, anchor) = match url.split_once('#') {
        Some((p, a)) => (p, Some(a.to_string())),
        None => (url, None),
    };
    // A query (`other.md?highlight=word`) is for the page's script, not part of its path.
    let (path, query) = match path.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path, None),
    };
    let target = if path.is_empty() {
        page.to_string()
    } else {
        join_relative(page, path)
    };
    let rewritten = path.ends_with(".md").then(|| {
        crate::site::html::url_path(&crate::site::load::book::page_path(std::path::Path::new(
            path,
        )))
    });
    let url = rewritten.map(|p| {
        let p = match query {
            Some(q) => format!("{p}?{q}"),
            None => p,
        };
        match &anchor {
            Some(a) => format!("{p}#{a}"),
            None => p,
        }
    });
    Some((
        Target {
            path: target,
            anchor,
        },
        url,
    ))
}

/// The markdown extensions of a nimbook book.
pub(crate) fn options() -> Options {
    Flavour::nimbook().options()
}

/// Renders the lesson held by `lesson` (whose source path, relative to the source folder, is
/// `page`) in the given flavour, checking every claim in document order and keeping its number
/// account under `lints`. In a book that is not a nimbook
/// book the number lints are off: its numerals are not claims.
pub(crate) fn render_with(
    lesson: &mut LessonContext,
    page: &str,
    flavour: &Flavour,
    lints: Lints,
) -> RenderedPage {
    let Checked { document, numbers } = check(lesson, page, flavour, lints);
    let written = super::page::write(&document, flavour.fragments);
    RenderedPage {
        html: written.html,
        headings: document
            .headings()
            .map(|h| Heading {
                level: heading_number(h.level),
                id: h.anchor.clone(),
                title: h.title.clone(),
                offset: h.offset,
            })
            .collect(),
        links: document
            .links()
            .map(|(target, span)| InternalLink {
                target: target.path.clone(),
                anchor: target.anchor.clone(),
                span: span.clone(),
            })
            .collect(),
        answers: lesson.take_answers(),
        worked: written.worked,
        anchors: written.anchors,
        numbers,
        drawn: written.drawn,
        fragments: written.fragments,
        document,
    }
}

/// A lesson checked: its document and its number account.
struct Checked {
    document: Document,
    numbers: NumberCounts,
}

/// The pass over a lesson's events: every claim checked in document order, every directive
/// run, the number account kept, and the checked document built.
fn check(lesson: &mut LessonContext, page: &str, flavour: &Flavour, lints: Lints) -> Checked {
    let file = std::sync::Arc::clone(lesson.file());
    let source = file.text.as_str();
    let lints = if flavour.claims { lints } else { Lints::ALLOW };
    let mut coverage = Coverage::new(source, lints);
    let events = parse(source, flavour);
    let mut document = Document {
        answers_hidden: lesson.answers_hidden(),
        file: Some(std::sync::Arc::clone(&file)),
        ..Document::default()
    };
    let mut anchors = Anchors::default();
    let mut worked = super::worked::WorkedAnswers::default();
    let mut i = 0;
    while i < events.len() {
        let (event, range) = &events[i];
        coverage.structure(event);
        let node = match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let (node, end) = code_block(lesson, &mut coverage, flavour, &events, i, kind);
                document.push(node, range.clone());
                i = end + 1;
                continue;
            }
            Event::Code(code) if flavour.claims && code.trim_start().starts_with("nim:") => {
                Node::InlineClaim {
                    range: range.clone(),
                    checked: inline_claim(lesson, &mut coverage, code, range),
                }
            }
            Event::InlineMath(tex) | Event::DisplayMath(tex) => {
                let display = matches!(event, Event::DisplayMath(_));
                coverage.latex(tex, text_offset(source, tex, range));
                math(lesson, flavour, tex, display, range)
            }
            Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }) => {
                let title = heading_title(lesson, flavour, &events[i + 1..]);
                let anchor = anchors.of(&title, id.as_deref(), flavour);
                Node::Heading(document::Heading {
                    level: *level,
                    anchor,
                    title,
                    offset: range.start,
                    classes: classes.iter().map(|c| c.clone().into_static()).collect(),
                    attrs: attrs
                        .iter()
                        .map(|(k, v)| (k.clone().into_static(), v.clone().map(CowStr::into_static)))
                        .collect(),
                    result: None,
                })
            }
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) => link(page, event, range),
            // Exemption braces and the number account belong to a nimbook book; elsewhere
            // `{1, 2, 3}` is just text.
            Event::Text(t) if flavour.claims => {
                Node::Markdown(match coverage.prose(t, text_offset(source, t, range)) {
                    std::borrow::Cow::Borrowed(_) => document::owned(event),
                    std::borrow::Cow::Owned(shown) => Event::Text(CowStr::from(shown)),
                })
            }
            Event::Html(h) => {
                worked.html(h, range, document.nodes.len());
                Node::Markdown(document::owned(event))
            }
            other => Node::Markdown(document::owned(other)),
        };
        document.push(node, range.clone());
        i += 1;
    }
    document.worked = worked.blocks;
    if flavour.claims {
        super::results::gather(&mut document, lesson);
    }
    let checked: Vec<&crate::claim::Checked> = document.checked().collect();
    super::worked::check(lesson, &document.worked, &checked);
    let numbers = coverage.finish(lesson);
    Checked { document, numbers }
}

/// The language of a code block: the first word of a fence's info string.
fn fence_lang<'k>(kind: &'k CodeBlockKind<'_>) -> &'k str {
    match kind {
        CodeBlockKind::Fenced(info) => info
            .split(|c: char| c.is_whitespace() || c == ',')
            .next()
            .unwrap_or(""),
        CodeBlockKind::Indented => "",
    }
}

/// A fenced or indented code block that starts at event `i`: an example the build runs (see
/// `expected`), a `nim` block checked as claims, a `nimbook` block of directives, or code shown
/// as code. Returns its node and the index of its end event.
fn code_block(
    lesson: &mut LessonContext,
    coverage: &mut Coverage<'_>,
    flavour: &Flavour,
    events: &[(Event<'_>, Range<usize>)],
    i: usize,
    kind: &CodeBlockKind<'_>,
) -> (Node, usize) {
    let range = &events[i].1;
    let file = std::sync::Arc::clone(lesson.file());
    let source = file.text.as_str();
    let lang = fence_lang(kind);
    coverage.code_block(lang);
    let mut block = MappedText::default();
    // A text block is read by the reader: its numbers are counted, its exemption braces removed.
    let counted = lang == "text" && flavour.claims;
    let mut j = i + 1;
    while j < events.len() {
        match &events[j].0 {
            Event::Text(t) if counted => {
                let at = text_offset(source, t, &events[j].1);
                block.push(&coverage.text_block(t, at), at);
            }
            Event::Text(t) => block.push(t, text_offset(source, t, &events[j].1)),
            Event::End(TagEnd::CodeBlock) => break,
            _ => {}
        }
        j += 1;
    }
    let example = super::expected::Example::of(kind).filter(|_| flavour.claims);
    let node = if let Some(example) = example {
        super::expected::node(lesson, &example, &block, range)
    } else if lang == "nim" && flavour.claims {
        let results = lesson.check_block(&block);
        coverage.claims(&results, lesson);
        Node::Claims {
            range: range.clone(),
            checked: results,
        }
    } else if lang == "nimbook" && flavour.claims {
        Node::Generated {
            range: range.clone(),
            blocks: super::directives::render(lesson, &block),
        }
    } else {
        if lang == "nim" && reads_as_claims(&block.text) {
            lesson.report(
                    Diagnostic::warning(
                        Code::UncheckedClaims,
                        "this `nim` block is shown as Nim code, not checked",
                    )
                    .at(&file, range.clone())
                    .label("every line of it reads as a nimbook claim")
                    .note("`nim` blocks are claims only in a nimbook book, one whose book.toml has a [nimbook] table")
                    .help("add `[nimbook]` to book.toml to check these claims"),
                );
        }
        let info = match kind {
            CodeBlockKind::Fenced(info) => info.as_ref(),
            CodeBlockKind::Indented => "",
        };
        Node::Code(super::codelines::block(info, &block.text, &flavour.code))
    };
    (node, j)
}

/// A LaTeX formula that parses; one that does not is shown as code, with an error (a warning
/// in an mdBook book, where MathJax reads more LaTeX than the build-time renderer).
fn math(
    lesson: &mut LessonContext,
    flavour: &Flavour,
    tex: &CowStr<'_>,
    display: bool,
    range: &Range<usize>,
) -> Node {
    match mathml::parse_tex(tex) {
        Ok(()) => Node::Tex(Tex {
            tex: tex.to_string(),
            display,
        }),
        Err(reason) => {
            let level = if flavour.claims {
                crate::diag::Level::Error
            } else {
                crate::diag::Level::Warning
            };
            let d = Diagnostic::new(level, Code::LatexError, format!("LaTeX error: {reason}"))
                .at(lesson.file(), range.clone())
                .label("this math does not parse");
            lesson.report(d);
            Node::Markdown(Event::Code(CowStr::from(tex.to_string())))
        }
    }
}

/// The events of a lesson, with their byte ranges.
fn parse<'s>(source: &'s str, flavour: &Flavour) -> Vec<(Event<'s>, Range<usize>)> {
    let events: Vec<(Event<'_>, Range<usize>)> = Parser::new_ext(source, flavour.options())
        .into_offset_iter()
        .collect();
    if flavour.mathjax {
        super::texmath::mathjax_delimiters(events, flavour.dollar_math)
    } else {
        events
    }
}

/// A link or an image: a link to a `.md` lesson leads to its page, and every link within the
/// book is recorded for checking.
fn link(page: &str, event: &Event<'_>, range: &Range<usize>) -> Node {
    let (Event::Start(Tag::Link {
        link_type,
        dest_url,
        title,
        id,
    })
    | Event::Start(Tag::Image {
        link_type,
        dest_url,
        title,
        id,
    })) = event
    else {
        return Node::Markdown(document::owned(event));
    };
    let image = matches!(event, Event::Start(Tag::Image { .. }));
    // `<help@crates.io>` is an email address (the HTML writer adds `mailto:`).
    let resolved = if *link_type == pulldown_cmark::LinkType::Email {
        None
    } else {
        internal_link(page, dest_url)
    };
    let (target, url) = match resolved {
        Some((target, url)) => (Some(target), url),
        None => (None, None),
    };
    let url = match url {
        // An image keeps its address: only a lesson's becomes its page's.
        Some(url) if !image => CowStr::from(url),
        _ => dest_url.clone().into_static(),
    };
    let node = Link {
        link_type: *link_type,
        url,
        title: title.clone().into_static(),
        id: id.clone().into_static(),
        target,
        span: range.clone(),
    };
    if image {
        Node::Image(node)
    } else {
        Node::Link(node)
    }
}

/// An inline claim, `` `nim: …` ``, checked.
fn inline_claim(
    lesson: &mut LessonContext,
    coverage: &mut Coverage<'_>,
    code: &str,
    range: &Range<usize>,
) -> crate::claim::Checked {
    let offset = text_offset(&lesson.file().text, code, range);
    let lead = code.len() - code.trim_start().len() + "nim:".len();
    let body = &code[lead..];
    let text = MappedText::contiguous(body, offset + lead);
    let result = lesson.check_inline(&text);
    coverage.span(&result, lesson);
    result
}

/// How often each anchor of a page was asked for so far.
#[derive(Default)]
struct Anchors {
    ids: HashMap<String, usize>,
}

impl Anchors {
    /// The anchor of the heading titled `title`: the `id` written in the source, else one made
    /// from the title as the flavour makes them; `-1`, `-2`, … added when the page already has
    /// it, so the ids of a page are unique.
    fn of(&mut self, title: &str, id: Option<&str>, flavour: &Flavour) -> String {
        let base = match id {
            Some(s) => s.to_string(),
            None if flavour.mdbook_ids => mdbook_id(title),
            None => slug(title),
        };
        let n = self.ids.entry(base.clone()).or_insert(0);
        let anchor = if *n == 0 { base } else { format!("{base}-{n}") };
        *n += 1;
        anchor
    }
}

/// The text of the heading whose events follow: claims read in it as they read on the page.
fn heading_title(
    lesson: &LessonContext,
    flavour: &Flavour,
    events: &[(Event<'_>, Range<usize>)],
) -> String {
    let mut title = String::new();
    for (event, _) in events {
        match event {
            Event::End(TagEnd::Heading(_)) => break,
            Event::Text(t) if flavour.claims => title.push_str(&super::coverage::shown(t)),
            Event::Text(t) => title.push_str(t),
            // A claim reads in the heading's text (the contents, the anchor) as it reads on
            // the page, in its notation, not as its source spelling.
            Event::Code(t) => match t.strip_prefix("nim:").filter(|_| flavour.claims) {
                Some(claim) => title.push_str(&claim_text(claim.trim(), lesson)),
                None => title.push_str(t),
            },
            _ => {}
        }
    }
    title
}

/// The text of a claim as a reader reads it (see [`super::notation::statement_text`]), or its
/// source when it does not parse (the claim's own check reports that).
fn claim_text(claim: &str, lesson: &LessonContext) -> String {
    let limits = lesson.limits();
    crate::claim::lexer::lex(claim, limits)
        .and_then(|toks| crate::claim::parser::parse_statement(&toks, limits, true))
        .map_or_else(
            |_| claim.to_string(),
            |s| super::notation::statement_text(&s.stmt, None, None),
        )
}

/// Whether every statement of a block parses as a nimbook claim (and there is one).
fn reads_as_claims(text: &str) -> bool {
    use crate::claim::{check::statement_ranges, lexer::lex, parser::parse_statement, Limits};
    let limits = Limits::default();
    let ranges = statement_ranges(text);
    !ranges.is_empty()
        && ranges.iter().all(|r| {
            lex(&text[r.clone()], &limits)
                .is_ok_and(|toks| parse_statement(&toks, &limits, false).is_ok())
        })
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
