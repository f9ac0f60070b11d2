//! `[output.html.redirect]` as mdBook 0.5 reads it: entries grouped by the page they leave,
//! each page with the target of its entry without a fragment and a map of its moved anchors.
//! The render stage writes the pages and maps; the lesson stage counts a redirect's source as
//! a page a link may reach.

use super::book::Chapter;
use crate::diag::Fatal;
use crate::diag::{Code, Diagnostic};
use crate::site::html::url_path;

/// The redirects that leave one page: where the page itself goes, and where each of its old
/// anchors goes.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct RedirectGroup {
    /// The target of the entry without a fragment.
    pub(crate) default: Option<String>,
    /// `#old` → target, for the entries with a fragment.
    pub(crate) fragments: std::collections::BTreeMap<String, String>,
}

/// `[output.html.redirect]` grouped by the page each entry leaves, as mdBook 0.5 groups it:
/// `/a.html`, `./a.html` and `a.html` are the same page, and `a.html#old` is an anchor of it.
/// A source outside the site (`..`) is an error.
pub(crate) fn redirects(
    table: &std::collections::BTreeMap<String, String>,
) -> Result<std::collections::BTreeMap<String, RedirectGroup>, Fatal> {
    let mut out: std::collections::BTreeMap<String, RedirectGroup> =
        std::collections::BTreeMap::new();
    for (from, to) in table {
        let (path, fragment) = match from.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (from.as_str(), None),
        };
        let mut path = path.trim_start_matches('/');
        while let Some(rest) = path.strip_prefix("./") {
            path = rest.trim_start_matches('/');
        }
        if path.is_empty() || path.split('/').any(|s| s == ".." || s == ".") {
            return Err(Box::new(Diagnostic::error(
                Code::InvalidConfig,
                format!(
                    "the redirect from `{from}` in book.toml is not a page path inside the site"
                ),
            )));
        }
        let group = out.entry(path.to_string()).or_default();
        match fragment {
            Some(f) => {
                group.fragments.insert(format!("#{f}"), to.clone());
            }
            None => group.default = Some(to.clone()),
        }
    }
    Ok(out)
}

/// Warnings for redirects that cannot be written: a page that is not a chapter and has only
/// entries with a fragment has nowhere to send a reader who names no fragment (mdBook 0.5
/// refuses to build such a book; nimbook writes no page for it).
pub(crate) fn redirect_warnings(
    table: &std::collections::BTreeMap<String, String>,
    chapters: &[Chapter],
) -> Vec<Diagnostic> {
    let Ok(groups) = redirects(table) else {
        return Vec::new();
    };
    let chapters: std::collections::HashSet<String> = chapters
        .iter()
        .filter_map(|c| c.out_path().map(|p| url_path(&p)))
        .collect();
    groups
        .into_iter()
        .filter(|(path, g)| g.default.is_none() && !chapters.contains(path))
        .map(|(path, _)| {
            Diagnostic::warning(
                Code::IgnoredSetting,
                format!("the redirect of `{path}` in book.toml has only entries with a `#` fragment"),
            )
            .note("no page is written for it: a reader who names no fragment would have nowhere to go")
            .help(format!("add `\"/{path}\" = \"…\"` for the page itself"))
        })
        .collect()
}
