//! Footnotes gathered at the end of the page, numbered in the order they are first cited, each
//! with links back to every place that cites it (mdBook 0.5's layout).

use std::collections::HashMap;

use pulldown_cmark::{CowStr, Event};

use crate::site::html::escape;

/// The footnotes of one page.
#[derive(Debug, Default)]
pub(crate) struct Footnotes {
    /// Labels in the order they were first cited.
    order: Vec<String>,
    /// How often each label has been cited.
    cited: HashMap<String, usize>,
    /// Labels in the order they were defined, with their rendered bodies.
    defined: Vec<(String, String)>,
    /// The definition being read: where its events start in the page's output, and its label.
    open: Option<(usize, String)>,
}

fn id(label: &str) -> String {
    escape(&crate::site::html::mdbook_id(label))
}

impl Footnotes {
    /// The HTML of a citation of `label`.
    pub(crate) fn reference(&mut self, label: &str) -> String {
        if !self.cited.contains_key(label) {
            self.order.push(label.to_string());
        }
        let k = self.cited.entry(label.to_string()).or_insert(0);
        *k += 1;
        let n = self
            .order
            .iter()
            .position(|l| l == label)
            .map_or(0, |i| i + 1);
        let id = id(label);
        format!("<sup class=\"footnote-reference\" id=\"fr-{id}-{k}\"><a href=\"#footnote-{id}\">{n}</a></sup>")
    }

    /// Puts a citation of `label` into the page's events `out`.
    pub(crate) fn cite(&mut self, label: &str, out: &mut Vec<Event<'_>>) {
        // Two markers side by side read as one number ("12"); mdBook puts a space between them.
        let after_marker = matches!(out.last(), Some(Event::InlineHtml(h))
            if h.starts_with("<sup class=\"footnote-reference\""));
        if after_marker {
            out.push(Event::Text(CowStr::from(" ")));
        }
        out.push(Event::InlineHtml(CowStr::from(self.reference(label))));
    }

    /// A definition of `label` starts: its events will follow in `out`, rendered where they
    /// stand and then moved to the end of the page.
    pub(crate) fn open(&mut self, label: &str, out: &[Event<'_>]) {
        self.open = Some((out.len(), label.to_string()));
    }

    /// The open definition ends: its events are taken out of `out` and kept as its body.
    pub(crate) fn close(&mut self, out: &mut Vec<Event<'_>>) {
        if let Some((start, label)) = self.open.take() {
            let mut body = String::new();
            pulldown_cmark::html::push_html(&mut body, out.drain(start..));
            self.defined.push((label, body));
        }
    }

    /// Appends the list of footnotes to `html`: cited ones in citation order, then any that
    /// were defined and never cited.
    pub(crate) fn finish(self, html: &mut String) {
        if self.defined.is_empty() {
            return;
        }
        let mut bodies: HashMap<&str, &str> = self
            .defined
            .iter()
            .map(|(l, b)| (l.as_str(), b.as_str()))
            .collect();
        let mut labels: Vec<&str> = self.order.iter().map(String::as_str).collect();
        labels.extend(
            self.defined
                .iter()
                .map(|(l, _)| l.as_str())
                .filter(|l| !self.cited.contains_key(*l)),
        );
        html.push_str("<hr>\n<ol class=\"footnote-definition\">\n");
        for label in labels {
            let Some(body) = bodies.remove(label) else {
                continue;
            };
            let id = id(label);
            let cited = self.cited.get(label).copied().unwrap_or(0);
            let back: String = (1..=cited)
                .map(|k| {
                    let mark = if k == 1 { String::new() } else { k.to_string() };
                    format!(" <a href=\"#fr-{id}-{k}\" class=\"footnote-backref\" aria-label=\"back to the text\">↩{mark}</a>")
                })
                .collect();
            let body = body.trim_end();
            let body = match body.strip_suffix("</p>") {
                Some(b) => format!("{b}{back}</p>"),
                None => format!("{body}{back}"),
            };
            html.push_str(&format!("<li id=\"footnote-{id}\">\n{body}\n</li>\n"));
        }
        html.push_str("</ol>\n");
    }
}
