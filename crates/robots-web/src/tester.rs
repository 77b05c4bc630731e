//! The tester's four questions (parse, check, explain, lint) as plain Rust that answers
//! in JSON, so they are tested natively; the WebAssembly bindings only forward to them.

use robots::{Options, Profile, Robots};
use serde::Serialize;
use std::cell::OnceCell;
use std::time::Duration;

use robots_present::{AgentJson, DiagnosticJson, NamedAgent, VerdictJson};

use crate::explanation::ExplanationJson;
use crate::packed;
use crate::response::Availability;
use crate::summary::SummaryJson;
use crate::WebError;
use robots_present::PreferencesJson;

/// One parsed robots.txt, as the page holds it between keystrokes, with its text (lint
/// finds the lines it reports in it), and whether there was a file at all (the npm
/// package's `fromResponse`).
#[derive(Debug)]
pub struct Tester {
    robots: Robots,
    source: Vec<u8>,
    availability: Availability,
    /// Every rule's line and pattern, sorted by line: made on the first
    /// [`Tester::pattern_at`], so that each later one is a binary search.
    patterns: OnceCell<Vec<(u32, Box<str>)>>,
}

/// The answer to a check: the agent as understood, then a verdict per URL in order,
/// each with the AI usage preferences after it (as `robots check --format json` writes
/// them), then the agent's Crawl-delay in seconds (`null` without one).
#[derive(Debug, Serialize)]
pub struct CheckJson<'a> {
    pub agent: AgentJson<'a>,
    pub verdicts: Vec<CheckedJson<'a>>,
    pub crawl_delay: Option<f64>,
}

/// One URL's verdict and, after its fields, its AI usage preferences.
#[derive(Debug, Serialize)]
pub struct CheckedJson<'a> {
    #[serde(flatten)]
    pub verdict: VerdictJson<'a>,
    #[serde(flatten)]
    pub preferences: PreferencesJson,
}

impl Tester {
    /// Parses `bytes` under the profile named `profile` (`rfc9309` or `google`), with
    /// the default parse limit, as `robots check` does.
    pub fn parse(bytes: &[u8], profile: &str) -> Result<Tester, WebError> {
        Tester::parse_with(bytes, profile, None)
    }

    /// Parses `bytes` as [`Tester::parse`] does, reading at most `max_bytes` (RFC 9309
    /// §2.5 sets the floor at 500 KiB; `None` for the default limit).
    pub fn parse_with(
        bytes: &[u8],
        profile: &str,
        max_bytes: Option<usize>,
    ) -> Result<Tester, WebError> {
        let profile: Profile = profile.parse()?;
        let mut options = Options::new().profile(profile);
        if let Some(limit) = max_bytes {
            options = options.max_bytes(limit)?;
        }
        Ok(Tester {
            robots: Robots::parse_with(bytes, options),
            source: bytes.to_vec(),
            availability: Availability::Parsed,
            patterns: OnceCell::new(),
        })
    }

    /// The rules a robots.txt response gives (RFC 9309 §2.3.1): a 2xx's `body` parsed,
    /// as [`Tester::parse_with`] does; for a 4xx, allow all; for a 5xx or no answer
    /// (status 0), disallow all but `/robots.txt` in the RFC 9309 profile. A 3xx is an
    /// error: the caller follows redirects.
    pub fn from_response(
        status: u16,
        body: &[u8],
        profile: &str,
        max_bytes: Option<usize>,
    ) -> Result<Tester, WebError> {
        let availability = Availability::of_status(status)?;
        let body = if availability == Availability::Parsed {
            body
        } else {
            b""
        };
        let mut tester = Tester::parse_with(body, profile, max_bytes)?;
        tester.availability = availability;
        Ok(tester)
    }

    /// Whether the rules come from a file, or from a status that allows or disallows all.
    pub fn availability(&self) -> Availability {
        self.availability
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
    /// knows none (docs/design.md): [`WebError::EmbargoNeedsRfc9309`].
    pub fn check(&self, agent: &str, embargo: bool, urls: &[String]) -> Result<String, WebError> {
        let named = NamedAgent::new(agent, self.robots.profile(), embargo)?;
        let verdicts = urls
            .iter()
            .map(|url| match self.blanket(url) {
                Some(verdict) => CheckedJson {
                    verdict,
                    preferences: PreferencesJson::NONE,
                },
                None => CheckedJson {
                    verdict: VerdictJson::new(url, &self.robots.check(&named.agent, url)),
                    preferences: PreferencesJson::of(&self.robots, &named.agent, url.as_bytes()),
                },
            })
            .collect();
        Ok(to_json(&CheckJson {
            agent: named.json(),
            verdicts,
            crawl_delay: self.crawl_delay(&named).map(|d| d.as_secs_f64()),
        }))
    }

    /// The verdict when no file was read (a 4xx or 5xx), as `robots fetch` gives it;
    /// `None` when the file decides.
    fn blanket<'u>(&self, url: &'u str) -> Option<VerdictJson<'u>> {
        let allowed = match self.availability {
            Availability::Parsed => return None,
            Availability::Unavailable(_) => true,
            Availability::Unreachable(_) => self.robots.profile().always_allows(url),
        };
        VerdictJson::blanket(url, self.availability.state(), allowed)
    }

    /// The verdict for `url` packed into a number ([`packed`]): the npm package's hot
    /// path, for an agent made once for this file's profile. `url` is the URL's octets
    /// (UTF-8 from JavaScript), checked as [`Robots::check_bytes`] checks them.
    pub fn packed(&self, agent: &NamedAgent, url: &[u8]) -> f64 {
        match self.availability {
            Availability::Parsed => packed::verdict(&self.robots.check_bytes(&agent.agent, url)),
            Availability::Unavailable(_) => packed::blanket(self.availability, true),
            Availability::Unreachable(_) => packed::blanket(
                self.availability,
                std::str::from_utf8(url).is_ok_and(|url| self.robots.profile().always_allows(url)),
            ),
        }
    }

    /// Whether the file has Content-Usage or Content-Signal lines: the npm package asks
    /// [`Tester::preferences`] only of a file that does, so most checks pay nothing.
    pub fn states_preferences(&self) -> bool {
        self.robots.states_preferences()
    }

    /// The AI usage preferences `agent` is given for `url` (octets, as
    /// [`Tester::packed`] reads them), as JSON in the fields `robots check` writes after
    /// a verdict; none when no file was read.
    pub fn preferences(&self, agent: &NamedAgent, url: &[u8]) -> String {
        match self.availability {
            Availability::Parsed => to_json(&PreferencesJson::of(&self.robots, &agent.agent, url)),
            _ => to_json(&PreferencesJson::NONE),
        }
    }

    /// The pattern of the rule on `line`, which a packed verdict names only by its line.
    pub fn pattern_at(&self, line: u32) -> Option<&str> {
        let patterns = self.patterns.get_or_init(|| {
            let mut all: Vec<(u32, Box<str>)> = self
                .robots
                .groups()
                .flat_map(|g| g.rules())
                .map(|r| (r.line(), r.pattern().into()))
                .collect();
            all.sort_by_key(|&(line, _)| line);
            all
        });
        let at = patterns.binary_search_by_key(&line, |&(l, _)| l).ok()?;
        Some(&patterns[at].1)
    }

    /// The Crawl-delay of the groups that apply to `agent`; `None` without one, or when
    /// no file was read.
    pub fn crawl_delay(&self, agent: &NamedAgent) -> Option<Duration> {
        self.robots.group_for(&agent.agent).crawl_delay()
    }

    /// Why `url` gets its verdict, as JSON; refuses what [`Tester::check`] refuses.
    pub fn explain(&self, agent: &str, embargo: bool, url: &str) -> Result<String, WebError> {
        let named = NamedAgent::new(agent, self.robots.profile(), embargo)?;
        if let Some(verdict) = self.blanket(url) {
            return Ok(to_json(&ExplanationJson::blanket(
                verdict,
                self.availability.state(),
            )));
        }
        let explanation = self.robots.explain(&named.agent, url);
        Ok(to_json(&ExplanationJson::new(
            &self.robots,
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
                .map(|d| DiagnosticJson::spanned(d, &self.source))
                .collect::<Vec<_>>(),
        )
    }
}

fn to_json(value: &impl Serialize) -> String {
    // Only strings, numbers, booleans and options of them: serialising cannot fail.
    serde_json::to_string(value).expect("the page's JSON always serialises")
}
