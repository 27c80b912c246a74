// web/common/raster.js and viridis.js: max-pooling keeps single nonzeros; the colour table.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { poolSparseMax, poolDenseMax, poolGeometry } from '../../web/common/raster.js';
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
