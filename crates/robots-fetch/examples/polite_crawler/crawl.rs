//! The crawl itself, apart from `main` so that `tests/it/polite_crawler.rs` runs exactly this
//! code against a local site.
//!
//! The rule of a polite crawler: before every request, ask the [`Fetcher`] whether the URL
//! may be fetched, then wait for the [`Pacer`] to hand out the origin's next slot.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::time::SystemTime;

use anyhow::Context;
use robots_fetch::{origin_of_url, Agent, DecidingRule, Fetcher, Origin, Pacer, Url};

/// What the crawler did with one URL: one line of its output.
#[derive(Debug)]
pub enum Visit {
    /// Fetched; `status` is the HTTP status of the page.
    Fetched { url: Url, status: u16 },
    /// Fetched by an agent that honours Archive-Embargo: it may keep the page but not
    /// publish it before `until`.
    Embargoed {
        url: Url,
        status: u16,
        until: SystemTime,
    },
    /// Not requested: robots.txt disallows it. `rule` is the deciding line; there is none
    /// when the robots.txt was unreachable and everything is disallowed (`why` says so).
    Skipped {
        url: Url,
        rule: Option<DecidingRule>,
        why: String,
    },
    /// Allowed, but the request failed.
    Failed { url: Url, error: String },
}

impl fmt::Display for Visit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Visit::Fetched { url, status } => write!(f, "fetched    {url}  ({status})"),
            Visit::Embargoed { url, status, until } => {
                let date = httpdate::fmt_http_date(*until);
                write!(f, "embargoed  {url}  ({status}) until {date}")
            }
            Visit::Skipped {
                url,
                rule: Some(rule),
                ..
            } => write!(f, "skipped    {url}  (disallowed, {rule})"),
            Visit::Skipped { url, why, .. } => write!(f, "skipped    {url}  (robots.txt {why})"),
            Visit::Failed { url, error } => write!(f, "failed     {url}  ({error})"),
        }
    }
}

/// A breadth-first crawl of one site.
pub struct Crawler {
    /// Answers "may I?" from each origin's robots.txt, fetched once and cached.
    pub fetcher: Fetcher,
    /// Fetches the pages themselves; it should send the same User-Agent as the fetcher.
    pub client: reqwest::Client,
    /// Whose rules apply; `Agent::honouring_embargo` for an archive's crawler.
    pub agent: Agent,
    /// Spaces requests to the site by its Crawl-delay.
    pub pacer: Pacer,
    /// Pages to fetch at most (skipped URLs and sitemaps do not count).
    pub max_pages: usize,
}

impl Crawler {
    /// Crawls from `start`, following links and the robots.txt's Sitemaps within the start
    /// URL's origin, and reports each URL as it is done with.
    pub async fn crawl(&self, start: &str, mut report: impl FnMut(&Visit)) -> anyhow::Result<()> {
        let start = Url::parse(start).with_context(|| {
            format!("`{start}`: give an absolute URL, e.g. https://example.com/")
        })?;
        let origin = origin_of_url(&start)?;
        let mut queue = VecDeque::from([start.clone()]);
        let mut seen = HashSet::from([start.clone()]);

        // The robots.txt is looked up once here; every later question is answered from
        // the fetcher's cache. Its Sitemaps seed the queue, behind the start URL.
        let answer = self.fetcher.lookup(start.as_str()).await?;
        for sitemap in answer.sitemaps() {
            let Some(sitemap) = same_origin(&origin, &start, sitemap) else {
                continue;
            };
            if let Some(body) = self.get(&sitemap, &mut report).await? {
                for loc in between(&body, "<loc>", "</loc>") {
                    enqueue(&origin, &sitemap, loc.trim(), &mut queue, &mut seen);
                }
            }
        }

        let mut pages = 0;
        while pages < self.max_pages {
            let Some(url) = queue.pop_front() else { break };
            let Some(body) = self.get(&url, &mut report).await? else {
                continue;
            };
            pages += 1;
            for href in between(&body, "href=\"", "\"") {
                enqueue(&origin, &url, href, &mut queue, &mut seen);
            }
        }
        Ok(())
    }

    /// Asks, waits its turn, fetches and reports one URL; the body when it was fetched.
    async fn get(
        &self,
        url: &Url,
        report: &mut impl FnMut(&Visit),
    ) -> anyhow::Result<Option<String>> {
        let (decision, answer) = self.fetcher.decide(&self.agent, url.as_str()).await?;
        if !decision.allowed() {
            report(&Visit::Skipped {
                url: url.clone(),
                rule: decision.decided_by().cloned(),
                why: answer.source().to_string(),
            });
            return Ok(None);
        }
        // The Crawl-delay of the agent's group in this origin's robots.txt, capped by
        // the pacer's maximum, after the last request, the robots.txt's included; no
        // wait when the file gives none.
        self.pacer.pace(&answer, &self.agent).await;
        let response = match self.client.get(url.clone()).send().await {
            Ok(response) => response,
            Err(error) => {
                report(&Visit::Failed {
                    url: url.clone(),
                    error: error.to_string(),
                });
                return Ok(None);
            }
        };
        let status = response.status().as_u16();
        let last_modified = response
            .headers()
            .get(reqwest::header::LAST_MODIFIED)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = response.text().await.unwrap_or_default();
        let visit = match decision.embargo() {
            // An embargo runs from the page's Last-Modified, or from when the crawler
            // first saw it: now, as this crawler keeps no history.
            Some(embargo) => {
                let now = SystemTime::now();
                Visit::Embargoed {
                    url: url.clone(),
                    status,
                    until: embargo.end(last_modified.as_deref(), now, now),
                }
            }
            None => Visit::Fetched {
                url: url.clone(),
                status,
            },
        };
        report(&visit);
        Ok(Some(body))
    }
}

/// Every piece of `text` between `open` and the next `close`: a deliberately simple
/// extractor (no HTML or XML parser) that finds `href="…"` and `<loc>…</loc>`.
fn between<'t>(text: &'t str, open: &'t str, close: &'t str) -> impl Iterator<Item = &'t str> {
    text.split(open)
        .skip(1)
        .filter_map(move |rest| rest.split_once(close).map(|(inside, _)| inside))
}

/// `link` resolved against `base`, without its fragment, if it is on `origin`.
fn same_origin(origin: &Origin, base: &Url, link: &str) -> Option<Url> {
    let mut url = base.join(link).ok()?;
    url.set_fragment(None);
    (origin_of_url(&url).ok()? == *origin).then_some(url)
}

/// Queues `link`, resolved against `base`, unless it leaves the origin or was seen before.
fn enqueue(
    origin: &Origin,
    base: &Url,
    link: &str,
    queue: &mut VecDeque<Url>,
    seen: &mut HashSet<Url>,
) {
    if let Some(url) = same_origin(origin, base, link) {
        if seen.insert(url.clone()) {
            queue.push_back(url);
        }
    }
}
