'use strict';
// robots-parser's interface over the engine, so that a crawler swaps one import: its
// factory `(url, contents)`, its methods and conventions; the verdicts are the engine's
// (RFC 9309). docs/javascript.md lists where the two differ.

const { wasm, bytesOf, parseText, crawler, packed } = require('./engine.cjs');

// robots-parser resolves a relative URL against a host of its own, so that it is of
// another origin than any robots.txt: the same is done here.
const RELATIVE_BASE = 'http://robots-relative.invalid/';

/** `{ protocol, hostname, port }` with the default port filled in, or null. */
function originOf(url) {
  let parsed;
  try {
    parsed = new URL(String(url), RELATIVE_BASE);
  } catch {
    return null;
  }
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  return { protocol: parsed.protocol, hostname: parsed.hostname, port, href: parsed.href, prefix: `${parsed.protocol}//${parsed.host}` };
}

/** The crawler for a User-Agent as robots-parser is given it; `*` when none is. */
function agentName(ua) {
  return ua === undefined || ua === null || ua === '' ? '*' : String(ua);
}

// The engine's crawler for each User-Agent given, as for robots-parser a name never
// throws: bounded, as names may come from untrusted input.
const agents = new Map();
let lastUa = {};
let lastCrawler = null;

/**
 * The engine's crawler for a User-Agent: its product token (`Googlebot/2.1` and
 * `Mozilla/5.0 (compatible; Googlebot/2.1)` both name `Googlebot`). A name the engine
 * cannot read as a crawler gets the rules of no named group, as robots-parser gives a
 * name no group has, rather than an exception.
 */
function crawlerFor(ua) {
  if (ua === lastUa) return lastCrawler;
  let found = agents.get(ua);
  if (found === undefined) {
    try {
      found = crawler(agentName(ua), 'rfc9309', false);
    } catch {
      found = crawler('*', 'rfc9309', false);
    }
    if (agents.size >= 1024) agents.clear();
    agents.set(ua, found);
  }
  lastUa = ua;
  lastCrawler = found;
  return found;
}

class Robot {
  #file;
  #origin;

  constructor(url, contents) {
    this.#origin = originOf(url);
    // robots-parser reads `contents || ''`, as a string.
    if (contents === undefined || contents === null) contents = '';
    this.#file = ArrayBuffer.isView(contents) || contents instanceof ArrayBuffer
      ? wasm.parse(bytesOf(contents, 'the robots.txt'), 'rfc9309')
      : parseText(String(contents), 'rfc9309', undefined);
  }

  /**
   * The URL to check, or undefined when it is not of the robots.txt's origin (scheme,
   * host, port) or cannot be parsed. A URL that starts with the origin as the URL
   * parser writes it, then `/`, `?`, `#` or its end, is of that origin without parsing.
   */
  #target(url) {
    const origin = this.#origin;
    if (origin === null) return undefined;
    if (typeof url === 'string' && url.startsWith(origin.prefix)) {
      const next = url.charCodeAt(origin.prefix.length);
      // NaN: the URL ends there; 47 '/', 63 '?', 35 '#'.
      if (next !== next || next === 47 || next === 63 || next === 35) return url;
    }
    const other = originOf(url);
    if (
      other === null ||
      other.protocol !== origin.protocol ||
      other.hostname !== origin.hostname ||
      other.port !== origin.port
    ) {
      return undefined;
    }
    return other.href;
  }

  /** true or false, or undefined for a URL of another origin. */
  isAllowed(url, ua) {
    const target = this.#target(url);
    if (target === undefined) return undefined;
    return packed(this.#file, crawlerFor(ua), target) % 2 === 1;
  }

  /** The opposite of isAllowed: true for a URL of another origin, as in robots-parser. */
  isDisallowed(url, ua) {
    return !this.isAllowed(url, ua);
  }

  /** The line of the deciding rule, or -1 when none decided or the URL is of another origin. */
  getMatchingLineNumber(url, ua) {
    const target = this.#target(url);
    if (target === undefined) return -1;
    const code = packed(this.#file, crawlerFor(ua), target);
    const line = Math.floor(code / 65536);
    return line === 0 ? -1 : line;
  }

  /** The Crawl-delay in seconds for the User-Agent's group, or undefined. */
  getCrawlDelay(ua) {
    return this.#file.crawl_delay(crawlerFor(ua));
  }

  /** The Sitemap URLs, in file order. */
  getSitemaps() {
    return this.#file.sitemaps();
  }

  /** The first Host line's value, lower-cased, or null. */
  getPreferredHost() {
    const host = this.#file.host();
    return host === undefined ? null : host.toLowerCase();
  }
}

/** robots-parser's factory: the robots.txt's URL, then its contents. */
function robotsParser(url, contents) {
  return new Robot(url, contents);
}

module.exports = robotsParser;
module.exports.default = robotsParser;
