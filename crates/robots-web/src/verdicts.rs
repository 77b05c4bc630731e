//! The verdict of one URL as JSON: the shape `robots check --format json` prints and the
//! page's results table reads (kept here, where both the command line and the page can
//! use it), and the sentence that says why.

use robots::Verdict;
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
    /// `no-match`, `longest`, `tie-won-by-allow`, `empty-disallow`); `robots fetch` adds `unavailable` and
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
            embargo_days: verdict.embargo().map(|e| e.period().days()),
            reason: verdict.reason().name(),
        }
    }
}
