//! Bulk release: due records copied from the sealed store into a new public WARC file,
//! newly embargoed ones as tombstones, driven by the index sorted by embargo end.
//!
//! Exactly once, whatever the crash: (1) one transaction assigns every due record (and
//! every record still lacking a tombstone) to a new batch; (2) the batch's file is written
//! under a temporary name, synced, and renamed into place; (3) one transaction marks the
//! batch done. A rerun finds an unfinished batch and either finds its file in place
//! (rename is atomic: it is complete) or writes it again from scratch.

use std::fs::{self, File};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

use rusqlite::{params, OptionalExtension};

use crate::disclosure::publishable;
use crate::http::{HeaderFields, ResponseHead};
use crate::index::{Entry, Index};
use crate::store::{io_error, Store};
use crate::time::Timestamp;
use crate::tombstone::revisit_record;
use crate::warc::{Fields, Writer};
use crate::Error;

/// The folder of public WARC files inside an archive directory.
pub const PUBLIC_DIR: &str = "public";

/// The points of a release that a crash test may stop at (see
/// [`crate::Archive::release_observed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleaseStep {
    /// The batch is planned and committed; nothing is written yet.
    Planned,
    /// The n-th record (from 1) of the batch was written to the temporary file.
    Wrote(usize),
    /// The temporary file is complete and synced, not yet renamed.
    Synced,
    /// The file is in place under its public name, the batch not yet marked done.
    Renamed,
}

/// What a release published.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReleaseReport {
    /// Public WARC files written, in order.
    pub files: Vec<PathBuf>,
    /// Records published with their body.
    pub released: u64,
    /// Tombstone records published for records still under embargo.
    pub tombstones: u64,
    /// Whether an interrupted release was finished first.
    pub resumed: bool,
}

struct Batch {
    id: i64,
    at: Timestamp,
    file: String,
}

pub(crate) fn release(
    index: &mut Index,
    store: &Store,
    archive_dir: &Path,
    at: Timestamp,
    observe: &mut dyn FnMut(ReleaseStep) -> io::Result<()>,
) -> Result<ReleaseReport, Error> {
    let public = archive_dir.join(PUBLIC_DIR);
    fs::create_dir_all(&public).map_err(|e| io_error(&public, e))?;
    let mut report = ReleaseReport::default();
    let unfinished = index
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
        .optional()?;
    if let Some(batch) = unfinished {
        report.resumed = true;
        publish(index, store, &public, &batch, &mut report, observe)?;
    }
    if let Some(batch) = plan(index, at)? {
        observe(ReleaseStep::Planned).map_err(|e| io_error(&public, e))?;
        publish(index, store, &public, &batch, &mut report, observe)?;
    }
    Ok(report)
}

/// Step 1: assigns due and not-yet-tombstoned records to a new batch, in one
/// transaction. `None` when there is nothing to publish.
fn plan(index: &mut Index, at: Timestamp) -> Result<Option<Batch>, Error> {
    let tx = index.conn.transaction()?;
    tx.execute(
        "INSERT INTO releases (at, file, state) VALUES (?1, '', 'writing')",
        [at.unix()],
    )?;
    let id = tx.last_insert_rowid();
    let file = format!("release-{id:06}-{}.warc.gz", at.fourteen_digits());
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

/// Steps 2 and 3 for one batch.
fn publish(
    index: &mut Index,
    store: &Store,
    public: &Path,
    batch: &Batch,
    report: &mut ReleaseReport,
    observe: &mut dyn FnMut(ReleaseStep) -> io::Result<()>,
) -> Result<(), Error> {
    // Revisits after the responses, so that a reader going through the file in order
    // meets each original before a revisit of it in the same batch.
    let released = index.select(
        "WHERE r.release_batch = ?1 ORDER BY v.record IS NOT NULL, r.embargo_until, r.id",
        [batch.id],
    )?;
    let tombstoned = index.select(
        "WHERE r.tombstone_batch = ?1 AND (r.release_batch IS NULL OR r.release_batch > ?1)
         ORDER BY r.embargo_until, r.id",
        [batch.id],
    )?;
    let path = public.join(&batch.file);
    // A file under its public name was renamed into place whole: it is complete.
    if !path.exists() {
        let part = public.join(format!(".{}.part", batch.file));
        write_file(store, &part, batch, &released, &tombstoned, observe)?;
        observe(ReleaseStep::Synced).map_err(|e| io_error(&part, e))?;
        fs::rename(&part, &path).map_err(|e| io_error(&path, e))?;
        sync_dir(public)?;
        observe(ReleaseStep::Renamed).map_err(|e| io_error(&path, e))?;
    }
    index.conn.execute(
        "UPDATE releases SET state = 'done' WHERE id = ?1",
        [batch.id],
    )?;
    report.files.push(path);
    report.released += released.len() as u64;
    report.tombstones += tombstoned.len() as u64;
    Ok(())
}

fn write_file(
    store: &Store,
    part: &Path,
    batch: &Batch,
    released: &[Entry],
    tombstoned: &[Entry],
    observe: &mut dyn FnMut(ReleaseStep) -> io::Result<()>,
) -> Result<(), Error> {
    let io = |e| io_error(part, e);
    let file = File::create(part).map_err(io)?;
    let mut out = Writer::new(BufWriter::new(file));
    let (info, block) = warcinfo(batch, released.len(), tombstoned.len());
    out.write_record(&info, &block).map_err(io)?;
    let mut n = 0;
    let mut records = store.reader();
    for entry in released {
        let stored = publishable(&mut records, entry, batch.at)?;
        if stored.gzipped {
            out.write_member(&stored.raw).map_err(io)?;
        } else {
            out.write_plain_record(&stored.raw).map_err(io)?;
        }
        n += 1;
        observe(ReleaseStep::Wrote(n)).map_err(io)?;
    }
    for entry in tombstoned {
        let stored = records.read(entry)?;
        let head = ResponseHead::read(&mut &stored.block[..])
            .ok()
            .flatten()
            .unwrap_or_else(|| ResponseHead {
                status: entry.status,
                status_line: format!("HTTP/1.1 {}", entry.status).into_bytes(),
                fields: HeaderFields::new(),
            });
        let (fields, block) = revisit_record(entry, &head);
        out.write_record(&fields, &block).map_err(io)?;
        n += 1;
        observe(ReleaseStep::Wrote(n)).map_err(io)?;
    }
    let file = out.finish().map_err(io)?;
    let file = file
        .into_inner()
        .map_err(|e| io_error(part, e.into_error()))?;
    file.sync_all().map_err(io)
}

fn warcinfo(batch: &Batch, released: usize, tombstones: usize) -> (Fields, Vec<u8>) {
    let block = format!(
        "software: robots-archive/{}\r\nformat: WARC File Format 1.1\r\n\
         description: Archive-Embargo release {} as of {}: {released} released records, \
         {tombstones} tombstones (revisit records without payload)\r\n",
        env!("CARGO_PKG_VERSION"),
        batch.id,
        batch.at
    )
    .into_bytes();
    let mut f = Fields::new();
    f.push("WARC-Type", "warcinfo");
    let key = format!("{}:{}", batch.id, batch.file);
    f.push(
        "WARC-Record-ID",
        crate::tombstone::derived_record_id("warcinfo", &key),
    );
    f.push("WARC-Date", batch.at.rfc3339());
    f.push("WARC-Filename", batch.file.as_str());
    f.push("Content-Type", "application/warc-fields");
    (f, block)
}

/// Makes a rename durable: on Unix the directory entry is synced separately.
fn sync_dir(dir: &Path) -> Result<(), Error> {
    #[cfg(unix)]
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io_error(dir, e))?;
    Ok(())
}
