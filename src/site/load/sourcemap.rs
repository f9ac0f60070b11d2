//! Where each byte of a rewritten chapter came from.
//!
//! Includes and preprocessors change a chapter's text before it is checked, but a diagnostic
//! must still point into the file the author wrote. A [`SourceMap`] goes with the rewritten text:
//! it cuts the text into pieces, each taken from a range of one source file. A piece copied
//! verbatim maps byte for byte; a piece a preprocessor wrote maps, as a whole, to the text it
//! replaced. Each rewriting stage builds its map from the previous one, so a position in the
//! final text is mapped back through every stage in one lookup.

use std::ops::Range;
use std::sync::Arc;

use crate::diag::{Diagnostic, SourceFile};

/// One piece of the rewritten text.
#[derive(Debug, Clone)]
struct Piece {
    /// Its range in the rewritten text.
    out: Range<usize>,
    /// The file it came from.
    file: Arc<SourceFile>,
    /// The range of the file it came from.
    from: Range<usize>,
    /// Whether `out` and `from` hold the same bytes (so offsets map one to one).
    exact: bool,
}

/// The origin of every byte of a rewritten text, as pieces in text order.
#[derive(Debug, Clone)]
pub(crate) struct SourceMap {
    pieces: Vec<Piece>,
    /// Whether this is the whole of one file, unchanged.
    identity: bool,
}

impl SourceMap {
    /// The map of a file's own text: every byte from itself.
    pub(crate) fn identity(file: &Arc<SourceFile>) -> Self {
        SourceMap {
            pieces: vec![Piece {
                out: 0..file.text.len(),
                file: Arc::clone(file),
                from: 0..file.text.len(),
                exact: true,
            }],
            identity: true,
        }
    }

    /// An empty map, to be built with [`SourceMap::copy`] and [`SourceMap::replaced`].
    pub(crate) fn new() -> Self {
        SourceMap {
            pieces: Vec::new(),
            identity: false,
        }
    }

    /// Whether the text is one file, unchanged (no mapping is needed).
    pub(crate) fn is_identity(&self) -> bool {
        self.identity
    }

    fn end(&self) -> usize {
        self.pieces.last().map_or(0, |p| p.out.end)
    }

    /// Appends the bytes `range` of the text that `old` maps, copied verbatim.
    pub(crate) fn copy(&mut self, old: &SourceMap, range: Range<usize>) {
        let mut at = self.end();
        let start = old.index(range.start);
        for p in &old.pieces[start..] {
            if p.out.start >= range.end && !range.is_empty() {
                break;
            }
            let lo = range.start.max(p.out.start);
            let hi = range.end.min(p.out.end);
            if lo >= hi {
                if range.is_empty() {
                    break;
                }
                continue;
            }
            let from = if p.exact {
                p.from.start + (lo - p.out.start)..p.from.start + (hi - p.out.start)
            } else {
                p.from.clone()
            };
            self.pieces.push(Piece {
                out: at..at + (hi - lo),
                file: Arc::clone(&p.file),
                from,
                exact: p.exact,
            });
            at += hi - lo;
        }
    }

    /// Appends `len` bytes that come verbatim from `from` in `file` (an included file).
    pub(crate) fn include(&mut self, file: &Arc<SourceFile>, from: usize, len: usize) {
        let at = self.end();
        self.pieces.push(Piece {
            out: at..at + len,
            file: Arc::clone(file),
            from: from..from + len,
            exact: true,
        });
    }

    /// Appends `len` bytes of new text that stand for the bytes `range` of the text that `old`
    /// maps (what a preprocessor wrote in their place).
    pub(crate) fn replaced(&mut self, old: &SourceMap, range: Range<usize>, len: usize) {
        if len == 0 {
            return;
        }
        let at = self.end();
        if let Some((file, from)) = old.locate(range) {
            self.pieces.push(Piece {
                out: at..at + len,
                file,
                from,
                exact: false,
            });
        }
    }

    /// The index of the piece holding `offset` (or the last one before it).
    fn index(&self, offset: usize) -> usize {
        self.pieces
            .partition_point(|p| p.out.end <= offset)
            .min(self.pieces.len().saturating_sub(1))
    }

    /// The file and file range that `span` of the rewritten text came from. A span that crosses
    /// pieces is cut at the end of the first one.
    pub(crate) fn locate(&self, span: Range<usize>) -> Option<(Arc<SourceFile>, Range<usize>)> {
        let p = self.pieces.get(self.index(span.start))?;
        if !p.exact {
            return Some((Arc::clone(&p.file), p.from.clone()));
        }
        let start = p.from.start + span.start.saturating_sub(p.out.start).min(p.from.len());
        let end = p.from.start + span.end.saturating_sub(p.out.start).min(p.from.len());
        Some((Arc::clone(&p.file), start..end.max(start)))
    }

    /// Moves a diagnostic located in the rewritten text (`text`) to the file it came from.
    pub(crate) fn relocate(&self, text: &Arc<SourceFile>, mut d: Diagnostic) -> Diagnostic {
        if self.identity {
            return d;
        }
        if let Some((file, span)) = &d.location {
            if Arc::ptr_eq(file, text) {
                if let Some((file, span)) = self.locate(span.clone()) {
                    d.location = Some((file, span));
                }
            }
        }
        d
    }
}

impl Default for SourceMap {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that each span of the mapped text comes from the named file and text there.
    fn assert_located(map: &SourceMap, cases: &[(Range<usize>, &str, &str)]) {
        for (span, file, text) in cases {
            let got = map.locate(span.clone()).map(|(f, r)| {
                let found = f.text.get(r).unwrap_or_default().to_string();
                (f.name.clone(), found)
            });
            assert_eq!(got, Some((file.to_string(), text.to_string())), "{span:?}");
        }
    }

    #[test]
    fn copies_and_includes_map_back_byte_for_byte() {
        let page = SourceFile::new("a.md", "before {{#include b.rs}} after");
        let inc = SourceFile::new("b.rs", "fn main() {}\n");
        let id = SourceMap::identity(&page);
        let mut map = SourceMap::new();
        map.copy(&id, 0..7);
        map.include(&inc, 0, 12);
        map.copy(&id, 24..30);
        // "before fn main() {} after"
        assert_located(&map, &[(10..14, "b.rs", "main"), (20..25, "a.md", "after")]);
    }

    #[test]
    fn replaced_text_maps_to_what_it_replaced() {
        let page = SourceFile::new("a.md", "one\ntwo\nthree\n");
        let id = SourceMap::identity(&page);
        let mut map = SourceMap::new();
        map.copy(&id, 0..4);
        map.replaced(&id, 4..8, 10);
        map.copy(&id, 8..14);
        assert_located(&map, &[(6..7, "a.md", "two\n"), (14..19, "a.md", "three")]);
    }
}
