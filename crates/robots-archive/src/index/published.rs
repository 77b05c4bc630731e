//! The index side of recovery: release files the index learns of from `public/`, the
//! records they published, and the captures those name marked released or tombstoned.

use rusqlite::{params, OptionalExtension};

use super::{Index, Tx};
use crate::time::Timestamp;
use crate::Error;

/// What one record of a public file says was published.
pub(crate) struct Published {
    pub tombstone: bool,
    pub url: String,
    pub captured: i64,
    /// The WARC-Record-ID of the capture (a tombstone's WARC-Refers-To), if it has one.
    pub record_id: Option<String>,
    /// The payload digest, as the index spells it: computed for a released response,
    /// as declared for a tombstone; `None` for a released revisit (the index holds its
    /// original's digest) or a tombstone of unknown content.
    pub digest: Option<String>,
}

/// The batch whose file is `name`, if the index knows one.
pub(crate) fn release_named(index: &Index, name: &str) -> Result<Option<i64>, Error> {
    Ok(index
        .conn
        .query_row("SELECT id FROM releases WHERE file = ?1", [name], |r| {
            r.get(0)
        })
        .optional()?)
}

/// Adds release file `name` as a done batch, numbered `id` as its name says unless a
/// batch of the index has that number (a backup restored after other releases ran):
/// then the next free one. Returns its number.
pub(crate) fn add_release(tx: &Tx<'_>, id: i64, at: Timestamp, name: &str) -> Result<i64, Error> {
    let taken: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM releases WHERE id = ?1)",
        [id],
        |r| r.get(0),
    )?;
    if taken {
        tx.execute(
            "INSERT INTO releases (at, file, state) VALUES (?1, ?2, 'done')",
            params![at.unix(), name],
        )?;
    } else {
        tx.execute(
            "INSERT INTO releases (id, at, file, state) VALUES (?1, ?2, ?3, 'done')",
            params![id, at.unix(), name],
        )?;
    }
    Ok(tx.last_insert_rowid())
}

/// Adds what a record of release file `batch` says was published.
pub(crate) fn add(tx: &Tx<'_>, batch: i64, p: &Published) -> Result<(), Error> {
    tx.prepare_cached(
        "INSERT INTO published (batch, tombstone, url, captured, record_id, digest)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        batch,
        p.tombstone,
        p.url,
        p.captured,
        p.record_id,
        p.digest
    ])?;
    Ok(())
}

/// Marks the indexed captures that `published` rows name as released (or tombstoned)
/// by their batch, and deletes the rows matched, so that later calls walk only what
/// is still to be matched. A capture matches on URL and capture time, and on record
/// ID and payload digest where both sides have them (a capture indexed without its
/// ID, which another capture has, still matches its copy).
///
/// A released capture is marked only once the new index has assessed it as allowed
/// (and found a revisit's original): a released record is never assessed again, so
/// marking it before the ingest that brings its robots.txt or its original would
/// freeze it as withheld while its body is public. Until then it is not due either,
/// so no release can publish it again meanwhile.
pub(crate) fn mark(index: &mut Index) -> Result<(), Error> {
    let tx = index.conn.transaction()?;
    let pending: bool =
        tx.query_row("SELECT EXISTS (SELECT 1 FROM published)", [], |r| r.get(0))?;
    if !pending {
        return Ok(());
    }
    let matches = "FROM published p JOIN records r
          ON r.url = p.url AND r.captured = p.captured
         WHERE (p.record_id IS NULL OR r.warc_record_id IS NULL
                OR p.record_id = r.warc_record_id)
           AND (p.digest IS NULL OR p.digest = r.digest)
           AND (p.tombstone OR (r.verdict = 'allowed' AND r.pending = 0
                AND NOT EXISTS (SELECT 1 FROM revisits v
                                WHERE v.record = r.id AND v.original IS NULL)))";
    let pairs: Vec<(i64, i64, i64, bool)> = tx
        .prepare(&format!(
            "SELECT p.id, r.id, p.batch, p.tombstone {matches}"
        ))?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    for (published, record, batch, tombstone) in pairs {
        if tombstone {
            tx.execute(
                "UPDATE records SET tombstone_batch = ?2
                 WHERE id = ?1 AND tombstone_batch IS NULL",
                params![record, batch],
            )?;
        } else {
            // Published is published, whatever the new index now thinks of it; a
            // revisit that went out is no longer held for its original.
            tx.execute(
                "UPDATE records SET release_batch = ?2, held = NULL
                 WHERE id = ?1 AND release_batch IS NULL",
                params![record, batch],
            )?;
        }
        tx.execute("DELETE FROM published WHERE id = ?1", [published])?;
    }
    tx.commit()?;
    Ok(())
}
