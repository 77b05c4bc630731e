// What the browser tests share: the `robots` binary serving the page on a free
// loopback port, headless Debian Chromium driven by playwright-core, and page helpers.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const robotsBin = process.env.ROBOTS_BIN ?? join(repo, 'target/debug/robots');
export const outDir = join(repo, 'target/web');

// The robots.txt the page tests type: two groups, an embargo, a misspelt key for lint.
export const FILE = `User-agent: *
Disallow: /private/
Allow: /private/open

User-agent: ExampleArchiver
Archive-Embargo: m
Embargo-Allow: /news/
Disallow: /
Disalow: /typo
`;

// Starts `robots serve` on 127.0.0.1, port chosen by the system; resolves to
// {url, stop()} once it says where it listens.
export async function serve() {
  if (!existsSync(robotsBin)) {
    throw new Error(`${robotsBin} is missing: run scripts/build-web, then cargo build -p robots-cli`);
  }
  const child = spawn(robotsBin, ['serve', '--addr', '127.0.0.1:0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines = createInterface({ input: child.stderr });
  let notBuilt = false;
  for await (const line of lines) {
    if (line.includes('without the tester')) notBuilt = true;
    const match = line.match(/http:\/\/(127\.0\.0\.1:\d+)\//);
    if (match) {
      if (notBuilt) {
        child.kill();
        throw new Error('robots was built without the WebAssembly: run scripts/build-web first');
      }
      return {
        url: `http://${match[1]}/`,
        async stop() {
          if (child.exitCode === null) {
            child.kill();
            await once(child, 'exit');
          }
        },
      };
    }
  }
  throw new Error('robots serve ended before it said where it listens');
}

// Chromium as this machine runs it: Debian's build, headless, no background traffic
// (the network is closed), a fresh profile that playwright creates per launch.
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

// A page with every console error, page error and request it makes recorded.
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const record = { errors: [], requests: [] };
  page.on('console', (msg) => {
    if (msg.type() === 'error') record.errors.push(msg.text());
  });
  page.on('pageerror', (err) => record.errors.push(String(err)));
  context.on('request', (req) => {
    record.requests.push(req.url());
    if (req.method() !== 'GET') record.errors.push(`a ${req.method()} request to ${req.url()}`);
  });
  if (url) {
    await page.goto(url);
    await ready(page);
  }
  return { context, page, record };
}

// Waits until the page has loaded the engine and shown its first results.
export async function ready(page) {
  await page.waitForFunction(() => document.body.dataset.ready);
  const state = await page.evaluate(() => document.body.dataset.ready);
  if (state !== 'true') throw new Error(`the page did not start: ${state}`);
}

const updates = (page) => page.evaluate(() => Number(document.body.dataset.updates ?? 0));

// Runs `action`, then waits until the page has recomputed its results.
export async function andUpdate(page, action) {
  const before = await updates(page);
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.updates ?? 0) > n, before);
}

// The verdicts table as data: [{verdict, url, line, rule}].
export function rows(page) {
  return page.$$eval('#results tbody tr', (trs) =>
    trs.map((tr) => ({
      verdict: tr.dataset.verdict,
      url: tr.querySelector('.url').textContent,
      line: Number(tr.dataset.line),
      rule: tr.cells[3].textContent.trim(),
      badge: tr.cells[0].textContent.trim(),
    })),
  );
}

// The line the editor highlights (gutter and backdrop agree), or 0.
export async function highlightedLine(page) {
  const lines = await page.$$eval('#editor .highlighted', (els) => els.map((e) => Number(e.dataset.line)));
  const unique = [...new Set(lines)];
  if (unique.length > 1) throw new Error(`several lines highlighted: ${unique}`);
  if (unique.length === 1 && lines.length !== 2) throw new Error('gutter and text disagree on the highlight');
  return unique[0] ?? 0;
}

// Drags a file holding `bytes` named `name` over the element `selector` and drops it, as
// a browser's drag and drop does; says whether the page took the drag and the drop
// (prevented the browser's own handling, which would open the file in its place).
export function dropFile(page, selector, name, bytes) {
  return page.$eval(selector, (target, [name, bytes]) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], name, { type: 'text/plain' }));
    const fire = (type) => !target.dispatchEvent(
      new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
    return { over: fire('dragover'), drop: fire('drop') };
  }, [name, [...bytes]]);
}
