//! Ingest: governing robots.txt, verdicts, embargo ends, first observations, re-ingest,
//! and clear errors on damaged files.

use crate::common;

use common::*;
use robots_archive::{Archive, CaptureVerdict, Error, Request, Timestamp, WarcProblem};

fn only(archive: &Archive, url: &str) -> robots_archive::Entry {
    let mut v = archive.captures_of(url).unwrap();
    assert_eq!(v.len(), 1, "{url}");
    v.remove(0)
}

fn end(archive: &Archive, url: &str) -> Option<Timestamp> {
    only(archive, url).embargo_until
}

#[test]
fn embargo_end_follows_last_modified_and_first_observation() {
    let dir = tempfile::tempdir().unwrap();
    let robots = format!("{SITE}/robots.txt");
    let archive = archive_with(
        dir.path(),
        &[
            capture(&format!("{SITE}/news/a"), "2026-01-02T00:00:00Z", 200, b"a")
                .header("Last-Modified", "Thu, 25 Dec 2025 00:00:00 GMT"),
            capture(&robots, "2026-01-01T00:00:00Z", 200, ROBOTS),
            capture(&format!("{SITE}/news/b"), "2026-01-02T00:00:00Z", 200, b"b")
                .header("Last-Modified", "Fri, 01 Jan 2027 00:00:00 GMT"),
            capture(&format!("{SITE}/news/c"), "2026-01-02T00:00:00Z", 200, b"c"),
            capture(
                &format!("{SITE}/private/x"),
                "2026-01-02T00:00:00Z",
                200,
                b"x",
            ),
        ],
    );
    // Last-Modified before the first observation: the embargo runs from it.
    assert_eq!(
        end(&archive, &format!("{SITE}/news/a")),
        Some(t("2026-01-25T00:00:00Z"))
    );
    // Later than the capture: meaningless, so the first observation counts.
    assert_eq!(
        end(&archive, &format!("{SITE}/news/b")),
        Some(t("2026-02-02T00:00:00Z"))
    );
    // Absent: the first observation.
    assert_eq!(
        end(&archive, &format!("{SITE}/news/c")),
        Some(t("2026-02-02T00:00:00Z"))
    );
    let a = only(&archive, &format!("{SITE}/news/a"));
    assert_eq!(a.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(a.embargo_days, Some(31));
    assert_eq!(a.first_observed, Some(t("2026-01-02T00:00:00Z")));
    assert_eq!(
        a.last_modified.as_deref(),
        Some("Thu, 25 Dec 2025 00:00:00 GMT")
    );
    let robots_row = only(&archive, &robots).id;
    assert_eq!(a.robots_record, Some(robots_row));
    let x = only(&archive, &format!("{SITE}/private/x"));
    assert_eq!(x.verdict, Some(CaptureVerdict::Disallowed));
    assert_eq!(x.embargo_until, None);
    assert_eq!(x.robots_record, Some(robots_row));
}

#[test]
fn last_modified_between_first_observation_and_capture_does_not_delay() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("{SITE}/news/c");
    let mut archive = archive_with(
        dir.path(),
        &[
            site_robots(),
            capture(&url, "2026-01-02T00:00:00Z", 200, b"c1"),
        ],
    );
    let later = write_warc(
        &dir.path().join("later.warc.gz"),
        &[capture(&url, "2026-03-01T00:00:00Z", 200, b"c1")
            .header("Last-Modified", "Sun, 15 Feb 2026 00:00:00 GMT")],
        2,
    );
    archive.ingest(&later, &mut |_| {}).unwrap();
    let captures = archive.captures_of(&url).unwrap();
    assert_eq!(captures.len(), 2);
    for c in captures {
        assert_eq!(
            c.embargo_until,
            Some(t("2026-02-02T00:00:00Z")),
            "{}",
            c.captured
        );
    }
}

#[test]
fn an_earlier_observation_moves_the_end_of_every_capture() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("{SITE}/news/d");
    let mut archive = archive_with(
        dir.path(),
        &[
            site_robots(),
            capture(&url, "2026-03-01T00:00:00Z", 200, b"d2"),
        ],
    );
    assert_eq!(end(&archive, &url), Some(t("2026-04-01T00:00:00Z")));
    let earlier = write_warc(
        &dir.path().join("earlier.warc.gz"),
        &[capture(&url, "2026-02-01T00:00:00Z", 200, b"d2")],
        2,
    );
    archive.ingest(&earlier, &mut |_| {}).unwrap();
    let ends: Vec<_> = archive
        .captures_of(&url)
        .unwrap()
        .iter()
        .map(|c| c.embargo_until)
        .collect();
    assert_eq!(ends, [Some(t("2026-03-04T00:00:00Z")); 2]);
    let firsts: Vec<_> = archive
        .captures_of(&url)
        .unwrap()
        .iter()
        .map(|c| c.first_observed)
        .collect();
    assert_eq!(firsts, [Some(t("2026-02-01T00:00:00Z")); 2]);
}

#[test]
fn new_content_at_a_known_url_starts_its_own_embargo() {
    let dir = tempfile::tempdir().unwrap();
    let page = format!("{SITE}/news/front");
    let scoop = format!("{SITE}/news/scoop");
    let archive = archive_with(
        dir.path(),
        &[
            site_robots(),
            capture(&page, "2026-01-01T00:00:00Z", 200, b"january"),
            capture(&page, "2026-06-01T00:00:00Z", 200, b"june")
                .header("Last-Modified", "Mon, 01 Jun 2026 00:00:00 GMT"),
            capture(&page, "2026-06-08T00:00:00Z", 200, b"january"),
            // A URL first seen as a 404, then holding an article.
            capture(&scoop, "2026-01-01T00:00:00Z", 404, b"not yet"),
            capture(&scoop, "2026-06-01T00:00:10Z", 200, b"SCOOP"),
        ],
    );
    let ends = |url: &str| -> Vec<_> {
        let captures = archive.captures_of(url).unwrap();
        captures
            .iter()
            .map(|c| (c.first_observed, c.embargo_until))
            .collect()
    };
    assert_eq!(
        ends(&page),
        [
            (
                Some(t("2026-01-01T00:00:00Z")),
                Some(t("2026-02-01T00:00:00Z"))
            ),
            (
                Some(t("2026-06-01T00:00:00Z")),
                Some(t("2026-07-02T00:00:00Z"))
            ),
            // The January content seen again: its month ran long ago.
            (
                Some(t("2026-01-01T00:00:00Z")),
                Some(t("2026-02-01T00:00:00Z"))
            ),
        ]
    );
    assert_eq!(
        ends(&scoop)[1],
        (
            Some(t("2026-06-01T00:00:10Z")),
            Some(t("2026-07-02T00:00:10Z"))
        )
    );
}

#[test]
fn an_index_from_an_older_version_is_upgraded_when_opened() {
    let dir = tempfile::tempdir().unwrap();
    let page = format!("{SITE}/news/café");
    let archive = archive_with(
        dir.path(),
        &[
            site_robots(),
            capture(&page, "2026-01-01T00:00:00Z", 200, b"january"),
            capture(&page, "2026-06-01T00:00:00Z", 200, b"june"),
        ],
    );
    drop(archive);
    // What an older version left: no layout named, the URL's first observation in its
    // own table, every capture of the URL ending a month after it, and keys with the
    // octets they now percent-encode left raw.
    let path = dir.path().join("archive").join(robots_archive::INDEX_FILE);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(&format!(
        "DELETE FROM meta WHERE key = 'layout';
         CREATE TABLE first_seen (url TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID;
         INSERT INTO first_seen VALUES ('{page}', {jan});
         UPDATE records SET embargo_until = {feb}, urlkey = 'test,site)/news/café'
             WHERE url = '{page}';",
        jan = t("2026-01-01T00:00:00Z").unix(),
        feb = t("2026-02-01T00:00:00Z").unix(),
    ))
    .unwrap();
    drop(conn);
    let archive = Archive::open(&dir.path().join("archive")).unwrap();
    let ends: Vec<_> = archive
        .captures_of(&page)
        .unwrap()
        .iter()
        .map(|c| c.embargo_until)
        .collect();
    assert_eq!(
        ends,
        [
            Some(t("2026-02-01T00:00:00Z")),
            Some(t("2026-07-02T00:00:00Z"))
        ]
    );
    let conn = rusqlite::Connection::open(&path).unwrap();
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name = 'first_seen'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 0);
}

/// The payload the digest tests capture, and its digests as tools spell them.
const SAME: &[u8] = b"SAME";
const SAME_SHA1_BASE32: &str = "sha1:MS2AJIA6TY2OOTDVBGZ2W2W74Y7HTUY4";
const SAME_SHA1_HEX: &str = "sha1:64b404a01e9e34e74c7509b3ab6adfe63e79d31c";
const SAME_SHA256_HEX: &str =
    "sha256:d1ed0d26ea9bd962c0f13e5ffe5bfea928bb8c9ca808dbcaa565e02a3ae1e1db";

#[test]
fn content_is_one_however_its_digest_is_spelt() {
    let dir = tempfile::tempdir().unwrap();
    let pages = ["a", "b", "c"].map(|p| format!("{SITE}/news/{p}"));
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    // wget, warcio and Heritrix write SHA-1 in base32.
    let mut first = vec![site_robots()];
    first.extend(pages.iter().map(|p| {
        capture(p, "2026-01-02T00:00:00Z", 200, SAME).warc("WARC-Payload-Digest", SAME_SHA1_BASE32)
    }));
    let first = write_warc(&dir.path().join("first.warc.gz"), &first, 1);
    assert_eq!(
        archive
            .ingest(&first, &mut |_| {})
            .unwrap()
            .digest_mismatches,
        0
    );
    // Browsertrix and warcprox write SHA-256 in hex, some tools SHA-1 in hex; and one
    // record declares a digest its payload does not have.
    let later = [
        SAME_SHA256_HEX,
        SAME_SHA1_HEX,
        "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ];
    let later: Vec<_> = pages
        .iter()
        .zip(later)
        .map(|(p, d)| capture(p, "2026-06-01T00:00:00Z", 200, SAME).warc("WARC-Payload-Digest", d))
        .collect();
    let later = write_warc(&dir.path().join("later.warc.gz"), &later, 2);
    let report = archive.ingest(&later, &mut |_| {}).unwrap();
    assert_eq!((report.responses, report.digest_mismatches), (3, 1));
    for page in &pages {
        let captures = archive.captures_of(page).unwrap();
        assert_eq!(captures.len(), 2);
        for c in &captures {
            // The digest the archive computed, whatever was declared.
            assert_eq!(c.digest.as_ref().unwrap().as_header(), SAME_SHA1_BASE32);
            // Content first observed in January: its month ran out in February.
            assert_eq!(c.first_observed, Some(t("2026-01-02T00:00:00Z")), "{page}");
            assert_eq!(c.embargo_until, Some(t("2026-02-02T00:00:00Z")), "{page}");
        }
    }
}

#[test]
fn an_index_that_kept_declared_digests_and_skipped_revisits_is_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    let page = format!("{SITE}/news/a");
    let mut archive = archive_with(
        dir.path(),
        &[
            site_robots(),
            capture(&page, "2026-01-02T00:00:00Z", 200, SAME)
                .warc("WARC-Payload-Digest", SAME_SHA256_HEX),
        ],
    );
    let revisit = capture(&page, "2026-07-01T00:00:00Z", 200, SAME)
        .warc("WARC-Payload-Digest", SAME_SHA256_HEX)
        .warc("WARC-Refers-To", record_id(1, 1));
    let later = write_records(
        &dir.path().join("later.warc.gz"),
        &[
            Item::Response(
                capture(&page, "2026-06-01T00:00:00Z", 200, SAME)
                    .warc("WARC-Payload-Digest", SAME_SHA1_HEX),
            ),
            Item::Revisit(revisit, IDENTICAL, true),
        ],
        2,
    );
    archive.ingest(&later, &mut |_| {}).unwrap();
    drop(archive);
    // What layout 2 left: each digest as its record spelt it, so the June capture
    // counted as new content and ran its own month; no revisit indexed.
    let path = dir.path().join("archive").join(robots_archive::INDEX_FILE);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(&format!(
        "UPDATE meta SET value = '2' WHERE key = 'layout';
         CREATE TEMP TABLE skipped AS SELECT record FROM revisits;
         DROP TABLE revisits;
         DROP TABLE declared_digests;
         DELETE FROM records WHERE id IN (SELECT record FROM skipped);
         UPDATE records SET digest = '{SAME_SHA256_HEX}'
             WHERE url = '{page}' AND captured = {jan};
         UPDATE records SET digest = '{SAME_SHA1_HEX}', embargo_until = {jul}
             WHERE url = '{page}' AND captured = {jun};",
        jan = t("2026-01-02T00:00:00Z").unix(),
        jun = t("2026-06-01T00:00:00Z").unix(),
        jul = t("2026-07-02T00:00:00Z").unix(),
    ))
    .unwrap();
    drop(conn);
    let archive = Archive::open(&dir.path().join("archive")).unwrap();
    let captures = archive.captures_of(&page).unwrap();
    let seen: Vec<_> = captures
        .iter()
        .map(|c| {
            (
                c.captured,
                c.digest.as_ref().unwrap().as_header().to_owned(),
                c.revisit.and_then(|r| r.original),
                c.embargo_until,
            )
        })
        .collect();
    let feb = Some(t("2026-02-02T00:00:00Z"));
    let digest = SAME_SHA1_BASE32.to_owned();
    assert_eq!(
        seen,
        [
            (t("2026-01-02T00:00:00Z"), digest.clone(), None, feb),
            (t("2026-06-01T00:00:00Z"), digest.clone(), None, feb),
            (t("2026-07-01T00:00:00Z"), digest, Some(captures[0].id), feb),
        ]
    );
    let layout: String = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("SELECT value FROM meta WHERE key = 'layout'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(layout, "5");
}

#[test]
fn gzipped_robots_txt_is_read_and_an_unreadable_one_governs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, ROBOTS).unwrap();
    let gzipped = gz.finish().unwrap();
    let captures = [
        capture(
            "http://gz.test/robots.txt",
            "2026-01-01T00:00:00Z",
            200,
            &gzipped,
        )
        .header("Content-Encoding", "gzip"),
        capture("http://gz.test/news/a", "2026-01-02T00:00:00Z", 200, b"a"),
        capture(
            "http://gz.test/private/x",
            "2026-01-02T00:00:00Z",
            200,
            b"x",
        ),
        capture(
            "http://br.test/robots.txt",
            "2026-01-01T00:00:00Z",
            200,
            b"\x1b\x03",
        )
        .header("Content-Encoding", "br"),
        capture("http://br.test/news/a", "2026-01-02T00:00:00Z", 200, b"b"),
        // An error status needs no body, so its coding does not matter.
        capture(
            "http://e.test/robots.txt",
            "2026-01-01T00:00:00Z",
            404,
            b"\x1b\x03",
        )
        .header("Content-Encoding", "br"),
        capture("http://e.test/page", "2026-01-02T00:00:00Z", 200, b"e"),
    ];
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), &captures, 1);
    let report = archive.ingest(&warc, &mut |_| {}).unwrap();
    assert_eq!((report.robots_txt, report.unreadable_robots_txt), (3, 1));
    assert_eq!(
        end(&archive, "http://gz.test/news/a"),
        Some(t("2026-02-02T00:00:00Z"))
    );
    let private = only(&archive, "http://gz.test/private/x");
    assert_eq!(private.verdict, Some(CaptureVerdict::Disallowed));
    let held = only(&archive, "http://br.test/news/a");
    assert_eq!(held.verdict, Some(CaptureVerdict::NoRobots));
    assert_eq!(held.robots_record, None);
    let open = only(&archive, "http://e.test/page");
    assert_eq!(open.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(open.embargo_until, Some(t("2026-01-02T00:00:00Z")));
}

#[test]
fn responses_without_a_valid_warc_date_are_counted_not_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_plain_warc(
        &dir.path().join("p.warc"),
        &[
            capture(&format!("{SITE}/a"), "2026-01-01T00:00:00Z", 200, b"a"),
            capture(&format!("{SITE}/b"), "2026-01-03T00:00:00Z", 200, b"b"),
        ],
        1,
    );
    let text = std::fs::read(&warc).unwrap();
    let text = String::from_utf8(text).unwrap();
    // A time without a zone is not W3C-DTF: the instant it names is unknown.
    std::fs::write(
        &warc,
        text.replace("2026-01-03T00:00:00Z", "2026-01-03T00:00"),
    )
    .unwrap();
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    let report = archive.ingest(&warc, &mut |_| {}).unwrap();
    assert_eq!(
        (report.responses, report.undated, report.skipped),
        (1, 1, 0)
    );
    assert!(archive
        .captures_of(&format!("{SITE}/b"))
        .unwrap()
        .is_empty());
}

#[test]
fn warc_dates_of_every_w3c_dtf_granularity_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let page = |p: &str, at: &str| capture(&format!("{SITE}{p}"), at, 200, p.as_bytes());
    let warc = write_plain_warc(
        &dir.path().join("p.warc"),
        &[
            site_robots(),
            page("/news/minute", "2026-01-02T00:00:00Z"),
            page("/news/nanos", "2026-01-03T00:00:00Z"),
            page("/news/day", "2026-01-04T00:00:00Z"),
        ],
        1,
    );
    let text = String::from_utf8(std::fs::read(&warc).unwrap()).unwrap();
    let text = text
        .replace("2026-01-02T00:00:00Z", "2026-01-02T00:00Z")
        .replace("2026-01-03T00:00:00Z", "2026-01-03T00:00:00.123456789Z")
        .replace("2026-01-04T00:00:00Z", "2026-01-04");
    std::fs::write(&warc, text).unwrap();
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    let report = archive.ingest(&warc, &mut |_| {}).unwrap();
    assert_eq!((report.responses, report.undated), (4, 0));
    for (path, captured) in [
        ("/news/minute", "2026-01-02T00:00:00Z"),
        ("/news/nanos", "2026-01-03T00:00:00Z"),
        ("/news/day", "2026-01-04T00:00:00Z"),
    ] {
        let entry = only(&archive, &format!("{SITE}{path}"));
        assert_eq!(entry.captured, t(captured), "{path}");
        assert_eq!(entry.verdict, Some(CaptureVerdict::Allowed), "{path}");
        // Replay finds the record the index points at by its WARC-Date.
        let due = entry.embargo_until.unwrap();
        let stamp = entry.captured.fourteen_digits();
        let req = robots_archive::Request {
            target: format!("/web/{stamp}/{SITE}{path}"),
            accept: None,
        };
        let replayed = archive.respond(&req, due);
        assert_eq!(replayed.status, 200, "{path}");
        assert_eq!(replayed.body, path.as_bytes());
    }
}

#[test]
fn robots_txt_is_found_before_or_within_a_day_after() {
    let dir = tempfile::tempdir().unwrap();
    let page = |p: &str, at: &str| capture(&format!("{SITE}{p}"), at, 200, b"p");
    let mut archive = archive_with(
        dir.path(),
        &[
            // wget fetches the start page first, then robots.txt.
            page("/news/first", "2026-01-01T00:00:00Z"),
            capture(
                &format!("{SITE}/robots.txt"),
                "2026-01-01T00:00:10Z",
                200,
                ROBOTS,
            ),
            // Too long before the next robots.txt, after none: unknown.
            page("/news/early", "2025-12-30T00:00:00Z"),
            capture("http://other.test/page", "2026-01-01T00:00:00Z", 200, b"o"),
            capture(
                "http://gone.test/robots.txt",
                "2026-01-01T00:00:00Z",
                404,
                b"nope",
            ),
            capture("http://gone.test/page", "2026-01-01T00:00:05Z", 200, b"g"),
            capture(
                "http://down.test/robots.txt",
                "2026-01-01T00:00:00Z",
                503,
                b"",
            ),
            capture("http://down.test/page", "2026-01-01T00:00:05Z", 200, b"d"),
            capture(
                "http://moved.test/robots.txt",
                "2026-01-01T00:00:00Z",
                301,
                b"",
            ),
            capture("http://moved.test/page", "2026-01-01T00:00:05Z", 200, b"m"),
        ],
    );
    let first = only(&archive, &format!("{SITE}/news/first"));
    assert_eq!(first.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(first.embargo_until, Some(t("2026-02-01T00:00:00Z")));
    let early = format!("{SITE}/news/early");
    assert_eq!(
        only(&archive, &early).verdict,
        Some(CaptureVerdict::NoRobots)
    );
    let other = only(&archive, "http://other.test/page");
    assert_eq!(
        (other.verdict, other.embargo_until),
        (Some(CaptureVerdict::NoRobots), None)
    );
    // 4xx: no rules, released at once.
    let gone = only(&archive, "http://gone.test/page");
    assert_eq!(gone.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(gone.embargo_until, Some(gone.captured));
    // 5xx: complete disallow.
    let down = only(&archive, "http://down.test/page");
    assert_eq!(down.verdict, Some(CaptureVerdict::Disallowed));
    // 3xx without a Location: unavailable, as a crawler takes it (RFC 9309 §2.3.1.2).
    let moved = only(&archive, "http://moved.test/page");
    assert_eq!(
        (moved.verdict, moved.embargo_until),
        (Some(CaptureVerdict::Allowed), Some(moved.captured))
    );

    // A robots.txt ingested later assesses the unknown capture again.
    let more = write_warc(
        &dir.path().join("more.warc.gz"),
        &[capture(
            &format!("{SITE}/robots.txt"),
            "2025-12-29T23:00:00Z",
            200,
            b"User-agent: *\nDisallow: /news\n",
        )],
        2,
    );
    archive.ingest(&more, &mut |_| {}).unwrap();
    assert_eq!(
        only(&archive, &early).verdict,
        Some(CaptureVerdict::Disallowed)
    );
    // The latest robots.txt at or before a capture now exists for /news/first too, and
    // wins over the one fetched just after it.
    let first_again = only(&archive, &format!("{SITE}/news/first"));
    assert_eq!(first_again.verdict, Some(CaptureVerdict::Disallowed));
    assert_ne!(first_again.robots_record, first.robots_record);
}

#[test]
fn a_capture_reusing_another_captures_record_id_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("{SITE}/news/a");
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    let first = [
        capture(&url, "2026-01-01T00:00:00Z", 200, b"a"),
        site_robots(),
    ];
    let warc = write_warc(&dir.path().join("a.warc.gz"), &first, 1);
    archive.ingest(&warc, &mut |_| {}).unwrap();
    // The same salt gives the same record IDs to other captures.
    let other = format!("{SITE}/news/b");
    let second = [capture(&other, "2026-01-01T00:00:00Z", 200, b"b")];
    let warc = write_warc(&dir.path().join("b.warc.gz"), &second, 1);
    let report = archive.ingest(&warc, &mut |_| {}).unwrap();
    assert_eq!(
        (report.responses, report.conflicting_ids, report.duplicates),
        (1, 1, 0)
    );
    let kept = only(&archive, &other);
    assert_eq!(kept.warc_record_id, None);
    // It is served from the store like any other capture.
    let request = robots_archive::Request {
        target: format!("/web/2026/{other}"),
        accept: None,
    };
    let r = archive.respond(&request, t("2026-06-01T00:00:00Z"));
    assert_eq!((r.status, &r.body[..]), (200, &b"b"[..]));
    assert!(only(&archive, &url).warc_record_id.is_some());
}

#[test]
fn reingesting_a_file_is_a_noop_and_plain_warcs_work() {
    let dir = tempfile::tempdir().unwrap();
    let captures = [
        site_robots(),
        capture(&format!("{SITE}/news/a"), "2026-01-01T00:00:01Z", 200, b"a"),
    ];
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    let plain = write_plain_warc(&dir.path().join("c.warc"), &captures, 1);
    let first = archive.ingest(&plain, &mut |_| {}).unwrap();
    assert_eq!(
        (first.responses, first.robots_txt, first.already_ingested),
        (2, 1, false)
    );
    let again = archive.ingest(&plain, &mut |_| {}).unwrap();
    assert!(again.already_ingested);
    // The same records gzipped are another file, but not new records.
    let gz = write_warc(&dir.path().join("c.warc.gz"), &captures, 1);
    let copy = archive.ingest(&gz, &mut |_| {}).unwrap();
    assert!(!copy.already_ingested);
    assert_eq!((copy.responses, copy.duplicates), (0, 2));
    assert_eq!(
        archive
            .captures_of(&format!("{SITE}/news/a"))
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        archive.status(t("2026-01-01T00:00:00Z")).unwrap().records,
        2
    );
    // The store holds one sealed, read-only copy of each file.
    let stored = std::fs::read_dir(dir.path().join("archive/store"))
        .unwrap()
        .count();
    assert_eq!(stored, 2);
    let path = dir.path().join("archive/store").join(&first.stored_as);
    assert!(std::fs::metadata(path).unwrap().permissions().readonly());
    // Another agent cannot use this archive.
    assert!(matches!(
        Archive::create(&dir.path().join("archive"), "OtherBot"),
        Err(Error::AgentMismatch { .. })
    ));
}

fn ingest_error(bytes: &[u8]) -> Error {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.warc.gz");
    std::fs::write(&path, bytes).unwrap();
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    archive.ingest(&path, &mut |_| {}).unwrap_err()
}

fn problem(e: Error) -> WarcProblem {
    match e {
        Error::Warc { problem, .. } => problem,
        other => panic!("expected a WARC problem, got {other}"),
    }
}

#[test]
fn the_captures_before_damage_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let captures = [
        site_robots(),
        capture(&format!("{SITE}/news/a"), "2026-01-02T00:00:00Z", 200, b"a"),
        capture(&format!("{SITE}/news/b"), "2026-01-02T00:00:00Z", 200, b"b"),
    ];
    let whole = std::fs::read(write_warc(&dir.path().join("w.warc.gz"), &captures, 1)).unwrap();
    let cut = dir.path().join("cut.warc.gz");
    std::fs::write(&cut, &whole[..whole.len() - 10]).unwrap();
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    let e = archive.ingest(&cut, &mut |_| {}).unwrap_err();
    // The file named is the one given, not its sealed copy in the store.
    assert!(
        matches!(&e, Error::Warc { path, .. } if *path == cut),
        "{e}"
    );
    assert_eq!(problem(e), WarcProblem::Truncated);
    assert_eq!(
        end(&archive, &format!("{SITE}/news/a")),
        Some(t("2026-02-02T00:00:00Z"))
    );
    assert!(archive
        .captures_of(&format!("{SITE}/news/b"))
        .unwrap()
        .is_empty());
    // The damage is reported again, not taken for a file already ingested.
    let again = archive.ingest(&cut, &mut |_| {}).unwrap_err();
    assert_eq!(problem(again), WarcProblem::Truncated);
    // The sealed copy stays: captures are indexed from it.
    assert_eq!(stored_files(&dir.path().join("archive")).len(), 1);
    let request = Request {
        target: format!("/web/2026/{SITE}/news/a"),
        accept: None,
    };
    let r = archive.respond(&request, t("2026-03-01T00:00:00Z"));
    assert_eq!((r.status, &r.body[..]), (200, &b"a"[..]));
}

/// The names in the archive's store folder, temporary files included.
fn stored_files(archive_dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(archive_dir.join("store"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_failed_ingest_that_indexed_nothing_leaves_the_store_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let archive_dir = dir.path().join("archive");
    let mut archive = Archive::create(&archive_dir, AGENT).unwrap();
    let good = write_warc(&dir.path().join("good.warc.gz"), &[site_robots()], 1);
    archive.ingest(&good, &mut |_| {}).unwrap();
    let before = stored_files(&archive_dir);
    // Not a WARC file; and a WARC file whose only capture is damaged.
    let html = dir.path().join("page.warc");
    std::fs::write(&html, b"<html>not a warc</html>").unwrap();
    let whole = std::fs::read(write_warc(
        &dir.path().join("w.warc.gz"),
        &[capture(
            &format!("{SITE}/news/a"),
            "2026-01-02T00:00:00Z",
            200,
            b"a",
        )],
        2,
    ))
    .unwrap();
    let cut = dir.path().join("cut.warc.gz");
    std::fs::write(&cut, &whole[..whole.len() - 10]).unwrap();
    for (bad, damage) in [(&html, "NotAWarcRecord"), (&cut, "Truncated")] {
        for _ in 0..2 {
            // Failing again the same way: not taken for a file already ingested.
            let e = problem(archive.ingest(bad, &mut |_| {}).unwrap_err());
            assert!(format!("{e:?}").starts_with(damage), "{e:?}");
            assert_eq!(stored_files(&archive_dir), before);
        }
    }
    let status = archive.status(t("2026-01-01T00:00:00Z")).unwrap();
    assert_eq!(status.records, 1);
}

#[test]
fn an_empty_file_is_refused_and_leaves_nothing_in_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let archive_dir = dir.path().join("archive");
    let mut archive = Archive::create(&archive_dir, AGENT).unwrap();
    let empty = dir.path().join("empty.warc.gz");
    std::fs::write(&empty, b"").unwrap();
    for _ in 0..2 {
        // Refused again the same way: not taken for a file already ingested.
        let e = archive.ingest(&empty, &mut |_| {}).unwrap_err();
        assert!(
            matches!(&e, Error::Warc { path, offset: 0, .. } if *path == empty),
            "{e}"
        );
        assert!(e.to_string().contains("the file is empty"), "{e}");
        assert_eq!(problem(e), WarcProblem::Empty);
        assert_eq!(stored_files(&archive_dir), Vec::<String>::new());
    }
    // The archive goes on as before: a good file after it is ingested.
    let good = write_warc(&dir.path().join("good.warc.gz"), &[site_robots()], 1);
    archive.ingest(&good, &mut |_| {}).unwrap();
    assert_eq!(stored_files(&archive_dir).len(), 1);
}

#[test]
fn a_failed_ingest_never_takes_out_a_file_sealed_before() {
    let dir = tempfile::tempdir().unwrap();
    let archive_dir = dir.path().join("archive");
    let captures = [
        site_robots(),
        capture(&format!("{SITE}/news/a"), "2026-01-02T00:00:00Z", 200, b"a"),
    ];
    let whole = write_warc(&dir.path().join("w.warc.gz"), &captures, 1);
    let bytes = std::fs::read(&whole).unwrap();
    let cut = dir.path().join("cut.warc.gz");
    std::fs::write(&cut, &bytes[..bytes.len() - 10]).unwrap();
    // The damaged file is sealed: the capture before its damage is indexed from it.
    let mut archive = Archive::create(&archive_dir, AGENT).unwrap();
    assert!(archive.ingest(&cut, &mut |_| {}).is_err());
    let sealed = stored_files(&archive_dir);
    assert_eq!(sealed.len(), 1);
    // The index is rebuilt, the whole file ingested first: ingesting the damaged file
    // again now indexes nothing from it (its capture is a duplicate), but its sealed
    // copy was in the store before this ingest, so the failure leaves it there.
    drop(archive);
    std::fs::remove_file(archive_dir.join("index.sqlite3")).unwrap();
    let mut archive = Archive::create(&archive_dir, AGENT).unwrap();
    archive.ingest(&whole, &mut |_| {}).unwrap();
    assert!(archive.ingest(&cut, &mut |_| {}).is_err());
    let after = stored_files(&archive_dir);
    assert_eq!(after.len(), 2, "{after:?}");
    assert!(after.contains(&sealed[0]), "{after:?}");
}

#[test]
fn a_file_that_cannot_be_read_leaves_nothing_in_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    // A directory opens like a file, then fails at the first read, part way into
    // sealing it.
    let e = archive.ingest(dir.path(), &mut |_| {}).unwrap_err();
    assert!(
        matches!(&e, Error::Io { path, .. } if path == dir.path()),
        "{e}"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path().join("archive/store"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn damaged_files_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read(write_warc(
        &dir.path().join("g.warc.gz"),
        &[capture(
            &format!("{SITE}/a"),
            "2026-01-01T00:00:00Z",
            200,
            &[b'x'; 5000],
        )],
        1,
    ))
    .unwrap();
    assert_eq!(
        problem(ingest_error(&good[..good.len() - 10])),
        WarcProblem::Truncated
    );
    let e = problem(ingest_error(b"<html>not a warc</html>"));
    assert!(matches!(e, WarcProblem::NotAWarcRecord { .. }), "{e:?}");
    // A crawl compressed whole for storage is told to be decompressed, not asked
    // whether it is a WARC file (the bytes after each magic number are arbitrary).
    for (start, command) in [
        (&b"BZh91AY&SY\x1b/"[..], "bunzip2"),
        (&[0x28, 0xB5, 0x2F, 0xFD, 0x64, 0x00][..], "unzstd"),
        (&[0xFD, b'7', b'z', b'X', b'Z', 0, 0, 4][..], "unxz"),
    ] {
        let message = ingest_error(start).to_string();
        assert!(
            message.contains("decompress it") && message.contains(command),
            "{message}"
        );
    }
    let mut flipped = good.clone();
    let mid = flipped.len() - 40;
    flipped[mid] ^= 0xff;
    let e = problem(ingest_error(&flipped));
    let damaged = matches!(
        e,
        WarcProblem::BadGzip(_) | WarcProblem::Truncated | WarcProblem::BadRecordEnd
    );
    assert!(damaged, "{e:?}");
    // A whole-file gzip cannot be read record by record.
    let plain = std::fs::read(write_plain_warc(
        &dir.path().join("p.warc"),
        &[
            capture(&format!("{SITE}/a"), "2026-01-01T00:00:00Z", 200, b"a"),
            capture(&format!("{SITE}/b"), "2026-01-01T00:00:00Z", 200, b"b"),
        ],
        1,
    ))
    .unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &plain).unwrap();
    let whole = gz.finish().unwrap();
    assert_eq!(
        problem(ingest_error(&whole)),
        WarcProblem::SeveralRecordsPerMember
    );
    let mut short = plain.clone();
    short.truncate(plain.len() - 7);
    assert_eq!(problem(ingest_error(&short)), WarcProblem::Truncated);
    // The message says what to do.
    let message = ingest_error(&whole).to_string();
    assert!(message.contains("recompress"), "{message}");
    // So does every kind of damage: a gzip member cut short with another after it (its
    // checksum is read from the next member's bytes), and a wrong Content-Length.
    let mut cut_member = good[..good.len() - 6].to_vec();
    cut_member.extend_from_slice(&good);
    let long_block = b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\nabcd\r\n\r\n";
    for (damaged, expected) in [
        (ingest_error(&cut_member), "gzip data is corrupt"),
        (ingest_error(long_block), "not followed by the two CRLFs"),
    ] {
        let message = damaged.to_string();
        assert!(
            message.contains(expected) && message.contains("cut the file before this record"),
            "{message}"
        );
    }
}

/// This process's start time (field 22 of `/proc/self/stat`) and pid namespace, as the
/// names of incoming copies record them.
#[cfg(target_os = "linux")]
fn this_process() -> (u32, u64, u64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 1..];
    let start = after.split_whitespace().nth(19).unwrap().parse().unwrap();
    let ns = std::fs::read_link("/proc/self/ns/pid").unwrap();
    let ns = ns.to_str().unwrap();
    let ns = ns["pid:[".len()..ns.len() - 1].parse().unwrap();
    (std::process::id(), start, ns)
}

/// A pid that ran and no longer runs: a child that has exited and been waited for.
#[cfg(target_os = "linux")]
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[cfg(target_os = "linux")]
#[test]
fn an_ingest_removes_the_partial_copies_of_killed_ingests_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let archive_dir = dir.path().join("archive");
    let mut archive = Archive::create(&archive_dir, AGENT).unwrap();
    let first = write_warc(&dir.path().join("a.warc.gz"), &[site_robots()], 1);
    archive.ingest(&first, &mut |_| {}).unwrap();
    let store = archive_dir.join("store");
    let (pid, start, ns) = this_process();
    let dead = dead_pid();
    let put = |name: &str, size: usize| std::fs::write(store.join(name), vec![b'x'; size]);
    // Writers certainly gone: a pid that no longer runs, and a pid that runs but started
    // at another time (reused by another process since); the copies go.
    let gone = [
        format!(".incoming-{dead}-{start}-{ns}-0"),
        format!(".incoming-{pid}-{}-{ns}-0", start - 1),
    ];
    // Kept: this process's own copy (a running ingest), one written in another pid
    // namespace, and one named by an older version whose pid runs (ours) or that was
    // written to a moment ago, as its writer may still be at it.
    let writing = [
        format!(".incoming-{pid}-{start}-{ns}-999"),
        format!(".incoming-{pid}"),
    ];
    let unknown = [
        format!(".incoming-{dead}-{start}-{}-0", ns + 1),
        format!(".incoming-{dead}"),
    ];
    for name in gone.iter().chain(&writing).chain(&unknown) {
        put(name, 1000).unwrap();
    }
    // An old-format copy of a dead pid untouched for two hours: abandoned.
    let old = store.join(format!(".incoming-{}", dead_pid()));
    std::fs::write(&old, b"partial").unwrap();
    let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(two_hours_ago)
        .unwrap();
    put("notes.txt", 5).unwrap();
    let status = archive.status(t("2026-01-01T00:00:00Z")).unwrap();
    assert_eq!(
        (
            status.leftover_incoming.files,
            status.leftover_incoming.bytes
        ),
        (5, 4007),
        "every copy no running ingest writes is reported"
    );
    let before = stored_files(&archive_dir);

    let second = write_warc(
        &dir.path().join("b.warc.gz"),
        &[capture(
            &format!("{SITE}/news/a"),
            "2026-01-02T00:00:00Z",
            200,
            b"a",
        )],
        2,
    );
    let report = archive.ingest(&second, &mut |_| {}).unwrap();
    assert_eq!(
        (
            report.removed_leftovers.files,
            report.removed_leftovers.bytes
        ),
        (3, 2007)
    );
    let mut expected: Vec<String> = before
        .iter()
        .filter(|name| !gone.contains(name) && store.join(name) != old)
        .cloned()
        .collect();
    expected.push(report.stored_as.clone());
    expected.sort();
    assert_eq!(stored_files(&archive_dir), expected);
    assert_eq!(std::fs::read(store.join("notes.txt")).unwrap(), b"xxxxx");
    let status = archive.status(t("2026-01-01T00:00:00Z")).unwrap();
    assert_eq!(
        (
            status.leftover_incoming.files,
            status.leftover_incoming.bytes
        ),
        (2, 2000)
    );
    assert_eq!(status.records, 2);
}

/// A redirect from `url` to `to`, captured at `at`.
fn moved(url: &str, at: &str, to: &str) -> Capture {
    capture(url, at, 301, b"").header("Location", to)
}

#[test]
fn robots_txt_redirects_are_followed_through_captured_records() {
    let dir = tempfile::tempdir().unwrap();
    let rules = b"User-agent: *\nArchive-Embargo: w\nDisallow: /private/\n";
    let at = "2026-01-01T00:00:00Z";
    let later = "2026-01-01T00:00:05Z";
    let mut captures = vec![
        // Two hops, the second to another origin: its rules govern the first.
        moved("http://a.test/robots.txt", at, "/robots-real.txt"),
        moved(
            "http://a.test/robots-real.txt",
            at,
            "https://rules.test/a.txt",
        ),
        capture("https://rules.test/a.txt", at, 200, rules),
        capture("http://a.test/page", later, 200, b"a"),
        capture("http://a.test/private/x", later, 200, b"x"),
        // A loop: unavailable, so no rules.
        moved("http://loop.test/robots.txt", at, "/b.txt"),
        moved("http://loop.test/b.txt", at, "/robots.txt"),
        capture("http://loop.test/page", later, 200, b"l"),
        // A target never captured: the rules are unknown.
        moved("http://lost.test/robots.txt", at, "/nowhere.txt"),
        capture("http://lost.test/page", later, 200, b"n"),
        // A 5xx robots.txt disallows the site's pages, not its own capture.
        capture("http://down.test/robots.txt", at, 503, b"busy"),
        capture("http://down.test/page", later, 200, b"d"),
        // The target ends in 5xx: unreachable, complete disallow.
        moved("http://err.test/robots.txt", at, "/r.txt"),
        capture("http://err.test/r.txt", at, 500, b""),
        capture("http://err.test/page", later, 200, b"e"),
    ];
    // Six hops: past the five RFC 9309 asks for, unavailable.
    for i in 0..6 {
        let from = if i == 0 {
            "http://far.test/robots.txt".to_owned()
        } else {
            format!("http://far.test/{i}.txt")
        };
        captures.push(moved(&from, at, &format!("/{}.txt", i + 1)));
    }
    captures.push(capture(
        "http://far.test/6.txt",
        at,
        200,
        b"User-agent: *\nDisallow: /\n",
    ));
    captures.push(capture("http://far.test/page", later, 200, b"f"));
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    let path = write_warc(&dir.path().join("a.warc.gz"), &captures, 0);
    let report = archive.ingest(&path, &mut |_| {}).unwrap();
    assert_eq!(report.robots_redirects_not_captured, 1, "{report:?}");

    let page = only(&archive, "http://a.test/page");
    assert_eq!(page.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(page.embargo_days, Some(7));
    assert_eq!(
        page.robots_record,
        Some(only(&archive, "https://rules.test/a.txt").id)
    );
    assert_eq!(
        only(&archive, "http://a.test/private/x").verdict,
        Some(CaptureVerdict::Disallowed)
    );
    let looped = only(&archive, "http://loop.test/page");
    assert_eq!(
        (looped.verdict, looped.embargo_until),
        (Some(CaptureVerdict::Allowed), Some(looped.captured))
    );
    assert_eq!(
        only(&archive, "http://lost.test/page").verdict,
        Some(CaptureVerdict::NoRobots)
    );
    assert_eq!(
        only(&archive, "http://down.test/page").verdict,
        Some(CaptureVerdict::Disallowed)
    );
    let down = only(&archive, "http://down.test/robots.txt");
    assert_eq!(
        (down.verdict, down.embargo_until),
        (Some(CaptureVerdict::Allowed), Some(down.captured))
    );
    assert_eq!(
        only(&archive, "http://err.test/page").verdict,
        Some(CaptureVerdict::Disallowed)
    );
    let far = only(&archive, "http://far.test/page");
    assert_eq!(
        (far.verdict, far.embargo_until),
        (Some(CaptureVerdict::Allowed), Some(far.captured)),
        "six hops: unavailable, no rules"
    );

    // The lost target, ingested later, governs: its pages are assessed again.
    let more = write_warc(
        &dir.path().join("more.warc.gz"),
        &[capture(
            "http://lost.test/nowhere.txt",
            at,
            200,
            b"User-agent: *\nDisallow: /\n",
        )],
        1,
    );
    let report = archive.ingest(&more, &mut |_| {}).unwrap();
    assert_eq!(report.robots_redirects_not_captured, 0);
    assert_eq!(
        only(&archive, "http://lost.test/page").verdict,
        Some(CaptureVerdict::Disallowed)
    );
}

#[test]
fn an_index_from_before_redirects_were_followed_reads_them_when_opened() {
    let dir = tempfile::tempdir().unwrap();
    let at = "2026-01-01T00:00:00Z";
    let archive = archive_with(
        dir.path(),
        &[
            moved("http://old.test/robots.txt", at, "/real.txt"),
            capture(
                "http://old.test/real.txt",
                at,
                200,
                b"User-agent: *\nArchive-Embargo: w\n",
            ),
            capture("http://old.test/page", "2026-01-01T00:00:05Z", 200, b"p"),
        ],
    );
    drop(archive);
    // What layout 4 left: no robots.txt row for the redirect, the page without rules.
    let path = dir.path().join("archive").join(robots_archive::INDEX_FILE);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "DELETE FROM robots_redirects; DELETE FROM robots_txt;
         UPDATE records SET verdict = 'no-robots', embargo_until = NULL, robots_record = NULL;
         UPDATE meta SET value = '4' WHERE key = 'layout';",
    )
    .unwrap();
    drop(conn);
    let archive = Archive::open(&dir.path().join("archive")).unwrap();
    let page = only(&archive, "http://old.test/page");
    assert_eq!(page.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(page.embargo_days, Some(7));
    drop(archive);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let layout: String = conn
        .query_row("SELECT value FROM meta WHERE key = 'layout'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(
        layout, "5",
        "the layout is written once the redirects are read"
    );
}
