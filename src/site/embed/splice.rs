//! Puts what claims and directives became ([`Fragment`]s) back into a chapter's markdown, for a
//! tool that renders the rest of the chapter itself (mdBook, through `nimbook mdbook`).
//!
//! For HTML, a fragment goes in as raw HTML that CommonMark passes through untouched. A block
//! becomes one line that starts with a `<div>` (an HTML block, which ends at the next blank
//! line, so it may hold no blank line and a blank line must follow it); newlines inside it
//! become `&#10;` in text and spaces inside tags, scripts and styles. A span becomes inline HTML,
//! where the text between tags is still read as markdown, so every character that markdown
//! would act on is written as a numeric character reference.
//!
//! For any other renderer a fragment becomes plain text: a block a `text` code block, a span
//! its words with markdown's punctuation escaped. Formulas read as their `alttext`, which is
//! what the claim says in words and symbols.

use crate::site::html::{decode_entity, element_end, plain_text, scan_tag};
use crate::site::lesson::markdown::Fragment;

/// How the fragments are written into the chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// As HTML, for mdBook's `html` renderer.
    Html,
    /// As plain text, for any other renderer.
    Text,
}

/// `content` with every fragment (in document order, not overlapping) in place of the source it
/// came from.
pub(crate) fn splice(content: &str, fragments: &[Fragment], target: Target) -> String {
    let mut out = String::with_capacity(content.len() + fragments.len() * 256);
    let mut at = 0;
    for f in fragments {
        if f.range.start < at || f.range.end > content.len() {
            // Fragments come from one pass over `content`, in order; anything else is skipped
            // rather than garbling the chapter.
            continue;
        }
        out.push_str(&content[at..f.range.start]);
        // A fence's range stops before its last newline: the newline goes with it, so that
        // what follows starts on a line of its own.
        let mut end = f.range.end;
        if f.block {
            end += line_break_at(content, end);
        }
        let replaced = &content[f.range.start..end];
        let prefix = line_prefix(content, f.range.start);
        match (target, f.block) {
            // A block left out (graded mode's worked answers): its line break stays.
            (_, true) if f.html.is_empty() => out.push('\n'),
            (Target::Html, true) => {
                out.push_str("<div class=\"nimbook\">");
                out.push_str(&one_line(&f.html, false));
                out.push_str("</div>\n");
                // The HTML block ends at a blank line: give it one inside the same container
                // (`>` in a quotation), unless one follows already.
                if !next_line_is_blank(content, end, prefix) {
                    out.push_str(prefix.trim_end());
                    out.push('\n');
                }
            }
            (Target::Html, false) => out.push_str(&one_line(&f.html, true)),
            (Target::Text, true) => {
                let text = plain_text(&f.html);
                let fence = "`".repeat(longest_run(&text, '`').max(2) + 1);
                out.push_str(&fence);
                out.push_str("text\n");
                for line in text.lines() {
                    out.push_str(prefix);
                    out.push_str(line);
                    out.push('\n');
                }
                out.push_str(prefix);
                out.push_str(&fence);
                out.push('\n');
            }
            (Target::Text, false) => {
                out.push_str(&escape_markdown(&plain_text(&f.html).replace('\n', " ")));
            }
        }
        if f.block && !replaced.ends_with('\n') && end < content.len() {
            // The fence ended without a newline of its own.
            out.push('\n');
        }
        at = end;
    }
    out.push_str(&content[at..]);
    out
}

/// The length of the line break at `at` (`\n` or `\r\n`), 0 if there is none.
fn line_break_at(content: &str, at: usize) -> usize {
    let rest = content.get(at..).unwrap_or("");
    if rest.starts_with("\r\n") {
        2
    } else {
        usize::from(rest.starts_with('\n'))
    }
}

/// The text between the start of the line holding `at` and `at`, when it is only a
/// container's marks (indentation, `>`); empty otherwise.
fn line_prefix(content: &str, at: usize) -> &str {
    let start = content[..at].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &content[start..at];
    if prefix.chars().all(|c| c == ' ' || c == '\t' || c == '>') {
        prefix
    } else {
        ""
    }
}

/// Whether the line that starts at `at` is blank once the container's marks are set aside,
/// or there is no next line.
fn next_line_is_blank(content: &str, at: usize, prefix: &str) -> bool {
    let rest = &content[at.min(content.len())..];
    let line = rest.split('\n').next().unwrap_or("");
    let marks = prefix.trim_end();
    let line = line.strip_prefix(marks).unwrap_or(line);
    rest.is_empty() || line.trim().is_empty()
}

/// `html` on one line. In a span, the text between tags is escaped for markdown too.
fn one_line(html: &str, inline: bool) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut i = 0;
    while i < html.len() {
        let rest = &html[i..];
        if rest.starts_with('<') {
            if let Some(tag) = scan_tag(html, i) {
                out.push_str(&tag_on_one_line(&html[i..tag.end], inline));
                let raw = !tag.closing && (tag.name == "script" || tag.name == "style");
                i = tag.end;
                if raw {
                    // Script and style text is not HTML: a character reference there would be
                    // read literally, so its newlines become spaces.
                    let end = element_end(html, i, &tag.name);
                    let close = html[i..end].rfind("</").map_or(end, |p| i + p);
                    out.push_str(&html[i..close].replace(['\n', '\r'], " "));
                    i = close;
                }
                continue;
            }
        }
        let Some(c) = rest.chars().next() else { break };
        match c {
            '\n' => out.push_str("&#10;"),
            '\r' => {}
            '&' if decode_entity(html, i).is_some() => out.push('&'),
            c if inline && c.is_ascii_punctuation() && c != '&' && c != ';' && c != '#' => {
                out.push_str(&format!("&#{};", u32::from(c)));
            }
            c => out.push(c),
        }
        i += c.len_utf8();
    }
    out
}

/// A tag on one line; in a span, a `|` would split a table cell even inside a tag.
fn tag_on_one_line(tag: &str, inline: bool) -> String {
    let tag = tag.replace(['\n', '\r'], " ");
    if inline {
        tag.replace('|', "&#124;")
    } else {
        tag
    }
}

/// The longest run of `c` in `s`.
fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for x in s.chars() {
        run = if x == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Text with every ASCII punctuation character that markdown might act on backslash-escaped.
fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frag(range: std::ops::Range<usize>, html: &str, block: bool) -> Fragment {
        Fragment {
            range,
            html: html.into(),
            block,
        }
    }

    #[test]
    fn a_block_becomes_one_html_line_followed_by_a_blank_line() {
        let md = "Text\n```nim\n1 + 1 = 0\n```\nMore\n";
        let html = "<div class=\"c\">\n<pre>a\n\nb</pre><script>{\"a\":\n1}</script></div>\n";
        let out = splice(md, &[frag(5..26, html, true)], Target::Html);
        assert_eq!(
            out,
            "Text\n<div class=\"nimbook\"><div class=\"c\">&#10;<pre>a&#10;&#10;b</pre><script>{\"a\": 1}</script></div>&#10;</div>\n\nMore\n"
        );
    }

    #[test]
    fn a_block_in_a_quotation_keeps_its_marks() {
        let md = "> ```nim\n> 1 = 1\n> ```\n> after\n";
        let out = splice(md, &[frag(2..md.len() - 8, "<p>x</p>", true)], Target::Html);
        assert_eq!(out, "> <div class=\"nimbook\"><p>x</p></div>\n>\n> after\n");
    }

    #[test]
    fn a_span_escapes_what_markdown_would_read() {
        let md = "a `nim: 2 * 3` b";
        let html =
            "<span title=\"x | y\"><math alttext=\"2 ⊗ 3\"><mi>a_b</mi><mo>*</mo></math></span>";
        let out = splice(md, &[frag(2..14, html, false)], Target::Html);
        assert_eq!(
            out,
            "a <span title=\"x &#124; y\"><math alttext=\"2 ⊗ 3\"><mi>a&#95;b</mi><mo>&#42;</mo></math></span> b"
        );
    }

    #[test]
    fn plain_text_reads_formulas_cells_and_blocks() {
        let html = "<div><math alttext=\"6 ⊗ 13 = 15\"><mn>6</mn></math><span>✓ verified</span></div><table><tr><th>⊕</th><td>0</td></tr></table><script>x</script>";
        assert_eq!(plain_text(html), "6 ⊗ 13 = 15 ✓ verified\n⊕ | 0");
        let md = "`nim: 6 * 13`.\n";
        let out = splice(
            md,
            &[frag(0..13, "<math alttext=\"15\"></math>", false)],
            Target::Text,
        );
        assert_eq!(out, "15.\n");
    }
}
