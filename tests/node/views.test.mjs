// construct's pooled images (opts.views, core/attention/views.cpp) equal what the page's JS pooling makes
// from the full matrices (web/common/raster.js, web/explorer/render-data.js), and bad requests
// are refused naming the field.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadBoth } from './helpers.mjs';
import { poolDenseMax, poolDenseAbsMax } from '../../web/common/raster.js';
import { toRecord, zeroRatioPooled } from '../../web/explorer/render-data.js';

let apis;
before(async () => { apis = await loadBoth(); });

const sameFloats = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]) || (x !== x && b[i] !== b[i]));

test('views: M, zero ratio and X pooled by the core equal the JS pooling of the full matrices', () => {
  for (const api of Object.values(apis)) {
    for (const [L, d, size] of [[300, 96, 128], [64, 40, 512]]) {
      const opts = { pattern: 'window', L, w: 3, d, seed: 2 };
      const views = { size, xRows: 100, xCols: 30 };
      const r = api.construct({ ...opts, views });
      const full = api.construct(opts);
      const v = r.views;
      assert.equal(v.size, size);
      assert.ok(sameFloats(v.M.data, poolDenseMax(full.M, L, L, size).data), `M at L=${L}`);
      const rec = toRecord({ id: 1, L, d, A: full.A, M: full.M, logits: full.logits, X: full.X, rows: full.rows, eps: 1, tau: 0.1 });
      assert.ok(sameFloats(v.zero.data, zeroRatioPooled(rec, size).data), `zero at L=${L}`);
      const xb = poolDenseAbsMax(full.X, L, 2 * d, 100, 30, 0, d), xp = poolDenseAbsMax(full.X, L, 2 * d, 100, 30, d, 2 * d);
      assert.ok(sameFloats(v.XB.data, xb.data) && sameFloats(v.XP.data, xp.data), `X at L=${L}`);
      assert.deepEqual([v.XB.w, v.XB.h, v.XB.fr, v.XB.fc], [xb.w, xb.h, xb.fr, xb.fc]);
      let mmax = 0, mmin = Infinity;
      for (const x of full.M) { if (x > mmax) mmax = x; if (x > 0 && x < mmin) mmin = x; }
      assert.equal(v.mMax, mmax);
      assert.equal(v.mMinPositive, mmin);
      assert.equal(v.xbMax, Math.max(...xb.data.map(Math.abs)));
      assert.equal(r.X.length, 2 * L * d, 'X kept unless omitX');
      assert.equal(api.construct({ ...opts, views: { ...views, omitX: true } }).X.length, 0);
    }
  }
});

test('views: inputs false leaves X\'s images out (null) and the other images as they are', () => {
  const api = apis.simd;
  const opts = { pattern: 'window', L: 80, w: 2, d: 60, seed: 4 };
  const all = api.construct({ ...opts, views: { size: 64 } }).views;
  const some = api.construct({ ...opts, views: { size: 64, inputs: false, omitX: true } }).views;
  assert.deepEqual([some.XB, some.XP], [null, null]);
  assert.ok(sameFloats(some.M.data, all.M.data) && sameFloats(some.zero.data, all.zero.data));
});

test('views: dense false leaves M and the logits out (length 0) and everything else as it is, bit for bit', () => {
  const api = apis.simd;
  for (const opts of [{ pattern: 'random', L: 96, k: 2, d: 48, seed: 3 }, { pattern: 'window', L: 80, w: 2, d: 32, construction: 'lp' }]) {
    const views = { size: 40, inputs: true };
    const full = api.construct({ ...opts, views });
    const lean = api.construct({ ...opts, views: { ...views, dense: false } });
    assert.equal(full.M.length, full.L * full.L);
    assert.equal(full.logits.length, full.L * full.L);
    assert.deepEqual([lean.M.length, lean.logits.length], [0, 0]);
    for (const k of ['M', 'zero', 'XB', 'XP']) assert.ok(sameFloats(lean.views[k].data, full.views[k].data), `${k} of ${opts.pattern}`);
    assert.deepEqual([lean.views.mMax, lean.views.mMinPositive], [full.views.mMax, full.views.mMinPositive]);
    assert.ok(sameFloats(lean.X, full.X), 'X is not left out by dense false');
    for (const k of Object.keys(full.rows)) assert.ok(sameFloats(Float64Array.from(lean.rows[k]), Float64Array.from(full.rows[k])), `rows.${k}`);
    assert.deepEqual(lean.metrics, full.metrics);
    // The pooled M image of the full result is what M itself pools to: dense false drops only copies.
    let mmax = 0;
    for (const x of full.M) if (x > mmax) mmax = x;
    assert.equal(lean.views.mMax, mmax);
  }
});

test('views.dense: anything but true, false, null or undefined is refused naming views.dense; null and undefined mean the default (M kept)', () => {
  const api = apis.simd;
  const opts = { L: 24, d: 16, seed: 2 };
  for (const dense of [0, 1, 'true', 'false', '', {}, [], [false], NaN, 1.5, -0]) {
    assert.throws(() => api.construct({ ...opts, views: { size: 8, dense } }),
      (e) => e instanceof RangeError && e.field === 'views.dense' && /^views\.dense must be true or false \(got /.test(e.message), String(dense));
  }
  for (const dense of [null, undefined, true]) assert.equal(api.construct({ ...opts, views: { size: 8, dense } }).M.length, 24 * 24);
  assert.equal(api.construct({ ...opts, views: { size: 8, dense: false } }).M.length, 0);
  assert.equal(api.construct(opts).M.length, 24 * 24, 'no views: M as before');
});

test('views: a bad request is refused with the field and the range', () => {
  const api = apis.simd;
  const cases = [
    [{ size: 0 }, 'views.size', /^views\.size must be an integer from 1 to 4096 \(got 0\)$/],
    [{ xCols: 1.5 }, 'views.xCols', /^views\.xCols must be an integer from 1 to 4096 \(got 1\.5\)$/],
    [{ omitX: 1 }, 'views.omitX', /^views\.omitX must be true or false/],
    [{ inputs: 'no' }, 'views.inputs', /^views\.inputs must be true or false/],
    [{ dense: 0 }, 'views.dense', /^views\.dense must be true or false \(got 0\)/],
    [[], 'views', /^views must be an object/],
  ];
  for (const [views, field, re] of cases) {
    assert.throws(() => api.construct({ L: 16, d: 8, views }), (e) => e instanceof RangeError && e.field === field && re.test(e.message));
  }
});

// Seeded fuzz of construct's `views` request (scripts/fuzz-web-inputs.mjs' generator): each key
// absent, valid or hostile. A request with a hostile key is refused with a RangeError naming
// views.<key>; an accepted one gives M and the logits exactly when dense is not false, and the
// pooled images at the sizes asked.
const VIEWS_SEED = 27;
const VIEW_HOSTILE = [NaN, Infinity, -1, 0, 1.5, 1e12, '32', '', {}, [], 'true', 1];
test('fuzz: views requests, dense included, are refused naming their key or honoured', async () => {
  const { caseRng } = await import('../../scripts/fuzz-web-inputs.mjs');
  const api = apis.simd;
  const L = 40;
  let refused = 0, lean = 0;
  for (let i = 0; i < 150; i++) {
    const rng = caseRng(VIEWS_SEED, 'views', i);
    const views = {};
    const bad = new Set();
    for (const key of ['size', 'xRows', 'xCols', 'omitX', 'inputs', 'dense']) {
      const flag = key === 'omitX' || key === 'inputs' || key === 'dense';
      const r = rng.int(0, 3);
      if (r === 0) continue;  // absent
      if (r === 3) {
        const v = rng.pick(VIEW_HOSTILE);
        views[key] = v;
        if (flag || !(Number.isInteger(v) && v >= 1 && v <= 4096)) bad.add(key);
      } else views[key] = flag ? rng.chance(0.5) : rng.pick([null, undefined, rng.int(1, 300)]);
    }
    let r = null, error = null;
    try {
      r = api.construct({ L, d: 24, seed: 5, views });
    } catch (e) {
      error = e;
    }
    if (bad.size) {
      assert.ok(error instanceof RangeError, `case ${i}: ${JSON.stringify(views)} accepted`);
      assert.ok(bad.has(error.field.replace(/^views\./, '')), `case ${i}: field ${error.field} not one of ${[...bad]}`);
      refused++;
      continue;
    }
    assert.equal(error, null, `case ${i}: ${error && error.message}`);
    const dense = views.dense !== false;
    assert.equal(r.M.length, dense ? L * L : 0, `case ${i}: M`);
    assert.equal(r.logits.length, dense ? L * L : 0, `case ${i}: logits`);
    if (!dense) lean++;
    assert.equal(r.views.size, Number.isInteger(views.size) ? views.size : 512, `case ${i}: size`);
  }
  assert.ok(refused > 40 && lean > 10, `${refused} refused, ${lean} without M, of 150`);
});
