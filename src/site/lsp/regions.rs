//! Where a lesson speaks the claim language: the text of `nim` and `nimbook` fences and of
//! `` `nim: …` `` spans. Completion and go-to-definition work only there, so that prose is left
//! to the editor's own markdown support.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// The byte ranges of the claim language in `text`, in order.
pub(crate) fn claim_regions(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut fence: Option<usize> = None;
    let options = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_MATH;
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let lang = info.split([' ', ',', '{']).next().unwrap_or("");
                if lang == "nim" || lang == "nimbook" {
                    fence = Some(range.start);
                }
            }
            Event::Text(_) if fence.is_some() => out.push(range),
            Event::End(TagEnd::CodeBlock) => fence = None,
            Event::Code(code) if code.trim_start().starts_with("nim:") => {
                // The span's range includes its backticks; the claim starts after `nim:`.
                let inner = &text[range.clone()];
                if let Some(at) = inner.find("nim:") {
                    let start = range.start + at + "nim:".len();
                    let end = range.start + inner.trim_end_matches('`').len();
                    out.push(start..end.max(start));
                }
            }
            _ => {}
        }
    }
    out
}

/// Every name a `let` binds in the claim language of `text` (in `regions`), with the span of
/// its statement, read without evaluating anything.
pub(crate) fn bindings(text: &str, regions: &[Range<usize>]) -> Vec<(String, Range<usize>)> {
    let limits = crate::claim::Limits::default();
    regions
        .iter()
        .filter_map(|r| Some((r.start, text.get(r.clone())?)))
        .flat_map(|(start, region)| {
            crate::claim::bindings(region, &limits)
                .into_iter()
                .map(move |(name, span)| (name, span.start + start..span.end + start))
        })
        .collect()
}

/// Whether `offset` is in the claim language (the end of a region counts, where the cursor
/// stands after the last character typed).
pub(crate) fn in_claims(regions: &[Range<usize>], offset: usize) -> bool {
    regions.iter().any(|r| r.start <= offset && offset <= r.end)
}

/// The identifier that `offset` is in or just after: `(start, name)`.
pub(crate) fn word_at(text: &str, offset: usize) -> Option<(usize, &str)> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return None;
    }
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word(c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = text[offset..]
        .char_indices()
        .find(|&(_, c)| !is_word(c))
        .map_or(text.len(), |(i, _)| offset + i);
    (start < end).then(|| (start, &text[start..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_the_claim_blocks_and_spans_only() {
        let text = "# T\n\nProse 6 * 13 with `nim: 6 * 13 = 15` and `code`.\n\n```nim\nlet f = 16\nf * f\n```\n\n```rust\nlet x = 1;\n```\n\n```nimbook\naddition_table(4)\n```\n";
        let regions = claim_regions(text);
        let pieces: Vec<&str> = regions.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(
            pieces,
            [" 6 * 13 = 15", "let f = 16\nf * f\n", "addition_table(4)\n"]
        );
        let prose = text.find("Prose").expect("there");
        assert!(!in_claims(&regions, prose));
    }

    #[test]
    fn bindings_are_read_from_the_text_even_half_typed() {
        let text = "```nim\nlet f = 16\n# let no = 1\nlet g = f * (\nlet h = \"open\n6 * 13 = 15\n```\n\nProse let x = 1 and `nim: let k = 2`.\n";
        let found = bindings(text, &claim_regions(text));
        let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["f", "g", "h", "k"]);
        assert_eq!(&text[found[0].1.clone()], "let f = 16");
    }

    #[test]
    fn the_word_at_the_cursor() {
        let text = "let ab_1 = 6 ⊗ x";
        assert_eq!(word_at(text, 6), Some((4, "ab_1")));
        assert_eq!(word_at(text, 8), Some((4, "ab_1")), "just after the word");
        assert_eq!(word_at(text, text.len()), Some((text.len() - 1, "x")));
        assert_eq!(word_at(text, 10), None);
    }
}
