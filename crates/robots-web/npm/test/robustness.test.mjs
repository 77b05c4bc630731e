// Odd input never crashes the process: invalid agent names throw an Error that names
// the problem, wrong types a TypeError, and random files, agents and URLs get answers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Robots, robotsParser } from './package.mjs';

test('an invalid agent name throws an Error whose message names the problem', () => {
  const robots = Robots.parse('User-agent: *\nDisallow: /x\n');
  assert.throws(() => robots.check('', '/x'), { name: 'Error', message: /name is empty/ });
  assert.throws(() => robots.check('café', '/x'), { name: 'Error', message: /`café` contains 'é'/ });
  assert.throws(() => robots.check('/', '/x'), { name: 'Error', message: /`\/` contains '\/'/ });
  assert.throws(() => robots.check('(compatible)', '/x'), { name: 'Error', message: /\(compatible\)/ });
  assert.throws(() => robots.crawlDelay('a\u0000b'), { name: 'Error', message: /contains '\\0'/ });
  assert.throws(() => robots.explain('', '/x'), { message: /name is empty/ });
  // The file still answers afterwards.
  assert.equal(robots.check('ExampleBot', '/x').allowed, false);
});

test('arguments of the wrong type throw a TypeError saying what was expected', () => {
  const robots = Robots.parse('');
  for (const [call, pattern] of [
    [() => Robots.parse(42), /string or a Uint8Array; got number 42/],
    [() => Robots.parse(null), /got null/],
    [() => Robots.parse('', 'google'), /options must be an object/],
    [() => Robots.parse('', { profile: 1 }), /options.profile/],
    [() => Robots.parse('', { maxBytes: '1e6' }), /options.maxBytes/],
    [() => robots.check(undefined, '/x'), /agent must be a string/],
    [() => robots.check('ExampleBot', 7), /URL must be a string or a URL/],
    [() => robots.check('ExampleBot', '/x', 'embargo'), /options must be an object/],
  ]) {
    assert.throws(call, { name: 'TypeError', message: pattern });
  }
});

/** A small deterministic generator (xorshift32), so that a failure reproduces. */
function random(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

const PIECES = [
  'User-agent: ', 'Disallow: ', 'Allow: ', 'Crawl-delay: ', 'Sitemap: ', 'Host: ', 'Archive-Embargo: ',
  'Embargo-Allow: ', '*', '$', '/', '%', '%2F', '%zz', '?', '#', '\n', '\r', '\r\n', ' ', '\t', ':', 'é',
  '\u0000', '\uFFFD', '😀', 'ExampleBot', 'Googlebot/2.1', 'm', '-1', '1e400', 'NaN', '/a*b$c', '\u2028',
];

function piece(rand, n) {
  let s = '';
  for (let i = rand(n); i > 0; i--) s += PIECES[rand(PIECES.length)];
  return s;
}

test('random files, agents and URLs: every call answers or throws an Error', () => {
  const rand = random(0x5eed);
  let answered = 0;
  let refused = 0;
  for (let round = 0; round < 400; round++) {
    const bytes = round % 3 === 0
      ? Uint8Array.from({ length: rand(300) }, () => rand(256))
      : piece(rand, 60);
    const profile = round % 2 ? 'google' : 'rfc9309';
    const robots = Robots.parse(bytes, { profile });
    assert.ok(Array.isArray(robots.lint()));
    assert.ok(Array.isArray(robots.sitemaps()));
    const compat = robotsParser(`https://example.com${piece(rand, 2)}/robots.txt`, bytes);
    for (let q = 0; q < 10; q++) {
      const agent = piece(rand, 3);
      const url = (rand(2) ? 'https://example.com' : '') + piece(rand, 6);
      for (const call of [
        () => robots.check(agent, url),
        () => robots.explain(agent, url, { embargo: profile === 'rfc9309' }),
        () => robots.crawlDelay(agent),
      ]) {
        try {
          const answer = call();
          if (answer !== null && typeof answer === 'object' && 'allowed' in answer) {
            assert.equal(typeof answer.allowed, 'boolean');
            assert.equal(typeof answer.reason, 'string');
          }
          answered++;
        } catch (err) {
          assert.ok(err instanceof Error, `threw ${String(err)}`);
          assert.ok(err.message.length > 10, `the message says what is wrong: ${err.message}`);
          refused++;
        }
      }
      const allowed = compat.isAllowed(url, agent);
      assert.ok(allowed === undefined || typeof allowed === 'boolean');
      assert.equal(typeof compat.getMatchingLineNumber(url, agent), 'number');
    }
    for (const status of [rand(1000), -1, 1.5, NaN, Infinity, 2 ** 40]) {
      try {
        Robots.fromResponse(status, bytes, { profile }).check('ExampleBot', '/x');
        answered++;
      } catch (err) {
        assert.ok(err instanceof Error, `threw ${String(err)}`);
        refused++;
      }
    }
  }
  assert.ok(answered > 5_000, `answered ${answered}`);
  assert.ok(refused > 100, `refused ${refused}`);
  // Still working after all that.
  assert.equal(Robots.parse('User-agent: *\nDisallow: /\n').check('ExampleBot', '/a').allowed, false);
});
