//! What can go wrong before any request is made: a URL that names no robots.txt, or a
//! client that cannot be built. Network trouble is never an error: it is an outcome.

/// A request that cannot be asked. Failures of the site itself (statuses, timeouts,
/// DNS) are not errors but answers: see [`crate::Source`].
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(
        "`{url}` is not a URL ({reason}); give an absolute URL such as https://example.com/page"
    )]
    InvalidUrl {
        url: String,
        reason: url::ParseError,
    },
    #[error("`{url}` uses the scheme `{scheme}`, but robots.txt governs only http and https URLs (RFC 9309 §2.3); give an http(s) URL")]
    UnsupportedScheme { url: String, scheme: String },
    #[error("`{url}` has no host; give an absolute URL such as https://example.com/page")]
    NoHost { url: String },
    #[error("the User-Agent `{0}` cannot name the crawler: it must be a non-blank HTTP header value; use visible ASCII, e.g. `ExampleBot/1.0 (+https://example.com/bot)`")]
    InvalidUserAgent(String),
    #[error("cannot set up the HTTP client ({0}); this is a TLS or system setup problem, not a problem with the site")]
    Client(#[source] reqwest::Error),
}
