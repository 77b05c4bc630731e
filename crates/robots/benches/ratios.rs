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
//!
//! `-- sizes` measures the same files in groups by size ([`SIZES`]), to tell small files'
//! cost from large ones'. `-- kinds` measures files made of one kind of line each ([`KINDS`]:
//! rules, wildcard rules, user-agent lines, sitemaps, comments, blank lines), so that a
//! line's cost is seen by kind: per line, each contender's time at the median and its
//! median ratio to ours; then a file of the same lines mixed as the corpus mixes its
//! kinds ([`MIX`]), beside what its lines cost each kind in a file of its own, so that
//! what mixing costs is seen apart. These files are made here, so this needs no corpus.
//!
//! A corpus run (no `sizes` or `kinds`) also writes its figures as a record,
//! `docs/measurements/parse-ratios/<UTC time>.json` (date, CPU, command, each contender's
//! times and ratio), from which `scripts/perf-table` makes the table of
//! `docs/performance.md`: figures are data, never retyped into prose.

mod corpus;

use std::hint::black_box;
use std::time::Instant;

use corpus::google_cpp::GoogleCpp;
use corpus::{Corpus, File, PROFILES};
use robots::Robots;

/// The `i`th line of a kind.
type LineOfKind = fn(usize) -> String;

/// The kinds of line `-- kinds` times: a name, and the `i`th line of that kind. Each file
/// opens with `User-agent: *` and holds [`KIND_LINES`] of one kind (the user-agent lines
/// are then followed by one rule, so that they make a group). Each kind's line is one
/// plain example of it: real files' lines vary.
const KINDS: [(&str, LineOfKind); 6] = [
    ("rule", |i| {
        format!("Disallow: /catalog/product-{i}/reviews.html")
    }),
    ("wildcard rule", |i| {
        format!("Disallow: /*?filter_{i}=*&sort=")
    }),
    ("user-agent", |i| format!("User-agent: {}bot", letters(i))),
    ("sitemap", |i| {
        format!("Sitemap: https://www.example.com/sitemaps/sitemap-{i}.xml")
    }),
    ("comment", |i| {
        format!("# section {i}: pages crawlers may skip")
    }),
    ("blank", |_| String::new()),
];

/// `i` written in the letters `a` to `z`: a crawler's name in RFC 9309's alphabet, as most
/// are (one with a digit would add a diagnostic to each line).
fn letters(mut i: usize) -> String {
    let mut name = String::from("Crawl");
    loop {
        name.push(char::from(b'a' + (i % 26) as u8));
        i /= 26;
        if i == 0 {
            return name;
        }
    }
}

/// How the mixed file of `-- kinds` shares out its lines among [`KINDS`], in lines per
/// thousand: the corpus's own shares, its lines told apart by their keys and first octets
/// (its few other records counted as sitemaps). Its user-agent lines name `*` as often as
/// the corpus's rule lines fall in `*` groups.
const MIX: [usize; 6] = [608, 172, 73, 50, 39, 58];

/// Lines of one kind per file in `-- kinds`.
const KIND_LINES: usize = 1000;

/// How many times a round parses a file of one kind.
const KIND_PASSES: usize = 50;

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

/// Each contender's pass times, `rounds` of them, the contenders taking turns.
fn rounds_of(contenders: &mut [Contender<'_>], rounds: usize) -> Vec<Vec<f64>> {
    // One pass each before measuring: the allocator's and the caches' first touches.
    for (_, pass) in contenders.iter_mut() {
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
    times
}

/// A contender's median pass, its best, and the median of its rounds' times over the
/// first contender's.
fn summary(times: &[Vec<f64>], i: usize) -> (f64, f64, f64) {
    let mut ratios: Vec<f64> = (0..times[i].len())
        .map(|r| times[i][r] / times[0][r])
        .collect();
    let mut mine = times[i].clone();
    let typical = median(&mut mine);
    (typical, mine[0], median(&mut ratios))
}

/// Each contender's name, what `show` makes of its median pass, and its median ratio,
/// in one line.
fn cells(contenders: &[Contender<'_>], times: &[Vec<f64>], show: impl Fn(f64) -> String) -> String {
    let cells: Vec<String> = (0..contenders.len())
        .map(|i| {
            let (typical, _, ratio) = summary(times, i);
            format!("{} {} {ratio:.2}x", contenders[i].0, show(typical))
        })
        .collect();
    cells.join(", ")
}

/// What a run measures.
#[derive(PartialEq)]
enum Mode {
    /// The corpus, all at once.
    Corpus,
    /// The corpus's files in [`SIZES`] groups by size.
    Sizes,
    /// Files of one kind of line each ([`KINDS`]).
    Kinds,
}

/// `-- sizes`: the corpus's files, largest first, split at these ranks.
const SIZES: [usize; 6] = [0, 20, 100, 1000, 5000, usize::MAX];

fn main() {
    let (mut mode, mut rounds) = (Mode::Corpus, 15);
    for arg in std::env::args().skip(1).filter(|a| !a.starts_with('-')) {
        match arg.parse() {
            _ if arg == "kinds" => mode = Mode::Kinds,
            _ if arg == "sizes" => mode = Mode::Sizes,
            Ok(n) if n > 0 => rounds = n,
            _ => {
                eprintln!(
                    "error: `{arg}` is neither a number of rounds (such as 30) nor \
                     `kinds` or `sizes`"
                );
                std::process::exit(2);
            }
        }
    }
    if mode == Mode::Kinds {
        by_kind(rounds);
        return;
    }
    let Some(corpus) = Corpus::load() else {
        return;
    };
    let (_, files) = corpus::fair_files(&corpus, "ratios");
    let mut cpp = GoogleCpp::load();
    if mode == Mode::Sizes {
        let mut by_size = files;
        by_size.sort_by_key(|&f| std::cmp::Reverse(corpus.files[f].bytes.len()));
        println!(
            "parse by file size, {rounds} rounds: the files ranked by size, largest first, \
             in groups; per group, each contender's throughput at its median pass and the \
             median of its rounds' times over robots-rfc9309's"
        );
        for ranks in SIZES.windows(2) {
            let group = &by_size[ranks[0].min(by_size.len())..ranks[1].min(by_size.len())];
            let bytes = corpus.total_bytes(group.iter().copied().collect());
            let mut contenders = contenders(&corpus, group, cpp.as_mut());
            let times = rounds_of(&mut contenders, rounds);
            let rates = cells(&contenders, &times, |typical| {
                format!("{:.0} MB/s", bytes as f64 / typical / 1e6)
            });
            println!(
                "  files {}..{} ({bytes} bytes): {rates}",
                ranks[0],
                ranks[0] + group.len(),
            );
        }
        return;
    }
    let bytes = corpus.total_bytes(files.iter().copied().collect());
    let mut contenders = contenders(&corpus, &files, cpp.as_mut());
    let times = rounds_of(&mut contenders, rounds);
    println!(
        "parse, {rounds} rounds over {} files ({bytes} bytes): median pass (best), \
         throughput at the median, and the median of each round's time over robots-rfc9309's",
        files.len()
    );
    let mut rows = Vec::new();
    for (i, (name, _)) in contenders.iter().enumerate() {
        let (typical, best, ratio) = summary(&times, i);
        println!(
            "  {name:<15} {:>8.1} ms ({:>7.1}) {:>6.0} MB/s  {ratio:>6.2}x",
            typical * 1e3,
            best * 1e3,
            bytes as f64 / typical / 1e6,
        );
        rows.push(serde_json::json!({
            "name": name,
            "median_ms": round(typical * 1e3, 2),
            "best_ms": round(best * 1e3, 2),
            "median_mb_per_s": round(bytes as f64 / typical / 1e6, 1),
            "ratio_to_robots_rfc9309": round(ratio, 3),
        }));
    }
    let record = serde_json::json!({
        "date": utc_now(),
        "cpu": cpu(),
        "command": format!("cargo bench -p robots --bench ratios -- {rounds}"),
        // A busy machine slows every contender, which the ratios absorb; said all the same.
        "load_average_at_end": std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split(' ').next().map(str::to_owned)),
        "what": "parse of every corpus file, contenders alternated round by round; ratio: \
                 the median over rounds of the contender's time over robots-rfc9309's",
        "rounds": rounds,
        "files": files.len(),
        "bytes": bytes,
        "contenders": rows,
    });
    write_record(&record);
}

fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

/// Now in UTC, RFC 3339 to the second, from the system clock (no date crate needed for
/// one civil-from-days conversion).
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The processor, as /proc/cpuinfo names it, with its core count and whether it has
/// AVX-512 (the parse takes other code paths with it).
fn cpu() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |key: &str| {
        info.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_owned())
    };
    let model = field("model name").unwrap_or_else(|| "unknown".into());
    let family = field("cpu family").unwrap_or_default();
    let number = field("model\t").unwrap_or_default();
    let avx512 = field("flags").is_some_and(|f| f.split(' ').any(|x| x == "avx512f"));
    format!(
        "{model} (family {family}, model {number}), {} cores, AVX-512 {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        if avx512 { "yes" } else { "no" }
    )
}

/// Writes `record` under docs/measurements/parse-ratios/, one file per run.
fn write_record(record: &serde_json::Value) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/measurements/parse-ratios");
    let name = record["date"].as_str().unwrap_or("run").replace(':', "");
    let path = dir.join(format!("{name}.json"));
    let written = std::fs::create_dir_all(&dir).and_then(|()| {
        std::fs::write(
            &path,
            serde_json::to_string_pretty(record).unwrap_or_default() + "\n",
        )
    });
    match written {
        Ok(()) => println!("recorded: docs/measurements/parse-ratios/{name}.json (scripts/perf-table makes docs/performance.md's table from the newest)"),
        Err(e) => eprintln!("notice: the record was not written to {}: {e}", path.display()),
    }
}

/// `-- kinds`: the contenders on a file of each of [`KINDS`], per line.
fn by_kind(rounds: usize) {
    let mut cpp = GoogleCpp::load();
    println!(
        "parse by kind of line, {rounds} rounds of {KIND_PASSES} parses of a file of \
         {KIND_LINES} lines: per line, each contender's median time and the median of \
         its rounds' times over robots-rfc9309's"
    );
    // Each contender's time per line at its median pass, kind by kind.
    let mut per_kind = Vec::new();
    for (kind, line) in KINDS {
        let lines = (0..KIND_LINES).map(line);
        per_kind.push(time_lines(
            kind,
            lines,
            kind == "user-agent",
            rounds,
            &mut cpp,
        ));
    }
    // The mixed file: its kinds in the order a fixed pseudo-random sequence picks them,
    // each kind's lines numbered in turn, so that none repeats.
    let mut next = [0; KINDS.len()];
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let lines = (0..KIND_LINES).map(|_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let pick = (state % 1000) as usize;
        let kind = MIX
            .iter()
            .scan(0, |upto, &share| {
                *upto += share;
                Some(*upto)
            })
            .position(|upto| pick < upto)
            .unwrap_or(0);
        next[kind] += 1;
        // 72% of the corpus's rule lines are in `*` groups, which a parse for one
        // crawler (the C++ matcher's, texting_robots') keeps, where it skips the rules of
        // groups naming others: as many of the user-agent lines name `*`.
        if KINDS[kind].0 == "user-agent" && next[kind] % 25 >= 7 {
            return "User-agent: *".to_string();
        }
        (KINDS[kind].1)(next[kind])
    });
    time_lines("mixed", lines, true, rounds, &mut cpp);
    let alone: Vec<String> = (0..per_kind[0].len())
        .map(|c| {
            let ns: f64 = (0..KINDS.len())
                .map(|k| next[k] as f64 * per_kind[k][c].1)
                .sum::<f64>()
                / KIND_LINES as f64;
            format!("{} {ns:.1} ns", per_kind[0][c].0)
        })
        .collect();
    println!(
        "  the mixed file's lines, each timed in its kind's own file: {}",
        alone.join(", ")
    );
}

/// Times the contenders on a file of `User-agent: *` and `lines` (and a rule after them,
/// if `close`, so that trailing user-agent lines make a group), [`KIND_PASSES`] parses a
/// round. Prints the line `-- kinds` gives it, and gives each contender's name and time
/// per line at its median pass.
fn time_lines(
    kind: &str,
    lines: impl Iterator<Item = String>,
    close: bool,
    rounds: usize,
    cpp: &mut Option<GoogleCpp>,
) -> Vec<(String, f64)> {
    let mut text = String::from("User-agent: *\n");
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    if close {
        text.push_str("Disallow: /private/\n");
    }
    let file = File {
        name: kind.into(),
        bytes: text.clone().into_bytes(),
        text,
    };
    let corpus = Corpus {
        files: vec![file],
        queries: Vec::new(),
    };
    let passes = [0; KIND_PASSES];
    let mut contenders = contenders(&corpus, &passes, cpp.as_mut());
    let times = rounds_of(&mut contenders, rounds);
    let per_line = 1e9 / (KIND_PASSES * KIND_LINES) as f64;
    let octets = corpus.files[0].bytes.len() / KIND_LINES;
    let costs = cells(&contenders, &times, |typical| {
        format!("{:.1} ns", typical * per_line)
    });
    println!("  {kind:<14} ({octets:>2} octets): {costs}");
    (0..contenders.len())
        .map(|i| (contenders[i].0.clone(), summary(&times, i).0 * per_line))
        .collect()
}
