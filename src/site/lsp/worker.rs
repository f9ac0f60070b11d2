//! The check that runs beside the editor.
//!
//! Checking a lesson can take from a millisecond to the book's whole `max-seconds` (a large
//! `forall`, a Cram board). The main loop must keep answering hovers and completions, and a
//! newer edit must not wait for an older check, so lessons are checked on one worker thread:
//!
//! - The main loop records each document's newest version and sends a [`Job`]. If the worker
//!   is checking that same document, the main loop raises the engines' cancellation flag
//!   ([`crate::game::cancel`]): the running check stops at its next clock reading, and its
//!   result is dropped as stale.
//! - The worker takes the newest job of each document and checks it twice. The *quick* pass
//!   runs with a short time budget and publishes every diagnostic except those of claims that
//!   ran out of it, which are shown as "still checking" hints; only if there were any, the
//!   *full* pass runs with the book's own budgets and publishes the final set. So the rest of
//!   a lesson's diagnostics arrive first, and a slow claim gets exactly the build's budget.
//! - Before publishing, the worker looks at the newest version again and drops a stale result.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Message, Notification};
use lsp_types::Uri;

use super::analysis::{Analysis, Mode, Workspace, QUICK_PASS};
use super::protocol::publish_diagnostics;

/// One document to check.
pub(crate) struct Job {
    /// The document.
    pub(crate) uri: Uri,
    /// Its file on disk, if it has one.
    pub(crate) path: Option<PathBuf>,
    /// Its text at `version`.
    pub(crate) text: Arc<str>,
    /// The editor's version number.
    pub(crate) version: i32,
}

/// What the main loop and the worker share.
#[derive(Default)]
pub(crate) struct Shared {
    /// The newest version of each open document; a closed document has none.
    pub(crate) newest: Mutex<HashMap<Uri, i32>>,
    /// The document the worker is checking now.
    pub(crate) running: Mutex<Option<Uri>>,
    /// The latest analysis of each document.
    pub(crate) results: Mutex<HashMap<Uri, Arc<Analysis>>>,
    /// Set when the session ends: no check starts after it.
    pub(crate) closing: std::sync::atomic::AtomicBool,
}

impl Shared {
    /// Whether `version` of `uri` is still the newest.
    pub(crate) fn is_current(&self, uri: &Uri, version: i32) -> bool {
        lock(&self.newest).get(uri) == Some(&version)
    }

    /// Records a newer version, and stops the running check if it is of the same document.
    pub(crate) fn supersede(&self, uri: &Uri, version: i32) {
        lock(&self.newest).insert(uri.clone(), version);
        if lock(&self.running).as_ref() == Some(uri) {
            crate::game::cancel::raise();
        }
    }

    /// Forgets a closed document.
    pub(crate) fn close(&self, uri: &Uri) {
        lock(&self.newest).remove(uri);
        lock(&self.results).remove(uri);
        if lock(&self.running).as_ref() == Some(uri) {
            crate::game::cancel::raise();
        }
    }

    /// Ends the session: the running check stops, and no other starts.
    pub(crate) fn close_all(&self) {
        // Recorded before the flag is raised, so that a worker that clears the flag after this
        // sees it (see `check`).
        self.closing
            .store(true, std::sync::atomic::Ordering::SeqCst);
        crate::game::cancel::raise();
    }

    /// Whether a check of `version` of `uri` should start now: it is the newest, and the
    /// session goes on.
    fn should_check(&self, uri: &Uri, version: i32) -> bool {
        self.is_current(uri, version) && !self.closing.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The latest analysis of `uri`.
    pub(crate) fn analysis(&self, uri: &Uri) -> Option<Arc<Analysis>> {
        lock(&self.results).get(uri).cloned()
    }
}

/// Locks a mutex, going on if a thread panicked while holding it (the data are plain maps).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The worker's loop: until the job channel closes.
pub(crate) fn run(jobs: Receiver<Job>, shared: Arc<Shared>, out: Sender<Message>) {
    let mut workspace = Workspace::default();
    while let Ok(first) = jobs.recv() {
        // Only the newest job of each document matters.
        let mut newest: Vec<Job> = vec![first];
        while let Ok(job) = jobs.try_recv() {
            newest.retain(|j| j.uri != job.uri);
            newest.push(job);
        }
        for job in newest {
            check(&mut workspace, &job, &shared, &out);
        }
    }
}

fn check(workspace: &mut Workspace, job: &Job, shared: &Shared, out: &Sender<Message>) {
    if !shared.should_check(&job.uri, job.version) {
        return;
    }
    *lock(&shared.running) = Some(job.uri.clone());
    // Whoever raises the flag (a newer edit, the end of the session) records why first, so the
    // question is asked after the flag is cleared: a raise between the two is then seen here,
    // and one after stops the pass. Asked before, a raise in between would be cleared away and
    // a stale check would run for the whole of `max-seconds`.
    crate::game::cancel::clear();
    if shared.should_check(&job.uri, job.version) {
        let quick = quick_pass(workspace, job);
        let pending = quick.pending;
        publish(job, quick, shared, out);
        if pending {
            crate::game::cancel::clear();
            if shared.should_check(&job.uri, job.version) {
                let full = workspace.analyse(job.path.as_deref(), &job.text, Mode::Full);
                publish(job, full, shared, out);
            }
        }
    }
    *lock(&shared.running) = None;
}

/// The quick pass: each search may take [`QUICK_PASS`], and the lesson's searches together
/// no longer either: a timer raises the cancellation flag when the time is up, so every search
/// still running stops and its claim waits for the full pass.
fn quick_pass(workspace: &mut Workspace, job: &Job) -> Analysis {
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let timer = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let until = std::time::Instant::now() + QUICK_PASS;
            while !done.load(std::sync::atomic::Ordering::Acquire) {
                let left = until.saturating_duration_since(std::time::Instant::now());
                if left.is_zero() {
                    crate::game::cancel::raise();
                    return;
                }
                std::thread::park_timeout(left);
            }
        })
    };
    let quick = workspace.analyse(job.path.as_deref(), &job.text, Mode::Quick);
    done.store(true, std::sync::atomic::Ordering::Release);
    timer.thread().unpark();
    let _ = timer.join();
    quick
}

fn publish(job: &Job, analysis: Analysis, shared: &Shared, out: &Sender<Message>) {
    if !shared.is_current(&job.uri, job.version) {
        return;
    }
    let params = publish_diagnostics(&job.uri, job.version, &analysis);
    lock(&shared.results).insert(job.uri.clone(), Arc::new(analysis));
    let _ = out.send(Message::Notification(Notification::new(
        "textDocument/publishDiagnostics".into(),
        params,
    )));
}
