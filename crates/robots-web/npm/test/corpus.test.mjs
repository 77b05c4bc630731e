// The package's Google profile against Google's verdicts and deciding lines on every
// query of the shared corpus (cases.jsonl), each file parsed once from its raw bytes,
// as crates/robots/tests/it/google_corpus.rs does natively. Skipped, with a notice, when
// the corpus is absent.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Robots, corpus } from './package.mjs';

const dir = corpus();

test('the Google profile agrees with Google on every corpus query', { skip: dir === null && 'no shared corpus' }, () => {
  const parsed = new Map();
  const failures = [];
  let total = 0;
  for (const line of readFileSync(join(dir, 'cases.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    let robots = parsed.get(c.file);
    if (robots === undefined) {
      // Google's matcher has no parse limit: read whole files, as the native test does.
      robots = Robots.parse(readFileSync(join(dir, 'robots', c.file)), { profile: 'google', maxBytes: 2 ** 53 });
      parsed.set(c.file, robots);
    }
    const v = robots.check(c.agent, c.url);
    total++;
    if (v.allowed !== c.allowed || (v.line ?? 0) !== c.line) {
      failures.push(`${line} -> allowed ${v.allowed} line ${v.line}`);
    }
  }
  assert.ok(total > 100_000, `the corpus holds ${total} queries`);
  assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${total} disagree`);
  console.log(`corpus: ${total} of ${total} queries agree on verdict and line`);
});
