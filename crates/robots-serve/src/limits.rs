//! What one client may hold of the server: connections, and how long a connection may
//! wait idle, take to send a request's head, or leave a response unread.

use std::num::NonZeroUsize;
use std::time::Duration;

/// The limits the shell enforces; [`Limits::default`] gives the values below.
///
/// Each timeout must be above zero (a zero one cuts every connection at once);
/// [`Duration::MAX`], or any time too far off for the clock to name, means no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Connections served at once (default 512). At the limit the server stops
    /// accepting until one ends; clients wait in the kernel's listen queue meanwhile.
    /// A process allowed fewer descriptors is covered too: when `accept` runs out of
    /// them the server backs off and retries as connections end.
    pub max_connections: NonZeroUsize,
    /// How long a connection may wait with no request in flight and no byte of a new
    /// one, from accept or from the end of its last response (default 30 s): keep-alive
    /// for browsers, which fetch a page's files over a few connections.
    pub idle_timeout: Duration,
    /// How long a request's head (request line and header fields) may take to arrive,
    /// from its first byte (default 10 s): the whole head, so that a client trickling a
    /// byte a second is cut as surely as one that stops halfway.
    pub header_read_timeout: Duration,
    /// How long a client may leave a response unread, taking no byte of it (default
    /// 30 s). Time the handler takes, or a streaming body waiting for its source, is
    /// not counted.
    pub send_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: NonZeroUsize::new(512).expect("512 is not zero"),
            idle_timeout: Duration::from_secs(30),
            header_read_timeout: Duration::from_secs(10),
            send_timeout: Duration::from_secs(30),
        }
    }
}
