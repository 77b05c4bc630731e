//! Deciding a URL: pick the agent's groups (RFC 9309 §2.2.1), find the longest matching
//! rule among them (§2.2.2), and attach the embargo. No allocation on the way.

use crate::normalize::{may_change, none_of, rfc_is_normal, PathBufs, Role};
use crate::pattern::{byte_mask, matches, PairSet};
use crate::robots::{name_bit, GroupData, RuleLine};
use crate::url::{from_path, without_fragment};
use crate::{Agent, EmbargoPeriod, Reason, Robots, Rule, RuleKind, Verdict};

/// How many chosen groups a check remembers while it decides.
const FEW: usize = 8;

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

impl Selection {
    /// The stable name used in JSON output: `named`, `global` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            Selection::Named { .. } => "named",
            Selection::Global { .. } => "global",
            Selection::None => "none",
        }
    }
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
        let mut bufs = PathBufs::default();
        let path = self.match_path(url, &mut bufs);
        self.decide(agent, path)
    }

    /// The path as rules see it: extracted from the URL, then normalised in the RFC 9309
    /// profile. Copies into one of `bufs` only when something changes (and only then pays
    /// for setting up a buffer, sized for the path).
    pub(crate) fn match_path<'p>(&self, url: &'p [u8], bufs: &'p mut PathBufs) -> &'p [u8] {
        let Some(rest) = from_path(url) else {
            return b"/";
        };
        let normalise = !self.behaviour.escape_patterns_only;
        let needs_slash = rest[0] != b'/';
        // The usual URL, found in one pass: a path without fragment that normalising
        // leaves alone.
        if !needs_slash
            && none_of(rest, |b| {
                (b == b'#') | (normalise & may_change(b, Role::Path))
            })
        {
            return rest;
        }
        let path = without_fragment(rest);
        if !needs_slash && (!normalise || rfc_is_normal(path, Role::Path)) {
            return path;
        }
        bufs.path(needs_slash, path, normalise)
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
        match self.decider(groups, path, byte_mask(path), embargo.is_some()) {
            None => allowed(Reason::NoMatch, None),
            Some((rule, tie)) if rule.kind().allows() => {
                let reason = if tie {
                    Reason::TieWonByAllow
                } else {
                    Reason::Longest
                };
                allowed(reason, Some(self.rule_view(rule)))
            }
            Some((rule, _)) => self.denied(rule),
        }
    }

    fn denied(&self, rule: &RuleLine) -> Verdict<'_> {
        // Google's empty disallow matches with length 0 and names its line, but a
        // length-0 match never disallows.
        let allowed = rule.specificity() == 0;
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
            kind: rule.kind(),
            pattern: self.text(rule.written),
            line: rule.line,
            specificity: rule.specificity(),
        }
    }

    /// The groups that apply to `agent`: those naming it, else the `*` groups.
    pub fn selection(&self, agent: &Agent) -> Selection {
        self.select(agent).0
    }

    /// The groups for `agent` and how they were chosen, found in one pass over the groups;
    /// up to [`FEW`] of them are remembered, and more (rare) are found again on demand.
    pub(crate) fn select<'s>(
        &'s self,
        agent: &'s Agent,
    ) -> (
        Selection,
        impl Iterator<Item = (usize, &'s GroupData)> + Clone + 's,
    ) {
        let bit = name_bit(self.compared_name(agent));
        let named = move |g: &GroupData| {
            g.names & bit != 0
                && self
                    .group_agents(g)
                    .any(|a| !a.global() && self.names(a.token(), agent))
        };
        let global = |g: &GroupData| g.global;
        let (mut named_few, mut global_few) = ([0u32; FEW], [0u32; FEW]);
        let (mut named_count, mut global_count) = (0, 0);
        for (i, group) in self.groups.iter().enumerate() {
            if named(group) {
                named_few[named_count.min(FEW - 1)] = i as u32;
                named_count += 1;
            } else if named_count == 0 && global(group) {
                global_few[global_count.min(FEW - 1)] = i as u32;
                global_count += 1;
            }
        }
        let (selection, few, count) = match (named_count, global_count) {
            (0, 0) => (Selection::None, named_few, 0),
            (0, n) => (Selection::Global { groups: n }, global_few, n),
            (n, _) => (Selection::Named { groups: n }, named_few, n),
        };
        let want_named = named_count > 0;
        let remembered = if count <= FEW { count } else { 0 };
        let again = if count > FEW { self.groups.len() } else { 0 };
        let groups = (0..remembered)
            .map(move |k| few[k] as usize)
            .chain((0..again).filter(move |&i| {
                let g = &self.groups[i];
                if want_named {
                    named(g)
                } else {
                    global(g)
                }
            }))
            .map(move |i| (i, &self.groups[i]));
        (selection, groups)
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
        (self.behaviour.alpha_agent_tokens || !token.is_empty())
            && token.eq_ignore_ascii_case(self.compared_name(agent))
    }

    /// What user-agent lines are compared with: the name as given (Google) or the
    /// product token (RFC 9309).
    fn compared_name<'a>(&self, agent: &'a Agent) -> &'a [u8] {
        if self.behaviour.alpha_agent_tokens {
            agent.name().as_bytes()
        } else {
            agent.token().as_bytes()
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

    /// The deciding rule of the chosen groups, and whether a disallow as long as it also
    /// matched (so that an allow won a tie).
    ///
    /// Each group's rules are kept sorted by rank (longest first, allow before disallow,
    /// then file order), so the first match in a group is that group's decider and the
    /// scan stops there; across merged groups the higher rank wins.
    fn decider<'s>(
        &'s self,
        groups: impl Iterator<Item = &'s GroupData>,
        path: &[u8],
        path_mask: u64,
        embargo_active: bool,
    ) -> Option<(&'s RuleLine, bool)> {
        // Wildcard patterns are searched for in the path; in a long path, most of them
        // are ruled out first by octet pairs they need and the path lacks.
        let mut pairs: Option<PairSet> = None;
        let mut may_match = |rule: &RuleLine| {
            let wildcard = rule.wildcard();
            rule.filter.octets_in(path_mask, wildcard)
                && (!wildcard
                    || path.len() < PairSet::WORTH_IT
                    || pairs
                        .get_or_insert_with(|| PairSet::of(path))
                        .contains_all(&rule.filter.pairs()))
                && self.rule_matches(rule, path)
        };
        let mut best: Option<(&'s RuleLine, bool)> = None;
        for group in groups {
            let mut found: Option<(&'s RuleLine, bool)> = None;
            for rule in self.group_rules(group) {
                if let Some((first, tie)) = &mut found {
                    // Only a disallow as long as an allow can still matter: it ties.
                    if rule.specificity() < first.specificity() || !first.kind().allows() {
                        break;
                    }
                    if !rule.kind().allows() && may_match(rule) {
                        *tie = true;
                        break;
                    }
                    continue;
                }
                if best.is_some_and(|(b, _)| rule.specificity() < b.specificity()) {
                    break;
                }
                if rule.kind() == RuleKind::EmbargoAllow && !embargo_active {
                    continue;
                }
                if may_match(rule) {
                    found = Some((rule, false));
                }
            }
            best = match (best, found) {
                (b, None) => b,
                (None, f) => f,
                (Some(b), Some(f)) => Some(merge(b, f)),
            };
        }
        best
    }

    pub(crate) fn rule_matches(&self, rule: &RuleLine, path: &[u8]) -> bool {
        !rule.inert()
            && matches(
                self.text(rule.pattern()),
                rule.wildcard(),
                rule.anchored(),
                path,
            )
    }
}

/// The better of two groups' deciders: the longer; at equal length an allow (which then
/// won a tie if the other is a disallow), else the earlier line.
fn merge<'s>(a: (&'s RuleLine, bool), b: (&'s RuleLine, bool)) -> (&'s RuleLine, bool) {
    let ((ra, ta), (rb, tb)) = (a, b);
    match ra.specificity().cmp(&rb.specificity()) {
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal => match (ra.kind().allows(), rb.kind().allows()) {
            (true, false) => (ra, true),
            (false, true) => (rb, true),
            (true, true) => (if ra.line <= rb.line { ra } else { rb }, ta || tb),
            (false, false) => (if ra.line <= rb.line { ra } else { rb }, false),
        },
    }
}
