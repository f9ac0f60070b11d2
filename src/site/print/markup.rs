//! One lesson's checked document as Typst markup.
//!
//! The document's markdown events become Typst's elements, written as function calls with
//! content blocks (`#emph[…]`, `#list[…][…]`, `#table(…)`), never as Typst's own markdown-like
//! shorthands, so nesting is explicit. Every piece of the author's text is escaped: each ASCII
//! punctuation character that Typst's markup could read gets a backslash, so nothing an author
//! writes is read as markup (`#`, `*`, `=`, `<`, `http://`, `...`). A word longer than a line
//! gets invisible break opportunities, so a 50 000-character word still prints.
//!
//! Headings get labels (`c3`, `c3-7`) that links inside the book point at; worked-answers
//! blocks are kept for the answers appendix; footnotes are set where they are cited.

use std::collections::HashMap;
use std::fmt::Write as _;

use pulldown_cmark::{Alignment, BlockQuoteKind, Event, LinkType, Tag, TagEnd};

use super::math::{self, Typeset};
use super::{Chapter, Printer};
use crate::claim::{Checked, Status};
use crate::diag::{Code, Diagnostic, Span};
use crate::site::lesson::document::{CodeBlock, Document, Example, Link, Node, Shows, Target, Tex};
use crate::site::lesson::markdown::target_of;
use crate::site::lesson::notation::Formula;

/// The longest run of characters without a break opportunity that prose or code keeps as it
/// is; a longer one gets invisible break opportunities.
const MAX_UNBROKEN: usize = 60;
/// The longest code line that fits the printed page.
const MAX_CODE_LINE: usize = 96;
/// The most columns a markdown table may have before it is set smaller.
const COMFORTABLE_WIDTH: f64 = 60.0;

/// Escapes text for Typst markup, with break opportunities in overlong words.
pub(crate) fn text(out: &mut String, s: &str) {
    for c in breakable(s, MAX_UNBROKEN).chars() {
        if c.is_ascii_punctuation() && !matches!(c, ',' | ';' | '?' | '!' | '%' | '&' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// A Typst string literal.
pub(crate) fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `s` with an invisible break opportunity in every run longer than a code line allows.
fn breakable(s: &str, limit: usize) -> String {
    let mut out = String::with_capacity(s.len());
    let mut run = 0;
    for c in s.chars() {
        if c.is_whitespace() {
            run = 0;
        } else {
            run += 1;
            if run > limit {
                out.push('\u{200b}');
                run = 1;
            }
        }
        out.push(c);
    }
    out
}

/// An inline formula with its text for a screen reader.
pub(crate) fn equation(out: &mut String, t: &Typeset, block: bool) {
    out.push_str("#math.equation(alt: ");
    string(out, &t.alt);
    let _ = write!(
        out,
        ", block: {block}, ${}$.body)",
        if t.markup.trim().is_empty() {
            "\"\""
        } else {
            &t.markup
        }
    );
}

/// A formula of the reader's notation, inline.
pub(crate) fn formula(out: &mut String, f: &Formula) {
    let mut markup = String::new();
    math::notation(&mut markup, &f.items);
    equation(
        out,
        &Typeset {
            markup,
            alt: f.text.clone(),
        },
        false,
    );
}

/// The mark of a claim that holds, in the page's words: `✓ verified`, or how a quantified
/// claim was established (`✓ proved (polynomial identity)`).
pub(crate) fn mark(c: &Checked, fallback: &str) -> String {
    match c.established {
        Some(how) => format!("✓ {how}"),
        None => fallback.to_string(),
    }
}

/// Where the footnote definitions of a document are: their nodes, by label.
fn footnote_definitions(doc: &Document) -> HashMap<String, std::ops::Range<usize>> {
    let mut found = HashMap::new();
    let mut open: Option<(String, usize)> = None;
    for (i, node) in doc.nodes.iter().enumerate() {
        match node {
            Node::Markdown(Event::Start(Tag::FootnoteDefinition(label))) => {
                open = Some((label.to_string(), i));
            }
            Node::Markdown(Event::End(TagEnd::FootnoteDefinition)) => {
                if let Some((label, start)) = open.take() {
                    found.entry(label).or_insert(start..i + 1);
                }
            }
            _ => {}
        }
    }
    found
}

/// Writes one lesson.
pub(crate) struct LessonWriter<'p, 'd> {
    pub(crate) printer: &'p mut Printer,
    pub(crate) chapter: &'p Chapter,
    pub(crate) doc: &'d Document,
    footnotes: HashMap<String, std::ops::Range<usize>>,
    /// Footnotes set so far, by label: the label of the first.
    cited: HashMap<String, String>,
    /// Inside a footnote's body: a citation there is written as its number only.
    in_footnote: bool,
    /// The label of the heading being written.
    heading: Option<String>,
    /// Whether the lesson's first heading has been written.
    first_heading: bool,
    /// Inside an HTML comment that spans events.
    in_comment: bool,
    /// The named result whose heading is being written: its status follows the heading.
    pending_result: Option<usize>,
    /// Writing what an example makes, inside its frame: headings print as bold lines, with no
    /// label and no place in the contents.
    nested: bool,
    /// The level of the last heading printed (the chapter's own before the first).
    last_level: usize,
}

impl<'p, 'd> LessonWriter<'p, 'd> {
    /// A writer of `doc`, the lesson `chapter` of the book being printed.
    pub(crate) fn new(printer: &'p mut Printer, chapter: &'p Chapter, doc: &'d Document) -> Self {
        LessonWriter {
            printer,
            chapter,
            doc,
            footnotes: footnote_definitions(doc),
            cited: HashMap::new(),
            in_footnote: false,
            heading: None,
            first_heading: false,
            in_comment: false,
            pending_result: None,
            nested: false,
            last_level: chapter.level,
        }
    }

    /// A warning about what stands at `span` of the lesson.
    pub(crate) fn warn(&mut self, span: &Span, message: String) {
        let d = Diagnostic::warning(Code::PrintLayout, message);
        let d = match &self.chapter.file {
            Some(file) => d.at(file, span.clone()),
            None => d,
        };
        self.printer.warnings.push(d);
    }

    /// The lesson's markup: every node but the worked answers (kept, written, for the answers
    /// appendix) and the footnote definitions (set where they are cited).
    pub(crate) fn write(&mut self, out: &mut String) {
        let skip = self.skipped();
        let mut i = 0;
        while i < self.doc.nodes.len() {
            if let Some(end) = skip.get(&i) {
                i = *end;
                continue;
            }
            i = self.node(out, i);
        }
    }

    /// The worked-answers blocks written for the appendix, in order.
    pub(crate) fn worked(&mut self) -> Vec<String> {
        let blocks: Vec<_> = self.doc.worked.iter().map(|w| w.nodes.clone()).collect();
        blocks
            .into_iter()
            .map(|range| {
                let mut out = String::new();
                self.range(&mut out, range);
                out
            })
            .collect()
    }

    /// Node ranges left out of the chapter: start → end.
    fn skipped(&self) -> HashMap<usize, usize> {
        let mut skip: HashMap<usize, usize> = self
            .doc
            .worked
            .iter()
            .map(|w| (w.nodes.start, w.nodes.end))
            .collect();
        for r in self.footnotes.values() {
            skip.entry(r.start).or_insert(r.end);
        }
        skip
    }

    /// Writes the nodes of `range`.
    fn range(&mut self, out: &mut String, range: std::ops::Range<usize>) {
        let mut i = range.start;
        while i < range.end.min(self.doc.nodes.len()) {
            i = self.node(out, i);
        }
    }

    /// Writes node `i`; returns the index of the next node to write.
    fn node(&mut self, out: &mut String, i: usize) -> usize {
        let span = self.doc.spans.get(i).cloned().unwrap_or(0..0);
        match &self.doc.nodes[i] {
            Node::Markdown(event) => return self.event(out, i, event, &span),
            Node::Heading(_) if self.nested => out.push_str("\n#strong["),
            Node::Heading(h) => {
                self.pending_result = h.result;
                // A heading is at most one level below the one before it (PDF/UA allows no
                // skipped level: a `###` after a `#` is printed one level down).
                let level = (self.chapter.level + super::heading_level(h.level) - 1)
                    .min(self.last_level + 1);
                self.last_level = level;
                let label = self.printer.labels.heading(&self.chapter.path, &h.anchor);
                let _ = write!(out, "\n#heading(level: {level})[");
                if !self.first_heading && level == self.chapter.level {
                    if let Some(n) = &self.chapter.number {
                        text(out, n);
                        out.push(' ');
                    }
                }
                self.first_heading = true;
                self.heading = Some(label);
            }
            Node::Link(link) => self.link_start(out, link),
            Node::Image(link) => return self.image(out, i, link, &span),
            Node::Claims { checked, .. } => claims(out, checked),
            Node::InlineClaim { checked, .. } => inline_claim(out, checked),
            Node::Tex(tex) => self.tex(out, tex, &span),
            Node::Code(code) => self.code(out, code, &span),
            Node::Generated { blocks, .. } => {
                for g in blocks {
                    if let Some(block) = &g.block {
                        super::blocks::block(self, out, block, &g.span);
                    }
                }
            }
            Node::Example(example) => self.example(out, example, &span),
        }
        i + 1
    }

    /// An example the build ran: its source as code, then, in a frame, what it reported (as
    /// the build prints it) or the page it made.
    fn example(&mut self, out: &mut String, example: &'d Example, span: &Span) {
        self.code(out, &example.source, span);
        match &example.shows {
            Shows::Reports(text) => {
                out.push_str("\n#block(stroke: (left: 2pt + luma(150)), inset: (left: 8pt, y: 4pt), width: 100%)[#raw(block: true, ");
                string(out, text);
                out.push_str(")]\n\n");
            }
            Shows::Makes(Some(doc)) => {
                out.push_str("\n#block(stroke: 0.5pt + luma(150), inset: 8pt, width: 100%, breakable: true)[\n");
                let mut inner = LessonWriter::new(&mut *self.printer, self.chapter, doc);
                inner.nested = true;
                inner.range(out, 0..doc.nodes.len());
                out.push_str("]\n\n");
            }
            Shows::Makes(None) => {}
        }
    }

    /// The line under a named result's heading: its label and its status, in the words the
    /// page uses.
    fn result_status(&self, out: &mut String, index: usize) {
        let Some(r) = self.doc.results.get(index) else {
            return;
        };
        let status = r.status();
        out.push_str("#emph[");
        text(out, &format!("{}: {status}", r.label()));
        out.push_str("]\n\n");
    }

    /// The start of a link: inside the book a link to the label of its target, outside a link
    /// to its address; a file of the book that is not a page prints as text.
    fn link_start(&mut self, out: &mut String, link: &Link) {
        let inside = link
            .target
            .as_ref()
            .and_then(|t| self.printer.labels.target(&t.path, t.anchor.as_deref()));
        match inside {
            Some(label) => {
                let _ = write!(out, "#link(<{label}>)[");
            }
            None if link.link_type == LinkType::Email => {
                out.push_str("#link(");
                string(out, &format!("mailto:{}", link.url));
                out.push_str(")[");
            }
            None if link.target.is_none() && crate::site::html::is_external(&link.url) => {
                out.push_str("#link(");
                string(out, &link.url);
                out.push_str(")[");
            }
            None => out.push_str("#["),
        }
    }

    /// A LaTeX formula, inline or displayed.
    fn tex(&mut self, out: &mut String, tex: &Tex, span: &Span) {
        match math::tex(&tex.tex) {
            Ok(t) => equation(out, &t, tex.display),
            Err(reason) => {
                self.warn(span, format!("this formula cannot be typeset: {reason}"));
                out.push_str("#raw(");
                string(out, &tex.tex);
                out.push(')');
            }
        }
        if tex.display {
            out.push('\n');
        }
    }

    /// A code block as the reader sees it: its hidden lines left out, a line wider than the
    /// page broken where it must be (with a warning).
    fn code(&mut self, out: &mut String, code: &CodeBlock, span: &Span) {
        let mut shown = String::with_capacity(code.text.len());
        let mut widest = 0;
        for (n, line) in code.text.split_inclusive('\n').enumerate() {
            if code.hidden.get(n).copied().unwrap_or(false) {
                continue;
            }
            widest = widest.max(line.trim_end().chars().count());
            shown.push_str(line);
        }
        if widest > MAX_CODE_LINE {
            self.warn(
                span,
                format!(
                    "a line of {widest} characters is wider than the printed page (about {MAX_CODE_LINE}); it is printed broken over several lines"
                ),
            );
        }
        out.push_str("\n#raw(block: true, ");
        if !code.lang.is_empty() {
            out.push_str("lang: ");
            string(out, &code.lang);
            out.push_str(", ");
        }
        string(
            out,
            &breakable(shown.trim_end_matches('\n'), MAX_CODE_LINE - 4),
        );
        out.push_str(")\n\n");
    }

    /// An image: the file of the book it names, checked to be one Typst can draw; anything
    /// else is a warning and a frame with the image's text.
    fn image(&mut self, out: &mut String, i: usize, link: &Link, span: &Span) -> usize {
        // The alternative text is the image's content, up to its end.
        let mut alt = String::new();
        let mut j = i + 1;
        let mut depth = 1;
        while let Some(node) = self.doc.nodes.get(j) {
            j += 1;
            match node {
                Node::Markdown(Event::End(TagEnd::Image)) => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Node::Image(_) => depth += 1,
                Node::Markdown(Event::Text(t) | Event::Code(t)) => alt.push_str(t),
                _ => {}
            }
        }
        self.picture(out, &link.url, link.target.as_ref(), &alt, span);
        j
    }

    /// The image at `url` (leading to `target` in the book) with its alternative text, or a
    /// warning and a frame with that text.
    fn picture(
        &mut self,
        out: &mut String,
        url: &str,
        target: Option<&Target>,
        alt: &str,
        span: &Span,
    ) {
        match self.printer.image(url, target) {
            Ok(path) => {
                out.push_str("#box(image(");
                string(out, &path);
                out.push_str(", alt: ");
                string(out, alt);
                out.push_str("))");
            }
            Err(reason) => {
                self.warn(span, reason);
                out.push_str("#nb-missing[");
                text(
                    out,
                    &format!("[image: {}]", if alt.is_empty() { url } else { alt }),
                );
                out.push(']');
            }
        }
    }

    /// A markdown event; returns the index of the next node to write.
    fn event(&mut self, out: &mut String, i: usize, event: &Event<'static>, span: &Span) -> usize {
        match event {
            Event::Start(tag) => return self.start(out, i, tag),
            Event::End(tag) => self.end(out, *tag),
            Event::Text(t) => text(out, t),
            Event::Code(c) => {
                out.push_str("#raw(");
                string(out, &breakable(c, MAX_UNBROKEN));
                out.push(')');
            }
            Event::Html(h) | Event::InlineHtml(h) => self.html(out, h, span),
            Event::FootnoteReference(label) => self.footnote(out, label),
            Event::SoftBreak => out.push('\n'),
            Event::HardBreak => out.push_str("#linebreak()\n"),
            Event::Rule => out.push_str("\n#line(length: 100%, stroke: 0.5pt + nb-rule)\n\n"),
            Event::TaskListMarker(done) => out.push_str(if *done { "☑ " } else { "☐ " }),
            Event::InlineMath(t) | Event::DisplayMath(t) => {
                out.push_str("#raw(");
                string(out, t);
                out.push(')');
            }
        }
        i + 1
    }

    fn start(&mut self, out: &mut String, i: usize, tag: &Tag<'static>) -> usize {
        match tag {
            Tag::Paragraph | Tag::HtmlBlock | Tag::TableRow => {}
            Tag::BlockQuote(None) => out.push_str("\n#quote(block: true)["),
            Tag::BlockQuote(Some(kind)) => {
                let _ = write!(out, "\n#nb-admonition([{}])[", admonition_title(*kind));
            }
            Tag::List(None) => out.push_str("\n#list"),
            Tag::List(Some(n)) => {
                let _ = write!(out, "\n#enum(start: {n})");
            }
            Tag::Item => out.push('['),
            Tag::DefinitionList => out.push('\n'),
            Tag::DefinitionListTitle => out.push_str("#block(sticky: true)[#strong["),
            Tag::DefinitionListDefinition => out.push_str("#pad(left: 1.5em)["),
            Tag::Table(aligns) => self.table_start(out, i, aligns),
            Tag::TableHead => out.push_str("table.header("),
            Tag::TableCell => out.push('['),
            Tag::Emphasis => out.push_str("#emph["),
            Tag::Strong => out.push_str("#strong["),
            Tag::Strikethrough => out.push_str("#strike["),
            Tag::Superscript => out.push_str("#super["),
            Tag::Subscript => out.push_str("#sub["),
            // Links and images are typed nodes; a code block is one; a footnote's definition
            // is set where it is cited.
            Tag::Link { .. } | Tag::Image { .. } | Tag::CodeBlock(_) => out.push_str("#["),
            Tag::FootnoteDefinition(_) => {}
            Tag::MetadataBlock(_) => return self.skip_to_end(i),
            Tag::Heading { .. } => out.push_str("#strong["),
        }
        i + 1
    }

    fn end(&mut self, out: &mut String, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => out.push_str("\n\n"),
            TagEnd::Heading(_) => {
                out.push(']');
                if let Some(label) = self.heading.take() {
                    let _ = write!(out, " <{label}>");
                }
                out.push_str("\n\n");
                if let Some(r) = self.pending_result.take() {
                    self.result_status(out, r);
                }
            }
            TagEnd::BlockQuote(_) | TagEnd::DefinitionListDefinition => out.push_str("]\n"),
            TagEnd::DefinitionListTitle => out.push_str("]]\n"),
            TagEnd::List(_) | TagEnd::DefinitionList => out.push_str("\n\n"),
            TagEnd::Item
            | TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
            | TagEnd::CodeBlock => out.push(']'),
            TagEnd::Table => out.push_str("))\n\n"),
            TagEnd::TableHead => out.push_str("),"),
            TagEnd::TableCell => out.push_str("],"),
            // A block of raw HTML is a paragraph of its own.
            TagEnd::HtmlBlock => out.push_str("\n\n"),
            TagEnd::TableRow | TagEnd::FootnoteDefinition | TagEnd::MetadataBlock(_) => {}
        }
    }

    /// The index after the end of the container that starts at `i`.
    fn skip_to_end(&self, i: usize) -> usize {
        let mut depth = 0usize;
        for (j, node) in self.doc.nodes.iter().enumerate().skip(i) {
            match node {
                Node::Markdown(Event::Start(_))
                | Node::Heading(_)
                | Node::Link(_)
                | Node::Image(_) => {
                    depth += 1;
                }
                Node::Markdown(Event::End(_)) => {
                    depth -= 1;
                    if depth == 0 {
                        return j + 1;
                    }
                }
                _ => {}
            }
        }
        self.doc.nodes.len()
    }

    /// A markdown table, set smaller when its columns would not fit (and a warning when even
    /// that is not enough).
    fn table_start(&mut self, out: &mut String, i: usize, aligns: &[Alignment]) {
        let end = self.skip_to_end(i);
        let widths = column_widths(&self.doc.nodes[i..end], aligns.len());
        let needed: f64 = widths.iter().map(|w| *w as f64 * 0.55 + 1.2).sum();
        let scale = (COMFORTABLE_WIDTH / needed.max(1.0)).min(1.0);
        if scale < 0.6 {
            let span = self.doc.spans.get(i).cloned().unwrap_or(0..0);
            self.warn(
                &span,
                format!(
                    "this table is wider than the printed page ({} columns); it is printed at {}% of the text size",
                    aligns.len(),
                    (scale.max(0.6) * 100.0).round()
                ),
            );
        }
        let align: Vec<&str> = aligns
            .iter()
            .map(|a| match a {
                Alignment::Center => "center",
                Alignment::Right => "right",
                Alignment::Left | Alignment::None => "left",
            })
            .collect();
        let _ = write!(
            out,
            "\n#text(size: {:.2}em, table(columns: {}, align: ({},), ",
            scale.max(0.6),
            aligns.len().max(1),
            if align.is_empty() {
                "left".to_string()
            } else {
                align.join(", ")
            }
        );
    }

    /// Raw HTML: its text and images are kept, its other tags and comments are not (a `<br>`
    /// or the end of a block breaks the line).
    fn html(&mut self, out: &mut String, html: &str, span: &Span) {
        let mut i = 0;
        let mut plain = String::new();
        let mut block_ended = false;
        while i < html.len() {
            if self.in_comment {
                match html[i..].find("-->") {
                    Some(k) => {
                        i += k + 3;
                        self.in_comment = false;
                    }
                    None => return,
                }
                continue;
            }
            let rest = &html[i..];
            if rest.starts_with("<!--") {
                self.in_comment = true;
                i += 4;
                continue;
            }
            if rest.starts_with('<') {
                if let Some(tag) = crate::site::html::scan_tag(html, i) {
                    if let Some((src, alt)) = super::printer::img_source(&tag) {
                        html_text(out, &std::mem::take(&mut plain));
                        let target = target_of(&self.chapter.path, &src);
                        self.picture(out, &src, target.as_ref(), &alt, span);
                    } else if tag.name == "br" {
                        plain.push('\n');
                    } else if tag.closing && ends_a_line(&tag.name) && !plain.is_empty() {
                        // The next text, if any, starts a line.
                        block_ended = true;
                    }
                    i = tag.end;
                    continue;
                }
            }
            let c = rest.chars().next().unwrap_or(' ');
            if block_ended && !c.is_whitespace() {
                plain.push('\n');
                block_ended = false;
            }
            // A line end of the source is a space, as a browser reads it.
            plain.push(if c == '\n' { ' ' } else { c });
            i += c.len_utf8();
        }
        html_text(out, &plain);
        if html.ends_with('\n') {
            out.push('\n');
        }
    }

    /// A footnote citation: the footnote's body where it is first cited, a reference to it
    /// after.
    fn footnote(&mut self, out: &mut String, label: &str) {
        if let Some(first) = self.cited.get(label) {
            let _ = write!(out, "#footnote(<{first}>)");
            return;
        }
        let Some(range) = self.footnotes.get(label).cloned() else {
            text(out, &format!("[^{label}]"));
            return;
        };
        if self.in_footnote {
            text(out, &format!("[{label}]"));
            return;
        }
        let name = self.printer.labels.fresh("fn");
        self.cited.insert(label.to_string(), name.clone());
        self.in_footnote = true;
        out.push_str("#footnote[");
        self.range(out, range.start + 1..range.end - 1);
        self.in_footnote = false;
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        // The label right after the bracket: a space before it would be set as text.
        let _ = write!(out, "]<{name}>");
    }
}

/// The text of raw HTML, entities decoded, each `\n` a line break. The last line keeps its
/// trailing space: a picture may follow it (`text <img>`).
fn html_text(out: &mut String, plain: &str) {
    let decoded = crate::site::html::decode_attr(plain);
    let mut lines = decoded.split('\n').peekable();
    while let Some(line) = lines.next() {
        if lines.peek().is_some() {
            text(out, line.trim_end());
            out.push_str("#linebreak()\n");
        } else {
            text(out, line);
        }
    }
}

/// Whether the end of the element `name` ends a line of its text: a block, a row, a summary
/// (`<summary>More</summary>Hidden` is two lines, not "MoreHidden").
fn ends_a_line(name: &str) -> bool {
    const LINE_ENDERS: &[&str] = &[
        "p",
        "div",
        "summary",
        "details",
        "li",
        "tr",
        "dt",
        "dd",
        "blockquote",
        "figcaption",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "table",
    ];
    LINE_ENDERS.contains(&name)
}

/// The widest text of each column of a table, in characters.
fn column_widths(nodes: &[Node], columns: usize) -> Vec<usize> {
    let mut widths = vec![0; columns];
    let mut column = 0;
    let mut cell = 0;
    for node in nodes {
        match node {
            Node::Markdown(Event::Start(Tag::TableHead | Tag::TableRow)) => column = 0,
            Node::Markdown(Event::Start(Tag::TableCell)) => cell = 0,
            Node::Markdown(Event::End(TagEnd::TableCell)) => {
                if let Some(w) = widths.get_mut(column) {
                    *w = (*w).max(cell);
                }
                column += 1;
            }
            Node::Markdown(Event::Text(t) | Event::Code(t)) => {
                // A cell wraps at its spaces: its widest word is what must fit.
                let word = t.split_whitespace().map(|w| w.chars().count()).max();
                cell = cell.max(word.unwrap_or(0).min(MAX_UNBROKEN));
            }
            _ => {}
        }
    }
    widths
}

/// An admonition's title as mdBook shows it.
fn admonition_title(kind: BlockQuoteKind) -> &'static str {
    crate::site::lesson::page::admonition(kind).1
}

/// A `nim` block: each statement as checked, the page's mark beside each that holds; a
/// derivation written over several lines one step to a row.
fn claims(out: &mut String, checked: &[Checked]) {
    use crate::claim::ast::{Claim, Statement};
    out.push_str("\n#nb-claims(");
    for c in checked {
        let holds = c.status == Status::Holds;
        if let (Some(Statement::Claim(Claim::Chain(chain))), true) =
            (c.stmt.as_ref().map(|s| &s.stmt), c.source.contains('\n'))
        {
            out.push('[');
            formula(out, &Formula::expr(&chain.first, chain.first.to_string()));
            out.push_str("], [],");
            for link in &chain.links {
                let mut f = Formula::expr(&link.rhs, link.rhs.to_string());
                f.items.insert(
                    0,
                    crate::site::lesson::notation::Math::Op(link.rel.symbol().into()),
                );
                out.push('[');
                formula(out, &f);
                let _ = write!(out, "], [#nb-mark[{}]],", if holds { "✓" } else { "" });
            }
            continue;
        }
        out.push('[');
        match &c.stmt {
            Some(s) => formula(
                out,
                &Formula::statement(&s.stmt, c.value.as_ref(), c.witness.as_deref()),
            ),
            None => {
                out.push_str("#raw(");
                string(out, &c.source);
                out.push(')');
            }
        }
        let shown = if holds {
            mark(c, "✓ verified")
        } else {
            String::new()
        };
        out.push_str("], [#nb-mark[");
        text(out, &shown);
        out.push_str("]],");
    }
    out.push_str(")\n\n");
}

/// An inline claim: a computed value, or a claim with its mark.
fn inline_claim(out: &mut String, c: &Checked) {
    match (&c.stmt, c.status, &c.value) {
        (_, Status::Value, Some(v)) => {
            let mut items = Vec::new();
            crate::site::lesson::notation::value(&mut items, v);
            formula(
                out,
                &Formula {
                    items,
                    text: crate::site::lesson::notation::value_text(v),
                },
            );
        }
        (Some(s), status, _) => {
            formula(
                out,
                &Formula::statement(&s.stmt, c.value.as_ref(), c.witness.as_deref()),
            );
            if status == Status::Holds {
                out.push_str("#h(0.2em)#nb-mark[");
                text(out, &mark(c, "✓"));
                out.push(']');
            }
        }
        (None, _, _) => {
            out.push_str("#raw(");
            string(out, &c.source);
            out.push(')');
        }
    }
}
