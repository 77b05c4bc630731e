//! Export against the real tools, from PyPI via `scripts/archive-tools`: a site on
//! 127.0.0.1 whose robots.txt redirects, crawled by wget, ingested, then exported as
//! CDXJ (compared with `cdxj-indexer` over the same WARC files), WACZ (`wacz validate`)
//! and pywb access rules (a real `wayback` answers 451, 200 or 404 as the archive would).
//! Without the tools: skipped with a notice, except under CI=true, where that fails.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use robots_archive::{pywb_key, Access, Archive, ExportFormat, Timestamp};

/// The venv's bin directory: `ARCHIVE_TOOLS`, else where `scripts/archive-tools` puts it.
fn tools() -> Option<PathBuf> {
    let dir = std::env::var_os("ARCHIVE_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tools/archive-venv/bin")
        });
    if dir.join("wayback").exists()
        && dir.join("wacz").exists()
        && dir.join("cdxj-indexer").exists()
    {
        return Some(dir);
    }
    let why = format!(
        "pywb, wacz and cdxj-indexer not found in {}; run scripts/archive-tools",
        dir.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
    eprintln!("NOTICE: {why}; skipping");
    None
}

const OLD_LM: &str = "Mon, 01 Jan 2024 00:00:00 GMT";

fn page(path: &str) -> (u16, Vec<(&'static str, &'static str)>, String) {
    let html = |body: &str| format!("<!doctype html><html><body>{body}</body></html>\n");
    match path {
        "/robots.txt" => (301, vec![("Location", "/robots-real.txt")], String::new()),
        "/robots-real.txt" => (
            200,
            vec![("Content-Type", "text/plain")],
            "User-agent: *\nArchive-Embargo: w\nDisallow: /private/\n".to_owned(),
        ),
        "/" => (
            200,
            vec![],
            html("<a href=\"/a.html\">a</a> <a href=\"/old.html\">o</a> <a href=\"/private/p.html\">p</a>"),
        ),
        "/a.html" => (200, vec![], html("SECRET-EMBARGOED")),
        "/old.html" => (200, vec![("Last-Modified", OLD_LM)], html("PUBLIC-OLD")),
        "/private/p.html" => (200, vec![], html("SECRET-DISALLOWED")),
        _ => (404, vec![], html("not found")),
    }
}

fn serve_site() -> u16 {
    crate::wget::serve(page)
}

fn wget(dir: &Path, args: &[&str]) -> bool {
    match Command::new("wget").current_dir(dir).args(args).output() {
        Err(_) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "wget not found"
            );
            eprintln!("NOTICE: wget not found; skipping");
            false
        }
        Ok(out) => {
            assert!(
                out.status.success() || out.status.code() == Some(8),
                "wget: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            true
        }
    }
}

fn run(program: &Path, dir: &Path, args: &[&str]) -> String {
    let out = Command::new(program)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} {args:?}: {}{}",
        program.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Kills the child (pywb's `wayback`) however the test ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn get(port: u16, target: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes).unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

#[test]
fn keys_match_pywbs_canonicalize() {
    let Some(bin) = tools() else { return };
    let urls = [
        "http://127.0.0.1:8080/a/b/?z=1&a=2",
        "https://[::1]:8443/x/y/",
        "http://www3.Example.org:80/%7Euser/a%2Fb/../c?",
        "http://example.com/caf\u{e9}?q=\u{fc}&a=%41#x",
        "http://10.0.0.1/robots.txt",
        "https://sub.example.co.uk:443/A/./B//C/",
        "http://example.com/p?b&a=1&&c=",
        "http://example.com/p?a-b=1&a=2&a",
        "http://example.com/x;jsessionid=0123456789abcdef0123456789ABCDEF?JSESSIONID=0123456789abcdef0123456789ABCDEF&z=1",
        "http://example.com/x?q=1&PHPSESSID=0123456789abcdef0123456789abcdef",
        "http://example.com/x?ASPSESSIONIDabcdefgh=abcdefghijklmnopqrstuvwx&k=v",
        "http://example.com/x?cfid=12&cftoken=34&k=v",
        "http://example.com/x?sid=short&k=v",
        "http://b\u{fc}cher.example/Stra\u{df}e",
        "http://3232235521/x",
        // ASP.NET sessions in the path before a `.aspx` page, in either form and case;
        // not before another page.
        "http://example.com/(S(abcdefghijklmnopqrstuvwx))/page.aspx?a=1",
        "http://example.com/foo/(a(abcdefghijklmnopqrstuvwx)f(ABCDEFGHIJKLMNOPQRSTUVWX))/bar/Page.ASPX",
        "http://example.com/(abcdefghijklmnopqrstuvwx)/x/page.aspx",
        "http://example.com/(abcdefghijklmnopqrstuvwx)/x/page.html",
        "http://example.com/(S(abcdefghijklmnopqrstuvw))/page.aspx",
        "http://example.com/a/(S(abcdefghijklmnopqrstuvwx))/b/(abcdefghijklmnopqrstuvwx)/c.aspx",
        // IPv4 addresses in the forms the resolver reads, and forms it does not.
        "http://0177.0.0.1/a",
        "http://127.1/a",
        "http://1.2.3/a",
        "http://1.65536/a",
        "http://1.16777216/a",
        "http://010.010.010.010/a",
        "http://1.2.3.04/a",
        "http://1.2.3.0400/a",
        "http://1.2.3.08/a",
        "http://08.1.1.1/a",
        "http://256.1.1.1/a",
        "http://1.2.3.4.5/a",
        "http://0x7f.0.0.1/a",
        "http://0x7f000001/a",
        "http://127.000000000000000001/a",
        "http://1..2.3/a",
        "http://.1.2.3.4./a",
        "http://www.010.1.1.1/a",
        "http://01/a",
        "http://99999999999999999999999999999999999999999/a",
    ];
    let script = "import sys\nfrom pywb.utils.canonicalize import canonicalize\nfor u in sys.stdin.read().split('\\n'):\n    print(canonicalize(u))\n";
    let mut child = Command::new(bin.join("python"))
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(urls.join("\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let theirs: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    for (url, key) in urls.iter().zip(&theirs) {
        assert_eq!(&pywb_key(url), key, "{url}");
    }
    assert_eq!(theirs.len(), urls.len());
}

#[test]
fn exports_replay_in_pywb_and_validate_as_wacz() {
    let Some(bin) = tools() else { return };
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    let port = serve_site();
    let base = format!("http://127.0.0.1:{port}");
    // wget obeys the redirected robots.txt; a second, careless crawl takes /private/.
    let root = format!("{base}/");
    if !wget(
        work,
        &[
            "--recursive",
            "--level=2",
            "--tries=1",
            "--no-verbose",
            "--warc-file=crawl",
            "--directory-prefix=m1",
            &root,
        ],
    ) {
        return;
    }
    let private = format!("{base}/private/p.html");
    assert!(wget(
        work,
        &[
            "-e",
            "robots=off",
            "--tries=1",
            "--no-verbose",
            "--warc-file=careless",
            "--directory-prefix=m2",
            &private
        ]
    ));
    let warcs = [work.join("crawl.warc.gz"), work.join("careless.warc.gz")];
    let adir = work.join("archive");
    let mut archive = Archive::create(&adir, "Wget").unwrap();
    for w in &warcs {
        archive.ingest(w, &mut |_| {}).unwrap();
    }
    let now = Timestamp::now();
    let one = |path: &str| {
        archive
            .captures_of(&format!("{base}{path}"))
            .unwrap()
            .remove(0)
    };
    assert_eq!(one("/a.html").access(now), Access::Embargoed);
    assert_eq!(one("/old.html").access(now), Access::Released);
    assert_eq!(one("/private/p.html").access(now), Access::Disallowed);

    // CDXJ: every response cdxj-indexer finds in the same files is in the export, at the
    // same key, time, offset and length; sorted bytewise.
    let cdxj = work.join("all.cdxj");
    let report = archive.export(ExportFormat::Cdxj, now, &cdxj).unwrap();
    let ours = std::fs::read_to_string(&cdxj).unwrap();
    let lines: Vec<&str> = ours.lines().collect();
    assert_eq!(report.lines, lines.len() as u64);
    assert!(
        lines.windows(2).all(|w| w[0].as_bytes() <= w[1].as_bytes()),
        "sorted"
    );
    let parse = |line: &str| {
        let mut parts = line.splitn(3, ' ');
        let key = parts.next().unwrap().to_owned();
        let ts = parts.next().unwrap().to_owned();
        let json: serde_json::Value = serde_json::from_str(parts.next().unwrap()).unwrap();
        (key, ts, json)
    };
    let ours: Vec<_> = lines.iter().map(|l| parse(l)).collect();
    let a = ours
        .iter()
        .find(|(_, _, j)| j["url"] == format!("{base}/a.html"))
        .unwrap();
    assert_eq!(a.2["access"], "embargoed");
    assert!(a.2["embargo_until"].is_string());
    let mut compared = 0;
    for w in &warcs {
        let theirs = run(&bin.join("cdxj-indexer"), work, &[w.to_str().unwrap()]);
        for line in theirs.lines() {
            let (key, ts, json) = parse(line);
            if json["mime"] == "warc/request" || json.get("status").is_none() {
                continue;
            }
            compared += 1;
            assert!(
                ours.iter().any(|(k, t, j)| *k == key
                    && *t == ts
                    && j["offset"] == json["offset"]
                    && j["length"] == json["length"]
                    && j["url"] == json["url"]),
                "cdxj-indexer lists {line}, the export lacks it:\n{}",
                lines.join("\n")
            );
        }
    }
    assert!(compared >= 6, "{compared} responses compared");

    // WACZ: valid, and holds the released body only.
    let wacz = work.join("released.wacz");
    let report = archive.export(ExportFormat::Wacz, now, &wacz).unwrap();
    assert!(report.lines >= 1 && report.pages >= 1, "{report:?}");
    let said = run(
        &bin.join("wacz"),
        work,
        &["validate", "-f", wacz.to_str().unwrap()],
    );
    assert!(said.contains("Validation succeeded"), "{said}");
    let bytes = std::fs::read(&wacz).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(!text.contains("SECRET-"), "no withheld body in the WACZ");
    let unpacked = run(
        &bin.join("python"),
        work,
        &["-c", "import sys,zipfile,gzip; z=zipfile.ZipFile(sys.argv[1]); sys.stdout.write(gzip.decompress(z.read('archive/data.warc.gz')).decode('latin-1')); sys.stdout.write(z.read('pages/pages.jsonl').decode())", wacz.to_str().unwrap()],
    );
    assert!(unpacked.contains("PUBLIC-OLD"), "the released body is in");
    assert!(
        !unpacked.contains("SECRET-"),
        "no withheld body in the WARC"
    );
    assert!(
        unpacked.contains(&format!("\"url\":\"{base}/old.html\"")),
        "{unpacked}"
    );

    // aclj: reverse-sorted, exact-match keys.
    let aclj = work.join("embargo.aclj");
    archive.export(ExportFormat::Aclj, now, &aclj).unwrap();
    let rules = std::fs::read_to_string(&aclj).unwrap();
    let rule_lines: Vec<&str> = rules.lines().collect();
    assert!(
        rule_lines.windows(2).all(|w| w[0] >= w[1]),
        "reverse-sorted: {rules}"
    );
    assert!(
        rules.contains(&format!(
            "{}### - {{\"access\":\"block\"",
            pywb_key(&format!("{base}/a.html"))
        )),
        "{rules}"
    );
    assert!(
        rules.contains(&format!(
            "{}### - {{\"access\":\"exclude\"",
            pywb_key(&private)
        )),
        "{rules}"
    );
    assert!(!rules.contains("old.html"), "{rules}");

    // A real pywb, the crawl's WARC files added, the rules in its acl/ folder.
    let pywb = work.join("pywb");
    std::fs::create_dir(&pywb).unwrap();
    run(&bin.join("wb-manager"), &pywb, &["init", "web"]);
    let mut add = vec!["add", "web"];
    let names: Vec<String> = warcs.iter().map(|w| w.display().to_string()).collect();
    add.extend(names.iter().map(String::as_str));
    run(&bin.join("wb-manager"), &pywb, &add);
    let acl_dir = pywb.join("collections/web/acl");
    std::fs::create_dir_all(&acl_dir).unwrap();
    std::fs::copy(&aclj, acl_dir.join("embargo.aclj")).unwrap();
    let wport = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let _wayback = Killed(
        Command::new(bin.join("wayback"))
            .current_dir(&pywb)
            .args(["-p", &wport.to_string(), "-b", "127.0.0.1"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", wport)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "wayback did not start in 60 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let replay = |path: &str| {
        let e = one(path);
        get(
            wport,
            &format!("/web/{}id_/{}", e.captured.fourteen_digits(), e.url),
        )
    };
    let (status, text) = replay("/old.html");
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("PUBLIC-OLD"), "{text}");
    let (status, text) = replay("/a.html");
    assert_eq!(status, 451, "{text}");
    assert!(!text.contains("SECRET-EMBARGOED"), "{text}");
    let (status, text) = replay("/private/p.html");
    assert_eq!(status, 404, "{text}");
    assert!(!text.contains("SECRET-DISALLOWED"), "{text}");
    // Without a timestamp, and in the framed view, the same.
    let (_, text) = get(wport, &format!("/web/{base}/private/p.html"));
    assert!(!text.contains("SECRET-DISALLOWED"), "{text}");
    let (_, text) = get(wport, &format!("/web/2100mp_/{base}/a.html"));
    assert!(!text.contains("SECRET-EMBARGOED"), "{text}");
}
