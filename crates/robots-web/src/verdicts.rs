//! The verdict of one URL as JSON: the shape `robots check --format json` prints (kept
//! here, where both the command line and the page can use it), and the page's row of it.

use robots::Verdict;
use serde::Serialize;

/// A verdict as other tools read it, in this field order; fields that do not apply are
/// `null`. `robots check --format json` prints exactly this.
#[derive(Debug, Serialize)]
pub struct VerdictJson<'a> {
    pub url: &'a str,
    pub allowed: bool,
    pub line: Option<u32>,
    pub rule: Option<&'static str>,
    pub pattern: Option<&'a str>,
    pub embargo_days: Option<u32>,
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
        }
    }
}

/// One row of the page's results table: the command line's fields, so the browser
/// tests compare the two field by field, plus why the verdict came out so.
#[derive(Debug, Serialize)]
pub struct VerdictRow<'a> {
    #[serde(flatten)]
    pub verdict: VerdictJson<'a>,
    pub reason: &'static str,
}

impl<'a> VerdictRow<'a> {
    pub fn new(url: &'a str, verdict: &Verdict<'a>) -> VerdictRow<'a> {
        VerdictRow {
            verdict: VerdictJson::new(url, verdict),
            reason: verdict.reason().name(),
        }
    }
}
