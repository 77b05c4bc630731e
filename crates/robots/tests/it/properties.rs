//! Property tests of the engine (proptest): no panic on any bytes, verdicts independent
//! of line-ending style, matching that agrees with a reference dynamic-programming
//! wildcard matcher and stays linear on pathological patterns, deciders of merged groups
//! that agree with the reference's longest match, RFC 9309 normalisation of
//! unreserved escapes, URL versus path-only checks agreeing, `Tokens` reading the
//! lines the parse reads, and the rule index deciding as the scan does.

use proptest::prelude::*;
use robots::{Agent, Code, Directive, Options, Profile, Robots, RuleKind, Token, Tokens, Verdict};

const PROFILES: [Profile; 2] = [Profile::Rfc9309, Profile::Google];

fn parse(body: &[u8], profile: Profile) -> Robots {
    Robots::parse_with(body, Options::new().profile(profile))
}

/// What a verdict says, in a form that compares across two parses.
fn summary(v: Verdict<'_>) -> (bool, Option<(RuleKind, u32, String)>) {
    (
        v.allowed(),
        v.decided_by()
            .map(|r| (r.kind(), r.line(), r.pattern().to_owned())),
    )
}

/// Reference matcher, by dynamic programming over (pattern position, path position):
/// `*` matches any run of octets, a `$` that ends the pattern anchors the end of the
/// path, any other octet (a `$` inside too) matches itself, and the pattern need only
/// match a prefix of the path.
fn reference_matches(pattern: &[u8], path: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    // reach[j]: the pattern read so far can end exactly after path[..j].
    let mut reach = vec![false; path.len() + 1];
    reach[0] = true;
    for &p in pattern {
        let mut next = vec![false; path.len() + 1];
        if p == b'*' {
            let mut any = false;
            for j in 0..=path.len() {
                any |= reach[j];
                next[j] = any;
            }
        } else {
            for j in 0..path.len() {
                next[j + 1] = reach[j] && path[j] == p;
            }
        }
        reach = next;
    }
    if anchored {
        reach[path.len()]
    } else {
        reach.iter().any(|&r| r)
    }
}

#[test]
fn reference_matcher_reads_patterns_as_documented() {
    assert!(reference_matches(b"/fish", b"/fish.html"));
    assert!(!reference_matches(b"/fish", b"/Fish"));
    assert!(reference_matches(b"/*.php$", b"/a/b.php"));
    assert!(!reference_matches(b"/*.php$", b"/a/b.php?x"));
    assert!(reference_matches(b"/a$b", b"/a$bc"));
    assert!(!reference_matches(b"/a*b*b$", b"/ab"));
    assert!(reference_matches(b"", b"/"));
    assert!(!reference_matches(b"$", b"/"));
}

// ---------------------------------------------------------------------------------------
// Generators

/// A value that mixes the characters that matter to parsing and matching with others.
fn value() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        "[ -~]{0,24}".prop_map(String::into_bytes),
        "(/|\\*|\\$|%[0-9a-fA-F]{2}|%|\\?|[a-c]|=|&|ß| |\t){0,12}".prop_map(String::into_bytes),
        proptest::collection::vec(any::<u8>(), 0..16),
    ]
}

/// One line of a robots.txt without its line ending (never holds CR or LF).
fn line() -> impl Strategy<Value = Vec<u8>> {
    const KEYS: &[&str] = &[
        "User-agent",
        "user-agent",
        "useragent",
        "Allow",
        "Disallow",
        "disallowed",
        "dissallow",
        "Sitemap",
        "Crawl-delay",
        "Request-rate",
        "Host",
        "Archive-Embargo",
        "Embargo-Allow",
        "Content-Signal",
        "Content-Usage",
        "#",
        "",
    ];
    let key = prop_oneof![
        3 => proptest::sample::select(KEYS).prop_map(str::to_owned),
        1 => "[A-Za-z-]{1,10}",
    ];
    let agent = prop_oneof![
        Just(b"*".to_vec()),
        Just(b"ExampleBot".to_vec()),
        Just(b"examplebot/2.1".to_vec()),
        Just(b"MJ12bot".to_vec()),
    ];
    let separator = prop_oneof![Just(": "), Just(":"), Just(" "), Just(" : "), Just("")];
    (key, separator, prop_oneof![agent, value()], any::<bool>()).prop_map(
        |(key, sep, value, comment)| {
            let mut out = key.as_bytes().to_vec();
            out.extend_from_slice(sep.as_bytes());
            out.extend(value.into_iter().filter(|&b| b != b'\r' && b != b'\n'));
            if comment {
                out.extend_from_slice(b" # note");
            }
            out
        },
    )
}

fn lines() -> impl Strategy<Value = Vec<Vec<u8>>> {
    proptest::collection::vec(line(), 0..24)
}

fn join(lines: &[Vec<u8>], ending: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for l in lines {
        out.extend_from_slice(l);
        out.extend_from_slice(ending);
    }
    out
}

/// A robots.txt body: random bytes, or robots-like lines with mixed line endings.
fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..600),
        (
            lines(),
            proptest::collection::vec(prop_oneof![Just("\n"), Just("\r\n"), Just("\r")], 24)
        )
            .prop_map(|(lines, endings)| {
                let mut out = b"\xEF\xBB\xBF".to_vec();
                for (l, e) in lines.iter().zip(endings) {
                    out.extend_from_slice(l);
                    out.extend_from_slice(e.as_bytes());
                }
                out
            }),
    ]
}

/// An agent name as a caller might give it, well-formed or not.
fn agent_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("ExampleBot".to_owned()),
        Just("MJ12bot".to_owned()),
        Just(String::new()),
        "[A-Za-z0-9_./ ;()-]{0,24}",
        "\\PC{0,8}",
    ]
}

/// A URL or path, well-formed or not.
fn url() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        "(https?://[a-z.]{1,10}(:[0-9]{1,4})?)?(/|\\?|;|#|%[0-9a-fA-F]{2}|[a-c]|\\*|\\$|:|@|=){0,16}"
            .prop_map(String::into_bytes),
        proptest::collection::vec(any::<u8>(), 0..40),
    ]
}

/// A path over the characters that matching treats specially, starting with one `/`.
fn small_path() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![Just(b'a'), Just(b'b'), Just(b'/'), Just(b'$')],
        0..12,
    )
    .prop_map(|rest| {
        // `//…` would be a network-path reference (`//host/path`), not a path.
        let mut path = vec![b'/'];
        if rest.first() == Some(&b'/') {
            path.push(b'a');
        }
        path.extend(rest);
        path
    })
}

/// A pattern over the same characters plus `*`, usually starting with `/`.
fn small_pattern() -> impl Strategy<Value = Vec<u8>> {
    (
        prop_oneof![Just(&b"/"[..]), Just(&b"*"[..]), Just(&b""[..])],
        proptest::collection::vec(
            prop_oneof![Just(b'a'), Just(b'b'), Just(b'/'), Just(b'*'), Just(b'$')],
            0..8,
        ),
    )
        .prop_map(|(start, rest)| {
            let mut pattern = start.to_vec();
            pattern.extend(rest);
            pattern
        })
}

/// A non-empty pattern over `a`, `b`, `/` and `*`, which normalising leaves alone in both
/// profiles, sometimes ending in `$`: its length is its specificity.
fn decider_pattern() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("/"), Just("*"), Just("/a")],
        proptest::collection::vec(
            prop_oneof![Just('a'), Just('b'), Just('/'), Just('*')],
            0..5,
        ),
        any::<bool>(),
    )
        .prop_map(|(start, rest, dollar)| {
            let mut pattern: String = start.to_owned();
            pattern.extend(rest);
            if dollar {
                pattern.push('$');
            }
            pattern
        })
}

// ---------------------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        // Failures are reported with their minimal input; nothing is written to the tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Any bytes parse and check without panicking, in both profiles, for any agent and
    /// URL; whatever a verdict names is a line of the file, and only a disallow rule can
    /// refuse a URL.
    #[test]
    fn never_panics_on_random_input(
        body in body(),
        name in agent_name(),
        url in url(),
        embargo in any::<bool>(),
        unlimited in any::<bool>(),
    ) {
        let mut agents = vec![Agent::verbatim(&name)];
        agents.extend(Agent::new(&name).ok());
        agents.extend(Agent::from_user_agent(&name).ok());
        for profile in PROFILES {
            let mut options = Options::new().profile(profile);
            if unlimited {
                options = options.max_bytes(usize::MAX).unwrap();
            }
            let robots = Robots::parse_with(&body, options);
            let lines = robots.line_count();
            for agent in &agents {
                let agent = if embargo { agent.clone().honouring_embargo() } else { agent.clone() };
                let v = robots.check_bytes(&agent, &url);
                if let Some(rule) = v.decided_by() {
                    prop_assert!(rule.line() >= 1 && rule.line() <= lines);
                }
                if !v.allowed() {
                    prop_assert_eq!(v.decided_by().map(|r| r.kind()), Some(RuleKind::Disallow));
                }
                // An explanation gives the check's verdict, and lists the rule that decided
                // among those that match.
                let e = robots.explain_bytes(&agent, &url);
                let decider = v.decided_by().map(|r| r.line());
                prop_assert_eq!((e.verdict.allowed(), e.verdict.decided_by().map(|r| r.line())), (v.allowed(), decider));
                if let Some(line) = decider {
                    prop_assert!(e.matches.iter().any(|m| m.rule.line() == line));
                }
                let chosen = robots.group_for(&agent);
                let _ = (chosen.crawl_delay(), chosen.request_rate(), chosen.embargo());
                // attach-05 §3.1: a disallowed URL has no preferences; what a rule gives
                // names a line of the file.
                let usage = robots.content_usage_bytes(&agent, &url);
                if !v.allowed() {
                    prop_assert!(usage.is_none());
                }
                if let Some(u) = usage {
                    prop_assert!(u.line() >= 1 && u.line() <= lines);
                }
                if let Some(s) = robots.content_signal(&agent) {
                    prop_assert!(s.line() >= 1 && s.line() <= lines);
                }
            }
            for d in robots.diagnostics() {
                prop_assert!(d.span.end <= body.len() && d.span.start <= d.span.end);
                prop_assert!(d.line <= lines.max(1));
            }
            for r in robots.records() {
                prop_assert!(r.line() >= 1 && r.line() <= lines);
                let _ = (r.key(), r.value(), r.group().map(|g| g.index()));
            }
            let mut grouped = 0;
            for g in robots.groups() {
                for rule in g.rules() {
                    prop_assert!(rule.line() >= 1 && rule.line() <= lines);
                }
                for r in g.records() {
                    prop_assert_eq!(r.group().map(|of| of.index()), Some(g.index()));
                    grouped += 1;
                }
                let _ = (g.agent_lines().count(), g.crawl_delay(), g.embargo());
            }
            // Each record in a group is listed by that group, and only by it.
            prop_assert_eq!(grouped, robots.records().filter(|r| r.group().is_some()).count());
            let _ = (robots.sitemaps().count(), robots.host());
        }
    }

    /// `Tokens` reads the lines the parse reads: its user-agent lines are the groups'
    /// agent lines, its rule lines after the first user-agent line are the groups'
    /// rules, and its other lines are the records, with the same keys and values.
    #[test]
    fn tokens_are_the_lines_the_parse_reads(body in body(), unlimited in any::<bool>()) {
        for profile in PROFILES {
            let mut options = Options::new().profile(profile);
            if unlimited {
                options = options.max_bytes(usize::MAX).unwrap();
            }
            let robots = Robots::parse_with(&body, options);
            let tokens: Vec<Token<'_>> = Tokens::new(&body, options).collect();
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            let of = |wanted: &[Directive]| -> Vec<u32> {
                tokens.iter().filter(|t| wanted.contains(&t.directive)).map(|t| t.line).collect()
            };
            let agents = of(&[Directive::UserAgent]);
            let parsed_agents: Vec<u32> =
                robots.groups().flat_map(|g| g.agent_lines().map(|(_, l)| l).collect::<Vec<_>>()).collect();
            prop_assert_eq!(&parsed_agents, &agents);

            let first_agent = agents.first().copied().unwrap_or(u32::MAX);
            let mut rules: Vec<u32> = of(&[Directive::Allow, Directive::Disallow, Directive::EmbargoAllow]);
            rules.retain(|&l| l > first_agent);
            let mut parsed_rules: Vec<u32> =
                robots.groups().flat_map(|g| g.rules().map(|r| r.line()).collect::<Vec<_>>()).collect();
            parsed_rules.sort_unstable();
            // Google's `Allow: /d/index.html` adds a second rule on its line.
            parsed_rules.dedup();
            prop_assert_eq!(parsed_rules, rules);

            let records: Vec<(u32, Directive, String, String)> = tokens
                .iter()
                .filter(|t| !matches!(
                    t.directive,
                    Directive::UserAgent | Directive::Allow | Directive::Disallow
                        | Directive::EmbargoAllow | Directive::ArchiveEmbargo
                ))
                .map(|t| (t.line, t.directive, text(t.key), text(t.value)))
                .collect();
            let parsed_records: Vec<(u32, Directive, String, String)> = robots
                .records()
                .map(|r| (r.line(), r.directive(), r.key().to_owned(), r.value().to_owned()))
                .collect();
            prop_assert_eq!(parsed_records, records);
            for t in &tokens {
                prop_assert_eq!(&body[t.value_at..t.value_at + t.value.len()], t.value);
                prop_assert!(t.line >= 1 && t.line <= robots.line_count());
            }
        }
    }

    /// The same lines ended by LF, CRLF or CR give the same line count, the same
    /// groups, the same diagnostics (by code and line) and the same verdicts with the
    /// same deciding lines.
    #[test]
    fn line_endings_do_not_change_anything(
        lines in lines(),
        paths in proptest::collection::vec(url(), 1..6),
        name in prop_oneof![Just("ExampleBot"), Just("MJ12bot"), Just("OtherBot")],
    ) {
        let agent = Agent::new(name).unwrap().honouring_embargo();
        for profile in PROFILES {
            let parses: Vec<Robots> = [&b"\n"[..], b"\r\n", b"\r"]
                .iter()
                .map(|ending| parse(&join(&lines, ending), profile))
                .collect();
            let diagnostics = |r: &Robots| -> Vec<(Code, u32)> {
                r.diagnostics().iter().map(|d| (d.code, d.line)).collect()
            };
            let groups = |r: &Robots| -> Vec<Vec<(String, u32)>> {
                r.groups()
                    .map(|g| g.agent_lines().map(|(a, l)| (a.to_owned(), l)).collect())
                    .collect()
            };
            let lf = &parses[0];
            for other in &parses[1..] {
                prop_assert_eq!(lf.line_count(), other.line_count());
                prop_assert_eq!(diagnostics(lf), diagnostics(other));
                prop_assert_eq!(groups(lf), groups(other));
                prop_assert_eq!(
                    lf.sitemaps().collect::<Vec<_>>(),
                    other.sitemaps().collect::<Vec<_>>()
                );
                for path in &paths {
                    prop_assert_eq!(
                        summary(lf.check_bytes(&agent, path)),
                        summary(other.check_bytes(&agent, path))
                    );
                }
            }
        }
    }

    /// A single `Disallow` decides exactly where the reference matcher says its pattern
    /// matches (a non-empty pattern; an empty one never disallows), in both profiles.
    #[test]
    fn disallow_matches_like_the_reference(pattern in small_pattern(), path in small_path()) {
        let mut body = b"User-agent: *\nDisallow: ".to_vec();
        body.extend_from_slice(&pattern);
        let agent = Agent::new("ExampleBot").unwrap();
        let expected = !pattern.is_empty() && reference_matches(&pattern, &path);
        for profile in PROFILES {
            let robots = parse(&body, profile);
            let v = robots.check_bytes(&agent, &path);
            prop_assert_eq!(
                !v.allowed(), expected,
                "{:?} profile, pattern {:?}, path {:?}",
                profile, String::from_utf8_lossy(&pattern), String::from_utf8_lossy(&path)
            );
            if expected {
                prop_assert_eq!(v.decided_by().map(|r| r.line()), Some(2));
            }
        }
    }

    /// An `Allow` under `Disallow: /` lets a path through exactly where the reference
    /// matcher says its (non-empty) pattern matches: any match is at least as long as `/`,
    /// and an allow wins a tie.
    #[test]
    fn allow_matches_like_the_reference(pattern in small_pattern(), path in small_path()) {
        let mut body = b"User-agent: ExampleBot\nDisallow: /\nAllow: ".to_vec();
        body.extend_from_slice(&pattern);
        let agent = Agent::new("ExampleBot").unwrap();
        let expected = !pattern.is_empty() && reference_matches(&pattern, &path);
        for profile in PROFILES {
            let robots = parse(&body, profile);
            let v = robots.check_bytes(&agent, &path);
            prop_assert_eq!(
                v.allowed(), expected,
                "{:?} profile, pattern {:?}, path {:?}",
                profile, String::from_utf8_lossy(&pattern), String::from_utf8_lossy(&path)
            );
            let line = v.decided_by().map(|r| r.line());
            prop_assert_eq!(line, Some(if expected { 3 } else { 2 }));
        }
    }

    /// Over groups merged for a crawler (those naming it, else the `*` ones), the rule
    /// that decides is the reference's: among the rules that match, the longest pattern
    /// (a final `$` counted), an allow at equal length (which then won a tie if a
    /// disallow as long matched too), else the earlier line; no match allows.
    #[test]
    fn merged_groups_decide_like_the_reference(
        groups in proptest::collection::vec(
            (
                0usize..3,
                proptest::collection::vec((any::<bool>(), decider_pattern()), 1..6),
            ),
            1..5,
        ),
        path in small_path(),
    ) {
        const NAMES: [&str; 3] = ["*", "ExampleBot", "OtherBot"];
        let mut body = String::new();
        // Each rule with its line, kind and pattern, by group.
        let mut rules = Vec::new();
        let mut line = 0u32;
        for (name, group) in &groups {
            body.push_str(&format!("User-agent: {}\n", NAMES[*name]));
            line += 1;
            for (allow, pattern) in group {
                let kind = if *allow { "Allow" } else { "Disallow" };
                body.push_str(&format!("{kind}: {pattern}\n"));
                line += 1;
                rules.push((*name, line, *allow, pattern.clone()));
            }
        }
        let named = rules.iter().any(|&(name, ..)| name == 1);
        let chosen = |name: usize| if named { name == 1 } else { name == 0 };
        let matching: Vec<_> = rules
            .iter()
            .filter(|(name, .., pattern)| {
                chosen(*name) && reference_matches(pattern.as_bytes(), &path)
            })
            .collect();
        let best = matching
            .iter()
            .max_by_key(|&&(_, line, allow, pattern)| {
                (pattern.len(), *allow, std::cmp::Reverse(*line))
            });
        let agent = Agent::new("ExampleBot").unwrap();
        for profile in PROFILES {
            let robots = parse(body.as_bytes(), profile);
            let v = robots.check_bytes(&agent, &path);
            let context = format!("{profile:?}\n{body}path {}", String::from_utf8_lossy(&path));
            prop_assert_eq!(v.decided_by().map(|r| r.line()), best.map(|b| b.1), "{}", context);
            prop_assert_eq!(v.allowed(), best.is_none_or(|b| b.2), "{}", context);
            let tie = best.is_some_and(|&&(_, _, allow, ref pattern)| {
                allow && matching.iter().any(|m| !m.2 && m.3.len() == pattern.len())
            });
            prop_assert_eq!(v.reason() == robots::Reason::TieWonByAllow, tie, "{}", context);
        }
    }

    /// RFC 9309 profile: writing unreserved characters as `%xx` escapes (either hex case),
    /// in the path, the pattern or both, never changes the verdict or the deciding line.
    #[test]
    fn rfc_unreserved_escapes_equal_their_characters(
        rules in proptest::collection::vec(
            (any::<bool>(), "[/a-zA-Z0-9._~*-]{0,10}\\$?", any::<u64>()), 1..5),
        path in "/[a-zA-Z0-9._~/?=&-]{0,16}",
        path_seed in any::<u64>(),
    ) {
        let agent = Agent::new("ExampleBot").unwrap();
        let mut plain = b"User-agent: *\n".to_vec();
        let mut escaped = plain.clone();
        for (allow, pattern, seed) in &rules {
            let key = if *allow { "Allow: " } else { "Disallow: " };
            plain.extend_from_slice(format!("{key}{pattern}\n").as_bytes());
            escaped.extend_from_slice(format!("{key}{}\n", escape_some(pattern, *seed)).as_bytes());
        }
        let escaped_path = escape_some(&path, path_seed);
        let plain = parse(&plain, Profile::Rfc9309);
        let escaped = parse(&escaped, Profile::Rfc9309);
        let expected = plain.check(&agent, &path);
        let lines = |v: Verdict<'_>| (v.allowed(), v.decided_by().map(|r| r.line()));
        prop_assert_eq!(lines(plain.check(&agent, &escaped_path)), lines(expected));
        prop_assert_eq!(lines(escaped.check(&agent, &path)), lines(expected));
        prop_assert_eq!(lines(escaped.check(&agent, &escaped_path)), lines(expected));
    }

    /// `check` with an absolute URL and with its path-only form (path, params, query and
    /// fragment) gives the same verdict and deciding rule, in both profiles.
    #[test]
    fn url_and_path_forms_agree(
        lines in lines(),
        rules in proptest::collection::vec(
            (any::<bool>(), "[/*$a-c?=&%:@.]{0,10}"), 0..6),
        path in "/([a-c]|[?=&;:@.]|%[0-9a-fA-F]{2}|#|\\*|\\$|/a){0,14}",
        authority in prop_oneof![
            Just("https://example.com"),
            Just("http://user@example.com:8080"),
            Just("HTTPS://EXAMPLE.COM"),
            Just("//example.com"),
        ],
        name in prop_oneof![Just("ExampleBot"), Just("OtherBot")],
    ) {
        // Alone, `//a/b` is a network-path reference (host `a`), not the path `//a/b`.
        prop_assume!(!path.starts_with("//"));
        let mut body = join(&lines, b"\n");
        body.extend_from_slice(b"User-agent: ExampleBot\n");
        for (allow, pattern) in &rules {
            let key = if *allow { "Allow" } else { "Disallow" };
            body.extend_from_slice(format!("{key}: {pattern}\n").as_bytes());
        }
        let agent = Agent::new(name).unwrap();
        let url = format!("{authority}{path}");
        for profile in PROFILES {
            let robots = parse(&body, profile);
            prop_assert_eq!(
                summary(robots.check(&agent, &url)),
                summary(robots.check(&agent, &path)),
                "{:?} profile, {} vs {}", profile, url, path
            );
        }
    }

    /// A check through the index ([`Robots::index`]) gives the verdict the scan of
    /// [`Robots::check_bytes`] gives, whole (rule, reason, embargo), in both profiles,
    /// for named and `*` groups, embargoes and Embargo-Allow lines, and paths the rules
    /// name as well as random ones.
    #[test]
    fn the_index_decides_as_the_scan_does(
        lines in lines(),
        groups in proptest::collection::vec(
            (
                proptest::sample::select(&["*", "ExampleBot", "OtherBot"][..]),
                any::<bool>(),
                proptest::collection::vec(
                    (0..3u8, prop_oneof![small_pattern(), value()]),
                    0..8,
                ),
            ),
            0..4,
        ),
        urls in proptest::collection::vec(url(), 0..6),
        name in prop_oneof![Just("ExampleBot"), Just("OtherBot"), Just("ThirdBot")],
    ) {
        let mut body = join(&lines, b"\n");
        let mut paths = urls;
        for (agent, embargo, rules) in &groups {
            body.extend_from_slice(format!("User-agent: {agent}\n").as_bytes());
            if *embargo {
                body.extend_from_slice(b"Archive-Embargo: 30\n");
            }
            for (kind, pattern) in rules {
                let key = ["Allow", "Disallow", "Embargo-Allow"][usize::from(*kind)];
                let pattern: Vec<u8> =
                    pattern.iter().copied().filter(|&b| b != b'\r' && b != b'\n').collect();
                body.extend_from_slice(format!("{key}: ").as_bytes());
                body.extend_from_slice(&pattern);
                body.push(b'\n');
                // The path the rule names, and one longer.
                let path: Vec<u8> = pattern.iter().copied().filter(|&b| b != b'*').collect();
                paths.push([&path[..], b"a"].concat());
                paths.push(path);
            }
        }
        let agent = Agent::new(name).unwrap();
        let agents = [agent.clone(), agent.honouring_embargo()];
        for profile in PROFILES {
            let robots = parse(&body, profile);
            let index = robots.index();
            for agent in &agents {
                for path in &paths {
                    prop_assert_eq!(
                        index.check_bytes(agent, path),
                        robots.check_bytes(agent, path),
                        "{:?} profile, {:?}", profile, String::from_utf8_lossy(path)
                    );
                }
            }
        }
    }
}

/// `text` with some unreserved characters (chosen by the bits of `seed`) written as
/// `%xx`, upper- or lower-case hex.
fn escape_some(text: &str, seed: u64) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        let unreserved = c.is_ascii_alphanumeric() || "-._~".contains(c);
        if unreserved && seed >> (i % 32) & 1 == 1 {
            let escape = format!("%{:02X}", c as u32);
            if seed >> (32 + i % 32) & 1 == 1 {
                out.push_str(&escape.to_ascii_lowercase());
            } else {
                out.push_str(&escape);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A pattern of many wildcards against a 10 KB path, the case that makes backtracking
/// matchers take exponential time: the verdicts agree with the reference matcher, and
/// checking many times finishes within the test's ordinary run (a matcher that
/// backtracked would not finish at all). No timing is asserted.
#[test]
fn pathological_wildcards_match_like_the_reference_and_stay_linear() {
    let body = b"User-agent: *\n\
        Disallow: /*a*a*a*a*a*a*a*a*b\n\
        Allow: /*a*a*a*a*a*a*a*a*a*a*c$\n\
        Disallow: /x";
    let agent = Agent::new("ExampleBot").unwrap();
    let mut no_b = vec![b'/'];
    no_b.extend(std::iter::repeat_n(b'a', 10_240));
    let mut ends_b = no_b.clone();
    *ends_b.last_mut().unwrap() = b'b';
    let mut ends_c = no_b.clone();
    ends_c.push(b'c');
    let mut ends_cd = ends_c.clone();
    ends_cd.push(b'd');
    let cases: [(&[u8], bool); 4] = [
        (&no_b, true),
        (&ends_b, false),
        (&ends_c, true),
        (&ends_cd, true),
    ];
    for (path, allowed) in cases {
        assert_eq!(
            reference_matches(b"/*a*a*a*a*a*a*a*a*b", path),
            !allowed,
            "the reference matcher disagrees with the expectation"
        );
    }
    for profile in PROFILES {
        let robots = parse(body, profile);
        for _ in 0..500 {
            for (path, allowed) in cases {
                let v = robots.check_bytes(&agent, path);
                assert_eq!(v.allowed(), allowed, "{profile:?}, path of {}", path.len());
            }
        }
        let v = robots.check_bytes(&agent, &ends_c);
        assert_eq!(v.decided_by().map(|r| r.line()), Some(3));
    }
}
