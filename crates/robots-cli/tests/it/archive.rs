//! `robots archive …` as a user runs it: ingest, status, release, errors, help, and a
//! release process killed at random points then run again (exactly-once publication).

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use robots_archive::warc::{Fields, Reader, Writer};
use robots_archive::Timestamp;

const T0: i64 = 1_767_225_600; // 2026-01-01T00:00:00Z

/// `robots` with `args` and nothing on its standard input.
fn robots(args: &[&str]) -> Output {
    common::run(args, "")
}

/// `robots archive ingest ARCHIVE --agent ExampleBot WARC`.
fn ingest(archive: impl AsRef<Path>, warc: &Path) -> Output {
    let archive = archive.as_ref().to_str().unwrap();
    robots(&[
        "archive",
        "ingest",
        archive,
        "--agent",
        "ExampleBot",
        warc.to_str().unwrap(),
    ])
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// robots.txt with a week's embargo on /news, then `n` news pages, one a second.
fn write_warc(path: &Path, n: usize) -> PathBuf {
    write_warc_from(path, n, T0)
}

/// [`write_warc`], the first record dated `t0` (Unix seconds).
fn write_warc_from(path: &Path, n: usize, t0: i64) -> PathBuf {
    let mut w = Writer::new(std::fs::File::create(path).unwrap());
    let mut write = |i: usize, url: &str, body: &str| {
        let mut f = Fields::new();
        f.push("WARC-Type", "response");
        f.push(
            "WARC-Record-ID",
            format!("<urn:uuid:00000000-0000-4000-8000-{i:012}>"),
        );
        f.push("WARC-Date", Timestamp::from_unix(t0 + i as i64).rfc3339());
        f.push("WARC-Target-URI", url);
        let block = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        w.write_record(&f, block.as_bytes()).unwrap();
    };
    write(
        0,
        "http://cli.test/robots.txt",
        "User-agent: *\nArchive-Embargo: w\nDisallow: /private\n",
    );
    write(1, "http://cli.test/private/p", "PRIVATE");
    for i in 2..n + 2 {
        write(
            i,
            &format!("http://cli.test/news/{i}"),
            &format!("body of page {i}"),
        );
    }
    w.finish().unwrap();
    path.to_owned()
}

fn published_ids(archive: &Path) -> HashMap<String, usize> {
    let mut ids = HashMap::new();
    let Ok(dir) = std::fs::read_dir(archive.join("public")) else {
        return ids;
    };
    for entry in dir {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "gz") {
            continue;
        }
        let file = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
        let mut reader = Reader::new(file, &path, 0);
        while let Some(r) = reader.next(|_, b| b.read_to_end(&mut Vec::new())).unwrap() {
            if r.fields.get("WARC-Type") == Some("response") {
                let id = r.fields.get("WARC-Record-ID").unwrap().to_owned();
                *ids.entry(id).or_default() += 1;
            }
        }
    }
    ids
}

#[test]
fn ingest_status_release_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), 3);
    let archive = dir.path().join("archive");
    let a = archive.to_str().unwrap();
    let out = ingest(a, &warc);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("5 responses indexed (1 robots.txt)"),
        "{}",
        text(&out)
    );
    let again = ingest(a, &warc);
    assert!(text(&again).contains("already ingested"));

    let out = robots(&[
        "archive",
        "status",
        a,
        "--at",
        "2026-01-03T00:00:00Z",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            s["records"].as_u64(),
            s["embargoed"].as_u64(),
            s["disallowed"].as_u64()
        ),
        (Some(5), Some(4), Some(1))
    );
    assert_eq!(s["next_releases"][0]["first"], "2026-01-08T00:00:00Z");
    let out = robots(&["archive", "status", a, "--at", "2026-01-03T01:00:00+01:00"]);
    assert!(text(&out).contains("embargoed   4"), "{}", text(&out));
    // A date alone is its first instant in UTC.
    let out = robots(&["archive", "status", a, "--at", "2026-01-03"]);
    assert!(
        text(&out).contains("at 2026-01-03T00:00:00Z"),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("embargoed   4"), "{}", text(&out));

    // Releasing as of a later time than now would publish what is under embargo today.
    let early = robots(&["archive", "release", a, "--at", "2999-01-01T00:00:00Z"]);
    assert_eq!(early.status.code(), Some(2));
    assert!(text(&early).contains("in the future"), "{}", text(&early));
    assert!(published_ids(&archive).is_empty());
    // So would serving as of a later time: refused before anything listens.
    let early = robots(&[
        "archive",
        "serve",
        a,
        "--addr",
        "127.0.0.1:0",
        "--at",
        "2999-01-01",
    ]);
    assert_eq!(early.status.code(), Some(2));
    assert!(text(&early).contains("in the future"), "{}", text(&early));
    assert!(text(&early).contains("archive status"), "{}", text(&early));
    #[cfg(unix)]
    a_reader_gone_early_ends_it_quietly(a);

    let out = robots(&["archive", "release", a, "--at", "2026-01-03T00:00:00Z"]);
    assert!(
        text(&out).contains("0 records released, 4 tombstones"),
        "{}",
        text(&out)
    );
    let out = robots(&["archive", "release", a, "--at", "2026-01-09T00:00:00Z"]);
    assert!(
        text(&out).contains("4 records released, 0 tombstones"),
        "{}",
        text(&out)
    );
    assert_eq!(published_ids(&archive).len(), 4);

    let bad = robots(&["archive", "status", a, "--at", "next tuesday"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad).contains("RFC 3339"), "{}", text(&bad));
    let missing = robots(&[
        "archive",
        "release",
        dir.path().join("none").to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing).contains("is not an archive"));
    let warc = warc.to_str().unwrap();
    let header = robots(&[
        "archive",
        "ingest",
        a,
        "--agent",
        "ExampleBot/1.0 (+x)",
        warc,
    ]);
    assert_eq!(header.status.code(), Some(2));
    let said = text(&header);
    assert!(
        said.contains("--agent `ExampleBot/1.0 (+x)`: '/' cannot appear in a product token")
            && !said.contains("Agent::"),
        "{said}"
    );
    std::fs::write(dir.path().join("junk.warc"), b"GET / HTTP/1.1\r\n").unwrap();
    let junk = robots(&[
        "archive",
        "ingest",
        a,
        "--agent",
        "ExampleBot",
        dir.path().join("junk.warc").to_str().unwrap(),
    ]);
    assert_eq!(junk.status.code(), Some(2));
    assert!(
        text(&junk).contains("byte 0") && text(&junk).contains("is this a WARC file?"),
        "{}",
        text(&junk)
    );
}

/// The rebuild the index error advises, run from the command line: the index moved
/// away, the stored files ingested again; the next release publishes nothing twice.
#[test]
fn a_rebuilt_index_publishes_nothing_twice() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), 3);
    let archive = dir.path().join("archive");
    let a = archive.to_str().unwrap();
    assert!(ingest(a, &warc).status.success());
    let out = robots(&["archive", "release", a, "--at", "2026-01-09T00:00:00Z"]);
    assert!(text(&out).contains("4 records released"), "{}", text(&out));
    std::fs::rename(
        archive.join("index.sqlite3"),
        dir.path().join("old.sqlite3"),
    )
    .unwrap();
    for stored in std::fs::read_dir(archive.join("store")).unwrap() {
        assert!(ingest(a, &stored.unwrap().path()).status.success());
    }
    let out = robots(&["archive", "release", a, "--at", "2026-01-10T00:00:00Z"]);
    assert!(text(&out).contains("nothing to release"), "{}", text(&out));
    assert!(published_ids(&archive).values().all(|n| *n == 1));
    assert_eq!(published_ids(&archive).len(), 4);
}

/// One damaged file among many is named, and the files after it are ingested all the
/// same; the run ends with status 2.
#[test]
fn a_damaged_file_does_not_stop_the_files_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), 1);
    let junk = dir.path().join("junk.warc");
    std::fs::write(&junk, b"<html>not a warc</html>").unwrap();
    let archive = dir.path().join("archive");
    let a = archive.to_str().unwrap();
    let out = robots(&[
        "archive",
        "ingest",
        a,
        "--agent",
        "ExampleBot",
        junk.to_str().unwrap(),
        warc.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("is this a WARC file?"), "{said}");
    assert!(
        said.contains("1 of 2 WARC files could not be ingested whole"),
        "{said}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("responses indexed"),
        "{said}"
    );
    let status = robots(&["archive", "status", a, "--at", "2026-01-03T00:00:00Z"]);
    assert!(!text(&status).contains(": 0 records"), "{}", text(&status));
}

/// `robots archive status` into a reader that has gone away stops quietly with status 2,
/// not in a panic.
#[cfg(unix)]
fn a_reader_gone_early_ends_it_quietly(archive: &str) {
    let closed = common::run_into_closed_pipe(&["archive", "status", archive]);
    assert_eq!(closed.status.code(), Some(2), "{}", text(&closed));
    assert!(closed.stderr.is_empty(), "{}", text(&closed));
}

#[test]
fn ingest_warns_of_responses_it_could_not_use() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("odd.warc.gz");
    let mut w = Writer::new(std::fs::File::create(&warc).unwrap());
    for (i, (url, date, head)) in [
        (
            "http://odd.test/robots.txt",
            "2026-01-01T00:00:00Z",
            "Content-Encoding: br\r\n",
        ),
        // A time without a zone names no instant (W3C-DTF requires one).
        ("http://odd.test/page", "2026-01-01T00:00", ""),
    ]
    .into_iter()
    .enumerate()
    {
        let mut f = Fields::new();
        f.push("WARC-Type", "response");
        f.push("WARC-Record-ID", format!("<urn:uuid:odd-{i}>"));
        f.push("WARC-Date", date);
        f.push("WARC-Target-URI", url);
        let block = format!("HTTP/1.1 200 OK\r\n{head}Content-Length: 2\r\n\r\n\x1b\x03");
        w.write_record(&f, block.as_bytes()).unwrap();
    }
    w.finish().unwrap();
    let a = dir.path().join("archive");
    let args = [
        "archive",
        "ingest",
        a.to_str().unwrap(),
        "--agent",
        "ExampleBot",
    ];
    let out = robots(&[&args[..], &[warc.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("1 response has no valid WARC-Date"), "{said}");
    assert!(
        said.contains("1 robots.txt capture is in a content coding"),
        "{said}"
    );
}

#[test]
fn ingest_counts_revisits_and_warns_of_missing_originals_and_wrong_digests() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("dedup.warc.gz");
    let mut w = Writer::new(std::fs::File::create(&warc).unwrap());
    let record = |kind: &str, i: usize, url: &str, extra: &[(&str, &str)]| {
        let mut f = Fields::new();
        f.push("WARC-Type", kind);
        f.push("WARC-Record-ID", format!("<urn:uuid:dedup-{i}>"));
        f.push("WARC-Date", "2026-01-01T00:00:00Z");
        f.push("WARC-Target-URI", url);
        for (name, value) in extra {
            f.push(*name, *value);
        }
        f
    };
    let block = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n";
    // Its digest is of the empty payload, not of `page`.
    let wrong = [(
        "WARC-Payload-Digest",
        "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ",
    )];
    let page = record("response", 0, "http://dedup.test/a", &wrong);
    w.write_record(&page, format!("{block}page").as_bytes())
        .unwrap();
    let revisit = record(
        "revisit",
        1,
        "http://dedup.test/b",
        &[
            (
                "WARC-Profile",
                "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest",
            ),
            ("WARC-Refers-To", "<urn:uuid:never-ingested>"),
        ],
    );
    w.write_record(&revisit, block.as_bytes()).unwrap();
    w.finish().unwrap();
    let a = dir.path().join("archive");
    let out = ingest(a, &warc);
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("1 response indexed (0 robots.txt), 1 revisit indexed, 0 already indexed"),
        "{said}"
    );
    assert!(
        said.contains("1 revisit refers to a capture that is not in the archive"),
        "{said}"
    );
    assert!(
        said.contains("1 response declares a WARC-Payload-Digest that does not match"),
        "{said}"
    );
}

#[test]
fn text_output_escapes_control_characters_in_names_and_captures() {
    let dir = tempfile::tempdir().unwrap();
    let evil = "\x1b[31m\x07\u{202e}";
    let shown = "\\u{1b}[31m\\u{7}\\u{202e}";
    let warc = dir.path().join(format!("crawl{evil}.warc.gz"));
    let mut w = Writer::new(std::fs::File::create(&warc).unwrap());
    for (i, (url, head)) in [
        ("http://e.test/robots.txt", ""),
        (
            "http://e.test/news/\x1b]0;PWNED\x07\0\u{202e}",
            "X-Evil: \x1b[2J\u{202e}\r\n",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let mut f = Fields::new();
        f.push("WARC-Type", "response");
        f.push("WARC-Record-ID", format!("<urn:uuid:evil-{i}>"));
        f.push("WARC-Date", Timestamp::from_unix(T0 + i as i64).rfc3339());
        f.push("WARC-Target-URI", url);
        let block = format!("HTTP/1.1 200 OK\r\n{head}Content-Length: 1\r\n\r\n\x1b");
        w.write_record(&f, block.as_bytes()).unwrap();
    }
    w.finish().unwrap();
    let archive = dir.path().join(format!("archive{evil}"));
    let a = archive.to_str().unwrap();

    let out = ingest(a, &warc);
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(!common::raw_controls(&said), "{said:?}");
    assert!(
        said.contains(&format!("crawl{shown}.warc.gz: 2 responses indexed")),
        "{said}"
    );
    let at = "2026-01-02T00:00:00Z";
    let out = robots(&["archive", "status", a, "--at", at]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!common::raw_controls(&text(&out)), "{:?}", text(&out));
    let out = robots(&["archive", "status", a, "--at", at, "--format", "json"]);
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["records"], 2);
    let out = robots(&["archive", "release", a, "--at", at]);
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(!common::raw_controls(&said), "{said:?}");
    assert!(
        said.contains(&format!("archive{shown}/public/release-")),
        "{said}"
    );
}

#[test]
fn every_archive_subcommand_has_an_example_in_help() {
    for sub in ["ingest", "status", "serve", "release", "export"] {
        let out = robots(&["archive", sub, "--help"]);
        assert!(out.status.success());
        let help = text(&out);
        assert!(
            help.contains("Example") && help.contains(&format!("robots archive {sub}")),
            "{sub}: {help}"
        );
    }
}

/// A directory or a missing file given as a WARC file is refused before the archive is
/// created, so that a slip leaves no empty archive behind, and a directory is told apart.
#[test]
fn ingest_checks_its_files_before_creating_the_archive() {
    let dir = tempfile::tempdir().unwrap();
    let crawls = dir.path().join("crawls");
    std::fs::create_dir(&crawls).unwrap();
    let archive = dir.path().join("archive");
    let out = ingest(&archive, &crawls);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("crawls is a directory; give the WARC files in it"),
        "{said}"
    );
    assert!(!archive.exists());
    let out = ingest(&archive, &dir.path().join("no-such.warc.gz"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("cannot read"), "{}", text(&out));
    assert!(!archive.exists());
}

/// Among several files, every path that cannot be ingested is named in one error, before
/// any file is: the good files are not ingested either, and the run ends with status 2.
#[test]
fn ingest_names_every_missing_file_before_ingesting_any() {
    let dir = tempfile::tempdir().unwrap();
    let a = write_warc(&dir.path().join("a.warc.gz"), 1);
    let b = write_warc_from(&dir.path().join("b.warc.gz"), 1, T0 + 60);
    let (gone, lost) = (dir.path().join("gone.warc"), dir.path().join("lost.warc"));
    let archive = dir.path().join("archive");
    let paths = [&a, &gone, &b, &lost, &dir.path().to_owned()];
    let mut args = vec![
        "archive",
        "ingest",
        archive.to_str().unwrap(),
        "--agent",
        "ExampleBot",
    ];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let out = robots(&args);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("3 of 5 WARC files cannot be ingested, so none was"),
        "{said}"
    );
    for missing in [&gone, &lost] {
        let named = format!(
            "cannot read {}: No such file or directory",
            missing.display()
        );
        assert!(said.contains(&named), "{said}");
    }
    assert!(
        said.contains("is a directory; give the WARC files in it"),
        "{said}"
    );
    assert_eq!(said.lines().count(), 1, "one error: {said}");
    // Nothing ingested, nothing created.
    assert!(String::from_utf8_lossy(&out.stdout).is_empty(), "{said}");
    assert!(!archive.exists());
}

/// An empty file is refused as no WARC file, and leaves no file in store/; the files
/// after it are ingested, and the run ends with status 2.
#[test]
fn an_empty_warc_is_refused_and_leaves_nothing_in_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.warc");
    std::fs::write(&empty, b"").unwrap();
    let good = write_warc(&dir.path().join("crawl.warc.gz"), 1);
    let archive = dir.path().join("archive");
    let a = archive.to_str().unwrap();
    let out = robots(&[
        "archive",
        "ingest",
        a,
        "--agent",
        "ExampleBot",
        empty.to_str().unwrap(),
        good.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("empty.warc, byte 0: the file is empty"),
        "{said}"
    );
    assert!(
        said.contains("1 of 2 WARC files could not be ingested whole"),
        "{said}"
    );
    let stored: Vec<u64> = std::fs::read_dir(archive.join("store"))
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .collect();
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert!(stored[0] > 0, "{stored:?}");
}

/// A capture dated 9999-12-31 has its embargo end past the year 9999, which RFC 3339
/// cannot write: it is shown as the last second of 9999, not as `10000-…`.
#[test]
fn an_embargo_ending_after_the_year_9999_is_shown_as_its_last_second() {
    let dir = tempfile::tempdir().unwrap();
    let last_day = Timestamp::parse_rfc3339("9999-12-31T00:00:00Z")
        .unwrap()
        .unix();
    let warc = write_warc_from(&dir.path().join("late.warc.gz"), 1, last_day);
    let archive = dir.path().join("archive");
    let a = archive.to_str().unwrap();
    let out = ingest(&archive, &warc);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    for format in ["text", "json"] {
        let out = robots(&[
            "archive",
            "status",
            a,
            "--at",
            "9999-12-31T12:00:00Z",
            "--format",
            format,
        ]);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(0), "{said}");
        assert!(said.contains("9999-12-31T23:59:59Z"), "{format}: {said}");
        assert!(!said.contains("10000-"), "{format}: {said}");
    }
}

/// An I/O failure (here, a port another server holds) is told once: the library's
/// message names the cause, and the chain the command prints must not repeat it.
#[test]
fn an_io_error_names_its_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), 1);
    let archive = dir.path().join("archive");
    assert!(ingest(&archive, &warc).status.success());
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = robots(&[
        "archive",
        "serve",
        archive.to_str().unwrap(),
        "--addr",
        &addr,
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains(&format!("address {addr}: ")), "{said}");
    assert_eq!(said.matches("(os error").count(), 1, "{said}");
}

/// So is a failure of the index: a damaged index.sqlite3 is named once, with what to do.
#[test]
fn a_damaged_index_is_told_once() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), 1);
    let archive = dir.path().join("archive");
    assert!(ingest(&archive, &warc).status.success());
    std::fs::write(archive.join("index.sqlite3"), b"not a database at all").unwrap();
    let out = robots(&["archive", "status", archive.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("move it away"), "{said}");
    // A rebuilt index learns what was published from public/: nothing goes out twice.
    assert!(
        said.contains("store/*") && said.contains("keep public/"),
        "{said}"
    );
    assert!(!said.contains("publishes it again"), "{said}");
    assert_eq!(said.matches("not a database").count(), 1, "{said}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn a_killed_release_run_again_publishes_each_record_once() {
    let dir = tempfile::tempdir().unwrap();
    let pages = 2_000;
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), pages);
    let pristine = dir.path().join("pristine");
    let out = ingest(&pristine, &warc);
    assert!(out.status.success(), "{}", text(&out));
    let at = "2026-02-01T00:00:00Z";
    // Kill points spread over the run, from before the plan commits to after the rename.
    let mut killed_midway = 0;
    for (n, delay_ms) in [1u64, 5, 20, 40, 80, 120, 200, 400].into_iter().enumerate() {
        let archive = dir.path().join(format!("run{n}"));
        copy_dir(&pristine, &archive);
        let a = archive.to_str().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_robots"))
            .args(["archive", "release", a, "--at", at])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        let status = child.wait().unwrap();
        if !status.success()
            && std::fs::read_dir(archive.join("public")).is_ok_and(|mut d| d.next().is_some())
        {
            killed_midway += 1;
        }
        let out = robots(&["archive", "release", a, "--at", at]);
        assert!(out.status.success(), "{}", text(&out));
        let ids = published_ids(&archive);
        assert_eq!(ids.len(), pages + 1, "run {n}: every due record published");
        assert!(
            ids.values().all(|&c| c == 1),
            "run {n}: a record was published twice"
        );
        let out = robots(&["archive", "status", a, "--at", at, "--format", "json"]);
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(s["published"].as_u64(), Some(pages as u64 + 1));
    }
    eprintln!("{killed_midway} of 8 runs were killed after writing had started");
}

/// A partial copy an interrupted ingest left in the store is reported by `status` with
/// what to do, and removed by the next ingest once its writer is certainly gone.
#[cfg(unix)]
#[test]
fn status_reports_partial_copies_left_by_an_interrupted_ingest() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("archive");
    let a = archive.to_str().unwrap();
    assert!(ingest(a, &write_warc(&dir.path().join("a.warc.gz"), 1))
        .status
        .success());
    let status = || robots(&["archive", "status", a, "--at", "2026-01-03T00:00:00Z"]);
    assert!(
        !text(&status()).contains("leftovers"),
        "{}",
        text(&status())
    );
    // Named as an older version named them, after a pid that no longer runs, and
    // untouched for two hours: a copy whose ingest was killed.
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let copy = archive.join(format!("store/.incoming-{dead}"));
    std::fs::write(&copy, vec![0u8; 1234]).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&copy)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - Duration::from_secs(7200))
        .unwrap();
    let out = status();
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("leftovers   1 incoming copy in")
            && said.contains("(1234 bytes): partial copies left by an ingest that was interrupted")
            && said.contains("while no ingest is running"),
        "{said}"
    );
    let out = robots(&["archive", "status", a, "--format", "json"]);
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["leftover_incoming"]["bytes"].as_u64(), Some(1234));
    if cfg!(target_os = "linux") {
        let out = ingest(a, &write_warc(&dir.path().join("b.warc.gz"), 2));
        assert!(out.status.success(), "{}", text(&out));
        assert!(
            text(&out).contains("removed 1 partial copy (1234 bytes)"),
            "{}",
            text(&out)
        );
        assert!(!copy.exists());
        assert!(!text(&status()).contains("leftovers"));
    }
}

/// Slow readers of a large released capture: the payload is streamed from the store
/// through a bounded buffer, so ten clients that stop reading after a few octets hold
/// little of the server's memory, and a normal client still gets the whole body.
#[cfg(target_os = "linux")]
#[test]
fn slow_readers_of_a_large_capture_hold_little_memory() {
    use std::io::{Read, Write};
    const SIZE: usize = 40 * 1024 * 1024;
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("big.warc");
    let mut w = Writer::new(std::fs::File::create(&warc).unwrap());
    let mut write = |i: usize, url: &str, body: &[u8]| {
        let mut block =
            format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len()).into_bytes();
        block.extend_from_slice(body);
        let mut record = format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: \
             <urn:uuid:00000000-0000-4000-8000-{i:012}>\r\nWARC-Date: {}\r\n\
             WARC-Target-URI: {url}\r\nContent-Length: {}\r\n\r\n",
            Timestamp::from_unix(T0 + i as i64).rfc3339(),
            block.len()
        )
        .into_bytes();
        record.extend_from_slice(&block);
        record.extend_from_slice(b"\r\n\r\n");
        w.write_plain_record(&record).unwrap();
    };
    write(
        0,
        "http://big.test/robots.txt",
        b"User-agent: *\nAllow: /\n",
    );
    let body: Vec<u8> = (0..SIZE).map(|i| b'a' + (i % 26) as u8).collect();
    write(1, "http://big.test/big", &body);
    w.finish().unwrap();
    let archive = dir.path().join("archive");
    assert!(ingest(&archive, &warc).status.success());

    let server = common::serve(&[
        "archive",
        "serve",
        archive.to_str().unwrap(),
        "--addr",
        "127.0.0.1:0",
    ]);
    let ask = |stream: &mut std::net::TcpStream| {
        write!(
            stream,
            "GET /web/http://big.test/big HTTP/1.1\r\nHost: big.test\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
    };
    let mut slow = Vec::new();
    for _ in 0..10 {
        let mut s = std::net::TcpStream::connect(server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        ask(&mut s);
        let mut first = [0u8; 1024];
        s.read_exact(&mut first).unwrap();
        assert!(first.starts_with(b"HTTP/1.1 200 "));
        slow.push(s);
    }
    // A normal client meanwhile gets every octet.
    let mut s = std::net::TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    ask(&mut s);
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    assert_eq!(answer.len() - end, SIZE);
    assert!(
        answer[end..] == body[..],
        "the body differs from the capture"
    );
    std::thread::sleep(Duration::from_millis(500));
    let peak = common::peak_memory(server.child.id());
    eprintln!(
        "server peak memory with 10 slow readers of a 40 MiB capture: {} MB",
        peak / 1_000_000
    );
    // Ten whole copies would be 420 MB; the server's own needs are a few tens.
    assert!(
        peak < 100_000_000,
        "server peak memory {} MB",
        peak / 1_000_000
    );
    drop(slow);
}

/// Every command's `--help` teaches it with its exit statuses, and `-h` is the short
/// summary, as the convention goes.
#[test]
fn every_command_says_its_exit_statuses_and_h_is_short() {
    let commands: [&[&str]; 11] = [
        &["check"],
        &["explain"],
        &["lint"],
        &["diff"],
        &["fetch"],
        &["serve"],
        &["archive"],
        &["archive", "ingest"],
        &["archive", "status"],
        &["archive", "serve"],
        &["archive", "release"],
    ];
    for command in commands {
        let long = text(&robots(&[command, &["--help"]].concat()));
        let short = text(&robots(&[command, &["-h"]].concat()));
        if command != ["archive"] {
            assert!(long.contains("Exit status"), "{command:?} --help: {long}");
        }
        assert!(
            short.len() < long.len(),
            "{command:?}: -h is as long as --help"
        );
        assert!(
            short.contains("--help"),
            "{command:?} -h names --help: {short}"
        );
    }
}

/// Counts read as English: one record, two records.
#[test]
fn counts_of_one_are_singular() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), 0);
    let archive = dir.path().join("archive");
    assert!(ingest(&archive, &warc).status.success());
    let a = archive.to_str().unwrap();
    let out = robots(&["archive", "release", a, "--at", "2026-01-02T00:00:00Z"]);
    // The robots.txt is under its own week's embargo: one tombstone, then one release.
    assert!(
        text(&out).contains("0 records released, 1 tombstone\n"),
        "{}",
        text(&out)
    );
    let out = robots(&["archive", "release", a, "--at", "2026-01-09T00:00:00Z"]);
    assert!(
        text(&out).contains("1 record released, 0 tombstones"),
        "{}",
        text(&out)
    );
    let out = robots(&["archive", "status", a, "--at", "2026-01-02T00:00:00Z"]);
    assert!(text(&out).contains(": 2 records"), "{}", text(&out));
    assert!(!text(&out).contains(" 1 records"), "{}", text(&out));
}

/// `export` writes CDXJ, aclj and WACZ files, and refuses a future `--at` for the two
/// that decide what goes out, as `release` does.
#[test]
fn export_writes_each_format_and_refuses_the_future_where_it_would_leak() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), 2);
    let archive = dir.path().join("archive");
    let a = archive.to_str().unwrap();
    assert!(ingest(a, &warc).status.success());
    let out_path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let export = |format: &str, at: &str, out: &str| {
        robots(&[
            "archive", "export", a, "--format", format, "--at", at, "-o", out,
        ])
    };

    let cdxj = out_path("all.cdxj");
    let out = export("cdxj", "2026-01-02T00:00:00Z", &cdxj);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("4 captures"), "{}", text(&out));
    let lines = std::fs::read_to_string(&cdxj).unwrap();
    assert!(
        lines.starts_with("test,cli)/news/2 20260101000002 {\"url\":"),
        "{lines}"
    );
    assert!(lines.contains("\"access\":\"disallowed\""), "{lines}");
    // A listing only: a future time is allowed.
    assert!(export("cdxj", "2100-01-01", &cdxj).status.success());

    let aclj = out_path("e.aclj");
    let out = export("aclj", "2026-01-02T00:00:00Z", &aclj);
    assert!(out.status.success(), "{}", text(&out));
    let rules = std::fs::read_to_string(&aclj).unwrap();
    assert!(
        rules.contains("test,cli)/private/p### - {\"access\":\"exclude\""),
        "{rules}"
    );
    assert!(
        rules.contains("test,cli)/news/3### - {\"access\":\"block\""),
        "{rules}"
    );

    let wacz = out_path("r.wacz");
    let out = export("wacz", "2026-02-01T00:00:00Z", &wacz);
    assert!(out.status.success(), "{}", text(&out));
    let bytes = std::fs::read(&wacz).unwrap();
    assert!(bytes.starts_with(b"PK"), "a ZIP file");
    // Entries are stored uncompressed: the index inside lists the released pages only.
    assert!(common_contains(&bytes, b"test,cli)/news/2 20260101000002"));
    assert!(
        !common_contains(&bytes, b"test,cli)/private/p"),
        "never a disallowed capture"
    );

    for format in ["wacz", "aclj"] {
        let late = out_path(&format!("late.{format}"));
        let out = export(format, "2100-01-01", &late);
        assert_eq!(out.status.code(), Some(2), "{format}: {}", text(&out));
        assert!(text(&out).contains("in the future"), "{}", text(&out));
        assert!(!Path::new(&late).exists());
    }
}

fn common_contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A first ingest of damaged files only leaves no archive behind, so the corrected
/// command, with another agent, is not refused; and the message says what happened.
#[test]
fn a_first_ingest_that_ingests_nothing_creates_no_archive() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.warc");
    std::fs::write(&junk, b"<html>not a warc</html>").unwrap();
    let archive = dir.path().join("archive");
    let a = archive.to_str().unwrap();
    let out = robots(&[
        "archive",
        "ingest",
        a,
        "--agent",
        "WrongBot",
        junk.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("nothing was ingested, so no archive was created"),
        "{said}"
    );
    assert!(!said.contains("others"), "{said}");
    assert!(!archive.exists(), "the archive directory was left behind");
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), 1);
    let out = ingest(&archive, &warc);
    assert!(out.status.success(), "{}", text(&out));

    // Into a directory that was there before, only what the command made goes.
    let kept = dir.path().join("kept");
    std::fs::create_dir(&kept).unwrap();
    std::fs::write(kept.join("notes.txt"), b"mine").unwrap();
    let k = kept.to_str().unwrap();
    let out = robots(&[
        "archive",
        "ingest",
        k,
        "--agent",
        "WrongBot",
        junk.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let left: Vec<_> = std::fs::read_dir(&kept)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, ["notes.txt"]);
}

/// A WARC file given where the archive belongs is named as such, with the ingest that
/// makes an archive of it into a directory of its own, not into one named after the file.
#[test]
fn a_warc_file_given_as_the_archive_is_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_warc(&dir.path().join("crawl.warc.gz"), 1);
    let w = warc.to_str().unwrap();
    for sub in ["status", "serve", "release"] {
        let out = robots(&["archive", sub, w]);
        assert_eq!(out.status.code(), Some(2), "{sub}: {}", text(&out));
        let said = text(&out);
        assert!(
            said.contains("is a WARC file, not an archive"),
            "{sub}: {said}"
        );
        assert!(
            said.contains(&format!(
                "robots archive ingest my-archive --agent ExampleBot {w}"
            )),
            "{sub}: {said}"
        );
        assert!(
            said.contains(&format!("robots archive {sub} my-archive")),
            "{sub}: {said}"
        );
    }
    assert!(warc.is_file());
}
