//! Benchmarks: ingest throughput (MB/s of WARC), the cost of a release on an archive
//! of 1,000,000 index rows of which 1% are due, against finding them by a full scan, and
//! `/cdx` on 100,000 rows: a prefix query that selects nothing, and a replay request
//! answered over a socket while 20 clients send such queries.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use robots_archive::warc::{Fields, Writer};
use robots_archive::{Archive, Timestamp};

const AGENT: &str = "ExampleBot";
const ROBOTS: &str = "User-agent: *\nArchive-Embargo: m\nDisallow: /private\n";
const T0: i64 = 1_767_225_600; // 2026-01-01T00:00:00Z
const TOTAL_ROWS: i64 = 1_000_000;
const DUE_ROWS: usize = 10_000;

/// A WARC of `n` responses with bodies of `body_len` bytes (plus robots.txt).
fn write_warc(path: &Path, n: usize, body_len: usize) {
    let mut w = Writer::new(std::io::BufWriter::new(
        std::fs::File::create(path).unwrap(),
    ));
    let mut write = |i: usize, url: &str, body: &[u8]| {
        let mut f = Fields::new();
        f.push("WARC-Type", "response");
        f.push(
            "WARC-Record-ID",
            format!("<urn:uuid:00000000-0000-4000-8000-{i:012}>"),
        );
        f.push("WARC-Date", Timestamp::from_unix(T0 + i as i64).rfc3339());
        f.push("WARC-Target-URI", url);
        f.push("Content-Type", "application/http; msgtype=response");
        let mut block = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        block.extend_from_slice(body);
        w.write_record(&f, &block).unwrap();
    };
    write(0, "http://bench.test/robots.txt", ROBOTS.as_bytes());
    // Text-like bodies that compress about as much as real pages do.
    let words = [
        "archive ", "embargo ", "robots ", "release ", "capture ", "record ",
    ];
    for i in 1..=n {
        let mut body = Vec::with_capacity(body_len);
        let mut k = i;
        while body.len() < body_len {
            k = k.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let word = words[(k >> 33) % words.len()];
            body.extend_from_slice(format!("{word}{} ", (k >> 20) % 100_000).as_bytes());
        }
        body.truncate(body_len);
        write(i, &format!("http://bench.test/page/{i}"), &body);
    }
    w.finish().unwrap();
}

fn ingest(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("bench.warc.gz");
    write_warc(&warc, 2_000, 20_000);
    let size = std::fs::metadata(&warc).unwrap().len();
    let mut group = c.benchmark_group("ingest");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(size));
    group.bench_function(format!("{} MB WARC, 2000 records", size / 1_000_000), |b| {
        b.iter_batched(
            || {
                let target = tempfile::tempdir().unwrap();
                let archive = Archive::create(&target.path().join("a"), AGENT).unwrap();
                (target, archive)
            },
            |(target, mut archive)| {
                archive.ingest(&warc, &mut |_| {}).unwrap();
                target
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

/// An archive of `TOTAL_ROWS` index rows: `DUE_ROWS` real records whose embargo has
/// ended, and synthetic rows still under embargo whose tombstones are already out.
fn big_archive(dir: &Path) -> Timestamp {
    let adir = dir.join("a");
    let warc = dir.join("due.warc.gz");
    write_warc(&warc, DUE_ROWS, 200);
    let mut archive = Archive::create(&adir, AGENT).unwrap();
    archive.ingest(&warc, &mut |_| {}).unwrap();
    drop(archive);
    let db = rusqlite::Connection::open(adir.join(robots_archive::INDEX_FILE)).unwrap();
    let at = T0 + 40 * 86_400;
    db.execute_batch(&format!(
        "BEGIN;
         UPDATE records SET embargo_until = {due}, tombstone_batch = 0;
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {more})
         INSERT INTO records (file_id, offset, length, warc_record_id, url, urlkey, origin,
             captured, status, mime, digest, verdict, embargo_days, embargo_until, pending,
             tombstone_batch)
         SELECT 1, -i, 100, 'synthetic-' || i, 'http://bench.test/old/' || i,
             'test,bench)/old/' || i, 'http://bench.test:80', {T0} + i, 200, 'text/html',
             'sha1:AAAA', 'allowed', 90, {T0} + 100 * 86400 + (i % 1000) * 86400, 0, 0
         FROM n;
         COMMIT;",
        due = at - 1,
        more = TOTAL_ROWS - DUE_ROWS as i64 - 1,
    ))
    .unwrap();
    Timestamp::from_unix(at)
}

fn reset(adir: &Path) {
    let db = rusqlite::Connection::open(adir.join(robots_archive::INDEX_FILE)).unwrap();
    db.execute_batch(
        "UPDATE records SET release_batch = NULL WHERE release_batch IS NOT NULL;
         DELETE FROM releases;",
    )
    .unwrap();
    let _ = std::fs::remove_dir_all(adir.join(robots_archive::PUBLIC_DIR));
}

fn release(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let at = big_archive(dir.path());
    let adir = dir.path().join("a");
    let mut group = c.benchmark_group("release, 1,000,000 rows, 1% due");
    group.sample_size(10);
    group.bench_function("release (index by embargo end)", |b| {
        b.iter_batched(
            || {
                reset(&adir);
                Archive::open(&adir).unwrap()
            },
            |mut archive| {
                let report = archive.release(at).unwrap();
                assert_eq!(report.released, DUE_ROWS as u64 + 1);
            },
            BatchSize::PerIteration,
        )
    });
    reset(&adir);
    let db = rusqlite::Connection::open(adir.join(robots_archive::INDEX_FILE)).unwrap();
    let count = |sql: &str| -> i64 { db.query_row(sql, [at.unix()], |r| r.get(0)).unwrap() };
    group.bench_function("find due rows: index by embargo end", |b| {
        b.iter(|| {
            black_box(count(
                "SELECT count(*) FROM records INDEXED BY records_due
                 WHERE release_batch IS NULL AND embargo_until IS NOT NULL
                   AND embargo_until <= ?1",
            ))
        })
    });
    group.bench_function("find due rows: full scan", |b| {
        b.iter(|| {
            black_box(count(
                "SELECT count(*) FROM records NOT INDEXED
                 WHERE release_batch IS NULL AND embargo_until IS NOT NULL
                   AND embargo_until <= ?1",
            ))
        })
    });
    group.finish();
}

/// An archive of `n` index rows: 100 real records and synthetic rows after them.
fn keyed_archive(dir: &Path, n: i64) -> std::path::PathBuf {
    let adir = dir.join("k");
    let warc = dir.join("keyed.warc.gz");
    write_warc(&warc, 100, 200);
    let mut archive = Archive::create(&adir, AGENT).unwrap();
    archive.ingest(&warc, &mut |_| {}).unwrap();
    drop(archive);
    let db = rusqlite::Connection::open(adir.join(robots_archive::INDEX_FILE)).unwrap();
    db.execute_batch(&format!(
        "BEGIN;
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n})
         INSERT INTO records (file_id, offset, length, warc_record_id, url, urlkey, origin,
             captured, status, mime, digest, verdict, embargo_days, embargo_until, pending)
         SELECT 1, -i, 100, 'synthetic-' || i, 'http://bench.test/old/' || i,
             'test,bench)/old/' || i, 'http://bench.test:80', {T0} + i, 200, 'text/html',
             'sha1:AAAA', 'allowed', 90, {T0} + 100 * 86400, 0
         FROM n;
         COMMIT;"
    ))
    .unwrap();
    adir
}

/// `GET target` over a new connection; the status code.
fn get(addr: std::net::SocketAddr, target: &str) -> u16 {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: b\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    String::from_utf8_lossy(&answer[9..12]).parse().unwrap()
}

fn cdx(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let adir = keyed_archive(dir.path(), 100_000);
    let at = Timestamp::from_unix(T0 + 200 * 86_400);
    let archive = Archive::open(&adir).unwrap();
    // Every key of the index sorts after this prefix, and none starts with it.
    let empty = robots_archive::CdxQuery::parse("url=a.test/*").unwrap();
    let mut group = c.benchmark_group("cdx, 100,000 rows");
    group.sample_size(20);
    group.bench_function("a prefix query that selects nothing", |b| {
        b.iter(|| assert!(archive.cdx(&empty, at).unwrap().is_empty()))
    });
    let server =
        robots_archive::Server::bind(archive, "127.0.0.1:0".parse().unwrap(), Some(at)).unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let askers: Vec<_> = (0..20)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    assert_eq!(get(addr, "/cdx?url=a.test/*"), 200);
                }
            })
        })
        .collect();
    group.bench_function("a replay while 20 clients send such queries", |b| {
        b.iter(|| assert_eq!(get(addr, "/web/http://bench.test/page/7"), 200))
    });
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for asker in askers {
        asker.join().unwrap();
    }
    group.finish();
}

criterion_group!(benches, ingest, release, cdx);
criterion_main!(benches);
