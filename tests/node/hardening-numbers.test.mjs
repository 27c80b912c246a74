// Issue 9, wrong results: no success from NaN, no overflowing tolerance, finite d* for tiny delta,
// and every file the CLI writes is one the lab (the core's parseSweep) reads.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

import { load } from '../../web/lib/attnx.js';
import { CLI, cliAvailable, requireBuilds } from './helpers.mjs';

let api;
before(async () => {
  requireBuilds();
  assert.ok(cliAvailable(), `${CLI} is missing`);
  api = await load({ flavour: 'simd' });
});

const cli = (...args) => spawnSync(CLI, args, { encoding: 'utf8' });

test('a huge eps is refused (CLI and API) instead of reporting success with null metrics', () => {
  for (const eps of ['1e39', '1e38', '101']) {
    const r = cli('construct', '--L', '64', '--eps', eps, '--d', '64');
    assert.equal(r.status, 2, r.stdout);
    assert.match(r.stderr, /^attnx: --eps must be a number in \[1e-06, 100\] \(got /);
    assert.equal(r.stdout, '');
    assert.throws(() => api.construct({ L: 64, eps: Number(eps), d: 64 }), (e) => e.field === 'eps' && /\[1e-06, 100\]/.test(e.message));
  }
  // mind agrees: refused too, never "not reached" for the same flags.
  assert.equal(cli('mind', '--L', '64', '--eps', '1e39').status, 2);
});

test('the largest eps still gives finite metrics and a consistent verdict', () => {
  const r = JSON.parse(cli('construct', '--L', '64', '--eps', '100', '--d', '64').stdout);
  for (const k of ['rho', 'zeta', 'lambda', 'beta', 'd_star']) assert.ok(Number.isFinite(r.metrics[k]), k);
  assert.equal(r.metrics.success, r.metrics.rho <= 100 && r.metrics.zeta <= 0.1);
});

test('delta = 1e-320 gives a finite d*; its CSV and JSON are read back by the lab', () => {
  for (const format of ['csv', 'json']) {
    const r = cli('sweep', '--Ls', '16,32', '--trials', '2', '--delta', '1e-320', '--format', format);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /null,|,null\n|Infinity/);
    const rec = api.parseSweep(r.stdout);
    assert.equal(rec.points.length, 2);
    for (const p of rec.points) assert.ok(Number.isFinite(p.d_star) && p.d_star > 0, `${format}: d_star ${p.d_star}`);
  }
});

test('custom weights 1e308 + 1e308 make a row of halves; 1e-300 next to 1e300 is refused by entry', () => {
  const big = api.construct({ pattern: 'custom', L: 2, d: 64, triplets: { rows: [0, 0, 1], cols: [0, 1, 1], vals: [1e308, 1e308, 1] } });
  assert.deepEqual(Array.from(big.A.vals), [0.5, 0.5, 1]);
  assert.ok(Number.isFinite(big.metrics.rho) && Number.isFinite(big.metrics.dStar));
  assert.throws(() => api.construct({ pattern: 'custom', L: 2, d: 64, triplets: { rows: [0, 0, 1], cols: [0, 1, 1], vals: [1e300, 1e-300, 1] } }),
    (e) => e.field === 'triplets' && /^entry 1: weight 1e-300 is too small/.test(e.message));
  const tiny = api.construct({ pattern: 'custom', L: 2, d: 64, triplets: { rows: [0, 1], cols: [1, 0], vals: [5e-324, 1] } });
  assert.ok(Number.isFinite(tiny.metrics.beta) && Number.isFinite(tiny.metrics.dStar));
});
