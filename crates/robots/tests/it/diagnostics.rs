//! Every diagnostic code, with a file that triggers it and a corrected file that does
//! not; plus the lint over the whole shared corpus (no panic, most common codes).

use crate::common;

use std::collections::BTreeMap;

use robots::{Code, Options, Profile, Robots};

/// (code, a file that triggers it, the same intent written so that it does not).
const CASES: &[(Code, &[u8], &[u8])] = &[
    (
        Code::UnknownDirective,
        b"User-agent: *\nDisalow-all: /\n",
        b"User-agent: *\nDisallow: /\n",
    ),
    (
        Code::MisspeltDirective,
        b"User-agent: *\nDissallow: /p\n",
        b"User-agent: *\nDisallow: /p\n",
    ),
    (
        Code::PrefixDirective,
        b"User-agent: *\nDisallowed: /p\n",
        b"User-agent: *\nDisallow: /p\n",
    ),
    (
        Code::MissingColon,
        b"User-agent: *\nDisallow /p\n",
        b"User-agent: *\nDisallow: /p\n",
    ),
    (
        Code::JunkLine,
        b"User-agent: *\nDisallow the lot\n",
        b"User-agent: *\n# Disallow the lot\n",
    ),
    (
        Code::RuleBeforeUserAgent,
        b"Disallow: /p\nUser-agent: *\n",
        b"User-agent: *\nDisallow: /p\n",
    ),
    (
        Code::PatternStart,
        b"User-agent: *\nDisallow: private\n",
        b"User-agent: *\nDisallow: /private\n",
    ),
    (
        Code::DollarInside,
        b"User-agent: *\nDisallow: /a$b\n",
        b"User-agent: *\nDisallow: /a%24b\n",
    ),
    (
        Code::InvalidEmbargo,
        b"User-agent: *\nArchive-Embargo: week\n",
        b"User-agent: *\nArchive-Embargo: w\n",
    ),
    (
        Code::ConflictingEmbargo,
        b"User-agent: *\nArchive-Embargo: w\nArchive-Embargo: q\n",
        b"User-agent: *\nArchive-Embargo: q\n",
    ),
    (
        Code::EmbargoAllowWithoutEmbargo,
        b"User-agent: *\nEmbargo-Allow: /news\n",
        b"User-agent: *\nArchive-Embargo: m\nEmbargo-Allow: /news\n",
    ),
    (
        Code::InvalidCrawlDelay,
        b"User-agent: *\nCrawl-delay: 5s\n",
        b"User-agent: *\nCrawl-delay: 5\n",
    ),
    (
        Code::InvalidRequestRate,
        b"User-agent: *\nRequest-rate: fast\n",
        b"User-agent: *\nRequest-rate: 1/5s\n",
    ),
    (
        Code::RelativeSitemap,
        b"Sitemap: /sitemap.xml\n",
        b"Sitemap: https://example.com/sitemap.xml\n",
    ),
    (
        Code::AgentWithVersion,
        b"User-agent: ExampleBot/2.1\nDisallow: /\n",
        b"User-agent: ExampleBot\nDisallow: /\n",
    ),
    (
        Code::AgentWithWildcard,
        b"User-agent: Mediapartners-Google*\nAllow: /\n",
        b"User-agent: Mediapartners-Google\nAllow: /\n",
    ),
    (
        Code::AgentNotRfc9309,
        b"User-agent: MJ12bot\nDisallow: /\n",
        b"User-agent: MJbot\nDisallow: /\n",
    ),
    (
        Code::AgentNamesNone,
        b"User-agent:\nDisallow: /\n",
        b"User-agent: *\nDisallow: /\n",
    ),
    (
        Code::AgentNamesNone,
        b"User-agent: /1.0\nDisallow: /\n",
        b"User-agent: ExampleBot/1.0\nDisallow: /\n",
    ),
    (
        Code::ShadowedRule,
        b"User-agent: *\nDisallow: /a\nAllow: /a\n",
        b"User-agent: *\nDisallow: /a\nAllow: /a/b\n",
    ),
    (
        Code::BlankLineBetweenGroups,
        b"User-agent: a\n\nUser-agent: b\nDisallow: /\n",
        b"User-agent: a\nAllow: /\n\nUser-agent: b\nDisallow: /\n",
    ),
    (
        Code::ByteOrderMark,
        b"\xEF\xBB\xBFUser-agent: *\nDisallow: /\n",
        b"User-agent: *\nDisallow: /\n",
    ),
    (
        Code::NotUtf8,
        b"User-agent: *\nDisallow: /caf\xE9\n",
        b"User-agent: *\nDisallow: /caf\xC3\xA9\n",
    ),
    (
        Code::GarbledByteOrderMark,
        b"\xC3\xAF\xC2\xBB\xC2\xBFUser-agent: *\nDisallow: /\n",
        b"\xEF\xBB\xBFUser-agent: *\nDisallow: /\n",
    ),
    (
        Code::IndexingRule,
        b"User-agent: *\nNoindex: /drafts/\n",
        b"User-agent: *\nDisallow: /drafts/\n",
    ),
    (
        Code::GroupWithoutRules,
        b"User-agent: *\nDisallow: /private/\n\nUser-agent: bingbot\nCrawl-delay: 5\n",
        b"User-agent: *\nDisallow: /private/\n\nUser-agent: bingbot\nCrawl-delay: 5\nDisallow: /private/\n",
    ),
    // The Archive-Embargo draft: a group of embargo lines alone frees its crawlers from `*`.
    (
        Code::EmbargoOnlyGroup,
        b"User-agent: *\nDisallow: /private/\n\nUser-agent: ia_archiver\nArchive-Embargo: m\nEmbargo-Allow: /news/\n",
        b"User-agent: *\nDisallow: /private/\n\nUser-agent: ia_archiver\nArchive-Embargo: m\nEmbargo-Allow: /news/\nDisallow: /private/\n",
    ),
    // vocab-07 §6.5.1 / RFC 9651 §4.2.2: a trailing comma fails the Dictionary.
    (
        Code::MalformedContentUsage,
        b"User-agent: *\nContent-Usage: train-ai=n,\n",
        b"User-agent: *\nContent-Usage: train-ai=n\n",
    ),
    // vocab-07 §6.5.1: "keys include uppercase characters".
    (
        Code::UppercaseUsageKey,
        b"User-agent: *\nContent-Usage: /docs/ Train-AI=n\n",
        b"User-agent: *\nContent-Usage: /docs/ train-ai=n\n",
    ),
    // vocab-07 §6.1 defines train-ai and search; §6.4 ignores other labels.
    (
        Code::UnknownUsageCategory,
        b"User-agent: *\nContent-Usage: ai-train=n\n",
        b"User-agent: *\nContent-Usage: train-ai=n\n",
    ),
    (
        Code::PreferenceOutsideGroup,
        b"Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n",
        b"User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n",
    ),
    (
        Code::PreferenceOutsideGroup,
        b"Content-Signal: ai-train=no\nUser-agent: *\nAllow: /\n",
        b"User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n",
    ),
    // contentsignals.org: the values are yes and no.
    (
        Code::InvalidContentSignal,
        b"User-agent: *\nContent-Signal: search=yes, ai-train=n\nAllow: /\n",
        b"User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n",
    ),
    (
        Code::InvalidContentSignal,
        b"User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n",
        b"User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n",
    ),
    (
        Code::LooksLikeHtml,
        b"<!DOCTYPE html>\n<html><body>Not found</body></html>\n",
        b"User-agent: *\nDisallow:\n",
    ),
];

fn codes(file: &[u8]) -> Vec<Code> {
    Robots::parse(file)
        .lint(file)
        .iter()
        .map(|d| d.code)
        .collect()
}

#[test]
fn each_code_has_a_trigger_and_a_fix() {
    for &(code, bad, good) in CASES {
        let found = codes(bad);
        assert!(
            found.contains(&code),
            "{code:?} not raised by {:?}: {found:?}",
            String::from_utf8_lossy(bad)
        );
        assert!(
            !codes(good).contains(&code),
            "{code:?} raised by the fixed file {:?}",
            String::from_utf8_lossy(good)
        );
    }
}

#[test]
fn every_code_is_covered_and_names_are_stable() {
    for code in Code::ALL {
        assert!(
            CASES.iter().any(|c| c.0 == *code) || *code == Code::BeyondParseLimit,
            "{code:?} has no test case"
        );
        assert!(code
            .as_str()
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit()));
    }
}

/// The unknown-directive diagnostics of `file` in `profile`: (message, suggestion).
fn unknown(file: &[u8], profile: Profile) -> Vec<(String, Option<String>)> {
    Robots::parse_with(file, Options::new().profile(profile))
        .lint(file)
        .into_iter()
        .filter(|d| d.code == Code::UnknownDirective)
        .map(|d| (d.message.into_owned(), d.suggestion.map(|s| s.into_owned())))
        .collect()
}

#[test]
fn did_you_mean_suggests_only_other_directives_the_profile_reads() {
    let embargo = b"User-agent: *\nArchive-Embargo: m\nEmbargo-Allow: /news/\n";
    assert_eq!(unknown(embargo, Profile::Rfc9309), []);
    let google = unknown(embargo, Profile::Google);
    assert_eq!(google.len(), 2);
    for (message, suggestion) in &google {
        assert!(
            message.contains("Google's matcher does not know"),
            "{message}"
        );
        let suggestion = suggestion.as_deref().unwrap();
        assert!(!suggestion.contains("did you mean"), "{suggestion}");
        assert!(suggestion.contains("RFC 9309 profile"), "{suggestion}");
    }
    assert!(google[0]
        .0
        .starts_with("`archive-embargo` is an Archive-Embargo rule"));

    let typo = b"User-agent: *\nArchive-Embargoo: m\nCrawl-dealy: 5\n";
    let did_you_mean = |profile| -> Vec<Option<String>> {
        unknown(typo, profile).into_iter().map(|(_, s)| s).collect()
    };
    assert_eq!(
        did_you_mean(Profile::Rfc9309),
        [
            Some("did you mean `archive-embargo`?".to_owned()),
            Some("did you mean `crawl-delay`?".to_owned())
        ]
    );
    // Google's reading knows no embargo rule to suggest.
    assert_eq!(
        did_you_mean(Profile::Google),
        [None, Some("did you mean `crawl-delay`?".to_owned())]
    );
}

#[test]
fn diagnostics_point_at_line_and_column() {
    let file = b"User-agent: *\nDisallow: /a\n  Crawl-delay: soon\n";
    let d = &Robots::parse(file).lint(file)[0];
    assert_eq!((d.code, d.line, d.column), (Code::InvalidCrawlDelay, 3, 16));
    assert!(d.suggestion.is_some());
}

#[test]
fn content_beyond_the_limit_is_reported() {
    let mut file = b"User-agent: *\n".to_vec();
    file.resize(600_000, b'#');
    assert!(codes(&file).contains(&Code::BeyondParseLimit));
    let all = Robots::parse_with(&file, Options::new().max_bytes(usize::MAX).unwrap());
    assert!(all
        .lint(&file)
        .iter()
        .all(|d| d.code != Code::BeyondParseLimit));
}

#[test]
fn beyond_the_limit_says_how_far_past_and_how_much_is_ignored() {
    let limit = robots::MIN_PARSE_LIMIT;
    // Line 4, `Disallow: /b`, starts 5 bytes before the limit: the file goes 8 bytes
    // past it, and the whole line, 13 bytes with its end, is ignored.
    let mut file = b"User-agent: *\nDisallow: /a\n".to_vec();
    file.resize(limit - 6, b'#');
    file.extend_from_slice(b"\nDisallow: /b\n");
    assert_eq!(file.len(), limit + 8);
    let beyond = |file: &[u8]| {
        Robots::parse(file)
            .lint(file)
            .into_iter()
            .find(|d| d.code == Code::BeyondParseLimit)
            .unwrap()
    };
    let d = beyond(&file);
    assert_eq!(d.line, 4);
    assert_eq!(
        d.message,
        "the file goes 8 bytes past the parse limit of 512000 bytes: its last 13 bytes, \
         from line 4 on, are ignored (the limit cuts line 4, which is dropped whole rather \
         than read half-written)"
    );
    // A limit that falls at a line's end cuts nothing: what is past it is what is
    // ignored, and the file's last line ending alone is nothing.
    file.truncate(limit - 5);
    file.extend_from_slice(b"# xxx\n");
    assert!(codes(&file).iter().all(|&c| c != Code::BeyondParseLimit));
    file.extend_from_slice(b"Allow: /c");
    let d = beyond(&file);
    assert_eq!(d.line, 5);
    assert_eq!(
        d.message,
        "the file goes 10 bytes past the parse limit of 512000 bytes: its last 10 bytes, \
         from line 5 on, are ignored"
    );
}

/// The diagnostics of `file` in `profile` with code `code`.
fn found(file: &[u8], profile: Profile, code: Code) -> Vec<robots::Diagnostic> {
    Robots::parse_with(file, Options::new().profile(profile))
        .lint(file)
        .into_iter()
        .filter(|d| d.code == code)
        .collect()
}

#[test]
fn google_profile_reports_versions_not_names_it_reads_short() {
    // Google's matcher reads `MJ` of `MJ12bot`, in the file and in the crawler's name
    // alike: the line is right as written, and `User-agent: MJ` would be no fix.
    for name in ["MJ12bot", "W3C-checklink", "archive.org_bot"] {
        let file = format!("User-agent: {name}\nDisallow: /\n");
        let google = found(file.as_bytes(), Profile::Google, Code::AgentWithVersion);
        assert!(google.is_empty(), "{name}: {google:?}");
    }
    let file = b"User-agent: MJ12bot/1.4\nDisallow: /\n";
    for profile in [Profile::Rfc9309, Profile::Google] {
        let d = &found(file, profile, Code::AgentWithVersion)[0];
        assert_eq!(
            d.message,
            "only `MJ12bot` of `MJ12bot/1.4` names the crawler"
        );
        assert_eq!(d.suggestion.as_deref(), Some("write `User-agent: MJ12bot`"));
    }
}

/// A name with no leading [A-Za-z_-] letter (`008`, `**`) names no crawler for Google's
/// matcher; the message said so by quoting an empty name, "reads it as ``".
#[test]
fn rfc9309_profile_says_when_google_reads_no_name_from_an_agent() {
    let d = &found(
        b"User-agent: 008\nDisallow: /\n",
        Profile::Rfc9309,
        Code::AgentNotRfc9309,
    )[0];
    assert_eq!(
        d.message,
        "`008` has characters outside RFC 9309's [A-Za-z_-]; Google's matcher reads only leading [A-Za-z_-] letters, and it has none, so there it names no crawler"
    );
    let d = &found(
        b"User-agent: **\nDisallow: /\n",
        Profile::Rfc9309,
        Code::AgentWithWildcard,
    )[0];
    assert!(
        d.message.ends_with("Google's matcher reads only leading [A-Za-z_-] letters, and it has none, so there it names no crawler"),
        "{}",
        d.message
    );
    // A name Google does read a part of is still quoted.
    let d = &found(
        b"User-agent: MJ12bot\nDisallow: /\n",
        Profile::Rfc9309,
        Code::AgentNotRfc9309,
    )[0];
    assert!(
        d.message.ends_with("Google's matcher reads it as `MJ`"),
        "{}",
        d.message
    );
}

#[test]
fn request_rate_may_name_the_time_of_day_it_applies_in() {
    let file = b"User-agent: SeznamBot\nRequest-rate: 1/10s 1800-0900\n";
    assert!(found(file, Profile::Rfc9309, Code::InvalidRequestRate).is_empty());
    let file = b"User-agent: SeznamBot\nRequest-rate: 1/10s tonight\n";
    assert_eq!(
        found(file, Profile::Rfc9309, Code::InvalidRequestRate).len(),
        1
    );
}

#[test]
fn a_blank_line_before_the_same_crawler_again_changes_nothing() {
    let file = b"User-agent: *\n\nUser-agent: *\nDisallow: /x\n";
    assert!(found(file, Profile::Rfc9309, Code::BlankLineBetweenGroups).is_empty());
    let file = b"User-agent: ExampleBot\n\nUser-agent: examplebot\nDisallow: /x\n";
    assert!(found(file, Profile::Rfc9309, Code::BlankLineBetweenGroups).is_empty());
    // Another crawler above does get the rules below: still reported.
    let file = b"User-agent: a\nUser-agent: *\n\nUser-agent: *\nDisallow: /x\n";
    assert_eq!(
        found(file, Profile::Rfc9309, Code::BlankLineBetweenGroups).len(),
        1
    );
}

#[test]
fn a_pattern_that_is_a_url_is_told_to_become_a_path() {
    let file = b"User-agent: *\nDisallow: https://example.com/private/\n";
    for profile in [Profile::Rfc9309, Profile::Google] {
        let d = &found(file, profile, Code::PatternStart)[0];
        assert_eq!(
            d.message,
            "`https://example.com/private/` is a URL, but rules match paths only, so it matches nothing"
        );
        assert_eq!(
            d.suggestion.as_deref(),
            Some("write the path alone, `/private/`, in the robots.txt of `example.com`: each host has its own")
        );
    }
}

#[test]
fn a_url_alone_on_its_line_is_named_as_one() {
    let file = b"User-agent: *\nDisallow: /x\nhttps://example.com/sitemap.xml\n";
    let d = &found(file, Profile::Rfc9309, Code::UnknownDirective)[0];
    assert_eq!(
        d.message,
        "`https://example.com/sitemap.xml` is a URL with no key, and crawlers ignore it"
    );
    assert_eq!(
        d.suggestion.as_deref(),
        Some("if it is a sitemap, write `Sitemap: https://example.com/sitemap.xml`")
    );
}

/// docs/design.md, parsing: rules before the first user-agent line are ignored and reported;
/// they join no group, not even the one that follows them.
#[test]
fn rules_before_the_first_user_agent_are_ignored_and_reported() {
    let file = b"Disallow: /a\nArchive-Embargo: q\nUser-agent: *\nDisallow: /b\n";
    let robots = Robots::parse(file);
    let agent = robots::Agent::new("Bot").unwrap().honouring_embargo();
    let v = robots.check(&agent, "/a");
    assert!(v.allowed());
    assert_eq!(v.embargo(), None);
    assert!(!robots.check(&agent, "/b").allowed());
    let orphans: Vec<u32> = robots
        .diagnostics()
        .iter()
        .filter(|d| d.code == Code::RuleBeforeUserAgent)
        .map(|d| d.line)
        .collect();
    assert_eq!(orphans, [1, 2]);
}

#[test]
fn a_garbled_byte_order_mark_is_named_where_the_rules_it_orphans_are() {
    let file = b"\xC3\xAF\xC2\xBB\xC2\xBFUser-agent: *\nDisallow: /x\n";
    let all = Robots::parse(file).lint(file);
    assert_eq!(
        (all[0].code, all[0].line, all[0].span.clone()),
        (Code::GarbledByteOrderMark, 1, 0..6)
    );
    let orphan = all
        .iter()
        .find(|d| d.code == Code::RuleBeforeUserAgent)
        .unwrap();
    assert!(orphan
        .suggestion
        .as_deref()
        .unwrap()
        .starts_with("remove the garbled byte-order mark"));
}

#[test]
fn indexing_rules_say_what_to_use_instead() {
    let file = b"User-agent: *\nNoindex: /a\nNofollow: /b\nNoarchive: /c\n";
    let d = found(file, Profile::Google, Code::IndexingRule);
    assert_eq!(d.iter().map(|d| d.line).collect::<Vec<_>>(), [2, 3, 4]);
    assert!(d[0]
        .suggestion
        .as_deref()
        .unwrap()
        .contains("X-Robots-Tag: noindex"));
    assert!(d[1]
        .suggestion
        .as_deref()
        .unwrap()
        .contains("X-Robots-Tag: nofollow"));
    assert!(found(file, Profile::Rfc9309, Code::UnknownDirective).is_empty());
}

#[test]
fn a_group_without_rules_frees_its_crawler_only_when_it_has_no_other() {
    let star = "User-agent: *\nDisallow: /private/\n";
    let lines = |file: &str| -> Vec<u32> {
        found(file.as_bytes(), Profile::Rfc9309, Code::GroupWithoutRules)
            .iter()
            .map(|d| d.line)
            .collect()
    };
    // A crawler named last with nothing after it, and one given only a crawl-delay.
    assert_eq!(lines(&format!("{star}User-agent: a\n")), [3]);
    assert_eq!(
        lines(&format!(
            "{star}\nUser-agent: b\nUser-agent: c\nCrawl-delay: 9\n"
        )),
        [4]
    );
    // Before another group, the user-agent lines that follow join it (RFC 9309 §2.2.1:
    // only a rule ends a group), and its rules are theirs.
    assert!(lines(&format!("User-agent: b\nCrawl-delay: 9\n\n{star}")).is_empty());
    // Named again in a group with rules, given an explicit empty Disallow, or beside a
    // `*` group that disallows nothing: nothing to report.
    assert!(lines(&format!(
        "{star}User-agent: a\n\nUser-agent: A\nDisallow: /x\n"
    ))
    .is_empty());
    assert!(lines(&format!("{star}User-agent: a\nDisallow:\n")).is_empty());
    assert!(lines("User-agent: *\nDisallow:\nUser-agent: a\nCrawl-delay: 1\n").is_empty());
    let d = &found(
        format!("{star}User-agent: a\n").as_bytes(),
        Profile::Google,
        Code::GroupWithoutRules,
    )[0];
    assert_eq!(
        d.message,
        "`a` is named only by groups with no Allow or Disallow rule, so it obeys none of the rules of `User-agent: *` (line 1) and may crawl the whole site"
    );
    // A long list of crawlers left without their `Disallow: /` is one finding.
    let many: String = (0..5).map(|i| format!("User-agent: bot{i}\n")).collect();
    let d = found(
        format!("{star}{many}").as_bytes(),
        Profile::Rfc9309,
        Code::GroupWithoutRules,
    );
    assert_eq!(d.len(), 1);
    assert!(d[0]
        .message
        .starts_with("`bot0`, `bot1`, `bot2` and 2 more crawlers are named only by"));
}

#[test]
fn stars_for_a_user_agent_are_told_to_be_one_star() {
    let d = &found(
        b"User-agent: **\nDisallow: /\n",
        Profile::Rfc9309,
        Code::AgentWithWildcard,
    )[0];
    assert_eq!(
        d.suggestion.as_deref(),
        Some("write `User-agent: *` for every crawler")
    );
}

#[test]
fn a_utf16_file_is_named_as_one() {
    let file: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("User-agent: *\nDisallow: /\n".bytes().flat_map(|b| [b, 0]))
        .collect();
    let d = &found(&file, Profile::Rfc9309, Code::NotUtf8)[0];
    assert!(d.message.starts_with("the file is UTF-16"), "{}", d.message);
    // The finding names the byte-order mark, so it spans both octets, as its underline does.
    assert_eq!((d.line, d.column, d.span.clone()), (1, 1, 0..2));
    let big_endian = [0xFE, 0xFF, 0, b'U'];
    let d = &found(&big_endian, Profile::Rfc9309, Code::NotUtf8)[0];
    assert_eq!(
        (d.message.starts_with("the file is UTF-16"), d.span.clone()),
        (true, 0..2)
    );
    let d = &found(
        b"User-agent: *\nDisallow: /caf\xE9\n",
        Profile::Rfc9309,
        Code::NotUtf8,
    )[0];
    assert_eq!(d.message, "byte 0xE9 at offset 28 is not UTF-8");
    // Placed at the octet, as its span is, not at the start of its line.
    assert_eq!((d.line, d.column, d.span.clone()), (2, 15, 28..29));
    let d = &found(b"\xE9", Profile::Rfc9309, Code::NotUtf8)[0];
    assert_eq!((d.line, d.column, d.span.clone()), (1, 1, 0..1));
}

#[test]
fn a_literal_dollar_inside_a_path_is_information_not_a_warning() {
    // Lotus Notes and CMS paths hold `$`; Google reads it literally, and `%24` in its
    // place would match nothing there.
    let file = b"User-agent: *\nDisallow: /db.nsf/$FILE/\n";
    let d = &found(file, Profile::Google, Code::DollarInside)[0];
    assert_eq!(d.severity(), robots::Severity::Info);
    assert!(d.suggestion.is_some());
}

#[test]
fn a_colon_left_out_before_a_url_is_named_as_the_mistake() {
    let file =
        "User-agent: *\nDisallow https://example.com/x\nSitemap\u{FF1A}https://example.com/s.xml\n";
    for profile in [Profile::Rfc9309, Profile::Google] {
        let d = found(file.as_bytes(), profile, Code::PrefixDirective);
        assert_eq!(
            d[0].message,
            "the colon after `Disallow` is missing, so the URL's own colon ends the key: no crawler reads this line as meant"
        );
        assert_eq!(
            d[0].suggestion.as_deref(),
            Some("write `Disallow:` and the path alone, `/x`, in the robots.txt of `example.com`: each host has its own")
        );
        assert!(d[1]
            .message
            .starts_with("the colon after `Sitemap` is full-width"));
        assert_eq!(
            d[1].suggestion.as_deref(),
            Some("write `Sitemap: https://example.com/s.xml`")
        );
    }
}

#[test]
fn lint_over_the_whole_corpus() {
    let Some(dir) = common::shared("corpus") else {
        return;
    };
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut files = 0;
    for entry in std::fs::read_dir(dir.join("robots")).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let robots = Robots::parse(&bytes);
        for d in robots.lint(&bytes) {
            assert!(d.line >= 1 && d.line <= robots.line_count().max(1), "{d:?}");
            assert!(d.span.end <= bytes.len());
            *counts.entry(d.code.as_str()).or_default() += 1;
        }
        files += 1;
    }
    assert_eq!(files, 20_000);
    let mut top: Vec<_> = counts.into_iter().collect();
    top.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    println!("most common diagnostics over {files} corpus files:");
    for (code, n) in top.iter().take(10) {
        println!("  {n:>7}  {code}");
    }
}

/// A message quotes a text of the file whole up to 500 characters, and of a longer one
/// its first 200 and how many octets it left out: a line of megabytes would otherwise be
/// quoted whole. A junk line is kept cut, and still counted whole.
#[test]
fn long_quotes_are_cut_and_counted() {
    let long = |c: &str| c.repeat(1_000_000);
    let body = format!(
        "User-agent: *\nCrawl-delay: {}\n  {}  \nSitemap: /{}\nCrawl-delay: x{}\n",
        long("9"),
        long("é"),
        long("c"),
        "8".repeat(498)
    );
    let robots = Robots::parse_with(body.as_bytes(), Options::new().max_bytes(16 << 20).unwrap());
    let messages: Vec<String> = robots
        .lint(body.as_bytes())
        .into_iter()
        .map(|d| d.message.into_owned())
        .collect();
    let quoted = |c: &str, more: usize| format!("`{}… ({more} more octets)`", c.repeat(200));
    let expect = [
        format!(
            "Crawl-delay {} is not a number of seconds",
            quoted("9", 999_800)
        ),
        // Two octets a character: 400 shown, and the rest of the line after its lead.
        format!(
            "{} is not a `key: value` line and is ignored",
            quoted("é", 2_000_002 - 400)
        ),
        format!(
            "Crawl-delay `x{}` is not a number of seconds",
            "8".repeat(498)
        ),
    ];
    for message in &expect {
        assert!(
            messages.contains(message),
            "{message}\nnot in {messages:#?}"
        );
    }
    assert!(
        messages.iter().any(|m| m.starts_with(&format!(
            "Sitemap `/{}… (999801 more octets)`",
            "c".repeat(199)
        ))),
        "{messages:#?}"
    );
    assert!(messages.iter().all(|m| m.len() < 700), "{messages:#?}");
    // Messages that quote rules and agents besides a finding's own text.
    let body = format!(
        "User-agent: *\nDisallow: /{}\nDisallow: /{}*\n\nUser-agent: {}\n",
        long("e"),
        long("e"),
        long("d")
    );
    let robots = Robots::parse_with(body.as_bytes(), Options::new().max_bytes(16 << 20).unwrap());
    let lint = robots.lint(body.as_bytes());
    for code in [Code::GroupWithoutRules, Code::ShadowedRule] {
        let found = lint.iter().find(|d| d.code == code);
        let found = found.unwrap_or_else(|| panic!("no {code:?} in {lint:#?}"));
        assert!(
            found.message.len() < 1_000,
            "{code:?}: {} octets",
            found.message.len()
        );
        assert!(found.message.contains("… ("), "{}", found.message);
    }
}
