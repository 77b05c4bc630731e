//! The index side of the sealed store: a row per stored file, with whether its ingest
//! read it to the end.

use rusqlite::{params, OptionalExtension};

use super::Index;
use crate::Error;

/// A stored file's row: its ID and whether an ingest read it whole.
pub(crate) fn by_sha1(index: &Index, sha1: &str) -> Result<Option<(i64, bool)>, Error> {
    Ok(index
        .conn
        .query_row(
            "SELECT id, complete FROM files WHERE sha1 = ?1",
            [sha1],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

/// Adds a row for a file sealed as `name` (of SHA-1 `sha1`, from `source`); its ID.
pub(crate) fn add(
    index: &Index,
    name: &str,
    sha1: &str,
    source: &str,
    size: u64,
) -> Result<i64, Error> {
    index.conn.execute(
        "INSERT INTO files (name, sha1, source, size) VALUES (?1, ?2, ?3, ?4)",
        params![name, sha1, source, size],
    )?;
    Ok(index.conn.last_insert_rowid())
}

/// Removes file row `id` (which no record row points at).
pub(crate) fn remove(index: &Index, id: i64) -> Result<(), Error> {
    index
        .conn
        .execute("DELETE FROM files WHERE id = ?1", [id])?;
    Ok(())
}

/// Whether any index row points into file `id`.
pub(crate) fn has_records(index: &Index, id: i64) -> Result<bool, Error> {
    Ok(index.conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM records WHERE file_id = ?1)",
        [id],
        |r| r.get(0),
    )?)
}

/// Records that file `id` was read to its end.
pub(crate) fn mark_complete(index: &Index, id: i64) -> Result<(), Error> {
    index
        .conn
        .execute("UPDATE files SET complete = 1 WHERE id = ?1", [id])?;
    Ok(())
}

/// Every stored file's ID and name, in the order they were ingested.
pub(crate) fn all(index: &Index) -> Result<Vec<(i64, String)>, Error> {
    Ok(index
        .conn
        .prepare("SELECT id, name FROM files ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?)
}
