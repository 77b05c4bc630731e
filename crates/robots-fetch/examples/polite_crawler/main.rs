//! A small breadth-first crawler that asks robots.txt before every request.
//!
//! ```text
//! cargo run -p robots-fetch --example polite_crawler -- http://127.0.0.1:8000/ ExampleBot
//! cargo run -p robots-fetch --example polite_crawler -- https://example.com/ ExampleArchiver --embargo --pages 20
//! ```
//!
//! From the start URL it fetches up to `--pages` pages (10 by default) of the same origin,
//! breadth-first, following `href="…"` links and the `<loc>` URLs of the Sitemaps the
//! robots.txt lists. Before each request it asks [`Fetcher::decide`] (the robots.txt is
//! fetched once, then cached) and waits as the site's Crawl-delay asks ([`Pacer`]). It
//! prints one line per URL:
//!
//! ```text
//! fetched    http://127.0.0.1:8000/  (200)
//! skipped    http://127.0.0.1:8000/private/  (disallowed, line 2: Disallow: /private/)
//! embargoed  http://127.0.0.1:8000/news/  (200) until Mon, 07 Dec 2026 18:00:00 GMT
//! ```
//!
//! With `--embargo` the agent honours Archive-Embargo, as a web archive's crawler does:
//! `Embargo-Allow` lines then let it in, and what it fetches under a group's
//! `Archive-Embargo` must not be published before the date shown.

mod crawl;

use std::time::Duration;

use anyhow::Context;
use robots_fetch::{Agent, Config, Fetcher, Pacer};

use crawl::Crawler;

const USAGE: &str = "usage: polite_crawler START-URL AGENT [--embargo] [--pages N]";

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(start), Some(name)) = (args.next(), args.next()) else {
        anyhow::bail!(USAGE);
    };
    let mut agent = Agent::new(&name)?;
    let mut max_pages = 10;
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--embargo" => agent = agent.honouring_embargo(),
            "--pages" => {
                let n = args.next().context(USAGE)?;
                max_pages = n.parse().with_context(|| format!("--pages {n}: {USAGE}"))?;
            }
            _ => anyhow::bail!("unknown argument `{flag}`; {USAGE}"),
        }
    }

    // One User-Agent for robots.txt and pages alike: the site's rules name this product.
    let user_agent = format!("{name}/0.1 (robots-fetch polite_crawler example)");
    let crawler = Crawler {
        fetcher: Fetcher::new(Config::new(&user_agent))?,
        client: reqwest::Client::builder()
            .user_agent(&user_agent)
            .timeout(Duration::from_secs(30))
            .build()?,
        agent,
        // A site may ask for any Crawl-delay; past a minute this crawler would rather
        // go slower than stall.
        pacer: Pacer::new(Duration::from_secs(60)),
        max_pages,
    };
    crawler.crawl(&start, |visit| println!("{visit}")).await
}
