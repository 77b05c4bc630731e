//! The index side of assessment: the captures pending one, the robots.txt captures that
//! may govern them, and their assessments written back.

use rusqlite::{params, OptionalExtension};

use super::{CaptureVerdict, Index, Tx, LOOK_AHEAD_SECS};
use crate::time::Timestamp;
use crate::Error;

/// What assessing decided for one capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Assessment {
    pub robots_record: Option<i64>,
    pub verdict: CaptureVerdict,
    pub embargo_days: Option<u32>,
    pub embargo_until: Option<Timestamp>,
}

/// A capture marked for assessing.
pub(crate) struct Pending {
    pub id: i64,
    pub url: String,
    pub digest: String,
    pub origin: String,
    pub captured: Timestamp,
    pub last_modified: Option<String>,
}

/// A robots.txt capture as [`governing`] and [`cached_copy`] find it.
pub(crate) struct RobotsCapture {
    pub record: i64,
    pub captured: i64,
    pub status: u16,
}

/// Up to `limit` captures marked pending, in index order.
pub(crate) fn pending(tx: &Tx<'_>, limit: usize) -> Result<Vec<Pending>, Error> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, url, digest, origin, captured, last_modified FROM records
         WHERE pending = 1 ORDER BY id LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit as i64], |r| {
        Ok(Pending {
            id: r.get(0)?,
            url: r.get(1)?,
            digest: r.get(2)?,
            origin: r.get(3)?,
            captured: Timestamp::from_unix(r.get(4)?),
            last_modified: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Writes capture `id`'s assessment and takes it off the pending ones.
pub(crate) fn record(tx: &Tx<'_>, id: i64, a: &Assessment) -> Result<(), Error> {
    tx.prepare_cached(
        "UPDATE records SET robots_record = ?2, verdict = ?3, embargo_days = ?4,
             embargo_until = ?5, pending = 0
         WHERE id = ?1",
    )?
    .execute(params![
        id,
        a.robots_record,
        a.verdict.as_str(),
        a.embargo_days,
        a.embargo_until.map(Timestamp::unix),
    ])?;
    Ok(())
}

/// The body of robots.txt capture `record`, as kept (decoded, up to the parse limit).
pub(crate) fn robots_body(tx: &Tx<'_>, record: i64) -> Result<Vec<u8>, Error> {
    Ok(tx
        .prepare_cached("SELECT body FROM robots_txt WHERE record = ?1")?
        .query_row([record], |r| r.get(0))?)
}

fn robots_capture(r: &rusqlite::Row<'_>) -> rusqlite::Result<RobotsCapture> {
    Ok(RobotsCapture {
        record: r.get(0)?,
        captured: r.get(1)?,
        status: r.get(2)?,
    })
}

/// The robots.txt capture of `origin` nearest in time: the latest at or before
/// `captured`, else the earliest within [`LOOK_AHEAD_SECS`] after it.
pub(crate) fn governing(
    tx: &Tx<'_>,
    origin: &str,
    captured: Timestamp,
) -> Result<Option<RobotsCapture>, Error> {
    let before = tx
        .prepare_cached(
            "SELECT record, captured, status FROM robots_txt WHERE origin = ?1 AND captured <= ?2
             ORDER BY captured DESC, record DESC LIMIT 1",
        )?
        .query_row(params![origin, captured.unix()], robots_capture)
        .optional()?;
    if before.is_some() {
        return Ok(before);
    }
    Ok(tx
        .prepare_cached(
            "SELECT record, captured, status FROM robots_txt WHERE origin = ?1 AND captured > ?2
             AND captured <= ?3 ORDER BY captured, record LIMIT 1",
        )?
        .query_row(
            params![origin, captured.unix(), captured.unix() + LOOK_AHEAD_SECS],
            robots_capture,
        )
        .optional()?)
}

/// The latest readable robots.txt capture of `origin` (2xx, or 4xx for no rules) that
/// came before `unreachable`, captured at or after `not_before`.
pub(crate) fn readable_before(
    tx: &Tx<'_>,
    origin: &str,
    unreachable: &RobotsCapture,
    not_before: i64,
) -> Result<Option<RobotsCapture>, Error> {
    Ok(tx
        .prepare_cached(
            "SELECT record, captured, status FROM robots_txt
             WHERE origin = ?1 AND (status BETWEEN 200 AND 299 OR status BETWEEN 400 AND 499)
             AND (captured < ?2 OR (captured = ?2 AND record < ?3)) AND captured >= ?4
             ORDER BY captured DESC, record DESC LIMIT 1",
        )?
        .query_row(
            params![origin, unreachable.captured, unreachable.record, not_before],
            robots_capture,
        )
        .optional()?)
}

/// The body kept with robots.txt capture `record`, if it is one (for a redirect, the
/// target its `Location` names).
pub(crate) fn kept_robots_body(tx: &Tx<'_>, record: i64) -> Result<Option<Vec<u8>>, Error> {
    Ok(tx
        .prepare_cached("SELECT body FROM robots_txt WHERE record = ?1")?
        .query_row([record], |r| r.get(0))
        .optional()?)
}

/// The capture of the URL with SURT key `key` nearest in time to `at` (Unix seconds),
/// within [`LOOK_AHEAD_SECS`] either side, a later one winning a tie: the record a
/// crawler following a redirect fetched next.
pub(crate) fn nearest_capture_of(tx: &Tx<'_>, key: &str, at: i64) -> Result<Option<i64>, Error> {
    Ok(tx
        .prepare_cached(
            "SELECT id FROM records WHERE urlkey = ?1 AND captured BETWEEN ?2 - ?3 AND ?2 + ?3
             ORDER BY abs(captured - ?2), captured DESC, id LIMIT 1",
        )?
        .query_row(params![key, at, LOOK_AHEAD_SECS], |r| r.get(0))
        .optional()?)
}

/// The robots.txt captures answering a redirect (3xx) indexed from the stored file `file`.
pub(crate) fn redirects_in_file(tx: &Tx<'_>, file: &str) -> Result<Vec<RobotsCapture>, Error> {
    let mut stmt = tx.prepare_cached(
        "SELECT t.record, t.captured, t.status FROM robots_txt t
         JOIN records r ON r.id = t.record JOIN files f ON f.id = r.file_id
         WHERE f.name = ?1 AND t.status BETWEEN 300 AND 399 ORDER BY t.record",
    )?;
    let rows = stmt.query_map([file], robots_capture)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Marks for assessing again the unreleased captures that a robots.txt redirecting to a
/// URL the stored file `file` holds a capture of may govern: the target may have come
/// after the redirect, in this file or a later one. Costs a key lookup per redirect.
pub(crate) fn reassess_redirected_to(tx: &Tx<'_>, file: &str) -> Result<(), Error> {
    let governed: Vec<(String, i64)> = tx
        .prepare_cached(
            "SELECT t.origin, t.captured FROM robots_redirects d
             JOIN robots_txt t ON t.record = d.record
             WHERE EXISTS (SELECT 1 FROM records r JOIN files f ON f.id = r.file_id
                           WHERE r.urlkey = d.target_key AND f.name = ?1)",
        )?
        .query_map([file], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (origin, captured) in governed {
        tx.prepare_cached(
            "UPDATE records SET pending = 1
             WHERE origin = ?1 AND release_batch IS NULL AND captured >= ?2",
        )?
        .execute(params![origin, captured - LOOK_AHEAD_SECS])?;
    }
    Ok(())
}

/// For an upgrade: the captures answering 3xx that hold no robots.txt row, whose URL may
/// be a robots.txt (the caller checks the path).
pub(crate) fn unindexed_redirects(tx: &Tx<'_>) -> Result<Vec<i64>, Error> {
    let mut stmt = tx.prepare(
        "SELECT r.id FROM records r WHERE r.status BETWEEN 300 AND 399
         AND r.url LIKE '%/robots.txt%'
         AND NOT EXISTS (SELECT 1 FROM robots_txt t WHERE t.record = r.id)
         AND NOT EXISTS (SELECT 1 FROM revisits v WHERE v.record = r.id)",
    )?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Keeps robots.txt capture `record` (of `origin`, at `captured`) answering a redirect
/// to `target` (`None`: no usable `Location`), as ingest does, and marks the captures
/// it may govern for assessing again.
pub(crate) fn add_redirect(
    tx: &Tx<'_>,
    record: i64,
    origin: &str,
    captured: i64,
    status: u16,
    target: Option<(&str, &str)>,
) -> Result<(), Error> {
    let (url, key) = target.unwrap_or(("", ""));
    tx.execute(
        "INSERT OR IGNORE INTO robots_txt (record, origin, captured, status, body)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![record, origin, captured, status, url.as_bytes()],
    )?;
    if target.is_some() {
        tx.execute(
            "INSERT OR IGNORE INTO robots_redirects (record, target_key) VALUES (?1, ?2)",
            params![record, key],
        )?;
    }
    tx.execute(
        "UPDATE records SET pending = 1
         WHERE origin = ?1 AND release_batch IS NULL AND captured >= ?2",
        params![origin, captured - LOOK_AHEAD_SECS],
    )?;
    Ok(())
}

/// Marks every unreleased capture for assessing again (what is public stays so).
pub(crate) fn reassess_unreleased(index: &Index) -> Result<(), Error> {
    index.conn.execute(
        "UPDATE records SET pending = 1 WHERE release_batch IS NULL",
        [],
    )?;
    Ok(())
}
