//! The shell's limits on real sockets on 127.0.0.1, with short timeouts: half a request,
//! a trickled head, an idle or kept-alive connection, a full server, an unread response.

use std::convert::Infallible;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::num::NonZeroUsize;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::{Body, Frame, Incoming};
use hyper::{Request, Response};
use robots_serve::Limits;

const MS: Duration = Duration::from_millis(1);

/// Limits long enough not to interfere; each test shortens the one it is about.
fn long() -> Limits {
    Limits {
        max_connections: NonZeroUsize::new(64).unwrap(),
        idle_timeout: 20_000 * MS,
        header_read_timeout: 20_000 * MS,
        send_timeout: 20_000 * MS,
    }
}

/// A server with `handler` on a free port, run on a thread left to end with the test.
fn start<H, F, B>(limits: Limits, handler: H) -> SocketAddr
where
    H: Fn(Request<Incoming>) -> F + Send + Sync + 'static,
    F: std::future::Future<Output = Result<Response<B>, Infallible>> + Send + 'static,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<robots_serve::BoxError>,
{
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || robots_serve::run(listener, limits, handler));
    addr
}

async fn hello(_: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    Ok(Response::new(Full::new(Bytes::from_static(b"hello"))))
}

const REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: test\r\n\r\n";
const HALF_A_REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: te";

/// How long after `since` the server closed `stream`, which must send nothing more;
/// panics if it is still open after 10 s.
fn closed(stream: &mut TcpStream, since: Instant) -> Duration {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut byte = [0; 1];
    match stream.read(&mut byte) {
        Ok(0) => since.elapsed(),
        Err(e) if e.kind() == ErrorKind::ConnectionReset => since.elapsed(),
        Ok(_) => panic!("the server sent something"),
        Err(e) => panic!("the server kept the connection open: {e}"),
    }
}

/// Reads one response to `hello` (its head and the 5-byte body), `None` on timeout.
fn hello_reply(stream: &mut TcpStream, wait: Duration) -> Option<String> {
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut reply = Vec::new();
    let mut buf = [0; 1024];
    while !reply.ends_with(b"\r\n\r\nhello") {
        match stream.read(&mut buf) {
            Ok(0) => panic!("closed mid-reply: {:?}", String::from_utf8_lossy(&reply)),
            Ok(n) => reply.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return None
            }
            Err(e) => panic!("{e}"),
        }
    }
    Some(String::from_utf8(reply).unwrap())
}

#[test]
fn half_a_request_is_cut_at_the_header_timeout() {
    let addr = start(
        Limits {
            header_read_timeout: 300 * MS,
            ..long()
        },
        hello,
    );
    let mut stream = TcpStream::connect(addr).unwrap();
    let sent = Instant::now();
    stream.write_all(HALF_A_REQUEST).unwrap();
    let after = closed(&mut stream, sent);
    assert!(after >= 250 * MS, "cut after {after:?}, before its time");
    assert!(after < 3_000 * MS, "cut after {after:?}");
}

#[test]
fn a_head_trickled_a_byte_at_a_time_is_cut_at_the_header_timeout() {
    let addr = start(
        Limits {
            header_read_timeout: 500 * MS,
            ..long()
        },
        hello,
    );
    let mut stream = TcpStream::connect(addr).unwrap();
    // Fifty bytes a second of a head that would take 20 s: each byte comes well within
    // any per-read timeout, and only a deadline for the whole head cuts it.
    let head = format!(
        "GET / HTTP/1.1\r\nHost: test\r\nX-Slow: {}\r\n\r\n",
        "a".repeat(1000)
    );
    let start = Instant::now();
    let mut cut = None;
    for byte in head.bytes() {
        if stream.write_all(&[byte]).is_err() {
            cut = Some(start.elapsed());
            break;
        }
        std::thread::sleep(20 * MS);
    }
    let cut = cut.expect("the whole head was taken, byte by byte");
    assert!(cut >= 450 * MS, "cut after {cut:?}, before its time");
    assert!(cut < 3_000 * MS, "cut after {cut:?}");
}

#[test]
fn idle_connections_are_closed_new_or_kept_alive() {
    let addr = start(
        Limits {
            idle_timeout: 400 * MS,
            ..long()
        },
        hello,
    );
    // Connected, and nothing sent.
    let mut silent = TcpStream::connect(addr).unwrap();
    let after = closed(&mut silent, Instant::now());
    assert!(after >= 350 * MS, "closed after {after:?}, before its time");
    assert!(after < 3_000 * MS, "closed after {after:?}");

    // Kept alive: a second request within the idle time is answered on the same
    // connection, and the connection closes once idle that long after it.
    let mut kept = TcpStream::connect(addr).unwrap();
    for _ in 0..2 {
        kept.write_all(REQUEST).unwrap();
        let reply = hello_reply(&mut kept, Duration::from_secs(5)).expect("an answer");
        assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");
        std::thread::sleep(100 * MS);
    }
    let answered = Instant::now() - 100 * MS;
    let after = closed(&mut kept, answered);
    assert!(after >= 350 * MS, "closed after {after:?}, before its time");
    assert!(after < 3_000 * MS, "closed after {after:?}");
}

#[test]
fn at_the_connection_limit_the_next_client_waits_for_a_slot() {
    let addr = start(
        Limits {
            max_connections: NonZeroUsize::new(2).unwrap(),
            idle_timeout: 1_500 * MS,
            ..long()
        },
        hello,
    );
    let held: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
    std::thread::sleep(100 * MS);
    let waiting = Instant::now();
    let mut next = TcpStream::connect(addr).unwrap();
    next.write_all(REQUEST).unwrap();
    assert_eq!(
        hello_reply(&mut next, 500 * MS),
        None,
        "a third connection was served while two were held"
    );
    // The held connections are cut when idle, and the waiting client is then served.
    let reply = hello_reply(&mut next, Duration::from_secs(5)).expect("served once a slot freed");
    assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");
    let after = waiting.elapsed();
    assert!(after >= 1_300 * MS, "served after {after:?}");
    for mut stream in held {
        closed(&mut stream, waiting);
    }
}

#[test]
fn a_client_reading_nothing_is_cut_at_the_send_timeout_but_a_slow_handler_is_not() {
    const SIZE: usize = 32 << 20;
    let addr = start(
        Limits {
            send_timeout: 300 * MS,
            idle_timeout: 300 * MS,
            header_read_timeout: 300 * MS,
            ..long()
        },
        |req: Request<Incoming>| async move {
            if req.uri().path() == "/slow" {
                // Longer than every limit: the handler's own time is not the client's.
                tokio::time::sleep(1_000 * MS).await;
                return Ok(Response::new(Full::new(Bytes::from_static(b"hello"))));
            }
            Ok(Response::new(Full::new(Bytes::from(vec![b'x'; SIZE]))))
        },
    );
    let mut slow = TcpStream::connect(addr).unwrap();
    slow.write_all(b"GET /slow HTTP/1.1\r\nHost: test\r\n\r\n")
        .unwrap();
    let reply = hello_reply(&mut slow, Duration::from_secs(5)).expect("an answer");
    assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");

    let mut unread = TcpStream::connect(addr).unwrap();
    unread.write_all(REQUEST).unwrap();
    std::thread::sleep(2_000 * MS);
    // What the socket buffers held when the server gave up, then the end.
    let mut got = 0;
    let mut buf = vec![0; 1 << 16];
    unread
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    loop {
        match unread.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => panic!("after {got} bytes: {e}"),
        }
    }
    assert!(got > 0 && got < SIZE, "{got} bytes of {SIZE}");
}

#[test]
fn a_response_still_going_out_is_not_idle() {
    const SIZE: usize = 16 << 20;
    let addr = start(
        Limits {
            idle_timeout: 300 * MS,
            header_read_timeout: 300 * MS,
            // The socket stays full between reads, for well under this.
            send_timeout: 1_000 * MS,
            ..long()
        },
        |_: Request<Incoming>| async {
            Ok(Response::new(Full::new(Bytes::from(vec![b'x'; SIZE]))))
        },
    );
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .unwrap();
    // About 12 MB a second: longer in all than the idle timeout, and never stalled.
    let mut got = 0;
    let mut buf = vec![0; 1 << 18];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => panic!("after {got} bytes: {e}"),
        }
        std::thread::sleep(20 * MS);
    }
    assert!(got > SIZE, "{got} bytes, for a body of {SIZE}");
}

/// A body of three chunks with no length known in advance, and an error type of its own.
struct Chunks(u8);

impl Body for Chunks {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        if self.0 == 3 {
            return Poll::Ready(None);
        }
        self.0 += 1;
        Poll::Ready(Some(Ok(Frame::data(Bytes::from(format!(
            "chunk {};",
            self.0
        ))))))
    }
}

#[test]
fn a_streamed_body_goes_out_chunked() {
    let addr = start(long(), |_: Request<Incoming>| async {
        Ok(Response::new(Chunks(0)))
    });
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    assert!(
        reply
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked"),
        "{reply}"
    );
    for chunk in ["chunk 1;", "chunk 2;", "chunk 3;"] {
        assert!(reply.contains(chunk), "{reply}");
    }
}

#[test]
fn limits_too_long_for_the_clock_mean_no_limit() {
    let addr = start(
        Limits {
            idle_timeout: Duration::MAX,
            header_read_timeout: Duration::MAX,
            send_timeout: Duration::MAX,
            ..long()
        },
        hello,
    );
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.write_all(REQUEST).unwrap();
    let reply = hello_reply(&mut stream, Duration::from_secs(5)).expect("an answer");
    assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");
    stream.write_all(HALF_A_REQUEST).unwrap();
    assert_eq!(hello_reply(&mut stream, 300 * MS), None);
}
