//! The verdict of one URL as JSON: the shape `robots check --format json` prints, the
//! page's results table reads and the Python package's `Verdict.to_dict()` gives.

use robots::{Availability, Verdict};
use serde::Serialize;

/// A verdict as other tools read it, in this field order; fields that do not apply are
/// `null`. `robots check --format json` prints exactly this, and the page's results
/// table reads it, so the browser tests compare the two field by field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerdictJson<'a> {
    /// The URL (or path) as given.
    pub url: &'a str,
    /// Whether it may be crawled.
    pub allowed: bool,
    /// The deciding rule's 1-based line.
    pub line: Option<u32>,
    /// The deciding rule's kind: `allow`, `disallow` or `embargo-allow`.
    pub rule: Option<&'static str>,
    /// The deciding rule's pattern.
    pub pattern: Option<&'a str>,
    /// The embargo in days, for an agent honouring Archive-Embargo.
    pub embargo_days: Option<u32>,
    /// Why the verdict came out so: [`robots::Reason::name`] (`robots-txt`, `no-group`,
    /// `no-match`, `longest`, `tie-won-by-allow`, `empty-disallow`); `robots fetch` adds `unavailable` and
    /// `unreachable` for a site without a robots.txt to parse ([`blanket_reason`]). Last,
    /// so that the fields before it keep the places they had before it was added.
    pub reason: &'static str,
}

impl<'a> VerdictJson<'a> {
    /// The engine's `verdict` for `url`, its pattern as the engine holds it.
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

    /// The verdict for `url` when no robots.txt was read, and so no rule decides: a
    /// site `state` left [`Availability::Unavailable`] or [`Availability::Unreachable`]
    /// (RFC 9309 §2.3.1.3, §2.3.1.4), `allowed` or not as that state and the profile say;
    /// `None` for an available file, whose rules decide.
    pub fn blanket(url: &'a str, state: Availability, allowed: bool) -> Option<VerdictJson<'a>> {
        Some(VerdictJson {
            url,
            allowed,
            line: None,
            rule: None,
            pattern: None,
            embargo_days: None,
            reason: blanket_reason(state, allowed)?,
        })
    }
}

/// The `reason` of a verdict no file decided, as `robots fetch --format json` names it:
/// `unavailable` (everything allowed), `unreachable` (disallowed), or `robots-txt` for
/// what the profile allows even then (`/robots.txt` in RFC 9309's); `None` for an
/// available file.
pub fn blanket_reason(state: Availability, allowed: bool) -> Option<&'static str> {
    match (state, allowed) {
        (Availability::Available, _) => None,
        (Availability::Unavailable, _) => Some("unavailable"),
        (Availability::Unreachable, true) => Some("robots-txt"),
        (Availability::Unreachable, false) => Some("unreachable"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use robots::{Agent, Robots};

    #[test]
    fn fields_keep_their_order_and_words() {
        let robots = Robots::parse(
            b"User-agent: *\nArchive-Embargo: w\nEmbargo-Allow: /news\nDisallow: /\n",
        );
        let archiver = Agent::new("Archiver").unwrap().honouring_embargo();
        let verdict = robots.check(&archiver, "/news/1");
        assert_eq!(
            serde_json::to_string(&VerdictJson::new("/news/1", &verdict)).unwrap(),
            r#"{"url":"/news/1","allowed":true,"line":3,"rule":"embargo-allow","pattern":"/news","embargo_days":7,"reason":"longest"}"#
        );
    }

    #[test]
    fn blanket_verdicts_name_the_state() {
        let json = |state, allowed| {
            VerdictJson::blanket("/x", state, allowed).map(|v| serde_json::to_string(&v).unwrap())
        };
        assert_eq!(json(Availability::Available, true), None);
        assert_eq!(
            json(Availability::Unavailable, true).unwrap(),
            r#"{"url":"/x","allowed":true,"line":null,"rule":null,"pattern":null,"embargo_days":null,"reason":"unavailable"}"#
        );
        assert!(json(Availability::Unreachable, false)
            .unwrap()
            .ends_with(r#""reason":"unreachable"}"#));
        assert_eq!(
            blanket_reason(Availability::Unreachable, true),
            Some("robots-txt")
        );
    }
}
