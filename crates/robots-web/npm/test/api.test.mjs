// The package's own API: parse, check (the fields of `robots check --format json`),
// the profiles, Archive-Embargo, the parse limit, fromResponse's status rules, and
// the answers beside the verdicts (crawl delay, sitemaps, host, lint, explain).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Robots, esm, repo } from './package.mjs';

const FILE = `User-agent: *
Disallow: /private/
Allow: /private/open
Crawl-delay: 2.5

User-agent: ExampleArchiver
Archive-Embargo: m
Embargo-Allow: /news/
Disallow: /

Sitemap: https://example.com/sitemap.xml
Host: Example.com
Disalow: /typo
`;

// A verdict's AI usage preferences when the file states none.
const NONE = { contentUsage: null, contentUsageLine: null, contentSignal: null, contentSignalLine: null };

test('check answers with the fields of robots check --format json', () => {
  const robots = Robots.parse(FILE);
  assert.deepEqual(robots.check('ExampleBot', 'https://example.com/private/x'), {
    allowed: false, line: 2, rule: 'disallow', pattern: '/private/', reason: 'longest', embargoDays: null, ...NONE,
  });
  assert.deepEqual(robots.check('ExampleBot', '/private/open/1'), {
    allowed: true, line: 3, rule: 'allow', pattern: '/private/open', reason: 'longest', embargoDays: null, ...NONE,
  });
  assert.deepEqual(robots.check('ExampleBot', '/elsewhere'), {
    allowed: true, line: null, rule: null, pattern: null, reason: 'no-match', embargoDays: null, ...NONE,
  });
  assert.equal(robots.check('ExampleBot', new URL('https://example.com/robots.txt')).reason, 'robots-txt');
  assert.equal(robots.isAllowed('ExampleBot', '/private/x'), false);
  assert.equal(robots.isAllowed('ExampleBot', '/public'), true);
});

test('an archive crawler honouring Archive-Embargo gets the embargo in days', () => {
  const robots = Robots.parse(FILE);
  assert.deepEqual(robots.check('ExampleArchiver', '/news/today', { embargo: true }), {
    allowed: true, line: 8, rule: 'embargo-allow', pattern: '/news/', reason: 'longest', embargoDays: 31, ...NONE,
  });
  // Without declaring it, the archiver is one crawler among others: Disallow: / decides.
  assert.deepEqual(robots.check('ExampleArchiver', '/news/today'), {
    allowed: false, line: 9, rule: 'disallow', pattern: '/', reason: 'longest', embargoDays: null, ...NONE,
  });
  assert.throws(
    () => Robots.parse(FILE, { profile: 'google' }).check('ExampleArchiver', '/news/', { embargo: true }),
    { name: 'Error', message: /Archive-Embargo/ },
  );
});

test('check gives the AI usage preferences beside the verdict', () => {
  const robots = Robots.parse(`User-agent: *
Content-Signal: search=yes, ai-train=no
Disallow: /private
Content-Usage: /blog train-ai=n
Content-Usage: /blog/open
`);
  assert.deepEqual(robots.check('ExampleBot', '/blog/a'), {
    allowed: true, line: null, rule: null, pattern: null, reason: 'no-match', embargoDays: null,
    contentUsage: { 'train-ai': 'n' }, contentUsageLine: 4,
    contentSignal: { search: 'yes', 'ai-train': 'no' }, contentSignalLine: 2,
  });
  assert.deepEqual(robots.check('ExampleBot', '/blog/open/1').contentUsage, {});
  // A disallowed URL has no preferences (attach-05 §3.1); the group's signal stands.
  const blocked = robots.check('ExampleBot', '/private/x');
  assert.equal(blocked.contentUsage, null);
  assert.equal(blocked.contentSignalLine, 2);
  assert.equal(Robots.fromResponse(404, null).check('ExampleBot', '/blog/a').contentSignal, null);
});

test('a User-Agent header names its crawler, and the profiles read a file differently', () => {
  const body = 'User-agent: MJ12bot\nDisallow: /\nCrawl-delay: 5\n';
  const header = 'Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)';
  const rfc = Robots.parse(body);
  assert.equal(rfc.profile, 'rfc9309');
  assert.equal(rfc.check(header, 'https://example.com/a').allowed, false);
  assert.equal(rfc.crawlDelay(header), 5);
  // Google's matcher reads `MJ12bot` as `MJ` (letters only): no group applies.
  const google = Robots.parse(body, { profile: 'google' });
  assert.equal(google.profile, 'google');
  assert.deepEqual(google.check('MJ12bot', 'https://example.com/a'), {
    allowed: true, line: null, rule: null, pattern: null, reason: 'no-group', embargoDays: null, ...NONE,
  });
  assert.throws(() => Robots.parse(body, { profile: 'bing' }), { message: /unknown profile `bing`/ });
});

test('bytes are parsed as given, and the parse limit is kept', () => {
  // Latin-1 bytes, not UTF-8: matched octet for octet, as RFC 9309 compares them.
  const latin1 = Uint8Array.from([...Buffer.from('User-agent: *\nDisallow: /caf'), 0xe9, 0x0a]);
  assert.equal(Robots.parse(latin1).check('ExampleBot', '/caf%E9').allowed, false);
  assert.equal(Robots.parse(latin1.buffer).check('ExampleBot', '/caf%E9').allowed, false);
  // A rule past the limit is not read: with 600,000 bytes of comment before it, the
  // default 512,000-byte limit drops it, a larger one keeps it.
  const long = `User-agent: *\n${'#'.repeat(600_000)}\nDisallow: /late\n`;
  assert.equal(Robots.parse(long).check('ExampleBot', '/late').allowed, true);
  assert.equal(Robots.parse(long, { maxBytes: 1_000_000 }).check('ExampleBot', '/late').allowed, false);
  assert.equal(Robots.parse(long, { maxBytes: 1_000_000 }).summary().parseLimit, 1_000_000);
  assert.throws(() => Robots.parse(long, { maxBytes: 1000 }), { message: /below RFC 9309's floor/ });
  assert.throws(() => Robots.parse(long, { maxBytes: 1.5e6 + 0.5 }), { message: /whole number/ });
});

test('fromResponse applies RFC 9309 §2.3.1 to the status', () => {
  const ok = Robots.fromResponse(200, 'User-agent: *\nDisallow: /x\n');
  assert.equal(ok.check('ExampleBot', '/x').allowed, false);
  const gone = Robots.fromResponse(404, '<html>not found</html>');
  assert.deepEqual(gone.check('ExampleBot', '/x'), {
    allowed: true, line: null, rule: null, pattern: null, reason: 'unavailable', embargoDays: null, ...NONE,
  });
  for (const status of [500, 503, 0]) {
    const down = Robots.fromResponse(status, 'User-agent: *\nAllow: /\n');
    assert.deepEqual(down.check('ExampleBot', '/x'), {
      allowed: false, line: null, rule: null, pattern: null, reason: 'unreachable', embargoDays: null, ...NONE,
    });
    // /robots.txt itself stays allowed (RFC 9309 §2.2.2), so it may be asked again.
    assert.equal(down.check('ExampleBot', '/robots.txt').reason, 'robots-txt');
    assert.equal(down.check('ExampleBot', '/robots.txt').allowed, true);
    assert.equal(down.explain('ExampleBot', '/x').verdict.reason, 'unreachable');
  }
  // Google's matcher has no such exception.
  assert.equal(Robots.fromResponse(503, null, { profile: 'google' }).check('ExampleBot', '/robots.txt').allowed, false);
  assert.throws(() => Robots.fromResponse(301, ''), { message: /redirect: follow it/ });
  assert.throws(() => Robots.fromResponse(70200, ''), { message: /whole number from 0/ });
  assert.throws(() => Robots.fromResponse('200', ''), TypeError);
});

test('crawl delay, sitemaps, host, summary, lint and explain', () => {
  const robots = Robots.parse(FILE);
  assert.equal(robots.crawlDelay('ExampleBot'), 2.5);
  assert.equal(robots.crawlDelay('ExampleArchiver'), null);
  assert.deepEqual(robots.sitemaps(), ['https://example.com/sitemap.xml']);
  assert.equal(robots.host(), 'Example.com');
  const summary = robots.summary();
  assert.deepEqual(summary.groups, [{ line: 1, agents: ['*'] }, { line: 6, agents: ['ExampleArchiver'] }]);
  const typo = robots.lint().find((d) => d.line === 13);
  assert.ok(typo, 'the misspelt Disallow on line 13 is reported');
  assert.equal(typeof typo.spanColumn, 'number');
  assert.match(typo.message + (typo.suggestion ?? ''), /disallow/i);
  const why = robots.explain('ExampleBot', '/private/open/1');
  assert.equal(why.verdict.line, 3);
  assert.deepEqual(why.matches.map((m) => [m.line, m.decides]), [[2, false], [3, true]]);
  assert.equal(why.selection, 'global');
  assert.equal(typeof why.reasonText, 'string');
  assert.equal(why.setAsideText, null);
  // A group naming the crawler sets the `*` group aside, and the explanation says so.
  const named = robots.explain('ExampleArchiver', '/private/x');
  assert.deepEqual(named.globalSetAside, [1]);
  assert.match(named.setAsideText, /^the `\*` group \(line 1\) does not apply: a group naming the agent replaces it/);
});

test('import and require give the same class, and parse and fromResponse as functions', () => {
  assert.equal(esm.Robots, Robots);
  assert.equal(esm.default, Robots);
  assert.equal(esm.parse('User-agent: *\nDisallow: /\n').check('ExampleBot', '/a').allowed, false);
  assert.equal(esm.fromResponse(404, null).check('ExampleBot', '/a').reason, 'unavailable');
  assert.throws(() => new Robots(), TypeError);
});

// The command line's JSON for the same file and URLs, when its binary is built
// (scripts/test-npm builds it; elsewhere the comparison says it is skipped, but never
// in CI, where it fails instead).
const robotsBin = join(repo, 'target', 'debug', 'robots');
const noBinary = !existsSync(robotsBin) && process.env.CI !== 'true';
test('check agrees with robots check --format json field for field', { skip: noBinary && 'target/debug/robots is not built (cargo build -p robots-cli)' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'robots-npm-'));
  const file = join(dir, 'robots.txt');
  // With AI usage preferences for one crawler, which its own group now decides.
  const body = `${FILE}\nUser-agent: PrefBot\nContent-Usage: /news train-ai=n\nContent-Usage: / search=y\nContent-Signal: ai-input=no\nDisallow: /private/\n`;
  writeFileSync(file, body);
  const urls = ['/private/x', '/private/open/1', '/news/today', '/robots.txt', '/elsewhere', '/typo'];
  for (const [agent, embargo] of [['ExampleBot', false], ['ExampleArchiver', true], ['ExampleArchiver', false], ['PrefBot', false]]) {
    const args = ['check', '--robots', file, '--agent', agent, '--format', 'json', ...(embargo ? ['--embargo'] : []), ...urls];
    const run = spawnSync(robotsBin, args, { encoding: 'utf8' });
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, urls.length, run.stderr);
    const robots = Robots.parse(body);
    for (const [i, url] of urls.entries()) {
      // Every field, the AI usage preferences included, camelCased.
      const { url: _, ...fields } = lines[i];
      const expected = Object.fromEntries(Object.entries(fields).map(
        ([k, v]) => [k.replace(/_([a-z])/g, (_m, c) => c.toUpperCase()), v]));
      assert.deepEqual(robots.check(agent, url, { embargo }), expected, `${agent} ${url}`);
    }
  }
});
