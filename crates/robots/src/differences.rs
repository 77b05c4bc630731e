//! Test-only: how the RFC 9309 profile's verdicts on the shared corpus differ from
//! Google's, each difference put down to the one documented behaviour that causes it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::behaviour::Behaviour;
use crate::{Agent, Options, Robots};

/// A named change to a behaviour.
type Switch = (&'static str, fn(&mut Behaviour));

/// Each behaviour of the Google profile, as a switch on top of the RFC 9309 profile.
const SWITCHES: [Switch; 10] = [
    ("keys read by prefix", |b| b.key_prefixes = true),
    ("agent tokens [A-Za-z_-] only", |b| {
        b.alpha_agent_tokens = true
    }),
    ("lines cut at NUL / 16,663 bytes", |b| {
        b.google_line_limits = true
    }),
    ("empty pattern matches", |b| b.empty_pattern_matches = true),
    ("patterns escaped, paths not normalised", |b| {
        b.escape_patterns_only = true
    }),
    ("/robots.txt matchable", |b| b.robots_txt_matchable = true),
    ("index.html allows the directory", |b| {
        b.index_html_allows_dir = true
    }),
    ("embargo lines not rules", |b| b.no_embargo = true),
    ("a `;` in userinfo starts the path", |b| {
        b.semicolon_in_userinfo_ends_host = true
    }),
    ("a NUL in the URL ends the path", |b| b.nul_ends_path = true),
];

struct Case {
    agent: String,
    url: String,
    allowed: bool,
}

fn corpus() -> Option<(PathBuf, BTreeMap<String, Vec<Case>>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let text = std::fs::read_to_string(dir.join("cases.jsonl")).ok()?;
    let mut files: BTreeMap<String, Vec<Case>> = BTreeMap::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
        files
            .entry(v["file"].as_str()?.to_owned())
            .or_default()
            .push(Case {
                agent: v["agent"].as_str()?.to_owned(),
                url: v["url"].as_str()?.to_owned(),
                allowed: v["allowed"].as_bool()?,
            });
    }
    Some((dir, files))
}

fn verdict(robots: &Robots, case: &Case) -> bool {
    let agent = Agent::new(&case.agent).unwrap_or_else(|_| Agent::verbatim(&case.agent));
    robots.check(&agent, &case.url).allowed()
}

#[test]
fn rfc9309_profile_differs_from_google_only_by_documented_behaviours() {
    let Some((dir, files)) = corpus() else {
        eprintln!("notice: ../shared/corpus is absent; skipping this test");
        return;
    };
    let options = Options::new().max_bytes(usize::MAX).unwrap();
    let parse = |bytes: &[u8], behaviour| {
        crate::parse::parse(bytes, crate::Unread::NONE, options, behaviour)
    };
    let (mut total, mut causes) = (0usize, BTreeMap::<String, usize>::new());
    let mut unexplained = Vec::new();
    for (file, cases) in &files {
        let bytes = std::fs::read(dir.join("robots").join(file)).expect("corpus file");
        let rfc = parse(&bytes, Behaviour::RFC9309);
        let mut variants: BTreeMap<Vec<usize>, Robots> = BTreeMap::new();
        for case in cases {
            total += 1;
            if verdict(&rfc, case) == case.allowed {
                continue;
            }
            // One behaviour at a time first, then pairs: a few queries need two (a
            // non-RFC agent token and an escape, say).
            let singles = (0..SWITCHES.len()).map(|i| vec![i]);
            let pairs =
                (0..SWITCHES.len()).flat_map(|i| (i + 1..SWITCHES.len()).map(move |j| vec![i, j]));
            let cause = singles.chain(pairs).find(|set| {
                let robots = variants.entry(set.clone()).or_insert_with(|| {
                    let mut behaviour = Behaviour::RFC9309;
                    set.iter().for_each(|&i| (SWITCHES[i].1)(&mut behaviour));
                    parse(&bytes, behaviour)
                });
                verdict(robots, case) == case.allowed
            });
            match cause {
                Some(set) => {
                    let name = set
                        .iter()
                        .map(|&i| SWITCHES[i].0)
                        .collect::<Vec<_>>()
                        .join(" + ");
                    *causes.entry(name).or_default() += 1;
                }
                None => unexplained.push(format!("{file} {} {}", case.agent, case.url)),
            }
        }
    }
    let differing: usize = causes.values().sum::<usize>() + unexplained.len();
    println!("RFC 9309 profile vs Google on {total} corpus queries: {differing} differ");
    for (cause, count) in &causes {
        println!("  {count:>6}  {cause}");
    }
    assert_eq!(total, 160_160);
    assert!(
        unexplained.is_empty(),
        "{} differences no single documented behaviour explains, e.g.:\n{}",
        unexplained.len(),
        unexplained[..unexplained.len().min(10)].join("\n")
    );
}
