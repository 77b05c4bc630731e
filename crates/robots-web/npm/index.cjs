'use strict';
// The robots.txt engine for Node: parse once, then ask per crawler and URL. Every answer
// comes from the Rust engine compiled to WebAssembly; nothing here decides a verdict.

const { wasm, bytesOf, parseOptions, parseText, urlOf, crawler, packed, unpack, camel, describe } = require('./engine.cjs');

/** Reads `{ embargo }`, the per-question options. */
function embargoOf(options) {
  if (options === undefined || options === null) return false;
  if (typeof options !== 'object') {
    throw new TypeError(`options must be an object such as { embargo: true }; got ${describe(options)}`);
  }
  return options.embargo === true;
}

const made = Symbol('Robots');

/** A parsed robots.txt. Make one with `Robots.parse` or `Robots.fromResponse`. */
class Robots {
  #file;
  #profile;
  #patterns = null;
  // Whether the file has Content-Usage or Content-Signal lines, asked once: most have
  // none, and their checks then ask nothing more of the engine.
  #statesPreferences = null;

  constructor(file, token, profile) {
    if (token !== made) {
      throw new TypeError('use Robots.parse(text) or Robots.fromResponse(status, body) to make a Robots');
    }
    this.#file = file;
    // The engine's own name for the profile (it also reads `rfc`, `Google`…), asked
    // only when the name given is not already it.
    this.#profile = profile === 'rfc9309' || profile === 'google' ? profile : file.profile();
  }

  /**
   * Parses a robots.txt, text or bytes. Parsing never fails: lines that are not rules
   * are kept for `lint()`. `options.profile` is `'rfc9309'` (the default) or
   * `'google'`; `options.maxBytes` the parse limit (at least 512000).
   */
  static parse(input, options) {
    const { profile, maxBytes } = parseOptions(options);
    const file = typeof input === 'string'
      ? parseText(input, profile, maxBytes)
      : wasm.parse_with(bytesOf(input, 'the robots.txt'), profile, maxBytes);
    return new Robots(file, made, profile);
  }

  /**
   * The rules a robots.txt response gives, after redirects were followed (RFC 9309
   * §2.3.1): a 2xx's body is parsed; a 4xx allows everything; a 5xx, or status 0 for
   * no answer at all, disallows everything but /robots.txt. A 3xx throws.
   */
  static fromResponse(status, body, options) {
    if (typeof status !== 'number') {
      throw new TypeError(`the status must be a number such as 200; got ${describe(status)}`);
    }
    const { profile, maxBytes } = parseOptions(options);
    const bytes = body === undefined || body === null ? new Uint8Array(0) : bytesOf(body, 'the body');
    return new Robots(wasm.from_response(status, bytes, profile, maxBytes), made, profile);
  }

  /** The profile the file was read under: `'rfc9309'` or `'google'`. */
  get profile() {
    return this.#profile;
  }

  /**
   * The verdict for `url` (absolute, or a path) for the crawler `agent` (its product
   * token, or a User-Agent header): `{ allowed, line, rule, pattern, reason,
   * embargoDays, contentUsage, contentUsageLine, contentSignal, contentSignalLine }`,
   * the fields of `robots check --format json`. `{ embargo: true }` for a crawler
   * honouring Archive-Embargo (RFC 9309 profile only).
   */
  check(agent, url, options) {
    const made = crawler(agent, this.#profile, embargoOf(options));
    const text = urlOf(url);
    const code = packed(this.#file, made, text);
    this.#patterns ??= new Map();
    this.#statesPreferences ??= this.#file.states_preferences();
    const preferences = this.#statesPreferences ? JSON.parse(this.#file.preferences(made, text)) : null;
    return unpack(code, this.#file, this.#patterns, preferences);
  }

  /** Only whether `url` may be crawled: `check(agent, url).allowed`, without the rest. */
  isAllowed(agent, url, options) {
    const embargo = options === undefined ? false : embargoOf(options);
    return packed(this.#file, crawler(agent, this.#profile, embargo), typeof url === 'string' ? url : urlOf(url)) % 2 === 1;
  }

  /** Why `url` gets its verdict: the groups chosen, every matching rule, the reason. */
  explain(agent, url, options) {
    const embargo = embargoOf(options);
    crawler(agent, this.#profile, embargo); // the name checked as check() checks it
    return camel(JSON.parse(this.#file.explain(agent, embargo, urlOf(url))));
  }

  /** The crawler's Crawl-delay in seconds, or `null` when its groups give none. */
  crawlDelay(agent) {
    return this.#file.crawl_delay(crawler(agent, this.#profile, false)) ?? null;
  }

  /** The Sitemap URLs, in file order. */
  sitemaps() {
    return this.#file.sitemaps();
  }

  /** The value of the first Host line, or `null`. */
  host() {
    return this.#file.host() ?? null;
  }

  /** Every finding in line order: `{ line, column, length, spanColumn, code, severity, message, suggestion }`. */
  lint() {
    return camel(JSON.parse(this.#file.lint()));
  }

  /** The size, lines, groups and sitemaps the parse found. */
  summary() {
    return camel(JSON.parse(this.#file.summary()));
  }

  /** Frees the WebAssembly memory now rather than when garbage-collected. */
  free() {
    this.#file.free();
  }
}

/** `Robots.parse`, as a function of its own. */
function parse(input, options) {
  return Robots.parse(input, options);
}

/** `Robots.fromResponse`, as a function of its own. */
function fromResponse(status, body, options) {
  return Robots.fromResponse(status, body, options);
}

module.exports = { Robots, parse, fromResponse };
