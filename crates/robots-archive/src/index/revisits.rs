//! The index side of revisits: the revisits without an original yet, the rows that may
//! be their originals, and the link made once one is found.

use rusqlite::{params, OptionalExtension};

use super::captures::exec;
use super::{Index, Tx, LOOK_AHEAD_SECS};
use crate::capture::RevisitProfile;
use crate::Error;

/// An indexed revisit whose original is not known yet.
pub(crate) struct Unresolved {
    pub id: i64,
    pub profile: Option<RevisitProfile>,
    pub url: String,
    pub captured: i64,
    pub refers_to: Option<String>,
    pub refers_to_url: Option<String>,
    pub refers_to_date: Option<i64>,
    pub declared: Option<String>,
    pub has_head: bool,
}

/// The response a revisit repeats.
pub(crate) struct Original {
    pub id: i64,
    pub digest: String,
    pub status: u16,
    pub last_modified: Option<String>,
}

/// Every indexed revisit without an original.
pub(crate) fn unresolved(tx: &Tx<'_>) -> Result<Vec<Unresolved>, Error> {
    Ok(tx
        .prepare(
            "SELECT v.record, v.profile, r.url, r.captured, v.refers_to, v.refers_to_url,
                 v.refers_to_date, v.declared, v.has_head
             FROM revisits v INDEXED BY revisits_unresolved JOIN records r ON r.id = v.record
             WHERE v.original IS NULL",
        )?
        .query_map([], |r| {
            Ok(Unresolved {
                id: r.get(0)?,
                profile: RevisitProfile::parse(&r.get::<_, String>(1)?),
                url: r.get(2)?,
                captured: r.get(3)?,
                refers_to: r.get(4)?,
                refers_to_url: r.get(5)?,
                refers_to_date: r.get(6)?,
                declared: r.get(7)?,
                has_head: r.get(8)?,
            })
        })?
        .collect::<Result<_, _>>()?)
}

/// Rows whose WARC-Record-ID is `record_id`.
pub(crate) fn by_record_id(tx: &Tx<'_>, record_id: &str) -> Result<Vec<i64>, Error> {
    ids(
        tx,
        "SELECT id FROM records WHERE warc_record_id = ?1",
        &[&record_id],
    )
}

/// Rows of `url` captured at `captured` (Unix seconds).
pub(crate) fn at_url_and_time(tx: &Tx<'_>, url: &str, captured: i64) -> Result<Vec<i64>, Error> {
    ids(
        tx,
        "SELECT id FROM records WHERE url = ?1 AND captured = ?2 ORDER BY id",
        &[&url, &captured],
    )
}

/// Rows of `url` whose payload digest (computed, or declared and checked) is `digest`,
/// the nearest at or before `captured` first, then the nearest after it.
pub(crate) fn with_digest(
    tx: &Tx<'_>,
    url: &str,
    digest: &str,
    captured: i64,
) -> Result<Vec<i64>, Error> {
    ids(
        tx,
        "SELECT id FROM records WHERE url = ?1
             AND (digest = ?2 OR id IN (SELECT record FROM declared_digests WHERE digest = ?2))
         ORDER BY captured > ?3, abs(captured - ?3), id",
        &[&url, &digest, &captured],
    )
}

/// Rows of `url` captured before `captured`, the latest first.
pub(crate) fn earlier_at_url(tx: &Tx<'_>, url: &str, captured: i64) -> Result<Vec<i64>, Error> {
    ids(
        tx,
        "SELECT id FROM records WHERE url = ?1 AND captured < ?2
         ORDER BY captured DESC, id DESC",
        &[&url, &captured],
    )
}

fn ids(tx: &Tx<'_>, sql: &str, params: &[&dyn rusqlite::ToSql]) -> Result<Vec<i64>, Error> {
    let mut stmt = tx.prepare_cached(sql)?;
    let rows = stmt.query_map(params, |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The response row `id` is, or, for a revisit with a known original, that original.
pub(crate) fn response_of(tx: &Tx<'_>, id: i64) -> Result<Option<Original>, Error> {
    let via: Option<Option<i64>> = tx
        .prepare_cached("SELECT original FROM revisits WHERE record = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?;
    let id = match via {
        None => id,
        Some(Some(original)) => original,
        Some(None) => return Ok(None),
    };
    Ok(tx
        .prepare_cached("SELECT id, digest, status, last_modified FROM records WHERE id = ?1")?
        .query_row([id], |r| {
            Ok(Original {
                id: r.get(0)?,
                digest: r.get(1)?,
                status: r.get(2)?,
                last_modified: r.get(3)?,
            })
        })
        .optional()?)
}

/// The declared digest (in another algorithm than SHA-1, checked) kept for response `id`.
pub(crate) fn declared_digest(tx: &Tx<'_>, id: i64) -> Result<Option<String>, Error> {
    Ok(tx
        .prepare_cached("SELECT digest FROM declared_digests WHERE record = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?)
}

/// Links a revisit to its original: it takes the original's content (and, without an
/// HTTP head of its own, its status and Last-Modified), and it and the other unreleased
/// captures of that content at its URL are assessed again, since it may be the content's
/// first observation there. A revisit of a robots.txt is a capture of those rules at its
/// own time, and governs as one (`robots_txt`).
pub(crate) fn settle(
    tx: &Tx<'_>,
    visit: &Unresolved,
    original: &Original,
    robots_txt: bool,
) -> Result<(), Error> {
    exec(
        tx,
        "UPDATE revisits SET original = ?2 WHERE record = ?1",
        params![visit.id, original.id],
    )?;
    exec(
        tx,
        "UPDATE records SET digest = ?2,
             status = CASE WHEN ?3 THEN status ELSE ?4 END,
             last_modified = CASE WHEN ?3 THEN last_modified ELSE ?5 END
         WHERE id = ?1",
        params![
            visit.id,
            original.digest,
            visit.has_head,
            original.status,
            original.last_modified
        ],
    )?;
    exec(
        tx,
        "UPDATE records SET pending = 1
         WHERE url = ?1 AND digest = ?2 AND release_batch IS NULL",
        params![visit.url, original.digest],
    )?;
    // A revisit a release held while its original was missing goes back to the due
    // index if that original is already released; if not, the release that takes up
    // the original takes up the revisit with it.
    exec(
        tx,
        "UPDATE records SET held = NULL
         WHERE id = ?1 AND held = 1
           AND (SELECT release_batch FROM records WHERE id = ?2) IS NOT NULL",
        params![visit.id, original.id],
    )?;
    if robots_txt {
        // A 304, or no head, says the status is the original's; like a response, only
        // a 2xx, 4xx or 5xx says anything about the rules.
        let added = exec(
            tx,
            "INSERT OR IGNORE INTO robots_txt (record, origin, captured, status, body)
             SELECT id, origin, captured, status, body FROM (
                 SELECT r.id, r.origin, r.captured, o.body,
                     CASE WHEN r.status IN (0, 304) THEN o.status ELSE r.status END AS status
                 FROM records r, robots_txt o WHERE r.id = ?1 AND o.record = ?2)
             WHERE status BETWEEN 200 AND 299 OR status BETWEEN 400 AND 599",
            params![visit.id, original.id],
        )?;
        if added > 0 {
            exec(
                tx,
                "UPDATE records SET pending = 1
                 WHERE origin = (SELECT origin FROM records WHERE id = ?1)
                   AND release_batch IS NULL AND captured >= ?2",
                params![visit.id, visit.captured - LOOK_AHEAD_SECS],
            )?;
        }
    }
    Ok(())
}

/// How many revisits indexed from file row `file_id` have no original in the archive.
pub(crate) fn unresolved_in(index: &Index, file_id: i64) -> Result<u64, Error> {
    Ok(index.conn.query_row(
        "SELECT count(*) FROM revisits v JOIN records r ON r.id = v.record
         WHERE v.original IS NULL AND r.file_id = ?1",
        [file_id],
        |r| r.get(0),
    )?)
}
