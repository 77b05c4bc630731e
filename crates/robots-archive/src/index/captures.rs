//! Index rows of captures: a response's or revisit's row inserted once however often
//! its record is read (a re-ingest, a recompressed copy), with what it names as its
//! content, and a robots.txt capture's rules.

use rusqlite::{params, Transaction};

use super::{unknown_content, FIRST_OBSERVED, LOOK_AHEAD_SECS};
use crate::capture::{self, Response, RevisitRecord, RobotsBody};
use crate::digest::{Algorithm, Check, Declared, Digest};
use crate::redirect;
use crate::time::Timestamp;
use crate::url::surt;
use crate::warc::Fields;
use crate::Error;

/// Where a record sits in the store.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Place {
    pub file_id: i64,
    pub offset: u64,
    pub length: u64,
}

/// What indexing a record did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Indexed {
    New,
    /// New, but its WARC-Record-ID belongs to another capture: indexed without it.
    WithoutId,
    /// Already indexed: from another file with the same ID, or in an interrupted ingest.
    Duplicate,
}

/// The index row of one capture, before assessment.
struct Row<'a> {
    url: &'a str,
    captured: Timestamp,
    status: u16,
    mime: Option<String>,
    digest: &'a str,
    last_modified: Option<String>,
}

/// Inserts a capture's row; returns what it did and the row's ID. `same` is the SQL
/// condition, on `records` with parameters ?1 to ?4 (WARC-Record-ID, URL, capture time,
/// and what names its content), that an indexed row is this record from another file.
fn insert_capture(
    tx: &Transaction<'_>,
    at: Place,
    fields: &Fields,
    row: &Row<'_>,
    (same, content): (&str, Option<&str>),
) -> Result<(Indexed, i64), Error> {
    let origin = robots::Origin::of(row.url)
        .map(|o| o.key())
        .unwrap_or_default();
    let insert = |record_id: Option<&str>| {
        exec(
            tx,
            "INSERT OR IGNORE INTO records (file_id, offset, length, warc_record_id, url,
                 urlkey, origin, captured, status, mime, digest, last_modified)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                at.file_id,
                at.offset,
                at.length,
                record_id,
                row.url,
                surt(row.url),
                origin,
                row.captured.unix(),
                row.status,
                row.mime,
                row.digest,
                row.last_modified,
            ],
        )
    };
    let record_id = fields.get("WARC-Record-ID");
    let mut indexed = Indexed::New;
    if insert(record_id)? == 0 {
        // Ignored: this very record was indexed before (from this file, in an
        // interrupted ingest, or from a copy of it), or another has its ID.
        let here: bool = tx
            .prepare_cached("SELECT count(*) > 0 FROM records WHERE file_id = ?1 AND offset = ?2")?
            .query_row(params![at.file_id, at.offset], |r| r.get(0))?;
        let copy: bool = !here
            && tx
                .prepare_cached(&format!(
                    "SELECT count(*) > 0 FROM records WHERE warc_record_id = ?1 AND url = ?2
                     AND captured = ?3 AND {same}"
                ))?
                .query_row(
                    params![record_id, row.url, row.captured.unix(), content],
                    |r| r.get(0),
                )?;
        if here || copy || insert(None)? == 0 {
            return Ok((Indexed::Duplicate, 0));
        }
        indexed = Indexed::WithoutId;
    }
    Ok((indexed, tx.last_insert_rowid()))
}

pub(crate) fn index_response(
    tx: &Transaction<'_>,
    at: Place,
    fields: &Fields,
    url: &str,
    captured: Timestamp,
    response: Response,
) -> Result<Indexed, Error> {
    let digest = response.digest.as_header();
    // The first observation of this content so far, before this capture joins it.
    let first_seen: Option<i64> = tx
        .prepare_cached(FIRST_OBSERVED)?
        .query_row(params![url, digest], |r| r.get(0))?;
    let row = Row {
        url,
        captured,
        status: response.head.status,
        mime: response.head.mime(),
        digest,
        last_modified: response
            .head
            .fields
            .text("Last-Modified")
            .map(|v| v.into_owned()),
    };
    let (indexed, id) = insert_capture(tx, at, fields, &row, ("digest = ?4", Some(digest)))?;
    if indexed == Indexed::Duplicate {
        return Ok(indexed);
    }
    record_declared(tx, id, &response.check)?;
    // Content observed earlier than before moves its first observation; its unreleased
    // captures are then assessed again, since their embargo ends move with it.
    if first_seen.is_some_and(|at| captured.unix() < at) {
        exec(
            tx,
            "UPDATE records SET pending = 1
             WHERE url = ?1 AND digest = ?2 AND release_batch IS NULL",
            params![url, digest],
        )?;
    }
    let origin = robots::Origin::of(url).map(|o| o.key()).unwrap_or_default();
    let status = response.head.status;
    // A 1xx capture of robots.txt says nothing about the rules. A 3xx one is followed
    // (RFC 9309 §2.3.1.2) to the capture of its target, which a crawler that follows
    // redirects records as a response of its own: its row keeps the target URL (empty
    // when `Location` is missing or unusable). An error status needs no body; rules the
    // archive cannot read govern nothing.
    let redirect = (300..=399)
        .contains(&status)
        .then(|| redirect::target(url, response.head.fields.get("Location")));
    let body = match (response.robots_body, status) {
        (Some(RobotsBody::Read(body)), 200..=299 | 400..=599) => Some(body),
        (Some(RobotsBody::Unreadable), 400..=599) => Some(Vec::new()),
        (Some(_), 300..=399) => Some(redirect.clone().flatten().unwrap_or_default().into_bytes()),
        _ => None,
    };
    if let Some(body) = body {
        exec(
            tx,
            "INSERT OR IGNORE INTO robots_txt (record, origin, captured, status, body)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, origin, captured.unix(), status, body],
        )?;
        if let Some(Some(target)) = &redirect {
            exec(
                tx,
                "INSERT OR IGNORE INTO robots_redirects (record, target_key) VALUES (?1, ?2)",
                params![id, surt(target)],
            )?;
        }
        // Only captures from 24 hours before this robots.txt on can be governed by it.
        exec(
            tx,
            "UPDATE records SET pending = 1
             WHERE origin = ?1 AND release_batch IS NULL AND captured >= ?2",
            params![origin, captured.unix() - LOOK_AHEAD_SECS],
        )?;
    }
    Ok(indexed)
}

/// Keeps a response's declared digest when it is checked and in another algorithm than
/// SHA-1 (a SHA-1 that agrees is the digest itself), for revisits that name it so.
fn record_declared(tx: &Transaction<'_>, id: i64, check: &Check) -> Result<(), Error> {
    if let Check::Agrees(Declared::Known(algorithm, declared)) = check {
        if *algorithm != Algorithm::Sha1 {
            exec(
                tx,
                "INSERT OR REPLACE INTO declared_digests (record, digest) VALUES (?1, ?2)",
                params![id, declared.as_header()],
            )?;
        }
    }
    Ok(())
}

/// For an upgrade (see `ingest::upgrade_files`): the response indexed at `at` (if it was: a copy of a record
/// indexed from another file was not) takes the digest computed from its payload.
pub(crate) fn upgrade_response(
    tx: &Transaction<'_>,
    at: Place,
    response: &Response,
) -> Result<(), Error> {
    let id: Option<i64> = tx
        .prepare_cached("SELECT id FROM records WHERE file_id = ?1 AND offset = ?2")?
        .query_row(params![at.file_id, at.offset], |r| r.get(0))
        .ok();
    if let Some(id) = id {
        exec(
            tx,
            "UPDATE records SET digest = ?2 WHERE id = ?1",
            params![id, response.digest.as_header()],
        )?;
        record_declared(tx, id, &response.check)?;
    }
    Ok(())
}

pub(crate) fn index_revisit(
    tx: &Transaction<'_>,
    at: Place,
    fields: &Fields,
    url: &str,
    captured: Timestamp,
    visit: &RevisitRecord,
) -> Result<Indexed, Error> {
    // Until its original is found, its content is the one it declares, if any.
    let content = visit.declared.as_ref().map(|d| d.as_header().to_owned());
    let digest = content
        .clone()
        .unwrap_or_else(|| unknown_content(at.file_id, at.offset));
    let row = Row {
        url,
        captured,
        // A revisit without an HTTP head takes its original's status once it is found.
        status: visit.head.as_ref().map_or(0, |h| h.status),
        mime: Some(capture::MIME.to_owned()),
        digest: &digest,
        last_modified: visit
            .head
            .as_ref()
            .and_then(|h| h.fields.text("Last-Modified"))
            .map(|v| v.into_owned()),
    };
    let same = "id IN (SELECT record FROM revisits WHERE declared IS ?4)";
    let (indexed, id) = insert_capture(tx, at, fields, &row, (same, content.as_deref()))?;
    if indexed != Indexed::Duplicate {
        insert_revisit(tx, id, visit)?;
    }
    Ok(indexed)
}

/// Records what the revisit in index row `id` names as its original.
fn insert_revisit(tx: &Transaction<'_>, id: i64, visit: &RevisitRecord) -> Result<(), Error> {
    exec(
        tx,
        "INSERT OR IGNORE INTO revisits (record, profile, refers_to, refers_to_url,
             refers_to_date, declared, has_head)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            id,
            visit.profile.as_str(),
            visit.refers_to,
            visit.refers_to_url,
            visit.refers_to_date.map(Timestamp::unix),
            visit.declared.as_ref().map(Digest::as_header),
            visit.head.is_some(),
        ],
    )?;
    Ok(())
}

/// Runs a statement prepared once per connection: ingest runs the same few statements
/// for every record, and parsing their SQL each time would dominate.
pub(crate) fn exec(
    tx: &Transaction<'_>,
    sql: &str,
    params: impl rusqlite::Params,
) -> rusqlite::Result<usize> {
    tx.prepare_cached(sql)?.execute(params)
}
