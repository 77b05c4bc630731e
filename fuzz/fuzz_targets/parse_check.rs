//! Fuzz target `parse_check`: arbitrary bytes become a robots.txt body, a crawler name, a
//! URL and a choice of agent constructor; the body is parsed with both profiles, checked,
//! explained and linted, and everything the parse exposes (diagnostics written out,
//! records, sitemaps, groups) is read back, as are the lines `Tokens` reads, and the
//! body cut part way is parsed as a reader bounded by the parse limit gives it
//! (`Robots::parse_start`), asserting the invariants that hold for any input. The URL
//! is also read for its origin (`Origin::split`), whose key must read back to it.
//!
//! Input layout: `[flags][agent length][url length][agent][url][body…]`, lengths taken
//! modulo what is left, so every input is valid and the body (the tail) is what the
//! fuzzer mostly mutates.

#![no_main]

use libfuzzer_sys::fuzz_target;
use robots::{Agent, Options, Origin, Profile, Robots, RuleKind, Selection, Tokens, Unread};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let (agent_len, url_len, rest) = match rest {
        [a, u, rest @ ..] => (usize::from(*a), usize::from(*u), rest),
        _ => (0, 0, rest),
    };
    let agent_len = agent_len.min(rest.len());
    let (agent_bytes, rest) = rest.split_at(agent_len);
    let url_len = url_len.min(rest.len());
    let (url, body) = rest.split_at(url_len);
    let name = String::from_utf8_lossy(agent_bytes);
    if let Ok(text) = std::str::from_utf8(url) {
        origin(text);
    }

    let agent = match flags & 3 {
        0 => Agent::verbatim(&name),
        1 => Agent::new(&name).unwrap_or_else(|_| Agent::verbatim(&name)),
        2 => Agent::from_user_agent(&name).unwrap_or_else(|_| Agent::verbatim(&name)),
        _ => Agent::new("ExampleBot").unwrap(),
    };
    let agent = if flags & 4 != 0 {
        agent.honouring_embargo()
    } else {
        agent
    };
    let limit = if flags & 8 != 0 {
        robots::MIN_PARSE_LIMIT
    } else {
        usize::MAX
    };

    for profile in [Profile::Rfc9309, Profile::Google] {
        let options = Options::new().profile(profile).max_bytes(limit).unwrap();
        let robots = Robots::parse_with(body, options);
        exercise(&robots, body, &agent, url, profile);
        tokens(&robots, body, options);
        start(body, usize::from(flags >> 4), options, &agent, url, profile);
    }
});

/// A URL's origin, if it names one, is what its key, its parts and its robots.txt URL
/// read back to, and the rest is the URL's tail; if it names none, the error names it.
fn origin(url: &str) {
    match Origin::split(url) {
        Ok((origin, rest)) => {
            assert!(url.trim().ends_with(rest), "{url:?}");
            assert_eq!(Origin::of(&origin.key()).as_ref(), Ok(&origin), "{url:?}");
            let parts = Origin::new(origin.scheme(), origin.host(), origin.port());
            assert_eq!(parts.as_ref(), Ok(&origin), "{url:?}");
            let robots_txt = origin.robots_txt_url();
            assert!(robots_txt.starts_with(&origin.to_string()));
            assert_eq!(origin.host(), origin.host().to_ascii_lowercase());
        }
        Err(error) => assert!(error.to_string().contains(url), "{error}"),
    }
}

/// The body cut after `sixteenths` of it and parsed as a reader bounded by a limit would
/// give it (`Robots::parse_start`, told what follows): the whole body's size, and the
/// rules of the whole lines before the cut, as parsing those lines alone gives them.
fn start(
    body: &[u8],
    sixteenths: usize,
    options: Options,
    agent: &Agent,
    url: &[u8],
    profile: Profile,
) {
    let cut = body.len() * sixteenths / 16;
    let (kept, rest) = body.split_at(cut);
    let unread = if rest.iter().all(u8::is_ascii_whitespace) {
        Unread::Blank(rest.len())
    } else {
        Unread::Text(rest.len())
    };
    let robots = Robots::parse_start(kept, unread, options);
    assert!(robots.parsed_bytes() <= cut);
    exercise(&robots, body, agent, url, profile);
    let alone = Robots::parse_with(&body[..robots.parsed_bytes()], options);
    let rules = |r: &Robots| -> Vec<(u32, RuleKind, String)> {
        r.groups()
            .flat_map(|g| {
                g.rules()
                    .map(|rule| (rule.line(), rule.kind(), rule.pattern().to_owned()))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    assert_eq!(rules(&robots), rules(&alone));
    let endless = Robots::parse_start(kept, Unread::MoreThan(rest.len()), options);
    assert!(!endless.size_exact() && endless.parsed_bytes() <= cut);
}

/// `Tokens` reads, in order, lines of the body the parse counted, each value where it
/// says; every record of the parse is one of them.
fn tokens(robots: &Robots, body: &[u8], options: Options) {
    let mut last = 0;
    let mut lines = Vec::new();
    for t in Tokens::new(body, options) {
        assert!(t.line > last && t.line <= robots.line_count(), "{t:?}");
        assert_eq!(&body[t.value_at..t.value_at + t.value.len()], t.value);
        assert!(!t.key.is_empty());
        last = t.line;
        lines.push(t.line);
    }
    for record in robots.records() {
        assert!(
            lines.binary_search(&record.line()).is_ok(),
            "record on line {}",
            record.line()
        );
    }
}

fn exercise(robots: &Robots, body: &[u8], agent: &Agent, url: &[u8], profile: Profile) {
    let lines = robots.line_count();
    assert_eq!(robots.size(), body.len());
    assert!(robots.parsed_bytes() <= body.len());
    assert_eq!(robots.profile(), profile);

    let verdict = robots.check_bytes(agent, url);
    if let Some(rule) = verdict.decided_by() {
        assert!(
            rule.line() >= 1 && rule.line() <= lines,
            "deciding line {} outside 1..={lines}",
            rule.line()
        );
    }
    if !verdict.allowed() {
        let rule = verdict
            .decided_by()
            .expect("a disallowed verdict names its rule");
        assert_eq!(rule.kind(), RuleKind::Disallow, "{rule:?}");
        assert!(verdict.embargo().is_none(), "embargo on a disallowed URL");
    }
    if profile == Profile::Google || !agent.honours_embargo() {
        assert!(verdict.embargo().is_none());
    }
    let selection = robots.selection(agent);
    if selection == Selection::None {
        assert!(verdict.allowed());
    }
    // AI usage preferences (attach-05 §3.1): none for a disallowed URL.
    let usage = robots.content_usage_bytes(agent, url);
    if !verdict.allowed() {
        assert!(usage.is_none(), "preferences for a disallowed URL");
    }
    let _ = robots.content_signal(agent);
    let chosen = robots.group_for(agent);
    match selection {
        Selection::None => assert!(chosen.groups().is_empty()),
        Selection::Named { groups } | Selection::Global { groups } => {
            assert_eq!(chosen.groups().len(), groups)
        }
    }
    if verdict.allowed() && agent.honours_embargo() && profile == Profile::Rfc9309 {
        assert_eq!(verdict.embargo(), chosen.embargo());
    }
    // A UTF-8 URL gives the same verdict as a string as it does as bytes, and its
    // explanation carries that verdict.
    if let Ok(text) = std::str::from_utf8(url) {
        assert_eq!(robots.check(agent, text), verdict);
        assert_eq!(robots.explain(agent, text).verdict, verdict);
    }

    // Lint adds to the parser's diagnostics, and places what it adds in the source.
    let parsed = robots.diagnostics();
    let linted = robots.lint(body);
    assert!(linted.len() >= parsed.len());
    for d in &linted {
        // What lies past the parse limit may start on the line after the last parsed.
        let last = if d.code == robots::Code::BeyondParseLimit {
            lines + 1
        } else {
            lines.max(1)
        };
        assert!(
            d.line >= 1 && d.line <= last,
            "diagnostic {:?} on line {} of {lines}",
            d.code,
            d.line
        );
        assert!(
            d.span.start <= d.span.end && d.span.end <= body.len(),
            "{d:?}"
        );
        assert!(!d.message.is_empty());
        assert_eq!(d.severity(), d.code.severity());
    }
    let group_count = robots.groups().count();
    for record in robots.records() {
        assert!(record.line() >= 1 && record.line() <= lines);
        let _ = (record.key(), record.value(), record.directive());
        if let Some(group) = record.group() {
            assert!(group.index() < group_count);
        }
    }
    for sitemap in robots.sitemaps() {
        assert!(robots.records().any(|r| r.value() == sitemap));
    }
    let _ = robots.host();
    for (i, group) in robots.groups().enumerate() {
        assert_eq!(group.index(), i);
        assert!(group.line() >= 1 && group.line() <= lines);
        for (_, line) in group.agent_lines() {
            assert!(line >= 1 && line <= lines);
        }
        for rule in group.rules() {
            assert!(rule.line() >= 1 && rule.line() <= lines);
        }
        if profile == Profile::Google {
            assert!(group.rules().all(|r| r.kind() != RuleKind::EmbargoAllow));
        }
        let _ = (group.embargo(), group.crawl_delay(), group.request_rate());
    }
    let _ = (
        chosen.crawl_delay(),
        chosen.request_rate(),
        chosen.embargo(),
    );
}
