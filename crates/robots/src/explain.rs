//! Why a verdict is what it is: the groups chosen and how, every rule that matched with
//! its length, and what happened to Embargo-Allow. Allocates; meant for people, not crawlers.

use crate::{Agent, Group, Robots, Rule, RuleKind, Selection, Verdict};

/// What became of the Embargo-Allow rules of the chosen groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbargoAllowUse {
    /// The chosen groups have no Embargo-Allow rule.
    Absent,
    /// They apply: the agent honours embargoes and the groups have a valid embargo.
    Active,
    /// Ignored: the agent does not honour Archive-Embargo (or the profile knows none).
    IgnoredNotHonoured,
    /// Ignored: the groups have no valid Archive-Embargo.
    IgnoredNoEmbargo,
}

/// A rule of the chosen groups that matched the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMatch<'r> {
    pub rule: Rule<'r>,
    /// Whether it took part in the decision (an ignored Embargo-Allow did not).
    pub counted: bool,
}

/// Everything that went into one verdict.
#[derive(Debug, Clone)]
pub struct Explanation<'r> {
    pub verdict: Verdict<'r>,
    pub selection: Selection,
    /// The chosen groups, in file order.
    pub groups: Vec<Group<'r>>,
    /// The path as rules saw it (after normalisation in the RFC 9309 profile).
    pub path: String,
    /// Every rule of the chosen groups that matched, in file order.
    pub matches: Vec<RuleMatch<'r>>,
    pub embargo_allow: EmbargoAllowUse,
}

impl Robots {
    /// Explains the verdict for `agent` on `url`; `explanation.verdict` equals
    /// [`Robots::check`]'s.
    pub fn explain(&self, agent: &Agent, url: &str) -> Explanation<'_> {
        let verdict = self.check(agent, url);
        let mut buf = None;
        let path = self.match_path(url.as_bytes(), &mut buf);
        let groups = self.group_for(agent);
        let rules = || groups.groups().iter().flat_map(|g| g.rules_in_file_order());
        let has_embargo_allow = rules().any(|r| r.kind == RuleKind::EmbargoAllow);
        let embargo_allow = match (has_embargo_allow, groups.embargo(), agent.honours_embargo()) {
            (false, _, _) => EmbargoAllowUse::Absent,
            (true, Some(_), _) => EmbargoAllowUse::Active,
            (true, None, true) if !self.behaviour.no_embargo => EmbargoAllowUse::IgnoredNoEmbargo,
            (true, None, _) => EmbargoAllowUse::IgnoredNotHonoured,
        };
        let matches = rules()
            .filter(|r| self.rule_matches(r, path))
            .map(|r| RuleMatch {
                rule: self.rule_view(r),
                counted: r.kind != RuleKind::EmbargoAllow
                    || embargo_allow == EmbargoAllowUse::Active,
            })
            .collect();
        Explanation {
            verdict,
            selection: self.selection(agent),
            path: String::from_utf8_lossy(path).into_owned(),
            groups: groups.groups().to_vec(),
            matches,
            embargo_allow,
        }
    }
}
