//! End to end with a real crawler: a small site on 127.0.0.1 with Archive-Embargo and
//! Embargo-Allow, crawled by `wget --recursive --warc-file`, ingested, served, released.
//! Skipped (with a notice) when wget is not installed; CI installs it.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;
use robots_archive::{Access, Archive, CaptureVerdict, Request, Server, Timestamp};

const OLD_LM: &str = "Mon, 01 Jan 2024 00:00:00 GMT";
const FUTURE_LM: &str = "Fri, 01 Jan 2100 00:00:00 GMT";
const SITE_ROBOTS: &str =
    "User-agent: *\nArchive-Embargo: m\nEmbargo-Allow: /news/\nDisallow: /private/\n";

/// The page at `path`: status, extra headers, body.
fn page(path: &str) -> (u16, Vec<(&'static str, &'static str)>, String) {
    let html = |body: &str| format!("<!doctype html><html><body>{body}</body></html>\n");
    match path {
        "/" | "/index.html" => (
            200,
            vec![],
            html(
                "<a href=\"/news/old.html\">o</a> <a href=\"/news/future.html\">f</a> \
                  <a href=\"/news/plain.html\">p</a> <a href=\"/private/secret.html\">s</a> \
                  <a href=\"/about.html\">a</a>",
            ),
        ),
        "/robots.txt" => (
            200,
            vec![("Content-Type", "text/plain")],
            SITE_ROBOTS.to_owned(),
        ),
        "/news/old.html" => (
            200,
            vec![("Last-Modified", OLD_LM)],
            html("SECRET-OLD-NEWS"),
        ),
        "/news/future.html" => (
            200,
            vec![("Last-Modified", FUTURE_LM)],
            html("SECRET-FUTURE-NEWS"),
        ),
        "/news/plain.html" => (200, vec![], html("SECRET-PLAIN-NEWS")),
        "/private/secret.html" => (200, vec![], html("SECRET-PRIVATE")),
        "/about.html" => (200, vec![], html("SECRET-ABOUT")),
        _ => (404, vec![], html("not found")),
    }
}

/// A site: the page at a path (status, extra headers, body).
pub(crate) type Site = fn(&str) -> (u16, Vec<(&'static str, &'static str)>, String);

/// Serves the site on 127.0.0.1 from a thread; one request per connection.
fn serve_site() -> u16 {
    serve(page)
}

/// Serves `site` on 127.0.0.1 from a thread, one request per connection; its port.
pub(crate) fn serve(site: Site) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = answer(stream, site);
        }
    });
    port
}

fn answer(mut stream: TcpStream, site: Site) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let (status, headers, body) = site(&path);
    let mut out = format!(
        "HTTP/1.1 {status} X\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !headers.iter().any(|(n, _)| *n == "Content-Type") {
        out.push_str("Content-Type: text/html\r\n");
    }
    for (n, v) in headers {
        out.push_str(&format!("{n}: {v}\r\n"));
    }
    out.push_str("\r\n");
    out.push_str(&body);
    stream.write_all(out.as_bytes())
}

fn crawl(dir: &Path, port: u16) -> Option<std::path::PathBuf> {
    let output = Command::new("wget")
        .current_dir(dir)
        .args([
            "--recursive",
            "--level=2",
            "--no-verbose",
            "--tries=1",
            "--timeout=10",
            "--warc-file=crawl",
            "--directory-prefix=mirror",
        ])
        .arg(format!("http://127.0.0.1:{port}/"))
        .output();
    match output {
        Err(_) => {
            eprintln!(
                "NOTICE: wget not found; skipping the end-to-end crawl test (apt-get install wget)"
            );
            None
        }
        Ok(out) => {
            assert!(
                out.status.success() || out.status.code() == Some(8),
                "wget failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some(dir.join("crawl.warc.gz"))
        }
    }
}

fn http_get(addr: std::net::SocketAddr, target: &str, accept: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\nAccept: {accept}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

#[test]
fn wget_crawl_is_ingested_served_and_released_under_embargo() {
    let dir = tempfile::tempdir().unwrap();
    let port = serve_site();
    let Some(warc) = crawl(dir.path(), port) else {
        return;
    };
    let adir = dir.path().join("archive");
    let mut archive = Archive::create(&adir, AGENT).unwrap();
    let report = archive.ingest(&warc, &mut |_| {}).unwrap();
    assert_eq!(report.robots_txt, 1);
    let base = format!("http://127.0.0.1:{port}");
    let one = |path: &str| {
        let mut v = archive.captures_of(&format!("{base}{path}")).unwrap();
        assert_eq!(v.len(), 1, "{path} captured once");
        v.remove(0)
    };
    let month = 31 * 86_400;
    let old = one("/news/old.html");
    let old_end = Timestamp::parse_rfc3339("2024-02-01T00:00:00Z").unwrap();
    assert_eq!(
        old.embargo_until,
        Some(old_end),
        "Last-Modified earlier than first observation"
    );
    let future = one("/news/future.html");
    assert_eq!(
        future.embargo_until,
        Some(future.captured.plus_secs(month)),
        "Last-Modified later"
    );
    let plain = one("/news/plain.html");
    assert_eq!(
        plain.embargo_until,
        Some(plain.captured.plus_secs(month)),
        "no Last-Modified"
    );
    let about = one("/about.html");
    assert_eq!(
        (about.verdict, about.embargo_days),
        (Some(CaptureVerdict::Allowed), Some(31))
    );
    // wget obeyed Disallow: /private/.
    assert!(archive
        .captures_of(&format!("{base}/private/secret.html"))
        .unwrap()
        .is_empty());
    // wget fetched the start page before robots.txt: governed by the one just after.
    let start = one("/");
    assert_eq!(start.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(start.robots_record, Some(one("/robots.txt").id));

    let before = plain.captured.plus_secs(86_400);
    let after = plain.captured.plus_secs(month + 86_400);
    let target = format!(
        "/web/{}/{base}/news/plain.html",
        plain.captured.fourteen_digits()
    );
    let request = |accept: &str| Request {
        target: target.clone(),
        accept: Some(accept.to_owned()),
    };
    let tomb = archive.respond(&request("application/json"), before);
    assert_eq!(tomb.status, 451);
    let json: serde_json::Value = serde_json::from_slice(&tomb.body).unwrap();
    assert_eq!(json["access"], "embargoed");
    assert_eq!(json["url"], format!("{base}/news/plain.html"));
    assert_eq!(
        json["payload_digest"],
        plain.digest.as_ref().unwrap().as_header()
    );
    assert_eq!(
        json["embargo_until"],
        plain.embargo_until.unwrap().rfc3339()
    );
    assert!(!String::from_utf8_lossy(&tomb.body).contains("SECRET-PLAIN-NEWS"));
    let html = archive.respond(&request("text/html"), before);
    assert_eq!(html.status, 451);
    assert!(String::from_utf8_lossy(&html.body).contains("<html>"));
    let replay = archive.respond(&request("text/html"), after);
    assert_eq!(replay.status, 200);
    assert!(String::from_utf8_lossy(&replay.body).contains("SECRET-PLAIN-NEWS"));
    assert_eq!(plain.access(after), Access::Released);

    // The same over a real socket, and the CDX listing.
    let server = Server::bind(
        Archive::open(&adir).unwrap(),
        "127.0.0.1:0".parse().unwrap(),
        Some(before),
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());
    let (status, text) = http_get(addr, &target, "application/json");
    assert_eq!(status, 451, "{text}");
    assert!(!text.contains("SECRET-PLAIN-NEWS"));
    let (status, cdx) = http_get(
        addr,
        &format!("/cdx?url={base}/news/plain.html&output=json"),
        "*/*",
    );
    assert_eq!(status, 200);
    let line = cdx.lines().last().unwrap();
    let line: serde_json::Value = serde_json::from_str(line).unwrap();
    for field in [
        "urlkey",
        "timestamp",
        "url",
        "mime",
        "status",
        "digest",
        "length",
        "offset",
        "filename",
    ] {
        assert!(line[field].is_string(), "{field} in {line}");
    }
    assert_eq!(line["access"], "embargoed");
    assert_eq!(
        line["embargo_until"],
        plain.embargo_until.unwrap().rfc3339()
    );

    // Releases: tombstones first, bodies after the end.
    let first = archive.release(before).unwrap();
    assert!(first.released >= 1 && first.tombstones >= 5, "{first:?}");
    let second = archive.release(after).unwrap();
    assert_eq!(second.tombstones, 0);
    let mut published = Vec::new();
    for file in first.files.iter().chain(&second.files) {
        let mut gz = flate2::read::MultiGzDecoder::new(std::fs::File::open(file).unwrap());
        let mut text = Vec::new();
        gz.read_to_end(&mut text).unwrap();
        published.push(String::from_utf8_lossy(&text).into_owned());
    }
    assert!(!published[0].contains("SECRET-PLAIN-NEWS") && !published[0].contains("SECRET-ABOUT"));
    assert!(
        published[0].contains("SECRET-OLD-NEWS"),
        "ended in 2024: released at once"
    );
    assert!(published[1].contains("SECRET-PLAIN-NEWS") && published[1].contains("SECRET-ABOUT"));
    if let Some(check) = warcio(&[
        "check",
        "-v",
        &first.files[0].display().to_string(),
        &second.files[0].display().to_string(),
    ]) {
        assert!(
            check.status.success(),
            "warcio check: {}{}",
            String::from_utf8_lossy(&check.stdout),
            String::from_utf8_lossy(&check.stderr)
        );
    }
}

/// The site of issue 60: `/robots.txt` redirects (301) to `/robots-real.txt`.
fn redirecting(path: &str) -> (u16, Vec<(&'static str, &'static str)>, String) {
    let html = |body: &str| format!("<!doctype html><html><body>{body}</body></html>\n");
    match path {
        "/robots.txt" => (301, vec![("Location", "/robots-real.txt")], String::new()),
        "/robots-real.txt" => (
            200,
            vec![("Content-Type", "text/plain")],
            "User-agent: *\nArchive-Embargo: w\nDisallow: /private/\n".to_owned(),
        ),
        "/" | "/index.html" => (
            200,
            vec![],
            html("<a href=\"/a.html\">a</a> <a href=\"/private/p.html\">p</a>"),
        ),
        "/a.html" => (200, vec![], html("SECRET-A")),
        "/private/p.html" => (200, vec![], html("SECRET-P")),
        _ => (404, vec![], html("not found")),
    }
}

#[test]
fn a_redirected_robots_txt_governs_through_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let port = serve(redirecting);
    let Some(warc) = crawl(dir.path(), port) else {
        return;
    };
    let adir = dir.path().join("archive");
    let mut archive = Archive::create(&adir, "Wget").unwrap();
    let report = archive.ingest(&warc, &mut |_| {}).unwrap();
    assert_eq!(report.robots_txt, 1, "{report:?}");
    assert_eq!(report.robots_redirects_not_captured, 0, "{report:?}");
    let base = format!("http://127.0.0.1:{port}");
    let one = |path: &str| {
        let mut v = archive.captures_of(&format!("{base}{path}")).unwrap();
        assert_eq!(v.len(), 1, "{path} captured once");
        v.remove(0)
    };
    let target = one("/robots-real.txt");
    let week = 7 * 86_400;
    for path in ["/", "/a.html", "/robots-real.txt", "/robots.txt"] {
        let e = one(path);
        assert_eq!(e.verdict, Some(CaptureVerdict::Allowed), "{path}: {e:?}");
        assert_eq!(e.embargo_days, Some(7), "{path}");
        assert_eq!(e.embargo_until, Some(e.captured.plus_secs(week)), "{path}");
        // The rules that governed it: the redirect's target.
        assert_eq!(e.robots_record, Some(target.id), "{path}");
    }
    let status = archive.status(target.captured).unwrap();
    assert_eq!(status.no_robots, 0, "{status:?}");
    // wget obeyed the target's Disallow: /private/.
    assert!(archive
        .captures_of(&format!("{base}/private/p.html"))
        .unwrap()
        .is_empty());
}

/// A redirect whose target was not captured (a crawler that did not follow it).
fn dangling(path: &str) -> (u16, Vec<(&'static str, &'static str)>, String) {
    match path {
        "/robots.txt" => (301, vec![("Location", "/elsewhere.txt")], String::new()),
        "/elsewhere.txt" => (404, vec![], String::new()),
        _ => redirecting(path),
    }
}

#[test]
fn a_robots_txt_redirect_to_nothing_captured_is_reported_and_withheld() {
    let dir = tempfile::tempdir().unwrap();
    let port = serve(dangling);
    // Not following redirects, wget records the 301 alone.
    let output = Command::new("wget")
        .current_dir(dir.path())
        .args([
            "--max-redirect=0",
            "--tries=1",
            "--no-verbose",
            "--warc-file=crawl",
            "-O",
            "-",
        ])
        .arg(format!("http://127.0.0.1:{port}/robots.txt"))
        .arg(format!("http://127.0.0.1:{port}/a.html"))
        .output();
    if output.is_err() {
        eprintln!("NOTICE: wget not found; skipping (apt-get install wget)");
        return;
    }
    let warc = dir.path().join("crawl.warc.gz");
    let adir = dir.path().join("archive");
    let mut archive = Archive::create(&adir, "Wget").unwrap();
    let report = archive.ingest(&warc, &mut |_| {}).unwrap();
    assert_eq!(report.robots_redirects_not_captured, 1, "{report:?}");
    let a = archive
        .captures_of(&format!("http://127.0.0.1:{port}/a.html"))
        .unwrap();
    assert_eq!(a[0].verdict, Some(CaptureVerdict::NoRobots));
}
