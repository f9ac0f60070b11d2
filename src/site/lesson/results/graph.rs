//! The named results of a whole book: numbered in chapter order, their names checked (a `uses`
//! name that no result has, a name given twice, results that use each other in a cycle), and
//! each one's status completed with the stated results it rests on (see the parent module).

use std::collections::{BTreeSet, HashMap};

use super::{Evidence, NamedResult, Ref, Resolved, Status};
use crate::diag::{Code, Diagnostic};
use crate::site::lesson::book::Lesson;

/// One named result of a book, as the results page, `check --results` and its JSON list it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct ResultRow {
    /// The chapter's title.
    pub chapter: String,
    /// The label, `Theorem 3.2`.
    pub label: String,
    /// The kind, `theorem`.
    pub kind: String,
    /// The name (the heading's anchor), which `uses` refers to.
    pub name: String,
    /// The heading's text.
    pub title: String,
    /// The status word: `proved`, `checked`, `computed` or `stated`.
    pub evidence: String,
    /// The whole status, as the page shows it.
    pub status: String,
    /// The page (relative to the site root) and the anchor: `nim.html#bouton`.
    pub href: String,
    /// The names of the results it uses.
    pub uses: Vec<String>,
    /// The source file and the line of its heading.
    pub source: String,
    /// The line of its heading, 1-based.
    pub line: usize,
}

/// Where a result is: its lesson and its index among the lesson's results.
type At = (usize, usize);

/// Where the lessons' results are written: places a diagnostic at a byte range of the `i`th
/// lesson's text, and names the file and line of a byte offset of it.
pub(crate) trait Sources {
    /// The diagnostic located at `span` of lesson `i`.
    fn locate(&self, i: usize, d: Diagnostic, span: std::ops::Range<usize>) -> Diagnostic;
    /// The file name and the 1-based line of `offset` in lesson `i`.
    fn line(&self, i: usize, offset: usize) -> (String, usize);
}

/// Numbers every result of `lessons` in chapter order, reports what is wrong with their names
/// and uses (each diagnostic located in its lesson through `sources`), and completes each
/// one's status. Returns the diagnostics and the book's rows.
pub(crate) fn resolve(
    lessons: &mut [&mut Lesson],
    sources: &impl Sources,
) -> (Vec<Diagnostic>, Vec<ResultRow>) {
    let mut diags = Vec::new();
    let order: Vec<At> = lessons
        .iter()
        .enumerate()
        .flat_map(|(l, lesson)| (0..lesson.page.document.results.len()).map(move |r| (l, r)))
        .collect();
    let get = |at: At, lessons: &[&mut Lesson]| -> NamedResult {
        lessons[at.0].page.document.results[at.1].clone()
    };
    let mut by_name: HashMap<String, At> = HashMap::new();
    for &at in &order {
        let r = get(at, lessons);
        if let Some(&first) = by_name.get(&r.name) {
            let f = get(first, lessons);
            let d = Diagnostic::error(
                Code::InvalidResult,
                format!("two results are named `{}`", r.name),
            )
            .label("a second result of this name")
            .note(format!(
                "the first is {} “{}” in {}",
                f.kind.word(),
                f.title,
                lessons[first.0].chapter.title
            ))
            .help("give this one another `#name`");
            diags.push(sources.locate(at.0, d, r.span.clone()));
        } else {
            by_name.insert(r.name.clone(), at);
        }
    }
    let labels = number(lessons, &order);
    let mut edges: HashMap<At, Vec<At>> = HashMap::new();
    for &at in &order {
        let r = get(at, lessons);
        for (name, span) in &r.uses {
            match by_name.get(name) {
                Some(&u) => edges.entry(at).or_default().push(u),
                None => {
                    let d = unknown_use(name, span, &by_name);
                    diags.push(sources.locate(at.0, d, span.clone()));
                }
            }
        }
    }
    for cycle in cycles(&order, &edges) {
        let names: Vec<String> = cycle.iter().map(|&a| get(a, lessons).name).collect();
        // The use that leads from the cycle's last result back to its first.
        let Some(&last) = cycle.last() else {
            continue;
        };
        let closing = get(last, lessons);
        let span = closing
            .uses
            .iter()
            .find(|(n, _)| *n == names[0])
            .map_or(closing.span.clone(), |(_, s)| s.clone());
        let d = Diagnostic::error(Code::ResultCycle, "results use each other in a cycle")
            .label("this use closes the cycle")
            .note(format!("{} → {}", names.join(" → "), names[0]))
            .help("a proof cannot rest on itself: remove one of these uses");
        diags.push(sources.locate(last.0, d, span));
    }
    let statuses = statuses(lessons, &order, &edges, &labels);
    let rows = fill(lessons, sources, &order, &edges, &labels, statuses);
    (diags, rows)
}

/// A `uses` name no result has, with the nearest name as a suggestion.
fn unknown_use(
    name: &str,
    span: &std::ops::Range<usize>,
    by_name: &HashMap<String, At>,
) -> Diagnostic {
    let d = Diagnostic::error(Code::UnknownResult, format!("no result is named `{name}`"))
        .label("used here");
    let mut names: Vec<&str> = by_name.keys().map(String::as_str).collect();
    names.sort_unstable();
    match crate::diag::nearest(name, names.into_iter()) {
        Some(near) => d
            .help(format!("a result with a similar name exists: `{near}`"))
            .suggest("use that name", span.clone(), near.to_string()),
        None => d.help("a result's name is its heading's `#id` (or the heading's slug)"),
    }
}

/// Each result's number, `3.2`: its chapter's number (or the chapter's place in the book when
/// it has none), then its place among the chapter's results.
fn number(lessons: &[&mut Lesson], order: &[At]) -> HashMap<At, String> {
    let mut out = HashMap::new();
    for &(l, r) in order {
        let chapter = &lessons[l].chapter;
        let prefix = chapter.number.as_deref().map_or_else(
            || (l + 1).to_string(),
            |n| n.trim_end_matches('.').to_string(),
        );
        out.insert((l, r), format!("{prefix}.{}", r + 1));
    }
    out
}

/// Every cycle of the uses graph, each once, as the results along it from the one first in the
/// book; found by a depth-first search in book order.
fn cycles(order: &[At], edges: &HashMap<At, Vec<At>>) -> Vec<Vec<At>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let mut mark: HashMap<At, Mark> = order.iter().map(|&a| (a, Mark::New)).collect();
    let mut found = Vec::new();
    for &start in order {
        if mark[&start] != Mark::New {
            continue;
        }
        // An explicit stack of (node, next edge), so a long chain of uses cannot overflow.
        let mut stack: Vec<(At, usize)> = vec![(start, 0)];
        mark.insert(start, Mark::Open);
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let out = edges.get(&node).map_or(&[][..], Vec::as_slice);
            if *next < out.len() {
                let to = out[*next];
                *next += 1;
                match mark[&to] {
                    Mark::New => {
                        mark.insert(to, Mark::Open);
                        stack.push((to, 0));
                    }
                    Mark::Open => {
                        let from = stack.iter().position(|&(a, _)| a == to).unwrap_or(0);
                        let mut cycle: Vec<At> = stack[from..].iter().map(|&(a, _)| a).collect();
                        let first = (0..cycle.len()).min_by_key(|&i| cycle[i]).unwrap_or(0);
                        cycle.rotate_left(first);
                        found.push(cycle);
                    }
                    Mark::Done => {}
                }
            } else {
                mark.insert(node, Mark::Done);
                stack.pop();
            }
        }
    }
    found
}

/// Each result's status: its own evidence, and the stated results it is given (the stated
/// results reached first along its uses) or, when stated, the results it uses. A cycle (already
/// an error) is cut where the search meets a result it is still inside.
fn statuses(
    lessons: &[&mut Lesson],
    order: &[At],
    edges: &HashMap<At, Vec<At>>,
    labels: &HashMap<At, String>,
) -> HashMap<At, Status> {
    let evidence = |a: At| lessons[a.0].page.document.results[a.1].evidence.clone();
    let label = |a: At| reference(lessons, labels, a);
    let mut given: HashMap<At, BTreeSet<At>> = HashMap::new();
    for &a in order {
        given_of(a, edges, &evidence, &mut given, &mut Vec::new());
    }
    order
        .iter()
        .map(|&a| {
            let ev = evidence(a);
            let on: Vec<At> = if ev == Evidence::Stated {
                let mut uses = edges.get(&a).cloned().unwrap_or_default();
                uses.dedup();
                uses
            } else {
                given
                    .get(&a)
                    .map(|s| s.iter().copied().collect())
                    .unwrap_or_default()
            };
            let status = Status {
                evidence: ev,
                resting_on: on.into_iter().map(label).collect(),
            };
            (a, status)
        })
        .collect()
}

/// The stated results `a` is given, memoised in `given`; `path` holds the results the search
/// is inside, so a cycle ends the search instead of looping.
fn given_of(
    a: At,
    edges: &HashMap<At, Vec<At>>,
    evidence: &impl Fn(At) -> Evidence,
    given: &mut HashMap<At, BTreeSet<At>>,
    path: &mut Vec<At>,
) -> BTreeSet<At> {
    if let Some(g) = given.get(&a) {
        return g.clone();
    }
    if path.contains(&a) {
        return BTreeSet::new();
    }
    path.push(a);
    let mut out = BTreeSet::new();
    for &u in edges.get(&a).map_or(&[][..], Vec::as_slice) {
        if evidence(u) == Evidence::Stated {
            out.insert(u);
        } else {
            out.extend(given_of(u, edges, evidence, given, path));
        }
    }
    path.pop();
    given.insert(a, out.clone());
    out
}

/// Writes each result's number, status and links into its lesson's document, and returns the
/// rows of the book in chapter order.
fn fill(
    lessons: &mut [&mut Lesson],
    sources: &impl Sources,
    order: &[At],
    edges: &HashMap<At, Vec<At>>,
    labels: &HashMap<At, String>,
    mut statuses: HashMap<At, Status>,
) -> Vec<ResultRow> {
    let mut rows = Vec::new();
    for &a in order {
        let targets = edges.get(&a).cloned().unwrap_or_default();
        let uses: Vec<Ref> = targets
            .iter()
            .map(|&u| reference(lessons, labels, u))
            .collect();
        let status = statuses.remove(&a).unwrap_or(Status {
            evidence: Evidence::Stated,
            resting_on: Vec::new(),
        });
        let own = reference(lessons, labels, a).href;
        let lesson = &mut *lessons[a.0];
        let source = sources.line(a.0, lesson.page.document.results[a.1].span.start);
        let r = &mut lesson.page.document.results[a.1];
        r.resolved = Some(Resolved {
            number: labels[&a].clone(),
            status: status.clone(),
            href: own.clone(),
            uses,
        });
        rows.push(ResultRow {
            chapter: lesson.chapter.title.clone(),
            label: r.label(),
            kind: r.kind.word().to_lowercase(),
            name: r.name.clone(),
            title: r.title.clone(),
            evidence: status.evidence.word().to_string(),
            status: status.to_string(),
            href: own,
            uses: r.uses.iter().map(|(n, _)| n.clone()).collect(),
            source: source.0,
            line: source.1,
        });
    }
    rows
}

/// The label and address of result `a`.
fn reference(lessons: &[&mut Lesson], labels: &HashMap<At, String>, a: At) -> Ref {
    let page = lessons[a.0]
        .chapter
        .out_path()
        .map(|p| crate::site::html::url_path(&p))
        .unwrap_or_default();
    let r = &lessons[a.0].page.document.results[a.1];
    Ref {
        label: format!("{} {}", r.kind.word(), labels[&a]),
        href: format!("{page}#{}", r.name),
    }
}

/// The address of `to` (a path from the site root, with its anchor) from the page `from` (a
/// path from the site root): the anchor alone on the same page, else up to the root and down
/// again.
pub(crate) fn relative(from: &str, to: &str) -> String {
    let from_page = from.split('#').next().unwrap_or("");
    let (to_page, anchor) = to.split_once('#').unwrap_or((to, ""));
    if from_page == to_page {
        return format!("#{anchor}");
    }
    let up = "../".repeat(from_page.matches('/').count());
    format!("{up}{to}")
}
