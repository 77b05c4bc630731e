//! What a robots.txt response's status means for the rules (RFC 9309 §2.3.1), for the
//! npm package's `fromResponse`, which is handed a status and a body by the caller.

use crate::WebError;

/// Which rules a response gives: its body, or a blanket answer when there is no file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Availability {
    /// A 2xx: the body is the robots.txt (§2.3.1.1).
    Parsed,
    /// A 4xx: no robots.txt applies, so every URL may be crawled (§2.3.1.3).
    Unavailable(u16),
    /// A 5xx, or no HTTP answer at all (status 0, or one outside 100–599): nothing may be
    /// crawled but what the profile always allows, `/robots.txt` in RFC 9309's (§2.3.1.4).
    Unreachable(u16),
}

impl Availability {
    /// The rules a response with `status` gives, as `robots-fetch` reads them. A 3xx is
    /// refused: §2.3.1.2 asks the crawler to follow at least five redirects, so only the
    /// final response says what applies.
    pub fn of_status(status: u16) -> Result<Availability, WebError> {
        match status {
            200..=299 => Ok(Availability::Parsed),
            300..=399 => Err(WebError::Redirect(status)),
            400..=499 => Ok(Availability::Unavailable(status)),
            _ => Ok(Availability::Unreachable(status)),
        }
    }

    /// The engine's name for the state the response leaves the site in.
    pub fn state(self) -> robots::Availability {
        match self {
            Availability::Parsed => robots::Availability::Available,
            Availability::Unavailable(_) => robots::Availability::Unavailable,
            Availability::Unreachable(_) => robots::Availability::Unreachable,
        }
    }

    /// The verdict's `reason` when no file decides, as `robots fetch --format json`
    /// names it ([`robots_present::blanket_reason`]); `None` for a parsed file, whose
    /// verdicts give their own.
    pub fn blanket_reason(self, allowed: bool) -> Option<&'static str> {
        robots_present::blanket_reason(self.state(), allowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_the_rfc_classes() {
        assert_eq!(Availability::of_status(200), Ok(Availability::Parsed));
        assert_eq!(Availability::of_status(204), Ok(Availability::Parsed));
        assert_eq!(Availability::of_status(301), Err(WebError::Redirect(301)));
        assert_eq!(
            Availability::of_status(404),
            Ok(Availability::Unavailable(404))
        );
        assert_eq!(
            Availability::of_status(429),
            Ok(Availability::Unavailable(429))
        );
        assert_eq!(
            Availability::of_status(503),
            Ok(Availability::Unreachable(503))
        );
        assert_eq!(Availability::of_status(0), Ok(Availability::Unreachable(0)));
    }
}
