//! `robots serve` end to end: the binary on a free loopback port, asked over raw HTTP
//! for the page, its WebAssembly, other paths, and with other methods; and both
//! servers, `robots archive serve` too, flooded with half-sent requests.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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
    let mut command = Command::new(env!("CARGO_BIN_EXE_robots"));
    command.args(["serve", "--addr", "127.0.0.1:0"]);
    start(command)
}

/// Starts `command`, a server that says where it listens on its standard error.
fn start(mut command: Command) -> Serving {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "the server ended before saying where it listens"
        );
        if let Some(rest) = line.trim().split("http://").nth(1) {
            let addr = rest.split_whitespace().next().unwrap();
            break addr.trim_end_matches('/').parse().expect("an address");
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

/// A plain `cargo build` (or `cargo install`) gives a working page: robots-web's build
/// script builds the WebAssembly itself (crates/robots-web/build/wasm.rs), with no step
/// before it. No skipping here: a binary without the module fails.
#[test]
fn every_build_serves_the_webassembly_and_the_working_page() {
    let server = serve();
    let wasm = request(server.addr, "GET", "/pkg/robots_web_bg.wasm");
    assert_eq!(
        wasm.status, 200,
        "the build embedded no WebAssembly; its cargo:warning says why"
    );
    assert_eq!(wasm.header("content-type"), Some("application/wasm"));
    assert_eq!(&wasm.body[..4], b"\0asm", "WebAssembly's magic number");
    // Version 1 of the binary format, and more than a header: the engine is in it.
    assert_eq!(&wasm.body[4..8], &[1, 0, 0, 0]);
    assert!(wasm.body.len() > 50_000, "{} bytes", wasm.body.len());
    let glue = request(server.addr, "GET", "/pkg/robots_web.js");
    assert_eq!(glue.status, 200);
    let glue = String::from_utf8_lossy(&glue.body);
    // The glue finds the module beside itself, as the page's script calls it.
    assert!(glue.contains("robots_web_bg.wasm"), "{glue}");
    assert!(
        glue.contains("export function parse("),
        "the bindings' entry"
    );
    let page = request(server.addr, "GET", "/");
    let html = String::from_utf8_lossy(&page.body);
    assert!(
        html.contains("app.js"),
        "the real page, not the stand-in: {html}"
    );
    assert!(!html.contains("was not built"), "{html}");
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

/// The user and system CPU time process `pid` has used, from /proc/PID/stat (fields 14
/// and 15, in the USER_HZ ticks Linux reports there: 100 a second).
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The command name (field 2) may hold spaces: count from its closing parenthesis.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// An archive holding one capture (a robots.txt), in `dir`.
fn small_archive(dir: &std::path::Path) -> std::path::PathBuf {
    use robots_archive::warc::{Fields, Writer};
    let warc = dir.join("one.warc");
    let mut w = Writer::new(std::fs::File::create(&warc).unwrap());
    let mut f = Fields::new();
    f.push("WARC-Type", "response");
    f.push(
        "WARC-Record-ID",
        "<urn:uuid:00000000-0000-4000-8000-000000000001>",
    );
    f.push("WARC-Date", "2026-01-01T00:00:00Z");
    f.push("WARC-Target-URI", "http://flood.test/robots.txt");
    let body = "User-agent: *\nDisallow: /private\n";
    let block = format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    w.write_record(&f, block.as_bytes()).unwrap();
    w.finish().unwrap();
    let archive = dir.join("archive");
    let out = Command::new(env!("CARGO_BIN_EXE_robots"))
        .args(["archive", "ingest"])
        .arg(&archive)
        .args(["--agent", "ExampleBot"])
        .arg(&warc)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    archive
}

/// Issue 57: under `prlimit --nofile=256`, 400 connections that each send half a request
/// must neither shut other clients out for good nor set the server spinning on accept.
/// Each server runs with a 3-second header timeout, as a user can ask with the flag.
#[test]
fn half_sent_requests_at_the_descriptor_limit_neither_shut_others_out_nor_spin() {
    let dir = tempfile::tempdir().unwrap();
    let archive = small_archive(dir.path());
    let robots = env!("CARGO_BIN_EXE_robots");
    Command::new("prlimit").arg("--version").output().expect(
        "prlimit (util-linux; scripts/test installs it) to run the servers with few descriptors",
    );
    let limited = |args: &[&str]| {
        let mut command = Command::new("prlimit");
        command
            .args(["--nofile=256", "--", robots])
            .args(args)
            .args(["--addr", "127.0.0.1:0", "--header-timeout", "3"]);
        command
    };
    let servers = [
        ("robots serve", limited(&["serve"])),
        (
            "robots archive serve",
            limited(&["archive", "serve", archive.to_str().unwrap()]),
        ),
    ];
    for (name, command) in servers {
        // prlimit (util-linux, on every Debian) sets the limit and runs the server in
        // its own place, so the child's id is the server's.
        let server = start(command);
        let cpu_before = cpu_time(server.child.id());
        let flooded = Instant::now();
        let mut flood = Vec::new();
        for _ in 0..400 {
            // A full listen queue drops a connection attempt, to be retried a second
            // later: time that a server with a longer queue does not cost.
            let Ok(mut stream) =
                TcpStream::connect_timeout(&server.addr, Duration::from_millis(300))
            else {
                continue;
            };
            stream
                .write_all(b"GET / HTTP/1.1\r\nHost: flood\r\nUser-Agent: hal")
                .unwrap();
            flood.push(stream);
        }
        assert!(
            flood.len() >= 300,
            "{name}: only {} connections",
            flood.len()
        );
        let asked = Instant::now();
        let mut stream = TcpStream::connect_timeout(&server.addr, Duration::from_secs(10))
            .unwrap_or_else(|e| panic!("{name}: a client cannot connect: {e}"));
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: normal\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut head = [0; 12];
        let answered = stream.read_exact(&mut head);
        let waited = asked.elapsed();
        assert!(
            answered.is_ok(),
            "{name}: a client was not answered in {waited:?}, with {} half-sent requests held: {answered:?}",
            flood.len()
        );
        assert_eq!(&head, b"HTTP/1.1 200", "{name}");
        // The flood's first wave, all the descriptors allow, is cut after the 3 s header
        // timeout; the client, queued behind it, is then answered.
        assert!(
            waited < Duration::from_secs(8),
            "{name}: answered after {waited:?}"
        );
        // Out of descriptors until the first wave is cut, a server retrying a failed
        // accept at once burns a core for those 3 s; one that backs off uses a few
        // hundredths of a second to take and cut 400 connections.
        let window = flooded.elapsed();
        let cpu = cpu_time(server.child.id()) - cpu_before;
        eprintln!("{name}: {cpu:?} of CPU time in {window:?}, answered after {waited:?}");
        assert!(
            cpu < window / 8,
            "{name}: {cpu:?} of CPU time in {window:?}"
        );
    }
}
