//! The index side of a release: the batch a release writes, planned in one transaction
//! (due records, held revisits, tombstones), its records, and its completion.

use rusqlite::{params, OptionalExtension};

use super::{Entry, Index};
use crate::time::Timestamp;
use crate::Error;

/// A release batch: its number, the time it was planned for and its file's name.
pub(crate) struct Batch {
    pub id: i64,
    pub at: Timestamp,
    pub file: String,
}

/// The release batch a killed release left being written, if any.
pub(crate) fn unfinished(index: &Index) -> Result<Option<Batch>, Error> {
    Ok(index
        .conn
        .query_row(
            "SELECT id, at, file FROM releases WHERE state = 'writing' ORDER BY id LIMIT 1",
            [],
            |r| {
                Ok(Batch {
                    id: r.get(0)?,
                    at: Timestamp::from_unix(r.get(1)?),
                    file: r.get(2)?,
                })
            },
        )
        .optional()?)
}

/// Step 1 of a release: assigns due and not-yet-tombstoned records to a new batch
/// (whose file is named by `file_name` from its number), in one transaction. `None` when there is nothing to publish.
pub(crate) fn plan(
    index: &mut Index,
    at: Timestamp,
    file_name: impl Fn(i64) -> String,
) -> Result<Option<Batch>, Error> {
    let tx = index.conn.transaction()?;
    tx.execute(
        "INSERT INTO releases (at, file, state) VALUES (?1, '', 'writing')",
        [at.unix()],
    )?;
    let id = tx.last_insert_rowid();
    let file = file_name(id);
    tx.execute(
        "UPDATE releases SET file = ?2 WHERE id = ?1",
        params![id, file],
    )?;
    // Every step walks a partial index holding only unpublished rows, or the rows of
    // this batch, so the cost follows what is published, not the size of the archive.
    tx.execute(
        "UPDATE records SET release_batch = ?1
         WHERE id IN (SELECT id FROM records INDEXED BY records_due
                      WHERE release_batch IS NULL AND embargo_until IS NOT NULL
                        AND held IS NULL AND embargo_until <= ?2)
           AND verdict = 'allowed'",
        params![id, at.unix()],
    )?;
    // A revisit's payload is its original's: a public file holding the revisit without
    // its original, in this release or an earlier one, could not be replayed. Such a
    // revisit is held out of the due index until its original goes out (for ever if
    // that is flagged, or never ingested), so that later releases do not walk it again.
    let held = tx.execute(
        "UPDATE records SET release_batch = NULL, held = 1
         WHERE id IN (SELECT r.id FROM records r INDEXED BY records_by_release
                      JOIN revisits v ON v.record = r.id
                      LEFT JOIN records o ON o.id = v.original
                      WHERE r.release_batch = ?1 AND o.release_batch IS NULL)",
        [id],
    )?;
    // The revisits held for an original going out in this batch go out with it when
    // they are due themselves; otherwise they return to the due index. An original is
    // a response, never a revisit, so none of them is taken back by the step above.
    tx.execute(
        "UPDATE records SET held = NULL,
             release_batch = CASE WHEN verdict = 'allowed' AND embargo_until <= ?2
                                  THEN ?1 END
         WHERE held = 1
           AND id IN (SELECT v.record FROM records o INDEXED BY records_by_release
                      JOIN revisits v INDEXED BY revisits_by_original ON v.original = o.id
                      WHERE o.release_batch = ?1)",
        params![id, at.unix()],
    )?;
    let due: u64 = tx.query_row(
        "SELECT count(*) FROM records INDEXED BY records_by_release WHERE release_batch = ?1",
        [id],
        |r| r.get(0),
    )?;
    let tombstones = tx.execute(
        "UPDATE records SET tombstone_batch = ?1
         WHERE id IN (SELECT id FROM records INDEXED BY records_untombstoned
                      WHERE tombstone_batch IS NULL AND release_batch IS NULL
                        AND embargo_until IS NOT NULL AND embargo_until > ?2)
           AND verdict = 'allowed'",
        params![id, at.unix()],
    )?;
    if due == 0 && tombstones == 0 {
        // No batch, no file; but the revisits just held stay so, or every release
        // would walk them again.
        if held > 0 {
            tx.execute("DELETE FROM releases WHERE id = ?1", [id])?;
            tx.commit()?;
        }
        return Ok(None);
    }
    tx.commit()?;
    Ok(Some(Batch { id, at, file }))
}

/// The records batch `id` releases: revisits after the responses, so that a reader
/// going through the file in order meets each original before a revisit of it in the
/// same batch; then by embargo end.
pub(crate) fn released_in(index: &Index, id: i64) -> Result<Vec<Entry>, Error> {
    index.select(
        "WHERE r.release_batch = ?1 ORDER BY v.record IS NOT NULL, r.embargo_until, r.id",
        [id],
    )
}

/// The records batch `id` publishes tombstones of, by embargo end.
pub(crate) fn tombstoned_in(index: &Index, id: i64) -> Result<Vec<Entry>, Error> {
    index.select(
        "WHERE r.tombstone_batch = ?1 AND (r.release_batch IS NULL OR r.release_batch > ?1)
         ORDER BY r.embargo_until, r.id",
        [id],
    )
}

/// Records that batch `id`'s file is in place.
pub(crate) fn finish(index: &Index, id: i64) -> Result<(), Error> {
    index
        .conn
        .execute("UPDATE releases SET state = 'done' WHERE id = ?1", [id])?;
    Ok(())
}
