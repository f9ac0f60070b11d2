//! The checked document: what the lesson stage hands to every writer.
//!
//! One pass over a lesson's markdown checks it and builds a [`Document`]: the markdown's
//! structure as pulldown-cmark events made owned, and, where the build made something, a typed
//! node instead: a `nim` block's checked statements, an inline claim, a LaTeX formula, a code
//! block with its hidden lines, a `nimbook` block's directive results as [`Block`]s. Headings
//! carry their final anchors and links their resolved targets. In the spirit of Typst's
//! content tree, every writer walks the same document (the page's HTML is `page`) and none
//! checks, computes or parses markdown again, so two outputs cannot disagree about what was
//! checked.
//!
//! The document is a flat sequence, as pulldown-cmark's events are: a container is a `Start`
//! node, its content, and an `End` node. What the page does from that structure alone
//! (footnotes gathered at the end, admonition frames, table wrappers, heading anchor links,
//! leaving worked answers out in graded mode) is the HTML writer's business.

use std::ops::Range;

use pulldown_cmark::{CowStr, Event, HeadingLevel, LinkType};

use super::blocks::Block;
use super::results::NamedResult;
use crate::claim::Checked;
use crate::diag::Span;

/// One checked lesson.
#[derive(Debug, Clone, Default)]
pub(crate) struct Document {
    /// The nodes, in reading order.
    pub(crate) nodes: Vec<Node>,
    /// Where each node stands in the lesson (a container: its whole extent), for a writer's
    /// warnings.
    pub(crate) spans: Vec<Span>,
    /// The worked-answers blocks (see `worked`), in document order.
    pub(crate) worked: Vec<Worked>,
    /// Graded mode: worked answers and answer keys stay off the page (and off paper).
    pub(crate) answers_hidden: bool,
    /// The named results (theorems, lemmas, …), in document order; a result's heading holds
    /// its index here (see `results`).
    pub(crate) results: Vec<NamedResult>,
    /// The lesson's text, for a writer to place its warnings.
    #[cfg_attr(not(feature = "pdf"), allow(dead_code))]
    pub(crate) file: Option<std::sync::Arc<crate::diag::SourceFile>>,
}

/// One node of a document.
#[derive(Debug, Clone)]
pub(crate) enum Node {
    /// A markdown event the build only carries: text (exemption braces already removed),
    /// emphasis, lists, tables, quotes, footnotes, raw HTML, the end of a heading or link.
    Markdown(Event<'static>),
    /// The start of a heading.
    Heading(Heading),
    /// The start of a link.
    Link(Link),
    /// The start of an image: its address as written, and the file it names in the book.
    Image(Link),
    /// A `nim` block: its statements as checked.
    Claims {
        /// The fenced block's byte range in the lesson.
        range: Range<usize>,
        /// Each statement as checked, in order.
        checked: Vec<Checked>,
    },
    /// An inline claim, `` `nim: …` ``, as checked.
    InlineClaim {
        /// The span's byte range in the lesson, backticks included.
        range: Range<usize>,
        /// The statement as checked.
        checked: Checked,
    },
    /// A LaTeX formula that parsed.
    Tex(Tex),
    /// A code block shown as code.
    Code(CodeBlock),
    /// A `nimbook` block: what each of its directives made.
    Generated {
        /// The fenced block's byte range in the lesson.
        range: Range<usize>,
        /// Each directive that ran without error, in order.
        blocks: Vec<Generated>,
    },
    /// An example the build ran and that did what its fence says (see `expected`).
    Example(Example),
}

/// An example the build ran: its source, and what it reported or made.
#[derive(Debug, Clone)]
pub(crate) struct Example {
    /// The fenced block's byte range in the lesson.
    pub(crate) range: Range<usize>,
    /// The source, shown as code (no language: claims and directives as they are written).
    pub(crate) source: CodeBlock,
    /// What the page shows under it.
    pub(crate) shows: Shows,
}

/// What a page shows under an example's source.
#[derive(Debug, Clone)]
pub(crate) enum Shows {
    /// A failing example: its diagnostics, rendered as the build prints them.
    Reports(String),
    /// A worked example: the document it made (none for a file with nothing to show, such as a
    /// `book.toml`).
    Makes(Option<Box<Document>>),
}

/// A heading's start, with its final anchor.
#[derive(Debug, Clone)]
pub(crate) struct Heading {
    /// Its level.
    pub(crate) level: HeadingLevel,
    /// Its anchor, unique in the page.
    pub(crate) anchor: String,
    /// Its text, as it reads (claims in the reader's notation).
    pub(crate) title: String,
    /// Where it starts in the lesson.
    pub(crate) offset: usize,
    /// Classes written in the source (`{.class}`).
    pub(crate) classes: Vec<CowStr<'static>>,
    /// Attributes written in the source.
    pub(crate) attrs: Vec<(CowStr<'static>, Option<CowStr<'static>>)>,
    /// When the heading names a result, its index in [`Document::results`].
    pub(crate) result: Option<usize>,
}

/// A link's or an image's start.
#[derive(Debug, Clone)]
pub(crate) struct Link {
    /// What kind of link markdown made.
    pub(crate) link_type: LinkType,
    /// The address the page uses: a lesson's `.md` rewritten to its page.
    pub(crate) url: CowStr<'static>,
    /// The title.
    pub(crate) title: CowStr<'static>,
    /// A reference link's label.
    pub(crate) id: CowStr<'static>,
    /// Where it leads inside the book, when it does.
    pub(crate) target: Option<Target>,
    /// Where it stands in the lesson.
    pub(crate) span: Span,
}

/// Where a link leads inside the book.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    /// The source path of the file, relative to the source folder (`part/b.md`); the lesson's
    /// own for a bare `#anchor`.
    pub(crate) path: String,
    /// The anchor after `#`.
    pub(crate) anchor: Option<String>,
}

/// A LaTeX formula. The document holds only formulas that parse; each writer walks
/// pulldown-latex's events of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tex {
    /// The LaTeX source.
    pub(crate) tex: String,
    /// Display math (`$$…$$`) rather than inline.
    pub(crate) display: bool,
}

/// A code block shown as code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CodeBlock {
    /// The language: the fence's first word, empty for an indented block or a bare fence.
    pub(crate) lang: String,
    /// The fence's other words (`editable`, `no_run`), and a playground block's edition, as
    /// mdBook gives them to the `<code>` as classes.
    pub(crate) classes: Vec<String>,
    /// Whether the page gives it a Run button (see `codelines`).
    pub(crate) playground: bool,
    /// The text, hidden lines' markers removed.
    pub(crate) text: String,
    /// For each line, whether it is hidden until the reader asks (empty: none is).
    pub(crate) hidden: Vec<bool>,
}

/// What one directive of a `nimbook` block made.
#[derive(Debug, Clone)]
pub(crate) struct Generated {
    /// The directive's span in the lesson.
    pub(crate) span: Span,
    /// Its block; `None` when an error already reported (a choice's option that is not a
    /// claim) leaves nothing to show.
    pub(crate) block: Option<Block>,
}

/// A worked-answers block: the nodes from its `<details>` to its `</details>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Worked {
    /// Its nodes.
    pub(crate) nodes: Range<usize>,
    /// Its byte range in the lesson.
    pub(crate) range: Range<usize>,
}

impl Document {
    /// Adds a node that stands at `span` of the lesson.
    pub(crate) fn push(&mut self, node: Node, span: Span) {
        self.nodes.push(node);
        self.spans.push(span);
    }

    /// Every statement of the claim language as it was checked, in document order.
    pub(crate) fn checked(&self) -> impl Iterator<Item = &Checked> {
        self.nodes.iter().flat_map(|n| match n {
            Node::Claims { checked, .. } => checked.as_slice(),
            Node::InlineClaim { checked, .. } => std::slice::from_ref(checked),
            _ => &[],
        })
    }

    /// Every link and image that leads inside the book, with where it stands, in order.
    pub(crate) fn links(&self) -> impl Iterator<Item = (&Target, &Span)> {
        self.nodes.iter().filter_map(|n| match n {
            Node::Link(l) | Node::Image(l) => l.target.as_ref().map(|t| (t, &l.span)),
            _ => None,
        })
    }

    /// The headings' anchors and titles, in order.
    pub(crate) fn headings(&self) -> impl Iterator<Item = &Heading> {
        self.nodes.iter().filter_map(|n| match n {
            Node::Heading(h) => Some(h),
            _ => None,
        })
    }
}

/// The owned copy of a markdown event.
pub(crate) fn owned(event: &Event<'_>) -> Event<'static> {
    event.clone().into_static()
}
