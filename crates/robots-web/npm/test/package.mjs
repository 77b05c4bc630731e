// The package the tests load: the one scripts/build-npm staged in target/npm/package
// (ROBOTS_NPM_PACKAGE to test another), by require() and by import, and its tarball.

import { createRequire } from 'node:module';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repo = fileURLToPath(new URL('../../../../', import.meta.url));
export const dir = process.env.ROBOTS_NPM_PACKAGE ?? join(repo, 'target', 'npm', 'package');
if (!existsSync(join(dir, 'package.json'))) {
  throw new Error(`no npm package in ${dir}: build it with scripts/build-npm (scripts/test-npm does)`);
}

const require = createRequire(join(dir, 'package.json'));
export const cjs = require(join(dir, 'index.cjs'));
export const { Robots } = cjs;
export const robotsParser = require(join(dir, 'compat.cjs'));
export const esm = await import(pathToFileURL(join(dir, 'index.mjs')).href);
export const esmCompat = await import(pathToFileURL(join(dir, 'compat.mjs')).href);

/** The tarball scripts/build-npm left beside the staged package. */
export function tarball() {
  const out = join(dir, '..');
  const found = readdirSync(out).filter((f) => f.endsWith('.tgz'));
  if (found.length !== 1) throw new Error(`expected one tarball in ${out}, found ${found.length}: run scripts/build-npm`);
  return join(out, found[0]);
}

/** The shared corpus folder, or null after a notice (ROBOTS_SHARED, else ../shared beside the repository). */
export function corpus() {
  const path = join(process.env.ROBOTS_SHARED ?? join(repo, '..', 'shared'), 'corpus');
  if (existsSync(join(path, 'cases.jsonl')) && existsSync(join(path, 'robots'))) return path;
  console.log(`notice: the shared corpus (${path}) is absent; the corpus test checks nothing`);
  return null;
}
