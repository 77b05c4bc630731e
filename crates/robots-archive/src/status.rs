//! `status`: how many records are released, embargoed and flagged at a given time, how
//! many are published, when the next releases fall due, and what killed ingests left.

use serde::Serialize;

use crate::incoming::Leftovers;
use crate::index::{self, Index};
use crate::store::Store;
use crate::time::Timestamp;
use crate::Error;

/// How many upcoming release days `status` lists.
const NEXT_DAYS: usize = 5;

/// The state of an archive at one time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    /// The time the counts are for (RFC 3339).
    pub at: String,
    /// Indexed response records.
    pub records: u64,
    /// Allowed records whose embargo has ended (or who had none).
    pub released: u64,
    /// Of those, already written to `public/` by `release`.
    pub published: u64,
    /// Allowed records still under embargo.
    pub embargoed: u64,
    /// Flagged: captured while disallowed; never released.
    pub disallowed: u64,
    /// Flagged: no robots.txt capture governs them; withheld.
    pub no_robots: u64,
    /// The next days on which embargoes end, with how many records each.
    pub next_releases: Vec<UpcomingRelease>,
    /// Partial copies in `store/` that no running ingest is writing: left by an ingest
    /// killed mid-copy, no part of the archive. The next ingest removes those whose
    /// writer it can tell is gone (on Linux); the others can be deleted by hand
    /// (`store/.incoming-*`) while no ingest runs.
    pub leftover_incoming: Leftovers,
}

/// Records whose embargo ends on one UTC day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UpcomingRelease {
    /// The first embargo end that day (RFC 3339).
    pub first: String,
    pub records: u64,
}

pub(crate) fn status(index: &Index, store: &Store, at: Timestamp) -> Result<Status, Error> {
    let counts = index::status::counts(index, at)?;
    let index::status::Counts {
        records,
        released,
        embargoed,
        disallowed,
        published,
    } = counts;
    // Day by day, each step an index range: cheap however large the archive. Held
    // revisits wait for their original, not for a date, so no day lists them.
    let mut next_releases = Vec::new();
    let mut from = at.unix();
    while next_releases.len() < NEXT_DAYS {
        let first = index::status::next_end_after(index, from)?;
        let Some(first) = first else { break };
        let day_end = (first.div_euclid(86_400) + 1) * 86_400;
        let records = index::status::ending_between(index, first, day_end)?;
        next_releases.push(UpcomingRelease {
            first: Timestamp::from_unix(first).rfc3339(),
            records,
        });
        from = day_end - 1;
    }
    Ok(Status {
        at: at.rfc3339(),
        records,
        released,
        published,
        embargoed,
        disallowed,
        no_robots: records.saturating_sub(released + embargoed + disallowed),
        next_releases,
        leftover_incoming: store.leftovers()?,
    })
}
