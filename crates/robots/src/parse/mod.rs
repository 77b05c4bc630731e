//! Building a [`Robots`] from bytes: lines become groups, rules and records
//! (RFC 9309 §2.1–2.2), and everything skipped or guessed becomes a diagnostic.

use crate::behaviour::Behaviour;
use crate::diagnostic::{Code, Diagnostic};
use crate::directive::{classify, Directive, Spelling};
use crate::lines::{bom_len, split_line, KeyValue, Line, LineContent, Lines};
use crate::robots::{RuleLine, Site, Span};
use crate::{Options, Robots, RuleKind};

mod agents;
mod records;
mod rules;

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
            let rank =
                |r: &RuleLine| (std::cmp::Reverse(r.specificity()), !r.kind.allows(), r.line);
            let rules = &mut self.robots.rules[range];
            if !rules.is_sorted_by_key(rank) {
                rules.sort_unstable_by_key(rank);
            }
        }
        // Parsed files are often held by the thousand (a crawler's cache): give back what
        // the vectors grew into but did not use.
        let r = &mut self.robots;
        r.arena.shrink_to_fit();
        r.rules.shrink_to_fit();
        r.agents.shrink_to_fit();
        r.groups.shrink_to_fit();
        r.records.shrink_to_fit();
        r.diagnostics.shrink_to_fit();
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
}
