//! `robots check` end to end: the binary run on files, with URLs as arguments and on
//! standard input, in both formats, and its exit statuses.

use crate::common;

use std::path::PathBuf;

use common::{json_lines, raw_controls, run as robots};

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/robots.txt")
}

/// `check` of the example file for ExampleBot, as JSON, with `urls` on standard input.
fn example_json_from_stdin(urls: impl AsRef<[u8]>) -> std::process::Output {
    example_json_from_stdin_with(&[], urls)
}

/// [`example_json_from_stdin`] with more arguments.
fn example_json_from_stdin_with(more: &[&str], urls: impl AsRef<[u8]>) -> std::process::Output {
    example_check(&[&["--format", "json"], more].concat(), urls)
}

/// `check` of the example file for ExampleBot with `more` arguments (options, then
/// URLs), and `urls` on standard input.
fn example_check(more: &[&str], urls: impl AsRef<[u8]>) -> std::process::Output {
    let file = example();
    let args = [
        "check",
        "--robots",
        file.to_str().unwrap(),
        "--agent",
        "ExampleBot",
    ];
    robots(&[&args[..], more].concat(), urls)
}

#[test]
fn json_output_has_the_documented_shape_in_input_order() {
    let file = example();
    let out = robots(
        &[
            "check",
            "--robots",
            file.to_str().unwrap(),
            "--agent",
            "ExampleArchiver",
            "--embargo",
            "--format",
            "json",
            "https://example.com/news/a",
            "/private/x",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0],
        serde_json::json!({"url": "https://example.com/news/a", "allowed": true, "line": 12,
            "rule": "embargo-allow", "pattern": "/news/", "embargo_days": 31,
            "reason": "longest", "content_usage": null, "content_usage_line": null,
            "content_signal": null, "content_signal_line": null})
    );
    assert_eq!(
        lines[1],
        serde_json::json!({"url": "/private/x", "allowed": false, "line": 13,
            "rule": "disallow", "pattern": "/", "embargo_days": null, "reason": "longest",
            "content_usage": null, "content_usage_line": null, "content_signal": null,
            "content_signal_line": null})
    );
    // Field order is part of the interface.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(r#"{"url":"https://example.com/news/a","allowed":true,"line":12,"rule""#)
    );
}

#[test]
fn urls_come_from_standard_input_when_none_are_given() {
    let out = example_json_from_stdin("/search?q=1\n\n  /search/help  \n/\n");
    let lines = json_lines(&out);
    let summary: Vec<(String, bool)> = lines
        .iter()
        .map(|l| {
            (
                l["url"].as_str().unwrap().to_owned(),
                l["allowed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("/search?q=1".into(), false),
            ("/search/help".into(), true),
            ("/".into(), true)
        ]
    );
    assert_eq!(lines[2]["line"], serde_json::Value::Null);
}

/// URLs on standard input are answered as they are read: a pipeline fed slowly
/// (`tail -f access.log | … | robots check`) gets each verdict while standard input is
/// still open, not all of them once it closes.
#[test]
fn urls_from_standard_input_are_answered_as_they_arrive() {
    let file = example();
    let mut check = Live::start(&["--robots", file.to_str().unwrap(), "--agent", "ExampleBot"]);
    check.send("/private/x");
    assert_eq!(
        check.answers(1, "the first verdict while standard input is open"),
        ["DISALLOWED  /private/x  (line 5: Disallow: /private/)\n"]
    );
    check.send("/search/help");
    assert_eq!(
        check.answers(1, "the second verdict"),
        ["ALLOWED     /search/help  (line 7: Allow: /search/help)\n"]
    );
    check.finish();
}

/// `robots check` with `args`, fed URLs on standard input a line at a time while its
/// output is read on a thread, so that a test can ask for verdicts before standard
/// input closes.
struct Live {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    reader: std::thread::JoinHandle<()>,
}

impl Live {
    fn start(args: &[&str]) -> Live {
        use std::io::{BufRead, BufReader};
        use std::process::{Command, Stdio};

        let mut child = Command::new(env!("CARGO_BIN_EXE_robots"))
            .arg("check")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || loop {
            let mut line = String::new();
            if stdout.read_line(&mut line).unwrap() == 0 || tx.send(line).is_err() {
                return;
            }
        });
        Live {
            child,
            stdin,
            lines,
            reader,
        }
    }

    /// Writes `url` as a line of standard input, which stays open.
    fn send(&mut self, url: &str) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{url}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next `n` lines of output; `what` says what was awaited, should they not come
    /// within 30 s (the command is then killed).
    fn answers(&mut self, n: usize, what: &str) -> Vec<String> {
        let mut got = Vec::new();
        for _ in 0..n {
            match self.lines.recv_timeout(std::time::Duration::from_secs(30)) {
                Ok(line) => got.push(line),
                Err(_) => {
                    self.child.kill().unwrap();
                    panic!("{what}: {got:?}");
                }
            }
        }
        got
    }

    /// Closes standard input: the command must then end, and succeed.
    fn finish(mut self) {
        drop(self.stdin.take());
        assert!(self.child.wait().unwrap().success());
        self.reader.join().unwrap();
    }
}

#[test]
fn text_output_names_the_deciding_line_without_colour_in_a_pipe() {
    let file = example();
    let out = robots(
        &[
            "check",
            "--robots",
            file.to_str().unwrap(),
            "--agent",
            "ExampleBot",
            "/private/a",
        ],
        "",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.trim_end(),
        "DISALLOWED  /private/a  (line 5: Disallow: /private/)"
    );
}

#[test]
fn text_output_escapes_control_characters_from_the_file_and_the_urls() {
    let file = "User-agent: *\nDisallow: /a\x1b]0;PWNED\x07\nDisallow: /b\0c\n";
    let out = robots(
        &[
            "check",
            "--robots",
            "-",
            "--agent",
            "a",
            "--color",
            "never",
            "/a\x1b]0;PWNED\x07",
            "/b%00c",
        ],
        file,
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "DISALLOWED  /a\\u{1b}]0;PWNED\\u{7}  (line 2: Disallow: /a\\u{1b}]0;PWNED\\u{7})\n\
         DISALLOWED  /b%00c  (line 3: Disallow: /b\\u{0}c)\n"
    );
}

#[test]
fn a_url_line_that_is_not_utf8_is_checked_with_the_others() {
    let out = example_json_from_stdin(b"/private/caf\xE9\n/search/caf\xE9\r\n/search/help\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let lines = json_lines(&out);
    let got: Vec<(&str, bool)> = lines
        .iter()
        .map(|l| (l["url"].as_str().unwrap(), l["allowed"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            ("/private/caf\\xE9", false),
            ("/search/caf\\xE9", false),
            ("/search/help", true)
        ]
    );
}

#[cfg(unix)]
#[test]
fn url_arguments_that_are_not_utf8_are_checked_and_other_arguments_named() {
    use std::ffi::{OsStr, OsString};
    use std::os::unix::ffi::OsStrExt;

    let os = |bytes: &[u8]| OsStr::from_bytes(bytes).to_owned();
    let file = "User-agent: *\nDisallow: /caf%E9\n";
    let check = ["check", "--robots", "-", "--agent", "a", "--color", "never"].map(OsString::from);
    // RFC 9309 percent-encodes the octet before matching.
    let out = robots(&[&check[..], &[os(b"/caf\xE9")]].concat(), file);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "DISALLOWED  /caf\\xE9  (line 2: Disallow: /caf%E9)\n"
    );
    let agent = [
        os(b"check"),
        os(b"--robots"),
        os(b"-"),
        os(b"--agent"),
        os(b"a\xE9"),
        os(b"/x"),
    ];
    let out = robots(&agent, file);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(r#"argument 5, "a\xE9" (after `--agent`), is not UTF-8"#),
        "{err}"
    );
}

/// `robots check` of `/x` in the file at `path` for `agent` under `profile`, with
/// `extra` options.
fn check_x(path: &str, agent: &str, profile: &str, extra: &[&str]) -> std::process::Output {
    let args = [
        "check",
        "--robots",
        path,
        "--agent",
        agent,
        "--profile",
        profile,
    ];
    robots(&[&args[..], extra, &["/x"]].concat(), "")
}

#[test]
fn google_profile_takes_the_agent_exactly_as_given() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("robots.txt");
    std::fs::write(&file, "User-agent: FooBot\nDisallow: /\n").unwrap();
    let path = file.to_str().unwrap();
    let verdict = |agent: &str, profile: &str| {
        let out = check_x(path, agent, profile, &["--format", "json"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        json_lines(&out)[0]["allowed"].as_bool().unwrap()
    };
    assert!(!verdict("FooBot", "google"));
    assert!(verdict("FooBot/1.0", "google"));
    assert!(verdict("", "google"));
    // The RFC 9309 profile reads `FooBot/1.0` as a User-Agent and finds FooBot.
    assert!(!verdict("FooBot/1.0", "rfc9309"));
}

/// What `robots check` says on standard error about `--agent` in each profile: a
/// refusal in the command line's terms (it named the library's
/// `Agent::from_user_agent`), a warning where Google's matcher can match no named
/// group (it said nothing), and a note for `*`, which names no crawler (it was warned
/// of as if a group could name it).
#[test]
fn agent_advice_speaks_to_whoever_typed_it() {
    let file = example();
    let path = file.to_str().unwrap();
    let stderr = |agent: &str, profile: &str| {
        let out = check_x(path, agent, profile, &[]);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for bad in ["fo:o", " ", "ü"] {
        let (code, err) = stderr(bad, "rfc9309");
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("cannot appear in a product token")
                && err.contains("`Mozilla/5.0 (compatible; ExampleBot/2.1)`")
                && !err.contains("Agent::"),
            "{err}"
        );
    }
    let (code, err) = stderr("ExampleBot/2.1", "google");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("robots: warning: Google's matcher compares `ExampleBot/2.1` as given")
            && err.contains("give `ExampleBot`"),
        "{err}"
    );
    let (code, err) = stderr("", "google");
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("robots: warning: --agent is empty"), "{err}");
    for profile in ["rfc9309", "google"] {
        let (code, err) = stderr("*", profile);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            err.starts_with("robots: note: `*` names no crawler"),
            "{err}"
        );
        assert!(!err.contains("warning"), "{err}");
        let (_, err) = stderr("ExampleBot", profile);
        assert!(err.is_empty(), "{err}");
    }
}

/// A URL with no scheme and no leading `/` is read as a host and a path, as Google's
/// matcher reads it, so `private/x` is checked as `/x` and `private` as `/`. That
/// verdict stays, but standard error says which path was checked (it said nothing, and
/// the verdict line shows the URL as typed), for URLs from arguments and standard
/// input, in check and diff; URLs and paths written in full get no note.
#[test]
fn a_url_without_scheme_or_slash_is_said_to_be_read_as_host_and_path() {
    let file = example();
    let path = file.to_str().unwrap();
    let check = |urls: &[&str], stdin: &str| {
        let args = [
            "check",
            "--robots",
            path,
            "--agent",
            "ExampleBot",
            "--color",
            "never",
        ];
        let out = robots(&[&args[..], urls].concat(), stdin);
        assert_eq!(out.status.code(), Some(0));
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (stdout, stderr) = check(&["private/x", "search"], "");
    assert_eq!(
        stdout,
        "ALLOWED     private/x  (no rule matched)\nALLOWED     search  (no rule matched)\n"
    );
    assert_eq!(
        stderr,
        "robots: note: `private/x` has no scheme and does not start with `/`, so it is read as Google's matcher reads it, as a URL without its scheme (a host, then a path): the path checked is `/x`; write `/private/x` to check that path\n\
         robots: note: `search` has no scheme and does not start with `/`, so it is read as Google's matcher reads it, as a URL without its scheme (a host, then a path): the path checked is `/`; write `/search` to check that path\n"
    );
    // A scheme with no `//` after it is named as such, a host and port is not a scheme.
    let (_, stderr) = check(
        &["https:/private/x", "mailto:a@b", "localhost:8080/private"],
        "",
    );
    assert_eq!(
        stderr,
        "robots: note: `https:/private/x` has a scheme but no `//` after it and does not start with `/`, so it is read as Google's matcher reads it, as a URL without its scheme (a host, then a path): the path checked is `/private/x`; write `/https:/private/x` to check that path\n\
         robots: note: `mailto:a@b` has a scheme but no `//` after it and does not start with `/`, so it is read as Google's matcher reads it, as a URL without its scheme (a host, then a path): the path checked is `/`; write `/mailto:a@b` to check that path\n\
         robots: note: `localhost:8080/private` has no scheme and does not start with `/`, so it is read as Google's matcher reads it, as a URL without its scheme (a host, then a path): the path checked is `/private`; write `/localhost:8080/private` to check that path\n"
    );
    let (_, stderr) = check(&[], "example.com/private/x\n");
    assert!(
        stderr.contains("the path checked is `/private/x`"),
        "{stderr}"
    );
    let (_, stderr) = check(&["", "a", "b", "c", "d", "e", "f"], "");
    assert!(
        stderr.starts_with("robots: note: an empty URL is checked as `/`\n"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 6, "{stderr}");
    assert!(stderr.ends_with(
        "robots: note: more URLs without `scheme://` or a leading `/` are read the same way\n"
    ));
    let (_, stderr) = check(
        &[
            "/private/x",
            "https://example.com/private/x",
            "//example.com/a",
            "?q",
            "ftp://h/a",
        ],
        "",
    );
    assert!(stderr.is_empty(), "{stderr}");
    let diff = robots(&["diff", "--agent", "a", path, path, "private/x"], "");
    assert!(
        String::from_utf8_lossy(&diff.stderr)
            .contains("the path checked is `/x`; write `/private/x`"),
        "{diff:?}"
    );
}

#[test]
fn usage_errors_and_unreadable_files_exit_2_with_advice() {
    let file = example();
    let path = file.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &[
                "check",
                "--robots",
                "/nonexistent/robots.txt",
                "--agent",
                "a",
                "/",
            ],
            "cannot read",
        ),
        (
            &[
                "check",
                "--robots",
                path,
                "--agent",
                "a",
                "--profile",
                "google",
                "--embargo",
                "/",
            ],
            "--embargo needs --profile rfc9309",
        ),
        (
            &[
                "check",
                "--robots",
                path,
                "--agent",
                "a",
                "--max-bytes",
                "1000",
                "/",
            ],
            "512,000",
        ),
        // Not clap's tip to pass `-- -1`, which would make it a URL.
        (
            &[
                "check",
                "--robots",
                path,
                "--agent",
                "a",
                "--max-bytes",
                "-1",
                "/",
            ],
            "invalid value '-1' for '--max-bytes <N>'",
        ),
        (&["check", "--robots", path, "--agent", "", "/"], "empty"),
        (&["check", "--robots", path, "/"], "--agent"),
    ];
    for (args, needle) in cases {
        let out = robots(args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn messages_on_standard_error_escape_control_characters_in_arguments() {
    let file = example();
    let path = file.to_str().unwrap();
    let evil = "\x1b]0;PWNED\x07\u{202e}";
    let shown = "\\u{1b}]0;PWNED\\u{7}\\u{202e}";
    // An unreadable file's name, in an error; an agent read as a User-Agent, in a note.
    let missing = format!("/nonexistent/robots{evil}.txt");
    let agent = format!("ExampleBot/1.0 (+{evil})");
    let cases: [(&[&str], String); 2] = [
        (
            &["check", "--robots", &missing, "--agent", "a", "/"],
            format!("cannot read /nonexistent/robots{shown}.txt;"),
        ),
        (
            &["check", "--robots", path, "--agent", &agent, "/"],
            format!("reading `ExampleBot/1.0 (+{shown})` as a User-Agent header"),
        ),
    ];
    for (args, needle) in cases {
        let err = String::from_utf8(robots(args, "").stderr).unwrap();
        assert!(!raw_controls(&err), "{args:?}: {err:?}");
        assert!(err.contains(&needle), "{args:?}: {err}");
    }
    // A value the command line refuses, quoted by clap, with colour forced on as on a
    // terminal (where clap passes control characters through).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_robots"))
        .args(["check", "--robots", path, "--agent", "a", "--max-bytes"])
        .arg(format!("1{evil}"))
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!raw_controls(&err), "{err:?}");
    assert!(
        err.contains(&format!("invalid value '1{shown}' for '--max-bytes <N>'")),
        "{err}"
    );
}

#[test]
fn the_robots_txt_and_the_urls_cannot_both_come_from_standard_input() {
    let file = "User-agent: *\nDisallow: /\n";
    let out = robots(&["check", "--robots", "-", "--agent", "a"], file);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(
        err.contains("--robots - reads the robots.txt from standard input")
            && err.contains("give the URLs as arguments"),
        "{err}"
    );
    // With the URLs as arguments, the robots.txt may come from standard input.
    let out = robots(
        &[
            "check", "--robots", "-", "--agent", "a", "--format", "json", "/x",
        ],
        file,
    );
    assert_eq!(json_lines(&out)[0]["allowed"], false);
}

#[test]
fn help_teaches_with_examples() {
    let out = robots(&["check", "--help"], "");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("Examples:"));
    assert!(help.contains("--embargo"));
}

#[test]
fn json_says_why_in_the_web_testers_words() {
    let cases = [
        (
            "rfc9309",
            "User-agent: Other\nDisallow: /\n",
            &["/a", "/robots.txt"][..],
        ),
        (
            "rfc9309",
            "User-agent: *\nDisallow: /x\nAllow: /x\nDisallow: /private\n",
            &["/x", "/private/a", "/a"][..],
        ),
        ("google", "User-agent: *\nDisallow:\n", &["/a"][..]),
    ];
    let mut reasons = Vec::new();
    for (profile, file, urls) in cases {
        let args = [
            "check",
            "--robots",
            "-",
            "--agent",
            "ExampleBot",
            "--profile",
            profile,
            "--format",
            "json",
        ];
        let out = robots(&[&args[..], urls].concat(), file);
        assert_eq!(out.status.code(), Some(0));
        let tester = robots_web::Tester::parse(file.as_bytes(), profile).unwrap();
        let urls: Vec<String> = urls.iter().map(|u| u.to_string()).collect();
        let page: serde_json::Value =
            serde_json::from_str(&tester.check("ExampleBot", false, &urls).unwrap()).unwrap();
        let lines = json_lines(&out);
        assert_eq!(serde_json::Value::from(lines.clone()), page["verdicts"]);
        reasons.extend(
            lines
                .iter()
                .map(|l| l["reason"].as_str().unwrap().to_owned()),
        );
    }
    assert_eq!(
        reasons,
        [
            "no-group",
            "robots-txt",
            "tie-won-by-allow",
            "longest",
            "no-match",
            "empty-disallow"
        ]
    );
}

#[test]
fn googles_empty_disallow_is_said_to_disallow_nothing() {
    let out = robots(
        &[
            "check",
            "--robots",
            "-",
            "--agent",
            "ExampleBot",
            "--profile",
            "google",
            "/a",
        ],
        "User-agent: *\nDisallow:\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "ALLOWED     /a  (line 2: empty Disallow: disallows nothing)\n"
    );
}

/// docs/design.md, parsing: a crawler's own token outside RFC 9309's `[A-Za-z_-]` gets a
/// diagnostic, not a refusal; it still matches the group that names it exactly.
#[test]
fn an_agent_outside_rfc9309_tokens_is_warned_about_and_still_matched() {
    let out = robots(
        &["check", "--robots", "-", "--agent", "MJ12bot", "/x"],
        "User-agent: MJ12bot\nDisallow: /x\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("DISALLOWED"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: `MJ12bot` has characters outside RFC 9309's [A-Za-z_-]"),
        "{stderr}"
    );
}

/// `--expect` turns check into a test: every verdict printed as before, exit 1 and the
/// URLs that failed named on standard error when one gets the other verdict.
#[test]
fn expect_fails_when_a_url_gets_the_other_verdict_and_names_it() {
    let check = |expect: &str, urls: &[&str]| {
        example_check(
            &[&["--color", "never", "--expect", expect], urls].concat(),
            "",
        )
    };
    let out = check("disallowed", &["/private/x", "/news/today", "/search?q=1"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "DISALLOWED  /private/x  (line 5: Disallow: /private/)\n\
         ALLOWED     /news/today  (no rule matched)\n\
         DISALLOWED  /search?q=1  (line 6: Disallow: /search)\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "robots check: 1 URL is allowed, not disallowed as --expect asks:\n  /news/today\n"
    );

    let out = check("allowed", &["/news/today", "/search/help"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stderr, b"");

    let out = check("allowed", &["/private/a", "/news/today", "/search"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "robots check: 2 URLs are disallowed, not allowed as --expect asks:\n  /private/a\n  /search\n"
    );
}

/// URLs read from standard input are held to `--expect` too, the JSON lines unchanged.
#[test]
fn expect_holds_urls_from_standard_input_and_leaves_json_as_it_is() {
    let urls = "/a\n/private/b\n";
    let plain = example_json_from_stdin(urls);
    let expecting = example_json_from_stdin_with(&["--expect", "allowed"], urls);
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(expecting.status.code(), Some(1));
    assert_eq!(expecting.stdout, plain.stdout);
    assert_eq!(
        String::from_utf8_lossy(&expecting.stderr),
        "robots check: 1 URL is disallowed, not allowed as --expect asks:\n  /private/b\n"
    );
}

/// With `--agent` given several times, each URL gets one verdict per agent, in the
/// order the agents were given, each text line naming its agent in a column padded so
/// that the URLs line up. GPTBot is named by no group, so the `*` group's rules apply.
#[test]
fn several_agents_get_a_verdict_each_for_every_url_in_the_order_given() {
    let out = example_check(
        &[
            "--agent",
            "GPTBot",
            "--agent",
            "ExampleArchiver",
            "--embargo",
            "--color",
            "never",
            "/news/today",
            "/private/x",
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(err, "");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "ALLOWED     ExampleBot       /news/today  (no rule matched)\n\
         ALLOWED     GPTBot           /news/today  (no rule matched)\n\
         ALLOWED     ExampleArchiver  /news/today  (line 12: Embargo-Allow: /news/)  [embargo 31 days]\n\
         DISALLOWED  ExampleBot       /private/x  (line 5: Disallow: /private/)\n\
         DISALLOWED  GPTBot           /private/x  (line 5: Disallow: /private/)\n\
         DISALLOWED  ExampleArchiver  /private/x  (line 13: Disallow: /)\n"
    );
    // Colours are those of one agent's lines; the name between them is plain.
    let out = example_check(
        &["--agent", "BadBot", "--color", "always", "/search/help"],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("\x1b[1;32mALLOWED   \x1b[0m  ExampleBot  /search/help  "),
        "{text:?}"
    );
    assert!(
        lines[1].starts_with("\x1b[1;31mDISALLOWED\x1b[0m  BadBot      /search/help  "),
        "{text:?}"
    );
}

/// Several agents in JSON: one line per URL and agent, in that order, each the line
/// that agent alone gets with `"agent"` put first.
#[test]
fn several_agents_in_json_are_each_agents_own_lines_with_the_agent_first() {
    let agents = ["ExampleBot", "GPTBot", "ExampleArchiver", "BadBot"];
    let urls = ["/news/today", "/search/help", "/robots.txt"];
    let more: Vec<&str> = agents[1..]
        .iter()
        .flat_map(|a| ["--agent", a])
        .chain(["--embargo"])
        .chain(urls)
        .collect();
    let out = example_json_from_stdin_with(&more, "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(r#"{"agent":"ExampleBot","url":"/news/today","allowed":true,"#),
        "{text}"
    );
    let alone = |agent: &str| {
        let file = example();
        let args = [
            "check",
            "--robots",
            file.to_str().unwrap(),
            "--agent",
            agent,
            "--embargo",
            "--format",
            "json",
        ];
        json_lines(&robots(&[&args[..], &urls].concat(), ""))
    };
    let mut expected = Vec::new();
    let each: Vec<Vec<serde_json::Value>> = agents.iter().map(|a| alone(a)).collect();
    for at in 0..urls.len() {
        for (agent, lines) in agents.iter().zip(&each) {
            let mut line = serde_json::Map::new();
            line.insert("agent".into(), (*agent).into());
            line.extend(lines[at].as_object().unwrap().clone());
            expected.push(serde_json::Value::Object(line));
        }
    }
    assert_eq!(json_lines(&out), expected);
    assert_eq!(expected[8]["reason"], "robots-txt");
}

/// An agent that no group names, where no `*` group stands in, gets "no group" in its
/// own lines, beside an agent whose group decides.
#[test]
fn an_agent_no_group_names_is_said_to_have_none_beside_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("robots.txt");
    std::fs::write(
        &file,
        "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n",
    )
    .unwrap();
    let args = [
        "check",
        "--robots",
        file.to_str().unwrap(),
        "--agent",
        "GPTBot",
        "--agent",
        "Googlebot",
        "--agent",
        "CCBot",
        "--color",
        "never",
        "/",
    ];
    let out = robots(&args, "");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "DISALLOWED  GPTBot     /  (line 3: Disallow: /)\n\
         ALLOWED     Googlebot  /  (no group for this agent)\n\
         DISALLOWED  CCBot      /  (line 3: Disallow: /)\n"
    );
    let out = robots(&[&args[..], &["--format", "json"]].concat(), "");
    let got: Vec<(String, String)> = json_lines(&out)
        .iter()
        .map(|l| {
            (
                l["agent"].as_str().unwrap().to_owned(),
                l["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("GPTBot".into(), "longest".into()),
            ("Googlebot".into(), "no-group".into()),
            ("CCBot".into(), "longest".into())
        ]
    );
}

/// URLs read from standard input get every agent's verdict, URL by URL, each URL's
/// verdicts written as soon as it is read.
#[test]
fn several_agents_answer_urls_from_standard_input_as_they_arrive() {
    let out = example_json_from_stdin_with(&["--agent", "BadBot"], "/a\n\n/private/b\n");
    let got: Vec<(String, String, bool)> = json_lines(&out)
        .iter()
        .map(|l| {
            (
                l["agent"].as_str().unwrap().to_owned(),
                l["url"].as_str().unwrap().to_owned(),
                l["allowed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("ExampleBot".into(), "/a".into(), true),
            ("BadBot".into(), "/a".into(), false),
            ("ExampleBot".into(), "/private/b".into(), false),
            ("BadBot".into(), "/private/b".into(), false),
        ]
    );

    let file = example();
    let mut check = Live::start(&[
        "--robots",
        file.to_str().unwrap(),
        "--agent",
        "ExampleBot",
        "--agent",
        "BadBot",
    ]);
    check.send("/search/help");
    assert_eq!(
        check.answers(2, "both verdicts while standard input is open"),
        [
            "ALLOWED     ExampleBot  /search/help  (line 7: Allow: /search/help)\n",
            "DISALLOWED  BadBot      /search/help  (line 16: Disallow: /)\n"
        ]
    );
    check.finish();
}

/// `--expect` holds every agent to the verdict; standard error names each failing
/// agent and URL, in output order, agents lined up.
#[test]
fn expect_with_several_agents_names_each_failing_agent_and_url() {
    let out = example_check(
        &[
            "--agent",
            "BadBot",
            "--color",
            "never",
            "--expect",
            "allowed",
            "/news/today",
            "/private/x",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 4);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "robots check: 3 (agent, URL) pairs are disallowed, not allowed as --expect asks:\n  \
         BadBot      /news/today\n  \
         ExampleBot  /private/x\n  \
         BadBot      /private/x\n"
    );
    let out = example_check(
        &["--agent", "GPTBot", "--expect", "disallowed", "/private/x"],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stderr, b"");
}

/// A crawler given twice is checked once, with a note; what is said of each agent
/// given (the note on `*`, the warning on a token outside RFC 9309's) is said once,
/// however many agents there are and however often one is repeated.
#[test]
fn agents_are_each_noted_once_and_a_crawler_given_twice_is_checked_once() {
    let out = example_check(
        &[
            "--agent",
            "*",
            "--agent",
            "MJ12bot",
            "--agent",
            "examplebot",
            "--agent",
            "MJ12bot",
            "--agent",
            "Mozilla/5.0 (compatible; MJ12bot/1.4)",
            "--color",
            "never",
            "/private/x",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "DISALLOWED  ExampleBot  /private/x  (line 5: Disallow: /private/)\n\
         DISALLOWED  *           /private/x  (line 5: Disallow: /private/)\n\
         DISALLOWED  MJ12bot     /private/x  (line 5: Disallow: /private/)\n"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 7, "{err}");
    assert!(
        lines[0].starts_with("robots: note: `*` names no crawler"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("robots: warning: `MJ12bot` has characters outside"),
        "{err}"
    );
    assert_eq!(
        lines[2],
        "robots: note: --agent `examplebot` is the crawler `ExampleBot` already given; it is checked once"
    );
    assert_eq!(
        lines[3],
        "robots: note: --agent `MJ12bot` is the crawler `MJ12bot` already given; it is checked once"
    );
    assert!(
        lines[4].contains("reading `Mozilla/5.0 (compatible; MJ12bot/1.4)` as a User-Agent header"),
        "{err}"
    );
    assert!(
        lines[5].contains("`MJ12bot` has characters outside"),
        "{err}"
    );
    assert!(
        lines[6].ends_with("is the crawler `MJ12bot` already given; it is checked once"),
        "{err}"
    );
}

/// One agent that cannot be read refuses the command, however many others there are.
#[test]
fn several_agents_refuse_one_that_cannot_be_read() {
    let out = example_check(&["--agent", "fo:o", "/"], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(err.contains("--agent `fo:o`: ':' cannot appear"), "{err}");
}

/// Help shows several agents at work and where JSON puts `"agent"`; explain, which
/// takes one crawler, keeps its one `--agent`.
#[test]
fn help_teaches_several_agents_and_explain_keeps_one() {
    let help = String::from_utf8(robots(&["check", "--help"], "").stdout).unwrap();
    assert!(
        help.contains("--agent GPTBot --agent CCBot --agent Googlebot /"),
        "{help}"
    );
    assert!(help.contains("A crawler to check for (repeat for several)"));
    assert!(help.contains("with \"agent\""), "{help}");
    let file = example();
    let path = file.to_str().unwrap();
    let out = robots(
        &[
            "explain", "--robots", path, "--agent", "a", "--agent", "b", "/",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let help = String::from_utf8(robots(&["explain", "--help"], "").stdout).unwrap();
    assert!(help.contains("The crawler: its product token"), "{help}");
}
