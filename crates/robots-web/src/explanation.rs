//! Why one URL got its verdict, for the page's detail panel: the groups chosen and how,
//! every matching rule with its length, what became of Embargo-Allow, and the reason.

use robots::{Agent, EmbargoAllowUse, Explanation, Reason, Selection};
use serde::Serialize;

use crate::verdicts::VerdictJson;

/// Everything that went into one verdict, with sentences for people.
#[derive(Debug, Serialize)]
pub struct ExplanationJson<'a> {
    pub verdict: VerdictJson<'a>,
    /// The path as the rules saw it.
    pub path: &'a str,
    pub selection: &'static str,
    /// The chosen groups' first lines.
    pub group_lines: Vec<u32>,
    pub selection_text: String,
    pub matches: Vec<MatchJson<'a>>,
    pub embargo_allow: &'static str,
    pub embargo_allow_text: Option<&'static str>,
    pub reason_text: &'static str,
}

/// A rule that matched the path.
#[derive(Debug, Serialize)]
pub struct MatchJson<'a> {
    pub line: u32,
    pub rule: &'static str,
    pub directive: &'static str,
    pub pattern: &'a str,
    pub length: u32,
    /// Whether it took part in the decision (an ignored Embargo-Allow did not).
    pub counted: bool,
    pub decides: bool,
}

impl<'a> ExplanationJson<'a> {
    pub fn new(url: &'a str, agent: &Agent, e: &'a Explanation<'a>) -> ExplanationJson<'a> {
        let decider = e.verdict.decided_by();
        let matches = e
            .matches
            .iter()
            .map(|m| MatchJson {
                line: m.rule.line(),
                rule: m.rule.kind().name(),
                directive: m.rule.kind().directive(),
                pattern: m.rule.pattern(),
                length: m.rule.specificity(),
                counted: m.counted,
                decides: decider == Some(m.rule),
            })
            .collect();
        ExplanationJson {
            verdict: VerdictJson::new(url, &e.verdict),
            path: &e.path,
            selection: match e.selection {
                Selection::Named { .. } => "named",
                Selection::Global { .. } => "global",
                Selection::None => "none",
            },
            group_lines: e.groups.iter().map(|g| g.line()).collect(),
            selection_text: selection_text(agent, e),
            matches,
            embargo_allow: match e.embargo_allow {
                EmbargoAllowUse::Absent => "absent",
                EmbargoAllowUse::Active => "active",
                EmbargoAllowUse::IgnoredNotHonoured => "ignored-not-honoured",
                EmbargoAllowUse::IgnoredNoEmbargo => "ignored-no-embargo",
            },
            embargo_allow_text: embargo_allow_text(e.embargo_allow),
            reason_text: reason_text(e.verdict.reason()),
        }
    }
}

/// Why the verdict came out so, in a sentence.
fn reason_text(reason: Reason) -> &'static str {
    match reason {
        Reason::RobotsTxt => "/robots.txt is always allowed (RFC 9309 §2.2.2).",
        Reason::NoGroup => "No group applies, so nothing is disallowed.",
        Reason::NoMatch => "No rule of the chosen groups matches, so the URL is allowed.",
        Reason::Longest => "The longest matching rule decides (RFC 9309 §2.2.2).",
        Reason::TieWonByAllow => {
            "An allow and a disallow of the same length match; the allow wins."
        }
    }
}

fn selection_text(agent: &Agent, e: &Explanation<'_>) -> String {
    let lines = e
        .groups
        .iter()
        .map(|g| g.line().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let token = agent.token();
    match e.selection {
        Selection::Named { groups: 1 } => {
            format!("The group naming `{token}` applies (line {lines}).")
        }
        Selection::Named { groups } => {
            format!("{groups} groups name `{token}`; they are merged (lines {lines}).")
        }
        Selection::Global { groups: 1 } => {
            format!("No group names `{token}`, so the `*` group applies (line {lines}).")
        }
        Selection::Global { groups } => {
            format!("No group names `{token}`; the {groups} `*` groups are merged (lines {lines}).")
        }
        Selection::None => {
            format!("No group names `{token}` and there is no `*` group: no rules apply.")
        }
    }
}

fn embargo_allow_text(use_: EmbargoAllowUse) -> Option<&'static str> {
    match use_ {
        EmbargoAllowUse::Absent => None,
        EmbargoAllowUse::Active => {
            Some("Embargo-Allow is active: the agent honours Archive-Embargo and the group has one.")
        }
        EmbargoAllowUse::IgnoredNotHonoured => Some(
            "Embargo-Allow is ignored: the agent does not honour Archive-Embargo (turn on the switch).",
        ),
        EmbargoAllowUse::IgnoredNoEmbargo => {
            Some("Embargo-Allow is ignored: the group has no valid Archive-Embargo.")
        }
    }
}
