//! Rule lines: allow, disallow, embargo-allow and archive-embargo, compiled into
//! matchable patterns (RFC 9309 §2.2.2, the Archive-Embargo draft) with their diagnostics.

use super::{span_from, Parser, Place, RuleText, ValueFacts};
use crate::diagnostic::Code;
use crate::normalize::{google_escape, rfc_normalize};
use crate::octets::Role;
use crate::robots::{Quote, RuleLine, RuleParts, Span};
use crate::simd::value_scan::{google_scan_pattern, rfc_scan_pattern};
use crate::{EmbargoPeriod, RuleKind};

impl Parser {
    pub(super) fn rule(&mut self, at: &Place<'_>, kind: RuleKind) {
        let Some(group) = self.group_for_rule(at) else {
            return;
        };
        let value = at.kv.value;
        let RuleText {
            written,
            pattern: escaped,
            rule: model,
            facts,
        } = self.rule_text(value);
        if !value.is_empty() && !matches!(value[0], b'/' | b'*') {
            let quote = self.quote_stored(value, written, 0);
            self.report(
                Code::PatternStart,
                at.line,
                at.kv.value_at,
                at.value_span(),
                quote,
            );
        }
        let dollar = if facts.no_inner_dollar {
            None
        } else {
            crate::simd::find::find(value, b'$').filter(|&d| d + 1 < value.len())
        };
        if let Some(dollar) = dollar {
            self.report(
                Code::DollarInside,
                at.line,
                at.kv.value_at + dollar,
                at.value_span(),
                Quote::NONE,
            );
        }
        let behaviour = self.robots.behaviour;
        // RFC 9309 reads the final `$` off the value; Google escapes first and then
        // looks for it.
        let anchored = if behaviour.escape_patterns_only {
            self.robots.text(escaped).ends_with(b"$")
        } else {
            value.ends_with(b"$")
        };
        let mut pattern = escaped;
        if behaviour.escape_patterns_only && anchored {
            pattern.len -= 1;
        }
        let inert = value.is_empty() && !behaviour.empty_pattern_matches;
        if kind == RuleKind::EmbargoAllow {
            self.embargo_allows.push((group as u32, at.line, at.site()));
        }
        let parts = RuleParts {
            kind,
            line: at.line,
            written,
            pattern,
            anchored,
            inert,
            across_query: false,
        };
        // A value repeated from the previous group has the pattern, so the filter, of
        // the rule made of it there.
        let rule = match model.and_then(|i| self.robots.rules.get(i as usize)) {
            Some(same) if same.pattern() == pattern => RuleLine::like(parts, same),
            _ => {
                // A pattern stored as (a prefix of) the value as written is read where the
                // value is: read back from the arena just after being copied there, it
                // waited on the copy's stores (the parse took 1.5% more time).
                let text = if self.utf8 && pattern.start == written.start {
                    &value[..pattern.len as usize]
                } else {
                    self.robots.text(pattern)
                };
                let wildcard = facts
                    .wildcard
                    .unwrap_or_else(|| crate::simd::find::find(text, b'*').is_some());
                // Only a wildcard value that normalising changed (one holding a `%`) can
                // hold such an escape; Google compares escapes as written.
                let across_query = wildcard
                    && facts.wildcard.is_none()
                    && !behaviour.escape_patterns_only
                    && crate::across_query::query_escapes(text);
                RuleLine::new(
                    RuleParts {
                        across_query,
                        ..parts
                    },
                    text,
                    wildcard,
                )
            }
        };
        self.push(group, rule);

        if kind == RuleKind::Allow && behaviour.index_html_allows_dir {
            self.index_html_rule(group, at, written, escaped);
        }
    }

    /// Stores a rule's value and its pattern text: in RFC 9309 the value normalised
    /// without a final `$`, in Google the value escaped. Text is shared where it can be:
    /// a pattern that normalising left alone is (a prefix of) the value itself, and a
    /// value repeating the one at the same place in the previous group (sites often repeat
    /// one block for many crawlers) is stored once, and names the rule made of it there.
    fn rule_text(&mut self, value: &[u8]) -> RuleText {
        let repeated = self.texts.previous.get(self.texts.current.len());
        let text = match repeated {
            Some(&text) if self.robots.text(text.written) == value => text,
            _ => {
                let (written, pattern, facts) = self.store_rule_text(value);
                RuleText {
                    written,
                    pattern,
                    rule: None,
                    facts,
                }
            }
        };
        // The rule about to be made of this text is the next one.
        self.texts.current.push(RuleText {
            rule: Some(self.robots.rules.len() as u32),
            ..text
        });
        text
    }

    /// Stores a value not seen in the previous group (see `rule_text`): its span, its
    /// pattern's, and what the one pass over it that decides whether normalising leaves
    /// it alone also tells about its `$` and `*`.
    fn store_rule_text(&mut self, value: &[u8]) -> (Span, Span, ValueFacts) {
        let written = self.push_text(value);
        let google = self.robots.behaviour.escape_patterns_only;
        let body = if google {
            value
        } else {
            value.strip_suffix(b"$").unwrap_or(value)
        };
        let scan = if google {
            google_scan_pattern(body)
        } else {
            rfc_scan_pattern(body)
        };
        let unchanged = scan.unchanged;
        // The body holds every `$` of the value, but a final one in RFC 9309. Left alone,
        // it is ASCII, and the pattern is the body (less Google's final `$`).
        let facts = ValueFacts {
            no_inner_dollar: !scan.dollar,
            wildcard: unchanged.then_some(scan.wildcard),
        };
        // Usually the pattern is the value as written (less its `$`): keep one copy.
        if unchanged && self.utf8 {
            let escaped = Span {
                start: written.start,
                len: body.len() as u32,
            };
            return (written, escaped, facts);
        }
        let start = self.robots.arena.len();
        if google {
            google_escape(body, &mut self.robots.arena);
        } else {
            rfc_normalize(body, Role::Pattern, &mut self.robots.arena);
        }
        let mut escaped = span_from(start, self.robots.arena.len());
        if self
            .robots
            .text(written)
            .starts_with(self.robots.text(escaped))
        {
            self.robots.arena.truncate(start);
            escaped.start = written.start;
        }
        (written, escaped, facts)
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
        let parts = RuleParts {
            kind: RuleKind::Allow,
            line: at.line,
            written,
            pattern,
            anchored: true,
            inert: false,
            across_query: false,
        };
        let text = self.robots.text(pattern);
        let rule = RuleLine::new(parts, text, crate::simd::find::find(text, b'*').is_some());
        self.push(group, rule);
    }

    /// Adds a rule to `group`.
    fn push(&mut self, group: usize, rule: RuleLine) {
        self.robots.rules.push(rule);
        self.robots.groups[group].rules.end += 1;
    }

    pub(super) fn archive_embargo(&mut self, at: &Place<'_>) {
        // An unsupported value makes the rule ignored (the Archive-Embargo draft's latest
        // text), so it is not read as a rule at all: it does not end a list of
        // user-agent lines.
        let Some(period) = EmbargoPeriod::parse(at.kv.value) else {
            let value = self.push_quote(at.kv.value);
            self.report(
                Code::InvalidEmbargo,
                at.line,
                at.kv.value_at,
                at.value_span(),
                Quote::text(value),
            );
            return;
        };
        let Some(group) = self.group_for_rule(at) else {
            return;
        };
        let slot = &mut self.robots.groups[group].embargo;
        let previous = slot.replace(period.max(slot.unwrap_or(period)));
        if previous.is_none() {
            self.embargoes
                .push((group as u32, at.line, at.kv.value_at, at.value_span()));
        }
        if previous.is_some_and(|p| p != period) {
            let kept = self.robots.groups[group]
                .embargo
                .map_or('?', EmbargoPeriod::letter);
            self.report(
                Code::ConflictingEmbargo,
                at.line,
                at.kv.value_at,
                at.value_span(),
                Quote::number(u32::from(kept)),
            );
        }
    }
}
