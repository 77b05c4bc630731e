//! `Robots.explain()`'s text: the verdict for one URL and what went into it, laid out
//! as `robots explain` lays it out (without the file excerpt).

use std::fmt::Write;

use robots::{Agent, Availability, Options, Reason, Robots};

use crate::verdict::written_pattern;

/// Why `agent` gets its verdict on `url` from `robots`, in lines of `label  text`.
pub fn text(robots: &Robots, agent: &Agent, url: &str, source: &[u8]) -> String {
    let explanation = robots.explain(agent, url);
    let verdict = &explanation.verdict;
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(out, "url      {url}");
    let _ = writeln!(out, "path     {}", explanation.path);
    let _ = writeln!(out, "agent    {}", agent.name());
    let _ = writeln!(out, "groups   {}", explanation.selection_summary(agent));
    let deciding = verdict.decided_by().map(|r| r.line());
    if explanation.matches.is_empty() {
        let _ = writeln!(out, "matched  no rule");
    }
    for (i, m) in explanation.matches.iter().enumerate() {
        let label = if i == 0 { "matched" } else { "" };
        let mut line = format!(
            "{label:<8} line {:<4} {}: {}  length {}",
            m.rule.line(),
            m.rule.kind().directive(),
            written_pattern(m.rule, source, robots.options()),
            m.rule.specificity()
        );
        if !m.counted {
            if let Some(why) = explanation.embargo_allow.describe() {
                let _ = write!(line, "  ({why})");
            }
        } else if Some(m.rule.line()) == deciding {
            line.push_str("  <- decides");
        }
        let _ = writeln!(out, "{line}");
    }
    let word = if verdict.allowed() {
        "ALLOWED"
    } else {
        "DISALLOWED"
    };
    let by = match (verdict.decided_by(), verdict.reason()) {
        (Some(rule), Reason::EmptyDisallow) => {
            format!(" by line {} (an empty Disallow)", rule.line())
        }
        (Some(rule), _) => format!(" by line {}", rule.line()),
        (None, _) => String::new(),
    };
    let _ = write!(out, "verdict  {word}{by}: {}", verdict.reason().describe());
    if let Some(embargo) = verdict.embargo() {
        let _ = write!(out, "\nembargo  {} days", embargo.period().days());
    }
    out
}

/// Why a site without a file to read gives its verdict on `url`.
pub fn blanket(state: Availability, options: Options, url: &str) -> String {
    let allowed = crate::parsed::blanket_allows(state, options, url.as_bytes());
    let why = match (state, allowed) {
        (Availability::Unavailable, _) => {
            "robots.txt is unavailable (a 4xx): every URL may be crawled (RFC 9309 §2.3.1.3)"
        }
        (_, true) => "robots.txt is unreachable, but /robots.txt itself is always allowed (RFC 9309 §2.2.2)",
        _ => "robots.txt is unreachable (a 5xx or no answer): nothing may be crawled (RFC 9309 §2.3.1.4)",
    };
    format!(
        "url      {url}\nverdict  {}: {why}",
        if allowed { "ALLOWED" } else { "DISALLOWED" }
    )
}
