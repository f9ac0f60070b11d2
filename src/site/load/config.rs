//! `book.toml`, read into typed tables that reject unknown keys.
//!
//! The `[book]` and `[build]` tables take mdBook's keys, so an mdBook book builds unchanged;
//! `[nimbook]` holds the budgets of the checker, and its presence (or lessons in `content/`)
//! marks a *nimbook book* (one whose `nim` fences are claims and whose `$…$` is LaTeX). `[output.html]` and
//! `[preprocessor.*]` are read into typed tables that accept every key of mdBook 0.5; which of
//! those keys nimbook uses, and why it ignores the others, is said once, in [`super::compat`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use super::confine::{self, Reader, Trust};
use super::lints::{LintLevel, Lints};
use crate::claim::Limits;
use crate::diag::Fatal;
use crate::diag::{Code, Diagnostic, SourceFile};

/// The longest one preprocessor may run when `preprocessor-seconds` is not set.
pub(crate) const DEFAULT_PREPROCESSOR_SECONDS: u64 = 60;

/// The longest one renderer command may run when `renderer-seconds` is not set: an hour, since
/// a link checker that follows every web link of a large book takes minutes.
pub(crate) const DEFAULT_RENDERER_SECONDS: u64 = 3600;

/// The whole of `book.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Config {
    /// `[book]`
    #[serde(default)]
    pub book: BookTable,
    /// `[build]`
    #[serde(default)]
    pub build: BuildTable,
    /// `[nimbook]`; `None` when the table is absent, which makes the book a plain mdBook book.
    #[serde(default)]
    pub nimbook: Option<NimbookTable>,
    /// mdBook's renderer tables, `[output.NAME]`; nimbook renders `html` only.
    #[serde(default)]
    pub output: std::collections::BTreeMap<String, toml::Table>,
    /// mdBook's preprocessors, `[preprocessor.NAME]`, run by [`crate::site::preprocess`].
    #[serde(default)]
    pub preprocessor: std::collections::BTreeMap<String, PreprocessorTable>,
    /// mdBook's `[rust]` table: the edition Rust examples run in on the playground.
    #[serde(default)]
    pub rust: RustTable,
    /// `[output.html]`, typed; filled by [`Config::parse`].
    #[serde(skip)]
    pub html: HtmlTable,
    /// Every `[output.NAME]` table's `command` and `optional`, typed; filled by
    /// [`Config::parse`] (see [`super::layout`]).
    #[serde(skip)]
    pub renderers: std::collections::BTreeMap<String, RendererTable>,
    /// Whether the lessons are in a folder named `content` (nimbook's layout); set by
    /// [`Config::load`].
    #[serde(skip)]
    pub content_layout: bool,
    /// The text of `book.toml`, as read once by [`Config::load`].
    #[serde(skip)]
    pub text: String,
}

/// `[preprocessor.NAME]`: how and when to run one preprocessor, as mdBook does.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct PreprocessorTable {
    /// The command line; mdBook's default is `mdbook-NAME`.
    pub command: Option<String>,
    /// The renderers it runs for; all when absent.
    pub renderers: Option<Vec<String>>,
    /// Preprocessors this one must run before.
    #[serde(default)]
    pub before: Vec<String>,
    /// Preprocessors this one must run after.
    #[serde(default)]
    pub after: Vec<String>,
    /// Whether a missing command is only a warning.
    #[serde(default)]
    pub optional: bool,
    /// The preprocessor's own settings, passed on to it in the context.
    #[serde(flatten)]
    pub extra: toml::Table,
}

impl PreprocessorTable {
    /// Whether `[preprocessor.NAME]` is mdBook's own `links` or `index`, which nimbook runs
    /// itself: those names with no `command` of their own.
    pub(crate) fn is_builtin(&self, name: &str) -> bool {
        (name == "links" || name == "index") && self.command.is_none()
    }

    /// The command line of `[preprocessor.NAME]`: `command`, or mdBook's `mdbook-NAME`.
    pub(crate) fn command_line(&self, name: &str) -> String {
        self.command
            .clone()
            .unwrap_or_else(|| format!("mdbook-{name}"))
    }
}

/// `[rust]`, as mdBook reads it.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RustTable {
    /// The edition code blocks are compiled in when a reader runs them (`2015` if not set).
    pub edition: Option<RustEdition>,
}

/// A Rust edition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub(crate) enum RustEdition {
    /// Rust 2015.
    #[serde(rename = "2015")]
    E2015,
    /// Rust 2018.
    #[serde(rename = "2018")]
    E2018,
    /// Rust 2021.
    #[serde(rename = "2021")]
    E2021,
    /// Rust 2024.
    #[serde(rename = "2024")]
    E2024,
}

impl RustEdition {
    /// The year, as the playground and the code block's class (`edition2021`) write it.
    pub(crate) fn year(self) -> &'static str {
        match self {
            RustEdition::E2015 => "2015",
            RustEdition::E2018 => "2018",
            RustEdition::E2021 => "2021",
            RustEdition::E2024 => "2024",
        }
    }
}

/// What every `[output.NAME]` table says about running its renderer, as mdBook reads it.
#[derive(Debug, Default, Clone, Deserialize)]
pub(crate) struct RendererTable {
    /// The command of a renderer other than `html` and `markdown` (mdBook's default is
    /// `mdbook-NAME`).
    pub command: Option<String>,
    /// Whether a missing command is only a warning.
    #[serde(default)]
    pub optional: bool,
}

/// Checks `[output.pdf]`'s `file`: a plain file name ending in `.pdf`, since it is written
/// into the site's folder.
fn check_pdf_table(table: &toml::Table, text: &str, name: &str) -> Result<(), Fatal> {
    let Some(file) = table.get("file") else {
        return Ok(());
    };
    let ok = file.as_str().is_some_and(|f| {
        f.ends_with(".pdf") && f.len() > 4 && !f.starts_with('.') && !f.contains(['/', '\\', '\0'])
    });
    if ok {
        return Ok(());
    }
    let source = SourceFile::new(name, text);
    let at = text
        .find("[output.pdf]")
        .map_or(0..0, |i| i..i + "[output.pdf]".len());
    Err(Box::new(
        Diagnostic::error(
            Code::InvalidConfig,
            format!("invalid book.toml: `[output.pdf] file = {file}` must be a file name ending in .pdf"),
        )
        .at(&source, at)
        .help("the PDF is written into the site's folder: name it like `course.pdf`, without a folder"),
    ))
}

/// The keys of `[output.html]` that nimbook acts on. Every other key of mdBook 0.5 is accepted
/// with a warning from [`super::compat`].
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct HtmlTable {
    /// Curly quotes and dashes; mdBook's default is on, a nimbook book's is off.
    pub smart_punctuation: Option<bool>,
    /// mdBook's older name for `smart-punctuation`.
    pub curly_quotes: Option<bool>,
    /// `\( \)`, `\[ \]` and `$$` are LaTeX, rendered to MathML at build time.
    #[serde(default)]
    pub mathjax_support: bool,
    /// `Term` / `: definition` lists (default on).
    pub definition_lists: Option<bool>,
    /// `> [!NOTE]` admonitions (default on).
    pub admonitions: Option<bool>,
    /// Stylesheets of the book, linked from every page after nimbook's own.
    #[serde(default)]
    pub additional_css: Vec<PathBuf>,
    /// Scripts of the book, loaded by every page.
    #[serde(default)]
    pub additional_js: Vec<PathBuf>,
    /// The chapter rendered as `404.html` (default `404.md`, else a built-in page).
    pub input_404: Option<String>,
    /// The absolute URL path the site is served under, for links on `404.html`.
    pub site_url: Option<String>,
    /// No section numbers in the sidebar.
    #[serde(default)]
    pub no_section_label: bool,
    /// `[output.html.print]`
    #[serde(default)]
    pub print: PrintTable,
    /// `[output.html.code]`
    #[serde(default)]
    pub code: CodeTable,
    /// `[output.html.fold]`: which sections of the sidebar start folded.
    #[serde(default)]
    pub fold: FoldTable,
    /// `[output.html.redirect]`: old path → new URL; each old path gets a redirect page.
    #[serde(default)]
    pub redirect: std::collections::BTreeMap<String, String>,
    /// `[output.html.search]`: the keys of mdBook's search that nimbook's search follows.
    #[serde(default)]
    pub search: SearchTable,
    /// The book's repository: a link in the top bar of every page.
    pub git_repository_url: Option<String>,
    /// The URL of a page's source for editing, `{path}` standing for the file's path from the
    /// book root: a "Suggest an edit" link on every chapter's page.
    pub edit_url_template: Option<String>,
    /// The theme a page starts in when the reader's system is light (mdBook's theme names).
    pub default_theme: Option<String>,
    /// The theme a page starts in when the reader's system is dark.
    pub preferred_dark_theme: Option<String>,
    /// `[output.html.playground]` (mdBook's older name: `playpen`).
    #[serde(default, alias = "playpen")]
    pub playground: PlaygroundTable,
    /// The HTML of `theme/head.hbs`, for every page's head; set by [`super::load`].
    #[serde(skip)]
    pub head: String,
}

/// `[output.html.playground]`: Rust code blocks a reader can run on the Rust playground.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct PlaygroundTable {
    /// Whether Rust code blocks get a play button (default on).
    #[serde(default = "yes")]
    pub runnable: bool,
    /// Whether a code block marked `editable` can be edited before it is run (default off).
    #[serde(default)]
    pub editable: bool,
    /// Whether every code block gets a copy button (default on).
    #[serde(default = "yes")]
    pub copyable: bool,
}

impl Default for PlaygroundTable {
    fn default() -> Self {
        PlaygroundTable {
            runnable: true,
            editable: false,
            copyable: true,
        }
    }
}

/// `[output.html.search]`, as far as nimbook's search follows it (the other keys warn).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct SearchTable {
    /// Whether the site has a search box and index (default on).
    #[serde(default = "yes")]
    pub enable: bool,
    /// The most results listed.
    pub limit_results: Option<u32>,
    /// The weight of a match in a section's heading.
    pub boost_title: Option<u32>,
    /// The weight of a match in the page's title.
    pub boost_hierarchy: Option<u32>,
    /// The weight of a match in the text.
    pub boost_paragraph: Option<u32>,
    /// Headings deeper than this do not start sections of their own (mdBook's default 3).
    #[serde(default = "three")]
    pub heading_split_level: u8,
    /// Per chapter path or folder prefix: `{ enable = false }` leaves it out of the index.
    #[serde(default)]
    pub chapter: std::collections::BTreeMap<String, SearchChapter>,
    /// Whether a result must hold every word searched for (mdBook's default: any word).
    pub use_boolean_and: Option<bool>,
    /// Whether a word searched for matches the words it begins (`micro` finds `microwave`;
    /// mdBook's default) rather than only itself.
    pub expand: Option<bool>,
}

impl Default for SearchTable {
    fn default() -> Self {
        SearchTable {
            enable: true,
            limit_results: None,
            boost_title: None,
            boost_hierarchy: None,
            boost_paragraph: None,
            heading_split_level: 3,
            chapter: std::collections::BTreeMap::new(),
            use_boolean_and: None,
            expand: None,
        }
    }
}

impl SearchTable {
    /// Whether the chapter at `path` (its source path) is searched: the longest key of
    /// `[output.html.search.chapter]` that is the path or a folder of it decides, as in mdBook.
    pub(crate) fn includes(&self, path: &str) -> bool {
        self.chapter
            .iter()
            .filter(|(k, _)| {
                let k = k.trim_end_matches('/');
                path == k
                    || path.strip_prefix(k).is_some_and(|r| r.starts_with('/'))
                    || k.is_empty()
            })
            .max_by_key(|(k, _)| k.len())
            .is_none_or(|(_, c)| c.enable)
    }
}

/// One entry of `[output.html.search.chapter]`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct SearchChapter {
    /// Whether the chapter (or folder) is searched.
    #[serde(default = "yes")]
    pub enable: bool,
}

fn three() -> u8 {
    3
}

/// `[output.html.print]`
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct PrintTable {
    /// Whether `print.html` is written (default on).
    #[serde(default = "yes")]
    pub enable: bool,
}

impl Default for PrintTable {
    fn default() -> Self {
        PrintTable { enable: true }
    }
}

/// `[output.html.fold]`, with mdBook's meaning: when `enable` is on, a chapter's sub-chapters
/// start hidden unless the chapter is nested less than `level` deep (so `level = 0` folds every
/// section, `level = 1` shows the top-level chapters' sub-chapters), or the page being read is
/// the chapter itself or below it. Off (the default), every section starts unfolded. Either way
/// the reader can fold and unfold each section.
#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FoldTable {
    /// Whether sections start folded.
    #[serde(default)]
    pub enable: bool,
    /// How many levels of the sidebar start unfolded when `enable` is on.
    #[serde(default)]
    pub level: u8,
}

impl FoldTable {
    /// The number of levels that start unfolded, or `None` when every level does.
    pub(crate) fn unfolded_levels(self) -> Option<u8> {
        self.enable.then_some(self.level)
    }
}

fn yes() -> bool {
    true
}

/// `[output.html.code]`
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct CodeTable {
    /// Per language, the prefix that hides a line of code (Rust's `# ` is built in).
    #[serde(default)]
    pub hidelines: std::collections::BTreeMap<String, String>,
}

/// `[book]`: mdBook's keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BookTable {
    /// The book's title.
    #[serde(default)]
    pub title: Option<String>,
    /// The authors.
    #[serde(default)]
    pub authors: Vec<String>,
    /// A one-line description, used in the page metadata.
    #[serde(default)]
    pub description: Option<String>,
    /// The language code of the text, for `<html lang=…>`.
    #[serde(default = "default_language")]
    pub language: String,
    /// The folder of the lessons, relative to the book root; see [`Config::src_dir`].
    #[serde(default)]
    pub src: Option<PathBuf>,
    /// mdBook's old `multilingual` flag: accepted, not used.
    #[serde(default)]
    // Read by serde only: the key is accepted so that mdBook's book.toml parses.
    #[allow(dead_code)]
    pub multilingual: Option<bool>,
    /// The direction of the text, written as `<html dir=…>`.
    #[serde(default, rename = "text-direction")]
    pub text_direction: TextDirection,
}

/// mdBook's `text-direction`: which way the book's script runs.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum TextDirection {
    /// Left to right.
    #[default]
    Ltr,
    /// Right to left.
    Rtl,
}

impl Default for BookTable {
    fn default() -> Self {
        BookTable {
            title: None,
            authors: Vec::new(),
            description: None,
            language: default_language(),
            src: None,
            multilingual: None,
            text_direction: TextDirection::default(),
        }
    }
}

fn default_language() -> String {
    "en".into()
}
fn default_build_dir() -> PathBuf {
    PathBuf::from("book")
}

/// `[build]`: mdBook's keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct BuildTable {
    /// The output folder, relative to the book root.
    #[serde(default = "default_build_dir")]
    pub build_dir: PathBuf,
    /// mdBook creates missing chapter files; nimbook reports them instead. Accepted.
    #[serde(default)]
    // Read by serde only: the key is accepted so that mdBook's book.toml parses.
    #[allow(dead_code)]
    pub create_missing: Option<bool>,
    /// mdBook's preprocessor switch: accepted, not used.
    #[serde(default)]
    pub use_default_preprocessors: Option<bool>,
    /// Extra folders, relative to the book root, whose changes make `serve` rebuild.
    #[serde(default)]
    pub extra_watch_dirs: Vec<PathBuf>,
}

impl Default for BuildTable {
    fn default() -> Self {
        BuildTable {
            build_dir: default_build_dir(),
            create_missing: None,
            use_default_preprocessors: None,
            extra_watch_dirs: Vec::new(),
        }
    }
}

/// Defines the ceiling of each budget key of `[nimbook]`: for each key the function that reads
/// its value and refuses one above the ceiling, so that the refusal is a TOML error with the
/// value's span. A ceiling is far above what a course needs, and low enough that nothing it
/// allows is unbounded and no arithmetic on a budget can overflow; the guide's configuration
/// reference lists them from `CEILINGS`.
macro_rules! ceilings {
    ($($read:ident: $key:literal <= $max:expr, $why:literal;)*) => {
        /// Every budget key of `[nimbook]` with its ceiling and why the ceiling is there.
        pub(crate) const CEILINGS: &[(&str, u64, &str)] = &[$(($key, $max, $why)),*];
        $(
            fn $read<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
                at_most(d, $key, $max, $why)
            }
        )*
    };
}

ceilings! {
    max_bits: "max-bits" <= crate::nim::MAX_BITS, "a nimber has at most 8192 bits";
    max_cases: "max-cases" <= 1 << 48, "2^48 cases; `max-seconds` stops a check long before";
    max_table: "max-table" <= 1024, "a table of 1024 × 1024 cells is a page of tens of megabytes";
    max_terms: "max-terms" <= 1 << 20, "a product of two such polynomials is 2^40 products of terms";
    max_positions: "max-positions" <= 1 << 40, "2^40 positions; `max-seconds` stops a search long before";
    max_seconds: "max-seconds" <= 86_400, "one day";
    max_table_bytes: "max-table-bytes" <= 1 << 36, "64 GiB of Cram tables";
    max_lesson_bytes: "max-lesson-bytes" <= 1 << 28, "256 MiB: a page takes about forty times its source in memory";
    preprocessor_seconds: "preprocessor-seconds" <= 86_400, "one day";
    renderer_seconds: "renderer-seconds" <= 86_400, "one day";
}

/// Reads a budget, refused above `max`.
fn at_most<'de, D: serde::Deserializer<'de>>(
    d: D,
    key: &str,
    max: u64,
    why: &str,
) -> Result<Option<u64>, D::Error> {
    let value = u64::deserialize(d)?;
    if value > max {
        return Err(serde::de::Error::custom(format!(
            "`{key} = {value}` is above its ceiling of {max} ({why})"
        )));
    }
    Ok(Some(value))
}

/// `[nimbook]`: the checker's budgets.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct NimbookTable {
    /// The largest number, in bits, that a claim may write or compute.
    #[serde(default, deserialize_with = "max_bits")]
    pub max_bits: Option<u64>,
    /// The most cases one quantified claim may check.
    #[serde(default, deserialize_with = "max_cases")]
    pub max_cases: Option<u64>,
    /// The largest side of a generated table.
    #[serde(default, deserialize_with = "max_table")]
    pub max_table: Option<u64>,
    /// The most terms of a polynomial expanded to prove an identity.
    #[serde(default, deserialize_with = "max_terms")]
    pub max_terms: Option<u64>,
    /// The most positions one game search may examine.
    #[serde(default, deserialize_with = "max_positions")]
    pub max_positions: Option<u64>,
    /// The most seconds one game search may take.
    #[serde(default, deserialize_with = "max_seconds")]
    pub max_seconds: Option<u64>,
    /// The most bytes the Cram search's tables may take.
    #[serde(default, deserialize_with = "max_table_bytes")]
    pub max_table_bytes: Option<u64>,
    /// The longest source file (a lesson or `SUMMARY.md`), in bytes.
    #[serde(default, deserialize_with = "max_lesson_bytes")]
    pub max_lesson_bytes: Option<u64>,
    /// The longest one preprocessor may run (default 60 seconds).
    #[serde(default, deserialize_with = "preprocessor_seconds")]
    pub preprocessor_seconds: Option<u64>,
    /// The longest one renderer command of `[output.NAME]` may run (default an hour).
    #[serde(default, deserialize_with = "renderer_seconds")]
    pub renderer_seconds: Option<u64>,
    /// The level of the `unverified-numbers` lint: `"allow"`, `"warn"` (the default) or
    /// `"deny"`.
    pub unverified_numbers: Option<LintLevel>,
    /// The level of the `vacuous-claims` lint.
    pub vacuous_claims: Option<LintLevel>,
    /// The level of the `broken-links` lint (default `"deny"` in a nimbook book).
    pub broken_links: Option<LintLevel>,
    /// Folders outside the book root (relative to it) that includes and other files may be
    /// read from; see [`super::confine`]. Ignored under `--untrusted`.
    #[serde(default)]
    pub include_roots: Vec<PathBuf>,
    /// `"shown"` (the default: pages carry each answer and a "Show the answer" box) or
    /// `"hidden"` (graded mode: pages carry a salted hash of each answer and no key).
    pub answers: Option<Answers>,
}

/// `[nimbook] answers`: whether the pages carry the answer key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Answers {
    /// Each answer in the page, and a "Show the answer" box (self-study).
    Shown,
    /// A salted hash of each answer, no key and no box (graded work).
    Hidden,
}

impl NimbookTable {
    /// Whether the table says anything besides `include-roots`: a table that only widens the
    /// folders read leaves an mdBook book an mdBook book.
    fn marks_nimbook_book(&self) -> bool {
        self.include_roots.is_empty()
            || self.max_bits.is_some()
            || self.max_cases.is_some()
            || self.max_table.is_some()
            || self.max_terms.is_some()
            || self.max_positions.is_some()
            || self.max_seconds.is_some()
            || self.max_table_bytes.is_some()
            || self.max_lesson_bytes.is_some()
            || self.preprocessor_seconds.is_some()
            || self.renderer_seconds.is_some()
            || self.unverified_numbers.is_some()
            || self.vacuous_claims.is_some()
            || self.broken_links.is_some()
            || self.answers.is_some()
    }
}

impl Config {
    /// Whether the book is in graded mode (`[nimbook] answers = "hidden"`).
    pub(crate) fn answers_hidden(&self) -> bool {
        self.nimbook
            .as_ref()
            .is_some_and(|n| n.answers == Some(Answers::Hidden))
    }

    /// Reads and checks `book.toml` in the root of `files`. Errors carry the file position.
    pub(crate) fn load(files: &super::confine::Reader) -> Result<Config, Fatal> {
        Self::read(files).map(|(config, _)| config)
    }

    /// [`Config::load`], with the text of `book.toml`. It is read through the confined reader,
    /// so a `book.toml` that is a link out of the book or a named pipe is refused.
    pub(crate) fn read(files: &super::confine::Reader) -> Result<(Config, String), Fatal> {
        let root = files.root();
        let path = root.join("book.toml");
        let text = files
            .bytes(&path)
            .map_err(|r| {
                files
                    .refused(&r, &path.display().to_string(), Code::InvalidConfig)
                    .help("a book root holds a book.toml; run `nimbook` in it or name it")
            })
            .and_then(|b| {
                String::from_utf8(b).map_err(|_| {
                    Diagnostic::error(
                        Code::InvalidConfig,
                        format!("{} is not valid UTF-8", path.display()),
                    )
                })
            })
            .map_err(Box::new)?;
        // Line endings as every source text has them, so that a span found in `text` later
        // (`Config::locate`, the compatibility warnings) is a span of the file shown.
        let text = crate::diag::text::normalized(text);
        let mut config = Self::parse(&text, &path.display().to_string())?;
        config.text.clone_from(&text);
        config.content_layout = config
            .src_dir(root)
            .file_name()
            .is_some_and(|n| n == "content");
        // A nimbook book's search has always listed only sections with every word; an mdBook
        // book's follows mdBook's default, any word.
        let nimbook = config.is_nimbook();
        config.html.search.use_boolean_and.get_or_insert(nimbook);
        Ok((config, text))
    }

    /// Parses the text of a `book.toml` shown as `name` in errors.
    pub(crate) fn parse(text: &str, name: &str) -> Result<Config, Fatal> {
        // TOML's spans are offsets into the text it read: the text as the diagnostic's file
        // holds it.
        let text = &*crate::diag::text::normalize(text);
        let located = |e: toml::de::Error| {
            let file = SourceFile::new(name, text);
            let message = e.message().to_string();
            let d = Diagnostic::error(Code::InvalidConfig, format!("invalid book.toml: {message}"));
            Box::new(match e.span() {
                Some(span) => d.at(&Arc::clone(&file), span),
                None => d,
            })
        };
        let mut config = toml::from_str::<Config>(text).map_err(located)?;
        if !config.output.is_empty() {
            // Read from the text again, so that a `command` or `optional` of the wrong type is
            // located in book.toml.
            #[derive(Deserialize)]
            struct Outer {
                output: std::collections::BTreeMap<String, RendererTable>,
            }
            config.renderers = toml::from_str::<Outer>(text).map_err(located)?.output;
        }
        if config.output.contains_key("html") {
            // Deserialised from the text again, not from the table, so that a wrong type keeps
            // its position in book.toml.
            #[derive(Deserialize)]
            struct Outer {
                output: OuterOutput,
            }
            #[derive(Deserialize)]
            struct OuterOutput {
                html: HtmlTable,
            }
            config.html = toml::from_str::<Outer>(text).map_err(located)?.output.html;
        }
        if let Some(pdf) = config.output.get("pdf") {
            check_pdf_table(pdf, text, name)?;
        }
        Ok(config)
    }

    /// The book's confined reader: its boundary, its `include-roots` (none under
    /// `--untrusted`) and `max-lesson-bytes`. An entry of `include-roots` that does not exist or
    /// that reaches a forbidden place ([`confine::forbidden`]) is an error at that entry.
    pub(crate) fn reader(&self, root: &Path, trust: Trust) -> Result<Reader, Fatal> {
        let roots = match (trust, &self.nimbook) {
            (Trust::Trusted, Some(n)) => n.include_roots.as_slice(),
            _ => &[],
        };
        for dir in roots {
            confine::include_root(root, dir).map_err(|d| {
                // At the entry as written, quotes and all (`"/"` is a common character).
                let written = dir.to_string_lossy();
                let quoted = format!("\"{written}\"");
                Box::new(if self.text.contains(&quoted) {
                    self.locate(&quoted, d)
                } else {
                    self.locate(&written, d)
                })
            })?;
        }
        Reader::new(root, roots, self.max_lesson_bytes(), trust)
    }

    /// With `[output.pdf]`, the file name of the PDF that `nimbook build` writes into the site
    /// and links from every page: its `file`, else [`Config::pdf_name`].
    pub(crate) fn pdf_file_name(&self) -> Option<String> {
        let table = self.output.get("pdf")?;
        Some(
            table
                .get("file")
                .and_then(toml::Value::as_str)
                .map_or_else(|| self.pdf_name(), str::to_string),
        )
    }

    /// The name of the book's PDF: its title as a file name (`nimbers-and-impartial-games.pdf`),
    /// `book.pdf` without one.
    pub(crate) fn pdf_name(&self) -> String {
        let stem = crate::site::html::slug(self.book.title.as_deref().unwrap_or(""));
        if stem.is_empty() {
            "book.pdf".to_string()
        } else {
            format!("{stem}.pdf")
        }
    }

    /// `d` located where `value` is first written in `book.toml`, when it is written there
    /// as it is (a path named in a setting).
    pub(crate) fn locate(&self, value: &str, d: Diagnostic) -> Diagnostic {
        match self.text.find(value).filter(|_| !value.is_empty()) {
            Some(at) => d.at(
                &SourceFile::new("book.toml", self.text.clone()),
                at..at + value.len(),
            ),
            None => d,
        }
    }

    /// Whether this is a nimbook book: `book.toml` has a `[nimbook]` table (other than one that
    /// only lists `include-roots`), or the lessons are in `content/` (nimbook's layout;
    /// mdBook's is `src/`). In a nimbook book `nim` fences are
    /// claims and `$…$` is LaTeX; in any other book they are what mdBook makes of them.
    pub(crate) fn is_nimbook(&self) -> bool {
        self.nimbook
            .as_ref()
            .is_some_and(NimbookTable::marks_nimbook_book)
            || self.content_layout
    }

    /// The source folder: `[book] src` if set; otherwise mdBook's `src/`, or `content/` (the
    /// folder of nimbook's own layout) for a book that has that folder and no `src/`.
    pub(crate) fn src_dir(&self, root: &Path) -> PathBuf {
        match &self.book.src {
            Some(s) => root.join(s),
            None if !root.join("src").is_dir() && root.join("content").is_dir() => {
                root.join("content")
            }
            None => root.join("src"),
        }
    }

    /// The level of an include that cannot be done (a file missing or out of bounds, an anchor
    /// missing, a cycle): an error in a nimbook book; a warning in an mdBook book, as mdBook
    /// reports it and goes on.
    pub(crate) fn include_faults(&self) -> crate::diag::Level {
        if self.is_nimbook() {
            crate::diag::Level::Error
        } else {
            crate::diag::Level::Warning
        }
    }

    /// Whether quotes and dashes become typographic ones.
    pub(crate) fn smart_punctuation(&self) -> bool {
        self.html
            .smart_punctuation
            .or(self.html.curly_quotes)
            .unwrap_or(!self.is_nimbook())
    }

    /// The longest source file read, from `max-lesson-bytes` or its default.
    pub(crate) fn max_lesson_bytes(&self) -> u64 {
        self.nimbook
            .as_ref()
            .and_then(|n| n.max_lesson_bytes)
            .unwrap_or(super::confine::DEFAULT_MAX_LESSON_BYTES)
    }

    /// The longest one external preprocessor may run, from `preprocessor-seconds` or its
    /// default.
    pub(crate) fn preprocessor_limit(&self) -> std::time::Duration {
        std::time::Duration::from_secs(
            self.nimbook
                .as_ref()
                .and_then(|n| n.preprocessor_seconds)
                .unwrap_or(DEFAULT_PREPROCESSOR_SECONDS),
        )
    }

    /// The longest one renderer command may run, from `renderer-seconds` or its default.
    pub(crate) fn renderer_limit(&self) -> std::time::Duration {
        std::time::Duration::from_secs(
            self.nimbook
                .as_ref()
                .and_then(|n| n.renderer_seconds)
                .unwrap_or(DEFAULT_RENDERER_SECONDS),
        )
    }

    /// The lint levels of `[nimbook]`; a lint not named is `"warn"`, except `broken-links`,
    /// which a nimbook book denies.
    pub(crate) fn lints(&self) -> Lints {
        let links = if self.is_nimbook() {
            LintLevel::Deny
        } else {
            LintLevel::Warn
        };
        Lints {
            broken_links: self
                .nimbook
                .as_ref()
                .and_then(|n| n.broken_links)
                .unwrap_or(links),
            unverified_numbers: self
                .nimbook
                .as_ref()
                .and_then(|n| n.unverified_numbers)
                .unwrap_or_default(),
            vacuous_claims: self
                .nimbook
                .as_ref()
                .and_then(|n| n.vacuous_claims)
                .unwrap_or_default(),
        }
    }

    /// The checker's limits, from the defaults and `[nimbook]`.
    pub(crate) fn limits(&self) -> Limits {
        let mut l = Limits::default();
        let Some(nimbook) = &self.nimbook else {
            return l;
        };
        if let Some(b) = nimbook.max_bits {
            l.max_bits = b;
        }
        if let Some(c) = nimbook.max_cases {
            l.max_cases = c;
        }
        if let Some(t) = nimbook.max_table {
            l.max_table = t;
        }
        if let Some(t) = nimbook.max_terms {
            l.max_terms = usize::try_from(t).unwrap_or(usize::MAX);
        }
        if let Some(p) = nimbook.max_positions {
            l.game.max_positions = p;
        }
        if let Some(s) = nimbook.max_seconds {
            l.game.max_time = std::time::Duration::from_secs(s);
        }
        if let Some(b) = nimbook.max_table_bytes {
            l.game.max_table_bytes = b;
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_above_its_ceiling_is_refused_at_its_line() {
        let err = Config::parse(
            "[nimbook]\nmax-cases = 5\nmax-bits = 18446744073709551615\n",
            "book.toml",
        )
        .err()
        .map(|d| (d.position(), d.message.clone()));
        let (position, message) = err.unwrap_or_default();
        assert_eq!(position, Some(("book.toml".into(), 3, 12)));
        assert!(
            message.contains("`max-bits = 18446744073709551615` is above its ceiling of 8192"),
            "{message}"
        );
        for (key, max, _) in CEILINGS {
            let at = format!("[nimbook]\n{key} = {max}\n");
            assert!(Config::parse(&at, "book.toml").is_ok(), "{at}");
            let above = format!("[nimbook]\n{key} = {}\n", max + 1);
            assert!(Config::parse(&above, "book.toml").is_err(), "{above}");
        }
    }

    #[test]
    fn unknown_key_is_an_error_with_its_line() {
        let err = Config::parse("[book]\ntitle = \"x\"\ncolour = 3\n", "book.toml")
            .err()
            .map(|d| d.render(crate::diag::MessageFormat::Human, false))
            .unwrap_or_default();
        assert!(err.contains("unknown field `colour`"), "{err}");
        assert!(err.contains("book.toml:3:1"), "{err}");
    }

    #[test]
    fn lint_levels_default_to_warn_and_reject_unknown_levels() {
        let c = Config::parse("[nimbook]\nvacuous-claims = \"deny\"\n", "book.toml");
        let lints = c.map(|c| c.lints()).map_err(|d| d.message.clone());
        assert_eq!(
            lints,
            Ok(Lints {
                unverified_numbers: LintLevel::Warn,
                vacuous_claims: LintLevel::Deny,
                broken_links: LintLevel::Deny
            })
        );
        let err = Config::parse("[nimbook]\nunverified-numbers = \"forbid\"\n", "book.toml")
            .err()
            .map(|d| d.render(crate::diag::MessageFormat::Human, false))
            .unwrap_or_default();
        assert!(
            err.contains("unknown variant `forbid`") && err.contains("book.toml:2"),
            "{err}"
        );
    }

    #[test]
    fn mdbook_keys_are_accepted() {
        let c = Config::parse(
            "[book]\ntitle = \"t\"\nauthors = [\"a\"]\nlanguage = \"en\"\nsrc = \"src\"\n[build]\nbuild-dir = \"out\"\n[output.html]\nmathjax-support = true\n",
            "book.toml",
        );
        let c = c.map_err(|d| d.message.clone());
        assert_eq!(
            c.as_ref().map(|c| c.build.build_dir.clone()),
            Ok(PathBuf::from("out"))
        );
        assert_eq!(c.map(|c| c.book.src), Ok(Some(PathBuf::from("src"))));
    }

    #[test]
    fn fold_takes_mdbooks_keys_and_a_wrong_type_is_located() {
        let fold =
            |text: &str| Config::parse(text, "book.toml").map(|c| c.html.fold.unfolded_levels());
        assert!(matches!(fold("[book]\n"), Ok(None)));
        assert!(matches!(fold("[output.html.fold]\nlevel = 2\n"), Ok(None)));
        assert!(matches!(
            fold("[output.html.fold]\nenable = true\n"),
            Ok(Some(0))
        ));
        assert!(matches!(
            fold("[output.html]\nfold = { enable = true, level = 1 }\n"),
            Ok(Some(1))
        ));
        for (text, place) in [
            (
                "[output.html.fold]\nenable = true\nlevel = -1\n",
                "book.toml:3:9",
            ),
            ("[output.html.fold]\nenable = \"yes\"\n", "book.toml:2:10"),
            (
                "[output.html.fold]\nenable = true\ndepth = 1\n",
                "book.toml:3:1",
            ),
        ] {
            let err = Config::parse(text, "book.toml")
                .err()
                .map(|d| d.render(crate::diag::MessageFormat::Human, false))
                .unwrap_or_default();
            assert!(err.contains(place), "{text}: {err}");
        }
    }

    #[test]
    fn text_direction_is_ltr_or_rtl_and_a_typo_is_located() {
        let rtl = Config::parse("[book]\ntext-direction = \"rtl\"\n", "book.toml")
            .map(|c| c.book.text_direction);
        assert!(matches!(rtl, Ok(TextDirection::Rtl)));
        let default = Config::parse("[book]\n", "book.toml").map(|c| c.book.text_direction);
        assert!(matches!(default, Ok(TextDirection::Ltr)));
        let err = Config::parse("[book]\ntext-direction = \"up\"\n", "book.toml")
            .err()
            .map(|d| d.render(crate::diag::MessageFormat::Human, false))
            .unwrap_or_default();
        assert!(err.contains("book.toml:2:18"), "{err}");
        assert!(err.contains("ltr") && err.contains("rtl"), "{err}");
    }
}
