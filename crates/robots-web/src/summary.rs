//! What the parse found, for the page's header line: size, lines, groups with the
//! agents they name, and sitemaps.

use robots::Robots;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct SummaryJson<'a> {
    pub profile: &'static str,
    pub bytes: usize,
    pub parsed_bytes: usize,
    /// The parse limit: past it, a file is read only up to the last line that ends within it.
    pub parse_limit: usize,
    pub lines: u32,
    pub groups: Vec<GroupJson<'a>>,
    pub sitemaps: Vec<&'a str>,
}

/// One group: its first line and the agents its user-agent lines name.
#[derive(Debug, Serialize)]
pub struct GroupJson<'a> {
    pub line: u32,
    pub agents: Vec<&'a str>,
}

impl<'a> SummaryJson<'a> {
    pub fn new(robots: &'a Robots) -> SummaryJson<'a> {
        SummaryJson {
            profile: robots.profile().name(),
            bytes: robots.size(),
            parsed_bytes: robots.parsed_bytes(),
            parse_limit: robots.options().limit(),
            lines: robots.line_count(),
            groups: robots
                .groups()
                .map(|g| GroupJson {
                    line: g.line(),
                    agents: g.agent_lines().map(|(agent, _)| agent).collect(),
                })
                .collect(),
            sitemaps: robots.sitemaps().collect(),
        }
    }
}
