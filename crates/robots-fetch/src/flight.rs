//! Single-flight: concurrent lookups of one origin share one request. The first becomes
//! the leader and fetches; the others wait for its answer instead of asking the server too.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::watch;

use crate::{Answer, Origin};

/// Lookups in progress, by origin.
#[derive(Debug, Default)]
pub(crate) struct Flights {
    running: Mutex<HashMap<Origin, watch::Receiver<Option<Answer>>>>,
}

/// A lookup's part in a flight.
pub(crate) enum Role<'f> {
    /// Fetch, then hand the answer to [`Leader::finish`].
    Leader(Leader<'f>),
    /// Wait for the leader's answer.
    Follower(watch::Receiver<Option<Answer>>),
}

impl Flights {
    /// Joins the flight for `origin`, or starts one.
    pub fn join(&self, origin: &Origin) -> Role<'_> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(rx) = running.get(origin) {
            return Role::Follower(rx.clone());
        }
        let (tx, rx) = watch::channel(None);
        running.insert(origin.clone(), rx);
        Role::Leader(Leader {
            flights: self,
            origin: origin.clone(),
            tx,
            finished: false,
        })
    }

    fn end(&self, origin: &Origin) {
        self.running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(origin);
    }
}

/// The lookup that fetches for everyone. If it is dropped before finishing (its caller
/// gave up), the flight ends and the followers start over.
pub(crate) struct Leader<'f> {
    flights: &'f Flights,
    origin: Origin,
    tx: watch::Sender<Option<Answer>>,
    finished: bool,
}

impl Leader<'_> {
    /// Hands the answer to every follower.
    pub fn finish(mut self, answer: &Answer) {
        // Leave the map first, so a lookup arriving now reads the cache the leader
        // has just filled instead of joining a finished flight.
        self.flights.end(&self.origin);
        self.finished = true;
        self.tx.send_replace(Some(answer.clone()));
    }
}

impl Drop for Leader<'_> {
    fn drop(&mut self) {
        // After `finish`, the map may already hold a newer flight for this origin.
        if !self.finished {
            self.flights.end(&self.origin);
        }
    }
}

/// Waits for the leader; `None` if it gave up without an answer.
pub(crate) async fn follow(mut rx: watch::Receiver<Option<Answer>>) -> Option<Answer> {
    rx.wait_for(Option::is_some)
        .await
        .ok()
        .and_then(|answer| answer.clone())
}
