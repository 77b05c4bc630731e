//! A parsed robots.txt: its groups, rules, records and diagnostics, laid out flat in a
//! few vectors with one byte arena for all text, and the options that shaped it.

use std::ops::Range;
use std::time::Duration;

use crate::behaviour::Behaviour;
use crate::diagnostic::Code;
use crate::pattern::Filter;
use crate::{Directive, EmbargoPeriod, Error, Profile, RuleKind};

/// The least (and default) number of bytes parsed: RFC 9309 §2.5 asks crawlers to parse
/// at least 500 KiB.
pub const MIN_PARSE_LIMIT: usize = 512_000;

/// The most bytes ever parsed, 16 MiB: 32 times what RFC 9309 §2.5 asks for, and small
/// enough that offsets and lengths pack into 32-bit fields (see `RuleLine`).
pub const MAX_PARSE_LIMIT: usize = 16 << 20;

/// How to parse: the profile and the parse limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// limit is an error; a limit above [`MAX_PARSE_LIMIT`] (`usize::MAX` for "as much
    /// as can be") is taken as that ceiling.
    ///
    /// ```
    /// use robots::{Options, MAX_PARSE_LIMIT};
    /// assert_eq!(Options::new().max_bytes(usize::MAX).unwrap().limit(), MAX_PARSE_LIMIT);
    /// assert!(Options::new().max_bytes(1000).is_err());
    /// ```
    pub fn max_bytes(mut self, max_bytes: usize) -> Result<Options, Error> {
        if max_bytes < MIN_PARSE_LIMIT {
            return Err(Error::LimitTooSmall(max_bytes));
        }
        self.max_bytes = max_bytes.min(MAX_PARSE_LIMIT);
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

/// What a reader learnt of the bytes after the start of a file it gave
/// [`Robots::parse_start`], having stopped keeping them past the parse limit: how many
/// there are, and whether any of them is more than white space. Crawlers ignore them
/// (RFC 9309 §2.5), but the parse reports content past the limit
/// ([`Code::BeyondParseLimit`](crate::Code::BeyondParseLimit)), not blank lines there,
/// and counts the bytes it ignores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unread {
    /// This many bytes, all ASCII white space (the file's last line endings, say): what
    /// they hold, nothing, is lost to no crawler. `Blank(0)`: nothing was left unread.
    Blank(usize),
    /// This many bytes, some of them more than white space.
    Text(usize),
    /// More than this many bytes: the reader stopped counting before the end (an endless
    /// stream, say). Taken as holding text, since it may.
    MoreThan(usize),
}

impl Unread {
    /// Nothing unread: the start is the whole file.
    pub const NONE: Unread = Unread::Blank(0);

    /// How many bytes were counted.
    pub fn bytes(self) -> usize {
        match self {
            Unread::Blank(n) | Unread::Text(n) | Unread::MoreThan(n) => n,
        }
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

/// One user-agent line, in 16 bytes.
#[derive(Debug, Clone)]
pub(crate) struct AgentLine {
    /// The whole value.
    pub value: Span,
    /// The length of the product token this line names, which starts the value; the top
    /// bit says the line is `*` (alone, or followed by white space in the Google profile).
    token: u32,
    pub line: u32,
}

const GLOBAL_AGENT: u32 = 1 << 31;

impl AgentLine {
    pub fn new(value: Span, token_len: u32, global: bool, line: u32) -> AgentLine {
        AgentLine {
            value,
            token: token_len | if global { GLOBAL_AGENT } else { 0 },
            line,
        }
    }

    /// The line is `*`.
    pub fn global(&self) -> bool {
        self.token & GLOBAL_AGENT != 0
    }

    /// The product token this line names.
    pub fn token(&self) -> Span {
        Span {
            start: self.value.start,
            len: self.token & !GLOBAL_AGENT,
        }
    }
}

/// Where a line's text sits in the file, for diagnostics that point at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Site {
    pub start: u32,
    pub end: u32,
    /// 1-based, in bytes.
    pub column: u32,
}

/// One allow / disallow / embargo-allow line, ready to match, in 24 bytes: a crawler's
/// cache holds millions of them.
///
/// Invariant: the pattern's text is a prefix of the written value's, or (when normalising
/// changed it) follows the written value in the arena; `APART` says which. A pattern's
/// length fits in [`LENGTH_BITS`] because parsing stops at [`MAX_PARSE_LIMIT`] and
/// normalising at most triples a value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RuleLine {
    pub filter: Filter,
    /// The value as written.
    pub written: Span,
    /// The normalised pattern's length (without a final `$`) below, flags above.
    bits: u32,
    pub line: u32,
}

// Holding these layouts small is what keeps a parsed file small.
const _: () = assert!(std::mem::size_of::<RuleLine>() == 24);
const _: () = assert!(std::mem::size_of::<AgentLine>() == 16);
const _: () = assert!(std::mem::size_of::<RecordLine>() == 24);
const _: () = assert!(std::mem::size_of::<GroupData>() == 24);

const LENGTH_BITS: u32 = 26;
const LENGTH: u32 = (1 << LENGTH_BITS) - 1;
const KIND_SHIFT: u32 = LENGTH_BITS;
const ANCHORED: u32 = 1 << 28;
const INERT: u32 = 1 << 29;
const WILDCARD: u32 = 1 << 30;
const APART: u32 = 1 << 31;

/// How a rule line is written down: the parts [`RuleLine::new`] packs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RuleParts {
    pub kind: RuleKind,
    pub line: u32,
    pub written: Span,
    /// Where the normalised pattern (without a final `$`) sits.
    pub pattern: Span,
    pub anchored: bool,
    /// Never matches (an empty pattern in the RFC 9309 profile).
    pub inert: bool,
    /// The pattern has [`crate::across_query::query_escapes`] (RFC 9309 profile only);
    /// [`RuleLine::like`] takes it over with the model's filter.
    pub across_query: bool,
}

impl RuleLine {
    /// Packs a rule; `text` is the pattern's text, which holds a `*` if `wildcard`.
    pub fn new(parts: RuleParts, text: &[u8], wildcard: bool) -> RuleLine {
        debug_assert_eq!(wildcard, text.contains(&b'*'));
        let filter = Filter::of(text, wildcard, parts.across_query);
        Self::with_filter(parts, filter, wildcard)
    }

    /// Packs a rule whose pattern is `model`'s: the filter is taken over, not computed
    /// again.
    pub fn like(parts: RuleParts, model: &RuleLine) -> RuleLine {
        debug_assert!(parts.pattern == model.pattern());
        Self::with_filter(parts, model.filter, model.wildcard())
    }

    fn with_filter(parts: RuleParts, filter: Filter, wildcard: bool) -> RuleLine {
        let pattern = parts.pattern;
        let apart = pattern.start != parts.written.start;
        debug_assert!(!apart || pattern.start == parts.written.start + parts.written.len);
        debug_assert!(pattern.len <= LENGTH);
        let kind = match parts.kind {
            RuleKind::Allow => 0,
            RuleKind::Disallow => 1,
            RuleKind::EmbargoAllow => 2,
        };
        let flag = |on: bool, bit: u32| if on { bit } else { 0 };
        RuleLine {
            filter,
            written: parts.written,
            bits: pattern.len.min(LENGTH)
                | kind << KIND_SHIFT
                | flag(parts.anchored, ANCHORED)
                | flag(parts.inert, INERT)
                | flag(wildcard, WILDCARD)
                | flag(apart, APART),
            line: parts.line,
        }
    }

    pub fn kind(&self) -> RuleKind {
        match self.bits >> KIND_SHIFT & 3 {
            0 => RuleKind::Allow,
            1 => RuleKind::Disallow,
            _ => RuleKind::EmbargoAllow,
        }
    }

    /// Where the normalised pattern (without a final `$`) sits in the arena.
    pub fn pattern(&self) -> Span {
        let apart = self.bits & APART != 0;
        Span {
            start: self.written.start + if apart { self.written.len } else { 0 },
            len: self.bits & LENGTH,
        }
    }

    /// The pattern ended in `$`.
    pub fn anchored(&self) -> bool {
        self.bits & ANCHORED != 0
    }

    /// Never matches (an empty pattern in the RFC 9309 profile).
    pub fn inert(&self) -> bool {
        self.bits & INERT != 0
    }

    /// A literal pattern of at most eight octets, not anchored, that may match: its
    /// filter then holds all of it, so a path its filter passes matches it (see
    /// [`Filter::may_start`]). One comparison, since the flags lie above the length.
    pub fn short_prefix(&self) -> bool {
        self.bits & (WILDCARD | INERT | ANCHORED | LENGTH) <= 8
    }

    /// The pattern holds a `*`.
    pub fn wildcard(&self) -> bool {
        self.bits & WILDCARD != 0
    }

    /// The rule's rank among matches: its normalised length in octets, the final `$`
    /// included (RFC 9309 §2.2.2, and Google's length of the escaped pattern).
    pub fn specificity(&self) -> u32 {
        (self.bits & LENGTH) + u32::from(self.anchored())
    }

    /// The order a group's rules are kept in, but for file order, as one number: the most
    /// specific first, then allows before disallows. Under 2<sup>28</sup>.
    pub fn rank_key(&self) -> u32 {
        (LENGTH + 1 - self.specificity()) << 1 | u32::from(!self.kind().allows())
    }

    /// [`RuleLine::rank_key`] with file order, as one number: `place` (the rule's index
    /// among its group's rules as written) in the low 32 bits.
    pub fn rank(&self, place: u32) -> u64 {
        u64::from(self.rank_key()) << 32 | u64::from(place)
    }
}

/// A group: consecutive user-agent lines and the rules after them. Its rules are sorted
/// by rank once parsing ends (see `check::decider`); `line` keeps their file order.
#[derive(Debug, Clone)]
pub(crate) struct GroupData {
    pub agents: Range<u32>,
    pub rules: Range<u32>,
    /// One of the user-agent lines is `*`.
    pub global: bool,
    /// The longest valid Archive-Embargo period in the group.
    pub embargo: Option<EmbargoPeriod>,
    /// Bits `name_mix % 16` of the names its user-agent lines give: a check passes over a
    /// group that cannot name its agent without reading a name.
    pub names: u16,
    /// Where the group's crawl-delay and request-rate are in `Robots::pacing`, if it has
    /// either ([`NO_PACING`] if not): few groups do, so they are kept apart.
    pub pacing: u32,
}

/// The `pacing` of a group without crawl-delay or request-rate.
pub(crate) const NO_PACING: u32 = u32::MAX;

impl Default for GroupData {
    fn default() -> Self {
        GroupData {
            agents: 0..0,
            rules: 0..0,
            global: false,
            embargo: None,
            names: 0,
            pacing: NO_PACING,
        }
    }
}

/// How fast a group asks to be crawled.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Pacing {
    /// The largest valid Crawl-delay.
    pub crawl_delay: Option<Duration>,
    /// The first valid Request-rate.
    pub request_rate: Option<RequestRate>,
}

/// A non-rule line: sitemap, crawl-delay, host, or any other key.
#[derive(Debug, Clone)]
pub(crate) struct RecordLine {
    /// The value; the key is stored right before it.
    pub value: Span,
    key_len: u32,
    pub line: u32,
    /// The group it stands in, or [`NO_GROUP`].
    group: u32,
    pub directive: Directive,
}

const NO_GROUP: u32 = u32::MAX;

impl RecordLine {
    /// `key` and `value` must be adjacent in the arena, in that order.
    pub fn new(
        directive: Directive,
        key: Span,
        value: Span,
        line: u32,
        group: Option<u32>,
    ) -> RecordLine {
        debug_assert_eq!(key.start + key.len, value.start);
        RecordLine {
            value,
            key_len: key.len,
            line,
            group: group.unwrap_or(NO_GROUP),
            directive,
        }
    }

    pub fn key(&self) -> Span {
        Span {
            start: self.value.start - self.key_len,
            len: self.key_len,
        }
    }

    /// The group it stands in, if it comes after a user-agent line.
    pub fn group(&self) -> Option<u32> {
        (self.group != NO_GROUP).then_some(self.group)
    }
}

/// `Request-rate: n/t` — at most `requests` every `per`. Not in RFC 9309: the period
/// is in seconds, or has a unit (`1/10s`, `3/1m`, `h`, `d`); a time of day after it
/// (`1/10s 0800-1000`) is accepted but not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RequestRate {
    /// How many requests.
    pub requests: u32,
    /// In how long.
    pub per: Duration,
}

/// What a file's groups choose for an agent none of them can name, found at parse time:
/// most checks are for such agents, and then need not read any group's names. In 16
/// bytes, since a crawler's cache holds thousands of files.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Globals {
    /// Bit `name_mix % 64` of every user-agent line's name but `*`'s: an agent whose bit
    /// is not set is named by no group. Finer than the groups' 16 bits.
    pub names: u64,
    /// How many groups are `*` groups, and the first of them; with one or none (the
    /// usual case), no group need be visited.
    pub count: u32,
    pub first: u32,
}

impl Globals {
    /// Notes the [`name_mix`](crate::agent::name_mix) of a user-agent line's name.
    pub(crate) fn name(&mut self, mix: usize) {
        self.names |= 1 << (mix % 64);
    }

    /// Finds the `*` groups, once all groups are read.
    pub(crate) fn find(&mut self, groups: &[GroupData]) {
        self.count = groups.iter().filter(|g| g.global).count() as u32;
        self.first = groups.iter().position(|g| g.global).unwrap_or(0) as u32;
    }
}

/// A diagnostic as a parsed file holds it, in 32 bytes: a file held in a crawler's cache
/// does not pay for sentences nobody reads.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    pub code: Code,
    pub line: u32,
    /// 1-based, in bytes.
    pub column: u32,
    /// The byte range in the file.
    pub start: u32,
    pub end: u32,
    pub quote: Quote,
}

/// What a message quotes: text in the arena, and a number. For two quoted texts (a key
/// and its value, an agent's token and the whole value) the number is the length of the
/// first, which starts the text.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Quote {
    pub text: Span,
    pub number: u32,
}

impl Quote {
    pub const NONE: Quote = Quote {
        text: Span { start: 0, len: 0 },
        number: 0,
    };

    pub fn text(text: Span) -> Quote {
        Quote { text, number: 0 }
    }

    pub fn number(number: u32) -> Quote {
        Quote {
            text: Span::default(),
            number,
        }
    }

    /// Two texts, `first` bytes of one and then the other.
    pub fn two(text: Span, first: u32) -> Quote {
        Quote {
            text,
            number: first,
        }
    }
}

/// What a not-utf8 finding quotes for a file that starts with a UTF-16 byte-order mark,
/// little- or big-endian, in place of its first byte.
pub(crate) const UTF16_LE: u32 = 0xFFFE;
pub(crate) const UTF16_BE: u32 = 0xFEFF;

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
///
/// A `Robots` is `Send + Sync` and holds no interior mutability, so one parse can be
/// shared by every thread of a crawler (in an `Arc`) and checked from all at once.
#[derive(Clone)]
pub struct Robots {
    pub(crate) options: Options,
    pub(crate) behaviour: Behaviour,
    pub(crate) arena: Vec<u8>,
    pub(crate) groups: Vec<GroupData>,
    pub(crate) pacing: Vec<Pacing>,
    pub(crate) agents: Vec<AgentLine>,
    pub(crate) rules: Vec<RuleLine>,
    pub(crate) records: Vec<RecordLine>,
    pub(crate) findings: Vec<Finding>,
    pub(crate) globals: Globals,
    pub(crate) size: usize,
    /// `size` is the input's exact size, not a lower bound ([`Unread::MoreThan`]).
    pub(crate) size_exact: bool,
    pub(crate) parsed: usize,
    pub(crate) lines: u32,
}

/// A summary: the parsed form is flat vectors of packed numbers, unreadable as such.
/// [`Robots::groups`], [`Robots::records`] and [`Robots::diagnostics`] show the content.
impl std::fmt::Debug for Robots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Robots")
            .field("profile", &self.options.profile)
            .field("size", &self.size)
            .field("parsed_bytes", &self.parsed)
            .field("lines", &self.lines)
            .field("groups", &self.groups.len())
            .field("rules", &self.rules.len())
            .field("records", &self.records.len())
            .field("diagnostics", &self.findings.len())
            .finish_non_exhaustive()
    }
}

impl Robots {
    /// The crawl-delay and request-rate of a group.
    pub(crate) fn pacing_of(&self, group: &GroupData) -> Pacing {
        self.pacing
            .get(group.pacing as usize)
            .copied()
            .unwrap_or_default()
    }

    pub(crate) fn text(&self, span: Span) -> &[u8] {
        &self.arena[span.range()]
    }

    /// A group's user-agent lines.
    #[inline]
    pub(crate) fn agents_of(&self, group: &GroupData) -> &[AgentLine] {
        &self.agents[group.agents.start as usize..group.agents.end as usize]
    }

    /// Whether two user-agent lines name the same crawler: both `*`, or the same product
    /// token, ASCII case ignored (RFC 9309 §2.2.1).
    pub(crate) fn same_crawler(&self, a: &AgentLine, b: &AgentLine) -> bool {
        match (a.global(), b.global()) {
            (true, true) => true,
            (false, false) => self
                .text(a.token())
                .eq_ignore_ascii_case(self.text(b.token())),
            _ => false,
        }
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

    /// The size of the input in bytes: with [`Robots::parse_start`], the start given and
    /// the bytes [`Unread`] counts (at most `usize::MAX`), a lower bound when
    /// [`Robots::size_exact`] says so.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether [`Robots::size`] is the input's exact size: false only for a file parsed
    /// with [`Unread::MoreThan`], whose reader stopped counting before its end.
    pub fn size_exact(&self) -> bool {
        self.size_exact
    }

    /// How many bytes were parsed: less than [`Robots::size`] when the input went past the
    /// parse limit (the rest, from the last whole line within the limit, is ignored).
    pub fn parsed_bytes(&self) -> usize {
        self.parsed
    }

    /// The number of lines parsed, numbered as [`source_lines`](crate::source_lines)
    /// numbers them: a final line ending starts one more, empty line, so a file of four
    /// lines each ending in LF counts 5 (and an empty file 1).
    pub fn line_count(&self) -> u32 {
        self.lines
    }
}
