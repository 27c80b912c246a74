// Which pool tasks run in slices (web/lib/sliced.js): construct of a construction the core marks
// `sliced` (jl), with the module's default when the options name none; nothing before the module's
// info is known, and no other method.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/lib/attnx.js';
import { isSliced } from '../../web/lib/sliced.js';

test('construct of jl (named or by default) runs in slices; lp, moment and other methods do not', async () => {
  const info = (await load({ flavour: 'simd' })).info();
  assert.equal(isSliced('construct', { construction: 'jl' }, info), true);
  assert.equal(isSliced('construct', {}, info), true);
  assert.equal(isSliced('construct', undefined, info), true);
  assert.equal(isSliced('construct', { construction: 'lp' }, info), false);
  assert.equal(isSliced('construct', { construction: 'moment' }, info), false);
  assert.equal(isSliced('minD', { construction: 'jl' }, info), false);
  assert.equal(isSliced('construct', { construction: 'jl' }, undefined), false, 'before the module is known');
  assert.equal(isSliced('construct', {}, { sliced: ['lp'], defaultConstruction: 'lp' }), true, 'the answer follows the info');
});
