//! Parse throughput (bytes/s) over all 20,000 files of the shared corpus, ours with both
//! profiles side by side with the peer crates `texting_robots` and `robotstxt`.
//!
//! - `robots-rfc9309`, `robots-google`: `Robots::parse_with` (both without a parse limit,
//!   so every contender reads every byte).
//! - `texting_robots`: `Robot::new("ExampleBot", bytes)`, which parses for one agent.
//! - `robotstxt`: `parse_robotstxt` with a handler that only counts what it is handed;
//!   the crate keeps no parsed form, so this is its tokenizer alone, a lower bound on
//!   what building rules would cost. It takes `&str`: the lossy text is made up front.
//! - `google-cpp`: Google's C++ matcher where it is installed (`corpus::google_cpp`;
//!   `scripts/google-cpp`), one call per file asking whether `ExampleBot` may fetch `/`:
//!   its API parses only while matching, so this is a parse and the cheapest match.
//!
//! Group `tokenize` reads the lines alone: ours as [`robots::Tokens`], `robotstxt` as
//! above (its `parse` and `tokenize` are the same work), each summing the values'
//! lengths.
//!
//! One iteration parses every file once. Before measuring, each peer parses each file
//! once; a file on which one parse goes over the budget (`corpus::BUDGET`) is printed and
//! left out for every contender of the `parse` group; `parse-all-files` then measures
//! ours on the full set. Run: `cargo bench -p robots --bench parse`. Without the shared
//! corpus this prints a notice and measures nothing.

mod corpus;

use std::hint::black_box;

use corpus::google_cpp::GoogleCpp;
use corpus::{Corpus, PROFILES};
use criterion::measurement::WallTime;
use criterion::{Bencher, BenchmarkGroup, Throughput};
use robots::{Options, Robots, Tokens};

fn main() {
    let Some(corpus) = Corpus::load() else {
        return;
    };
    let all = corpus.all_files();
    let (excluded, fair) = corpus::fair_files(&corpus, "parse group");

    let mut c = corpus::criterion();
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(
        corpus.total_bytes(fair.iter().copied().collect()),
    ));
    bench_ours(&mut group, &corpus, &fair, |bytes, options| {
        black_box(Robots::parse_with(bytes, options));
    });
    group.bench_function("texting_robots", |b| {
        b.iter(|| {
            for &f in &fair {
                let _ = black_box(corpus::texting_parse(black_box(&corpus.files[f].bytes)));
            }
        })
    });
    group.bench_function("robotstxt", |b| robotstxt_tokenizer(b, &corpus, &fair));
    if let Some(mut cpp) = GoogleCpp::load() {
        group.bench_function("google-cpp", |b| {
            b.iter(|| {
                for &f in &fair {
                    black_box(cpp.parse(black_box(&corpus.files[f].bytes)));
                }
            })
        });
    }
    group.finish();

    // Reading the lines alone, against the one peer that offers that: robotstxt's
    // tokenizer and handler, as in `parse`, and ours as `Tokens`, summing the same
    // value lengths.
    let mut group = c.benchmark_group("tokenize");
    group.throughput(Throughput::Bytes(
        corpus.total_bytes(fair.iter().copied().collect()),
    ));
    bench_ours(&mut group, &corpus, &fair, |bytes, options| {
        let tokens = Tokens::new(bytes, options);
        black_box(tokens.map(|t| t.value.len() as u64).sum::<u64>());
    });
    group.bench_function("robotstxt", |b| robotstxt_tokenizer(b, &corpus, &fair));
    group.finish();

    if !excluded.is_empty() {
        let mut group = c.benchmark_group("parse-all-files");
        group.throughput(Throughput::Bytes(corpus.total_bytes(all.clone())));
        let every: Vec<usize> = all.into_iter().collect();
        bench_ours(&mut group, &corpus, &every, |bytes, options| {
            black_box(Robots::parse_with(bytes, options));
        });
        group.finish();
    }
    c.final_summary();
}

/// `robotstxt`'s tokenizer over `files`, its handler counting the values' octets.
fn robotstxt_tokenizer(b: &mut Bencher<'_>, corpus: &Corpus, files: &[usize]) {
    b.iter(|| {
        for &f in files {
            black_box(corpus::robotstxt_parse(black_box(&corpus.files[f].text)));
        }
    })
}

/// `run` on each of `files` per iteration, as bench `robots-<profile>` of `group` for
/// each profile.
fn bench_ours(
    group: &mut BenchmarkGroup<'_, WallTime>,
    corpus: &Corpus,
    files: &[usize],
    run: impl Fn(&[u8], Options),
) {
    for (profile, name) in PROFILES {
        let options = corpus::options(profile);
        group.bench_function(format!("robots-{name}"), |b| {
            b.iter(|| {
                for &f in files {
                    run(black_box(&corpus.files[f].bytes), options);
                }
            })
        });
    }
}
