// web/lib is a package: its exports resolve, its version carries the API version, and the type
// declarations name every public method of the API class and every method a pool worker runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { API_VERSION, AttnxApi } from '../../web/lib/attnx.js';

const LIB = fileURLToPath(new URL('../../web/lib/', import.meta.url));
const pkg = JSON.parse(readFileSync(`${LIB}package.json`, 'utf8'));

test('package.json: exports point at files that exist; major version = API_VERSION', () => {
  for (const [key, target] of Object.entries(pkg.exports)) {
    const files = typeof target === 'string' ? [target] : Object.values(target);
    for (const f of files) assert.ok(existsSync(`${LIB}${f}`), `${key} -> ${f}`);
  }
  assert.equal(Number(pkg.version.split('.')[0]), API_VERSION);
  assert.equal(pkg.attnx.apiVersion, API_VERSION);
  assert.match(readFileSync(`${LIB}attnx.d.ts`, 'utf8'), new RegExp(`API_VERSION: ${API_VERSION};`));
});

test('attnx.d.ts declares every public method of AttnxApi (and no test hook)', () => {
  const dts = readFileSync(`${LIB}attnx.d.ts`, 'utf8');
  const methods = Object.getOwnPropertyNames(AttnxApi.prototype).filter((m) => m !== 'constructor');
  assert.ok(methods.length >= 14);
  for (const m of methods) {
    assert.ok(!m.startsWith('_'), `${m}: private methods do not belong on the public class`);
    assert.match(dts, new RegExp(`\\n  ${m}\\(`), `${m} missing from attnx.d.ts`);
  }
  for (const m of dts.matchAll(/\n {2}([a-zA-Z]+)\(/g)) assert.ok(methods.includes(m[1]), `${m[1]} declared but not implemented`);
});

test('pool.d.ts lists exactly the methods the worker dispatches', () => {
  const worker = readFileSync(`${LIB}worker.js`, 'utf8');
  const table = worker.slice(worker.indexOf('const METHODS'), worker.indexOf('};', worker.indexOf('const METHODS')));
  const dispatched = [...table.matchAll(/\n {2}([a-zA-Z]+):/g)].map((m) => m[1]).sort();
  const dts = readFileSync(`${LIB}pool.d.ts`, 'utf8');
  const union = dts.slice(dts.indexOf('export type PoolMethod'), dts.indexOf(';', dts.indexOf('export type PoolMethod')));
  const declared = [...union.matchAll(/'([a-zA-Z]+)'/g)].map((m) => m[1]).sort();
  assert.deepEqual(declared, dispatched);
});
