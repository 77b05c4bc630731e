//! `robots explain`, `robots lint` and `robots diff` end to end: every explain reason,
//! lint's exit statuses and output, and diff on synthetic and real (corpus) file pairs.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

/// `robots` with `args` and nothing on its standard input.
fn robots(args: &[&str]) -> Output {
    common::run(args, "")
}

/// A file of a test, in a directory of its own that goes when the file does.
struct Scratch {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl std::ops::Deref for Scratch {
    type Target = PathBuf;

    fn deref(&self) -> &PathBuf {
        &self.path
    }
}

/// A file named `name` holding `content`.
fn scratch(name: &str, content: &[u8]) -> Scratch {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, content).unwrap();
    Scratch { path, _dir: dir }
}

/// `file` read by each command that gives crawlers' verdicts for agent `a` at `url`:
/// `check`, `explain`, and `diff` from `other` to it; each command's name and output.
fn each_reader(file: &str, other: &str, url: &str) -> [(&'static str, Output); 3] {
    [
        (
            "check",
            robots(&["check", "--robots", file, "--agent", "a", url]),
        ),
        (
            "explain",
            robots(&["explain", "--robots", file, "--agent", "a", url]),
        ),
        ("diff", robots(&["diff", "--agent", "a", other, file, url])),
    ]
}

/// `robots explain` of `url` in `file` for `agent`, with `extra` options; it must succeed.
fn explain_out(file: &Path, agent: &str, extra: &[&str], url: &str) -> Vec<u8> {
    let mut args = vec![
        "explain",
        "--robots",
        file.to_str().unwrap(),
        "--agent",
        agent,
    ];
    args.extend_from_slice(extra);
    args.push(url);
    let out = robots(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn explain(file: &Path, agent: &str, extra: &[&str], url: &str) -> Value {
    let extra = [&["--format", "json"], extra].concat();
    serde_json::from_slice(&explain_out(file, agent, &extra, url)).expect("JSON")
}

fn explain_text(file: &Path, agent: &str, extra: &[&str], url: &str) -> String {
    String::from_utf8(explain_out(file, agent, extra, url)).unwrap()
}

const SITE: &[u8] = b"User-agent: a\nDisallow: /x\n\nUser-agent: a\nAllow: /x/ok\n\nUser-agent: *\nDisallow: /p\nAllow: /p\n\nUser-agent: arch\nArchive-Embargo: m\nEmbargo-Allow: /news\nDisallow: /\n\nUser-agent: noemb\nEmbargo-Allow: /news\nDisallow: /\n";

#[test]
fn explain_gives_each_selection_reason() {
    let file = scratch("site.txt", SITE);
    let j = explain(&file, "arch", &[], "/news");
    assert_eq!(
        (
            j["selection"]["kind"].as_str(),
            j["selection"]["groups"].as_u64()
        ),
        (Some("named"), Some(1))
    );
    let j = explain(&file, "a", &[], "/x/ok");
    assert_eq!(j["selection"]["groups"], 2);
    assert_eq!(j["selection"]["lines"], serde_json::json!([1, 4]));
    let j = explain(&file, "other", &[], "/q");
    assert_eq!(j["selection"]["kind"], "global");
    let none = scratch("none.txt", b"User-agent: a\nDisallow: /\n");
    let j = explain(&none, "b", &[], "/q");
    assert_eq!(
        (j["selection"]["kind"].as_str(), j["reason"].as_str()),
        (Some("none"), Some("no-group"))
    );
}

/// The selection sentence names what was compared with the user-agent lines: the
/// product token in the RFC 9309 profile, the name as given in Google's, where
/// `a/1.0` matches no `User-agent: a` line. It said "no group names `a`" beside a
/// file whose first line is `User-agent: a`.
#[test]
fn explain_names_the_agent_as_each_profile_compares_it() {
    let file = scratch("versioned.txt", b"User-agent: a\nDisallow: /x\n");
    let rfc = explain(&file, "a/1.0", &[], "/x");
    assert_eq!(
        rfc["selection"]["explanation"],
        "exact match: the group naming `a` (line 1)"
    );
    let google = explain(&file, "a/1.0", &["--profile", "google"], "/x");
    assert_eq!(
        google["selection"]["explanation"],
        "no group names `a/1.0` and there is no `*` group: no rules apply"
    );
}

/// A URL that is not UTF-8 is explained as `robots check` checks it, as the bytes it
/// is, not refused as a usage error: a surprising verdict from a log's URLs can be
/// looked into.
#[cfg(unix)]
#[test]
fn explain_takes_a_url_that_is_not_utf8_as_check_does() {
    use std::ffi::{OsStr, OsString};
    use std::os::unix::ffi::OsStrExt;

    let file = scratch("caf.txt", b"User-agent: *\nDisallow: /caf%E9\n");
    let file = file.to_str().unwrap();
    let url = OsStr::from_bytes(b"/caf\xE9").to_owned();
    let args = |cmd: &str| -> Vec<OsString> {
        [cmd, "--robots", file, "--agent", "a", "--color", "never"]
            .map(OsString::from)
            .into_iter()
            .chain([url.clone()])
            .collect()
    };
    let check = common::run(&args("check"), "");
    assert_eq!(
        String::from_utf8_lossy(&check.stdout),
        "DISALLOWED  /caf\\xE9  (line 2: Disallow: /caf%E9)\n"
    );
    let out = common::run(&args("explain"), "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("url      /caf\\xE9\npath     /caf%E9\n"),
        "{text}"
    );
    assert!(text.contains("DISALLOWED by line 2"), "{text}");
    let json = common::run(
        &[
            args("explain"),
            ["--format", "json"].map(OsString::from).to_vec(),
        ]
        .concat(),
        "",
    );
    let j: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        (j["url"].as_str(), j["allowed"].as_bool()),
        (Some("/caf\\xE9"), Some(false))
    );
    // Google's matcher takes the octet as given: the path shows it, as the URL does,
    // not as U+FFFD.
    let google = [
        args("explain"),
        ["--profile", "google"].map(OsString::from).to_vec(),
    ];
    let text = String::from_utf8(common::run(&google.concat(), "").stdout).unwrap();
    assert!(
        text.starts_with("url      /caf\\xE9\npath     /caf\\xE9\n"),
        "{text}"
    );
    let json = [
        &google[..],
        &[["--format", "json"].map(OsString::from).to_vec()],
    ]
    .concat();
    let j: Value = serde_json::from_slice(&common::run(&json.concat(), "").stdout).unwrap();
    assert_eq!(j["path"], "/caf\\xE9");
}

#[test]
fn explain_gives_each_decision_reason() {
    let file = scratch("site2.txt", SITE);
    let j = explain(&file, "a", &[], "/x/ok/1");
    assert_eq!(j["reason"], "longest");
    assert_eq!(j["decided_by"]["line"], 5);
    // Both rules of the merged groups matched, each with its length.
    let lengths: Vec<u64> = j["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["length"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [2, 5]);
    let j = explain(&file, "other", &[], "/p/1");
    assert_eq!(
        (j["reason"].as_str(), j["allowed"].as_bool()),
        (Some("tie-won-by-allow"), Some(true))
    );
    let j = explain(&file, "other", &[], "/robots.txt");
    assert_eq!(j["reason"], "robots-txt");
    let j = explain(&file, "other", &[], "/elsewhere");
    assert_eq!(j["reason"], "no-match");
}

#[test]
fn explain_and_diff_say_googles_empty_disallow_disallows_nothing() {
    let file = scratch("empty.txt", b"User-agent: *\nDisallow:\n");
    let google = ["--profile", "google"];
    let said =
        "an empty Disallow matches with length 0 and disallows nothing, so the URL is allowed";
    let j = explain(&file, "ExampleBot", &google, "/a");
    assert_eq!(
        (j["allowed"].as_bool(), &j["decided_by"]["line"]),
        (Some(true), &Value::from(2))
    );
    assert_eq!(j["reason"], "empty-disallow");
    assert_eq!(j["reason_text"], said);
    let path = file.to_str().unwrap();
    let args = [
        "--agent",
        "ExampleBot",
        "--profile",
        "google",
        "--color",
        "never",
    ];
    let out = robots(&[&["explain", "--robots", path][..], &args, &["/a"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("verdict  ALLOWED by line 2: {said}\n")),
        "{text}"
    );
    let old = scratch("all.txt", b"User-agent: *\nDisallow: /\n");
    let out = robots(&[&["diff", old.to_str().unwrap(), path][..], &args, &["/a"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "DISALLOWED (line 2: Disallow: /) -> ALLOWED (line 2: empty Disallow: disallows nothing)"
        ),
        "{text}"
    );
}

#[test]
fn explain_says_what_became_of_embargo_allow() {
    let file = scratch("site3.txt", SITE);
    let j = explain(&file, "arch", &["--embargo"], "/news/1");
    assert_eq!(
        (
            j["embargo_allow"].as_str(),
            j["allowed"].as_bool(),
            j["embargo_days"].as_u64()
        ),
        (Some("active"), Some(true), Some(31))
    );
    let j = explain(&file, "arch", &[], "/news/1");
    assert_eq!(
        (j["embargo_allow"].as_str(), j["allowed"].as_bool()),
        (Some("ignored-not-honoured"), Some(false))
    );
    assert_eq!(j["matches"][0]["counted"], false);
    let j = explain(&file, "noemb", &["--embargo"], "/news/1");
    assert_eq!(
        (j["embargo_allow"].as_str(), j["allowed"].as_bool()),
        (Some("ignored-no-embargo"), Some(false))
    );
}

#[test]
fn explain_text_shows_the_deciding_line_in_context() {
    let file = scratch("site4.txt", SITE);
    let text = explain_text(&file, "a", &["--color", "never"], "/x/1");
    assert!(
        text.contains("DISALLOWED by line 2: the longest matching rule decides"),
        "{text}"
    );
    assert!(text.contains("2 > Disallow: /x"), "{text}");
    assert!(text.contains("1 | User-agent: a"), "{text}");
    assert!(!text.contains('\x1b'));
    assert!(explain_text(&file, "a", &["--color", "always"], "/x/1").contains('\x1b'));
}

/// Explain shows the deciding line with two lines either side; a context line of
/// kilobytes (a generated rule list) is cut to 160 characters, saying how many more
/// there are, rather than printed whole.
#[test]
fn explain_cuts_long_context_lines() {
    let long = format!("Disallow: /{}", "b".repeat(20_000));
    let file = scratch(
        "long.txt",
        format!("User-agent: *\n{long}\nAllow: /ok\n").as_bytes(),
    );
    let text = explain_text(&file, "a", &[], "/ok");
    assert!(text.len() < 2_000, "{} bytes", text.len());
    assert!(
        text.contains(&format!(
            "2 | {} … (19851 more characters)\n3 > Allow: /ok\n",
            &long[..160]
        )),
        "{text}"
    );
}

/// Lint on lines of megabytes (a Crawl-delay, a Sitemap and a line with no colon, each
/// 4 MiB, read with --max-bytes): each message quotes 200 characters and says how many
/// octets it left out, and each line is shown as 200 octets around its underline, not
/// whole; text and JSON alike stay a few kilobytes.
#[test]
fn lint_cuts_long_quotes_and_lines() {
    const LONG: usize = 4 << 20;
    let body = format!(
        "User-agent: *\nCrawl-delay: {}\nSitemap: /{}\n{}\nDisallow: /x\n",
        "9".repeat(LONG),
        "c".repeat(LONG),
        "j".repeat(LONG)
    );
    let file = scratch("long.txt", body.as_bytes());
    let path = file.to_str().unwrap();
    let args = ["lint", "--max-bytes", "16777216", "--robots", path];
    let out = robots(&[&args[..], &["--color", "never"]].concat());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.len() < 4_000, "{} bytes", text.len());
    for (line, quote, cut) in [
        (2, "Crawl-delay `", LONG - 200),
        (3, "Sitemap `/", LONG + 1 - 200),
        (4, "`", LONG - 200),
    ] {
        assert!(
            text.contains(&format!("… ({cut} more octets)`")),
            "line {line}: {text}"
        );
        assert!(text.contains(quote), "line {line}: {text}");
    }
    // Crawl-delay's value starts at column 14: 50 octets before it would be shown, so
    // the 13 of the key are, and 187 of the value; the underline starts under the value.
    let cut = LONG + 13 - 200;
    assert!(
        text.contains(&format!(
            "2 > Crawl-delay: {} … ({cut} octets cut)\n  |              ^^^^",
            "9".repeat(187)
        )),
        "{text}"
    );
    let json = robots(&[&args[..], &["--format", "json"]].concat());
    let json = String::from_utf8(json.stdout).unwrap();
    assert!(json.len() < 4_000, "{} bytes", json.len());
    assert_eq!(json.lines().count(), 3, "{json}");
}

/// The context after the deciding line ends with the file: no empty line is shown after
/// the last line break, which the engine numbers (as Google's parser does) but no
/// editor shows. A real blank line at the end still shows.
#[test]
fn explain_shows_no_line_past_the_end_of_the_file() {
    for (name, body, tail) in [
        (
            "end-lf.txt",
            &b"User-agent: *\nDisallow: /a\n"[..],
            "2 > Disallow: /a\n",
        ),
        (
            "end-crlf.txt",
            b"User-agent: *\r\nDisallow: /a\r\n",
            "2 > Disallow: /a\n",
        ),
        (
            "end-none.txt",
            b"User-agent: *\nDisallow: /a",
            "2 > Disallow: /a\n",
        ),
        (
            "end-blank.txt",
            b"User-agent: *\nDisallow: /a\n\n",
            "2 > Disallow: /a\n3 |\n",
        ),
    ] {
        let text = explain_text(&scratch(name, body), "a", &[], "/a");
        assert!(
            text.ends_with(&format!("1 | User-agent: *\n{tail}")),
            "{name}: {text}"
        );
    }
}

/// In the Google profile, `Allow: /d/index.html` also allows `/d/` exactly, with the
/// length of `/d/$`; explain listed that match as the rule written, `length 4`, with
/// nothing to say why a rule naming index.html matched `/d/`. It now says.
#[test]
fn explain_says_why_googles_index_html_rule_matched_its_directory() {
    let file = scratch(
        "index.txt",
        b"User-agent: *\nDisallow: /\nAllow: /d/index.html\n",
    );
    let run = |profile: &str, url: &str| {
        explain_text(
            &file,
            "Googlebot",
            &["--profile", profile, "--color", "never"],
            url,
        )
    };
    let note = "(Google reads `Allow: /d/index.html` as also allowing `/d/` exactly, as `/d/$`)";
    let dir = run("google", "/d/");
    assert!(
        dir.contains(&format!(
            "line 3    Allow: /d/index.html  length 4  <- decides\n         {note}\n"
        )),
        "{dir}"
    );
    assert!(!run("google", "/d/index.html").contains(note));
    assert!(!run("rfc9309", "/d/").contains("Google reads"));
}

/// Explain's labels and values are two columns: with `embargo-allow` among the labels
/// every value starts after it, and the matched rules line up their line numbers, rules
/// (a CJK pattern by the columns a terminal gives it) and lengths.
#[test]
fn explain_text_lines_up_its_columns() {
    let mut body = "User-agent: arch\nArchive-Embargo: m\nEmbargo-Allow: /日本/\n".to_owned();
    body += &"#\n".repeat(99_997);
    body += "Disallow: /\n";
    let file = scratch("columns.txt", body.as_bytes());
    let text = explain_text(&file, "arch", &["--color", "never"], "/日本/a");
    let rows = text.lines().take(8).collect::<Vec<_>>().join("\n");
    assert_eq!(
        rows,
        "\
url            /日本/a
path           /%E6%97%A5%E6%9C%AC/a
agent          arch
groups         exact match: the group naming `arch` (line 1)
matched        line 3      Embargo-Allow: /日本/  length 20  (ignored)
               line 100001 Disallow: /            length 1  <- decides
embargo-allow  ignored: the agent does not honour Archive-Embargo (use --embargo)
verdict        DISALLOWED by line 100001: the longest matching rule decides (RFC 9309 §2.2.2)"
    );
}

#[test]
fn explain_lint_and_diff_text_escape_control_characters() {
    let file = scratch(
        "controls.txt",
        b"User-agent: *\nDisalow: /a\x1b[2J\x07\nDisallow: /b\x1b[31m\n",
    );
    let path = file.to_str().unwrap();
    let old = scratch("controls-old.txt", b"User-agent: *\n");
    let runs: [(&[&str], &str); 3] = [
        (
            &["explain", "--robots", path, "--agent", "a", "/b\x1b[31m"],
            "3 > Disallow: /b\\u{1b}[31m\n",
        ),
        (
            &["lint", "--robots", path],
            "2 > Disalow: /a\\u{1b}[2J\\u{7}\n",
        ),
        (
            &[
                "diff",
                "--agent",
                "a",
                old.to_str().unwrap(),
                path,
                "/b\x1b[31m",
            ],
            "/b\\u{1b}[31m  ALLOWED -> DISALLOWED (line 3: Disallow: /b\\u{1b}[31m)",
        ),
    ];
    for (args, shown) in runs {
        let out = robots(&[args, &["--color", "never"]].concat());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains(['\x1b', '\x07']), "{args:?}: {text}");
        assert!(text.contains(shown), "{args:?}: {text}");
    }
}

/// Each command writing into a reader that has gone away (`robots … | head` once `head`
/// has what it wants) says so and exits 2, as `robots archive status` does, rather than
/// panicking (exit 101).
#[cfg(unix)]
#[test]
fn a_reader_gone_early_ends_the_command_quietly_not_in_a_panic() {
    let old = scratch("pipe-old.txt", b"User-agent: *\n");
    let new = scratch("pipe-new.txt", b"User-agent: *\nDisalow: /a\n");
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let runs: [&[&str]; 5] = [
        &["check", "--robots", new, "--agent", "a", "/a"],
        &["explain", "--robots", new, "--agent", "a", "/a"],
        &[
            "explain", "--robots", new, "--agent", "a", "--format", "json", "/a",
        ],
        &["lint", "--robots", new],
        &["diff", "--agent", "a", old, new, "/a"],
    ];
    for args in runs {
        let out = common::run_into_closed_pipe(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

/// A file past the parse limit gives verdicts as if its tail were not there, as crawlers
/// read it; check, explain and diff say so on standard error rather than let a rule in
/// the tail look as if it had no effect, and say nothing for a file within the limit.
#[test]
fn check_explain_and_diff_say_when_the_file_is_cut_at_the_parse_limit() {
    let mut big = b"User-agent: *\n".to_vec();
    while big.len() < robots::MIN_PARSE_LIMIT + 100 {
        big.extend_from_slice(b"# padding padding padding padding padding\n");
    }
    big.extend_from_slice(b"Disallow: /late\n");
    // The line the limit falls in, dropped whole, and all after it are ignored.
    let cut_at = 1 + big[..robots::MIN_PARSE_LIMIT]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    let big = scratch("past-limit.txt", &big);
    let small = scratch("within-limit.txt", b"User-agent: *\nDisallow: /late\n");
    let (big, small) = (big.to_str().unwrap(), small.to_str().unwrap());
    for (command, out) in each_reader(big, small, "/late") {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("past-limit.txt is")
                && stderr.contains("past the parse limit of 512000")
                && stderr.contains(&format!("from line {cut_at} on, are ignored"))
                && stderr.contains("--max-bytes"),
            "{command}: {stderr}"
        );
        assert!(!stderr.contains("within-limit.txt"), "{command}: {stderr}");
        // The verdict is still the one crawlers reach.
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("ALLOWED"),
            "{command}"
        );
    }
    let quiet = robots(&["check", "--robots", small, "--agent", "a", "/late"]);
    assert!(quiet.stderr.is_empty());
    let raised = robots(&[
        "check",
        "--robots",
        big,
        "--agent",
        "a",
        "--max-bytes",
        "600000",
        "/late",
    ]);
    assert!(raised.stderr.is_empty());
    assert!(String::from_utf8_lossy(&raised.stdout).starts_with("DISALLOWED"));
}

/// lint, diff and explain write JSON as check does: one object per line, fields in the
/// order their help gives (it was alphabetical, `new` before `old`, and explain's object
/// spread over many lines).
#[test]
fn lint_diff_and_explain_json_is_one_line_per_object_in_the_documented_order() {
    let old = scratch("order-old.txt", b"User-agent: *\nDisallow: /a\n");
    let new = scratch("order-new.txt", b"User-agent: *\nDisalow: /b\n");
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let stdout = |args: &[&str]| {
        let out = robots(args);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.ends_with('\n') && !text.is_empty(), "{args:?}: {text}");
        for line in text.lines() {
            serde_json::from_str::<Value>(line).expect("one JSON object per line");
        }
        text
    };
    let lint = stdout(&["lint", "--robots", new, "--format", "json"]);
    assert!(
        lint.starts_with(&format!(
            r#"{{"file":"{new}","line":2,"column":1,"code":"misspelt-directive","severity":"warning","message":"#
        )),
        "{lint}"
    );
    assert!(lint
        .lines()
        .next()
        .unwrap()
        .contains(r#","suggestion":"spell it `disallow`"}"#));
    let diff = stdout(&["diff", "--agent", "x", "--format", "json", old, new, "/a"]);
    assert_eq!(
        diff,
        concat!(
            r#"{"agent":"x","url":"/a","#,
            r#""old":{"url":"/a","allowed":false,"line":2,"rule":"disallow","pattern":"/a","embargo_days":null,"reason":"longest","#,
            r#""content_usage":null,"content_usage_line":null,"content_signal":null,"content_signal_line":null},"#,
            r#""new":{"url":"/a","allowed":true,"line":null,"rule":null,"pattern":null,"embargo_days":null,"reason":"no-match","#,
            r#""content_usage":null,"content_usage_line":null,"content_signal":null,"content_signal_line":null}}"#,
            "\n"
        )
    );
    let explain = stdout(&[
        "explain", "--robots", old, "--agent", "x", "--format", "json", "/a",
    ]);
    assert_eq!(explain.lines().count(), 1, "{explain}");
    let keys = [
        "url",
        "path",
        "agent",
        "profile",
        "honours_embargo",
        "selection",
        "kind",
        "groups",
        "lines",
        "explanation",
        "matches",
        "line",
        "rule",
        "pattern",
        "length",
        "counted",
        "embargo_allow",
        "allowed",
        "decided_by",
        "reason",
        "reason_text",
        "embargo_days",
        "content_usage",
        "content_usage_line",
        "content_signal",
        "content_signal_line",
    ];
    let mut at = 0;
    for key in keys {
        let found = explain[at..].find(&format!(r#""{key}":"#));
        at += found.unwrap_or_else(|| panic!("`{key}` after byte {at}: {explain}"));
    }
}

/// A file crawlers cannot read as meant, an HTML page or one in UTF-16, has no groups,
/// so every verdict is "allowed: no group for this agent"; check, explain and diff say
/// that linting it finds errors (they said nothing), as `robots fetch` counts them. Files
/// with warnings only (a shadowed rule) get no word.
#[test]
fn check_explain_and_diff_say_when_the_file_has_errors() {
    let html = scratch(
        "page.html",
        b"<!DOCTYPE html>\n<html><body>Not found</body></html>\n",
    );
    let utf16: Vec<u8> = "User-agent: *\nDisallow: /\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let utf16 = scratch("utf16.txt", &[&[0xFF, 0xFE][..], &utf16].concat());
    let fine = scratch("fine.txt", b"User-agent: *\nDisallow: /a\nDisallow: /a\n");
    let (html, utf16, fine) = (
        html.to_str().unwrap(),
        utf16.to_str().unwrap(),
        fine.to_str().unwrap(),
    );
    for (file, errors) in [(html, "1 error"), (utf16, "1 error")] {
        for (command, out) in each_reader(file, fine, "/x") {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains(&format!("robots: warning: {file} has {errors}: lines crawlers ignore or misread; `robots lint --robots {file}` shows")),
                "{command}: {stderr}"
            );
            assert!(!stderr.contains("fine.txt"), "{command}: {stderr}");
        }
    }
    let quiet = robots(&["check", "--robots", fine, "--agent", "a", "/x"]);
    assert!(
        quiet.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&quiet.stderr)
    );
    // The lint command named is the one that finds them: in the profile asked for.
    let google = robots(&[
        "check",
        "--robots",
        html,
        "--agent",
        "a",
        "--profile",
        "google",
        "/x",
    ]);
    let stderr = String::from_utf8_lossy(&google.stderr);
    assert!(
        stderr.contains(&format!(
            "`robots lint --robots {html} --profile google` shows it"
        )),
        "{stderr}"
    );
}

/// `robots lint` of `file` with `extra` options.
fn lint(file: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["lint", "--robots", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    robots(&args)
}

#[test]
fn lint_exit_status_follows_severity() {
    let clean = scratch(
        "clean.txt",
        b"User-agent: *\nDisallow: /private/\nSitemap: https://example.com/s.xml\n",
    );
    let warning = scratch("warning.txt", b"User-agent: *\nDisallow /private/\n");
    let error = scratch("error.txt", b"Disallow: /private/\nUser-agent: *\n");
    assert_eq!(lint(&clean, &["--deny-warnings"]).status.code(), Some(0));
    assert_eq!(lint(&warning, &[]).status.code(), Some(0));
    assert_eq!(lint(&warning, &["--deny-warnings"]).status.code(), Some(1));
    assert_eq!(lint(&error, &[]).status.code(), Some(1));
    let out = lint(&warning, &["--format", "json"]);
    let d: Value =
        serde_json::from_slice(out.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(d["code"], "missing-colon");
    assert_eq!(
        (
            d["line"].as_u64(),
            d["column"].as_u64(),
            d["severity"].as_str()
        ),
        (Some(2), Some(1), Some("warning"))
    );
    assert!(d["suggestion"].is_string());
    let text = String::from_utf8(lint(&warning, &["--color", "never"]).stdout).unwrap();
    assert!(
        text.starts_with("warning[missing-colon]: no colon after `Disallow`"),
        "{text}"
    );
    assert!(text.contains("warning.txt:2:1"), "{text}");
    assert!(text.contains("= help:"), "{text}");
}

/// A site that writes something on purpose allows its code: the finding is neither shown
/// nor counted toward --deny-warnings, but the summary says it was there.
#[test]
fn lint_allow_accepts_a_warning_and_says_how_many_it_hid() {
    let file = scratch("warning.txt", b"User-agent: *\nDisallow /private/\n");
    assert_eq!(lint(&file, &["--deny-warnings"]).status.code(), Some(1));
    // Named as lint prints it, or in capitals.
    for code in ["missing-colon", "MISSING-COLON"] {
        let out = lint(&file, &["--deny-warnings", "--allow", code]);
        assert_eq!(out.status.code(), Some(0), "--allow {code}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            text,
            format!(
                "{}: 0 errors, 0 warnings, 0 info (1 allowed by --allow)\n",
                file.display()
            )
        );
    }
}

/// Allowing one code leaves every other finding shown and counted; several codes are
/// allowed by repeating --allow or by commas.
#[test]
fn lint_allow_leaves_other_codes_shown_and_counted() {
    let file = scratch(
        "two-warnings.txt",
        b"User-agent: *\nDisallow /private/\nNoindex: /drafts/\n",
    );
    let out = lint(
        &file,
        &[
            "--deny-warnings",
            "--allow",
            "missing-colon",
            "--color",
            "never",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("warning[indexing-rule]:"), "{text}");
    assert!(!text.contains("missing-colon"), "{text}");
    assert!(
        text.ends_with(": 0 errors, 1 warning, 0 info (1 allowed by --allow)\n"),
        "{text}"
    );
    for allow in [
        &["--allow", "missing-colon,indexing-rule"][..],
        &["--allow", "missing-colon", "--allow", "indexing-rule"],
    ] {
        let mut args = vec!["--deny-warnings"];
        args.extend_from_slice(allow);
        let out = lint(&file, &args);
        assert_eq!(out.status.code(), Some(0), "{allow:?}");
        assert!(
            String::from_utf8(out.stdout)
                .unwrap()
                .ends_with(": 0 errors, 0 warnings, 0 info (2 allowed by --allow)\n"),
            "{allow:?}"
        );
    }
}

/// Errors can be allowed too, as clippy allows any lint: the site owner decides.
#[test]
fn lint_allow_accepts_an_error() {
    let file = scratch("error.txt", b"Disallow: /private/\nUser-agent: *\n");
    assert_eq!(lint(&file, &[]).status.code(), Some(1));
    let out = lint(&file, &["--allow", "rule-before-user-agent"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .ends_with(": 0 errors, 0 warnings, 0 info (1 allowed by --allow)\n"));
}

/// JSON output leaves allowed findings out and keeps the others.
#[test]
fn lint_allow_leaves_allowed_findings_out_of_json() {
    let file = scratch(
        "two-warnings.txt",
        b"User-agent: *\nDisallow /private/\nNoindex: /drafts/\n",
    );
    let out = lint(&file, &["--format", "json", "--allow", "indexing-rule"]);
    assert_eq!(out.status.code(), Some(0));
    let found = common::json_lines(&out);
    let codes: Vec<&str> = found.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["missing-colon"]);
}

/// An unknown code is a usage error that lists the codes and, for a typo, names the one
/// meant; --help lists every code with its severity and meaning, from the engine.
#[test]
fn lint_allow_refuses_an_unknown_code_and_help_lists_the_codes() {
    let file = scratch("clean.txt", b"User-agent: *\nDisallow: /private/\n");
    let out = lint(&file, &["--allow", "mising-colon"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("invalid value 'mising-colon' for '--allow <CODE>'"),
        "{stderr}"
    );
    assert!(
        stderr.contains("a similar value exists: 'missing-colon'"),
        "{stderr}"
    );
    assert!(
        robots::Code::ALL
            .iter()
            .all(|code| stderr.contains(code.as_str())),
        "{stderr}"
    );
    // Nothing close: no guess, still the list.
    let out = lint(&file, &["--allow", "colon"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("similar value"), "{stderr}");
    assert!(stderr.contains("looks-like-html"), "{stderr}");

    let help = String::from_utf8(robots(&["lint", "--help"]).stdout).unwrap();
    for code in robots::Code::ALL {
        let line = format!("{}: {}", code.severity(), code.description());
        assert!(
            help.lines().any(
                |l| l.trim_start().starts_with(&format!("- {}:", code.as_str()))
                    && l.ends_with(&line)
            ),
            "{code}: {help}"
        );
    }
}

/// `User-agent:` with no value (or one whose product token is empty, `/1.0`) names no
/// crawler, so the rules under it reach nobody: lint warns (it said nothing, 0 errors,
/// 0 warnings), and --deny-warnings fails on it.
#[test]
fn lint_warns_of_a_user_agent_line_that_names_no_crawler() {
    let file = scratch("empty-agent.txt", b"User-agent:\nDisallow: /\n");
    let path = file.to_str().unwrap();
    let out = robots(&["lint", "--robots", path, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let found = common::json_lines(&out);
    assert_eq!(
        (
            &found[0]["line"],
            &found[0]["column"],
            &found[0]["code"],
            &found[0]["severity"]
        ),
        (
            &serde_json::json!(1),
            &serde_json::json!(12),
            &serde_json::json!("agent-names-none"),
            &serde_json::json!("warning")
        )
    );
    let denied = robots(&["lint", "--robots", path, "--deny-warnings"]);
    assert_eq!(denied.status.code(), Some(1));
    let text = String::from_utf8_lossy(&denied.stdout);
    assert!(
        text.contains("warning[agent-names-none]: an empty user-agent line names no crawler"),
        "{text}"
    );
    let fixed = scratch("star-agent.txt", b"User-agent: *\nDisallow: /\n");
    let out = robots(&[
        "lint",
        "--robots",
        fixed.to_str().unwrap(),
        "--deny-warnings",
    ]);
    assert_eq!(out.status.code(), Some(0));
}

/// A terminal draws CJK characters and most emoji two columns wide: lint's underline
/// counts display width, so it sits under the span, not left of it.
#[test]
fn lint_underlines_sit_under_their_span_after_wide_characters() {
    let file = scratch(
        "wide.txt",
        "User-agent: 😀bot*\nDisallow: /日本語$x\nCrawl-delay: 日本 x\n".as_bytes(),
    );
    let out = robots(&[
        "lint",
        "--robots",
        file.to_str().unwrap(),
        "--color",
        "never",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    for (line, underline) in [
        ("1 > User-agent: 😀bot*", "  |             ^^^^^^"),
        ("2 > Disallow: /日本語$x", "  |           ^^^^^^^^^"),
        ("3 > Crawl-delay: 日本 x", "  |              ^^^^^^"),
    ] {
        assert!(text.contains(&format!("{line}\n{underline}\n")), "{text}");
    }
}

/// A Latin-1 rule (`Disallow: /caf\xE9`) was shown as `/caf\u{fffd}` by check, explain,
/// diff and lint; each now shows the octet as `\xE9`, as URLs are shown, in text and
/// JSON, and diff compares the paths the rule names, octet and all.
#[test]
fn patterns_that_are_not_utf8_are_shown_with_their_octets() {
    let latin = scratch("latin1.txt", b"User-agent: *\nDisallow: /caf\xe9\n");
    let file = latin.to_str().unwrap();
    // The URL on standard input, as its octets.
    let check = |format: &str| {
        let args = [
            "check", "--robots", file, "--agent", "a", "--format", format,
        ];
        String::from_utf8(common::run(&args, b"/caf\xe9\n").stdout).unwrap()
    };
    assert_eq!(
        check("text"),
        "DISALLOWED  /caf\\xE9  (line 2: Disallow: /caf\\xE9)\n"
    );
    let json: Value = serde_json::from_str(&check("json")).unwrap();
    assert_eq!(json["pattern"], "/caf\\xE9");

    let text = explain_text(&latin, "a", &["--color", "never"], "/caf%E9");
    assert!(
        text.contains("matched  line 2    Disallow: /caf\\xE9  length 7  <- decides\n"),
        "{text}"
    );
    assert!(text.contains("2 > Disallow: /caf\\xE9\n"), "{text}");
    let json = explain(&latin, "a", &[], "/caf%E9");
    assert_eq!(
        (
            &json["matches"][0]["pattern"],
            &json["decided_by"]["pattern"]
        ),
        (&Value::from("/caf\\xE9"), &Value::from("/caf\\xE9"))
    );

    let out = robots(&["lint", "--robots", file, "--color", "never"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("2 > Disallow: /caf\\xE9\n  |               ^^^^\n"),
        "{text}"
    );

    let empty = scratch("latin1-empty.txt", b"User-agent: *\n");
    let out = robots(&["diff", "--agent", "a", empty.to_str().unwrap(), file]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "CHANGED  a  /caf\\xE9  ALLOWED -> DISALLOWED (line 2: Disallow: /caf\\xE9)\n"
        ),
        "{text}"
    );
}

#[test]
fn lint_takes_no_crawler_options() {
    // Lint reads the file, not a crawler's verdicts: embargo honour would change nothing,
    // so it is not offered.
    let help = String::from_utf8(robots(&["lint", "--help"]).stdout).unwrap();
    assert!(
        help.contains("--profile") && help.contains("--max-bytes"),
        "{help}"
    );
    assert!(!help.contains("--embargo"), "{help}");
    let file = scratch("lint-embargo.txt", b"User-agent: *\nDisallow: /\n");
    let out = robots(&["lint", "--robots", file.to_str().unwrap(), "--embargo"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unexpected argument '--embargo'"));
}

fn diff(old: &Path, new: &Path, agents: &[&str], urls: &[&str]) -> (Option<i32>, Vec<Value>) {
    let mut args = vec!["diff", "--format", "json"];
    for a in agents {
        args.extend(["--agent", a]);
    }
    args.extend([old.to_str().unwrap(), new.to_str().unwrap()]);
    args.extend_from_slice(urls);
    let out = robots(&args);
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out.status.code(), lines)
}

#[test]
fn diff_reports_changed_verdicts_with_lines() {
    let old = scratch("old.txt", b"User-agent: *\nDisallow: /private/\n");
    let new = scratch(
        "new.txt",
        b"User-agent: *\nDisallow: /private/\nDisallow: /drafts\n\nUser-agent: a\nDisallow:\n",
    );
    let (code, changes) = diff(&old, &new, &["a", "b"], &[]);
    assert_eq!(code, Some(1));
    let summary: Vec<(&str, &str, bool)> = changes
        .iter()
        .map(|c| {
            (
                c["agent"].as_str().unwrap(),
                c["url"].as_str().unwrap(),
                c["new"]["allowed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert!(summary.contains(&("a", "/private/", true)), "{summary:?}");
    assert!(summary.contains(&("b", "/drafts", false)), "{summary:?}");
    assert!(!summary
        .iter()
        .any(|(agent, url, _)| *agent == "b" && url.starts_with("/private")));
    let change = changes
        .iter()
        .find(|c| c["agent"] == "b" && c["url"] == "/drafts")
        .unwrap();
    assert_eq!(
        (change["old"]["line"].clone(), change["new"]["line"].clone()),
        (Value::Null, Value::from(3))
    );
    let (code, changes) = diff(&old, &old, &["a"], &[]);
    assert_eq!((code, changes.len()), (Some(0), 0));
}

/// One crawler given twice, by another case or as its User-Agent header, is compared
/// once: each change was listed, and counted, once per spelling.
#[test]
fn diff_compares_a_crawler_given_twice_once() {
    let old = scratch("twice-old.txt", b"User-agent: *\nDisallow: /a\n");
    let new = scratch("twice-new.txt", b"User-agent: *\nDisallow: /b\n");
    let (code, lines) = diff(
        &old,
        &new,
        &["x", "X", "Mozilla/5.0 (compatible; x/1.0)"],
        &["/a"],
    );
    assert_eq!(code, Some(1));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["agent"], "x");
    let out = robots(&[
        "diff",
        "--agent",
        "x",
        "--agent",
        "X",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "/a",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.ends_with("1 of 1 verdict changed (1 URL x 1 agent)\n"),
        "{text}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "robots: note: --agent `X` is the crawler `x` already given; it is compared once"
        ),
        "{out:?}"
    );
}

#[test]
fn diff_reads_at_most_one_file_from_standard_input() {
    let out = common::run(
        &["diff", "--agent", "a", "-", "-", "/a"],
        "User-agent: *\nDisallow: /a\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(
        err.contains("OLD and NEW are both `-`")
            && err.contains("give at least one of them as a file"),
        "{err}"
    );
    // One file from standard input: the URLs come from the rules, not from what is left
    // of standard input.
    let new = scratch(
        "stdin-new.txt",
        b"User-agent: *\nDisallow: /a\nDisallow: /b\n",
    );
    let out = common::run(
        &[
            "diff",
            "--agent",
            "a",
            "--format",
            "json",
            "-",
            new.to_str().unwrap(),
        ],
        "User-agent: *\nDisallow: /a\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(r#""url":"/b""#), "{text}");
}

/// With no URLs given, each path taken from the rules is compared once, however many
/// rules there are. Repeats were found by scanning every path taken so far, so a real
/// file of 15,000 rules (docs.oracle.com's) took 20 seconds and this one minutes. The
/// many rules are another crawler's, so that checking `a` costs little and the watchdog
/// fails the test only when taking the paths is slow.
#[test]
fn diff_takes_each_rule_path_once_from_a_file_of_many_rules() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::Duration;

    const RULES: usize = 25_000;
    let mut many = b"User-agent: *\nDisallow: /p7/\n\nUser-agent: other\n".to_vec();
    for i in 0..RULES {
        many.extend_from_slice(format!("Disallow: /p{i}/\n").as_bytes());
    }
    assert!(many.len() < robots::MIN_PARSE_LIMIT);
    let old = scratch("many-rules-old.txt", b"");
    let new = scratch("many-rules-new.txt", &many);
    let mut child = Command::new(env!("CARGO_BIN_EXE_robots"))
        .args(["diff", "--agent", "a"])
        .args([&*old, &*new])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        tx.send(text).unwrap();
    });
    let text = rx.recv_timeout(Duration::from_secs(60));
    if text.is_err() {
        child.kill().unwrap();
    }
    let text = text.expect("diff finishes within a minute");
    reader.join().unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(1));
    // `/` and, for each rule `/p{i}/`, `/p{i}/`, `/p{i}/x`, `/p{i}` and `/p{i}/?q=1`
    // (`/p{i}/x` again is a repeat); the `*` group's rule repeats one of `other`'s.
    let urls = 1 + 4 * RULES;
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "CHANGED  a  /p7/  ALLOWED -> DISALLOWED (line 2: Disallow: /p7/)".to_owned(),
            "CHANGED  a  /p7/x  ALLOWED -> DISALLOWED (line 2: Disallow: /p7/)".to_owned(),
            "CHANGED  a  /p7/?q=1  ALLOWED -> DISALLOWED (line 2: Disallow: /p7/)".to_owned(),
            format!("3 of {urls} verdicts changed ({urls} URLs x 1 agent)"),
        ]
    );
}

#[test]
fn diff_on_real_versions_of_the_same_sites() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let Ok(manifest) = std::fs::read_to_string(shared.join("manifest.tsv")) else {
        eprintln!("notice: {} is absent; skipping this test", shared.display());
        return;
    };
    let mut by_site: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        by_site.entry(cols[4]).or_default().push(cols[0]);
    }
    let pairs: Vec<(&str, &str)> = by_site
        .values()
        .filter(|f| f.len() >= 2)
        .map(|f| (f[0], f[1]))
        .take(25)
        .collect();
    assert!(
        pairs.len() >= 10,
        "the corpus should hold several versions of some sites"
    );
    let (mut changed_pairs, mut changes_checked) = (0, 0);
    for (a, b) in pairs {
        let (old, new) = (shared.join("robots").join(a), shared.join("robots").join(b));
        let (code, changes) = diff(&old, &new, &["Googlebot", "SomeUnknownBot"], &[]);
        assert_eq!(
            code,
            Some(if changes.is_empty() { 0 } else { 1 }),
            "{a} {b}"
        );
        changed_pairs += usize::from(!changes.is_empty());
        // Each reported change is what `check` says of each version.
        let (old_r, new_r) = (
            robots::Robots::parse(&std::fs::read(&old).unwrap()),
            robots::Robots::parse(&std::fs::read(&new).unwrap()),
        );
        for c in &changes {
            let agent = robots::Agent::new(c["agent"].as_str().unwrap()).unwrap();
            let url = c["url"].as_str().unwrap();
            assert_eq!(
                old_r.check(&agent, url).allowed(),
                c["old"]["allowed"].as_bool().unwrap()
            );
            assert_eq!(
                new_r.check(&agent, url).allowed(),
                c["new"]["allowed"].as_bool().unwrap()
            );
            assert_ne!(c["old"]["allowed"], c["new"]["allowed"]);
            changes_checked += 1;
        }
    }
    assert!(changed_pairs > 0, "some real pairs should differ");
    println!("diff: {changed_pairs} of the real pairs changed; {changes_checked} changes confirmed by check");
}

#[test]
fn help_of_each_command_has_an_example() {
    for cmd in ["explain", "lint", "diff"] {
        let out = robots(&[cmd, "--help"]);
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Examples:"),
            "{cmd}"
        );
    }
}

/// Each command's help says what its exit statuses mean (explain's did not).
#[test]
fn help_of_each_command_gives_its_exit_statuses() {
    for cmd in ["check", "explain", "lint", "diff", "fetch"] {
        let help = String::from_utf8(robots(&[cmd, "--help"]).stdout).unwrap();
        assert!(help.contains("\nExit status: "), "{cmd}");
    }
}

/// In a file saved in Latin-1, lint's messages quote each octet that is not UTF-8 as
/// `\xE9`, as the line shown under them does, so what a message quotes can be found in
/// its line; U+FFFD would hide which octet it was.
#[test]
fn lint_messages_quote_octets_as_the_line_shows_them() {
    let latin1 = scratch(
        "latin1.txt",
        b"User-agent: *\nDisallow: caf\xe9\nUser-agent: Bot\xe9/1.0\nDisallow: /x\nCrawl-delay: 1\xe9\n",
    );
    let out = robots(&[
        "lint",
        "--robots",
        latin1.to_str().unwrap(),
        "--color",
        "never",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\u{FFFD}'), "{text}");
    for expected in [
        ("pattern-start", "`caf\\xE9`", "2 > Disallow: caf\\xE9"),
        (
            "agent-with-version",
            "`Bot\\xE9/1.0`",
            "3 > User-agent: Bot\\xE9/1.0",
        ),
        ("invalid-crawl-delay", "`1\\xE9`", "5 > Crawl-delay: 1\\xE9"),
    ] {
        let (code, quote, line) = expected;
        let at = text
            .find(&format!("[{code}]: "))
            .unwrap_or_else(|| panic!("{code}: {text}"));
        let block = &text[at..text[at..].find("\n\n").map_or(text.len(), |end| at + end)];
        let message = block.lines().next().unwrap();
        assert!(message.contains(quote), "{message}");
        assert!(block.contains(line), "{block}");
        // What the message quotes is in the line shown.
        assert!(line.contains(quote.trim_matches('`')), "{line}");
    }
}

/// A group naming a crawler takes it out of the `*` rules (RFC 9309 §2.2.1), the most
/// common surprise for a site owner: `explain` says so, naming the group set aside, and
/// says nothing of the kind when the `*` group is the one that applies.
#[test]
fn explain_says_when_a_named_group_sets_the_star_group_aside() {
    let file = scratch(
        "robots.txt",
        b"User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nCrawl-delay: 5\n",
    );
    let path = file.to_str().unwrap();
    let out = robots(&[
        "explain",
        "--robots",
        path,
        "--agent",
        "Googlebot",
        "/private/x",
    ]);
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(
        said.contains(
            "the `*` group (line 1) does not apply: a group naming the agent replaces it"
        ),
        "{said}"
    );
    assert!(said.contains("ALLOWED"), "{said}");
    let out = robots(&[
        "explain",
        "--robots",
        path,
        "--agent",
        "Googlebot",
        "--format",
        "json",
        "/private/x",
    ]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["selection"]["global_set_aside"],
        serde_json::json!([1])
    );

    let out = robots(&[
        "explain",
        "--robots",
        path,
        "--agent",
        "OtherBot",
        "/private/x",
    ]);
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(!said.contains("does not apply"), "{said}");
    let out = robots(&[
        "explain",
        "--robots",
        path,
        "--agent",
        "OtherBot",
        "--format",
        "json",
        "/private/x",
    ]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["selection"]["global_set_aside"], serde_json::json!([]));
}
