// The page's WebAssembly against the native `robots check --format json` on a sample of
// the shared corpus (2,400 queries, both profiles), and against Google's expected
// verdicts for the Google profile. Skipped, with a notice, when the corpus is absent.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openPage, repo, robotsBin, serve } from './harness.mjs';

const SAMPLE_FILES = 60; // × 40 queries a file = 2,400 queries per profile
const PARSE_LIMIT = 512000; // robots check's default; Google's matcher has none
const FIELDS = ['url', 'allowed', 'line', 'rule', 'pattern', 'embargo_days', 'reason'];

const corpus = join(process.env.ROBOTS_SHARED ?? join(repo, '..', 'shared'), 'corpus');
const present = existsSync(join(corpus, 'cases.jsonl'));
if (!present) console.log(`notice: ${corpus} is absent; skipping the corpus comparison`);

// Every `step`-th file of those with queries, each with its queries in order.
function sample() {
  const byFile = new Map();
  for (const line of readFileSync(join(corpus, 'cases.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    if (!byFile.has(c.file)) byFile.set(c.file, []);
    byFile.get(c.file).push(c);
  }
  const files = [...byFile.keys()].sort();
  const step = Math.floor(files.length / SAMPLE_FILES);
  return files.filter((_, i) => i % step === 0).slice(0, SAMPLE_FILES).map((f) => [f, byFile.get(f)]);
}

// Queries grouped by agent, in first-seen order: [[agent, [query…]]].
function byAgent(queries) {
  const groups = new Map();
  for (const q of queries) {
    if (!groups.has(q.agent)) groups.set(q.agent, []);
    groups.get(q.agent).push(q);
  }
  return [...groups];
}

// What the native binary says, per query: the JSON object, or {error}.
function nativeVerdicts(path, profile, queries) {
  const out = new Map();
  for (const [agent, group] of byAgent(queries)) {
    const run = spawnSync(
      robotsBin,
      ['check', '--robots', path, `--agent=${agent}`, '--profile', profile, '--format', 'json', '--',
        ...group.map((q) => q.url)],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    if (run.status !== 0) {
      for (const q of group) out.set(q, { error: true });
      continue;
    }
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, group.length, `${path} ${agent}`);
    group.forEach((q, i) => out.set(q, lines[i]));
  }
  return out;
}

// What the page's module says, computed in the browser: per agent, verdicts or {error}.
function browserVerdicts(page, base64, profile, groups) {
  return page.evaluate(
    async ({ base64, profile, groups }) => {
      const engine = await import('/pkg/robots_web.js');
      await engine.default();
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const file = engine.parse(bytes, profile);
      try {
        return groups.map(([agent, urls]) => {
          try {
            return JSON.parse(file.check(agent, false, urls)).verdicts;
          } catch (err) {
            return { error: String(err.message ?? err) };
          }
        });
      } finally {
        file.free();
      }
    },
    { base64, profile, groups },
  );
}

let server;
let browser;

before(async () => {
  if (!present) return;
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

for (const profile of ['rfc9309', 'google']) {
  test(`the page's WebAssembly agrees with robots check on 2,400 corpus queries (${profile})`, { skip: !present }, async () => {
    const { context, page, record } = await openPage(browser, server.url);
    let compared = 0;
    let expectedChecked = 0;
    let expectedSkipped = 0;
    const differences = [];
    const googleDifferences = [];
    for (const [file, queries] of sample()) {
      const path = join(corpus, 'robots', file);
      const bytes = readFileSync(path);
      const expected = nativeVerdicts(path, profile, queries);
      const groups = byAgent(queries);
      const answers = await browserVerdicts(
        page, bytes.toString('base64'), profile, groups.map(([a, qs]) => [a, qs.map((q) => q.url)]),
      );
      groups.forEach(([agent, group], g) => {
        group.forEach((q, i) => {
          const native = expected.get(q);
          const mine = answers[g].error ? { error: true } : answers[g][i];
          const pick = (v) => (v.error ? 'error' : JSON.stringify(FIELDS.map((f) => v[f])));
          compared += 1;
          if (pick(native) !== pick(mine)) {
            differences.push(`${file} ${agent} ${q.url}: native ${pick(native)} page ${pick(mine)}`);
          }
          if (profile === 'google') {
            if (bytes.length > PARSE_LIMIT) {
              expectedSkipped += 1;
            } else {
              expectedChecked += 1;
              const line = mine.line ?? 0;
              if (mine.allowed !== q.allowed || line !== q.line) {
                googleDifferences.push(`${file} ${agent} ${q.url}: expected ${q.allowed}/${q.line}, page ${mine.allowed}/${line}`);
              }
            }
          }
        });
      });
    }
    console.log(`${profile}: ${compared - differences.length} of ${compared} corpus queries agree between the page and robots check`);
    if (profile === 'google') {
      console.log(`google: ${expectedChecked - googleDifferences.length} of ${expectedChecked} agree with Google's expected verdicts and lines`
        + ` (${expectedSkipped} skipped: files over the ${PARSE_LIMIT}-byte parse limit)`);
    }
    assert.ok(compared >= 2000, `only ${compared} queries compared`);
    assert.deepEqual(differences.slice(0, 10), []);
    assert.deepEqual(googleDifferences.slice(0, 10), []);
    // Everything came from the local server.
    assert.ok(record.requests.every((u) => u.startsWith(server.url)), record.requests.join('\n'));
    await context.close();
  });
}
