//! An agent that honours Archive-Embargo and the profile the fetcher reads with: the RFC
//! 9309 profile gives it the embargo, the Google profile (Googlebot's reading, which
//! knows no embargo) refuses it rather than answering without one (docs/design.md).

use crate::common;

use std::time::Duration;

use common::{config, Reply, Server};
// The engine's types through robots-fetch's re-exports, as a crawler depending on
// robots-fetch alone names them.
use robots_fetch::{Agent, Clock, EmbargoPeriod, Error, Fetcher, ManualClock, Options, Profile};

const FILE: &str = "User-agent: *\nArchive-Embargo: m\nEmbargo-Allow: /news/\nDisallow: /\n";

fn archiver() -> Agent {
    Agent::new("ExampleArchiver").unwrap().honouring_embargo()
}

fn fetcher(clock: &ManualClock, profile: Profile) -> Fetcher {
    Fetcher::new(config(clock).options(Options::new().profile(profile))).unwrap()
}

#[tokio::test]
async fn the_google_profile_refuses_an_agent_honouring_embargoes_before_any_request() {
    let server = Server::start(|_| Reply::ok(FILE)).await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock, Profile::Google);
    let err = f
        .decide(&archiver(), &server.url("/news/today"))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::EmbargoWithGoogleProfile { agent } if agent == "ExampleArchiver"),
        "{err:?}"
    );
    let message = err.to_string();
    assert!(
        message.contains("the Google profile knows no Archive-Embargo"),
        "{message}"
    );
    assert!(message.contains("use Profile::Rfc9309"), "{message}");
    assert_eq!(server.hits(), 0, "refused before asking the server");
}

#[tokio::test]
async fn the_google_profile_answers_an_agent_that_does_not_honour_embargoes() {
    let server = Server::start(|_| Reply::ok(FILE)).await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock, Profile::Google);
    let crawler = Agent::verbatim("ExampleArchiver");
    let (decision, _) = f
        .decide(&crawler, &server.url("/news/today"))
        .await
        .unwrap();
    // The embargo lines are unknown records there: `Disallow: /` decides.
    assert!(!decision.allowed());
    assert_eq!(decision.decided_by().unwrap().line, 4);
    assert_eq!(decision.embargo(), None);
}

#[tokio::test]
async fn the_rfc9309_profile_gives_an_agent_honouring_embargoes_its_embargo_and_end() {
    let server = Server::start(|_| Reply::ok(FILE)).await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock, Profile::Rfc9309);
    let (decision, _) = f
        .decide(&archiver(), &server.url("/news/today"))
        .await
        .unwrap();
    assert!(decision.allowed());
    let embargo = decision.embargo().unwrap();
    assert_eq!(embargo.period(), EmbargoPeriod::Month);
    let captured = clock.now();
    assert_eq!(
        embargo.end(None, captured, captured),
        captured + Duration::from_secs(31 * 86_400)
    );
}
