//! Parse throughput (bytes/s) over all 20,000 files of the shared corpus, ours with both
//! profiles side by side with the peer crates `texting_robots` and `robotstxt`.
//!
//! - `robots-rfc9309`, `robots-google`: `Robots::parse_with` (both without a parse limit,
//!   so every contender reads every byte).
//! - `texting_robots`: `Robot::new("ExampleBot", bytes)`, which parses for one agent.
//! - `robotstxt`: `parse_robotstxt` with a handler that only counts what it is handed;
//!   the crate keeps no parsed form, so this is its tokenizer alone, a lower bound on
//!   what building rules would cost. It takes `&str`: the lossy text is made up front.
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

use corpus::{over_budget, timed, Corpus, CountingHandler, PROFILES};
use criterion::measurement::WallTime;
use criterion::{Bencher, BenchmarkGroup, Throughput};
use robots::{Options, Robots, Tokens};

fn main() {
    let Some(corpus) = Corpus::load() else {
        return;
    };
    let all = corpus.all_files();
    let mut excluded = over_budget("robotstxt parse", &all, &corpus, |f| {
        let text = &corpus.files[f].text;
        timed(|| {
            let mut handler = CountingHandler::default();
            robotstxt::parse_robotstxt(text, &mut handler);
            handler.lines
        })
        .1
    });
    let mut texting_errors = 0;
    excluded.extend(over_budget("texting_robots parse", &all, &corpus, |f| {
        let (result, took) =
            timed(|| texting_robots::Robot::new("ExampleBot", &corpus.files[f].bytes));
        texting_errors += usize::from(result.is_err());
        took
    }));
    eprintln!("texting_robots refuses {texting_errors} files (Err), measured all the same");
    let fair: Vec<usize> = all.difference(&excluded).copied().collect();
    corpus::print_set("parse group", &corpus, &fair.iter().copied().collect(), 0);

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
                let _ = black_box(texting_robots::Robot::new(
                    "ExampleBot",
                    black_box(&corpus.files[f].bytes),
                ));
            }
        })
    });
    group.bench_function("robotstxt", |b| robotstxt_tokenizer(b, &corpus, &fair));
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
            let mut handler = CountingHandler::default();
            robotstxt::parse_robotstxt(black_box(&corpus.files[f].text), &mut handler);
            black_box(handler.lines);
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
