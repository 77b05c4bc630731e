//! A parsed robots.txt: its groups, rules, records and diagnostics, laid out flat in a
//! few vectors with one byte arena for all text, and the options that shaped it.

use std::ops::Range;
use std::time::Duration;

use crate::behaviour::Behaviour;
use crate::{Diagnostic, Directive, EmbargoPeriod, Error, Profile, RuleKind};

/// The least (and default) number of bytes parsed: RFC 9309 §2.5 asks crawlers to parse
/// at least 500 KiB.
pub const MIN_PARSE_LIMIT: usize = 512_000;

/// How to parse: the profile and the parse limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub(crate) profile: Profile,
    pub(crate) max_bytes: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            profile: Profile::Rfc9309,
            max_bytes: MIN_PARSE_LIMIT,
        }
    }
}

impl Options {
    /// RFC 9309 profile, 512,000-byte limit.
    pub fn new() -> Options {
        Options::default()
    }

    /// Chooses the profile.
    pub fn profile(mut self, profile: Profile) -> Options {
        self.profile = profile;
        self
    }

    /// Sets the parse limit. RFC 9309 §2.5 sets the floor at 500 KiB, so a smaller
    /// limit is an error; `usize::MAX` parses everything.
    pub fn max_bytes(mut self, max_bytes: usize) -> Result<Options, Error> {
        if max_bytes < MIN_PARSE_LIMIT {
            return Err(Error::LimitTooSmall(max_bytes));
        }
        self.max_bytes = max_bytes;
        Ok(self)
    }

    /// The chosen profile.
    pub fn chosen_profile(&self) -> Profile {
        self.profile
    }

    /// The parse limit in bytes.
    pub fn limit(&self) -> usize {
        self.max_bytes
    }
}

/// A span of the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Span {
    pub start: u32,
    pub len: u32,
}

impl Span {
    pub fn range(self) -> Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// One user-agent line.
#[derive(Debug, Clone)]
pub(crate) struct AgentLine {
    /// `*` (alone, or followed by white space in the Google profile).
    pub global: bool,
    /// The product token this line names.
    pub token: Span,
    /// The whole value.
    pub value: Span,
    pub line: u32,
}

/// Where a line's text sits in the file, for diagnostics that point at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Site {
    pub start: u32,
    pub end: u32,
    /// 1-based, in bytes.
    pub column: u32,
}

/// One allow / disallow / embargo-allow line, ready to match.
#[derive(Debug, Clone)]
pub(crate) struct RuleLine {
    pub kind: RuleKind,
    pub line: u32,
    pub site: Site,
    /// The value as written.
    pub written: Span,
    /// The normalised pattern without a final `$`.
    pub pattern: Span,
    pub anchored: bool,
    /// The index of the pattern's first `*`, or `pattern::NO_STAR`.
    pub star: u32,
    /// `pattern::byte_mask` of the pattern.
    pub mask: u64,
    /// `pattern::pattern_pairs` of a wildcard pattern.
    pub pairs: [u16; crate::pattern::PAIRS],
    /// Never matches (an empty pattern in the RFC 9309 profile).
    pub inert: bool,
}

impl RuleLine {
    /// The rule's rank among matches: its normalised length in octets, the final `$`
    /// included (RFC 9309 §2.2.2, and Google's length of the escaped pattern).
    pub fn specificity(&self) -> u32 {
        self.pattern.len + u32::from(self.anchored)
    }
}

/// A group: consecutive user-agent lines and the rules after them. Its rules are sorted
/// by rank once parsing ends (see `check::decider`); `line` keeps their file order.
#[derive(Debug, Clone, Default)]
pub(crate) struct GroupData {
    pub agents: Range<u32>,
    /// One of the user-agent lines is `*`.
    pub global: bool,
    pub rules: Range<u32>,
    /// The longest valid Archive-Embargo period in the group.
    pub embargo: Option<EmbargoPeriod>,
    pub crawl_delay: Option<Duration>,
    pub request_rate: Option<RequestRate>,
}

/// A non-rule line: sitemap, crawl-delay, host, or any other key.
#[derive(Debug, Clone)]
pub(crate) struct RecordLine {
    pub directive: Directive,
    pub key: Span,
    pub value: Span,
    pub line: u32,
    pub group: Option<u32>,
}

/// `Request-rate: n/t` — at most `requests` every `per`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestRate {
    pub requests: u32,
    pub per: Duration,
}

/// A parsed robots.txt. Parsing never fails and never panics.
///
/// ```
/// use robots::{Agent, Robots};
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /private\n");
/// let agent = Agent::new("ExampleBot").unwrap();
/// let verdict = robots.check(&agent, "https://example.com/private/x");
/// assert!(!verdict.allowed());
/// assert_eq!(verdict.decided_by().unwrap().line(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct Robots {
    pub(crate) options: Options,
    pub(crate) behaviour: Behaviour,
    pub(crate) arena: Vec<u8>,
    pub(crate) groups: Vec<GroupData>,
    pub(crate) agents: Vec<AgentLine>,
    pub(crate) rules: Vec<RuleLine>,
    pub(crate) records: Vec<RecordLine>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) size: usize,
    pub(crate) parsed: usize,
    pub(crate) lines: u32,
}

impl Robots {
    /// Parses with the RFC 9309 profile and the default 512,000-byte limit.
    pub fn parse(bytes: &[u8]) -> Robots {
        Robots::parse_with(bytes, Options::default())
    }

    /// Parses with the given options.
    pub fn parse_with(bytes: &[u8], options: Options) -> Robots {
        crate::parse::parse(bytes, options, options.profile.behaviour())
    }

    pub(crate) fn text(&self, span: Span) -> &[u8] {
        &self.arena[span.range()]
    }

    /// Text the parser stored as UTF-8 (values and keys are stored lossily converted).
    pub(crate) fn str(&self, span: Span) -> &str {
        std::str::from_utf8(self.text(span)).unwrap_or("")
    }

    /// The options the file was parsed with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The profile the file was parsed with.
    pub fn profile(&self) -> Profile {
        self.options.profile
    }

    /// Everything the parser noticed, in line order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The size of the input in bytes.
    pub fn size(&self) -> usize {
        self.size
    }

    /// How many bytes were parsed: less than [`Robots::size`] when the input went past the
    /// parse limit (the rest, from the last whole line within the limit, is ignored).
    pub fn parsed_bytes(&self) -> usize {
        self.parsed
    }

    /// The number of lines parsed.
    pub fn line_count(&self) -> u32 {
        self.lines
    }
}
