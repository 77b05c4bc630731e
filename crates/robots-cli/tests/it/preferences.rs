//! `robots check` and `explain` with AI usage preferences (draft-ietf-aipref-attach-05 §3,
//! vocab-07, contentsignals.org): the four JSON fields after the verdict's, and the text.

use crate::common;

use common::{json_lines, run as robots};
use serde_json::json;

const FILE: &[u8] = b"User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n\
Content-Usage: /blog/ train-ai=y, search=y\nContent-Signal: search=yes, ai-train=no\n\n\
User-agent: Other\nContent-Usage: /x/ Train-AI=n\nAllow: /\n";

fn file() -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), FILE).unwrap();
    file
}

#[test]
fn check_json_gains_the_four_fields_after_the_verdicts() {
    let f = file();
    let path = f.path().to_str().unwrap();
    let out = robots(
        &[
            "check",
            "--robots",
            path,
            "--agent",
            "ExampleBot",
            "--format",
            "json",
            "/",
            "/blog/a",
            "/private/x",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let lines = json_lines(&out);
    assert_eq!(
        lines[0],
        json!({"url": "/", "allowed": true, "line": null, "rule": null, "pattern": null,
            "embargo_days": null, "reason": "no-match",
            "content_usage": {"train-ai": "n"}, "content_usage_line": 3,
            "content_signal": {"search": "yes", "ai-train": "no"}, "content_signal_line": 5})
    );
    // attach-05 §3.4: the longest rule alone applies.
    assert_eq!(
        lines[1]["content_usage"],
        json!({"train-ai": "y", "search": "y"})
    );
    assert_eq!(lines[1]["content_usage_line"], 4);
    // attach-05 §3.1: a disallowed URL has no preferences; the group's signal stays.
    assert_eq!(lines[2]["content_usage"], serde_json::Value::Null);
    assert_eq!(lines[2]["content_usage_line"], serde_json::Value::Null);
    assert_eq!(lines[2]["content_signal_line"], 5);
    // Field order: the new fields come after the existing ones.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().next().unwrap().contains(r#""reason":"no-match","content_usage":{"train-ai":"n"},"content_usage_line":3,"content_signal":{"search":"yes","ai-train":"no"},"content_signal_line":5}"#), "{text}");
}

#[test]
fn a_rule_that_states_nothing_is_an_empty_object_and_no_group_is_null() {
    let f = file();
    let path = f.path().to_str().unwrap();
    let out = robots(
        &[
            "check",
            "--robots",
            path,
            "--agent",
            "Other",
            "--agent",
            "ExampleBot",
            "--format",
            "json",
            "/x/1",
        ],
        "",
    );
    let lines = json_lines(&out);
    assert_eq!(lines[0]["agent"], "Other");
    // vocab-07 §6.5.1: an uppercase key fails the Dictionary; the rule still applies.
    assert_eq!(lines[0]["content_usage"], json!({}));
    assert_eq!(lines[0]["content_usage_line"], 8);
    assert_eq!(lines[0]["content_signal"], serde_json::Value::Null);
    assert_eq!(lines[1]["agent"], "ExampleBot");
    assert_eq!(lines[1]["content_usage"], json!({"train-ai": "n"}));
}

#[test]
fn text_output_shows_the_preferences_after_the_verdict() {
    let f = file();
    let path = f.path().to_str().unwrap();
    let out = robots(
        &[
            "check",
            "--robots",
            path,
            "--agent",
            "ExampleBot",
            "/blog/a",
            "/private/x",
        ],
        "",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "ALLOWED     /blog/a  (no rule matched)  [content-usage: train-ai=y, search=y (line 4)]  [content-signal: search=yes, ai-train=no (line 5)]"
    );
    assert!(!lines[1].contains("content-usage"), "{}", lines[1]);
    assert!(lines[1].contains("[content-signal: search=yes, ai-train=no (line 5)]"));
}

#[test]
fn the_google_profile_reads_no_preferences() {
    let f = file();
    let path = f.path().to_str().unwrap();
    let out = robots(
        &[
            "check",
            "--robots",
            path,
            "--agent",
            "ExampleBot",
            "--profile",
            "google",
            "--format",
            "json",
            "/",
        ],
        "",
    );
    let line = &json_lines(&out)[0];
    assert_eq!(line["content_usage"], serde_json::Value::Null);
    assert_eq!(line["content_signal"], serde_json::Value::Null);
}

#[test]
fn explain_shows_the_preferences_in_text_and_json() {
    let f = file();
    let path = f.path().to_str().unwrap();
    let out = robots(
        &[
            "explain",
            "--robots",
            path,
            "--agent",
            "ExampleBot",
            "--color",
            "never",
            "/blog/a",
        ],
        "",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("content-usage   train-ai=y, search=y (line 4)\n"),
        "{text}"
    );
    assert!(
        text.contains("content-signal  search=yes, ai-train=no (line 5)\n"),
        "{text}"
    );
    let out = robots(
        &[
            "explain",
            "--robots",
            path,
            "--agent",
            "ExampleBot",
            "--color",
            "never",
            "/private/a",
        ],
        "",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("a disallowed URL has no preferences"),
        "{text}"
    );
    let out = robots(
        &[
            "explain",
            "--robots",
            path,
            "--agent",
            "ExampleBot",
            "--format",
            "json",
            "/",
        ],
        "",
    );
    let line = &json_lines(&out)[0];
    assert_eq!(line["content_usage"], json!({"train-ai": "n"}));
    assert_eq!(line["content_signal_line"], 5);
}

/// `robots diff` reports a URL whose preferences change though its verdict does not,
/// with the Content-Usage path among the URLs it tries when none are given.
#[test]
fn diff_reports_changed_preferences() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.txt");
    let new = dir.path().join("new.txt");
    std::fs::write(
        &old,
        "User-agent: *\nDisallow: /private/\nContent-Usage: /blog/ train-ai=y\n",
    )
    .unwrap();
    std::fs::write(&new, "User-agent: *\nDisallow: /private/\nContent-Usage: /blog/ train-ai=n\nContent-Signal: search=yes\n").unwrap();
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let out = robots(
        &[
            "diff",
            "--agent",
            "ExampleBot",
            "--format",
            "json",
            old,
            new,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    let blog = lines
        .iter()
        .find(|l| l["url"] == "/blog/")
        .expect("the rule's path is tried");
    assert_eq!(blog["old"]["allowed"], true);
    assert_eq!(blog["old"]["content_usage"], json!({"train-ai": "y"}));
    assert_eq!(blog["new"]["content_usage"], json!({"train-ai": "n"}));
    assert_eq!(blog["new"]["content_signal"], json!({"search": "yes"}));
    // The group's signal changed for every URL; a disallowed one has no Content-Usage
    // preferences on either side (attach-05 §3.1).
    assert!(lines.iter().any(|l| l["url"] == "/"));
    let private = lines.iter().find(|l| l["url"] == "/private/").unwrap();
    assert_eq!(private["old"]["content_usage"], serde_json::Value::Null);
    assert_eq!(private["new"]["content_usage"], serde_json::Value::Null);
    assert_eq!(private["new"]["allowed"], false);

    let out = robots(
        &[
            "diff",
            "--agent",
            "ExampleBot",
            "--color",
            "never",
            old,
            new,
            "/blog/a",
        ],
        "",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("CHANGED  ExampleBot  /blog/a  ALLOWED  [content-usage: train-ai=y (line 3)] -> ALLOWED  [content-usage: train-ai=n (line 3)]  [content-signal: search=yes (line 4)]\n"),
        "{text}"
    );
    // Nothing changed: exit 0.
    let out = robots(&["diff", "--agent", "ExampleBot", old, old], "");
    assert_eq!(out.status.code(), Some(0));
}
