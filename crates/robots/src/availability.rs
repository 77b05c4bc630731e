//! What the final HTTP status of a robots.txt fetch means for the rules (RFC 9309
//! §2.3.1): parse the body, allow everything, or disallow everything.

/// The state a robots.txt fetch leaves its site in, by the final status of the fetch
/// (after redirects), as RFC 9309 §2.3.1 names them. Bindings and jobs that fetch (or
/// read captures) themselves use it so that every caller classifies statuses alike.
///
/// ```
/// use robots::Availability;
/// assert_eq!(Availability::of_status(200), Availability::Available);
/// assert_eq!(Availability::of_status(404), Availability::Unavailable);
/// assert_eq!(Availability::of_status(429), Availability::Unavailable);
/// assert_eq!(Availability::of_status(503), Availability::Unreachable);
/// assert_eq!(Availability::unreachable().allows_all(), Some(false));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Availability {
    /// A 2xx: the body is the robots.txt; parse it (§2.3.1.1).
    Available,
    /// A 4xx (429 too, as §2.3.1.3 says), or a redirect that was not followed to its end
    /// (§2.3.1.2 lets a crawler stop after five): there is no robots.txt, so everything
    /// may be crawled.
    Unavailable,
    /// A 5xx, a status outside 100–599 or 1xx as a final answer, or no answer at all (a
    /// network failure): the file could not be read, so nothing may be crawled but
    /// what the profile always allows (§2.3.1.4, [`Profile::always_allows`](crate::Profile::always_allows)).
    Unreachable,
}

impl Availability {
    /// The state a final HTTP `status` leaves the site in.
    pub fn of_status(status: u16) -> Availability {
        match status {
            200..=299 => Availability::Available,
            // A 3xx as the final status is a redirect not followed; §2.3.1.2.
            300..=499 => Availability::Unavailable,
            _ => Availability::Unreachable,
        }
    }

    /// The state when no HTTP answer came (connection refused, timeout, DNS failure).
    pub fn unreachable() -> Availability {
        Availability::Unreachable
    }

    /// Whether every URL is allowed (`Some(true)`), none is (`Some(false)`), or the body
    /// decides (`None`).
    pub fn allows_all(self) -> Option<bool> {
        match self {
            Availability::Available => None,
            Availability::Unavailable => Some(true),
            Availability::Unreachable => Some(false),
        }
    }

    /// The word `robots fetch --format json` uses for a verdict without a file to read:
    /// `unavailable` or `unreachable`; `fetched` for a file that was read.
    pub fn name(self) -> &'static str {
        match self {
            Availability::Available => "fetched",
            Availability::Unavailable => "unavailable",
            Availability::Unreachable => "unreachable",
        }
    }
}
