//! A process-wide request to stop every running search.
//!
//! A build never raises it. The editor server (`nimbook lsp`) checks one lesson at a time on a
//! worker thread; when a newer edit makes the running check moot, it raises the flag, and every
//! search stops at its next clock reading as if its time budget had run out. The server drops
//! that check's result unread and clears the flag before the next one. A flag rather than a
//! field of [`Budget`](super::Budget) keeps budgets plain `Copy` values that the engines pass
//! around freely.

use std::sync::atomic::{AtomicBool, Ordering};

static RAISED: AtomicBool = AtomicBool::new(false);

/// Asks every running search to stop.
pub fn raise() {
    RAISED.store(true, Ordering::Relaxed);
}

/// Lets searches run again.
pub fn clear() {
    RAISED.store(false, Ordering::Relaxed);
}

/// Whether a stop was asked for.
pub fn is_raised() -> bool {
    RAISED.load(Ordering::Relaxed)
}
