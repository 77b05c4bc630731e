//! The JSON the page reads, checked natively: verdicts as `robots check` gives them,
//! explanations, lint findings by line, and the errors the page shows.

use robots_web::{Tester, WebError};
use serde_json::{json, Value};

const FILE: &str = "\
User-agent: *
Disallow: /private/
Allow: /private/open

User-agent: ExampleArchiver
Archive-Embargo: m
Embargo-Allow: /news/
Disallow: /

Disalow: /typo
";

fn check(tester: &Tester, agent: &str, embargo: bool, urls: &[&str]) -> Value {
    let urls: Vec<String> = urls.iter().map(|u| u.to_string()).collect();
    serde_json::from_str(&tester.check(agent, embargo, &urls).unwrap()).unwrap()
}

#[test]
fn verdicts_carry_the_command_lines_fields_in_order() {
    let tester = Tester::parse(FILE.as_bytes(), "rfc9309").unwrap();
    let answer = check(
        &tester,
        "SomeBot",
        false,
        &["/private/x", "/private/open/1", "/a"],
    );
    assert_eq!(answer["agent"]["token"], "SomeBot");
    assert_eq!(
        answer["verdicts"],
        json!([
            {"url": "/private/x", "allowed": false, "line": 2, "rule": "disallow",
             "pattern": "/private/", "embargo_days": null, "reason": "longest",
             "content_usage": null, "content_usage_line": null,
             "content_signal": null, "content_signal_line": null},
            {"url": "/private/open/1", "allowed": true, "line": 3, "rule": "allow",
             "pattern": "/private/open", "embargo_days": null, "reason": "longest",
             "content_usage": null, "content_usage_line": null,
             "content_signal": null, "content_signal_line": null},
            {"url": "/a", "allowed": true, "line": null, "rule": null,
             "pattern": null, "embargo_days": null, "reason": "no-match",
             "content_usage": null, "content_usage_line": null,
             "content_signal": null, "content_signal_line": null},
        ])
    );
    let text = tester.check("SomeBot", false, &["/a".to_owned()]).unwrap();
    assert!(text.contains(
        r#"{"url":"/a","allowed":true,"line":null,"rule":null,"pattern":null,"embargo_days":null"#
    ));
}

#[test]
fn the_embargo_switch_turns_embargo_allow_on() {
    let tester = Tester::parse(FILE.as_bytes(), "rfc9309").unwrap();
    let off = check(&tester, "ExampleArchiver", false, &["/news/today"]);
    assert_eq!(off["verdicts"][0]["allowed"], false);
    assert_eq!(off["verdicts"][0]["line"], 8);
    let on = check(&tester, "ExampleArchiver", true, &["/news/today"]);
    assert_eq!(on["verdicts"][0]["allowed"], true);
    assert_eq!(on["verdicts"][0]["line"], 7);
    assert_eq!(on["verdicts"][0]["rule"], "embargo-allow");
    assert_eq!(on["verdicts"][0]["embargo_days"], 31);
    assert_eq!(on["agent"]["honours_embargo"], true);
}

#[test]
fn the_google_profile_reads_embargo_lines_as_unknown_and_refuses_the_switch() {
    let tester = Tester::parse(FILE.as_bytes(), "google").unwrap();
    let answer = check(&tester, "ExampleArchiver", false, &["/news/today"]);
    assert_eq!(answer["verdicts"][0]["line"], 8);
    let err = tester
        .check("ExampleArchiver", true, &["/news/today".to_owned()])
        .unwrap_err();
    assert_eq!(err, WebError::EmbargoNeedsRfc9309);
    assert!(err.to_string().contains("rfc9309"));
    let err = tester
        .explain("ExampleArchiver", true, "/news/today")
        .unwrap_err();
    assert_eq!(err, WebError::EmbargoNeedsRfc9309);
}

#[test]
fn unknown_profiles_and_bad_agents_are_errors_with_advice() {
    let err = Tester::parse(b"", "bing").unwrap_err();
    assert!(
        err.to_string().contains("use `rfc9309` or `google`"),
        "{err}"
    );
    let tester = Tester::parse(FILE.as_bytes(), "rfc9309").unwrap();
    let err = tester.check("Bad(Bot)", false, &[]).unwrap_err();
    assert!(matches!(
        err,
        WebError::Engine(robots::Error::InvalidAgent { .. })
    ));
}

#[test]
fn explain_names_the_groups_the_matches_and_the_decider() {
    let tester = Tester::parse(FILE.as_bytes(), "rfc9309").unwrap();
    let e: Value =
        serde_json::from_str(&tester.explain("SomeBot", false, "/private/open/1").unwrap())
            .unwrap();
    assert_eq!(e["verdict"]["line"], 3);
    assert_eq!(e["selection"], "global");
    assert_eq!(e["group_lines"], json!([1]));
    let matches = e["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 2);
    assert_eq!(matches[0]["line"], 2);
    assert_eq!(matches[0]["decides"], false);
    assert_eq!(matches[1]["line"], 3);
    assert_eq!(matches[1]["decides"], true);
    assert_eq!(matches[1]["length"], 13);
    assert!(e["selection_text"].as_str().unwrap().contains("`*` group"));

    let e: Value =
        serde_json::from_str(&tester.explain("ExampleArchiver", false, "/news/a").unwrap())
            .unwrap();
    assert_eq!(e["embargo_allow"], "ignored-not-honoured");
    assert_eq!(e["matches"][0]["counted"], false);
}

#[test]
fn googles_empty_disallow_is_said_to_disallow_nothing() {
    let tester = Tester::parse(b"User-agent: *\nDisallow:\n", "google").unwrap();
    let e: Value =
        serde_json::from_str(&tester.explain("ExampleBot", false, "/a").unwrap()).unwrap();
    assert_eq!(
        (
            &e["verdict"]["allowed"],
            &e["verdict"]["line"],
            &e["verdict"]["reason"]
        ),
        (&json!(true), &json!(2), &json!("empty-disallow"))
    );
    assert_eq!(
        e["reason_text"],
        "an empty Disallow matches with length 0 and disallows nothing, so the URL is allowed"
    );
}

#[test]
fn lint_reports_each_finding_on_its_line() {
    let tester = Tester::parse(FILE.as_bytes(), "rfc9309").unwrap();
    let found: Vec<Value> = serde_json::from_str(&tester.lint()).unwrap();
    let typo = found
        .iter()
        .find(|d| d["code"] == "misspelt-directive")
        .expect("the misspelt Disalow is reported");
    assert_eq!(typo["line"], 10);
    assert_eq!(typo["column"], 1);
    assert_eq!(typo["severity"], "warning");
    assert!(typo["length"].as_u64().unwrap() >= 1);
}

#[test]
fn the_summary_lists_groups_and_sitemaps() {
    let tester = Tester::parse(
        b"User-agent: A\nUser-agent: B\nDisallow: /\nSitemap: https://x.test/s.xml\n",
        "rfc9309",
    )
    .unwrap();
    let summary: Value = serde_json::from_str(&tester.summary()).unwrap();
    // Counted as an editor numbers them: the empty line after the last newline too.
    assert_eq!(summary["lines"], 5);
    assert_eq!(
        summary["groups"],
        json!([{"line": 1, "agents": ["A", "B"]}])
    );
    assert_eq!(summary["sitemaps"], json!(["https://x.test/s.xml"]));
}

#[test]
fn any_bytes_parse_and_invalid_utf8_keeps_its_lines() {
    let tester = Tester::parse(b"User-agent: *\nDisallow: /\xff\xfe\n", "rfc9309").unwrap();
    let answer = check(&tester, "Bot", false, &["/%FF%FE"]);
    assert_eq!(answer["verdicts"][0]["allowed"], false);
    assert_eq!(answer["verdicts"][0]["line"], 2);
}

#[test]
fn google_names_that_can_match_no_group_but_the_global_one_are_explained() {
    let tester = Tester::parse(b"User-agent: FooBot\nDisallow: /\n", "google").unwrap();
    let answer = check(&tester, "FooBot/1.0", false, &["/x"]);
    assert_eq!(answer["verdicts"][0]["allowed"], true);
    let notes = answer["agent"]["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{notes:?}");
    let note = notes[0].as_str().unwrap();
    assert!(note.contains("can match no group but `*`"), "{note}");
    assert!(note.contains("give `FooBot`"), "{note}");
    let answer = check(&tester, "", false, &["/x"]);
    assert!(answer["agent"]["notes"][0]
        .as_str()
        .unwrap()
        .contains("empty name"));
    // A name Google can match has nothing to explain.
    assert_eq!(
        check(&tester, "FooBot", false, &["/x"])["agent"]["notes"],
        json!([])
    );
}

#[test]
fn the_star_is_said_to_name_no_crawler_in_both_profiles() {
    for profile in ["rfc9309", "google"] {
        let tester = Tester::parse(FILE.as_bytes(), profile).unwrap();
        let answer = check(&tester, "*", false, &["/private/x"]);
        assert_eq!(answer["verdicts"][0]["line"], 2, "{profile}");
        let notes = answer["agent"]["notes"].as_array().unwrap();
        assert_eq!(notes.len(), 1, "{profile}: {notes:?}");
        assert!(
            notes[0]
                .as_str()
                .unwrap()
                .starts_with("`*` names no crawler"),
            "{profile}: {notes:?}"
        );
    }
}

#[test]
fn the_summary_gives_the_parse_limit_and_how_much_was_read() {
    let mut file = b"User-agent: *\n".to_vec();
    while file.len() < 600_000 {
        file.extend_from_slice(b"Disallow: /a-rather-long-path-to-keep-out/of-the-crawl\n");
    }
    let summary: Value =
        serde_json::from_str(&Tester::parse(&file, "rfc9309").unwrap().summary()).unwrap();
    assert_eq!(summary["parse_limit"], 512_000);
    assert_eq!(summary["bytes"], file.len());
    assert!(summary["parsed_bytes"].as_u64().unwrap() <= 512_000);
}

#[test]
fn lint_gives_where_each_span_starts_on_its_line_for_the_underline() {
    let tester = Tester::parse(
        "\u{feff}User-agent: *\r\nDisallow: é/x\rDisallow: /a$b\n".as_bytes(),
        "rfc9309",
    )
    .unwrap();
    let found: Vec<Value> = serde_json::from_str(&tester.lint()).unwrap();
    let by_code = |code: &str| found.iter().find(|d| d["code"] == code).unwrap().clone();
    let bom = by_code("byte-order-mark");
    assert_eq!(
        (&bom["span_column"], &bom["length"]),
        (&json!(1), &json!(3))
    );
    let start = by_code("pattern-start");
    assert_eq!(
        (&start["line"], &start["span_column"], &start["length"]),
        (&json!(2), &json!(11), &json!(4))
    );
    // The column points at the `$`; the span, underlined by robots lint, is the pattern.
    let dollar = by_code("dollar-inside");
    assert_eq!(
        (&dollar["line"], &dollar["column"]),
        (&json!(3), &json!(13))
    );
    assert_eq!(
        (&dollar["span_column"], &dollar["length"]),
        (&json!(11), &json!(4))
    );
}

#[test]
fn a_response_status_gives_the_rfc_9309_rules() {
    let body = b"User-agent: *\nDisallow: /x\n";
    let urls = ["/x", "/robots.txt"];
    let verdicts = |status: u16, profile: &str| {
        let tester = Tester::from_response(status, body, profile, None).unwrap();
        check(&tester, "ExampleBot", false, &urls)["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                (
                    v["allowed"].as_bool().unwrap(),
                    v["reason"].as_str().unwrap().to_owned(),
                )
            })
            .collect::<Vec<_>>()
    };
    let pair = |allowed: bool, reason: &str| (allowed, reason.to_owned());
    // 2xx: the body decides.
    assert_eq!(
        verdicts(200, "rfc9309"),
        [pair(false, "longest"), pair(true, "robots-txt")]
    );
    // 4xx: allow all, whatever the body says (RFC 9309 §2.3.1.3).
    assert_eq!(
        verdicts(404, "rfc9309"),
        [pair(true, "unavailable"), pair(true, "unavailable")]
    );
    // 5xx and no answer: disallow all but /robots.txt (§2.3.1.4, §2.2.2).
    for status in [503, 0] {
        assert_eq!(
            verdicts(status, "rfc9309"),
            [pair(false, "unreachable"), pair(true, "robots-txt")]
        );
    }
    // Google's matcher has no /robots.txt exception.
    assert_eq!(
        verdicts(500, "google"),
        [pair(false, "unreachable"), pair(false, "unreachable")]
    );
    assert_eq!(
        Tester::from_response(301, body, "rfc9309", None).unwrap_err(),
        WebError::Redirect(301)
    );
    let explained: Value = serde_json::from_str(
        &Tester::from_response(503, body, "rfc9309", None)
            .unwrap()
            .explain("ExampleBot", false, "/x")
            .unwrap(),
    )
    .unwrap();
    assert_eq!(explained["verdict"]["reason"], "unreachable");
    assert!(explained["reason_text"]
        .as_str()
        .unwrap()
        .contains("2.3.1.4"));
}

#[test]
fn a_parse_limit_is_kept_and_checked() {
    let long = format!("User-agent: *\n{}\nDisallow: /late\n", "#".repeat(600_000));
    let allowed = |tester: &Tester| {
        check(tester, "ExampleBot", false, &["/late"])["verdicts"][0]["allowed"].clone()
    };
    assert_eq!(
        allowed(&Tester::parse(long.as_bytes(), "rfc9309").unwrap()),
        true
    );
    let larger = Tester::parse_with(long.as_bytes(), "rfc9309", Some(1_000_000)).unwrap();
    assert_eq!(allowed(&larger), false);
    assert!(matches!(
        Tester::parse_with(long.as_bytes(), "rfc9309", Some(1000)),
        Err(WebError::Engine(robots::Error::LimitTooSmall(1000)))
    ));
}

/// The page's check gives the AI usage preferences after each verdict's fields, as
/// `robots check --format json` does (draft-ietf-aipref-attach-05 §3), and the agent's
/// Crawl-delay.
#[test]
fn check_gives_preferences_and_crawl_delay() {
    let file = b"User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\nContent-Usage: /blog/ search=y\nContent-Signal: ai-train=no\nCrawl-delay: 2.5\n";
    let tester = robots_web::Tester::parse(file, "rfc9309").unwrap();
    let urls: Vec<String> = ["/blog/x", "/private/x", "/"].map(String::from).into();
    let json: serde_json::Value =
        serde_json::from_str(&tester.check("ExampleBot", false, &urls).unwrap()).unwrap();
    let v = &json["verdicts"];
    assert_eq!(v[0]["content_usage"], serde_json::json!({"search": "y"}));
    assert_eq!(v[0]["content_usage_line"], 4);
    assert_eq!(v[1]["content_usage"], serde_json::Value::Null);
    assert_eq!(v[2]["content_usage"], serde_json::json!({"train-ai": "n"}));
    assert_eq!(
        v[2]["content_signal"],
        serde_json::json!({"ai-train": "no"})
    );
    assert_eq!(v[2]["content_signal_line"], 5);
    assert_eq!(json["crawl_delay"], 2.5);
    // The preferences come after the verdict's fields.
    let text = tester.check("ExampleBot", false, &urls).unwrap();
    assert!(
        text.contains(
            r#""reason":"no-match","content_usage":{"search":"y"},"content_usage_line":4"#
        ),
        "{text}"
    );
    // No file read (a 404): no preferences.
    let none = robots_web::Tester::from_response(404, b"", "rfc9309", None).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&none.check("ExampleBot", false, &urls).unwrap()).unwrap();
    assert_eq!(
        json["verdicts"][0]["content_usage"],
        serde_json::Value::Null
    );
    assert_eq!(json["crawl_delay"], serde_json::Value::Null);
}
