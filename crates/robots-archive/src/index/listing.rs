//! The index side of `/cdx`: the captures whose SURT keys a query selects, in a time
//! range, each prefix read as one closed range of the key index.

use rusqlite::types::Value;

use super::{Entry, Index};
use crate::time::Timestamp;
use crate::Error;

/// The SURT keys a query selects: one key, or every key starting with one of some
/// prefixes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum KeyMatch {
    Exact(String),
    Prefixes(Vec<String>),
}

/// Up to `limit` captures with keys `keys`, captured in `[from, to]` (unbounded where
/// `None`), sorted by key and time.
pub(crate) fn by_keys(
    index: &Index,
    keys: KeyMatch,
    from: Option<Timestamp>,
    to: Option<Timestamp>,
    limit: u32,
) -> Result<Vec<Entry>, Error> {
    let mut params: Vec<Value> = Vec::new();
    let mut bind = |value: Value| {
        params.push(value);
        format!("?{}", params.len())
    };
    let keys = match keys {
        KeyMatch::Exact(key) => format!("r.urlkey = {}", bind(key.into())),
        KeyMatch::Prefixes(prefixes) => prefixes
            .into_iter()
            .map(|prefix| {
                // A closed range of the key index, so that a prefix with few or no keys
                // costs a few steps, not a walk over every key after it. Text compares
                // octet by octet, and no UTF-8 holds 0xFF, so every key starting with
                // the prefix sorts below the prefix followed by that octet (bound as a
                // blob and cast, since it is not UTF-8).
                let mut end = prefix.clone().into_bytes();
                end.push(0xFF);
                let end = bind(Value::Blob(end));
                let start = bind(prefix.into());
                format!("(r.urlkey >= {start} AND r.urlkey < CAST({end} AS TEXT))")
            })
            .collect::<Vec<_>>()
            .join(" OR "),
    };
    let from = bind(from.map_or(i64::MIN, Timestamp::unix).into());
    let to = bind(to.map_or(i64::MAX, Timestamp::unix).into());
    let limit = bind(i64::from(limit).into());
    let clause = format!(
        "WHERE ({keys}) AND r.captured >= {from} AND r.captured <= {to}
         ORDER BY r.urlkey, r.captured, r.id LIMIT {limit}"
    );
    index.select(&clause, rusqlite::params_from_iter(params))
}

/// A test fixture: an index of `n` captures of `http://b.test/<i>`, written directly.
#[cfg(test)]
pub(crate) fn index_of(dir: &std::path::Path, n: usize) -> Index {
    let index = Index::open(dir, true).unwrap();
    index
        .conn
        .execute(
            "INSERT INTO files (id, name, sha1, source, size) VALUES (1, 'f', 's', 'f', 0)",
            [],
        )
        .unwrap();
    // One transaction: a commit per row would sync the file 5,000 times.
    index.conn.execute_batch("BEGIN").unwrap();
    for i in 0..n {
        let url = format!("http://b.test/{i}");
        index
            .conn
            .execute(
                "INSERT INTO records (file_id, offset, length, url, urlkey, origin,
                     captured, status, digest)
                 VALUES (1, ?1, 1, ?2, ?3, 'http://b.test', 0, 200, 'd')",
                rusqlite::params![i, url, crate::url::surt(&url)],
            )
            .unwrap();
    }
    index.conn.execute_batch("COMMIT").unwrap();
    index
}
