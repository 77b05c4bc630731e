//! Why one URL got its verdict, for the page's detail panel: the groups chosen and how,
//! every matching rule with its length, what became of Embargo-Allow, and the reason.

use robots::{Agent, Availability, Explanation, Robots};
use robots_present::explanation::{global_set_aside, set_aside_text};
use serde::Serialize;

use robots_present::reasons::blanket_sentence;
use robots_present::VerdictJson;

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
    /// The lines of the `*` groups a group naming the agent sets aside, and what that
    /// means in a sentence (`null` when none is), as `robots explain` says it.
    pub global_set_aside: Vec<u32>,
    pub set_aside_text: Option<String>,
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
    pub fn new(
        robots: &Robots,
        url: &'a str,
        agent: &Agent,
        e: &'a Explanation<'a>,
    ) -> ExplanationJson<'a> {
        let global_set_aside = global_set_aside(robots, e);
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
            selection: e.selection.name(),
            group_lines: e.groups.iter().map(|g| g.line()).collect(),
            selection_text: e.selection_summary(agent),
            set_aside_text: set_aside_text(&global_set_aside),
            global_set_aside,
            matches,
            embargo_allow: e.embargo_allow.name(),
            embargo_allow_text: e.embargo_allow.describe(),
            reason_text: e.verdict.reason().describe(),
        }
    }

    /// The explanation when no file was read (a 4xx or 5xx response, leaving the site
    /// `state`): no group, no rule, and the state's sentence as the reason.
    pub fn blanket(verdict: VerdictJson<'a>, state: Availability) -> ExplanationJson<'a> {
        let why = blanket_sentence(state, verdict.allowed).unwrap_or("a robots.txt was read");
        ExplanationJson {
            path: verdict.url,
            verdict,
            selection: "none",
            group_lines: Vec::new(),
            selection_text: "no robots.txt was read, so no group applies".to_owned(),
            global_set_aside: Vec::new(),
            set_aside_text: None,
            matches: Vec::new(),
            embargo_allow: "absent",
            embargo_allow_text: None,
            reason_text: why,
        }
    }
}
