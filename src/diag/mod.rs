//! Source files, spans and rustc-style diagnostics, shared by every layer.
//!
//! A [`Diagnostic`] names a [`SourceFile`] and a byte [`Span`] in it. Rendering turns the byte
//! span into a 1-based line and a 1-based column counted in characters, the convention rustc
//! uses, so that `content/02-sums.md:14:9` points where an editor's cursor would be.
//!
//! Three output formats share one diagnostic value: the human format (rendered with
//! `annotate-snippets`, the renderer rustc itself uses), one JSON object per line for tools, and
//! GitHub Actions workflow commands so that CI annotates the offending line of a pull request.

use std::fmt::Write as _;
use std::ops::Range;
use std::sync::Arc;

use annotate_snippets::{AnnotationKind, Group, Level as SnippetLevel, Renderer, Snippet};

mod code;
mod snippet;
pub(crate) mod text;
pub use code::Code;

/// A failure that stops the run before content is judged: configuration, usage or I/O
/// (exit code 2).
pub type Fatal = Box<Diagnostic>;

/// A byte range within one source file.
pub type Span = Range<usize>;

/// One source text and the offsets of its lines.
#[derive(Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics, a path relative to the book root such as `content/a.md`.
    pub name: String,
    /// The full text, as CommonMark reads it: every line ending (`\r\n`, `\r`) is a `\n`
    /// and every NUL a U+FFFD (see [`text`]).
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Wraps a text under the given display name. The text is normalised as CommonMark reads
    /// it (`\r\n` and `\r` become `\n`, NUL becomes U+FFFD), so that everything read from
    /// `text` later sees one kind of line ending; lines and columns are those of the text as
    /// given.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Arc<Self> {
        let text = text::normalized(text.into());
        let line_starts = text::line_starts(&text);
        Arc::new(SourceFile {
            name: name.into(),
            text,
            line_starts,
        })
    }

    /// The 0-based index of the line holding byte `offset`.
    fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// The 1-based line and 1-based character column of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.clamp(offset);
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let col = self.text[start..offset].chars().count() + 1;
        (line + 1, col)
    }

    /// The byte range of line `line` (0-based), without its line ending.
    fn line_range(&self, line: usize) -> (usize, usize) {
        let start = self.line_starts[line];
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&s| s.saturating_sub(1));
        (start, end.max(start))
    }

    /// Moves an offset onto the nearest character boundary inside the text.
    fn clamp(&self, offset: usize) -> usize {
        let mut o = offset.min(self.text.len());
        while !self.text.is_char_boundary(o) {
            o -= 1;
        }
        o
    }
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Level {
    /// The content is wrong: the build fails.
    Error,
    /// Worth a look, but the build goes on.
    Warning,
}

/// The `note` and `help` builders of a type with `notes` and `helps` lists: [`Diagnostic`],
/// and the claim error that becomes one by moving both lists over, so the two cannot differ.
macro_rules! remark_builders {
    ($t:ty) => {
        impl $t {
            /// Adds a note.
            pub fn note(mut self, note: impl Into<String>) -> Self {
                self.notes.push(note.into());
                self
            }

            /// Adds a help line.
            pub fn help(mut self, help: impl Into<String>) -> Self {
                self.helps.push(help.into());
                self
            }
        }
    };
}
pub(crate) use remark_builders;

remark_builders!(Diagnostic);

/// One finding, with an optional location and any number of notes and hints.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// Error or warning.
    pub level: Level,
    /// The kind, by a stable name (`false-claim`, `unverified-number`, …).
    pub code: Code,
    /// The headline: what is wrong, in a few words.
    pub message: String,
    /// Where: the file and the byte span of the offending text.
    pub location: Option<(Arc<SourceFile>, Span)>,
    /// A short label printed under the caret.
    pub label: String,
    /// `= note:` lines: what was computed.
    pub notes: Vec<String>,
    /// `= help:` lines: what was probably meant.
    pub helps: Vec<String>,
    /// Edits that would mend the finding, for an editor to offer (see [`Suggestion`]).
    pub suggestions: Vec<Suggestion>,
}

/// An edit that mends a diagnostic: replace `span` of its file by `replacement`. The editor
/// server offers each as a code action titled `message`; the help lines already say the same in
/// words, so the text formats do not print them again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// What the edit does, as a code action's title.
    pub message: String,
    /// The byte range of the diagnostic's file to replace.
    pub span: Span,
    /// The text to put there.
    pub replacement: String,
}

impl Diagnostic {
    /// An error of kind `code` with a headline and no location yet.
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Diagnostic::new(Level::Error, code, message)
    }

    /// A warning of kind `code`: printed like an error, starting with `warning:`, but the build
    /// goes on.
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Diagnostic::new(Level::Warning, code, message)
    }

    /// A diagnostic at `level`: for findings whose level is configured, such as the lints.
    pub fn new(level: Level, code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            level,
            code,
            message: message.into(),
            location: None,
            label: String::new(),
            notes: Vec::new(),
            helps: Vec::new(),
            suggestions: Vec::new(),
        }
    }

    /// Attaches a location.
    pub fn at(mut self, file: &Arc<SourceFile>, span: Span) -> Self {
        self.location = Some((Arc::clone(file), span));
        self
    }

    /// Sets the label under the caret.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds an edit that would mend the finding.
    pub fn suggest(mut self, message: impl Into<String>, span: Span, replacement: String) -> Self {
        self.suggestions.push(Suggestion {
            message: message.into(),
            span,
            replacement,
        });
        self
    }

    /// `file:line:col` of the start of the span, if there is a location.
    pub fn position(&self) -> Option<(String, usize, usize)> {
        self.location.as_ref().map(|(f, s)| {
            let (l, c) = f.line_col(s.start);
            (f.name.clone(), l, c)
        })
    }

    /// Renders in the requested format. `color` only affects the human format.
    pub fn render(&self, format: MessageFormat, color: bool) -> String {
        match format {
            MessageFormat::Human => self.render_human(color),
            MessageFormat::Json => self.render_json(),
            MessageFormat::Github => self.render_github(),
        }
    }

    fn render_human(&self, color: bool) -> String {
        let level = match self.level {
            Level::Error => SnippetLevel::ERROR,
            Level::Warning => SnippetLevel::WARNING,
        };
        let message = snippet::shown(&self.message);
        let label = snippet::shown(&self.label);
        let title = level.primary_title(message.as_ref());
        let excerpt = self
            .location
            .as_ref()
            .map(|(file, span)| (file, snippet::excerpt(file, span)));
        let mut group = match &excerpt {
            Some((file, shown)) => {
                let snippet = Snippet::source(shown.text.as_str())
                    .line_start(shown.first_line)
                    .path(file.name.as_str())
                    .annotation(
                        AnnotationKind::Primary
                            .span(shown.span.clone())
                            .label(label.as_ref()),
                    );
                title.element(snippet)
            }
            None => Group::with_title(title),
        };
        let notes: Vec<_> = self.notes.iter().map(|n| snippet::shown(n)).collect();
        let helps: Vec<_> = self.helps.iter().map(|h| snippet::shown(h)).collect();
        for n in &notes {
            group = group.element(SnippetLevel::NOTE.message(n.as_ref()));
        }
        for h in &helps {
            group = group.element(SnippetLevel::HELP.message(h.as_ref()));
        }
        let renderer = if color {
            Renderer::styled()
        } else {
            Renderer::plain()
        };
        renderer.render(&[group])
    }

    fn render_json(&self) -> String {
        let (file, line, column, end_line, end_column) = match &self.location {
            Some((f, s)) => {
                let (l, c) = f.line_col(s.start);
                let (el, ec) = f.line_col(s.end);
                (Some(f.name.clone()), Some(l), Some(c), Some(el), Some(ec))
            }
            None => (None, None, None, None, None),
        };
        serde_json::json!({
            "level": match self.level { Level::Error => "error", Level::Warning => "warning" },
            "code": self.code.as_str(),
            "message": self.message,
            "file": file,
            "line": line,
            "column": column,
            "end_line": end_line,
            "end_column": end_column,
            "label": self.label,
            "notes": self.notes,
            "help": self.helps,
            "rendered": self.render_human(false),
        })
        .to_string()
    }

    fn render_github(&self) -> String {
        let kind = match self.level {
            Level::Error => "error",
            Level::Warning => "warning",
        };
        let mut body = self.message.clone();
        if !self.label.is_empty() {
            let _ = write!(body, ": {}", self.label);
        }
        for n in &self.notes {
            let _ = write!(body, "\nnote: {n}");
        }
        for h in &self.helps {
            let _ = write!(body, "\nhelp: {h}");
        }
        let mut props = String::new();
        if let Some((f, s)) = &self.location {
            let (l, c) = f.line_col(s.start);
            let (el, ec) = f.line_col(s.end);
            props = format!(
                " file={},line={l},col={c},endLine={el},endColumn={ec}",
                github_escape(&f.name, true)
            );
        }
        format!("::{kind}{props}::{}", github_escape(&body, false))
    }
}

/// Escapes text for a GitHub workflow command (`%`, CR, LF; and `:` `,` in properties).
fn github_escape(s: &str, property: bool) -> String {
    replace_chars(s, |c| match c {
        '%' => Some("%25"),
        '\r' => Some("%0D"),
        '\n' => Some("%0A"),
        ':' if property => Some("%3A"),
        ',' if property => Some("%2C"),
        _ => None,
    })
}

/// `s` with each character that `with` names replaced by its text; the one loop behind every
/// escaping rule (GitHub's here, HTML's in the site).
pub(crate) fn replace_chars(s: &str, with: impl Fn(char) -> Option<&'static str>) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match with(c) {
            Some(text) => out.push_str(text),
            None => out.push(c),
        }
    }
    out
}

/// The output format of diagnostics, as chosen by `--message-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum MessageFormat {
    /// rustc-style text with source snippets and carets.
    #[default]
    Human,
    /// One JSON object per diagnostic, one per line.
    Json,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::…`).
    Github,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters() {
        let f = SourceFile::new("a.md", "x\n⊕⊗ ab\n");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(2), (2, 1));
        // "⊕⊗ " is 7 bytes and 3 characters.
        assert_eq!(f.line_col(9), (2, 4));
    }

    #[test]
    fn every_line_ending_counts_and_columns_stay() {
        for text in ["ab\n⊕ cd\n", "ab\r\n⊕ cd\r\n", "ab\r⊕ cd\r", "ab\r⊕ cd\n"] {
            let f = SourceFile::new("a.md", text);
            let at = f.text.find('c').unwrap_or(0);
            assert_eq!(f.line_col(at), (2, 3), "{text:?}");
            assert_eq!(f.text, "ab\n⊕ cd\n");
        }
    }

    #[test]
    fn human_rendering_is_rustc_like() {
        let f = SourceFile::new("content/a.md", "intro\n6 * 13 = 14\nmore\n");
        let d = Diagnostic::error(Code::FalseClaim, "claim does not hold")
            .at(&f, 6..17)
            .label("false")
            .note("6 ⊗ 13 is 15");
        let out = d.render(MessageFormat::Human, false);
        assert!(out.starts_with("error: claim does not hold"), "{out}");
        assert!(out.contains("--> content/a.md:2:1"), "{out}");
        assert!(out.contains("2 | 6 * 13 = 14"), "{out}");
        assert!(out.contains("^^^^^^^^^^^ false"), "{out}");
        assert!(out.contains("= note: 6 ⊗ 13 is 15"), "{out}");
    }

    #[test]
    fn github_format_escapes() {
        let f = SourceFile::new("a,b.md", "1 = 2\n");
        let d = Diagnostic::error(Code::FalseClaim, "claim does not hold")
            .at(&f, 0..5)
            .note("100%");
        assert_eq!(
            d.render(MessageFormat::Github, false),
            "::error file=a%2Cb.md,line=1,col=1,endLine=1,endColumn=6::claim does not hold%0Anote: 100%25"
        );
    }

    #[test]
    fn warnings_render_as_warnings_in_every_format() {
        let f = SourceFile::new("a.md", "In 1997 there were 3 heaps.\n");
        let d = Diagnostic::warning(Code::UnverifiedNumber, "number is not verified")
            .at(&f, 20..21)
            .help("write `nim: 3`");
        let human = d.render(MessageFormat::Human, false);
        assert!(
            human.starts_with("warning: number is not verified"),
            "{human}"
        );
        assert!(human.contains("--> a.md:1:21"), "{human}");
        let json: serde_json::Value =
            serde_json::from_str(&d.render(MessageFormat::Json, false)).unwrap_or_default();
        assert_eq!(json["level"], "warning");
        assert_eq!(json["code"], "unverified-number");
        assert_eq!(json["column"], 21);
        assert!(d
            .render(MessageFormat::Github, false)
            .starts_with("::warning file=a.md,line=1,col=21"));
    }
}
