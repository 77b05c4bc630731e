//! The polite_crawler example's crawl, run against a small local site: it must never ask
//! for what robots.txt disallows, ask for the robots.txt once, space its requests by the
//! Crawl-delay, seed from the Sitemap, and report embargoes to an agent honouring them.

use crate::common;
#[path = "../../examples/polite_crawler/crawl.rs"]
mod crawl;

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use common::{fetcher, Reply, Request, Server};
use crawl::{Crawler, Visit};
use robots_fetch::{Agent, ManualClock, Pacer};
use tokio::time::Instant;

const DELAY: Duration = Duration::from_millis(250);

/// Line numbers matter: the report names them.
fn robots_txt(host: &str) -> String {
    format!(
        "User-agent: *\n\
         Disallow: /private/\n\
         Allow: /private/open.html\n\
         Disallow: /drafts/\n\
         Embargo-Allow: /drafts/\n\
         Archive-Embargo: w\n\
         Crawl-delay: {}\n\
         Sitemap: http://{host}/sitemap.xml\n",
        DELAY.as_secs_f64()
    )
}

/// A page's Last-Modified, from which its embargo runs.
const DRAFT_MODIFIED: &str = "Sun, 12 Nov 2023 22:13:20 GMT";

fn site(request: &Request) -> Reply {
    let host = request.header("Host").unwrap_or_default();
    let html = |body: &str| {
        Reply::ok(format!("<html><body>{body}</body></html>")).header("Content-Type", "text/html")
    };
    match request.path.as_str() {
        "/robots.txt" => Reply::ok(robots_txt(host)),
        "/sitemap.xml" => Reply::ok(format!(
            "<urlset><url><loc>http://{host}/from-sitemap.html</loc></url>\
             <url><loc> http://{host}/private/in-sitemap.html </loc></url></urlset>"
        )),
        // Links of every kind the extractor must sort out: disallowed, allowed inside a
        // disallowed directory, a repeat with a fragment, another scheme, another site.
        "/" => html(
            r#"<a href="/a.html">A</a> <a href="/private/secret.html">S</a>
               <a href="/private/open.html">O</a> <a href="/drafts/plan.html">D</a>
               <a href="mailto:owner@example.com">M</a> <a href="/a.html#top">A</a>
               <a href="http://elsewhere.test/">E</a>"#,
        ),
        "/a.html" => html(r#"<a href="b.html">B</a> <a href="/">home</a>"#),
        "/b.html" => html(r#"<a href="/private/secret.html">S</a>"#),
        "/from-sitemap.html" => html(r#"<a href="/a.html">A</a>"#),
        "/private/open.html" => html("open"),
        "/drafts/plan.html" => html("plan").header("Last-Modified", DRAFT_MODIFIED),
        _ => Reply::status(404),
    }
}

/// The site, and when each request reached it.
async fn start_site() -> (Server, Arc<Mutex<Vec<(String, Instant)>>>) {
    let times = Arc::new(Mutex::new(Vec::new()));
    let log = times.clone();
    let server = Server::start(move |request| {
        log.lock()
            .unwrap()
            .push((request.path.clone(), Instant::now()));
        site(request)
    })
    .await;
    (server, times)
}

/// Crawls the site from `/`, returning the lines the example prints.
async fn crawl(server: &Server, agent: Agent, max_pages: usize) -> Vec<String> {
    let crawler = Crawler {
        fetcher: fetcher(&ManualClock::starting_now()),
        client: reqwest::Client::builder().no_proxy().build().unwrap(),
        agent,
        pacer: Pacer::new(Duration::from_secs(5)),
        max_pages,
    };
    let mut lines = Vec::new();
    crawler
        .crawl(&server.url("/"), |visit: &Visit| {
            lines.push(visit.to_string())
        })
        .await
        .unwrap();
    lines
}

fn paths(server: &Server) -> Vec<String> {
    server.requests().into_iter().map(|r| r.path).collect()
}

#[tokio::test]
async fn a_crawler_asks_before_every_request_and_keeps_the_crawl_delay() {
    let (server, times) = start_site().await;
    let lines = crawl(&server, Agent::new("ExampleBot").unwrap(), 100).await;

    let u = |path: &str| server.url(path);
    // Breadth-first: the start URL, then the sitemap's URLs, then the links of each
    // page in turn; each URL once, the fragment dropped, other schemes and sites left.
    assert_eq!(
        lines,
        [
            format!("fetched    {}  (200)", u("/sitemap.xml")),
            format!("fetched    {}  (200)", u("/")),
            format!("fetched    {}  (200)", u("/from-sitemap.html")),
            format!(
                "skipped    {}  (disallowed, line 2: Disallow: /private/)",
                u("/private/in-sitemap.html")
            ),
            format!("fetched    {}  (200)", u("/a.html")),
            format!(
                "skipped    {}  (disallowed, line 2: Disallow: /private/)",
                u("/private/secret.html")
            ),
            format!("fetched    {}  (200)", u("/private/open.html")),
            format!(
                "skipped    {}  (disallowed, line 4: Disallow: /drafts/)",
                u("/drafts/plan.html")
            ),
            format!("fetched    {}  (200)", u("/b.html")),
        ]
    );

    let asked = paths(&server);
    for never in [
        "/private/secret.html",
        "/private/in-sitemap.html",
        "/drafts/plan.html",
    ] {
        assert!(
            !asked.iter().any(|p| p == never),
            "{never} was requested: {asked:?}"
        );
    }
    assert_eq!(
        asked.iter().filter(|p| *p == "/robots.txt").count(),
        1,
        "{asked:?}"
    );
    assert_eq!(
        asked.len(),
        7,
        "robots.txt, the sitemap and 5 pages, each once: {asked:?}"
    );

    // Requests to the site are at least a Crawl-delay apart, the first after the
    // robots.txt included. The server notes arrivals, not departures, so a little less
    // is tolerated; without the pacer they come a millisecond apart.
    let times = times.lock().unwrap();
    assert_eq!(times[0].0, "/robots.txt");
    for pair in times.windows(2) {
        let gap = pair[1].1 - pair[0].1;
        assert!(
            gap >= DELAY - Duration::from_millis(50),
            "{} came {gap:?} after {}",
            pair[1].0,
            pair[0].0
        );
    }
}

#[tokio::test]
async fn an_agent_honouring_archive_embargo_is_let_in_and_told_when_it_may_publish() {
    let (server, _) = start_site().await;
    let before = SystemTime::now();
    let archiver = Agent::new("ExampleArchiver").unwrap().honouring_embargo();
    let lines = crawl(&server, archiver, 100).await;

    // Embargo-Allow lets it into /drafts/; the week runs from the page's Last-Modified.
    let draft = format!(
        "embargoed  {}  (200) until Sun, 19 Nov 2023 22:13:20 GMT",
        server.url("/drafts/plan.html")
    );
    assert!(lines.contains(&draft), "{lines:#?}");
    assert_eq!(
        paths(&server)
            .iter()
            .filter(|p| *p == "/drafts/plan.html")
            .count(),
        1
    );
    // Everything it fetches comes under the group's embargo; a page without
    // Last-Modified is held a week from when it was fetched.
    let home = lines
        .iter()
        .find_map(|l| l.strip_prefix(&format!("embargoed  {}  (200) until ", server.url("/"))))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    let until = httpdate::parse_http_date(home).unwrap();
    assert!(until >= before + Duration::from_secs(7 * 86_400) - Duration::from_secs(1));
    assert!(
        lines.iter().all(|l| !l.starts_with("fetched")),
        "{lines:#?}"
    );
    // Embargo-Allow is for /drafts/ only: /private/ stays closed.
    assert!(!paths(&server)
        .iter()
        .any(|p| p.starts_with("/private/secret")));
}

#[tokio::test]
async fn the_crawl_stops_after_its_number_of_pages() {
    let (server, _) = start_site().await;
    let lines = crawl(&server, Agent::new("ExampleBot").unwrap(), 2).await;
    let fetched: Vec<&String> = lines.iter().filter(|l| l.starts_with("fetched")).collect();
    // The sitemap is not a page: two pages after it.
    assert_eq!(fetched.len(), 3, "{lines:#?}");
    assert_eq!(
        paths(&server),
        ["/robots.txt", "/sitemap.xml", "/", "/from-sitemap.html"]
    );
}
