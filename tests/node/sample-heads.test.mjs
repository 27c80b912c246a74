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
