//! Fuzz target `archive_capture`: arbitrary bytes become the HTTP head of a captured
//! response (status line, header fields, continuation lines, transfer coding) and a
//! request target, so that the archive's parsers of what a crawl recorded and of what
//! readers ask (the response head, chunked bodies, `/web/…` and `/cdx` targets,
//! timestamps, URLs) are fuzzed as `robots archive` runs them. The capture sits beside a
//! robots.txt giving the archive's crawler a week's Archive-Embargo; what must hold:
//! - ingesting it succeeds (the WARC around it is sound; a head that is not HTTP only
//!   leaves the record unindexed), and nothing panics;
//! - during the embargo, no answer to the fuzzed target, the capture's own URL or its
//!   CDX listing, and no public WARC file a release writes then, holds the body
//!   (docs: single-item access is refused until the embargo date); nor does a revisit
//!   record of it under another site that allows everything, with the same fuzzed head
//!   as its own (a revisit's payload is its original's, and is withheld with it);
//! - after the embargo a release succeeds.
//!
//! Input layout: `[target length][target][head…]`; the body, a marker no head holds,
//! follows the head after a blank line.

#![no_main]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use libfuzzer_sys::fuzz_target;
use robots_archive::warc::{Fields, Reader, Writer};
use robots_archive::{Archive, Request, Timestamp, PUBLIC_DIR};

const SITE: &str = "http://site.test";
const BODY: &[u8] = b"ARCHIVE-FUZZ-BODY-3b1f9c";
const ROBOTS: &[u8] = b"User-agent: ExampleBot\nArchive-Embargo: w\n";
/// A revisit of `/page` under a site whose robots.txt allows everything at once.
const COPY: &str = "http://other.test/copy";

fuzz_target!(|data: &[u8]| {
    let Some((&target_len, rest)) = data.split_first() else {
        return;
    };
    let (target, head) = rest.split_at(usize::from(target_len).min(rest.len()));
    if contains(head, BODY) {
        return;
    }
    let dir = Scratch::new();
    let warc = dir.0.join("crawl.warc.gz");
    write_crawl(&warc, head);
    let copies = dir.0.join("copies.warc.gz");
    write_copy(&copies, head);
    let mut archive = Archive::create(&dir.0.join("archive"), "ExampleBot").unwrap();
    for warc in [&warc, &copies] {
        archive
            .ingest(warc, &mut |_| {})
            .expect("a sound WARC file is ingested, whatever its response heads");
    }

    let during = time("2026-01-04T00:00:00Z");
    let targets = [
        String::from_utf8_lossy(target).into_owned(),
        format!("/web/20260102000000id_/{SITE}/page"),
        format!("/web/2026/{SITE}/page"),
        format!("/cdx?url={SITE}/page&output=json"),
        format!("/web/2026/{COPY}"),
        format!("/web/20260103000000id_/{COPY}"),
        format!("/web/{COPY}"),
    ];
    for target in targets {
        for accept in [None, Some("application/json")] {
            let request = Request {
                target: target.clone(),
                accept: accept.map(str::to_owned),
            };
            let response = archive.respond(&request, during);
            assert!(!contains(&response.body, BODY), "{target} gave the body");
            for (_, value) in &response.headers {
                assert!(!contains(value, BODY), "{target} gave the body in a header");
            }
        }
    }
    archive.release(during).unwrap();
    for block in public_blocks(archive.dir()) {
        assert!(!contains(&block, BODY), "a public WARC holds the body");
    }
    archive.release(time("2026-03-01T00:00:00Z")).unwrap();
});

/// A WARC file of the site's robots.txt and one response for `/page` with `head`.
fn write_crawl(path: &Path, head: &[u8]) {
    let mut writer = Writer::new(std::fs::File::create(path).unwrap());
    let robots = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
        ROBOTS.len()
    );
    let page = [head, b"\r\n\r\n", BODY].concat();
    for (n, (path, block)) in [
        ("/robots.txt", [robots.as_bytes(), ROBOTS].concat()),
        ("/page", page),
    ]
    .into_iter()
    .enumerate()
    {
        let mut fields = Fields::new();
        fields.push("WARC-Type", "response");
        fields.push(
            "WARC-Record-ID",
            format!("<urn:uuid:00000000-0000-4000-8000-{n:012}>"),
        );
        fields.push("WARC-Date", "2026-01-02T00:00:00Z");
        fields.push("WARC-Target-URI", format!("{SITE}{path}"));
        fields.push("Content-Type", "application/http; msgtype=response");
        writer.write_record(&fields, &block).unwrap();
    }
    writer.finish().unwrap();
}

/// A WARC file of another site's robots.txt (everything allowed, no embargo) and an
/// identical-payload revisit of `/page` there, whose own block is `head`.
fn write_copy(path: &Path, head: &[u8]) {
    let mut writer = Writer::new(std::fs::File::create(path).unwrap());
    let open = b"HTTP/1.1 200 OK\r\nContent-Length: 23\r\n\r\nUser-agent: *\nAllow: /\n";
    let mut robots = Fields::new();
    robots.push("WARC-Type", "response");
    robots.push(
        "WARC-Record-ID",
        "<urn:uuid:00000000-0000-4000-8000-000000000010>",
    );
    robots.push("WARC-Date", "2026-01-03T00:00:00Z");
    robots.push("WARC-Target-URI", "http://other.test/robots.txt");
    writer.write_record(&robots, open).unwrap();
    let mut revisit = Fields::new();
    revisit.push("WARC-Type", "revisit");
    revisit.push(
        "WARC-Record-ID",
        "<urn:uuid:00000000-0000-4000-8000-000000000011>",
    );
    revisit.push("WARC-Date", "2026-01-03T00:00:00Z");
    revisit.push("WARC-Target-URI", COPY);
    revisit.push(
        "WARC-Profile",
        "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
    );
    revisit.push(
        "WARC-Refers-To",
        "<urn:uuid:00000000-0000-4000-8000-000000000001>",
    );
    writer
        .write_record(&revisit, &[head, b"\r\n\r\n"].concat())
        .unwrap();
    writer.finish().unwrap();
}

/// The blocks of every record in the archive's public WARC files.
fn public_blocks(archive: &Path) -> Vec<Vec<u8>> {
    let mut blocks = Vec::new();
    let Ok(files) = std::fs::read_dir(archive.join(PUBLIC_DIR)) else {
        return blocks;
    };
    for file in files {
        let path = file.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let mut reader = Reader::new(&bytes[..], &path, 0);
        while let Some(record) = reader
            .next(|_, block| {
                let mut bytes = Vec::new();
                block.read_to_end(&mut bytes)?;
                Ok(bytes)
            })
            .unwrap()
        {
            blocks.push(record.value);
        }
    }
    blocks
}

fn time(text: &str) -> Timestamp {
    Timestamp::parse_rfc3339(text).unwrap()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A directory of its own for one run, removed after it.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        static RUNS: AtomicUsize = AtomicUsize::new(0);
        let run = RUNS.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("archive-capture-fuzz-{}-{run}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
