//! The cache: freshness from Cache-Control (RFC 9111 §4.2) capped at 24 h (RFC 9309 §2.4),
//! revalidation with 304, cached copies through outages, the 30-day rule, single-flight.

use crate::common;

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::{config, fetcher, Reply, Server, DAY, HOUR};

const MINUTE: Duration = Duration::from_secs(60);
use robots::Agent;
use robots_fetch::{
    AfterOutage, CacheLimits, Clock, Fallback, Fetcher, ManualClock, Rules, Source, Unavailable,
    Unreachable,
};

const ROBOTS: &str = "User-agent: *\nDisallow: /private\n";

fn agent() -> Agent {
    Agent::new("TestBot").unwrap()
}

#[tokio::test]
async fn max_age_shorter_than_24_hours_is_honoured() {
    let server =
        Server::start(|_| Reply::ok(ROBOTS).header("Cache-Control", "public, max-age=600")).await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let url = server.url("/");
    assert_eq!(f.lookup(&url).await.unwrap().source(), &Source::Fetched);
    clock.advance(Duration::from_secs(500));
    let cached = f.lookup(&url).await.unwrap();
    assert_eq!(cached.source(), &Source::Cached { unavailable: None });
    assert!(!cached.decide(&agent(), "/private").allowed());
    assert_eq!(server.hits(), 1);
    clock.advance(Duration::from_secs(200));
    assert_eq!(f.lookup(&url).await.unwrap().source(), &Source::Fetched);
    assert_eq!(server.hits(), 2);
}

#[tokio::test]
async fn max_age_longer_than_24_hours_is_capped() {
    let server =
        Server::start(|_| Reply::ok(ROBOTS).header("Cache-Control", "max-age=604800")).await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let url = server.url("/");
    let first = f.lookup(&url).await.unwrap();
    let freshness = first.freshness().unwrap();
    assert!(freshness.remaining(clock.now()) <= DAY);
    clock.advance(23 * HOUR);
    assert_eq!(
        f.lookup(&url).await.unwrap().source(),
        &Source::Cached { unavailable: None }
    );
    clock.advance(2 * HOUR);
    assert_eq!(f.lookup(&url).await.unwrap().source(), &Source::Fetched);
    assert_eq!(server.hits(), 2);
}

#[tokio::test]
async fn the_freshness_cap_is_configurable() {
    let server = Server::start(|_| Reply::ok(ROBOTS)).await;
    let clock = ManualClock::starting_now();
    let f = Fetcher::new(config(&clock).max_freshness(HOUR)).unwrap();
    let url = server.url("/");
    f.lookup(&url).await.unwrap();
    clock.advance(HOUR + Duration::from_secs(1));
    assert_eq!(f.lookup(&url).await.unwrap().source(), &Source::Fetched);
}

#[tokio::test]
async fn a_stale_copy_is_revalidated_with_its_etag_and_a_304_keeps_the_rules() {
    let server = Server::start(|req| {
        if req.header("if-none-match") == Some("\"v1\"") {
            Reply::status(304).header("Cache-Control", "max-age=60")
        } else {
            Reply::ok(ROBOTS)
                .header("ETag", "\"v1\"")
                .header("Cache-Control", "max-age=60")
        }
    })
    .await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let url = server.url("/");
    let fetched = f.lookup(&url).await.unwrap();
    let cached = f.lookup(&url).await.unwrap();
    clock.advance(Duration::from_secs(120));
    let answer = f.lookup(&url).await.unwrap();
    assert_eq!(answer.source(), &Source::Revalidated);
    // A cached answer's request is the one that got the response; the 304's is later.
    assert_eq!(cached.requested_at(), fetched.requested_at());
    assert!(answer.requested_at() > fetched.requested_at());
    assert_eq!(answer.chain()[0].status(), 304);
    assert!(!answer.decide(&agent(), "/private").allowed());
    assert!(answer.decide(&agent(), "/public").allowed());
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].header("if-none-match"), None);
    assert_eq!(requests[1].header("if-none-match"), Some("\"v1\""));
    // The 304 renewed the freshness.
    clock.advance(Duration::from_secs(30));
    assert_eq!(
        f.lookup(&url).await.unwrap().source(),
        &Source::Cached { unavailable: None }
    );
    assert_eq!(server.hits(), 2);
}

#[tokio::test]
async fn last_modified_is_sent_back_as_if_modified_since() {
    const DATE: &str = "Tue, 01 Apr 2025 10:00:00 GMT";
    let server = Server::start(|req| {
        if req.header("if-modified-since") == Some(DATE) {
            Reply::status(304)
        } else {
            Reply::ok(ROBOTS)
                .header("Last-Modified", DATE)
                .header("Cache-Control", "no-cache")
        }
    })
    .await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let url = server.url("/");
    assert_eq!(f.lookup(&url).await.unwrap().source(), &Source::Fetched);
    // `no-cache`: stale at once, so every lookup revalidates.
    let answer = f.lookup(&url).await.unwrap();
    assert_eq!(answer.source(), &Source::Revalidated);
    assert!(!answer.decide(&agent(), "/private").allowed());
}

#[tokio::test]
async fn a_changed_file_replaces_the_stale_copy() {
    let version = Arc::new(AtomicU16::new(1));
    let v = version.clone();
    let server = Server::start(move |_| {
        let n = v.load(Ordering::SeqCst);
        Reply::ok(format!("User-agent: *\nDisallow: /v{n}\n"))
            .header("ETag", &format!("\"v{n}\""))
            .header("Cache-Control", "max-age=60")
    })
    .await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let url = server.url("/");
    f.lookup(&url).await.unwrap();
    version.store(2, Ordering::SeqCst);
    clock.advance(Duration::from_secs(61));
    let answer = f.lookup(&url).await.unwrap();
    assert_eq!(answer.source(), &Source::Fetched);
    assert!(answer.decide(&agent(), "/v1").allowed());
    assert!(!answer.decide(&agent(), "/v2").allowed());
}

#[tokio::test]
async fn unreachable_with_a_cached_copy_beyond_24_hours_uses_the_copy() {
    let status = Arc::new(AtomicU16::new(200));
    let s = status.clone();
    let server = Server::start(move |_| match s.load(Ordering::SeqCst) {
        200 => Reply::ok(ROBOTS),
        code => Reply::status(code),
    })
    .await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let url = server.url("/");
    let fetched_at = f
        .lookup(&url)
        .await
        .unwrap()
        .freshness()
        .unwrap()
        .fetched_at();
    status.store(503, Ordering::SeqCst);
    clock.advance(25 * HOUR);
    let answer = f.lookup(&url).await.unwrap();
    assert_eq!(
        answer.source(),
        &Source::Unreachable {
            error: Unreachable::Status(503),
            fallback: Fallback::CachedCopy { fetched_at }
        }
    );
    assert!(!answer.decide(&agent(), "/private").allowed());
    assert!(answer.decide(&agent(), "/public").allowed());
    assert_eq!(server.hits(), 2);
    // Back up: once the unreachable answer has stood its minute, the server is asked
    // again, and the new response replaces the copy and ends the outage.
    status.store(200, Ordering::SeqCst);
    clock.advance(2 * MINUTE);
    assert_eq!(f.lookup(&url).await.unwrap().source(), &Source::Fetched);
}

#[tokio::test]
async fn during_an_outage_the_server_is_asked_once_a_minute_not_once_per_lookup() {
    let server = Server::start(|_| Reply::status(503)).await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let url = server.url("/");
    for _ in 0..5 {
        assert_eq!(
            fallback(&f.lookup(&url).await.unwrap()),
            Fallback::DisallowAll
        );
    }
    assert_eq!(server.hits(), 1);
    clock.advance(MINUTE - Duration::from_secs(1));
    f.lookup(&url).await.unwrap();
    assert_eq!(server.hits(), 1);
    clock.advance(Duration::from_secs(2));
    f.lookup(&url).await.unwrap();
    assert_eq!(server.hits(), 2);
    // The retry interval is configurable.
    let eager = Fetcher::new(config(&clock).unreachable_retry(Duration::ZERO)).unwrap();
    eager.lookup(&url).await.unwrap();
    eager.lookup(&url).await.unwrap();
    assert_eq!(server.hits(), 4);
}

/// A server that answers 200 once, then 500 forever.
async fn failing_after_first() -> Server {
    let served = Arc::new(AtomicU16::new(0));
    Server::start(move |_| {
        if served.fetch_add(1, Ordering::SeqCst) == 0 {
            Reply::ok(ROBOTS)
        } else {
            Reply::status(500)
        }
    })
    .await
}

fn fallback(answer: &robots_fetch::Answer) -> Fallback {
    match answer.source() {
        Source::Unreachable { fallback, .. } => *fallback,
        other => panic!("expected unreachable, got {other:?}"),
    }
}

#[tokio::test]
async fn after_30_days_unreachable_the_file_counts_as_unavailable() {
    let server = failing_after_first().await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let url = server.url("/");
    f.lookup(&url).await.unwrap();
    clock.advance(25 * HOUR);
    let start = clock.now();
    let first_failure = f.lookup(&url).await.unwrap();
    assert!(matches!(
        fallback(&first_failure),
        Fallback::CachedCopy { .. }
    ));
    clock.advance(29 * DAY);
    let still = f.lookup(&url).await.unwrap();
    assert!(matches!(fallback(&still), Fallback::CachedCopy { .. }));
    assert!(!still.decide(&agent(), "/private").allowed());
    clock.advance(DAY + HOUR);
    let after = f.lookup(&url).await.unwrap();
    assert_eq!(
        fallback(&after),
        Fallback::AllowAllAfterOutage { since: start }
    );
    assert!(matches!(after.rules(), Rules::AllowAll));
    assert!(after.decide(&agent(), "/private").allowed());
}

#[tokio::test]
async fn after_30_days_unreachable_the_copy_can_be_kept() {
    let server = failing_after_first().await;
    let clock = ManualClock::starting_now();
    let f = Fetcher::new(config(&clock).outage(30 * DAY, AfterOutage::KeepCached)).unwrap();
    let url = server.url("/");
    f.lookup(&url).await.unwrap();
    clock.advance(25 * HOUR);
    f.lookup(&url).await.unwrap();
    clock.advance(31 * DAY);
    let after = f.lookup(&url).await.unwrap();
    assert!(matches!(fallback(&after), Fallback::CachedCopy { .. }));
    assert!(!after.decide(&agent(), "/private").allowed());
}

#[tokio::test]
async fn without_a_copy_an_outage_disallows_all_until_30_days() {
    let server = Server::start(|_| Reply::status(502)).await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let url = server.url("/");
    assert_eq!(
        fallback(&f.lookup(&url).await.unwrap()),
        Fallback::DisallowAll
    );
    clock.advance(10 * DAY);
    assert_eq!(
        fallback(&f.lookup(&url).await.unwrap()),
        Fallback::DisallowAll
    );
    clock.advance(21 * DAY);
    let after = f.lookup(&url).await.unwrap();
    assert!(matches!(
        fallback(&after),
        Fallback::AllowAllAfterOutage { .. }
    ));
    assert!(after.decide(&agent(), "/anything").allowed());
}

#[tokio::test]
async fn unavailable_answers_are_cached_too() {
    let server = Server::start(|_| Reply::status(404)).await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let url = server.url("/");
    f.lookup(&url).await.unwrap();
    clock.advance(HOUR);
    let answer = f.lookup(&url).await.unwrap();
    assert_eq!(
        answer.source(),
        &Source::Cached {
            unavailable: Some(Unavailable::Status(404))
        }
    );
    assert_eq!(server.hits(), 1);
}

#[tokio::test]
async fn one_origin_one_entry_however_the_url_is_spelled() {
    let server = Server::start(|_| Reply::ok(ROBOTS)).await;
    let f = fetcher(&ManualClock::starting_now());
    let port = server.port();
    for url in [
        format!("http://Cache.TEST:{port}/a"),
        format!("HTTP://cache.test:{port}/b?c"),
        format!("http://cache.test:{port}/d#e"),
    ] {
        f.lookup(&url).await.unwrap();
    }
    assert_eq!(server.hits(), 1);
    assert_eq!(f.cache_stats().entries, 1);
    // Another port is another origin.
    f.lookup(&format!("http://localhost:{port}/"))
        .await
        .unwrap();
    assert_eq!(server.hits(), 2);
}

#[tokio::test]
async fn the_cache_is_bounded() {
    let server = Server::start(|_| Reply::ok(ROBOTS)).await;
    let clock = ManualClock::starting_now();
    let limits = CacheLimits {
        max_entries: 3,
        max_bytes: 1 << 20,
    };
    let f = Fetcher::new(config(&clock).cache_limits(limits)).unwrap();
    for n in 0..10 {
        f.lookup(&server.url_at(&format!("h{n}.test"), "/"))
            .await
            .unwrap();
    }
    assert_eq!(f.cache_stats().entries, 3);
    // The oldest were evicted, the newest kept.
    f.lookup(&server.url_at("h9.test", "/")).await.unwrap();
    assert_eq!(server.hits(), 10);
    f.lookup(&server.url_at("h0.test", "/")).await.unwrap();
    assert_eq!(server.hits(), 11);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_concurrent_lookups_share_one_request() {
    // The answer is held back so that all lookups arrive while the first is in flight.
    let server = Server::start_slow(Duration::from_millis(300), |_| Reply::ok(ROBOTS)).await;
    let f = fetcher(&ManualClock::starting_now());
    let mut tasks = Vec::new();
    for n in 0..100 {
        let (f, url) = (f.clone(), server.url(&format!("/page/{n}")));
        tasks.push(tokio::spawn(async move { f.lookup(&url).await.unwrap() }));
    }
    for task in tasks {
        let answer = task.await.unwrap();
        assert!(!answer.decide(&agent(), "/private").allowed());
    }
    assert_eq!(server.hits(), 1);
}

#[tokio::test]
async fn a_cancelled_leader_does_not_strand_its_followers() {
    let server = Server::start_slow(Duration::from_millis(200), |_| Reply::ok(ROBOTS)).await;
    let f = fetcher(&ManualClock::starting_now());
    let url = server.url("/");
    let leader = {
        let (f, url) = (f.clone(), url.clone());
        tokio::spawn(async move { f.lookup(&url).await })
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    let follower = {
        let (f, url) = (f.clone(), url.clone());
        tokio::spawn(async move { f.lookup(&url).await })
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    leader.abort();
    let answer = tokio::time::timeout(Duration::from_secs(5), follower)
        .await
        .expect("the follower finished")
        .unwrap()
        .unwrap();
    assert!(!answer.decide(&agent(), "/private").allowed());
}
