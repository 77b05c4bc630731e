'use strict';
// The engine's WebAssembly (crates/robots-web, built by scripts/build-npm) and what both
// APIs share: input checks, crawlers made once per name, packed verdicts unpacked.

const wasm = require('./wasm/robots_web.js');

/** The names a packed verdict's indices stand for, as the engine gives them. */
const NAMES = JSON.parse(wasm.packed_names());

const encoder = new TextEncoder();

/** A short description of a value for an error message. */
function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  if (type === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (type === 'object') return `an object (${value.constructor?.name ?? 'no prototype'})`;
  return `${type} ${String(value)}`;
}

/** The bytes of a robots.txt given as text (encoded as UTF-8) or as bytes. */
function bytesOf(input, what) {
  if (typeof input === 'string') return encoder.encode(input);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) {
    return input instanceof Uint8Array
      ? input
      : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  }
  throw new TypeError(`${what} must be a string or a Uint8Array; got ${describe(input)}`);
}

/** `{ profile, maxBytes }`, checked: the engine checks the values themselves. */
function parseOptions(options) {
  if (options === undefined || options === null) return { profile: 'rfc9309', maxBytes: undefined };
  if (typeof options !== 'object') {
    throw new TypeError(`options must be an object such as { profile: 'google' }; got ${describe(options)}`);
  }
  const { profile = 'rfc9309', maxBytes } = options;
  if (typeof profile !== 'string') {
    throw new TypeError(`options.profile must be 'rfc9309' or 'google'; got ${describe(profile)}`);
  }
  if (maxBytes !== undefined && typeof maxBytes !== 'number') {
    throw new TypeError(`options.maxBytes must be a number of bytes; got ${describe(maxBytes)}`);
  }
  return { profile, maxBytes };
}

/** A URL as the engine takes it: a string (absolute, or a path) or a URL object. */
function urlOf(url) {
  if (typeof url === 'string') return url;
  if (url instanceof URL) return url.href;
  throw new TypeError(`the URL must be a string or a URL; got ${describe(url)}`);
}

// Crawlers by profile, embargo and name: naming one parses the name, which a check
// should not pay for again. Bounded, as names may come from untrusted input; the
// WebAssembly side of a dropped one is freed by its finalizer.
const crawlers = { rfc9309: [new Map(), new Map()], google: [new Map(), new Map()] };
const MAX_CRAWLERS = 1024;

/**
 * The crawler called `name` under `profile` (as the engine names it: `rfc9309` or
 * `google`), made once; throws what the engine says is wrong with the name.
 */
let last = { name: null, profile: null, embargo: false, crawler: null };

function crawler(name, profile, embargo) {
  // A crawler asks about many URLs in a row: the one asked last is at hand.
  if (name === last.name && profile === last.profile && embargo === last.embargo) return last.crawler;
  if (typeof name !== 'string') {
    throw new TypeError(`the agent must be a string, the crawler's product token or User-Agent; got ${describe(name)}`);
  }
  const found = named(name, profile, embargo);
  last = { name, profile, embargo, crawler: found };
  return found;
}

function named(name, profile, embargo) {
  const byName = crawlers[profile][embargo ? 1 : 0];
  let found = byName.get(name);
  if (found === undefined) {
    found = wasm.crawler(name, profile, embargo);
    if (byName.size >= MAX_CRAWLERS) byName.clear();
    byName.set(name, found);
  }
  return found;
}

// A check's URL goes into a buffer the engine set aside, written here byte by byte:
// passing a string through wasm-bindgen would allocate and free in the engine per
// check, which costs more than the check itself.
const [URL_AT, URL_ROOM] = wasm.url_buffer();
const memory = wasm.engine_memory();
let heap = new Uint8Array(memory.buffer);
let urlRoom = heap.subarray(URL_AT, URL_AT + URL_ROOM);

/** The engine's memory as bytes, viewed again when it grew (which detaches a view). */
function memoryNow() {
  if (heap.byteLength === 0) {
    heap = new Uint8Array(memory.buffer);
    urlRoom = heap.subarray(URL_AT, URL_AT + URL_ROOM);
  }
  return heap;
}

/**
 * A robots.txt given as text, parsed: encoded as UTF-8 straight into the engine's
 * memory, where bytes given to wasm-bindgen would be encoded, then copied there.
 */
function parseText(text, profile, maxBytes) {
  const room = text.length * 3;
  const at = wasm.input_buffer(room);
  const { written } = encoder.encodeInto(text, memoryNow().subarray(at, at + room));
  return wasm.parse_input(written, profile, maxBytes);
}

/** The packed verdict of `file` for `crawler` and the string `url` (src/packed.rs). */
function packed(file, crawler, url) {
  memoryNow();
  const { read, written } = encoder.encodeInto(url, urlRoom);
  if (read === url.length) {
    const code = file.packed_at(crawler, written);
    if (code === code) return code;
  }
  // A URL too long for the buffer; or NaN, which this call turns into its error.
  return file.packed(crawler, url);
}

/**
 * `{ allowed, line, rule, pattern, reason, embargoDays }` from a packed verdict
 * (crates/robots-web/src/packed.rs), then the AI usage preferences from `preferences`
 * (the engine's JSON for them, parsed; `null` for none); `patterns` keeps the patterns
 * of `file` by line, asked of the engine once each.
 */
function unpack(code, file, patterns, preferences) {
  const low = code % 65536;
  const line = (code - low) / 65536;
  const rule = NAMES.rules[(low >> 4) & 3];
  const days = (low >> 6) & 1023;
  let pattern = null;
  if (line !== 0) {
    pattern = patterns.get(line);
    if (pattern === undefined) {
      pattern = file.pattern_at(line) ?? null;
      patterns.set(line, pattern);
    }
  }
  return {
    allowed: (low & 1) === 1,
    line: line === 0 ? null : line,
    rule: rule === '' ? null : rule,
    pattern,
    reason: NAMES.reasons[(low >> 1) & 7],
    embargoDays: days === 0 ? null : days,
    contentUsage: preferences?.content_usage ?? null,
    contentUsageLine: preferences?.content_usage_line ?? null,
    contentSignal: preferences?.content_signal ?? null,
    contentSignalLine: preferences?.content_signal_line ?? null,
  };
}

/** The engine's snake_case JSON with camelCase keys, as JavaScript spells them. */
function camel(value) {
  if (Array.isArray(value)) return value.map(camel);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key.replace(/_([a-z])/g, (_, c) => c.toUpperCase())] = camel(inner);
  }
  return out;
}

module.exports = { wasm, bytesOf, parseOptions, parseText, urlOf, crawler, packed, unpack, camel, describe };
