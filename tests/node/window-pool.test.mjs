// A zoom window pooled for the screen (web/explorer/window-pool.js) against a cell-by-cell scan of
// the region it says it shows: the largest value of each pixel's cells of M and of the zero ratio
// (log10 exp(Z_ij - min_{S_i} Z) off the support), the sparse A and ratio errors, and a window cut
// from the core's pooled image of the whole matrix. The regions follow their rule: one cell per
// pixel while the span fits the budget, else a power of two, the ends on multiples of it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { toRecord } from '../../web/explorer/render-data.js';
import { windowRegion, MaxPyramid, poolSource, zeroStrip, zeroHalved, poolSparseRegion, cropPooled, poolTripletsRegion } from '../../web/explorer/window-pool.js';
import { requireBuilds } from './helpers.mjs';

let api;
before(async () => {
  requireBuilds();
  api = await load();
});

const message = (r, id = 1) => ({ id, L: r.L, d: r.d, A: r.A, M: r.M, logits: r.logits, X: r.X, rows: r.rows, eps: r.params.eps, tau: r.params.tau, views: r.views });

// The largest of f(i, j) over the cells of pixel (y, x) of region g (NaN skipped; NaN if none).
function scanCell(g, y, x, f) {
  let m = NaN;
  for (let i = g.i0 + y * g.fr; i < Math.min(g.i1, g.i0 + (y + 1) * g.fr); i++) {
    for (let j = g.j0 + x * g.fc; j < Math.min(g.j1, g.j0 + (x + 1) * g.fc); j++) {
      const v = Math.fround(f(i, j));
      if (v === v && (m !== m || v > m)) m = v;
    }
  }
  return m;
}

const same = (a, b) => (a !== a && b !== b) || a === b;

// Every pixel of pooled (h x w) against scanCell; returns the number of cells compared.
function checkPixels(pooled, g, f, what) {
  assert.equal(pooled.w, g.w);
  assert.equal(pooled.h, g.h);
  for (let y = 0; y < g.h; y++) {
    for (let x = 0; x < g.w; x++) {
      const want = scanCell(g, y, x, f), got = pooled.data[y * g.w + x];
      if (!same(got, want)) assert.fail(`${what}: pixel (${y}, ${x}) of ${JSON.stringify(g)} is ${got}, the scan ${want}`);
    }
  }
  return g.w * g.h;
}

test('the region of a window: one cell per pixel when it fits, else a power of two with its ends on multiples of it', () => {
  assert.deepEqual(windowRegion({ i0: 5, i1: 105, j0: 7, j1: 57 }, 1024, 466), { i0: 5, i1: 105, j0: 7, j1: 57, fr: 1, fc: 1, h: 100, w: 50 });
  assert.deepEqual(windowRegion({ i0: 0, i1: 1024, j0: 0, j1: 1024 }, 1024, 466), { i0: 0, i1: 1024, j0: 0, j1: 1024, fr: 4, fc: 4, h: 256, w: 256 });
  // 600 cells in 466 pixels: f = 2, ends moved out to even cells
  assert.deepEqual(windowRegion({ i0: 101, i1: 701, j0: 3, j1: 603 }, 1024, 466), { i0: 100, i1: 702, j0: 2, j1: 604, fr: 2, fc: 2, h: 301, w: 301 });
  // the last cell at the matrix's edge may be short
  const g = windowRegion({ i0: 3000, i1: 4095, j0: 0, j1: 20 }, 4095, 512);
  assert.deepEqual([g.i0, g.i1, g.fr, g.h, g.fc, g.w], [3000, 4095, 4, 274, 1, 20]);
  for (let span = 5; span < 5000; span += 97) {
    const r = windowRegion({ i0: 13, i1: 13 + span, j0: 0, j1: span }, 8192, 300);
    assert.ok(r.h <= 301 && r.w <= 301, `at most budget + 1 pixels (span ${span}: ${r.h})`);
    assert.equal(r.fr & (r.fr - 1), 0, 'a power of two');
  }
});

test('windows of M and of the zero ratio are each pixel\'s largest cell, from the pyramid or cell by cell', () => {
  let cells = 0;
  for (const [L, seed] of [[50, 3], [97, 5], [130, 8]]) {
    const r = api.construct({ pattern: 'random', L, k: 3, d: 40, seed, views: { size: 32, inputs: false } });
    const c = toRecord(message(r));
    const M = new MaxPyramid(L, { level0: c.M }), Z = new MaxPyramid(L, { level1: () => zeroHalved(c) });
    const onSupport = (i, j) => c.col.subarray(c.rowPtr[i], c.rowPtr[i + 1]).includes(j);
    const zero = (i, j) => (onSupport(i, j) ? NaN : (c.Z[i * L + j] - c.rows.supportMinLogit[i]) / Math.LN10);
    const windows = [{ i0: 0, i1: L, j0: 0, j1: L }, { i0: 3, i1: 41, j0: 7, j1: 19 }, { i0: 1, i1: L - 2, j0: 5, j1: 9 }, { i0: L - 9, i1: L, j0: 0, j1: L }];
    for (const w of windows) {
      for (const budget of [4, 7, 16, 33, 200]) {
        const g = windowRegion(w, L, budget);
        cells += checkPixels(poolSource(M.source(g), g), g, (i, j) => c.M[i * L + j], `M, L = ${L}`);
        checkPixels(poolSource(Z.source(g, (h) => zeroStrip(c, h)), g), g, zero, `zero ratio, L = ${L}`);
      }
    }
  }
  assert.ok(cells > 5000);
});

test('windows of the sparse A and ratio errors: the largest entry (errors: of largest magnitude) per pixel', () => {
  const r = api.construct({ pattern: 'window', L: 70, w: 3, d: 64, seed: 2, views: { size: 32, inputs: false } });
  const c = toRecord(message(r));
  const entry = (values, i, j) => {
    for (let p = c.rowPtr[i]; p < c.rowPtr[i + 1]; p++) if (c.col[p] === j) return values[p];
    return NaN;
  };
  for (const budget of [5, 9, 64]) {
    const g = windowRegion({ i0: 10, i1: 60, j0: 6, j1: 50 }, 70, budget);
    const A = poolSparseRegion(c, c.val, g, { empty: 0 });
    checkPixels({ ...A, data: A.data.map((v, q) => (A.data[q] === 0 ? NaN : v)) }, g, (i, j) => entry(c.val, i, j), 'A');
    const E = poolSparseRegion(c, c.errMean, g, { abs: true });
    for (let y = 0; y < g.h; y++) {
      for (let x = 0; x < g.w; x++) {
        const want = scanCell(g, y, x, (i, j) => Math.abs(entry(c.errMean, i, j)));
        assert.ok(same(Math.abs(E.data[y * g.w + x]), want), `ratio error pixel (${y}, ${x})`);
      }
    }
    const t = poolTripletsRegion(r.A.rows, r.A.cols, r.A.vals, g, 0);
    assert.deepEqual([...t.data], [...A.data], 'the same pixels from triplets');
  }
});

test('before the dense M arrives, a window is cut from the core\'s pooled image of the whole matrix', () => {
  const L = 90;
  const r = api.construct({ pattern: 'random', L, k: 2, d: 32, seed: 4, views: { size: 32, inputs: false } });
  const v = r.views.M;
  assert.equal(v.fr, 3);
  const { region, pooled } = cropPooled(v, { i0: 10, i1: 40, j0: 31, j1: 62 }, L);
  assert.deepEqual([region.i0, region.i1, region.j0, region.j1, region.h, region.w], [9, 42, 30, 63, 11, 11]);
  checkPixels(pooled, region, (i, j) => r.M[i * L + j], 'cut M');
});
