//! A robots.txt that answered 5xx: the copy the crawler read before stands in for it
//! (docs/design.md's fetch table, RFC 9309 §2.3.1.4 and §2.4) for up to 30 days; without such
//! a copy the capture is disallowed.

use crate::common;

use common::*;
use robots_archive::{Archive, CaptureVerdict, Entry};

fn only(archive: &Archive, url: &str) -> Entry {
    let mut v = archive.captures_of(url).unwrap();
    assert_eq!(v.len(), 1, "{url}");
    v.remove(0)
}

/// The index row of the capture of `url` at `date`.
fn id_of(archive: &Archive, url: &str, date: &str) -> i64 {
    let captures = archive.captures_of(url).unwrap();
    captures.iter().find(|e| e.captured == t(date)).unwrap().id
}

fn robots_txt(host: &str, date: &str, status: u16, body: &[u8]) -> Capture {
    capture(&format!("http://{host}/robots.txt"), date, status, body)
}

fn page(host: &str, path: &str, date: &str) -> Capture {
    capture(&format!("http://{host}{path}"), date, 200, path.as_bytes())
}

const WEEK: &[u8] = b"User-agent: *\nArchive-Embargo: w\nDisallow: /admin\n";

#[test]
fn a_brief_outage_keeps_the_copy_read_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = archive_with(
        dir.path(),
        &[
            robots_txt("site.test", "2020-01-01T00:00:00Z", 200, WEEK),
            page("site.test", "/before", "2020-01-01T12:00:00Z"),
            robots_txt("site.test", "2020-01-02T01:00:00Z", 503, b"unavailable"),
            page("site.test", "/during", "2020-01-02T02:00:00Z"),
            page("site.test", "/admin/x", "2020-01-02T02:00:00Z"),
        ],
    );
    let copy = id_of(
        &archive,
        "http://site.test/robots.txt",
        "2020-01-01T00:00:00Z",
    );
    let during = only(&archive, "http://site.test/during");
    assert_eq!(during.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(during.robots_record, Some(copy));
    assert_eq!(during.embargo_days, Some(7));
    assert_eq!(during.embargo_until, Some(t("2020-01-09T02:00:00Z")));
    // The copy's rules apply in full: what it disallows stays disallowed.
    let admin = only(&archive, "http://site.test/admin/x");
    assert_eq!(admin.verdict, Some(CaptureVerdict::Disallowed));
    assert_eq!(admin.robots_record, Some(copy));
    // As in the auditor's run: a release a year on publishes the page.
    let report = archive.release(t("2021-01-01T00:00:00Z")).unwrap();
    assert_eq!(report.released, 4, "{report:?}");
}

#[test]
fn an_unavailable_copy_means_no_rules_through_the_outage() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive_with(
        dir.path(),
        &[
            robots_txt("gone.test", "2020-01-01T00:00:00Z", 404, b""),
            robots_txt("gone.test", "2020-01-02T00:00:00Z", 500, b""),
            page("gone.test", "/page", "2020-01-02T01:00:00Z"),
        ],
    );
    let page = only(&archive, "http://gone.test/page");
    assert_eq!(page.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(page.embargo_until, Some(page.captured));
}

#[test]
fn without_an_earlier_copy_an_outage_disallows() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive_with(
        dir.path(),
        &[
            // Only the 5xx was ever seen.
            robots_txt("down.test", "2020-01-01T00:00:00Z", 503, b""),
            page("down.test", "/page", "2020-01-01T01:00:00Z"),
            // The page came first and the 5xx just after it governs; the 200 read later
            // still was not the crawler's when it took the page.
            page("late.test", "/page", "2020-01-01T00:00:00Z"),
            robots_txt("late.test", "2020-01-01T01:00:00Z", 503, b""),
            robots_txt("late.test", "2020-01-01T02:00:00Z", 200, WEEK),
            // A 5xx fetched just after a page does not displace the copy read before it.
            robots_txt("kept.test", "2020-01-01T00:00:00Z", 200, WEEK),
            page("kept.test", "/page", "2020-01-01T01:00:00Z"),
            robots_txt("kept.test", "2020-01-01T02:00:00Z", 503, b""),
        ],
    );
    let down = only(&archive, "http://down.test/page");
    assert_eq!(down.verdict, Some(CaptureVerdict::Disallowed));
    assert_eq!(
        down.robots_record,
        Some(only(&archive, "http://down.test/robots.txt").id)
    );
    let late = only(&archive, "http://late.test/page");
    assert_eq!(late.verdict, Some(CaptureVerdict::Disallowed));
    let kept = only(&archive, "http://kept.test/page");
    assert_eq!(kept.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(kept.embargo_days, Some(7));
}

#[test]
fn a_copy_more_than_thirty_days_older_than_the_capture_is_not_used() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive_with(
        dir.path(),
        &[
            robots_txt("site.test", "2020-01-01T00:00:00Z", 200, WEEK),
            robots_txt("site.test", "2020-01-30T00:00:00Z", 503, b""),
            page("site.test", "/last", "2020-01-31T00:00:00Z"),
            page("site.test", "/after", "2020-01-31T00:00:01Z"),
        ],
    );
    let last = only(&archive, "http://site.test/last");
    assert_eq!(last.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(last.embargo_days, Some(7));
    let after = only(&archive, "http://site.test/after");
    assert_eq!(after.verdict, Some(CaptureVerdict::Disallowed));
    assert_eq!(after.embargo_until, None);
}

#[test]
fn a_copy_ingested_after_the_outage_lifts_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = archive_with(
        dir.path(),
        &[
            robots_txt("site.test", "2020-01-02T01:00:00Z", 503, b""),
            page("site.test", "/during", "2020-01-02T02:00:00Z"),
        ],
    );
    let url = "http://site.test/during";
    assert_eq!(
        only(&archive, url).verdict,
        Some(CaptureVerdict::Disallowed)
    );
    let earlier = write_warc(
        &dir.path().join("earlier.warc.gz"),
        &[robots_txt("site.test", "2020-01-01T00:00:00Z", 200, WEEK)],
        2,
    );
    archive.ingest(&earlier, &mut |_| {}).unwrap();
    let during = only(&archive, url);
    assert_eq!(during.verdict, Some(CaptureVerdict::Allowed));
    assert_eq!(during.embargo_until, Some(t("2020-01-09T02:00:00Z")));
}
