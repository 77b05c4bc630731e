//! The RFC 9309 profile against a reading of RFC 9309 that differs from Google on purpose
//! (Xenoglyphiq/robotstxt-spec), read from ../shared/conformance.

use crate::common;

use robots::{Agent, Robots};

/// Cases where that suite's reading and docs/design.md part ways, with the reason.
const DIFFERENT_BY_DESIGN: &[(&str, &str)] = &[(
    "groups.crawl_delay_closes",
    "the suite lets Crawl-delay end a group's user-agent lines; RFC 9309 §2.2.4 says \
     other records must not interfere with groups, and docs/design.md follows it",
)];

#[test]
fn rfc9309_profile_agrees_with_the_xenoglyphiq_suite() {
    let Some(dir) = common::shared("conformance") else {
        return;
    };
    let cases = common::jsonl(&dir.join("xenoglyphiq_robotstxt_spec.jsonl"));
    let mut failures = Vec::new();
    for case in &cases {
        let name = common::str_field(case, "agent");
        let agent = Agent::new(name).unwrap_or_else(|_| Agent::verbatim(name));
        let robots = Robots::parse(&common::body(case));
        let got = robots
            .check(&agent, common::str_field(case, "url"))
            .allowed();
        let test = common::str_field(case, "test");
        let expected = case["allowed"].as_bool().unwrap();
        let excuse = DIFFERENT_BY_DESIGN.iter().find(|(t, _)| *t == test);
        match (got != expected, excuse) {
            (true, None) => failures.push(format!("{test}: got {got}, {}", case["description"])),
            (false, Some((_, why))) => failures.push(format!(
                "{test}: now agrees, but is listed as different by design ({why})"
            )),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
