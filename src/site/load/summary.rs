//! `SUMMARY.md`, read as mdBook 0.5 reads it: as markdown, by pulldown-cmark, not line by line.
//!
//! The grammar is mdBook's. An optional title comes first: the first level-1 heading, in either
//! spelling (`# Title`, or a line underlined with `===`), after any HTML comments. Then *prefix
//! chapters*: every link in the text before the first list or level-1 heading is a chapter,
//! a `---` rule is a separator, and anything else (a line of plain text, another heading) is
//! skipped. Then the *numbered chapters*: lists, whose items must each start with a link and
//! nest to any depth, optionally in parts, each under a level-1 heading (its title), with
//! separators between them; numbers run on across lists and parts. A paragraph after the lists
//! starts the *suffix chapters*, read like the prefix, which no list or part may follow. A link
//! with an empty target (`[Draft]()`) is a draft chapter, without a page. A chapter's title is
//! the text of its link, without its markup.
//!
//! Every chapter keeps the byte range of its link, so that a diagnostic about it (a missing
//! file, a path that climbs out, a file listed twice) points at the entry. A file listed twice
//! is a warning that names both lines (mdBook refuses the book).

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use pulldown_cmark::{Event, HeadingLevel, OffsetIter, Parser, Tag, TagEnd};

use super::book::Chapter;
use crate::diag::{Code, Diagnostic, SourceFile};

/// A chapter of `SUMMARY.md` and the byte range of its link.
pub(crate) type Entry = (Chapter, Range<usize>);

/// Reads `SUMMARY.md`: its chapters in reading order with the range of each entry, and a
/// warning for every file listed more than once; or the first entry that does not parse, as
/// a located `malformed-summary` error.
pub(crate) fn parse(file: &Arc<SourceFile>) -> Result<(Vec<Entry>, Vec<Diagnostic>), Diagnostic> {
    let mut reader = Reader {
        file,
        events: Parser::new(&file.text).into_offset_iter(),
        back: None,
        out: Vec::new(),
        part: None,
        separator: false,
    };
    reader.title();
    reader.affix(true)?;
    reader.parts()?;
    reader.affix(false)?;
    let warnings = duplicates(file, &reader.out);
    Ok((reader.out, warnings))
}

/// The reader's state: the events, one event put back, the chapters so far, and the part
/// title and separator waiting for the next chapter.
struct Reader<'a> {
    file: &'a Arc<SourceFile>,
    events: OffsetIter<'a, pulldown_cmark::DefaultBrokenLinkCallback>,
    back: Option<(Event<'a>, Range<usize>)>,
    out: Vec<Entry>,
    part: Option<String>,
    separator: bool,
}

impl<'a> Reader<'a> {
    fn next(&mut self) -> Option<(Event<'a>, Range<usize>)> {
        self.back.take().or_else(|| self.events.next())
    }

    fn put_back(&mut self, event: (Event<'a>, Range<usize>)) {
        self.back = Some(event);
    }

    /// A malformed entry at `at`.
    fn error(&self, at: Range<usize>, label: &str) -> Diagnostic {
        Diagnostic::error(Code::MalformedSummary, "malformed SUMMARY.md entry")
            .at(self.file, at)
            .label(label)
            .note("SUMMARY.md is read as mdBook reads it: an optional `# Title`, prefix chapters as links, numbered chapters as list items that each start with a link, `# Part` titles, `---` separators, then suffix chapters as links")
    }

    /// The text of the element just opened, up to its end: its text and code without markup.
    fn text_until(&mut self, end: &TagEnd) -> String {
        let mut text = String::new();
        while let Some((event, _)) = self.next() {
            match event {
                Event::End(e) if e == *end => break,
                Event::Text(t) | Event::Code(t) => text.push_str(&t),
                Event::SoftBreak => text.push(' '),
                _ => {}
            }
        }
        text
    }

    /// Skips the title: the first level-1 heading, after any HTML.
    fn title(&mut self) {
        while let Some(event) = self.next() {
            match event.0 {
                Event::Start(Tag::Heading {
                    level: HeadingLevel::H1,
                    ..
                }) => {
                    self.text_until(&TagEnd::Heading(HeadingLevel::H1));
                    return;
                }
                Event::Html(_)
                | Event::InlineHtml(_)
                | Event::Start(Tag::HtmlBlock)
                | Event::End(TagEnd::HtmlBlock) => {}
                _ => {
                    self.put_back(event);
                    return;
                }
            }
        }
    }

    /// A chapter from the link just opened at `at` (its target `dest`), numbered or not.
    fn link(&mut self, dest: &str, at: Range<usize>, number: Option<Vec<usize>>) -> Entry {
        let title = self.text_until(&TagEnd::Link);
        let dest = dest.replace("%20", " ");
        let path = (!dest.is_empty()).then(|| {
            PathBuf::from(
                dest.trim_start_matches("./")
                    .split('#')
                    .next()
                    .unwrap_or(""),
            )
        });
        let chapter = Chapter {
            title,
            path,
            depth: number.as_ref().map_or(0, |n| n.len().saturating_sub(1)),
            number: number.map(|n| n.iter().map(|c| format!("{c}.")).collect()),
            part: self.part.take(),
            separator: std::mem::take(&mut self.separator),
            page_title: None,
        };
        (chapter, at)
    }

    /// Prefix (`prefix`) or suffix chapters: links and separators; anything else is skipped.
    /// A list or a level-1 heading ends the prefix, and may not follow the suffix.
    fn affix(&mut self, prefix: bool) -> Result<(), Diagnostic> {
        while let Some(event) = self.next() {
            match event.0 {
                Event::Start(Tag::List(_))
                | Event::Start(Tag::Heading {
                    level: HeadingLevel::H1,
                    ..
                }) => {
                    if prefix {
                        self.put_back(event);
                        return Ok(());
                    }
                    return Err(self.error(
                        event.1,
                        "suffix chapters (links after the numbered list) cannot be followed by a list or a part",
                    ));
                }
                Event::Start(Tag::Link { dest_url, .. }) => {
                    let entry = self.link(&dest_url, event.1, None);
                    self.out.push(entry);
                }
                Event::Rule => self.separator = true,
                _ => {}
            }
        }
        Ok(())
    }

    /// The numbered chapters: parts, each an optional `# Title` and its lists.
    fn parts(&mut self) -> Result<(), Diagnostic> {
        // Top-level numbers run on across lists and parts.
        let mut before = 0;
        while let Some(event) = self.next() {
            match event.0 {
                Event::Start(Tag::Paragraph) => {
                    self.put_back(event);
                    return Ok(());
                }
                Event::Start(Tag::Heading {
                    level: HeadingLevel::H1,
                    ..
                }) => {
                    let title = self.text_until(&TagEnd::Heading(HeadingLevel::H1));
                    self.part = Some(title);
                }
                _ => self.put_back(event),
            }
            self.numbered(&mut before)?;
        }
        Ok(())
    }

    /// The lists of one part, up to the next part or the suffix chapters.
    fn numbered(&mut self, before: &mut usize) -> Result<(), Diagnostic> {
        let mut first = true;
        while let Some(event) = self.next() {
            match event.0 {
                // A paragraph right after a part's title opens it; any later one starts the
                // suffix chapters.
                Event::Start(Tag::Paragraph) if first => {}
                Event::Start(Tag::Paragraph)
                | Event::Start(Tag::Heading {
                    level: HeadingLevel::H1,
                    ..
                }) => {
                    self.put_back(event);
                    return Ok(());
                }
                Event::Start(Tag::List(_)) => {
                    *before += self.list(&[], *before)?;
                }
                Event::Start(tag) => {
                    let end = tag.to_end();
                    while let Some((e, _)) = self.next() {
                        if e == Event::End(end) {
                            break;
                        }
                    }
                }
                Event::Rule => self.separator = true,
                _ => {}
            }
            first = false;
        }
        Ok(())
    }

    /// The items of a list just opened, numbered under `parent` (the top level's from
    /// `offset + 1`), sub-lists nested under the item before them. Returns how many items it
    /// had.
    fn list(&mut self, parent: &[usize], offset: usize) -> Result<usize, Diagnostic> {
        let mut items = 0;
        let mut last: Option<Vec<usize>> = None;
        while let Some(event) = self.next() {
            match event.0 {
                Event::Start(Tag::Item) => {
                    let mut number = parent.to_vec();
                    number.push(offset + items + 1);
                    let entry = self.item(number.clone())?;
                    self.out.push(entry);
                    items += 1;
                    last = Some(number);
                }
                Event::Start(Tag::List(_)) => {
                    // A list with no item before it (after a comment) is not nested.
                    match last.clone() {
                        Some(number) => {
                            self.list(&number, 0)?;
                        }
                        None => continue,
                    }
                }
                Event::End(TagEnd::List(_)) => break,
                _ => {}
            }
        }
        Ok(items)
    }

    /// One list item: it must start with a link.
    fn item(&mut self, number: Vec<usize>) -> Result<Entry, Diagnostic> {
        loop {
            match self.next() {
                Some((Event::Start(Tag::Paragraph), _)) => {}
                Some((Event::Start(Tag::Link { dest_url, .. }), at)) => {
                    return Ok(self.link(&dest_url, at, Some(number)));
                }
                other => {
                    let at = other.map_or(self.file.text.len(), |e| e.1.start);
                    return Err(self.error(
                        line_at(&self.file.text, at),
                        "expected `- [Title](file.md)`: a list item of SUMMARY.md starts with a link",
                    ));
                }
            }
        }
    }
}

/// The line of `text` around the byte `at`, without its indentation and line ending.
fn line_at(text: &str, at: usize) -> Range<usize> {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = text[start..end].trim_end();
    start + (line.len() - line.trim_start().len())..start + line.len()
}

/// A warning for every file that `SUMMARY.md` lists more than once, naming both lines.
fn duplicates(file: &Arc<SourceFile>, entries: &[Entry]) -> Vec<Diagnostic> {
    let mut first: HashMap<&std::path::Path, &Range<usize>> = HashMap::new();
    let mut out = Vec::new();
    for (chapter, at) in entries {
        let Some(path) = &chapter.path else { continue };
        match first.get(path.as_path()) {
            None => {
                first.insert(path, at);
            }
            Some(earlier) => {
                let (line, col) = file.line_col(earlier.start);
                let (again, _) = file.line_col(at.start);
                out.push(
                    Diagnostic::warning(
                        Code::MalformedSummary,
                        format!(
                            "SUMMARY.md lists {} twice, on lines {line} and {again}",
                            path.display()
                        ),
                    )
                    .at(file, at.clone())
                    .label("listed again here")
                    .note(format!("first listed at {}:{line}:{col}", file.name))
                    .note("both entries show the same page; mdBook refuses a book that lists a file twice")
                    .help("remove one of the two entries"),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chapters of a SUMMARY.md of `text` (none if it does not parse).
    fn summary(text: &str) -> Vec<Chapter> {
        parse(&SourceFile::new("SUMMARY.md", text))
            .map(|(e, _)| e.into_iter().map(|(c, _)| c).collect())
            .unwrap_or_default()
    }

    /// Each chapter as (title, depth, number, has a file, is a separator).
    type Row<'a> = (&'a str, usize, Option<&'a str>, bool, bool);

    fn rows(chapters: &[Chapter]) -> Vec<Row<'_>> {
        chapters
            .iter()
            .map(|c| {
                let number = c.number.as_deref();
                (
                    c.title.as_str(),
                    c.depth,
                    number,
                    c.path.is_some(),
                    c.separator,
                )
            })
            .collect()
    }

    #[test]
    fn summary_nesting_and_numbers() {
        let ch = summary(
            "# Summary\n\n[Intro](intro.md)\n\n- [A](a.md)\n  - [A1](a1.md)\n- [B](b.md)\n\n# Games\n\n- [C](c.md)\n",
        );
        assert_eq!(
            rows(&ch),
            [
                ("Intro", 0, None, true, false),
                ("A", 0, Some("1."), true, false),
                ("A1", 1, Some("1.1."), true, false),
                ("B", 0, Some("2."), true, false),
                ("C", 0, Some("3."), true, false),
            ]
        );
        assert_eq!(ch[4].part.as_deref(), Some("Games"));
    }

    #[test]
    fn summary_drafts_separators_deep_nesting_and_code_titles() {
        let ch = summary(
            "- [The `nim` fence](a.md)\n  - [B](b.md)\n    - [C](c.md)\n      - [D](d.md)\n- [Draft]()\n\n---\n\n[End](e.md)\n",
        );
        assert_eq!(
            rows(&ch),
            [
                ("The nim fence", 0, Some("1."), true, false),
                ("B", 1, Some("1.1."), true, false),
                ("C", 2, Some("1.1.1."), true, false),
                ("D", 3, Some("1.1.1.1."), true, false),
                ("Draft", 0, Some("2."), false, false),
                ("End", 0, None, true, true),
            ]
        );
    }

    #[test]
    fn leading_plain_text_and_an_underlined_title_are_read_as_mdbook_reads_them() {
        // The Rhai book starts with its title underlined with `=`.
        let ch = summary(
            "The Rhai Scripting Language\n==========\n\n[The Rhai Book](index.md)\n\nSome words.\n\n- [A](a.md)\n",
        );
        assert_eq!(
            rows(&ch),
            [
                ("The Rhai Book", 0, None, true, false),
                ("A", 0, Some("1."), true, false),
            ]
        );
        // A plain line before the links is skipped; the first heading is the title, not a part.
        let ch = summary("Just text.\n\n[P](p.md)\n\n# Part\n\n- [A](a.md)\n");
        assert_eq!(rows(&ch)[0], ("P", 0, None, true, false));
        assert_eq!(ch[1].part.as_deref(), Some("Part"));
        let ch = summary("# My Book\n\n- [A](a.md)\n");
        assert_eq!(ch[0].part, None);
    }

    #[test]
    fn numbers_run_on_across_lists_parts_and_comments() {
        let ch = summary(
            "- [A](a.md)\n<!-- a comment -->\n- [B](b.md)\n\n---\n\n- [C](c.md)\n\n# P\n\n- [D](d.md)\n    - [D1](d1.md)\n",
        );
        let numbers: Vec<_> = ch
            .iter()
            .map(|c| c.number.clone().unwrap_or_default())
            .collect();
        assert_eq!(numbers, ["1.", "2.", "3.", "4.", "4.1."]);
        assert!(ch[2].separator);
    }

    #[test]
    fn malformed_entries_are_located() {
        let f = SourceFile::new("src/SUMMARY.md", "# Summary\n- [A](a.md)\n- oops\n");
        let d = parse(&f).err().map(|d| d.position());
        assert_eq!(d, Some(Some(("src/SUMMARY.md".into(), 3, 1))));
        let f = SourceFile::new("SUMMARY.md", "- [A](a.md)\n\n[S](s.md)\n\n- [B](b.md)\n");
        let d = parse(&f).err().map(|d| d.position());
        assert_eq!(d, Some(Some(("SUMMARY.md".into(), 5, 1))));
    }

    #[test]
    fn a_file_listed_twice_is_a_warning_that_names_both_lines() {
        let f = SourceFile::new(
            "src/SUMMARY.md",
            "[Intro](intro.md)\n\n- [A](a.md)\n- [B](./a.md)\n- [Draft]()\n- [Draft 2]()\n",
        );
        let (entries, warnings) = parse(&f).expect("parses");
        assert_eq!(entries.len(), 5);
        let got: Vec<_> = warnings
            .iter()
            .map(|d| (d.message.clone(), d.position(), d.notes.first().cloned()))
            .collect();
        assert_eq!(
            got,
            [(
                "SUMMARY.md lists a.md twice, on lines 3 and 4".to_string(),
                Some(("src/SUMMARY.md".to_string(), 4, 3)),
                Some("first listed at src/SUMMARY.md:3:3".to_string())
            )]
        );
    }
}
