//! Ingest: the pipeline a WARC file goes through, read → capture → index → assess, with
//! the file sealed into the store first; this module drives it and no other imports it.
//!
//! 1. `store` seals the file (a copy under its SHA-1, renamed into place when whole).
//! 2. `warc` reads the sealed copy record by record and `capture` reads each record as
//!    a capture (a response's head, computed digest and robots.txt body, or a revisit),
//!    on a thread of its own, ahead of the index by a bounded number of bytes.
//! 3. `index` inserts each capture's row, in one transaction per batch of records.
//! 4. `revisit` finds the originals of revisits; `assess` works out verdicts and
//!    embargo ends of what is pending; `recovery` marks captures the public files show
//!    were published by a release an older index knew of.
//!
//! Every SQL statement these steps run lives in `index`.

use std::io::BufReader;
use std::path::Path;
use std::sync::{mpsc, Arc, Condvar, Mutex};
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
use crate::redirect;
use crate::revisit;
use crate::store::{Sealed, Store};
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
    /// Of the robots.txt captures indexed, redirects (3xx) whose target, or a later
    /// hop's, the archive holds no capture of (RFC 9309 §2.3.1.2 has the crawler follow
    /// them): the rules that governed the site are unknown, so its captures are held back
    /// as having no robots.txt until a file holding the target is ingested.
    pub robots_redirects_not_captured: u64,
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
    let mut result = None;
    ingest_all(
        index,
        store,
        agent,
        archive_dir,
        &[source],
        progress,
        &mut |_, report| {
            result = Some(report);
            false
        },
    )?;
    result.unwrap_or_else(|| unreachable!("ingest_all reports each file it is given"))
}

/// Runs the pipeline for each file in turn, as [`ingest`] does, handing each file's
/// outcome to `each`, which says whether to go on. While one file is indexed and
/// assessed, the next is sealed and read ahead on another thread (up to
/// [`READ_AHEAD_BYTES`] of parsed records), so that several files keep two cores busy;
/// the index is written in the order the files are given, as one after the other would.
pub(crate) fn ingest_all(
    index: &mut Index,
    store: &Store,
    agent: &Agent,
    archive_dir: &Path,
    sources: &[&Path],
    progress: &mut dyn FnMut(u64),
    each: &mut dyn FnMut(&Path, Result<IngestReport, Error>) -> bool,
) -> Result<(), Error> {
    thread::scope(|scope| {
        let mut next = sources
            .first()
            .map(|source| Ahead::start(scope, store, source));
        for (i, source) in sources.iter().enumerate() {
            let Some(ahead) = next.take() else { break };
            let sealed = ahead.sealed();
            // The next file is sealed once this one is: the same file given twice is
            // then found in the store, not copied in twice at once.
            next = sources.get(i + 1).map(|s| Ahead::start(scope, store, s));
            let mut report = ingest_file(index, store, source, ahead, sealed, progress);
            if let Ok(r) = &mut report {
                // Before assessing: a target captured here may be what a redirect waited
                // for.
                let tx = index.begin()?;
                assessment::reassess_redirected_to(&tx, &r.stored_as)?;
                tx.commit()?;
            }
            let assessed = assess::assess_pending(index, store, agent);
            if let (Ok(r), Ok(_)) = (&mut report, &assessed) {
                r.robots_redirects_not_captured =
                    redirects_not_captured(index, store, &r.stored_as)?;
            }
            // Captures an earlier release published, which a rebuilt index learnt of
            // from the public files, are marked as such once indexed (of a damaged file
            // too).
            let recovered = recovery::recover(index, archive_dir);
            let report = report.and_then(|r| {
                assessed?;
                recovered?;
                Ok(r)
            });
            if !each(source, report) {
                break;
            }
        }
        // A file read ahead and not taken up (`each` said stop) is left as sealed: a
        // later ingest of it finds it in the store and indexes it then.
        Ok(())
    })
}

/// A file being sealed and read ahead of the index, on a thread of its own.
struct Ahead<'scope> {
    sealed: mpsc::Receiver<Result<(Sealed, Leftovers), Error>>,
    records: mpsc::Receiver<Read>,
    budget: Arc<Budget>,
    thread: Option<thread::ScopedJoinHandle<'scope, ()>>,
}

impl<'scope> Ahead<'scope> {
    /// Starts sealing `source` and then reading its records.
    fn start<'env>(
        scope: &'scope thread::Scope<'scope, 'env>,
        store: &'env Store,
        source: &'env Path,
    ) -> Ahead<'scope> {
        let (send_sealed, sealed) = mpsc::sync_channel(1);
        // The budget bounds what waits in the channel; the count only saves a wake-up
        // per record.
        let (send, records) = mpsc::sync_channel::<Read>(READ_AHEAD);
        let budget = Arc::new(Budget::default());
        let reader_budget = Arc::clone(&budget);
        let thread = scope.spawn(move || {
            // Before copying: the space a killed ingest's partial copy holds (as much as
            // a WARC file) may be what this copy needs.
            let sealed = store
                .remove_abandoned()
                .and_then(|left| Ok((store.seal(source, &mut |_| {})?, left)));
            let name = sealed.as_ref().ok().map(|(s, _)| s.name.clone());
            if send_sealed.send(sealed).is_err() {
                return;
            }
            let Some(name) = name else { return };
            let path = store.path(&name);
            let file = match store.open(&name) {
                Ok(file) => file,
                Err(e) => {
                    let _ = send.send(Err(e));
                    return;
                }
            };
            read_ahead(file, &path, &reader_budget, send);
        });
        Ahead {
            sealed,
            records,
            budget,
            thread: Some(thread),
        }
    }

    /// Waits for the file to be sealed.
    fn sealed(&self) -> Result<(Sealed, Leftovers), Error> {
        self.sealed
            .recv()
            .unwrap_or_else(|_| unreachable!("the reading thread sends the seal first"))
    }

    /// Stops the reading thread and waits for it to end.
    fn stop(mut self) {
        self.budget.close();
        // Dropping the receiver wakes a reader waiting to send.
        drop(std::mem::replace(
            &mut self.records,
            mpsc::sync_channel(0).1,
        ));
        if let Some(thread) = self.thread.take() {
            // A panic there is passed on, as the scope would.
            if let Err(panic) = thread.join() {
                std::panic::resume_unwind(panic);
            }
        }
    }
}

impl Drop for Ahead<'_> {
    /// A file read ahead and not taken up (the caller stopped) lets its reader end.
    fn drop(&mut self) {
        self.budget.close();
    }
}

/// Bytes of parsed records a reading thread may hold ahead of the index: room for a
/// whole file's headers (12,000 pages take about 6 MB) while the file before it is
/// assessed, and a bound on memory whatever the file holds (a record's share is its
/// WARC header, HTTP head and robots.txt body, each capped by the readers; never its
/// payload, which is digested as it streams by).
const READ_AHEAD_BYTES: usize = 32 << 20;

/// Records the channel holds at most.
const READ_AHEAD: usize = 1 << 16;

/// What one record read ahead weighs against [`READ_AHEAD_BYTES`]: its text, and a
/// fixed share for its parts' own allocations.
fn weight(record: &Record<Option<Capture>>) -> usize {
    let fields: usize = record.fields.iter().map(|(n, v)| n.len() + v.len()).sum();
    let capture = match &record.value {
        Some(Capture::Response(r)) => {
            let head: usize = r.head.fields.iter().map(|(n, v)| n.len() + v.len()).sum();
            let body = match &r.robots_body {
                Some(RobotsBody::Read(b)) => b.len(),
                _ => 0,
            };
            head + body
        }
        Some(Capture::Revisit(v)) => v
            .head
            .as_ref()
            .map_or(0, |h| h.fields.iter().map(|(n, v)| n.len() + v.len()).sum()),
        None => 0,
    };
    fields + capture + 512
}

/// A byte budget shared by a reading thread (which takes) and the index side (which
/// gives back), so that the reader waits rather than run ahead without bound.
#[derive(Default)]
struct Budget {
    state: Mutex<(usize, bool)>,
    changed: Condvar,
}

impl Budget {
    /// Takes `n` bytes, waiting while the budget is spent (a record heavier than the
    /// whole budget goes alone); `false` once closed.
    fn take(&self, n: usize) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while !state.1 && state.0 > 0 && state.0 + n > READ_AHEAD_BYTES {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.0 += n;
        !state.1
    }

    fn give(&self, n: usize) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 = state.0.saturating_sub(n);
        self.changed.notify_all();
    }

    fn close(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.changed.notify_all();
    }
}

fn ingest_file(
    index: &mut Index,
    store: &Store,
    source: &Path,
    ahead: Ahead<'_>,
    sealed: Result<(Sealed, Leftovers), Error>,
    progress: &mut dyn FnMut(u64),
) -> Result<IngestReport, Error> {
    let (sealed, removed_leftovers) = match sealed {
        Ok(sealed) => sealed,
        Err(e) => {
            ahead.stop();
            return Err(e);
        }
    };
    // The copy is reported whole once made: the sealing thread cannot call `progress`.
    progress(sealed.size);
    let known = match files::by_sha1(index, &sealed.sha1) {
        Ok(known) => known,
        Err(e) => {
            ahead.stop();
            return Err(e);
        }
    };
    let mut report = IngestReport {
        stored_as: sealed.name.clone(),
        bytes: sealed.size,
        removed_leftovers,
        ..IngestReport::default()
    };
    let file_id = match known {
        Some((_, true)) => {
            ahead.stop();
            report.already_ingested = true;
            return Ok(report);
        }
        // Interrupted before: index again; rows already there are kept as they are.
        Some((id, false)) => id,
        None => match files::add(
            index,
            &sealed.name,
            &sealed.sha1,
            &source.display().to_string(),
            sealed.size,
        ) {
            Ok(id) => id,
            Err(e) => {
                ahead.stop();
                return Err(e);
            }
        },
    };
    let read = index_records(
        index,
        (file_id, Pass::Ingest),
        &ahead.records,
        &ahead.budget,
        &mut report,
        progress,
    );
    // The reading thread is done with the stored file before it may be taken out.
    ahead.stop();
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

/// A record as the reading thread hands it over, with the file position after it;
/// `None` at the end of the file.
type Read = Result<Option<(Record<Option<Capture>>, u64)>, Error>;

/// Reads the records of the stored `file` (at `path`) as captures into `send`, in file
/// order, ahead of the index but within `budget`. It stops at the end or at an error,
/// both sent on, or when the index side stops (the channel closed or the budget shut).
fn read_ahead(file: std::fs::File, path: &Path, budget: &Budget, send: mpsc::SyncSender<Read>) {
    let mut reader = Reader::new(BufReader::with_capacity(256 * 1024, file), path, 0);
    loop {
        let read = reader
            .next(read_capture)
            .map(|r| r.map(|record| (record, reader.position())));
        let last = !matches!(read, Ok(Some(_)));
        let weight = match &read {
            Ok(Some((record, _))) => weight(record),
            _ => 0,
        };
        if !budget.take(weight) || send.send(read).is_err() || last {
            return;
        }
    }
}

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
    let budget = Budget::default();
    thread::scope(|scope| {
        let reader_budget = &budget;
        // Moved in: should the thread end without a word (a panic), the channel closes.
        scope.spawn(move || {
            read_ahead(file, &path, reader_budget, send);
        });
        let indexed = index_records(index, (file_id, pass), &records, &budget, report, progress);
        budget.close();
        drop(records);
        indexed
    })
}

/// Indexes the records `records` brings, as [`read_file`] says.
fn index_records(
    index: &mut Index,
    (file_id, pass): (i64, Pass),
    records: &mpsc::Receiver<Read>,
    budget: &Budget,
    report: &mut IngestReport,
    progress: &mut dyn FnMut(u64),
) -> Result<(), Error> {
    let mut last_pos = 0;
    loop {
        let tx = index.begin()?;
        let mut done = true;
        for _ in 0..RECORDS_PER_COMMIT {
            let (record, pos) = match records.recv() {
                Ok(Ok(Some((record, pos)))) => {
                    budget.give(weight(&record));
                    (record, pos)
                }
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

/// How many of the robots.txt redirects indexed from `file` lead to a URL the archive
/// holds no capture of.
fn redirects_not_captured(index: &mut Index, store: &Store, file: &str) -> Result<u64, Error> {
    let tx = index.begin()?;
    let mut missing = 0;
    for redirect in assessment::redirects_in_file(&tx, file)? {
        if matches!(
            redirect::follow(&tx, store, &redirect)?,
            redirect::Followed::NotCaptured { .. }
        ) {
            missing += 1;
        }
    }
    Ok(missing)
}
