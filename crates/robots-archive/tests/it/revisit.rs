//! Revisit records (WARC 1.1 §6.7), as deduplicating crawlers write them: indexed as
//! captures at their own time, resolved to their originals by WARC-Refers-To, by
//! Refers-To-Target-URI and date, or by payload digest; assessed with their original's
//! content, replayed with their own head and the original's payload, listed in CDX, and
//! released once their original is public.

use crate::common;

use std::path::Path;

use common::*;
use robots_archive::{Access, Archive, Digest, Entry, Request, RevisitProfile, TOMBSTONE_PROFILE};

const PAGE: &str = "http://site.test/news/a";

fn get(archive: &Archive, target: &str, now: &str) -> robots_archive::Response {
    let req = Request {
        target: target.to_owned(),
        accept: Some("text/html".to_owned()),
    };
    archive.respond(&req, t(now))
}

fn ingest(archive: &mut Archive, path: &Path) -> robots_archive::IngestReport {
    archive.ingest(path, &mut |_| {}).unwrap()
}

/// robots.txt (a month's embargo on /news) and [`PAGE`] on 2 January 2026, ingested.
fn original(dir: &Path) -> Archive {
    let mut archive = Archive::create(&dir.join("archive"), AGENT).unwrap();
    let crawl = write_warc(
        &dir.join("crawl1.warc.gz"),
        &[
            site_robots(),
            capture(PAGE, "2026-01-02T00:00:00Z", 200, b"BODY-A")
                .header("Date", "Fri, 02 Jan 2026 00:00:00 GMT")
                .header("ETag", "\"a1\""),
        ],
        1,
    );
    ingest(&mut archive, &crawl);
    archive
}

/// The same page revisited on 1 March 2026, the payload left out.
fn revisit_of_page() -> Capture {
    capture(PAGE, "2026-03-01T00:00:00Z", 200, b"BODY-A").header("X-Second-Crawl", "yes")
}

fn captures(archive: &Archive) -> (Entry, Entry) {
    let mut all = archive.captures_of(PAGE).unwrap();
    assert_eq!(all.len(), 2, "{all:?}");
    let revisit = all.pop().unwrap();
    (all.pop().unwrap(), revisit)
}

fn cdx(archive: &Archive, now: &str) -> Vec<serde_json::Value> {
    let r = get(archive, &format!("/cdx?url={PAGE}&output=json"), now);
    assert_eq!(r.status, 200);
    String::from_utf8(r.body)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn an_identical_payload_revisit_is_a_capture_with_its_originals_content() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = original(dir.path());
    let revisit = revisit_of_page()
        .warc("WARC-Refers-To", record_id(1, 1))
        .warc("WARC-Refers-To-Target-URI", PAGE)
        .warc("WARC-Refers-To-Date", "2026-01-02T00:00:00Z")
        .warc("WARC-Payload-Digest", Digest::of(b"BODY-A").as_header());
    let crawl = write_records(
        &dir.path().join("crawl2.warc.gz"),
        &[Item::Revisit(revisit, IDENTICAL, true)],
        2,
    );
    let report = ingest(&mut archive, &crawl);
    assert_eq!(
        (
            report.responses,
            report.revisits,
            report.revisits_without_original,
            report.skipped
        ),
        (0, 1, 0, 0)
    );
    let (first, second) = captures(&archive);
    let kind = second.revisit.unwrap();
    assert_eq!(kind.profile, RevisitProfile::IdenticalPayloadDigest);
    assert_eq!(kind.original, Some(first.id));
    assert_eq!(second.captured, t("2026-03-01T00:00:00Z"));
    assert_eq!(second.digest, first.digest);
    assert_eq!(second.mime.as_deref(), Some("warc/revisit"));
    // Content first observed in January: its embargo ended in February, as the
    // original's did, not a month after the revisit.
    assert_eq!(second.first_observed, Some(t("2026-01-02T00:00:00Z")));
    assert_eq!(second.embargo_until, Some(t("2026-02-02T00:00:00Z")));
    assert_eq!(second.access(t("2026-03-02T00:00:00Z")), Access::Released);

    // Replay: the revisit's own head, the original's payload.
    let r = get(
        &archive,
        &format!("/web/20260301000000/{PAGE}"),
        "2026-03-02T00:00:00Z",
    );
    assert_eq!((r.status, &r.body[..]), (200, &b"BODY-A"[..]));
    assert_eq!(r.header("X-Archive-Orig-X-Second-Crawl"), Some(&b"yes"[..]));
    assert_eq!(
        r.header("Memento-Datetime"),
        Some(&b"Sun, 01 Mar 2026 00:00:00 GMT"[..])
    );
    assert_eq!(
        r.header("X-Archive-Orig-ETag"),
        None,
        "the original's head is not the revisit's"
    );

    let lines = cdx(&archive, "2026-03-02T00:00:00Z");
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["timestamp"], "20260301000000");
    assert_eq!(lines[1]["mime"], "warc/revisit");
    assert_eq!(lines[1]["status"], "200");
    assert_eq!(lines[1]["digest"], lines[0]["digest"]);
    assert_eq!(lines[1]["access"], "released");
}

#[test]
fn a_server_not_modified_revisit_replays_the_originals_head_updated_by_the_304() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = original(dir.path());
    // No WARC-Refers-To and no digest: the original's URL and date name it.
    let not_modified = capture(PAGE, "2026-03-01T00:00:00Z", 304, b"")
        .header("Date", "Sun, 01 Mar 2026 00:00:00 GMT")
        .header("ETag", "\"a1\"")
        .warc("WARC-Refers-To-Target-URI", PAGE)
        .warc("WARC-Refers-To-Date", "2026-01-02T00:00:00Z");
    let crawl = write_records(
        &dir.path().join("crawl2.warc.gz"),
        &[Item::Revisit(not_modified, NOT_MODIFIED, true)],
        2,
    );
    assert_eq!(ingest(&mut archive, &crawl).revisits_without_original, 0);
    let (first, second) = captures(&archive);
    let kind = second.revisit.unwrap();
    assert_eq!(kind.profile, RevisitProfile::ServerNotModified);
    assert_eq!(kind.original, Some(first.id));
    assert_eq!((second.status, second.digest), (304, first.digest));
    assert_eq!(second.embargo_until, Some(t("2026-02-02T00:00:00Z")));

    let r = get(
        &archive,
        &format!("/web/20260301000000/{PAGE}"),
        "2026-03-02T00:00:00Z",
    );
    assert_eq!((r.status, &r.body[..]), (200, &b"BODY-A"[..]));
    assert_eq!(
        r.header("X-Archive-Orig-Date"),
        Some(&b"Sun, 01 Mar 2026 00:00:00 GMT"[..])
    );
    assert_eq!(r.header("Content-Type"), Some(&b"text/html"[..]));
    assert_eq!(cdx(&archive, "2026-03-02T00:00:00Z")[1]["status"], "304");
}

#[test]
fn a_bare_304_repeats_the_latest_earlier_2xx_capture_of_its_url() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = original(dir.path());
    let bare_304 =
        |url: &str| capture(url, "2026-03-01T00:00:00Z", 304, b"").header("ETag", "\"b2\"");
    let crawl = write_records(
        &dir.path().join("crawl2.warc.gz"),
        &[
            Item::Response(capture(PAGE, "2026-02-01T00:00:00Z", 200, b"BODY-B")),
            Item::Response(capture(PAGE, "2026-02-10T00:00:00Z", 404, b"gone")),
            Item::Response(capture(PAGE, "2026-04-01T00:00:00Z", 200, b"BODY-C")),
            // Nothing names the original: the copy the crawler revalidated is the
            // latest 2xx before it, not the 404 between nor the later capture.
            Item::Revisit(bare_304(PAGE), NOT_MODIFIED, true),
            Item::Revisit(bare_304("http://site.test/news/new"), NOT_MODIFIED, true),
        ],
        2,
    );
    let report = ingest(&mut archive, &crawl);
    assert_eq!((report.revisits, report.revisits_without_original), (2, 1));
    let all = archive.captures_of(PAGE).unwrap();
    let at = |date: &str| all.iter().find(|e| e.captured == t(date)).unwrap();
    let visit = at("2026-03-01T00:00:00Z");
    assert_eq!(
        visit.revisit.unwrap().original,
        Some(at("2026-02-01T00:00:00Z").id)
    );
    assert_eq!(visit.digest, Some(Digest::of(b"BODY-B")));
    let r = get(
        &archive,
        &format!("/web/20260301000000/{PAGE}"),
        "2026-06-01T00:00:00Z",
    );
    assert_eq!((r.status, &r.body[..]), (200, &b"BODY-B"[..]));
    assert_eq!(r.header("X-Archive-Orig-ETag"), Some(&b"\"b2\""[..]));
}

#[test]
fn revisits_are_resolved_by_payload_digest_in_any_spelling_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    let sha256 = "690b1e5b1df1f1e6ae1f9cb14e74bf03aec913a4896967677f747f62433cc246";
    let other = "http://site.test/news/other";
    let crawl = write_warc(
        &dir.path().join("crawl1.warc.gz"),
        &[
            site_robots(),
            // Browsertrix's spelling: SHA-256 in hex.
            capture(PAGE, "2026-01-02T00:00:00Z", 200, b"BODY-A")
                .warc("WARC-Payload-Digest", format!("sha256:{sha256}")),
            capture(other, "2026-01-02T00:00:00Z", 200, b"OTHER"),
        ],
        1,
    );
    ingest(&mut archive, &crawl);
    let revisit = |date: &str, digest: &str| {
        capture(PAGE, date, 200, b"")
            .warc("WARC-Payload-Digest", digest)
            .warc("WARC-Refers-To", record_id(1, 2))
    };
    // Each refers to the capture of another URL whose payload is not the one declared:
    // that is not taken; the digest finds the right one, however it is spelt.
    let crawl = write_records(
        &dir.path().join("crawl2.warc.gz"),
        &[
            Item::Revisit(
                revisit(
                    "2026-03-01T00:00:00Z",
                    "sha256:NEFR4WY56HY6NLQ7TSYU45F7AOXMSE5ERFUWOZ37OR7WEQZ4YJDA",
                ),
                IDENTICAL,
                true,
            ),
            Item::Revisit(
                revisit(
                    "2026-03-02T00:00:00Z",
                    "SHA1:128d629683e2cc46c72b8d1ab766eedb1fd4ffa4",
                ),
                IDENTICAL,
                false,
            ),
        ],
        2,
    );
    let report = ingest(&mut archive, &crawl);
    assert_eq!((report.revisits, report.revisits_without_original), (2, 0));
    let all = archive.captures_of(PAGE).unwrap();
    assert_eq!(all.len(), 3);
    for visit in &all[1..] {
        assert_eq!(visit.revisit.unwrap().original, Some(all[0].id));
        assert_eq!(visit.digest, Some(Digest::of(b"BODY-A")));
        assert_eq!(visit.embargo_until, Some(t("2026-02-02T00:00:00Z")));
    }
    // Without a head of its own, the revisit replays its original's.
    assert_eq!(all[2].status, 200);
    let r = get(
        &archive,
        &format!("/web/20260302000000/{PAGE}"),
        "2026-04-01T00:00:00Z",
    );
    assert_eq!((r.status, &r.body[..]), (200, &b"BODY-A"[..]));
    assert_eq!(r.header("Content-Type"), Some(&b"text/html"[..]));
}

#[test]
fn a_revisit_without_its_original_is_indexed_not_replayed_and_found_later() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = Archive::create(&dir.path().join("archive"), AGENT).unwrap();
    let dedup = dedup_crawl(dir.path());
    let report = ingest(&mut archive, &dedup);
    assert_eq!((report.revisits, report.revisits_without_original), (1, 1));
    let alone = archive.captures_of(PAGE).unwrap().remove(0);
    assert_eq!(alone.revisit.unwrap().original, None);
    // Its content is the one it declares, first observed by itself so far.
    assert_eq!(alone.digest, Some(Digest::of(b"BODY-A")));
    assert_eq!(alone.embargo_until, Some(t("2026-04-01T00:00:00Z")));
    let r = get(
        &archive,
        &format!("/web/20260301000000/{PAGE}"),
        "2026-05-01T00:00:00Z",
    );
    assert_eq!(r.status, 404);
    let message = String::from_utf8_lossy(&r.body);
    assert!(message.contains("not in this archive"), "{message}");
    // Not released either: a public file cannot hold a revisit whose payload is nowhere.
    let release = archive.release(t("2026-05-01T00:00:00Z")).unwrap();
    assert_eq!(release.released, 1, "robots.txt only");

    // The original arrives: the revisit is resolved, and its embargo runs from January.
    drop(archive);
    let mut archive = original(dir.path());
    let (first, second) = captures(&archive);
    assert_eq!(second.revisit.unwrap().original, Some(first.id));
    assert_eq!(second.embargo_until, Some(t("2026-02-02T00:00:00Z")));
    let r = get(
        &archive,
        &format!("/web/20260301000000/{PAGE}"),
        "2026-05-01T00:00:00Z",
    );
    assert_eq!((r.status, &r.body[..]), (200, &b"BODY-A"[..]));
    let release = archive.release(t("2026-05-01T00:00:00Z")).unwrap();
    assert_eq!(
        release.released, 3,
        "robots.txt, the original and its revisit"
    );
}

/// (WARC-Type, or `tombstone`, target URI, date, block) of every record in `public/`,
/// in file order.
fn published(adir: &Path) -> Vec<(String, String, String, Vec<u8>)> {
    public_records(adir)
        .into_iter()
        .map(|(_, f, block)| {
            let field = |name: &str| f.get(name).unwrap_or("").to_owned();
            let kind = if field("WARC-Profile") == TOMBSTONE_PROFILE {
                "tombstone".to_owned()
            } else {
                field("WARC-Type")
            };
            (kind, field("WARC-Target-URI"), field("WARC-Date"), block)
        })
        .collect()
}

#[test]
fn a_revisit_is_released_as_captured_with_or_after_its_original() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = original(dir.path());
    let crawl = write_records(
        &dir.path().join("crawl2.warc.gz"),
        &[Item::Revisit(
            revisit_of_page().warc("WARC-Payload-Digest", Digest::of(b"BODY-A").as_header()),
            IDENTICAL,
            true,
        )],
        2,
    );
    ingest(&mut archive, &crawl);
    // While both are under embargo, each is a tombstone.
    let first = archive.release(t("2026-01-10T00:00:00Z")).unwrap();
    assert_eq!((first.released, first.tombstones), (0, 3));
    let second = archive.release(t("2026-03-02T00:00:00Z")).unwrap();
    assert_eq!((second.released, second.tombstones), (3, 0));
    let records = published(&dir.path().join("archive"));
    let revisits: Vec<_> = records
        .iter()
        .filter(|r| r.0 == "revisit" && r.2 == "2026-03-01T00:00:00Z")
        .collect();
    assert_eq!(revisits.len(), 1);
    // The record as captured: its head, no payload.
    assert_eq!(revisits[0].3, revisit_of_page().head());
    let position = |kind: &str, date: &str| {
        records
            .iter()
            .position(|r| r.0 == kind && r.1 == PAGE && r.2 == date)
            .unwrap()
    };
    assert!(
        position("response", "2026-01-02T00:00:00Z") < position("revisit", "2026-03-01T00:00:00Z")
    );
    let status = archive.status(t("2026-03-02T00:00:00Z")).unwrap();
    assert_eq!((status.records, status.published), (3, 3));
}

/// The rows of the due index a release at `at` walks (the selection `plan` makes from
/// `records_due`), read from the index file as it stands.
fn due_rows(adir: &Path, at: &str) -> Vec<i64> {
    let conn = rusqlite::Connection::open(adir.join(robots_archive::INDEX_FILE)).unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT id FROM records INDEXED BY records_due
             WHERE release_batch IS NULL AND embargo_until IS NOT NULL
               AND held IS NULL AND embargo_until <= ?1
             ORDER BY id",
        )
        .unwrap();
    let rows = stmt.query_map([t(at).unix()], |r| r.get(0)).unwrap();
    rows.collect::<Result<_, _>>().unwrap()
}

/// Whether index row `id` is held out of the due index, and unpublished past its end at
/// `at` (what a release without the `held` mark would walk again).
fn held_and_waiting(adir: &Path, id: i64, at: &str) -> (bool, bool) {
    let conn = rusqlite::Connection::open(adir.join(robots_archive::INDEX_FILE)).unwrap();
    conn.query_row(
        "SELECT held IS NOT NULL, release_batch IS NULL AND embargo_until <= ?2
         FROM records WHERE id = ?1",
        rusqlite::params![id, t(at).unix()],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

/// A deduplicating crawl of 1 March 2026 whose first crawl is not ingested: robots.txt
/// and a revisit of [`PAGE`] naming the January capture by its record ID.
fn dedup_crawl(dir: &Path) -> std::path::PathBuf {
    write_records(
        &dir.join("crawl2.warc.gz"),
        &[
            Item::Response(capture(
                "http://site.test/robots.txt",
                "2026-03-01T00:00:00Z",
                200,
                ROBOTS,
            )),
            Item::Revisit(
                revisit_of_page()
                    .warc("WARC-Payload-Digest", Digest::of(b"BODY-A").as_header())
                    .warc("WARC-Refers-To", record_id(1, 1)),
                IDENTICAL,
                true,
            ),
        ],
        2,
    )
}

#[test]
fn a_revisit_waiting_for_its_original_is_held_out_of_the_due_index_until_it_comes() {
    let dir = tempfile::tempdir().unwrap();
    let adir = dir.path().join("archive");
    let mut archive = Archive::create(&adir, AGENT).unwrap();
    ingest(&mut archive, &dedup_crawl(dir.path()));
    let alone = archive.captures_of(PAGE).unwrap().remove(0);
    assert_eq!(alone.embargo_until, Some(t("2026-04-01T00:00:00Z")));
    assert!(due_rows(&adir, "2026-05-01T00:00:00Z").contains(&alone.id));
    let first = archive.release(t("2026-05-01T00:00:00Z")).unwrap();
    assert_eq!(first.released, 1, "robots.txt only");
    // Past its end and unpublished, but held: no later release walks it again.
    assert_eq!(
        held_and_waiting(&adir, alone.id, "2027-01-01T00:00:00Z"),
        (true, true)
    );
    assert_eq!(due_rows(&adir, "2027-01-01T00:00:00Z"), Vec::<i64>::new());
    let second = archive.release(t("2027-01-01T00:00:00Z")).unwrap();
    assert!(second.files.is_empty(), "{second:?}");
    let status = archive.status(t("2026-05-01T00:00:00Z")).unwrap();
    assert_eq!((status.released, status.published), (2, 1));
    assert!(status.next_releases.is_empty(), "{status:?}");

    // The original arrives: still held until a release takes up the original, and then
    // it goes out in the same file, after it.
    drop(archive);
    let mut archive = original(dir.path());
    let (first, second) = captures(&archive);
    assert_eq!(second.revisit.unwrap().original, Some(first.id));
    assert_eq!(
        held_and_waiting(&adir, second.id, "2027-01-01T00:00:00Z"),
        (true, true)
    );
    let release = archive.release(t("2027-01-01T00:00:00Z")).unwrap();
    assert_eq!(
        (release.files.len(), release.released),
        (1, 3),
        "the January robots.txt, the original and its revisit"
    );
    assert_eq!(
        held_and_waiting(&adir, second.id, "2027-01-01T00:00:00Z"),
        (false, false)
    );
    let records = published(&adir);
    let last = records.len();
    assert_eq!(
        records[last - 2..]
            .iter()
            .map(|r| (r.0.as_str(), r.2.as_str()))
            .collect::<Vec<_>>(),
        [
            ("response", "2026-01-02T00:00:00Z"),
            ("revisit", "2026-03-01T00:00:00Z")
        ]
    );
    assert_eq!(records[last - 1].3, revisit_of_page().head());
    let r = get(
        &archive,
        &format!("/web/20260301000000/{PAGE}"),
        "2027-01-01T00:00:00Z",
    );
    assert_eq!((r.status, &r.body[..]), (200, &b"BODY-A"[..]));
    let status = archive.status(t("2027-01-01T00:00:00Z")).unwrap();
    assert_eq!((status.records, status.published), (4, 4));
}

#[test]
fn a_held_revisit_resolved_to_an_original_already_out_goes_back_to_the_due_index() {
    let dir = tempfile::tempdir().unwrap();
    let adir = dir.path().join("archive");
    let mut archive = original(dir.path());
    assert_eq!(
        archive.release(t("2026-03-02T00:00:00Z")).unwrap().released,
        2
    );
    // A revisit naming another revisit, of a crawl not ingested yet, as its original.
    let later = write_records(
        &dir.path().join("crawl3.warc.gz"),
        &[Item::Revisit(
            capture(PAGE, "2026-04-01T00:00:00Z", 200, b"").warc("WARC-Refers-To", record_id(4, 0)),
            IDENTICAL,
            true,
        )],
        3,
    );
    ingest(&mut archive, &later);
    assert_eq!(
        archive.release(t("2026-06-01T00:00:00Z")).unwrap().released,
        0
    );
    let held = archive.captures_of(PAGE).unwrap().pop().unwrap();
    assert_eq!(
        held_and_waiting(&adir, held.id, "2026-06-01T00:00:00Z"),
        (true, true)
    );
    // That revisit comes, naming the January capture (released in March); the held one
    // is resolved through it at the ingest after, and is due again.
    let middle = write_records(
        &dir.path().join("crawl4.warc.gz"),
        &[Item::Revisit(
            capture(PAGE, "2026-03-01T00:00:00Z", 200, b"").warc("WARC-Refers-To", record_id(1, 1)),
            IDENTICAL,
            true,
        )],
        4,
    );
    ingest(&mut archive, &middle);
    let other = write_warc(
        &dir.path().join("crawl5.warc.gz"),
        &[capture(
            "http://site.test/news/b",
            "2026-05-01T00:00:00Z",
            200,
            b"B",
        )],
        5,
    );
    ingest(&mut archive, &other);
    let all = archive.captures_of(PAGE).unwrap();
    assert!(all[1..]
        .iter()
        .all(|c| c.revisit.unwrap().original == Some(all[0].id)));
    assert_eq!(
        held_and_waiting(&adir, held.id, "2026-06-01T00:00:00Z"),
        (false, true)
    );
    assert!(due_rows(&adir, "2026-06-01T00:00:00Z").contains(&held.id));
    let release = archive.release(t("2026-06-02T00:00:00Z")).unwrap();
    assert_eq!(release.released, 3, "both revisits and news/b");
    let r = get(
        &archive,
        &format!("/web/20260401000000/{PAGE}"),
        "2026-06-02T00:00:00Z",
    );
    assert_eq!((r.status, &r.body[..]), (200, &b"BODY-A"[..]));
}

#[test]
fn a_revisit_of_a_flagged_original_stays_held_and_is_never_published() {
    let dir = tempfile::tempdir().unwrap();
    let adir = dir.path().join("archive");
    let private = "http://site.test/private/x";
    let mut archive = Archive::create(&adir, AGENT).unwrap();
    let crawl = write_warc(
        &dir.path().join("crawl1.warc.gz"),
        &[
            site_robots(),
            capture(private, "2026-01-02T00:00:00Z", 200, b"BODY-PRIVATE"),
        ],
        1,
    );
    ingest(&mut archive, &crawl);
    // Allowed itself (a /news URL), but its payload is the disallowed capture's.
    let crawl = write_records(
        &dir.path().join("crawl2.warc.gz"),
        &[Item::Revisit(
            capture(PAGE, "2026-03-01T00:00:00Z", 200, b"").warc("WARC-Refers-To", record_id(1, 1)),
            IDENTICAL,
            true,
        )],
        2,
    );
    assert_eq!(ingest(&mut archive, &crawl).revisits_without_original, 0);
    let visit = archive.captures_of(PAGE).unwrap().remove(0);
    // Released in its own right, withheld for its payload's sake.
    assert_eq!(
        visit.own_access(t("2026-05-01T00:00:00Z")),
        Access::Released
    );
    assert_eq!(visit.access(t("2026-05-01T00:00:00Z")), Access::Disallowed);
    let first = archive.release(t("2026-05-01T00:00:00Z")).unwrap();
    assert_eq!(first.released, 1, "robots.txt only");
    for at in ["2026-05-01T00:00:00Z", "2030-01-01T00:00:00Z"] {
        assert_eq!(held_and_waiting(&adir, visit.id, at), (true, true));
        assert_eq!(due_rows(&adir, at), Vec::<i64>::new());
        assert!(archive.release(t(at)).unwrap().files.is_empty());
    }
    let records = published(&adir);
    assert!(records
        .iter()
        .all(|r| r.1 != PAGE && r.1 != private && r.3.windows(7).all(|w| w != b"PRIVATE")));
}

#[test]
fn an_index_of_layout_3_holds_its_waiting_revisits_after_an_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let adir = dir.path().join("archive");
    let mut archive = Archive::create(&adir, AGENT).unwrap();
    ingest(&mut archive, &dedup_crawl(dir.path()));
    let alone = archive.captures_of(PAGE).unwrap().remove(0);
    drop(archive);
    // What layout 3 left: no `held` column, and a due index of every unpublished row.
    let path = adir.join(robots_archive::INDEX_FILE);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "DROP INDEX records_due;
         ALTER TABLE records DROP COLUMN held;
         CREATE INDEX records_due ON records(embargo_until, id)
             WHERE release_batch IS NULL AND embargo_until IS NOT NULL;
         UPDATE meta SET value = '3' WHERE key = 'layout';",
    )
    .unwrap();
    drop(conn);
    let mut archive = Archive::open(&adir).unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let (layout, due_sql): (String, String) = conn
        .query_row(
            "SELECT (SELECT value FROM meta WHERE key = 'layout'),
                    (SELECT sql FROM sqlite_master WHERE name = 'records_due')",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(layout, "5");
    assert!(due_sql.contains("held IS NULL"), "{due_sql}");
    // Still in the due index until the first release holds it.
    assert!(due_rows(&adir, "2026-05-01T00:00:00Z").contains(&alone.id));
    assert_eq!(
        archive.release(t("2026-05-01T00:00:00Z")).unwrap().released,
        1
    );
    assert_eq!(
        held_and_waiting(&adir, alone.id, "2027-01-01T00:00:00Z"),
        (true, true)
    );
    assert_eq!(due_rows(&adir, "2027-01-01T00:00:00Z"), Vec::<i64>::new());

    drop(archive);
    let mut archive = original(dir.path());
    let release = archive.release(t("2027-01-01T00:00:00Z")).unwrap();
    assert_eq!(
        release.released, 3,
        "the January robots.txt, the original and its revisit"
    );
    assert_eq!(
        held_and_waiting(&adir, alone.id, "2027-01-01T00:00:00Z"),
        (false, false)
    );
}

/// The attack of issue 57: revisit records under another, permissive site name the
/// captures of a site whose payloads are withheld (one under embargo, one captured while
/// disallowed). No path may carry those payloads out: replay (GET, HEAD, a Range, the
/// latest-capture form, `id_`), the CDX listing, or a release, until the original itself
/// is released.
#[test]
fn a_revisit_never_carries_out_a_payload_its_original_withholds() {
    let dir = tempfile::tempdir().unwrap();
    let adir = dir.path().join("archive");
    let mut archive = Archive::create(&adir, AGENT).unwrap();
    let news = format!("{SITE}/news/a");
    let private = format!("{SITE}/private/x");
    let crawl = write_warc(
        &dir.path().join("site.warc.gz"),
        &[
            site_robots(),
            capture(&news, "2026-01-02T00:00:00Z", 200, b"SECRET-NEWS-BODY"),
            capture(
                &private,
                "2026-01-02T00:00:00Z",
                200,
                b"SECRET-PRIVATE-BODY",
            ),
        ],
        1,
    );
    ingest(&mut archive, &crawl);
    let copy_of_news = "http://other.test/copy-of-news";
    let copy_of_private = "http://other.test/copy-of-private";
    let copies = write_records(
        &dir.path().join("other.warc.gz"),
        &[
            Item::Response(capture(
                "http://other.test/robots.txt",
                "2026-01-03T00:00:00Z",
                200,
                b"User-agent: *\nAllow: /\n",
            )),
            Item::Revisit(
                capture(copy_of_news, "2026-01-03T00:00:00Z", 200, b"")
                    .warc("WARC-Refers-To", record_id(1, 1)),
                IDENTICAL,
                true,
            ),
            Item::Revisit(
                capture(copy_of_private, "2026-01-03T00:00:00Z", 200, b"")
                    .warc("WARC-Refers-To", record_id(1, 2)),
                IDENTICAL,
                true,
            ),
        ],
        2,
    );
    assert_eq!(ingest(&mut archive, &copies).revisits_without_original, 0);

    let now = "2026-01-04T00:00:00Z";
    let secret = |body: &[u8]| contains(body, b"SECRET");
    for (url, status, access) in [
        (news.as_str(), 451, "embargoed"),
        (private.as_str(), 403, "disallowed"),
        (copy_of_news, 451, "embargoed"),
        (copy_of_private, 403, "disallowed"),
    ] {
        for target in [
            format!("/web/20260103000000/{url}"),
            format!("/web/20260103000000id_/{url}"),
            format!("/web/{url}"),
        ] {
            let r = get(&archive, &target, now);
            assert_eq!(r.status, status, "{target}");
            assert!(
                !secret(&r.body),
                "{target}: {}",
                String::from_utf8_lossy(&r.body)
            );
            assert_eq!(r.header("X-Archive-Access"), Some(access.as_bytes()));
        }
    }
    // The tombstone of a copy says whose payload it withholds, and until when.
    let r = get(&archive, &format!("/web/{copy_of_news}"), now);
    let text = String::from_utf8_lossy(&r.body);
    assert!(text.contains("revisit record"), "{text}");
    assert!(text.contains(&news), "{text}");
    assert_eq!(
        r.header("X-Embargo-Until"),
        Some(&b"2026-02-02T00:00:00Z"[..])
    );

    // The listing says what replay does.
    let r = get(&archive, "/cdx?url=other.test/copy*&output=json", now);
    let lines: Vec<serde_json::Value> = String::from_utf8(r.body)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let access: Vec<&str> = lines
        .iter()
        .map(|l| l["access"].as_str().unwrap())
        .collect();
    assert_eq!(access, ["embargoed", "disallowed"]);
    assert_eq!(lines[0]["embargo_until"], "2026-02-02T00:00:00Z");

    // On the wire: GET, HEAD and a Range request.
    let server = robots_archive::Server::bind(
        Archive::open(&adir).unwrap(),
        "127.0.0.1:0".parse().unwrap(),
        Some(t(now)),
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());
    for url in [copy_of_news, copy_of_private] {
        let target = format!("/web/20260103000000/{url}");
        for (method, extra) in [("GET", ""), ("HEAD", ""), ("GET", "Range: bytes=0-5\r\n")] {
            let (head, body) = request_on_the_wire(addr, method, &target, extra);
            assert!(!head.starts_with(b"HTTP/1.1 2"), "{method} {extra}{target}");
            assert!(!secret(&body), "{method} {extra}{target}");
        }
    }

    // A release now publishes neither payload, under any name.
    archive.release(t(now)).unwrap();
    let published = public_records(&adir);
    assert!(published.iter().all(|(_, _, block)| !secret(block)));

    // Once the news page's embargo ends, its copy replays it; the private page's never.
    let later = "2026-03-01T00:00:00Z";
    let r = get(&archive, &format!("/web/{copy_of_news}"), later);
    assert_eq!((r.status, &r.body[..]), (200, &b"SECRET-NEWS-BODY"[..]));
    let r = get(&archive, &format!("/web/{copy_of_private}"), later);
    assert_eq!(r.status, 403);
    assert!(!secret(&r.body));
    archive.release(t(later)).unwrap();
    let published = public_records(&adir);
    assert!(published
        .iter()
        .any(|(_, _, block)| contains(block, b"SECRET-NEWS-BODY")));
    assert!(published
        .iter()
        .all(|(_, _, block)| !contains(block, b"SECRET-PRIVATE-BODY")));
}
