//! Everything a fetcher can be told: who it is, how long to wait, how to read statuses
//! RFC 9309 leaves open (429, long outages), how long to cache, and its clock and resolver.

use std::sync::Arc;
use std::time::Duration;

use robots::Options;

use crate::{CacheLimits, Clock, Resolve, SystemClock, SystemResolver};

/// How to treat 429 Too Many Requests. RFC 9309 §2.3.1.3 puts every 4xx in
/// "unavailable"; many crawlers read 429 as "slow down", i.e. unreachable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TooManyRequests {
    /// As RFC 9309 says: unavailable, everything allowed.
    #[default]
    Unavailable,
    /// Unreachable: everything disallowed (or the cached copy).
    Unreachable,
}

/// What to do once a robots.txt has been unreachable for [`Config::outage`]
/// (RFC 9309 §2.3.1.4 allows either).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AfterOutage {
    /// Treat it as unavailable: everything allowed.
    #[default]
    AllowAll,
    /// Keep using the cached copy (everything disallowed if there is none).
    KeepCached,
}

/// The fetcher's settings. Start from [`Config::new`] with the User-Agent header to send.
#[derive(Debug, Clone)]
pub struct Config {
    pub(crate) user_agent: String,
    pub(crate) options: Options,
    pub(crate) timeout: Duration,
    pub(crate) max_redirects: usize,
    pub(crate) too_many_requests: TooManyRequests,
    pub(crate) max_freshness: Duration,
    pub(crate) outage_limit: Duration,
    pub(crate) unreachable_retry: Duration,
    pub(crate) after_outage: AfterOutage,
    pub(crate) cache: CacheLimits,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) resolver: Arc<dyn Resolve>,
    pub(crate) proxy_from_env: bool,
}

const DAY: Duration = Duration::from_secs(24 * 3600);

impl Config {
    /// Defaults: RFC 9309 profile with a 512,000-byte parse limit, 30 s per request,
    /// 5 redirects, 429 unavailable, freshness capped at 24 h, a 30-day outage then
    /// allow all, unreachable answers re-asked after a minute, [`CacheLimits::default`],
    /// the system clock and resolver, and proxies from the environment (`HTTPS_PROXY`, …).
    /// `user_agent` is the User-Agent header sent, trimmed; [`Fetcher::new`](crate::Fetcher::new) refuses one
    /// that is blank or not a valid header value.
    pub fn new(user_agent: impl Into<String>) -> Config {
        Config {
            user_agent: user_agent.into(),
            options: Options::new(),
            timeout: Duration::from_secs(30),
            max_redirects: 5,
            too_many_requests: TooManyRequests::default(),
            max_freshness: DAY,
            outage_limit: 30 * DAY,
            unreachable_retry: Duration::from_secs(60),
            after_outage: AfterOutage::default(),
            cache: CacheLimits::default(),
            clock: Arc::new(SystemClock),
            resolver: Arc::new(SystemResolver),
            proxy_from_env: true,
        }
    }

    /// Profile and parse limit; the limit (plus the one byte that says whether it cuts a
    /// line) is also how much of the body is read (RFC 9309 §2.5), after any redirects.
    pub fn options(mut self, options: Options) -> Config {
        self.options = options;
        self
    }

    /// The longest a lookup may take, from connecting to the last byte of the body,
    /// redirects included. `Duration::MAX` waits as long as it takes.
    pub fn timeout(mut self, timeout: Duration) -> Config {
        self.timeout = timeout;
        self
    }

    /// Redirects followed before the robots.txt counts as unavailable. RFC 9309
    /// §2.3.1.2 asks for at least 5, the default.
    pub fn max_redirects(mut self, max: usize) -> Config {
        self.max_redirects = max;
        self
    }

    /// How to read 429 Too Many Requests.
    pub fn too_many_requests(mut self, treat_as: TooManyRequests) -> Config {
        self.too_many_requests = treat_as;
        self
    }

    /// The most a stored robots.txt is used without asking again, whatever its headers
    /// say. RFC 9309 §2.4: crawlers should not use a copy for more than 24 hours;
    /// `Duration::MAX` leaves the headers alone.
    pub fn max_freshness(mut self, max: Duration) -> Config {
        self.max_freshness = max;
        self
    }

    /// After how long unreachable the [`AfterOutage`] rule applies (30 days by default,
    /// RFC 9309 §2.3.1.4's example), and what it does.
    pub fn outage(mut self, limit: Duration, then: AfterOutage) -> Config {
        self.outage_limit = limit;
        self.after_outage = then;
        self
    }

    /// How long an unreachable answer stands before the server is asked again (1 minute
    /// by default): during an outage, a crawler checking many URLs of a site then asks
    /// for its robots.txt once a minute, not once per URL. `Duration::MAX` never asks
    /// again.
    pub fn unreachable_retry(mut self, after: Duration) -> Config {
        self.unreachable_retry = after;
        self
    }

    /// Bounds on the cache.
    pub fn cache_limits(mut self, limits: CacheLimits) -> Config {
        self.cache = limits;
        self
    }

    /// The clock freshness and outages are measured on.
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Config {
        self.clock = clock;
        self
    }

    /// The resolver host names go through.
    pub fn resolver(mut self, resolver: Arc<dyn Resolve>) -> Config {
        self.resolver = resolver;
        self
    }

    /// Whether to use proxies named in the environment (`HTTP_PROXY`, `HTTPS_PROXY`,
    /// `NO_PROXY`). On by default.
    pub fn proxy_from_env(mut self, yes: bool) -> Config {
        self.proxy_from_env = yes;
        self
    }

    /// The parse options.
    pub fn parse_options(&self) -> Options {
        self.options
    }
}
