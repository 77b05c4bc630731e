//! RFC 9309 §2.5's parse limit as a read limit: only that much of a body is read, after
//! redirects too, and then reading stops, so memory stays bounded whatever the server sends.

mod common;

use common::{fetcher, Reply, Server};
use robots::Agent;
use robots_fetch::{ManualClock, Source};

const LIMIT: usize = robots::MIN_PARSE_LIMIT;

fn agent() -> Agent {
    Agent::new("TestBot").unwrap()
}

/// 10 MB: the rules, then comments, then a rule far past the limit.
fn ten_megabytes() -> Reply {
    Reply::Big {
        head: b"User-agent: *\nDisallow: /early\n".to_vec(),
        filler: b"# padding padding padding padding padding padding padding\nDisallow: /late\n"
            .to_vec(),
        len: Some(10_000_000),
    }
}

#[tokio::test]
async fn a_10_mb_body_is_read_only_up_to_the_limit() {
    let server = Server::start(|_| ten_megabytes()).await;
    let answer = fetcher(&ManualClock::starting_now())
        .lookup(&server.url("/"))
        .await
        .unwrap();
    assert_eq!(answer.source(), &Source::Fetched);
    let body = answer.body().unwrap();
    assert_eq!(body.read, LIMIT);
    assert!(body.truncated);
    let robots = answer.rules().robots().unwrap();
    assert!(robots.size() <= LIMIT);
    assert!(!answer.decide(&agent(), "/early").allowed());
    // `Disallow: /late` lines lie inside the limit too: the filler repeats it.
    assert!(!answer.decide(&agent(), "/late").allowed());
}

#[tokio::test]
async fn rules_past_the_limit_are_not_applied() {
    let mut head = b"User-agent: *\nDisallow: /early\n".to_vec();
    head.resize(LIMIT + 10, b'#');
    head.extend_from_slice(b"\nDisallow: /beyond\n");
    let server = Server::start(move |_| Reply::ok(head.clone())).await;
    let answer = fetcher(&ManualClock::starting_now())
        .lookup(&server.url("/"))
        .await
        .unwrap();
    assert!(answer.body().unwrap().truncated);
    assert!(!answer.decide(&agent(), "/early").allowed());
    assert!(answer.decide(&agent(), "/beyond").allowed());
}

#[tokio::test]
async fn an_endless_body_stops_being_read_at_the_limit() {
    // The server would write forever; the lookup ends only because the client stops
    // reading and closes the connection.
    let server = Server::start(|_| Reply::Big {
        head: b"User-agent: *\nDisallow: /x\n".to_vec(),
        filler: b"# more\n".to_vec(),
        len: None,
    })
    .await;
    let answer = fetcher(&ManualClock::starting_now())
        .lookup(&server.url("/"))
        .await
        .unwrap();
    assert_eq!(answer.body().unwrap().read, LIMIT);
    assert!(!answer.decide(&agent(), "/x").allowed());
    // Reading stopped: the server's writes start failing, so it stops growing.
    let written = server.written();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let later = server.written();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        server.written(),
        later,
        "the server is still being read ({written} → {later})"
    );
}

#[tokio::test]
async fn the_limit_applies_after_a_redirect_too() {
    let server = Server::start(|req| match req.path.as_str() {
        "/robots.txt" => Reply::redirect(301, "/elsewhere/robots.txt"),
        _ => ten_megabytes(),
    })
    .await;
    let answer = fetcher(&ManualClock::starting_now())
        .lookup(&server.url("/"))
        .await
        .unwrap();
    assert_eq!(answer.chain().len(), 2);
    assert_eq!(answer.body().unwrap().read, LIMIT);
    assert!(answer.body().unwrap().truncated);
}

#[tokio::test]
async fn a_larger_parse_limit_reads_more() {
    let clock = ManualClock::starting_now();
    let options = robots::Options::new().max_bytes(2 * LIMIT).unwrap();
    let f = robots_fetch::Fetcher::new(common::config(&clock).options(options)).unwrap();
    let server = Server::start(|_| ten_megabytes()).await;
    let answer = f.lookup(&server.url("/")).await.unwrap();
    assert_eq!(answer.body().unwrap().read, 2 * LIMIT);
}
