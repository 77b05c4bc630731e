//! How long a stored robots.txt may be used without asking again: RFC 9111 §4.2's
//! freshness lifetime and age, capped as RFC 9309 §2.4 asks; and the validators to ask with.

use std::time::{Duration, SystemTime};

use reqwest::header::{self, HeaderMap, HeaderValue};

/// When a stored response was received and until when it may be used without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    fetched_at: SystemTime,
    fresh_until: SystemTime,
}

impl Freshness {
    /// When the response (or the 304 that renewed it) was received.
    pub fn fetched_at(&self) -> SystemTime {
        self.fetched_at
    }

    /// Until when the response is fresh.
    pub fn fresh_until(&self) -> SystemTime {
        self.fresh_until
    }

    /// Whether the response may be used at `now` without asking the server.
    pub fn is_fresh(&self, now: SystemTime) -> bool {
        now < self.fresh_until
    }

    /// How much longer the response is fresh at `now` (zero when stale).
    pub fn remaining(&self, now: SystemTime) -> Duration {
        self.fresh_until.duration_since(now).unwrap_or_default()
    }

    /// Computes freshness from a response's headers received at `received`.
    ///
    /// RFC 9111 §4.2.1: `Cache-Control: max-age` first (`no-cache` and `no-store`
    /// mean zero), then `Expires` minus `Date` (an invalid `Expires` means already
    /// expired, §5.3). Without either, the cap is used as the heuristic lifetime
    /// (§4.2.2 allows one; RFC 9309 §2.4 sets 24 hours as the most a crawler should
    /// use a copy). The age already spent (`Age`, or `Date` in the past, §4.2.3) is
    /// subtracted, and what remains is capped at `cap`.
    pub(crate) fn from_headers(
        headers: &HeaderMap,
        received: SystemTime,
        cap: Duration,
    ) -> Freshness {
        let date = http_date(headers.get(header::DATE));
        let lifetime = lifetime(headers, date.unwrap_or(received)).unwrap_or(cap);
        let apparent_age = date
            .and_then(|d| received.duration_since(d).ok())
            .unwrap_or_default();
        let age_header = headers
            .get(header::AGE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs)
            .unwrap_or_default();
        let age = apparent_age.max(age_header);
        let remaining = lifetime.saturating_sub(age).min(cap);
        Freshness {
            fetched_at: received,
            fresh_until: crate::clock::later(received, remaining),
        }
    }
}

/// The explicit lifetime, if the headers give one.
fn lifetime(headers: &HeaderMap, date: SystemTime) -> Option<Duration> {
    let mut max_age = None;
    for value in headers.get_all(header::CACHE_CONTROL) {
        let Ok(value) = value.to_str() else { continue };
        for directive in value.split(',') {
            let (name, arg) = match directive.split_once('=') {
                Some((name, arg)) => (name.trim(), Some(arg.trim().trim_matches('"'))),
                None => (directive.trim(), None),
            };
            if name.eq_ignore_ascii_case("no-store") || name.eq_ignore_ascii_case("no-cache") {
                return Some(Duration::ZERO);
            }
            if name.eq_ignore_ascii_case("max-age") {
                // RFC 9111 §1.2.2: an invalid delta-seconds is not a lifetime; treat the
                // response as stale rather than guess.
                let secs = arg.and_then(|a| a.parse::<u64>().ok()).unwrap_or(0);
                max_age.get_or_insert(Duration::from_secs(secs));
            }
        }
    }
    if max_age.is_some() {
        return max_age;
    }
    let expires = headers.get(header::EXPIRES)?;
    Some(match http_date(Some(expires)) {
        Some(at) => at.duration_since(date).unwrap_or_default(),
        None => Duration::ZERO,
    })
}

fn http_date(value: Option<&HeaderValue>) -> Option<SystemTime> {
    httpdate::parse_http_date(value?.to_str().ok()?.trim()).ok()
}

/// Whether RFC 9111 §3 forbids storing the response (`Cache-Control: no-store`).
pub(crate) fn forbids_storing(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::CACHE_CONTROL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|d| d.trim().eq_ignore_ascii_case("no-store"))
}

/// The validators of a stored response, sent back to revalidate it (RFC 9111 §4.3.1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Validators {
    pub etag: Option<HeaderValue>,
    pub last_modified: Option<HeaderValue>,
}

impl Validators {
    pub fn from_headers(headers: &HeaderMap) -> Validators {
        Validators {
            etag: headers.get(header::ETAG).cloned(),
            last_modified: headers.get(header::LAST_MODIFIED).cloned(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.etag.is_none() && self.last_modified.is_none()
    }

    /// RFC 9111 §4.3.4: a 304 carries the current validators; keep ours where it does not.
    pub fn updated_by(&self, headers: &HeaderMap) -> Validators {
        let new = Validators::from_headers(headers);
        Validators {
            etag: new.etag.or_else(|| self.etag.clone()),
            last_modified: new.last_modified.or_else(|| self.last_modified.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: Duration = Duration::from_secs(24 * 3600);

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn remaining(pairs: &[(&'static str, &str)], received: SystemTime) -> Duration {
        Freshness::from_headers(&headers(pairs), received, DAY).remaining(received)
    }

    #[test]
    fn max_age_wins_and_is_capped() {
        let now = SystemTime::now();
        assert_eq!(
            remaining(&[("cache-control", "public, max-age=60")], now).as_secs(),
            60
        );
        assert_eq!(
            remaining(&[("cache-control", "max-age=\"90\"")], now).as_secs(),
            90
        );
        assert_eq!(remaining(&[("cache-control", "max-age=999999")], now), DAY);
        assert_eq!(
            remaining(&[("cache-control", "max-age=ten")], now),
            Duration::ZERO
        );
        assert_eq!(
            remaining(&[("cache-control", "no-cache, max-age=60")], now),
            Duration::ZERO
        );
    }

    #[test]
    fn no_headers_means_the_cap() {
        assert_eq!(remaining(&[], SystemTime::now()), DAY);
    }

    #[test]
    fn expires_counts_from_date_and_invalid_means_expired() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let date = httpdate::fmt_http_date(now);
        let expires = httpdate::fmt_http_date(now + Duration::from_secs(600));
        assert_eq!(
            remaining(&[("date", &date), ("expires", &expires)], now).as_secs(),
            600
        );
        assert_eq!(remaining(&[("expires", "0")], now), Duration::ZERO);
    }

    #[test]
    fn age_is_subtracted() {
        let now = SystemTime::now();
        let r = remaining(&[("cache-control", "max-age=100"), ("age", "40")], now);
        assert_eq!(r.as_secs(), 60);
    }
}
