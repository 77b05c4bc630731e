// The robots-parser drop-in: its factory and methods, with its conventions (undefined
// for a URL of another origin, -1 for no line, the group of a User-Agent with a
// version), and the engine's verdicts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { robotsParser, esmCompat } from './package.mjs';

const FILE = `User-agent: *
Disallow: /private/
Allow: /private/open
Crawl-delay: 1

User-agent: Googlebot
Disallow: /nogoogle
Crawl-delay: 3

Sitemap: https://example.com/a.xml
Sitemap: https://example.com/b.xml
Host: WWW.Example.com
`;

const robots = robotsParser('https://example.com/robots.txt', FILE);

test('verdicts for URLs of the robots.txt origin', () => {
  assert.equal(robots.isAllowed('https://example.com/private/x', 'ExampleBot/1.0'), false);
  assert.equal(robots.isAllowed('https://example.com/private/open', 'ExampleBot/1.0'), true);
  assert.equal(robots.isAllowed('https://example.com/', 'ExampleBot/1.0'), true);
  assert.equal(robots.isDisallowed('https://example.com/private/x', 'ExampleBot'), true);
  assert.equal(robots.getMatchingLineNumber('https://example.com/private/x', 'ExampleBot'), 2);
  assert.equal(robots.getMatchingLineNumber('https://example.com/private/open/1'), 3);
  assert.equal(robots.getMatchingLineNumber('https://example.com/public', 'ExampleBot'), -1);
  // The same origin written otherwise: the default port, upper case, a query, a fragment.
  assert.equal(robots.isAllowed('https://example.com:443/private/x', 'ExampleBot'), false);
  assert.equal(robots.isAllowed('HTTPS://EXAMPLE.COM/private/x', 'ExampleBot'), false);
  assert.equal(robots.isAllowed('https://example.com?q', 'ExampleBot'), true);
  assert.equal(robots.isAllowed('https://example.com#top', 'ExampleBot'), true);
});

test('a URL of another origin, or none, gets undefined (isDisallowed: true)', () => {
  for (const url of [
    'http://example.com/private/x', // scheme
    'https://www.example.com/private/x', // host
    'https://example.com:8443/private/x', // port
    'https://example.com.evil.test/private/x', // a host that only starts alike
    'https://example.com@evil.test/private/x', // userinfo, then another host
    '/private/x', // relative: robots-parser resolves it against a host of its own
    'http://[invalid', // not a URL
  ]) {
    assert.equal(robots.isAllowed(url, 'ExampleBot'), undefined, url);
    assert.equal(robots.isDisallowed(url, 'ExampleBot'), true, url);
    assert.equal(robots.getMatchingLineNumber(url, 'ExampleBot'), -1, url);
  }
  const invalid = robotsParser('not a url', FILE);
  assert.equal(invalid.isAllowed('https://example.com/private/x', 'ExampleBot'), undefined);
});

test('the agent group is found from a User-Agent, with a version or a whole header', () => {
  for (const ua of ['Googlebot', 'googlebot', 'Googlebot/2.1', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)']) {
    assert.equal(robots.isAllowed('https://example.com/nogoogle', ua), false, ua);
    assert.equal(robots.isAllowed('https://example.com/private/x', ua), true, ua);
    assert.equal(robots.getCrawlDelay(ua), 3, ua);
  }
  // No User-Agent: the `*` group, as robots-parser reads it.
  assert.equal(robots.isAllowed('https://example.com/private/x'), false);
  assert.equal(robots.getCrawlDelay(), 1);
  assert.equal(robots.getCrawlDelay('ExampleBot'), 1);
  // A name the engine cannot read as a crawler: the rules of no named group, no throw.
  assert.equal(robots.isAllowed('https://example.com/private/x', '(compatible)'), false);
  assert.equal(robotsParser('https://example.com/robots.txt', 'User-agent: a\nDisallow: /\n').getCrawlDelay('a'), undefined);
});

test('sitemaps and the preferred host', () => {
  const sitemaps = robots.getSitemaps();
  assert.deepEqual(sitemaps, ['https://example.com/a.xml', 'https://example.com/b.xml']);
  sitemaps.push('changed');
  assert.equal(robots.getSitemaps().length, 2, 'a copy is returned');
  assert.equal(robots.getPreferredHost(), 'www.example.com');
  assert.equal(robotsParser('https://example.com/robots.txt', '').getPreferredHost(), null);
  assert.deepEqual(robotsParser('https://example.com/robots.txt').getSitemaps(), []);
});

test('the import gives the same factory as require()', () => {
  assert.equal(esmCompat.default, robotsParser);
  assert.equal(robotsParser.default, robotsParser);
  const viaImport = esmCompat.default('http://example.org/robots.txt', 'User-agent: *\nDisallow: /\n');
  assert.equal(viaImport.isAllowed('http://example.org/x', 'AnyBot'), false);
  assert.equal(viaImport.isAllowed('http://example.org/robots.txt', 'AnyBot'), true, 'RFC 9309 §2.2.2');
});
