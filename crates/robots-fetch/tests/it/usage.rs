//! The `Content-Usage` header of a real response (draft-ietf-aipref-attach-05 §2), parsed,
//! and combined with the origin's robots.txt rules (§3) per category, most restrictive
//! (vocab-07 §5.1): the table in the crate docs, over HTTP on 127.0.0.1.

use crate::common;

use common::{fetcher, Reply, Server};
use robots_fetch::robots::{Category, Preferences, SignalKey, Usage};
use robots_fetch::{content_usage_header, Agent, ManualClock};

const ROBOTS: &str = "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n\
Content-Usage: /s/ search=y\nContent-Signal: ai-train=no\n";

/// Serves the robots.txt and, for each page, the Content-Usage lines its path names.
async fn site() -> Server {
    Server::start(|request| match request.path.as_str() {
        "/robots.txt" => Reply::ok(ROBOTS),
        "/both" => Reply::ok("page")
            .header("Content-Usage", "train-ai=y")
            .header("Content-Usage", "search=y"),
        "/s/bad" => Reply::ok("page").header("Content-Usage", "Search=y"),
        "/private/p" => Reply::ok("page").header("Content-Usage", "train-ai=y"),
        _ => Reply::ok("page"),
    })
    .await
}

/// GETs `url` as a crawler would, and returns its headers.
async fn headers(url: &str) -> robots_fetch::HeaderMap {
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    client.get(url).send().await.unwrap().headers().clone()
}

#[tokio::test]
async fn the_header_is_parsed_and_combined_with_robots_txt() {
    let server = site().await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let bot = Agent::new("ExampleBot").unwrap();

    // Two field lines, joined (RFC 9651 §4.2); robots.txt's `train-ai=n` wins.
    let url = server.url("/both");
    let (_, answer) = f.decide(&bot, &url).await.unwrap();
    let header = content_usage_header(&headers(&url).await);
    assert_eq!(header.to_string(), "train-ai=y, search=y");
    let combined = answer.usage_for_response(&bot, &url, &headers(&url).await);
    assert_eq!(combined.get(Category::TrainAi), Some(Usage::Disallowed));
    assert_eq!(combined.get(Category::Search), Some(Usage::Allowed));

    // A header that fails to parse adds nothing.
    let url = server.url("/s/bad");
    assert!(content_usage_header(&headers(&url).await).is_unknown());
    let combined = answer.usage_for_response(&bot, &url, &headers(&url).await);
    assert_eq!(combined.to_string(), "search=y");

    // A disallowed URL: robots.txt gives nothing (attach-05 §3.1); the header stands.
    let url = server.url("/private/p");
    assert!(answer.content_usage(&bot, &url).is_unknown());
    let combined = answer.usage_for_response(&bot, &url, &headers(&url).await);
    assert_eq!(combined.to_string(), "train-ai=y");

    // No header: robots.txt alone.
    let url = server.url("/plain");
    assert!(content_usage_header(&headers(&url).await).is_unknown());
    assert_eq!(
        answer.usage_for_response(&bot, &url, &headers(&url).await),
        Preferences::parse(b"train-ai=n")
    );
    let signal = answer.content_signal(&bot).unwrap();
    assert_eq!(
        signal.signals().get(SignalKey::AiTrain),
        Some(Usage::Disallowed)
    );
}

#[tokio::test]
async fn without_a_robots_txt_only_the_header_counts() {
    let server = Server::start(|request| match request.path.as_str() {
        "/robots.txt" => Reply::status(404),
        _ => Reply::ok("page").header("Content-Usage", "train-ai=n"),
    })
    .await;
    let clock = ManualClock::starting_now();
    let bot = Agent::new("ExampleBot").unwrap();
    let url = server.url("/a");
    let (_, answer) = fetcher(&clock).decide(&bot, &url).await.unwrap();
    assert!(answer.content_signal(&bot).is_none());
    let combined = answer.usage_for_response(&bot, &url, &headers(&url).await);
    assert_eq!(combined.to_string(), "train-ai=n");
}
