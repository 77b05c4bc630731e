//! Connections the server closes: a kept-alive connection the peer has closed is not a
//! site that cannot be reached, so a request that dies on it unanswered goes once more.

use crate::common;

use std::net::Ipv4Addr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::fetcher;
use robots::Agent;
use robots_fetch::{ManualClock, Source};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const ROBOTS: &[u8] = b"User-agent: *\nDisallow: /private\n";

/// How a [`OneShot`] server treats each connection.
#[derive(Clone, Copy)]
enum Mode {
    /// One response, then close, without `Connection: close`: HTTP/1.1 lets a client
    /// keep the connection (RFC 9112 §9.3), so it may send its next request on it.
    /// The close comes a moment after the response, as from a server whose keep-alive
    /// timeout is over.
    OneResponse,
    /// Read the request and close without a word.
    Hangup,
}

/// A raw HTTP/1.1 server on 127.0.0.1: `/robots.txt` redirects to `/real/robots.txt`,
/// which answers [`ROBOTS`]; it counts the requests it reads.
struct OneShot {
    port: u16,
    requests: Arc<AtomicUsize>,
    accept: tokio::task::JoinHandle<()>,
}

impl Drop for OneShot {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl OneShot {
    async fn start(mode: Mode) -> OneShot {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(AtomicUsize::new(0));
        let counted = requests.clone();
        let accept = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let counted = counted.clone();
                tokio::spawn(async move {
                    let _ = answer_once(stream, mode, &counted).await;
                });
            }
        });
        OneShot {
            port,
            requests,
            accept,
        }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

async fn answer_once(
    mut stream: TcpStream,
    mode: Mode,
    counted: &AtomicUsize,
) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
    }
    counted.fetch_add(1, Ordering::SeqCst);
    let response = match mode {
        Mode::Hangup => Vec::new(),
        Mode::OneResponse if head.starts_with(b"GET /robots.txt ") => {
            b"HTTP/1.1 301 Moved\r\nLocation: /real/robots.txt\r\nContent-Length: 0\r\n\r\n"
                .to_vec()
        }
        Mode::OneResponse => {
            let mut r = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n",
                ROBOTS.len()
            )
            .into_bytes();
            r.extend_from_slice(ROBOTS);
            r
        }
    };
    stream.write_all(&response).await?;
    // Long enough for the client to send its next request on the connection, which
    // the close then leaves unanswered.
    tokio::time::sleep(Duration::from_millis(20)).await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_on_a_connection_the_server_closed_is_followed_on_a_new_one() {
    // The client pools the redirect's connection and may send the second request on it
    // before it has seen the close; unretried, most of these lookups failed.
    const RUNS: usize = 20;
    let server = OneShot::start(Mode::OneResponse).await;
    let agent = Agent::new("TestBot").unwrap();
    let mut failures = Vec::new();
    for _ in 0..RUNS {
        let answer = fetcher(&ManualClock::starting_now())
            .lookup(&server.url())
            .await
            .unwrap();
        if answer.source() != &Source::Fetched {
            failures.push(format!("{:?}", answer.source()));
            continue;
        }
        let hops: Vec<_> = answer.chain().iter().map(|h| h.status()).collect();
        assert_eq!(hops, [301, 200]);
        assert!(!answer.decide(&agent, "/private/x").allowed());
    }
    assert!(
        failures.is_empty(),
        "{} of {RUNS} lookups failed, e.g. {}",
        failures.len(),
        failures[0]
    );
}

#[tokio::test]
async fn a_server_that_never_answers_is_asked_twice_not_more() {
    let server = OneShot::start(Mode::Hangup).await;
    let answer = fetcher(&ManualClock::starting_now())
        .lookup(&server.url())
        .await
        .unwrap();
    assert!(
        matches!(answer.source(), Source::Unreachable { .. }),
        "{:?}",
        answer.source()
    );
    // The one retry, on a new connection; then the failure stands.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(server.requests(), 2);
}
