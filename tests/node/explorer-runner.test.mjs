// attnx explorer: the runner's scheduling (web/explorer/runner.js) against a fake pool whose runs
// finish when the test says so: no debounce when idle, latest wins, short superseded runs are
// left to finish (their results are still shown), long ones are cancelled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Runner, LONG_RUN_MS } from '../../web/explorer/runner.js';

// A pool whose run(method, opts, control) stays pending until finish(n) / fail(n); aborted runs
// reject with AbortError at once, as pool.js does.
function fakePool() {
  const runs = [];
  return {
    runs,
    run(method, opts, control) {
      return new Promise((resolve, reject) => {
        const r = { opts, resolve, reject, aborted: false };
        control.signal.addEventListener('abort', () => {
          r.aborted = true;
          reject(new DOMException('cancelled', 'AbortError'));
        });
        runs.push(r);
      });
    },
    finish(n, value) { this.runs[n].resolve(value ?? { n }); },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

test('an idle runner starts a request at once (no debounce)', async () => {
  const pool = fakePool();
  const runner = new Runner(pool);
  const p = runner.schedule('construct', { L: 64, d: 8 });
  assert.equal(pool.runs.length, 1, 'started synchronously');
  pool.finish(0);
  const r = await p;
  assert.equal(r.id, 1);
  assert.equal(r.superseded, false);
});

test('while a short run is busy only the newest request waits; the busy one finishes and is shown', async () => {
  const pool = fakePool();
  const runner = new Runner(pool);
  const first = runner.schedule('construct', { L: 64, d: 8 });
  const second = runner.schedule('construct', { L: 64, d: 9 });
  const third = runner.schedule('construct', { L: 64, d: 10 });
  assert.equal(pool.runs.length, 1, 'nothing else started while busy');
  assert.equal(await second, null, 'an older waiting request is dropped');
  pool.finish(0);
  const r1 = await first;
  assert.equal(r1.superseded, true, 'the finished run is newer than nothing shown: still returned');
  await tick();
  assert.equal(pool.runs.length, 2);
  assert.equal(pool.runs[1].opts.d, 10, 'the newest request runs next');
  pool.finish(1);
  const r3 = await third;
  assert.equal(r3.id, 3);
  assert.equal(r3.superseded, false);
  assert.equal(pool.runs[0].aborted, false, 'a short run is not cancelled');
});

test('a superseded run at an L whose runs have been long is cancelled at once', async () => {
  const pool = fakePool();
  const runner = new Runner(pool);
  runner.lastMs.set(4096, LONG_RUN_MS + 1);
  const first = runner.schedule('construct', { L: 4096, d: 16384 });
  const second = runner.schedule('construct', { L: 4096, d: 8192 });
  assert.equal(await first, null);
  assert.equal(pool.runs[0].aborted, true);
  await tick();
  assert.equal(pool.runs[1].opts.d, 8192);
  pool.finish(1);
  assert.equal((await second).id, 2);
});

test('a superseded run that turns out long is cancelled once it has run LONG_RUN_MS', async () => {
  const pool = fakePool();
  const runner = new Runner(pool);
  const first = runner.schedule('construct', { L: 1024, d: 2048 });
  runner.schedule('construct', { L: 1024, d: 1024 });
  assert.equal(pool.runs[0].aborted, false);
  await new Promise((r) => setTimeout(r, LONG_RUN_MS + 30));
  assert.equal(pool.runs[0].aborted, true);
  assert.equal(await first, null);
});

test('an error of the newest request rejects; of a superseded one resolves null', async () => {
  const pool = fakePool();
  const runner = new Runner(pool);
  const p = runner.schedule('construct', { L: 64 });
  pool.runs[0].reject(new RangeError('d must be an integer'));
  await assert.rejects(p, RangeError);
  const a = runner.schedule('construct', { L: 64 });
  runner.schedule('construct', { L: 64 });
  pool.runs[1].reject(new RangeError('late'));
  assert.equal(await a, null);
});
