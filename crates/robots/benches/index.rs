//! Checking every path a file's rules name, as `robots diff` does: through the index
//! ([`Robots::index`]) the cost should grow in proportion to the rules (the time per
//! path stays flat as the file grows), where the scan of `Robots::check` grows with
//! their square.
//!
//! Each file holds `rules` short literal rules (`Disallow: /p<n>`, the most a file of a
//! given size holds: 29,061 at the 500 KiB parse limit); each path is one rule's path
//! with `x` after it. The scan is timed at the smaller sizes only, where it ends in
//! seconds. Groups: `index/<rules>-rules` and `scan/<rules>-rules`. Run:
//! `cargo bench -p robots --bench index`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use robots::{Agent, Robots};

/// `User-agent: *` and `rules` rules `Disallow: /p<n>`, and the paths they name.
fn file(rules: usize) -> (Vec<u8>, Vec<String>) {
    let mut text = String::from("User-agent: *\n");
    let mut paths = Vec::with_capacity(rules);
    for n in 0..rules {
        text.push_str(&format!("Disallow: /p{n}\n"));
        paths.push(format!("/p{n}x"));
    }
    (text.into_bytes(), paths)
}

fn main() {
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    let agent = Agent::new("ExampleBot").expect("a valid token");
    for (name, sizes) in [
        ("index", &[1_000, 4_000, 29_061][..]),
        ("scan", &[1_000, 4_000][..]),
    ] {
        let mut group = c.benchmark_group(name);
        for &rules in sizes {
            let (body, paths) = file(rules);
            let robots = Robots::parse(&body);
            // Throughput in paths, so equal rates mean linear cost in all.
            group.throughput(Throughput::Elements(paths.len() as u64));
            group.bench_with_input(
                BenchmarkId::from_parameter(format!("{rules}-rules")),
                &paths,
                |b, paths| {
                    b.iter(|| {
                        black_box(if name == "index" {
                            let index = robots.index();
                            paths
                                .iter()
                                .filter(|p| index.check(&agent, p).allowed())
                                .count()
                        } else {
                            paths
                                .iter()
                                .filter(|p| robots.check(&agent, p).allowed())
                                .count()
                        })
                    });
                },
            );
        }
        group.finish();
    }
    c.final_summary();
}
