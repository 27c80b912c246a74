// What a worker posts for a failed task (web/lib/worker-errors.js): the core's refusals as plain
// errors with their field and kind; a trap or a C++ exception that no binding caught (native in
// the simd build, a bare pointer in the scalar one) as fatal, so the pool replaces the worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { describeFailure } from '../../web/lib/worker-errors.js';
import { load } from '../../web/lib/attnx.js';

test("a refusal keeps its name, message, field and kind and is not fatal", async () => {
  const api = await load({ flavour: 'simd' });
  let thrown;
  try { api.construct({ pattern: 'random', L: 1 }); } catch (e) { thrown = e; }
  const { error, fatal } = describeFailure(thrown);
  assert.equal(fatal, false);
  assert.equal(error.name, 'RangeError');
  assert.equal(error.field, 'L');
  assert.equal(error.kind, 'invalid');
  assert.match(error.message, /^L must be/);
  assert.deepEqual(describeFailure('plain text'), { error: { name: 'Error', message: 'plain text' }, fatal: false });
});

test('a trap and an uncaught C++ exception (native or emulated) are fatal, with a message that says so', () => {
  assert.equal(describeFailure(new WebAssembly.RuntimeError('unreachable')).fatal, true);
  const native = new WebAssembly.Exception(new WebAssembly.Tag({ parameters: ['i32'] }), [1234]);
  for (const e of [native, 5243904]) {
    const { error, fatal } = describeFailure(e);
    assert.equal(fatal, true);
    assert.equal(error.kind, 'internal');
    assert.match(error.message, /C\+\+ exception no call caught/);
  }
});
