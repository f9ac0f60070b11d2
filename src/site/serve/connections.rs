//! The table of open connections of `nimbook serve`, and which of them to close when it is full.
//!
//! Every connection holds a slot from the moment it is accepted until it closes, and there are
//! [`MAX_CONNECTIONS`] slots. A connection is either *waiting* (for the head of its next request,
//! or in the middle of receiving one: an idle keep-alive socket and a slow-loris client look
//! alike) or *answering* (a request has been read and its reply is not yet handed over). When
//! a new connection finds the table full, the connection that has waited longest is closed to
//! make room: an idle socket costs its owner nothing to open again, while a request being
//! answered is work already done. Only when every slot is answering does a new connection wait
//! (and those after it, in the kernel's accept queue) for one to finish; answering is bounded by [`ANSWER_TIMEOUT`],
//! after which [`Connections::expire`] closes the connection, so that wait is bounded too.
//!
//! Closing is a signal: the task that drives the connection receives it and drops the
//! connection, which closes the socket. The table is plain synchronous code with a short lock,
//! so it is tested without a runtime.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, Notify};

/// The most connections open at once. A browser opens six to a host; the rest of the room is
/// for idle and hostile sockets, which are closed first when it runs out.
pub(super) const MAX_CONNECTIONS: usize = 256;

/// The longest a request may take from its head being read to its reply being handed over
/// (reading a file, and a client slow to take the bytes).
pub(super) const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// The longest a connection may wait for a request without one arriving whole. The HTTP layer
/// closes such a connection after its own, shorter header timeout; this is the backstop.
pub(super) const WAIT_TIMEOUT: Duration = Duration::from_secs(60);

/// What a connection is doing, and since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for, or receiving, the head of a request.
    Waiting(Instant),
    /// Answering a request.
    Answering(Instant),
}

struct Slot {
    phase: Phase,
    close: oneshot::Sender<()>,
}

#[derive(Default)]
struct Table {
    next: u64,
    open: HashMap<u64, Slot>,
}

/// The open connections (see the module documentation).
#[derive(Default)]
pub(super) struct Connections {
    table: Mutex<Table>,
    /// Told when a slot frees or a connection stops answering, for an accept that found
    /// every slot answering.
    freed: Notify,
}

/// A connection's slot in the table; dropping it frees the slot.
pub(super) struct Ticket {
    id: u64,
    connections: Arc<Connections>,
}

/// Marks a connection as answering until it is dropped (it travels with the reply).
pub(super) struct Answering {
    id: u64,
    connections: Arc<Connections>,
}

impl Connections {
    fn table(&self) -> MutexGuard<'_, Table> {
        // The lock guards plain bookkeeping that no panic can leave half-done.
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for a new connection, and the signal that tells it to close; `None` when every
    /// slot is answering a request. A full table makes room by closing the connection that has
    /// been waiting longest.
    pub(super) fn try_admit(
        self: &Arc<Self>,
        now: Instant,
    ) -> Option<(Ticket, oneshot::Receiver<()>)> {
        let mut table = self.table();
        if table.open.len() >= MAX_CONNECTIONS {
            let oldest = table
                .open
                .iter()
                .filter_map(|(&id, slot)| match slot.phase {
                    Phase::Waiting(since) => Some((since, id)),
                    Phase::Answering(_) => None,
                })
                .min()?;
            if let Some(slot) = table.open.remove(&oldest.1) {
                let _ = slot.close.send(());
            }
        }
        let id = table.next;
        table.next += 1;
        let (close, closed) = oneshot::channel();
        table.open.insert(
            id,
            Slot {
                phase: Phase::Waiting(now),
                close,
            },
        );
        let ticket = Ticket {
            id,
            connections: Arc::clone(self),
        };
        Some((ticket, closed))
    }

    /// A slot for a new connection, waiting while every slot is answering.
    pub(super) async fn admit(self: &Arc<Self>) -> (Ticket, oneshot::Receiver<()>) {
        loop {
            if let Some(admitted) = self.try_admit(Instant::now()) {
                return admitted;
            }
            // `Notify` keeps a permit when no one waits, so a slot freed between the try
            // above and this wait is not missed.
            self.freed.notified().await;
        }
    }

    /// Closes the connections that overstayed their phase: answering longer than
    /// [`ANSWER_TIMEOUT`] or waiting longer than [`WAIT_TIMEOUT`]. Returns how many.
    pub(super) fn expire(&self, now: Instant) -> usize {
        let mut table = self.table();
        let stale: Vec<u64> = table
            .open
            .iter()
            .filter(|(_, slot)| match slot.phase {
                Phase::Waiting(since) => now.saturating_duration_since(since) > WAIT_TIMEOUT,
                Phase::Answering(since) => now.saturating_duration_since(since) > ANSWER_TIMEOUT,
            })
            .map(|(&id, _)| id)
            .collect();
        for id in &stale {
            if let Some(slot) = table.open.remove(id) {
                let _ = slot.close.send(());
                self.freed.notify_one();
            }
        }
        stale.len()
    }

    /// How many connections hold a slot.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.table().open.len()
    }

    fn set_phase(&self, id: u64, phase: Phase) {
        if let Some(slot) = self.table().open.get_mut(&id) {
            slot.phase = phase;
        }
    }
}

impl Ticket {
    /// Marks the connection as answering a request, until the mark is dropped.
    pub(super) fn answering(&self) -> Answering {
        self.connections
            .set_phase(self.id, Phase::Answering(Instant::now()));
        Answering {
            id: self.id,
            connections: Arc::clone(&self.connections),
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        // A connection closed to make room has already given its slot away.
        if self.connections.table().open.remove(&self.id).is_some() {
            self.connections.freed.notify_one();
        }
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.connections
            .set_phase(self.id, Phase::Waiting(Instant::now()));
        // A connection that waits again may be closed to make room.
        self.connections.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admit(c: &Arc<Connections>, at: Instant) -> (Ticket, oneshot::Receiver<()>) {
        c.try_admit(at).expect("a slot")
    }

    fn is_closed(signal: &mut oneshot::Receiver<()>) -> bool {
        signal.try_recv().is_ok()
    }

    #[test]
    fn a_full_table_closes_the_connection_that_waited_longest() {
        let c = Arc::new(Connections::default());
        let t0 = Instant::now();
        let mut held: Vec<_> = (0..MAX_CONNECTIONS)
            .map(|i| admit(&c, t0 + Duration::from_millis(i as u64)))
            .collect();
        assert_eq!(c.len(), MAX_CONNECTIONS);
        // The first connection is answering, so the second, the oldest waiting, goes.
        let _busy = held[0].0.answering();
        let (_new, mut new_signal) = admit(&c, t0 + Duration::from_secs(1));
        assert_eq!(c.len(), MAX_CONNECTIONS);
        assert!(
            !is_closed(&mut held[0].1),
            "an answering connection is kept"
        );
        assert!(
            is_closed(&mut held[1].1),
            "the oldest waiting one is closed"
        );
        assert!(held[2..].iter_mut().all(|(_, s)| !is_closed(s)));
        assert!(!is_closed(&mut new_signal));
        // Its ticket, dropped by its task, frees nothing more.
        let closed = held.remove(1);
        drop(closed);
        assert_eq!(c.len(), MAX_CONNECTIONS);
    }

    #[test]
    fn a_table_of_answering_connections_admits_no_one_until_one_finishes() {
        let c = Arc::new(Connections::default());
        let now = Instant::now();
        let held: Vec<_> = (0..MAX_CONNECTIONS).map(|_| admit(&c, now)).collect();
        let marks: Vec<Answering> = held.iter().map(|(t, _)| t.answering()).collect();
        assert!(c.try_admit(now).is_none());
        drop(marks);
        assert!(c.try_admit(now).is_some(), "finished answers wait again");
    }

    #[test]
    fn a_waiting_admit_goes_on_when_an_answer_ends() {
        let c = Arc::new(Connections::default());
        let now = Instant::now();
        let held: Vec<_> = (0..MAX_CONNECTIONS).map(|_| admit(&c, now)).collect();
        let marks: Vec<Answering> = held.iter().map(|(t, _)| t.answering()).collect();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("runtime");
        let finisher = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            drop(marks);
        });
        // The deadline only detects a hang.
        let admitted = runtime
            .block_on(async { tokio::time::timeout(Duration::from_secs(30), c.admit()).await });
        assert!(admitted.is_ok(), "the admit waited for the answers to end");
        finisher.join().expect("finisher");
    }

    #[test]
    fn a_dropped_ticket_frees_its_slot() {
        let c = Arc::new(Connections::default());
        let (ticket, _) = admit(&c, Instant::now());
        assert_eq!(c.len(), 1);
        drop(ticket);
        assert_eq!(c.len(), 0);
    }

    #[test]
    fn connections_that_overstay_their_phase_expire() {
        let c = Arc::new(Connections::default());
        let t0 = Instant::now();
        let (waiting, mut waiting_signal) = admit(&c, t0);
        let (answering, mut answering_signal) = admit(&c, t0);
        let _mark = answering.answering();
        assert_eq!(c.expire(t0 + Duration::from_secs(1)), 0);
        let later = Instant::now() + ANSWER_TIMEOUT + Duration::from_secs(1);
        assert_eq!(c.expire(later), 1, "the answer took too long");
        assert!(is_closed(&mut answering_signal));
        assert!(!is_closed(&mut waiting_signal));
        assert_eq!(c.expire(t0 + WAIT_TIMEOUT + Duration::from_secs(1)), 1);
        assert!(is_closed(&mut waiting_signal));
        assert_eq!(c.len(), 0);
        drop(waiting);
    }
}
