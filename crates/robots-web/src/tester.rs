//! The tester's four questions (parse, check, explain, lint) as plain Rust that answers
//! in JSON, so they are tested natively; the WebAssembly bindings only forward to them.

use robots::{Options, Profile, Robots};
use serde::Serialize;

use crate::agent::{AgentJson, NamedAgent};
use crate::diagnostics::DiagnosticJson;
use crate::explanation::ExplanationJson;
use crate::summary::SummaryJson;
use crate::verdicts::VerdictJson;
use crate::WebError;

/// One parsed robots.txt, as the page holds it between keystrokes, with its text (lint
/// finds the lines it reports in it).
#[derive(Debug)]
pub struct Tester {
    robots: Robots,
    source: Vec<u8>,
}

/// The answer to a check: the agent as understood, then a verdict per URL in order.
#[derive(Debug, Serialize)]
pub struct CheckJson<'a> {
    pub agent: AgentJson<'a>,
    pub verdicts: Vec<VerdictJson<'a>>,
}

impl Tester {
    /// Parses `bytes` under the profile named `profile` (`rfc9309` or `google`), with
    /// the default parse limit, as `robots check` does.
    pub fn parse(bytes: &[u8], profile: &str) -> Result<Tester, WebError> {
        let profile: Profile = profile.parse()?;
        Ok(Tester {
            robots: Robots::parse_with(bytes, Options::new().profile(profile)),
            source: bytes.to_vec(),
        })
    }

    pub fn robots(&self) -> &Robots {
        &self.robots
    }

    /// Size, lines, groups and sitemaps, as JSON.
    pub fn summary(&self) -> String {
        to_json(&SummaryJson::new(&self.robots))
    }

    /// The verdict for each URL (or path) for the agent called `agent`, as JSON. An
    /// agent honouring embargoes (`embargo`) is refused under the Google profile, which
    /// knows none (DESIGN.md): [`WebError::EmbargoNeedsRfc9309`].
    pub fn check(&self, agent: &str, embargo: bool, urls: &[String]) -> Result<String, WebError> {
        let named = NamedAgent::new(agent, self.robots.profile(), embargo)?;
        let verdicts = urls
            .iter()
            .map(|url| VerdictJson::new(url, &self.robots.check(&named.agent, url)))
            .collect();
        Ok(to_json(&CheckJson {
            agent: named.json(),
            verdicts,
        }))
    }

    /// Why `url` gets its verdict, as JSON; refuses what [`Tester::check`] refuses.
    pub fn explain(&self, agent: &str, embargo: bool, url: &str) -> Result<String, WebError> {
        let named = NamedAgent::new(agent, self.robots.profile(), embargo)?;
        let explanation = self.robots.explain(&named.agent, url);
        Ok(to_json(&ExplanationJson::new(
            url,
            &named.agent,
            &explanation,
        )))
    }

    /// Every lint finding in line order, as JSON.
    pub fn lint(&self) -> String {
        let diagnostics = self.robots.lint(&self.source);
        to_json(
            &diagnostics
                .iter()
                .map(|d| DiagnosticJson::new(d, &self.source))
                .collect::<Vec<_>>(),
        )
    }
}

fn to_json(value: &impl Serialize) -> String {
    // Only strings, numbers, booleans and options of them: serialising cannot fail.
    serde_json::to_string(value).expect("the page's JSON always serialises")
}
