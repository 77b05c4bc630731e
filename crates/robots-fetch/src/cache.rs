//! The per-origin store: the last good robots.txt with its freshness and validators, and
//! since when the origin has been unreachable; bounded in entries and bytes, least recently used out.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::SystemTime;

use url::Url;

use crate::freshness::{Freshness, Validators};
use crate::{Hop, Origin, Rules, Unavailable};

/// How much the cache may hold. Entries beyond either bound push out the least
/// recently used ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheLimits {
    /// Origins remembered.
    pub max_entries: usize,
    /// Bytes of robots.txt bodies (plus a small per-entry overhead) kept.
    pub max_bytes: usize,
}

impl Default for CacheLimits {
    /// 10,000 origins and 256 MiB.
    fn default() -> Self {
        CacheLimits {
            max_entries: 10_000,
            max_bytes: 256 << 20,
        }
    }
}

/// What the cache holds right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    /// Origins remembered.
    pub entries: usize,
    /// Bytes counted against [`CacheLimits::max_bytes`].
    pub bytes: usize,
}

/// Rough cost of an entry beyond its body: the origin, the chain, the bookkeeping.
const ENTRY_OVERHEAD: usize = 256;

/// A response whose rules may be reused.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub rules: Arc<Rules>,
    /// Set when the stored response made the robots.txt unavailable (allow all).
    pub unavailable: Option<Unavailable>,
    pub chain: Arc<[Hop]>,
    pub freshness: Freshness,
    pub validators: Validators,
    /// The URL that served the stored body, which is the one to revalidate.
    pub final_url: Url,
    pub body: Option<crate::BodySize>,
    /// When the request that got or last revalidated the response ended.
    pub requested_at: tokio::time::Instant,
}

/// What the cache knows of one origin.
#[derive(Debug, Clone, Default)]
pub(crate) struct Entry {
    pub stored: Option<Stored>,
    /// The first failed attempt of the current outage (RFC 9309 §2.3.1.4's 30 days
    /// are counted from here); cleared by any answer from the server.
    pub unreachable_since: Option<SystemTime>,
    /// The answer given when the server was last found unreachable, and until when it
    /// stands in before the server is asked again.
    pub unreachable: Option<(SystemTime, crate::Answer)>,
}

impl Entry {
    fn cost(&self) -> usize {
        let body = self
            .stored
            .as_ref()
            .and_then(|s| s.body)
            .map_or(0, |b| b.read);
        ENTRY_OVERHEAD + body
    }
}

#[derive(Debug)]
pub(crate) struct Cache {
    limits: CacheLimits,
    entries: HashMap<Origin, (Entry, u64)>,
    /// Last use → origin, oldest first.
    recency: BTreeMap<u64, Origin>,
    tick: u64,
    bytes: usize,
}

impl Cache {
    pub fn new(limits: CacheLimits) -> Cache {
        Cache {
            limits,
            entries: HashMap::new(),
            recency: BTreeMap::new(),
            tick: 0,
            bytes: 0,
        }
    }

    /// The entry for an origin, marking it as recently used.
    pub fn get(&mut self, origin: &Origin) -> Option<Entry> {
        self.tick += 1;
        let tick = self.tick;
        let (entry, last) = self.entries.get_mut(origin)?;
        self.recency.remove(last);
        *last = tick;
        self.recency.insert(tick, origin.clone());
        Some(entry.clone())
    }

    /// Stores an entry, then evicts least recently used entries until within bounds.
    /// An entry too large for the cache on its own is not stored.
    pub fn put(&mut self, origin: Origin, entry: Entry) {
        self.remove(&origin);
        let cost = entry.cost();
        if cost > self.limits.max_bytes || self.limits.max_entries == 0 {
            return;
        }
        while self.entries.len() >= self.limits.max_entries
            || self.bytes + cost > self.limits.max_bytes
        {
            let Some((_, oldest)) = self.recency.pop_first() else {
                break;
            };
            self.remove(&oldest);
        }
        self.tick += 1;
        self.bytes += cost;
        self.recency.insert(self.tick, origin.clone());
        self.entries.insert(origin, (entry, self.tick));
    }

    fn remove(&mut self, origin: &Origin) {
        if let Some((entry, last)) = self.entries.remove(origin) {
            self.recency.remove(&last);
            self.bytes -= entry.cost();
        }
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            entries: self.entries.len(),
            bytes: self.bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn origin(n: u16) -> Origin {
        crate::origin_of(&format!("http://h{n}.test/")).unwrap()
    }

    fn entry(body: usize) -> Entry {
        let now = SystemTime::now();
        let headers = reqwest::header::HeaderMap::new();
        Entry {
            unreachable: None,
            stored: Some(Stored {
                rules: Arc::new(Rules::AllowAll),
                unavailable: None,
                chain: Arc::from(Vec::new()),
                freshness: Freshness::from_headers(&headers, now, Duration::from_secs(60)),
                validators: Validators::default(),
                final_url: Url::parse("http://h.test/robots.txt").unwrap(),
                body: Some(crate::BodySize {
                    read: body,
                    truncated: false,
                }),
                requested_at: tokio::time::Instant::now(),
            }),
            unreachable_since: None,
        }
    }

    #[test]
    fn evicts_least_recently_used_by_count() {
        let mut cache = Cache::new(CacheLimits {
            max_entries: 2,
            max_bytes: usize::MAX,
        });
        cache.put(origin(1), entry(0));
        cache.put(origin(2), entry(0));
        assert!(cache.get(&origin(1)).is_some()); // 2 is now the oldest
        cache.put(origin(3), entry(0));
        assert!(cache.get(&origin(2)).is_none());
        assert!(cache.get(&origin(1)).is_some());
        assert!(cache.get(&origin(3)).is_some());
        assert_eq!(cache.stats().entries, 2);
    }

    #[test]
    fn evicts_by_bytes_and_refuses_oversized_entries() {
        let mut cache = Cache::new(CacheLimits {
            max_entries: 100,
            max_bytes: 3 * (ENTRY_OVERHEAD + 1000),
        });
        for n in 0..5 {
            cache.put(origin(n), entry(1000));
        }
        assert_eq!(cache.stats().entries, 3);
        assert!(cache.stats().bytes <= 3 * (ENTRY_OVERHEAD + 1000));
        assert!(cache.get(&origin(0)).is_none());
        cache.put(origin(9), entry(10_000));
        assert!(cache.get(&origin(9)).is_none());
        assert_eq!(cache.stats().entries, 3);
    }

    #[test]
    fn replacing_an_entry_keeps_the_byte_count_right() {
        let mut cache = Cache::new(CacheLimits::default());
        cache.put(origin(1), entry(500));
        cache.put(origin(1), entry(100));
        assert_eq!(cache.stats().bytes, ENTRY_OVERHEAD + 100);
    }
}
