//! The verdict of one URL as JSON: the shape `robots check --format json` prints and the
//! page's results table reads (kept here, where both the command line and the page can
//! use it), and the sentence that says why.

use robots::{RuleKind, Verdict};
use serde::Serialize;

/// A verdict as other tools read it, in this field order; fields that do not apply are
/// `null`. `robots check --format json` prints exactly this, and the page's results
/// table reads it, so the browser tests compare the two field by field.
#[derive(Debug, Serialize)]
pub struct VerdictJson<'a> {
    pub url: &'a str,
    pub allowed: bool,
    pub line: Option<u32>,
    pub rule: Option<&'static str>,
    pub pattern: Option<&'a str>,
    pub embargo_days: Option<u32>,
    /// Why the verdict came out so: [`robots::Reason::name`] (`robots-txt`, `no-group`,
    /// `no-match`, `longest`, `tie-won-by-allow`); `robots fetch` adds `unavailable` and
    /// `unreachable` for a site without a robots.txt to parse. Last, so that the fields
    /// before it keep the places they had before it was added.
    pub reason: &'static str,
}

impl<'a> VerdictJson<'a> {
    pub fn new(url: &'a str, verdict: &Verdict<'a>) -> VerdictJson<'a> {
        let rule = verdict.decided_by();
        VerdictJson {
            url,
            allowed: verdict.allowed(),
            line: rule.map(|r| r.line()),
            rule: rule.map(|r| r.kind().name()),
            pattern: rule.map(|r| r.pattern()),
            embargo_days: verdict.embargo().map(|e| e.days()),
            reason: verdict.reason().name(),
        }
    }
}

/// Whether the rule that decided `verdict` is a Disallow that did not disallow: in the
/// Google profile an empty `Disallow:` matches every path with length 0 and the engine
/// names its line, but a match of length 0 never disallows.
pub fn decided_by_empty_disallow(verdict: &Verdict<'_>) -> bool {
    verdict.allowed()
        && verdict
            .decided_by()
            .is_some_and(|r| r.kind() == RuleKind::Disallow)
}

/// Why the verdict came out so, in a sentence for people: the engine's
/// [`robots::Reason::describe`], but for an empty Disallow that decided (see
/// [`decided_by_empty_disallow`]), which the engine files under "no rule matches" while
/// it names that rule's line.
pub fn reason_text(verdict: &Verdict<'_>) -> &'static str {
    if decided_by_empty_disallow(verdict) {
        "an empty Disallow matches with length 0 and disallows nothing, so the URL is allowed"
    } else {
        verdict.reason().describe()
    }
}
