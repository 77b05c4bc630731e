//! What criterion's batch means do not show, over the shared corpus: the distribution of
//! single-check latency over the 160,160 queries (median, p90, p99, worst), the ten
//! slowest files, cold start (a file's first check on a fresh parse against the same
//! check on a copy made after one check), and the memory of all 20,000 files parsed
//! and held at once.
//!
//! A query's latency is taken warm, after one untimed check (as for a crawler checking one
//! site's URLs in a row; the cold-start figure covers the first check): the fastest of
//! [`ROUNDS`] timings (one per pass over all queries) of [`REPEAT`] back-to-back checks,
//! over [`REPEAT`]: the clock is read twice per timing, so its cost (tens of
//! nanoseconds) does not blur a ~100 ns answer. Memory is the heap bytes still live
//! after parsing, counted by `allocation-counter`'s global allocator: first what the
//! parsing thread keeps between parses, then what the parsed files hold. Run:
//! `cargo bench -p robots --bench latency` (`-- google` for the Google profile). Without
//! the shared corpus this prints a notice and measures nothing.

mod corpus;

use std::collections::{BTreeSet, HashMap};
use std::hint::black_box;
use std::time::Instant;

use corpus::Corpus;
use robots::{Profile, Robots};

const ROUNDS: usize = 5;
const REPEAT: u32 = 8;

/// The value at quantile `q` of sorted nanoseconds.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// The nanoseconds of one check, timed over `repeat` checks in a row.
fn time_check(robots: &Robots, agent: &robots::Agent, url: &str, repeat: u32) -> f64 {
    let start = Instant::now();
    for _ in 0..repeat {
        black_box(robots.check(agent, black_box(url)).allowed());
    }
    start.elapsed().as_nanos() as f64 / f64::from(repeat)
}

fn main() {
    let Some(corpus) = Corpus::load() else {
        return;
    };
    let (profile, name) = if std::env::args().any(|a| a == "google") {
        (Profile::Google, "google")
    } else {
        (Profile::Rfc9309, "rfc9309")
    };
    let options = corpus::options(profile);
    let input: usize = corpus.files.iter().map(|f| f.bytes.len()).sum();

    // The thread's kept vectors (see the README's decisions) grow to what the biggest file
    // needs: measured apart, as what is still live once every file was parsed and dropped,
    // so that the files' own figure below counts them alone.
    let kept = allocation_counter::measure(|| {
        for f in &corpus.files {
            black_box(Robots::parse_with(&f.bytes, options));
        }
    })
    .bytes_current;
    println!("memory ({name}): the parsing thread keeps {kept} bytes of vectors between parses");
    let mut parsed: Vec<Robots> = Vec::new();
    let held = allocation_counter::measure(|| {
        parsed = corpus
            .files
            .iter()
            .map(|f| Robots::parse_with(&f.bytes, options))
            .collect();
    })
    .bytes_current;
    println!(
        "memory ({name}): {} files of {input} bytes held parsed in {held} bytes, {:.2}x their size",
        parsed.len(),
        held as f64 / input as f64
    );
    black_box(&parsed);

    let agents: Vec<_> = corpus
        .queries
        .iter()
        .map(|q| corpus::agent(&q.agent))
        .collect();
    // Rounds are whole passes over the queries, so that a slow spell of the machine
    // (another tenant, a frequency change) spoils one round of a query, not all of them.
    let mut latency = vec![f64::INFINITY; corpus.queries.len()];
    for _ in 0..ROUNDS {
        for ((q, agent), best) in corpus.queries.iter().zip(&agents).zip(&mut latency) {
            black_box(parsed[q.file].check(agent, &q.url));
            *best = best.min(time_check(&parsed[q.file], agent, &q.url, REPEAT));
        }
    }
    let mut sorted = latency.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "check latency ({name}, {} queries, ns): median {:.0}, p90 {:.0}, p99 {:.0}, worst {:.0}",
        sorted.len(),
        quantile(&sorted, 0.5),
        quantile(&sorted, 0.9),
        quantile(&sorted, 0.99),
        sorted[sorted.len() - 1]
    );

    // The slowest query of each file, slowest files first.
    let mut slowest: HashMap<usize, (f64, usize)> = HashMap::new();
    for (i, q) in corpus.queries.iter().enumerate() {
        let slot = slowest.entry(q.file).or_insert((0.0, i));
        if latency[i] > slot.0 {
            *slot = (latency[i], i);
        }
    }
    let mut worst: Vec<(f64, usize)> = slowest.into_values().collect();
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("ten slowest files by their slowest query:");
    for &(ns, i) in worst.iter().take(10) {
        let q = &corpus.queries[i];
        let robots = &parsed[q.file];
        let rules: usize = robots.groups().map(|g| g.rules().count()).sum();
        let wildcard = robots
            .groups()
            .flat_map(|g| g.rules())
            .filter(|r| r.pattern().contains('*'))
            .count();
        let url: String = q.url.chars().take(70).collect();
        println!(
            "  {} {:>6.0} ns  {:>7} bytes  {rules:>5} rules ({wildcard} wildcard)  {url}",
            corpus.files[q.file].name,
            ns,
            corpus.files[q.file].bytes.len()
        );
    }

    // Cold start: a file's first check, on the file freshly parsed, against the same
    // check on a copy of the file made after it had been checked once (the copy would
    // carry anything a check builds lazily). Both copies are fresh memory and each timed
    // check follows a check on the previous file, in alternating order, so they differ
    // only in whether the file had been checked before.
    let mut seen = BTreeSet::new();
    let (mut first, mut again) = (Vec::new(), Vec::new());
    let mut previous: Option<(Robots, &robots::Agent, &str)> = None;
    for (q, agent) in corpus.queries.iter().zip(&agents) {
        if !seen.insert(q.file) {
            continue;
        }
        let bytes = &corpus.files[q.file].bytes;
        let checked = Robots::parse_with(bytes, options);
        black_box(checked.check(agent, &q.url));
        let copy = checked.clone();
        let fresh = Robots::parse_with(bytes, options);
        let time_after_another = |robots: &Robots| {
            if let Some((other, agent, url)) = &previous {
                black_box(other.check(agent, url));
            }
            time_check(robots, agent, &q.url, 1)
        };
        if seen.len() % 2 == 0 {
            first.push(time_after_another(&fresh));
            again.push(time_after_another(&copy));
        } else {
            again.push(time_after_another(&copy));
            first.push(time_after_another(&fresh));
        }
        previous = Some((checked, agent, &q.url));
    }
    first.sort_by(f64::total_cmp);
    again.sort_by(f64::total_cmp);
    println!(
        "cold start ({name}, {} files, single checks, clock included, ns): first check of a fresh parse median {:.0} (p90 {:.0}); the same check of a copy made after one check median {:.0} (p90 {:.0})",
        first.len(),
        quantile(&first, 0.5),
        quantile(&first, 0.9),
        quantile(&again, 0.5),
        quantile(&again, 0.9)
    );
}
