// Large runs: L = 4096 construct within the WebAssembly memory maximum, and oversized requests
// refused by the estimate before allocating (never an out-of-memory crash).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { requireBuilds } from './helpers.mjs';
import { loadTestBuild } from './test-build.mjs';

let api;
before(async () => {
  requireBuilds();
  api = await load({ flavour: 'simd' });
});

test('construct at L = 4096 works and returns L*L matrices', () => {
  const opts = { pattern: 'random', L: 4096, k: 2, d: 256, seed: 1 };
  const e = api.estimateBytes(opts);
  assert.ok(e.construct < e.maxBytes);
  const r = api.construct(opts);
  assert.equal(r.M.length, 4096 * 4096);
  assert.equal(r.logits.length, 4096 * 4096);
  assert.equal(r.X.length, 4096 * 512);
  assert.ok(Number.isFinite(r.metrics.rho) && Number.isFinite(r.metrics.lambda));
  let s = 0;
  for (let j = 0; j < 4096; j++) s += r.M[4095 * 4096 + j];
  assert.ok(Math.abs(s - 1) < 1e-4, `last row of M sums to ${s}`);
  // And again (the heap is reused; the first result stays intact).
  const first = r.M[12345];
  const r2 = api.construct({ ...opts, seed: 2 });
  assert.equal(r.M[12345], first);
  assert.equal(r2.M.length, 4096 * 4096);
});

test('oversized requests are refused by the estimate, and the module stays usable', () => {
  for (const opts of [
    { L: 16384, d: 16384 },
    { L: 16384, d: 512 },
    { L: 8192, d: 16384 },
    { L: 16384, d: 16384, maxBytes: 2 ** 32 },
  ]) {
    const e = api.estimateBytes(opts);
    assert.ok(e.construct > e.maxBytes, JSON.stringify(opts));
    assert.throws(() => api.construct(opts), (err) => err instanceof RangeError && err.kind === 'budget'
      && err.field === 'maxBytes' && /^construct needs about \d+ MiB, above the memory budget of \d+ MiB/.test(err.message));
  }
  assert.throws(() => api.minD({ L: 16384, maxBytes: 2 ** 29 }), { kind: 'budget' });
  assert.throws(() => api.sweepPoint({ L: 16384, maxBytes: 2 ** 29 }), { kind: 'budget' });
  assert.ok(api.minD({ L: 64 }).dMin > 0);
});

test('a failed allocation is an Error (kind memory), not an abort; the module stays usable (native exceptions in simd, emulated in scalar)', async () => {
  for (const flavour of ['simd', 'scalar']) {
    const t = await loadTestBuild(flavour);
    assert.equal(t.allocProbe(64), 64 * 2 ** 20, flavour);
    // One block of almost 4 GiB cannot fit the 4 GiB heap next to what is already there.
    assert.throws(() => t.allocProbe(4095), (e) => e instanceof Error && e.kind === 'memory' && /out of memory/.test(e.message), flavour);
    assert.equal(t.allocProbe(16), 16 * 2 ** 20, flavour);
    assert.ok(t.api.minD({ L: 64 }).dMin > 0, flavour);
  }
});

test('the production module carries no test hooks', () => {
  for (const hook of ['gramSelfTest', 'gramBench', 'allocProbe']) assert.equal(api._m[hook], undefined, hook);
  assert.equal(api._gramSelfTest, undefined);
});
