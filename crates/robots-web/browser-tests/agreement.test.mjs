// The page's form against `robots check --format json` on the cases a site owner types
// that the corpus sample does not hold: full URLs, non-ASCII and percent escapes, white
// space around URLs, a NUL (where Google's matcher ends the path), versioned and odd
// agent names, the embargo switch, in both profiles. Each URL list goes to the command
// line on standard input exactly as typed in the page.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { andUpdate, launch, openPage, robotsBin, rows, serve } from './harness.mjs';

const FILE = `User-agent: *
Disallow: /private/
Disallow: /a$
Disallow: /caf%C3%A9
Disallow: /%7Euser
Allow: /private/*.css$
Disallow: /q?x=1
Disallow: /nul

User-agent: FooBot
Disallow: /foo

User-agent: ExampleArchiver
Archive-Embargo: q
Embargo-Allow: /news/
Disallow: /
`;

const URLS = [
  '/private/x', 'https://example.com/private/x?y#frag', 'http://EXAMPLE.com:8080/private/style.css',
  '/a', '/a\u00a0', '\u3000/a', ' \t/a ', '/café', '/caf%c3%a9', '/~user', '/%7euser', '/q?x=1',
  '/q?x%3D1', '/nul\u0000more', '/ok\u0000/private/', '/robots.txt', 'example.com/private/x',
  '/foo/bar', '/news/today', '/news/../private/x',
].join('\n');

const CASES = [
  ['rfc9309', 'SomeBot', false], ['rfc9309', 'FooBot/2.1', false],
  ['rfc9309', 'Mozilla/5.0 (compatible; FooBot/2.1; +https://foo.test)', false],
  ['rfc9309', 'ExampleArchiver', false], ['rfc9309', 'ExampleArchiver', true],
  ['rfc9309', '*', false], ['google', 'SomeBot', false], ['google', 'FooBot', false],
  ['google', 'FooBot/2.1', false], ['google', 'ExampleArchiver', false], ['google', '*', false],
];

let server;
let browser;
let dir;

before(async () => {
  server = await serve();
  browser = await launch();
  dir = mkdtempSync(join(tmpdir(), 'robots-web-'));
  writeFileSync(join(dir, 'robots.txt'), FILE);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// The URL as the page and the command line's text show it: controls as `\u{0}`.
const printable = (text) =>
  text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u{${c.codePointAt(0).toString(16)}}`);

function native(profile, agent, embargo) {
  const run = spawnSync(
    robotsBin,
    ['check', '--robots', join(dir, 'robots.txt'), `--agent=${agent}`, '--profile', profile,
      ...(embargo ? ['--embargo'] : []), '--format', 'json'],
    { input: URLS, encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

test('the page and robots check agree, URL by URL, as typed in the form', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  await andUpdate(page, () => page.fill('#robots', FILE));
  await andUpdate(page, () => page.fill('#urls', URLS));
  assert.equal(await page.inputValue('#urls'), URLS, 'the form keeps what was typed');
  const differences = [];
  for (const [profile, agent, embargo] of CASES) {
    await andUpdate(page, () => page.fill('#agent', agent));
    if (!(await page.isChecked(`input[value="${profile}"]`))) {
      await andUpdate(page, () => page.check(`input[value="${profile}"]`));
    }
    if (profile === 'rfc9309' && (await page.isChecked('#embargo')) !== embargo) {
      await andUpdate(page, () => page.setChecked('#embargo', embargo));
    }
    const expected = native(profile, agent, embargo).map((v) => ({
      verdict: v.allowed ? (v.embargo_days != null ? 'embargo' : 'allowed') : 'disallowed',
      url: printable(v.url),
      line: v.line ?? 0,
    }));
    const shown = (await rows(page)).map(({ verdict, url, line }) => ({ verdict, url, line }));
    const label = `${profile} ${JSON.stringify(agent)}${embargo ? ' embargo' : ''}`;
    assert.equal(shown.length, expected.length, `${label}: ${shown.length} rows`);
    expected.forEach((e, i) => {
      if (JSON.stringify(e) !== JSON.stringify(shown[i])) {
        differences.push(`${label}: robots check ${JSON.stringify(e)}, page ${JSON.stringify(shown[i])}`);
      }
    });
  }
  assert.deepEqual(differences, []);
  assert.deepEqual(record.errors, []);
  await context.close();
});

// The words of a verdict no rule decided come from the presentation layer the command line
// prints from: the page's rule column says what `robots check` says in parentheses.
test('a verdict no rule decided is worded as robots check words it', async () => {
  const named = 'User-agent: FooBot\nDisallow: /foo\n';
  writeFileSync(join(dir, 'named.txt'), named);
  const { context, page, record } = await openPage(browser, server.url);
  for (const [file, body, agent] of [['robots.txt', FILE, 'SomeBot'], ['named.txt', named, 'SomeBot']]) {
    await andUpdate(page, () => page.fill('#robots', body));
    await andUpdate(page, () => page.fill('#agent', agent));
    await andUpdate(page, () => page.fill('#urls', '/about\n/robots.txt'));
    const run = spawnSync(
      robotsBin,
      ['check', '--robots', join(dir, file), `--agent=${agent}`, '--color', 'never', '/about', '/robots.txt'],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    const said = run.stdout.trim().split('\n').map((l) => l.match(/\(([^)]*)\)$/)[1]);
    const shown = (await rows(page)).map(({ rule }) => rule);
    assert.deepEqual(shown, said, file);
  }
  assert.deepEqual(record.errors, []);
  await context.close();
});
