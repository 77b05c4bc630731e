//! Ingest: the pipeline a WARC file goes through, read → capture → index → assess, with
//! the file sealed into the store first; this module drives it and no other imports it.
//!
//! 1. `store` seals the file (a copy under its SHA-1, renamed into place when whole).
//! 2. `warc` reads the sealed copy record by record and `capture` reads each record as
//!    a capture (a response's head, computed digest and robots.txt body, or a revisit).
//! 3. `index` inserts each capture's row, in one transaction per batch of records.
//! 4. `revisit` finds the originals of revisits; `assess` works out verdicts and
//!    embargo ends of what is pending; `recovery` marks captures the public files show
//!    were published by a release an older index knew of.
//!
//! Every SQL statement these steps run lives in `index`.

use std::io::BufReader;
use std::path::Path;
use std::sync::mpsc;
use std::thread;

use robots::Agent;

use crate::assess;
use crate::capture::{capture_time, read_capture, target_uri, Capture, RobotsBody};
use crate::digest::Check;
use crate::incoming::Leftovers;
use crate::index::captures::{index_response, index_revisit, upgrade_response, Indexed, Place};
use crate::index::revisits;
use crate::index::{assessment, files, Index};
use crate::recovery;
use crate::revisit;
use crate::store::Store;
use crate::warc::{Reader, Record};
use crate::Error;

/// How many records go into one index transaction: enough to make commits cheap,
/// few enough that an interrupted ingest loses little work.
const RECORDS_PER_COMMIT: usize = 2000;

/// What one ingest did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IngestReport {
    /// The file's name in the sealed store.
    pub stored_as: String,
    /// The file had been ingested completely before: nothing was done.
    pub already_ingested: bool,
    /// Response records newly indexed (robots.txt captures included).
    pub responses: u64,
    /// Revisit records newly indexed: captures whose payload is that of an earlier
    /// capture (WARC 1.1 §6.7, profiles identical-payload-digest and server-not-modified).
    pub revisits: u64,
    /// Of those, revisits whose original is not in the archive (yet): indexed, but not
    /// replayed or released until a file holding the original is ingested.
    pub revisits_without_original: u64,
    /// Response and revisit records already in the index from another file (same
    /// WARC-Record-ID, URL, date and payload).
    pub duplicates: u64,
    /// Of the responses indexed, robots.txt captures.
    pub robots_txt: u64,
    /// Of those, 2xx robots.txt captures whose body could not be decoded (a content
    /// coding other than gzip or deflate, or damaged data). They govern nothing: an
    /// unreadable file is not read as "no rules", so until a readable robots.txt of the
    /// site is ingested, its captures are held back as having none.
    pub unreadable_robots_txt: u64,
    /// Of the responses indexed, those whose WARC-Payload-Digest (SHA-1 or SHA-256, in
    /// hex or base32) does not match their payload, or is malformed. The archive goes by
    /// the SHA-1 it computes from the payload it stores, whatever a record declares, so
    /// these are indexed under the computed digest: a damaged record, or a tool that
    /// digests something else than the payload stored.
    pub digest_mismatches: u64,
    /// Of the responses indexed, those whose WARC-Record-ID an indexed record with
    /// another URL, date or payload already has (IDs are meant to be unique, but tools
    /// err): indexed all the same, without the ID, so that no capture is lost.
    pub conflicting_ids: u64,
    /// HTTP responses and revisits without a valid WARC-Date (W3C-DTF,
    /// `2026-01-31T12:00:00Z` or coarser): with no capture time there is no embargo end,
    /// so they are not indexed.
    pub undated: u64,
    /// Records that are not captures (requests, metadata, warcinfo, revisits of another
    /// profile such as this archive's own tombstones…), skipped.
    pub skipped: u64,
    /// Size of the file in bytes.
    pub bytes: u64,
    /// Partial copies that earlier ingests, killed mid-copy, left in the store and that
    /// this one removed, their writers being certainly gone (see the crate docs).
    pub removed_leftovers: Leftovers,
}

/// Why a file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Its captures are indexed.
    Ingest,
    /// It was ingested by a version that kept declared digests and skipped revisits:
    /// the digests of its indexed responses are computed, its revisits indexed.
    Upgrade,
}

/// Runs the whole pipeline for one file (see the module docs). Assessment also finishes
/// what an interrupted ingest left pending, and runs, as recovery does, even when reading
/// the file failed part way: what a damaged file held before the damage is kept.
pub(crate) fn ingest(
    index: &mut Index,
    store: &Store,
    agent: &Agent,
    archive_dir: &Path,
    source: &Path,
    progress: &mut dyn FnMut(u64),
) -> Result<IngestReport, Error> {
    let report = ingest_file(index, store, source, progress);
    let assessed = assess::assess_pending(index, agent);
    // Captures an earlier release published, which a rebuilt index learnt of from the
    // public files, are marked as such once indexed (of a damaged file too).
    let recovered = recovery::recover(index, archive_dir);
    let report = report?;
    assessed?;
    recovered?;
    Ok(report)
}

fn ingest_file(
    index: &mut Index,
    store: &Store,
    source: &Path,
    progress: &mut dyn FnMut(u64),
) -> Result<IngestReport, Error> {
    // Before copying: the space a killed ingest's partial copy holds (as much as a WARC
    // file) may be what this copy needs.
    let removed_leftovers = store.remove_abandoned()?;
    let sealed = store.seal(source, progress)?;
    let known = files::by_sha1(index, &sealed.sha1)?;
    let mut report = IngestReport {
        stored_as: sealed.name.clone(),
        bytes: sealed.size,
        removed_leftovers,
        ..IngestReport::default()
    };
    let file_id = match known {
        Some((_, true)) => {
            report.already_ingested = true;
            return Ok(report);
        }
        // Interrupted before: index again; rows already there are kept as they are.
        Some((id, false)) => id,
        None => files::add(
            index,
            &sealed.name,
            &sealed.sha1,
            &source.display().to_string(),
            sealed.size,
        )?,
    };
    let read = read_file(
        index,
        store,
        (file_id, &sealed.name),
        Pass::Ingest,
        &mut report,
        progress,
    );
    if read.is_err() && known.is_none() && !files::has_records(index, file_id)? {
        // Nothing of the file was indexed (it is not a WARC file, or it is damaged before
        // its first new capture): the failed ingest leaves the index and the store as it
        // found them, rather than a sealed file no record points at. One that was in the
        // store before stays (`unseal` knows): an earlier ingest may have indexed it.
        files::remove(index, file_id)?;
        store.unseal(&sealed)?;
    }
    // The revisits read before any damage are kept too, so they are resolved either way;
    // this file's responses may also be the originals of revisits ingested before.
    revisit::resolve_pending(index, store)?;
    // Damage is named in the file the user gave, at the same byte: the stored copy is
    // sealed, so it is not the file to cut or to crawl again.
    read.map_err(|e| match e {
        Error::Warc {
            offset, problem, ..
        } => Error::Warc {
            path: source.to_owned(),
            offset,
            problem,
        },
        other => other,
    })?;
    report.revisits_without_original = revisits::unresolved_in(index, file_id)?;
    files::mark_complete(index, file_id)?;
    Ok(report)
}

/// Reads every stored file again for an index of a layout before 3: each indexed
/// response's digest is computed from its payload (those layouts kept the digest the
/// record declared, as spelt), the revisit records they skipped are indexed, and every
/// unreleased capture is assessed again. A file damaged part way is read up to the
/// damage, as its ingest was.
pub(crate) fn upgrade_files(index: &mut Index, store: &Store) -> Result<(), Error> {
    for (id, name) in files::all(index)? {
        let mut report = IngestReport::default();
        match read_file(
            index,
            store,
            (id, &name),
            Pass::Upgrade,
            &mut report,
            &mut |_| {},
        ) {
            Ok(()) | Err(Error::Warc { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    revisit::resolve_pending(index, store)?;
    assessment::reassess_unreleased(index)?;
    Ok(())
}

/// Records read ahead of the index: enough to keep both threads busy, few enough that
/// memory stays small (a record in flight is its header and head, never its payload).
const READ_AHEAD: usize = 256;

/// A record as the reading thread hands it over, with the file position after it;
/// `None` at the end of the file.
type Read = Result<Option<(Record<Option<Capture>>, u64)>, Error>;

/// Reads the stored file `name` (row `file_id`) record by record, indexing what `pass`
/// asks, committed every [`RECORDS_PER_COMMIT`] records. A thread of its own inflates,
/// parses and digests the records, in file order, while this one writes the index: the
/// two take about as long, and the index's writes stay on one connection.
fn read_file(
    index: &mut Index,
    store: &Store,
    (file_id, name): (i64, &str),
    pass: Pass,
    report: &mut IngestReport,
    progress: &mut dyn FnMut(u64),
) -> Result<(), Error> {
    let path = store.path(name);
    let file = store.open(name)?;
    let (send, records) = mpsc::sync_channel::<Read>(READ_AHEAD);
    thread::scope(|scope| {
        scope.spawn(move || {
            let mut reader = Reader::new(BufReader::with_capacity(256 * 1024, file), &path, 0);
            loop {
                let read = reader
                    .next(read_capture)
                    .map(|r| r.map(|record| (record, reader.position())));
                let last = !matches!(read, Ok(Some(_)));
                // A closed channel means the index side stopped (an error): so does this.
                if send.send(read).is_err() || last {
                    return;
                }
            }
        });
        index_records(index, (file_id, pass), records, report, progress)
    })
}

/// Indexes the records `records` brings, as [`read_file`] says.
fn index_records(
    index: &mut Index,
    (file_id, pass): (i64, Pass),
    records: mpsc::Receiver<Read>,
    report: &mut IngestReport,
    progress: &mut dyn FnMut(u64),
) -> Result<(), Error> {
    let mut last_pos = 0;
    loop {
        let tx = index.begin()?;
        let mut done = true;
        for _ in 0..RECORDS_PER_COMMIT {
            let (record, pos) = match records.recv() {
                Ok(Ok(Some(read))) => read,
                // The reading thread ends only after sending the end or an error, or
                // by a panic, which the scope passes on: either way nothing is missed.
                Ok(Ok(None)) | Err(_) => break,
                // The records before the damage are whole: they are kept, and the file
                // stays incomplete, so every ingest of it reports the damage again.
                Ok(Err(e)) => {
                    tx.commit()?;
                    return Err(e);
                }
            };
            progress(pos - last_pos);
            last_pos = pos;
            done = false;
            let (Some(capture), Some(url)) = (record.value, target_uri(&record.fields)) else {
                report.skipped += 1;
                continue;
            };
            let Some(captured) = capture_time(&record.fields) else {
                report.undated += 1;
                continue;
            };
            let at = Place {
                file_id,
                offset: record.location.offset,
                length: record.location.length,
            };
            let fields = &record.fields;
            match (capture, pass) {
                (Capture::Response(response), Pass::Upgrade) => {
                    upgrade_response(&tx, at, &response)?;
                }
                (Capture::Response(response), Pass::Ingest) => {
                    let robots = response.robots_body.is_some();
                    let unreadable = matches!(response.robots_body, Some(RobotsBody::Unreadable))
                        && (200..=299).contains(&response.head.status);
                    let mismatch = response.check == Check::Disagrees;
                    match index_response(&tx, at, fields, &url, captured, response)? {
                        Indexed::Duplicate => report.duplicates += 1,
                        indexed => {
                            report.responses += 1;
                            report.robots_txt += u64::from(robots);
                            report.unreadable_robots_txt += u64::from(unreadable);
                            report.digest_mismatches += u64::from(mismatch);
                            report.conflicting_ids += u64::from(indexed == Indexed::WithoutId);
                        }
                    }
                }
                (Capture::Revisit(visit), _) => {
                    match index_revisit(&tx, at, fields, &url, captured, &visit)? {
                        Indexed::Duplicate => report.duplicates += 1,
                        indexed => {
                            report.revisits += 1;
                            report.conflicting_ids += u64::from(indexed == Indexed::WithoutId);
                        }
                    }
                }
            }
        }
        tx.commit()?;
        if done {
            return Ok(());
        }
    }
}
