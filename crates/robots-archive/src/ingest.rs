//! Ingest: seal a WARC file into the store and index its response records in one
//! streaming pass, then let `assess` work out verdicts and embargo ends.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use rusqlite::{params, Transaction};

use crate::digest::{Digest, DigestWriter};
use crate::http::{dechunk, decode_content, ResponseHead};
use crate::index::{Index, FIRST_OBSERVED};
use crate::store::{io_error, Store};
use crate::time::Timestamp;
use crate::url::{is_robots_txt, surt, Origin};
use crate::warc::{Fields, Reader};
use crate::Error;

/// How many records go into one index transaction: enough to make commits cheap,
/// few enough that an interrupted ingest loses little work.
const RECORDS_PER_COMMIT: usize = 2000;

/// What one ingest did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IngestReport {
    /// The file's name in the sealed store.
    pub stored_as: String,
    /// The file had been ingested completely before: nothing was done.
    pub already_ingested: bool,
    /// Response records newly indexed (robots.txt captures included).
    pub responses: u64,
    /// Response records already in the index from another file (same WARC-Record-ID,
    /// URL, date and payload).
    pub duplicates: u64,
    /// Of the responses indexed, robots.txt captures.
    pub robots_txt: u64,
    /// Of those, 2xx robots.txt captures whose body could not be decoded (a content
    /// coding other than gzip or deflate, or damaged data). They govern nothing: an
    /// unreadable file is not read as "no rules", so until a readable robots.txt of the
    /// site is ingested, its captures are held back as having none.
    pub unreadable_robots_txt: u64,
    /// Of the responses indexed, those whose WARC-Record-ID an indexed record with
    /// another URL, date or payload already has (IDs are meant to be unique, but tools
    /// err): indexed all the same, without the ID, so that no capture is lost.
    pub conflicting_ids: u64,
    /// HTTP responses without a valid WARC-Date (W3C-DTF, `2026-01-31T12:00:00Z` or
    /// coarser): with no capture time there is no embargo end, so they are not indexed.
    pub undated: u64,
    /// Records that are not HTTP responses (requests, metadata, warcinfo…), skipped.
    pub skipped: u64,
    /// Size of the file in bytes.
    pub bytes: u64,
}

/// What pass one keeps of a response record's block.
struct Response {
    head: ResponseHead,
    digest: Digest,
    /// The payload when this is a robots.txt capture.
    robots_body: Option<RobotsBody>,
}

/// A robots.txt capture's payload.
enum RobotsBody {
    /// Decoded, up to the parse limit.
    Read(Vec<u8>),
    /// In a content coding that could not be undone.
    Unreadable,
}

pub(crate) fn ingest_file(
    index: &mut Index,
    store: &Store,
    source: &Path,
    progress: &mut dyn FnMut(u64),
) -> Result<IngestReport, Error> {
    let sealed = store.seal(source, progress)?;
    let known: Option<(i64, bool)> = index
        .conn
        .query_row(
            "SELECT id, complete FROM files WHERE sha1 = ?1",
            [&sealed.sha1],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .ok();
    let mut report = IngestReport {
        stored_as: sealed.name.clone(),
        already_ingested: false,
        responses: 0,
        duplicates: 0,
        robots_txt: 0,
        unreadable_robots_txt: 0,
        conflicting_ids: 0,
        undated: 0,
        skipped: 0,
        bytes: sealed.size,
    };
    let file_id = match known {
        Some((_, true)) => {
            report.already_ingested = true;
            return Ok(report);
        }
        // Interrupted before: index again; rows already there are kept as they are.
        Some((id, false)) => id,
        None => {
            index.conn.execute(
                "INSERT INTO files (name, sha1, source, size) VALUES (?1, ?2, ?3, ?4)",
                params![
                    sealed.name,
                    sealed.sha1,
                    source.display().to_string(),
                    sealed.size
                ],
            )?;
            index.conn.last_insert_rowid()
        }
    };
    let path = store.path(&sealed.name);
    let file = File::open(&path).map_err(|e| io_error(&path, e))?;
    let mut reader = Reader::new(BufReader::with_capacity(256 * 1024, file), &path, 0);
    let mut last_pos = 0;
    loop {
        let tx = index.conn.transaction()?;
        let mut done = true;
        for _ in 0..RECORDS_PER_COMMIT {
            let record = match reader.next(read_response) {
                Ok(Some(record)) => record,
                Ok(None) => break,
                // The records before the damage are whole: they are kept, and the file
                // stays incomplete, so every ingest of it reports the damage again.
                Err(e) => {
                    tx.commit()?;
                    return Err(e);
                }
            };
            let pos = reader.position();
            progress(pos - last_pos);
            last_pos = pos;
            done = false;
            match (record.value, target_uri(&record.fields)) {
                (Some(response), Some(url)) if is_response(&record.fields) => {
                    let Some(captured) = capture_time(&record.fields) else {
                        report.undated += 1;
                        continue;
                    };
                    let robots = response.robots_body.is_some();
                    let unreadable = matches!(response.robots_body, Some(RobotsBody::Unreadable))
                        && (200..=299).contains(&response.head.status);
                    let loc = (record.location.offset, record.location.length);
                    match index_response(
                        &tx,
                        file_id,
                        loc,
                        &record.fields,
                        &url,
                        captured,
                        response,
                    )? {
                        Indexed::Duplicate => report.duplicates += 1,
                        indexed => {
                            report.responses += 1;
                            report.robots_txt += u64::from(robots);
                            report.unreadable_robots_txt += u64::from(unreadable);
                            report.conflicting_ids += u64::from(indexed == Indexed::WithoutId);
                        }
                    }
                }
                _ => report.skipped += 1,
            }
        }
        tx.commit()?;
        if done {
            break;
        }
    }
    index
        .conn
        .execute("UPDATE files SET complete = 1 WHERE id = ?1", [file_id])?;
    Ok(report)
}

fn is_response(fields: &Fields) -> bool {
    fields
        .get("WARC-Type")
        .is_some_and(|t| t.eq_ignore_ascii_case("response"))
}

/// The target URI, without the angle brackets WARC 1.1's grammar once showed.
fn target_uri(fields: &Fields) -> Option<String> {
    let uri = fields.get("WARC-Target-URI")?.trim();
    let uri = uri
        .strip_prefix('<')
        .and_then(|u| u.strip_suffix('>'))
        .unwrap_or(uri);
    Origin::of(uri).map(|_| uri.to_owned())
}

fn capture_time(fields: &Fields) -> Option<Timestamp> {
    Timestamp::parse_rfc3339(fields.get("WARC-Date")?).ok()
}

/// The visitor for pass one: parses the HTTP head of a response record, digests the
/// payload unless the record carries its digest, and keeps a robots.txt body.
fn read_response(fields: &Fields, block: &mut dyn BufRead) -> io::Result<Option<Response>> {
    if !is_response(fields) || target_uri(fields).is_none() {
        return Ok(None);
    }
    let Some(head) = ResponseHead::read(block)? else {
        return Ok(None);
    };
    let is_robots = target_uri(fields).is_some_and(|u| is_robots_txt(&u));
    let given = fields.get("WARC-Payload-Digest").map(Digest::from_header);
    let mut digest = DigestWriter::new();
    let robots_body = if is_robots {
        let limit = robots::MIN_PARSE_LIMIT;
        // Chunk framing takes a little room, so read a margin past the limit.
        let mut raw = Vec::new();
        block.take(limit as u64 * 2).read_to_end(&mut raw)?;
        digest.update(&raw);
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
    let digest = match given {
        Some(d) => d,
        None => {
            loop {
                let buf = block.fill_buf()?;
                if buf.is_empty() {
                    break;
                }
                digest.update(buf);
                let n = buf.len();
                block.consume(n);
            }
            digest.finish()
        }
    };
    Ok(Some(Response {
        head,
        digest,
        robots_body,
    }))
}

/// What indexing a response record did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Indexed {
    New,
    /// New, but its WARC-Record-ID belongs to another capture: indexed without it.
    WithoutId,
    /// Already indexed: from another file with the same ID, or in an interrupted ingest.
    Duplicate,
}

fn index_response(
    tx: &Transaction<'_>,
    file_id: i64,
    (offset, length): (u64, u64),
    fields: &Fields,
    url: &str,
    captured: Timestamp,
    response: Response,
) -> Result<Indexed, Error> {
    let origin = Origin::of(url)
        .map(|o| o.as_str().to_owned())
        .unwrap_or_default();
    let digest = response.digest.as_header();
    // The first observation of this content so far, before this capture joins it.
    let first_seen: Option<i64> = tx
        .prepare_cached(FIRST_OBSERVED)?
        .query_row(params![url, digest], |r| r.get(0))?;
    let insert = |record_id: Option<&str>| {
        exec(
            tx,
            "INSERT OR IGNORE INTO records (file_id, offset, length, warc_record_id, url,
                 urlkey, origin, captured, status, mime, digest, last_modified)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                file_id,
                offset,
                length,
                record_id,
                url,
                surt(url),
                origin,
                captured.unix(),
                response.head.status,
                response.head.mime(),
                digest,
                response.head.fields.text("Last-Modified").as_deref(),
            ],
        )
    };
    let record_id = fields.get("WARC-Record-ID");
    let mut indexed = Indexed::New;
    if insert(record_id)? == 0 {
        // Ignored: this very record was indexed before (from this file, in an
        // interrupted ingest, or from a copy of it), or another has its ID.
        let same: bool = tx
            .prepare_cached(
                "SELECT count(*) > 0 FROM records WHERE (file_id = ?1 AND offset = ?2)
                 OR (warc_record_id = ?3 AND url = ?4 AND captured = ?5 AND digest = ?6)",
            )?
            .query_row(
                params![file_id, offset, record_id, url, captured.unix(), digest],
                |r| r.get(0),
            )?;
        if same || insert(None)? == 0 {
            return Ok(Indexed::Duplicate);
        }
        indexed = Indexed::WithoutId;
    }
    let id = tx.last_insert_rowid();
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
    let status = response.head.status;
    // 1xx and 3xx captures of robots.txt say nothing about the rules: a crawler that
    // follows the redirect captures the target as a response of its own. An error
    // status needs no body; rules the archive cannot read govern nothing.
    let body = match (response.robots_body, status) {
        (Some(RobotsBody::Read(body)), 200..=299 | 400..=599) => Some(body),
        (Some(RobotsBody::Unreadable), 400..=599) => Some(Vec::new()),
        _ => None,
    };
    if let Some(body) = body {
        exec(
            tx,
            "INSERT OR IGNORE INTO robots_txt (record, origin, captured, status, body)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, origin, captured.unix(), status, body],
        )?;
        // Only captures from 24 hours before this robots.txt on can be governed by it.
        exec(
            tx,
            "UPDATE records SET pending = 1
             WHERE origin = ?1 AND release_batch IS NULL AND captured >= ?2",
            params![origin, captured.unix() - crate::assess::LOOK_AHEAD_SECS],
        )?;
    }
    Ok(indexed)
}

/// Runs a statement prepared once per connection: ingest runs the same few statements
/// for every record, and parsing their SQL each time would dominate.
fn exec(tx: &Transaction<'_>, sql: &str, params: impl rusqlite::Params) -> rusqlite::Result<usize> {
    tx.prepare_cached(sql)?.execute(params)
}
