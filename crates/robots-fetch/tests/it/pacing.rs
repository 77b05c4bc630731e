//! Crawl-delay read from a fetched robots.txt drives the pacer, capped by its maximum.

use crate::common;

use std::time::Duration;

use common::{fetcher, Reply, Server};
use robots::Agent;
use robots_fetch::{ManualClock, Pacer};

#[tokio::test]
async fn the_groups_crawl_delay_spaces_requests_up_to_the_cap() {
    let server = Server::start(|_| {
        Reply::ok(
            "User-agent: SlowBot\nCrawl-delay: 3\nDisallow: /slow\n\nUser-agent: *\nDisallow:\n",
        )
    })
    .await;
    let answer = fetcher(&ManualClock::starting_now())
        .lookup(&server.url("/"))
        .await
        .unwrap();
    let slow = Agent::new("SlowBot").unwrap();
    let other = Agent::new("OtherBot").unwrap();
    assert_eq!(answer.crawl_delay(&slow), Some(Duration::from_secs(3)));
    assert_eq!(answer.crawl_delay(&other), None);

    let pacer = Pacer::new(Duration::from_secs(60));
    let origin = answer.origin();
    assert_eq!(
        pacer.reserve(origin, answer.crawl_delay(&slow)),
        Duration::ZERO
    );
    let second = pacer.reserve(origin, answer.crawl_delay(&slow));
    assert!(second > Duration::from_millis(2900) && second <= Duration::from_secs(3));

    let capped = Pacer::new(Duration::from_secs(1));
    capped.reserve(origin, answer.crawl_delay(&slow));
    assert!(capped.reserve(origin, answer.crawl_delay(&slow)) <= Duration::from_secs(1));

    // No Crawl-delay for this agent: no spacing, and `pace` returns at once.
    let free = Pacer::new(Duration::from_secs(60));
    free.pace(&answer, &other).await;
    free.pace(&answer, &other).await;
    assert_eq!(
        free.reserve(origin, answer.crawl_delay(&other)),
        Duration::ZERO
    );
}
