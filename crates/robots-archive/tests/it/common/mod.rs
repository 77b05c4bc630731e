//! Test helpers: synthetic WARC files of HTTP responses, written the way crawlers do.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use robots_archive::warc::{Fields, Reader, Writer};
use robots_archive::{Archive, Timestamp};

pub const AGENT: &str = "ExampleBot";

/// One captured response.
#[derive(Clone, Debug)]
pub struct Capture {
    pub url: String,
    pub date: Timestamp,
    pub status: u16,
    /// Header names and values; values are octets, as servers may send any from 0x80 up.
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
    /// WARC header fields written after the usual ones (WARC-Payload-Digest, for one).
    pub warc: Vec<(String, String)>,
}

pub fn t(text: &str) -> Timestamp {
    Timestamp::parse_rfc3339(text).unwrap()
}

pub fn capture(url: &str, date: &str, status: u16, body: &[u8]) -> Capture {
    Capture {
        url: url.to_owned(),
        date: t(date),
        status,
        headers: vec![("Content-Type".into(), "text/html".into())],
        body: body.to_vec(),
        warc: Vec::new(),
    }
}

impl Capture {
    pub fn header(mut self, name: &str, value: impl AsRef<[u8]>) -> Capture {
        self.headers
            .push((name.to_owned(), value.as_ref().to_vec()));
        self
    }

    pub fn warc(mut self, name: &str, value: impl Into<String>) -> Capture {
        self.warc.push((name.to_owned(), value.into()));
        self
    }

    /// The HTTP head alone, as a revisit record holds it.
    pub fn head(&self) -> Vec<u8> {
        let mut block = self.block();
        block.truncate(block.len() - self.body.len());
        block
    }

    pub fn block(&self) -> Vec<u8> {
        let mut block = format!("HTTP/1.1 {} X\r\n", self.status).into_bytes();
        for (n, v) in &self.headers {
            block.extend_from_slice(format!("{n}: ").as_bytes());
            block.extend_from_slice(v);
            block.extend_from_slice(b"\r\n");
        }
        block.extend_from_slice(format!("Content-Length: {}\r\n\r\n", self.body.len()).as_bytes());
        block.extend_from_slice(&self.body);
        block
    }

    pub fn fields(&self, n: usize) -> Fields {
        let mut f = Fields::new();
        f.push("WARC-Type", "response");
        f.push(
            "WARC-Record-ID",
            format!("<urn:uuid:00000000-0000-4000-8000-{n:012}>"),
        );
        f.push("WARC-Date", self.date.rfc3339());
        f.push("WARC-Target-URI", self.url.as_str());
        f.push("Content-Type", "application/http; msgtype=response");
        for (name, value) in &self.warc {
            f.push(name.as_str(), value.as_str());
        }
        f
    }
}

/// The WARC-Record-ID [`write_warc`] gives the `i`-th capture of a file written with `salt`.
pub fn record_id(salt: usize, i: usize) -> String {
    format!(
        "<urn:uuid:00000000-0000-4000-8000-{:012}>",
        salt * 100_000 + i
    )
}

/// WARC 1.1's revisit profiles, and WARC 1.0's spelling of the second.
pub const IDENTICAL: &str = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";
pub const NOT_MODIFIED: &str = "http://netpreserve.org/warc/1.0/revisit/server-not-modified";

/// A record of a file written by [`write_records`].
#[derive(Clone, Debug)]
pub enum Item {
    Response(Capture),
    /// A revisit record of the capture's URL and date: the profile URI, then whether its
    /// block holds the capture's HTTP head (else it is empty); the body is not written.
    Revisit(Capture, &'static str, bool),
}

/// Like [`write_warc`], with revisit records among the responses.
pub fn write_records(path: &Path, items: &[Item], salt: usize) -> PathBuf {
    let file = std::fs::File::create(path).unwrap();
    let mut w = Writer::new(file);
    for (i, item) in items.iter().enumerate() {
        match item {
            Item::Response(c) => {
                w.write_record(&c.fields(salt * 100_000 + i), &c.block())
                    .unwrap();
            }
            Item::Revisit(c, profile, with_head) => {
                let mut f = Fields::new();
                for (name, value) in c.fields(salt * 100_000 + i).iter() {
                    let value = match name {
                        "WARC-Type" => "revisit",
                        _ => value,
                    };
                    f.push(name, value);
                }
                f.push("WARC-Profile", *profile);
                let block = if *with_head { c.head() } else { Vec::new() };
                w.write_record(&f, &block).unwrap();
            }
        }
    }
    w.finish().unwrap();
    path.to_owned()
}

/// Writes captures as a WARC file gzipped per record, with a request record before
/// each response as crawlers write them; `salt` keeps record IDs distinct across files.
pub fn write_warc(path: &Path, captures: &[Capture], salt: usize) -> PathBuf {
    let file = std::fs::File::create(path).unwrap();
    let mut w = Writer::new(file);
    let mut info = Fields::new();
    info.push("WARC-Type", "warcinfo");
    info.push(
        "WARC-Record-ID",
        format!("<urn:uuid:11111111-0000-4000-8000-{salt:012}>"),
    );
    w.write_record(&info, b"software: test\r\n").unwrap();
    for (i, c) in captures.iter().enumerate() {
        let mut req = Fields::new();
        req.push("WARC-Type", "request");
        req.push("WARC-Target-URI", c.url.as_str());
        req.push("WARC-Date", c.date.rfc3339());
        w.write_record(&req, b"GET / HTTP/1.1\r\n\r\n").unwrap();
        w.write_record(&c.fields(salt * 100_000 + i), &c.block())
            .unwrap();
    }
    w.finish().unwrap();
    path.to_owned()
}

/// Writes captures as a plain (uncompressed) WARC file.
pub fn write_plain_warc(path: &Path, captures: &[Capture], salt: usize) -> PathBuf {
    let mut out = Vec::new();
    for (i, c) in captures.iter().enumerate() {
        let block = c.block();
        out.extend_from_slice(b"WARC/1.0\r\n");
        for (n, v) in c.fields(salt * 100_000 + i).iter() {
            out.extend_from_slice(format!("{n}: {v}\r\n").as_bytes());
        }
        out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
        out.extend_from_slice(&block);
        out.extend_from_slice(b"\r\n\r\n");
    }
    std::fs::write(path, out).unwrap();
    path.to_owned()
}

/// A new archive in a temporary directory with the given WARC ingested.
pub fn archive_with(dir: &Path, captures: &[Capture]) -> Archive {
    let mut archive = Archive::create(&dir.join("archive"), AGENT).unwrap();
    let warc = write_warc(&dir.join("crawl.warc.gz"), captures, 1);
    archive.ingest(&warc, &mut |_| {}).unwrap();
    archive
}

/// The robots.txt used by most tests: a month's embargo on /news, /private disallowed.
pub const ROBOTS: &[u8] =
    b"User-agent: *\nArchive-Embargo: m\nEmbargo-Allow: /news\nDisallow: /private\n";

pub const SITE: &str = "http://site.test";

/// [`SITE`]'s robots.txt ([`ROBOTS`]), captured at the start of 2026.
pub fn site_robots() -> Capture {
    capture(
        &format!("{SITE}/robots.txt"),
        "2026-01-01T00:00:00Z",
        200,
        ROBOTS,
    )
}

/// Runs `warcio <args>` if warcio can be found (env WARCIO, else PATH); `None` when it
/// cannot, after printing a notice.
pub fn warcio(args: &[&str]) -> Option<std::process::Output> {
    let program = std::env::var("WARCIO").unwrap_or_else(|_| "warcio".to_owned());
    match std::process::Command::new(&program).args(args).output() {
        Ok(out) => Some(out),
        Err(_) => {
            eprintln!(
                "NOTICE: `{program}` not found; skipping the warcio checks (set WARCIO=/path/to/warcio)"
            );
            None
        }
    }
}

/// Every record of the archive's public WARC files, in file and then record order: the
/// file's name, the record's fields and its block.
pub fn public_records(archive_dir: &Path) -> Vec<(String, Fields, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(archive_dir.join("public"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let file = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
        let mut reader = Reader::new(file, &path, 0);
        while let Some(r) = reader
            .next(|_, block| {
                let mut v = Vec::new();
                std::io::Read::read_to_end(block, &mut v)?;
                Ok(v)
            })
            .unwrap()
        {
            out.push((name.clone(), r.fields, r.value));
        }
    }
    out
}

/// The head and the body of the answer to `METHOD target` (with extra header lines, each
/// ending in CRLF) from a server at `addr`, as the octets sent.
pub fn request_on_the_wire(
    addr: std::net::SocketAddr,
    method: &str,
    target: &str,
    extra: &str,
) -> (Vec<u8>, Vec<u8>) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    write!(
        s,
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let body = answer.split_off(end + 4);
    answer.truncate(end);
    (answer, body)
}

/// The head and the body of the answer to `GET target` from a server at `addr`.
pub fn answer_on_the_wire(addr: std::net::SocketAddr, target: &str) -> (Vec<u8>, Vec<u8>) {
    request_on_the_wire(addr, "GET", target, "")
}

/// The head of the answer to `GET target` from a server at `addr`, as the octets sent.
pub fn head_on_the_wire(addr: std::net::SocketAddr, target: &str) -> Vec<u8> {
    answer_on_the_wire(addr, target).0
}

/// The value of field `name` in a head, as octets.
pub fn field<'a>(head: &'a [u8], name: &str) -> Option<&'a [u8]> {
    head.split(|&b| b == b'\n').find_map(|line| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let (n, v) = line.split_at(line.iter().position(|&b| b == b':')?);
        n.eq_ignore_ascii_case(name.as_bytes())
            .then(|| v[1..].trim_ascii())
    })
}

/// Whether `needle` occurs in `haystack`.
pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
