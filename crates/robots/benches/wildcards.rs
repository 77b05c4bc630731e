//! The worst case: files of many wildcard patterns against long paths. Cost should grow
//! in proportion to rules × path length (greedy segment matching never backtracks), so
//! the time per rule per KB of path stays flat as either grows.
//!
//! Each file holds `rules` patterns like `/*a*a*…*b<n>` (several `*` each); each path is
//! `kb` KiB of `a`s followed by every octet and octet pair the patterns need (`b0`…`b9`,
//! `x00`…`x99`) but never a whole `b<n>`, so no prefilter rules a pattern out and every
//! rule is searched to the end of the path without matching. Groups:
//! `wildcards/<rules>-rules/<kb>kb`. Run: `cargo bench -p robots --bench wildcards`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use robots::{Agent, Robots};

/// A robots.txt of `rules` wildcard patterns that all fail at their last segment.
fn file(rules: usize) -> Vec<u8> {
    let mut text = String::from("User-agent: *\n");
    for n in 0..rules {
        text.push_str(&format!("Disallow: /*a*a*a*a*a*a*a*a*b{n}\n"));
    }
    text.into_bytes()
}

/// `kb` KiB of `a`s, then what defeats the prefilters without letting a pattern match.
fn path(kb: usize) -> String {
    let mut path = format!("/{}", "a".repeat(kb * 1024));
    (0..10).for_each(|d| path.push_str(&format!("b{d}")));
    (0..100).for_each(|n| path.push_str(&format!("x{n:02}")));
    path
}

fn main() {
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    let agent = Agent::new("ExampleBot").expect("a valid token");
    let mut group = c.benchmark_group("wildcards");
    for rules in [500, 1_000, 2_000] {
        let robots = Robots::parse(&file(rules));
        for kb in [2, 5, 10] {
            let path = path(kb);
            // Throughput in rule × byte steps, so equal rates mean linear cost.
            group.throughput(Throughput::Elements((rules * path.len()) as u64));
            group.bench_with_input(
                BenchmarkId::new(format!("{rules}-rules"), format!("{kb}kb")),
                &path,
                |b, path| b.iter(|| black_box(robots.check(&agent, path)).allowed()),
            );
        }
    }
    group.finish();
    c.final_summary();
}
