//! Assessment: for each indexed capture, the robots.txt capture that governed it, the
//! verdict for the archive's agent, and the embargo end (the engine's rule, not ours).

use std::collections::{hash_map, HashMap};

use robots::{Agent, Robots};

use crate::index::assessment::{self, governing, Assessment, Pending, RobotsCapture};
use crate::index::{first_observed, CaptureVerdict, Index, Tx};
use crate::redirect::{self, Followed};
use crate::store::Store;
use crate::time::Timestamp;
use crate::url::is_robots_txt;
use crate::Error;

/// How much older than a capture a readable robots.txt capture may be and still stand in
/// for an unreachable (5xx) one: docs/design.md's fetcher keeps its cached copy for the first
/// 30 days of an outage (RFC 9309 §2.3.1.4), and an outage that began after the copy was
/// read is shorter than that while the copy is younger; past it, which rules the crawler
/// had is unknown, so the capture stays disallowed.
const CACHED_COPY_SECS: i64 = 30 * 24 * 3600;

/// Rows assessed per transaction.
const BATCH: usize = 1000;

/// Parsed robots.txt files kept while assessing; a crawl has few, so a small cache
/// spares re-parsing without letting memory grow with the archive.
const CACHE_LIMIT: usize = 256;

/// Assesses every capture marked pending (new ones, and those whose robots.txt or the
/// first observation of whose content changed). Returns how many were assessed.
pub(crate) fn assess_pending(
    index: &mut Index,
    store: &Store,
    agent: &Agent,
) -> Result<u64, Error> {
    let mut cache: HashMap<i64, Robots> = HashMap::new();
    let mut total = 0;
    loop {
        let tx = index.begin()?;
        let batch = assessment::pending(&tx, BATCH)?;
        if batch.is_empty() {
            return Ok(total);
        }
        for record in &batch {
            let a = assess(&tx, store, agent, record, &mut cache)?;
            assessment::record(&tx, record.id, &a)?;
        }
        tx.commit()?;
        total += batch.len() as u64;
    }
}

fn assess(
    tx: &Tx<'_>,
    store: &Store,
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
    let released_at_once = |robots_record| Assessment {
        robots_record: Some(robots_record),
        verdict: CaptureVerdict::Allowed,
        embargo_days: None,
        embargo_until: Some(record.captured),
    };
    // RFC 9309 §2.3.1.2: a redirect is followed (five hops at least) to the capture of
    // its target, which governs this origin wherever it was served from.
    let reached = if (300..=399).contains(&nearest.status) {
        match redirect::follow(tx, store, &nearest)? {
            Followed::Reached { record, status } => (record, status),
            // Taken as unavailable, as a crawler would: no rules (§2.3.1.3).
            Followed::Unavailable => return Ok(released_at_once(nearest.record)),
            Followed::NotCaptured { .. } => {
                return Ok(flagged(Some(nearest.record), CaptureVerdict::NoRobots))
            }
        }
    } else {
        (nearest.record, nearest.status)
    };
    // RFC 9309 §2.3.1.4: an unreachable robots.txt means complete disallow, unless the
    // crawler still had a copy it read before (§2.4 lets it keep one while unreachable).
    let (robots_id, status) = if (500..=599).contains(&reached.1) {
        match cached_copy(tx, &record.origin, &nearest, record.captured)? {
            Some(copy) => (copy.record, copy.status),
            // The error answer of robots.txt itself is no page the rules withhold: a
            // crawler always asks for robots.txt, and its answer is what it recorded.
            None if is_robots_txt(&record.url) => return Ok(released_at_once(reached.0)),
            None => return Ok(flagged(Some(reached.0), CaptureVerdict::Disallowed)),
        }
    } else {
        reached
    };
    let released_now = released_at_once(robots_id);
    // §2.3.1.3: an unavailable robots.txt means no rules.
    if (400..=499).contains(&status) {
        return Ok(released_now);
    }
    if cache.len() >= CACHE_LIMIT {
        cache.clear();
    }
    let robots = match cache.entry(robots_id) {
        hash_map::Entry::Occupied(e) => e.into_mut(),
        hash_map::Entry::Vacant(e) => match redirect::rules_body(tx, store, robots_id)? {
            Some(body) => e.insert(Robots::parse(&body)),
            // Rules the archive cannot read govern nothing, as at ingest.
            None => return Ok(flagged(Some(robots_id), CaptureVerdict::NoRobots)),
        },
    };
    let verdict = robots.check(agent, &record.url);
    if !verdict.allowed() {
        return Ok(flagged(Some(robots_id), CaptureVerdict::Disallowed));
    }
    let Some(embargo) = verdict.embargo() else {
        return Ok(released_now);
    };
    // The capture itself holds its content, so there is a first observation.
    let first_seen = first_observed(tx, &record.url, &record.digest)?.unwrap_or(record.captured);
    let end = embargo.end(
        record.last_modified.as_deref(),
        first_seen.into(),
        record.captured.into(),
    );
    Ok(Assessment {
        robots_record: Some(robots_id),
        verdict: CaptureVerdict::Allowed,
        embargo_days: Some(embargo.period().days()),
        embargo_until: Some(Timestamp::from(end)),
    })
}

/// The copy a crawler had when robots.txt answered `unreachable`: the latest readable
/// capture (2xx, or 4xx for no rules) that came before it, at most [`CACHED_COPY_SECS`]
/// older than the capture being assessed. Only captures before the 5xx count: one after
/// it was not yet read, so a 5xx that governs from just after a page (the look-ahead)
/// has no copy.
fn cached_copy(
    tx: &Tx<'_>,
    origin: &str,
    unreachable: &RobotsCapture,
    captured: Timestamp,
) -> Result<Option<RobotsCapture>, Error> {
    assessment::readable_before(tx, origin, unreachable, captured.unix() - CACHED_COPY_SECS)
}
