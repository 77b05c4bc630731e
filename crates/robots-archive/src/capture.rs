//! A WARC record read as a capture: a `response` record's HTTP head, computed payload
//! digest and robots.txt body, or a `revisit` record's head and what it names as its original.

use std::io::{self, BufRead, Read};

use crate::digest::{Check, Declared, Digest, PayloadHasher};
use crate::http::{dechunk, decode_content, ResponseHead};
use crate::time::Timestamp;
use crate::url::is_robots_txt;
use crate::warc::Fields;

/// What pass one keeps of a capture's record.
pub(crate) enum Capture {
    Response(Response),
    Revisit(RevisitRecord),
}

/// What pass one keeps of a response record's block.
pub(crate) struct Response {
    pub head: ResponseHead,
    pub digest: Digest,
    /// How the record's declared digest compares with `digest`.
    pub check: Check,
    /// The payload when this is a robots.txt capture.
    pub robots_body: Option<RobotsBody>,
}

/// A robots.txt capture's payload.
pub(crate) enum RobotsBody {
    /// Decoded, up to the parse limit.
    Read(Vec<u8>),
    /// In a content coding that could not be undone.
    Unreadable,
}

/// The revisit profiles of WARC 1.0 and 1.1 (§6.7) the archive indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RevisitProfile {
    /// The crawler fetched the payload and found it identical to an earlier one.
    IdenticalPayloadDigest,
    /// The server answered a conditional request with 304 Not Modified.
    ServerNotModified,
}

impl RevisitProfile {
    pub fn as_str(self) -> &'static str {
        match self {
            RevisitProfile::IdenticalPayloadDigest => "identical-payload-digest",
            RevisitProfile::ServerNotModified => "server-not-modified",
        }
    }

    /// The profile a `WARC-Profile` URI names: `http://netpreserve.org/warc/<version>/
    /// revisit/<name>` of any version (1.0 and 1.1 name the same two), by either scheme.
    pub fn from_uri(uri: &str) -> Option<RevisitProfile> {
        let rest = uri.trim();
        let rest = rest
            .strip_prefix("http://")
            .or_else(|| rest.strip_prefix("https://"))?;
        let (version, name) = rest
            .strip_prefix("netpreserve.org/warc/")?
            .split_once("/revisit/")?;
        if version.is_empty() || version.contains('/') {
            return None;
        }
        Self::parse(name)
    }

    pub(crate) fn parse(name: &str) -> Option<RevisitProfile> {
        match name {
            "identical-payload-digest" => Some(RevisitProfile::IdenticalPayloadDigest),
            "server-not-modified" => Some(RevisitProfile::ServerNotModified),
            _ => None,
        }
    }
}

/// The MIME type the index and CDX give a revisit, as pywb and OpenWayback do: the
/// record holds no payload of its own, which is what a CDX reader needs to know.
pub(crate) const MIME: &str = "warc/revisit";

/// What ingest keeps of a revisit record.
#[derive(Debug, Clone)]
pub(crate) struct RevisitRecord {
    pub profile: RevisitProfile,
    /// The HTTP response head it holds (a revisit's block usually is one: the response
    /// at its own time, with the payload left out).
    pub head: Option<ResponseHead>,
    /// Its `WARC-Payload-Digest`, when in a form the archive reads (SHA-1 or SHA-256).
    pub declared: Option<Digest>,
    /// `WARC-Refers-To`: the original's WARC-Record-ID.
    pub refers_to: Option<String>,
    /// `WARC-Refers-To-Target-URI` and `WARC-Refers-To-Date`: the original's URL and time.
    pub refers_to_url: Option<String>,
    pub refers_to_date: Option<Timestamp>,
}

impl RevisitRecord {
    /// Reads a revisit record of one of the two profiles; `None` for another profile
    /// (this archive's own tombstones among them: they stand for no capture of their own).
    pub(crate) fn read(
        fields: &Fields,
        block: &mut dyn BufRead,
    ) -> io::Result<Option<RevisitRecord>> {
        let Some(profile) = fields
            .get("WARC-Profile")
            .and_then(RevisitProfile::from_uri)
        else {
            return Ok(None);
        };
        Ok(Some(RevisitRecord {
            profile,
            head: ResponseHead::read(block)?,
            declared: fields
                .get("WARC-Payload-Digest")
                .map(Declared::parse)
                .and_then(|d| d.known().cloned()),
            refers_to: fields.get("WARC-Refers-To").map(|v| v.trim().to_owned()),
            refers_to_url: uri_field(fields, "WARC-Refers-To-Target-URI"),
            refers_to_date: fields
                .get("WARC-Refers-To-Date")
                .and_then(|d| Timestamp::parse_rfc3339(d).ok()),
        }))
    }
}

fn record_type(fields: &Fields) -> &str {
    fields.get("WARC-Type").unwrap_or_default()
}

/// The target URI, without the angle brackets WARC 1.1's grammar once showed.
pub(crate) fn target_uri(fields: &Fields) -> Option<String> {
    uri_field(fields, "WARC-Target-URI")
}

/// A URI-valued field (`WARC-Target-URI`, `WARC-Refers-To-Target-URI`) holding an
/// http(s) URL, without angle brackets.
pub(crate) fn uri_field(fields: &Fields, name: &str) -> Option<String> {
    let uri = fields.get(name)?.trim();
    let uri = uri
        .strip_prefix('<')
        .and_then(|u| u.strip_suffix('>'))
        .unwrap_or(uri);
    robots::Origin::of(uri).ok().map(|_| uri.to_owned())
}

/// The capture time a record's `WARC-Date` gives, if it is a valid W3C-DTF instant.
pub(crate) fn capture_time(fields: &Fields) -> Option<Timestamp> {
    Timestamp::parse_rfc3339(fields.get("WARC-Date")?).ok()
}

/// The visitor for pass one: reads a response or revisit record of an http(s) URL;
/// `None` for other records.
pub(crate) fn read_capture(
    fields: &Fields,
    block: &mut dyn BufRead,
) -> io::Result<Option<Capture>> {
    if target_uri(fields).is_none() {
        return Ok(None);
    }
    let kind = record_type(fields);
    if kind.eq_ignore_ascii_case("response") {
        Ok(read_response(fields, block)?.map(Capture::Response))
    } else if kind.eq_ignore_ascii_case("revisit") {
        Ok(RevisitRecord::read(fields, block)?.map(Capture::Revisit))
    } else {
        Ok(None)
    }
}

/// Parses the HTTP head of a response record, digests the payload (checking the digest
/// the record declares, if any) and keeps a robots.txt body.
pub(crate) fn read_response(
    fields: &Fields,
    block: &mut dyn BufRead,
) -> io::Result<Option<Response>> {
    let Some(head) = ResponseHead::read(block)? else {
        return Ok(None);
    };
    let is_robots = target_uri(fields).is_some_and(|u| is_robots_txt(&u));
    let mut hasher = PayloadHasher::new(fields.get("WARC-Payload-Digest"));
    let robots_body = if is_robots {
        let limit = robots::MIN_PARSE_LIMIT;
        // Chunk framing takes a little room, so read a margin past the limit.
        let mut raw = Vec::new();
        block.take(limit as u64 * 2).read_to_end(&mut raw)?;
        hasher.update(&raw);
        let body = if head.is_chunked() {
            dechunk(&raw)
        } else {
            raw
        };
        // Crawlers record the body as the server sent it, often gzipped.
        Some(match decode_content(&head, body, limit) {
            Some(mut body) => {
                body.truncate(limit);
                RobotsBody::Read(body)
            }
            None => RobotsBody::Unreadable,
        })
    } else {
        None
    };
    loop {
        let buf = block.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        hasher.update(buf);
        let n = buf.len();
        block.consume(n);
    }
    let (digest, check) = hasher.finish();
    Ok(Some(Response {
        head,
        digest,
        check,
        robots_body,
    }))
}
