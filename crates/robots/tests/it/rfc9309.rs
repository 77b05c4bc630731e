//! RFC 9309's normative requirements of §2.1–2.2 and §2.5, one test each, named after
//! the section; the fetching sections (§2.3–2.4) are tested in robots-fetch.

use robots::{Agent, Code, Options, Reason, Robots, RuleKind};

fn agent(name: &str) -> Agent {
    Agent::new(name).unwrap()
}

/// The verdict and deciding line for `name` on `url`.
fn verdict(robots: &[u8], name: &str, url: &str) -> (bool, Option<u32>) {
    let robots = Robots::parse(robots);
    let v = robots.check(&agent(name), url);
    (v.allowed(), v.decided_by().map(|r| r.line()))
}

fn allowed(robots: &[u8], name: &str, url: &str) -> bool {
    verdict(robots, name, url).0
}

#[test]
fn sec_2_1_file_is_lines_of_records_and_comments() {
    let file = b"# comment\nUser-agent: *   # trailing comment\nDisallow: /a # why\n";
    assert_eq!(verdict(file, "Bot", "/a/b"), (false, Some(3)));
    assert!(allowed(file, "Bot", "/b"));
}

#[test]
fn sec_2_2_keys_are_case_insensitive_and_whitespace_is_optional() {
    let file = b"USER-AGENT:*\nDISALLOW :/a\n  allow:   /a/b  \n";
    assert!(!allowed(file, "Bot", "/a/x"));
    assert!(allowed(file, "Bot", "/a/b"));
}

#[test]
fn sec_2_2_lines_end_at_lf_cr_or_crlf() {
    for file in [
        &b"User-agent: *\nDisallow: /a\nDisallow: /b"[..],
        b"User-agent: *\rDisallow: /a\rDisallow: /b",
        b"User-agent: *\r\nDisallow: /a\r\nDisallow: /b",
    ] {
        assert_eq!(verdict(file, "Bot", "/b"), (false, Some(3)));
    }
}

#[test]
fn sec_2_2_1_product_token_match_is_case_insensitive() {
    let file = b"User-agent: examplebot\nDisallow: /\n";
    assert!(!allowed(file, "ExampleBot", "/x"));
    assert!(!allowed(file, "EXAMPLEBOT", "/x"));
}

#[test]
fn sec_2_2_1_product_token_must_match_exactly_not_as_prefix() {
    let file = b"User-agent: ExampleBot-News\nDisallow: /\n";
    assert!(allowed(file, "ExampleBot", "/x"));
    let file = b"User-agent: Example\nDisallow: /\n";
    assert!(allowed(file, "ExampleBot", "/x"));
}

#[test]
fn sec_2_2_1_matching_groups_are_combined() {
    let file = b"User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\n\nUser-agent: a\nDisallow: /z\nAllow: /x/ok\n";
    assert!(!allowed(file, "a", "/x"));
    assert!(!allowed(file, "a", "/z"));
    assert!(allowed(file, "a", "/y"));
    // The combined group's longest match decides across the original groups.
    assert_eq!(verdict(file, "a", "/x/ok"), (true, Some(9)));
}

/// A check remembers the first few chosen groups and finds later ones again: every one of
/// twenty groups, named or global, interleaved with groups for others, still counts.
#[test]
fn sec_2_2_1_many_matching_groups_are_all_combined() {
    let mut file = String::new();
    for i in 0..20 {
        file += &format!("User-agent: a\nDisallow: /a{i}/\n\nUser-agent: *\nDisallow: /g{i}/\n\n");
        file += &format!("User-agent: other\nDisallow: /o{i}/\n\n");
    }
    let robots = Robots::parse(file.as_bytes());
    assert_eq!(robots.group_for(&agent("a")).groups().len(), 20);
    assert_eq!(robots.group_for(&agent("nobody")).groups().len(), 20);
    for i in 0..20 {
        assert!(
            !allowed(file.as_bytes(), "a", &format!("/a{i}/x")),
            "/a{i}/"
        );
        assert!(allowed(file.as_bytes(), "a", &format!("/g{i}/x")), "/g{i}/");
        assert!(
            !allowed(file.as_bytes(), "nobody", &format!("/g{i}/x")),
            "/g{i}/"
        );
        assert!(
            allowed(file.as_bytes(), "nobody", &format!("/o{i}/x")),
            "/o{i}/"
        );
    }
}

#[test]
fn sec_2_2_1_global_group_applies_when_no_group_matches() {
    let file = b"User-agent: a\nDisallow: /a\n\nUser-agent: *\nDisallow: /star\n";
    assert!(!allowed(file, "other", "/star"));
    assert!(allowed(file, "other", "/a"));
    // A named group replaces the global one entirely.
    assert!(allowed(file, "a", "/star"));
}

#[test]
fn sec_2_2_1_no_matching_group_and_no_global_group_means_no_rules() {
    let file = b"User-agent: a\nDisallow: /\n";
    let robots = Robots::parse(file);
    let v = robots.check(&agent("b"), "/x");
    assert!(v.allowed());
    assert_eq!(v.reason(), Reason::NoGroup);
    assert!(Robots::parse(b"").check(&agent("b"), "/x").allowed());
}

#[test]
fn sec_2_2_1_several_user_agent_lines_share_one_group() {
    let file = b"User-agent: a\nUser-agent: b\nDisallow: /p\n";
    assert!(!allowed(file, "a", "/p"));
    assert!(!allowed(file, "b", "/p"));
}

#[test]
fn sec_2_2_2_longest_match_wins() {
    let file = b"User-agent: *\nAllow: /p\nDisallow: /p/private\nAllow: /p/private/ok\n";
    assert_eq!(verdict(file, "Bot", "/p/x"), (true, Some(2)));
    assert_eq!(verdict(file, "Bot", "/p/private/x"), (false, Some(3)));
    assert_eq!(verdict(file, "Bot", "/p/private/ok/1"), (true, Some(4)));
}

/// A big group, whose rules are put in order by counting them into buckets: lengths
/// from 2 to 400 octets in a scrambled order, and ties between an allow and a disallow.
#[test]
fn sec_2_2_2_longest_match_wins_in_a_group_of_hundreds() {
    let mut file = String::from("User-agent: *\n");
    // The line of the rule `/` + `d` × k, for every k but 1.
    let mut line_of = [0u32; 401];
    for n in (0..200).map(|i| 1 + (i * 73) % 200) {
        for (kind, k) in [("Disallow", 2 * n), ("Allow", 2 * n - 1)] {
            file += &format!("{kind}: /{}\n", "d".repeat(k));
            line_of[k] = file.lines().count() as u32;
        }
    }
    file += "Disallow: /d\n";
    let file = file.as_bytes();
    for k in [2, 3, 7, 8, 255, 256, 257, 400] {
        let url = format!("/{}", "d".repeat(k));
        assert_eq!(
            verdict(file, "Bot", &url),
            (k % 2 == 1, Some(line_of[k])),
            "{url}"
        );
    }
    // `/d` twice: the tie goes to the allow, wherever it is.
    assert_eq!(verdict(file, "Bot", "/d"), (true, Some(line_of[1])));
}

#[test]
fn sec_2_2_2_equivalent_allow_wins_over_disallow() {
    let file = b"User-agent: *\nDisallow: /same\nAllow: /same\n";
    let robots = Robots::parse(file);
    let v = robots.check(&agent("Bot"), "/same/x");
    assert!(v.allowed());
    assert_eq!(v.reason(), Reason::TieWonByAllow);
    assert_eq!(v.decided_by().unwrap().line(), 3);
}

#[test]
fn sec_2_2_2_matching_is_case_sensitive_and_starts_at_first_octet() {
    let file = b"User-agent: *\nDisallow: /Private\n";
    assert!(allowed(file, "Bot", "/private"));
    assert!(allowed(file, "Bot", "/x/Private"));
    assert!(!allowed(file, "Bot", "/Private/x"));
}

#[test]
fn sec_2_2_2_no_match_or_no_rules_means_allowed() {
    let file = b"User-agent: *\nDisallow: /a\n\nUser-agent: empty\n";
    let robots = Robots::parse(file);
    let v = robots.check(&agent("Bot"), "/b");
    assert!(v.allowed());
    assert_eq!(v.reason(), Reason::NoMatch);
    assert!(allowed(file, "empty", "/a"));
}

#[test]
fn sec_2_2_2_robots_txt_is_implicitly_allowed() {
    let file = b"User-agent: *\nDisallow: /\n";
    let robots = Robots::parse(file);
    let v = robots.check(&agent("Bot"), "https://example.com/robots.txt");
    assert!(v.allowed());
    assert_eq!(v.reason(), Reason::RobotsTxt);
    assert!(!allowed(file, "Bot", "/robots.txt.bak"));
}

#[test]
fn sec_2_2_2_empty_disallow_matches_nothing() {
    let file = b"User-agent: *\nDisallow:\n";
    assert_eq!(verdict(file, "Bot", "/x"), (true, None));
}

/// Each row of the table of §2.2.2: a rule written as the "Path" column matches the
/// URL written as the "Encoded Path" column and vice versa, and both spellings of a rule
/// count the same length: the "Path to Match" column's, where query delimiters count in
/// their decoded form (see the crate docs on normalisation).
#[test]
fn sec_2_2_2_percent_encoding_table() {
    let rows = [
        ("/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=quz"),
        (
            "/foo/bar?baz=https://foo.bar",
            "/foo/bar?baz=https%3A%2F%2Ffoo.bar",
            "/foo/bar?baz=https%3A%2F%2Ffoo.bar",
        ),
        ("/foo/bar/ツ", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"),
        (
            "/foo/bar/%E3%83%84",
            "/foo/bar/%E3%83%84",
            "/foo/bar/%E3%83%84",
        ),
        ("/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", "/foo/bar/baz"),
    ];
    for (path, encoded, to_match) in rows {
        for (rule, url) in [(path, encoded), (encoded, path), (path, to_match)] {
            let file = format!("User-agent: *\nDisallow: {rule}$\n");
            let robots = Robots::parse(file.as_bytes());
            let v = robots.check(&agent("Bot"), url);
            assert!(!v.allowed(), "rule {rule} should match {url}");
            let rule = v.decided_by().unwrap();
            let canonical = to_match.replace("%3A", ":").replace("%2F", "/");
            assert_eq!(rule.specificity() as usize, canonical.len() + 1, "{path}");
        }
    }
}

/// A `*` can carry a pattern's escapes of `:` `/` `?` `@` into the path's query, where
/// they compare equal to the octets they encode (the table's second row), while before
/// the query they still stand for themselves.
#[test]
fn sec_2_2_2_query_escapes_reached_through_a_wildcard_compare_equal() {
    let file = b"User-agent: *\nDisallow: /*url=http%3A%2F%2F\nDisallow: /*v%3asources=\n";
    assert_eq!(
        verdict(file, "Bot", "/r?url=http%3A%2F%2Fevil"),
        (false, Some(2))
    );
    assert_eq!(verdict(file, "Bot", "/r?url=http://evil"), (false, Some(2)));
    assert_eq!(
        verdict(file, "Bot", "/search?v:sources=1"),
        (false, Some(3))
    );
    assert_eq!(verdict(file, "Bot", "/v%3Asources=1"), (false, Some(3)));
    assert!(allowed(file, "Bot", "/v:sources=1"));
    assert!(allowed(file, "Bot", "/url=http://evil"));
}

#[test]
fn sec_2_2_2_octets_outside_ascii_and_controls_are_encoded_before_comparison() {
    let file = "User-agent: *\nDisallow: /a b/é\n".as_bytes();
    assert!(!allowed(file, "Bot", "/a%20b/%C3%A9"));
    assert!(!allowed(file, "Bot", "/a b/é"));
    assert!(!allowed(file, "Bot", "/a%20b/%c3%a9"));
}

#[test]
fn sec_2_2_2_unreserved_escapes_are_decoded_reserved_ones_are_not() {
    let file = b"User-agent: *\nDisallow: /a%2Fb\nDisallow: /%7Euser\n";
    assert!(!allowed(file, "Bot", "/~user/x"));
    assert!(!allowed(file, "Bot", "/a%2fb"));
    // `%2F` is a reserved character's escape: it is not the path separator.
    assert!(allowed(file, "Bot", "/a/b"));
}

#[test]
fn sec_2_2_3_star_matches_any_run_and_dollar_the_end() {
    let file = b"User-agent: *\nDisallow: /*.gif$\nAllow: /this/path/exactly$\nDisallow: /this/\n";
    assert!(!allowed(file, "Bot", "/a/b.gif"));
    assert!(allowed(file, "Bot", "/a/b.gif?x=1"));
    assert!(allowed(file, "Bot", "/this/path/exactly"));
    assert!(!allowed(file, "Bot", "/this/path/exactly/not"));
}

#[test]
fn sec_2_2_3_special_characters_match_verbatim_when_percent_encoded() {
    let file = b"User-agent: *\nDisallow: /path/file-with-a-%2A.html\nDisallow: /path/foo-%24\n";
    assert!(!allowed(file, "Bot", "/path/file-with-a-*.html"));
    assert!(allowed(file, "Bot", "/path/file-with-a-b.html"));
    assert!(!allowed(file, "Bot", "/path/foo-$"));
}

#[test]
fn sec_2_2_4_other_records_do_not_end_a_group() {
    let file = b"User-agent: a\nSitemap: https://x.test/s.xml\nCrawl-delay: 3\nUser-agent: b\nDisallow: /p\n";
    assert!(!allowed(file, "a", "/p"));
    assert!(!allowed(file, "b", "/p"));
    let robots = Robots::parse(file);
    assert_eq!(
        robots.sitemaps().collect::<Vec<_>>(),
        ["https://x.test/s.xml"]
    );
}

#[test]
fn sec_2_2_4_common_misspellings_are_accepted_and_reported() {
    let file = b"useragent: *\ndisalow: /p\n";
    assert!(!allowed(file, "Bot", "/p"));
    let robots = Robots::parse(file);
    let codes: Vec<_> = robots.diagnostics().iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::MisspeltDirective, Code::MisspeltDirective]);
}

#[test]
fn sec_2_5_parse_limit_is_at_least_500_kib() {
    assert!(Options::new().max_bytes(511_999).is_err());
    assert_eq!(Options::new().limit(), 512_000);
    // A rule that starts within the first 500 KiB applies; one past the limit does not.
    let mut file = b"User-agent: *\nDisallow: /early\n".to_vec();
    file.resize(511_000, b'\n');
    file.extend_from_slice(b"Disallow: /late\n");
    let robots = Robots::parse(&file);
    assert!(!robots.check(&agent("Bot"), "/early").allowed());
    assert!(!robots.check(&agent("Bot"), "/late").allowed());
    file.resize(600_000, b'\n');
    file.extend_from_slice(b"Disallow: /beyond\n");
    let robots = Robots::parse(&file);
    assert!(robots.check(&agent("Bot"), "/beyond").allowed());
    assert!(robots
        .diagnostics()
        .iter()
        .any(|d| d.code == Code::BeyondParseLimit));
    let bigger = Robots::parse_with(&file, Options::new().max_bytes(1_000_000).unwrap());
    assert!(!bigger.check(&agent("Bot"), "/beyond").allowed());
}

#[test]
fn sec_2_5_a_line_cut_by_the_limit_is_dropped_whole() {
    let mut file = b"User-agent: *\n".to_vec();
    file.resize(511_990, b'\n');
    file.extend_from_slice(b"Allow: /abcdefghijklmnopqrstuvwxyz\n");
    let robots = Robots::parse(&file);
    assert_eq!(robots.groups().next().unwrap().rules().count(), 0);
    assert!(robots.parsed_bytes() <= 512_000);
}

/// RFC 9309 §5.1, the simple example, for every crawler it names.
#[test]
fn sec_5_1_simple_example() {
    let file = b"User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n\nUser-Agent: foobot\nDisallow:/\nAllow:/example/page.html\nAllow:/example/allowed.gif\n\nUser-Agent: barbot\nUser-Agent: bazbot\nDisallow: /example/page.html\n\nUser-Agent: quxbot\n\nEOF\n";
    assert!(allowed(file, "foobot", "/example/page.html"));
    assert!(allowed(file, "foobot", "/example/allowed.gif"));
    assert!(!allowed(file, "foobot", "/other"));
    for bot in ["barbot", "bazbot"] {
        assert!(!allowed(file, bot, "/example/page.html"));
        assert!(allowed(file, bot, "/example/other.gif"));
    }
    assert!(allowed(file, "quxbot", "/example/page.html"));
    assert!(!allowed(file, "otherbot", "/x.gif"));
    assert!(!allowed(file, "otherbot", "/example/x"));
    assert!(allowed(file, "otherbot", "/publications/x"));
}

/// RFC 9309 §5.2, the longest-match example.
#[test]
fn sec_5_2_longest_match_example() {
    let file =
        b"User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n";
    assert!(allowed(file, "foobot", "/example/page/"));
    let robots = Robots::parse(file);
    let v = robots.check(&agent("foobot"), "/example/page/disallowed.gif");
    assert!(!v.allowed());
    assert_eq!(v.decided_by().unwrap().kind(), RuleKind::Disallow);
}
