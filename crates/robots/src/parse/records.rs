//! Other records: sitemap, crawl-delay, request-rate, host and unknown keys, kept with
//! their line and group (RFC 9309 §2.2.4), their values read where they mean something.

use std::time::Duration;

use super::{Parser, Place};
use crate::behaviour::Behaviour;
use crate::diagnostic::Code;
use crate::directive::{classify, did_you_mean, Directive, Spelling};
use crate::robots::{RecordLine, RequestRate};

/// Keys that real files use for extensions other crawlers read; they are kept as records
/// without an "unknown directive" warning.
const KNOWN_EXTENSIONS: [&str; 9] = [
    "clean-param",
    "content-signal",
    "content-usage",
    "noindex",
    "nofollow",
    "noarchive",
    "visit-time",
    "cache-delay",
    "ai-train",
];

impl Parser {
    pub(super) fn record(&mut self, at: &Place<'_>, directive: Directive) {
        let group = self.current_group();
        let key = self.push_text(at.kv.key);
        let value = self.push_text(at.kv.value);
        self.robots.records.push(RecordLine {
            directive,
            key,
            value,
            line: at.line,
            group,
        });
        let text = match directive {
            Directive::CrawlDelay | Directive::RequestRate | Directive::Sitemap => {
                String::from_utf8_lossy(at.kv.value).into_owned()
            }
            _ => String::new(),
        };
        match directive {
            Directive::CrawlDelay => match parse_delay(&text) {
                Some(delay) => {
                    if let Some(g) = group {
                        let slot = &mut self.robots.groups[g as usize].crawl_delay;
                        *slot = Some(slot.map_or(delay, |d| d.max(delay)));
                    }
                }
                None => self.report(
                    Code::InvalidCrawlDelay,
                    at.line,
                    at.kv.value_at,
                    at.value_span(),
                    format!("Crawl-delay `{text}` is not a number of seconds"),
                    Some("write the delay in seconds, e.g. `Crawl-delay: 10`".into()),
                ),
            },
            Directive::RequestRate => match parse_rate(&text) {
                Some(rate) => {
                    if let Some(g) = group {
                        self.robots.groups[g as usize]
                            .request_rate
                            .get_or_insert(rate);
                    }
                }
                None => self.report(
                    Code::InvalidRequestRate,
                    at.line,
                    at.kv.value_at,
                    at.value_span(),
                    format!("Request-rate `{text}` is not `requests/seconds`"),
                    Some(
                        "write e.g. `Request-rate: 1/10s` for one request every ten seconds".into(),
                    ),
                ),
            },
            Directive::Sitemap if !text.contains("://") => self.report(
                Code::RelativeSitemap,
                at.line,
                at.kv.value_at,
                at.value_span(),
                format!("Sitemap `{text}` is not an absolute URL"),
                Some("write the full URL, e.g. `Sitemap: https://example.com/sitemap.xml`".into()),
            ),
            Directive::Other => {
                let key = String::from_utf8_lossy(at.kv.key).to_ascii_lowercase();
                if let (google, Spelling::Prefix) = classify(at.kv.key, &Behaviour::GOOGLE) {
                    let name = google.name();
                    self.report(Code::PrefixDirective, at.line, at.kv.key_at, at.key_span(), format!("`{key}` is ignored under RFC 9309, but Google reads it as `{name}` because it starts with `{name}`"), Some(format!("spell it `{name}`")));
                } else if !KNOWN_EXTENSIONS.contains(&key.as_str()) {
                    let suggestion =
                        did_you_mean(at.kv.key).map(|n| format!("did you mean `{n}`?"));
                    self.report(Code::UnknownDirective, at.line, at.kv.key_at, at.key_span(), format!("`{key}` is not a directive crawlers know; the line is kept as a record only"), suggestion);
                }
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

fn parse_rate(text: &str) -> Option<RequestRate> {
    let (requests, per) = text.trim().split_once('/')?;
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
    (requests > 0 && number > 0).then(|| RequestRate {
        requests,
        per: Duration::from_secs(number * scale),
    })
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
        assert_eq!(parse_rate("1/0"), None);
        assert_eq!(parse_rate("fast"), None);
    }
}
