//! robots.txt as RFC 9309 defines it, with the Archive-Embargo extension
//! (draft-nottingham-archive-embargo) and a profile that reproduces Google's matcher.
//!
//! Bytes in, verdicts out: no I/O, no global state, no panics, no allocation per check.
//! To fetch and cache robots.txt over HTTP as RFC 9309 §2.3–2.5 says, use the
//! `robots-fetch` crate, which answers with these types.
//!
//! - Parse any bytes with [`Robots::parse`], or [`Robots::parse_with`] and [`Options`]
//!   to choose the [`Profile`] (RFC 9309, the default, or Google's reading) and the
//!   parse limit. A [`Robots`] is `Send + Sync`: parse once, share it across threads.
//! - Name the crawler with [`Agent::new`] (its product token) or
//!   [`Agent::from_user_agent`] (its whole User-Agent header);
//!   [`Agent::honouring_embargo`] for an archive's crawler.
//! - [`Robots::check`] gives a [`Verdict`]: [`allowed`](Verdict::allowed),
//!   [`decided_by`](Verdict::decided_by) (the deciding [`Rule`] and its line),
//!   [`reason`](Verdict::reason) and [`embargo`](Verdict::embargo), an [`Embargo`]
//!   whose [`end`](Embargo::end) dates when publication may start. [`Robots::explain`]
//!   says why, for people.
//! - [`Robots::group_for`] gives the agent's Crawl-delay, Request-rate and other
//!   records ([`AgentGroups`]);
//!   [`Robots::sitemaps`] and [`Robots::records`] the other lines;
//!   [`Robots::diagnostics`] and [`Robots::lint`] what is wrong with the file;
//!   [`Tokens`] the raw `key: value` lines.
//! - [`Robots::content_usage`] gives the AI usage preferences ([`ContentUsage`],
//!   [`Preferences`]) of the agent's Content-Usage rule for a URL, and
//!   [`Robots::content_signal`] its groups' Content-Signal ([`ContentSignal`]);
//!   [`Preferences::from_header_lines`] reads the `Content-Usage` HTTP header, and
//!   [`Preferences::combine`] combines it with robots.txt.
//! - [`Origin::of`] gives the origin a URL's robots.txt is fetched from (RFC 9309 §2.3:
//!   scheme, host, port), and [`Origin::robots_txt_url`] its robots.txt's URL.
//!
//! ```
//! use robots::{Agent, EmbargoPeriod, Robots};
//!
//! let robots = Robots::parse(b"\
//! User-Agent: *
//! Archive-Embargo: m
//! Embargo-Allow: /news
//! Disallow: /
//! Sitemap: https://example.com/sitemap.xml
//! ");
//! let archiver = Agent::new("ExampleBot").unwrap().honouring_embargo();
//! let v = robots.check(&archiver, "https://example.com/news/today");
//! assert!(v.allowed());
//! let embargo = v.embargo().unwrap();
//! assert_eq!(embargo.period(), EmbargoPeriod::Month);
//! assert_eq!(v.decided_by().unwrap().line(), 3);
//!
//! // A crawler that does not honour embargoes only sees `Disallow: /`.
//! let crawler = Agent::new("OtherBot").unwrap();
//! assert!(!robots.check(&crawler, "/news/today").allowed());
//! assert_eq!(robots.sitemaps().collect::<Vec<_>>(), ["https://example.com/sitemap.xml"]);
//!
//! // An archive holds back what it captured until the embargo ends.
//! use std::time::{Duration, UNIX_EPOCH};
//! let captured = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
//! let end = embargo.end(None, captured, captured);
//! assert_eq!(end, captured + Duration::from_secs(31 * 86_400));
//! ```
//!
//! The profile decides how a file is read; a crawler's header names its token:
//!
//! ```
//! use robots::{Agent, Options, Profile, Robots};
//! use std::time::Duration;
//!
//! let body = b"User-agent: MJ12bot\nDisallow: /\nCrawl-delay: 5\n";
//! let mj12 = Agent::from_user_agent("Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)")?;
//! assert_eq!(mj12.token(), "MJ12bot");
//!
//! // RFC 9309: the line names `MJ12bot`, whose group disallows everything.
//! let rfc = Robots::parse(body);
//! assert!(!rfc.check(&mj12, "https://example.com/a").allowed());
//! assert_eq!(rfc.group_for(&mj12).crawl_delay(), Some(Duration::from_secs(5)));
//!
//! // Google's reading: the line names `MJ` (letters only), so no group applies.
//! let google = Robots::parse_with(body, Options::new().profile(Profile::Google));
//! assert!(google.check(&Agent::verbatim("MJ12bot"), "https://example.com/a").allowed());
//! # Ok::<(), robots::Error>(())
//! ```
//!
//! # Coming from texting_robots or Protego
//!
//! One parse serves every crawler: the agent is named once ([`Agent`]) and given with
//! each question, so a parsed file can be kept per site and shared across threads.
//!
//! | texting_robots | Protego | here |
//! | --- | --- | --- |
//! | `Robot::new(agent, bytes)?` | `Protego.parse(text)` | [`Robots::parse`]`(bytes)`, which never fails, and [`Agent::new`]`(token)?` once per crawler |
//! | `robot.allowed(url)` | `rp.can_fetch(url, agent)` | [`robots.check(&agent, url)`](Robots::check)[`.allowed()`](Verdict::allowed) |
//! | `robot.delay` (`Option<f32>` seconds) | `rp.crawl_delay(agent)` | [`robots.group_for(&agent)`](Robots::group_for)[`.crawl_delay()`](AgentGroups::crawl_delay) (`Option<Duration>`) |
//! | | `rp.request_rate(agent)` | [`robots.group_for(&agent)`](Robots::group_for)[`.request_rate()`](AgentGroups::request_rate) ([`RequestRate`]) |
//! | | `rp.visit_time(agent)` | [`robots.group_for(&agent)`](Robots::group_for)[`.records()`](AgentGroups::records)`.find(\|r\| r.is("visit-time"))`, the value as written |
//! | `robot.sitemaps` | `rp.sitemaps` | [`robots.sitemaps()`](Robots::sitemaps) |
//! | | `rp.preferred_host` | [`robots.host()`](Robots::host) |
//! | `get_robots_url(url)` | | [`Origin::of`]`(url)?.`[`robots_txt_url()`](Origin::robots_txt_url) (`robots_fetch::origin_of` reads the host as the WHATWG URL Standard does, IDNA included) |
//!
//! The file of Protego's README, with a Visit-time line added, asked the same questions:
//!
//! ```
//! use robots::{Agent, RequestRate, Robots};
//! use std::time::Duration;
//!
//! let text = "\
//! User-agent: *
//! Disallow: /
//! Allow: /about
//! Allow: /account
//! Disallow: /account/contact$
//! Disallow: /account/*/profile
//! Crawl-delay: 4
//! Request-rate: 10/1m # 10 requests every 1 minute
//! Visit-time: 0600-0845
//!
//! Sitemap: http://example.com/sitemap-index.xml
//! Host: http://example.co.in
//! ";
//! let rp = Robots::parse(text.as_bytes());
//! let mybot = Agent::new("mybot")?;
//! let can_fetch = |url| rp.check(&mybot, url).allowed();
//! assert!(!can_fetch("http://example.com/profiles"));
//! assert!(can_fetch("http://example.com/about"));
//! assert!(can_fetch("http://example.com/account"));
//! assert!(!can_fetch("http://example.com/account/myuser/profile"));
//! assert!(!can_fetch("http://example.com/account/contact"));
//!
//! let group = rp.group_for(&mybot);
//! assert_eq!(group.crawl_delay(), Some(Duration::from_secs(4)));
//! let rate = RequestRate { requests: 10, per: Duration::from_secs(60) };
//! assert_eq!(group.request_rate(), Some(rate));
//! let visit_time = group.records().find(|r| r.is("visit-time")).map(|r| r.value());
//! assert_eq!(visit_time, Some("0600-0845"));
//! assert_eq!(rp.sitemaps().collect::<Vec<_>>(), ["http://example.com/sitemap-index.xml"]);
//! assert_eq!(rp.host(), Some("http://example.co.in"));
//! # Ok::<(), robots::Error>(())
//! ```
//!
//! What reads differently:
//! - The agent is a product token (`ExampleBot`), compared with each user-agent line's
//!   token ignoring ASCII case (RFC 9309 §2.2.1): `User-agent: ExampleBot/2.1` names
//!   `ExampleBot`. A whole User-Agent header goes through [`Agent::from_user_agent`];
//!   [`Agent::new`] refuses one, as it holds spaces and `/`.
//! - Rules before the first user-agent line belong to no group and are ignored (RFC 9309
//!   §2.2.1), and reported as [`Code::RuleBeforeUserAgent`]; texting_robots applies a
//!   file without user-agent lines to every crawler.
//! - Crawl-delay and Request-rate count only inside a group, and of several
//!   Crawl-delays in the agent's groups the largest holds (texting_robots takes the
//!   first, and one before any group for everyone). Request-rate's time of day (`1/10s 0800-1000`, Protego's `start_time` and
//!   `end_time`) is accepted but not kept; the record's value has it.
//! - Protego parses text; this crate parses the bytes as received, so a body that is
//!   not UTF-8 still parses (its octets ≥ 0x80 are matched percent-encoded, RFC 9309
//!   §2.2.2) and is reported as [`Code::NotUtf8`].
//! - What a fetch status means (4xx: allow all; 5xx or no answer: disallow all, RFC 9309
//!   §2.3.1), which texting_robots leaves to the caller, is the `robots-fetch` crate's
//!   job; without it, [`Availability::of_status`] classifies a final status, then
//!   parse an empty body for "allow all" and use [`Profile::always_allows`] for
//!   "disallow all".
//!
//! ```
//! use robots::{Agent, Code, Profile, Robots};
//!
//! let ferris = Agent::new("Ferris")?;
//! // No user-agent line: the rule belongs to no group, so nothing is disallowed.
//! let robots = Robots::parse(b"Disallow: /secret\n");
//! assert!(robots.check(&ferris, "https://example.com/secret").allowed());
//! assert_eq!(robots.diagnostics()[0].code, Code::RuleBeforeUserAgent);
//!
//! // A version on the user-agent line, and case, do not matter: the group names
//! // Ferris. Of its two Crawl-delays the largest holds.
//! let robots = Robots::parse(b"User-agent: ferris/1.0\nDisallow: /a\nCrawl-delay: 1\nCrawl-delay: 2.5\n");
//! assert!(!robots.check(&ferris, "/a/x").allowed());
//! let delay = robots.group_for(&ferris).crawl_delay().unwrap();
//! assert_eq!(delay.as_secs_f32(), 2.5);
//!
//! // A robots.txt that answered 404 allows everything; one that answered 503
//! // disallows everything but /robots.txt itself.
//! assert!(Robots::parse(b"").check(&ferris, "/secret").allowed());
//! assert!(!Profile::Rfc9309.always_allows("/secret"));
//! assert!(Profile::Rfc9309.always_allows("/robots.txt"));
//! # Ok::<(), robots::Error>(())
//! ```
//!
//! # Parsing (both profiles)
//! - Any bytes parse. A UTF-8 byte-order mark (or any prefix of one) is skipped. Lines end
//!   at LF, CR or CRLF; `#` starts a comment; keys are case-insensitive; blank lines do
//!   not end groups. A line with no colon but exactly two words is read as `key value`.
//! - Only the first [`Options::max_bytes`] bytes (default and minimum 512,000, RFC 9309
//!   §2.5; at most [`MAX_PARSE_LIMIT`], 16 MiB) are parsed, cut back to the last whole
//!   line; the rest is reported. [`Robots::parse_start`] parses the first limit + 1
//!   bytes alone, told what follows ([`Unread`]), for readers that keep no more.
//! - A group is one or more user-agent lines and the rules after them; a user-agent line
//!   after a rule starts a new group. Other records (sitemap, crawl-delay, unknown keys)
//!   never end a group (RFC 9309 §2.2.4). Rules before any user-agent line are ignored.
//! - Everything skipped, guessed or ignored is a [`Diagnostic`] with a stable [`Code`].
//!   A parsed file keeps only each finding's code, place and quoted text, and writes the
//!   sentences when [`Robots::diagnostics`] asks; [`Robots::lint`] takes the source text
//!   again to place what it finds, since a parsed file keeps no byte offsets for rules.
//! - [`Tokens`] reads the same `key: value` lines without building anything, for tools
//!   that handle the lines themselves.
//!
//! # Layout
//! A crawler holds thousands of parsed files, so a [`Robots`] is a few flat vectors and one
//! text arena: 24 bytes per rule (a 64-bit filter that rules most paths out, the written
//! value's span, the pattern's length and flags in one word, the line), 16 per user-agent
//! line, 24 per group and per other record. A pattern that normalising leaves alone is its
//! written value; a block of rules repeated for the next group shares its text. The
//! 20,000-file corpus held at once takes 1.43 times its size (`cargo bench -p robots
//! --bench latency`).
//!
//! # Matching (RFC 9309 profile)
//! - The groups naming the agent's product token (ASCII case-insensitive) are merged; if
//!   none, the `*` groups are; if none either, everything is allowed.
//! - The path is the URL's path, params and query without the fragment (`/` if empty).
//!   `/robots.txt` is always allowed.
//! - Patterns and paths are normalised alike: octets ≥ 0x80, controls and space are
//!   percent-encoded; escapes get upper-case hex; escapes of unreserved characters
//!   (`A-Z a-z 0-9 - . _ ~`) are decoded; in the query (after the first `?`), escapes of
//!   `:` `/` `?` `@` are decoded too, so they compare equal to the characters. Where a
//!   pattern's `*` comes before such an escape and no `?` does, the escape is compared by
//!   where it falls in each path: decoded in the query, as written before it (its
//!   length for precedence is as written). A literal
//!   `*` or `$` in a path compares equal to `%2A` / `%24` in a pattern (§2.2.3). A
//!   pattern's `*` matches any run of octets and a final `$` anchors the end; an empty
//!   pattern matches nothing.
//! - The longest matching pattern (octets, after normalisation) decides; an allow wins a
//!   tie; no match means allowed.
//!
//! # Archive-Embargo (RFC 9309 profile, agents that honour it)
//! - `Archive-Embargo: w | m | q` gives the group 7, 31 or 90 days; other values are
//!   ignored and reported, and an ignored line is no rule, so it does not end the
//!   group's user-agent lines; of several valid values in the merged groups the longest
//!   holds.
//! - `Embargo-Allow` acts exactly as `Allow` (and wins ties against `Disallow`) when the
//!   agent honours embargoes and the merged groups have a valid Archive-Embargo; it is
//!   ignored otherwise. Both lines are rules, so they end a group's user-agent lines.
//!   Lint warns of a group holding only embargo lines ([`Code::EmbargoOnlyGroup`]): its
//!   crawlers lose every `*` rule.
//! - An allowed verdict for an honouring agent carries the embargo ([`Verdict::embargo`]);
//!   its [`Embargo::end`] computes when publication may start.
//!
//! # AI usage preferences (RFC 9309 profile)
//! - `Content-Usage: [path SP] preference` (draft-ietf-aipref-attach-05 §3) is a rule of
//!   its group, so it ends the group's user-agent lines; its groups are chosen as for
//!   Allow and Disallow (a group naming the agent replaces `*`, matching groups merge).
//!   A value starting with `/` has a path, ending at the first SP or HTAB (§3.2); any
//!   other value is all preference and matches every path with length 0; `#` ends the
//!   value.
//! - Paths match as Allow patterns (`*`, `$`, percent-encoding, length in octets, §3.1).
//!   The single longest matching rule applies; rules of that length combine per category,
//!   `n` winning (vocab-07 §5.1). A URL the agent may not crawl gets none (§3.1).
//! - The preference is an RFC 9651 Dictionary (vocab-07 §6.5): unknown keys and
//!   parameters are ignored, the last duplicate wins, only the Tokens `y` and `n` count.
//!   A value that fails as a Dictionary (an uppercase key, a trailing comma, spaces
//!   around `=`) still matches, with every category unknown. vocab-07 defines
//!   [`Category::TrainAi`] and [`Category::Search`], with no hierarchy.
//! - `Content-Signal: search=yes, ai-input=yes, ai-train=no` (contentsignals.org) is a
//!   record of its group (it does not end the user-agent lines); the three keys with
//!   `yes` or `no` count, other keys and values are ignored and reported.
//! - Lines of either kind before any user-agent line apply to no crawler. What the
//!   drafts leave open, and what was chosen, is in `docs/decisions.md`.
//!
//! ```
//! use robots::{Agent, Category, Preferences, Robots, Usage};
//! let robots = Robots::parse(b"\
//! User-agent: *
//! Disallow: /private/
//! Content-Usage: train-ai=n
//! Content-Usage: /blog/ train-ai=y, search=y
//! ");
//! let bot = Agent::new("ExampleBot").unwrap();
//! let usage = robots.content_usage(&bot, "https://example.com/blog/post").unwrap();
//! assert_eq!(usage.preferences().get(Category::TrainAi), Some(Usage::Allowed));
//! assert_eq!(usage.line(), 4);
//! assert!(robots.content_usage(&bot, "/private/x").is_none());
//!
//! // The HTTP header combines with robots.txt, most restrictive per category.
//! let header = Preferences::from_header_lines(["search=n"]);
//! assert_eq!(usage.preferences().combine(header).to_string(), "train-ai=y, search=n");
//! ```
//!
//! # How the Google profile differs
//! [`Profile::Google`] reproduces google/robotstxt verdict for verdict. Each difference
//! below has a test on each side (`tests/it/profiles.rs`):
//!
//! | behaviour | RFC 9309 profile | Google profile |
//! | --- | --- | --- |
//! | keys | the directive name or a known misspelling | anything starting with one (`disallowed:` is a disallow) |
//! | user-agent line's name | up to the first white space or `/` (`MJ12bot`) | the leading `[A-Za-z_-]` run (`MJ12bot` names `MJ`) |
//! | crawler's name | its product token | compared exactly as given (`FooBot/1.0` matches nothing) |
//! | long lines, NUL | read whole | cut after 16,663 bytes and at a NUL byte |
//! | empty `Disallow:` / `Allow:` | matches nothing | matches with length 0 (names its line, never disallows) |
//! | normalisation | patterns and paths, full RFC 9309 §2.2.2 | patterns only: octets ≥ 0x80 escaped, hex upper-cased |
//! | `/robots.txt` | always allowed | matched like any path |
//! | `Allow: /d/index.html` | allows `/d/index.html…` | also allows `/d/` exactly |
//! | Archive-Embargo, Embargo-Allow | rules | unknown records |
//! | Content-Usage, Content-Signal | a rule and a record, read by [`Robots::content_usage`] and [`Robots::content_signal`] | unknown records (both give `None`) |
//! | `;` in a URL's userinfo (`https://u;x@host/p`) | part of the userinfo: the path is `/p` | starts the path: `/;x@host/p` |
//! | NUL in a URL's path (`/a\0b`) | a control octet: the path is `/a%00b` | ends the path: `/a` |

#![warn(missing_docs)]
// All of the crate's `unsafe` is in `simd`, each block saying why it is sound.
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

// The modules by floor, each importing only from its own floor (without cycles) and those
// below it: docs/engine-layers.md draws them, and scripts/check-layers checks them.
//
// Kernels and leaves: the SIMD kernels, which hold all of the crate's `unsafe`, and the
// small types everything names.
mod diagnostic;
mod error;
mod octets;
#[allow(unsafe_code)]
mod simd;
mod user_agent;
// The vocabulary of robots.txt: profiles, lines and directives, normalised paths and
// patterns, crawlers, embargoes, verdicts, AI usage preferences and origins.
mod across_query;
mod advice;
mod agent;
mod aipref;
mod availability;
mod behaviour;
mod directive;
mod embargo;
mod lines;
mod normalize;
mod origin;
mod pattern;
mod url;
mod verdict;
// The ground floor of a parsed file: `Robots` and the flat vectors it is laid out in.
mod robots;
// Building a parsed file and reading it: parsing, the groups for a crawler, the
// diagnostics' sentences.
mod finding;
mod group;
mod parse;
mod select;
// The answers: verdicts, explanations, lint, AI usage preferences, raw lines.
mod check;
#[cfg(test)]
mod differences;
mod explain;
mod lint;
mod preferences;
mod rule_index;
mod tokens;

pub use agent::Agent;
pub use aipref::{Category, MalformedDictionary, Preferences, SignalKey, Signals, Usage};
pub use availability::Availability;
pub use behaviour::Profile;
pub use diagnostic::{Code, Diagnostic, Severity};
pub use directive::Directive;
pub use embargo::{Embargo, EmbargoPeriod};
pub use error::Error;
pub use explain::{EmbargoAllowUse, Explanation, RuleMatch};
pub use finding::escaped;
pub use group::{AgentGroups, Group, Record};
pub use lines::source_lines;
pub use origin::{Origin, OriginError, Scheme};
pub use preferences::{ContentSignal, ContentUsage};
pub use robots::{Options, RequestRate, Robots, Unread, MAX_PARSE_LIMIT, MIN_PARSE_LIMIT};
pub use rule_index::RuleIndex;
pub use select::Selection;
pub use tokens::{Token, Tokens};
pub use verdict::{Reason, Rule, RuleKind, Verdict};
