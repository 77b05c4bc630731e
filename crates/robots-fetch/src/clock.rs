//! The wall clock the cache reads: freshness (RFC 9111 §4.2) and the 30-day outage rule
//! (RFC 9309 §2.3.1.4) are measured on it, so tests can set it instead of waiting.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// Far enough ahead to stand for "never" (a century), for a time plus a duration that
/// overflows.
const FAR: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// `at + after`, or a century on (or `at` itself) when that is past what the clock can
/// hold: settings of `Duration::MAX` ("no timeout", "no cap") and servers' max-age of
/// `u64::MAX` seconds must not panic.
pub(crate) fn later(at: SystemTime, after: Duration) -> SystemTime {
    at.checked_add(after)
        .or_else(|| at.checked_add(FAR))
        .unwrap_or(at)
}

/// [`later`] for the monotonic deadlines of requests.
pub(crate) fn deadline(at: tokio::time::Instant, after: Duration) -> tokio::time::Instant {
    at.checked_add(after)
        .or_else(|| at.checked_add(FAR))
        .unwrap_or(at)
}

/// Where the fetcher reads the time. HTTP dates are wall-clock dates, so this is
/// [`SystemTime`], not a monotonic clock.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The current time.
    fn now(&self) -> SystemTime;
}

/// The real time.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that only moves when told to. Clones share one time.
///
/// ```
/// use std::time::Duration;
/// use robots_fetch::{Clock, ManualClock};
/// let clock = ManualClock::starting_now();
/// let before = clock.now();
/// clock.advance(Duration::from_secs(25 * 3600));
/// assert_eq!(clock.now().duration_since(before).unwrap().as_secs(), 25 * 3600);
/// ```
#[derive(Debug, Clone)]
pub struct ManualClock {
    now: Arc<Mutex<SystemTime>>,
}

impl ManualClock {
    /// A clock stopped at `start`.
    pub fn new(start: SystemTime) -> ManualClock {
        ManualClock {
            now: Arc::new(Mutex::new(start)),
        }
    }

    /// A clock stopped at the current real time, so that servers' `Date` headers agree
    /// with it until it is moved.
    pub fn starting_now() -> ManualClock {
        ManualClock::new(SystemTime::now())
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(|e| e.into_inner());
        *now += by;
    }

    /// Sets the clock.
    pub fn set(&self, to: SystemTime) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) = to;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }
}
