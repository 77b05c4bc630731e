//! Other records: sitemap, crawl-delay, request-rate, host and unknown keys, kept with
//! their line and group (RFC 9309 §2.2.4), their values read where they mean something.

use std::time::Duration;

use super::{span_from, Parser, Place};
use crate::aipref::{
    parse_dictionary, split_usage, Category, MalformedDictionary, SignalIssue, Signals,
};
use crate::behaviour::Behaviour;
use crate::diagnostic::Code;
use crate::directive::{classify, Directive, Spelling};
use crate::robots::{Pacing, Quote, RecordLine, RequestRate, NO_PACING};

/// Keys that real files use for extensions other crawlers read; they are kept as records
/// without an "unknown directive" warning.
const KNOWN_EXTENSIONS: [&str; 6] = [
    "clean-param",
    "content-signal",
    "content-usage",
    "visit-time",
    "cache-delay",
    "ai-train",
];

/// Page-level indexing rules, which belong in a robots meta tag or an `X-Robots-Tag`
/// header. Google read an unofficial `Noindex:` in robots.txt until 1 September 2019 and
/// then stopped ("A note on unsupported rules in robots.txt", Google Search Central blog,
/// July 2019); RFC 9309 has none of them. 294 of the 20,000 corpus files still write
/// `Noindex:` (3,347 lines), trusting it to keep pages out of search results.
const INDEXING_RULES: [&str; 3] = ["noindex", "nofollow", "noarchive"];

impl Parser {
    /// A Content-Usage line: a rule of its group (attach-05 §3 adds it to RFC 9309's
    /// `rule`), so it ends the group's user-agent lines; kept as a record, which
    /// `Robots::content_usage` reads. Before any user-agent line it applies to no one.
    pub(super) fn content_usage(&mut self, at: &Place<'_>) {
        if self.current_group().is_some() {
            self.closed = true;
        }
        self.record(at, Directive::ContentUsage);
    }

    /// Reports what a Content-Usage preference loses: a Dictionary that fails (an
    /// uppercase key apart, as vocab-07 §6.5.1 names it), and keys vocab-07 does not define.
    fn usage_diagnostics(&mut self, at: &Place<'_>) {
        let (_, preference) = split_usage(at.kv.value);
        let at_pref = at.kv.value.len() - preference.len();
        let mut unknown = Vec::new();
        let parsed = parse_dictionary(preference, |key, _| {
            if Category::of_label(key).is_none() {
                unknown.push(key.to_vec());
            }
        });
        let span = at.value_span();
        match parsed {
            Err(why) => {
                let code = match why {
                    MalformedDictionary::UppercaseKey => Code::UppercaseUsageKey,
                    _ => Code::MalformedContentUsage,
                };
                let quote = Quote::text(self.push_quote(preference));
                self.report(code, at.line, at.kv.value_at + at_pref, span, quote);
            }
            Ok(()) => {
                unknown.sort();
                unknown.dedup();
                for key in unknown {
                    let quote = Quote::text(self.push_quote(&key));
                    self.report(
                        Code::UnknownUsageCategory,
                        at.line,
                        at.kv.value_at + at_pref,
                        span.clone(),
                        quote,
                    );
                }
            }
        }
    }

    /// Reports Content-Signal keys and values that do not count.
    fn signal_diagnostics(&mut self, at: &Place<'_>) {
        let text = String::from_utf8_lossy(at.kv.value).into_owned();
        let mut issues = Vec::new();
        Signals::parse_noting(&text, |issue| {
            issues.push(match issue {
                SignalIssue::UnknownKey(key) => format!("key `{key}`"),
                SignalIssue::BadValue(key, value) => format!("`{key}={value}`"),
            })
        });
        for issue in issues {
            let quote = Quote::text(self.push_quote(issue.as_bytes()));
            self.report(
                Code::InvalidContentSignal,
                at.line,
                at.kv.value_at,
                at.value_span(),
                quote,
            );
        }
    }

    /// The pacing of group `g`, made on first use.
    fn pacing(&mut self, g: u32) -> &mut Pacing {
        let robots = &mut self.robots;
        let group = &mut robots.groups[g as usize];
        if group.pacing == NO_PACING {
            group.pacing = robots.pacing.len() as u32;
            robots.pacing.push(Pacing::default());
        }
        &mut robots.pacing[group.pacing as usize]
    }

    pub(super) fn record(&mut self, at: &Place<'_>, directive: Directive) {
        let group = self.current_group();
        let key = self.push_text(at.kv.key);
        let value = self.push_text(at.kv.value);
        self.robots
            .records
            .push(RecordLine::new(directive, key, value, at.line, group));
        let quote = self.quote_stored(at.kv.value, value, 0);
        if matches!(
            directive,
            Directive::ContentUsage | Directive::ContentSignal
        ) {
            if group.is_none() {
                let quote = self.quote_key_value(&at.kv);
                self.report(
                    Code::PreferenceOutsideGroup,
                    at.line,
                    at.kv.key_at,
                    at.key_span(),
                    quote,
                );
            }
            match directive {
                Directive::ContentUsage => self.usage_diagnostics(at),
                _ => self.signal_diagnostics(at),
            }
            return;
        }
        match directive {
            Directive::CrawlDelay => match parse_delay(self.robots.str(value)) {
                Some(delay) => {
                    if let Some(g) = group {
                        let slot = &mut self.pacing(g).crawl_delay;
                        *slot = Some(slot.map_or(delay, |d| d.max(delay)));
                    }
                }
                None => self.report(
                    Code::InvalidCrawlDelay,
                    at.line,
                    at.kv.value_at,
                    at.value_span(),
                    quote,
                ),
            },
            Directive::RequestRate => match parse_rate(self.robots.str(value)) {
                Some(rate) => {
                    if let Some(g) = group {
                        self.pacing(g).request_rate.get_or_insert(rate);
                    }
                }
                None => self.report(
                    Code::InvalidRequestRate,
                    at.line,
                    at.kv.value_at,
                    at.value_span(),
                    quote,
                ),
            },
            // A sitemap's value is often long: its octets are searched as they are,
            // without first checking that they are text.
            Directive::Sitemap
                if memchr::memmem::find(self.robots.text(value), b"://").is_none() =>
            {
                self.report(
                    Code::RelativeSitemap,
                    at.line,
                    at.kv.value_at,
                    at.value_span(),
                    quote,
                )
            }
            Directive::Other => {
                let is = |k: &&str| k.as_bytes().eq_ignore_ascii_case(at.kv.key);
                let code = if classify(at.kv.key, &Behaviour::GOOGLE).1 == Spelling::Prefix {
                    Code::PrefixDirective
                } else if INDEXING_RULES.iter().any(is) {
                    Code::IndexingRule
                } else if !KNOWN_EXTENSIONS.iter().any(is) {
                    Code::UnknownDirective
                } else {
                    return;
                };
                let both = span_from(key.range().start, value.range().end);
                let utf8 = |b: &[u8]| std::str::from_utf8(b).is_ok();
                let quote = if self.utf8 || (utf8(at.kv.key) && utf8(at.kv.value)) {
                    Quote::two(both, key.len)
                } else {
                    self.quote_key_value(&at.kv)
                };
                self.report(code, at.line, at.kv.key_at, at.key_span(), quote);
            }
            _ => {}
        }
    }
}

fn parse_delay(text: &str) -> Option<Duration> {
    let secs: f64 = text.trim().parse().ok()?;
    (secs >= 0.0)
        .then(|| Duration::try_from_secs_f64(secs).ok())
        .flatten()
}

/// `requests/period`, the period in seconds or with a unit (`1/10s`, `3/1m`), and
/// optionally the time of day it applies in, as Seznam documents (`1/10s 1800-0900`): a
/// valid window is no mistake to report, but is not kept, as a group keeps one rate.
fn parse_rate(text: &str) -> Option<RequestRate> {
    let text = text.trim();
    let text = match text.rsplit_once(|c: char| c.is_ascii_whitespace()) {
        Some((rate, window)) if is_time_window(window) => rate,
        _ => text,
    };
    let (requests, per) = text.split_once('/')?;
    let requests: u32 = requests.trim().parse().ok()?;
    let per = per.trim();
    let (number, unit) = match per.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&per[..i], &per[i..]),
        None => (per, "s"),
    };
    let scale = match unit.to_ascii_lowercase().as_str() {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return None,
    };
    let number: u64 = number.trim().parse().ok()?;
    // A period too long to count in seconds is no rate a crawler could keep.
    let seconds = number.checked_mul(scale)?;
    (requests > 0 && number > 0).then(|| RequestRate {
        requests,
        per: Duration::from_secs(seconds),
    })
}

/// `hhmm-hhmm`, times of day in UTC (the extended robots.txt standard's Visit-time).
fn is_time_window(text: &str) -> bool {
    let time = |t: &str| {
        t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()) && t[..2] < *"24" && t[2..] < *"60"
    };
    text.split_once('-')
        .is_some_and(|(from, to)| time(from) && time(to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_and_rates() {
        assert_eq!(parse_delay("10"), Some(Duration::from_secs(10)));
        assert_eq!(parse_delay("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_delay("-1"), None);
        assert_eq!(parse_delay("ten"), None);
        assert_eq!(parse_delay("1e300"), None);
        assert_eq!(parse_rate("1/999999999999999999d"), None);
        assert_eq!(
            parse_rate("1/213503982334601d").map(|r| r.per.as_secs()),
            Some(213_503_982_334_601 * 86_400)
        );
        assert_eq!(
            parse_rate("1/10s"),
            Some(RequestRate {
                requests: 1,
                per: Duration::from_secs(10)
            })
        );
        assert_eq!(
            parse_rate("3/1m"),
            Some(RequestRate {
                requests: 3,
                per: Duration::from_secs(60)
            })
        );
        // Seznam's time window is read past (found as `1/1s 2000-2100` in real files).
        assert_eq!(
            parse_rate("1000/1s 0800-2359"),
            Some(RequestRate {
                requests: 1000,
                per: Duration::from_secs(1)
            })
        );
        assert_eq!(parse_rate("1/1s 2500-2600"), None);
        assert_eq!(parse_rate("1/1s soon"), None);
        assert_eq!(parse_rate("1/0"), None);
        assert_eq!(parse_rate("fast"), None);
    }
}
