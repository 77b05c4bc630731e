//! Deciding a URL: pick the agent's groups (RFC 9309 §2.2.1), find the longest matching
//! rule among them (§2.2.2), and attach the embargo. No allocation on the way.

use crate::normalize::{rfc_is_normal, rfc_normalize, PathBuf, Role, Sink};
use crate::pattern::matches;
use crate::robots::{GroupData, RuleLine};
use crate::url::path_part;
use crate::{Agent, EmbargoPeriod, Reason, Robots, Rule, RuleKind, Verdict};

/// How the groups for an agent were chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// One or more groups name the agent; `groups` of them are merged.
    Named { groups: usize },
    /// No group names the agent; the `*` groups (`groups` of them) are merged.
    Global { groups: usize },
    /// Neither: everything is allowed.
    None,
}

impl Robots {
    /// Decides whether `agent` may fetch `url`, an absolute URL or a path (`/a?b`).
    ///
    /// In the Google profile, embargo rules are unknown records, so an agent's embargo
    /// honour changes nothing there (the command line refuses the combination).
    pub fn check(&self, agent: &Agent, url: &str) -> Verdict<'_> {
        self.check_bytes(agent, url.as_bytes())
    }

    /// [`Robots::check`] for a URL given as bytes.
    pub fn check_bytes(&self, agent: &Agent, url: &[u8]) -> Verdict<'_> {
        let mut buf = PathBuf::new();
        let path = self.match_path(url, &mut buf);
        self.decide(agent, path)
    }

    /// The path as rules see it: extracted from the URL, then normalised in the RFC 9309
    /// profile. Copies into `buf` only when something changes.
    pub(crate) fn match_path<'p>(&self, url: &'p [u8], buf: &'p mut PathBuf) -> &'p [u8] {
        let part = path_part(url);
        let normalise = !self.behaviour.escape_patterns_only;
        if !part.needs_slash && (!normalise || rfc_is_normal(part.bytes)) {
            return part.bytes;
        }
        if part.needs_slash {
            buf.push(b'/');
        }
        if normalise {
            rfc_normalize(part.bytes, Role::Path, buf);
        } else {
            part.bytes.iter().for_each(|&b| buf.push(b));
        }
        buf.as_bytes()
    }

    fn decide(&self, agent: &Agent, path: &[u8]) -> Verdict<'_> {
        let (selection, groups) = self.select(agent);
        let groups = groups.map(|(_, g)| g);
        let embargo = self.embargo_of(agent, groups.clone());
        let allowed = |reason, decided_by| Verdict {
            allowed: true,
            decided_by,
            reason,
            embargo,
        };
        if !self.behaviour.robots_txt_matchable && path == b"/robots.txt" {
            return allowed(Reason::RobotsTxt, None);
        }
        if selection == Selection::None {
            return allowed(Reason::NoGroup, None);
        }
        let best = self.best_rules(groups, path, embargo.is_some());
        match (best.allow, best.disallow) {
            (None, None) => allowed(Reason::NoMatch, None),
            (Some(a), Some(d)) if d.specificity > a.specificity => self.denied(d),
            (Some(a), Some(d)) if d.specificity == a.specificity => {
                allowed(Reason::TieWonByAllow, Some(self.rule_view(a)))
            }
            (Some(a), _) => allowed(Reason::Longest, Some(self.rule_view(a))),
            (None, Some(d)) => self.denied(d),
        }
    }

    fn denied(&self, rule: &RuleLine) -> Verdict<'_> {
        // Google's empty disallow matches with length 0 and names its line, but a
        // length-0 match never disallows.
        let allowed = rule.specificity == 0;
        Verdict {
            allowed,
            decided_by: Some(self.rule_view(rule)),
            reason: if allowed {
                Reason::NoMatch
            } else {
                Reason::Longest
            },
            embargo: None,
        }
    }

    pub(crate) fn rule_view(&self, rule: &RuleLine) -> Rule<'_> {
        Rule {
            kind: rule.kind,
            pattern: self.str(rule.written),
            line: rule.line,
            specificity: rule.specificity,
        }
    }

    /// The groups that apply to `agent`: those naming it, else the `*` groups.
    pub fn selection(&self, agent: &Agent) -> Selection {
        self.select(agent).0
    }

    pub(crate) fn select<'s>(
        &'s self,
        agent: &'s Agent,
    ) -> (
        Selection,
        impl Iterator<Item = (usize, &'s GroupData)> + Clone + 's,
    ) {
        let named = |g: &GroupData| {
            self.group_agents(g)
                .any(|a| !a.global && self.names(a.token, agent))
        };
        let global = |g: &GroupData| self.group_agents(g).any(|a| a.global);
        let named_count = self.groups.iter().filter(|g| named(g)).count();
        let (selection, want_named) = if named_count > 0 {
            (
                Selection::Named {
                    groups: named_count,
                },
                true,
            )
        } else {
            match self.groups.iter().filter(|g| global(g)).count() {
                0 => (Selection::None, false),
                n => (Selection::Global { groups: n }, false),
            }
        };
        let iter = self.groups.iter().enumerate().filter(move |(_, g)| {
            selection != Selection::None && if want_named { named(g) } else { global(g) }
        });
        (selection, iter)
    }

    fn group_agents<'s>(
        &'s self,
        group: &GroupData,
    ) -> impl Iterator<Item = &'s crate::robots::AgentLine> {
        self.agents[group.agents.start as usize..group.agents.end as usize].iter()
    }

    /// Whether a user-agent line's token names the agent. Google compares the name as
    /// given (so an empty name matches an empty token); RFC 9309 compares product
    /// tokens, and an empty token names nobody.
    fn names(&self, token: crate::robots::Span, agent: &Agent) -> bool {
        let token = self.text(token);
        if self.behaviour.alpha_agent_tokens {
            token.eq_ignore_ascii_case(agent.name().as_bytes())
        } else {
            !token.is_empty() && token.eq_ignore_ascii_case(agent.token().as_bytes())
        }
    }

    /// The merged groups' embargo, for an agent that honours embargoes.
    fn embargo_of<'s>(
        &self,
        agent: &Agent,
        groups: impl Iterator<Item = &'s GroupData>,
    ) -> Option<EmbargoPeriod> {
        if !agent.honours_embargo() || self.behaviour.no_embargo {
            return None;
        }
        groups.filter_map(|g| g.embargo).max()
    }

    pub(crate) fn group_rules<'s>(&'s self, group: &GroupData) -> &'s [RuleLine] {
        &self.rules[group.rules.start as usize..group.rules.end as usize]
    }

    /// The longest matching allow (embargo-allow counting when `embargo_active`) and
    /// disallow; the first in file order wins among equals.
    fn best_rules<'s>(
        &'s self,
        groups: impl Iterator<Item = &'s GroupData>,
        path: &[u8],
        embargo_active: bool,
    ) -> Best<'s> {
        let mut best = Best::default();
        for group in groups {
            for rule in self.group_rules(group) {
                if rule.kind == RuleKind::EmbargoAllow && !embargo_active {
                    continue;
                }
                let slot = if rule.kind.allows() {
                    &mut best.allow
                } else {
                    &mut best.disallow
                };
                if slot.is_some_and(|r| r.specificity >= rule.specificity) {
                    continue;
                }
                if self.rule_matches(rule, path) {
                    *slot = Some(rule);
                }
            }
        }
        best
    }

    pub(crate) fn rule_matches(&self, rule: &RuleLine, path: &[u8]) -> bool {
        !rule.inert && matches(self.text(rule.pattern), rule.anchored, path)
    }
}

#[derive(Default)]
struct Best<'s> {
    allow: Option<&'s RuleLine>,
    disallow: Option<&'s RuleLine>,
}
