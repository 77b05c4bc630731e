//! The index side of `status`: counts of captures by standing at a time, and the
//! embargo ends to come, each an index range.

use rusqlite::{params, OptionalExtension};

use super::Index;
use crate::time::Timestamp;
use crate::Error;

/// How many captures stand how at one time.
pub(crate) struct Counts {
    pub records: u64,
    pub released: u64,
    pub embargoed: u64,
    pub disallowed: u64,
    pub published: u64,
}

/// The counts at `at`.
pub(crate) fn counts(index: &Index, at: Timestamp) -> Result<Counts, Error> {
    let count = |sql: &str| -> Result<u64, Error> {
        Ok(index.conn.query_row(sql, [at.unix()], |r| r.get(0))?)
    };
    Ok(Counts {
        records: count("SELECT count(*) FROM records WHERE ?1 = ?1")?,
        released: count(
            "SELECT count(*) FROM records WHERE verdict = 'allowed' AND embargo_until <= ?1",
        )?,
        embargoed: count(
            "SELECT count(*) FROM records WHERE verdict = 'allowed' AND embargo_until > ?1",
        )?,
        disallowed: count("SELECT count(*) FROM records WHERE verdict = 'disallowed' AND ?1 = ?1")?,
        published: count(
            "SELECT count(*) FROM records r JOIN releases b ON b.id = r.release_batch
             WHERE b.state = 'done' AND ?1 = ?1",
        )?,
    })
}

/// The first embargo end after `from` (Unix seconds) of an allowed capture not yet
/// released. Held revisits wait for their original, not for a date, so none is counted.
pub(crate) fn next_end_after(index: &Index, from: i64) -> Result<Option<i64>, Error> {
    Ok(index
        .conn
        .query_row(
            "SELECT embargo_until FROM records
             WHERE release_batch IS NULL AND embargo_until IS NOT NULL AND held IS NULL
               AND embargo_until > ?1 AND verdict = 'allowed'
             ORDER BY embargo_until LIMIT 1",
            [from],
            |r| r.get(0),
        )
        .optional()?)
}

/// How many allowed, unreleased captures (held revisits aside) have their embargo end
/// in `[from, until)`.
pub(crate) fn ending_between(index: &Index, from: i64, until: i64) -> Result<u64, Error> {
    Ok(index.conn.query_row(
        "SELECT count(*) FROM records
         WHERE release_batch IS NULL AND embargo_until IS NOT NULL AND held IS NULL
           AND embargo_until >= ?1 AND embargo_until < ?2 AND verdict = 'allowed'",
        params![from, until],
        |r| r.get(0),
    )?)
}
