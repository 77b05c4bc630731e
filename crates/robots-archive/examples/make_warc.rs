//! Writes a gzip WARC of HTML-like pages for `scripts/bench-ingest`: a robots.txt and
//! `N` responses, each a gzip member of its own, as crawlers write them.
//!
//! `cargo run --release -p robots-archive --example make_warc -- OUT.warc.gz [PAGES] [BODY_BYTES] [FIRST]`
//!
//! `FIRST` (0 unless given) numbers the pages, their record IDs and times: files made
//! with different ones hold different captures.

use std::io::BufWriter;

use robots_archive::warc::{Fields, Writer};
use robots_archive::Timestamp;

const T0: i64 = 1_767_225_600; // 2026-01-01T00:00:00Z

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args
        .next()
        .expect("usage: make_warc OUT.warc.gz [PAGES] [BODY_BYTES]");
    let pages: usize = args.next().map_or(12_000, |n| n.parse().expect("PAGES"));
    let body_len: usize = args
        .next()
        .map_or(12_000, |n| n.parse().expect("BODY_BYTES"));
    let first: usize = args.next().map_or(0, |n| n.parse().expect("FIRST"));
    let file = std::fs::File::create(&out).expect("create the output file");
    let mut w = Writer::new(BufWriter::new(file));
    let mut write = |i: usize, url: &str, mime: &str, body: &[u8]| {
        let mut f = Fields::new();
        f.push("WARC-Type", "response");
        f.push(
            "WARC-Record-ID",
            format!("<urn:uuid:00000000-0000-4000-8000-{i:012}>"),
        );
        f.push("WARC-Date", Timestamp::from_unix(T0 + i as i64).rfc3339());
        f.push("WARC-Target-URI", url);
        f.push("Content-Type", "application/http; msgtype=response");
        let mut block = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: {mime}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        block.extend_from_slice(body);
        w.write_record(&f, &block).expect("write a record");
    };
    write(
        first,
        "http://bench.test/robots.txt",
        "text/plain",
        b"User-agent: *\nArchive-Embargo: m\nDisallow: /private\n",
    );
    // Markup and words drawn by a fixed generator: pages that compress about as much
    // as real HTML does (3 to 4 times).
    let words = [
        "archive", "embargo", "robots", "release", "capture", "record", "crawler", "page",
    ];
    let tags = ["p", "li", "span", "a", "td", "div"];
    for i in first + 1..=first + pages {
        let mut body = String::with_capacity(body_len + 64);
        body.push_str("<!doctype html><html><head><title>Page ");
        body.push_str(&i.to_string());
        body.push_str("</title></head><body>\n");
        let mut k = i as u64;
        while body.len() < body_len {
            k = k.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let tag = tags[(k >> 40) as usize % tags.len()];
            let word = words[(k >> 33) as usize % words.len()];
            body.push_str(&format!("<{tag}>{word} {} </{tag}>", (k >> 20) % 100_000));
            if (k >> 50) & 3 == 0 {
                body.push('\n');
            }
        }
        body.push_str("</body></html>\n");
        write(
            i,
            &format!("http://bench.test/page/{i}"),
            "text/html",
            body.as_bytes(),
        );
    }
    w.finish().expect("finish the file");
}
