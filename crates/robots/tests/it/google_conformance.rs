//! The Google profile against Google's own expected verdicts (google/robotstxt tests and
//! the robotstxt-spec-test suite), read from ../shared/conformance.

use crate::common;

use robots::{Agent, Options, Profile, Robots};
use serde_json::Value;

fn google_options() -> Options {
    // Google's library has no parse limit.
    Options::new()
        .profile(Profile::Google)
        .max_bytes(usize::MAX)
        .unwrap()
}

fn run(file: &str) {
    let Some(dir) = common::shared("conformance") else {
        return;
    };
    let cases = common::jsonl(&dir.join(file));
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for case in &cases {
        let robots = Robots::parse_with(&common::body(case), google_options());
        let agent = Agent::verbatim(common::str_field(case, "agent"));
        let got = robots
            .check(&agent, common::str_field(case, "url"))
            .allowed();
        if got != case["allowed"].as_bool().unwrap() {
            failures.push(case.clone());
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases of {file} disagree, first: {}",
        failures.len(),
        cases.len(),
        failures[0]
    );
    println!("{file}: {} of {} cases agree", cases.len(), cases.len());
}

#[test]
fn google_robots_test_cases() {
    run("google_robots_test.jsonl");
}

#[test]
fn google_robotstxt_spec_test_cases() {
    run("google_robotstxt_spec_test.jsonl");
}

#[test]
fn xenoglyphiq_google_oracle_verdicts() {
    let Some(dir) = common::shared("conformance") else {
        return;
    };
    for case in common::jsonl(&dir.join("xenoglyphiq_robotstxt_spec.jsonl")) {
        let robots = Robots::parse_with(&common::body(&case), google_options());
        let agent = Agent::verbatim(common::str_field(&case, "agent"));
        let got = robots
            .check(&agent, common::str_field(&case, "url"))
            .allowed();
        assert_eq!(Value::Bool(got), case["google_allowed"], "{}", case["test"]);
    }
}
