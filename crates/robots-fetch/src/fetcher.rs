//! The fetcher: looks an origin up in the cache, fetches or revalidates when it must
//! (one request per origin at a time), and turns the reply into an [`Answer`] per RFC 9309 §2.3–2.4.

use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use robots::{Agent, Profile, Robots};
use url::Url;

use crate::cache::{Cache, Entry, Stored};
use crate::client::{Client, Conditional, Reply};
use crate::config::{AfterOutage, Config};
use crate::flight::{follow, Flights, Role};
use crate::freshness::{forbids_storing, Freshness, Validators};
use crate::{Answer, CacheStats, Decision, Error, Fallback, Origin, Rules, Source};

/// Fetches, caches and answers robots.txt questions. Cheap to clone; clones share the
/// cache.
#[derive(Debug, Clone)]
pub struct Fetcher {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: Config,
    client: Client,
    cache: Mutex<Cache>,
    flights: Flights,
}

impl Fetcher {
    /// A fetcher with the given settings. Nothing is asked of the network until a lookup;
    /// an error means the settings cannot work (a User-Agent that cannot be sent, a
    /// client that cannot be built).
    ///
    /// ```
    /// use std::time::Duration;
    /// use robots_fetch::{Config, Error, Fetcher, Options, Profile, TooManyRequests};
    ///
    /// let config = Config::new("ExampleBot/1.0 (+https://example.com/bot)")
    ///     .options(Options::new().profile(Profile::Google))
    ///     .timeout(Duration::from_secs(10))
    ///     .too_many_requests(TooManyRequests::Unreachable);
    /// let fetcher = Fetcher::new(config).unwrap();
    /// assert_eq!(fetcher.cache_stats().entries, 0);
    ///
    /// let blank = Fetcher::new(Config::new("  "));
    /// assert!(matches!(blank, Err(Error::InvalidUserAgent(_))));
    /// ```
    pub fn new(config: Config) -> Result<Fetcher, Error> {
        Ok(Fetcher {
            inner: Arc::new(Inner {
                client: Client::new(&config)?,
                cache: Mutex::new(Cache::new(config.cache)),
                flights: Flights::default(),
                config,
            }),
        })
    }

    /// May `agent` fetch `url`, and under what embargo? Looks up the robots.txt of the
    /// URL's origin first.
    ///
    /// An agent that honours Archive-Embargo is refused, before any request, when the
    /// fetcher reads robots.txt with [`Profile::Google`]: that profile knows no embargo
    /// (docs/design.md), and the agent would otherwise get none without a word.
    ///
    /// # Errors
    ///
    /// What [`Fetcher::lookup`] refuses, and [`Error::EmbargoWithGoogleProfile`] for
    /// that pair. What the site answers
    /// (4xx, 5xx, a timeout, a DNS failure) is never an error: it is in the
    /// [`Decision`] and in [`Answer::source`] (RFC 9309 §2.3.1).
    ///
    /// ```
    /// # #[tokio::main] async fn main() {
    /// use robots_fetch::{Agent, Config, Error, Fetcher, Options, Profile};
    ///
    /// let google = Options::new().profile(Profile::Google);
    /// let fetcher = Fetcher::new(Config::new("ExampleBot/1.0").options(google)).unwrap();
    /// let archiver = Agent::new("ExampleArchiver").unwrap().honouring_embargo();
    /// let refused = fetcher.decide(&archiver, "https://example.com/news").await;
    /// assert!(matches!(refused, Err(Error::EmbargoWithGoogleProfile { .. })));
    /// # }
    /// ```
    pub async fn decide(&self, agent: &Agent, url: &str) -> Result<(Decision, Answer), Error> {
        if agent.honours_embargo() && self.inner.config.options.chosen_profile() == Profile::Google
        {
            return Err(Error::EmbargoWithGoogleProfile {
                agent: agent.name().to_owned(),
            });
        }
        let answer = self.lookup(url).await?;
        Ok((answer.decide(agent, url), answer))
    }

    /// The robots.txt rules for the origin of `url` (any URL of the site), as
    /// [`Fetcher::lookup_origin`] finds them.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidUrl`] when `url` is not an absolute URL (a path alone is not:
    /// it names no origin), [`Error::UnsupportedScheme`] when it is not http(s), and
    /// [`Error::NoHost`]. Nothing is asked of the network then.
    pub async fn lookup(&self, url: &str) -> Result<Answer, Error> {
        let origin = crate::origin_of(url)?;
        Ok(self.lookup_origin(&origin).await)
    }

    /// The robots.txt rules for `origin`: from the cache while fresh, otherwise from the
    /// server, with concurrent lookups of one origin sharing one request. An origin
    /// from [`origin_of`](crate::origin_of) names the host the HTTP client will ask;
    /// one read by the engine's [`Origin::of`] takes its host as written (no IDNA).
    pub async fn lookup_origin(&self, origin: &Origin) -> Answer {
        loop {
            if let Some(answer) = self.fresh(origin) {
                return answer;
            }
            match self.inner.flights.join(origin) {
                Role::Leader(leader) => {
                    // A flight may have finished between the cache check and joining.
                    let answer = match self.fresh(origin) {
                        Some(answer) => answer,
                        None => self.refresh(origin).await,
                    };
                    leader.finish(&answer);
                    return answer;
                }
                Role::Follower(rx) => {
                    if let Some(answer) = follow(rx).await {
                        return answer;
                    }
                    // The leader gave up (its caller was cancelled): try again.
                }
            }
        }
    }

    /// How full the cache is.
    pub fn cache_stats(&self) -> CacheStats {
        self.lock().stats()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.inner.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now(&self) -> SystemTime {
        self.inner.config.clock.now()
    }

    /// A fresh stored answer, if there is one: a recent unreachable answer, or a stored
    /// response within its freshness lifetime.
    fn fresh(&self, origin: &Origin) -> Option<Answer> {
        let entry = self.lock().get(origin)?;
        if let Some((until, answer)) = entry.unreachable {
            if self.now() < until {
                return Some(answer);
            }
        }
        let stored = entry.stored?;
        if !stored.freshness.is_fresh(self.now()) {
            return None;
        }
        Some(self.answer_from(
            origin,
            &stored,
            Source::Cached {
                unavailable: stored.unavailable.clone(),
            },
        ))
    }

    /// Asks the server (conditionally when a copy is stored) and updates the cache.
    async fn refresh(&self, origin: &Origin) -> Answer {
        let config = &self.inner.config;
        let entry = self.lock().get(origin).unwrap_or_default();
        let conditional = entry
            .stored
            .as_ref()
            .filter(|s| !s.validators.is_empty() && s.unavailable.is_none())
            .map(|s| Conditional {
                url: &s.final_url,
                validators: &s.validators,
            });
        let reply = self
            .inner
            .client
            .get(crate::robots_url(origin), conditional)
            .await;
        let received = self.now();
        let ended = tokio::time::Instant::now();
        match reply {
            Reply::Body {
                chain,
                headers,
                body,
                size,
            } => {
                let robots = Robots::parse_with(&body, config.options);
                let stored = Stored {
                    rules: Arc::new(Rules::Parsed(Box::new(robots))),
                    unavailable: None,
                    final_url: final_url(&chain, origin),
                    chain: chain.into(),
                    freshness: Freshness::from_headers(&headers, received, config.max_freshness),
                    validators: Validators::from_headers(&headers),
                    body: Some(size),
                    requested_at: ended,
                };
                self.store(origin, &stored, forbids_storing(&headers));
                self.answer_from(origin, &stored, Source::Fetched)
            }
            Reply::NotModified { chain, headers } => match entry.stored {
                Some(mut stored) => {
                    // RFC 9111 §4.3.4: the 304 renews the stored response's freshness
                    // and may bring new validators; the rules stay as they were.
                    stored.freshness =
                        Freshness::from_headers(&headers, received, config.max_freshness);
                    stored.validators = stored.validators.updated_by(&headers);
                    stored.requested_at = ended;
                    self.store(origin, &stored, false);
                    let mut answer = self.answer_from(origin, &stored, Source::Revalidated);
                    answer.chain = chain.into();
                    answer
                }
                // Not reachable: a 304 only counts as such when validators were sent,
                // and they come from a stored copy. Treated as the 3xx it is.
                None => self.unavailable(
                    origin,
                    chain,
                    &headers,
                    crate::Unavailable::BadRedirect {
                        status: 304,
                        location: None,
                    },
                    received,
                    ended,
                ),
            },
            Reply::Unavailable {
                chain,
                headers,
                why,
            } => self.unavailable(origin, chain, &headers, why, received, ended),
            Reply::Unreachable { chain, why } => {
                let since = entry.unreachable_since.unwrap_or(received);
                let outage = received.duration_since(since).unwrap_or_default();
                let cached = entry.stored.clone();
                let (rules, fallback, freshness, body) = match (&cached, config.after_outage) {
                    // RFC 9309 §2.3.1.4: after a long outage the robots.txt may be
                    // treated as unavailable, or the cached copy kept.
                    _ if outage >= config.outage_limit
                        && config.after_outage == AfterOutage::AllowAll =>
                    {
                        (
                            Arc::new(Rules::AllowAll),
                            Fallback::AllowAllAfterOutage { since },
                            None,
                            None,
                        )
                    }
                    (Some(stored), _) => (
                        stored.rules.clone(),
                        Fallback::CachedCopy {
                            fetched_at: stored.freshness.fetched_at(),
                        },
                        Some(stored.freshness),
                        stored.body,
                    ),
                    (None, _) => (
                        Arc::new(Rules::DisallowAll),
                        Fallback::DisallowAll,
                        None,
                        None,
                    ),
                };
                let answer = Answer {
                    origin: origin.clone(),
                    source: Source::Unreachable {
                        error: why,
                        fallback,
                    },
                    rules,
                    chain: chain.into(),
                    freshness,
                    body,
                    profile: config.options.chosen_profile(),
                    requested_at: ended,
                };
                self.lock().put(
                    origin.clone(),
                    Entry {
                        stored: cached,
                        unreachable_since: Some(since),
                        unreachable: Some((
                            crate::clock::later(received, config.unreachable_retry),
                            answer.clone(),
                        )),
                    },
                );
                answer
            }
        }
    }

    fn unavailable(
        &self,
        origin: &Origin,
        chain: Vec<crate::Hop>,
        headers: &reqwest::header::HeaderMap,
        why: crate::Unavailable,
        received: SystemTime,
        ended: tokio::time::Instant,
    ) -> Answer {
        let config = &self.inner.config;
        let stored = Stored {
            rules: Arc::new(Rules::AllowAll),
            unavailable: Some(why.clone()),
            final_url: final_url(&chain, origin),
            chain: chain.into(),
            freshness: Freshness::from_headers(headers, received, config.max_freshness),
            validators: Validators::default(),
            body: None,
            requested_at: ended,
        };
        self.store(origin, &stored, forbids_storing(headers));
        self.answer_from(origin, &stored, Source::Unavailable(why))
    }

    fn answer_from(&self, origin: &Origin, stored: &Stored, source: Source) -> Answer {
        Answer {
            origin: origin.clone(),
            source,
            rules: stored.rules.clone(),
            chain: stored.chain.clone(),
            freshness: Some(stored.freshness),
            body: stored.body,
            profile: self.inner.config.options.chosen_profile(),
            requested_at: stored.requested_at,
        }
    }

    /// Keeps a response (unless `no-store` forbids it, RFC 9111 §3), ending any outage.
    fn store(&self, origin: &Origin, stored: &Stored, no_store: bool) {
        let entry = Entry {
            stored: (!no_store).then(|| stored.clone()),
            unreachable_since: None,
            unreachable: None,
        };
        self.lock().put(origin.clone(), entry);
    }
}

fn final_url(chain: &[crate::Hop], origin: &Origin) -> Url {
    chain
        .last()
        .map_or_else(|| crate::robots_url(origin), |hop| hop.url.clone())
}
