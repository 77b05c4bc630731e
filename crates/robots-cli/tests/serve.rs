//! `robots serve` end to end: the binary on a free loopback port, asked over raw HTTP
//! for the page, its WebAssembly, other paths, and with other methods.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};

/// The running server, stopped when the test ends however it ends.
struct Serving {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Serving {
    let mut child = Command::new(env!("CARGO_BIN_EXE_robots"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("robots serve starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "robots serve ended before saying where it listens"
        );
        if let Some(rest) = line.trim().split("http://").nth(1) {
            break rest.trim_end_matches('/').parse().expect("an address");
        }
    };
    Serving { child, addr }
}

/// Status line, headers (lower-case names) and body of one request.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn request(addr: SocketAddr, method: &str, target: &str) -> Reply {
    request_with(addr, method, target, "")
}

/// A request with `headers` (each line ending in CRLF) added to its head.
fn request_with(addr: SocketAddr, method: &str, target: &str, headers: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: 0\r\n{headers}\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

#[test]
fn the_page_is_served_with_its_policy() {
    let server = serve();
    let page = request(server.addr, "GET", "/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let csp = page.header("content-security-policy").expect("a policy");
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert!(
        csp.contains("script-src 'self' 'wasm-unsafe-eval'"),
        "{csp}"
    );
    let html = String::from_utf8_lossy(&page.body);
    assert!(html.contains("robots.txt tester"), "{html}");
}

#[test]
fn the_webassembly_is_served_as_such_when_built() {
    let server = serve();
    let wasm = request(server.addr, "GET", "/pkg/robots_web_bg.wasm");
    if !robots_web::assets::page_built() {
        eprintln!("notice: built without scripts/build-web; only the stand-in page is served");
        assert_eq!(wasm.status, 404);
        let page = request(server.addr, "GET", "/");
        assert!(String::from_utf8_lossy(&page.body).contains("scripts/build-web"));
        return;
    }
    assert_eq!(wasm.status, 200);
    assert_eq!(wasm.header("content-type"), Some("application/wasm"));
    assert!(wasm.body.starts_with(b"\0asm"));
    let glue = request(server.addr, "GET", "/pkg/robots_web.js");
    assert_eq!(glue.status, 200);
    assert_eq!(
        glue.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
}

#[test]
fn nothing_else_is_served() {
    let server = serve();
    for target in [
        "/robots.txt",
        "/fetch?url=http://127.0.0.1/",
        "/../Cargo.toml",
        "/pkg/",
    ] {
        let reply = request(server.addr, "GET", target);
        assert_eq!(reply.status, 404, "{target}");
    }
    for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
        let reply = request(server.addr, method, "/");
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.header("allow"), Some("GET, HEAD"), "{method}");
    }
}

#[test]
fn head_is_answered_as_get_is_without_the_body() {
    let server = serve();
    for target in ["/", "/pkg/robots_web.js", "/missing"] {
        let get = request(server.addr, "GET", target);
        let head = request(server.addr, "HEAD", target);
        assert_eq!(head.status, get.status, "{target}");
        assert!(head.body.is_empty(), "{target}: {:?}", head.body);
        let without_date = |r: &Reply| {
            r.headers
                .iter()
                .filter(|(n, _)| n != "date")
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(without_date(&head), without_date(&get), "{target}");
        assert_eq!(
            head.header("content-length"),
            Some(get.body.len().to_string().as_str()),
            "{target}"
        );
    }
}

#[test]
fn a_browser_revalidating_its_copy_gets_304_without_the_body() {
    let server = serve();
    let built = robots_web::assets::page_built();
    if !built {
        eprintln!("notice: built without scripts/build-web; only /app.js is revalidated");
    }
    for target in ["/", "/app.js", "/pkg/robots_web_bg.wasm"] {
        // Without scripts/build-web the module is missing and `/` is a stand-in page,
        // which carries no entity tag so that the built page replaces it at once.
        if !built && target != "/app.js" {
            continue;
        }
        let first = request(server.addr, "GET", target);
        assert_eq!(first.header("cache-control"), Some("no-cache"), "{target}");
        let etag = first.header("etag").expect("an entity tag").to_owned();
        let again = request_with(
            server.addr,
            "GET",
            target,
            &format!("If-None-Match: {etag}\r\n"),
        );
        assert_eq!(again.status, 304, "{target}");
        assert!(again.body.is_empty(), "{target}");
        assert_eq!(again.header("etag"), Some(etag.as_str()), "{target}");
        let changed = request_with(server.addr, "GET", target, "If-None-Match: \"old\"\r\n");
        assert_eq!(changed.status, 200, "{target}");
        assert_eq!(changed.body, first.body, "{target}");
    }
}
