//! Following a captured robots.txt that redirects (RFC 9309 §2.3.1.2) through the
//! archive's own records, hop by hop, to the capture whose rules govern the origin.

use std::io::Read;

use robots::Origin;

use crate::http::{dechunk, decode_content, ResponseHead};
use crate::index::assessment::{self, RobotsCapture};
use crate::index::{entry_in, Index, Tx};
use crate::store::Store;
use crate::url::{is_robots_txt, surt};
use crate::Error;

/// RFC 9309 §2.3.1.2: crawlers follow at least five consecutive redirects; past them a
/// crawler may take robots.txt as unavailable, as `robots-fetch` does.
pub(crate) const MAX_HOPS: usize = 5;

/// Where a redirect chain of robots.txt captures ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Followed {
    /// At a capture that is not a redirect (2xx, 4xx or 5xx): it governs the origin
    /// whose robots.txt redirected, wherever it was served from.
    Reached { record: i64, status: u16 },
    /// More than [`MAX_HOPS`] redirects, a loop, or a redirect without a usable
    /// `Location`: robots.txt is unavailable, as a crawler would take it (no rules).
    Unavailable,
    /// A hop whose target the archive holds no capture of (near enough in time): the
    /// rules the crawler read are unknown.
    NotCaptured { target: String },
}

/// The absolute URL a redirect's `Location` names, resolved against the URL captured.
pub(crate) fn target(base: &str, location: Option<&[u8]>) -> Option<String> {
    let location = std::str::from_utf8(location?).ok()?.trim();
    if location.is_empty() {
        return None;
    }
    let joined = url::Url::parse(base).ok()?.join(location).ok()?;
    matches!(joined.scheme(), "http" | "https").then(|| joined.to_string())
}

/// Follows the redirect `start` (a 3xx robots.txt capture) through the captures of its
/// targets, each the capture of that URL nearest in time to the hop before it.
pub(crate) fn follow(tx: &Tx<'_>, store: &Store, start: &RobotsCapture) -> Result<Followed, Error> {
    // The first hop's Location was kept with the robots.txt capture at ingest.
    let first = assessment::robots_body(tx, start.record)?;
    let Some(mut next) = String::from_utf8(first).ok().filter(|t| !t.is_empty()) else {
        return Ok(Followed::Unavailable);
    };
    let mut at = start.captured;
    let mut seen = vec![start.record];
    for _ in 0..MAX_HOPS {
        let Some(record) = assessment::nearest_capture_of(tx, &surt(&next), at)? else {
            return Ok(Followed::NotCaptured { target: next });
        };
        if seen.contains(&record) {
            return Ok(Followed::Unavailable);
        }
        seen.push(record);
        let Some(mut entry) = entry_in(tx, record)? else {
            return Ok(Followed::NotCaptured { target: next });
        };
        // A revisit of the target stands for its original, whose payload it repeats.
        if let Some(revisit) = entry.revisit {
            let original = match revisit.original {
                Some(id) => entry_in(tx, id)?,
                None => None,
            };
            let Some(original) = original else {
                return Ok(Followed::NotCaptured { target: next });
            };
            entry = original;
        }
        if !(300..=399).contains(&entry.status) {
            return Ok(Followed::Reached {
                record: entry.id,
                status: entry.status,
            });
        }
        let mut block = store.open_block(&entry)?;
        let head = ResponseHead::read(&mut block).ok().flatten();
        let location = head.as_ref().and_then(|h| h.fields.get("Location"));
        match target(&entry.url, location) {
            Some(t) => next = t,
            None => return Ok(Followed::Unavailable),
        }
        at = entry.captured.unix();
    }
    Ok(Followed::Unavailable)
}

/// The rules a chain reached: the body kept with a robots.txt capture (a redirect to
/// another origin's robots.txt), else the capture's payload read from the store as a
/// crawler reads robots.txt (chunked and content codings undone, up to the parse limit).
/// Read to assess, never sent: nothing here leaves the archive. `None` when its content
/// coding cannot be undone.
pub(crate) fn rules_body(
    tx: &Tx<'_>,
    store: &Store,
    record: i64,
) -> Result<Option<Vec<u8>>, Error> {
    if let Some(body) = assessment::kept_robots_body(tx, record)? {
        return Ok(Some(body));
    }
    let Some(entry) = entry_in(tx, record)? else {
        return Ok(None);
    };
    let mut block = store.open_block(&entry)?;
    let Some(head) = ResponseHead::read(&mut block).ok().flatten() else {
        return Ok(None);
    };
    let limit = robots::MIN_PARSE_LIMIT;
    let mut raw = Vec::new();
    // Chunk framing takes a little room, so read a margin past the limit.
    if block.take(limit as u64 * 2).read_to_end(&mut raw).is_err() {
        return Ok(None);
    }
    let body = if head.is_chunked() {
        dechunk(&raw)
    } else {
        raw
    };
    Ok(decode_content(&head, body, limit).map(|mut b| {
        b.truncate(limit);
        b
    }))
}

/// For an index written before redirects were followed (layout 4 and older): keeps the
/// robots.txt captures answering 3xx with their `Location`, read from the store, and
/// marks the captures they may govern for assessing again.
pub(crate) fn index_captured(index: &mut Index, store: &Store) -> Result<(), Error> {
    let tx = index.begin()?;
    for id in assessment::unindexed_redirects(&tx)? {
        let Some(entry) = entry_in(&tx, id)? else {
            continue;
        };
        let Some(origin) = Origin::of(&entry.url)
            .ok()
            .filter(|_| is_robots_txt(&entry.url))
        else {
            continue;
        };
        let mut block = store.open_block(&entry)?;
        let head = ResponseHead::read(&mut block).ok().flatten();
        let target = target(
            &entry.url,
            head.as_ref().and_then(|h| h.fields.get("Location")),
        );
        let key = target.as_deref().map(surt);
        assessment::add_redirect(
            &tx,
            id,
            &origin.key(),
            entry.captured.unix(),
            entry.status,
            target.as_deref().zip(key.as_deref()),
        )?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_resolve_against_the_captured_url() {
        let base = "http://example.com:8080/robots.txt";
        assert_eq!(
            target(base, Some(b"/robots-real.txt")).as_deref(),
            Some("http://example.com:8080/robots-real.txt")
        );
        assert_eq!(
            target(base, Some(b" https://other.example/robots.txt ")).as_deref(),
            Some("https://other.example/robots.txt")
        );
        assert_eq!(target(base, Some(b"")), None);
        assert_eq!(target(base, None), None);
        assert_eq!(target(base, Some(b"ftp://example.com/robots.txt")), None);
    }
}
