//! Checks allocate nothing: counted with a counting global allocator over hand-made
//! files of every shape and, when present, every query of the shared corpus.

mod common;

use robots::{Agent, Options, Profile, Robots};

fn options(profile: Profile) -> Options {
    Options::new()
        .profile(profile)
        .max_bytes(usize::MAX)
        .unwrap()
}

/// Runs every check and returns how many heap allocations they made together.
fn allocations(queries: &[(&Robots, Agent, String)]) -> u64 {
    let info = allocation_counter::measure(|| {
        for (robots, agent, url) in queries {
            std::hint::black_box(robots.check(agent, url));
        }
    });
    info.count_total
}

#[test]
fn checks_allocate_nothing_on_files_of_every_shape() {
    let file = "User-agent: a\nUser-agent: b\nArchive-Embargo: m\nEmbargo-Allow: /news\nDisallow: /\n\n\
                User-agent: a\nAllow: /a/*.html$\nDisallow: /*?q=\n\nUser-agent: *\nDisallow: /café\nAllow: /index.html\n";
    let urls = [
        "https://example.com/news/x",
        "/a/b.html",
        "/a/b?q=%7Euser&x=https://h",
        "/caf%C3%A9/x",
        "/café",
        "?only=query",
        "/robots.txt",
        "https://example.com",
    ];
    let parsed: Vec<Robots> = [Profile::Rfc9309, Profile::Google]
        .map(|p| Robots::parse_with(file.as_bytes(), options(p)))
        .into();
    let mut queries = Vec::new();
    for robots in &parsed {
        for name in ["a", "b", "c"] {
            for agent in [
                Agent::new(name).unwrap(),
                Agent::new(name).unwrap().honouring_embargo(),
            ] {
                for url in urls {
                    queries.push((robots, agent.clone(), url.to_owned()));
                }
            }
        }
    }
    assert_eq!(allocations(&queries), 0);
    // The counter does see allocations: an explanation allocates.
    let explained = allocation_counter::measure(|| {
        std::hint::black_box(parsed[0].explain(&Agent::new("a").unwrap(), "/a/b.html"));
    });
    assert!(explained.count_total > 0);
}

#[test]
fn checks_allocate_nothing_on_the_corpus() {
    let Some(dir) = common::shared("corpus") else {
        return;
    };
    let cases = common::jsonl(&dir.join("cases.jsonl"));
    let mut parsed = std::collections::HashMap::new();
    for case in &cases {
        let file = common::str_field(case, "file");
        parsed.entry(file.to_owned()).or_insert_with(|| {
            let bytes = std::fs::read(dir.join("robots").join(file)).unwrap();
            [Profile::Rfc9309, Profile::Google].map(|p| Robots::parse_with(&bytes, options(p)))
        });
    }
    let mut queries = Vec::new();
    for case in &cases {
        for robots in &parsed[common::str_field(case, "file")] {
            let agent = Agent::verbatim(common::str_field(case, "agent"));
            queries.push((robots, agent, common::str_field(case, "url").to_owned()));
        }
    }
    assert_eq!(queries.len(), 2 * 160_160);
    assert_eq!(allocations(&queries), 0);
}

/// Content-Usage and Content-Signal lines (kept as records) leave checks as they were:
/// no allocation. `Robots::content_usage` may allocate, and says so.
#[test]
fn checks_of_files_with_ai_preferences_allocate_nothing() {
    let file = "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\n\
                Content-Signal: search=yes, ai-train=no\nDisallow: /private/\n\n\
                User-agent: a\nContent-Usage: /*.pdf$ search=n\nAllow: /\n";
    let robots = Robots::parse(file.as_bytes());
    let mut queries = Vec::new();
    for name in ["a", "b"] {
        for url in ["/blog/x", "/private/y", "/doc.pdf", "/"] {
            queries.push((&robots, Agent::new(name).unwrap(), url.to_owned()));
        }
    }
    assert_eq!(allocations(&queries), 0);
    // And the lookups answer on the same file.
    let bot = Agent::new("b").unwrap();
    assert_eq!(robots.content_usage(&bot, "/blog/x").unwrap().line(), 3);
}
