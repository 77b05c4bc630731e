//! The CDX listing `serve` answers at `/cdx`: pywb's CDX server fields plus each
//! record's `embargo_until` and `access`, as JSON lines or space-separated text.
//!
//! Of pywb's query parameters, [`PARAMETERS`] are supported, with pywb's meaning; any
//! other (`filter`, `fl`, `collapse`, `sort`, `closest`, `page`…), a repeated one, or a
//! value outside those supported is refused with a [`CdxProblem`] naming it, never
//! ignored, so a listing is never silently other than what was asked.

use serde::Serialize;

use crate::error::CdxProblem;
use crate::index::listing::{self, KeyMatch};
use crate::index::{Entry, Index};
use crate::time::Timestamp;
use crate::url::{encode_unsafe, normalise_url, surt};
use crate::Error;

/// Most lines one CDX query returns unless it asks for fewer.
pub const DEFAULT_LIMIT: u32 = 10_000;

/// The query parameters `/cdx` supports (kept beside the error that names them, so that
/// `error` imports nothing of the modules that use it).
pub(crate) use crate::error::CDX_PARAMETERS as PARAMETERS;

/// Which captures a query's URL selects, as pywb's `matchType` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchType {
    /// The URL itself, however it was written (its SURT key).
    Exact,
    /// Every URL whose key starts with the URL's (`url=…/*` for short).
    Prefix,
    /// Every URL of the URL's host and port.
    Host,
    /// Every URL of the URL's host and its subdomains, on any port (`url=*.host`).
    Domain,
}

impl MatchType {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchType::Exact => "exact",
            MatchType::Prefix => "prefix",
            MatchType::Host => "host",
            MatchType::Domain => "domain",
        }
    }

    fn parse(text: &str) -> Option<MatchType> {
        [
            MatchType::Exact,
            MatchType::Prefix,
            MatchType::Host,
            MatchType::Domain,
        ]
        .into_iter()
        .find(|m| m.as_str() == text)
    }
}

/// What a CDX query asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CdxQuery {
    /// The URL, read as `match_type` says.
    pub url: String,
    pub match_type: MatchType,
    /// Only captures at or after this time.
    pub from: Option<Timestamp>,
    /// Only captures at or before this time.
    pub to: Option<Timestamp>,
    pub json: bool,
    pub limit: u32,
}

impl CdxQuery {
    /// Reads the query string of a `/cdx` request (`url=example.com/*&from=2021`), as
    /// pywb's CDX server reads it: a URL without a scheme is http; `url=…*` means
    /// `matchType=prefix` and `url=*.host` `matchType=domain`; `from` and `to` are 4 to
    /// 14 digits, the start and the end of the period they name; `output` is `json` or
    /// `text`; `limit` is at most 10,000, its default.
    pub fn parse(query: &str) -> Result<CdxQuery, CdxProblem> {
        let mut params: Vec<(&'static str, String)> = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = percent_decode(name);
            let Some(&known) = PARAMETERS.iter().find(|&&p| p == name) else {
                return Err(CdxProblem::Unsupported { name });
            };
            if params.iter().any(|(n, _)| *n == known) {
                return Err(CdxProblem::Repeated { name });
            }
            params.push((known, percent_decode(value)));
        }
        let get = |name: &str| {
            params
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.as_str())
        };
        let bad = |name: &'static str, value: &str, expected: &'static str| CdxProblem::BadValue {
            name,
            value: value.to_owned(),
            expected,
        };
        let url = get("url").ok_or(CdxProblem::NoUrl)?;
        let given = get("matchType")
            .map(|m| {
                MatchType::parse(m)
                    .ok_or_else(|| bad("matchType", m, "exact, prefix, host or domain"))
            })
            .transpose()?;
        let (bare, implied) = if let Some(host) = url.strip_prefix("*.") {
            (host, Some(MatchType::Domain))
        } else if let Some(prefix) = url.strip_suffix('*') {
            (prefix, Some(MatchType::Prefix))
        } else {
            (url, None)
        };
        if bare.is_empty() {
            return Err(CdxProblem::NoUrl);
        }
        let match_type = match (given, implied) {
            (Some(given), Some(implied)) if given != implied => {
                return Err(CdxProblem::Conflict {
                    url: url.to_owned(),
                    implied: implied.as_str(),
                    given: given.as_str(),
                })
            }
            (given, implied) => given.or(implied).unwrap_or(MatchType::Exact),
        };
        let stamp = "4 to 14 digits of a Wayback timestamp, such as 2021 or 20210131120000";
        let from = get("from")
            .map(|v| Timestamp::parse_14_digits(v).map_err(|_| bad("from", v, stamp)))
            .transpose()?;
        let to = get("to")
            .map(|v| Timestamp::parse_14_digits_end(v).map_err(|_| bad("to", v, stamp)))
            .transpose()?;
        let json = match get("output") {
            None | Some("text") => false,
            Some("json") => true,
            Some(other) => return Err(bad("output", other, "json or text")),
        };
        let limit = match get("limit") {
            None => DEFAULT_LIMIT,
            Some(v) => v
                .parse::<u32>()
                .map_err(|_| bad("limit", v, "a whole number of lines"))?
                .min(DEFAULT_LIMIT),
        };
        Ok(CdxQuery {
            url: normalise_url(bare),
            match_type,
            from,
            to,
            json,
            limit,
        })
    }
}

/// One line of the listing, in pywb's field names and order; numbers are strings, as
/// pywb writes them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CdxLine {
    pub urlkey: String,
    pub timestamp: String,
    pub url: String,
    pub mime: String,
    pub status: String,
    pub digest: String,
    pub length: String,
    pub offset: String,
    pub filename: String,
    /// RFC 3339, or `null` when the record is never released.
    pub embargo_until: Option<String>,
    /// `released`, `embargoed`, `disallowed` or `no-robots` at the time of the query.
    pub access: &'static str,
}

impl CdxLine {
    pub fn new(e: &Entry, at: Timestamp) -> CdxLine {
        let access = e.access(at);
        CdxLine {
            urlkey: e.urlkey.clone(),
            timestamp: e.captured.fourteen_digits(),
            url: e.url.clone(),
            mime: e.mime.clone().unwrap_or_else(|| "unk".to_owned()),
            status: e.status.to_string(),
            digest: e.digest.as_ref().map_or("-", |d| d.bare()).to_owned(),
            length: e.length.to_string(),
            offset: e.offset.to_string(),
            filename: e.file.clone(),
            embargo_until: match access {
                crate::Access::Released | crate::Access::Embargoed => {
                    e.withheld_until().map(|t| t.rfc3339())
                }
                _ => None,
            },
            access: access.as_str(),
        }
    }

    /// The line as text: pywb's nine fields, then embargo end (`-` if none) and access.
    /// A URL captured with a space in it is written percent-encoded, so that every line
    /// has its eleven fields.
    pub fn to_text(&self) -> String {
        format!(
            "{} {} {} {} {} {} {} {} {} {} {}",
            self.urlkey,
            self.timestamp,
            encode_unsafe(&self.url),
            self.mime,
            self.status,
            self.digest,
            self.length,
            self.offset,
            self.filename,
            self.embargo_until.as_deref().unwrap_or("-"),
            self.access
        )
    }
}

/// The listing for `query` at time `at`, one line per capture, sorted by key and time.
pub fn listing(index: &Index, query: &CdxQuery, at: Timestamp) -> Result<String, Error> {
    let entries = listing::by_keys(
        index,
        key_match(&query.url, query.match_type),
        query.from,
        query.to,
        query.limit,
    )?;
    let mut out = String::new();
    for e in &entries {
        let line = CdxLine::new(e, at);
        if query.json {
            out.push_str(&serde_json::to_string(&line).unwrap_or_default());
        } else {
            out.push_str(&line.to_text());
        }
        out.push('\n');
    }
    Ok(out)
}

fn key_match(url: &str, match_type: MatchType) -> KeyMatch {
    let key = surt(url);
    // The host part of a key (`com,example:8080`) ends at its `)`.
    let host = key.split_once(')').map_or(key.as_str(), |(host, _)| host);
    match match_type {
        MatchType::Exact => KeyMatch::Exact(key.clone()),
        MatchType::Prefix => {
            // The key of a bare host ends in `/`, which longer paths' keys need not
            // share only when the URL itself did not end in one.
            let prefix = key.strip_suffix('/').filter(|_| !url.ends_with('/'));
            KeyMatch::Prefixes(vec![prefix.unwrap_or(&key).to_owned()])
        }
        MatchType::Host => KeyMatch::Prefixes(vec![format!("{host})")]),
        MatchType::Domain => {
            let name = match host.rsplit_once(':') {
                Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
                _ => host,
            };
            // The name itself on any port, and every subdomain (`com,example,www…`).
            KeyMatch::Prefixes([")", ":", ","].map(|end| format!("{name}{end}")).to_vec())
        }
    }
}

/// A query string value, percent-decoded (`+` as space).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(query: &str) -> Result<CdxQuery, CdxProblem> {
        CdxQuery::parse(query)
    }

    /// `text` with every octet but letters and digits percent-encoded.
    fn encoded(text: &str) -> String {
        text.bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => char::from(b).to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    }

    fn match_type() -> impl Strategy<Value = MatchType> {
        prop_oneof![
            Just(MatchType::Exact),
            Just(MatchType::Prefix),
            Just(MatchType::Host),
            Just(MatchType::Domain),
        ]
    }

    /// A prefix of 4 to 14 digits of an instant in the years 0000 to 9999.
    fn stamp() -> impl Strategy<Value = String> {
        (-62_167_219_200i64..=253_402_300_799, 4usize..=14)
            .prop_map(|(secs, len)| Timestamp::from_unix(secs).fourteen_digits()[..len].to_owned())
    }

    proptest! {
        /// A query built from its parts, in any order, plain or percent-encoded, with a
        /// match type given by name or by pywb's shorthand, reads as those parts.
        #[test]
        fn a_query_reads_as_the_parts_it_was_built_from(
            scheme in prop_oneof![Just(""), Just("http://"), Just("https://")],
            host in "[a-z]{1,8}\\.(test|com)",
            path in "(/[a-zA-Z0-9._~-]{0,6}){0,3}",
            match_type in match_type(),
            shorthand in any::<bool>(),
            from in proptest::option::of(stamp()),
            to in proptest::option::of(stamp()),
            limit in proptest::option::of(any::<u32>()),
            output in prop_oneof![Just(None), Just(Some("text")), Just(Some("json"))],
            encode in any::<bool>(),
            turn in any::<proptest::sample::Index>(),
        ) {
            let url = format!("{scheme}{host}{path}");
            let value = |v: &str| if encode { encoded(v) } else { v.to_owned() };
            let mut params = Vec::new();
            match (match_type, shorthand) {
                (MatchType::Prefix, true) => params.push(format!("url={}*", value(&url))),
                (MatchType::Domain, true) if scheme.is_empty() => {
                    params.push(format!("url=*.{}", value(&url)))
                }
                _ => {
                    params.push(format!("url={}", value(&url)));
                    params.push(format!("matchType={}", match_type.as_str()));
                }
            }
            params.extend(from.as_ref().map(|f| format!("from={f}")));
            params.extend(to.as_ref().map(|t| format!("to={t}")));
            params.extend(limit.map(|l| format!("limit={l}")));
            params.extend(output.map(|o| format!("output={o}")));
            let turn = turn.index(params.len());
            params.rotate_left(turn);
            let query = params.join("&");

            let read = parse(&query).map_err(|e| TestCaseError::fail(format!("{query}: {e}")))?;
            let scheme = if scheme.is_empty() { "http://" } else { scheme };
            prop_assert_eq!(read.url, format!("{scheme}{host}{path}"), "{}", query);
            prop_assert_eq!(read.match_type, match_type);
            prop_assert_eq!(read.from, from.map(|f| Timestamp::parse_14_digits(&f).unwrap()));
            prop_assert_eq!(read.to, to.map(|t| Timestamp::parse_14_digits_end(&t).unwrap()));
            prop_assert_eq!(read.json, output == Some("json"));
            prop_assert_eq!(read.limit, limit.map_or(DEFAULT_LIMIT, |l| l.min(DEFAULT_LIMIT)));
        }

        /// Any query string: a query, or a problem naming what to change; a parameter
        /// refused as unsupported is not one of those supported.
        #[test]
        fn any_query_string_reads_or_names_its_problem(
            query in "((url|from|to|limit|output|matchType|fl|[a-z%+]{0,4})(=[a-zA-Z0-9*%+./:]{0,12})?&?){0,5}"
        ) {
            match parse(&query) {
                Ok(q) => {
                    prop_assert!(q.limit <= DEFAULT_LIMIT);
                    prop_assert!(q.url.starts_with("http://") || q.url.starts_with("https://"));
                }
                Err(CdxProblem::Unsupported { name }) => {
                    prop_assert!(!PARAMETERS.contains(&name.as_str()), "{}", name)
                }
                Err(CdxProblem::Repeated { name }) => {
                    prop_assert!(PARAMETERS.contains(&name.as_str()), "{}", name)
                }
                Err(other) => prop_assert!(!other.to_string().is_empty()),
            }
        }
    }

    #[test]
    fn a_bare_url_is_an_exact_text_query_up_to_the_default_limit() {
        let q = parse("url=example.com/a").unwrap();
        assert_eq!(
            q,
            CdxQuery {
                url: "http://example.com/a".into(),
                match_type: MatchType::Exact,
                from: None,
                to: None,
                json: false,
                limit: DEFAULT_LIMIT,
            }
        );
        let q = parse("url=https%3A%2F%2Fx.test%2Fa%3Fb%3Dc&output=json&limit=99999").unwrap();
        assert_eq!(q.url, "https://x.test/a?b=c");
        assert!(q.json);
        assert_eq!(q.limit, DEFAULT_LIMIT);
        assert!(!parse("url=x.test&output=text").unwrap().json);
    }

    #[test]
    fn the_url_a_query_reads_reads_back_the_same() {
        // `url=/a` was read as `http:///a`, which asked for again was `http://a`.
        for (given, read) in [
            ("url=/a", "http://a"),
            ("url=%2F%2Fx.test%2Fa", "http://x.test/a"),
            ("url=HTTPS://x.test/", "https://x.test/"),
        ] {
            let q = parse(given).unwrap();
            assert_eq!(q.url, read, "{given}");
            assert_eq!(parse(&format!("url={}", q.url)).unwrap(), q, "{given}");
        }
    }

    #[test]
    fn from_and_to_cover_the_periods_they_name() {
        let q = parse("url=x.test&from=2021&to=202102").unwrap();
        assert_eq!(
            q.from.map(Timestamp::rfc3339).unwrap(),
            "2021-01-01T00:00:00Z"
        );
        assert_eq!(
            q.to.map(Timestamp::rfc3339).unwrap(),
            "2021-02-28T23:59:59Z"
        );
    }

    #[test]
    fn wildcards_are_pywb_shorthands_for_match_types() {
        let q = parse("url=x.test/news/*").unwrap();
        assert_eq!(
            (q.url.as_str(), q.match_type),
            ("http://x.test/news/", MatchType::Prefix)
        );
        let q = parse("url=*.x.test").unwrap();
        assert_eq!(
            (q.url.as_str(), q.match_type),
            ("http://x.test", MatchType::Domain)
        );
        let q = parse("url=x.test/news/*&matchType=prefix").unwrap();
        assert_eq!(q.match_type, MatchType::Prefix);
        assert_eq!(
            parse("url=x.test/news/*&matchType=exact"),
            Err(CdxProblem::Conflict {
                url: "x.test/news/*".into(),
                implied: "prefix",
                given: "exact"
            })
        );
        assert_eq!(
            parse("url=x.test&matchType=host").unwrap().match_type,
            MatchType::Host
        );
    }

    #[test]
    fn what_is_not_supported_is_refused_by_name() {
        for (query, name) in [
            ("url=x.test&filter=status:404", "filter"),
            ("url=x.test&fl=timestamp", "fl"),
            ("url=x.test&collapse=urlkey", "collapse"),
            ("url=x.test&matchtype=host", "matchtype"),
            ("url=x.test&sort=reverse", "sort"),
            ("url=x.test&showNumPages", "showNumPages"),
        ] {
            let problem = parse(query).unwrap_err();
            assert_eq!(problem, CdxProblem::Unsupported { name: name.into() });
            assert!(
                problem.to_string().contains(&format!("`{name}`")),
                "{problem}"
            );
            assert!(problem
                .to_string()
                .contains("url, matchType, from, to, limit, output"));
        }
        assert_eq!(
            parse("url=x.test&from=2020&from=2021"),
            Err(CdxProblem::Repeated {
                name: "from".into()
            })
        );
        for (query, name, value) in [
            ("url=x.test&matchType=bogus", "matchType", "bogus"),
            ("url=x.test&matchType=", "matchType", ""),
            ("url=x.test&from=2021-01-01", "from", "2021-01-01"),
            ("url=x.test&to=202013", "to", "202013"),
            ("url=x.test&output=cdxj", "output", "cdxj"),
            ("url=x.test&limit=-1", "limit", "-1"),
        ] {
            match parse(query) {
                Err(CdxProblem::BadValue {
                    name: n, value: v, ..
                }) => {
                    assert_eq!((n, v.as_str()), (name, value), "{query}")
                }
                other => panic!("{query}: {other:?}"),
            }
        }
        assert_eq!(parse(""), Err(CdxProblem::NoUrl));
        assert_eq!(parse("url=&output=json"), Err(CdxProblem::NoUrl));
        assert_eq!(parse("url=*"), Err(CdxProblem::NoUrl));
    }

    #[test]
    fn hosts_and_domains_select_by_key_prefix() {
        let prefixes = |url, m| match key_match(url, m) {
            KeyMatch::Prefixes(p) => p,
            KeyMatch::Exact(k) => vec![k],
        };
        assert_eq!(
            prefixes("http://www.x.test/a", MatchType::Exact),
            ["test,x)/a"]
        );
        assert_eq!(prefixes("http://x.test", MatchType::Prefix), ["test,x)"]);
        assert_eq!(prefixes("http://x.test/", MatchType::Prefix), ["test,x)/"]);
        assert_eq!(prefixes("http://x.test/a", MatchType::Host), ["test,x)"]);
        assert_eq!(
            prefixes("http://x.test:8080/", MatchType::Host),
            ["test,x:8080)"]
        );
        assert_eq!(
            prefixes("http://x.test:8080/a", MatchType::Domain),
            ["test,x)", "test,x:", "test,x,"]
        );
        assert_eq!(
            prefixes("http://[::1]/", MatchType::Domain),
            ["[::1])", "[::1]:", "[::1],"]
        );
    }

    #[test]
    fn query_values_are_percent_decoded() {
        assert_eq!(
            percent_decode("http%3A%2F%2Fx%2Fa%3Fb%3Dc"),
            "http://x/a?b=c"
        );
        assert_eq!(percent_decode("a+b"), "a b");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
    }

    use crate::index::listing::index_of;

    /// How many thousands of SQLite VM steps the listing for `query` takes.
    fn cost(index: &Index, query: &str) -> (usize, u32) {
        let steps = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let counter = steps.clone();
        index.conn.progress_handler(
            1000,
            Some(move || {
                counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                false
            }),
        );
        let lines = listing(
            index,
            &CdxQuery::parse(query).unwrap(),
            Timestamp::from_unix(0),
        )
        .unwrap()
        .lines()
        .count();
        index.conn.progress_handler(1000, None::<fn() -> bool>);
        (lines, steps.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// A prefix, host or domain query that selects few keys costs a few steps whatever
    /// the keys after it: a walk to the end of the index under a query that matches
    /// nothing would hold a reader for as long as the index is large.
    #[test]
    fn queries_read_only_the_keys_they_select() {
        let dir = tempfile::tempdir().unwrap();
        let index = index_of(dir.path(), 5_000);
        for query in [
            "url=a.test/*",
            "url=a.test&matchType=host",
            "url=*.a.test",
            "url=b.test/nothing*",
        ] {
            assert_eq!(cost(&index, query), (0, 0), "{query}");
        }
        let (lines, steps) = cost(&index, "url=b.test/4999*");
        assert_eq!(lines, 1);
        assert!(steps < 5, "{steps} thousand steps");
        // The same query on the whole host reads every key: the counting is real.
        let (lines, steps) = cost(&index, "url=b.test&matchType=host");
        assert_eq!(lines, 5_000);
        assert!(steps > 50, "{steps} thousand steps");
    }
}
