//! Instants as the archive stores and shows them: whole seconds of UTC, read from W3C-DTF
//! and RFC 3339 (`--at`, WARC-Date) and written as RFC 3339, HTTP-dates and 14-digit
//! Wayback stamps.
//!
//! The calendar (which dates exist, days and weekdays of the proleptic Gregorian
//! calendar, HTTP-dates) is `jiff`'s. Two things stay written here:
//! - The grammar of W3C-DTF (WARC 1.1 §5.4), a small tokenizer. jiff's RFC 3339 and
//!   ISO 8601 readers take forms W3C-DTF has not, which the archive has always refused
//!   (test `bad_dates_are_errors_not_panics`: an hour without minutes
//!   `2026-01-01T00Z`, a zone of hours `+01` or with seconds `+01:00:00`, the basic
//!   format `20260101`), and they read a leap second `:60` as `:59`, where this reader
//!   reads it as the next minute's first second, as it always has. Neither reads a
//!   year, year-month or date alone as an instant.
//! - HTTP-dates are written with jiff rather than `httpdate`, which refuses times
//!   before 1970 that a WARC-Date can hold; `httpdate` reads them back in the tests.
//!
//! An instant is any `i64` of seconds. Written out, an instant after 9999-12-31T23:59:59Z
//! (an embargo ending after a capture dated 9999-12-31, say) is written as that last
//! second, in every form, since neither a WARC-Date nor a Wayback stamp has room for a
//! fifth digit of year; likewise one before 0000-01-01T00:00:00Z is written as that
//! first second ([`Timestamp::EARLIEST`], [`Timestamp::LATEST`]).

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::Error;

/// An instant in whole seconds since 1970-01-01T00:00:00Z (negative before it).
///
/// Seconds are the precision of WARC-Date in practice and of HTTP-dates, so nothing is
/// lost, and the index can sort and compare plain integers.
///
/// Any instant is held, but only those of the years 0000 to 9999 can be written: RFC 3339
/// (§5.6, `date-fullyear = 4DIGIT`), WARC-Date and 14-digit stamps have four-digit years.
/// An instant past [`Timestamp::LATEST`] (the end of an embargo on a capture dated
/// 9999-12-31, say) is written as that last second, and one before
/// [`Timestamp::EARLIEST`] as that first second, rather than as a year no reader takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

const DAY: i64 = 86_400;

impl Timestamp {
    /// 0000-01-01T00:00:00Z, the first instant a four-digit year can write.
    pub const EARLIEST: Timestamp = Timestamp(-62_167_219_200);

    /// 9999-12-31T23:59:59Z, the last instant a four-digit year can write.
    pub const LATEST: Timestamp = Timestamp(253_402_300_799);

    /// The instant `secs` seconds after the Unix epoch.
    pub const fn from_unix(secs: i64) -> Timestamp {
        Timestamp(secs)
    }

    /// Seconds since the Unix epoch.
    pub fn unix(self) -> i64 {
        self.0
    }

    /// The current time, truncated to the second.
    pub fn now() -> Timestamp {
        Timestamp::from(SystemTime::now())
    }

    /// This instant plus `secs` seconds (saturating).
    pub fn plus_secs(self, secs: i64) -> Timestamp {
        Timestamp(self.0.saturating_add(secs))
    }

    /// Reads an RFC 3339 date-time (`2026-01-31T12:00:00Z`, `2026-01-31T13:00:00.5+01:00`)
    /// or any coarser W3C-DTF form WARC-Date may take (WARC 1.1 §5.4): to the minute
    /// (`2026-01-31T12:00Z`), or a date alone (`2026-01-31`, `2026-01`, `2026`), which
    /// means its first instant in UTC. A fraction of a second is dropped. It reads
    /// WARC-Date and the CLI's `--at` alike, so both take the same forms. An instant
    /// outside the years 0000 to 9999 in UTC (`0000-01-01T00:00+01:00`) is refused: the
    /// archive could not write it back as a WARC-Date or a Wayback stamp.
    pub fn parse_rfc3339(text: &str) -> Result<Timestamp, Error> {
        parse_w3c_dtf(text.trim()).ok_or_else(|| Error::BadTime {
            value: text.to_owned(),
            expected: "an RFC 3339 date-time such as 2026-01-31T12:00:00Z, or a W3C-DTF date \
                       such as 2026-01-31 (its first instant in UTC), in the years 0000 to \
                       9999 once in UTC",
        })
    }

    /// Reads a 14-digit Wayback timestamp (`20260131120000`, UTC); shorter prefixes
    /// (`2026`, `202601`…) mean the start of that period, as Wayback URLs allow.
    pub fn parse_14_digits(text: &str) -> Result<Timestamp, Error> {
        let bad = || Error::BadTime {
            value: text.to_owned(),
            expected: "a Wayback timestamp of 4 to 14 digits such as 20260131120000",
        };
        if !(4..=14).contains(&text.len()) || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let padded = format!("{text:0<14}");
        let field = |r: std::ops::Range<usize>| padded[r].parse::<i64>().unwrap_or(0);
        let (month, day) = (field(4..6).max(1), field(6..8).max(1));
        from_parts(
            field(0..4),
            month,
            day,
            field(8..10),
            field(10..12),
            field(12..14),
        )
        .ok_or_else(bad)
    }

    /// The last second of the period a 4-to-14-digit Wayback prefix names (`2026` ends
    /// at 2026-12-31T23:59:59Z, `202602` at 2026-02-28T23:59:59Z): the latest instant
    /// whose 14 digits start with it, as pywb reads the `to` bound of a CDX query.
    pub fn parse_14_digits_end(text: &str) -> Result<Timestamp, Error> {
        let bad = || Error::BadTime {
            value: text.to_owned(),
            expected: "a Wayback timestamp of 4 to 14 digits such as 20260131120000",
        };
        if !(4..=14).contains(&text.len()) || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let year: i64 = text[..4].parse().map_err(|_| bad())?;
        let given = |at: usize| text.get(at..).map_or("", |g| &g[..g.len().min(2)]);
        // The values of the field at `at`, largest first, that start with its digits given.
        let latest = |at: usize, values: std::ops::RangeInclusive<i64>| {
            values
                .rev()
                .filter(move |v| format!("{v:02}").starts_with(given(at)))
        };
        let month = latest(4, 1..=12).next().ok_or_else(bad)?;
        let day = latest(6, 1..=31)
            .find(|&d| from_parts(year, month, d, 0, 0, 0).is_some())
            .ok_or_else(bad)?;
        let hour = latest(8, 0..=23).next().ok_or_else(bad)?;
        let minute = latest(10, 0..=59).next().ok_or_else(bad)?;
        let second = latest(12, 0..=59).next().ok_or_else(bad)?;
        from_parts(year, month, day, hour, minute, second).ok_or_else(bad)
    }

    /// `2026-01-31T12:00:00Z`, the form WARC-Date uses; 9999-12-31T23:59:59Z for any
    /// later instant (see [`Timestamp`]).
    pub fn rfc3339(self) -> String {
        self.civil().strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
    }

    /// `20260131120000`, the form Wayback URLs and CDX lines use; `99991231235959` for
    /// any later instant.
    pub fn fourteen_digits(self) -> String {
        self.civil().strftime("%Y%m%d%H%M%S").to_string()
    }

    /// `Sat, 31 Jan 2026 12:00:00 GMT`, the HTTP-date form (RFC 9110 §5.6.7), whose
    /// year has four digits too: `Fri, 31 Dec 9999 23:59:59 GMT` for any later instant.
    pub fn http_date(self) -> String {
        self.civil()
            .strftime("%a, %d %b %Y %H:%M:%S GMT")
            .to_string()
    }

    /// The date and time of this instant in UTC, held to the years jiff's calendar
    /// spans (see the module docs).
    fn civil(self) -> jiff::civil::DateTime {
        let written = self.0.clamp(Timestamp::EARLIEST.0, Timestamp::LATEST.0);
        // Within the years 0000 to 9999, which jiff's calendar spans.
        EPOCH
            .checked_add(jiff::SignedDuration::from_secs(written))
            .unwrap_or(jiff::civil::DateTime::MAX)
    }
}

/// 1970-01-01T00:00:00, the Unix epoch in UTC.
const EPOCH: jiff::civil::DateTime = jiff::civil::datetime(1970, 1, 1, 0, 0, 0, 0);

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rfc3339())
    }
}

impl From<SystemTime> for Timestamp {
    fn from(t: SystemTime) -> Timestamp {
        match t.duration_since(UNIX_EPOCH) {
            Ok(d) => Timestamp(i64::try_from(d.as_secs()).unwrap_or(i64::MAX)),
            // Before 1970: round towards the past so that ordering is kept, down to
            // i64::MIN itself (2^63 seconds before, whose negation no i64 holds).
            Err(e) => {
                let d = e.duration();
                let secs = 0i64.checked_sub_unsigned(d.as_secs()).unwrap_or(i64::MIN);
                Timestamp(secs.saturating_sub(i64::from(d.subsec_nanos() > 0)))
            }
        }
    }
}

impl From<Timestamp> for SystemTime {
    fn from(t: Timestamp) -> SystemTime {
        if t.0 >= 0 {
            UNIX_EPOCH + Duration::from_secs(t.0.unsigned_abs())
        } else {
            UNIX_EPOCH - Duration::from_secs(t.0.unsigned_abs())
        }
    }
}

/// Reads W3C-DTF, the profile of ISO 8601 that WARC-Date uses (WARC 1.1 §5.4): a year,
/// year-month or date alone is its first instant in UTC; a time has minutes, optionally
/// seconds and a fraction (dropped), and a zone. RFC 3339's lower-case `t`, `z` and a
/// space for `T` are read too, as RFC 3339 date-times are what most writers send.
fn parse_w3c_dtf(text: &str) -> Option<Timestamp> {
    let mut s = text.as_bytes();
    let year = number(&mut s, 4)?;
    if s.is_empty() {
        return from_parts(year, 1, 1, 0, 0, 0);
    }
    take(&mut s, b"-")?;
    let month = number(&mut s, 2)?;
    if s.is_empty() {
        return from_parts(year, month, 1, 0, 0, 0);
    }
    take(&mut s, b"-")?;
    let day = number(&mut s, 2)?;
    if s.is_empty() {
        return from_parts(year, month, day, 0, 0, 0);
    }
    take(&mut s, b"Tt ")?;
    let hour = number(&mut s, 2)?;
    take(&mut s, b":")?;
    let minute = number(&mut s, 2)?;
    let mut second = 0;
    if take(&mut s, b":").is_some() {
        second = number(&mut s, 2)?;
        if take(&mut s, b".").is_some() {
            let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return None;
            }
            s = &s[digits..];
        }
    }
    let offset = match s {
        b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), zone @ ..] => {
            let mut zone = zone;
            let hours = number(&mut zone, 2)?;
            take(&mut zone, b":")?;
            let minutes = number(&mut zone, 2)?;
            if !zone.is_empty() || hours > 23 || minutes > 59 {
                return None;
            }
            let secs = hours * 3600 + minutes * 60;
            if *sign == b'+' {
                secs
            } else {
                -secs
            }
        }
        _ => return None,
    };
    let local = from_parts(year, month, day, hour, minute, second)?;
    let utc = local.0 - offset;
    four_digit_years().contains(&utc).then_some(Timestamp(utc))
}

/// Takes exactly `width` ASCII digits from the front of `s` as a number.
fn number(s: &mut &[u8], width: usize) -> Option<i64> {
    let digits = s.get(..width)?;
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    *s = &s[width..];
    Some(digits.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
}

/// Takes the first byte of `s` if it is one of `allowed`.
fn take(s: &mut &[u8], allowed: &[u8]) -> Option<()> {
    let (first, rest) = s.split_first()?;
    allowed.contains(first).then(|| *s = rest)
}

/// The instant of a date and time of day in UTC, if that date exists. A second of 60 (a
/// leap second) reads as the next minute's first.
fn from_parts(y: i64, mo: i64, d: i64, h: i64, mi: i64, s: i64) -> Option<Timestamp> {
    let small = |n: i64| i8::try_from(n).ok();
    let leap = s == 60;
    let time =
        jiff::civil::Time::new(small(h)?, small(mi)?, if leap { 59 } else { small(s)? }, 0).ok()?;
    let date = jiff::civil::Date::new(i16::try_from(y).ok()?, small(mo)?, small(d)?).ok()?;
    let since_epoch = date.to_datetime(time).duration_since(EPOCH);
    Some(Timestamp(since_epoch.as_secs() + i64::from(leap)))
}

/// The first instant of the year 0000 and of the year 10000 in UTC: what a four-digit
/// year can write is the instants from the one up to the other.
fn four_digit_years() -> std::ops::Range<i64> {
    let first = |y| from_parts(y, 1, 1, 0, 0, 0).map_or(0, Timestamp::unix);
    first(0)..first(9999) + 365 * DAY
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rfc3339_round_trips_and_honours_offsets() {
        let t = Timestamp::parse_rfc3339("2026-01-31T12:00:00Z").unwrap();
        assert_eq!(t.unix(), 1_769_860_800);
        assert_eq!(t.rfc3339(), "2026-01-31T12:00:00Z");
        assert_eq!(t.fourteen_digits(), "20260131120000");
        let shifted = Timestamp::parse_rfc3339("2026-01-31T13:30:00.250+01:30").unwrap();
        assert_eq!(shifted, t);
        assert_eq!(t.http_date(), "Sat, 31 Jan 2026 12:00:00 GMT");
    }

    #[test]
    fn every_w3c_dtf_granularity_reads_as_its_first_instant() {
        let read = |text| Timestamp::parse_rfc3339(text).unwrap().rfc3339();
        assert_eq!(read("2020"), "2020-01-01T00:00:00Z");
        assert_eq!(read("2020-02"), "2020-02-01T00:00:00Z");
        assert_eq!(read("2020-02-29"), "2020-02-29T00:00:00Z");
        assert_eq!(read("2020-02-01T00:00Z"), "2020-02-01T00:00:00Z");
        assert_eq!(read("2020-02-01T10:20+01:00"), "2020-02-01T09:20:00Z");
        assert_eq!(read("2020-02-01T10:20:30-00:30"), "2020-02-01T10:50:30Z");
        assert_eq!(
            read("2020-02-01T00:00:00.123456789Z"),
            "2020-02-01T00:00:00Z"
        );
        assert_eq!(read(" 2020-02-01 "), "2020-02-01T00:00:00Z");
        assert_eq!(read("0000-01-01T00:00:00-01:00"), "0000-01-01T01:00:00Z");
        assert_eq!(read("9999-12-31T23:59:59Z"), "9999-12-31T23:59:59Z");
    }

    #[test]
    fn bad_dates_are_errors_not_panics() {
        for bad in [
            "",
            "2026-02-30T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-01-01T00:00:00",
            "2026-01-01T00:00:00+1:00",
            "2026-01-01T00:00:00+01",
            "2026-01-01T00:00:00+01:00:00",
            "2026-01-01T00:00:00+24:00",
            "2026-01-01T00:00:00.Z",
            "2026-01-01T00:00.5Z",
            "２026-01-01T00:00:00Z",
            "yesterday",
            // W3C-DTF has no time without minutes or a zone, and no zone on a date.
            "2026-01-01T00Z",
            "2026-01-01T00:00",
            "2026-01-01T",
            "2026-01-01Z",
            "2026-00",
            "2026-02-30",
            "2026-1-01",
            "2026-",
            "2026-01-",
            "202",
            "20260101",
            "+2026",
            "2026-01-01T24:00Z",
            "2026-01-01T00:60Z",
            // In UTC, the years -1 and 10000, which RFC 3339 and 14 digits cannot write.
            "0000-01-01T00:00:00+01:00",
            "9999-12-31T23:30-00:31",
        ] {
            assert!(Timestamp::parse_rfc3339(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn wayback_stamps_read_full_and_partial() {
        let t = Timestamp::parse_14_digits("20240229235959").unwrap();
        assert_eq!(t.rfc3339(), "2024-02-29T23:59:59Z");
        let y = Timestamp::parse_14_digits("2024").unwrap();
        assert_eq!(y.rfc3339(), "2024-01-01T00:00:00Z");
        assert!(Timestamp::parse_14_digits("2023022900000").is_err());
        assert!(Timestamp::parse_14_digits("20230229000000").is_err());
        assert!(Timestamp::parse_14_digits("abc").is_err());
    }

    #[test]
    fn wayback_prefixes_end_with_the_last_second_of_their_period() {
        let end = |text| Timestamp::parse_14_digits_end(text).map(Timestamp::rfc3339);
        assert_eq!(end("2020").unwrap(), "2020-12-31T23:59:59Z");
        assert_eq!(end("202002").unwrap(), "2020-02-29T23:59:59Z");
        assert_eq!(end("202102").unwrap(), "2021-02-28T23:59:59Z");
        assert_eq!(end("20200415").unwrap(), "2020-04-15T23:59:59Z");
        assert_eq!(end("2020041512").unwrap(), "2020-04-15T12:59:59Z");
        assert_eq!(end("20200415123456").unwrap(), "2020-04-15T12:34:56Z");
        // An odd digit narrows the next field: months 10 to 12, days 20 to 29.
        assert_eq!(end("20201").unwrap(), "2020-12-31T23:59:59Z");
        assert_eq!(end("20200").unwrap(), "2020-09-30T23:59:59Z");
        assert_eq!(end("2020012").unwrap(), "2020-01-29T23:59:59Z");
        for bad in [
            "202",
            "2020023",
            "202013",
            "20200230",
            "2020x",
            "202001011260",
        ] {
            assert!(end(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn civil_conversion_agrees_with_http_dates_across_centuries() {
        assert_eq!(
            Timestamp::from_unix(-1).http_date(),
            "Wed, 31 Dec 1969 23:59:59 GMT"
        );
        for secs in [-86_401, 0, 951_782_400, 4_107_542_400, 1_769_860_800] {
            let t = Timestamp::from_unix(secs);
            let back = Timestamp::parse_rfc3339(&t.rfc3339()).unwrap();
            assert_eq!(back, t);
            if secs >= 0 {
                let http = httpdate::parse_http_date(&t.http_date()).unwrap();
                assert_eq!(Timestamp::from(http), t);
            }
        }
    }

    #[test]
    fn system_times_convert_both_ways_to_the_extremes() {
        for secs in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX] {
            let t = Timestamp::from_unix(secs);
            assert_eq!(Timestamp::from(SystemTime::from(t)), t, "{secs}");
        }
        let before = UNIX_EPOCH - Duration::from_millis(1500);
        assert_eq!(
            Timestamp::from(before).unix(),
            -2,
            "rounded towards the past"
        );
    }

    #[test]
    fn instants_past_the_year_9999_are_written_as_its_last_second() {
        assert_eq!(
            Timestamp::EARLIEST,
            Timestamp::parse_rfc3339("0000-01-01T00:00:00Z").unwrap()
        );
        assert_eq!(
            Timestamp::LATEST,
            Timestamp::parse_rfc3339("9999-12-31T23:59:59Z").unwrap()
        );
        // A capture dated 9999-12-31 under a 30-day embargo, and the far extremes.
        let capture = Timestamp::parse_rfc3339("9999-12-31T12:00:00Z").unwrap();
        for late in [capture.plus_secs(30 * DAY), Timestamp::from_unix(i64::MAX)] {
            assert_eq!(late.rfc3339(), "9999-12-31T23:59:59Z");
            assert_eq!(late.fourteen_digits(), "99991231235959");
            assert_eq!(late.http_date(), "Fri, 31 Dec 9999 23:59:59 GMT");
            // Written, it reads back: the last second, not a year RFC 3339 refuses.
            assert_eq!(
                Timestamp::parse_rfc3339(&late.to_string()).unwrap(),
                Timestamp::LATEST
            );
        }
        let early = Timestamp::from_unix(i64::MIN);
        assert_eq!(early.rfc3339(), "0000-01-01T00:00:00Z");
        assert_eq!(early.fourteen_digits(), "00000101000000");
        assert_eq!(early.http_date(), "Sat, 01 Jan 0000 00:00:00 GMT");
    }

    /// Instants in the years 0000 to 9999, which four-digit years can write.
    fn four_digit_years() -> std::ops::Range<i64> {
        // 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z.
        -62_167_219_200..253_402_300_800
    }

    /// The first second of year 0000 and the last of 9999 have neighbours outside every
    /// period, which their written forms cannot show: they are written as themselves.
    #[test]
    fn the_ends_of_the_four_digit_years_are_written_as_themselves() {
        let first = Timestamp::from_unix(four_digit_years().start);
        let last = Timestamp::from_unix(four_digit_years().end - 1);
        assert_eq!(first.fourteen_digits(), "00000101000000");
        assert_eq!(first.plus_secs(-1).fourteen_digits(), "00000101000000");
        assert_eq!(last.fourteen_digits(), "99991231235959");
        assert_eq!(last.plus_secs(1).fourteen_digits(), "99991231235959");
        // The regression the property met: year 0000's last second, prefix `0000`.
        let t = Timestamp::from_unix(-62_135_596_801);
        assert_eq!(Timestamp::parse_14_digits("0000").unwrap(), first);
        assert_eq!(Timestamp::parse_14_digits_end("0000").unwrap(), t);
    }

    proptest! {
        /// Every form the archive writes reads back as the instant written, and the
        /// HTTP-date agrees with the `httpdate` crate's reading of it.
        #[test]
        fn written_instants_read_back(secs in four_digit_years()) {
            let t = Timestamp::from_unix(secs);
            prop_assert_eq!(Timestamp::parse_rfc3339(&t.rfc3339()).unwrap(), t);
            prop_assert_eq!(Timestamp::parse_14_digits(&t.fourteen_digits()).unwrap(), t);
            prop_assert_eq!(Timestamp::parse_14_digits_end(&t.fourteen_digits()).unwrap(), t);
            if secs >= 0 {
                let http = httpdate::parse_http_date(&t.http_date()).unwrap();
                prop_assert_eq!(Timestamp::from(http), t);
            }
        }

        /// An instant written in local time with any zone offset (and a fraction, which
        /// is dropped) reads as that instant.
        #[test]
        fn zone_offsets_are_undone(
            secs in four_digit_years(),
            offset in -(23 * 60 + 59)..=(23i64 * 60 + 59),
            fraction in proptest::option::of("[0-9]{1,9}"),
        ) {
            let t = Timestamp::from_unix(secs);
            let local = t.plus_secs(offset * 60).rfc3339();
            prop_assume!(local.len() == 20, "a local time in a four-digit year");
            let sign = if offset < 0 { '-' } else { '+' };
            let (h, m) = (offset.abs() / 60, offset.abs() % 60);
            let fraction = fraction.map_or(String::new(), |f| format!(".{f}"));
            let text = format!("{}{fraction}{sign}{h:02}:{m:02}", &local[..19]);
            prop_assert_eq!(Timestamp::parse_rfc3339(&text).unwrap(), t, "{}", text);
        }

        /// A Wayback prefix of an instant's 14 digits names a period holding it: its
        /// start and its end are instants whose digits start with the prefix, the
        /// earliest and the latest such.
        #[test]
        fn a_wayback_prefix_names_the_period_around_its_instants(
            secs in four_digit_years(),
            len in 4usize..=14,
        ) {
            let t = Timestamp::from_unix(secs);
            let digits = t.fourteen_digits();
            let prefix = &digits[..len];
            let start = Timestamp::parse_14_digits(prefix).unwrap();
            let end = Timestamp::parse_14_digits_end(prefix).unwrap();
            prop_assert!(start <= t && t <= end, "{} in {}..={}", t, start, end);
            prop_assert!(start.fourteen_digits().starts_with(prefix));
            prop_assert!(end.fourteen_digits().starts_with(prefix));
            // Outside the years 0000 to 9999 an instant is written as the nearest one that
            // can be, so a period that starts at the first such second (or ends at the
            // last) has no neighbour written outside it.
            let (first, last) = (four_digit_years().start, four_digit_years().end - 1);
            if start.unix() > first {
                prop_assert!(!start.plus_secs(-1).fourteen_digits().starts_with(prefix));
            }
            if end.unix() < last {
                prop_assert!(!end.plus_secs(1).fourteen_digits().starts_with(prefix));
            }
        }

        /// Any text: an instant or an error naming what was expected; never a panic.
        #[test]
        fn any_text_is_an_instant_or_an_error(text in "[0-9T:Z.+-]{0,30}|\\PC{0,30}") {
            if let Err(e) = Timestamp::parse_rfc3339(&text) {
                prop_assert!(e.to_string().contains("RFC 3339"));
            }
            if let Err(e) = Timestamp::parse_14_digits(&text) {
                prop_assert!(e.to_string().contains("Wayback"));
            }
            if let Err(e) = Timestamp::parse_14_digits_end(&text) {
                prop_assert!(e.to_string().contains("Wayback"));
            }
        }
    }
}
