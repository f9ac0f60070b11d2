//! `nimbook lsp`: a language server for lessons, so that claims are checked as the author types.
//!
//! The server speaks the Language Server Protocol on standard input and output, through
//! rust-analyzer's `lsp-server` and `lsp-types` crates, on plain threads:
//!
//! - the reader and writer threads of [`transport`] frame messages (and skip malformed ones);
//! - the main loop here keeps the open documents, answers requests from the latest analysis
//!   ([`features`]), and hands each new version of a document to the worker;
//! - the [`worker`] checks one lesson at a time with the same stages as a build
//!   ([`analysis`]), in a quick pass and, for claims that need more time, a full one, and
//!   publishes the diagnostics; a newer edit cancels the running check.
//!
//! Positions cross the protocol in UTF-16 code units ([`text`]); inside, spans are byte ranges
//! of the lesson, as everywhere in nimbook.

mod analysis;
mod features;
mod protocol;
mod regions;
mod text;
mod transport;
mod worker;

use std::collections::HashMap;
use std::sync::Arc;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CodeActionParams, CompletionParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, GotoDefinitionParams, HoverParams, InlayHintParams, Uri,
};
use serde::de::DeserializeOwned;

use worker::{Job, Shared};

/// One open document: the editor's text, with every change applied, and that text as nimbook
/// reads it (one kind of line ending: [`crate::diag::text`]). Positions are the same in both,
/// since a line ending is in no line; edits are applied to the first, everything else reads the
/// second.
struct Document {
    text: String,
    read: Arc<str>,
}

/// Runs the language server on standard input and output until the editor says `exit` or
/// closes the input. An error is returned only when the connection cannot be set up.
pub fn lsp() -> std::io::Result<()> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    let (connection, wire) = transport::connect(stdin, std::io::stdout())?;
    let result = serve(&connection);
    drop(connection);
    wire.join();
    result
}

/// The server's life on one connection: the handshake, then the main loop.
fn serve(connection: &Connection) -> std::io::Result<()> {
    let capabilities = serde_json::to_value(protocol::capabilities())
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    // The editor may close the connection before the handshake ends: that is a clean exit.
    if connection.initialize(capabilities).is_err() {
        return Ok(());
    }
    let shared = Arc::new(Shared::default());
    let (jobs, queue) = crossbeam_channel::unbounded::<Job>();
    let worker = {
        let shared = Arc::clone(&shared);
        let out = connection.sender.clone();
        std::thread::Builder::new()
            .name("lsp-check".into())
            .spawn(move || worker::run(queue, shared, out))?
    };
    let mut server = Server {
        connection,
        shared: Arc::clone(&shared),
        jobs,
        documents: HashMap::new(),
    };
    server.run();
    drop(server);
    shared.close_all();
    let _ = worker.join();
    Ok(())
}

struct Server<'a> {
    connection: &'a Connection,
    shared: Arc<Shared>,
    jobs: crossbeam_channel::Sender<Job>,
    documents: HashMap<Uri, Document>,
}

impl Server<'_> {
    fn run(&mut self) {
        while let Ok(message) = self.connection.receiver.recv() {
            match message {
                Message::Request(request) => {
                    if request.method == "shutdown" {
                        self.reply(Response::new_ok(request.id, serde_json::Value::Null));
                        self.until_exit();
                        return;
                    }
                    let response = self.request(request);
                    self.reply(response);
                }
                Message::Notification(n) if n.method == "exit" => return,
                Message::Notification(n) => self.notification(n),
                Message::Response(_) => {}
            }
        }
    }

    /// After `shutdown`, only `exit` matters; requests get an error, as the protocol says.
    fn until_exit(&self) {
        while let Ok(message) = self.connection.receiver.recv() {
            match message {
                Message::Notification(n) if n.method == "exit" => return,
                Message::Request(r) => self.reply(Response::new_err(
                    r.id,
                    ErrorCode::InvalidRequest as i32,
                    "the server is shutting down".into(),
                )),
                _ => {}
            }
        }
    }

    fn reply(&self, response: Response) {
        let _ = self.connection.sender.send(Message::Response(response));
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                if let Some(p) = params::<DidOpenTextDocumentParams>(&n.params) {
                    let d = p.text_document;
                    self.update(d.uri, d.version, d.text);
                }
            }
            "textDocument/didChange" => {
                if let Some(p) = params::<DidChangeTextDocumentParams>(&n.params) {
                    let uri = p.text_document.uri;
                    // A change to a document that was never opened has nothing to apply to.
                    let Some(doc) = self.documents.get(&uri) else {
                        return;
                    };
                    let mut text = doc.text.clone();
                    text::apply_changes(&mut text, p.content_changes);
                    self.update(uri, p.text_document.version, text);
                }
            }
            "textDocument/didClose" => {
                if let Some(p) = params::<DidCloseTextDocumentParams>(&n.params) {
                    let uri = p.text_document.uri;
                    self.documents.remove(&uri);
                    self.shared.close(&uri);
                    let clear = serde_json::json!({ "uri": uri, "diagnostics": [] });
                    let _ = self
                        .connection
                        .sender
                        .send(Message::Notification(Notification::new(
                            "textDocument/publishDiagnostics".into(),
                            clear,
                        )));
                }
            }
            // `initialized`, `$/cancelRequest`, `textDocument/didSave`, settings: nothing to do
            // (every request is answered at once, so none can be cancelled).
            _ => {}
        }
    }

    fn update(&mut self, uri: Uri, version: i32, text: String) {
        self.shared.supersede(&uri, version);
        let read: Arc<str> = Arc::from(&*crate::diag::text::normalize(&text));
        let job = Job {
            uri: uri.clone(),
            path: protocol::uri_to_path(&uri),
            text: Arc::clone(&read),
            version,
        };
        self.documents.insert(uri, Document { text, read });
        let _ = self.jobs.send(job);
    }

    fn request(&self, r: Request) -> Response {
        let id = r.id.clone();
        match self.answer(r) {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    fn answer(&self, r: Request) -> Result<serde_json::Value, (ErrorCode, String)> {
        let json = |v: Result<serde_json::Value, serde_json::Error>| {
            v.map_err(|e| (ErrorCode::InternalError, e.to_string()))
        };
        match r.method.as_str() {
            "textDocument/hover" => {
                let p: HoverParams = typed(&r)?;
                let at = p.text_document_position_params;
                let a = self.analysis(&at.text_document.uri);
                json(serde_json::to_value(
                    a.and_then(|a| features::hover(&a, at.position)),
                ))
            }
            "textDocument/completion" => {
                // From the latest text, not the latest check: the editor asks on every
                // keystroke, long before the check of that keystroke's text has ended.
                let p: CompletionParams = typed(&r)?;
                let at = p.text_document_position;
                let text = self.text(&at.text_document.uri);
                json(serde_json::to_value(features::completion(
                    &text,
                    at.position,
                )))
            }
            "textDocument/definition" => {
                let p: GotoDefinitionParams = typed(&r)?;
                let at = p.text_document_position_params;
                let uri = at.text_document.uri;
                let a = self.analysis(&uri);
                json(serde_json::to_value(
                    a.and_then(|a| features::definition(&a, &uri, at.position)),
                ))
            }
            "textDocument/codeAction" => {
                let p: CodeActionParams = typed(&r)?;
                let uri = p.text_document.uri;
                let a = self.analysis(&uri).unwrap_or_default();
                json(serde_json::to_value(features::code_actions(
                    &a, &uri, p.range,
                )))
            }
            "textDocument/inlayHint" => {
                let p: InlayHintParams = typed(&r)?;
                let a = self.analysis(&p.text_document.uri).unwrap_or_default();
                json(serde_json::to_value(features::inlay_hints(&a, p.range)))
            }
            other => Err((
                ErrorCode::MethodNotFound,
                format!("nimbook lsp does not handle `{other}`"),
            )),
        }
    }

    /// The latest analysis of a document, if it is of the current text; a stale one would put
    /// answers at the wrong places.
    fn analysis(&self, uri: &Uri) -> Option<Arc<analysis::Analysis>> {
        let a = self.shared.analysis(uri)?;
        let doc = self.documents.get(uri)?;
        (*a.text == *doc.read).then_some(a)
    }

    /// The latest text of a document, as nimbook reads it.
    fn text(&self, uri: &Uri) -> Arc<str> {
        self.documents
            .get(uri)
            .map_or_else(|| Arc::from(""), |d| Arc::clone(&d.read))
    }
}

fn params<T: DeserializeOwned>(value: &serde_json::Value) -> Option<T> {
    serde_json::from_value(value.clone()).ok()
}

fn typed<T: DeserializeOwned>(r: &Request) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(r.params.clone()).map_err(|e| {
        (
            ErrorCode::InvalidParams,
            format!("invalid params for `{}`: {e}", r.method),
        )
    })
}
