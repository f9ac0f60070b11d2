//! The lesson stage: one lesson from markdown to a checked HTML fragment, its diagnostics, its
//! number account and its answer key. It knows nothing of templates, servers, handouts or output
//! folders, and writes no file.
//!
//! [`check_lesson`] is the stage as a library call, for tools that check one lesson at a time
//! (an editor, an mdBook preprocessor): a lesson's text, its path and a book's
//! [`LessonSettings`] in, a [`LessonCheck`] out.
//!
//! ```
//! use nimbook::site::lesson::{check_lesson, LessonSettings};
//!
//! let settings = LessonSettings::default();
//! let text = "# Sums\n\nThe nim-sum `nim: 7 + 14 = 9`.\n\n```nim\n6 * 13 = 15\n```\n";
//! let lesson = check_lesson(text, "sums.md", &settings);
//! assert_eq!(lesson.errors, 0);
//! assert_eq!(lesson.claims, 2);
//! assert!(lesson.html.contains("<h1 id=\"sums\">"));
//!
//! // A false claim is a located error, and the fragment is still made.
//! let lesson = check_lesson("```nim\n6 * 13 = 14\n```\n", "bad.md", &settings);
//! assert_eq!(lesson.errors, 1);
//! assert_eq!(lesson.diagnostics[0].position(), Some(("bad.md".to_string(), 2, 1)));
//! ```

pub(crate) mod blocks;
pub(crate) mod book;
pub(crate) mod claims;
pub(crate) mod codelines;
pub(crate) mod context;
pub(crate) mod coverage;
pub(crate) mod directives;
pub(crate) mod document;
pub(crate) mod expected;
pub(crate) mod footnotes;
pub(crate) mod highlight;
pub(crate) mod links;
pub(crate) mod markdown;
pub(crate) mod mathml;
pub(crate) mod memo;
pub(crate) mod notation;
pub(crate) mod page;
pub(crate) mod report;
pub(crate) mod results;
pub(crate) mod texmath;
pub(crate) mod worked;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use crate::claim::Limits;
use crate::diag::{Diagnostic, Level, SourceFile};
use crate::site::load::config::Config;
use crate::site::load::lints::{Lint, LintLevel, Lints};
use crate::site::load::Fatal;
pub use context::AnswerKey;
use context::LessonContext;
use coverage::NumberCounts;
use markdown::Flavour;

/// What checking a lesson needs to know of its book: which markdown it speaks, the lint levels
/// and the checker's limits, and, if given, the other lessons a link may name.
#[derive(Debug, Clone)]
pub struct LessonSettings {
    flavour: Flavour,
    lints: Lints,
    limits: Limits,
    pages: Option<HashMap<String, HashSet<String>>>,
    /// Graded mode: the book's part of every question's salt (its title); `None` shows the
    /// answers.
    answer_salt: Option<String>,
    /// The build's memory of decided results (the cache); `None` decides everything.
    memo: Option<memo::MemoView>,
}

impl Default for LessonSettings {
    /// The settings of a nimbook book with the default `book.toml`: claims checked, the number
    /// lints at `warn` and `broken-links` denied, the default limits, links not checked until
    /// [`LessonSettings::set_pages`] names the pages.
    fn default() -> Self {
        LessonSettings {
            flavour: Flavour::nimbook(),
            // A nimbook book denies broken links; the number lints warn.
            lints: Lints {
                broken_links: crate::site::load::lints::LintLevel::Deny,
                ..Lints::default()
            },
            limits: Limits::default(),
            pages: None,
            answer_salt: None,
            memo: None,
        }
    }
}

impl LessonSettings {
    /// The settings of the book whose root folder is `root`, from its `book.toml`.
    pub fn load(root: &Path) -> Result<Self, Fatal> {
        let files = crate::site::load::confine::Reader::new(
            root,
            &[],
            crate::site::load::confine::DEFAULT_MAX_LESSON_BYTES,
            crate::site::load::confine::Trust::Trusted,
        )?;
        Ok(Self::of(&Config::load(&files)?))
    }

    /// The settings of a book from the text of its `book.toml` (named `name` in errors). A book
    /// whose lessons are in `content/` is a nimbook book even without `[nimbook]`; only
    /// [`LessonSettings::load`] can see that.
    pub fn from_book_toml(text: &str, name: &str) -> Result<Self, Fatal> {
        Ok(Self::of(&Config::parse(text, name)?))
    }

    /// Settings with a markdown flavour and lint levels of the caller's own, the rest from
    /// `config`, for a front end that speaks another tool's markdown (`site::embed`, for
    /// mdBook: only the claim forms are nimbook's).
    pub(crate) fn with_flavour(flavour: Flavour, lints: Lints, config: &Config) -> Self {
        LessonSettings {
            flavour,
            lints,
            limits: config.limits(),
            pages: None,
            // Graded mode: the book's title salts every answer's hash.
            answer_salt: config
                .answers_hidden()
                .then(|| config.book.title.clone().unwrap_or_default()),
            memo: None,
        }
    }

    /// Recalls and remembers decided results in `memo` (see [`memo`]), or decides everything
    /// (`None`).
    pub(crate) fn set_memo(&mut self, memo: Option<memo::MemoView>) {
        self.memo = memo;
    }

    /// The settings of a parsed configuration.
    pub(crate) fn of(config: &Config) -> Self {
        Self::with_flavour(Flavour::of(config), config.lints(), config)
    }

    /// The lint levels.
    pub(crate) fn lints(&self) -> Lints {
        self.lints
    }

    /// Sets one lint's level (as `--deny` or `--warn` does).
    pub fn set_lint(&mut self, lint: Lint, level: LintLevel) {
        self.lints.set(lint, level);
    }

    /// Replaces the checker's limits.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Checks links against these lessons of the book: each a source path relative to the
    /// source folder (`part/b.md`) with the anchors of its page. A link to a lesson not named,
    /// or to an anchor its page lacks, is then an error; the lesson's own anchors need not be
    /// given. Links to other files are not checked.
    pub fn set_pages(&mut self, pages: impl IntoIterator<Item = (String, Vec<String>)>) {
        self.pages = Some(
            pages
                .into_iter()
                .map(|(path, anchors)| (path, anchors.into_iter().collect()))
                .collect(),
        );
    }
}

/// A lesson's page and what its checker found, before links are checked.
pub(crate) struct Rendered {
    /// The page.
    pub(crate) page: markdown::RenderedPage,
    /// The checker's diagnostics, in document order.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Claims checked.
    pub(crate) claims: usize,
}

/// Checks and renders the lesson in `file`, whose source path is `path`.
pub(crate) fn render(file: Arc<SourceFile>, path: &str, settings: &LessonSettings) -> Rendered {
    let mut lesson = LessonContext::new(file, settings.limits.clone(), settings.memo.clone());
    lesson.set_answer_salt(
        settings
            .answer_salt
            .as_ref()
            .map(|book| format!("{book}/{path}")),
    );
    let page = markdown::render_with(&mut lesson, path, &settings.flavour, settings.lints);
    let found = lesson.finish();
    Rendered {
        page,
        diagnostics: found.diagnostics,
        claims: found.claims,
    }
}

/// One lesson after checking: its HTML fragment and what the check found.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct LessonCheck {
    /// The body HTML, without a page around it.
    pub html: String,
    /// Every diagnostic, in document order (links last).
    pub diagnostics: Vec<Diagnostic>,
    /// Claims checked.
    pub claims: usize,
    /// Errors among the diagnostics.
    pub errors: usize,
    /// The number account: verified, unverified and exempt numbers.
    pub numbers: NumberCounts,
    /// The answer key of the lesson's exercises, in document order.
    pub answers: Vec<AnswerKey>,
    /// Every `id` of the fragment: the anchors a link to this lesson may name.
    pub anchors: Vec<String>,
}

/// Checks one lesson: `text` is its markdown, `path` its source path relative to the book's
/// source folder (`part/b.md`, which names it in diagnostics and resolves its relative links).
/// Writes nothing and reads no file.
pub fn check_lesson(text: &str, path: &str, settings: &LessonSettings) -> LessonCheck {
    let Rendered {
        page,
        diagnostics,
        claims,
    } = render_linked(text, path, settings);
    LessonCheck {
        errors: diagnostics
            .iter()
            .filter(|d| d.level == Level::Error)
            .count(),
        html: page.html,
        diagnostics,
        claims,
        numbers: page.numbers,
        answers: page.answers,
        anchors: page.anchors,
    }
}

/// [`check_lesson`]'s work, the rendered page kept whole (its document too), with the links
/// checked when the settings name the pages.
pub(crate) fn render_linked(text: &str, path: &str, settings: &LessonSettings) -> Rendered {
    let file = SourceFile::new(path, text);
    let Rendered {
        page,
        mut diagnostics,
        claims,
    } = render(Arc::clone(&file), path, settings);
    if let Some(pages) = &settings.pages {
        let mut pages: HashMap<String, HashSet<&str>> = pages
            .iter()
            .map(|(p, a)| (p.clone(), a.iter().map(String::as_str).collect()))
            .collect();
        pages.insert(
            path.to_string(),
            page.anchors.iter().map(String::as_str).collect(),
        );
        let chapters: HashSet<String> = pages.keys().cloned().collect();
        let targets = links::Targets::new(&pages, &chapters);
        let level = match settings.lints.broken_links {
            LintLevel::Allow => None,
            LintLevel::Warn => Some(crate::diag::Level::Warning),
            LintLevel::Deny => Some(crate::diag::Level::Error),
        };
        for link in page.links.iter().filter(|_| level.is_some()) {
            if let (Some(problem), Some(level)) = (targets.problem(link, |_| true), level) {
                diagnostics.push(links::broken(problem, level).at(&file, link.span.clone()));
            }
        }
    }
    Rendered {
        page,
        diagnostics,
        claims,
    }
}
