//! RFC 9309 §2.5's parse limit as a read limit: only that much of a body is read, after
//! redirects too, and then reading stops, so memory stays bounded whatever the server sends.

use crate::common;

use common::{fetcher, Reply, Server};
use robots::Agent;
use robots_fetch::{Answer, ManualClock, Source};

const LIMIT: usize = robots::MIN_PARSE_LIMIT;

fn agent() -> Agent {
    Agent::new("TestBot").unwrap()
}

/// The answer for a site whose robots.txt is `body`.
async fn fetched(body: Vec<u8>) -> Answer {
    let server = Server::start(move |_| Reply::ok(body.clone())).await;
    fetcher(&ManualClock::starting_now())
        .lookup(&server.url("/"))
        .await
        .unwrap()
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
    // One byte past the limit: it says whether the limit cuts a line.
    assert_eq!(body.read, LIMIT + 1);
    assert!(body.truncated);
    let robots = answer.rules().robots().unwrap();
    assert_eq!(robots.size(), body.read);
    assert!(robots.parsed_bytes() <= LIMIT);
    assert!(!answer.decide(&agent(), "/early").allowed());
    // `Disallow: /late` lines lie inside the limit too: the filler repeats it.
    assert!(!answer.decide(&agent(), "/late").allowed());
}

#[tokio::test]
async fn rules_past_the_limit_are_not_applied() {
    let mut head = b"User-agent: *\nDisallow: /early\n".to_vec();
    head.resize(LIMIT + 10, b'#');
    head.extend_from_slice(b"\nDisallow: /beyond\n");
    let answer = fetched(head).await;
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
    assert_eq!(answer.body().unwrap().read, LIMIT + 1);
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
    assert_eq!(answer.body().unwrap().read, LIMIT + 1);
    assert!(answer.body().unwrap().truncated);
}

#[tokio::test]
async fn a_larger_parse_limit_reads_more() {
    let clock = ManualClock::starting_now();
    let options = robots::Options::new().max_bytes(2 * LIMIT).unwrap();
    let f = robots_fetch::Fetcher::new(common::config(&clock).options(options)).unwrap();
    let server = Server::start(|_| ten_megabytes()).await;
    let answer = f.lookup(&server.url("/")).await.unwrap();
    assert_eq!(answer.body().unwrap().read, 2 * LIMIT + 1);
}

/// A body of `LIMIT + extra` bytes whose last line, `line`, starts `before_limit` bytes
/// before the limit: rules for `/admin`, comments, then `line`.
fn body_with_line_at_limit(line: &[u8], before_limit: usize) -> Vec<u8> {
    let mut body = b"User-agent: *\nDisallow: /admin\n".to_vec();
    body.resize(LIMIT - before_limit - 1, b'#');
    body.push(b'\n');
    body.extend_from_slice(line);
    body.extend_from_slice(b"\n# after\n");
    body
}

#[tokio::test]
async fn a_rule_the_limit_cuts_in_half_is_dropped_not_read_as_its_first_half() {
    // The limit falls right after `Disallow: /`: read as that, it would block the site.
    let line = b"Disallow: /private-area";
    let body = body_with_line_at_limit(line, "Disallow: /".len());
    assert_eq!(&body[LIMIT - 11..LIMIT], b"Disallow: /");
    let answer = fetched(body).await;
    assert!(answer.body().unwrap().truncated);
    assert!(answer.decide(&agent(), "/public").allowed());
    assert!(answer.decide(&agent(), "/private-area").allowed());
    assert!(!answer.decide(&agent(), "/admin").allowed());
    let robots = answer.rules().robots().unwrap();
    assert_eq!(robots.parsed_bytes(), LIMIT - 11);
    let cut = robots.diagnostics();
    assert_eq!(cut.last().unwrap().code, robots::Code::BeyondParseLimit);
}

#[tokio::test]
async fn a_rule_that_ends_exactly_at_the_limit_is_kept() {
    let line = b"Disallow: /private-area";
    let body = body_with_line_at_limit(line, line.len());
    assert_eq!(body[LIMIT], b'\n');
    let answer = fetched(body).await;
    assert!(answer.body().unwrap().truncated);
    assert!(!answer.decide(&agent(), "/private-area").allowed());
    assert!(answer.decide(&agent(), "/public").allowed());
    assert_eq!(answer.rules().robots().unwrap().parsed_bytes(), LIMIT);
}

#[tokio::test]
async fn a_body_of_exactly_the_limit_is_whole() {
    let mut body = body_with_line_at_limit(b"Disallow: /private-area", 30);
    body.truncate(LIMIT);
    let answer = fetched(body).await;
    assert_eq!(answer.body().unwrap().read, LIMIT);
    assert!(!answer.body().unwrap().truncated);
    assert_eq!(answer.rules().robots().unwrap().parsed_bytes(), LIMIT);
}
