//! Archive-Embargo and Embargo-Allow (draft-nottingham-archive-embargo): the draft's two
//! examples, the periods, invalid and conflicting values, and who the rules apply to.

use std::time::{Duration, UNIX_EPOCH};

use robots::{Agent, Code, Embargo, EmbargoPeriod, Reason, Robots, RuleKind};

fn honouring(name: &str) -> Agent {
    Agent::new(name).unwrap().honouring_embargo()
}

fn plain(name: &str) -> Agent {
    Agent::new(name).unwrap()
}

/// The draft's first example: a known crawler may take /news under a quarter's embargo.
#[test]
fn draft_example_1_allow_with_a_quarter_embargo() {
    let robots = Robots::parse(b"User-Agent: ExampleBot\nArchive-Embargo: q\nAllow: /news\n");
    let v = robots.check(&honouring("ExampleBot"), "https://example.com/news/today");
    assert!(v.allowed());
    assert_eq!(v.embargo(), Some(Embargo::new(EmbargoPeriod::Quarter)));
    assert_eq!(v.decided_by().unwrap().kind(), RuleKind::Allow);
    // Not under /news: still allowed (no rule matched) and still embargoed.
    let v = robots.check(&honouring("ExampleBot"), "/other");
    assert!(v.allowed());
    assert_eq!(v.embargo(), Some(Embargo::new(EmbargoPeriod::Quarter)));
    // A crawler that does not honour embargoes gets no embargo to carry.
    assert_eq!(robots.check(&plain("ExampleBot"), "/news").embargo(), None);
}

/// The draft's second example: any honouring crawler may take /news under a month's
/// embargo; everything else, and everyone else, is disallowed.
#[test]
fn draft_example_2_embargo_allow_for_honouring_crawlers_only() {
    let file = b"User-Agent: *\nArchive-Embargo: m\nEmbargo-Allow: /news\nDisallow: /\n";
    let robots = Robots::parse(file);
    let v = robots.check(&honouring("AnyArchiver"), "/news/2026/story");
    assert!(v.allowed());
    assert_eq!(v.embargo(), Some(Embargo::new(EmbargoPeriod::Month)));
    let rule = v.decided_by().unwrap();
    assert_eq!((rule.kind(), rule.line()), (RuleKind::EmbargoAllow, 3));
    let v = robots.check(&honouring("AnyArchiver"), "/sport");
    assert!(!v.allowed());
    assert_eq!(v.embargo(), None);
    let v = robots.check(&plain("AnyCrawler"), "/news/2026/story");
    assert!(!v.allowed());
    assert_eq!(v.decided_by().unwrap().line(), 4);
}

#[test]
fn embargo_allow_wins_a_tie_against_disallow() {
    let file = b"User-agent: *\nArchive-Embargo: w\nDisallow: /news\nEmbargo-Allow: /news\n";
    let robots = Robots::parse(file);
    let v = robots.check(&honouring("Bot"), "/news");
    assert!(v.allowed());
    assert_eq!(v.decided_by().unwrap().kind(), RuleKind::EmbargoAllow);
}

#[test]
fn embargo_allow_is_ignored_without_a_valid_embargo() {
    let file = b"User-agent: *\nArchive-Embargo: year\nEmbargo-Allow: /news\nDisallow: /\n";
    let robots = Robots::parse(file);
    assert!(!robots.check(&honouring("Bot"), "/news").allowed());
    let codes: Vec<Code> = robots.diagnostics().iter().map(|d| d.code).collect();
    assert!(codes.contains(&Code::InvalidEmbargo));
    assert!(codes.contains(&Code::EmbargoAllowWithoutEmbargo));
}

/// Groups naming the same crawler are merged, so an Embargo-Allow applies with an
/// Archive-Embargo written in another of them, and is not reported as ignored; it is when
/// no crawler its group names gets an embargo.
#[test]
fn embargo_allow_counts_the_embargo_of_the_merged_groups() {
    let ignored = |file: &[u8]| {
        Robots::parse(file)
            .diagnostics()
            .iter()
            .any(|d| d.code == Code::EmbargoAllowWithoutEmbargo)
    };
    let split = b"User-agent: Arch\nArchive-Embargo: m\n\nuser-agent: ARCH\nEmbargo-Allow: /news/\nDisallow: /\n";
    assert!(Robots::parse(split)
        .check(&honouring("Arch"), "/news/a")
        .allowed());
    assert!(!ignored(split));
    let one_of_two =
        b"User-agent: *\nArchive-Embargo: w\n\nUser-agent: A\nUser-agent: *\nEmbargo-Allow: /x\n";
    assert!(!ignored(one_of_two));
    let other_crawler =
        b"User-agent: A\nArchive-Embargo: m\n\nUser-agent: B\nEmbargo-Allow: /news/\n";
    assert!(ignored(other_crawler));
    let named_not_global =
        b"User-agent: A\nArchive-Embargo: m\n\nUser-agent: *\nEmbargo-Allow: /news/\n";
    assert!(ignored(named_not_global));
}

#[test]
fn periods_are_case_insensitive_and_the_longest_applies() {
    let file = b"User-agent: *\nArchive-Embargo: W\nArchive-Embargo: Q\nArchive-Embargo: m\n";
    let robots = Robots::parse(file);
    assert_eq!(
        robots.check(&honouring("Bot"), "/").embargo(),
        Some(Embargo::new(EmbargoPeriod::Quarter))
    );
    assert!(robots
        .diagnostics()
        .iter()
        .any(|d| d.code == Code::ConflictingEmbargo));
}

#[test]
fn merged_groups_take_the_longest_embargo() {
    let file = b"User-agent: bot\nArchive-Embargo: w\n\nUser-agent: bot\nArchive-Embargo: m\nEmbargo-Allow: /x\nDisallow: /\n";
    let robots = Robots::parse(file);
    let v = robots.check(&honouring("bot"), "/x");
    assert_eq!(v.embargo(), Some(Embargo::new(EmbargoPeriod::Month)));
    assert_eq!(
        robots.group_for(&honouring("bot")).embargo(),
        Some(Embargo::new(EmbargoPeriod::Month))
    );
    assert_eq!(robots.group_for(&plain("bot")).embargo(), None);
}

/// docs/design.md: several valid values in the merged group, the longest applies and is
/// reported; groups naming one crawler are merged (RFC 9309 §2.2.1), so values written
/// in two of them conflict as two in one group do. Another crawler's value does not.
#[test]
fn values_in_merged_groups_are_reported_with_the_one_that_applies() {
    let file = b"User-agent: bot\nArchive-Embargo: w\n\nUser-agent: other\nArchive-Embargo: m\n\nUSER-AGENT: Bot\nArchive-Embargo: q\n";
    let robots = Robots::parse(file);
    let conflicts: Vec<_> = robots
        .diagnostics()
        .iter()
        .filter(|d| d.code == Code::ConflictingEmbargo)
        .map(|d| (d.line, d.message.clone()))
        .collect();
    assert_eq!(conflicts.len(), 1, "{conflicts:?}");
    assert_eq!(conflicts[0].0, 8);
    assert!(conflicts[0].1.contains("`q`"), "{}", conflicts[0].1);
    let same = b"User-agent: bot\nArchive-Embargo: w\n\nUser-agent: bot\nArchive-Embargo: w\n\nUser-agent: *\nArchive-Embargo: q\n";
    assert!(!Robots::parse(same)
        .diagnostics()
        .iter()
        .any(|d| d.code == Code::ConflictingEmbargo));
}

#[test]
fn the_longest_embargo_counts_however_many_groups_are_merged() {
    let mut file = "User-agent: bot\nArchive-Embargo: w\n\n".repeat(11);
    file += "User-agent: bot\nArchive-Embargo: q\n";
    let robots = Robots::parse(file.as_bytes());
    let v = robots.check(&honouring("bot"), "/x");
    assert_eq!(v.embargo(), Some(Embargo::new(EmbargoPeriod::Quarter)));
}

/// docs/design.md: a verdict for an honouring agent carries the group's embargo whenever the
/// URL is allowed, whichever rule allowed it: an Allow that wins a tie, the implicit
/// allow of /robots.txt (RFC 9309 §2.2.2), an Embargo-Allow, or no rule at all.
#[test]
fn every_allowed_verdict_carries_the_embargo() {
    let file = b"User-agent: *\nArchive-Embargo: w\nDisallow: /\nAllow: /a\nDisallow: /a\nEmbargo-Allow: /e\n\nUser-agent: free\nArchive-Embargo: m\n";
    let robots = Robots::parse(file);
    for (agent, path, reason) in [
        ("Bot", "/a", Reason::TieWonByAllow),
        ("Bot", "/robots.txt", Reason::RobotsTxt),
        ("Bot", "/e", Reason::Longest),
        ("free", "/x", Reason::NoMatch),
    ] {
        let v = robots.check(&honouring(agent), path);
        assert_eq!((v.allowed(), v.reason()), (true, reason), "{agent} {path}");
        let period = if agent == "free" {
            EmbargoPeriod::Month
        } else {
            EmbargoPeriod::Week
        };
        assert_eq!(v.embargo(), Some(Embargo::new(period)), "{agent} {path}");
    }
}

#[test]
fn disallowed_verdicts_carry_no_embargo() {
    let file = b"User-agent: *\nArchive-Embargo: w\nDisallow: /private\n";
    let robots = Robots::parse(file);
    let v = robots.check(&honouring("Bot"), "/private");
    assert!(!v.allowed());
    assert_eq!(v.embargo(), None);
}

#[test]
fn embargo_end_from_last_modified_or_first_observation() {
    let day = Duration::from_secs(86_400);
    // Thu, 01 Jan 2026 00:00:00 GMT
    let jan1 = UNIX_EPOCH + Duration::from_secs(1_767_225_600);
    let seen = jan1 + 10 * day;
    let month = Embargo::new(EmbargoPeriod::Month);
    // Last-Modified earlier than the first observation: it starts the period.
    assert_eq!(
        month.end(Some("Thu, 01 Jan 2026 00:00:00 GMT"), seen, seen),
        jan1 + 31 * day
    );
    // Later than the first observation (but before the capture): observation counts.
    let captured = seen + 20 * day;
    assert_eq!(
        month.end(Some("Mon, 19 Jan 2026 00:00:00 GMT"), seen, captured),
        seen + 31 * day
    );
    // Absent: observation counts.
    assert_eq!(month.end(None, seen, captured), seen + 31 * day);
}
