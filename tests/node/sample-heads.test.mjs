// examples/heads.npy (issue 24) is exactly what scripts/make-sample-heads.mjs writes, its rows
// are probabilities, and the native CLI (when built) names its four heads as the script says:
// previous token, sink, local window, none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { sampleHeads, npyBytes, H, L } from '../../scripts/make-sample-heads.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = `${ROOT}examples/heads.npy`;
const CLI = `${ROOT}build/native/attnx`;

test('the committed sample is the bytes the script writes', () => {
  const want = npyBytes(sampleHeads(), [H, L, L]);
  assert.deepEqual(new Uint8Array(readFileSync(SAMPLE)), want);
});

test('every row of the sample is a causal probability distribution', () => {
  const v = sampleHeads();
  let worst = 0;
  for (let r = 0; r < H * L; ++r) {
    const i = r % L;
    let sum = 0;
    for (let j = 0; j < L; ++j) {
      const x = v[r * L + j];
      assert.ok(x >= 0);
      if (j > i) assert.equal(x, 0, `row ${i} attends to the future`);
      sum += x;
    }
    worst = Math.max(worst, Math.abs(sum - 1));
  }
  assert.ok(worst < 1e-5, `row sums off by ${worst}`);
});

test('the CLI names the sample heads previous token, sink, local window and none', { skip: !existsSync(CLI) && 'native CLI not built' }, () => {
  const csv = execFileSync(CLI, ['import', SAMPLE, '--all', '--format', 'csv'], { encoding: 'utf8' });
  const rows = csv.trim().split('\n').slice(1).map((line) => line.split(','));
  assert.deepEqual(rows.map((r) => r[9]), ['diagonal:-1', 'sink:0', 'window:-2..0', 'none']);
});

// Issue 24: native and WASM agree. Every head of the sample, under two rules: the CLI's survey
// row (attnx import --all) and the module's surveyHead give the same description and the same
// minimal d of lp and jl, number for number (both are the core's; any drift between the builds,
// e.g. a kernel or a reduction order, shows here).
test('attnx import --all and the module\'s surveyHead agree on every head of the sample', { skip: !existsSync(CLI) && 'native CLI not built' }, async () => {
  const { load } = await import('../../web/lib/attnx.js');
  const api = await load({ flavour: 'simd' });
  const bytes = new Uint8Array(readFileSync(SAMPLE));
  for (const rule of ['topk:2', 'mass:0.9']) {
    const doc = JSON.parse(execFileSync(CLI, ['import', SAMPLE, '--all', '--rule', rule], { encoding: 'utf8' }));
    assert.equal(doc.heads.length, H);
    for (const row of doc.heads) {
      const w = api.surveyHead(bytes, 'heads.npy', { layer: row.layer, head: row.head, rule });
      const d = w.description;
      assert.deepEqual(
        [d.k, d.maxColCount, d.inClass, d.nnz, d.keptMassMin, d.keptMassMedian, d.columnsOverK, d.archetype.code, d.archetype.share, w.lpDMin, w.jlDMin],
        [row.k, row.max_col_count, row.in_class, row.nnz, row.kept_mass_min, row.kept_mass_median, row.columns_over_k, row.archetype, row.archetype_share, row.lp_d_min, row.jl_d_min],
        `${rule}, head ${row.head}`);
    }
  }
});
