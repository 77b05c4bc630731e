//! The answer to "may this agent fetch this URL?": allowed or not, the deciding rule
//! with its line, why, and the embargo that comes with an allowed URL.

use crate::Embargo;

/// The kind of a rule line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleKind {
    /// `Allow`: allows what its pattern matches.
    Allow,
    /// `Disallow`: disallows what its pattern matches.
    Disallow,
    /// An allow that counts only for agents honouring Archive-Embargo in a group that
    /// has a valid embargo.
    EmbargoAllow,
}

impl RuleKind {
    /// The lower-case name used in output: `allow`, `disallow`, `embargo-allow`.
    pub fn name(self) -> &'static str {
        match self {
            RuleKind::Allow => "allow",
            RuleKind::Disallow => "disallow",
            RuleKind::EmbargoAllow => "embargo-allow",
        }
    }

    /// The directive as robots.txt usually writes it.
    pub fn directive(self) -> &'static str {
        match self {
            RuleKind::Allow => "Allow",
            RuleKind::Disallow => "Disallow",
            RuleKind::EmbargoAllow => "Embargo-Allow",
        }
    }

    pub(crate) fn allows(self) -> bool {
        self != RuleKind::Disallow
    }
}

/// A rule of the file, as written.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rule<'r> {
    pub(crate) kind: RuleKind,
    /// Stored text, always UTF-8; read as `str` only when asked for, which a crawler
    /// never does.
    pub(crate) pattern: &'r [u8],
    pub(crate) line: u32,
    pub(crate) specificity: u32,
}

impl<'r> Rule<'r> {
    /// Allow, disallow or embargo-allow.
    pub fn kind(&self) -> RuleKind {
        self.kind
    }

    /// The pattern as written (after trimming; invalid UTF-8 replaced by U+FFFD).
    pub fn pattern(&self) -> &'r str {
        std::str::from_utf8(self.pattern).unwrap_or("")
    }

    /// The 1-based line of the rule.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The length in octets that ranks this rule against others (RFC 9309 §2.2.2: the
    /// longest match wins), measured on the normalised pattern.
    pub fn specificity(&self) -> u32 {
        self.specificity
    }
}

/// The pattern as text, not as a list of numbers.
impl std::fmt::Debug for Rule<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule")
            .field("kind", &self.kind)
            .field("pattern", &self.pattern())
            .field("line", &self.line)
            .field("specificity", &self.specificity)
            .finish()
    }
}

/// Why a verdict came out the way it did. More reasons may come, so matches need a `_`
/// arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// `/robots.txt` is always allowed (RFC 9309 §2.2.2).
    RobotsTxt,
    /// No group names the agent and there is no `*` group: everything is allowed
    /// (RFC 9309 §2.2.1).
    NoGroup,
    /// The agent's group has no rule matching the path: allowed (RFC 9309 §2.2.2).
    NoMatch,
    /// The longest matching rule decided (RFC 9309 §2.2.2).
    Longest,
    /// An allow and a disallow matched with the same length; the allow wins (RFC 9309
    /// §2.2.2).
    TieWonByAllow,
    /// Google profile: an empty `Disallow:` matched with length 0 and nothing longer
    /// did; it names its line, but a match of length 0 disallows nothing.
    EmptyDisallow,
}

impl Reason {
    /// The stable kebab-case name used in JSON output, e.g. `tie-won-by-allow`.
    pub fn name(self) -> &'static str {
        match self {
            Reason::RobotsTxt => "robots-txt",
            Reason::NoGroup => "no-group",
            Reason::NoMatch => "no-match",
            Reason::Longest => "longest",
            Reason::TieWonByAllow => "tie-won-by-allow",
            Reason::EmptyDisallow => "empty-disallow",
        }
    }

    /// The reason in a sentence, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::RobotsTxt => "/robots.txt is always allowed (RFC 9309 §2.2.2)",
            Reason::NoGroup => "no group applies, so nothing is disallowed",
            Reason::NoMatch => "no rule of the chosen groups matches, so the URL is allowed",
            Reason::Longest => "the longest matching rule decides (RFC 9309 §2.2.2)",
            Reason::TieWonByAllow => {
                "an allow and a disallow of the same length match; the allow wins"
            }
            Reason::EmptyDisallow => {
                "an empty Disallow matches with length 0 and disallows nothing, so the URL is allowed"
            }
        }
    }
}

/// The verdict for one URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Verdict<'r> {
    pub(crate) allowed: bool,
    pub(crate) decided_by: Option<Rule<'r>>,
    pub(crate) reason: Reason,
    pub(crate) embargo: Option<Embargo>,
}

impl<'r> Verdict<'r> {
    /// Whether the agent may fetch the URL: `true` unless the deciding rule is a
    /// disallow (of non-zero length; RFC 9309 §2.2.2).
    pub fn allowed(&self) -> bool {
        self.allowed
    }

    /// The rule that decided, if any did: the longest matching one; `None` when no rule
    /// matched, no group applies or the URL is `/robots.txt` ([`Verdict::reason`] says
    /// which). Its kind says which
    /// way, but [`Verdict::allowed`] is the verdict: in the Google profile an empty
    /// `Disallow:` can be named while the URL is allowed ([`Reason::EmptyDisallow`]).
    pub fn decided_by(&self) -> Option<Rule<'r>> {
        self.decided_by
    }

    /// Why the verdict is what it is.
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// The embargo on publishing what is fetched: set when the URL is allowed, the agent
    /// honours Archive-Embargo and its group has a valid `Archive-Embargo` (RFC 9309
    /// profile only: the Google profile knows no embargo). It gives the period and,
    /// with [`Embargo::end`], the date publication may start (docs/design.md: `v.embargo()`
    /// is an `Option<Embargo>`).
    ///
    /// ```
    /// use robots::{Agent, EmbargoPeriod, Robots};
    /// use std::time::{Duration, UNIX_EPOCH};
    ///
    /// let robots = Robots::parse(b"User-agent: *\nArchive-Embargo: w\nDisallow: /private\n");
    /// let archiver = Agent::new("ExampleArchiver").unwrap().honouring_embargo();
    /// let captured = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    ///
    /// let embargo = robots.check(&archiver, "/news/today").embargo().unwrap();
    /// assert_eq!(embargo.period(), EmbargoPeriod::Week);
    /// let end = embargo.end(None, captured, captured);
    /// assert_eq!(end, captured + Duration::from_secs(7 * 86_400));
    ///
    /// // Disallowed URLs, and agents that do not honour embargoes, get none.
    /// assert_eq!(robots.check(&archiver, "/private/x").embargo(), None);
    /// let crawler = Agent::new("ExampleBot").unwrap();
    /// assert_eq!(robots.check(&crawler, "/news/today").embargo(), None);
    /// ```
    pub fn embargo(&self) -> Option<Embargo> {
        self.embargo
    }
}

// Checks are benchmarked at about 90 ns and return a `Verdict` by value: the embargo
// rides in the niche of a one-byte enum, so carrying `Embargo` rather than its period
// costs no byte. 40 bytes on 64-bit targets (the deciding rule takes 32).
const _: () = assert!(std::mem::size_of::<Option<Embargo>>() == 1);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Verdict<'static>>() == 40);
