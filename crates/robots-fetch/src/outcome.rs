//! What a robots.txt lookup can end in: the rules to apply (a parsed file, allow all or
//! disallow all) and where they came from (RFC 9309 §2.3.1's status classes).

use std::fmt;
use std::time::{Duration, SystemTime};

use robots::Robots;
use url::Url;

/// The rules a lookup gives. Unavailable and unreachable robots.txt are modelled here,
/// not as made-up robots.txt text.
#[derive(Debug, Clone)]
pub enum Rules {
    /// A robots.txt body, parsed (boxed: the other answers are a word each).
    Parsed(Box<Robots>),
    /// No robots.txt applies: every URL may be crawled (RFC 9309 §2.3.1.3).
    AllowAll,
    /// The robots.txt could not be reached: no URL may be crawled (RFC 9309 §2.3.1.4),
    /// but for what the profile always allows, `/robots.txt` itself in the RFC 9309
    /// profile ([`Answer::decide`](crate::Answer::decide)).
    DisallowAll,
}

impl Rules {
    /// The parsed file, when there is one.
    pub fn robots(&self) -> Option<&Robots> {
        match self {
            Rules::Parsed(robots) => Some(robots),
            _ => None,
        }
    }
}

/// One request of a lookup: the URL asked and the status it answered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    pub(crate) url: Url,
    pub(crate) status: u16,
}

impl Hop {
    /// The URL asked.
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// The HTTP status code of the response.
    pub fn status(&self) -> u16 {
        self.status
    }
}

/// Why a robots.txt is unavailable, which means every URL is allowed (RFC 9309
/// §2.3.1.3, and §2.3.1.2 for redirects). More reasons may come, so matches need a `_`
/// arm.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unavailable {
    /// A 4xx status (400–499).
    Status(u16),
    /// More redirects than the limit (RFC 9309 §2.3.1.2: at least five are followed).
    TooManyRedirects {
        /// [`Config::max_redirects`](crate::Config::max_redirects).
        limit: usize,
    },
    /// A redirect back to a URL already asked in this lookup.
    RedirectLoop {
        /// The URL asked twice.
        url: Url,
    },
    /// A 3xx response whose Location is missing or not an http(s) URL.
    BadRedirect {
        /// The 3xx status.
        status: u16,
        /// The Location header, if there was one.
        location: Option<String>,
    },
}

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unavailable::Status(status) => write!(f, "status {status}"),
            Unavailable::TooManyRedirects { limit } => {
                write!(f, "more than {limit} redirects")
            }
            Unavailable::RedirectLoop { url } => write!(f, "redirect loop back to {url}"),
            Unavailable::BadRedirect { status, location } => match location {
                Some(location) => write!(f, "status {status} redirects to unusable `{location}`"),
                None => write!(f, "status {status} without a Location header"),
            },
        }
    }
}

/// Why a robots.txt is unreachable, which means every URL is disallowed unless a
/// cached copy can stand in (RFC 9309 §2.3.1.4). More reasons may come, so matches need
/// a `_` arm.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unreachable {
    /// A 5xx status, or 429 when configured to count as unreachable.
    Status(u16),
    /// The host name did not resolve.
    Dns(String),
    /// No connection could be made (refused, unreachable network, TLS failure).
    Connect(String),
    /// The request, including reading the body, took longer than the timeout.
    Timeout(Duration),
    /// The connection broke or the server did not speak HTTP properly.
    Protocol(String),
    /// The body came in a content coding that cannot be undone (only gzip, br and
    /// deflate can), so the file could not be read: counted as unreachable rather than
    /// read as a file of no rules.
    Coding(String),
}

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreachable::Status(status) => write!(f, "status {status}"),
            Unreachable::Dns(why) => write!(f, "DNS failure: {why}"),
            Unreachable::Connect(why) => write!(f, "cannot connect: {why}"),
            Unreachable::Timeout(after) => write!(f, "no complete answer within {after:?}"),
            Unreachable::Protocol(why) => write!(f, "broken response: {why}"),
            Unreachable::Coding(coding) => write!(
                f,
                "the body is in content coding `{coding}`, which cannot be decoded (gzip, br and deflate can)"
            ),
        }
    }
}

/// What stood in for the rules of an unreachable robots.txt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// No usable copy: everything is disallowed (RFC 9309 §2.3.1.4).
    DisallowAll,
    /// The last copy fetched at `fetched_at`, used past its freshness because the site
    /// is unreachable (RFC 9309 §2.4 allows this).
    CachedCopy {
        /// When the copy was fetched.
        fetched_at: SystemTime,
    },
    /// Unreachable since `since`, longer than the configured outage (30 days by
    /// default): treated as unavailable, everything allowed (RFC 9309 §2.3.1.4).
    AllowAllAfterOutage {
        /// When the robots.txt was first found unreachable in this outage.
        since: SystemTime,
    },
}

/// Where an answer came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Fetched now: a 2xx response, parsed.
    Fetched,
    /// Served from the cache while fresh, without a request. `unavailable` is set when
    /// what was cached is an unavailable robots.txt (allow all).
    Cached {
        /// Why the cached robots.txt is unavailable, if it is.
        unavailable: Option<Unavailable>,
    },
    /// The cached copy was stale; the server answered 304 Not Modified, so its rules
    /// were kept and its freshness renewed (RFC 9111 §4.3.4).
    Revalidated,
    /// Fetched now: unavailable, so everything is allowed.
    Unavailable(Unavailable),
    /// Asked now and unreachable; `fallback` says what stood in for the rules.
    Unreachable {
        /// Why it could not be read.
        error: Unreachable,
        /// What the rules are instead.
        fallback: Fallback,
    },
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Fetched => f.write_str("fetched"),
            Source::Cached { unavailable: None } => f.write_str("cached"),
            Source::Cached {
                unavailable: Some(why),
            } => write!(f, "cached (unavailable: {why})"),
            Source::Revalidated => f.write_str("revalidated (304 Not Modified)"),
            Source::Unavailable(why) => write!(f, "unavailable ({why}): everything allowed"),
            Source::Unreachable { error, fallback } => {
                write!(f, "unreachable ({error}): ")?;
                match fallback {
                    Fallback::DisallowAll => f.write_str("everything disallowed"),
                    Fallback::CachedCopy { .. } => f.write_str("using the cached copy"),
                    Fallback::AllowAllAfterOutage { .. } => f.write_str(
                        "unreachable too long, treated as unavailable: everything allowed",
                    ),
                }
            }
        }
    }
}

impl Source {
    /// A short stable name: `fetched`, `cached`, `revalidated`, `unavailable`,
    /// `unreachable`.
    pub fn name(&self) -> &'static str {
        match self {
            Source::Fetched => "fetched",
            Source::Cached { .. } => "cached",
            Source::Revalidated => "revalidated",
            Source::Unavailable(_) => "unavailable",
            Source::Unreachable { .. } => "unreachable",
        }
    }
}
