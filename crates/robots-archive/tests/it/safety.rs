//! Safety as a property: over random archives and times, no body of a record before its
//! embargo end (by an oracle written here, independent of the crate) appears in any
//! public WARC, `serve` response or CDX line; and every due body is released. A URL is
//! captured with one of two bodies, so content is seen again, and changes, over time.
//! Revisit records of the captures, under other sites' URLs, repeat their payloads: they
//! may carry a body out only once its original may (a revisit's payload is its
//! original's, whatever its own URL's robots.txt says).

use crate::common;

use std::io::Read;

use common::*;
use proptest::prelude::*;
use robots_archive::{Archive, CdxQuery, MatchType, Request, Timestamp};

const DAY: i64 = 86_400;
const T0: i64 = 1_767_225_600; // 2026-01-01T00:00:00Z

#[derive(Debug, Clone)]
enum RobotsKind {
    None,
    Rules { period: Option<u32>, at_hours: i64 },
    Status { status: u16, at_hours: i64 },
}

#[derive(Debug, Clone)]
struct Rec {
    origin: usize,
    path: &'static str,
    /// Which of the URL's two bodies was captured.
    version: usize,
    day: i64,
    /// Last-Modified, in days relative to the capture (None: absent).
    lm_days: Option<i64>,
    file: usize,
}

fn robots_kind() -> impl Strategy<Value = RobotsKind> {
    prop_oneof![
        Just(RobotsKind::None),
        (
            prop_oneof![Just(None), Just(Some(7)), Just(Some(31)), Just(Some(90))],
            0i64..72
        )
            .prop_map(|(period, at_hours)| RobotsKind::Rules { period, at_hours }),
        (prop_oneof![Just(404u16), Just(503u16)], 0i64..72)
            .prop_map(|(status, at_hours)| RobotsKind::Status { status, at_hours }),
    ]
}

fn rec() -> impl Strategy<Value = Rec> {
    (
        0usize..3,
        prop_oneof![Just("/news/a"), Just("/p/b"), Just("/c")],
        0usize..2,
        0i64..40,
        prop_oneof![Just(None), (-60i64..60).prop_map(Some)],
        0usize..2,
    )
        .prop_map(|(origin, path, version, day, lm_days, file)| Rec {
            origin,
            path,
            version,
            day,
            lm_days,
            file,
        })
}

/// An identical-payload revisit of `recs[of % recs.len()]`, at `/r/<n>` of an origin,
/// `days_after` days after its original.
#[derive(Debug, Clone)]
struct Visit {
    origin: usize,
    of: usize,
    days_after: i64,
    file: usize,
}

fn visit() -> impl Strategy<Value = Visit> {
    (0usize..3, 0usize..10, 0i64..30, 0usize..2).prop_map(|(origin, of, days_after, file)| Visit {
        origin,
        of,
        days_after,
        file,
    })
}

/// The URL and capture time of visit `n`, of `recs`.
fn visit_capture(recs: &[Rec], v: &Visit, n: usize) -> (String, i64) {
    let original = &recs[v.of % recs.len()];
    (
        format!("{}/r/{n}", origin_url(v.origin)),
        capture_time(original) + v.days_after * DAY + 7200,
    )
}

fn origin_url(i: usize) -> String {
    format!("http://site{i}.test")
}

/// The body of a capture: the same for the same URL and version.
fn secret(r: &Rec) -> String {
    format!("SECRET{}{}{}QZX", r.origin, &r.path[1..2], r.version)
}

/// May the body of record `i` be public at `at`, through it or any capture of the same
/// content?
fn body_may_be_public(robots: &[RobotsKind], recs: &[Rec], i: usize, at: i64) -> bool {
    (0..recs.len())
        .any(|j| secret(&recs[j]) == secret(&recs[i]) && may_publish(robots, recs, j, at))
}

fn capture_time(r: &Rec) -> i64 {
    T0 + r.day * DAY + 3600
}

/// The oracle: may record `i`'s body be public at `at`?
fn may_publish(robots: &[RobotsKind], recs: &[Rec], i: usize, at: i64) -> bool {
    let r = &recs[i];
    let captured = capture_time(r);
    let robots_at = |h: i64| T0 + h * 3600;
    let governed = |h: i64| captured >= robots_at(h) - DAY;
    match &robots[r.origin] {
        RobotsKind::None => false,
        // Released at once means from its capture on.
        RobotsKind::Status { status, at_hours } => {
            governed(*at_hours) && *status == 404 && at >= captured
        }
        RobotsKind::Rules { period, at_hours } => {
            if !governed(*at_hours) || r.path.starts_with("/p") {
                return false;
            }
            let Some(days) = period else {
                return at >= captured;
            };
            // The embargo runs from the first capture of this content.
            let first_seen = recs
                .iter()
                .filter(|o| secret(o) == secret(r))
                .map(capture_time)
                .min()
                .unwrap_or(captured);
            let lm = r
                .lm_days
                .map(|d| captured + d * DAY)
                .filter(|&lm| lm <= captured);
            let start = lm.map_or(first_seen, |lm| lm.min(first_seen));
            at >= start + i64::from(*days) * DAY
        }
    }
}

fn build(dir: &std::path::Path, robots: &[RobotsKind], recs: &[Rec], visits: &[Visit]) -> Archive {
    let mut files: Vec<Vec<Item>> = vec![Vec::new(), Vec::new()];
    for (o, kind) in robots.iter().enumerate() {
        let (body, status, h) = match kind {
            RobotsKind::None => continue,
            RobotsKind::Rules { period, at_hours } => {
                let embargo = match period {
                    Some(7) => "Archive-Embargo: w\n",
                    Some(31) => "Archive-Embargo: m\n",
                    Some(_) => "Archive-Embargo: q\n",
                    None => "",
                };
                (
                    format!("User-agent: *\n{embargo}Disallow: /p\n"),
                    200,
                    *at_hours,
                )
            }
            RobotsKind::Status { status, at_hours } => (String::new(), *status, *at_hours),
        };
        let at = Timestamp::from_unix(T0 + h * 3600).rfc3339();
        files[0].push(Item::Response(capture(
            &format!("{}/robots.txt", origin_url(o)),
            &at,
            status,
            body.as_bytes(),
        )));
    }
    // The record ID each capture is written with, for the revisits that name it.
    let mut ids = Vec::new();
    for r in recs {
        let at = Timestamp::from_unix(capture_time(r));
        let mut c = capture(
            &format!("{}{}", origin_url(r.origin), r.path),
            &at.rfc3339(),
            200,
            secret(r).as_bytes(),
        );
        if let Some(d) = r.lm_days {
            c = c.header("Last-Modified", at.plus_secs(d * DAY).http_date());
        }
        ids.push(record_id(r.file + 1, files[r.file].len()));
        files[r.file].push(Item::Response(c));
    }
    for (n, v) in visits.iter().enumerate() {
        let (url, at) = visit_capture(recs, v, n);
        let c = capture(&url, &Timestamp::from_unix(at).rfc3339(), 200, b"")
            .warc("WARC-Refers-To", ids[v.of % recs.len()].clone());
        files[v.file].push(Item::Revisit(c, IDENTICAL, true));
    }
    let mut archive = Archive::create(&dir.join("archive"), AGENT).unwrap();
    // A file with no record is refused as empty: only files with captures are written.
    for (n, items) in files
        .iter()
        .enumerate()
        .filter(|(_, items)| !items.is_empty())
    {
        let warc = write_records(&dir.join(format!("f{n}.warc.gz")), items, n + 1);
        archive.ingest(&warc, &mut |_| {}).unwrap();
    }
    archive
}

fn public_bytes(dir: &std::path::Path) -> String {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir.join("archive/public")).unwrap() {
        let file = std::fs::File::open(entry.unwrap().path()).unwrap();
        flate2::read::MultiGzDecoder::new(file)
            .read_to_end(&mut all)
            .unwrap();
    }
    String::from_utf8_lossy(&all).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn no_body_before_its_embargo_end(
        robots in proptest::collection::vec(robots_kind(), 3),
        recs in proptest::collection::vec(rec(), 1..10),
        visits in proptest::collection::vec(visit(), 0..4),
        t1 in 0i64..120,
        t2 in 0i64..120,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let mut archive = build(dir.path(), &robots, &recs, &visits);
        let (t1, t2) = (T0 + t1.min(t2) * DAY, T0 + t1.max(t2) * DAY);
        for at in [t1, t2] {
            let now = Timestamp::from_unix(at);
            archive.release(now).unwrap();
            let public = public_bytes(dir.path());
            for i in 0..recs.len() {
                let allowed = body_may_be_public(&robots, &recs, i, at);
                prop_assert_eq!(public.contains(&secret(&recs[i])), allowed, "public WARC, record {} at {}", i, now);
            }
            for r in &recs {
                let url = format!("{}{}", origin_url(r.origin), r.path);
                let stamp = Timestamp::from_unix(capture_time(r)).fourteen_digits();
                for accept in ["text/html", "application/json"] {
                    let req = Request { target: format!("/web/{stamp}/{url}"), accept: Some(accept.into()) };
                    let body = String::from_utf8_lossy(&archive.respond(&req, now).body).into_owned();
                    for j in 0..recs.len() {
                        if body.contains(&secret(&recs[j])) {
                            prop_assert!(body_may_be_public(&robots, &recs, j, at), "serve leaked record {} at {}", j, now);
                        }
                    }
                }
                let query = CdxQuery { url, match_type: MatchType::Exact, from: None, to: None, json: true, limit: 1000 };
                let cdx = archive.cdx(&query, now).unwrap();
                prop_assert!(!cdx.contains("SECRET"), "CDX leaked a body");
                let req = Request { target: format!("/cdx?url={}&output=json", query.url), accept: None };
                let body = String::from_utf8_lossy(&archive.respond(&req, now).body).into_owned();
                prop_assert!(!body.contains("SECRET"));
                prop_assert_eq!(body.lines().count(), recs.iter().filter(|o| (o.origin, o.path) == (r.origin, r.path)).count());
            }
            for (n, v) in visits.iter().enumerate() {
                let (url, captured) = visit_capture(&recs, v, n);
                let stamp = Timestamp::from_unix(captured).fourteen_digits();
                for target in [format!("/web/{stamp}/{url}"), format!("/web/{stamp}id_/{url}"), format!("/cdx?url={url}&output=json")] {
                    let req = Request { target: target.clone(), accept: None };
                    let body = String::from_utf8_lossy(&archive.respond(&req, now).body).into_owned();
                    for j in 0..recs.len() {
                        if body.contains(&secret(&recs[j])) {
                            prop_assert!(body_may_be_public(&robots, &recs, j, at), "{} leaked record {} at {}", target, j, now);
                        }
                    }
                }
            }
        }
    }
}
