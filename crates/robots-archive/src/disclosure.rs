//! The one gate a payload leaves the archive through: [`Entry::access`] decides, and this
//! module is the only reader of payloads for sending (replay, HEAD, release).
//!
//! A revisit record's payload is its original's (WARC 1.1 §6.7), so a revisit under a URL
//! that is released in its own right must not carry out the payload of a capture that is
//! embargoed or was disallowed: [`Entry::access`] weighs both, and every path that sends a
//! payload gets it from [`disclose`] or [`publishable`], which ask it first. Nothing else
//! in the crate hands stored payload octets to a client or a public file.

use std::io::Read;

use crate::http::{Dechunked, ResponseHead};
use crate::index::{Access, Entry};
use crate::store::{RecordReader, Stored};
use crate::time::Timestamp;
use crate::{Archive, Error};

/// A payload allowed out, with the head to send it under.
pub(crate) struct Payload {
    /// The captured head: the record's own, or for a revisit its own updated by (or
    /// standing in for) its original's.
    pub head: ResponseHead,
    /// The payload's length in octets, when known before reading it (it is not when the
    /// capture kept chunked transfer coding).
    pub length: Option<u64>,
    /// The payload, chunked coding undone, read from the store as it is sent.
    pub body: Box<dyn Read + Send>,
}

/// What may be sent of a capture at a given time.
pub(crate) enum Disclosure {
    /// Released: its payload.
    Open(Payload),
    /// Withheld, for the reason [`Entry::access`] gives: a tombstone only.
    Withheld(Access),
    /// A revisit released in its own right whose original is not in the archive: there
    /// is no payload to send.
    NoOriginal,
    /// The record holds no HTTP response head: nothing to replay.
    NotHttp,
}

/// What may leave the archive of `entry` at `at`: the one question replay asks.
pub(crate) fn disclose(
    archive: &Archive,
    entry: &Entry,
    at: Timestamp,
) -> Result<Disclosure, Error> {
    let access = entry.access(at);
    if access != Access::Released {
        return Ok(Disclosure::Withheld(access));
    }
    let Some(revisit) = entry.revisit else {
        return Ok(open_payload(archive, entry)?.map_or(Disclosure::NotHttp, Disclosure::Open));
    };
    let Some(original) = revisit
        .original
        .map(|id| archive.index().entry(id))
        .transpose()?
        .flatten()
    else {
        return Ok(Disclosure::NoOriginal);
    };
    // Asked again of the original's own row, so that what is sent is decided by the
    // record read here, not only by the standing the revisit's row carried.
    let theirs = original.access(at);
    if theirs != Access::Released {
        return Ok(Disclosure::Withheld(theirs));
    }
    let own = head_of(archive, entry)?;
    let Some(mut payload) = open_payload(archive, &original)? else {
        return Ok(Disclosure::NotHttp);
    };
    // A 304 (server-not-modified) updates the stored head as a cache does (RFC 9111
    // §3.2); a revisit without an HTTP head replays its original's.
    payload.head = match own {
        None => payload.head,
        Some(h) if h.status == 304 => payload.head.updated_by(&h),
        Some(h) => h,
    };
    Ok(Disclosure::Open(payload))
}

/// The HTTP head a record holds, read without its payload (a tombstone shows it).
pub(crate) fn head_of(archive: &Archive, entry: &Entry) -> Result<Option<ResponseHead>, Error> {
    let mut block = archive.store().open_block(entry)?;
    Ok(ResponseHead::read(&mut block).ok().flatten())
}

/// The head and payload of a response record, as a stream; `None` when it holds no
/// HTTP head. Private: only [`disclose`], having asked [`Entry::access`], opens payloads.
fn open_payload(archive: &Archive, entry: &Entry) -> Result<Option<Payload>, Error> {
    let mut block = archive.store().open_block(entry)?;
    let Some(head) = ResponseHead::read(&mut block).ok().flatten() else {
        return Ok(None);
    };
    let (length, body): (_, Box<dyn Read + Send>) = if head.is_chunked() {
        (None, Box::new(Dechunked::new(block)))
    } else {
        (Some(block.limit()), Box::new(block))
    };
    Ok(Some(Payload { head, length, body }))
}

/// The stored record of `entry` for a public release file as of `at`, which holds its
/// payload: refused unless [`Entry::access`] releases it then. The release plan selects
/// the same records in SQL; this is the check that they are ones the rule releases.
pub(crate) fn publishable(
    records: &mut RecordReader<'_>,
    entry: &Entry,
    at: Timestamp,
) -> Result<Stored, Error> {
    match entry.access(at) {
        Access::Released => records.read(entry),
        access => Err(Error::Withheld {
            url: entry.url.clone(),
            captured: entry.captured.rfc3339(),
            access: access.as_str(),
        }),
    }
}
