//! Settings at their extremes: a crawler that wants no timeout, no retry or no cap on
//! freshness says so with `Duration::MAX`, and lookups must still answer, not panic.

use crate::common;

use std::time::Duration;

use common::{config, Reply, Server};
use robots::Agent;
use robots_fetch::{Clock, Config, Fetcher, ManualClock, Source, Unreachable};

fn agent() -> Agent {
    Agent::new("TestBot").unwrap()
}

#[tokio::test]
async fn the_longest_timeout_means_no_timeout() {
    let server = Server::start(|_| Reply::ok("User-agent: *\nDisallow: /private\n")).await;
    let clock = ManualClock::starting_now();
    let f = Fetcher::new(config(&clock).timeout(Duration::MAX)).unwrap();
    let (decision, answer) = f.decide(&agent(), &server.url("/private")).await.unwrap();
    assert_eq!(answer.source(), &Source::Fetched);
    assert!(!decision.allowed());
}

#[tokio::test]
async fn the_longest_retry_keeps_an_unreachable_answer() {
    let server = Server::start(|_| Reply::status(503)).await;
    let clock = ManualClock::starting_now();
    let f = Fetcher::new(config(&clock).unreachable_retry(Duration::MAX)).unwrap();
    let url = server.url("/");
    let first = f.lookup(&url).await.unwrap();
    assert!(matches!(
        first.source(),
        Source::Unreachable {
            error: Unreachable::Status(503),
            ..
        }
    ));
    clock.advance(Duration::from_secs(365 * 24 * 3600));
    f.lookup(&url).await.unwrap();
    assert_eq!(server.hits(), 1, "the unreachable answer stands");
}

#[tokio::test]
async fn no_cap_on_freshness_and_the_longest_max_age() {
    let server = Server::start(|_| {
        Reply::ok("User-agent: *\nDisallow: /\n")
            .header("Cache-Control", &format!("max-age={}", u64::MAX))
    })
    .await;
    let clock = ManualClock::starting_now();
    let config: Config = config(&clock).max_freshness(Duration::MAX);
    let f = Fetcher::new(config).unwrap();
    let url = server.url("/");
    let answer = f.lookup(&url).await.unwrap();
    assert_eq!(answer.source(), &Source::Fetched);
    let freshness = answer.freshness().unwrap();
    assert!(freshness.remaining(clock.now()) >= Duration::from_secs(99 * 365 * 24 * 3600));
    clock.advance(Duration::from_secs(10 * 365 * 24 * 3600));
    assert_eq!(
        f.lookup(&url).await.unwrap().source(),
        &Source::Cached { unavailable: None }
    );
    assert_eq!(server.hits(), 1);
}

/// Compile-time: one fetcher serves every task of a crawler, and its answers and
/// decisions move between threads.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Fetcher>();
    send_sync::<robots_fetch::Answer>();
    send_sync::<robots_fetch::Decision>();
    send_sync::<robots_fetch::Pacer>();
    send_sync::<robots_fetch::Error>();
};

/// Setting a crawler up has one error type: the engine's refusal of a name converts with
/// `?` and keeps its message, which says what to give instead.
#[test]
fn an_agent_the_engine_refuses_is_a_fetch_error_with_the_engines_message() {
    fn set_up(name: &str) -> Result<Agent, robots_fetch::Error> {
        Ok(Agent::new(name)?)
    }
    let err = set_up("ExampleBot/1.0").unwrap_err();
    assert!(
        matches!(
            &err,
            robots_fetch::Error::Engine(robots::Error::InvalidAgent { character: '/', .. })
        ),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("use Agent::from_user_agent"),
        "{err}"
    );
    assert_eq!(set_up("ExampleBot").unwrap().token(), "ExampleBot");
}
