// The tester's new panels in headless Chromium: the AI usage preferences beside each
// verdict (draft-ietf-aipref-attach-05 §3, contentsignals.org), the file's sitemaps and
// host with each crawler's Crawl-delay, and verdicts for several crawlers at once, as
// `robots check --agent A --agent B --format json` gives them.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { andUpdate, launch, openPage, robotsBin, rows, serve } from './harness.mjs';

const FILE = `User-agent: *
Disallow: /private/
Content-Usage: train-ai=n
Content-Usage: /blog/ train-ai=y, search=y
Content-Signal: search=yes, ai-train=no
Crawl-delay: 2

User-agent: GPTBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
Host: example.com
`;

let server;
let browser;

before(async () => {
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function fill(page, agent, urls) {
  await andUpdate(page, () => page.fill('#robots', FILE));
  await andUpdate(page, () => page.fill('#agent', agent));
  await andUpdate(page, () => page.fill('#urls', urls));
}

const prefs = (page) => page.$$eval('#results tbody tr', (trs) => trs.map((tr) => tr.querySelector('.prefs').textContent.replace(/\s+/g, ' ').trim()));

test('preferences stand beside each verdict, and the file facts below', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  await fill(page, 'ExampleBot', '/blog/a\n/private/x\n/');
  assert.deepEqual(await prefs(page), [
    'Content-Usage train-ai=y, search=y 4 Content-Signal search=yes, ai-train=no 5',
    // attach-05 §3.1: a disallowed URL has no Content-Usage preferences.
    'Content-Signal search=yes, ai-train=no 5',
    'Content-Usage train-ai=n 3 Content-Signal search=yes, ai-train=no 5',
  ]);
  const facts = (await page.innerText('#facts')).replace(/\s+/g, ' ');
  assert.match(facts, /Sitemaps https:\/\/example\.com\/sitemap\.xml/);
  assert.match(facts, /Host example\.com/);
  assert.match(facts, /Crawl-delay ExampleBot: 2 s/);
  assert.equal(await page.isHidden('#agent-col'), true, 'one crawler: no crawler column');
  // The explanation of a row repeats its preferences beside the verdict's reason.
  await page.click('#results tbody tr:nth-child(1) .url');
  const explained = (await page.innerText('#explain')).replace(/\s+/g, ' ');
  assert.match(explained, /Content preferences Content-Usage train-ai=y, search=y 4/);
  assert.deepEqual(record.errors, []);
  await context.close();
});

test('several crawlers at once agree with robots check --agent A --agent B', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  await fill(page, 'ExampleBot, GPTBot, examplebot', '/blog/a\n/x');
  const table = await rows(page);
  const agents = await page.$$eval('#results tbody tr', (trs) => trs.map((tr) => tr.querySelector('.agent').textContent));
  assert.deepEqual(agents, ['ExampleBot', 'GPTBot', 'ExampleBot', 'GPTBot']);
  assert.equal(await page.isHidden('#agent-col'), false);
  assert.match(await page.textContent('#agent-note'), /examplebot names the same crawler as ExampleBot/);
  const facts = (await page.innerText('#facts')).replace(/\s+/g, ' ');
  assert.match(facts, /ExampleBot: 2 s; GPTBot: none/);

  const dir = mkdtempSync(join(tmpdir(), 'robots-web-'));
  writeFileSync(join(dir, 'robots.txt'), FILE);
  const out = spawnSync(robotsBin, ['check', '--robots', join(dir, 'robots.txt'), '--agent', 'ExampleBot',
    '--agent', 'GPTBot', '--format', 'json', '/blog/a', '/x'], { encoding: 'utf8' });
  const native = out.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(table.map((r) => r.verdict), native.map((v) => (v.allowed ? 'allowed' : 'disallowed')));
  assert.deepEqual(agents, native.map((v) => v.agent));
  const prefsShown = await prefs(page);
  native.forEach((v, i) => {
    if (v.content_usage) assert.ok(prefsShown[i].includes(Object.entries(v.content_usage).map(([k, x]) => `${k}=${x}`).join(', ')), prefsShown[i]);
    else assert.ok(!prefsShown[i].includes('Content-Usage'), prefsShown[i]);
  });

  // The explanation is the selected row's crawler's.
  await page.click('#results tbody tr:nth-child(2) .url');
  assert.match(await page.textContent('#explain'), /GPTBot/);
  assert.deepEqual(record.errors, []);
  await context.close();
});
