//! Release: due records published once into public WARC files, tombstones for the rest,
//! flagged records never, and exactly once even when a release is cut short anywhere.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use common::*;
use robots_archive::{Archive, Digest, ReleaseStep};

/// (WARC-Type, target URI, refers-to or record ID, block) of every record in `public/`.
fn published(archive_dir: &Path) -> Vec<(String, String, String, Vec<u8>)> {
    public_records(archive_dir)
        .into_iter()
        .map(|(name, f, block)| {
            assert!(
                name.starts_with("release-") && name.ends_with(".warc.gz"),
                "{name}"
            );
            let field = |key: &str| f.get(key).unwrap_or("").to_owned();
            let id = f
                .get("WARC-Refers-To")
                .or(f.get("WARC-Record-ID"))
                .unwrap_or("")
                .to_owned();
            (field("WARC-Type"), field("WARC-Target-URI"), id, block)
        })
        .collect()
}

fn fixture() -> Vec<Capture> {
    vec![
        site_robots(),
        capture(
            &format!("{SITE}/news/a"),
            "2026-01-02T00:00:00Z",
            200,
            b"BODY-NEWS-A",
        )
        .header("Last-Modified", "Thu, 25 Dec 2025 00:00:00 GMT"),
        capture(
            &format!("{SITE}/news/c"),
            "2026-01-02T00:00:00Z",
            200,
            b"BODY-NEWS-C",
        ),
        capture(
            &format!("{SITE}/private/x"),
            "2026-01-02T00:00:00Z",
            200,
            b"BODY-PRIVATE",
        ),
        capture(
            "http://other.test/page",
            "2026-01-02T00:00:00Z",
            200,
            b"BODY-NO-ROBOTS",
        ),
        capture(
            "http://gone.test/robots.txt",
            "2026-01-02T00:00:00Z",
            404,
            b"BODY-404",
        ),
        capture(
            "http://gone.test/page",
            "2026-01-02T00:00:00Z",
            200,
            b"BODY-OPEN",
        ),
    ]
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn count(records: &[(String, String, String, Vec<u8>)], kind: &str, url: &str) -> usize {
    records.iter().filter(|r| r.0 == kind && r.1 == url).count()
}

#[test]
fn releases_publish_due_records_once_and_tombstones_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = archive_with(dir.path(), &fixture());
    let adir = dir.path().join("archive");

    let first = archive.release(t("2026-01-10T00:00:00Z")).unwrap();
    assert_eq!((first.released, first.tombstones), (2, 3));
    let records = published(&adir);
    assert_eq!(records[0].0, "warcinfo");
    assert_eq!(count(&records, "response", "http://gone.test/page"), 1);
    assert_eq!(
        count(&records, "response", "http://gone.test/robots.txt"),
        1
    );
    assert_eq!(count(&records, "revisit", &format!("{SITE}/news/a")), 1);
    assert_eq!(count(&records, "revisit", &format!("{SITE}/robots.txt")), 1);
    let all: Vec<u8> = records.iter().flat_map(|r| r.3.clone()).collect();
    assert!(contains(&all, b"BODY-OPEN"));
    for secret in [
        &b"BODY-NEWS-A"[..],
        b"BODY-NEWS-C",
        b"BODY-PRIVATE",
        b"BODY-NO-ROBOTS",
    ] {
        assert!(
            !contains(&all, secret),
            "{}",
            String::from_utf8_lossy(secret)
        );
    }
    // The tombstone carries the headers and digest, and says when.
    let tomb = records
        .iter()
        .find(|r| r.0 == "revisit" && r.1.ends_with("/news/a"))
        .unwrap();
    assert!(contains(
        &tomb.3,
        b"Last-Modified: Thu, 25 Dec 2025 00:00:00 GMT"
    ));

    // Nothing new: no file.
    let idle = archive.release(t("2026-01-11T00:00:00Z")).unwrap();
    assert!(idle.files.is_empty());

    let second = archive.release(t("2026-01-26T00:00:00Z")).unwrap();
    assert_eq!((second.released, second.tombstones), (1, 0));
    let third = archive.release(t("2026-06-01T00:00:00Z")).unwrap();
    assert_eq!((third.released, third.tombstones), (2, 0));
    let records = published(&adir);
    let all: Vec<u8> = records.iter().flat_map(|r| r.3.clone()).collect();
    assert!(contains(&all, b"BODY-NEWS-A") && contains(&all, b"BODY-NEWS-C"));
    assert!(!contains(&all, b"BODY-PRIVATE") && !contains(&all, b"BODY-NO-ROBOTS"));
    assert_eq!(count(&records, "response", &format!("{SITE}/news/a")), 1);
    assert_eq!(count(&records, "response", &format!("{SITE}/news/c")), 1);

    let status = archive.status(t("2026-06-01T00:00:00Z")).unwrap();
    assert_eq!((status.released, status.published), (5, 5));
    assert_eq!(
        (status.disallowed, status.no_robots, status.embargoed),
        (1, 1, 0)
    );

    if let Some(files) = warcio_targets(&adir) {
        for file in files {
            let check = warcio(&["check", "-v", &file]).unwrap();
            assert!(
                check.status.success(),
                "warcio check {file}: {}",
                String::from_utf8_lossy(&check.stdout)
            );
            let index = warcio(&[
                "index",
                "-f",
                "warc-type,warc-target-uri,length,offset",
                &file,
            ])
            .unwrap();
            assert!(index.status.success(), "warcio index {file}");
            let lines = String::from_utf8_lossy(&index.stdout).lines().count();
            assert!(lines >= 2, "warcio index listed {lines} records in {file}");
        }
    }
}

fn warcio_targets(adir: &Path) -> Option<Vec<String>> {
    warcio(&["--help"])?;
    let mut files: Vec<String> = std::fs::read_dir(adir.join("public"))
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    files.sort();
    Some(files)
}

#[test]
fn status_lists_counts_and_next_release_days() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive_with(dir.path(), &fixture());
    let s = archive.status(t("2026-01-10T00:00:00Z")).unwrap();
    assert_eq!(s.records, 7);
    assert_eq!((s.released, s.published, s.embargoed), (2, 0, 3));
    assert_eq!((s.disallowed, s.no_robots), (1, 1));
    let days: Vec<_> = s
        .next_releases
        .iter()
        .map(|d| (d.first.as_str(), d.records))
        .collect();
    assert_eq!(
        days,
        [
            ("2026-01-25T00:00:00Z", 1),
            ("2026-02-01T00:00:00Z", 1),
            ("2026-02-02T00:00:00Z", 1)
        ]
    );
}

/// Stops a release at the `n`-th step it reports (0-based), as a crash would.
fn crash_at(archive: &mut Archive, at: &str, n: usize) -> bool {
    let mut seen = 0;
    let result = archive.release_observed(t(at), &mut |_step: ReleaseStep| {
        seen += 1;
        if seen - 1 == n {
            Err(std::io::Error::other("injected crash"))
        } else {
            Ok(())
        }
    });
    result.is_err()
}

#[test]
fn a_release_cut_short_anywhere_publishes_each_record_exactly_once() {
    let times = [
        "2026-01-10T00:00:00Z",
        "2026-01-26T00:00:00Z",
        "2026-06-01T00:00:00Z",
    ];
    // Every step of every release, one crash per run.
    for (which, at) in times.iter().enumerate() {
        for n in 0.. {
            let dir = tempfile::tempdir().unwrap();
            let mut archive = archive_with(dir.path(), &fixture());
            for earlier in &times[..which] {
                archive.release(t(earlier)).unwrap();
            }
            let crashed = crash_at(&mut archive, at, n);
            // Leftovers of the crash stay; the next run must cope with them.
            drop(archive);
            let mut archive = Archive::open(&dir.path().join("archive")).unwrap();
            let rerun = archive.release(t(at)).unwrap();
            // Every injected stop comes after the batch was committed: the rerun resumes it.
            assert_eq!(rerun.resumed, crashed, "step {n}");
            for later in &times[which + 1..] {
                archive.release(t(later)).unwrap();
            }
            let records = published(&dir.path().join("archive"));
            let mut seen: HashMap<(String, String), usize> = HashMap::new();
            for r in records.iter().filter(|r| r.0 != "warcinfo") {
                *seen.entry((r.0.clone(), r.2.clone())).or_default() += 1;
            }
            assert!(
                seen.values().all(|&c| c == 1),
                "step {n} of release {which}: {seen:?}"
            );
            let responses = seen.keys().filter(|k| k.0 == "response").count();
            let revisits = seen.keys().filter(|k| k.0 == "revisit").count();
            assert_eq!((responses, revisits), (5, 3), "step {n} of release {which}");
            let leftovers = std::fs::read_dir(dir.path().join("archive/public"))
                .unwrap()
                .filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .ends_with(".part")
                })
                .count();
            assert_eq!(leftovers, 0, "step {n}");
            if !crashed {
                break;
            }
        }
    }
}

/// A stored file deleted from under the index is named as missing from the sealed store,
/// with how to bring it back, and ingesting its original again does.
#[test]
fn a_file_missing_from_the_store_is_named_with_how_to_restore_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = archive_with(dir.path(), &fixture());
    let stored = std::fs::read_dir(dir.path().join("archive/store"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::remove_file(&stored).unwrap();
    let e = archive.release(t("2026-03-01T00:00:00Z")).unwrap_err();
    assert!(
        matches!(&e, robots_archive::Error::StoreMissing { file } if *file == stored),
        "{e}"
    );
    assert!(e.to_string().contains("restore it from a backup"), "{e}");
    let again = archive
        .ingest(&dir.path().join("crawl.warc.gz"), &mut |_| {})
        .unwrap();
    assert!(again.already_ingested);
    let report = archive.release(t("2026-03-01T00:00:00Z")).unwrap();
    assert!(report.released > 0);
}

/// Moves the index of the archive in `adir` away and ingests the stored WARC files into
/// a new one, as the index error advises when an index is damaged.
fn rebuild(adir: &Path) -> Archive {
    for end in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(adir.join(format!("index.sqlite3{end}")));
    }
    let mut archive = Archive::create(adir, AGENT).unwrap();
    let mut stored: Vec<_> = std::fs::read_dir(adir.join("store"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    stored.sort();
    for file in stored {
        archive.ingest(&file, &mut |_| {}).unwrap();
    }
    archive
}

#[test]
fn a_rebuilt_index_knows_what_earlier_releases_published() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = archive_with(dir.path(), &fixture());
    let adir = dir.path().join("archive");
    // A revisit of a page released at once: published after its original.
    let revisit = capture("http://gone.test/page", "2026-01-05T00:00:00Z", 200, b"")
        .warc("WARC-Payload-Digest", Digest::of(b"BODY-OPEN").as_header());
    let crawl = write_records(
        &dir.path().join("crawl2.warc.gz"),
        &[Item::Revisit(revisit, IDENTICAL, true)],
        2,
    );
    archive.ingest(&crawl, &mut |_| {}).unwrap();
    archive.release(t("2026-01-10T00:00:00Z")).unwrap();
    archive.release(t("2026-01-26T00:00:00Z")).unwrap();
    let before = published(&adir);
    drop(archive);

    let mut archive = rebuild(&adir);
    // What was published counts as published, and is not published again; nor are the
    // records still under embargo given a second tombstone.
    let status = archive.status(t("2026-01-26T00:00:00Z")).unwrap();
    assert_eq!((status.released, status.published), (4, 4));
    let again = archive.release(t("2026-01-26T00:00:00Z")).unwrap();
    assert!(again.files.is_empty(), "{again:?}");
    assert_eq!(published(&adir), before);

    // The next release takes up what is due since, in a file numbered after the others.
    let next = archive.release(t("2026-06-01T00:00:00Z")).unwrap();
    assert_eq!((next.released, next.tombstones), (2, 0));
    let name = next.files[0].file_name().unwrap().to_string_lossy();
    assert!(name.starts_with("release-000003-"), "{name}");
    let records = published(&adir);
    for url in ["http://gone.test/page", &format!("{SITE}/news/a")] {
        assert_eq!(count(&records, "response", url), 1, "{url}");
    }
    assert_eq!(count(&records, "revisit", &format!("{SITE}/news/a")), 1);
    assert_eq!(count(&records, "revisit", "http://gone.test/page"), 1);
    let status = archive.status(t("2026-06-01T00:00:00Z")).unwrap();
    assert_eq!((status.released, status.published), (6, 6));
}

#[test]
fn an_index_restored_from_a_backup_learns_the_releases_made_since() {
    let dir = tempfile::tempdir().unwrap();
    let mut archive = archive_with(dir.path(), &fixture());
    let adir = dir.path().join("archive");
    archive.release(t("2026-01-10T00:00:00Z")).unwrap();
    drop(archive);
    let backup = dir.path().join("backup.sqlite3");
    std::fs::copy(adir.join("index.sqlite3"), &backup).unwrap();
    let mut archive = Archive::open(&adir).unwrap();
    archive.release(t("2026-01-26T00:00:00Z")).unwrap();
    let before = published(&adir);
    drop(archive);

    std::fs::copy(&backup, adir.join("index.sqlite3")).unwrap();
    let mut archive = Archive::open(&adir).unwrap();
    let status = archive.status(t("2026-01-26T00:00:00Z")).unwrap();
    assert_eq!((status.released, status.published), (3, 3));
    assert!(archive
        .release(t("2026-01-26T00:00:00Z"))
        .unwrap()
        .files
        .is_empty());
    assert_eq!(published(&adir), before);
}
