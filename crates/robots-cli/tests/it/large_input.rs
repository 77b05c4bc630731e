//! A robots.txt far past the parse limit, as a file, on standard input and endless
//! (`/dev/zero`): it is read only a little past the limit and the rest counted, yet
//! verdicts, diagnostics and the sizes reported are those of the whole file.

use crate::common;

use std::io::Write;

use robots::{Robots, MIN_PARSE_LIMIT};
use serde_json::Value;

/// A scratch file holding `content`, removed when dropped.
fn scratch(content: &[u8]) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(content).unwrap();
    file
}

/// Four MB: rules up to just before the limit, one the limit cuts, then rules no
/// crawler reads.
fn big_file() -> Vec<u8> {
    let mut big = b"User-agent: *\nDisallow: /private\n".to_vec();
    while big.len() < MIN_PARSE_LIMIT - 40 {
        big.extend_from_slice(format!("Disallow: /p{}\n", big.len()).as_bytes());
    }
    big.extend_from_slice(format!("Disallow: /{}\n", "x".repeat(100)).as_bytes());
    while big.len() < 4_000_000 {
        big.extend_from_slice(b"Disallow: /late\n");
    }
    big
}

/// What `check` says on standard error of `bytes` read whole, named `name`.
fn expected_warning(name: &str, bytes: &[u8]) -> String {
    let whole = Robots::parse(bytes);
    let first_ignored = robots::source_lines(bytes)
        .find(|(_, range)| range.start >= whole.parsed_bytes())
        .unwrap()
        .0;
    format!(
        "robots: warning: {name} is {} bytes, past the parse limit of {MIN_PARSE_LIMIT}: its last {} bytes, from line {first_ignored} on, are ignored",
        bytes.len(),
        bytes.len() - whole.parsed_bytes(),
    )
}

/// `robots lint --format json` of `robots` (`-` for `stdin`), as (line, code, message).
fn lint(robots: &str, stdin: &[u8]) -> Vec<(u64, String, String)> {
    let out = common::run(&["lint", "--robots", robots, "--format", "json"], stdin);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            (
                v["line"].as_u64().unwrap(),
                v["code"].as_str().unwrap().to_owned(),
                v["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// What lint finds in `bytes` read whole.
fn lint_whole(bytes: &[u8]) -> Vec<(u64, String, String)> {
    Robots::parse(bytes)
        .lint(bytes)
        .into_iter()
        .map(|d| {
            (
                u64::from(d.line),
                d.code.as_str().to_owned(),
                d.message.into_owned(),
            )
        })
        .collect()
}

#[test]
fn a_file_past_the_limit_reads_as_the_whole_file() {
    let big = big_file();
    let file = scratch(&big);
    let path = file.path().to_str().unwrap();
    let out = common::run(
        &[
            "check", "--robots", path, "--agent", "Bot", "/private", "/late",
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(&expected_warning(path, &big)),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("DISALLOWED  /private"), "{stdout}");
    assert!(stdout.contains("ALLOWED     /late"), "{stdout}");
    let found = lint(path, b"");
    assert_eq!(found, lint_whole(&big));
    // The file as standard input (`< big.txt`): its size comes from its metadata too.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_robots"))
        .args(["check", "--robots", "-", "--agent", "Bot", "/private"])
        .stdin(std::fs::File::open(path).unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with(&expected_warning("-", &big)), "{stderr}");
    assert!(
        found[0].2.contains("3488004 bytes past the parse limit")
            && found[0]
                .2
                .contains("its last 3488032 bytes, from line 27276 on"),
        "{found:?}"
    );
}

#[test]
fn a_stream_past_the_limit_is_counted_to_its_end() {
    let big = big_file();
    let out = common::run(
        &["check", "--robots", "-", "--agent", "Bot", "/private"],
        &big,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with(&expected_warning("-", &big)), "{stderr}");
    assert_eq!(lint("-", &big), lint_whole(&big));
}

/// What follows the limit is blank for more than the bytes kept, then has a rule or
/// not: content past the limit is reported only when there is some, as for the whole
/// file.
#[test]
fn blank_lines_past_the_limit_are_told_from_content() {
    let mut blank = b"User-agent: *\nDisallow: /a\n".to_vec();
    blank.resize(MIN_PARSE_LIMIT, b'#');
    blank.push(b'\n');
    blank.resize(2_000_000, b'\n');
    let mut text = blank.clone();
    text.extend_from_slice(b"Disallow: /late\n");
    for (name, bytes) in [("blank", &blank), ("text", &text)] {
        let file = scratch(bytes);
        let path = file.path();
        let whole = lint_whole(bytes);
        assert_eq!(lint(path.to_str().unwrap(), b""), whole, "{name}");
        assert_eq!(lint("-", bytes), whole, "{name}");
        let reported = whole
            .iter()
            .any(|(_, code, _)| code == "beyond-parse-limit");
        assert_eq!(reported, name == "text");
    }
}

/// An endless stream is counted up to a gibibyte, then said to be more than that:
/// the command ends rather than filling memory.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_stream_is_more_than_a_gibibyte() {
    let out = common::run(
        &["check", "--robots", "/dev/zero", "--agent", "Bot", "/a"],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("/dev/zero is more than 1073741824 bytes")
            && stderr.contains("from line 1 on, more than 1073741824 bytes, is ignored"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(0));
    let found = lint("/dev/zero", b"");
    assert!(
        found.iter().any(|(line, code, message)| *line == 1
            && code == "beyond-parse-limit"
            && message.starts_with("the file goes more than 1073229824 bytes past")),
        "{found:?}"
    );
}
