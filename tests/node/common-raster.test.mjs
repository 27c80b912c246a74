// web/common/raster.js and viridis.js: max-pooling keeps single nonzeros; the colour table.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { poolSparseMax, poolDenseMax, poolGeometry, colourise, linearScale, logScale, splitScale, attentionScale } from '../../web/common/raster.js';
import { DIVERGING } from '../../web/common/diverging.js';
import { VIRIDIS } from '../../web/common/viridis.js';

test('max-pooling keeps single nonzeros', () => {
  assert.deepEqual(poolGeometry(4096, 512), { f: 8, size: 512 });
  assert.deepEqual(poolGeometry(100, 512), { f: 1, size: 100 });
  const s = poolSparseMax(4096, [4095], [17], [0.5], 512, 0);
  assert.equal(s.data[511 * 512 + 2], 0.5);
  const dense = new Float32Array(9 * 9);
  dense[8 * 9 + 8] = 3;
  const d = poolDenseMax(dense, 9, 9, 4, 4);
  assert.equal(d.w, 3);
  assert.equal(d.data[8], 3);
});

test('viridis lookup table ends', () => {
  assert.equal(VIRIDIS.length, 768);
  assert.deepEqual([...VIRIDIS.slice(0, 3)], [68, 1, 84]);
  assert.deepEqual([...VIRIDIS.slice(765)], [253, 231, 37]);
});

// Values that hit every branch: NaN, infinities, zero, negatives, the clamp ends, tiny and huge.
const EDGE_VALUES = Float32Array.from([NaN, -Infinity, Infinity, 0, -0, -1, 1, 0.5, 1e-30, 1e-7, 0.123, 2, 1e30, -0.25, -2]);

test('the scale objects colour exactly like the per-pixel functions', () => {
  const rnd = new Float32Array(4096).map((_, i) => Math.sin(i * 12.9898) * 3);
  const data = new Float32Array([...EDGE_VALUES, ...rnd]);
  const scales = [linearScale(0, 0.7, 0), linearScale(0.5, 2 * 0.3), linearScale(0.5, 2e-9), logScale(-6), logScale(-1),
    splitScale(-1, 3, 0.36, 0.72, 0.28), splitScale(0.5, 2, 0.3, 0.7, 0.3),
    splitScale(Infinity, 3, 0.36, 0.72, 0.28), splitScale(-2, 0, 0.36, 0.72, 0.28)];  // NaN positions: inf - inf, 0 / 0
  for (const s of scales) {
    for (const lut of [VIRIDIS, DIVERGING]) {
      assert.deepEqual(colourise(data, lut, s), colourise(data, lut, s.function()), `${s.kind} ${s.offset ?? s.floor ?? s.at}`);
    }
  }
});

// Float32 values a few units in the last place around every point where the log scale's entry
// steps up (position (k - 0.5) / 255), for every floor the page uses, random bit patterns of
// both signs and the special values, in a view with a byte offset.
test('the log scale colours float32 values exactly like log10 at every step of every floor', () => {
  const f = new Float32Array(1), u = new Uint32Array(f.buffer);
  for (let floor = -1; floor >= -12; floor--) {
    const vals = [];
    for (let k = 1; k < 256; k++) {
      f[0] = 10 ** (floor - floor * (k - 0.5) / 255);
      for (let dk = -3; dk <= 3; dk++) vals.push(u[0] + dk);
    }
    for (let i = 0; i < 20000; i++) vals.push(Math.imul(i + 1, 2654435761) >>> 0);  // both signs, NaN payloads
    // -0, the smallest denormal, 1 and its neighbours, +-Infinity, a negative NaN
    vals.push(0x80000000, 1, 0x3f7fffff, 0x3f800000, 0x3f800001, 0x7f800000, 0xff800000, 0xffc00001);
    const all = new Float32Array(Uint32Array.from([0, ...vals]).buffer);
    const data = all.subarray(1);  // a view that does not start at its buffer's first byte
    const s = logScale(floor);
    assert.deepEqual(colourise(data, VIRIDIS, s), colourise(data, VIRIDIS, s.function()), `floor ${floor}`);
  }
});

test('attention scales: linear maps NaN and -inf to the bottom, log leaves NaN transparent', () => {
  const px = (img, p) => Array.from(img.slice(4 * p, 4 * p + 4));
  const bottom = [VIRIDIS[0], VIRIDIS[1], VIRIDIS[2], 255], top = [VIRIDIS[765], VIRIDIS[766], VIRIDIS[767], 255];
  const lin = colourise(Float32Array.from([NaN, -Infinity, 0.5, 1, 2]), VIRIDIS, attentionScale('linear', 1));
  assert.deepEqual([0, 1, 3, 4].map((p) => px(lin, p)), [bottom, bottom, top, top]);
  assert.deepEqual(px(lin, 2), [VIRIDIS[3 * 128], VIRIDIS[3 * 128 + 1], VIRIDIS[3 * 128 + 2], 255]);  // round(0.5*255)=128
  const log = colourise(Float32Array.from([NaN, 0, 1e-6, 1e-3, 1]), VIRIDIS, attentionScale('log', 1, -6));
  assert.deepEqual(px(log, 0), [0, 0, 0, 0]);
  assert.deepEqual([1, 2, 4].map((p) => px(log, p)), [bottom, bottom, top]);
  assert.deepEqual(px(log, 3), [VIRIDIS[3 * 128], VIRIDIS[3 * 128 + 1], VIRIDIS[3 * 128 + 2], 255]);  // (−3+6)/6 = 0.5
});

test('a position takes the lookup-table entry Math.round(x * 255), also next to every half step', () => {
  // A table whose entry e is the colour (e, 255 - e, 0): the red channel reads the entry back.
  const lut = new Uint8Array(768);
  for (let e = 0; e < 256; e++) lut.set([e, 255 - e, 0], 3 * e);
  const xs = [0, 1, 0.5 / 255];
  for (let k = 0; k < 255; k++) {
    const half = (k + 0.5) / 255;
    xs.push(half, half * (1 - 2 ** -52), half * (1 + 2 ** -52), k / 255);
  }
  const data = Float64Array.from(xs);
  for (const t of [linearScale(0, 1), (v) => v]) {
    const rgba = colourise(data, lut, t);
    const got = xs.map((_, p) => rgba[4 * p]);
    assert.deepEqual(got, xs.map((x) => Math.round(x * 255)), typeof t);
  }
});
