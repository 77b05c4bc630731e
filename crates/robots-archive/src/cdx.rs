//! The CDX listing `serve` answers at `/cdx`: pywb's CDX server fields plus each
//! record's `embargo_until` and `access`, as JSON lines or space-separated text.

use serde::Serialize;

use crate::index::{Entry, Index};
use crate::time::Timestamp;
use crate::url::{encode_unsafe, surt};
use crate::Error;

/// Most lines one CDX query returns unless it asks for fewer.
pub const DEFAULT_LIMIT: u32 = 10_000;

/// What a CDX query asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CdxQuery {
    /// The URL, or a URL prefix when `prefix` is set (or the URL ended in `*`).
    pub url: String,
    pub prefix: bool,
    pub json: bool,
    pub limit: u32,
}

/// One line of the listing, in pywb's field names and order; numbers are strings, as
/// pywb writes them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CdxLine {
    pub urlkey: String,
    pub timestamp: String,
    pub url: String,
    pub mime: String,
    pub status: String,
    pub digest: String,
    pub length: String,
    pub offset: String,
    pub filename: String,
    /// RFC 3339, or `null` when the record is never released.
    pub embargo_until: Option<String>,
    /// `released`, `embargoed`, `disallowed` or `no-robots` at the time of the query.
    pub access: &'static str,
}

impl CdxLine {
    pub fn new(e: &Entry, at: Timestamp) -> CdxLine {
        let access = e.access(at);
        CdxLine {
            urlkey: e.urlkey.clone(),
            timestamp: e.captured.fourteen_digits(),
            url: e.url.clone(),
            mime: e.mime.clone().unwrap_or_else(|| "unk".to_owned()),
            status: e.status.to_string(),
            digest: e.digest.bare().to_owned(),
            length: e.length.to_string(),
            offset: e.offset.to_string(),
            filename: e.file.clone(),
            embargo_until: match access {
                crate::Access::Released | crate::Access::Embargoed => {
                    e.embargo_until.map(|t| t.rfc3339())
                }
                _ => None,
            },
            access: access.as_str(),
        }
    }

    /// The line as text: pywb's nine fields, then embargo end (`-` if none) and access.
    /// A URL captured with a space in it is written percent-encoded, so that every line
    /// has its eleven fields.
    pub fn to_text(&self) -> String {
        format!(
            "{} {} {} {} {} {} {} {} {} {} {}",
            self.urlkey,
            self.timestamp,
            encode_unsafe(&self.url),
            self.mime,
            self.status,
            self.digest,
            self.length,
            self.offset,
            self.filename,
            self.embargo_until.as_deref().unwrap_or("-"),
            self.access
        )
    }
}

/// The listing for `query` at time `at`, one line per capture, sorted by key and time.
pub fn listing(index: &Index, query: &CdxQuery, at: Timestamp) -> Result<String, Error> {
    let (url, prefix) = match query.url.strip_suffix('*') {
        Some(u) => (u, true),
        None => (query.url.as_str(), query.prefix),
    };
    let entries = if prefix {
        // The key of a prefix URL ends in `/` for a bare host; drop what cannot
        // be a prefix of longer keys.
        let key = surt(url);
        let key = key
            .strip_suffix("/")
            .filter(|_| !url.ends_with('/'))
            .unwrap_or(&key);
        index.captures_with_key_prefix(key, query.limit)?
    } else {
        let mut v = index.captures_of(url)?;
        v.truncate(query.limit as usize);
        v
    };
    let mut out = String::new();
    for e in &entries {
        let line = CdxLine::new(e, at);
        if query.json {
            out.push_str(&serde_json::to_string(&line).unwrap_or_default());
        } else {
            out.push_str(&line.to_text());
        }
        out.push('\n');
    }
    Ok(out)
}
