//! Recovery of what earlier releases published, read back from the public WARC files,
//! so that an index rebuilt (or restored from a backup) never publishes anything twice.
//!
//! DESIGN: the public files are the record of publication. They are what the world has
//! seen, they outlive any index, and each of their records names the capture it stands
//! for: a released record is a byte-for-byte copy of the stored one (its target URI,
//! WARC-Date, WARC-Record-ID and payload), a tombstone names its capture by
//! WARC-Refers-To, WARC-Refers-To-Target-URI and WARC-Refers-To-Date. A release log
//! kept beside the index would be one more file to lose with it, or to disagree with
//! what was in fact published. So when the index lacks a release file of `public/`,
//! the file's batch is added to `releases` (done; later batches are numbered after it)
//! and its records to `published`; every ingest, and every open, then marks the
//! captures they name as released or tombstoned by that batch, and forgets the rows
//! it matched.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use rusqlite::{params, OptionalExtension, Transaction};

use crate::capture::{read_response, target_uri, uri_field};
use crate::index::Index;
use crate::release::PUBLIC_DIR;
use crate::store::io_error;
use crate::time::Timestamp;
use crate::tombstone::TOMBSTONE_PROFILE;
use crate::warc::{Fields, Reader};
use crate::Error;

/// What one record of a public file says was published.
struct Published {
    tombstone: bool,
    url: String,
    captured: i64,
    /// The WARC-Record-ID of the capture (a tombstone's WARC-Refers-To), if it has one.
    record_id: Option<String>,
    /// The payload digest, as the index spells it: computed for a released response,
    /// as declared for a tombstone; `None` for a released revisit (the index holds its
    /// original's digest) or a tombstone of unknown content.
    digest: Option<String>,
}

/// Adds the release files of `public/` the index does not know, then marks what they
/// published. Cheap when there is nothing to do: one directory listing.
pub(crate) fn recover(index: &mut Index, archive_dir: &Path) -> Result<(), Error> {
    let public = archive_dir.join(PUBLIC_DIR);
    let mut names: Vec<String> = match fs::read_dir(&public) {
        Ok(entries) => entries
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|name| release_name(name).is_some())
            .collect(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_error(&public, e)),
    };
    names.sort();
    let mut unknown = Vec::new();
    for name in names {
        let known: Option<i64> = index
            .conn
            .query_row("SELECT id FROM releases WHERE file = ?1", [&name], |r| {
                r.get(0)
            })
            .optional()?;
        if known.is_none() {
            unknown.push(name);
        }
    }
    if !unknown.is_empty() {
        let tx = index.conn.transaction()?;
        for name in &unknown {
            import(&tx, &public, name)?;
        }
        tx.commit()?;
    }
    mark(index)
}

/// The batch number and time a release file's name (`release-<n>-<14 digits>.warc.gz`)
/// gives.
fn release_name(name: &str) -> Option<(i64, Timestamp)> {
    let rest = name.strip_prefix("release-")?.strip_suffix(".warc.gz")?;
    let (id, at) = rest.split_once('-')?;
    let id = id.parse().ok()?;
    Some((id, Timestamp::parse_14_digits(at).ok()?))
}

/// Adds release file `name` as a done batch and its records to `published`. A file
/// damaged part way is read up to the damage: what cannot be read cannot be matched,
/// and at worst is published again, never withheld.
fn import(tx: &Transaction<'_>, public: &Path, name: &str) -> Result<(), Error> {
    let Some((id, at)) = release_name(name) else {
        return Ok(());
    };
    // The number in its name, unless a batch of the index has it (a backup restored
    // after other releases ran): then the next free one.
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
    let batch = tx.last_insert_rowid();
    let path = public.join(name);
    let file = File::open(&path).map_err(|e| io_error(&path, e))?;
    let mut reader = Reader::new(BufReader::new(file), &path, 0);
    let mut insert = tx.prepare_cached(
        "INSERT INTO published (batch, tombstone, url, captured, record_id, digest)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    while let Ok(Some(record)) = reader.next(read_published) {
        if let Some(p) = record.value {
            insert.execute(params![
                batch,
                p.tombstone,
                p.url,
                p.captured,
                p.record_id,
                p.digest
            ])?;
        }
    }
    Ok(())
}

/// The visitor reading a public file's record: a released capture (`response` or
/// `revisit`) or a tombstone; `None` for the warcinfo record and anything else.
fn read_published(fields: &Fields, block: &mut dyn BufRead) -> io::Result<Option<Published>> {
    let kind = fields.get("WARC-Type").unwrap_or_default();
    let time = |name| {
        fields
            .get(name)
            .and_then(|d| Timestamp::parse_rfc3339(d).ok())
            .map(Timestamp::unix)
    };
    let tombstone = kind.eq_ignore_ascii_case("revisit")
        && fields.get("WARC-Profile").map(str::trim) == Some(TOMBSTONE_PROFILE);
    if tombstone {
        let (Some(url), Some(captured)) = (
            uri_field(fields, "WARC-Refers-To-Target-URI"),
            time("WARC-Refers-To-Date"),
        ) else {
            return Ok(None);
        };
        return Ok(Some(Published {
            tombstone,
            url,
            captured,
            record_id: fields.get("WARC-Refers-To").map(str::to_owned),
            digest: fields.get("WARC-Payload-Digest").map(str::to_owned),
        }));
    }
    let (Some(url), Some(captured)) = (target_uri(fields), time("WARC-Date")) else {
        return Ok(None);
    };
    let digest = if kind.eq_ignore_ascii_case("response") {
        match read_response(fields, block)? {
            Some(response) => Some(response.digest.as_header().to_owned()),
            None => return Ok(None),
        }
    } else if kind.eq_ignore_ascii_case("revisit") {
        None
    } else {
        return Ok(None);
    };
    Ok(Some(Published {
        tombstone,
        url,
        captured,
        record_id: fields.get("WARC-Record-ID").map(str::to_owned),
        digest,
    }))
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
fn mark(index: &mut Index) -> Result<(), Error> {
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
