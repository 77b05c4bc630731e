//! Building a [`Robots`] from bytes: lines become groups, rules and records
//! (RFC 9309 §2.1–2.2), and everything skipped or guessed becomes a diagnostic.

use crate::behaviour::Behaviour;
use crate::diagnostic::Code;
use crate::directive::{classify, Directive, Spelling};
use crate::finding::escaped;
use crate::lines::{bom_len, split_line, KeyValue, Line, LineContent, LineSyntax, Lines};
use crate::robots::{AgentLine, Finding, Quote, Site, Span, UTF16_BE, UTF16_LE};
use crate::simd::scan::Marks;
use crate::EmbargoPeriod;
use crate::{Options, Robots, RuleKind, Unread};
use std::collections::HashMap;
use std::mem::take;

mod agents;
mod rank;
mod records;
mod rules;
mod scratch;

pub(crate) fn parse(
    bytes: &[u8],
    unread: Unread,
    options: Options,
    behaviour: Behaviour,
) -> Robots {
    // The file goes on past `bytes`.
    let more = unread.bytes() > 0 || matches!(unread, Unread::MoreThan(_));
    let data = if more && bytes.len() <= options.max_bytes {
        // Too short a start to say whether its last line is whole: it is taken as cut
        // where it stops, as if the limit fell on its last byte.
        within_limit(bytes, bytes.len().saturating_sub(1))
    } else {
        within_limit(bytes, options.max_bytes)
    };
    let mut scratch = scratch::Scratch::take();
    let s = &mut *scratch;
    let marks = take(&mut s.marks);
    let mut parser = Parser {
        robots: Robots {
            options,
            behaviour,
            arena: take(&mut s.arena),
            groups: take(&mut s.groups),
            pacing: take(&mut s.pacing),
            agents: take(&mut s.agents),
            rules: take(&mut s.rules),
            records: take(&mut s.records),
            findings: take(&mut s.findings),
            globals: Default::default(),
            size: bytes.len().saturating_add(unread.bytes()),
            size_exact: !matches!(unread, Unread::MoreThan(_)),
            parsed: data.len(),
            lines: 0,
        },
        closed: true,
        blank_after_agent: false,
        utf8: false,
        embargo_allows: take(&mut s.embargo_allows),
        embargoes: Vec::new(),
        texts: take(&mut s.texts),
        order: take(&mut s.order),
        marks: Vec::new(),
        syntax: LineSyntax::of(&behaviour, data),
        scratch: Some(scratch),
    };
    // Rule lines average 37 octets in real files, user-agent and other lines come far
    // fewer: room for that many from the start spares growing the vectors line by line.
    // The text kept (values, their normal forms) seldom outgrows the input, so the arena
    // starts that large.
    let r = &mut parser.robots;
    r.arena.reserve(data.len());
    r.agents.reserve(data.len() / 128);
    r.rules.reserve(data.len() / 32);
    r.records.reserve(data.len() / 128);
    let bom = bom_len(data);
    if bom == 3 {
        parser.report(Code::ByteOrderMark, 1, 0, 0..3, Quote::NONE);
    }
    // A byte-order mark read as Latin-1 and saved as UTF-8 again: crawlers skip only the
    // real one (RFC 9309 §2.2 asks for UTF-8; Google's parser skips EF BB BF alone), so
    // this one becomes part of the first key, and `User-agent` there is lost.
    if data[bom..].starts_with(GARBLED_BOM) {
        parser.report(
            Code::GarbledByteOrderMark,
            1,
            bom,
            bom..bom + GARBLED_BOM.len(),
            Quote::NONE,
        );
    }
    let mut lines = Lines::with_room(data, bom, marks);
    parser.check_encoding(data, lines.ascii());
    for line in lines.by_ref() {
        parser.robots.lines = line.number;
        parser.line(line);
    }
    parser.marks = lines.into_room();
    // Blank text past the limit (the file's last line ending, say) loses nothing.
    let ignored = &bytes[data.len()..];
    let text_unread = more && !matches!(unread, Unread::Blank(_));
    if text_unread || !ignored.iter().all(u8::is_ascii_whitespace) {
        // Past a limit at a line's end, what is ignored starts on the next line.
        let next = matches!(ignored.first(), Some(b'\n' | b'\r'));
        let line = parser.robots.lines + u32::from(next);
        let size = parser.robots.size;
        parser.report(
            Code::BeyondParseLimit,
            line,
            0,
            data.len()..size,
            Quote::NONE,
        );
    }
    parser.finish()
}

// The entry points: `Robots` is laid out in robots.rs (the floor below) and built here.
impl Robots {
    /// Parses with the RFC 9309 profile and the default 512,000-byte limit.
    ///
    /// Any bytes parse, as RFC 9309 §2.3.1.5 asks (crawlers use the rules they can
    /// read): an empty body, an HTML page or a file that is not UTF-8 gives a `Robots`
    /// like any other, with what was skipped or guessed in [`Robots::diagnostics`]. A
    /// file with no group for an agent, and no `*` group, allows that agent everything.
    ///
    /// ```
    /// use robots::{Agent, Code, Reason, Robots};
    /// let bot = Agent::new("ExampleBot").unwrap();
    ///
    /// let empty = Robots::parse(b"");
    /// assert_eq!(empty.check(&bot, "/x").reason(), Reason::NoGroup);
    ///
    /// let html = Robots::parse(b"<html><body>Not found</body></html>");
    /// assert!(html.check(&bot, "/x").allowed());
    /// assert_eq!(html.diagnostics()[0].code, Code::LooksLikeHtml);
    /// ```
    pub fn parse(bytes: &[u8]) -> Robots {
        Robots::parse_with(bytes, Options::default())
    }

    /// Parses with the given options.
    ///
    /// ```
    /// use robots::{Agent, Options, Profile, Robots};
    ///
    /// // Google reads any key starting with a directive's name: `Disallowed` disallows.
    /// let body = b"User-agent: *\nDisallowed: /x\n";
    /// let bot = Agent::new("ExampleBot").unwrap();
    /// let google = Robots::parse_with(body, Options::new().profile(Profile::Google));
    /// assert!(!google.check(&bot, "/x").allowed());
    /// assert!(Robots::parse(body).check(&bot, "/x").allowed());
    ///
    /// // Parse up to 2 MB rather than RFC 9309's 500 KiB.
    /// let options = Options::new().max_bytes(2_000_000).unwrap();
    /// assert_eq!(Robots::parse_with(body, options).options().limit(), 2_000_000);
    /// ```
    ///
    /// A thread keeps the emptied vectors of its last parse to build the next file in
    /// (as long as they take at most 512 KiB); the `Robots` returned holds vectors of
    /// exactly the size it needs.
    pub fn parse_with(bytes: &[u8], options: Options) -> Robots {
        parse(bytes, Unread::NONE, options, options.profile.behaviour())
    }

    /// Parses the start of a file that goes on past it, without the rest: what a reader
    /// bounded by the parse limit has read, and what it learnt of the bytes it did not
    /// keep. The result is the one [`Robots::parse_with`] gives the whole file (the same
    /// rules, [`Robots::size`] and diagnostics), so a file of any length, or an endless
    /// stream, can be read in memory bounded by the limit: RFC 9309 §2.5 lets crawlers
    /// ignore what lies past it.
    ///
    /// `start` should hold at least the first [`Options::limit`] + 1 bytes (or the
    /// whole file): the byte after the limit says whether the limit cuts a line, which is
    /// then dropped whole. Given fewer, with bytes unread, `start` is taken as cut inside
    /// its last line, which is dropped unless `start` ends in a line break.
    ///
    /// ```
    /// use robots::{Agent, Options, Robots, Unread, MIN_PARSE_LIMIT};
    /// let mut file = b"User-agent: *\nDisallow: /private\n".to_vec();
    /// file.resize(MIN_PARSE_LIMIT + 5_000, b'#');
    ///
    /// // Read one byte past the limit, and count the rest as it streams by.
    /// let start = &file[..MIN_PARSE_LIMIT + 1];
    /// let rest = Unread::Text(file.len() - start.len());
    /// let robots = Robots::parse_start(start, rest, Options::new());
    /// let whole = Robots::parse(&file);
    /// assert_eq!(robots.size(), whole.size());
    /// assert_eq!(robots.parsed_bytes(), whole.parsed_bytes());
    /// assert_eq!(robots.diagnostics(), whole.diagnostics());
    /// let bot = Agent::new("ExampleBot").unwrap();
    /// assert!(!robots.check(&bot, "/private").allowed());
    ///
    /// // A stream given up on after a while: the size is only a lower bound.
    /// let robots = Robots::parse_start(start, Unread::MoreThan(1 << 30), Options::new());
    /// assert!(!robots.size_exact());
    /// assert!(robots.diagnostics()[0].message.contains("more than"));
    /// ```
    pub fn parse_start(start: &[u8], unread: Unread, options: Options) -> Robots {
        parse(start, unread, options, options.profile.behaviour())
    }
}

/// `ï»¿` in UTF-8: the UTF-8 byte-order mark (EF BB BF) read as Latin-1 and written out
/// again as UTF-8, as editors and CMS templates do; 78 of the 20,000 corpus files start
/// with it.
const GARBLED_BOM: &[u8] = b"\xC3\xAF\xC2\xBB\xC2\xBF";

/// The bytes to parse: at most `limit`, cut back to the last whole line so that a rule is
/// never read half-written.
pub(crate) fn within_limit(bytes: &[u8], limit: usize) -> &[u8] {
    if bytes.len() <= limit {
        return bytes;
    }
    if matches!(bytes[limit], b'\n' | b'\r') {
        return &bytes[..limit];
    }
    let cut = memchr::memrchr2(b'\n', b'\r', &bytes[..limit]).map_or(0, |i| i + 1);
    &bytes[..cut]
}

struct Parser {
    robots: Robots,
    /// The current group has had a rule, so the next user-agent line opens a new one.
    closed: bool,
    /// A blank line came after the last user-agent line.
    blank_after_agent: bool,
    /// The whole input is UTF-8, so text can be stored without checking each piece.
    utf8: bool,
    /// Each Embargo-Allow line's group, line and site: whether its group has an embargo
    /// is known only at the end.
    embargo_allows: Vec<(u32, u32, Site)>,
    /// Each group's first valid Archive-Embargo line: its group, line, column and value,
    /// to report values that conflict across groups merged for one crawler. Empty, and
    /// never allocated, in the many files without one.
    embargoes: Vec<(u32, u32, usize, std::ops::Range<usize>)>,
    texts: GroupTexts,
    order: rank::RankOrder,
    /// The marks of the body's blocks (see [`Lines`]), kept for the thread's next parse.
    marks: Vec<Marks>,
    /// How this body's lines are read.
    syntax: LineSyntax,
    /// The thread's scratch the vectors above were taken from, emptied, to be given them
    /// back (see [`scratch::Scratch::keep`]).
    scratch: Option<Box<scratch::Scratch>>,
}

/// The rule lines of the current and the previous group, in file order, so that a block
/// repeated for another crawler shares its text and filters (see `Parser::rule_text`).
#[derive(Default)]
struct GroupTexts {
    previous: Vec<RuleText>,
    current: Vec<RuleText>,
}

/// A rule line's text as stored: its value as written, its pattern, and the index of
/// the rule made of them (once there is one), for a later line with the same value to
/// copy; and what storing it found out.
#[derive(Debug, Clone, Copy)]
struct RuleText {
    written: Span,
    pattern: Span,
    rule: Option<u32>,
    facts: ValueFacts,
}

/// What storing a rule's value found out about it, where it could tell.
#[derive(Debug, Clone, Copy, Default)]
struct ValueFacts {
    /// The value holds no `$` but as its last octet.
    no_inner_dollar: bool,
    /// Whether the pattern holds a `*`, if known.
    wildcard: Option<bool>,
}

impl GroupTexts {
    fn next_group(&mut self) {
        std::mem::swap(&mut self.previous, &mut self.current);
        self.current.clear();
    }
}

impl Parser {
    fn report(
        &mut self,
        code: Code,
        line: u32,
        column: usize,
        span: std::ops::Range<usize>,
        quote: Quote,
    ) {
        self.robots.findings.push(Finding {
            code,
            line,
            column: column as u32 + 1,
            start: span.start as u32,
            // Only the end of what goes past the parse limit can lie further.
            end: u32::try_from(span.end).unwrap_or(u32::MAX),
            quote,
        });
    }

    /// Stores text a diagnostic quotes, each octet that is not UTF-8 written `\xE9`
    /// ([`escaped`]), as a tool shows the line it is on, so that a reader finds in the
    /// line what the message quotes (U+FFFD would hide which octet it was).
    fn push_quote(&mut self, bytes: &[u8]) -> Span {
        let start = self.robots.arena.len();
        let text = escaped(bytes);
        self.robots.arena.extend_from_slice(text.as_bytes());
        span_from(start, self.robots.arena.len())
    }

    /// Stores text the parsed file keeps (a value, a key), replacing what is not UTF-8
    /// with U+FFFD: [`crate::Rule::pattern`] and the like give text.
    fn push_lossy(&mut self, bytes: &[u8]) -> Span {
        let start = self.robots.arena.len();
        let text = String::from_utf8_lossy(bytes);
        self.robots.arena.extend_from_slice(text.as_bytes());
        span_from(start, self.robots.arena.len())
    }

    /// What a diagnostic quotes of `bytes`, which the arena holds at `stored` as
    /// [`Parser::push_text`] stored them, the first `first` bytes of it one text and the
    /// rest another ([`Quote::two`]): `stored` itself when `bytes` are UTF-8, as nearly
    /// every file's are; else `bytes` again, their octets that are not UTF-8 written
    /// `\xE9` ([`Parser::push_quote`]), split at the same place.
    fn quote_stored(&mut self, bytes: &[u8], stored: Span, first: u32) -> Quote {
        if self.utf8 || std::str::from_utf8(bytes).is_ok() {
            return Quote::two(stored, first);
        }
        // `first` counts U+FFFD's three bytes for each run of octets it stands for.
        let (first, mut lossy, mut at) = (first as usize, 0, 0);
        for chunk in bytes.utf8_chunks() {
            let valid = chunk.valid().len();
            if first <= lossy + valid {
                at += first - lossy;
                break;
            }
            lossy += valid + 3;
            at += valid + chunk.invalid().len();
        }
        let at = at.min(bytes.len());
        let head = self.push_quote(&bytes[..at]);
        let tail = self.push_quote(&bytes[at..]);
        Quote::two(span_from(head.range().start, tail.range().end), head.len)
    }

    /// Stores a line's key and value for a diagnostic that quotes them.
    fn quote_key_value(&mut self, kv: &KeyValue<'_>) -> Quote {
        let key = self.push_quote(kv.key);
        let value = self.push_quote(kv.value);
        Quote::two(span_from(key.range().start, value.range().end), key.len)
    }

    /// Stores text; in a file that is not all UTF-8, what is not is replaced. Inlined:
    /// a call per rule cost more than storing the text.
    #[inline(always)]
    fn push_text(&mut self, bytes: &[u8]) -> Span {
        if !self.utf8 {
            return self.push_lossy(bytes);
        }
        let start = self.robots.arena.len();
        self.robots.arena.extend_from_slice(bytes);
        span_from(start, self.robots.arena.len())
    }

    fn current_group(&self) -> Option<u32> {
        (!self.robots.groups.is_empty()).then(|| self.robots.groups.len() as u32 - 1)
    }

    /// Reports a body that is not UTF-8, or that looks like HTML. `ascii` says the body
    /// is all ASCII, as reading its lines found: then it needs no validating.
    fn check_encoding(&mut self, data: &[u8], ascii: bool) {
        // Vector validation: `std`'s is a few times slower on whole files.
        let utf8 = if ascii {
            Ok("")
        } else {
            simdutf8::compat::from_utf8(data)
        };
        self.utf8 = utf8.is_ok();
        if let Err(e) = utf8 {
            let at = e.valid_up_to();
            let line = 1 + memchr::memchr2_iter(b'\n', b'\r', &data[..at]).count() as u32
                - memchr::memmem::find_iter(&data[..at], b"\r\n").count() as u32;
            // A UTF-16 byte-order mark: the whole file is UTF-16, and none of it is read.
            // The finding names the mark, so its span holds both of the mark's octets.
            let (number, len) = match data {
                [0xFF, 0xFE, ..] if at == 0 => (UTF16_LE, 2),
                [0xFE, 0xFF, ..] if at == 0 => (UTF16_BE, 2),
                _ => (u32::from(data[at]), 1),
            };
            // The column of the octet itself, where the span and an underline put it.
            let column = at
                - data[..at]
                    .iter()
                    .rposition(|&b| b == b'\n' || b == b'\r')
                    .map_or(0, |p| p + 1);
            self.report(
                Code::NotUtf8,
                line,
                column,
                at..at + len,
                Quote::number(number),
            );
        }
        let start = data
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(data.len());
        let head = &data[start..data.len().min(start + 15)];
        let opens = |tag: &[u8]| {
            head.get(..tag.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(tag))
        };
        if opens(b"<!doctype html") || opens(b"<html") || opens(b"<head") {
            self.report(
                Code::LooksLikeHtml,
                1,
                start,
                start..start + head.len(),
                Quote::NONE,
            );
        }
    }

    fn line(&mut self, line: Line<'_>) {
        let kv = match split_line(&line, self.syntax) {
            LineContent::Empty => {
                self.blank_after_agent |= crate::lines::trim(line.bytes).1.is_empty();
                return;
            }
            LineContent::Junk => {
                // At most what a message quotes of a long line, 200 characters of up
                // to four octets each, and an octet more to tell that it was cut: the
                // line may be megabytes.
                let end = line.bytes.len().min(crate::finding::QUOTED * 4 + 1);
                let text = self.push_quote(&line.bytes[..end]);
                self.report(
                    Code::JunkLine,
                    line.number,
                    0,
                    line.start..line.start + line.bytes.len(),
                    Quote::text(text),
                );
                return;
            }
            LineContent::Pair(kv) => kv,
        };
        let (directive, spelling) = classify(kv.key, &self.robots.behaviour);
        let at = Place {
            line: line.number,
            start: line.start,
            kv,
        };
        self.spelling_diagnostics(&at, spelling);
        match directive {
            Directive::UserAgent => self.user_agent(&at),
            Directive::Allow => self.rule(&at, RuleKind::Allow),
            Directive::Disallow => self.rule(&at, RuleKind::Disallow),
            Directive::EmbargoAllow => self.rule(&at, RuleKind::EmbargoAllow),
            Directive::ArchiveEmbargo => self.archive_embargo(&at),
            Directive::ContentUsage => self.content_usage(&at),
            _ => self.record(&at, directive),
        }
    }

    fn spelling_diagnostics(&mut self, at: &Place<'_>, spelling: Spelling) {
        if spelling == Spelling::Exact && !at.kv.missing_colon {
            return;
        }
        let quote = self.quote_key_value(&at.kv);
        let code = match spelling {
            Spelling::Exact => None,
            Spelling::Lenient => Some(Code::MisspeltDirective),
            Spelling::Prefix => Some(Code::PrefixDirective),
        };
        let missing_colon = at.kv.missing_colon.then_some(Code::MissingColon);
        for code in code.into_iter().chain(missing_colon) {
            self.report(code, at.line, at.kv.key_at, at.key_span(), quote);
        }
    }

    /// The group a rule belongs to, closing it to further user-agent lines; `None` (and a
    /// diagnostic) before the first user-agent line.
    fn group_for_rule(&mut self, at: &Place<'_>) -> Option<usize> {
        let Some(group) = self.current_group() else {
            let quote = self.quote_key_value(&at.kv);
            self.report(
                Code::RuleBeforeUserAgent,
                at.line,
                at.kv.key_at,
                at.key_span(),
                quote,
            );
            return None;
        };
        self.closed = true;
        Some(group as usize)
    }

    fn finish(&mut self) -> Robots {
        // Taken out to be read while reporting, and put back for the thread's next parse.
        let embargo_allows = std::mem::take(&mut self.embargo_allows);
        for &(group, line, site) in &embargo_allows {
            if embargo_reaches(&self.robots, group as usize) {
                continue;
            }
            self.report(
                Code::EmbargoAllowWithoutEmbargo,
                line,
                site.column as usize - 1,
                site.start as usize..site.end as usize,
                Quote::NONE,
            );
        }
        self.embargo_allows = embargo_allows;
        self.merged_embargo_conflicts();
        self.robots.findings.sort_by_key(|d| (d.line, d.column));
        // Rank order within each group: longest first, allows before disallows, then
        // file order. A check's first match is then the decider. Only Google's derived
        // `index.html` rule shares a line with another, and never its length.
        // The parsed file keeps a copy of the rules, as of its other small vectors, put
        // in order as it is made; a big vector is sorted where it is and handed over.
        let r = &mut self.robots;
        let (rules, room) = if scratch::handed_over(&r.rules) {
            self.order.sort(&r.groups, &mut r.rules);
            (scratch::hand_over(&mut r.rules), Vec::new())
        } else {
            let ranked = self.order.ranked(&r.groups, &r.rules);
            (ranked, std::mem::take(&mut r.rules))
        };
        r.rules = rules;
        self.robots.globals.find(&self.robots.groups);
        // Parsed files are often held by the thousand (a crawler's cache): each keeps
        // only what it uses.
        scratch::Scratch::keep(self, room)
    }
}

impl Parser {
    /// Reports a group's Archive-Embargo whose period differs from that of an earlier
    /// group merged with it for some crawler (RFC 9309 §2.2.1): docs/design.md asks that
    /// several valid values in the merged group be reported, with the longest, which
    /// applies. Conflicts within one group were reported line by line.
    fn merged_embargo_conflicts(&mut self) {
        let firsts = std::mem::take(&mut self.embargoes);
        if firsts.len() < 2 {
            return;
        }
        let robots = &self.robots;
        let crawler = |agent: &AgentLine| {
            if agent.global() {
                b"*".to_vec()
            } else {
                robots.text(agent.token()).to_ascii_lowercase()
            }
        };
        let period = |group: u32| robots.groups[group as usize].embargo;
        let agents = |group: u32| robots.agents_of(&robots.groups[group as usize]);
        // The period each crawler gets, the longest of its groups'.
        let mut longest: HashMap<Vec<u8>, EmbargoPeriod> = HashMap::new();
        for &(group, ..) in &firsts {
            let Some(p) = period(group) else { continue };
            for agent in agents(group) {
                let kept = longest.entry(crawler(agent)).or_insert(p);
                *kept = (*kept).max(p);
            }
        }
        // The periods each crawler's groups gave so far, in file order, one bit each:
        // a file of thousands of groups for one crawler is checked in one pass.
        let mut seen: HashMap<Vec<u8>, u8> = HashMap::new();
        let mut conflicts = Vec::new();
        for (group, line, column, span) in firsts {
            let Some(p) = period(group) else { continue };
            let bit = 1u8 << p as u8;
            let mut kept = None;
            for agent in agents(group) {
                let name = crawler(agent);
                let periods = seen.entry(name.clone()).or_default();
                if *periods & !bit != 0 {
                    kept = kept.max(longest.get(&name).copied());
                }
                *periods |= bit;
            }
            if let Some(kept) = kept {
                conflicts.push((line, column, span, kept));
            }
        }
        for (line, column, span, kept) in conflicts {
            let quote = Quote::number(u32::from(kept.letter()));
            self.report(Code::ConflictingEmbargo, line, column, span, quote);
        }
    }
}

/// Whether some crawler that `group` addresses gets an Archive-Embargo from the groups
/// merged for it (every group naming it, or every `*` group; RFC 9309 §2.2.1): then the
/// group's Embargo-Allow lines apply to that crawler, even when the embargo is written in
/// another group.
fn embargo_reaches(robots: &Robots, group: usize) -> bool {
    robots.agents_of(&robots.groups[group]).iter().any(|mine| {
        robots.groups.iter().any(|other| {
            other.embargo.is_some()
                && robots
                    .agents_of(other)
                    .iter()
                    .any(|theirs| robots.same_crawler(mine, theirs))
        })
    })
}

/// The sites and values of some lines of `source` (line numbers sorted, without repeats), found
/// again in one pass; a line that is not `key: value` has none.
pub(crate) fn sites_of<'a>(
    source: &'a [u8],
    behaviour: &Behaviour,
    lines: &[u32],
) -> Vec<(u32, Site, &'a [u8])> {
    let mut wanted = lines.iter().copied().peekable();
    let mut sites = Vec::with_capacity(lines.len());
    let syntax = LineSyntax::of(behaviour, source);
    for line in Lines::new(source, bom_len(source)) {
        let Some(&next) = wanted.peek() else { break };
        if line.number != next {
            continue;
        }
        wanted.next();
        if let LineContent::Pair(kv) = split_line(&line, syntax) {
            let at = Place {
                line: line.number,
                start: line.start,
                kv,
            };
            sites.push((line.number, at.site(), at.kv.value));
        }
    }
    sites
}

/// Where a `key: value` pair sits in the file.
struct Place<'a> {
    line: u32,
    start: usize,
    kv: KeyValue<'a>,
}

impl Place<'_> {
    fn site(&self) -> Site {
        let start = self.start + self.kv.key_at;
        Site {
            start: start as u32,
            end: (self.start + self.kv.value_at + self.kv.value.len())
                .max(start + self.kv.key.len()) as u32,
            column: self.kv.key_at as u32 + 1,
        }
    }

    fn key_span(&self) -> std::ops::Range<usize> {
        let s = self.start + self.kv.key_at;
        s..s + self.kv.key.len()
    }
    fn value_span(&self) -> std::ops::Range<usize> {
        let s = self.start + self.kv.value_at;
        s..s + self.kv.value.len()
    }
}

fn span_from(start: usize, end: usize) -> Span {
    Span {
        start: start as u32,
        len: (end - start) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_cuts_back_to_a_whole_line() {
        assert_eq!(within_limit(b"ab\ncd", 4), b"ab\n");
        assert_eq!(within_limit(b"ab\ncd", 2), b"ab");
        assert_eq!(within_limit(b"abcd", 2), b"");
        assert_eq!(within_limit(b"ab", 9), b"ab");
    }

    /// The diagnostics, size, parsed bytes and line count of a parse.
    fn outcome(robots: &Robots) -> (Vec<crate::Diagnostic>, usize, usize, u32, bool) {
        let r = robots;
        let d = r.diagnostics();
        (
            d,
            r.size(),
            r.parsed_bytes(),
            r.line_count(),
            r.size_exact(),
        )
    }

    #[test]
    fn a_start_one_byte_past_the_limit_parses_as_the_whole_file() {
        let limit = crate::MIN_PARSE_LIMIT;
        let options = Options::new();
        let head = "User-agent: *\nDisallow: /a\n";
        // The limit in a line, on LF, on the CR of a CRLF, on a lone CR, at a line's
        // start; what follows blank or not, long or short.
        for (fill, cut, tail) in [
            ("#", "Disallow: /b", "\nAllow: /c\n"),
            ("#", "\n", "Allow: /c\n"),
            ("#", "\r\n", "Allow: /c\n"),
            ("#", "\r", "Allow: /c\n"),
            ("#", "\n", "\n\n  \n"),
            ("#", "\r\n", "\r\n\r\n"),
            ("#", "  ", "  \n\n"),
            ("#", "\nx", &"y".repeat(10_000)),
        ] {
            let mut file = head.as_bytes().to_vec();
            // The limit falls on `cut`'s first byte, a comment filling the space before.
            let pad = limit - file.len() - 1;
            file.extend(fill.repeat(pad).into_bytes());
            file.push(b'\n');
            assert_eq!(file.len(), limit);
            file.extend(cut.as_bytes());
            file.extend(tail.as_bytes());
            let whole = Robots::parse_with(&file, options);
            for keep in [limit + 1, limit + 2, file.len()] {
                let rest = &file[keep.min(file.len())..];
                let unread = if rest.iter().all(u8::is_ascii_whitespace) {
                    Unread::Blank(rest.len())
                } else {
                    Unread::Text(rest.len())
                };
                let start = Robots::parse_start(&file[..keep.min(file.len())], unread, options);
                assert_eq!(outcome(&start), outcome(&whole), "{cut:?} {tail:?} {keep}");
            }
        }
    }

    #[test]
    fn a_stream_not_read_to_its_end_is_more_than_its_count() {
        let mut file = b"User-agent: *\nDisallow: /a\n".to_vec();
        file.resize(crate::MIN_PARSE_LIMIT + 1, b'\n');
        // Blank so far, but what was not counted may hold anything.
        let robots = Robots::parse_start(&file, Unread::MoreThan(99), Options::new());
        assert_eq!(robots.size(), crate::MIN_PARSE_LIMIT + 100);
        assert!(!robots.size_exact());
        let found = robots.diagnostics();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, Code::BeyondParseLimit);
        assert!(
            found[0]
                .message
                .starts_with("the file goes more than 100 bytes past"),
            "{}",
            found[0].message
        );
        // Blank and counted: nothing a crawler would read is lost.
        let robots = Robots::parse_start(&file, Unread::Blank(99), Options::new());
        assert!(robots.diagnostics().is_empty());
        assert!(robots.size_exact());
    }

    #[test]
    fn a_start_short_of_the_limit_drops_its_last_line_unless_it_is_whole() {
        let body = b"User-agent: *\nDisallow: /a\nDisallow: /b";
        let robots = Robots::parse_start(body, Unread::Text(5), Options::new());
        assert_eq!(robots.parsed_bytes(), 27);
        assert_eq!(robots.size(), body.len() + 5);
        let robots = Robots::parse_start(&body[..27], Unread::Text(5), Options::new());
        assert_eq!(robots.parsed_bytes(), 26);
        assert_eq!(robots.diagnostics()[0].line, 3);
        assert_eq!(
            Robots::parse_start(b"", Unread::Text(5), Options::new()).parsed_bytes(),
            0
        );
    }
}
