//! Fuzz target `archive_text`: arbitrary text is read by the archive's text parsers, as
//! WARC-Date and `--at` (`Timestamp::parse_rfc3339`), Wayback stamps and CDX bounds
//! (`parse_14_digits`, `parse_14_digits_end`), the `/cdx` query string (`CdxQuery::parse`)
//! and WARC-Profile (`RevisitProfile::from_uri`); its first 8 bytes are also an instant
//! to write. What is read must hold up:
//! - a parser gives a value or its documented error (`Error::BadTime` naming the text,
//!   `CdxProblem`), never a panic;
//! - an instant read is written (RFC 3339, 14 digits) in forms that read back to it, and
//!   any instant written reads back to itself or not at all, never to another instant;
//! - a Wayback prefix names a period: its start and end are the earliest and the latest
//!   instants whose 14 digits start with it;
//! - a CDX query read, written back as a query string, reads back the same query.

#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_archive::{CdxProblem, CdxQuery, Error, MatchType, RevisitProfile, Timestamp};
use std::time::SystemTime;

/// The parameters `/cdx` takes (the crate docs list them).
const PARAMETERS: [&str; 6] = ["url", "matchType", "from", "to", "limit", "output"];

fuzz_target!(|data: &[u8]| {
    if let Some(secs) = data.get(..8) {
        written(Timestamp::from_unix(i64::from_le_bytes(
            secs.try_into().expect("8 bytes"),
        )));
    }
    let text = String::from_utf8_lossy(data);
    w3c_dtf(&text);
    wayback(&text);
    cdx(&text);
    if let Some(profile) = RevisitProfile::from_uri(&text) {
        assert!(text.trim().ends_with(profile.as_str()), "{text:?}");
    }
});

/// Every form an instant is written in reads back to it, or is refused.
fn written(t: Timestamp) {
    let rfc3339 = t.rfc3339();
    if let Ok(back) = Timestamp::parse_rfc3339(&rfc3339) {
        assert_eq!(back, t, "{rfc3339}");
    }
    let digits = t.fourteen_digits();
    if let Ok(back) = Timestamp::parse_14_digits(&digits) {
        assert_eq!(back, t, "{digits}");
    }
    if let Ok(back) = Timestamp::parse_14_digits_end(&digits) {
        assert_eq!(back, t, "{digits}");
    }
    assert!(t.http_date().ends_with(" GMT"));
    assert_eq!(t.to_string(), rfc3339);
    assert_eq!(Timestamp::from(SystemTime::from(t)), t);
}

fn bad_time(result: &Result<Timestamp, Error>, text: &str, expected_word: &str) {
    match result {
        Ok(_) => {}
        Err(Error::BadTime { value, expected }) => {
            assert_eq!(value, text);
            assert!(expected.contains(expected_word), "{expected}");
        }
        Err(e) => panic!("{text:?}: not a time error: {e}"),
    }
}

fn w3c_dtf(text: &str) {
    let read = Timestamp::parse_rfc3339(text);
    bad_time(&read, text, "RFC 3339");
    if let Ok(t) = read {
        let rfc3339 = t.rfc3339();
        assert_eq!(
            Timestamp::parse_rfc3339(&rfc3339).ok(),
            Some(t),
            "{text:?} written as {rfc3339}"
        );
        let digits = t.fourteen_digits();
        assert_eq!(
            Timestamp::parse_14_digits(&digits).ok(),
            Some(t),
            "{text:?} written as {digits}"
        );
    }
}

fn wayback(text: &str) {
    let start = Timestamp::parse_14_digits(text);
    let end = Timestamp::parse_14_digits_end(text);
    bad_time(&start, text, "Wayback");
    bad_time(&end, text, "Wayback");
    if let Ok(s) = start {
        let digits = s.fourteen_digits();
        assert_eq!(
            Timestamp::parse_14_digits(&digits).ok(),
            Some(s),
            "{digits}"
        );
    }
    if let Ok(e) = end {
        let s = start.expect("a period with an end has a start");
        assert!(s <= e, "{text:?}: {s} after {e}");
        for (t, what) in [(s, "start"), (e, "end")] {
            let digits = t.fourteen_digits();
            assert!(digits.starts_with(text), "{text:?}: {what} {digits}");
        }
        let before = s.plus_secs(-1).fourteen_digits();
        assert!(!before.starts_with(text), "{text:?}: starts before {s}");
        let after = e.plus_secs(1).fourteen_digits();
        assert!(!after.starts_with(text), "{text:?}: ends after {e}");
    }
}

fn cdx(text: &str) {
    let query = match CdxQuery::parse(text) {
        Ok(query) => query,
        Err(CdxProblem::Unsupported { name }) => {
            assert!(!PARAMETERS.contains(&name.as_str()), "{name}");
            return;
        }
        Err(CdxProblem::Repeated { name }) => {
            assert!(PARAMETERS.contains(&name.as_str()), "{name}");
            return;
        }
        Err(problem) => {
            assert!(!problem.to_string().is_empty());
            return;
        }
    };
    assert!(query.limit <= 10_000, "{query:?}");
    assert!(
        query.url.starts_with("http://") || query.url.starts_with("https://"),
        "{query:?}"
    );
    let again = query_string(&query);
    assert_eq!(
        CdxQuery::parse(&again).as_ref(),
        Ok(&query),
        "{text:?} as {again:?}"
    );
}

/// `query` as a query string: every parameter given, the URL percent-encoded, a prefix
/// and a domain in pywb's shorthands, `url=…*` and `url=*.…`, since the URL read may
/// itself end in `*` (`url=a**` is a prefix `a*`, `url=*.a*` a domain `a*`), which
/// with a `matchType` would imply another type.
fn query_string(query: &CdxQuery) -> String {
    let mut url = String::new();
    for b in query.url.bytes() {
        if b.is_ascii_alphanumeric() {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    let mut out = match query.match_type {
        MatchType::Prefix => format!("url={url}*"),
        MatchType::Domain => format!("url=*.{url}"),
        other => format!("url={url}&matchType={}", other.as_str()),
    };
    if let Some(from) = query.from {
        out.push_str(&format!("&from={}", from.fourteen_digits()));
    }
    if let Some(to) = query.to {
        out.push_str(&format!("&to={}", to.fourteen_digits()));
    }
    let output = if query.json { "json" } else { "text" };
    out.push_str(&format!("&limit={}&output={output}", query.limit));
    out
}
