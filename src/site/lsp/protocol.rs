//! Conversions between nimbook's values and the protocol's: file URIs and paths, diagnostics,
//! and what the server says it can do.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, DiagnosticRelatedInformation,
    DiagnosticSeverity, HoverProviderCapability, InlayHintServerCapabilities, Location,
    NumberOrString, OneOf, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    Uri,
};

use super::analysis::Analysis;
use super::text::LineIndex;
use crate::diag::{Diagnostic, Level};

/// What `nimbook lsp` offers.
pub(crate) fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["(".into()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        inlay_hint_provider: Some(OneOf::Right(InlayHintServerCapabilities::Options(
            lsp_types::InlayHintOptions::default(),
        ))),
        ..ServerCapabilities::default()
    }
}

/// The local file a `file:` URI names (percent-decoded); `None` for other schemes (an unsaved
/// buffer is `untitled:`).
pub(crate) fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///a/b` has an empty authority; `file://localhost/a/b` names this host.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let decoded = crate::site::html::percent_decode(rest.split(['?', '#']).next().unwrap_or(rest))?;
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of an absolute path, every byte outside the unreserved set and `/`
/// percent-encoded.
pub(crate) fn path_to_uri(path: &Path) -> Option<Uri> {
    use std::fmt::Write;
    let mut s = String::from("file://");
    for &b in path.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            let _ = write!(s, "%{b:02X}");
        }
    }
    Uri::from_str(&s).ok()
}

/// The parameters of `textDocument/publishDiagnostics` for an analysis.
pub(crate) fn publish_diagnostics(
    uri: &Uri,
    version: i32,
    analysis: &Analysis,
) -> serde_json::Value {
    let index = LineIndex::new(&analysis.text);
    let diagnostics: Vec<lsp_types::Diagnostic> = analysis
        .diagnostics
        .iter()
        .map(|d| to_lsp(uri, &analysis.text, &index, d))
        .chain(
            analysis
                .pending_spans
                .iter()
                .map(|span| lsp_types::Diagnostic {
                    range: index.range(&analysis.text, span),
                    severity: Some(DiagnosticSeverity::HINT),
                    source: Some("nimbook".into()),
                    message: "still checking: this claim needs more than the quick pass's time"
                        .into(),
                    ..lsp_types::Diagnostic::default()
                }),
        )
        .chain(analysis.notice.iter().map(|notice| lsp_types::Diagnostic {
            range: index.range(&analysis.text, &(0..0)),
            severity: Some(DiagnosticSeverity::INFORMATION),
            source: Some("nimbook".into()),
            message: notice.clone(),
            ..lsp_types::Diagnostic::default()
        }))
        .collect();
    serde_json::json!({ "uri": uri, "version": version, "diagnostics": diagnostics })
}

/// One diagnostic in the editor's terms: notes and help lines become related information at the
/// same place, so an editor shows them under the message.
pub(crate) fn to_lsp(
    uri: &Uri,
    text: &str,
    index: &LineIndex,
    d: &Diagnostic,
) -> lsp_types::Diagnostic {
    let span = d.location.as_ref().map_or(0..0, |(_, s)| s.clone());
    let range = index.range(text, &span);
    let mut message = d.message.clone();
    if !d.label.is_empty() {
        message.push_str(": ");
        message.push_str(&d.label);
    }
    let related = d
        .notes
        .iter()
        .map(|n| format!("note: {n}"))
        .chain(d.helps.iter().map(|h| format!("help: {h}")))
        .map(|message| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range),
            message,
        })
        .collect::<Vec<_>>();
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.level {
            Level::Error => DiagnosticSeverity::ERROR,
            _ => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("nimbook".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_round_trip_through_paths() {
        for p in ["/tmp/a b/ç⊕.md", "/x/%41/y.md", "/plain/lesson.md"] {
            let uri = path_to_uri(Path::new(p)).expect("encodable");
            assert_eq!(
                uri_to_path(&uri).as_deref(),
                Some(Path::new(p)),
                "{}",
                uri.as_str()
            );
        }
        let odd = Uri::from_str("file:///a/%E2%8A%95.md").expect("parses");
        assert_eq!(uri_to_path(&odd), Some(PathBuf::from("/a/⊕.md")));
        let untitled = Uri::from_str("untitled:Untitled-1").expect("parses");
        assert_eq!(uri_to_path(&untitled), None);
    }
}
