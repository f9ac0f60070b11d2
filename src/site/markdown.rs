//! One lesson from markdown to HTML, with its claims checked on the way.
//!
//! pulldown-cmark yields events with byte offsets into the lesson. The pass below rewrites the
//! event stream in place: `nim` blocks and `` `nim: …` `` code spans go to the checker (their
//! offsets become file offsets, so diagnostics point at the right column) and come back as
//! MathML with a verified mark; other fenced code is highlighted; headings get anchors. No
//! regular expression touches the markdown and no placeholder string is swapped in later.
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

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use pulldown_cmark::{
    BlockQuoteKind, CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd,
};

use super::highlight::highlight;
use super::mathml;
use crate::claim::{Checked, LessonChecker, MappedText, Status};
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
#[derive(Debug, Clone, Default)]
pub struct RenderedPage {
    /// The body HTML.
    pub html: String,
    /// The headings, in order.
    pub headings: Vec<Heading>,
    /// Links to pages and anchors of the book.
    pub links: Vec<InternalLink>,
    /// Every `id` in the page (headings, footnotes, raw `<a id>` tags): the anchors a link may
    /// name.
    pub anchors: Vec<String>,
}

/// Which markdown a book speaks: nimbook's, or mdBook's (see the module docs).
#[derive(Debug, Clone)]
pub struct Flavour {
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
    /// Per language, the prefix of hidden code lines (Rust's `# ` is built in).
    pub hidelines: BTreeMap<String, String>,
}

impl Flavour {
    /// A nimbook book with the default settings.
    pub fn nimbook() -> Self {
        Flavour {
            claims: true,
            dollar_math: true,
            mathjax: false,
            smart_punctuation: false,
            definition_lists: true,
            admonitions: true,
            mdbook_ids: false,
            hidelines: BTreeMap::new(),
        }
    }

    /// The flavour of the book configured by `config`.
    pub fn of(config: &super::Config) -> Self {
        let nimbook = config.is_nimbook();
        Flavour {
            claims: nimbook,
            dollar_math: nimbook,
            mathjax: config.html.mathjax_support,
            smart_punctuation: config.smart_punctuation(),
            definition_lists: config.html.definition_lists.unwrap_or(true),
            admonitions: config.html.admonitions.unwrap_or(true),
            mdbook_ids: !nimbook,
            hidelines: config.html.code.hidelines.clone(),
        }
    }

    /// The pulldown-cmark extensions for this flavour.
    pub fn options(&self) -> Options {
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

/// Whether a link target leaves the book (has a scheme such as `https:` or `mailto:`).
fn is_external(url: &str) -> bool {
    url.starts_with("//")
        || url.split_once(':').is_some_and(|(scheme, _)| {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        })
}

/// Resolves `url` against the folder of the page at `page` (both relative to the source
/// folder); `None` if it climbs out of the book.
fn resolve(page: &str, url: &str) -> Option<String> {
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for seg in url.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
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
        resolve(page, path).unwrap_or_else(|| format!("../{path}"))
    };
    links.push(InternalLink {
        target,
        anchor: anchor.clone(),
        span,
    });
    let rewritten = path
        .ends_with(".md")
        .then(|| super::book::url_path(&super::book::page_path(std::path::Path::new(path))));
    rewritten.map(|p| match anchor {
        Some(a) => format!("{p}#{a}"),
        None => p,
    })
}

/// The markdown extensions of a nimbook book.
pub fn options() -> Options {
    Flavour::nimbook().options()
}

/// Renders LaTeX math to MathML, or says why it cannot.
pub fn render_tex(tex: &str, display: bool) -> Result<String, String> {
    use pulldown_latex::config::DisplayMode;
    let storage = pulldown_latex::Storage::new();
    let events: Vec<_> = pulldown_latex::Parser::new(tex, &storage).collect();
    if let Some(Err(e)) = events.iter().find(|e| e.is_err()) {
        // The first line of the message is the reason; the rest repeats the input.
        let msg = e.to_string();
        let first = msg
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("parsing error: ");
        return Err(first.to_string());
    }
    let config = pulldown_latex::RenderConfig {
        display_mode: if display {
            DisplayMode::Block
        } else {
            DisplayMode::Inline
        },
        ..Default::default()
    };
    let mut html = String::new();
    pulldown_latex::push_mathml(&mut html, events.into_iter(), config)
        .map_err(|e| e.to_string())?;
    Ok(well_formed(&html))
}

/// Escapes the `<`, `>` and `&` that pulldown-latex leaves raw in text (as in `<mo><</mo>` for
/// `a < b`), so that every `<math>` element is well-formed XML.
pub fn well_formed(markup: &str) -> String {
    let mut out = String::with_capacity(markup.len() + 16);
    let chars = markup.char_indices();
    let mut in_tag = false;
    let mut quote: Option<char> = None;
    for (i, c) in chars {
        if in_tag {
            out.push(c);
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (None, '"' | '\'') => quote = Some(c),
                (None, '>') => in_tag = false,
                _ => {}
            }
            continue;
        }
        match c {
            '<' => {
                let rest = &markup[i + 1..];
                let starts_tag = rest
                    .strip_prefix('/')
                    .unwrap_or(rest)
                    .starts_with(|ch: char| ch.is_ascii_alphabetic());
                if starts_tag {
                    in_tag = true;
                    out.push('<');
                } else {
                    out.push_str("&lt;");
                }
            }
            '>' => out.push_str("&gt;"),
            '&' => {
                let rest = &markup[i + 1..];
                let entity = rest
                    .find(';')
                    .filter(|&n| n > 0 && n <= 10)
                    .is_some_and(|n| {
                        rest[..n]
                            .chars()
                            .all(|ch| ch.is_ascii_alphanumeric() || ch == '#')
                    });
                out.push_str(if entity { "&" } else { "&amp;" });
            }
            c => out.push(c),
        }
    }
    out
}

/// Renders the lesson held by `checker` (whose source path, relative to the source folder, is
/// `page`) as a nimbook book does, checking every claim in document order.
pub fn render(checker: &mut LessonChecker, page: &str) -> RenderedPage {
    render_with(checker, page, &Flavour::nimbook())
}

/// Renders the lesson held by `checker` in the given flavour.
pub fn render_with(checker: &mut LessonChecker, page: &str, flavour: &Flavour) -> RenderedPage {
    let mut links = Vec::new();
    let file = std::sync::Arc::clone(checker.file());
    let source = file.text.as_str();
    let mut events: Vec<(Event<'_>, Range<usize>)> = Parser::new_ext(source, flavour.options())
        .into_offset_iter()
        .collect();
    if flavour.mathjax {
        events = super::texmath::mathjax_delimiters(events, flavour.dollar_math);
    }
    // Footnote definitions are rendered where they stand, then moved to the end of the page.
    let mut footnotes = super::footnotes::Footnotes::default();
    let mut footnote_start: Option<(usize, String)> = None;
    let mut out: Vec<Event<'_>> = Vec::with_capacity(events.len());
    let mut headings = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut i = 0;
    while i < events.len() {
        let (event, range) = &events[i];
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
                let html = if lang == "nim" && flavour.claims {
                    let results = checker.check_block(&block);
                    claims_block(&results)
                } else if lang == "nimbook" && flavour.claims {
                    super::blocks::render(checker, &block)
                } else {
                    if lang == "nim" && reads_as_claims(&block.text) {
                        checker.diagnostics.push(
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
                    let visible = super::codelines::visible(&block.text, &lang, &flavour.hidelines);
                    if lang.is_empty() {
                        format!("<pre><code>{}</code></pre>\n", mathml::escape(&visible))
                    } else {
                        format!(
                            "<pre class=\"code\"><code class=\"language-{}\">{}</code></pre>\n",
                            mathml::escape(&lang),
                            highlight(&visible, &lang)
                        )
                    }
                };
                out.push(Event::Html(CowStr::from(html)));
                i = j + 1;
                let _ = range;
                continue;
            }
            Event::Code(code) if flavour.claims && code.trim_start().starts_with("nim:") => {
                let offset = text_offset(source, code, range);
                let lead = code.len() - code.trim_start().len() + "nim:".len();
                let body = &code[lead..];
                let text = MappedText::contiguous(body, offset + lead);
                let result = checker.check_inline(&text);
                out.push(Event::InlineHtml(CowStr::from(inline_claim(&result))));
            }
            Event::InlineMath(tex) | Event::DisplayMath(tex) => {
                let display = matches!(event, Event::DisplayMath(_));
                match render_tex(tex, display) {
                    Ok(html) => out.push(Event::InlineHtml(CowStr::from(html))),
                    Err(reason) => {
                        let level = if flavour.claims {
                            crate::diag::Level::Error
                        } else {
                            // MathJax reads more LaTeX than the build-time renderer; an mdBook
                            // book still builds, and says which formula is shown as code.
                            crate::diag::Level::Warning
                        };
                        let d = Diagnostic::new(
                            level,
                            Code::LatexError,
                            format!("LaTeX error: {reason}"),
                        )
                        .at(&file, range.clone())
                        .label("this math does not parse");
                        if flavour.claims {
                            checker.push_error(d);
                        } else {
                            checker.diagnostics.push(d);
                        }
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
                    if let Event::Text(t) | Event::Code(t) = &events[j].0 {
                        title.push_str(t);
                    }
                    j += 1;
                }
                let base = match id {
                    Some(s) => s.to_string(),
                    None if flavour.mdbook_ids => mdbook_id(&title),
                    None => slug(&title),
                };
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
                out.push(Event::InlineHtml(CowStr::from(format!(
                    "<a class=\"anchor\" href=\"#{}\" aria-hidden=\"true\">#</a>",
                    mathml::escape(&anchor)
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
            Event::Start(Tag::Image { dest_url, .. }) => {
                let _ = internal_link(page, dest_url, range.clone(), &mut links);
                out.push(event.clone());
            }
            Event::Start(Tag::BlockQuote(Some(kind))) => {
                out.push(Event::Html(CowStr::from(admonition_start(*kind))));
            }
            Event::End(TagEnd::BlockQuote(Some(_))) => {
                out.push(Event::Html(CowStr::from("</div>\n")));
            }
            Event::FootnoteReference(label) => {
                out.push(Event::InlineHtml(CowStr::from(footnotes.reference(label))));
            }
            Event::Start(Tag::FootnoteDefinition(label)) => {
                footnote_start = Some((out.len(), label.to_string()));
            }
            Event::End(TagEnd::FootnoteDefinition) => {
                if let Some((start, label)) = footnote_start.take() {
                    let mut body = String::new();
                    pulldown_cmark::html::push_html(&mut body, out.drain(start..));
                    footnotes.define(&label, body);
                }
            }
            other => out.push(other.clone()),
        }
        i += 1;
    }
    let mut html = String::with_capacity(source.len() * 2);
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    footnotes.finish(&mut html);
    let anchors = super::html_ids::ids(&html);
    RenderedPage {
        html,
        headings,
        links,
        anchors,
    }
}

/// The opening of an admonition (`> [!NOTE]`), with its title as mdBook shows it.
fn admonition_start(kind: BlockQuoteKind) -> String {
    let (class, title) = match kind {
        BlockQuoteKind::Note => ("note", "Note"),
        BlockQuoteKind::Tip => ("tip", "Tip"),
        BlockQuoteKind::Important => ("important", "Important"),
        BlockQuoteKind::Warning => ("warning", "Warning"),
        BlockQuoteKind::Caution => ("caution", "Caution"),
    };
    format!("<div class=\"admonition {class}\" role=\"note\">\n<p class=\"admonition-title\">{title}</p>\n")
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

/// A heading id as mdBook makes it: letters, digits, `_` and `-` kept (lower-cased),
/// whitespace made `-`, everything else dropped.
pub fn mdbook_id(title: &str) -> String {
    title
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
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

fn statement_math(c: &Checked, display: bool) -> String {
    let mut inner = String::new();
    let mut alt = c.source.clone();
    if let Some(s) = &c.stmt {
        mathml::statement(&mut inner, &s.stmt, c.value.as_ref(), c.witness.as_deref());
        alt = mathml::statement_text(&s.stmt, c.value.as_ref(), c.witness.as_deref());
    }
    mathml::math(&inner, display, &alt)
}

fn status_class(s: Status) -> &'static str {
    match s {
        Status::Holds => "holds",
        Status::Fails => "fails",
        Status::Error => "error",
        Status::Bound => "bound",
        Status::Value => "value",
    }
}

const VERIFIED: &str =
    "<span class=\"verified\" title=\"checked by nimbook when the site was built\">✓ verified</span>";

fn claims_block(results: &[Checked]) -> String {
    let mut html = String::from("<div class=\"nim-claims\">\n");
    for c in results {
        if let Some(rows) = calc_rows(c) {
            html.push_str(&rows);
            continue;
        }
        html.push_str(&format!(
            "<div class=\"nim-claim {}\">{}",
            status_class(c.status),
            statement_math(c, false)
        ));
        if c.status == Status::Holds {
            html.push_str(VERIFIED);
        }
        html.push_str("</div>\n");
    }
    html.push_str("</div>\n");
    html
}

/// A chain written over several lines (a calc derivation) is shown the same way: one row per
/// line, each link with its own mark.
fn calc_rows(c: &Checked) -> Option<String> {
    use crate::claim::ast::Statement;
    let Some(Statement::Claim(chain)) = c.stmt.as_ref().map(|s| &s.stmt) else {
        return None;
    };
    if !c.source.contains('\n') {
        return None;
    }
    let mut html = format!("<div class=\"nim-calc {}\">", status_class(c.status));
    let mut first = String::new();
    mathml::expr(&mut first, &chain.first);
    html.push_str(&format!(
        "<div class=\"nim-claim step\">{}</div>",
        mathml::math(&first, false, &chain.first.to_string())
    ));
    for link in &chain.links {
        let mut inner = format!("<mo>{}</mo>", link.rel.symbol());
        mathml::expr(&mut inner, &link.rhs);
        html.push_str(&format!(
            "<div class=\"nim-claim step\">{}{}</div>",
            mathml::math(&inner, false, &link.rhs.to_string()),
            if c.status == Status::Holds {
                "<span class=\"verified\" title=\"this step was checked by nimbook when the site was built\">✓</span>"
            } else {
                ""
            }
        ));
    }
    html.push_str("</div>\n");
    Some(html)
}

fn inline_claim(c: &Checked) -> String {
    match (c.status, &c.value) {
        (Status::Value, Some(v)) => {
            let mut inner = String::new();
            mathml::value(&mut inner, v);
            format!(
                "<span class=\"nim-value\" title=\"{} — computed when the site was built\">{}</span>",
                mathml::escape(&c.source),
                mathml::math(&inner, false, &v.to_string())
            )
        }
        _ => format!(
            "<span class=\"nim-claim inline {}\">{}{}</span>",
            status_class(c.status),
            statement_math(c, false),
            if c.status == Status::Holds {
                "<span class=\"verified\" title=\"checked by nimbook when the site was built\">✓</span>"
            } else {
                ""
            }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::well_formed;

    #[test]
    fn raw_text_in_mathml_is_escaped_and_markup_kept() {
        assert_eq!(
            well_formed(
                "<mo><</mo><mo>></mo><mi mathvariant=\"a>b\">x</mi><mo>&</mo><mo>&lt;</mo>"
            ),
            "<mo>&lt;</mo><mo>&gt;</mo><mi mathvariant=\"a>b\">x</mi><mo>&amp;</mo><mo>&lt;</mo>"
        );
    }
}
