//! Hidden lines in code blocks, as mdBook hides them.
//!
//! A Rust example often needs lines that make it compile (`fn main`, imports) but distract the
//! reader. rustdoc's rule, which mdBook follows, hides a line whose first non-blank characters
//! are `# ` or that is `#` alone, and shows `##…` with one `#` removed; `#[attr]` and `#!` stay.
//! `[output.html.code.hidelines]` gives other languages a prefix of their own. As in mdBook,
//! hidden lines stay in the page, without their marker, each in a `<span class="boring">`
//! that the stylesheet hides until the reader presses the block's "Show hidden lines" button
//! (`page.js`).

use std::collections::BTreeMap;

/// The text of `code` (in `lang`, the fence's first word) as the page holds it, with the hidden
/// lines' markers removed, and for each line whether it is hidden.
pub(super) fn lines(
    code: &str,
    lang: &str,
    hidelines: &BTreeMap<String, String>,
) -> (String, Vec<bool>) {
    let prefix = hidelines.get(lang).map(String::as_str);
    if lang != "rust" && prefix.is_none() {
        return (code.to_string(), Vec::new());
    }
    let mut out = String::with_capacity(code.len());
    let mut hidden = Vec::new();
    for line in code.split_inclusive('\n') {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let shown = match prefix {
            Some(p) => body.strip_prefix(p),
            None if body.trim_end() == "#" => Some(&body[1..]),
            None => body.strip_prefix("# "),
        };
        if let Some(rest) = shown {
            out.push_str(indent);
            out.push_str(rest);
            hidden.push(true);
            continue;
        }
        hidden.push(false);
        match body.strip_prefix('#') {
            Some(rest) if prefix.is_none() && rest.starts_with('#') => {
                out.push_str(indent);
                out.push_str(rest);
            }
            _ => out.push_str(line),
        }
    }
    (out, hidden)
}

/// The lines of `code` that a reader sees before revealing the hidden ones.
#[cfg(test)]
fn visible(code: &str, lang: &str, hidelines: &BTreeMap<String, String>) -> String {
    let (text, hidden) = lines(code, lang, hidelines);
    text.split_inclusive('\n')
        .zip(hidden.iter().chain(std::iter::repeat(&false)))
        .filter(|(_, h)| !**h)
        .map(|(l, _)| l)
        .collect()
}

/// Wraps every hidden line of highlighted `html` (one output line per source line) in a
/// `<span class="boring">`. The highlighter's spans may run over several lines, so each
/// hidden line closes the spans open at its start and opens them again inside its own span,
/// and the same at its end: the tags stay balanced.
pub(super) fn wrap_hidden(html: &str, hidden: &[bool]) -> String {
    if !hidden.contains(&true) {
        return html.to_string();
    }
    let mut out = String::with_capacity(html.len() + 64);
    let mut open: Vec<&str> = Vec::new();
    let close_all = |out: &mut String, n: usize| {
        for _ in 0..n {
            out.push_str("</span>");
        }
    };
    for (line, &is_hidden) in html
        .split_inclusive('\n')
        .zip(hidden.iter().chain(std::iter::repeat(&false)))
    {
        if is_hidden {
            close_all(&mut out, open.len());
            out.push_str("<span class=\"boring\">");
            open.iter().for_each(|t| out.push_str(t));
        }
        let mut rest = line;
        while let Some(lt) = rest.find('<') {
            let end = rest[lt..].find('>').map_or(rest.len(), |i| lt + i + 1);
            let tag = &rest[lt..end];
            if tag.starts_with("</") {
                open.pop();
            } else if !tag.ends_with("/>") {
                open.push(tag);
            }
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        }
        out.push_str(rest);
        if is_hidden {
            close_all(&mut out, open.len());
            out.push_str("</span>");
            open.iter().for_each(|t| out.push_str(t));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rustdoc_hidden_lines() {
        let code =
            "# fn main() {\n#[derive(Debug)]\nstruct A;\n    # let hidden = 1;\n##[keep]\n#\n# }\n";
        assert_eq!(
            visible(code, "rust", &BTreeMap::new()),
            "#[derive(Debug)]\nstruct A;\n#[keep]\n"
        );
        assert_eq!(visible(code, "text", &BTreeMap::new()), code);
    }

    #[test]
    fn hidden_lines_are_wrapped_with_balanced_tags() {
        let html = "<span class=\"c\">/* a\nb */</span>\nx\n";
        let wrapped = wrap_hidden(html, &[false, true, false]);
        assert_eq!(
            wrapped,
            "<span class=\"c\">/* a\n</span><span class=\"boring\"><span class=\"c\">b */</span>\n</span>x\n"
        );
        assert_eq!(
            wrapped.matches("<span").count(),
            wrapped.matches("</span>").count()
        );
    }

    #[test]
    fn configured_prefix() {
        let h = BTreeMap::from([("python".to_string(), "~".to_string())]);
        assert_eq!(
            visible("~import os\nprint(1)\n", "python", &h),
            "print(1)\n"
        );
    }
}
