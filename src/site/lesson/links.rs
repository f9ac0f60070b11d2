//! Internal links checked against the pages of a book: every link must reach a lesson (or,
//! for a whole book, a file of the source folder) and every anchor an `id` of its page.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::markdown::InternalLink;
use crate::diag::{Code, Diagnostic};
use crate::site::html::url_path;
use crate::site::load::book::page_path;

/// The pages a link may reach.
pub(crate) struct Targets<'a> {
    /// Each rendered page's source path (`a/b.md`) with its anchors.
    pages: &'a HashMap<String, HashSet<&'a str>>,
    /// The source path of every chapter of the book, rendered this time or not.
    chapters: &'a HashSet<String>,
    /// A chapter's source path by its output path (`a/index.html` for `a/README.md`).
    by_page: HashMap<String, &'a String>,
    /// The pages `[output.html.redirect]` writes (`old.html`): a link may reach them too.
    redirected: HashSet<String>,
}

impl<'a> Targets<'a> {
    /// The targets of the given pages and chapters.
    pub(crate) fn new(
        pages: &'a HashMap<String, HashSet<&'a str>>,
        chapters: &'a HashSet<String>,
    ) -> Self {
        let by_page = chapters
            .iter()
            .map(|c| (url_path(&page_path(Path::new(c))), c))
            .collect();
        Targets {
            pages,
            chapters,
            by_page,
            redirected: HashSet::new(),
        }
    }

    /// These targets, and the source pages of `[output.html.redirect]`.
    pub(crate) fn with_redirects(
        mut self,
        table: &std::collections::BTreeMap<String, String>,
    ) -> Self {
        self.redirected = crate::site::load::redirects::redirects(table)
            .map(|r| r.into_keys().collect())
            .unwrap_or_default();
        self
    }

    /// What is wrong with `link`, if anything; `is_file` says whether a path of the source
    /// folder names a file. Links that climb out of the book (`../std/…`) are the reader's to
    /// follow, as in mdBook. A page is named by its source (`a/README.md`) or by its output
    /// (`a/index.html`, `a/`); `index.md` names its folder's `README.md`, which mdBook's `index`
    /// preprocessor renames; a page that only a redirect writes is a page.
    pub(crate) fn problem(
        &self,
        link: &InternalLink,
        is_file: impl Fn(&str) -> bool,
    ) -> Option<String> {
        if crate::site::html::climbs_out(&link.target) {
            return None;
        }
        let page = if link.target.is_empty() || link.target.ends_with('/') {
            format!("{}index.html", link.target)
        } else {
            link.target.clone()
        };
        let target = self
            .by_page
            .get(&page)
            .map(|c| (*c).clone())
            .or_else(|| {
                let readme = format!("{}README.md", link.target.strip_suffix("index.md")?);
                self.chapters.contains(&readme).then_some(readme)
            })
            .unwrap_or_else(|| link.target.clone());
        let known = self.pages.contains_key(&target) || self.chapters.contains(&target);
        let page_url = url_path(&page_path(Path::new(&target)));
        if !known && (self.redirected.contains(&page_url) || self.redirected.contains(&target)) {
            return None;
        }
        match self.pages.get(&target) {
            Some(ids) => match &link.anchor {
                Some(a) if !a.is_empty() && !ids.contains(a.as_str()) => {
                    Some(format!("no heading or anchor `#{a}` in {}", link.target))
                }
                _ => None,
            },
            None if self.chapters.contains(&target) => None,
            None if target.ends_with(".md") || !is_file(&target) => Some(format!(
                "{} is not a page or file of this book",
                link.target
            )),
            None => None,
        }
    }
}

/// The diagnostic of a broken link at `level` (the `broken-links` lint's), not yet placed.
pub(crate) fn broken(problem: String, level: crate::diag::Level) -> Diagnostic {
    Diagnostic::new(level, Code::BrokenLink, "broken link").label(problem)
}
