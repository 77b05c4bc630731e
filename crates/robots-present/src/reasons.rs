//! Why a verdict came out so, in the words every front end shows: the rule that decided,
//! or the phrase for a verdict no rule decided, short on a verdict line, long in an explanation.

use robots::{Availability, Reason, Verdict};

use crate::text::printable;
use crate::written::Patterns;

/// What a verdict line shows in parentheses after its URL: the deciding rule
/// ([`rule_text`]), or why none decided ([`why_no_rule`]).
///
/// ```
/// use robots::{Agent, Robots};
/// use robots_present::{reasons, Patterns};
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /private\n");
/// let agent = Agent::new("ExampleBot").unwrap();
/// let why = |url| reasons::why(&robots.check(&agent, url), &Patterns::default());
/// assert_eq!(why("/private/x"), "line 2: Disallow: /private");
/// assert_eq!(why("/public"), "no rule matched");
/// ```
pub fn why(verdict: &Verdict<'_>, patterns: &Patterns) -> String {
    rule_text(verdict, patterns).unwrap_or_else(|| why_no_rule(verdict.reason()).to_owned())
}

/// The rule that decided, as verdict lines name it: `line 3: Allow: /a`, control
/// characters escaped. Google's empty Disallow names its line without disallowing
/// anything, and says so rather than look like a disallow.
pub fn rule_text(verdict: &Verdict<'_>, patterns: &Patterns) -> Option<String> {
    let rule = verdict.decided_by()?;
    Some(if verdict.reason() == Reason::EmptyDisallow {
        format!("line {}: {}", rule.line(), EMPTY_DISALLOW)
    } else {
        format!(
            "line {}: {}: {}",
            rule.line(),
            rule.kind().directive(),
            printable(patterns.text(rule))
        )
    })
}

/// What Google's empty `Disallow:` does, beside its line.
pub const EMPTY_DISALLOW: &str = "empty Disallow: disallows nothing";

/// Why no rule decided, in the short form a verdict line shows: `/robots.txt is always
/// allowed` (RFC 9309 §2.2.2), `no group for this agent` (§2.2.1) or `no rule matched`.
pub fn why_no_rule(reason: Reason) -> &'static str {
    match reason {
        Reason::RobotsTxt => "/robots.txt is always allowed",
        Reason::NoGroup => "no group for this agent",
        _ => "no rule matched",
    }
}

/// The short phrases of the verdicts no rule decides, by the `reason` their JSON gives,
/// for front ends that draw verdicts from JSON (the browser tester): the three of
/// [`why_no_rule`], then `unavailable` and `unreachable` ([`blanket_phrase`]).
pub fn phrases() -> Vec<(&'static str, &'static str)> {
    let ruleless =
        [Reason::RobotsTxt, Reason::NoGroup, Reason::NoMatch].map(|r| (r.name(), why_no_rule(r)));
    let blanket = [
        ("unavailable", Availability::Unavailable, true),
        ("unreachable", Availability::Unreachable, false),
    ]
    .map(|(name, state, allowed)| (name, blanket_phrase(state, allowed).unwrap_or(name)));
    ruleless.into_iter().chain(blanket).collect()
}

/// Why a site whose robots.txt was not read gets its verdict, short, as `robots fetch`
/// shows it on a verdict line; `None` for an available file, whose rules decide.
pub fn blanket_phrase(state: Availability, allowed: bool) -> Option<&'static str> {
    match (state, allowed) {
        (Availability::Available, _) => None,
        (Availability::Unavailable, _) => Some("no robots.txt applies: everything allowed"),
        (Availability::Unreachable, true) => {
            Some("robots.txt unreachable, but /robots.txt itself is always allowed")
        }
        (Availability::Unreachable, false) => Some("robots.txt unreachable: everything disallowed"),
    }
}

/// The same in a sentence citing RFC 9309, as an explanation gives it; `None` for an
/// available file.
pub fn blanket_sentence(state: Availability, allowed: bool) -> Option<&'static str> {
    match (state, allowed) {
        (Availability::Available, _) => None,
        (Availability::Unavailable, _) => Some(
            "robots.txt is unavailable (a 4xx status): every URL may be crawled (RFC 9309 §2.3.1.3)",
        ),
        (Availability::Unreachable, true) => Some(
            "robots.txt is unreachable, but /robots.txt itself is always allowed (RFC 9309 §2.2.2)",
        ),
        (Availability::Unreachable, false) => Some(
            "robots.txt is unreachable (a 5xx status or no answer): nothing may be crawled (RFC 9309 §2.3.1.4)",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use robots::{Agent, Options, Profile, Robots};

    #[test]
    fn each_ruleless_reason_has_its_phrase() {
        let agent = Agent::new("ExampleBot").unwrap();
        let named = Robots::parse(b"User-agent: OtherBot\nDisallow: /\n");
        let why = |robots: &Robots, url| why(&robots.check(&agent, url), &Patterns::default());
        assert_eq!(why(&named, "/a"), "no group for this agent");
        assert_eq!(why(&named, "/robots.txt"), "/robots.txt is always allowed");
        let google = Robots::parse_with(
            b"User-agent: *\nDisallow:\n",
            Options::new().profile(Profile::Google),
        );
        assert_eq!(
            why(&google, "/a"),
            "line 2: empty Disallow: disallows nothing"
        );
        let names: Vec<_> = phrases().into_iter().map(|(name, _)| name).collect();
        assert_eq!(
            names,
            [
                "robots-txt",
                "no-group",
                "no-match",
                "unavailable",
                "unreachable"
            ]
        );
    }

    #[test]
    fn blanket_words_follow_the_state_and_the_verdict() {
        for (state, allowed) in [
            (Availability::Unavailable, true),
            (Availability::Unreachable, true),
            (Availability::Unreachable, false),
        ] {
            let short = blanket_phrase(state, allowed).unwrap();
            let long = blanket_sentence(state, allowed).unwrap();
            assert!(long.contains("RFC 9309"), "{long}");
            assert!(!short.contains("RFC"), "{short}");
        }
        assert_eq!(blanket_phrase(Availability::Available, true), None);
        assert_eq!(blanket_sentence(Availability::Available, false), None);
    }
}
