//! What a crawler's code relies on beyond verdicts: the types can be shared across
//! threads, and `{:?}` shows what a value says rather than the parser's packed layout.

use robots::{Agent, Options, Robots, Tokens};

/// Compile-time: a parsed file is checked from every thread of a crawler at once.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Robots>();
    send_sync::<Agent>();
    send_sync::<Options>();
    send_sync::<robots::Verdict<'static>>();
    send_sync::<robots::Rule<'static>>();
    send_sync::<robots::Group<'static>>();
    send_sync::<robots::Explanation<'static>>();
    send_sync::<robots::Diagnostic>();
    send_sync::<robots::Error>();
};

const FILE: &[u8] =
    b"User-agent: *\nDisallow: /private\nCrawl-delay: 2\nSitemap: https://x.test/s.xml\n";

#[test]
fn one_parse_is_checked_from_many_threads() {
    let robots = std::sync::Arc::new(Robots::parse(FILE));
    let agent = Agent::new("ExampleBot").unwrap();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| assert!(!robots.check(&agent, "/private/x").allowed()));
        }
    });
}

#[test]
fn a_rule_shows_its_pattern_as_text() {
    let robots = Robots::parse(FILE);
    let verdict = robots.check(&Agent::new("ExampleBot").unwrap(), "/private/x");
    let shown = format!("{:?}", verdict.decided_by().unwrap());
    assert_eq!(
        shown,
        r#"Rule { kind: Disallow, pattern: "/private", line: 2, specificity: 8 }"#
    );
}

#[test]
fn groups_and_records_show_themselves_not_the_whole_file() {
    let robots = Robots::parse(FILE);
    let group = format!("{:?}", robots.groups().next().unwrap());
    assert_eq!(
        group,
        r#"Group { index: 0, line: 1, agents: ["*"], rules: 1, embargo: None, crawl_delay: Some(2s) }"#
    );
    let sitemap = format!("{:?}", robots.records().last().unwrap());
    assert_eq!(
        sitemap,
        r#"Record { line: 4, directive: Sitemap, key: "Sitemap", value: "https://x.test/s.xml", group: Some(0) }"#
    );
    let agent = Agent::new("ExampleBot").unwrap();
    let explanation = format!("{:?}", robots.explain(&agent, "/private/x"));
    assert!(!explanation.contains("arena"), "{explanation}");
}

#[test]
fn a_parse_shows_a_summary() {
    let shown = format!("{:?}", Robots::parse(FILE));
    assert_eq!(
        shown,
        "Robots { profile: Rfc9309, size: 78, parsed_bytes: 78, lines: 5, groups: 1, rules: 1, records: 2, diagnostics: 0, .. }"
    );
}

#[test]
fn a_token_shows_key_and_value_as_byte_strings() {
    let token = Tokens::new(b"Disallow: /caf\xC3\xA9\n", Options::new())
        .next()
        .unwrap();
    assert_eq!(
        format!("{token:?}"),
        r#"Token { line: 1, directive: Disallow, key: b"Disallow", value: b"/caf\xc3\xa9", value_at: 10 }"#
    );
}

#[test]
fn names_print_as_the_command_line_and_json_write_them() {
    use robots::{Code, Profile, Severity};
    for profile in [Profile::Rfc9309, Profile::Google] {
        assert_eq!(profile.to_string().parse::<Profile>(), Ok(profile));
    }
    assert_eq!(Code::MissingColon.to_string(), "missing-colon");
    assert_eq!(Severity::Warning.to_string(), "warning");
}

#[test]
fn crawlers_and_verdicts_can_be_keys() {
    use std::collections::HashSet;
    let robots = Robots::parse(FILE);
    let agents: HashSet<Agent> = ["ExampleBot", "ExampleBot", "OtherBot"]
        .into_iter()
        .map(|name| Agent::new(name).unwrap())
        .collect();
    assert_eq!(agents.len(), 2);
    let agent = Agent::new("ExampleBot").unwrap();
    let verdicts: HashSet<_> = ["/private/a", "/private/b", "/public"]
        .into_iter()
        .map(|url| robots.check(&agent, url))
        .collect();
    assert_eq!(verdicts.len(), 2);
}

#[test]
fn an_agents_records_are_those_of_its_merged_groups_in_file_order() {
    let robots = Robots::parse(
        b"Crawl-delay: 9\n\
          User-agent: ExampleBot\nContent-Signal: search=yes\nDisallow: /a\n\
          User-agent: *\nVisit-time: 0600-0845\nDisallow: /b\n\
          User-agent: examplebot\nContent-Signal: ai-train=no\nDisallow: /x\n",
    );
    let lines = |agent: &str| -> Vec<u32> {
        let groups = robots.group_for(&Agent::new(agent).unwrap());
        groups.records().map(|r| r.line()).collect()
    };
    // The first line stands in no group; the two groups naming ExampleBot are merged.
    assert_eq!(lines("ExampleBot"), [3, 9]);
    assert_eq!(lines("OtherBot"), [6]);
    let none = Robots::parse(b"User-agent: ExampleBot\nCrawl-delay: 1\n");
    let other = none.group_for(&Agent::new("OtherBot").unwrap());
    assert_eq!(other.records().count(), 0);
}
