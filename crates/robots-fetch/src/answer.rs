//! The answer to "may I fetch this URL, and under what embargo?": the rules for an origin,
//! where they came from, how fresh they are, and the owned decision for one URL.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use robots::{Agent, Embargo, Profile, Reason, RuleKind};

use crate::{Freshness, Hop, Origin, Rules, Source};

/// How much of a robots.txt body was read.
///
/// A body longer than the parse limit is read to one byte past the limit and no
/// further: that byte says whether the limit falls inside a line, and the parse drops a
/// line the limit cuts (a half-written `Disallow: /private-area` would read as
/// `Disallow: /`). [`Robots::parsed_bytes`](robots::Robots::parsed_bytes) of the parsed
/// rules says how many bytes, whole lines within the limit, the rules come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BodySize {
    /// Bytes read (after content decoding): the whole body, or the parse limit plus one
    /// when the body is longer.
    pub read: usize,
    /// Whether the body went on past the parse limit; the rest was not read.
    pub truncated: bool,
}

/// The robots.txt rules for one origin, and their provenance.
#[derive(Debug, Clone)]
pub struct Answer {
    pub(crate) origin: Origin,
    pub(crate) source: Source,
    pub(crate) rules: Arc<Rules>,
    pub(crate) chain: Arc<[Hop]>,
    pub(crate) freshness: Option<Freshness>,
    pub(crate) body: Option<BodySize>,
    /// The profile the fetcher reads robots.txt with, which says what is allowed when
    /// there is no file to read (see [`Answer::decide`]).
    pub(crate) profile: Profile,
    /// When the robots.txt request behind the answer ended.
    pub(crate) requested_at: tokio::time::Instant,
}

impl Answer {
    /// The origin these rules govern: the one asked for, even when the robots.txt was
    /// served from elsewhere after redirects (RFC 9309 §2.3.1.2).
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Where the answer came from.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The rules to apply. [`Rules::robots`] gives the parsed file, when there is one,
    /// for what `Answer` has no method for: an agent's Request-rate is
    /// `answer.rules().robots().and_then(|r| r.group_for(&agent).request_rate())`.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The requests behind the rules, first to last, redirects included. For a cached
    /// answer, those of the response that was stored; for an unreachable one, those of
    /// the attempt that failed (empty when no response came at all).
    pub fn chain(&self) -> &[Hop] {
        &self.chain
    }

    /// The freshness of the stored response the rules came from, if they came from one.
    pub fn freshness(&self) -> Option<Freshness> {
        self.freshness
    }

    /// When the last robots.txt request behind this answer ended (its reply, or its
    /// failure, came in); for a cached answer, the request that got or last revalidated
    /// the stored response. That request was one to the origin too, so
    /// [`Pacer::pace`](crate::Pacer::pace) spaces the next from it.
    pub fn requested_at(&self) -> std::time::Instant {
        self.requested_at.into_std()
    }

    /// How much of the body was read, when the rules came from a 2xx body.
    pub fn body(&self) -> Option<BodySize> {
        self.body
    }

    /// The Crawl-delay of the agent's groups, as
    /// [`AgentGroups::crawl_delay`](robots::AgentGroups::crawl_delay) gives it: `None`
    /// when they give none, and when no file was read (allow all, disallow all).
    pub fn crawl_delay(&self, agent: &Agent) -> Option<Duration> {
        self.rules.robots()?.group_for(agent).crawl_delay()
    }

    /// The Sitemap URLs the file lists, as [`Robots::sitemaps`](robots::Robots::sitemaps)
    /// gives them (a relative one as written); empty when no file was read (allow all,
    /// disallow all).
    pub fn sitemaps(&self) -> Vec<&str> {
        self.rules
            .robots()
            .map(|r| r.sitemaps().collect())
            .unwrap_or_default()
    }

    /// May `agent` fetch `url` (a URL of this origin, or a path), and under what embargo?
    ///
    /// When the robots.txt is unreachable and everything is disallowed, what the profile
    /// always allows still is: `/robots.txt` itself in the RFC 9309 profile (§2.2.2), so
    /// a crawler may go on asking for it; nothing in the Google profile, which matches
    /// `/robots.txt` like any path ([`Profile::always_allows`]).
    ///
    /// Like [`Robots::check`](robots::Robots::check), this cannot fail: under the Google
    /// profile an agent's embargo support is ignored. [`Fetcher::decide`](crate::Fetcher::decide)
    /// refuses that pair.
    pub fn decide(&self, agent: &Agent, url: &str) -> Decision {
        match &*self.rules {
            Rules::AllowAll => Decision {
                allowed: true,
                embargo: None,
                rule: None,
                reason: None,
            },
            Rules::DisallowAll => {
                let allowed = self.profile.always_allows(url);
                Decision {
                    allowed,
                    embargo: None,
                    rule: None,
                    reason: allowed.then_some(Reason::RobotsTxt),
                }
            }
            Rules::Parsed(robots) => {
                let verdict = robots.check(agent, url);
                Decision {
                    allowed: verdict.allowed(),
                    embargo: verdict.embargo(),
                    reason: Some(verdict.reason()),
                    rule: verdict.decided_by().map(|r| DecidingRule {
                        kind: r.kind(),
                        pattern: r.pattern().to_owned(),
                        line: r.line(),
                    }),
                }
            }
        }
    }
}

/// The decision for one URL, owned so it can outlive the answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decision {
    allowed: bool,
    embargo: Option<Embargo>,
    rule: Option<DecidingRule>,
    reason: Option<Reason>,
}

impl Decision {
    /// Whether the URL may be fetched.
    pub fn allowed(&self) -> bool {
        self.allowed
    }

    /// The Archive-Embargo on publishing what is fetched (agents that honour it only), as
    /// [`Verdict::embargo`](robots::Verdict::embargo) gives it: its period, and with
    /// [`Embargo::end`] the date publication may start.
    pub fn embargo(&self) -> Option<Embargo> {
        self.embargo
    }

    /// The robots.txt line that decided, if one did (none for allow-all and
    /// disallow-all outcomes): what [`Verdict::decided_by`](robots::Verdict::decided_by)
    /// gives, copied out of the file.
    pub fn decided_by(&self) -> Option<&DecidingRule> {
        self.rule.as_ref()
    }

    /// Why the file's verdict is what it is ([`Verdict::reason`](robots::Verdict::reason)):
    /// no group for the agent, no rule matching, the longest rule deciding… `None` when
    /// no file decided, because the site's status said allow or disallow everything
    /// ([`Answer::source`] says which and why), except that `/robots.txt` itself, still
    /// allowed then, gives [`Reason::RobotsTxt`].
    pub fn reason(&self) -> Option<Reason> {
        self.reason
    }
}

/// A rule of the file, copied out of it. More may be told about the rule later, so the
/// struct is not exhaustive.
///
/// Displays as `robots check` names a deciding line, `line 2: Disallow: /private/`,
/// ready for a crawler's log.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct DecidingRule {
    /// Allow, disallow or embargo-allow.
    pub kind: RuleKind,
    /// The pattern as written, as [`robots::Rule::pattern`] gives it.
    pub pattern: String,
    /// The 1-based line of the rule in the robots.txt.
    pub line: u32,
}

impl fmt::Display for DecidingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {}: {}",
            self.line,
            self.kind.directive(),
            self.pattern
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use robots::Robots;

    fn answer(file: &str) -> Answer {
        Answer {
            origin: crate::origin_of("https://example.com/").unwrap(),
            source: Source::Fetched,
            rules: Arc::new(Rules::Parsed(Box::new(Robots::parse(file.as_bytes())))),
            chain: Arc::from([]),
            freshness: None,
            body: None,
            profile: Profile::Rfc9309,
            requested_at: tokio::time::Instant::now(),
        }
    }

    #[test]
    fn a_deciding_rule_displays_as_its_line_directive_and_pattern() {
        let answer = answer("User-agent: *\nDisallow: /private/\nallow: /private/open\n");
        let bot = Agent::new("ExampleBot").unwrap();
        let shown = |url: &str| answer.decide(&bot, url).decided_by().unwrap().to_string();
        assert_eq!(shown("/private/x"), "line 2: Disallow: /private/");
        // The directive as robots.txt usually writes it, whatever the file's case.
        assert_eq!(shown("/private/open"), "line 3: Allow: /private/open");
    }

    #[test]
    fn a_decision_says_why_when_a_file_decided() {
        let bot = Agent::new("ExampleBot").unwrap();
        let star = answer("User-agent: *\nDisallow: /private/\n");
        let reason = |url: &str| star.decide(&bot, url).reason();
        assert_eq!(reason("/private/x"), Some(Reason::Longest));
        assert_eq!(reason("/public"), Some(Reason::NoMatch));
        assert_eq!(reason("/robots.txt"), Some(Reason::RobotsTxt));
        let other = answer("User-agent: OtherBot\nDisallow: /\n");
        assert_eq!(other.decide(&bot, "/x").reason(), Some(Reason::NoGroup));
        // A status that disallows everything: no file decided, but /robots.txt is
        // still allowed, as RFC 9309 §2.2.2 says.
        let outage = Answer {
            rules: Arc::new(Rules::DisallowAll),
            ..other
        };
        assert_eq!(outage.decide(&bot, "/x").reason(), None);
        let robots_txt = outage.decide(&bot, "/robots.txt");
        assert!(robots_txt.allowed());
        assert_eq!(robots_txt.reason(), Some(Reason::RobotsTxt));
        let gone = Answer {
            rules: Arc::new(Rules::AllowAll),
            ..outage
        };
        assert_eq!(gone.decide(&bot, "/x").reason(), None);
    }
}
