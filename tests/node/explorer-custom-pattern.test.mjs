// web/explorer/custom-pattern.js: the editable custom pattern and its compact link encoding.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { CustomPattern } from '../../web/explorer/custom-pattern.js';
import { numberGrammar } from '../../web/common/schema-table.js';
import { load } from '../../web/lib/attnx.js';
import { requireBuilds } from './helpers.mjs';

let real;  // the core's real-number grammar, which cw's weights follow

before(async () => {
  requireBuilds();
  real = numberGrammar((await load({ flavour: 'simd' })).schema()).number;
});

function band(L, w) {
  const p = new CustomPattern(L);
  for (let i = 0; i < L; i++) for (let j = Math.max(0, i - w); j <= Math.min(L - 1, i + w); j++) p.rows[i].set(j, 1);
  return p;
}

test('link encoding round-trips structure and weights', () => {
  const p = band(64, 1);
  const e = p.encode();
  assert.equal(e.cp, '0.1_-1.0.1*1q_-1.0');
  assert.equal(e.cw, '');
  p.rows[5].set(5, 0.25);
  p.rows[9].set(40, 3e-7);
  const e2 = p.encode();
  const d = CustomPattern.decode(64, e2.cp, e2.cw, Infinity, real);
  assert.equal(d.error, undefined);
  assert.deepEqual(d.pattern.encode(), e2);
  assert.equal(d.pattern.rows[5].get(5), 0.25);
  assert.equal(d.pattern.rows[9].get(40), 3e-7);
  // Only URL-safe characters, so URLSearchParams leaves it as is.
  assert.match(e2.cp + e2.cw, /^[0-9a-z._*-]*$/);
});

test('link decoding names the problem', () => {
  assert.match(CustomPattern.decode(4, '0*3', '').error, /has 3 rows but L = 4/);
  assert.match(CustomPattern.decode(4, '0*3_5', '').error, /row 3: column 8 is outside 0\.\.3/);
  assert.match(CustomPattern.decode(4, '0_0.0_0*2', '').error, /row 1: column 1 appears twice/);
  assert.match(CustomPattern.decode(4, '0_.0_0*2', '').error, /row 1: cannot read column/);
  assert.match(CustomPattern.decode(4, '0*4', '1_2', Infinity, real).error, /cw \(custom weights\): has 2 values but the pattern has 4 nonzeros/);
  assert.match(CustomPattern.decode(4, '0*4', '1_2_x_1', Infinity, real).error, /value 3 \("x"\) must be a finite number > 0/);
  // Weights follow the core's number grammar, as every number of a link does (issue 27.7).
  assert.match(CustomPattern.decode(4, '0*4', '1_.5_1_1', Infinity, real).error, /value 2 \("\.5"\) must be a finite number > 0/);
  assert.match(CustomPattern.decode(4, '0*4', '1_05_1_1', Infinity, real).error, /value 2 \("05"\)/);
  assert.equal(CustomPattern.decode(4, '0*4', '1_2_3_4').error, 'cw (custom weights): no number grammar to read them by');
  assert.match(CustomPattern.decode(40, band(40, 30).encode().cp, '', 100).error, /more than 100 nonzeros/);
});

test('editing keeps every row non-empty; resizing drops and fills', () => {
  const p = CustomPattern.identity(4);
  assert.match(p.set(2, 2, false), /row 2 must keep at least one nonzero/);
  assert.equal(p.set(2, 3, true), null);
  assert.equal(p.set(2, 2, false), null);
  const q = p.resized(3);
  assert.deepEqual([...q.rows[2].keys()], [2]);  // (2, 3) dropped, diagonal refilled
  const t = p.toTriplets();
  assert.deepEqual([...t.rows], [0, 1, 2, 3]);
  assert.deepEqual([...t.cols], [0, 1, 3, 3]);
});

test('fromTriplets keeps positive weights only', () => {
  const p = CustomPattern.fromTriplets(3, [0, 1, 1, 2], [0, 1, 2, 0], [1, 0.5, 0, 2]);
  assert.equal(p.nnz, 3);
  assert.equal(p.has(1, 2), false);
  assert.equal(p.rows[2].get(0), 2);
});

// Issue 27.7: cw="1e308,NaN" with pattern custom and no cp was dropped without a word.
test('the link fields give the pattern: cw without cp is refused, bad weights named, the identity in their place', () => {
  const none = CustomPattern.fromFields(3, '', '', Infinity, real);
  assert.equal(none.error, undefined);
  assert.deepEqual([...none.pattern.rows[2].entries()], [[2, 1]]);
  const lone = CustomPattern.fromFields(3, '', '1e308,NaN', Infinity, real);
  assert.equal(lone.error, 'cw (custom weights) is given without cp (the custom pattern); cw needs the nonzeros of cp');
  assert.deepEqual(lone.pattern.rows.map((r) => [...r.keys()]), [[0], [1], [2]]);
  const nan = CustomPattern.fromFields(2, '0*2', '1e308_NaN', Infinity, real);
  assert.equal(nan.error, 'cw (custom weights): value 2 ("NaN") must be a finite number > 0');
  assert.deepEqual(nan.pattern.rows.map((r) => [...r.entries()]), [[[0, 1]], [[1, 1]]]);
  const ok = CustomPattern.fromFields(2, '0*2', '1e308_0.5', Infinity, real);
  assert.deepEqual(ok.pattern.rows.map((r) => [...r.entries()]), [[[0, 1e308]], [[1, 0.5]]]);
});
