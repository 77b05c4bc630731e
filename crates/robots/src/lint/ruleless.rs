//! Crawlers whose only groups hold no rule: `User-agent: bingbot` followed by just a
//! `Crawl-delay`, or by nothing, at the end of the file (anywhere else, the next
//! user-agent line joins the group, as only a rule ends one).
//!
//! A crawler obeys the groups that name it and ignores the `*` groups (RFC 9309 §2.2.1;
//! Google's matcher and Bing's documentation agree), and a matching group with no rules
//! allows everything. So such a group, usually written to slow one crawler down, also
//! frees it from every `Disallow` of the `*` group, which is seldom what its author meant:
//! 411 of the 20,000 corpus files do it (Shopify's default file frees `MJ12bot` and
//! `Pinterest` so, and one file lists 1,049 crawlers, each without its `Disallow: /`).
//! Each such group is one finding, however many crawlers it names. A group with a rule,
//! even an empty `Disallow:`, says what it means and is left alone, and so is a file
//! whose `*` groups disallow nothing, where the crawler loses nothing.

use std::collections::HashSet;

use crate::diagnostic::{Code, Diagnostic};
use crate::robots::{AgentLine, GroupData, Site};
use crate::{Robots, RuleKind};

impl Robots {
    /// Per group without rules, the first user-agent line of each crawler that only such
    /// groups name, when a `*` group disallows something; with the line of that `*`
    /// group's first user-agent line. Names are compared as a check compares them
    /// (ASCII case ignored), through sets: a file may list thousands of crawlers.
    pub(super) fn ruleless_agents(&self) -> Vec<(Vec<&AgentLine>, u32)> {
        let Some(star) = self.groups.iter().find(|g| {
            g.global
                && self
                    .group_rules(g)
                    .iter()
                    .any(|r| r.kind() == RuleKind::Disallow && !r.inert() && r.written.len > 0)
        }) else {
            return Vec::new();
        };
        let star_line = self.agents_of(star).first().map_or(0, |a| a.line);
        let has_rules = |g: &GroupData| g.rules.start != g.rules.end || g.embargo.is_some();
        let name = |a: &AgentLine| self.text(a.token()).to_ascii_lowercase();
        let mut seen: HashSet<Vec<u8>> = self
            .groups
            .iter()
            .filter(|g| has_rules(g))
            .flat_map(|g| self.agents_of(g))
            .filter(|a| !a.global())
            .map(name)
            .collect();
        let mut found = Vec::new();
        for group in self.groups.iter().filter(|g| !g.global && !has_rules(g)) {
            let agents: Vec<&AgentLine> = self
                .agents_of(group)
                .iter()
                .filter(|a| a.token().len > 0 && seen.insert(name(a)))
                .collect();
            if !agents.is_empty() {
                found.push((agents, star_line));
            }
        }
        found
    }

    /// One diagnostic for a group's freed crawlers, at the first one's line.
    pub(super) fn ruleless(&self, agents: &[&AgentLine], star_line: u32, site: Site) -> Diagnostic {
        let names: Vec<String> = agents
            .iter()
            .take(3)
            .map(|a| {
                let token = self.str(a.token());
                format!("`{}`", crate::finding::cut(token, token.len()))
            })
            .collect();
        let (who, verb, pronoun) = match agents.len() {
            1 => (names[0].clone(), "is", "it"),
            2 => (format!("{} and {}", names[0], names[1]), "are", "they"),
            3 => (
                format!("{}, {} and {}", names[0], names[1], names[2]),
                "are",
                "they",
            ),
            n => (
                format!(
                    "{}, {}, {} and {} more crawlers",
                    names[0],
                    names[1],
                    names[2],
                    n - 3
                ),
                "are",
                "they",
            ),
        };
        let obey = if pronoun == "it" { "obeys" } else { "obey" };
        Diagnostic {
            code: Code::GroupWithoutRules,
            line: agents[0].line,
            column: site.column.max(1),
            span: site.start as usize..site.end as usize,
            message: format!(
                "{who} {verb} named only by groups with no Allow or Disallow rule, so {pronoun} {obey} none of the rules of `User-agent: *` (line {star_line}) and may crawl the whole site"
            )
            .into(),
            suggestion: Some(
                "below the user-agent lines, write the rules meant for them (the `*` rules again, or `Disallow: /` to keep them out), or `Allow: /` if they may crawl everything".into(),
            ),
        }
    }
}
