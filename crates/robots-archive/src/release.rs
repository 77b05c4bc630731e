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

use crate::disclosure::publishable;
use crate::http::{HeaderFields, ResponseHead};
use crate::index::releases::{self, Batch};
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
    let unfinished = releases::unfinished(index)?;
    if let Some(batch) = unfinished {
        report.resumed = true;
        publish(index, store, &public, &batch, &mut report, observe)?;
    }
    let name = |id: i64| format!("release-{id:06}-{}.warc.gz", at.fourteen_digits());
    if let Some(batch) = releases::plan(index, at, name)? {
        observe(ReleaseStep::Planned).map_err(|e| io_error(&public, e))?;
        publish(index, store, &public, &batch, &mut report, observe)?;
    }
    Ok(report)
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
    let released = releases::released_in(index, batch.id)?;
    let tombstoned = releases::tombstoned_in(index, batch.id)?;
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
    releases::finish(index, batch.id)?;
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
