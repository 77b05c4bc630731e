//! The verdict of one URL as the page shows it: the fields of `robots check --format
//! json`, in its order, plus why the verdict came out so.

use robots::Verdict;
use serde::Serialize;

/// One row of the results table. The first six fields match the command line's JSON,
/// so the browser tests compare the two field by field.
#[derive(Debug, Serialize)]
pub struct VerdictJson<'a> {
    pub url: &'a str,
    pub allowed: bool,
    pub line: Option<u32>,
    pub rule: Option<&'static str>,
    pub pattern: Option<&'a str>,
    pub embargo_days: Option<u32>,
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
