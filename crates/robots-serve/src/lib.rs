//! The HTTP server shell both servers run on (`robots serve` and `robots archive serve`):
//! each hands it a bound listener and its request handler; the shell owns the rest.
//!
//! It owns the tokio runtime, the accept loop, and HTTP/1.1 on each connection (hyper),
//! and it bounds what clients can hold, with the [`Limits`] given:
//!
//! - **Connection limit** ([`Limits::max_connections`], default 512). At the limit the
//!   shell stops accepting until a connection ends: new clients wait in the kernel's
//!   listen queue and are served as slots free, rather than being accepted and closed.
//! - **Idle timeout** ([`Limits::idle_timeout`], default 30 s). A connection with no
//!   request in flight and no byte of a new one (just accepted, or kept alive after a
//!   response) is closed.
//! - **Header-read timeout** ([`Limits::header_read_timeout`], default 10 s). Once the
//!   first byte of a request has arrived, its whole head must follow within this time,
//!   however it trickles in: a client sending half a request, or one header byte a
//!   second, is cut. hyper's own `header_read_timeout`, with its timer set, backs this up
//!   at idle plus header time, as its clock starts when a connection is ready for a head.
//! - **Send timeout** ([`Limits::send_timeout`], default 30 s). A client that takes no
//!   byte of a response for this long (its receive window stays shut) is cut, so that
//!   not reading cannot hold a connection either. A handler or a streaming body that is
//!   slow to produce bytes is not cut: only the client's side is timed.
//! - **Back-off on accept errors.** When `accept` fails for want of a resource (out of
//!   descriptors, EMFILE or ENFILE; out of memory), the loop sleeps, 10 ms doubling up
//!   to 1 s, instead of retrying at once: the pending connection stays in the queue and
//!   the retry would fail again at once, spinning a core.
//! - **A longer listen queue**: 1,024 connections (Rust's standard library asks for
//!   128) wait there to be accepted, so that clients held back by the limits wait for
//!   their turn rather than having their connection attempts dropped and retried late.
//!
//! The handler is any `Fn(Request<Incoming>) -> impl Future<Output = Result<Response<B>,
//! Infallible>>` whose body `B` yields [`Bytes`]: a whole buffer or a stream.

#![warn(missing_docs)]

mod accept;
mod limits;
mod watch;

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use hyper::body::{Body, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

pub use limits::Limits;

/// How many connections may wait in the kernel to be accepted.
const LISTEN_QUEUE: i32 = 1024;

/// The longest header-read timeout given to hyper (a year): longer limits are the
/// watchdog's alone.
const LONGEST_BACKSTOP: Duration = Duration::from_secs(365 * 24 * 3600);

/// The error a response body may fail with, once boxed for hyper.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Serves HTTP/1.1 on `listener` with `handler` until the process ends, within `limits`.
///
/// Builds its own runtime (two worker threads), so call it from a plain thread. Returns
/// only if the runtime or the listener cannot be set up.
pub fn run<H, F, B>(
    listener: std::net::TcpListener,
    limits: Limits,
    handler: H,
) -> std::io::Result<()>
where
    H: Fn(Request<Incoming>) -> F + Send + Sync + 'static,
    F: Future<Output = Result<Response<B>, Infallible>> + Send + 'static,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    // Clients wait in this queue while the server is full (see the connection limit);
    // once it is full too, their connection attempts are dropped and retried only 1, 3,
    // 7, 15 s later. Rust's standard library asks for 128; Linux caps the number at
    // net.core.somaxconn (4096 by default). Listening again only resizes the queue.
    let _ = socket2::SockRef::from(&listener).listen(LISTEN_QUEUE);
    listener.set_nonblocking(true)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let slots = Arc::new(Semaphore::new(limits.max_connections.get()));
        let handler = Arc::new(handler);
        loop {
            // At the limit, wait here: clients queue in the kernel until a slot frees.
            let Ok(slot) = slots.clone().acquire_owned().await else {
                unreachable!("the semaphore is never closed");
            };
            let stream = accept::next(&listener).await;
            tokio::spawn(connection(stream, slot, limits, handler.clone()));
        }
    })
}

/// Serves one connection until it ends or a limit cuts it; the slot frees on return.
async fn connection<H, F, B>(
    stream: tokio::net::TcpStream,
    _slot: OwnedSemaphorePermit,
    limits: Limits,
    handler: Arc<H>,
) where
    H: Fn(Request<Incoming>) -> F + Send + Sync + 'static,
    F: Future<Output = Result<Response<B>, Infallible>> + Send + 'static,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let watch = Arc::new(watch::Watch::new());
    let io = TokioIo::new(watch::Watched::new(stream, watch.clone()));
    let requests = watch.clone();
    let service = hyper::service::service_fn(move |req| {
        // In flight from its complete head until its response's body is dropped (sent,
        // or abandoned with the connection).
        let in_flight = requests.begin_request();
        let answer = handler(req);
        async move {
            let response = answer.await?;
            Ok::<_, Infallible>(response.map(|body| watch::Tracked::new(body, in_flight)))
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    // hyper's clock starts when the connection is ready for a head, so idle time counts
    // in it; capped, since hyper adds it to the time now, which must not overflow.
    let backstop = limits
        .idle_timeout
        .saturating_add(limits.header_read_timeout)
        .min(LONGEST_BACKSTOP);
    http.timer(TokioTimer::new()).header_read_timeout(backstop);
    let serving = http.serve_connection(io, service);
    tokio::select! {
        // A client hanging up mid-response, or sending garbage, is not the server's problem.
        _ = serving => {}
        // Dropping the connection closes the socket.
        () = watch.expired(limits) => {}
    }
}
