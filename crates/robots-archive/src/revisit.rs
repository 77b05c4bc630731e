//! Revisit records (WARC 1.1 §6.7): a capture of a URL at its own time whose payload is
//! that of an earlier record, which deduplicating crawlers (wget `--warc-dedup`,
//! Heritrix, warcprox, Browsertrix) write instead of storing the payload again. Here their
//! originals are found; `capture` reads them, and `disclosure` replays their originals'
//! payloads.

use crate::capture::RevisitProfile;
use crate::digest::{Check, PayloadHasher};
use crate::http::ResponseHead;
use crate::index::revisits::{self, response_of, Original, Unresolved};
use crate::index::{entry_in, Index, Tx};
use crate::store::Store;
use crate::url::is_robots_txt;
use crate::Error;

/// Finds the original of every revisit that has none yet, as WARC 1.1 §6.7 names it: the
/// record whose WARC-Record-ID is its `WARC-Refers-To`; else the capture of its
/// `WARC-Refers-To-Target-URI` at its `WARC-Refers-To-Date`; else a capture of its own
/// URL with the payload digest it declares (the nearest earlier one, else the nearest
/// later one). A candidate whose payload differs from the digest the revisit declares is
/// not its original. A `server-not-modified` revisit that names nothing of the kind is a
/// 304 to a conditional request, which a crawler makes with the validators of the last
/// copy it fetched: its original is the latest earlier 2xx capture of its URL. A revisit
/// that finds one takes its content (digest) and is assessed again; one that does not is
/// tried again at the next ingest.
pub(crate) fn resolve_pending(index: &mut Index, store: &Store) -> Result<(), Error> {
    let tx = index.begin()?;
    let unresolved = revisits::unresolved(&tx)?;
    for visit in &unresolved {
        if let Some(original) = find_original(&tx, store, visit)? {
            revisits::settle(&tx, visit, &original, is_robots_txt(&visit.url))?;
        }
    }
    tx.commit()?;
    Ok(())
}

fn find_original(
    tx: &Tx<'_>,
    store: &Store,
    visit: &Unresolved,
) -> Result<Option<Original>, Error> {
    let mut candidates = Vec::new();
    if let Some(id) = &visit.refers_to {
        candidates.extend(revisits::by_record_id(tx, id)?);
    }
    if let (Some(url), Some(date)) = (&visit.refers_to_url, visit.refers_to_date) {
        candidates.extend(revisits::at_url_and_time(tx, url, date)?);
    }
    if let Some(digest) = &visit.declared {
        candidates.extend(revisits::with_digest(
            tx,
            &visit.url,
            digest,
            visit.captured,
        )?);
    }
    for id in candidates.into_iter().filter(|&id| id != visit.id) {
        if let Some(original) = response_of(tx, id)? {
            if payload_agrees(tx, store, visit, &original)? {
                return Ok(Some(original));
            }
        }
    }
    let names_nothing = visit.refers_to.is_none()
        && visit.refers_to_url.is_none()
        && visit.refers_to_date.is_none()
        && visit.declared.is_none();
    if visit.profile == Some(RevisitProfile::ServerNotModified) && names_nothing {
        return last_copy_before(tx, visit);
    }
    Ok(None)
}

/// The latest 2xx response of `visit`'s URL captured before it (through earlier resolved
/// revisits), or `None` if the archive holds none yet.
fn last_copy_before(tx: &Tx<'_>, visit: &Unresolved) -> Result<Option<Original>, Error> {
    for id in revisits::earlier_at_url(tx, &visit.url, visit.captured)? {
        if let Some(original) = response_of(tx, id)? {
            if (200..300).contains(&original.status) {
                return Ok(Some(original));
            }
        }
    }
    Ok(None)
}

/// Whether the original's payload is the one the revisit declares: its SHA-1, a checked
/// declared digest in the same algorithm, or else the digest computed from the stored
/// record in the revisit's algorithm. A revisit that declares none is taken at its word.
fn payload_agrees(
    tx: &Tx<'_>,
    store: &Store,
    visit: &Unresolved,
    original: &Original,
) -> Result<bool, Error> {
    let Some(declared) = &visit.declared else {
        return Ok(true);
    };
    let algorithm = |d: &str| d.split_once(':').map(|(a, _)| a.to_owned());
    if algorithm(declared) == algorithm(&original.digest) {
        return Ok(*declared == original.digest);
    }
    let other = revisits::declared_digest(tx, original.id)?;
    if let Some(other) = other.filter(|o| algorithm(o) == algorithm(declared)) {
        return Ok(other == *declared);
    }
    let Some(entry) = entry_in(tx, original.id)? else {
        return Ok(false);
    };
    let stored = store.read(&entry)?;
    let mut block = &stored.block[..];
    if ResponseHead::read(&mut block).ok().flatten().is_none() {
        return Ok(false);
    }
    let mut hasher = PayloadHasher::new(Some(declared));
    hasher.update(block);
    Ok(matches!(hasher.finish().1, Check::Agrees(_)))
}
