//! Revisit records (WARC 1.1 §6.7): a capture of a URL at its own time whose payload is
//! that of an earlier record, which deduplicating crawlers (wget `--warc-dedup`,
//! Heritrix, warcprox, Browsertrix) write instead of storing the payload again. Here they
//! are read, their originals found, and replayed with their original's payload.

use rusqlite::{params, OptionalExtension, Transaction};

use crate::capture::RevisitProfile;
use crate::digest::{Check, PayloadHasher};
use crate::http::ResponseHead;
use crate::index::captures::exec;
use crate::index::{select, Index, LOOK_AHEAD_SECS};
use crate::store::Store;
use crate::url::is_robots_txt;
use crate::Error;

/// An indexed revisit whose original is not known yet.
struct Unresolved {
    id: i64,
    profile: Option<RevisitProfile>,
    url: String,
    captured: i64,
    refers_to: Option<String>,
    refers_to_url: Option<String>,
    refers_to_date: Option<i64>,
    declared: Option<String>,
    has_head: bool,
}

/// The response a revisit repeats.
struct Original {
    id: i64,
    digest: String,
    status: u16,
    last_modified: Option<String>,
}

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
    let tx = index.conn.transaction()?;
    let unresolved: Vec<Unresolved> = tx
        .prepare(
            "SELECT v.record, v.profile, r.url, r.captured, v.refers_to, v.refers_to_url,
                 v.refers_to_date, v.declared, v.has_head
             FROM revisits v INDEXED BY revisits_unresolved JOIN records r ON r.id = v.record
             WHERE v.original IS NULL",
        )?
        .query_map([], |r| {
            Ok(Unresolved {
                id: r.get(0)?,
                profile: RevisitProfile::parse(&r.get::<_, String>(1)?),
                url: r.get(2)?,
                captured: r.get(3)?,
                refers_to: r.get(4)?,
                refers_to_url: r.get(5)?,
                refers_to_date: r.get(6)?,
                declared: r.get(7)?,
                has_head: r.get(8)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    for visit in &unresolved {
        if let Some(original) = find_original(&tx, store, visit)? {
            settle(&tx, visit, &original)?;
        }
    }
    tx.commit()?;
    Ok(())
}

fn find_original(
    tx: &Transaction<'_>,
    store: &Store,
    visit: &Unresolved,
) -> Result<Option<Original>, Error> {
    let ids = |sql: &str, params: &[&dyn rusqlite::ToSql]| -> Result<Vec<i64>, Error> {
        let mut stmt = tx.prepare_cached(sql)?;
        let rows = stmt.query_map(params, |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    };
    let mut candidates = Vec::new();
    if let Some(id) = &visit.refers_to {
        candidates.extend(ids(
            "SELECT id FROM records WHERE warc_record_id = ?1",
            &[id],
        )?);
    }
    if let (Some(url), Some(date)) = (&visit.refers_to_url, visit.refers_to_date) {
        candidates.extend(ids(
            "SELECT id FROM records WHERE url = ?1 AND captured = ?2 ORDER BY id",
            &[url, &date],
        )?);
    }
    if let Some(digest) = &visit.declared {
        candidates.extend(ids(
            "SELECT id FROM records WHERE url = ?1
                 AND (digest = ?2 OR id IN (SELECT record FROM declared_digests WHERE digest = ?2))
             ORDER BY captured > ?3, abs(captured - ?3), id",
            &[&visit.url, digest, &visit.captured],
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
fn last_copy_before(tx: &Transaction<'_>, visit: &Unresolved) -> Result<Option<Original>, Error> {
    let earlier: Vec<i64> = tx
        .prepare_cached(
            "SELECT id FROM records WHERE url = ?1 AND captured < ?2
             ORDER BY captured DESC, id DESC",
        )?
        .query_map(params![visit.url, visit.captured], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for id in earlier {
        if let Some(original) = response_of(tx, id)? {
            if (200..300).contains(&original.status) {
                return Ok(Some(original));
            }
        }
    }
    Ok(None)
}

/// The response row `id` is, or, for a revisit with a known original, that original.
fn response_of(tx: &Transaction<'_>, id: i64) -> Result<Option<Original>, Error> {
    let via: Option<Option<i64>> = tx
        .prepare_cached("SELECT original FROM revisits WHERE record = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?;
    let id = match via {
        None => id,
        Some(Some(original)) => original,
        Some(None) => return Ok(None),
    };
    Ok(tx
        .prepare_cached("SELECT id, digest, status, last_modified FROM records WHERE id = ?1")?
        .query_row([id], |r| {
            Ok(Original {
                id: r.get(0)?,
                digest: r.get(1)?,
                status: r.get(2)?,
                last_modified: r.get(3)?,
            })
        })
        .optional()?)
}

/// Whether the original's payload is the one the revisit declares: its SHA-1, a checked
/// declared digest in the same algorithm, or else the digest computed from the stored
/// record in the revisit's algorithm. A revisit that declares none is taken at its word.
fn payload_agrees(
    tx: &Transaction<'_>,
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
    let other: Option<String> = tx
        .prepare_cached("SELECT digest FROM declared_digests WHERE record = ?1")?
        .query_row([original.id], |r| r.get(0))
        .optional()?;
    if let Some(other) = other.filter(|o| algorithm(o) == algorithm(declared)) {
        return Ok(other == *declared);
    }
    let Some(entry) = select(tx, "WHERE r.id = ?1", [original.id])?.pop() else {
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

/// Links a revisit to its original: it takes the original's content (and, without an
/// HTTP head of its own, its status and Last-Modified), and it and the other unreleased
/// captures of that content at its URL are assessed again, since it may be the content's
/// first observation there. A revisit of a robots.txt is a capture of those rules at its
/// own time, and governs as one.
fn settle(tx: &Transaction<'_>, visit: &Unresolved, original: &Original) -> Result<(), Error> {
    exec(
        tx,
        "UPDATE revisits SET original = ?2 WHERE record = ?1",
        params![visit.id, original.id],
    )?;
    exec(
        tx,
        "UPDATE records SET digest = ?2,
             status = CASE WHEN ?3 THEN status ELSE ?4 END,
             last_modified = CASE WHEN ?3 THEN last_modified ELSE ?5 END
         WHERE id = ?1",
        params![
            visit.id,
            original.digest,
            visit.has_head,
            original.status,
            original.last_modified
        ],
    )?;
    exec(
        tx,
        "UPDATE records SET pending = 1
         WHERE url = ?1 AND digest = ?2 AND release_batch IS NULL",
        params![visit.url, original.digest],
    )?;
    // A revisit a release held while its original was missing goes back to the due
    // index if that original is already released; if not, the release that takes up
    // the original takes up the revisit with it.
    exec(
        tx,
        "UPDATE records SET held = NULL
         WHERE id = ?1 AND held = 1
           AND (SELECT release_batch FROM records WHERE id = ?2) IS NOT NULL",
        params![visit.id, original.id],
    )?;
    if is_robots_txt(&visit.url) {
        // A 304, or no head, says the status is the original's; like a response, only
        // a 2xx, 4xx or 5xx says anything about the rules.
        let added = exec(
            tx,
            "INSERT OR IGNORE INTO robots_txt (record, origin, captured, status, body)
             SELECT id, origin, captured, status, body FROM (
                 SELECT r.id, r.origin, r.captured, o.body,
                     CASE WHEN r.status IN (0, 304) THEN o.status ELSE r.status END AS status
                 FROM records r, robots_txt o WHERE r.id = ?1 AND o.record = ?2)
             WHERE status BETWEEN 200 AND 299 OR status BETWEEN 400 AND 599",
            params![visit.id, original.id],
        )?;
        if added > 0 {
            exec(
                tx,
                "UPDATE records SET pending = 1
                 WHERE origin = (SELECT origin FROM records WHERE id = ?1)
                   AND release_batch IS NULL AND captured >= ?2",
                params![visit.id, visit.captured - LOOK_AHEAD_SECS],
            )?;
        }
    }
    Ok(())
}

/// How many revisits indexed from file row `file_id` have no original in the archive.
pub(crate) fn unresolved_in(index: &Index, file_id: i64) -> Result<u64, Error> {
    Ok(index.conn.query_row(
        "SELECT count(*) FROM revisits v JOIN records r ON r.id = v.record
         WHERE v.original IS NULL AND r.file_id = ?1",
        [file_id],
        |r| r.get(0),
    )?)
}
