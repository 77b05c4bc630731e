//! `robots fetch` end to end: the binary against a small HTTP server on 127.0.0.1 started
//! by the test, in both formats, for a redirect to a file, a 404, and a refused connection.

use crate::common;

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener};
use std::process::Output;
use std::sync::{Arc, Mutex};
use std::thread;

use common::json_lines;

/// `robots` with `args` and nothing on its standard input.
fn robots(args: &[&str]) -> Output {
    common::run(args, "")
}

/// Serves `/robots.txt` as a 301 to `/real/robots.txt`, which answers with `ROBOTS`;
/// `/missing/robots.txt`-style paths are not used, so a second server gives 404s.
fn serve(answer: fn(&str) -> String) -> u16 {
    serve_recording(answer).0
}

/// [`serve`], keeping the head of each request it answers, in order.
fn serve_recording(answer: fn(&str) -> String) -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let heads = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&heads);
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut head = Vec::new();
            let mut buf = [0u8; 1024];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => head.extend_from_slice(&buf[..n]),
                }
            }
            let text = String::from_utf8_lossy(&head).into_owned();
            let path = text.split(' ').nth(1).unwrap_or("").to_owned();
            kept.lock().unwrap().push(text);
            let _ = stream.write_all(answer(&path).as_bytes());
        }
    });
    (port, heads)
}

const ROBOTS: &str =
    "User-agent: *\nArchive-Embargo: m\nEmbargo-Allow: /news/\nDisallow: /\nSitemap: http://example.test/s.xml\n";

fn redirecting(path: &str) -> String {
    match path {
        "/robots.txt" => {
            "HTTP/1.1 301 Moved\r\nLocation: /real/robots.txt\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                .to_owned()
        }
        _ => format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{ROBOTS}",
            ROBOTS.len()
        ),
    }
}

fn not_found(_: &str) -> String {
    "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned()
}

#[test]
fn json_reports_the_fetch_then_verdicts_in_the_check_shape() {
    let port = serve(redirecting);
    let base = format!("http://127.0.0.1:{port}");
    let out = robots(&[
        "fetch",
        &format!("{base}/news/a"),
        "--agent",
        "ExampleBot",
        "--embargo",
        "--format",
        "json",
        "/private",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    let report = &lines[0];
    assert_eq!(report["origin"], base);
    assert_eq!(report["source"], "fetched");
    assert_eq!(report["rules"], "parsed");
    assert_eq!(report["chain"][0]["status"], 301);
    assert_eq!(report["chain"][1]["status"], 200);
    assert_eq!(report["chain"][1]["url"], format!("{base}/real/robots.txt"));
    assert_eq!(report["size"], ROBOTS.len());
    assert_eq!(report["truncated"], false);
    assert_eq!(report["sitemaps"][0], "http://example.test/s.xml");
    assert_eq!(
        (&report["lint_errors"], &report["lint_warnings"]),
        (&serde_json::json!(0), &serde_json::json!(0))
    );
    assert!(report["fresh_for_secs"].as_u64().unwrap() > 23 * 3600);
    // Help names every field the report has (it left out robots_url and detail).
    let help = String::from_utf8(robots(&["fetch", "--help"]).stdout).unwrap();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for field in report.as_object().unwrap().keys() {
        assert!(
            help.contains(&format!("\"{field}\"")),
            "{field} not in fetch --help"
        );
    }
    assert_eq!(
        lines[1],
        serde_json::json!({"url": format!("{base}/news/a"), "allowed": true, "line": 3,
            "rule": "embargo-allow", "pattern": "/news/", "embargo_days": 31,
            "reason": "longest"})
    );
    assert_eq!(
        lines[2],
        serde_json::json!({"url": format!("{base}/private"), "allowed": false, "line": 4,
            "rule": "disallow", "pattern": "/", "embargo_days": null, "reason": "longest"})
    );
}

#[test]
fn text_shows_the_chain_outcome_and_verdicts() {
    let port = serve(redirecting);
    let out = robots(&[
        "fetch",
        &format!("http://127.0.0.1:{port}/private"),
        "--agent",
        "ExampleBot",
        "--color",
        "never",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("fetched"), "{text}");
    assert!(
        text.contains(&format!("301 http://127.0.0.1:{port}/robots.txt")),
        "{text}"
    );
    assert!(text.contains("sitemap http://example.test/s.xml"), "{text}");
    assert!(text.contains("DISALLOWED"), "{text}");
    assert!(text.contains("line 4: Disallow: /"), "{text}");
}

#[test]
fn a_404_allows_everything() {
    let port = serve(not_found);
    let out = robots(&[
        "fetch",
        &format!("http://127.0.0.1:{port}/x"),
        "--agent",
        "ExampleBot",
        "--format",
        "json",
    ]);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["source"], "unavailable");
    assert_eq!(lines[0]["rules"], "allow-all");
    assert_eq!(lines[0]["chain"][0]["status"], 404);
    assert_eq!(lines[1]["allowed"], true);
    assert_eq!(lines[1]["reason"], "unavailable");
}

#[test]
fn a_refused_connection_disallows_everything() {
    let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = robots(&[
        "fetch",
        &format!("http://127.0.0.1:{port}/x"),
        "--agent",
        "ExampleBot",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let lines = json_lines(&out);
    assert_eq!(lines[0]["source"], "unreachable");
    assert_eq!(lines[0]["rules"], "disallow-all");
    assert_eq!(lines[1]["allowed"], false);
}

fn server_error(_: &str) -> String {
    "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned()
}

#[test]
fn an_unreachable_robots_txt_disallows_everything_but_itself() {
    let port = serve(server_error);
    let url = format!("http://127.0.0.1:{port}/robots.txt");
    let args = ["fetch", &url, "--agent", "ExampleBot", "/x"];
    let lines = json_lines(&robots(&[&args[..], &["--format", "json"]].concat()));
    assert_eq!(lines[0]["rules"], "disallow-all");
    assert_eq!(lines[1]["url"], url);
    assert_eq!(lines[1]["allowed"], true);
    assert_eq!(lines[1]["reason"], "robots-txt");
    assert_eq!(lines[2]["allowed"], false);
    assert_eq!(lines[2]["reason"], "unreachable");

    let out = robots(&[&args[..], &["--color", "never"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "ALLOWED     {url}  (robots.txt unreachable, but /robots.txt itself is always allowed)"
        )),
        "{text}"
    );
    assert!(text.contains("DISALLOWED  http"), "{text}");

    // Google's matcher treats /robots.txt like any path.
    let google = ["--profile", "google", "--format", "json"];
    let lines = json_lines(&robots(&[&args[..], &google].concat()));
    assert_eq!(lines[1]["allowed"], false);
}

/// A timeout of none, or a negative one, is refused with what to give instead (a
/// negative one got clap's tip to pass `-- -1`, which would make it a URL).
#[test]
fn a_timeout_of_zero_or_less_is_a_usage_error() {
    for (timeout, needle) in [
        ("0", "give at least 1"),
        ("-1", "`-1` is not a whole number of seconds"),
    ] {
        let out = robots(&[
            "fetch",
            "http://127.0.0.1:9/",
            "--agent",
            "ExampleBot",
            "--timeout",
            timeout,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(needle) && !err.contains("tip"), "{err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_non_http_url_is_a_usage_error() {
    let out = robots(&["fetch", "ftp://example.com/", "--agent", "ExampleBot"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("http and https"));
}

/// A first URL that cannot be fetched from is refused, saying what is wrong with it:
/// one with a scheme but a bad host or port was said to be "not an absolute URL", and
/// one without a scheme got no hint of the URL meant.
#[test]
fn a_url_that_cannot_be_fetched_is_refused_with_what_is_wrong() {
    let cases = [
        ("http://[::1", "`http://[::1` is not a valid URL: invalid IPv6 address"),
        ("https://exa mple.com/", "`https://exa mple.com/` is not a valid URL: invalid international domain name"),
        ("http://e.test:99999/", "`http://e.test:99999/` is not a valid URL: invalid port number"),
        ("https://", "`https://` is not a valid URL: empty host"),
        ("example.com/a", "`example.com/a` is not an absolute URL (it has no scheme); give one such as `https://example.com/a`"),
        ("/a", "`/a` is not an absolute URL; give one such as https://example.com/ (paths may follow it)"),
    ];
    for (url, said) in cases {
        let out = robots(&["fetch", "--agent", "ExampleBot", "--", url]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {err}");
        assert_eq!(err, format!("robots: error: {said}\n"), "{url}");
        assert!(out.stdout.is_empty());
    }
}

/// A 200 whose body goes past the 512,000-byte parse limit, which falls right after
/// `Disallow: /` in `Disallow: /private-area`.
fn cut_by_the_limit(_: &str) -> String {
    let mut body = "User-agent: *\nDisallow: /admin\n".to_owned();
    let line = "Disallow: /private-area";
    let at = robots::MIN_PARSE_LIMIT - "Disallow: /".len();
    body.extend(std::iter::repeat_n('#', at - 1 - body.len()));
    body.push('\n');
    body.push_str(line);
    body.push_str("\n# after\n");
    format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[test]
fn a_line_cut_by_the_parse_limit_is_dropped_and_the_cut_reported() {
    let port = serve(cut_by_the_limit);
    let base = format!("http://127.0.0.1:{port}");
    let args = ["fetch", &format!("{base}/public"), "--agent", "ExampleBot"];
    let out = robots(&[&args[..], &["--format", "json", "/admin"]].concat());
    let lines = json_lines(&out);
    assert_eq!(lines[0]["truncated"], true);
    assert_eq!(lines[0]["size"], robots::MIN_PARSE_LIMIT + 1);
    let parsed = robots::MIN_PARSE_LIMIT - "Disallow: /".len();
    assert_eq!(lines[0]["parsed"], parsed);
    assert_eq!(lines[1]["allowed"], true, "{}", lines[1]);
    assert_eq!(lines[2]["allowed"], false);

    let out = robots(&[&args[..], &["--color", "never"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "size over 512000 bytes: cut at the parse limit, the first {parsed} bytes (whole lines) parsed"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("ALLOWED     {base}/public")),
        "{text}"
    );
}

fn controls(_: &str) -> String {
    let body = "User-agent: *\nDisallow: /x\x1b]0;PWNED\x07\nSitemap: http://e.test/s\x1b[2J.xml\n";
    format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[test]
fn text_output_escapes_control_characters_the_server_sent() {
    let port = serve(controls);
    let url = format!("http://127.0.0.1:{port}/x\x1b]0;PWNED\x07");
    let out = robots(&["fetch", &url, "--agent", "ExampleBot", "--color", "never"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains(['\x1b', '\x07']), "{text}");
    assert!(
        text.contains("sitemap http://e.test/s\\u{1b}[2J.xml\n"),
        "{text}"
    );
    assert!(
        text.contains("(line 2: Disallow: /x\\u{1b}]0;PWNED\\u{7})"),
        "{text}"
    );
}

#[test]
fn errors_escape_control_characters_in_url_arguments() {
    let cases = [
        // Not a URL at all: the CLI's own message.
        (
            "x\x1b[31m\u{202e}",
            None,
            "`x\\u{1b}[31m\\u{202e}` is not an absolute URL",
        ),
        // A second URL with a bad port: the fetch crate's message, quoting it.
        (
            "http://127.0.0.1:9/",
            Some("http://e.test:8\x1b]0;PWNED\x07/"),
            "`http://e.test:8\\u{1b}]0;PWNED\\u{7}/` is not a URL",
        ),
    ];
    for (url, more, needle) in cases {
        let mut args = vec!["fetch", url, "--agent", "ExampleBot"];
        args.extend(more);
        let out = robots(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!common::raw_controls(&err), "{err:?}");
        assert!(err.contains(needle), "{err}");
    }
}

/// A robots.txt in UTF-16 (little-endian, here without its byte-order mark, which this
/// text-only test server cannot send), as some Windows servers send it: to a UTF-8
/// reader its keys are unknown, so the file has no rules, which the report must not pass
/// over.
fn utf16(_: &str) -> String {
    let body: String = "User-agent: *\nDisallow: /\n"
        .chars()
        .flat_map(|c| [c, '\0'])
        .collect();
    format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[test]
fn the_report_counts_what_parsing_the_body_found() {
    let port = serve(utf16);
    let url = format!("http://127.0.0.1:{port}/");
    let args = ["fetch", &url, "--agent", "ExampleBot"];
    let out = robots(&[&args[..], &["--format", "json"]].concat());
    let report = &json_lines(&out)[0];
    assert!(
        report["lint_errors"].as_u64().unwrap() + report["lint_warnings"].as_u64().unwrap() > 0,
        "{report}"
    );
    let out = robots(&[&args[..], &["--color", "never"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("lint "), "{text}");
    assert!(text.contains("run `robots lint` on it"), "{text}");
}

/// A robots.txt that tells GPTBot and the others apart, and gives GPTBot a Crawl-delay.
fn per_crawler(_: &str) -> String {
    let body =
        "User-agent: GPTBot\nDisallow: /\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /private/\n";
    format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Standard output's lines.
fn lines(out: &Output) -> Vec<String> {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Several agents: one request for the robots.txt, sent as the first agent, one report,
/// then for each URL one JSON line per agent in the order given, each the line that agent
/// alone gets with "agent" first.
#[test]
fn several_agents_fetch_once_and_give_each_agents_json_line() {
    let (port, heads) = serve_recording(per_crawler);
    let base = format!("http://127.0.0.1:{port}");
    let paths = ["/private/x", "/public"];
    let agents = ["GPTBot", "CCBot"];
    let mut args = vec!["fetch", &base, "--format", "json"];
    args.extend(paths);
    let with = |agents: &[&str]| {
        let mut all = args.clone();
        for agent in agents {
            all.extend(["--agent", agent]);
        }
        lines(&robots(&all))
    };
    let several = with(&agents);
    {
        let heads = heads.lock().unwrap();
        assert_eq!(heads.len(), 1, "{heads:?}");
        assert!(heads[0].starts_with("GET /robots.txt "), "{heads:?}");
        let sent = format!(
            "user-agent: GPTBot (compatible; robots-cli/{})\r\n",
            env!("CARGO_PKG_VERSION")
        );
        assert!(
            heads[0]
                .to_ascii_lowercase()
                .contains(&sent.to_ascii_lowercase()),
            "{heads:?}"
        );
    }
    // The report, then 3 URLs (the first URL and two paths) for each of 2 agents.
    assert_eq!(several.len(), 1 + 3 * agents.len(), "{several:?}");
    let report: serde_json::Value = serde_json::from_str(&several[0]).unwrap();
    assert!(report.get("crawl_delay_secs").is_none(), "{report}");
    assert_eq!(
        report["crawl_delays"],
        serde_json::json!([{"agent": "GPTBot", "secs": 5.0}, {"agent": "CCBot", "secs": null}])
    );
    // It stands where one agent's "crawl_delay_secs" stands.
    assert!(
        several[0].contains(r#""sitemaps":[],"crawl_delays":[{"agent":"GPTBot","secs":5.0},{"agent":"CCBot","secs":null}],"lint_errors":0,"#),
        "{}",
        several[0]
    );
    let help = String::from_utf8(robots(&["fetch", "--help"]).stdout).unwrap();
    assert!(help.contains("\"crawl_delays\""), "not in fetch --help");
    for (a, agent) in agents.iter().enumerate() {
        let alone = with(&[agent]);
        assert_eq!(alone.len(), 4, "{alone:?}");
        let report: serde_json::Value = serde_json::from_str(&alone[0]).unwrap();
        let delay = if *agent == "GPTBot" {
            serde_json::json!(5.0)
        } else {
            serde_json::json!(null)
        };
        assert_eq!(report["crawl_delay_secs"], delay, "{report}");
        for (u, line) in alone[1..].iter().enumerate() {
            let expected = format!("{{\"agent\":\"{agent}\",{}", &line[1..]);
            assert_eq!(several[1 + u * agents.len() + a], expected);
        }
    }
    let verdicts: Vec<bool> = several[1..]
        .iter()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["allowed"]
                .as_bool()
                .unwrap()
        })
        .collect();
    assert_eq!(verdicts, [false, true, false, false, false, true]);
}

/// Several agents in text: the report once, with each agent's Crawl-delay named, then
/// each URL's verdicts, one line per agent naming it in a padded column; a crawler given
/// twice is checked once, with a note.
#[test]
fn several_agents_in_text_name_each_agent_once() {
    let (port, heads) = serve_recording(per_crawler);
    let base = format!("http://127.0.0.1:{port}");
    let run = |agents: &[&str]| {
        let mut args = vec!["fetch", &base, "--color", "never", "/private/x"];
        for agent in agents {
            args.extend(["--agent", agent]);
        }
        robots(&args)
    };
    let out = run(&["GPTBot", "CCBot", "gptbot", "Googlebot"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err,
        "robots: note: --agent `gptbot` is the crawler `GPTBot` already given; it is checked once\n"
    );
    let several = lines(&out);
    assert_eq!(heads.lock().unwrap().len(), 1);
    let robots_url = format!("{base}/robots.txt  fetched");
    assert_eq!(
        several.iter().filter(|l| **l == robots_url).count(),
        1,
        "{several:?}"
    );
    assert!(
        several.contains(&"  crawl-delay for GPTBot     5s".to_owned()),
        "{several:?}"
    );
    assert!(!several
        .iter()
        .any(|l| l.contains("crawl-delay for C") || l.contains("crawl-delay for Goo")));
    let verdicts = &several[several.len() - 6..];
    assert_eq!(
        verdicts,
        [
            format!("DISALLOWED  GPTBot     {base}  (line 2: Disallow: /)"),
            format!("ALLOWED     CCBot      {base}  (no rule matched)"),
            format!("ALLOWED     Googlebot  {base}  (no rule matched)"),
            format!("DISALLOWED  GPTBot     {base}/private/x  (line 2: Disallow: /)"),
            format!("DISALLOWED  CCBot      {base}/private/x  (line 6: Disallow: /private/)"),
            format!("DISALLOWED  Googlebot  {base}/private/x  (line 6: Disallow: /private/)"),
        ]
    );
    // Each is the line that agent alone gets, its name after the verdict word.
    for (a, agent) in ["GPTBot", "CCBot", "Googlebot"].iter().enumerate() {
        let alone = lines(&run(&[agent]));
        assert!(alone
            .iter()
            .all(|l| !l.contains(agent) || l.contains("crawl-delay")));
        let alone = &alone[alone.len() - 2..];
        for (u, line) in alone.iter().enumerate() {
            let (word, rest) = line.split_at("DISALLOWED  ".len());
            let named = format!("{word}{agent:<9}  {rest}");
            assert_eq!(verdicts[u * 3 + a], named);
        }
    }
}

/// A robots.txt that is not there allows every agent everything; the blanket verdicts
/// name their agents as the parsed ones do.
#[test]
fn several_agents_get_blanket_verdicts_each() {
    let (port, heads) = serve_recording(not_found);
    let base = format!("http://127.0.0.1:{port}");
    let args = ["fetch", &base, "--agent", "GPTBot", "--agent", "CCBot"];
    let text = lines(&robots(&[&args[..], &["--color", "never"]].concat()));
    assert_eq!(
        &text[text.len() - 2..],
        [
            format!("ALLOWED     GPTBot  {base}  (no robots.txt applies: everything allowed)"),
            format!("ALLOWED     CCBot   {base}  (no robots.txt applies: everything allowed)"),
        ]
    );
    let json = lines(&robots(&[&args[..], &["--format", "json"]].concat()));
    assert_eq!(
        json[1..],
        [
            format!("{{\"agent\":\"GPTBot\",\"url\":\"{base}\",\"allowed\":true,\"line\":null,\"rule\":null,\"pattern\":null,\"embargo_days\":null,\"reason\":\"unavailable\"}}"),
            format!("{{\"agent\":\"CCBot\",\"url\":\"{base}\",\"allowed\":true,\"line\":null,\"rule\":null,\"pattern\":null,\"embargo_days\":null,\"reason\":\"unavailable\"}}"),
        ]
    );
    assert_eq!(heads.lock().unwrap().len(), 2);
}

/// `--max-bytes` is shared, but how the bytes past it are read is not: fetch reads a body
/// to one byte past the limit, the other commands keep 64 KiB more of a file and count
/// the rest. Each command's help says what it does, after the same first sentence.
#[test]
fn max_bytes_help_says_how_each_command_reads_past_the_limit() {
    let help = |command: &str| {
        let out = robots(&[command, "--help"]);
        let text = String::from_utf8(out.stdout).unwrap();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let at = text.find("--max-bytes <N> ").unwrap();
        let end = text[at..].find("[default: 512000]").unwrap();
        text[at..at + end].to_owned()
    };
    let shared = "Parse at most this many bytes (at least 512000, RFC 9309 §2.5; more than 16777216, the most ever parsed, is taken as that).";
    let fetch = help("fetch");
    assert!(fetch.contains(shared), "{fetch}");
    assert!(
        fetch.contains("A body is read to one byte past this and no further."),
        "{fetch}"
    );
    assert!(
        !fetch.contains("64 KiB") && !fetch.contains("1 GiB"),
        "{fetch}"
    );
    for command in ["check", "lint", "diff", "explain"] {
        let text = help(command);
        assert!(text.contains(shared), "{command}: {text}");
        assert!(
            text.contains("64 KiB more") && !text.contains("A body"),
            "{command}: {text}"
        );
    }
}
