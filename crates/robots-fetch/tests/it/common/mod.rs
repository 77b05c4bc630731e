//! A small HTTP/1.1 server on 127.0.0.1 for the tests: each test starts its own, says
//! what to answer per request, and reads back what was asked. Plus a loopback-only resolver.

#![allow(dead_code)]

use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use robots_fetch::{Clock, Config, Fetcher, ManualClock, Resolve, Resolving};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Request {
    pub path: String,
    pub headers: Vec<(String, String)>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What to answer.
pub enum Reply {
    Full {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// 200 with no length, `chunk` sent `count` times `every` apart, then close.
    Trickle {
        chunk: Vec<u8>,
        count: usize,
        every: Duration,
    },
    /// 200 with `len` bytes of `filler` (repeated) after `head`; `len` = None: endless.
    Big {
        head: Vec<u8>,
        filler: Vec<u8>,
        len: Option<usize>,
    },
    /// Read the request, then say nothing and keep the connection open.
    Silent,
    /// These bytes as the whole response, then close.
    Raw(Vec<u8>),
}

impl Reply {
    pub fn ok(body: impl Into<Vec<u8>>) -> Reply {
        Reply::status(200).body(body)
    }

    pub fn status(status: u16) -> Reply {
        Reply::Full {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::status(status).header("Location", location)
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        if let Reply::Full { headers, .. } = &mut self {
            headers.push((name.to_owned(), value.to_owned()));
        }
        self
    }

    pub fn body(mut self, new: impl Into<Vec<u8>>) -> Reply {
        if let Reply::Full { body, .. } = &mut self {
            *body = new.into();
        }
        self
    }
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// A running server; stops when dropped.
pub struct Server {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<Request>>>,
    written: Arc<AtomicUsize>,
    accept: JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl Server {
    /// Starts a server on 127.0.0.1 with a free port; `delay` is waited before each answer.
    pub async fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Server {
        Server::start_slow(Duration::ZERO, handler).await
    }

    pub async fn start_slow(
        delay: Duration,
        handler: impl Fn(&Request) -> Reply + Send + Sync + 'static,
    ) -> Server {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let written = Arc::new(AtomicUsize::new(0));
        let handler: Arc<Handler> = Arc::new(handler);
        let (reqs, wr) = (requests.clone(), written.clone());
        let accept = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (handler, reqs, wr) = (handler.clone(), reqs.clone(), wr.clone());
                tokio::spawn(async move {
                    let _ = serve(stream, delay, &*handler, &reqs, &wr).await;
                });
            }
        });
        Server {
            addr,
            requests,
            written,
            accept,
        }
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `http://{host}:PORT{path}`, for names the [`Loopback`] resolver maps here.
    pub fn url_at(&self, host: &str, path: &str) -> String {
        format!("http://{host}:{}{path}", self.addr.port())
    }

    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }

    pub fn hits(&self) -> usize {
        self.requests.lock().unwrap().len()
    }

    /// Body bytes written by `Big` replies so far.
    pub fn written(&self) -> usize {
        self.written.load(Ordering::SeqCst)
    }
}

async fn serve(
    mut stream: TcpStream,
    delay: Duration,
    handler: &Handler,
    requests: &Mutex<Vec<Request>>,
    written: &AtomicUsize,
) -> io::Result<()> {
    let request = read_head(&mut stream).await?;
    requests.lock().unwrap().push(request.clone());
    let reply = handler(&request);
    tokio::time::sleep(delay).await;
    match reply {
        Reply::Full {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} Test\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (name, value) in headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(&body).await?;
        }
        Reply::Trickle {
            chunk,
            count,
            every,
        } => {
            stream
                .write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
                .await?;
            for _ in 0..count {
                stream.write_all(&chunk).await?;
                stream.flush().await?;
                tokio::time::sleep(every).await;
            }
        }
        Reply::Big { head, filler, len } => {
            let mut start = String::from("HTTP/1.1 200 OK\r\nConnection: close\r\n");
            if let Some(len) = len {
                start.push_str(&format!("Content-Length: {}\r\n", head.len() + len));
            }
            start.push_str("\r\n");
            stream.write_all(start.as_bytes()).await?;
            stream.write_all(&head).await?;
            let block: Vec<u8> = filler.iter().copied().cycle().take(64 * 1024).collect();
            let mut left = len.unwrap_or(usize::MAX);
            while left > 0 {
                let n = left.min(block.len());
                stream.write_all(&block[..n]).await?;
                written.fetch_add(n, Ordering::SeqCst);
                left -= n;
            }
        }
        Reply::Silent => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
        Reply::Raw(bytes) => stream.write_all(&bytes).await?,
    }
    stream.shutdown().await
}

async fn read_head(stream: &mut TcpStream) -> io::Result<Request> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1024];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut byte).await?;
        if n == 0 || buf.len() > 64 * 1024 {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "no request"));
        }
        buf.extend_from_slice(&byte[..n]);
    }
    let text = String::from_utf8_lossy(&buf);
    let mut lines = text.split("\r\n");
    let path = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .unwrap_or("")
        .to_owned();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Ok(Request { path, headers })
}

/// Resolves `localhost` and every `*.test` name to 127.0.0.1 and nothing else, so no
/// test can reach past loopback; other names fail as DNS does.
#[derive(Debug, Default)]
pub struct Loopback;

impl Resolve for Loopback {
    fn resolve(&self, host: &str) -> Resolving {
        let known = host == "localhost" || host.ends_with(".test");
        Box::pin(async move {
            if known {
                Ok(vec![IpAddr::V4(Ipv4Addr::LOCALHOST)])
            } else {
                Err(io::Error::new(io::ErrorKind::NotFound, "no such host"))
            }
        })
    }
}

/// The test configuration: loopback only, no proxies, short timeout, a settable clock.
pub fn config(clock: &ManualClock) -> Config {
    Config::new("TestBot/1.0 (+http://bot.test/)")
        .proxy_from_env(false)
        .resolver(Arc::new(Loopback))
        .timeout(Duration::from_secs(3))
        .clock(Arc::new(clock.clone()) as Arc<dyn Clock>)
}

pub fn fetcher(clock: &ManualClock) -> Fetcher {
    Fetcher::new(config(clock)).unwrap()
}

pub const HOUR: Duration = Duration::from_secs(3600);
pub const DAY: Duration = Duration::from_secs(24 * 3600);
