//! Tombstones: what may be shown of a record that is withheld (URL, capture time,
//! response headers, payload digest, embargo end, never the body), as JSON, HTML or WARC.

use serde::Serialize;

use crate::digest::Digest;
use crate::http::ResponseHead;
use crate::index::{Access, Entry};
use crate::time::Timestamp;
use crate::warc::Fields;

/// The WARC-Profile of this project's tombstone `revisit` records: the record stands
/// for a capture whose payload is under embargo, carrying its headers and digest only.
pub const TOMBSTONE_PROFILE: &str =
    "https://example.invalid/robots/warc-profile/archive-embargo-tombstone/1.0";

/// The metadata of a withheld record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tombstone {
    pub url: String,
    /// Capture time, RFC 3339.
    pub captured: String,
    /// Capture time as a 14-digit Wayback timestamp.
    pub timestamp: String,
    pub status: u16,
    /// The captured response's header fields, in order, as `[name, value]` pairs; value
    /// octets that are not UTF-8 are shown as U+FFFD (the tombstone in a public WARC, a
    /// `revisit` record, carries them as captured).
    pub headers: Vec<(String, String)>,
    /// The payload's SHA-1 (`sha1:…`); `null` for a revisit whose content is not known
    /// (it declares no digest, and its original is not in the archive).
    pub payload_digest: Option<String>,
    /// When the body may be published (RFC 3339); `null` when it never may.
    pub embargo_until: Option<String>,
    /// The first time the archive observed this content, the same URL with the same
    /// payload (RFC 3339), from which, or from an earlier Last-Modified, the embargo runs.
    pub first_observed: Option<String>,
    /// `embargoed`, `disallowed` or `no-robots`.
    pub access: &'static str,
    /// Why the body is withheld, in a sentence.
    pub reason: String,
}

impl Tombstone {
    /// The tombstone of `entry` with its captured response head, as of time `at`.
    pub fn new(entry: &Entry, head: Option<&ResponseHead>, at: Timestamp) -> Tombstone {
        let access = entry.access(at);
        let until = entry.withheld_until();
        let reason = match entry.withheld_by_original(at) {
            // A revisit withheld for its original's sake says whose standing withholds it.
            Some(original) => format!(
                "This capture is a revisit record: its payload is that of the capture of {} at {}, {}.",
                original.url,
                original.captured,
                match (original.access(at), until) {
                    (Access::Embargoed, Some(end)) => format!("which is under embargo; the body is withheld until {end}"),
                    (Access::Disallowed, _) => "which was made while robots.txt disallowed it for this archive's crawler; the body is never published".to_owned(),
                    _ => "which no robots.txt capture governs yet; the body is withheld until one is ingested".to_owned(),
                }
            ),
            None => match (access, until) {
                (Access::Embargoed, Some(end)) => format!(
                    "The site's robots.txt set an Archive-Embargo of {} days; the body is withheld until {end}.",
                    entry.embargo_days.unwrap_or(0)
                ),
                (Access::Disallowed, _) => "The capture was made while robots.txt disallowed it for this archive's crawler; it is never published.".to_owned(),
                _ => "No robots.txt capture of this site is near enough in time to know its embargo; the body is withheld until one is ingested.".to_owned(),
            },
        };
        Tombstone {
            url: entry.url.clone(),
            captured: entry.captured.rfc3339(),
            timestamp: entry.captured.fourteen_digits(),
            status: entry.status,
            headers: head
                .map(|h| {
                    h.fields
                        .iter()
                        .map(|(n, v)| (n.to_owned(), String::from_utf8_lossy(v).into_owned()))
                        .collect()
                })
                .unwrap_or_default(),
            payload_digest: entry.digest.as_ref().map(|d| d.as_header().to_owned()),
            embargo_until: match access {
                Access::Embargoed | Access::Released => until.map(|t| t.rfc3339()),
                Access::Disallowed | Access::NoRobots => None,
            },
            first_observed: entry.first_observed.map(|t| t.rfc3339()),
            access: access.as_str(),
            reason,
        }
    }

    /// The tombstone as a JSON object.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".to_owned())
    }

    /// The tombstone as a small HTML page.
    pub fn to_html(&self) -> String {
        let rows: String = self
            .headers
            .iter()
            .map(|(n, v)| format!("<tr><th>{}</th><td>{}</td></tr>\n", escape(n), escape(v)))
            .collect();
        let until = self.embargo_until.as_deref().unwrap_or("not scheduled");
        format!(
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Withheld: {url}</title></head>\n\
             <body>\n<h1>Withheld ({access})</h1>\n<p>{reason}</p>\n<dl>\n\
             <dt>URL</dt><dd>{url}</dd>\n<dt>Captured</dt><dd>{captured}</dd>\n\
             <dt>Status</dt><dd>{status}</dd>\n<dt>Payload digest</dt><dd>{digest}</dd>\n\
             <dt>Embargo until</dt><dd>{until}</dd>\n</dl>\n\
             <h2>Response headers</h2>\n<table>\n{rows}</table>\n</body></html>\n",
            url = escape(&self.url),
            access = self.access,
            reason = escape(&self.reason),
            captured = self.captured,
            status = self.status,
            digest = escape(self.payload_digest.as_deref().unwrap_or("unknown")),
            until = escape(until),
        )
    }
}

/// The `revisit` record that stands for an embargoed capture in a public WARC: the
/// HTTP head as block, the original's payload digest, and no payload.
pub fn revisit_record(entry: &Entry, head: &ResponseHead) -> (Fields, Vec<u8>) {
    let block = head.to_bytes();
    let original = entry.warc_record_id.clone().unwrap_or_default();
    let mut f = Fields::new();
    f.push("WARC-Type", "revisit");
    let key = format!("{}:{}", original, entry.id);
    f.push("WARC-Record-ID", derived_record_id("tombstone", &key));
    f.push("WARC-Date", entry.captured.rfc3339());
    f.push("WARC-Target-URI", entry.url.as_str());
    f.push("WARC-Profile", TOMBSTONE_PROFILE);
    if !original.is_empty() {
        f.push("WARC-Refers-To", original);
    }
    f.push("WARC-Refers-To-Target-URI", entry.url.as_str());
    f.push("WARC-Refers-To-Date", entry.captured.rfc3339());
    if let Some(digest) = &entry.digest {
        f.push("WARC-Payload-Digest", digest.as_header());
    }
    f.push("WARC-Block-Digest", Digest::of(&block).as_header());
    if let Some(end) = entry.embargo_until {
        f.push("WARC-Embargo-Until", end.rfc3339());
    }
    f.push("Content-Type", "application/http; msgtype=response");
    (f, block)
}

/// A record ID derived from a purpose and a key, so that writing the same release twice
/// yields the same records (a name-based UUID, RFC 9562 §5.5 layout).
pub fn derived_record_id(purpose: &str, key: &str) -> String {
    use sha1::{Digest as _, Sha1};
    let mut h = Sha1::new();
    h.update(purpose.as_bytes());
    h.update([0]);
    h.update(key.as_bytes());
    let d = h.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    b[6] = (b[6] & 0x0f) | 0x50;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
