//! Archive-Embargo periods and the end date of an embargo on one captured response
//! (draft-nottingham-archive-embargo §2, with HTTP-dates per RFC 9110 §5.6.7).

use std::time::{Duration, SystemTime};

/// The embargo period an `Archive-Embargo` value names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EmbargoPeriod {
    /// `w`: 7 days.
    Week,
    /// `m`: 31 days.
    Month,
    /// `q`: 90 days.
    Quarter,
}

impl EmbargoPeriod {
    /// Reads a value (`w`, `m` or `q`, case-insensitive, surrounding white space
    /// ignored); any other value is unsupported, and the rule is then ignored.
    pub fn parse(value: &[u8]) -> Option<EmbargoPeriod> {
        match crate::lines::trim(value).1 {
            b"w" | b"W" => Some(EmbargoPeriod::Week),
            b"m" | b"M" => Some(EmbargoPeriod::Month),
            b"q" | b"Q" => Some(EmbargoPeriod::Quarter),
            _ => None,
        }
    }

    /// The period in days.
    pub fn days(self) -> u32 {
        match self {
            EmbargoPeriod::Week => 7,
            EmbargoPeriod::Month => 31,
            EmbargoPeriod::Quarter => 90,
        }
    }

    /// The period as a duration.
    pub fn duration(self) -> Duration {
        Duration::from_secs(u64::from(self.days()) * 86_400)
    }

    /// The value as robots.txt writes it.
    pub fn letter(self) -> char {
        match self {
            EmbargoPeriod::Week => 'w',
            EmbargoPeriod::Month => 'm',
            EmbargoPeriod::Quarter => 'q',
        }
    }
}

/// An embargo on publishing what was captured under a group with `Archive-Embargo`.
///
/// ```
/// use robots::{Embargo, EmbargoPeriod};
/// use std::time::{Duration, UNIX_EPOCH};
///
/// let embargo = Embargo::new(EmbargoPeriod::Week);
/// let seen = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
/// // Last-Modified two days before it was first seen: the embargo runs from then.
/// let end = embargo.end(Some("Sun, 12 Nov 2023 22:13:20 GMT"), seen, seen);
/// assert_eq!(end, seen - Duration::from_secs(2 * 86_400) + Duration::from_secs(7 * 86_400));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Embargo {
    period: EmbargoPeriod,
}

impl Embargo {
    /// An embargo of the given period.
    pub fn new(period: EmbargoPeriod) -> Embargo {
        Embargo { period }
    }

    /// The period.
    pub fn period(&self) -> EmbargoPeriod {
        self.period
    }

    /// When publication may start for a response captured at `captured`, whose content
    /// (this URL with this body; a changed page is new content) was first observed at
    /// `first_observed`, with the given `Last-Modified` header value.
    ///
    /// The embargo runs from the earlier of Last-Modified and the first observation.
    /// Last-Modified counts only when it parses as an HTTP-date (IMF-fixdate, RFC 850 or
    /// asctime, RFC 9110 §5.6.7) and is not later than the capture (RFC 9110 §8.8.2.1:
    /// a date in the future of the response means nothing).
    ///
    /// # Panics
    ///
    /// As `SystemTime + Duration` does, when the end falls past what `SystemTime` can
    /// hold (on Linux, some 292 billion years on): only for a `first_observed` time no
    /// clock or HTTP-date gives. [`Embargo::checked_end`] returns `None` instead.
    pub fn end(
        &self,
        last_modified: Option<&str>,
        first_observed: SystemTime,
        captured: SystemTime,
    ) -> SystemTime {
        self.start(last_modified, first_observed, captured) + self.period.duration()
    }

    /// [`Embargo::end`], or `None` when the end falls past what `SystemTime` can hold.
    ///
    /// ```
    /// use robots::{Embargo, EmbargoPeriod};
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let embargo = Embargo::new(EmbargoPeriod::Quarter);
    /// let seen = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    /// assert_eq!(embargo.checked_end(None, seen, seen), Some(embargo.end(None, seen, seen)));
    /// ```
    pub fn checked_end(
        &self,
        last_modified: Option<&str>,
        first_observed: SystemTime,
        captured: SystemTime,
    ) -> Option<SystemTime> {
        self.start(last_modified, first_observed, captured)
            .checked_add(self.period.duration())
    }

    /// When the embargo period starts, as [`Embargo::end`] explains.
    pub fn start(
        &self,
        last_modified: Option<&str>,
        first_observed: SystemTime,
        captured: SystemTime,
    ) -> SystemTime {
        last_modified
            .and_then(|v| httpdate::parse_http_date(v.trim()).ok())
            .filter(|lm| *lm <= captured)
            .map_or(first_observed, |lm| lm.min(first_observed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::UNIX_EPOCH;

    const DAY: u64 = 86_400;
    // Sun, 06 Nov 1994 08:49:37 GMT, the example date of RFC 9110 §5.6.7.
    const NOV_6_1994: u64 = 784_111_777;

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn values_are_w_m_q_in_any_case() {
        assert_eq!(EmbargoPeriod::parse(b"w"), Some(EmbargoPeriod::Week));
        assert_eq!(EmbargoPeriod::parse(b" M "), Some(EmbargoPeriod::Month));
        assert_eq!(EmbargoPeriod::parse(b"Q"), Some(EmbargoPeriod::Quarter));
        assert_eq!(EmbargoPeriod::parse(b"y"), None);
        assert_eq!(EmbargoPeriod::parse(b"week"), None);
        assert_eq!(EmbargoPeriod::parse(b""), None);
        assert_eq!(
            [
                EmbargoPeriod::Week,
                EmbargoPeriod::Month,
                EmbargoPeriod::Quarter
            ]
            .map(|p| p.days()),
            [7, 31, 90]
        );
    }

    #[test]
    fn all_three_http_date_formats_are_read() {
        let embargo = Embargo::new(EmbargoPeriod::Week);
        let seen = at(NOV_6_1994 + 10 * DAY);
        for lm in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(
                embargo.end(Some(lm), seen, seen),
                at(NOV_6_1994 + 7 * DAY),
                "{lm}"
            );
        }
    }

    #[test]
    fn first_observation_counts_when_earlier_than_last_modified() {
        let embargo = Embargo::new(EmbargoPeriod::Month);
        let seen = at(NOV_6_1994 - DAY);
        let captured = at(NOV_6_1994 + DAY);
        assert_eq!(
            embargo.end(Some("Sun, 06 Nov 1994 08:49:37 GMT"), seen, captured),
            at(NOV_6_1994 + 30 * DAY)
        );
    }

    #[test]
    fn an_end_past_what_system_time_holds_is_none() {
        let embargo = Embargo::new(EmbargoPeriod::Week);
        let last = (0..64)
            .rev()
            .map(|bit| 1u64 << bit)
            .fold(UNIX_EPOCH, |t, step| {
                t.checked_add(Duration::from_secs(step)).unwrap_or(t)
            });
        assert_eq!(embargo.checked_end(None, last, last), None);
        let seen = at(NOV_6_1994);
        assert_eq!(
            embargo.checked_end(None, seen, seen),
            Some(at(NOV_6_1994 + 7 * DAY))
        );
    }

    #[test]
    fn unparseable_or_future_last_modified_is_ignored() {
        let embargo = Embargo::new(EmbargoPeriod::Quarter);
        let seen = at(NOV_6_1994 - DAY);
        let end = at(NOV_6_1994 + 89 * DAY);
        assert_eq!(embargo.end(Some("yesterday"), seen, seen), end);
        assert_eq!(
            embargo.end(Some("Sun, 06 Nov 1994 08:49:37 GMT"), seen, seen),
            end
        );
        assert_eq!(embargo.end(None, seen, seen), end);
    }
}
