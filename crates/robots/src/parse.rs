//! Building a [`Robots`] from bytes: lines become groups, rules and records
//! (RFC 9309 §2.1–2.2), and everything skipped or guessed becomes a diagnostic.

use std::time::Duration;

use crate::agent::product_token;
use crate::behaviour::Behaviour;
use crate::diagnostic::{Code, Diagnostic};
use crate::directive::{classify, did_you_mean, Directive, Spelling};
use crate::lines::{bom_len, split_line, KeyValue, Line, LineContent, Lines};
use crate::normalize::{google_escape, rfc_normalize, Role};
use crate::pattern::{byte_mask, first_star, pattern_pairs};
use crate::robots::{AgentLine, GroupData, RecordLine, RequestRate, RuleLine, Site, Span};
use crate::{EmbargoPeriod, Options, Robots, RuleKind};

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

pub(crate) fn parse(bytes: &[u8], options: Options, behaviour: Behaviour) -> Robots {
    let data = within_limit(bytes, options.max_bytes);
    let mut parser = Parser {
        robots: Robots {
            options,
            behaviour,
            arena: Vec::with_capacity(data.len() / 2),
            groups: Vec::new(),
            agents: Vec::new(),
            rules: Vec::new(),
            records: Vec::new(),
            diagnostics: Vec::new(),
            size: bytes.len(),
            parsed: data.len(),
            lines: 0,
        },
        closed: true,
        blank_after_agent: false,
        utf8: false,
    };
    let bom = bom_len(data);
    if bom == 3 {
        parser.report(
            Code::ByteOrderMark,
            1,
            0,
            0..3,
            "the file starts with a UTF-8 byte-order mark, which is skipped".into(),
            Some("save the file as UTF-8 without a byte-order mark".into()),
        );
    }
    parser.check_encoding(data);
    for line in Lines::new(data, bom) {
        parser.robots.lines = line.number;
        parser.line(line);
    }
    if data.len() < bytes.len() {
        let line = parser.robots.lines;
        parser.report(
            Code::BeyondParseLimit,
            line,
            0,
            data.len()..bytes.len(),
            format!(
                "{} bytes past the parse limit of {} bytes are ignored, from line {line} on",
                bytes.len() - data.len(),
                options.max_bytes
            ),
            Some(
                "keep robots.txt under 500 KiB: crawlers stop reading there (RFC 9309 §2.5)".into(),
            ),
        );
    }
    parser.finish()
}

/// The bytes to parse: at most `limit`, cut back to the last whole line so that a rule is
/// never read half-written.
fn within_limit(bytes: &[u8], limit: usize) -> &[u8] {
    if bytes.len() <= limit {
        return bytes;
    }
    if matches!(bytes[limit], b'\n' | b'\r') {
        return &bytes[..limit];
    }
    let cut = memchr::memrchr2(b'\n', b'\r', &bytes[..limit]).map_or(0, |i| i + 1);
    &bytes[..cut]
}

struct Parser {
    robots: Robots,
    /// The current group has had a rule, so the next user-agent line opens a new one.
    closed: bool,
    /// A blank line came after the last user-agent line.
    blank_after_agent: bool,
    /// The whole input is UTF-8, so text can be stored without checking each piece.
    utf8: bool,
}

impl Parser {
    fn report(
        &mut self,
        code: Code,
        line: u32,
        column: usize,
        span: std::ops::Range<usize>,
        message: String,
        suggestion: Option<String>,
    ) {
        self.robots.diagnostics.push(Diagnostic {
            code,
            line,
            column: column as u32 + 1,
            span,
            message,
            suggestion,
        });
    }

    fn push_text(&mut self, bytes: &[u8]) -> Span {
        let start = self.robots.arena.len();
        if self.utf8 {
            self.robots.arena.extend_from_slice(bytes);
        } else {
            let text = String::from_utf8_lossy(bytes);
            self.robots.arena.extend_from_slice(text.as_bytes());
        }
        span_from(start, self.robots.arena.len())
    }

    fn current_group(&self) -> Option<u32> {
        (!self.robots.groups.is_empty()).then(|| self.robots.groups.len() as u32 - 1)
    }

    fn check_encoding(&mut self, data: &[u8]) {
        let utf8 = std::str::from_utf8(data);
        self.utf8 = utf8.is_ok();
        if let Err(e) = utf8 {
            let at = e.valid_up_to();
            let line = 1 + memchr::memchr2_iter(b'\n', b'\r', &data[..at]).count() as u32
                - memchr::memmem::find_iter(&data[..at], b"\r\n").count() as u32;
            self.report(
                Code::NotUtf8,
                line,
                0,
                at..at + 1,
                format!("byte 0x{:02X} at offset {at} is not UTF-8", data[at]),
                Some(
                    "save the file as UTF-8; crawlers read robots.txt as UTF-8 (RFC 9309 §2.2)"
                        .into(),
                ),
            );
        }
        let start = data
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(data.len());
        let head = &data[start..data.len().min(start + 15)];
        let lower = head.to_ascii_lowercase();
        if lower.starts_with(b"<!doctype html")
            || lower.starts_with(b"<html")
            || lower.starts_with(b"<head")
        {
            self.report(
                Code::LooksLikeHtml,
                1,
                start,
                start..start + head.len(),
                "this is an HTML page, not a robots.txt".into(),
                Some("serve a plain-text robots.txt, or a 404 if you have none".into()),
            );
        }
    }

    fn line(&mut self, line: Line<'_>) {
        let kv = match split_line(line.bytes, &self.robots.behaviour) {
            LineContent::Empty => {
                self.blank_after_agent |= crate::lines::trim(line.bytes).1.is_empty();
                return;
            }
            LineContent::Junk => {
                let text =
                    String::from_utf8_lossy(&line.bytes[..line.bytes.len().min(60)]).into_owned();
                self.report(
                    Code::JunkLine,
                    line.number,
                    0,
                    line.start..line.start + line.bytes.len(),
                    format!(
                        "`{}` is not a `key: value` line and is ignored",
                        text.trim()
                    ),
                    Some(
                        "write it as `key: value`, or start it with `#` to make it a comment"
                            .into(),
                    ),
                );
                return;
            }
            LineContent::Pair(kv) => kv,
        };
        let (directive, spelling) = classify(kv.key, &self.robots.behaviour);
        let at = Place {
            line: line.number,
            start: line.start,
            kv,
        };
        self.spelling_diagnostics(&at, directive, spelling);
        match directive {
            Directive::UserAgent => self.user_agent(&at),
            Directive::Allow => self.rule(&at, RuleKind::Allow),
            Directive::Disallow => self.rule(&at, RuleKind::Disallow),
            Directive::EmbargoAllow => self.rule(&at, RuleKind::EmbargoAllow),
            Directive::ArchiveEmbargo => self.archive_embargo(&at),
            _ => self.record(&at, directive),
        }
    }

    fn spelling_diagnostics(&mut self, at: &Place<'_>, directive: Directive, spelling: Spelling) {
        if spelling == Spelling::Exact && !at.kv.missing_colon {
            return;
        }
        let key = String::from_utf8_lossy(at.kv.key).into_owned();
        let name = directive.name();
        match spelling {
            Spelling::Exact => {}
            Spelling::Lenient => self.report(
                Code::MisspeltDirective,
                at.line,
                at.kv.key_at,
                at.key_span(),
                format!("`{key}` is read as `{name}`"),
                Some(format!("spell it `{name}`")),
            ),
            Spelling::Prefix => self.report(
                Code::PrefixDirective,
                at.line,
                at.kv.key_at,
                at.key_span(),
                format!(
                    "`{key}` is read as `{name}` by Google only, because it starts with `{name}`"
                ),
                Some(format!("spell it `{name}`")),
            ),
        }
        if at.kv.missing_colon {
            self.report(
                Code::MissingColon,
                at.line,
                at.kv.key_at,
                at.key_span(),
                format!(
                    "no colon after `{key}`; read as `{key}: {}`",
                    String::from_utf8_lossy(at.kv.value)
                ),
                Some(format!("write `{key}: …`")),
            );
        }
    }

    /// Opens a group unless the current one is still collecting user-agent lines; returns
    /// the group's index.
    fn group_for_agent(&mut self) -> usize {
        if self.closed {
            let (agents, rules) = (
                self.robots.agents.len() as u32,
                self.robots.rules.len() as u32,
            );
            self.robots.groups.push(GroupData {
                agents: agents..agents,
                rules: rules..rules,
                ..GroupData::default()
            });
            self.closed = false;
        }
        self.robots.groups.len() - 1
    }

    fn user_agent(&mut self, at: &Place<'_>) {
        if !self.closed && self.blank_after_agent {
            self.report(Code::BlankLineBetweenGroups, at.line, at.kv.key_at, at.key_span(),
                "a blank line does not end a group: this user-agent line joins the group above, whose crawlers get the rules below too".into(),
                Some("remove the blank line if both crawlers share the rules, or give the group above its own rules (e.g. `Allow: /`)".into()));
        }
        self.blank_after_agent = false;
        let group = self.group_for_agent();
        let value = at.kv.value;
        let alpha = self.robots.behaviour.alpha_agent_tokens;
        let global = if alpha {
            value.first() == Some(&b'*') && value.get(1).is_none_or(|b| crate::lines::is_space(*b))
        } else {
            product_token(value, false) == "*"
        };
        let value_span = self.push_text(value);
        let token_len = product_token(self.robots.text(value_span), alpha).len() as u32;
        let token = Span {
            start: value_span.start,
            len: token_len,
        };
        self.robots.agents.push(AgentLine {
            global,
            token,
            value: value_span,
            line: at.line,
        });
        self.robots.groups[group].agents.end += 1;
        self.robots.groups[group].global |= global;

        if global {
            return;
        }
        // Diagnostics are rare; their text is only built when one is due.
        let (token_text, written) = (self.robots.str(token), self.robots.str(value_span));
        let with_version = token_text.len() < written.len();
        let outside_rfc = !token_text.is_empty()
            && !token_text
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_');
        if !with_version && !outside_rfc {
            return;
        }
        let (token_text, written) = (token_text.to_owned(), written.to_owned());
        if with_version {
            self.report(
                Code::AgentWithVersion,
                at.line,
                at.kv.value_at,
                at.value_span(),
                format!("only `{token_text}` of `{written}` names the crawler"),
                Some(format!("write `User-agent: {token_text}`")),
            );
        }
        if outside_rfc {
            self.report(Code::AgentNotRfc9309, at.line, at.kv.value_at, at.value_span(), format!("`{token_text}` has characters outside RFC 9309's [A-Za-z_-]; Google's matcher reads it as `{}`", product_token(token_text.as_bytes(), true)), None);
        }
    }

    /// The group a rule belongs to, closing it to further user-agent lines; `None` (and a
    /// diagnostic) before the first user-agent line.
    fn group_for_rule(&mut self, at: &Place<'_>) -> Option<usize> {
        let Some(group) = self.current_group() else {
            let key = String::from_utf8_lossy(at.kv.key).into_owned();
            self.report(
                Code::RuleBeforeUserAgent,
                at.line,
                at.kv.key_at,
                at.key_span(),
                format!("`{key}` comes before any user-agent line, so it applies to no crawler"),
                Some("put a `User-agent: *` line above it".into()),
            );
            return None;
        };
        self.closed = true;
        Some(group as usize)
    }

    fn rule(&mut self, at: &Place<'_>, kind: RuleKind) {
        let Some(group) = self.group_for_rule(at) else {
            return;
        };
        let value = at.kv.value;
        if !value.is_empty() && !matches!(value[0], b'/' | b'*') {
            self.report(
                Code::PatternStart,
                at.line,
                at.kv.value_at,
                at.value_span(),
                format!(
                    "`{}` does not start with `/` or `*`, so it matches no path",
                    String::from_utf8_lossy(value)
                ),
                Some(format!("write `/{}`", String::from_utf8_lossy(value))),
            );
        }
        if let Some(dollar) = value
            .iter()
            .position(|&b| b == b'$')
            .filter(|&d| d + 1 < value.len())
        {
            self.report(
                Code::DollarInside,
                at.line,
                at.kv.value_at + dollar,
                at.value_span(),
                "`$` anchors the end only as the last character; here it is a literal `$`".into(),
                None,
            );
        }
        let written = self.push_text(value);
        let behaviour = self.robots.behaviour;
        let start = self.robots.arena.len();
        let (anchored, body) = match value.strip_suffix(b"$") {
            Some(body) if !behaviour.escape_patterns_only => (true, body),
            _ => (false, value),
        };
        if behaviour.escape_patterns_only {
            google_escape(body, &mut self.robots.arena);
        } else {
            rfc_normalize(body, Role::Pattern, &mut self.robots.arena);
        }
        let mut pattern = span_from(start, self.robots.arena.len());
        // Usually normalising changes nothing: keep one copy, the written one.
        if self
            .robots
            .text(written)
            .starts_with(self.robots.text(pattern))
        {
            self.robots.arena.truncate(start);
            pattern.start = written.start;
        }
        let escaped = pattern;
        let specificity = pattern.len + u32::from(anchored);
        // Google escapes first and then looks for the final `$`.
        let anchored = anchored
            || (behaviour.escape_patterns_only && self.robots.text(pattern).ends_with(b"$"));
        if behaviour.escape_patterns_only && anchored {
            pattern.len -= 1;
        }
        let inert = value.is_empty() && !behaviour.empty_pattern_matches;
        self.push_rule(
            group,
            RuleLine {
                kind,
                line: at.line,
                site: at.site(),
                written,
                pattern,
                anchored,
                star: first_star(self.robots.text(pattern)),
                mask: byte_mask(self.robots.text(pattern)),
                pairs: pattern_pairs(self.robots.text(pattern)),
                inert,
                specificity,
            },
        );

        if kind == RuleKind::Allow && behaviour.index_html_allows_dir {
            self.index_html_rule(group, at, written, escaped);
        }
    }

    /// Google: `Allow: /d/index.htm[l]` also allows `/d/` exactly, as the pattern `/d/$`.
    fn index_html_rule(&mut self, group: usize, at: &Place<'_>, written: Span, escaped: Span) {
        let text = self.robots.text(escaped);
        let Some(slash) = text.iter().rposition(|&b| b == b'/') else {
            return;
        };
        if !text[slash..].starts_with(b"/index.htm") {
            return;
        }
        let pattern = Span {
            start: escaped.start,
            len: slash as u32 + 1,
        };
        self.push_rule(
            group,
            RuleLine {
                kind: RuleKind::Allow,
                line: at.line,
                site: at.site(),
                written,
                pattern,
                anchored: true,
                star: first_star(self.robots.text(pattern)),
                mask: byte_mask(self.robots.text(pattern)),
                pairs: pattern_pairs(self.robots.text(pattern)),
                inert: false,
                specificity: slash as u32 + 2,
            },
        );
    }

    fn push_rule(&mut self, group: usize, rule: RuleLine) {
        self.robots.rules.push(rule);
        self.robots.groups[group].rules.end += 1;
    }

    fn archive_embargo(&mut self, at: &Place<'_>) {
        let Some(group) = self.group_for_rule(at) else {
            return;
        };
        let value = String::from_utf8_lossy(at.kv.value).into_owned();
        let Some(period) = EmbargoPeriod::parse(at.kv.value) else {
            self.report(
                Code::InvalidEmbargo,
                at.line,
                at.kv.value_at,
                at.value_span(),
                format!("Archive-Embargo `{value}` is not w, m or q, so the line is ignored"),
                Some("use w (7 days), m (31 days) or q (90 days)".into()),
            );
            return;
        };
        let slot = &mut self.robots.groups[group].embargo;
        let previous = slot.replace(period.max(slot.unwrap_or(period)));
        if previous.is_some_and(|p| p != period) {
            let kept = self.robots.groups[group]
                .embargo
                .map_or('?', EmbargoPeriod::letter);
            self.report(Code::ConflictingEmbargo, at.line, at.kv.value_at, at.value_span(), format!("this group already has another Archive-Embargo; the longest, `{kept}`, applies"), Some("keep one Archive-Embargo line per group".into()));
        }
    }

    fn record(&mut self, at: &Place<'_>, directive: Directive) {
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

    fn finish(mut self) -> Robots {
        let robots = &self.robots;
        let mut orphans = Vec::new();
        for group in &robots.groups {
            if group.embargo.is_none() {
                let rules = &robots.rules[group.rules.start as usize..group.rules.end as usize];
                orphans.extend(
                    rules
                        .iter()
                        .filter(|r| r.kind == RuleKind::EmbargoAllow)
                        .map(|r| (r.line, r.site)),
                );
            }
        }
        for (line, site) in orphans {
            self.report(
                Code::EmbargoAllowWithoutEmbargo,
                line,
                site.column as usize - 1,
                site.start as usize..site.end as usize,
                "Embargo-Allow is ignored: its group has no valid Archive-Embargo".into(),
                Some("add `Archive-Embargo: w`, `m` or `q` to the group".into()),
            );
        }
        self.robots.diagnostics.sort_by_key(|d| (d.line, d.column));
        // Rank order within each group: longest first, allows before disallows, then
        // file order. A check's first match is then the decider. Only Google's derived
        // `index.html` rule shares a line with another, and never its length.
        for group in &self.robots.groups {
            let range = group.rules.start as usize..group.rules.end as usize;
            let rank = |r: &RuleLine| (std::cmp::Reverse(r.specificity), !r.kind.allows(), r.line);
            let rules = &mut self.robots.rules[range];
            if !rules.is_sorted_by_key(rank) {
                rules.sort_unstable_by_key(rank);
            }
        }
        self.robots.arena.shrink_to_fit();
        self.robots
    }
}

/// Where a `key: value` pair sits in the file.
struct Place<'a> {
    line: u32,
    start: usize,
    kv: KeyValue<'a>,
}

impl Place<'_> {
    fn site(&self) -> Site {
        let start = self.start + self.kv.key_at;
        Site {
            start: start as u32,
            end: (self.start + self.kv.value_at + self.kv.value.len())
                .max(start + self.kv.key.len()) as u32,
            column: self.kv.key_at as u32 + 1,
        }
    }

    fn key_span(&self) -> std::ops::Range<usize> {
        let s = self.start + self.kv.key_at;
        s..s + self.kv.key.len()
    }
    fn value_span(&self) -> std::ops::Range<usize> {
        let s = self.start + self.kv.value_at;
        s..s + self.kv.value.len()
    }
}

fn span_from(start: usize, end: usize) -> Span {
    Span {
        start: start as u32,
        len: (end - start) as u32,
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
    fn limit_cuts_back_to_a_whole_line() {
        assert_eq!(within_limit(b"ab\ncd", 4), b"ab\n");
        assert_eq!(within_limit(b"ab\ncd", 2), b"ab");
        assert_eq!(within_limit(b"abcd", 2), b"");
        assert_eq!(within_limit(b"ab", 9), b"ab");
    }

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
