//! The Google profile against Google's verdicts and deciding lines on the shared corpus
//! of real robots.txt files (160,160 queries), read from ../shared/corpus.

use crate::common;

use std::collections::HashMap;

use robots::{Agent, Options, Profile, Robots};

#[test]
fn google_profile_agrees_on_every_corpus_query() {
    let Some(dir) = common::shared("corpus") else {
        return;
    };
    let options = Options::new()
        .profile(Profile::Google)
        .max_bytes(usize::MAX)
        .unwrap();
    let mut parsed: HashMap<String, Robots> = HashMap::new();
    let (mut total, mut failures) = (0, Vec::new());
    for case in common::jsonl(&dir.join("cases.jsonl")) {
        let file = common::str_field(&case, "file").to_owned();
        let robots = parsed.entry(file.clone()).or_insert_with(|| {
            let bytes = std::fs::read(dir.join("robots").join(&file)).expect("corpus file");
            Robots::parse_with(&bytes, options)
        });
        let agent = Agent::verbatim(common::str_field(&case, "agent"));
        let verdict = robots.check(&agent, common::str_field(&case, "url"));
        let line = verdict.decided_by().map_or(0, |r| r.line());
        total += 1;
        if verdict.allowed() != case["allowed"].as_bool().unwrap()
            || u64::from(line) != case["line"].as_u64().unwrap()
        {
            failures.push(format!(
                "{case} -> allowed {} line {line}",
                verdict.allowed()
            ));
        }
    }
    assert_eq!(total, 160_160, "the corpus should hold 160,160 queries");
    assert!(
        failures.is_empty(),
        "{} of {total} queries disagree; first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    println!("corpus: {total} of {total} queries agree on verdict and line");
}
