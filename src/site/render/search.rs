//! The search index: built with the site, searched in the reader's browser.
//!
//! The site has to work from `file://`, where a page may not `fetch` a JSON file. So the index
//! is written as a script, `searchindex.js`, that assigns one global
//! (`window.nimbookSearchIndex`), and the page loads it with an ordinary `<script src>`; the
//! small hand-written `search.js` then searches it as the reader types.
//!
//! The index is cut into *sections*: the text from one heading to the next, with the heading's
//! anchor, so that a result links to the place on the page where the words are. The text comes
//! from the rendered HTML of each lesson by a single pass that drops tags, comments and the
//! contents of `<script>`, `<style>` and MathML `<annotation>` elements, decodes entities and
//! collapses white space. The pass is linear in the length of the page and the index is written
//! in chapter order, so two builds of the same book write the same bytes.

use serde::Serialize;

use crate::site::html::{
    attr, decode_attr, decode_entity, element_end, find_ascii_ci, scan_tag, url_path,
};
use crate::site::lesson::book::Lesson;
use crate::site::load::config::SearchTable;

/// The variable the index script assigns; `search.js` reads it.
pub(crate) const GLOBAL: &str = "nimbookSearchIndex";

/// The file the index is written to, in the output folder.
pub(crate) const FILE: &str = "searchindex.js";

/// The search index of a whole book.
#[derive(Debug, Default, Serialize, PartialEq, Eq)]
pub(crate) struct SearchIndex {
    /// One entry per page, in reading order.
    pub pages: Vec<PageEntry>,
    /// The sections of every page, in reading order.
    pub sections: Vec<SectionEntry>,
    /// The weights of a match in a section's heading, its page's title and its text, and the
    /// most results listed (`[output.html.search]`).
    #[serde(rename = "w")]
    pub weights: Weights,
    /// `false` when `[output.html.search] enable = false`: the script sets no index, so the
    /// search box stays hidden.
    #[serde(skip)]
    pub disabled: bool,
}

/// How `search.js` ranks and cuts its results.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub(crate) struct Weights {
    /// A term in the section's heading (mdBook's `boost-title`).
    pub heading: u32,
    /// A term in the page's title (mdBook's `boost-hierarchy`).
    pub title: u32,
    /// A term in the text (mdBook's `boost-paragraph`).
    pub text: u32,
    /// The most results listed (`limit-results`).
    pub limit: u32,
    /// Whether a result holds every word searched for (`use-boolean-and`), or any.
    pub and: bool,
    /// Whether a word searched for matches every word it begins (`expand`), or only itself.
    pub expand: bool,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            heading: 8,
            title: 4,
            text: 1,
            limit: 20,
            and: false,
            expand: true,
        }
    }
}

/// A page of the index.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub(crate) struct PageEntry {
    /// The chapter title.
    #[serde(rename = "t")]
    pub title: String,
    /// The page's URL relative to the site root, with `/` separators.
    #[serde(rename = "u")]
    pub url: String,
}

/// The text of a page from one heading to the next.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub(crate) struct SectionEntry {
    /// Index into [`SearchIndex::pages`].
    #[serde(rename = "p")]
    pub page: usize,
    /// The heading's text; empty for the text before the first heading.
    #[serde(rename = "h")]
    pub heading: String,
    /// The heading's anchor (without `#`); empty for the top of the page.
    #[serde(rename = "a")]
    pub anchor: String,
    /// The plain text of the section, white space collapsed.
    #[serde(rename = "x")]
    pub text: String,
}

/// A section of plain text cut from a page's HTML.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Section {
    /// The `id` of the heading that opens the section; empty before the first heading.
    pub anchor: String,
    /// The heading's text.
    pub heading: String,
    /// The text under the heading.
    pub text: String,
    /// The heading's level (1 for `<h1>`); 0 before the first heading.
    pub level: u8,
}

impl SearchIndex {
    /// The index of `lessons`, each with its sections as [`lesson_sections`] cut them: a
    /// rebuild that keeps the sections of the lessons it did not touch only cuts the new ones.
    /// `settings` leaves chapters out, joins sections under headings deeper than its
    /// `heading-split-level` to the section before them, and sets the weights.
    pub(crate) fn assemble(
        lessons: &[Lesson],
        sections: &[Vec<Section>],
        settings: &SearchTable,
    ) -> SearchIndex {
        let d = Weights::default();
        let mut index = SearchIndex {
            weights: Weights {
                heading: settings.boost_title.unwrap_or(d.heading),
                title: settings.boost_hierarchy.unwrap_or(d.title),
                text: settings.boost_paragraph.unwrap_or(d.text),
                limit: settings.limit_results.unwrap_or(d.limit),
                and: settings.use_boolean_and.unwrap_or(d.and),
                expand: settings.expand.unwrap_or(d.expand),
            },
            disabled: !settings.enable,
            ..SearchIndex::default()
        };
        for (lesson, cut) in lessons.iter().zip(sections) {
            let Some(out) = lesson.chapter.out_path() else {
                continue;
            };
            let searched = lesson
                .chapter
                .path
                .as_deref()
                .is_none_or(|p| settings.includes(&url_path(p)));
            if !searched {
                continue;
            }
            let page = index.pages.len();
            index.pages.push(PageEntry {
                title: lesson.chapter.title.clone(),
                url: url_path(&out),
            });
            for s in cut {
                let joined = s.level > settings.heading_split_level
                    && index.sections.last().is_some_and(|last| last.page == page);
                match index.sections.last_mut() {
                    Some(last) if joined => {
                        for part in [&s.heading, &s.text] {
                            if !part.is_empty() {
                                if !last.text.is_empty() {
                                    last.text.push(' ');
                                }
                                last.text.push_str(part);
                            }
                        }
                    }
                    _ => index.sections.push(SectionEntry {
                        page,
                        heading: s.heading.clone(),
                        anchor: s.anchor.clone(),
                        text: s.text.clone(),
                    }),
                }
            }
        }
        index
    }

    /// The index as the script `searchindex.js`.
    pub(crate) fn to_script(&self) -> String {
        // JSON is a JavaScript expression. serde_json cannot fail on these plain strings; an
        // empty index is still a valid script should it ever do so.
        if self.disabled {
            return format!("window.{GLOBAL} = null;\n");
        }
        let json = serde_json::to_string(self)
            .unwrap_or_else(|_| String::from("{\"pages\":[],\"sections\":[]}"));
        format!("window.{GLOBAL} = {json};\n")
    }
}

/// The sections of a lesson's page that go into the index: all but an empty top of the page.
pub(crate) fn lesson_sections(lesson: &Lesson) -> Vec<Section> {
    let mut cut = sections(&lesson.page.html);
    cut.retain(|s| !(s.anchor.is_empty() && s.text.is_empty()));
    cut
}

/// Elements whose content is not text a reader sees (and, below, links marked `aria-hidden`,
/// such as the `#` anchors beside headings, and the verified marks of claims).
const SKIPPED: &[&str] = &[
    "script",
    "style",
    "template",
    "annotation",
    "annotation-xml",
    "noscript",
];

/// Elements that run into their neighbours without a word break (everything else separates).
const INLINE: &[&str] = &[
    "a",
    "abbr",
    "b",
    "bdi",
    "bdo",
    "cite",
    "code",
    "data",
    "dfn",
    "em",
    "i",
    "kbd",
    "mark",
    "q",
    "s",
    "samp",
    "small",
    "span",
    "strong",
    "sub",
    "sup",
    "time",
    "u",
    "var",
    "del",
    "ins",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mrow",
    "msub",
    "msup",
    "msubsup",
    "mfrac",
    "msqrt",
    "mroot",
    "mover",
    "munder",
    "munderover",
    "mspace",
    "mpadded",
    "mphantom",
    "mstyle",
    "semantics",
];

fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// Appends `text` to `out`, collapsing runs of white space into one space.
fn push_text(out: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_whitespace() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
}

/// Cuts a page's HTML into sections of plain text at its headings.
pub(crate) fn sections(html: &str) -> Vec<Section> {
    let mut out = Vec::new();
    let mut current = Section::default();
    // Inside a heading, text goes to the heading of the next section.
    let mut heading: Option<(String, String)> = None;
    let mut i = 0;
    let mut text_start = 0;
    let bytes = html.as_bytes();
    let flush =
        |current: &mut Section, heading: &mut Option<(String, String)>, s: &str| match heading {
            Some((_, h)) => push_text(h, s),
            None => push_text(&mut current.text, s),
        };
    while i < bytes.len() {
        match bytes[i] {
            b'<' => {
                flush(&mut current, &mut heading, &html[text_start..i]);
                if html[i..].starts_with("<!--") {
                    i = html[i..].find("-->").map_or(html.len(), |e| i + e + 3);
                    text_start = i;
                    continue;
                }
                let Some(tag) = scan_tag(html, i) else {
                    // A lone `<` is text.
                    text_start = i;
                    i += 1;
                    continue;
                };
                i = tag.end;
                // Heading anchors (`#`) and the "✓ verified" marks are decoration, not text.
                let hidden_link = (tag.name == "a"
                    && attr(tag.attrs, "aria-hidden") == Some("true"))
                    || (tag.name == "span" && attr(tag.attrs, "class") == Some("verified"));
                // The hints and answers of exercises would give the answers away in a search.
                let spoiler = !tag.closing
                    && attr(tag.attrs, "class").is_some_and(|c| {
                        c.split(' ')
                            .any(|c| c == "nim-exercise-hint" || c == "nim-exercise-answer")
                    });
                if spoiler {
                    i = element_end(html, i, &tag.name);
                } else if !tag.closing && (SKIPPED.contains(&tag.name.as_str()) || hidden_link) {
                    // Skip to the matching end tag (these elements do not nest in practice).
                    let close = format!("</{}", tag.name);
                    i = find_ascii_ci(html, i, &close).map_or(html.len(), |e| {
                        html[e..].find('>').map_or(html.len(), |g| e + g + 1)
                    });
                } else if is_heading(&tag.name) {
                    if tag.closing {
                        if let Some((anchor, title)) = heading.take() {
                            let mut done = std::mem::take(&mut current);
                            done.text = done.text.trim_end().to_string();
                            out.push(done);
                            current.anchor = anchor;
                            current.heading = title.trim().to_string();
                            current.level = tag.name.as_bytes().get(1).map_or(0, |b| b - b'0');
                        }
                    } else {
                        let anchor = attr(tag.attrs, "id").map(decode_attr).unwrap_or_default();
                        heading = Some((anchor, String::new()));
                    }
                } else if !INLINE.contains(&tag.name.as_str()) {
                    flush(&mut current, &mut heading, " ");
                }
                text_start = i;
            }
            b'&' => {
                flush(&mut current, &mut heading, &html[text_start..i]);
                match decode_entity(html, i) {
                    Some((s, end)) => {
                        flush(&mut current, &mut heading, &s);
                        i = end;
                    }
                    None => {
                        flush(&mut current, &mut heading, "&");
                        i += 1;
                    }
                }
                text_start = i;
            }
            _ => i += 1,
        }
    }
    flush(
        &mut current,
        &mut heading,
        &html[text_start.min(html.len())..],
    );
    if let Some((anchor, title)) = heading {
        // An unclosed heading still names its section.
        out.push(std::mem::take(&mut current));
        current.anchor = anchor;
        current.heading = title.trim().to_string();
    }
    current.text = current.text.trim_end().to_string();
    out.push(current);
    for s in &mut out {
        s.text = s.text.trim().to_string();
    }
    // The text before the first heading is worth a section only if it has any.
    if out
        .first()
        .is_some_and(|s| s.anchor.is_empty() && s.text.is_empty())
    {
        out.remove(0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that the first section of `html` reads `want`.
    fn text_is(html: &str, want: &str) {
        assert_eq!(sections(html)[0].text, want, "{html}");
    }

    fn texts(html: &str) -> Vec<(String, String, String)> {
        sections(html)
            .into_iter()
            .map(|s| (s.anchor, s.heading, s.text))
            .collect()
    }

    #[test]
    fn tags_are_dropped_and_words_kept_apart_at_block_boundaries() {
        text_is(
            "<p>one <em>tw</em>o</p><p>three</p><ul><li>four</li><li>five</li></ul>",
            "one two three four five",
        );
    }

    #[test]
    fn entities_are_decoded_and_a_lone_ampersand_or_angle_is_text() {
        text_is(
            "<p>a &amp; b &lt;c&gt; &#8853; &#x2297; & x < y &bogus; &#xD800;</p>",
            "a & b <c> ⊕ ⊗ & x < y &bogus; &#xD800;",
        );
    }

    #[test]
    fn exercise_hints_and_answers_are_not_text() {
        let html = "<p>Compute 6 ⊗ 13.</p><div class=\"nim-exercise-hint\" hidden><div>Fermat \
                    <div>nested</div> still hint</div></div><p>after</p>\
                    <details class=\"nim-exercise-answer\"><summary>Show</summary>15</details><p>end</p>";
        text_is(html, "Compute 6 ⊗ 13. after end");
    }

    #[test]
    fn scripts_styles_comments_and_annotations_are_not_text() {
        text_is(
            "<p>seen</p><script>var x = '<p>hidden</p>';</script><style>p{}</style>\
                    <!-- <p>gone</p> --><math><mi>x</mi><annotation>tex</annotation></math>\
                    <span class=\"verified\">✓ verified</span>\
                    <SCRIPT type=x>no</SCRIPT>end",
            "seen x end",
        );
    }

    #[test]
    fn quoted_attributes_may_hold_angle_brackets() {
        text_is(
            "<p title=\"a > b\">kept</p><span data-x='<'>too</span>",
            "kept too",
        );
    }

    #[test]
    fn headings_cut_sections_and_carry_their_anchor() {
        let html = "<h1 id=\"top\">Title<a class=\"anchor\" href=\"#top\" aria-hidden=\"true\">#</a></h1><p>intro</p>\
                    <h2 id=\"fermat-powers\">Fermat <code>2^2^k</code></h2><p>body &amp; more</p>";
        assert_eq!(
            texts(html),
            vec![
                ("top".into(), "Title".into(), "intro".into()),
                (
                    "fermat-powers".into(),
                    "Fermat 2^2^k".into(),
                    "body & more".into()
                ),
            ]
        );
    }

    #[test]
    fn text_before_the_first_heading_is_its_own_section() {
        let got = texts("<p>lead</p><h2 id=\"a\">A</h2>x");
        assert_eq!(got[0], ("".into(), "".into(), "lead".into()));
        assert_eq!(got[1], ("a".into(), "A".into(), "x".into()));
    }

    #[test]
    fn truncated_html_does_not_panic() {
        for html in [
            "<",
            "<p",
            "<p title=\"x>",
            "&",
            "&#",
            "<h2 id=\"a\">open",
            "<script>",
            "<!--",
            "é<é>&é;",
        ] {
            let _ = sections(html);
        }
    }

    fn lesson(path: &str, title: &str, html: &str) -> Lesson {
        Lesson {
            chapter: crate::site::load::book::Chapter {
                title: title.into(),
                path: Some(path.into()),
                depth: 0,
                number: None,
                part: None,
                separator: false,
                page_title: None,
            },
            page: crate::site::lesson::markdown::RenderedPage {
                html: html.into(),
                ..Default::default()
            },
        }
    }

    /// The index of `lessons`, every section cut afresh (as a whole build does).
    fn index_of(lessons: &[Lesson]) -> SearchIndex {
        let sections: Vec<Vec<Section>> = lessons.iter().map(lesson_sections).collect();
        SearchIndex::assemble(lessons, &sections, &SearchTable::default())
    }

    #[test]
    fn search_settings_leave_out_chapters_and_join_deep_sections() {
        let lessons = [
            lesson(
                "a.md",
                "A",
                "<h1 id=\"a\">A</h1><p>one</p><h2 id=\"b\">B</h2><p>two</p>",
            ),
            lesson("appendix/x.md", "X", "<h1 id=\"x\">X</h1><p>zebra</p>"),
        ];
        let sections: Vec<Vec<Section>> = lessons.iter().map(lesson_sections).collect();
        let settings: SearchTable = toml::from_str(
            "heading-split-level = 1\nboost-title = 3\n[chapter]\n\"appendix/\" = { enable = false }\n",
        )
        .expect("settings");
        let index = SearchIndex::assemble(&lessons, &sections, &settings);
        assert_eq!(index.pages.len(), 1, "the appendix is left out");
        assert_eq!(index.sections.len(), 1);
        assert_eq!(index.sections[0].text, "one B two");
        assert_eq!(index.weights.heading, 3);
        assert_eq!(index.weights.title, 4);
    }

    #[test]
    fn the_index_points_at_the_page_and_heading_that_hold_a_word() {
        let lessons = [
            lesson("sums.md", "Sums", "<h1 id=\"sums\">Sums</h1><p>nim-sum</p>"),
            lesson(
                "part/products.md",
                "Products",
                "<h1 id=\"products\">Products</h1><p>intro</p>\
                 <h2 id=\"powers\">Powers</h2><p>the <em>Fermat</em> 2-powers</p>",
            ),
        ];
        let index = index_of(&lessons);
        assert_eq!(index.pages.len(), 2);
        assert_eq!(index.pages[1].url, "part/products.html");
        let hits: Vec<_> = index
            .sections
            .iter()
            .filter(|s| s.text.contains("Fermat"))
            .collect();
        assert_eq!(hits.len(), 1);
        assert_eq!(index.pages[hits[0].page].title, "Products");
        assert_eq!(hits[0].anchor, "powers");
        assert_eq!(hits[0].text, "the Fermat 2-powers");
        // Deterministic: the same lessons give the same bytes.
        assert_eq!(index.to_script(), index_of(&lessons).to_script());
    }

    #[test]
    fn the_script_assigns_the_global_with_valid_json() {
        let index = SearchIndex {
            pages: vec![PageEntry {
                title: "T \"q\"".into(),
                url: "a/b.html".into(),
            }],
            sections: vec![SectionEntry {
                page: 0,
                heading: "H".into(),
                anchor: "h".into(),
                text: "x </script> y".into(),
            }],
            ..SearchIndex::default()
        };
        let js = index.to_script();
        let prefix = format!("window.{GLOBAL} = ");
        let json = js
            .strip_prefix(&prefix)
            .and_then(|s| s.strip_suffix(";\n"))
            .expect("script shape");
        let back: serde_json::Value = serde_json::from_str(json).expect("valid JSON");
        assert_eq!(back["pages"][0]["t"], "T \"q\"");
        assert_eq!(back["sections"][0]["x"], "x </script> y");
    }
}
