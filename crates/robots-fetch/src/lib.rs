//! Fetching and caching robots.txt over HTTP as RFC 9309 §2.3–2.5 says, so that a crawler
//! asks one question — may I fetch this URL, and under what embargo? — and gets the RFC's answer.
//!
//! Make one [`Fetcher`] for the crawler (clones share its cache) and ask it about each
//! URL before fetching it: [`Fetcher::decide`] looks up the origin's robots.txt (from
//! the cache while fresh, else over HTTP) and answers with a [`Decision`] (allowed,
//! embargo, deciding line) and the [`Answer`] behind it (where the rules came from, the
//! parsed [`robots::Robots`], Crawl-delay, sitemaps). The profile and parse limit are
//! [`Options`], given through [`Config::options`].
//!
//! The engine's types this API takes and gives ([`Agent`], [`Options`], [`Profile`],
//! [`Embargo`], [`EmbargoPeriod`], [`Reason`], [`RuleKind`], [`Origin`], [`Scheme`]) are
//! re-exported here, and the engine itself as [`robots`], as is the URL type of
//! [`origin_of_url`] and [`Hop::url`] ([`Url`]), so a crawler needs no second dependency
//! to name them.
//!
//! ```
//! # use tokio::io::{AsyncReadExt, AsyncWriteExt};
//! # /// Serves `body` as the answer to every request on a port of 127.0.0.1.
//! # async fn serve(body: &'static str) -> std::io::Result<String> {
//! #     let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! #     let site = format!("http://{}", listener.local_addr()?);
//! #     tokio::spawn(async move {
//! #         while let Ok((mut socket, _)) = listener.accept().await {
//! #             let _ = socket.read(&mut [0; 4096]).await;
//! #             let head = format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n", body.len());
//! #             let _ = socket.write_all(format!("{head}{body}").as_bytes()).await;
//! #         }
//! #     });
//! #     Ok(site)
//! # }
//! # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use robots_fetch::{Agent, Config, EmbargoPeriod, Fetcher, Pacer, Source};
//!
//! // A site (on 127.0.0.1 here, as `http://127.0.0.1:port`) whose robots.txt says:
//! let site = serve("User-agent: *\nArchive-Embargo: w\nDisallow: /private/\nCrawl-delay: 1\n").await?;
//!
//! let config = Config::new("ExampleBot/1.0 (+https://example.com/bot)");
//! # let config = config.proxy_from_env(false);
//! let fetcher = Fetcher::new(config)?;
//! let agent = Agent::new("ExampleBot")?.honouring_embargo();
//!
//! // Fetches the site's /robots.txt, then decides.
//! let (decision, answer) = fetcher.decide(&agent, &format!("{site}/news/today")).await?;
//! assert!(decision.allowed());
//! assert_eq!(decision.embargo().map(|e| e.period()), Some(EmbargoPeriod::Week));
//! assert_eq!(answer.source(), &Source::Fetched);
//!
//! // The next URL of the origin is answered from the cache, without a request.
//! let (decision, answer) = fetcher.decide(&agent, &format!("{site}/private/x")).await?;
//! assert!(!decision.allowed());
//! let rule = decision.decided_by().unwrap();
//! assert_eq!(rule.to_string(), "line 3: Disallow: /private/");
//! assert_eq!(answer.source().name(), "cached");
//!
//! // Space requests to the origin by its Crawl-delay for this agent, at most 30 s.
//! assert_eq!(answer.crawl_delay(&agent), Some(Duration::from_secs(1)));
//! let pacer = Pacer::new(Duration::from_secs(30));
//! pacer.pace(&answer, &agent).await; // the first request to the origin: no wait
//! // … fetch the page; the next `pace` for this origin waits a second.
//! # Ok(()) }
//! ```
//!
//! Coming from texting_robots, which parses what the caller fetched: its
//! `get_robots_url(url)` is [`robots_url`]`(&`[`origin_of`]`(url)?)`,
//! and what each status means, which its README leaves to the caller, is decided here
//! as the table below says. A site that cannot be reached is an answer, not an error:
//!
//! ```
//! # #[tokio::main] async fn main() -> Result<(), robots_fetch::Error> {
//! use robots_fetch::{Agent, Config, Fetcher};
//!
//! // Nothing listens on port 1: the connection is refused.
//! let config = Config::new("ExampleBot/1.0");
//! # let config = config.proxy_from_env(false);
//! let fetcher = Fetcher::new(config)?;
//! let bot = Agent::new("ExampleBot")?;
//! let (decision, answer) = fetcher.decide(&bot, "http://127.0.0.1:1/page").await?;
//! assert!(!decision.allowed());
//! assert_eq!(answer.source().name(), "unreachable");
//! // RFC 9309 §2.2.2: /robots.txt itself stays allowed, so it may be asked again.
//! assert!(answer.decide(&bot, "/robots.txt").allowed());
//! # Ok(()) }
//! ```
//!
//! # What each response means
//!
//! | the server | the answer ([`Source`]) | the rules ([`Rules`]) |
//! | --- | --- | --- |
//! | 2xx | fetched | the body, decoded (gzip, br, deflate) and read up to the parse limit and no further (§2.5; one byte more, to tell whether the limit cuts a line, which is then dropped) |
//! | 2xx in another content coding | unreachable: the file cannot be read ([`Unreachable::Coding`]) | as for 5xx |
//! | 3xx | followed, up to 5 times, across hosts; the rules are the original origin's (§2.3.1.2) | whatever the last response gives |
//! | more than 5 redirects, a loop, a bad Location | unavailable | allow all |
//! | 4xx | unavailable (§2.3.1.3); 429 optionally unreachable ([`TooManyRequests`]) | allow all |
//! | 5xx, DNS failure, refused connection, timeout (of the whole lookup, redirects included), broken body | unreachable (§2.3.1.4) | disallow all (but `/robots.txt` itself, in the RFC 9309 profile: [`Answer::decide`]), or the cached copy if there is one |
//! | a connection closed or reset before any response (the server closed a kept-alive connection as the request went out) | asked once more, on a new connection (RFC 9112 §9.3.1); unreachable if that fails too | as for 5xx |
//! | unreachable for 30 days (configurable) | unreachable | allow all, or the cached copy ([`AfterOutage`]) |
//!
//! # Caching
//! One entry per [`Origin`] (scheme, lower-cased host, port with defaults filled in,
//! read by [`origin_of`] as the HTTP client reads the URL, IDNA included). An
//! entry is fresh for its RFC 9111 §4.2 lifetime (`Cache-Control: max-age`, else
//! `Expires`), never more than 24 hours (RFC 9309 §2.4; [`Config::max_freshness`]); a
//! stale 2xx copy is revalidated with `If-None-Match` / `If-Modified-Since`, and a 304
//! keeps its rules. An unreachable answer stands for a minute
//! ([`Config::unreachable_retry`]) so that an outage costs the server one request a
//! minute, not one per URL checked. The cache is bounded in entries and bytes ([`CacheLimits`]), and
//! concurrent lookups of one origin share one request. Time is read from a [`Clock`]
//! that tests can set ([`ManualClock`]).
//!
//! # Politeness
//! [`Pacer`] spaces requests to one origin by the group's Crawl-delay, capped. The
//! robots.txt request counts as one ([`Answer::requested_at`]): the first page waits
//! the delay after it, as the pages after it do.
//!
//! # AI usage preferences
//! A page's content may carry preferences on what it may be used for (AI training,
//! search): in the origin's robots.txt, as `Content-Usage` rules of the agent's group
//! (draft-ietf-aipref-attach-05 §3; [`Answer::content_usage`]) and `Content-Signal`
//! ([`Answer::content_signal`]), and in the page's response, as the `Content-Usage`
//! header (attach-05 §2; [`content_usage_header`]). attach-05 does not say how the two
//! combine; [`Answer::usage_for_response`] combines them per category, the most
//! restrictive winning, as vocab-07 §5.1 asks of statements "obtained using different
//! methods":
//!
//! | robots.txt's rule for the URL | the page's header | combined |
//! | --- | --- | --- |
//! | `train-ai=n` | `train-ai=y, search=y` | `train-ai=n, search=y` |
//! | none (or no robots.txt) | `train-ai=n` | `train-ai=n` |
//! | `search=y` | `Search=y` (fails to parse) | `search=y` |
//! | none: the URL is disallowed (§3.1) | `train-ai=y` | `train-ai=y` |
//!
//! # A whole crawler
//! The example `polite_crawler` (`examples/polite_crawler/`) is a breadth-first crawler
//! of one site in under 300 lines: it asks [`Fetcher::decide`] before every request,
//! waits on a [`Pacer`], follows `href="…"` links and the robots.txt's Sitemaps
//! ([`Answer::sitemaps`]), and prints each URL as fetched, skipped (with the deciding
//! line) or embargoed until a date (with `--embargo`, for an agent honouring
//! Archive-Embargo). Run it against a site:
//!
//! ```text
//! cargo run -p robots-fetch --example polite_crawler -- http://127.0.0.1:8000/ ExampleBot
//! cargo run -p robots-fetch --example polite_crawler -- https://example.com/ ExampleArchiver --embargo --pages 20
//! ```

#![warn(missing_docs)]

mod answer;
mod cache;
mod client;
mod clock;
mod config;
mod error;
mod fetcher;
mod flight;
mod freshness;
mod origin;
mod outcome;
mod pacer;
mod resolve;
mod usage;

pub use robots;
pub use robots::{
    Agent, Embargo, EmbargoPeriod, Options, Origin, Profile, Reason, RuleKind, Scheme,
};
pub use url::Url;

pub use answer::{Answer, BodySize, DecidingRule, Decision};
pub use cache::{CacheLimits, CacheStats};
pub use clock::{Clock, ManualClock, SystemClock};
pub use config::{AfterOutage, Config, TooManyRequests};
pub use error::Error;
pub use fetcher::Fetcher;
pub use freshness::Freshness;
pub use origin::{origin_of, origin_of_url, robots_url};
pub use outcome::{Fallback, Hop, Rules, Source, Unavailable, Unreachable};
pub use pacer::Pacer;
/// Response headers, as [`content_usage_header`] reads them (`reqwest`'s, from `http`).
pub use reqwest::header::HeaderMap;
pub use resolve::{Resolve, Resolving, SystemResolver};
pub use usage::content_usage_header;
