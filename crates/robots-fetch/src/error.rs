//! What can go wrong before any request is made: a URL that names no robots.txt, a
//! client that cannot be built, an agent the engine refuses or the profile cannot serve.
//! Network trouble is never an error: it is an outcome.

/// A request that cannot be asked. Failures of the site itself (statuses, timeouts,
/// DNS) are not errors but answers: see [`crate::Source`].
/// Each message says what to give instead. More variants may come, so matches need a
/// `_` arm.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The URL to look up does not parse as an absolute URL.
    #[error(
        "`{url}` is not a URL ({reason}); give an absolute URL such as https://example.com/page"
    )]
    InvalidUrl {
        /// The URL as given.
        url: String,
        /// Why it does not parse.
        reason: url::ParseError,
    },
    /// The URL's scheme is neither `http` nor `https`.
    #[error("`{url}` uses the scheme `{scheme}`, but robots.txt governs only http and https URLs (RFC 9309 §2.3); give an http(s) URL")]
    UnsupportedScheme {
        /// The URL as given.
        url: String,
        /// Its scheme, e.g. `ftp`.
        scheme: String,
    },
    /// The URL names no host (e.g. `http:///a`).
    #[error("`{url}` has no host; give an absolute URL such as https://example.com/page")]
    NoHost {
        /// The URL as given.
        url: String,
    },
    /// [`Config::new`](crate::Config::new) was given a User-Agent that is blank or
    /// cannot be sent as a header value ([`Fetcher::new`](crate::Fetcher::new) says so).
    #[error("the User-Agent `{0}` cannot name the crawler: it must be a non-blank HTTP header value; use visible ASCII, e.g. `ExampleBot/1.0 (+https://example.com/bot)`")]
    InvalidUserAgent(String),
    /// The HTTP client could not be built (TLS roots, proxy settings).
    #[error("cannot set up the HTTP client ({0}); this is a TLS or system setup problem, not a problem with the site")]
    Client(#[source] reqwest::Error),
    /// [`Fetcher::decide`](crate::Fetcher::decide) was asked about an agent that honours
    /// Archive-Embargo by a fetcher reading robots.txt with [`robots::Profile::Google`],
    /// which describes Googlebot and knows no embargo: its embargo lines are unknown
    /// records, so the agent would silently get no embargo (docs/design.md, Archive-Embargo).
    #[error("the Google profile knows no Archive-Embargo, so `{agent}` cannot honour one: use Profile::Rfc9309 to honour embargoes, or an agent that does not honour them")]
    EmbargoWithGoogleProfile {
        /// The agent's name as given.
        agent: String,
    },
    /// The engine refused a setting: the crawler's name ([`Agent::new`](crate::Agent::new),
    /// [`Agent::from_user_agent`](crate::Agent::from_user_agent)) or a parse option
    /// ([`Options::max_bytes`](crate::Options::max_bytes)). Converts with `?`, so one
    /// error type covers setting a crawler up; the message is the engine's.
    #[error(transparent)]
    Engine(#[from] robots::Error),
}
