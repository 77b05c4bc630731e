//! Fuzz target `archive_http`: arbitrary bytes are read as the block of a WARC `response`
//! record, as ingest, replay and release read it: an HTTP response head, then the
//! payload. What is read must hold up:
//! - reading bytes in memory never fails: it gives a head or none (not an HTTP
//!   response), never an error or a panic; a head's status line is an `HTTP/` version
//!   and the head's status, 100 to 599, split on HTTP's white space (RFC 9112 §4: SP,
//!   HTAB, VT, FF, CR, and any before the version);
//! - a head written out (`to_bytes`, as replay and release do) reads back as the same head
//!   and consumes exactly what was written;
//! - the payload is the rest of the block unless it is chunked, and then never longer
//!   than the rest;
//! - field lookups agree with the fields in order, and the media type is lower-case
//!   without parameters;
//! - a second head after the first, read as a 304, updates the first as a cache would:
//!   its fields replace the stored ones, but for the payload's framing and coding.

#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_archive::ResponseHead;

/// The fields a 304 may not change, since the payload sent is the stored one.
const KEPT: [&str; 3] = ["content-length", "transfer-encoding", "content-encoding"];

fuzz_target!(|data: &[u8]| {
    let mut rest = data;
    let head = ResponseHead::read(&mut rest).expect("bytes in memory are read");
    let Some(head) = head else {
        return;
    };
    assert!((100..=599).contains(&head.status), "{head:?}");
    let http_space = |b: &u8| matches!(b, b' ' | b'\t' | 0x0B | 0x0C | b'\r');
    let mut words = head.status_line.split(http_space).filter(|w| !w.is_empty());
    assert!(
        words.next().is_some_and(|v| v.starts_with(b"HTTP/")),
        "{head:?}"
    );
    let code = head.status.to_string();
    assert_eq!(words.next(), Some(code.as_bytes()), "{head:?}");
    assert!(data.ends_with(rest));

    let written = head.to_bytes();
    let mut again = &written[..];
    let back = ResponseHead::read(&mut again).expect("bytes in memory are read");
    assert_eq!(back.as_ref(), Some(&head), "written out: {written:?}");
    assert!(again.is_empty(), "{} bytes left unread", again.len());

    let payload = head.payload(rest);
    if head.is_chunked() {
        assert!(payload.len() <= rest.len());
    } else {
        assert_eq!(payload, rest);
    }

    for (name, _) in head.fields.iter() {
        let first = head
            .fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name));
        assert_eq!(head.fields.get(name), first.map(|(_, v)| v));
        assert_eq!(
            head.fields.get(&name.to_ascii_uppercase()),
            first.map(|(_, v)| v)
        );
    }
    if let Some(mime) = head.mime() {
        assert!(!mime.is_empty() && !mime.contains(';'), "{mime:?}");
        assert_eq!(mime, mime.to_ascii_lowercase());
        assert_eq!(mime, mime.trim());
    }

    let mut second = rest;
    if let Ok(Some(not_modified)) = ResponseHead::read(&mut second) {
        updated(&head, &not_modified);
    }
});

fn updated(stored: &ResponseHead, not_modified: &ResponseHead) {
    let updated = stored.updated_by(not_modified);
    assert_eq!(updated.status, stored.status);
    assert_eq!(updated.status_line, stored.status_line);
    for (name, _) in updated.fields.iter() {
        let kept = KEPT.iter().any(|k| k.eq_ignore_ascii_case(name));
        let expected = if kept || not_modified.fields.get(name).is_none() {
            stored.fields.get(name)
        } else {
            not_modified.fields.get(name)
        };
        assert_eq!(updated.fields.get(name), expected, "{name}");
    }
    let added = not_modified
        .fields
        .iter()
        .filter(|(name, _)| !KEPT.iter().any(|k| k.eq_ignore_ascii_case(name)));
    for (name, _) in stored.fields.iter().chain(added) {
        assert!(updated.fields.get(name).is_some(), "{name} lost");
    }
}
