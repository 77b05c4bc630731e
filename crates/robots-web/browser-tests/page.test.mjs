// The tester page in headless Chromium against `robots serve`: typing a robots.txt and
// URLs, verdicts and highlighted lines, lint beside its lines, the profile and embargo
// switches, keyboard use, shared links, a phone-sized screen, offline use, screenshots.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  andUpdate, dropFile, FILE, highlightedLine, launch, openPage, outDir, ready, robotsBin, rows,
  serve,
} from './harness.mjs';

let server;
let browser;

before(async () => {
  server = await serve();
  browser = await launch();
  mkdirSync(outDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// Fills the form the way a person would, waiting for the results each time.
async function fillForm(page, { robots, agent, urls }) {
  if (robots !== undefined) await andUpdate(page, () => page.fill('#robots', robots));
  if (agent !== undefined) await andUpdate(page, () => page.fill('#agent', agent));
  if (urls !== undefined) await andUpdate(page, () => page.fill('#urls', urls));
}

test('typing a robots.txt and URLs gives verdicts, and a click highlights the deciding line', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  const loaded = record.requests.length;
  await fillForm(page, { robots: FILE, agent: 'SomeBot', urls: '/private/x\n/private/open/1' });
  // Results follow each keystroke, not only a paste.
  await page.focus('#urls');
  await page.keyboard.press('End');
  for (const key of ['Enter', '/', 'a', 'b', 'o', 'u', 't']) {
    await andUpdate(page, () => page.keyboard.press(key));
  }
  assert.deepEqual(await rows(page), [
    { verdict: 'disallowed', url: '/private/x', line: 2, rule: 'Disallow: /private/', badge: 'disallowed' },
    { verdict: 'allowed', url: '/private/open/1', line: 3, rule: 'Allow: /private/open', badge: 'allowed' },
    { verdict: 'allowed', url: '/about', line: 0, rule: 'no rule matched', badge: 'allowed' },
  ]);
  assert.equal(await highlightedLine(page), 0);

  await page.click('#results tbody tr:nth-child(1) .url');
  assert.equal(await highlightedLine(page), 2);
  const explanation = await page.textContent('#explain');
  assert.match(explanation, /No group names SomeBot; the \* group applies \(line 1\)/);
  assert.match(explanation, /Disallow: \/private\/\s+length 9\s+decides/);

  await page.click('#results tbody tr:nth-child(2) .line-link');
  assert.equal(await highlightedLine(page), 3);

  // A crawler with a group of its own: the explanation says the `*` group no longer
  // applies to it, the most common surprise for a site owner.
  await fillForm(page, { robots: `${FILE}\nUser-agent: SomeBot\nAllow: /\n` });
  await page.click('#results tbody tr:nth-child(1) .url');
  assert.match(await page.textContent('#explain'),
    /The \* group \(line 1\) does not apply: a group naming the agent replaces it \(RFC 9309 §2\.2\.1\)\./);

  // Nothing the user typed left the page: since it loaded, only GETs of its own files
  // (the offline copy the service worker takes), never with a query.
  const own = ['/', '/style.css', '/app.js', '/editor.js', '/results.js', '/share.js', '/icon.svg',
    '/pkg/robots_web.js', '/pkg/robots_web_bg.wasm', '/sw.js'].map((p) => new URL(p, server.url).href);
  for (const url of record.requests.slice(loaded)) assert.ok(own.includes(url), url);
  assert.deepEqual(record.errors, []);
  await context.close();
});

test('lint findings are shown beside their lines and in the list', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  await fillForm(page, { robots: FILE });
  const gutter = await page.getAttribute('.gl[data-line="9"]', 'class');
  assert.match(gutter, /sev-warning/);
  const mark = await page.textContent('.bl[data-line="9"] .mark');
  assert.match(mark, /^warning: /);
  assert.equal(await page.$('.bl[data-line="2"] .mark'), null, 'a clean line has no mark');
  const item = page.locator('#lint li', { hasText: 'misspelt-directive' });
  assert.equal(await item.count(), 1);
  await item.locator('.line-link').click();
  assert.equal(await highlightedLine(page), 9);
  assert.deepEqual(record.errors, []);
  await context.close();
});

test('the summary counts errors, warnings and information as robots lint counts them', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  // Two findings of each severity: a misspelt directive and a wildcard in a name
  // (warnings), a stray `$` and a versioned name (information), junk (an error).
  const text = `${FILE}User-agent: Foo*\nUser-agent: FooBot/2.1\nDisallow: /a$b\njunk\n`;
  await fillForm(page, { robots: text });
  const file = join(mkdtempSync(join(tmpdir(), 'robots-web-')), 'robots.txt');
  writeFileSync(file, text);
  const lint = spawnSync(robotsBin, ['lint', '--robots', file], { encoding: 'utf8' });
  const counts = lint.stdout.trim().split('\n').at(-1).replace(`${file}: `, '');
  assert.equal(counts, '1 error, 2 warnings, 2 info');
  assert.ok((await page.textContent('#summary')).includes(` · ${counts} · `), await page.textContent('#summary'));
  assert.deepEqual(record.errors, []);
  await context.close();
});

test('a robots.txt dropped on the editor or the page is loaded into the editor', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  await fillForm(page, { agent: 'SomeBot', urls: '/private/x\n/news/today' });
  const address = page.url();
  let taken;
  await andUpdate(page, async () => {
    taken = await dropFile(page, '#robots', 'robots.txt', Buffer.from(FILE));
  });
  assert.deepEqual(taken, { over: true, drop: true });
  assert.equal(await page.inputValue('#robots'), FILE);
  assert.deepEqual((await rows(page)).map((r) => [r.verdict, r.line]), [['disallowed', 2], ['allowed', 0]]);
  assert.equal(await page.textContent('#file-note'), 'Loaded robots.txt, 152 bytes.');
  assert.equal(new URL(page.url()).pathname, new URL(address).pathname, 'the page stayed');

  // Anywhere on the page; read as bytes: a byte-order mark is kept for lint, and a
  // Latin-1 octet is shown as U+FFFD, which the note says.
  const latin = Buffer.concat([Buffer.from('\ufeffUser-agent: *\nDisallow: /caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
  await andUpdate(page, async () => {
    taken = await dropFile(page, 'main', 'latin1.txt', latin);
  });
  assert.deepEqual(taken, { over: true, drop: true });
  assert.equal(await page.inputValue('#robots'), '\ufeffUser-agent: *\nDisallow: /caf\ufffd\n');
  assert.match(await page.textContent('#file-note'), /^Loaded latin1\.txt, 33 bytes\. Not all of it is UTF-8/);
  assert.equal(await page.locator('#lint li', { hasText: 'byte-order-mark' }).count(), 1);
  assert.deepEqual((await rows(page)).map((r) => [r.verdict, r.line]), [['allowed', 0], ['allowed', 0]]);

  // Once edited, the note no longer describes the file.
  await page.focus('#robots');
  await page.keyboard.press('End');
  await andUpdate(page, () => page.keyboard.type('x'));
  assert.equal(await page.textContent('#file-note'), '');
  assert.deepEqual(record.errors, []);
  await context.close();
});

test("each finding's span is underlined where robots lint underlines it, in its severity's colour", async () => {
  const { context, page, record } = await openPage(browser, server.url);
  await andUpdate(page, () => page.fill('#robots',
    'User-agent:\nDisallow: é/x\nDisallow: /a$b\nCrawl-delay: soon # later\n'));
  const squiggles = (line) => page.$$eval(`.bl[data-line="${line}"] .squiggle`,
    (els) => els.map((el) => [el.textContent, el.className]));
  // agent-names-none: the missing value, one blank past the colon.
  assert.deepEqual(await squiggles(1), [[' ', 'squiggle sev-warning']]);
  // pattern-start: the pattern, columns counted in UTF-8 bytes as the engine counts them.
  assert.deepEqual(await squiggles(2), [['é/x', 'squiggle sev-warning']]);
  // dollar-inside is information only.
  assert.deepEqual(await squiggles(3), [['/a$b', 'squiggle sev-info']]);
  assert.deepEqual(await squiggles(4), [['soon', 'squiggle sev-error']]);
  // The invisible copy of each line still lines up with the textarea: same text.
  const ghosts = await page.$$eval('.bl .ghost', (els) => els.map((el) => el.textContent.replace(/ $/, '')));
  assert.deepEqual(ghosts.slice(0, 4), ['User-agent:', 'Disallow: é/x', 'Disallow: /a$b', 'Crawl-delay: soon # later']);
  assert.deepEqual(record.errors, []);
  await context.close();
});

test('control and bidirectional characters quoted from the file are shown escaped, as robots lint shows them', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  await andUpdate(page, () => page.fill('#robots', 'User-agent: *\n\u0000\u0001junk\n\u202eevil: x\n'));
  const items = await page.$$eval('#lint li .msg', (els) => els.map((el) => el.textContent));
  assert.ok(items.includes('\\u{0}\\u{1}junk is not a key: value line and is ignored'), items.join('\n'));
  assert.ok(items.some((m) => m.startsWith('\\u{202e}evil is not a directive')), items.join('\n'));
  const marks = await page.$$eval('.mark', (els) => els.map((el) => el.textContent).join(' | '));
  assert.doesNotMatch(marks, /[\u0000-\u001f\u202e]/);
  assert.match(marks, /\\u\{202e\}evil/);
  assert.deepEqual(record.errors, []);
  await context.close();
});

test('the embargo switch and the profile change the verdicts', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  await fillForm(page, { robots: FILE, agent: 'ExampleArchiver', urls: '/news/today\n/about' });
  const first = async () => (await rows(page))[0];
  assert.deepEqual(await first(), {
    verdict: 'disallowed', url: '/news/today', line: 8, rule: 'Disallow: /', badge: 'disallowed',
  });

  // On with the keyboard, as a switch is.
  await page.focus('#embargo');
  await andUpdate(page, () => page.keyboard.press('Space'));
  assert.equal(await page.isChecked('#embargo'), true);
  assert.deepEqual(await first(), {
    verdict: 'embargo', url: '/news/today', line: 7, rule: 'Embargo-Allow: /news/', badge: 'embargo 31 days',
  });
  await page.click('#results tbody tr:nth-child(1) .url');
  assert.equal(await highlightedLine(page), 7);
  assert.match(await page.textContent('#explain'), /Embargo-AllowActive: the agent honours Archive-Embargo/);

  // Google's matcher knows no embargo: the switch is off limits and the line unknown.
  await andUpdate(page, () => page.check('input[name="profile"][value="google"]'));
  assert.equal(await page.isDisabled('#embargo'), true);
  assert.match(await page.textContent('#embargo-note'), /knows no Archive-Embargo/);
  assert.equal((await first()).verdict, 'disallowed');
  assert.equal((await first()).line, 8);
  assert.equal(await highlightedLine(page), 8, 'the open explanation follows the new verdict');

  await andUpdate(page, () => page.check('input[name="profile"][value="rfc9309"]'));
  assert.equal(await page.isDisabled('#embargo'), false);
  assert.equal((await first()).verdict, 'embargo');
  assert.deepEqual(record.errors, []);
  await context.close();
});

test('the profiles differ where documented: a versioned crawler name', async () => {
  const { context, page } = await openPage(browser, server.url);
  await fillForm(page, {
    robots: 'User-agent: FooBot\nDisallow: /\n',
    agent: 'FooBot/1.0',
    urls: '/page',
  });
  // RFC 9309 reads the product token; Google compares the name as given.
  assert.equal((await rows(page))[0].verdict, 'disallowed');
  assert.match(await page.textContent('#agent-note'), /User-Agent header, whose product token is `FooBot`/);
  await andUpdate(page, () => page.check('input[name="profile"][value="google"]'));
  assert.equal((await rows(page))[0].verdict, 'allowed');
  // The command line warns why; so does the page.
  assert.match(await page.textContent('#agent-note'), /can match no group but `\*`; .* give `FooBot`/);
  await andUpdate(page, () => page.fill('#agent', '*'));
  assert.match(await page.textContent('#agent-note'), /^`\*` names no crawler/);
  await context.close();
});

test("Google's empty Disallow is shown to disallow nothing", async () => {
  const { context, page, record } = await openPage(browser, server.url);
  await fillForm(page, { robots: 'User-agent: *\nDisallow:\n', agent: 'SomeBot', urls: '/a' });
  await andUpdate(page, () => page.check('input[name="profile"][value="google"]'));
  assert.deepEqual(await rows(page), [
    { verdict: 'allowed', url: '/a', line: 2, rule: 'Disallow: empty: disallows nothing', badge: 'allowed' },
  ]);
  await page.click('#results tbody tr:nth-child(1) .url');
  const explanation = await page.textContent('#explain');
  assert.match(explanation, /An empty Disallow matches with length 0 and disallows nothing, so the URL is allowed\./);
  assert.doesNotMatch(explanation, /No rule of the chosen groups matches/);
  assert.deepEqual(record.errors, []);
  await context.close();
});

test('a name that is no crawler token is explained, not checked', async () => {
  const { context, page } = await openPage(browser, server.url);
  await fillForm(page, { robots: FILE, agent: 'Bad(Bot)', urls: '/x' });
  assert.deepEqual(await rows(page), []);
  assert.equal(await page.getAttribute('#agent-note', 'class'), 'note error');
  assert.match(await page.textContent('#agent-note'), /cannot appear in a product token/);
  await context.close();
});

test('the keyboard alone selects verdicts and moves between them', async () => {
  const { context, page } = await openPage(browser, server.url);
  await fillForm(page, { robots: FILE, agent: 'SomeBot', urls: '/private/x\n/private/open/1' });
  await page.focus('#urls');
  await page.keyboard.press('Tab'); // the first verdict's URL button
  assert.equal(await page.evaluate(() => document.activeElement.textContent), '/private/x');
  await page.keyboard.press('Enter');
  assert.equal(await highlightedLine(page), 2);
  await page.keyboard.press('ArrowDown');
  assert.equal(await highlightedLine(page), 3);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), '/private/open/1');
  await context.close();
});

test('a shared link brings the whole state back in a new browser', async () => {
  const { context, page } = await openPage(browser, server.url);
  await fillForm(page, { robots: FILE, agent: 'ExampleArchiver', urls: '/news/today\n/private/x' });
  await andUpdate(page, () => page.check('#embargo'));
  await page.click('#results tbody tr:nth-child(1) .url');
  await page.click('#share');
  await page.waitForFunction(() => document.getElementById('share-status').textContent !== '');
  const link = page.url();
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/#s=[A-Za-z0-9_-]+$/);
  assert.ok(!link.includes('ExampleArchiver'), 'the state is encoded, in the fragment only');
  const expected = await rows(page);
  await context.close();

  const fresh = await openPage(browser, link);
  assert.equal(await fresh.page.inputValue('#robots'), FILE);
  assert.equal(await fresh.page.inputValue('#agent'), 'ExampleArchiver');
  assert.equal(await fresh.page.isChecked('#embargo'), true);
  assert.equal(await fresh.page.isChecked('input[value="rfc9309"]'), true);
  assert.deepEqual(await rows(fresh.page), expected);
  // The server saw only the page, never the fragment.
  assert.ok(fresh.record.requests.every((u) => !u.includes('#')));

  // Reloading keeps it, and a link for the Google profile keeps that too.
  await andUpdate(fresh.page, () => fresh.page.check('input[value="google"]'));
  await fresh.page.waitForFunction(() => location.hash.length > 3);
  await fresh.page.waitForTimeout(400); // the fragment is rewritten a moment after typing stops
  await fresh.page.reload();
  await ready(fresh.page);
  assert.equal(await fresh.page.isChecked('input[value="google"]'), true);
  assert.equal((await rows(fresh.page))[0].verdict, 'disallowed');
  await fresh.context.close();
});

test('a phone-sized screen needs no sideways scrolling; screenshots', async () => {
  const desktop = await openPage(browser, server.url, { viewport: { width: 1280, height: 860 } });
  await fillForm(desktop.page, {
    robots: FILE,
    agent: 'ExampleArchiver',
    urls: '/news/today\n/news/2024/05/story.html\n/private/x\nhttps://example.com/about',
  });
  await andUpdate(desktop.page, () => desktop.page.check('#embargo'));
  await desktop.page.click('#results tbody tr:nth-child(1) .url');
  await desktop.page.screenshot({ path: join(outDir, 'tester.png'), fullPage: true });
  await desktop.context.close();

  const phone = await openPage(browser, server.url, {
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  await fillForm(phone.page, { robots: FILE, agent: 'SomeBot', urls: '/private/x\n/private/open/1' });
  await phone.page.click('#results tbody tr:nth-child(1) .url');
  assert.equal(await highlightedLine(phone.page), 2);
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
  await phone.page.screenshot({ path: join(outDir, 'tester-phone.png'), fullPage: true });
  await phone.context.close();
});

test('once loaded, the page works with the server gone; load time', async () => {
  const own = await serve();
  const { context, page } = await openPage(browser, own.url);
  const loadMs = await page.evaluate(() => performance.getEntriesByName('robots-ready')[0].startTime);
  console.log(`page ready (engine loaded, first verdicts shown) ${loadMs.toFixed(0)} ms after navigation`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await own.stop();
  await page.reload();
  await ready(page);
  await fillForm(page, { robots: FILE, agent: 'SomeBot', urls: '/private/x' });
  assert.equal((await rows(page))[0].verdict, 'disallowed');
  await context.close();
});

test('a file past the parse limit says, where its size is shown, that it is read only up to the parse limit', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  const rules = Array.from({ length: 11000 }, (_, i) => `Disallow: /${String(i).padStart(6, '0')}/${'a'.repeat(50)}\n`);
  const big = `User-agent: *\n${rules.join('')}User-agent: LateBot\nDisallow: /late\n`;
  // Set at once, as a paste does (typing 600 KB through the keyboard would take minutes).
  await andUpdate(page, () => page.$eval('#robots', (el, text) => {
    el.value = text;
    el.dispatchEvent(new Event('input'));
  }, big));
  const summary = await page.textContent('#summary');
  assert.match(summary, /^11004 lines · 1 group · /, 'lines as the editor numbers them, groups as read');
  assert.match(summary, /past the parse limit of 512,000 bytes: only the first 511,994 of 759,050 bytes are read, and line 7,422 on is ignored/);
  const first = await page.textContent('#lint li');
  assert.match(first, /beyond-parse-limit/);
  // A file within the limit says nothing of it.
  await andUpdate(page, () => page.fill('#robots', 'User-agent: *\nDisallow: /\n'));
  assert.doesNotMatch(await page.textContent('#summary'), /parse limit/);
  assert.deepEqual(record.errors, []);
  await context.close();
});

test('typing URLs or a name against a large file does not parse and redraw the file again', async () => {
  const { context, page, record } = await openPage(browser, server.url);
  const rules = Array.from({ length: 5000 }, (_, i) => `Disallow: /section-${i}/\nAllow: /section-${i}/open\n`);
  await andUpdate(page, () => page.$eval('#robots', (el, text) => {
    el.value = text;
    el.dispatchEvent(new Event('input'));
  }, `User-agent: *\n${rules.join('')}`));
  // Marks on the drawn file, the lint list and the summary: a redraw would drop them.
  const mark = () => page.evaluate(() => {
    for (const el of [document.querySelector('.gl[data-line="9000"]'), document.querySelector('#lint li'),
      document.getElementById('summary').firstChild]) el.kept = true;
  });
  const kept = () => page.evaluate(() => [document.querySelector('.gl[data-line="9000"]'),
    document.querySelector('#lint li'), document.getElementById('summary').firstChild].map((el) => el.kept === true));
  await mark();
  await andUpdate(page, () => page.fill('#agent', 'SomeBot'));
  await andUpdate(page, () => page.fill('#urls', '/section-4499/x\n/section-4499/open'));
  await andUpdate(page, () => page.check('#embargo'));
  assert.deepEqual(await kept(), [true, true, true]);
  assert.deepEqual((await rows(page)).map((r) => [r.verdict, r.line]), [['disallowed', 9000], ['allowed', 9001]]);
  await page.click('#results tbody tr:nth-child(1) .url');
  assert.equal(await highlightedLine(page), 9000);
  // Changing the file or the profile does redraw it, and the verdicts follow.
  await andUpdate(page, () => page.check('input[value="google"]'));
  assert.deepEqual(await kept(), [false, false, false]);
  await mark();
  await andUpdate(page, () => page.$eval('#robots', (el) => {
    el.value = el.value.replace('Disallow: /section-4499/\n', 'Disallow: /section-4499/x\n');
    el.dispatchEvent(new Event('input'));
  }));
  assert.deepEqual(await kept(), [false, false, false]);
  assert.deepEqual((await rows(page)).map((r) => [r.verdict, r.line]), [['disallowed', 9000], ['allowed', 9001]]);
  assert.match(await page.textContent('#results tbody tr:nth-child(1)'), /section-4499\/x/);
  assert.deepEqual(record.errors, []);
  await context.close();
});

test('while the engine loads, the page shows the example and says it is loading', async () => {
  const { context, page } = await openPage(browser, null);
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route(new URL('/pkg/robots_web_bg.wasm', server.url).href, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(server.url);
  await page.waitForFunction(() => document.querySelector('#results-empty').textContent !== '');
  assert.equal(await page.textContent('#results-empty'), 'Loading the engine…');
  assert.match(await page.inputValue('#robots'), /User-agent: \*/);
  assert.match(await page.inputValue('#urls'), /\/news\/today/);
  assert.equal(await page.evaluate(() => document.body.dataset.ready), undefined);
  release();
  await page.waitForFunction(() => document.body.dataset.ready);
  assert.equal(await page.evaluate(() => document.body.dataset.ready), 'true');
  assert.notEqual(await page.textContent('#results-empty'), 'Loading the engine…');
  assert.ok((await rows(page)).length > 0);
  await context.close();
});

test('when the engine cannot load, the page says so instead of doing nothing', async () => {
  for (const blocked of ['/pkg/robots_web.js', '/pkg/robots_web_bg.wasm']) {
    const { context, page } = await openPage(browser, null);
    await page.route(new URL(blocked, server.url).href, (route) => route.abort());
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.ready);
    assert.equal(await page.evaluate(() => document.body.dataset.ready), 'failed', blocked);
    assert.match(await page.textContent('#results-empty'), /^The engine did not load: /, blocked);
    await context.close();
  }
});
