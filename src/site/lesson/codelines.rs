//! Hidden lines in code blocks, as mdBook hides them.
//!
//! A Rust example often needs lines that make it compile (`fn main`, imports) but distract the
//! reader. rustdoc's rule, which mdBook follows, hides a line whose first non-blank characters
//! are `# ` or that is `#` alone, and shows `##…` with one `#` removed; `#[attr]` and `#!` stay.
//! `[output.html.code.hidelines]` gives other languages a prefix of their own. nimbook leaves
//! hidden lines out of the page: they are neither shown nor searched.

use std::collections::BTreeMap;

/// The lines of `code` (in `lang`, the fence's first word) that a reader sees.
pub(crate) fn visible(code: &str, lang: &str, hidelines: &BTreeMap<String, String>) -> String {
    let prefix = hidelines.get(lang).map(String::as_str);
    if lang != "rust" && prefix.is_none() {
        return code.to_string();
    }
    let mut out = String::with_capacity(code.len());
    for line in code.split_inclusive('\n') {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let hidden = match prefix {
            Some(p) => body.starts_with(p),
            None => body.starts_with("# ") || body.trim_end() == "#",
        };
        if hidden {
            continue;
        }
        match body.strip_prefix('#') {
            Some(rest) if prefix.is_none() && rest.starts_with('#') => {
                out.push_str(indent);
                out.push_str(rest);
            }
            _ => out.push_str(line),
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
    fn configured_prefix() {
        let h = BTreeMap::from([("python".to_string(), "~".to_string())]);
        assert_eq!(
            visible("~import os\nprint(1)\n", "python", &h),
            "print(1)\n"
        );
    }
}
