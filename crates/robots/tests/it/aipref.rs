//! AI usage preferences, each case written from the drafts' text (the section cited):
//! Content-Usage (draft-ietf-aipref-attach-05 §3 with draft-ietf-aipref-vocab-07), the
//! `Content-Usage` header combined with robots.txt, and Cloudflare's Content-Signal.

use robots::{Agent, Category, Options, Preferences, Profile, Robots, SignalKey, Usage};

fn bot(name: &str) -> Agent {
    Agent::new(name).unwrap()
}

/// The preference for `category` that `name` gets at `url`: `None` when no rule applies,
/// `Some(None)` when one applies and leaves the category unknown.
fn pref(robots: &Robots, name: &str, url: &str, category: Category) -> Option<Option<Usage>> {
    robots
        .content_usage(&bot(name), url)
        .map(|u| u.preferences().get(category))
}

const Y: Option<Option<Usage>> = Some(Some(Usage::Allowed));
const N: Option<Option<Usage>> = Some(Some(Usage::Disallowed));
const UNKNOWN: Option<Option<Usage>> = Some(None);

/// attach-05 §3.4: the example file, its table, and "A crawler that identifies as
/// "ExampleBot" uses the second group."
#[test]
fn attach_3_4_example() {
    let robots = Robots::parse(
        b"User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n\
          User-Agent: ExampleBot\nContent-Usage: train-ai=y\nAllow: /\n",
    );
    let t = Category::TrainAi;
    assert_eq!(pref(&robots, "OtherBot", "https://example.com/", t), N);
    assert_eq!(pref(&robots, "OtherBot", "/ai-ok/test", t), Y);
    assert_eq!(pref(&robots, "OtherBot", "/never/x", t), None);
    // The specific group replaces `*`, its Content-Usage rules too (RFC 9309 §2.2.1).
    assert_eq!(pref(&robots, "ExampleBot", "/never/x", t), Y);
    assert_eq!(pref(&robots, "examplebot", "/", t), Y);
    let usage = robots
        .content_usage(&bot("OtherBot"), "/ai-ok/test")
        .unwrap();
    assert_eq!((usage.line(), usage.specificity()), (5, 7));
}

/// attach-05 §3 adds Content-Usage to RFC 9309's `rule`, so it ends a list of user-agent
/// lines (RFC 9309 §2.1); Content-Signal is another record and does not (§2.2.4).
#[test]
fn content_usage_ends_the_user_agent_lines_content_signal_does_not() {
    let usage =
        Robots::parse(b"User-agent: A\nContent-Usage: train-ai=n\nUser-agent: B\nDisallow: /\n");
    assert!(usage.check(&bot("A"), "/x").allowed());
    assert!(!usage.check(&bot("B"), "/x").allowed());
    assert_eq!(pref(&usage, "A", "/x", Category::TrainAi), N);
    assert_eq!(pref(&usage, "B", "/x", Category::TrainAi), None);

    let signal =
        Robots::parse(b"User-agent: A\nContent-Signal: ai-train=no\nUser-agent: B\nDisallow: /\n");
    assert!(!signal.check(&bot("A"), "/x").allowed());
    let s = signal.content_signal(&bot("B")).unwrap();
    assert_eq!(s.signals().get(SignalKey::AiTrain), Some(Usage::Disallowed));
}

/// attach-05 §3.2: a value starting with `/` has a path, ending at the first SP or HTAB;
/// any other value is all preference; `#` ends the value.
#[test]
fn attach_3_2_path_and_value() {
    let robots = Robots::parse(
        b"User-agent: *\nContent-Usage: /tab/\ttrain-ai=n\nContent-Usage: /c/ search=n # search=y\n\
          Content-Usage: /open/\nContent-Usage: *.pdf train-ai=n\n",
    );
    assert_eq!(pref(&robots, "b", "/tab/x", Category::TrainAi), N);
    assert_eq!(pref(&robots, "b", "/c/x", Category::Search), N);
    // A path and no preference: an empty Dictionary, every category unknown.
    assert_eq!(pref(&robots, "b", "/open/x", Category::TrainAi), UNKNOWN);
    // `*.pdf train-ai=n` has no path: the whole value fails as a Dictionary, so the rule
    // applies everywhere (length 0) with every category unknown.
    assert_eq!(pref(&robots, "b", "/doc.pdf", Category::TrainAi), UNKNOWN);
    assert_eq!(robots.content_usage(&bot("b"), "/x").unwrap().line(), 5);
}

/// attach-05 §3.1: "the same path prefix matching rules as defined for Allow and
/// Disallow", with RFC 9309 §2.2.3's `*` and `$`, percent-encoding, length in octets.
#[test]
fn attach_3_1_paths_match_as_allow_and_disallow() {
    let robots = Robots::parse(
        "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: /caf%C3%A9/ search=n\n\
         Content-Usage: /%7Euser/ search=y\nContent-Usage: /é/ train-ai=y\n"
            .as_bytes(),
    );
    assert_eq!(pref(&robots, "b", "/a/b.pdf", Category::TrainAi), N);
    assert_eq!(pref(&robots, "b", "/a/b.pdf?x=1", Category::TrainAi), None);
    assert_eq!(pref(&robots, "b", "/café/menu", Category::Search), N);
    assert_eq!(pref(&robots, "b", "/~user/x", Category::Search), Y);
    // `/é/` is `/%C3%A9/`, 8 octets.
    assert_eq!(
        robots
            .content_usage(&bot("b"), "/%c3%a9/")
            .unwrap()
            .specificity(),
        8
    );
}

/// attach-05 §3.1 and §3.4's table: only the single most specific rule applies, and a
/// category it does not state is unknown, not taken from a shorter rule.
#[test]
fn attach_3_1_the_longest_rule_alone_applies() {
    let robots = Robots::parse(
        b"User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a/ train-ai=y, search=n\nContent-Usage: /a/b/ search=y\n",
    );
    assert_eq!(pref(&robots, "b", "/a/b/c", Category::Search), Y);
    assert_eq!(pref(&robots, "b", "/a/b/c", Category::TrainAi), UNKNOWN);
    assert_eq!(pref(&robots, "b", "/a/x", Category::TrainAi), Y);
    assert_eq!(pref(&robots, "b", "/z", Category::TrainAi), N);
}

/// attach-05 §3.1: rules with identical paths "apply separately" by vocab-07 §5.1: per
/// category a disallow wins. The deciding line is the first of them. Groups merged for a
/// crawler (RFC 9309 §2.2.1) combine the same way.
#[test]
fn identical_paths_combine_most_restrictive_vocab_5_1() {
    let robots = Robots::parse(
        b"User-agent: *\nContent-Usage: /a/ train-ai=y, search=y\nContent-Usage: /a/ train-ai=n\n\
          User-agent: bot\nContent-Usage: search=y\nUser-agent: bot\nContent-Usage: search=n, train-ai=y\n",
    );
    let usage = robots.content_usage(&bot("x"), "/a/1").unwrap();
    assert_eq!(usage.preferences().to_string(), "train-ai=n, search=y");
    assert_eq!((usage.line(), usage.rules()), (2, 2));
    let merged = robots.content_usage(&bot("bot"), "/a/1").unwrap();
    assert_eq!(merged.preferences().to_string(), "train-ai=y, search=n");
    assert_eq!(merged.line(), 5);
}

/// attach-05 §3 and §3.1: "paths that cannot be crawled have no associated usage
/// preferences", crawlability following RFC 9309 §2.2.2 (an allow wins a tie).
#[test]
fn attach_3_1_disallowed_urls_get_no_preferences() {
    let robots = Robots::parse(
        b"User-agent: *\nDisallow: /private\nAllow: /private/ok\nContent-Usage: train-ai=n\n",
    );
    assert_eq!(pref(&robots, "b", "/private/x", Category::TrainAi), None);
    assert_eq!(pref(&robots, "b", "/private/ok", Category::TrainAi), N);
    // No group at all: nothing applies.
    assert!(Robots::parse(b"").content_usage(&bot("b"), "/").is_none());
}

/// vocab-07 §6.5 and §6.5.1: a line that fails as a Dictionary (uppercase key, trailing
/// comma, spaces around `=`) still matches, with every category unknown; it hides a
/// shorter rule.
#[test]
fn vocab_6_5_1_a_failed_dictionary_still_matches() {
    for bad in ["search=y, Train-AI=n", "train-ai=n,", "train-ai = n"] {
        let file = format!("User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: /a/ {bad}\n");
        let robots = Robots::parse(file.as_bytes());
        let usage = robots.content_usage(&bot("b"), "/a/x").unwrap();
        assert!(usage.preferences().is_unknown(), "{bad}");
        assert_eq!(usage.line(), 3);
    }
    // §6.5.2: parameters ignored; the last duplicate wins; unknown keys ignored (§6.4).
    let robots =
        Robots::parse(b"User-agent: *\nContent-Usage: train-ai;allow=n, train-ai=y, foo=n\n");
    assert_eq!(pref(&robots, "b", "/", Category::TrainAi), Y);
}

/// RFC 9309 §2.2.2 ignores rules in no group; attach-05 says nothing: a Content-Usage or
/// Content-Signal line before any user-agent line applies to no crawler.
#[test]
fn preferences_outside_any_group_apply_to_no_one() {
    let robots = Robots::parse(
        b"Content-Usage: train-ai=n\nContent-Signal: ai-train=no\nUser-agent: *\nAllow: /\n",
    );
    assert!(robots.content_usage(&bot("b"), "/").is_none());
    assert!(robots.content_signal(&bot("b")).is_none());
}

/// The Google profile reads neither line: they stay unknown records.
#[test]
fn the_google_profile_reads_no_preferences() {
    let file = b"User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: ai-train=no\nUser-agent: b\nDisallow: /\n";
    let google = Robots::parse_with(file, Options::new().profile(Profile::Google));
    assert!(google.content_usage(&bot("a"), "/").is_none());
    assert!(google.content_signal(&bot("a")).is_none());
    // And Content-Usage does not end the user-agent lines there: `a` is in b's group.
    assert!(!google.check(&Agent::verbatim("a"), "/x").allowed());
}

/// attach-05 §2 (the header is an RFC 9651 Dictionary; field lines join before parsing,
/// RFC 9651 §4.2), combined with robots.txt by vocab-07 §5.1: the table of the spec notes.
#[test]
fn the_header_combines_with_robots_txt_most_restrictive() {
    let robots =
        Robots::parse(b"User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /s/ search=y\n");
    let header = Preferences::from_header_lines(["train-ai=y, search=y"]);
    let from_file = robots.content_usage(&bot("b"), "/x").unwrap().preferences();
    let both = from_file.combine(header);
    assert_eq!(both.to_string(), "train-ai=n, search=y");
    // No rule: the header alone.
    let none = Preferences::UNKNOWN.combine(Preferences::from_header_lines(["train-ai=n"]));
    assert_eq!(none.to_string(), "train-ai=n");
    // A header that fails (`Search=y`) adds nothing.
    let file_only = robots
        .content_usage(&bot("b"), "/s/")
        .unwrap()
        .preferences();
    let failed = Preferences::from_header_lines(["Search=y"]);
    assert!(failed.is_unknown());
    assert_eq!(file_only.combine(failed).to_string(), "search=y");
}

/// contentsignals.org: `yes` and `no` for search, ai-input and ai-train, in the agent's
/// group; other keys and values ignored; as Cloudflare's managed file writes it.
#[test]
fn content_signal_per_group() {
    let robots = Robots::parse(
        b"User-Agent: *\nContent-signal: search=yes, ai-train=no\nAllow: /\n\n\
          User-agent: GPTBot\nDisallow: /\n\nUser-agent: Reader\nContent-Signal: search=yes,ai-train=no,use=reference,ai-input=maybe\n",
    );
    let star = robots.content_signal(&bot("SomeBot")).unwrap();
    assert_eq!(star.line(), 2);
    let stated: Vec<_> = star.signals().stated().collect();
    assert_eq!(
        stated,
        [
            (SignalKey::Search, Usage::Allowed),
            (SignalKey::AiTrain, Usage::Disallowed)
        ]
    );
    assert!(robots.content_signal(&bot("GPTBot")).is_none());
    let reader = robots.content_signal(&bot("Reader")).unwrap();
    assert_eq!(reader.signals().get(SignalKey::AiInput), None);
    assert_eq!(
        reader.signals().get(SignalKey::AiTrain),
        Some(Usage::Disallowed)
    );
}

/// The Archive-Embargo draft: "An unsupported value makes the rule ignored", so it does
/// not end a list of user-agent lines.
#[test]
fn an_unsupported_embargo_value_does_not_end_the_user_agent_lines() {
    let robots =
        Robots::parse(b"User-agent: A\nArchive-Embargo: year\nUser-agent: B\nDisallow: /\n");
    assert!(!robots.check(&bot("A"), "/x").allowed());
    assert!(!robots.check(&bot("A").honouring_embargo(), "/x").allowed());
    // A supported value is a rule and does end them.
    let robots = Robots::parse(b"User-agent: A\nArchive-Embargo: m\nUser-agent: B\nDisallow: /\n");
    assert!(robots.check(&bot("A"), "/x").allowed());
}

/// Any bytes: the lookups never panic.
#[test]
fn odd_values_do_not_panic() {
    let file = b"User-agent: *\nContent-Usage: /\xff\xfe* a=%\"%ff\"\nContent-Usage: /$ \x00\nContent-Usage: /a*$*$ x=(\nContent-Signal: ,,=,=yes,search\n";
    let robots = Robots::parse(file);
    for url in ["/", "/\u{ff}", "/a$", "", "?q"] {
        let _ = robots.content_usage(&bot("b"), url);
    }
    let _ = robots.content_signal(&bot("b"));
    let _ = robots.lint(file);
}
