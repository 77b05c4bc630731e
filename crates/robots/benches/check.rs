//! Check latency with each file parsed once, over the 160,160 queries of the shared
//! corpus (`cases.jsonl`), ours with both profiles side by side with the peer crates.
//!
//! - `robots-rfc9309`, `robots-google`: `Robots::check` on files parsed before measuring.
//! - `texting_robots`: `Robot::allowed(url)` on a `Robot::new(agent, bytes)` built before
//!   measuring for each (file, agent) pair, since it parses for one agent.
//! - `robotstxt`: it has no parse-once API, so each query is
//!   `DefaultMatcher::one_agent_allowed_by_robots`, parse included. Its figure is the
//!   cost per query a user of that crate pays, not a like-for-like matching cost.
//!
//! One iteration answers every query once; the throughput (elements/s) is queries per
//! second, so the time per query is the iteration time over the query count. Before
//! measuring, every query runs once through `robotstxt` and every (file, agent) pair
//! through `Robot::new`: a file where one of them goes over the budget
//! (`corpus::BUDGET`; `robotstxt` takes seconds per query on 06970.txt) is printed and
//! left out for every contender of the `check` group; `check-all-queries` then measures
//! ours on the full set. Run: `cargo bench -p robots --bench check`. Without the shared
//! corpus this prints a notice and measures nothing.

mod corpus;

use std::collections::HashMap;
use std::hint::black_box;

use corpus::{Corpus, Query, PROFILES};
use criterion::{BenchmarkGroup, Throughput};

fn ours(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    corpus: &Corpus,
    queries: &[&Query],
) {
    let files = queries.iter().map(|q| q.file).collect();
    let agents: Vec<_> = queries.iter().map(|q| corpus::agent(&q.agent)).collect();
    group.throughput(Throughput::Elements(queries.len() as u64));
    for (profile, name) in PROFILES {
        let parsed = corpus::parse_all(corpus, &files, profile);
        group.bench_function(format!("robots-{name}"), |b| {
            b.iter(|| {
                for (q, agent) in queries.iter().zip(&agents) {
                    let robots = parsed[q.file].as_ref().expect("parsed");
                    black_box(robots.check(agent, black_box(&q.url)).allowed());
                }
            })
        });
    }
}

fn main() {
    let Some(corpus) = Corpus::load() else {
        return;
    };
    let (excluded, fair) = corpus::fair_queries(&corpus, "check group");

    let mut c = corpus::criterion();
    let mut group = c.benchmark_group("check");
    ours(&mut group, &corpus, &fair);

    let mut texting = HashMap::new();
    let mut errors = 0;
    for q in &fair {
        texting
            .entry((q.file, q.agent.as_str()))
            .or_insert_with(|| {
                let robot = texting_robots::Robot::new(&q.agent, &corpus.files[q.file].bytes).ok();
                errors += usize::from(robot.is_none());
                robot
            });
    }
    eprintln!("texting_robots refuses {errors} (file, agent) pairs; their queries count as allowed, unmeasured");
    let robots_per_query: Vec<_> = fair
        .iter()
        .map(|q| texting[&(q.file, q.agent.as_str())].as_ref())
        .collect();
    group.bench_function("texting_robots", |b| {
        b.iter(|| {
            for (q, robot) in fair.iter().zip(&robots_per_query) {
                if let Some(robot) = robot {
                    black_box(robot.allowed(black_box(&q.url)));
                }
            }
        })
    });
    corpus::bench_robotstxt(&mut group, &corpus, &fair);
    group.finish();

    corpus::all_queries(&mut c, "check-all-queries", &corpus, &excluded, ours);
    c.final_summary();
}
