// Every query of the shared corpus (cases.jsonl) answered from the raw files, each file
// parsed once, by robots-parser and by this package (its robots-parser drop-in and its
// own API), in one process, alternating, and the ratios. Run by scripts/bench-npm,
// which builds the package and installs robots-parser; writes the run to
// bench/results/<date>T<hhmm>.json. Usage: node bench.mjs <package dir> <robots-parser dir> [runs]

import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [packageDir, peerDir, runsArg] = process.argv.slice(2);
if (!packageDir || !peerDir) {
  console.error('usage: node bench.mjs <package dir> <robots-parser dir> [runs]');
  process.exit(2);
}
const RUNS = Number(runsArg ?? 7);
const here = fileURLToPath(new URL('.', import.meta.url));
const repo = join(here, '..', '..', '..', '..');

const corpus = join(process.env.ROBOTS_SHARED ?? join(repo, '..', 'shared'), 'corpus');
if (!existsSync(join(corpus, 'cases.jsonl'))) {
  console.log(`notice: the shared corpus (${corpus}) is absent, so there is nothing to measure; set ROBOTS_SHARED to the folder that holds corpus/`);
  process.exit(0);
}

const load = createRequire(join(packageDir, 'package.json'));
const { Robots } = load(join(packageDir, 'index.cjs'));
const compat = load(join(packageDir, 'compat.cjs'));
const peerRequire = createRequire(join(peerDir, 'package.json'));
const robotsParser = peerRequire('robots-parser');
const peerVersion = peerRequire('robots-parser/package.json').version;
const ourVersion = load(join(packageDir, 'package.json')).version;

// The queries grouped by file in corpus order; each file read once, its bytes kept, and
// its text decoded up front (robots-parser takes text only) so that no contender pays
// for reading or decoding inside a measurement.
const files = [];
const byName = new Map();
for (const line of readFileSync(join(corpus, 'cases.jsonl'), 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const c = JSON.parse(line);
  let file = byName.get(c.file);
  if (file === undefined) {
    const bytes = readFileSync(join(corpus, 'robots', c.file));
    // robots-parser wants the robots.txt's own URL: the origin the queries ask about.
    file = { name: c.file, bytes, text: bytes.toString('utf8'), url: new URL('/robots.txt', c.url).href, queries: [] };
    byName.set(c.file, file);
    files.push(file);
  }
  file.queries.push({ agent: c.agent, url: c.url, google: c.allowed });
}
const queryCount = files.reduce((n, f) => n + f.queries.length, 0);
const bytes = files.reduce((n, f) => n + f.bytes.length, 0);

// Each contender parses every file once and answers its queries; returns the answers.
const contenders = {
  'robots-parser': () => files.flatMap((f) => {
    const robots = robotsParser(f.url, f.text);
    return f.queries.map((q) => robots.isAllowed(q.url, q.agent));
  }),
  'compat (drop-in)': () => files.flatMap((f) => {
    const robots = compat(f.url, f.text);
    return f.queries.map((q) => robots.isAllowed(q.url, q.agent));
  }),
  'Robots.isAllowed': () => files.flatMap((f) => {
    const robots = Robots.parse(f.bytes);
    return f.queries.map((q) => robots.isAllowed(q.agent, q.url));
  }),
  'Robots.check': () => files.flatMap((f) => {
    const robots = Robots.parse(f.bytes);
    return f.queries.map((q) => robots.check(q.agent, q.url).allowed);
  }),
};

// Wall time, and the process's CPU time (all its threads, the collector's too), which
// a machine shared with other work disturbs less.
function time(run) {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const answers = run();
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  return [wall, (used.user + used.system) / 1000, answers];
}

// Between runs, outside the measurements: a collection (when node runs with
// --expose-gc, as scripts/bench-npm runs it) and a turn of the event loop, so that no
// contender pays for the garbage of the one before, and the package's finalizers free
// the files of the run before.
async function settle() {
  for (let i = 0; i < 2; i++) {
    globalThis.gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

// One run each to warm up (and to compare answers), then RUNS rounds, alternating.
const answers = {};
for (const [name, run] of Object.entries(contenders)) {
  answers[name] = time(run)[2];
  await settle();
}
const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
const cpuTimes = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
const order = Object.entries(contenders);
for (let round = 0; round < RUNS; round++) {
  // Each round starts with the next contender, so that none always follows the same one.
  for (const [name, run] of [...order.slice(round % order.length), ...order.slice(0, round % order.length)]) {
    const [wall, cpu] = time(run);
    times[name].push(wall);
    cpuTimes[name].push(cpu);
    await settle();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round1 = (x) => Math.round(x * 10) / 10;
const figures = Object.fromEntries(Object.entries(times).map(([name, ms]) => [name, {
  median_ms: round1(median(ms)),
  min_ms: round1(Math.min(...ms)),
  runs_ms: ms.map(round1),
  cpu_median_ms: round1(median(cpuTimes[name])),
  cpu_runs_ms: cpuTimes[name].map(round1),
}]));
const ratioOf = (field) => Object.fromEntries(Object.keys(contenders).filter((n) => n !== 'robots-parser')
  .map((name) => [name, Math.round((figures['robots-parser'][field] / figures[name][field]) * 100) / 100]));
const ratios = ratioOf('median_ms');
const cpuRatios = ratioOf('cpu_median_ms');

// How often the answers agree: with robots-parser, and with Google's verdicts (the
// drop-in reads RFC 9309, which differs from both by design in places).
const google = files.flatMap((f) => f.queries.map((q) => q.google));
const agree = (a, b) => a.reduce((n, x, i) => n + (x === b[i] ? 1 : 0), 0);
const agreement = {
  'compat vs robots-parser': agree(answers['compat (drop-in)'], answers['robots-parser']),
  'compat vs Google': agree(answers['compat (drop-in)'], google),
  'robots-parser vs Google': agree(answers['robots-parser'], google),
  'Robots.isAllowed vs compat': agree(answers['Robots.isAllowed'], answers['compat (drop-in)']),
};

const wasm = readFileSync(join(packageDir, 'wasm', 'robots_web_bg.wasm'));
const cpu = cpus();
const record = {
  date: new Date().toISOString(),
  cpu: `${cpu[0]?.model ?? 'unknown'} (${cpu.length} logical CPUs)`,
  node: process.version,
  command: `scripts/bench-npm ${RUNS}`,
  corpus: { files: files.length, bytes, queries: queryCount },
  peer: `robots-parser ${peerVersion}`,
  package: `robots-rfc9309 ${ourVersion}`,
  runs: RUNS,
  what: 'each file parsed once (robots-parser and compat from the decoded text, Robots from the raw bytes), then every query of cases.jsonl answered; milliseconds per pass over the corpus',
  figures,
  ratios_vs_robots_parser: ratios,
  cpu_ratios_vs_robots_parser: cpuRatios,
  load_average: loadavg().map((x) => Math.round(x * 100) / 100),
  agreement: Object.fromEntries(Object.entries(agreement).map(([k, n]) => [k, `${n} of ${queryCount}`])),
  wasm_bytes: wasm.length,
  wasm_gzipped_bytes: gzipSync(wasm, { level: 9 }).length,
};

console.log(`corpus: ${files.length} files, ${bytes} bytes, ${queryCount} queries; ${RUNS} runs each, medians; load average ${record.load_average.join(' ')}`);
for (const [name, f] of Object.entries(figures)) {
  const ratio = ratios[name] === undefined ? '' : `  ${ratios[name]}x robots-parser (CPU: ${cpuRatios[name]}x)`;
  console.log(`${name.padEnd(18)} ${String(f.median_ms).padStart(8)} ms wall (min ${f.min_ms}), ${String(f.cpu_median_ms).padStart(7)} ms CPU${ratio}`);
}
for (const [k, v] of Object.entries(record.agreement)) console.log(`agreement ${k}: ${v}`);
console.log(`WebAssembly: ${record.wasm_bytes} bytes, ${record.wasm_gzipped_bytes} gzipped`);

const results = join(here, 'results');
mkdirSync(results, { recursive: true });
// A file per run, named by when it ran (UTC): 2026-12-06T0716.json.
const out = join(results, `${record.date.slice(0, 13)}${record.date.slice(14, 16)}.json`);
writeFileSync(out, JSON.stringify(record, null, 2) + '\n');
console.log(`recorded in ${out}`);
