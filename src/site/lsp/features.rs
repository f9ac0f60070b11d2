//! The editor's questions, answered from the latest [`Analysis`] of a document: hover,
//! completion, go to definition, code actions and inlay hints. None of them checks anything
//! again, so each answers at once, even while the worker is busy.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CompletionItem, CompletionItemKind,
    Documentation, GotoDefinitionResponse, Hover, HoverContents, InlayHint, InlayHintKind,
    InlayHintLabel, Location, MarkupContent, MarkupKind, Position, Range as LspRange, TextEdit,
    Uri, WorkspaceEdit,
};

use super::analysis::Analysis;
use super::protocol::path_to_uri;
use super::regions::{in_claims, word_at};
use super::text::LineIndex;

/// The innermost statement at `position`, with what the build computed for it; or the target
/// of a link there.
pub(crate) fn hover(a: &Analysis, position: Position) -> Option<Hover> {
    let index = LineIndex::new(&a.text);
    let offset = index.offset(&a.text, position);
    let statement = a
        .statements
        .iter()
        .filter(|s| s.span.start <= offset && offset <= s.span.end)
        .min_by_key(|s| s.span.len());
    let (value, span) = if let Some(s) = statement {
        (s.hover.clone(), s.span.clone())
    } else if let Some((start, word)) =
        word_at(&a.text, offset).filter(|_| in_claims(&a.regions, offset))
    {
        let (usage, description) = super::analysis::builtins()
            .into_iter()
            .find(|b| b.0 == word)
            .map(|b| (b.1, b.2))?;
        (
            format!("`{usage}`\n\n{description}"),
            start..start + word.len(),
        )
    } else {
        let link = a
            .links
            .iter()
            .find(|l| l.span.start <= offset && offset <= l.span.end)?;
        (format!("→ `{}`", link.path.display()), link.span.clone())
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(index.range(&a.text, &span)),
    })
}

/// Builtin functions and directives, and the names bound before the cursor, inside the claim
/// language; nothing in prose. Everything is read from `text` itself, so the answer is of the
/// latest text whatever check is still running.
pub(crate) fn completion(text: &str, position: Position) -> Vec<CompletionItem> {
    let index = LineIndex::new(text);
    let offset = index.offset(text, position);
    let regions = super::regions::claim_regions(text);
    if !in_claims(&regions, offset) {
        return Vec::new();
    }
    let mut items: Vec<CompletionItem> = super::analysis::builtins()
        .into_iter()
        .map(|(name, usage, description)| CompletionItem {
            label: name.to_string(),
            kind: Some(CompletionItemKind::FUNCTION),
            detail: Some(usage.to_string()),
            documentation: Some(Documentation::String(description.to_string())),
            ..CompletionItem::default()
        })
        .collect();
    let mut names: Vec<String> = super::regions::bindings(text, &regions)
        .into_iter()
        // Bound once its statement ends: not while the cursor is still in it.
        .filter(|(_, statement)| statement.end < offset)
        .map(|(name, _)| name)
        .collect();
    names.sort();
    names.dedup();
    items.extend(names.into_iter().map(|name| CompletionItem {
        label: name,
        kind: Some(CompletionItemKind::VARIABLE),
        detail: Some("let".into()),
        ..CompletionItem::default()
    }));
    items
}

/// A `let` name: its binding (the last one before the use). A link: its target lesson, at the
/// heading it names.
pub(crate) fn definition(
    a: &Analysis,
    uri: &Uri,
    position: Position,
) -> Option<GotoDefinitionResponse> {
    let index = LineIndex::new(&a.text);
    let offset = index.offset(&a.text, position);
    if in_claims(&a.regions, offset) {
        if let Some((_, word)) = word_at(&a.text, offset) {
            if let Some(b) = a
                .bindings
                .iter()
                .rfind(|b| b.name == word && b.span.start <= offset)
            {
                let range = index.range(&a.text, &b.span);
                return Some(GotoDefinitionResponse::Scalar(Location::new(
                    uri.clone(),
                    range,
                )));
            }
        }
    }
    let link = a
        .links
        .iter()
        .find(|l| l.span.start <= offset && offset <= l.span.end)?;
    // The heading's offset is one of the text as nimbook reads it.
    let target = std::fs::read_to_string(&link.path).ok()?;
    let target = crate::diag::text::normalize(&target);
    let at = LineIndex::new(&target).position(&target, link.offset);
    Some(GotoDefinitionResponse::Scalar(Location::new(
        path_to_uri(&link.path)?,
        LspRange::new(at, at),
    )))
}

/// The edits that the diagnostics in `range` suggest, each as a quick fix.
pub(crate) fn code_actions(a: &Analysis, uri: &Uri, range: LspRange) -> Vec<CodeActionOrCommand> {
    let index = LineIndex::new(&a.text);
    let start = index.offset(&a.text, range.start);
    let end = index.offset(&a.text, range.end);
    let mut out = Vec::new();
    for d in &a.diagnostics {
        let Some((_, span)) = &d.location else {
            continue;
        };
        if span.end < start || span.start > end {
            continue;
        }
        let lsp_diagnostic = super::protocol::to_lsp(uri, &a.text, &index, d);
        for s in &d.suggestions {
            let edit = TextEdit::new(index.range(&a.text, &s.span), s.replacement.clone());
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: s.message.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![lsp_diagnostic.clone()]),
                edit: Some(WorkspaceEdit::new(HashMap::from([(
                    uri.clone(),
                    vec![edit],
                )]))),
                ..CodeAction::default()
            }));
        }
    }
    out
}

/// The value of each bare expression and binding in `range`, after it.
pub(crate) fn inlay_hints(a: &Analysis, range: LspRange) -> Vec<InlayHint> {
    let index = LineIndex::new(&a.text);
    let start = index.offset(&a.text, range.start);
    let end = index.offset(&a.text, range.end);
    a.statements
        .iter()
        .filter(|s| s.span.end >= start && s.span.start <= end)
        .filter_map(|s| {
            let value = s.value.as_ref()?;
            Some(InlayHint {
                position: index.position(&a.text, s.span.end),
                label: InlayHintLabel::String(format!(" = {value}")),
                kind: Some(InlayHintKind::TYPE),
                text_edits: None,
                tooltip: None,
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
        })
        .collect()
}
