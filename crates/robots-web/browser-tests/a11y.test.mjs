// The tester page for everyone: axe-core finds no violation in any state the page can
// be in, the keyboard alone reaches and works every control, with focus visible, and
// forced colours (high contrast themes) lose nothing that shows a state.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  andUpdate, dropFile, FILE as PAGE_FILE, highlightedLine, launch, openPage, serve,
} from './harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The page tests' file and a line lint calls junk.
const FILE = `${PAGE_FILE}junk
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

// axe-core is injected as an inline script, which the page's Content-Security-Policy
// forbids: the test's browser context bypasses it (the page itself never needs to).
const open = (options = {}) => openPage(browser, server.url, { bypassCSP: true, ...options });

// Runs axe-core on the whole page; fails listing each violation with the elements.
async function audit(page, state) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.addScriptTag({ content: axeSource });
  }
  const violations = await page.evaluate(async () => {
    // target-size (WCAG 2.2 AA) is off by default in axe-core 4.14.
    const result = await window.axe.run(document, {
      resultTypes: ['violations'], rules: { 'target-size': { enabled: true } },
    });
    return result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  const list = violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.targets.join('\n    ')}`)
    .join('\n  ');
  assert.equal(violations.length, 0, `axe-core, ${state}:\n  ${list}`);
}

async function fill(page, selector, text) {
  await andUpdate(page, () => page.fill(selector, text));
}

test('axe-core finds no violation in any state of the page', async () => {
  const { context, page, record } = await open({ viewport: { width: 1280, height: 860 } });
  await audit(page, 'as loaded, with the example');

  await fill(page, '#robots', '');
  await fill(page, '#agent', '');
  await fill(page, '#urls', '');
  await audit(page, 'emptied');

  await fill(page, '#robots', FILE);
  await audit(page, 'with lint findings of every severity and no verdicts');

  await fill(page, '#agent', 'ExampleArchiver');
  await fill(page, '#urls', '/news/today\n/private/x\n/private/open/1\nhttps://example.com/about');
  await andUpdate(page, () => page.check('#embargo'));
  assert.equal(await page.locator('#results tbody tr').count(), 4);
  await audit(page, 'with verdicts, the embargo switch on');

  await page.click('#results tbody tr:nth-child(1) .url');
  assert.equal(await page.isVisible('#explain'), true);
  await audit(page, 'explaining a verdict');

  await page.click('#share');
  await page.waitForFunction(() => document.getElementById('share-status').textContent !== '');
  await audit(page, 'with a share link made');

  await andUpdate(page, () => page.check('input[value="google"]'));
  assert.equal(await page.isDisabled('#embargo'), true);
  await audit(page, 'in the Google profile, the embargo switch disabled');

  await andUpdate(page, () => page.check('input[value="rfc9309"]'));
  await andUpdate(page, () => page.uncheck('#embargo'));
  assert.equal(await page.locator('#explain .ignored').count(), 1);
  await audit(page, 'explaining a verdict beside an Embargo-Allow the crawler ignores');

  await fill(page, '#agent', 'Bad(Bot)');
  assert.equal(await page.getAttribute('#agent-note', 'class'), 'note error');
  await audit(page, 'naming no crawler token');

  // A dropped file that is not all UTF-8: the note on it.
  await andUpdate(page, () => dropFile(page, 'main', 'latin1.txt', Buffer.from('Disallow: /caf\xe9\n', 'latin1')));
  assert.match(await page.textContent('#file-note'), /Not all of it is UTF-8/);
  await audit(page, 'with the note on a dropped file');

  assert.deepEqual(record.errors, []);
  await context.close();

  const phone = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await andUpdate(phone.page, () => phone.page.fill('#robots', FILE));
  await phone.page.click('#results tbody tr:nth-child(1) .url');
  await audit(phone.page, 'on a phone-sized screen, explaining a verdict');
  await phone.context.close();

  // The engine cannot load: the page says so, and that state too is audited.
  const failed = await openPage(browser, null, { bypassCSP: true });
  await failed.page.route(new URL('/pkg/robots_web_bg.wasm', server.url).href, (route) => route.abort());
  await failed.page.goto(server.url);
  await failed.page.waitForFunction(() => document.body.dataset.ready);
  assert.equal(await failed.page.evaluate(() => document.body.dataset.ready), 'failed');
  await audit(failed.page, 'when the engine did not load');
  await failed.context.close();
});

test('verdict updates are announced politely to screen readers', async () => {
  const { context, page } = await open();
  const live = await page.$eval('#results-summary', (el) => el.getAttribute('aria-live'));
  assert.equal(live, 'polite');
  await fill(page, '#robots', FILE);
  await fill(page, '#agent', 'ExampleArchiver');
  await fill(page, '#urls', '/news/today\n/private/x');
  assert.equal(await page.textContent('#results-summary'), '2 verdicts: 2 disallowed.');
  await andUpdate(page, () => page.check('#embargo'));
  assert.equal(await page.textContent('#results-summary'), '2 verdicts: 1 embargoed, 1 disallowed.');
  await fill(page, '#urls', '');
  assert.equal(await page.textContent('#results-summary'), '');
  assert.equal(await page.getAttribute('#results-empty', 'role'), 'status');
  assert.equal(await page.textContent('#results-empty'), 'Verdicts appear here as you type URLs.');
  await context.close();
});

// The focused element as the test names it; whether focus is shown by an outline (its
// own or, for the editor's transparent textarea, the editor frame's) in the window, at
// least 2px wide and of 3:1 contrast against what is drawn around it (WCAG 1.4.11);
// and whether Tab has been there before.
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  window.tabbed ??= new WeakSet();
  const again = window.tabbed.has(el);
  window.tabbed.add(el);
  const name = el === document.body ? 'body'
    : el.id ? `#${el.id}`
      : el.classList.contains('skip') ? 'skip link'
        : el.classList.contains('line-link') ? `line ${el.dataset.line}${el.closest('#explain') ? ' (why)' : ''}`
          : el.classList.contains('row-link') ? `url ${el.textContent}`
            : el.type === 'radio' ? `radio ${el.value}` : el.tagName.toLowerCase();

  const shown = el.closest('.editor') ?? el;
  const style = getComputedStyle(shown);
  const box = shown.getBoundingClientRect();
  const rgb = (color) => color.match(/[\d.]+/g).map(Number);
  const luminance = (color) => {
    const [r, g, b] = rgb(color).slice(0, 3).map((c) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  // The opaque background drawn just left of the element, where its outline is.
  const x = Math.max(0, box.left - 3);
  const y = box.top + box.height / 2;
  let under = document.elementsFromPoint(x, y).find((e) => e !== shown && !shown.contains(e));
  let background = 'rgb(255, 255, 255)';
  for (; under; under = under.parentElement) {
    const color = getComputedStyle(under).backgroundColor;
    if ((rgb(color)[3] ?? 1) === 1) {
      background = color;
      break;
    }
  }
  const [hi, lo] = [luminance(style.outlineColor), luminance(background)].sort((a, b) => b - a);
  const contrast = (hi + 0.05) / (lo + 0.05);
  const visible = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && contrast >= 3
    && box.right > 0 && box.bottom > 0 && box.left < innerWidth && box.top < innerHeight;
  return { name, visible, again };
});

const FEW = 'User-agent: *\nDisallow: /private/\nDisalow: /typo\n';

async function openFew(options = {}) {
  const opened = await open({ viewport: { width: 1280, height: 860 }, ...options });
  await fill(opened.page, '#robots', FEW);
  await fill(opened.page, '#agent', 'SomeBot');
  await fill(opened.page, '#urls', '/private/x\n/about');
  return opened;
}

test('Tab reaches every control once, in reading order, with focus visible on each', async () => {
  const { context, page } = await openFew();
  await page.click('#results tbody tr:nth-child(1) .url');
  // From the first control on: nothing comes before it.
  await page.focus('.skip');
  await page.keyboard.press('Shift+Tab');
  assert.equal((await focused(page)).name, 'body');
  await page.focus('.skip');

  const order = [];
  for (;;) {
    const now = await focused(page);
    if (now.name === 'body' || now.again) break;
    order.push(now);
    assert.ok(order.length < 30, 'Tab goes round forever');
    await page.keyboard.press('Tab');
  }
  assert.deepEqual(order.map((o) => o.name), [
    'skip link', '#share', '#robots', 'line 3', '#agent', 'radio rfc9309', '#embargo', '#urls',
    'url /private/x', 'line 2', 'url /about', 'line 2 (why)',
  ]);
  const hidden = order.filter((o) => !o.visible).map((o) => o.name);
  assert.deepEqual(hidden, [], 'focus is not visible on these');
  // Shift+Tab goes back the same way.
  await page.focus('#agent');
  await page.keyboard.press('Shift+Tab');
  assert.equal((await focused(page)).name, 'line 3');
  await context.close();
});

test('the editor does not trap Tab: Tab and Shift+Tab leave it, typing nothing', async () => {
  const { context, page } = await openFew();
  await page.focus('#robots');
  await page.keyboard.press('End');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).name, 'line 3', 'Tab leaves the editor');
  assert.equal(await page.inputValue('#robots'), FEW, 'Tab typed nothing into the file');
  await page.keyboard.press('Shift+Tab');
  assert.equal((await focused(page)).name, '#robots');
  await page.keyboard.press('Shift+Tab');
  assert.equal((await focused(page)).name, '#share', 'Shift+Tab leaves it too');
  await context.close();
});

test('every control works from the keyboard: Enter and Space press, arrows choose', async () => {
  const { context, page } = await openFew();
  const focusedName = async () => (await focused(page)).name;

  // The skip link moves focus to the URLs, and leaves the fragment, which holds the
  // state, as it was.
  await page.waitForFunction(() => location.hash.startsWith('#s='));
  const address = page.url();
  await page.focus('.skip');
  await page.keyboard.press('Enter');
  assert.equal(await focusedName(), '#urls');
  assert.equal(page.url(), address);

  // The share button, by Enter and by Space.
  for (const key of ['Enter', ' ']) {
    await page.$eval('#share-status', (el) => { el.textContent = ''; });
    await page.focus('#share');
    await page.keyboard.press(key);
    await page.waitForFunction(() => document.getElementById('share-status').textContent !== '');
  }

  // A lint finding's line button highlights its line.
  await page.focus('#lint .line-link');
  await page.keyboard.press('Enter');
  assert.equal(await highlightedLine(page), 3);

  // The embargo switch toggles with Space.
  await page.focus('#embargo');
  await andUpdate(page, () => page.keyboard.press(' '));
  assert.equal(await page.isChecked('#embargo'), true);
  await andUpdate(page, () => page.keyboard.press(' '));
  assert.equal(await page.isChecked('#embargo'), false);

  // A verdict is explained by Enter or Space on its URL, its line highlighted by its button.
  await page.focus('#results tbody tr:nth-child(2) .row-link');
  await page.keyboard.press(' ');
  assert.equal(await page.getAttribute('#results tbody tr:nth-child(2)', 'aria-current'), 'true');
  await page.focus('#results tbody tr:nth-child(1) .row-link');
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('#results tbody tr:nth-child(1)', 'aria-current'), 'true');
  assert.equal(await page.isVisible('#explain'), true);
  // Each line button, in the row and in the explanation, highlights its line.
  for (const button of ['#results tbody tr:nth-child(1) .line-link', '#explain .line-link']) {
    await page.focus('#lint .line-link');
    await page.keyboard.press('Enter');
    assert.equal(await highlightedLine(page), 3);
    await page.focus(button);
    await page.keyboard.press('Enter');
    assert.equal(await highlightedLine(page), 2, button);
  }

  // The profile is chosen with the arrow keys, as in any radio group.
  await page.focus('input[value="rfc9309"]');
  await andUpdate(page, () => page.keyboard.press('ArrowRight'));
  assert.equal(await page.isChecked('input[value="google"]'), true);
  assert.equal(await focusedName(), 'radio google');
  await andUpdate(page, () => page.keyboard.press('ArrowLeft'));
  assert.equal(await page.isChecked('input[value="rfc9309"]'), true);
  await context.close();
});

test('in forced colours (high contrast themes) the switch and its state, the highlighted line and the explained verdict still show', async () => {
  const { context, page } = await openFew({ forcedColors: 'active' });
  assert.equal(await page.evaluate(() => matchMedia('(forced-colors: active)').matches), true);
  // Whether `change` changes how `selector` is drawn.
  const redraws = async (selector, change) => {
    await page.mouse.move(0, 0);
    const before = await page.locator(selector).screenshot();
    await change();
    await page.mouse.move(0, 0);
    return !before.equals(await page.locator(selector).screenshot());
  };
  assert.ok(await redraws('.switch', () => page.$eval('#embargo', (el) => { el.style.visibility = 'hidden'; })),
    'the switch is drawn');
  await page.$eval('#embargo', (el) => { el.style.visibility = ''; });
  assert.ok(await redraws('#embargo', () => andUpdate(page, () => page.check('#embargo'))), 'checking it shows');
  assert.ok(await redraws('#editor .code', () => page.click('#results tbody tr:nth-child(1) .rule')),
    'the deciding line is highlighted');
  assert.equal(await highlightedLine(page), 2);
  assert.ok(await redraws('#results tbody tr:nth-child(2)', () => page.click('#results tbody tr:nth-child(2) .rule')),
    'the explained verdict is marked');
  assert.equal(await page.getAttribute('#results tbody tr:nth-child(2)', 'aria-current'), 'true');
  await context.close();
});
