//! One test per row of RFC 9309 §2.3.1's outcome table, against a real HTTP server on
//! 127.0.0.1: 2xx, redirects, 4xx, 5xx and network failures.

use crate::common;

use std::io::Write;
use std::net::Ipv4Addr;
use std::time::Duration;

use common::{config, fetcher, Reply, Server};
use robots::Agent;
use robots_fetch::{
    Fallback, Fetcher, ManualClock, Rules, Source, TooManyRequests, Unavailable, Unreachable,
};

const ROBOTS: &str =
    "User-agent: *\nDisallow: /private\n\nSitemap: http://example.test/sitemap.xml\n";

fn agent() -> Agent {
    Agent::new("TestBot").unwrap()
}

/// A first lookup of the server's robots.txt, on a fresh fetcher.
async fn look_up(server: &Server) -> robots_fetch::Answer {
    fetcher(&ManualClock::starting_now())
        .lookup(&server.url("/"))
        .await
        .unwrap()
}

fn allowed(answer: &robots_fetch::Answer, url: &str) -> bool {
    answer.decide(&agent(), url).allowed()
}

#[tokio::test]
async fn status_200_is_parsed() {
    let server = Server::start(|_| Reply::ok(ROBOTS)).await;
    let clock = ManualClock::starting_now();
    let f = fetcher(&clock);
    let (decision, answer) = f
        .decide(&agent(), &server.url("/private/page"))
        .await
        .unwrap();
    assert_eq!(answer.source(), &Source::Fetched);
    assert!(!decision.allowed());
    assert_eq!(decision.decided_by().unwrap().line, 2);
    assert_eq!(decision.decided_by().unwrap().pattern, "/private");
    assert_eq!(
        decision.decided_by(),
        decision.decided_by(),
        "named as the engine names it"
    );
    assert!(allowed(&answer, "/public"));
    assert_eq!(answer.sitemaps(), ["http://example.test/sitemap.xml"]);
    let hops: Vec<_> = answer.chain().iter().map(|h| h.status()).collect();
    assert_eq!(hops, [200]);
    assert_eq!(answer.body().unwrap().read, ROBOTS.len());
    let request = &server.requests()[0];
    assert_eq!(request.path, "/robots.txt");
    assert_eq!(
        request.header("user-agent"),
        Some("TestBot/1.0 (+http://bot.test/)")
    );
}

#[tokio::test]
async fn status_200_gzip_is_decoded() {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(ROBOTS.as_bytes()).unwrap();
    let body = gz.finish().unwrap();
    let server =
        Server::start(move |_| Reply::ok(body.clone()).header("Content-Encoding", "gzip")).await;
    let answer = look_up(&server).await;
    assert_eq!(answer.source(), &Source::Fetched);
    assert!(!allowed(&answer, "/private"));
    assert_eq!(answer.body().unwrap().read, ROBOTS.len());
    let accept = server.requests()[0]
        .header("accept-encoding")
        .unwrap()
        .to_owned();
    assert!(accept.contains("gzip") && accept.contains("br"), "{accept}");
}

#[tokio::test]
async fn status_200_brotli_is_decoded() {
    let mut body = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut body, 4096, 5, 22);
        w.write_all(ROBOTS.as_bytes()).unwrap();
    }
    let server =
        Server::start(move |_| Reply::ok(body.clone()).header("Content-Encoding", "br")).await;
    let answer = look_up(&server).await;
    assert!(!allowed(&answer, "/private"));
    assert!(allowed(&answer, "/public"));
}

#[tokio::test]
async fn status_200_deflate_is_decoded() {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(ROBOTS.as_bytes()).unwrap();
    let body = z.finish().unwrap();
    let server =
        Server::start(move |_| Reply::ok(body.clone()).header("Content-Encoding", "deflate")).await;
    let answer = look_up(&server).await;
    assert_eq!(answer.source(), &Source::Fetched);
    assert!(!allowed(&answer, "/private"));
}

/// Bytes in a coding that cannot be undone are not the file: read as robots.txt they
/// would hold no rules and allow everything.
#[tokio::test]
async fn status_200_in_a_coding_that_cannot_be_undone_is_unreachable() {
    let server = Server::start(|_| {
        Reply::ok(b"\x1f\x9d\x90User-agent".to_vec()).header("Content-Encoding", "compress")
    })
    .await;
    let answer = look_up(&server).await;
    assert_eq!(
        answer.source(),
        &Source::Unreachable {
            error: Unreachable::Coding("compress".into()),
            fallback: Fallback::DisallowAll
        }
    );
    assert!(!allowed(&answer, "/public"));
    let identity =
        Server::start(|_| Reply::ok(ROBOTS).header("Content-Encoding", "identity")).await;
    assert_eq!(look_up(&identity).await.source(), &Source::Fetched);
}

#[tokio::test]
async fn redirect_301_to_another_host_applies_to_the_original_origin() {
    let b = Server::start(|_| Reply::ok("User-agent: *\nDisallow: /from-b\n")).await;
    let target = b.url_at("b.test", "/robots.txt");
    let a = Server::start(move |_| Reply::redirect(301, &target)).await;
    let f = fetcher(&ManualClock::starting_now());
    let answer = f.lookup(&a.url_at("a.test", "/x")).await.unwrap();
    assert_eq!(answer.source(), &Source::Fetched);
    assert_eq!(answer.origin().host(), "a.test");
    assert_eq!(answer.origin().port(), a.port());
    let chain: Vec<_> = answer
        .chain()
        .iter()
        .map(|h| (h.url().host_str().unwrap().to_owned(), h.status()))
        .collect();
    assert_eq!(chain, [("a.test".into(), 301), ("b.test".into(), 200)]);
    assert!(!allowed(&answer, &a.url_at("a.test", "/from-b")));
    // The rules were cached for a.test, not b.test: b.test is asked on its own.
    f.lookup(&a.url_at("a.test", "/y")).await.unwrap();
    assert_eq!((a.hits(), b.hits()), (1, 1));
    let own = f.lookup(&b.url_at("b.test", "/")).await.unwrap();
    assert_eq!(own.source(), &Source::Fetched);
    assert_eq!(b.hits(), 2);
}

/// `/robots.txt` → `/r1` → … → `/r{n}`, which answers 200.
async fn redirect_chain(n: usize) -> Server {
    Server::start(move |req| {
        let step = match req.path.as_str() {
            "/robots.txt" => 0,
            p => p.trim_start_matches("/r").parse::<usize>().unwrap(),
        };
        if step < n {
            Reply::redirect(302, &format!("/r{}", step + 1))
        } else {
            Reply::ok(ROBOTS)
        }
    })
    .await
}

#[tokio::test]
async fn five_redirects_are_followed() {
    let server = redirect_chain(5).await;
    let answer = look_up(&server).await;
    assert_eq!(answer.source(), &Source::Fetched);
    assert_eq!(answer.chain().len(), 6);
    assert_eq!(answer.chain()[5].url().path(), "/r5");
    assert!(!allowed(&answer, "/private"));
}

#[tokio::test]
async fn six_redirects_are_unavailable() {
    let server = redirect_chain(6).await;
    let answer = look_up(&server).await;
    assert_eq!(
        answer.source(),
        &Source::Unavailable(Unavailable::TooManyRedirects { limit: 5 })
    );
    assert!(matches!(answer.rules(), Rules::AllowAll));
    assert!(allowed(&answer, "/private"));
    // The sixth redirect is not followed.
    assert_eq!(server.hits(), 6);
}

#[tokio::test]
async fn a_redirect_loop_is_unavailable() {
    let server = Server::start(|req| match req.path.as_str() {
        "/robots.txt" => Reply::redirect(301, "/loop"),
        _ => Reply::redirect(301, "/robots.txt"),
    })
    .await;
    let answer = look_up(&server).await;
    assert!(
        matches!(answer.source(), Source::Unavailable(Unavailable::RedirectLoop { url }) if url.path() == "/robots.txt"),
        "{:?}",
        answer.source()
    );
    assert!(allowed(&answer, "/private"));
    assert_eq!(server.hits(), 2);
}

async fn unavailable_status(status: u16) {
    let server = Server::start(move |_| Reply::status(status).body("not here")).await;
    let answer = look_up(&server).await;
    assert_eq!(
        answer.source(),
        &Source::Unavailable(Unavailable::Status(status))
    );
    assert!(matches!(answer.rules(), Rules::AllowAll));
    assert!(allowed(&answer, "/private"));
    assert_eq!(answer.chain()[0].status(), status);
}

#[tokio::test]
async fn status_404_is_unavailable() {
    unavailable_status(404).await;
}

#[tokio::test]
async fn status_410_is_unavailable() {
    unavailable_status(410).await;
}

#[tokio::test]
async fn status_403_is_unavailable() {
    unavailable_status(403).await;
}

#[tokio::test]
async fn status_429_is_unavailable_by_default() {
    unavailable_status(429).await;
}

#[tokio::test]
async fn status_429_can_be_unreachable() {
    let server = Server::start(|_| Reply::status(429)).await;
    let clock = ManualClock::starting_now();
    let f = Fetcher::new(config(&clock).too_many_requests(TooManyRequests::Unreachable)).unwrap();
    let answer = f.lookup(&server.url("/")).await.unwrap();
    assert_eq!(
        answer.source(),
        &Source::Unreachable {
            error: Unreachable::Status(429),
            fallback: Fallback::DisallowAll
        }
    );
    assert!(!allowed(&answer, "/public"));
}

async fn unreachable_status(status: u16) {
    let server = Server::start(move |_| Reply::status(status)).await;
    let answer = look_up(&server).await;
    assert_eq!(
        answer.source(),
        &Source::Unreachable {
            error: Unreachable::Status(status),
            fallback: Fallback::DisallowAll
        }
    );
    assert!(matches!(answer.rules(), Rules::DisallowAll));
    assert!(!allowed(&answer, "/public"));
    assert!(answer.decide(&agent(), "/").decided_by().is_none());
    // Disallow all stops short of the robots.txt itself (RFC 9309 §2.2.2).
    assert!(allowed(&answer, "/robots.txt"));
    assert!(allowed(&answer, &server.url("/robots.txt")));
    assert!(!allowed(&answer, "/robots.txt?x=1"));
}

#[tokio::test]
async fn unreachable_in_the_google_profile_disallows_the_robots_txt_too() {
    // Google's matcher matches `/robots.txt` like any path, so disallow all means all.
    let clock = ManualClock::starting_now();
    let options = robots::Options::new().profile(robots::Profile::Google);
    let fetcher = Fetcher::new(config(&clock).options(options)).unwrap();
    let server = Server::start(|_| Reply::status(503)).await;
    let answer = fetcher.lookup(&server.url("/")).await.unwrap();
    assert!(matches!(answer.rules(), Rules::DisallowAll));
    assert!(!allowed(&answer, "/robots.txt"));
}

#[tokio::test]
async fn status_500_is_unreachable() {
    unreachable_status(500).await;
}

#[tokio::test]
async fn status_503_is_unreachable() {
    unreachable_status(503).await;
}

#[tokio::test]
async fn connection_refused_is_unreachable() {
    // A port that was just free: bind, note it, close.
    let port = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let answer = fetcher(&ManualClock::starting_now())
        .lookup(&format!("http://127.0.0.1:{port}/"))
        .await
        .unwrap();
    assert!(
        matches!(
            answer.source(),
            Source::Unreachable {
                error: Unreachable::Connect(_),
                fallback: Fallback::DisallowAll
            }
        ),
        "{:?}",
        answer.source()
    );
    assert!(answer.chain().is_empty());
    assert!(!allowed(&answer, "/"));
}

#[tokio::test]
async fn dns_failure_is_unreachable() {
    // The test resolver knows only loopback names, and fails at once for others.
    let answer = fetcher(&ManualClock::starting_now())
        .lookup("http://nowhere.invalid/")
        .await
        .unwrap();
    assert!(
        matches!(
            answer.source(),
            Source::Unreachable {
                error: Unreachable::Dns(why),
                fallback: Fallback::DisallowAll
            } if why.contains("nowhere.invalid")
        ),
        "{:?}",
        answer.source()
    );
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let server = Server::start(|_| Reply::Silent).await;
    let clock = ManualClock::starting_now();
    let f = Fetcher::new(config(&clock).timeout(Duration::from_millis(300))).unwrap();
    let answer = f.lookup(&server.url("/")).await.unwrap();
    assert_eq!(
        answer.source(),
        &Source::Unreachable {
            error: Unreachable::Timeout(Duration::from_millis(300)),
            fallback: Fallback::DisallowAll
        }
    );
    assert_eq!(server.hits(), 1);
}

/// The timeout holds for the whole lookup: five redirects that each take most of it do
/// not get a timeout each.
#[tokio::test]
async fn the_timeout_covers_the_redirects_too() {
    let server = Server::start_slow(Duration::from_millis(150), |request| {
        let hop: u32 = request.path.trim_start_matches("/hop").parse().unwrap_or(0);
        Reply::redirect(302, &format!("/hop{}", hop + 1))
    })
    .await;
    let clock = ManualClock::starting_now();
    let f = Fetcher::new(config(&clock).timeout(Duration::from_millis(400))).unwrap();
    let answer = f.lookup(&server.url("/")).await.unwrap();
    assert_eq!(
        answer.source(),
        &Source::Unreachable {
            error: Unreachable::Timeout(Duration::from_millis(400)),
            fallback: Fallback::DisallowAll
        }
    );
    assert!(server.hits() <= 3, "{} requests", server.hits());
}

#[tokio::test]
async fn a_trickling_body_is_read_to_the_end_within_the_timeout() {
    // One line every 30 ms; the rule that matters comes last.
    let server = Server::start(|_| Reply::Trickle {
        chunk: b"User-agent: *\nDisallow: /slow\n".to_vec(),
        count: 8,
        every: Duration::from_millis(30),
    })
    .await;
    let answer = look_up(&server).await;
    assert_eq!(answer.source(), &Source::Fetched);
    assert_eq!(answer.body().unwrap().read, 8 * 30);
    assert!(!allowed(&answer, "/slow"));
}

#[tokio::test]
async fn a_body_trickling_past_the_timeout_is_unreachable() {
    let server = Server::start(|_| Reply::Trickle {
        chunk: b"# still here\n".to_vec(),
        count: 10_000,
        every: Duration::from_millis(50),
    })
    .await;
    let clock = ManualClock::starting_now();
    let f = Fetcher::new(config(&clock).timeout(Duration::from_millis(400))).unwrap();
    let answer = f.lookup(&server.url("/")).await.unwrap();
    assert!(
        matches!(
            answer.source(),
            Source::Unreachable {
                error: Unreachable::Timeout(_),
                ..
            }
        ),
        "{:?}",
        answer.source()
    );
    assert!(!allowed(&answer, "/"));
}

#[tokio::test]
async fn a_non_utf8_body_is_parsed_as_bytes() {
    // Latin-1 `é` (0xE9) in a rule, and a line of invalid UTF-8 before another rule.
    let body = b"User-agent: *\nDisallow: /caf\xe9\n\xff\xfe garbage\nDisallow: /after\n".to_vec();
    let server = Server::start(move |_| Reply::ok(body.clone())).await;
    let answer = look_up(&server).await;
    assert_eq!(answer.source(), &Source::Fetched);
    assert!(!allowed(&answer, "/caf%E9"));
    assert!(!allowed(&answer, "/after"));
    assert!(allowed(&answer, "/cafe"));
}

#[tokio::test]
async fn the_user_agent_header_is_configurable() {
    let server = Server::start(|_| Reply::ok(ROBOTS)).await;
    let f = Fetcher::new(
        robots_fetch::Config::new("OtherBot/2.0")
            .proxy_from_env(false)
            .timeout(Duration::from_secs(3)),
    )
    .unwrap();
    f.lookup(&server.url("/")).await.unwrap();
    assert_eq!(
        server.requests()[0].header("user-agent"),
        Some("OtherBot/2.0")
    );
    for bad in ["Bad\nBot", "", " \t "] {
        assert!(matches!(
            Fetcher::new(robots_fetch::Config::new(bad)),
            Err(robots_fetch::Error::InvalidUserAgent(_))
        ));
    }
}

#[tokio::test]
async fn a_body_cut_short_is_unreachable_not_half_parsed() {
    // Content-Length promises more than is sent: a partial file could miss rules.
    let server = Server::start(|_| {
        Reply::Raw(
            b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\nUser-agent: *\nAllow: /\n"
                .to_vec(),
        )
    })
    .await;
    let answer = look_up(&server).await;
    assert!(
        matches!(
            answer.source(),
            Source::Unreachable {
                error: Unreachable::Protocol(_),
                fallback: Fallback::DisallowAll
            }
        ),
        "{:?}",
        answer.source()
    );
    assert!(!allowed(&answer, "/"));
}

#[tokio::test]
async fn a_redirect_without_a_usable_location_is_unavailable() {
    let server = Server::start(|req| match req.path.as_str() {
        "/robots.txt" => Reply::redirect(302, "/ftp"),
        _ => Reply::redirect(301, "ftp://files.test/robots.txt"),
    })
    .await;
    let answer = look_up(&server).await;
    assert_eq!(
        answer.source(),
        &Source::Unavailable(Unavailable::BadRedirect {
            status: 301,
            location: Some("ftp://files.test/robots.txt".into())
        })
    );
    let bare = Server::start(|_| Reply::status(307)).await;
    let answer = fetcher(&ManualClock::starting_now())
        .lookup(&bare.url("/"))
        .await
        .unwrap();
    assert_eq!(
        answer.source(),
        &Source::Unavailable(Unavailable::BadRedirect {
            status: 307,
            location: None
        })
    );
    assert!(allowed(&answer, "/private"));
}
