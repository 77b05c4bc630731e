//! `/cdx` through the server on 127.0.0.1: pywb's `matchType`, `from`, `to`, `limit` and
//! `output` select what pywb would, and any parameter or value it does not support is
//! refused with 400 naming it rather than ignored.

use crate::common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use common::*;
use robots_archive::Server;

/// Serves an archive of captures across two years, several hosts of one domain, another
/// port, and a host whose name merely starts like the domain's.
fn serve() -> (tempfile::TempDir, SocketAddr) {
    let dir = tempfile::tempdir().unwrap();
    let page = |url: &str, at: &str| capture(url, at, 200, b"p");
    let archive = archive_with(
        dir.path(),
        &[
            capture(
                "http://site.test/robots.txt",
                "2020-01-01T00:00:00Z",
                200,
                ROBOTS,
            ),
            page("http://site.test/a", "2020-06-01T00:00:00Z"),
            page("http://site.test/a", "2021-06-01T00:00:00Z"),
            page("http://www.site.test/b", "2020-06-01T00:00:00Z"),
            page("https://news.site.test/c", "2020-06-01T00:00:00Z"),
            page("http://site.test:8080/d", "2020-06-01T00:00:00Z"),
            page("http://sitex.test/e", "2020-06-01T00:00:00Z"),
        ],
    );
    let server = Server::bind(
        archive,
        "127.0.0.1:0".parse().unwrap(),
        Some(t("2022-01-01T00:00:00Z")),
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());
    (dir, addr)
}

/// The status and body of `GET target`.
fn get(addr: SocketAddr, target: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

/// The URLs a successful text listing names, in order.
fn urls(addr: SocketAddr, query: &str) -> Vec<String> {
    let (status, body) = get(addr, &format!("/cdx?{query}"));
    assert_eq!(status, 200, "{query}: {body}");
    body.lines()
        .map(|l| l.split(' ').nth(2).unwrap().to_owned())
        .collect()
}

#[test]
fn from_and_to_bound_the_capture_time_by_timestamp_prefix() {
    let (_dir, addr) = serve();
    assert_eq!(urls(addr, "url=site.test/a").len(), 2);
    let times = |query: &str| {
        let (status, body) = get(addr, &format!("/cdx?url=site.test/a&{query}"));
        assert_eq!(status, 200, "{query}: {body}");
        body.lines()
            .map(|l| l.split(' ').nth(1).unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(times("from=2021"), ["20210601000000"]);
    assert_eq!(times("to=2020"), ["20200601000000"]);
    assert_eq!(times("from=202006&to=20200601"), ["20200601000000"]);
    assert_eq!(times("to=20200531235959"), Vec::<String>::new());
    assert_eq!(times("from=20210601000000&to=20210601000000").len(), 1);
    // With a prefix query and a limit, the bounds apply before the limit.
    assert_eq!(
        urls(addr, "url=site.test/*&from=2021&limit=1"),
        ["http://site.test/a"]
    );
}

#[test]
fn host_and_domain_match_by_surt_key() {
    let (_dir, addr) = serve();
    assert_eq!(
        urls(addr, "url=site.test&matchType=host"),
        [
            "http://site.test/a",
            "http://site.test/a",
            "http://www.site.test/b",
            "http://site.test/robots.txt",
        ]
    );
    // Any URL of the host will do.
    assert_eq!(
        urls(addr, "url=http://site.test/whatever&matchType=host").len(),
        4
    );
    let domain = urls(addr, "url=site.test&matchType=domain");
    assert_eq!(domain.len(), 6, "{domain:?}");
    assert!(domain.contains(&"https://news.site.test/c".to_owned()));
    assert!(domain.contains(&"http://site.test:8080/d".to_owned()));
    assert!(!domain.iter().any(|u| u.contains("sitex")));
    assert_eq!(urls(addr, "url=*.site.test"), domain);
    assert_eq!(urls(addr, "url=*.site.test&matchType=domain"), domain);
    assert_eq!(
        urls(addr, "url=news.site.test&matchType=domain"),
        ["https://news.site.test/c"]
    );
    let (status, body) = get(
        addr,
        "/cdx?url=site.test&matchType=host&output=json&limit=2",
    );
    assert_eq!(status, 200);
    assert_eq!(body.lines().count(), 2);
    let first: serde_json::Value = serde_json::from_str(body.lines().next().unwrap()).unwrap();
    assert_eq!(first["urlkey"], "test,site)/a");
}

#[test]
fn unsupported_parameters_and_values_are_refused_by_name() {
    let (_dir, addr) = serve();
    for (query, named) in [
        ("url=site.test/*&filter=status:404", "`filter`"),
        ("url=site.test/a&fl=timestamp", "`fl`"),
        ("url=site.test/a&collapse=digest", "`collapse`"),
        ("url=site.test/a&closest=2020", "`closest`"),
        ("url=site.test/a&matchType=bogus", "`matchType=bogus`"),
        ("url=site.test/a&from=last-year", "`from=last-year`"),
        ("url=site.test/a&output=cdxj", "`output=cdxj`"),
        ("url=site.test/a&limit=many", "`limit=many`"),
        ("url=site.test/a&limit=1&limit=2", "`limit`"),
        ("url=site.test/*&matchType=host", "matchType=prefix"),
    ] {
        let (status, body) = get(addr, &format!("/cdx?{query}"));
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body.contains(named), "{query}: {body}");
    }
}
