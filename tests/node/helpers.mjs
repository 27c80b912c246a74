// Shared helpers of the Node tests of the WebAssembly module (node --test tests/node/).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = `${ROOT}build/native/attnx`;

export function requireBuilds() {
  for (const f of ['attnx_simd.mjs', 'attnx_simd.wasm', 'attnx_scalar.mjs', 'attnx_scalar.wasm']) {
    assert.ok(existsSync(`${ROOT}web/wasm/${f}`), `web/wasm/${f} is missing: run scripts/build-wasm`);
  }
}

export async function loadBoth() {
  requireBuilds();
  return { simd: await load({ flavour: 'simd' }), scalar: await load({ flavour: 'scalar' }) };
}

// JS option names -> CLI flags (camelCase -> kebab-case); triplets are not expressible here.
export function cliArgs(opts) {
  const out = [];
  for (const [k, v] of Object.entries(opts)) {
    const flag = k.replace(/([a-z])([A-Z])/g, (_, a, b) => `${a}-${b.toLowerCase()}`);
    out.push(`--${flag}`, Array.isArray(v) ? v.join(',') : String(v));
  }
  return out;
}

export function cliAvailable() {
  return existsSync(CLI);
}

export function runCli(command, opts, extra = []) {
  assert.ok(cliAvailable(), `${CLI} is missing: run scripts/build-native`);
  const text = execFileSync(CLI, [command, ...cliArgs(opts), ...extra], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(text);
}

// |a - b| <= tol * max(|a|, |b|) (and exact equality for non-finite / zero).
export function assertRel(actual, expected, tol, what) {
  if (actual === expected) return;
  const scale = Math.max(Math.abs(actual), Math.abs(expected));
  assert.ok(Number.isFinite(actual) && Number.isFinite(expected) && Math.abs(actual - expected) <= tol * scale,
    `${what}: ${actual} vs ${expected} (relative tolerance ${tol})`);
}
