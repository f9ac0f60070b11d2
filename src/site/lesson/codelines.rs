//! Code blocks that are not nimbook's, as mdBook shows them: hidden lines, the playground,
//! and the classes of the fence's words.
//!
//! A Rust example often needs lines that make it compile (`fn main`, imports) but distract the
//! reader. rustdoc's rule, which mdBook follows, hides a line whose first non-blank characters
//! are `# ` or that is `#` alone, and shows `##…` with one `#` removed; `#[attr]` and `#!` stay.
//! `[output.html.code.hidelines]`, or a `hidelines=PREFIX` word in the fence, gives other
//! languages a prefix of their own. As in mdBook, hidden lines stay in the page, without their
//! marker, each in a `<span class="boring">` that the stylesheet hides until the reader presses
//! the block's "Show hidden lines" button (`page.js`); the copy button copies them too, so what
//! is pasted compiles.
//!
//! Every word of the fence after the language becomes a class of the `<code>` (`editable`,
//! `no_run`, `should_panic`), as mdBook writes them. A Rust block is a *playground* block
//! (`<pre class="… playground">`) unless it is marked `ignore`, `noplayground` or `noplaypen`, or
//! `[output.html.playground] runnable = false` (`mdbook-runnable` overrides both): it gets the
//! book's edition as a class (`edition2021`, from `[rust] edition`) unless it names one, and,
//! unless it is an editable block of a book whose playground is editable, a hidden
//! `#![allow(unused)]` and `fn main() { … }` around it when it has no `fn main`, as rustdoc
//! compiles it. `page.js` gives a playground block its play button (none for `no_run`), which
//! sends the code to the Rust playground only when the reader presses it.

use std::collections::BTreeMap;

use super::document::CodeBlock;
use crate::site::load::config::Config;

/// How a book shows code blocks: `[output.html.code]`, `[output.html.playground]` and
/// `[rust] edition`.
#[derive(Debug, Clone, Default)]
pub(crate) struct CodeSettings {
    /// Per language, the prefix of hidden code lines (Rust's `# ` is built in).
    pub(crate) hidelines: BTreeMap<String, String>,
    /// Whether Rust blocks are playground blocks (`playground.runnable`, mdBook's default on).
    pub(crate) runnable: bool,
    /// Whether `editable` blocks can be edited (`playground.editable`, default off).
    pub(crate) editable: bool,
    /// The edition of the book's Rust examples (`[rust] edition`), as a year.
    pub(crate) edition: Option<&'static str>,
}

impl CodeSettings {
    /// The settings of the book configured by `config`.
    pub(crate) fn of(config: &Config) -> CodeSettings {
        CodeSettings {
            hidelines: config.html.code.hidelines.clone(),
            runnable: config.html.playground.runnable,
            editable: config.html.playground.editable,
            edition: config.rust.edition.map(|e| e.year()),
        }
    }
}

/// The code block whose fence's info string is `info` (empty for an indented block) and whose
/// text is `code`, as the document holds it.
pub(super) fn block(info: &str, code: &str, settings: &CodeSettings) -> CodeBlock {
    let mut words = info.split([' ', '\t', ',']).filter(|w| !w.is_empty());
    let Some(lang) = words.next() else {
        return CodeBlock {
            lang: String::new(),
            classes: Vec::new(),
            playground: false,
            text: code.to_string(),
            hidden: Vec::new(),
        };
    };
    let mut classes: Vec<String> = words.map(str::to_string).collect();
    let has = |c: &str| classes.iter().any(|k| k == c);
    let playground = lang == "rust"
        && ((settings.runnable && !has("ignore") && !has("noplayground") && !has("noplaypen"))
            || has("mdbook-runnable"));
    let mut text = std::borrow::Cow::Borrowed(code);
    if playground {
        if !(settings.editable && has("editable")) {
            if let Some(wrapped) = wrap_main(code) {
                text = std::borrow::Cow::Owned(wrapped);
            }
        }
        if !classes.iter().any(|c| c.starts_with("edition")) {
            if let Some(year) = settings.edition {
                classes.push(format!("edition{year}"));
            }
        }
    }
    // Rust has rustdoc's rule; another language the fence's prefix, else the book's.
    let prefix = (lang != "rust")
        .then(|| {
            classes
                .iter()
                .find_map(|c| c.strip_prefix("hidelines="))
                .or_else(|| settings.hidelines.get(lang).map(String::as_str))
        })
        .flatten();
    let (mut text, hidden) = lines(&text, lang, prefix);
    if lang == "rust" && text.ends_with('\n') {
        // mdBook's Rust blocks end without the last line's newline.
        text.pop();
    }
    CodeBlock {
        lang: lang.to_string(),
        classes,
        playground,
        text,
        hidden,
    }
}

/// `code` wrapped as rustdoc compiles an example without `fn main`: its leading inner
/// attributes (`#![…]`), then the rest inside `fn main() { … }`, the added lines hidden.
/// `None` when it has a `fn main` (or error-chain's `quick_main!`).
fn wrap_main(code: &str) -> Option<String> {
    if code.contains("fn main") || code.contains("quick_main!") {
        return None;
    }
    // The leading lines that are inner attributes or blank; blank lines alone are not moved.
    let mut split = 0;
    for line in code.split_inclusive('\n') {
        let body = line.trim_start_matches([' ', '\t']);
        if body.starts_with("#![") || line.trim().is_empty() {
            split += line.len();
        } else {
            break;
        }
    }
    if code[..split].trim().is_empty() {
        split = 0;
    }
    let (attrs, rest) = code.split_at(split);
    let newline = if rest.is_empty() || rest.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    Some(format!(
        "# #![allow(unused)]\n{attrs}# fn main() {{\n{rest}{newline}# }}"
    ))
}

/// The text of `code` (in `lang`, the fence's first word, with the hidden-line `prefix` of its
/// language, if any) as the page holds it, with the hidden lines' markers removed, and for each
/// line whether it is hidden.
fn lines(code: &str, lang: &str, prefix: Option<&str>) -> (String, Vec<bool>) {
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
    let (text, hidden) = lines(code, lang, hidelines.get(lang).map(String::as_str));
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
