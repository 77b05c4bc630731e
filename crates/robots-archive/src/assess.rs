//! Assessment: for each indexed capture, the robots.txt capture that governed it, the
//! verdict for the archive's agent, and the embargo end (the engine's rule, not ours).

use std::collections::{hash_map, HashMap};

use rusqlite::{params, OptionalExtension, Transaction};

use robots::{Agent, Robots};

use crate::index::{CaptureVerdict, Index, FIRST_OBSERVED, LOOK_AHEAD_SECS};
use crate::time::Timestamp;
use crate::Error;

/// How much older than a capture a readable robots.txt capture may be and still stand in
/// for an unreachable (5xx) one: DESIGN.md's fetcher keeps its cached copy for the first
/// 30 days of an outage (RFC 9309 §2.3.1.4), and an outage that began after the copy was
/// read is shorter than that while the copy is younger; past it, which rules the crawler
/// had is unknown, so the capture stays disallowed.
const CACHED_COPY_SECS: i64 = 30 * 24 * 3600;

/// Rows assessed per transaction.
const BATCH: usize = 1000;

/// Parsed robots.txt files kept while assessing; a crawl has few, so a small cache
/// spares re-parsing without letting memory grow with the archive.
const CACHE_LIMIT: usize = 256;

/// What assessing decided for one capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Assessment {
    pub robots_record: Option<i64>,
    pub verdict: CaptureVerdict,
    pub embargo_days: Option<u32>,
    pub embargo_until: Option<Timestamp>,
}

struct Pending {
    id: i64,
    url: String,
    digest: String,
    origin: String,
    captured: Timestamp,
    last_modified: Option<String>,
}

/// Assesses every capture marked pending (new ones, and those whose robots.txt or the
/// first observation of whose content changed). Returns how many were assessed.
pub(crate) fn assess_pending(index: &mut Index, agent: &Agent) -> Result<u64, Error> {
    let mut cache: HashMap<i64, Robots> = HashMap::new();
    let mut total = 0;
    loop {
        let tx = index.conn.transaction()?;
        let batch: Vec<Pending> = {
            let mut stmt = tx.prepare_cached(
                "SELECT id, url, digest, origin, captured, last_modified FROM records
                 WHERE pending = 1 ORDER BY id LIMIT ?1",
            )?;
            let rows = stmt.query_map([BATCH as i64], |r| {
                Ok(Pending {
                    id: r.get(0)?,
                    url: r.get(1)?,
                    digest: r.get(2)?,
                    origin: r.get(3)?,
                    captured: Timestamp::from_unix(r.get(4)?),
                    last_modified: r.get(5)?,
                })
            })?;
            rows.collect::<Result<_, _>>()?
        };
        if batch.is_empty() {
            return Ok(total);
        }
        for record in &batch {
            let a = assess(&tx, agent, record, &mut cache)?;
            tx.prepare_cached(
                "UPDATE records SET robots_record = ?2, verdict = ?3, embargo_days = ?4,
                     embargo_until = ?5, pending = 0
                 WHERE id = ?1",
            )?
            .execute(params![
                record.id,
                a.robots_record,
                a.verdict.as_str(),
                a.embargo_days,
                a.embargo_until.map(Timestamp::unix),
            ])?;
        }
        tx.commit()?;
        total += batch.len() as u64;
    }
}

fn assess(
    tx: &Transaction<'_>,
    agent: &Agent,
    record: &Pending,
    cache: &mut HashMap<i64, Robots>,
) -> Result<Assessment, Error> {
    let flagged = |robots_record, verdict| Assessment {
        robots_record,
        verdict,
        embargo_days: None,
        embargo_until: None,
    };
    let Some(nearest) = governing(tx, &record.origin, record.captured)? else {
        return Ok(flagged(None, CaptureVerdict::NoRobots));
    };
    // RFC 9309 §2.3.1.4: an unreachable robots.txt means complete disallow, unless the
    // crawler still had a copy it read before (§2.4 lets it keep one while unreachable).
    let (robots_id, status) = if (500..=599).contains(&nearest.status) {
        match cached_copy(tx, &record.origin, &nearest, record.captured)? {
            Some(copy) => (copy.record, copy.status),
            None => return Ok(flagged(Some(nearest.record), CaptureVerdict::Disallowed)),
        }
    } else {
        (nearest.record, nearest.status)
    };
    let released_now = Assessment {
        robots_record: Some(robots_id),
        verdict: CaptureVerdict::Allowed,
        embargo_days: None,
        embargo_until: Some(record.captured),
    };
    // §2.3.1.3: an unavailable robots.txt means no rules.
    if (400..=499).contains(&status) {
        return Ok(released_now);
    }
    if cache.len() >= CACHE_LIMIT {
        cache.clear();
    }
    let robots = match cache.entry(robots_id) {
        hash_map::Entry::Occupied(e) => e.into_mut(),
        hash_map::Entry::Vacant(e) => {
            let body: Vec<u8> = tx
                .prepare_cached("SELECT body FROM robots_txt WHERE record = ?1")?
                .query_row([robots_id], |r| r.get(0))?;
            e.insert(Robots::parse(&body))
        }
    };
    let verdict = robots.check(agent, &record.url);
    if !verdict.allowed() {
        return Ok(flagged(Some(robots_id), CaptureVerdict::Disallowed));
    }
    let Some(embargo) = verdict.embargo() else {
        return Ok(released_now);
    };
    let first_seen: i64 = tx
        .prepare_cached(FIRST_OBSERVED)?
        .query_row(params![record.url, record.digest], |r| r.get(0))?;
    let end = embargo.end(
        record.last_modified.as_deref(),
        Timestamp::from_unix(first_seen).into(),
        record.captured.into(),
    );
    Ok(Assessment {
        robots_record: Some(robots_id),
        verdict: CaptureVerdict::Allowed,
        embargo_days: Some(embargo.period().days()),
        embargo_until: Some(Timestamp::from(end)),
    })
}

/// A robots.txt capture as `governing` and `cached_copy` find it.
struct RobotsCapture {
    record: i64,
    captured: i64,
    status: u16,
}

fn robots_capture(r: &rusqlite::Row<'_>) -> rusqlite::Result<RobotsCapture> {
    Ok(RobotsCapture {
        record: r.get(0)?,
        captured: r.get(1)?,
        status: r.get(2)?,
    })
}

/// The robots.txt capture nearest in time: the latest at or before the capture, else
/// the earliest within [`LOOK_AHEAD_SECS`] after it.
fn governing(
    tx: &Transaction<'_>,
    origin: &str,
    captured: Timestamp,
) -> Result<Option<RobotsCapture>, Error> {
    let before = tx
        .prepare_cached(
            "SELECT record, captured, status FROM robots_txt WHERE origin = ?1 AND captured <= ?2
             ORDER BY captured DESC, record DESC LIMIT 1",
        )?
        .query_row(params![origin, captured.unix()], robots_capture)
        .optional()?;
    if before.is_some() {
        return Ok(before);
    }
    Ok(tx
        .prepare_cached(
            "SELECT record, captured, status FROM robots_txt WHERE origin = ?1 AND captured > ?2
             AND captured <= ?3 ORDER BY captured, record LIMIT 1",
        )?
        .query_row(
            params![origin, captured.unix(), captured.unix() + LOOK_AHEAD_SECS],
            robots_capture,
        )
        .optional()?)
}

/// The copy a crawler had when robots.txt answered `unreachable`: the latest readable
/// capture (2xx, or 4xx for no rules) that came before it, at most [`CACHED_COPY_SECS`]
/// older than the capture being assessed. Only captures before the 5xx count: one after
/// it was not yet read, so a 5xx that governs from just after a page (the look-ahead)
/// has no copy.
fn cached_copy(
    tx: &Transaction<'_>,
    origin: &str,
    unreachable: &RobotsCapture,
    captured: Timestamp,
) -> Result<Option<RobotsCapture>, Error> {
    Ok(tx
        .prepare_cached(
            "SELECT record, captured, status FROM robots_txt
             WHERE origin = ?1 AND status BETWEEN 200 AND 499
             AND (captured < ?2 OR (captured = ?2 AND record < ?3)) AND captured >= ?4
             ORDER BY captured DESC, record DESC LIMIT 1",
        )?
        .query_row(
            params![
                origin,
                unreachable.captured,
                unreachable.record,
                captured.unix() - CACHED_COPY_SECS
            ],
            robots_capture,
        )
        .optional()?)
}
