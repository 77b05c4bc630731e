//! Why a verdict is what it is: the groups chosen and how, every rule that matched with
//! its length, and what happened to Embargo-Allow. Allocates; meant for people, not crawlers.

use crate::{Agent, Group, Robots, Rule, RuleKind, Selection, Verdict};

/// What became of the Embargo-Allow rules of the chosen groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

impl EmbargoAllowUse {
    /// The stable kebab-case name used in JSON output, e.g. `ignored-no-embargo`.
    pub fn name(self) -> &'static str {
        match self {
            EmbargoAllowUse::Absent => "absent",
            EmbargoAllowUse::Active => "active",
            EmbargoAllowUse::IgnoredNotHonoured => "ignored-not-honoured",
            EmbargoAllowUse::IgnoredNoEmbargo => "ignored-no-embargo",
        }
    }

    /// What happened, in a sentence; nothing when there was no Embargo-Allow.
    pub fn describe(self) -> Option<&'static str> {
        match self {
            EmbargoAllowUse::Absent => None,
            EmbargoAllowUse::Active => {
                Some("active: the agent honours Archive-Embargo and the group has one")
            }
            EmbargoAllowUse::IgnoredNotHonoured => {
                Some("ignored: the agent does not honour Archive-Embargo")
            }
            EmbargoAllowUse::IgnoredNoEmbargo => {
                Some("ignored: the group has no valid Archive-Embargo")
            }
        }
    }
}

/// A rule of the chosen groups that matched the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMatch<'r> {
    /// The rule, with its line and specificity.
    pub rule: Rule<'r>,
    /// Whether it took part in the decision (an ignored Embargo-Allow did not).
    pub counted: bool,
}

/// Everything that went into one verdict.
#[derive(Debug, Clone)]
pub struct Explanation<'r> {
    /// The verdict, the same as [`Robots::check`] gives.
    pub verdict: Verdict<'r>,
    /// How the groups were chosen.
    pub selection: Selection,
    /// The chosen groups, in file order.
    pub groups: Vec<Group<'r>>,
    /// The path as rules saw it (after normalisation in the RFC 9309 profile), octets
    /// that are not UTF-8 replaced by U+FFFD; [`Robots::rule_path`] gives the octets.
    pub path: String,
    /// Every rule of the chosen groups that matched, in file order.
    pub matches: Vec<RuleMatch<'r>>,
    /// Whether the chosen groups' Embargo-Allow rules counted, and if not why.
    pub embargo_allow: EmbargoAllowUse,
    /// The agent's name is compared with user-agent lines as given (Google profile),
    /// not its product token.
    compares_name: bool,
}

impl Explanation<'_> {
    /// How the groups were chosen, in a sentence naming their lines and what was
    /// compared with user-agent lines: the agent's product token in the RFC 9309
    /// profile, its name as given in the Google profile.
    pub fn selection_summary(&self, agent: &Agent) -> String {
        let lines = self
            .groups
            .iter()
            .map(|g| g.line().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let token = if self.compares_name {
            agent.name()
        } else {
            agent.token()
        };
        match self.selection {
            Selection::Named { groups: 1 } => {
                format!("exact match: the group naming `{token}` (line {lines})")
            }
            Selection::Named { groups } => {
                format!("{groups} groups name `{token}`; they are merged (lines {lines})")
            }
            Selection::Global { groups: 1 } => {
                format!("no group names `{token}`; the `*` group applies (line {lines})")
            }
            Selection::Global { groups } => {
                format!(
                    "no group names `{token}`; the {groups} `*` groups are merged (lines {lines})"
                )
            }
            Selection::None => {
                format!("no group names `{token}` and there is no `*` group: no rules apply")
            }
        }
    }
}

impl Robots {
    /// Explains the verdict for `agent` on `url`; `explanation.verdict` equals
    /// [`Robots::check`]'s.
    pub fn explain(&self, agent: &Agent, url: &str) -> Explanation<'_> {
        self.explain_bytes(agent, url.as_bytes())
    }

    /// The path of `url` as the rules see it, as octets: [`Explanation::path`] without
    /// its octets that are not UTF-8 replaced, which the Google profile matches as given
    /// and the RFC 9309 profile percent-encodes.
    ///
    /// ```
    /// use robots::{Options, Profile, Robots};
    ///
    /// let google = Robots::parse_with(b"", Options::new().profile(Profile::Google));
    /// assert_eq!(google.rule_path(b"https://example.com/caf\xE9?q#top"), b"/caf\xE9?q");
    /// assert_eq!(Robots::parse(b"").rule_path(b"/caf\xE9"), b"/caf%E9");
    /// ```
    pub fn rule_path(&self, url: &[u8]) -> Vec<u8> {
        let mut bufs = crate::normalize::PathBufs::default();
        crate::url::match_path(&self.behaviour, url, &mut bufs).to_vec()
    }

    /// [`Robots::explain`] for a URL given as bytes, as [`Robots::check_bytes`] takes it.
    pub fn explain_bytes(&self, agent: &Agent, url: &[u8]) -> Explanation<'_> {
        let verdict = self.check_bytes(agent, url);
        let mut bufs = crate::normalize::PathBufs::default();
        let path = crate::url::match_path(&self.behaviour, url, &mut bufs);
        let groups = self.group_for(agent);
        let rules = || groups.groups().iter().flat_map(|g| g.rules_in_file_order());
        let has_embargo_allow = rules().any(|r| r.kind() == RuleKind::EmbargoAllow);
        let embargo_allow = match (has_embargo_allow, groups.embargo(), agent.honours_embargo()) {
            (false, _, _) => EmbargoAllowUse::Absent,
            (true, Some(_), _) => EmbargoAllowUse::Active,
            (true, None, true) if !self.behaviour.no_embargo => EmbargoAllowUse::IgnoredNoEmbargo,
            (true, None, _) => EmbargoAllowUse::IgnoredNotHonoured,
        };
        // Ruled out first by the octets they need, as a check does: every rule is tried.
        let mut candidate = crate::check::Candidate::new(path);
        let matches = rules()
            .filter(|r| candidate.may_match(self, r))
            .map(|r| RuleMatch {
                rule: self.rule_view(r),
                counted: r.kind() != RuleKind::EmbargoAllow
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
            compares_name: self.behaviour.alpha_agent_tokens,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Agent, Options, Profile, Robots};

    #[test]
    fn the_summary_names_what_was_compared_in_each_profile() {
        let body = b"User-agent: a\nDisallow: /x\n";
        let agent = Agent::verbatim("a/1.0");
        let rfc = Robots::parse(body);
        assert_eq!(
            rfc.explain(&agent, "/x").selection_summary(&agent),
            "exact match: the group naming `a` (line 1)"
        );
        let google = Robots::parse_with(body, Options::new().profile(Profile::Google));
        assert_eq!(
            google.explain(&agent, "/x").selection_summary(&agent),
            "no group names `a/1.0` and there is no `*` group: no rules apply"
        );
    }
}
