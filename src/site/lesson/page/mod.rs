//! The HTML writer: a checked [`Document`] as the page's HTML fragment.
//!
//! The document's markdown events go to pulldown-cmark's HTML writer; each typed node becomes
//! the HTML it stands for: claims as MathML with their marks (`claims`), LaTeX as MathML
//! (`mathml`), code highlighted by syntect with its hidden lines wrapped, a directive's block
//! by `blocks`. What the page does from the document's structure is done here too: a heading
//! gets its anchor link, a table the box it scrolls in, an admonition its frame, footnotes are
//! gathered at the end with their back-links (`footnotes`), and in graded mode a worked-answers
//! block is left out of the page and kept for the teacher's key.

pub(crate) mod blocks;

use std::ops::Range;

use pulldown_cmark::{BlockQuoteKind, CowStr, Event, Tag, TagEnd};

use super::document::{CodeBlock, Document, Example, Generated, Heading, Node, Shows, Tex};
use super::footnotes::Footnotes;
use super::results::NamedResult;
use super::{claims, codelines, highlight::highlight, mathml};
use crate::diag::Span;
use crate::site::html::escape;

/// A document written as HTML, with what the other front ends take from the writing.
#[derive(Debug, Clone, Default)]
pub(crate) struct Page {
    /// The body HTML.
    pub(crate) html: String,
    /// The HTML of each worked-answers block, in document order (left out of `html` in graded
    /// mode).
    pub(crate) worked: Vec<String>,
    /// Every directive's span and its HTML, in document order (what an editor shows on hover).
    pub(crate) drawn: Vec<(Span, String)>,
    /// What each `nim` block, `nimbook` block and `nim:` span became, where it stood.
    pub(crate) fragments: Vec<Fragment>,
    /// Every `id` in the page: the anchors a link may name.
    pub(crate) anchors: Vec<String>,
}

/// The HTML that one claim block, directive block or `nim:` span of a lesson became.
#[derive(Debug, Clone)]
pub(crate) struct Fragment {
    /// Its byte range in the lesson (the whole fenced block, or the span with its backticks).
    pub range: Range<usize>,
    /// The HTML that replaced it.
    pub html: String,
    /// Whether it is a block (a fence) rather than a span in running text.
    pub block: bool,
}

/// Writes `doc` as HTML; with `fragments`, also keeps what each claim and directive became
/// with its place (for `nimbook mdbook`).
pub(crate) fn write(doc: &Document, fragments: bool) -> Page {
    let mut w = Writer {
        out: Vec::with_capacity(doc.nodes.len()),
        footnotes: Footnotes::default(),
        page: Page::default(),
        keep_fragments: fragments,
        results: &doc.results,
        pending_result: None,
    };
    // Where each worked-answers block starts in the output, once its first node is written.
    let mut worked_start = vec![0; doc.worked.len()];
    for (i, node) in doc.nodes.iter().enumerate() {
        for (k, block) in doc.worked.iter().enumerate() {
            if block.nodes.start == i {
                worked_start[k] = w.out.len();
            }
        }
        w.node(node);
        for (k, block) in doc.worked.iter().enumerate() {
            if block.nodes.end == i + 1 {
                let first = worked_start[k].min(w.out.len());
                let mut body = String::new();
                pulldown_cmark::html::push_html(&mut body, w.out[first..].iter().cloned());
                if doc.answers_hidden {
                    w.out.truncate(first);
                }
                w.page.worked.push(body);
            }
        }
    }
    leave_out(doc, &mut w.page.fragments, fragments);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, w.out.into_iter());
    w.footnotes.finish(&mut html);
    w.page.anchors = crate::site::html::ids(&html);
    w.page.html = html;
    w.page
}

/// Graded mode for a caller that renders the rest of the markdown itself (mdBook, through
/// fragments): a worked-answers block is that caller's markdown, not a fragment, so each block
/// becomes a fragment of nothing, in place of the fragments of every claim inside it.
fn leave_out(doc: &Document, fragments: &mut Vec<Fragment>, keep: bool) {
    if !(keep && doc.answers_hidden) {
        return;
    }
    for block in &doc.worked {
        let range = &block.range;
        fragments.retain(|f| f.range.end <= range.start || f.range.start >= range.end);
        fragments.push(Fragment {
            range: range.clone(),
            html: String::new(),
            block: true,
        });
    }
    fragments.sort_by_key(|f| f.range.start);
}

struct Writer<'d> {
    out: Vec<Event<'d>>,
    footnotes: Footnotes,
    page: Page,
    keep_fragments: bool,
    /// The document's named results.
    results: &'d [NamedResult],
    /// The result whose heading is being written: its status follows the heading's end.
    pending_result: Option<usize>,
}

impl<'d> Writer<'d> {
    fn node(&mut self, node: &'d Node) {
        match node {
            Node::Heading(h) => {
                self.pending_result = h.result;
                self.out.extend(heading(h));
            }
            Node::Markdown(event @ Event::End(TagEnd::Heading(_))) => {
                self.out.push(event.clone());
                if let Some(r) = self.pending_result.take().and_then(|i| self.results.get(i)) {
                    self.out.push(Event::Html(CowStr::from(
                        super::results::html::status_line(r),
                    )));
                }
            }
            Node::Markdown(event) => self.markdown(event),
            Node::Link(link) => self.out.push(Event::Start(Tag::Link {
                link_type: link.link_type,
                dest_url: link.url.clone(),
                title: link.title.clone(),
                id: link.id.clone(),
            })),
            Node::Image(link) => self.out.push(Event::Start(Tag::Image {
                link_type: link.link_type,
                dest_url: link.url.clone(),
                title: link.title.clone(),
                id: link.id.clone(),
            })),
            Node::Claims { range, checked } => {
                self.fragment(range, claims::block(checked), true);
            }
            Node::InlineClaim { range, checked } => {
                self.fragment(range, claims::inline(checked), false);
            }
            Node::Generated { range, blocks } => {
                let html = self.generated(blocks);
                self.fragment(range, html, true);
            }
            Node::Tex(tex) => self.out.push(Event::InlineHtml(CowStr::from(formula(tex)))),
            Node::Code(code) => self.out.push(Event::Html(CowStr::from(code_block(code)))),
            Node::Example(e) => self.fragment(&e.range, example(e), true),
        }
    }

    /// Puts a claim's or directive's HTML into the page, and keeps it as a fragment when asked.
    fn fragment(&mut self, range: &Range<usize>, html: String, block: bool) {
        if self.keep_fragments {
            self.page.fragments.push(Fragment {
                range: range.clone(),
                html: html.clone(),
                block,
            });
        }
        let html = CowStr::from(html);
        self.out.push(if block {
            Event::Html(html)
        } else {
            Event::InlineHtml(html)
        });
    }

    /// The HTML of a `nimbook` block's directives, each kept with its span.
    fn generated(&mut self, blocks: &[Generated]) -> String {
        let mut html = String::new();
        for g in blocks {
            let h = g.block.as_ref().map(blocks::block).unwrap_or_default();
            html.push_str(&h);
            self.page.drawn.push((g.span.clone(), h));
        }
        html
    }

    /// A markdown event, with what the page adds from the structure: footnotes moved to the
    /// end, the box a wide table scrolls in (instead of widening the page) and an admonition's
    /// frame.
    fn markdown(&mut self, event: &'d Event<'static>) {
        let out = &mut self.out;
        match event {
            Event::FootnoteReference(label) => self.footnotes.cite(label, out),
            Event::Start(Tag::FootnoteDefinition(label)) => self.footnotes.open(label, out),
            Event::End(TagEnd::FootnoteDefinition) => self.footnotes.close(out),
            Event::Start(Tag::Table(_)) => {
                out.push(Event::Html(CowStr::from("<div class=\"table-wrap\">")));
                out.push(event.clone());
            }
            Event::End(TagEnd::Table) => {
                out.push(event.clone());
                out.push(Event::Html(CowStr::from("</div>\n")));
            }
            Event::Start(Tag::BlockQuote(Some(kind))) => {
                out.push(Event::Html(CowStr::from(admonition_start(*kind))));
            }
            Event::End(TagEnd::BlockQuote(Some(_))) => {
                out.push(Event::Html(CowStr::from("</div>\n")));
            }
            other => out.push(other.clone()),
        }
    }
}

/// An example the build ran: its source, then what nimbook reports or what it makes.
fn example(example: &Example) -> String {
    let shown = match &example.shows {
        Shows::Reports(text) => format!(
            "<p class=\"nim-example-says\">nimbook reports:</p><pre class=\"nim-diagnostic\"><code>{}</code></pre>",
            escape(text)
        ),
        Shows::Makes(None) => String::new(),
        Shows::Makes(Some(doc)) => format!(
            "<p class=\"nim-example-says\">The page shows:</p><div class=\"nim-example-output\">{}</div>",
            write(doc, false).html
        ),
    };
    format!(
        "<div class=\"nim-example\">{}{shown}</div>\n",
        code_block(&example.source).trim_end()
    )
}

/// A LaTeX formula as MathML; the document holds only formulas that parse.
fn formula(tex: &Tex) -> String {
    mathml::render_tex(&tex.tex, tex.display)
        .unwrap_or_else(|_| format!("<code>{}</code>", escape(&tex.tex)))
}

/// A code block, highlighted by its language, its hidden lines wrapped for `page.js`, its
/// fence's words as classes, as mdBook writes them.
fn code_block(code: &CodeBlock) -> String {
    if code.lang.is_empty() {
        return format!("<pre><code>{}</code></pre>\n", escape(&code.text));
    }
    let mut class = format!("language-{}", code.lang);
    for c in &code.classes {
        class.push(' ');
        class.push_str(c);
    }
    format!(
        "<pre class=\"code{}\"><code class=\"{}\">{}</code></pre>\n",
        if code.playground { " playground" } else { "" },
        escape(&class),
        codelines::wrap_hidden(&highlight(&code.text, &code.lang), &code.hidden)
    )
}

/// The opening of a heading with its anchor, and the anchor's link.
fn heading(h: &Heading) -> [Event<'static>; 2] {
    [
        Event::Start(Tag::Heading {
            level: h.level,
            id: Some(CowStr::from(h.anchor.clone())),
            classes: h.classes.clone(),
            attrs: h.attrs.clone(),
        }),
        // The anchor is for the mouse: hidden from screen readers (the heading says it all)
        // and so out of the Tab order too, or a keyboard would land on nothing.
        Event::InlineHtml(CowStr::from(format!(
            "<a class=\"anchor\" href=\"#{}\" aria-hidden=\"true\" tabindex=\"-1\">#</a>",
            escape(&h.anchor)
        ))),
    ]
}

/// The opening of an admonition (`> [!NOTE]`), with its title as mdBook shows it.
fn admonition_start(kind: BlockQuoteKind) -> String {
    let (class, title) = admonition(kind);
    format!("<div class=\"admonition {class}\" role=\"note\">\n<p class=\"admonition-title\">{title}</p>\n")
}

/// An admonition's class and title.
pub(crate) fn admonition(kind: BlockQuoteKind) -> (&'static str, &'static str) {
    match kind {
        BlockQuoteKind::Note => ("note", "Note"),
        BlockQuoteKind::Tip => ("tip", "Tip"),
        BlockQuoteKind::Important => ("important", "Important"),
        BlockQuoteKind::Warning => ("warning", "Warning"),
        BlockQuoteKind::Caution => ("caution", "Caution"),
    }
}
