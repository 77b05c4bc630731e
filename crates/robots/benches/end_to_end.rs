//! A crawler's end-to-end cost on the shared corpus: all 160,160 queries of
//! `cases.jsonl` answered from the raw files, parsing included, ours with both profiles
//! side by side with the peer crates, each used the way its API asks.
//!
//! - `robots-rfc9309`, `robots-google`: per file, `Robots::parse_with` once, then
//!   `Robots::check` for each of its queries.
//! - `texting_robots`: per (file, agent) pair, `Robot::new(agent, bytes)` once (it parses
//!   for one agent), then `Robot::allowed(url)` for each of the pair's queries.
//! - `robotstxt`: `DefaultMatcher::one_agent_allowed_by_robots` per query (parse and
//!   match; the crate has no parse-once API), on text converted from bytes up front.
//! - `google-cpp`: Google's C++ matcher where it is installed (`corpus::google_cpp`;
//!   `scripts/google-cpp`), one call per query, which parses and matches: it has no
//!   parse-once API either.
//!
//! One iteration answers every query once; the throughput (elements/s) is queries per
//! second. Before measuring, the same budget check as the `check` benchmark runs
//! (`corpus::query_exclusion`): files where one `robotstxt` query or one `texting_robots`
//! parse goes over `corpus::BUDGET` are printed and left out for every contender of the
//! `end-to-end` group; `end-to-end-all-queries` then measures ours on the full set. Run:
//! `cargo bench -p robots --bench end_to_end`. Without the shared corpus this prints a
//! notice and measures nothing.

mod corpus;

use std::collections::BTreeMap;
use std::hint::black_box;

use corpus::google_cpp::GoogleCpp;
use corpus::{Corpus, Query, PROFILES};
use criterion::{BenchmarkGroup, Throughput};
use robots::{Agent, Robots};

/// Per file, its bytes' index and its queries with their agents made up front.
fn plan<'c>(queries: &[&'c Query]) -> Vec<(usize, Vec<(&'c Query, Agent)>)> {
    corpus::by_file(queries)
        .into_iter()
        .map(|(f, qs)| {
            (
                f,
                qs.into_iter()
                    .map(|q| (q, corpus::agent(&q.agent)))
                    .collect(),
            )
        })
        .collect()
}

fn ours(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    corpus: &Corpus,
    queries: &[&Query],
) {
    let plan = plan(queries);
    group.throughput(Throughput::Elements(queries.len() as u64));
    for (profile, name) in PROFILES {
        let options = corpus::options(profile);
        group.bench_function(format!("robots-{name}"), |b| {
            b.iter(|| {
                for (f, checks) in &plan {
                    let robots = Robots::parse_with(black_box(&corpus.files[*f].bytes), options);
                    for (q, agent) in checks {
                        black_box(robots.check(agent, black_box(&q.url)).allowed());
                    }
                }
            })
        });
    }
}

fn main() {
    let Some(corpus) = Corpus::load() else {
        return;
    };
    let (excluded, fair) = corpus::fair_queries(&corpus, "end-to-end group");

    let mut c = corpus::criterion();
    let mut group = c.benchmark_group("end-to-end");
    ours(&mut group, &corpus, &fair);

    // Per (file, agent) pair, the URLs asked, in corpus order of the pair's first query.
    let mut pairs: BTreeMap<(usize, &str), Vec<&str>> = BTreeMap::new();
    for q in &fair {
        pairs
            .entry((q.file, q.agent.as_str()))
            .or_default()
            .push(&q.url);
    }
    group.bench_function("texting_robots", |b| {
        b.iter(|| {
            for ((f, agent), urls) in &pairs {
                // A file it refuses allows everything, as a crawler would take it.
                if let Ok(robot) = texting_robots::Robot::new(agent, &corpus.files[*f].bytes) {
                    for url in urls {
                        black_box(robot.allowed(black_box(url)));
                    }
                }
            }
        })
    });
    corpus::bench_robotstxt(&mut group, &corpus, &fair);
    if let Some(mut cpp) = GoogleCpp::load() {
        // That the calls are made right: its verdicts are the ones the corpus expects.
        let agree = fair
            .iter()
            .filter(|q| cpp.allowed(&corpus.files[q.file].bytes, &q.agent, &q.url) == q.allowed)
            .count();
        eprintln!(
            "google-cpp gives the corpus's expected verdict on {agree} of {} queries",
            fair.len()
        );
        group.bench_function("google-cpp", |b| {
            b.iter(|| {
                for q in &fair {
                    let bytes = &corpus.files[q.file].bytes;
                    black_box(cpp.allowed(bytes, &q.agent, black_box(&q.url)));
                }
            })
        });
    }
    group.finish();

    corpus::all_queries(&mut c, "end-to-end-all-queries", &corpus, &excluded, ours);
    c.final_summary();
}
