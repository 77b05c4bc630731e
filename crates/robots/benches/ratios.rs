//! Parse throughput as ratios, for a machine whose speed wanders: the contenders of the
//! `parse` bench (the same files, the same calls) each parse the corpus once per round,
//! one after another, round after round, starting each round one contender further on.
//!
//! A slow spell of the machine then spoils one round of every contender alike, where
//! criterion's runs, one contender after another, let it spoil all of one contender's
//! samples (on 2026-12-01 robotstxt's time moved from 920 to 537 ms between two criterion
//! runs while ours held within 6%). Printed: each contender's median and best pass, its
//! throughput at the median, and the median over the rounds of its time over ours
//! (`robots-rfc9309`), so above 1 means ours is faster. Run:
//! `cargo bench -p robots --bench ratios` (`-- 30` for 30 rounds; 15 by default).
//! Without the shared corpus this prints a notice and measures nothing.

mod corpus;

use std::hint::black_box;
use std::time::Instant;

use corpus::google_cpp::GoogleCpp;
use corpus::{Corpus, PROFILES};
use robots::Robots;

/// One contender: its name and one pass over the files.
type Contender<'a> = (String, Box<dyn FnMut() + 'a>);

fn contenders<'a>(
    corpus: &'a Corpus,
    files: &'a [usize],
    cpp: Option<&'a mut GoogleCpp>,
) -> Vec<Contender<'a>> {
    let mut all: Vec<Contender<'a>> = Vec::new();
    for (profile, name) in PROFILES {
        let options = corpus::options(profile);
        all.push((
            format!("robots-{name}"),
            Box::new(move || {
                for &f in files {
                    black_box(Robots::parse_with(
                        black_box(&corpus.files[f].bytes),
                        options,
                    ));
                }
            }),
        ));
    }
    all.push((
        "texting_robots".into(),
        Box::new(move || {
            for &f in files {
                let _ = black_box(corpus::texting_parse(black_box(&corpus.files[f].bytes)));
            }
        }),
    ));
    all.push((
        "robotstxt".into(),
        Box::new(move || {
            for &f in files {
                black_box(corpus::robotstxt_parse(black_box(&corpus.files[f].text)));
            }
        }),
    ));
    if let Some(cpp) = cpp {
        all.push((
            "google-cpp".into(),
            Box::new(move || {
                for &f in files {
                    black_box(cpp.parse(black_box(&corpus.files[f].bytes)));
                }
            }),
        ));
    }
    all
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let rounds: usize = match std::env::args().skip(1).find(|a| !a.starts_with('-')) {
        None => 15,
        Some(n) => match n.parse() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("error: `{n}` is not a number of rounds; give one such as 30");
                std::process::exit(2);
            }
        },
    };
    let Some(corpus) = Corpus::load() else {
        return;
    };
    let (_, files) = corpus::fair_files(&corpus, "ratios");
    let bytes = corpus.total_bytes(files.iter().copied().collect());
    let mut cpp = GoogleCpp::load();
    let mut contenders = contenders(&corpus, &files, cpp.as_mut());
    // One pass each before measuring: the allocator's and the caches' first touches.
    for (_, pass) in &mut contenders {
        pass();
    }
    let n = contenders.len();
    let mut times = vec![Vec::with_capacity(rounds); n];
    for round in 0..rounds {
        for i in (0..n).map(|k| (round + k) % n) {
            let start = Instant::now();
            (contenders[i].1)();
            times[i].push(start.elapsed().as_secs_f64());
        }
    }
    println!(
        "parse, {rounds} rounds over {} files ({bytes} bytes): median pass (best), \
         throughput at the median, and the median of each round's time over robots-rfc9309's",
        files.len()
    );
    for (i, (name, _)) in contenders.iter().enumerate() {
        let mut ratios: Vec<f64> = (0..rounds).map(|r| times[i][r] / times[0][r]).collect();
        let mut mine = times[i].clone();
        let typical = median(&mut mine);
        let best = mine[0];
        println!(
            "  {name:<15} {:>8.1} ms ({:>7.1}) {:>6.0} MB/s  {:>6.2}x",
            typical * 1e3,
            best * 1e3,
            bytes as f64 / typical / 1e6,
            median(&mut ratios)
        );
    }
}
