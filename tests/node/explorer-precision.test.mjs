// The explorer's precision request (web/explorer/precision.js): lp and moment report their own,
// jl's is 'available' until asked, then computed on the pool; a result computed again for the
// same settings keeps it, other settings drop it and cancel a running one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PrecisionRequest } from '../../web/explorer/precision.js';

function fakePool() {
  const calls = [];
  return {
    calls,
    run(method, opts, { signal }) {
      return new Promise((resolve, reject) => {
        const call = { method, opts, resolve, reject, aborted: false };
        signal.addEventListener('abort', () => { call.aborted = true; reject(Object.assign(new Error('aborted'), { name: 'AbortError' })); });
        calls.push(call);
      });
    },
  };
}

test('jl: available until asked, computed on the pool, kept for the same settings', async () => {
  const pool = fakePool(), seen = [];
  const req = new PrecisionRequest(pool, (r) => seen.push(r.state));
  const opts = { L: 64, d: 600 };
  const key = (o) => JSON.stringify(o);
  req.follow({ construction: 'jl' }, opts, key(opts));
  assert.deepEqual(seen, ['available']);
  const done = req.compute();
  assert.equal(pool.calls[0].method, 'precision');
  assert.deepEqual(pool.calls[0].opts, opts);
  req.settingsChanged(key({ ...opts }));       // the same settings (a recompute for X's images)
  assert.equal(pool.calls[0].aborted, false);
  pool.calls[0].resolve({ precision: { bits: 3, fp32: true, fp64: true, inputNorm: 1 }, bounds: { bitsPerNumber: 7 } });
  await done;
  assert.deepEqual(seen, ['available', 'computing', 'done']);
  assert.deepEqual(req.last.bounds, { bitsPerNumber: 7 }, 'the pool\'s bounds (w) come with the report');
  req.follow({ construction: 'jl' }, { ...opts }, key(opts));
  assert.deepEqual(seen.at(-1), 'done', 'the same settings keep the report');
  req.settingsChanged(key({ ...opts, d: 601 }));
  req.follow({ construction: 'jl' }, { ...opts, d: 601 }, key({ ...opts, d: 601 }));
  assert.equal(seen.at(-1), 'available');
});

test('lp and moment report their own; other settings cancel a running report', async () => {
  const pool = fakePool(), seen = [];
  const req = new PrecisionRequest(pool, (r) => seen.push(r));
  req.follow({ construction: 'lp', precision: { bits: 8 }, bounds: { bitsPerNumber: 14 } }, { construction: 'lp' }, 'lp');
  assert.deepEqual(seen.at(-1), { state: 'done', precision: { bits: 8 }, bounds: { bitsPerNumber: 14 } });
  req.follow({ construction: 'jl' }, { d: 5 }, 'd5');
  const running = req.compute();
  req.settingsChanged('d6');
  await running;
  assert.equal(pool.calls[0].aborted, true);
  assert.equal(seen.at(-1).state, 'computing', 'a cancelled report says nothing more');
});
