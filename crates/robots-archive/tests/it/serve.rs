//! Single-item access and CDX through `respond`: status codes, tombstone contents,
//! replay headers, nearest capture, errors; and replay through the server, on the wire.

use crate::common;

use common::*;
use robots_archive::{Archive, Request, Server};

fn get(archive: &Archive, target: &str, accept: &str, at: &str) -> robots_archive::Response {
    let req = Request {
        target: target.to_owned(),
        accept: Some(accept.to_owned()),
    };
    archive.respond(&req, t(at))
}

fn fixture(dir: &std::path::Path) -> Archive {
    archive_with(
        dir,
        &[
            site_robots(),
            capture(
                &format!("{SITE}/news/a"),
                "2026-01-02T00:00:00Z",
                200,
                b"FIRST-A",
            )
            .header("Set-Something", "kept")
            .header("Transfer-Encoding", "identity"),
            capture(
                &format!("{SITE}/news/a"),
                "2026-01-20T00:00:00Z",
                200,
                b"SECOND-A",
            ),
            capture(
                &format!("{SITE}/private/x"),
                "2026-01-02T00:00:00Z",
                200,
                b"PRIVATE-X",
            ),
            capture(
                "http://other.test/page",
                "2026-01-02T00:00:00Z",
                200,
                b"NO-ROBOTS",
            ),
        ],
    )
}

#[test]
fn withheld_records_answer_451_or_403_with_a_tombstone() {
    let dir = tempfile::tempdir().unwrap();
    let archive = fixture(dir.path());
    let r = get(
        &archive,
        &format!("/web/20260102000000/{SITE}/news/a"),
        "application/json",
        "2026-01-10T00:00:00Z",
    );
    assert_eq!(r.status, 451);
    assert_eq!(
        r.header("X-Embargo-Until"),
        Some("2026-02-02T00:00:00Z".as_bytes())
    );
    assert_eq!(
        r.header("Content-Type"),
        Some("application/json".as_bytes())
    );
    // docs/design.md, archive: a tombstone holds the URL, capture time, response headers,
    // payload digest and release date, and no body.
    assert!(!String::from_utf8_lossy(&r.body).contains("FIRST-A"));
    let json: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(json["url"], format!("{SITE}/news/a"));
    assert_eq!(json["captured"], "2026-01-02T00:00:00Z");
    assert_eq!(json["status"], 200);
    assert_eq!(json["embargo_until"], "2026-02-02T00:00:00Z");
    assert_eq!(json["first_observed"], "2026-01-02T00:00:00Z");
    assert!(json["headers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h[0] == "Set-Something"));
    assert!(json["payload_digest"]
        .as_str()
        .unwrap()
        .starts_with("sha1:"));
    let r = get(
        &archive,
        &format!("/web/20260102/{SITE}/private/x"),
        "text/html",
        "2030-01-01T00:00:00Z",
    );
    assert_eq!(r.status, 403);
    assert_eq!(r.header("X-Archive-Access"), Some("disallowed".as_bytes()));
    let page = String::from_utf8(r.body).unwrap();
    assert!(page.contains("disallowed") && !page.contains("PRIVATE-X"));
    let r = get(
        &archive,
        "/web/2026/http://other.test/page",
        "text/html",
        "2030-01-01T00:00:00Z",
    );
    assert_eq!(r.status, 403);
    assert_eq!(r.header("X-Archive-Access"), Some("no-robots".as_bytes()));
    assert!(!String::from_utf8_lossy(&r.body).contains("NO-ROBOTS"));
}

#[test]
fn released_records_replay_the_nearest_capture() {
    let dir = tempfile::tempdir().unwrap();
    let archive = fixture(dir.path());
    let at = "2026-03-01T00:00:00Z";
    let r = get(
        &archive,
        &format!("/web/20260103000000/{SITE}/news/a"),
        "text/html",
        at,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.body, b"FIRST-A");
    assert_eq!(
        r.header("X-Archive-Orig-Set-Something"),
        Some("kept".as_bytes())
    );
    assert_eq!(
        r.header("Transfer-Encoding"),
        None,
        "hop-by-hop headers are not replayed"
    );
    assert_eq!(
        r.header("Memento-Datetime"),
        Some("Fri, 02 Jan 2026 00:00:00 GMT".as_bytes())
    );
    let r = get(
        &archive,
        &format!("/web/20260119000000id_/{SITE}/news/a"),
        "text/html",
        at,
    );
    assert_eq!(r.body, b"SECOND-A");
    // The second capture is new content: its month runs from its own capture, so it
    // stays withheld after the first is replayed, until 2026-02-20.
    let at = |target: &str, when: &str| get(&archive, target, "text/html", when);
    let second = format!("/web/20260119000000/{SITE}/news/a");
    let first = format!("/web/20260103000000/{SITE}/news/a");
    assert_eq!(at(&first, "2026-02-10T00:00:00Z").status, 200);
    let r = at(&second, "2026-02-10T00:00:00Z");
    assert_eq!(r.status, 451);
    assert_eq!(
        r.header("X-Embargo-Until"),
        Some("2026-02-20T00:00:00Z".as_bytes())
    );
    assert!(!String::from_utf8_lossy(&r.body).contains("SECOND-A"));
    assert_eq!(at(&second, "2026-02-20T00:00:00Z").body, b"SECOND-A");
    // Without a timestamp, as on the Wayback Machine: the latest capture.
    for latest in [
        format!("/web/{SITE}/news/a"),
        "/web/HTTP://Site.Test/news/a".to_owned(),
    ] {
        let r = at(&latest, "2026-03-01T00:00:00Z");
        assert_eq!((r.status, &r.body[..]), (200, &b"SECOND-A"[..]), "{latest}");
        assert_eq!(
            r.header("Memento-Datetime"),
            Some("Tue, 20 Jan 2026 00:00:00 GMT".as_bytes())
        );
    }
    assert_eq!(
        at(&format!("/web/{SITE}/news/a"), "2026-02-10T00:00:00Z").status,
        451
    );
    assert_eq!(
        at("/web/http://site.test/missing", "2026-03-01T00:00:00Z").status,
        404
    );
}

#[test]
fn a_capture_is_found_however_its_url_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive_with(
        dir.path(),
        &[
            site_robots(),
            capture(
                &format!("{SITE}/news/café x"),
                "2026-01-02T00:00:00Z",
                200,
                b"CAFE",
            ),
        ],
    );
    let at = "2026-04-01T00:00:00Z";
    for written in [
        "http://site.test/news/café x",
        "http://site.test/news/caf%C3%A9%20x",
        "http://SITE.test:80/news/caf%c3%a9%20x",
        "http://www.site.test/news/café%20x",
    ] {
        let r = get(&archive, &format!("/web/2026/{written}"), "text/html", at);
        assert_eq!((r.status, &r.body[..]), (200, &b"CAFE"[..]), "{written}");
        let r = get(&archive, &format!("/cdx?url={written}"), "*/*", at);
        let text = String::from_utf8(r.body).unwrap();
        let fields: Vec<_> = text.trim_end().split(' ').collect();
        assert_eq!(fields.len(), 11, "{written}: {text}");
        assert_eq!(fields[2], "http://site.test/news/caf%C3%A9%20x");
    }
}

#[test]
fn redirects_replay_into_the_archive_and_interim_responses_do_not_replay() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive_with(
        dir.path(),
        &[
            site_robots(),
            capture(
                &format!("{SITE}/news/old"),
                "2026-01-02T00:00:00Z",
                301,
                b"",
            )
            .header("Location", "/news/new"),
            capture(&format!("{SITE}/news/ws"), "2026-01-02T00:00:00Z", 101, b""),
        ],
    );
    let at = "2026-04-01T00:00:00Z";
    let r = get(
        &archive,
        &format!("/web/2026/{SITE}/news/old"),
        "text/html",
        at,
    );
    assert_eq!(r.status, 301);
    assert_eq!(
        r.header("Location"),
        Some("/web/20260102000000/http://site.test/news/new".as_bytes())
    );
    let r = get(
        &archive,
        &format!("/web/2026/{SITE}/news/ws"),
        "text/html",
        at,
    );
    assert_eq!(r.status, 502);
    assert!(String::from_utf8_lossy(&r.body).contains("cannot be replayed"));
}

#[test]
fn cdx_lists_captures_with_access_and_never_bodies() {
    let dir = tempfile::tempdir().unwrap();
    let archive = fixture(dir.path());
    let r = get(
        &archive,
        &format!("/cdx?url={SITE}/news/a&output=json"),
        "*/*",
        "2026-01-10T00:00:00Z",
    );
    assert_eq!(r.status, 200);
    let lines: Vec<serde_json::Value> = String::from_utf8(r.body)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["urlkey"], "test,site)/news/a");
    assert_eq!(lines[0]["timestamp"], "20260102000000");
    assert_eq!(lines[0]["status"], "200");
    assert_eq!(lines[0]["mime"], "text/html");
    assert_eq!(lines[0]["access"], "embargoed");
    assert_eq!(lines[0]["embargo_until"], "2026-02-02T00:00:00Z");
    // The second capture's body is new, so its month starts with it.
    assert_eq!(lines[1]["embargo_until"], "2026-02-20T00:00:00Z");
    assert!(lines[0]["filename"].as_str().unwrap().ends_with(".warc.gz"));
    // Prefix queries and text lines.
    let r = get(
        &archive,
        &format!("/cdx?url={SITE}/*"),
        "*/*",
        "2026-03-01T00:00:00Z",
    );
    let text = String::from_utf8(r.body).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(text
        .lines()
        .any(|l| l.ends_with(" - disallowed") && l.contains("/private/x")));
    assert!(text
        .lines()
        .any(|l| l.ends_with(" released") && l.contains("/news/a")));
    assert_eq!(
        get(&archive, "/cdx", "*/*", "2026-03-01T00:00:00Z").status,
        400
    );
}

#[test]
fn bad_requests_get_clear_answers() {
    let dir = tempfile::tempdir().unwrap();
    let archive = fixture(dir.path());
    let at = "2026-03-01T00:00:00Z";
    assert_eq!(
        get(
            &archive,
            "/web/xyz/http://site.test/news/a",
            "text/html",
            at
        )
        .status,
        400
    );
    assert_eq!(get(&archive, "/web/2026", "text/html", at).status, 400);
    // No URL after the timestamp is a request to fix, not a URL `http://` not found.
    let r = get(&archive, "/web/2026/", "text/html", at);
    assert_eq!(r.status, 400);
    assert!(String::from_utf8_lossy(&r.body).contains("/web/&lt;timestamp&gt;/&lt;url&gt;"));
    let r = get(
        &archive,
        "/web/2026/http://site.test/missing",
        "application/json",
        at,
    );
    assert_eq!(r.status, 404);
    assert!(String::from_utf8_lossy(&r.body).contains("not in this archive"));
    assert_eq!(get(&archive, "/elsewhere", "text/html", at).status, 404);
    assert_eq!(get(&archive, "/", "text/html", at).status, 200);
}

#[test]
fn replay_sends_header_octets_as_captured_not_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let when = "2026-01-02T00:00:00Z";
    let archive = archive_with(
        dir.path(),
        &[
            site_robots(),
            capture(&format!("{SITE}/news/doc"), when, 200, b"PDF")
                .header(
                    "Content-Disposition",
                    b"attachment; filename=\"caf\xE9.pdf\"",
                )
                .header("Set-Cookie", b"name=Jos\xE9; Path=/"),
            capture(&format!("{SITE}/news/moved"), when, 302, b"")
                .header("Location", b"/news/caf\xE9"),
        ],
    );
    let server = Server::bind(
        archive,
        "127.0.0.1:0".parse().unwrap(),
        Some(t("2026-04-01T00:00:00Z")),
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());

    let head = head_on_the_wire(addr, &format!("/web/2026/{SITE}/news/doc"));
    assert!(head.starts_with(b"HTTP/1.1 200 "), "{head:?}");
    assert_eq!(
        field(&head, "Content-Disposition"),
        Some(&b"attachment; filename=\"caf\xE9.pdf\""[..])
    );
    assert_eq!(
        field(&head, "X-Archive-Orig-Set-Cookie"),
        Some(&b"name=Jos\xE9; Path=/"[..])
    );
    // A Latin-1 redirect target stays in the archive, naming the octet it was sent.
    let head = head_on_the_wire(addr, &format!("/web/2026/{SITE}/news/moved"));
    assert!(head.starts_with(b"HTTP/1.1 302 "), "{head:?}");
    assert_eq!(
        field(&head, "Location"),
        Some(&b"/web/20260102000000/http://site.test/news/caf%E9"[..])
    );
}

#[test]
fn a_header_that_cannot_be_sent_is_dropped_and_the_capture_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let when = "2026-01-02T00:00:00Z";
    let archive = archive_with(
        dir.path(),
        &[
            site_robots(),
            capture(&format!("{SITE}/news/bell"), when, 404, b"BELL-BODY")
                .header("X-Bell", b"ring\x07ring")
                .header("X-Escape", b"\x1b[2J")
                .header("X-Kept", "kept"),
            // A URL with a control octet, named in the Link to the original.
            capture(&format!("{SITE}/news/a\x01b"), when, 200, b"CTL-URL"),
        ],
    );
    let at = "2026-04-01T00:00:00Z";
    let r = get(
        &archive,
        &format!("/web/2026/{SITE}/news/bell"),
        "text/html",
        at,
    );
    assert_eq!(r.status, 404);
    assert_eq!(
        (
            r.header("X-Archive-Orig-X-Bell"),
            r.header("X-Archive-Orig-X-Escape")
        ),
        (None, None)
    );
    assert_eq!(r.header("X-Archive-Orig-X-Kept"), Some(&b"kept"[..]));
    let server = Server::bind(archive, "127.0.0.1:0".parse().unwrap(), Some(t(at))).unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());

    let (head, body) = answer_on_the_wire(addr, &format!("/web/2026/{SITE}/news/bell"));
    assert!(head.starts_with(b"HTTP/1.1 404 "), "{head:?}");
    assert_eq!(body, b"BELL-BODY");
    assert_eq!(field(&head, "X-Archive-Orig-X-Kept"), Some(&b"kept"[..]));
    assert_eq!(field(&head, "X-Archive-Orig-X-Bell"), None);
    assert_eq!(field(&head, "X-Archive-Orig-X-Escape"), None);
    assert_eq!(field(&head, "Content-Type"), Some(&b"text/html"[..]));

    let (head, body) = answer_on_the_wire(addr, &format!("/web/2026/{SITE}/news/a%01b"));
    assert!(head.starts_with(b"HTTP/1.1 200 "), "{head:?}");
    assert_eq!(body, b"CTL-URL");
    assert_eq!(
        field(&head, "Link"),
        Some(&b"<http://site.test/news/a%01b>; rel=\"original\""[..])
    );
}

/// A replayed capture must not act on the archive's own origin: the fields that could
/// (cookies, HSTS, Clear-Site-Data, a policy of its own, a service worker's scope) go
/// out under pywb's `X-Archive-Orig-` prefix, and the replay carries the archive's
/// sandbox policy, so captured scripts run in an opaque origin.
#[test]
fn replayed_captures_cannot_act_as_the_archive() {
    let dir = tempfile::tempdir().unwrap();
    let acting = [
        ("Set-Cookie", "session=captured; Domain=127.0.0.1; Path=/"),
        (
            "Strict-Transport-Security",
            "max-age=31536000; includeSubDomains",
        ),
        ("Clear-Site-Data", "\"cookies\", \"storage\""),
        ("Content-Security-Policy", "script-src *"),
        ("Service-Worker-Allowed", "/"),
        ("Refresh", "0; url=http://elsewhere.test/"),
    ];
    let mut page = capture(
        &format!("{SITE}/news/app"),
        "2026-01-02T00:00:00Z",
        200,
        b"<script>document.cookie='x=1'</script>",
    )
    .header("Content-Type", "text/html")
    .header("Content-Language", "en");
    for (name, value) in acting {
        page = page.header(name, value);
    }
    let archive = archive_with(dir.path(), &[site_robots(), page]);
    let server = Server::bind(
        archive,
        "127.0.0.1:0".parse().unwrap(),
        Some(t("2026-04-01T00:00:00Z")),
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());

    let (head, body) = answer_on_the_wire(addr, &format!("/web/2026/{SITE}/news/app"));
    assert!(head.starts_with(b"HTTP/1.1 200 "), "{head:?}");
    assert!(contains(&body, b"<script>"));
    for (name, value) in acting {
        let prefixed = format!("X-Archive-Orig-{name}");
        assert_eq!(field(&head, &prefixed), Some(value.as_bytes()), "{name}");
    }
    for name in [
        "Set-Cookie",
        "Strict-Transport-Security",
        "Clear-Site-Data",
        "Service-Worker-Allowed",
        "Refresh",
    ] {
        assert_eq!(field(&head, name), None, "{name} went out live");
    }
    // The policy is the archive's, not the capture's.
    let policy = field(&head, "Content-Security-Policy").unwrap();
    assert!(policy.starts_with(b"sandbox"), "{policy:?}");
    assert!(!contains(policy, b"allow-same-origin"), "{policy:?}");
    assert_eq!(
        field(&head, "X-Content-Type-Options"),
        Some(&b"nosniff"[..])
    );
    // What describes the payload still goes out as captured.
    assert_eq!(field(&head, "Content-Type"), Some(&b"text/html"[..]));
    assert_eq!(field(&head, "Content-Language"), Some(&b"en"[..]));
}

/// The CDX listing in text is never sniffed as another type.
#[test]
fn the_cdx_listing_is_not_sniffed() {
    let dir = tempfile::tempdir().unwrap();
    let archive = fixture(dir.path());
    let r = get(
        &archive,
        &format!("/cdx?url={SITE}/news/a"),
        "text/html",
        "2026-04-01T00:00:00Z",
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("Content-Type"),
        Some(&b"text/plain; charset=utf-8"[..])
    );
    assert_eq!(r.header("X-Content-Type-Options"), Some(&b"nosniff"[..]));
}
