//! Rule lines: allow, disallow, embargo-allow and archive-embargo, compiled into
//! matchable patterns (RFC 9309 §2.2.2, the Archive-Embargo draft) with their diagnostics.

use super::{span_from, Parser, Place};
use crate::diagnostic::Code;
use crate::normalize::{google_escape, rfc_normalize, Role};
use crate::pattern::{byte_mask, first_star, pattern_pairs};
use crate::robots::{RuleLine, Span};
use crate::{EmbargoPeriod, RuleKind};

impl Parser {
    pub(super) fn rule(&mut self, at: &Place<'_>, kind: RuleKind) {
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
            },
        );
    }

    fn push_rule(&mut self, group: usize, rule: RuleLine) {
        self.robots.rules.push(rule);
        self.robots.groups[group].rules.end += 1;
    }

    pub(super) fn archive_embargo(&mut self, at: &Place<'_>) {
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
}
