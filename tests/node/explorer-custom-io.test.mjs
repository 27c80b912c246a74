// web/explorer/custom-io.js: import and export go through the core (parsePattern / formatPattern,
// here called directly instead of through the worker pool); the page adds only its L range.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { importPattern, exportPattern } from '../../web/explorer/custom-io.js';
import { CustomPattern } from '../../web/explorer/custom-pattern.js';
import { explorerTable } from '../../web/explorer/state.js';
import { requireBuilds } from './helpers.mjs';

let api, table, pool;
before(async () => {
  requireBuilds();
  api = await load();
  table = explorerTable(api.schema());
  // The worker's METHODS for these two calls (web/lib/worker.js), without the worker.
  pool = {
    async run(method, o) {
      if (method === 'parsePattern') return api.parsePattern(o.text, o.L);
      if (method === 'formatPattern') return api.formatPattern(o.pattern, o.format);
      throw new Error(`unexpected method ${method}`);
    },
  };
});

test('JSON and CSV are read by the core into a pattern', async () => {
  const a = await importPattern(pool, '[[0,1,1],[1,0,2]]', table.L);
  assert.equal(a.pattern.L, 2);
  assert.equal(a.pattern.rows[1].get(0), 2);
  assert.equal((await importPattern(pool, '{"L": 3, "triplets": [[0,0,1],[1,1,1],[2,0,0.5]]}', table.L)).pattern.nnz, 3);
  assert.equal((await importPattern(pool, 'i,j,w\n0,0,1\n1,1,1\n', table.L)).pattern.nnz, 2);
});

test('refusals are the core\'s and name the line or entry; the page adds its L range', async () => {
  const err = async (text) => (await importPattern(pool, text, table.L)).error;
  assert.equal(await err('0,0,1\n1,1,one\n'), 'line 2: weight must be a finite number >= 0 (got "one")');
  assert.match(await err('[[0,0,1],\n[1,1,1],\n[1,0,"x"]]'), /^line 3 \(entry 2\): weight must be a finite number >= 0/);
  assert.match(await err('0,0,1\n1,1\n'), /^line 2: expected 3 values/);
  assert.match(await err('0,0,1\n0,0,1\n1,1,1'), /^line 2: /);
  assert.match(await err('0,0,1\n2,2,1'), /row 1 has no positive weight/);
  assert.equal(await err('{"L": 5000, "triplets": [[0,0,1],[4999,4999,1]]}'.replace('[[0,0,1],[4999,4999,1]]',
    JSON.stringify(Array.from({ length: 5000 }, (_, i) => [i, i, 1])))), 'L must be an integer from 2 to 4096 (got "5000")');
});

test('export is the core\'s text, and reads back to the same pattern', async () => {
  const p = CustomPattern.identity(4);
  p.set(2, 3, true);
  p.rows[3].set(3, 0.125);
  const json = await exportPattern(pool, p, 'json');
  assert.equal(json, '{"L":4,"triplets":[\n[0,0,1],\n[1,1,1],\n[2,2,1],\n[2,3,1],\n[3,3,0.125]\n]}\n');
  assert.equal(await exportPattern(pool, p, 'csv'), 'i,j,w\n0,0,1\n1,1,1\n2,2,1\n2,3,1\n3,3,0.125\n');
  for (const text of [json, await exportPattern(pool, p, 'csv')]) {
    assert.deepEqual((await importPattern(pool, text, table.L)).pattern.encode(), p.encode());
  }
});
