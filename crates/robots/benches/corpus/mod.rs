//! The shared real-world corpus for the benchmarks (`$ROBOTS_SHARED/corpus`, else
//! `../shared/corpus` beside the repository), its queries, and the up-front time budgets
//! that keep a peer's pathological files out of a comparison so that it ends in bounded
//! time. Whatever a budget excludes is printed, and left out for every contender of that
//! comparison, so the ratios compare the same work.

#![allow(dead_code)]

pub mod google_cpp;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};
use robots::{Agent, Options, Profile, Robots};

/// One corpus file.
pub struct File {
    pub name: String,
    pub bytes: Vec<u8>,
    /// The bytes as text, invalid UTF-8 replaced: `robotstxt` takes `&str` only. Made up
    /// front so that no contender pays for the conversion inside a measurement.
    pub text: String,
}

/// One query of `cases.jsonl`.
pub struct Query {
    /// Index into [`Corpus::files`].
    pub file: usize,
    pub agent: String,
    pub url: String,
    /// The verdict of Google's reference matcher, as `cases.jsonl` gives it.
    pub allowed: bool,
}

pub struct Corpus {
    /// All files, in name order.
    pub files: Vec<File>,
    /// All queries, in the order of `cases.jsonl` (grouped by file).
    pub queries: Vec<Query>,
}

/// The corpus folder, or `None` after printing a notice that the benchmark does nothing.
pub fn dir() -> Option<PathBuf> {
    let base = std::env::var_os("ROBOTS_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let dir = base.join("corpus");
    if dir.join("cases.jsonl").is_file() && dir.join("robots").is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "notice: the shared corpus ({}) is absent, so this benchmark measures nothing; \
             set ROBOTS_SHARED to the folder that holds corpus/",
            dir.display()
        );
        None
    }
}

impl Corpus {
    pub fn load() -> Option<Corpus> {
        let dir = dir()?;
        let mut names: Vec<String> = std::fs::read_dir(dir.join("robots"))
            .expect("reading corpus/robots")
            .map(|e| {
                e.expect("corpus entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|n| n.ends_with(".txt"))
            .collect();
        names.sort();
        let files: Vec<File> = names
            .into_iter()
            .map(|name| {
                let bytes = std::fs::read(dir.join("robots").join(&name)).expect("corpus file");
                let text = String::from_utf8_lossy(&bytes).into_owned();
                File { name, bytes, text }
            })
            .collect();
        let index: BTreeMap<&str, usize> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.as_str(), i))
            .collect();
        let cases = std::fs::read_to_string(dir.join("cases.jsonl")).expect("cases.jsonl");
        let queries = cases
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
                let field = |k: &str| v[k].as_str().expect("string field").to_owned();
                Query {
                    file: index[field("file").as_str()],
                    agent: field("agent"),
                    url: field("url"),
                    allowed: v["allowed"].as_bool().expect("boolean field"),
                }
            })
            .collect();
        let corpus = Corpus { files, queries };
        eprintln!(
            "corpus: {} files ({} bytes), {} queries over {} files",
            corpus.files.len(),
            corpus.total_bytes(corpus.all_files()),
            corpus.queries.len(),
            corpus.query_files().len()
        );
        Some(corpus)
    }

    pub fn all_files(&self) -> BTreeSet<usize> {
        (0..self.files.len()).collect()
    }

    /// The files that queries are asked about.
    pub fn query_files(&self) -> BTreeSet<usize> {
        self.queries.iter().map(|q| q.file).collect()
    }

    pub fn total_bytes(&self, files: BTreeSet<usize>) -> u64 {
        files
            .iter()
            .map(|&f| self.files[f].bytes.len() as u64)
            .sum()
    }

    /// The queries on `files`, in corpus order.
    pub fn queries_on<'c>(&'c self, files: &BTreeSet<usize>) -> Vec<&'c Query> {
        self.queries
            .iter()
            .filter(|q| files.contains(&q.file))
            .collect()
    }
}

/// Our options for a profile. Both parse whole files, as the peers do (Google's library
/// has no parse limit), so every contender reads the same bytes.
pub fn options(profile: Profile) -> Options {
    Options::new()
        .profile(profile)
        .max_bytes(usize::MAX)
        .expect("no limit is a valid limit")
}

pub const PROFILES: [(Profile, &str); 2] =
    [(Profile::Rfc9309, "rfc9309"), (Profile::Google, "google")];

/// The agent for a query as the corpus gives it: Google's verdicts take the name as given.
pub fn agent(name: &str) -> Agent {
    Agent::verbatim(name)
}

/// The longest a single operation of a peer (one parse, one query) may take, measured
/// once up front, before its file is left out of a comparison: a typical one takes
/// microseconds and the largest files' parses tens of milliseconds, so only
/// pathological files go.
pub const BUDGET: Duration = Duration::from_millis(250);

/// Times `op` once on each file in `files` (an op may be several calls, timed one by
/// one: it returns the slowest, stopping early at one over [`BUDGET`]; an op over budget
/// runs a second time and the faster run counts) and returns the files over budget,
/// printing each with the time it took, and the slowest file kept.
pub fn over_budget(
    what: &str,
    files: &BTreeSet<usize>,
    corpus: &Corpus,
    mut op: impl FnMut(usize) -> Duration,
) -> BTreeSet<usize> {
    let start = Instant::now();
    let mut out = BTreeSet::new();
    let mut slowest_kept = (Duration::ZERO, None);
    for &f in files {
        let mut took = op(f);
        if took > BUDGET {
            // Once more, keeping the faster: on a busy machine one run can be descheduled.
            took = took.min(op(f));
        }
        let file = &corpus.files[f];
        if took > BUDGET {
            eprintln!(
                "excluded: {} ({} bytes): one {what} took {took:.2?}, over the {BUDGET:?} budget",
                file.name,
                file.bytes.len()
            );
            out.insert(f);
        } else if took > slowest_kept.0 {
            slowest_kept = (took, Some(f));
        }
    }
    if let (took, Some(f)) = slowest_kept {
        let file = &corpus.files[f];
        eprintln!(
            "budget check of {what} on {} files took {:.1?}; {} excluded; slowest kept: {} ({} bytes), {took:.2?}",
            files.len(),
            start.elapsed(),
            out.len(),
            file.name,
            file.bytes.len()
        );
    }
    out
}

/// Runs `f` once, returning its result and how long it took.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

/// The slowest of `ops` timed one by one, stopping at the first over [`BUDGET`].
pub fn slowest<I: IntoIterator>(ops: I, mut op: impl FnMut(I::Item) -> Duration) -> Duration {
    let mut max = Duration::ZERO;
    for item in ops {
        max = max.max(op(item));
        if max > BUDGET {
            break;
        }
    }
    max
}

/// A handler for `robotstxt::parse_robotstxt` that only counts what it is handed: the
/// crate keeps no parsed form, so its parse cost is its tokenizer's.
#[derive(Default)]
pub struct CountingHandler {
    pub lines: u64,
}

impl robotstxt::RobotsParseHandler for CountingHandler {
    fn handle_robots_start(&mut self) {}
    fn handle_robots_end(&mut self) {}
    fn handle_user_agent(&mut self, _: u32, value: &str) {
        self.lines += value.len() as u64;
    }
    fn handle_allow(&mut self, _: u32, value: &str) {
        self.lines += value.len() as u64;
    }
    fn handle_disallow(&mut self, _: u32, value: &str) {
        self.lines += value.len() as u64;
    }
    fn handle_sitemap(&mut self, _: u32, value: &str) {
        self.lines += value.len() as u64;
    }
    fn handle_unknown_action(&mut self, _: u32, _: &str, value: &str) {
        self.lines += value.len() as u64;
    }
}

/// `robotstxt`'s parse of `text` with a [`CountingHandler`]: its tokenizer alone, as it
/// keeps no parsed form. Returns the octets of the values it handed over.
pub fn robotstxt_parse(text: &str) -> u64 {
    let mut handler = CountingHandler::default();
    robotstxt::parse_robotstxt(text, &mut handler);
    handler.lines
}

/// `texting_robots`' parse of `bytes`, which is for one agent: the parse comparisons'
/// `ExampleBot`. `None` for a file it refuses.
pub fn texting_parse(bytes: &[u8]) -> Option<texting_robots::Robot> {
    texting_robots::Robot::new("ExampleBot", bytes).ok()
}

/// One `robotstxt` query: parse and match, as its API requires.
pub fn robotstxt_allowed(text: &str, agent: &str, url: &str) -> bool {
    robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(text, agent, url)
}

/// `robotstxt` on every query of `queries`, as bench `robotstxt` of `group`: it has no
/// parse-once API, so its check and its whole job are the same work.
pub fn bench_robotstxt(
    group: &mut BenchmarkGroup<'_, WallTime>,
    corpus: &Corpus,
    queries: &[&Query],
) {
    group.bench_function("robotstxt", |b| {
        b.iter(|| {
            for q in queries {
                let text = &corpus.files[q.file].text;
                black_box(robotstxt_allowed(text, &q.agent, black_box(&q.url)));
            }
        })
    });
}

/// When the fair set left files out, measures `ours` again on every query, as group
/// `name`.
pub fn all_queries(
    c: &mut Criterion,
    name: &str,
    corpus: &Corpus,
    excluded: &BTreeSet<usize>,
    ours: impl Fn(&mut BenchmarkGroup<'_, WallTime>, &Corpus, &[&Query]),
) {
    if excluded.is_empty() {
        return;
    }
    let mut group = c.benchmark_group(name);
    let everything: Vec<&Query> = corpus.queries.iter().collect();
    ours(&mut group, corpus, &everything);
    group.finish();
}

/// Parses every file of `files` with our crate (used outside measurements).
pub fn parse_all(
    corpus: &Corpus,
    files: &BTreeSet<usize>,
    profile: Profile,
) -> Vec<Option<Robots>> {
    let options = options(profile);
    (0..corpus.files.len())
        .map(|f| {
            files
                .contains(&f)
                .then(|| Robots::parse_with(&corpus.files[f].bytes, options))
        })
        .collect()
}

/// Criterion set for corpus-sized iterations: each iteration is a pass over thousands of
/// files or queries, so few samples and short windows keep `cargo bench -p robots` near
/// ten minutes on two cores.
pub fn criterion() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .configure_from_args()
}

/// Prints the exclusion a comparison applies, for the record beside criterion's output.
pub fn print_set(label: &str, corpus: &Corpus, files: &BTreeSet<usize>, queries: usize) {
    eprintln!(
        "{label}: {} files, {} bytes, {queries} queries",
        files.len(),
        corpus.total_bytes(files.clone())
    );
}

/// The queries grouped by file, in corpus order.
pub fn by_file<'c>(queries: &[&'c Query]) -> BTreeMap<usize, Vec<&'c Query>> {
    let mut out: BTreeMap<usize, Vec<&Query>> = BTreeMap::new();
    for q in queries {
        out.entry(q.file).or_default().push(q);
    }
    out
}

/// The files the parse comparisons leave out: those on which one `robotstxt` parse or
/// one `texting_robots` parse went over [`BUDGET`].
pub fn parse_exclusion(corpus: &Corpus) -> BTreeSet<usize> {
    let all = corpus.all_files();
    let mut excluded = over_budget("robotstxt parse", &all, corpus, |f| {
        timed(|| robotstxt_parse(&corpus.files[f].text)).1
    });
    let mut texting_errors = 0;
    excluded.extend(over_budget("texting_robots parse", &all, corpus, |f| {
        let (result, took) = timed(|| texting_parse(&corpus.files[f].bytes));
        texting_errors += usize::from(result.is_none());
        took
    }));
    eprintln!("texting_robots refuses {texting_errors} files (Err), measured all the same");
    excluded
}

/// The files every contender of a parse comparison reads: those [`parse_exclusion`]
/// leaves in, announced under `label`. Also returns the excluded files, so that ours
/// can then be measured on everything.
pub fn fair_files(corpus: &Corpus, label: &str) -> (BTreeSet<usize>, Vec<usize>) {
    let excluded = parse_exclusion(corpus);
    let fair: BTreeSet<usize> = corpus.all_files().difference(&excluded).copied().collect();
    print_set(label, corpus, &fair, 0);
    (excluded, fair.into_iter().collect())
}

/// The files the check comparisons leave out: those on which one `robotstxt` query
/// (parse and match) or one `texting_robots` parse for an agent went over [`BUDGET`].
/// Each query of each file runs once; a file stops at its first slow query.
pub fn query_exclusion(corpus: &Corpus) -> BTreeSet<usize> {
    let all = corpus.query_files();
    let queries = corpus.queries_on(&all);
    let grouped = by_file(&queries);
    let mut excluded = over_budget("robotstxt query", &all, corpus, |f| {
        let text = &corpus.files[f].text;
        slowest(&grouped[&f], |q| {
            timed(|| robotstxt_allowed(text, &q.agent, &q.url)).1
        })
    });
    excluded.extend(over_budget("texting_robots parse", &all, corpus, |f| {
        let bytes = &corpus.files[f].bytes;
        let agents: BTreeSet<&str> = grouped[&f].iter().map(|q| q.agent.as_str()).collect();
        slowest(agents, |agent| {
            timed(|| texting_robots::Robot::new(agent, bytes)).1
        })
    }));
    excluded
}

/// The queries every contender of a comparison runs: those on files left out by
/// [`query_exclusion`] for none of them, announced under `label`. Also returns the
/// excluded files, so that ours can then be measured on everything.
pub fn fair_queries<'c>(corpus: &'c Corpus, label: &str) -> (BTreeSet<usize>, Vec<&'c Query>) {
    let excluded = query_exclusion(corpus);
    let fair_files = corpus
        .query_files()
        .difference(&excluded)
        .copied()
        .collect();
    let fair = corpus.queries_on(&fair_files);
    print_set(label, corpus, &fair_files, fair.len());
    (excluded, fair)
}
