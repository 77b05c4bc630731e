// The packed tarball installed with npm into a scratch project in a temporary folder,
// then used as a user would: by require() and by import, the API and the compat module,
// and its types checked by TypeScript (installed from npm into the same project).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarball } from './package.mjs';

const TYPESCRIPT = 'typescript@5.9.3';

const TYPED = {
  'use.mts': `
import { Robots, fromResponse, type Verdict } from 'robots-rfc9309';
import robotsParser from 'robots-rfc9309/compat';
const v: Verdict = Robots.parse('x', { profile: 'google', maxBytes: 600000 }).check('ExampleBot', '/x');
const line: number = v.line ?? -1;
const allowed: boolean | undefined = robotsParser('https://e.com/robots.txt', '').isAllowed('https://e.com/');
// @ts-expect-error: no such profile
Robots.parse('x', { profile: 'bing' });
const down: boolean = fromResponse(503, null).check('ExampleBot', '/x').allowed;
console.log(line, allowed, down);
`,
  'use.cts': `
import robotsParser = require('robots-rfc9309/compat');
import { Robots } from 'robots-rfc9309';
const delay: number | null = Robots.fromResponse(200, 'User-agent: *').crawlDelay('ExampleBot');
const host: string | null = robotsParser('https://e.com/robots.txt', '').getPreferredHost();
// @ts-expect-error: check takes an agent, then a URL
Robots.parse('').check('/x');
console.log(delay, host);
`,
};

const FILE = 'User-agent: *\\nDisallow: /private/\\n';

const SCRIPTS = {
  'use.cjs': `
const { Robots } = require('robots-rfc9309');
const robotsParser = require('robots-rfc9309/compat');
const v = Robots.parse('${FILE}').check('ExampleBot', '/private/x');
const r = robotsParser('https://example.com/robots.txt', '${FILE}');
console.log(JSON.stringify({ v, compat: [r.isAllowed('https://example.com/private/x', 'ExampleBot/1.0'), r.isAllowed('https://other.example/', 'ExampleBot')] }));
`,
  'use.mjs': `
import { Robots } from 'robots-rfc9309';
import robotsParser from 'robots-rfc9309/compat';
const v = Robots.parse('${FILE}').check('ExampleBot', '/private/x');
const r = robotsParser('https://example.com/robots.txt', '${FILE}');
console.log(JSON.stringify({ v, compat: [r.isAllowed('https://example.com/private/x', 'ExampleBot/1.0'), r.isAllowed('https://other.example/', 'ExampleBot')] }));
`,
};

test('the tarball installs with npm and works by require() and by import', () => {
  const project = mkdtempSync(join(tmpdir(), 'robots-npm-install-'));
  try {
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', tarball(), TYPESCRIPT], { cwd: project, stdio: 'pipe' });
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', 'robots-rfc9309', 'package.json'), 'utf8'));
    assert.equal(installed.name, 'robots-rfc9309');
    assert.ok(installed.exports['./compat'], 'the compat entry is exported');
    for (const [name, source] of Object.entries(SCRIPTS)) {
      writeFileSync(join(project, name), source);
      const out = JSON.parse(execFileSync(process.execPath, [name], { cwd: project, encoding: 'utf8' }));
      assert.deepEqual(out.v, { allowed: false, line: 2, rule: 'disallow', pattern: '/private/', reason: 'longest', embargoDays: null,
        contentUsage: null, contentUsageLine: null, contentSignal: null, contentSignalLine: null }, name);
      // JSON writes undefined in an array as null: another origin's URL.
      assert.deepEqual(out.compat, [false, null], name);
    }
    // The types, as TypeScript resolves them for Node's two module systems.
    for (const [name, source] of Object.entries(TYPED)) writeFileSync(join(project, name), source);
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', ...Object.keys(TYPED)];
    try {
      execFileSync(process.execPath, args, { cwd: project, encoding: 'utf8' });
    } catch (err) {
      assert.fail(`tsc found type errors:\n${err.stdout}${err.stderr}`);
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
