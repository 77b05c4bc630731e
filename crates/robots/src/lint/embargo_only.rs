//! Groups that hold only Archive-Embargo and Embargo-Allow lines. Both are rules, so the
//! group replaces `*` for the crawlers it names (RFC 9309 §2.2.1), yet a crawler that
//! does not honour the embargo reads no rule in it: it may crawl everything.

use crate::diagnostic::{Code, Diagnostic};
use crate::robots::{GroupData, Site};
use crate::{Robots, RuleKind};

impl Robots {
    /// The groups naming crawlers (not `*`) whose rules are all embargo lines, with a valid
    /// Archive-Embargo: each group's first user-agent line.
    pub(super) fn embargo_only_groups(&self) -> Vec<u32> {
        let only_embargo = |g: &GroupData| {
            g.embargo.is_some()
                && self
                    .group_rules(g)
                    .iter()
                    .all(|r| r.kind() == RuleKind::EmbargoAllow)
        };
        self.groups
            .iter()
            .filter(|g| !g.global && only_embargo(g))
            .filter_map(|g| self.agents_of(g).first().map(|a| a.line))
            .collect()
    }

    pub(super) fn embargo_only(&self, line: u32, site: Site) -> Diagnostic {
        Diagnostic {
            code: Code::EmbargoOnlyGroup,
            line,
            column: site.column.max(1),
            span: site.start as usize..site.end as usize,
            message: "this group holds only Archive-Embargo and Embargo-Allow lines: its crawlers obey none of the `User-agent: *` rules, and one that does not honour the embargo sees an empty group and may crawl everything".into(),
            suggestion: Some(
                "below the embargo lines, write the Allow and Disallow rules these crawlers should obey (the `*` rules again, say)".into(),
            ),
        }
    }
}
