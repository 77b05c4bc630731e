//! The watch over one connection: what it is doing (idle, receiving a head, answering,
//! stuck sending) and since when, so that [`Limits`] can cut it at the right time.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::{BoxError, Limits};

/// One connection's state, shared by its socket, its requests and its watchdog.
#[derive(Debug)]
pub(crate) struct Watch {
    state: Mutex<State>,
    /// Wakes the watchdog when a deadline may have come closer.
    changed: Notify,
}

#[derive(Debug)]
struct State {
    /// Requests whose head has arrived and whose response body is not yet dropped.
    in_flight: usize,
    /// Since when the connection has had nothing in flight and nothing to send: its
    /// accept, or the last write after its last response's body was dropped.
    idle_since: Instant,
    /// When the first byte after `idle_since` arrived: a head has begun.
    head_since: Option<Instant>,
    /// When a write last found the socket's buffer full, if it still is.
    blocked_since: Option<Instant>,
}

impl Watch {
    pub(crate) fn new() -> Watch {
        Watch {
            state: Mutex::new(State {
                in_flight: 0,
                idle_since: Instant::now(),
                head_since: None,
                blocked_since: None,
            }),
            changed: Notify::new(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // The state stays consistent whatever panicked while holding it.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A request's head is complete: it is in flight until the guard drops.
    pub(crate) fn begin_request(self: &Arc<Watch>) -> InFlight {
        let mut state = self.state();
        state.in_flight += 1;
        state.head_since = None;
        InFlight(self.clone())
    }

    fn read(&self) {
        let mut state = self.state();
        if state.in_flight == 0 && state.head_since.is_none() {
            state.head_since = Some(Instant::now());
            drop(state);
            self.changed.notify_one();
        }
    }

    fn wrote(&self, blocked: bool) {
        let mut state = self.state();
        if blocked {
            if state.blocked_since.is_none() {
                state.blocked_since = Some(Instant::now());
                drop(state);
                self.changed.notify_one();
            }
            return;
        }
        // Unblocked, the deadline may come sooner (the idle one, when shorter).
        let was_blocked = state.blocked_since.take().is_some();
        // hyper lets go of a body once it holds its last bytes, which may be megabytes
        // still to write: while they go out, the connection is not idle.
        if state.in_flight == 0 {
            state.idle_since = Instant::now();
        }
        drop(state);
        if was_blocked {
            self.changed.notify_one();
        }
    }

    /// When the connection is to be cut if nothing changes; `None` while a request is
    /// being answered and the client takes what is sent (or for a limit too far off for
    /// the clock to name).
    fn deadline(&self, limits: &Limits) -> Option<Instant> {
        let state = self.state();
        if let Some(blocked) = state.blocked_since {
            blocked.checked_add(limits.send_timeout)
        } else if state.in_flight > 0 {
            None
        } else if let Some(head) = state.head_since {
            head.checked_add(limits.header_read_timeout)
        } else {
            state.idle_since.checked_add(limits.idle_timeout)
        }
    }

    /// Completes when a limit says the connection is to be cut.
    pub(crate) async fn expired(&self, limits: Limits) {
        loop {
            let changed = self.changed.notified();
            match self.deadline(&limits) {
                Some(deadline) if deadline <= Instant::now() => return,
                Some(deadline) => {
                    // Woken early, or late with the state moved on: look again either way.
                    tokio::select! {
                        () = tokio::time::sleep_until(deadline) => {}
                        () = changed => {}
                    }
                }
                None => changed.await,
            }
        }
    }
}

/// A request in flight; dropping it (with the response body) makes the connection idle.
#[derive(Debug)]
pub(crate) struct InFlight(Arc<Watch>);

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut state = self.0.state();
        state.in_flight -= 1;
        if state.in_flight == 0 {
            state.idle_since = Instant::now();
            state.head_since = None;
            drop(state);
            self.0.changed.notify_one();
        }
    }
}

/// The socket, telling the watch of bytes read and of writes that find it full.
#[derive(Debug)]
pub(crate) struct Watched {
    stream: TcpStream,
    watch: Arc<Watch>,
}

impl Watched {
    pub(crate) fn new(stream: TcpStream, watch: Arc<Watch>) -> Watched {
        Watched { stream, watch }
    }

    fn wrote<T>(&self, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        self.watch.wrote(poll.is_pending());
        poll
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.watch.read();
        }
        poll
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.wrote(poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.wrote(poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// A response body that keeps its request in flight until hyper drops it, sent or not.
pub(crate) struct Tracked<B> {
    body: Pin<Box<B>>,
    _in_flight: InFlight,
}

impl<B> Tracked<B> {
    pub(crate) fn new(body: B, in_flight: InFlight) -> Tracked<B> {
        Tracked {
            body: Box::pin(body),
            _in_flight: in_flight,
        }
    }
}

impl<B> Body for Tracked<B>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        self.body
            .as_mut()
            .poll_frame(cx)
            .map(|frame| frame.map(|f| f.map_err(Into::into)))
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
