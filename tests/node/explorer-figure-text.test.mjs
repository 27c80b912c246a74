// The heatmaps' descriptions (web/explorer/views/figure-text.js): row ranges by hand, and the
// sentences of a real result, whose failing rows are recounted from the core's per-row report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/lib/attnx.js';
import { rowRanges, failingRows, describeFigures } from '../../web/explorer/views/figure-text.js';

test('row ranges: runs of three or more as a–b, the last joined with "and"', () => {
  assert.equal(rowRanges([]), '');
  assert.equal(rowRanges([7]), '7');
  assert.equal(rowRanges([18, 19]), '18 and 19');
  assert.equal(rowRanges([18, 19, 44, 45, 46, 47]), '18, 19 and 44–47');
  assert.equal(rowRanges([0, 1, 2, 5, 9, 10, 11, 12]), '0–2, 5 and 9–12');
});

test('descriptions of a failing and a succeeding window', async () => {
  const api = await load({ flavour: 'simd' });
  const fail = api.construct({ pattern: 'window', L: 64, w: 1, d: 64 });
  const rows = [];
  for (let i = 0; i < 64; i++) if (!(fail.rows.okR[i] === 1 && fail.rows.okZ[i] === 1)) rows.push(i);
  assert.ok(rows.length > 0 && !fail.metrics.success);
  assert.deepEqual(failingRows(fail), rows);
  const t = describeFigures(fail, 'Sliding window', { eps: 1, tau: 0.1 });
  assert.equal(t.A, 'Target A: Sliding window, 64 tokens, at most 3 nonzeros per row and column.');
  assert.match(t.M, new RegExp(`except in rows? .* \\(${rows.length} of 64\\), where \\(R\\) or \\(Z\\) fails; ρ = `));
  const ok = api.construct({ pattern: 'window', L: 64, w: 1, d: 4096 });
  assert.ok(ok.metrics.success);
  assert.match(describeFigures(ok, 'Sliding window', { eps: 1, tau: 0.1 }).M, /^Achieved M: matches A in every row; ρ = /);
});
