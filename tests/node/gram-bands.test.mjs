// construct's Gram matrix summed in column bands through the JS API (web/lib/attnx.js gramPlan,
// gramBandStart, gramBand, gramHomeBand, gramAhead, gramAdopt, gramFinish; core/api/calls_bands.cpp), as
// worker.js and pool.js drive it: the same bits as one construct, the plan's rule, stops, and
// refused input naming its field. (tests/core/test_gram_bands.cpp covers the bands in depth.)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load, AttnxApi } from '../../web/lib/attnx.js';
import { requireBuilds } from './helpers.mjs';

let api;
before(async () => {
  requireBuilds();
  api = await load();
});

const sameBits = (a, b) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

// A fresh instance of the loaded module (its own Gram ladder), as a helper worker has.
const fresh = (of) => new AttnxApi(of._m, of.simd ? 'simd' : 'scalar');

// What the worker does: plan, helpers' bands (here one after the other), own band, adopt, finish.
function constructInBands(home, helper, opts, workers) {
  const plan = home.gramPlan(opts, workers);
  if (plan.split) {
    for (let b = 1; b + 1 < plan.edges.length; b++) {
      const band = { from: plan.from, c0: plan.edges[b], c1: plan.edges[b + 1], rungs: plan.rungs };
      const r = helper.gramBand(opts, band, home.gramBandStart(band.c0, band.c1));
      assert.equal(r.cancelled, false);
      home.gramAdopt(band.c0, band.c1, r.atD, r.rungs);
    }
    assert.equal(home.gramHomeBand(0, plan.edges[1]), true);
    assert.equal(home.gramAhead(opts), true);  // construct's work that needs no G, made now
    assert.equal(home.gramFinish(), true);
  }
  return { plan, result: home.construct(opts) };
}

test('a construct summed in three bands has the bits of one construct; a step down starts from a rung the bands kept', () => {
  const home = fresh(api), helper = fresh(api);
  const opts = { L: 2048, d: 2100, seed: 3, pattern: 'bigbird' };
  const { plan, result } = constructInBands(home, helper, opts, 3);
  assert.equal(plan.split, true);
  assert.equal(plan.from, 0);
  assert.equal(plan.edges.length, 4);
  assert.deepEqual(plan.rungs, Array.from({ length: 16 }, (_, i) => 128 * (i + 1)));  // 16 MiB each, 256 MiB cap
  assert.equal(result.gramColumnsAdded, 2100);
  const ref = fresh(api).construct(opts);  // one worker
  assert.ok(sameBits(result.M, ref.M), 'M');
  assert.ok(sameBits(result.logits, ref.logits), 'logits');
  assert.deepEqual(result.metrics, ref.metrics);
  const down = home.construct({ ...opts, d: 2050 });
  assert.equal(down.gramColumnsAdded, 2, 'from the rung at 2048');
  assert.ok(sameBits(down.M, fresh(api).construct({ ...opts, d: 2050 }).M));
});

test('the plan does not split short sums, other constructions or a single worker, and changes nothing then', () => {
  const home = fresh(api);
  const short = home.gramPlan({ L: 1024, d: 512 }, 4);
  assert.deepEqual(short, { split: false, resumed: false, gramShare: 0.85, L: 1024, from: 0, d: 512, edges: [0, 1024], rungs: [] });
  assert.equal(home.gramPlan({ L: 4096, d: 4096 }, 1).split, false);
  assert.equal(home.gramPlan({ L: 256, construction: 'moment' }, 4).split, false);
  assert.equal(home.construct({ L: 1024, d: 512 }).gramColumnsAdded, 512);
  // Nothing left to sum: G is at d.
  assert.equal(home.gramPlan({ L: 1024, d: 512 }, 4).from, 512);
});

test('refused band input names its field; a stopped helper returns nothing; the home band goes on after stops, also in the next construct', () => {
  const home = fresh(api);
  assert.throws(() => home.gramPlan({ L: 64, d: 8 }, 0), { name: 'RangeError', message: /workers must be an integer from 1 to 256/ });
  assert.throws(() => home.gramPlan({ L: 64, d: 0 }, 2), (e) => e.field === 'd');
  assert.throws(() => home.gramAdopt(0, 32, new Float32Array(1), new Float32Array(0)), { message: /gram_band: no band sum has begun/ });
  const opts = { L: 2048, d: 2048, seed: 1 };
  const plan = home.gramPlan(opts, 2);
  assert.equal(plan.split, true);
  assert.equal(home.gramAhead(opts), false, 'the columns up to d are drawn by the home band');
  assert.throws(() => home.gramAhead({ ...opts, d: 0 }), (e) => e.field === 'd');
  assert.throws(() => home.gramAhead({ ...opts, tau: 3 }), (e) => e.field === 'tau');
  assert.equal(home.gramAhead({ L: 256, construction: 'moment' }), false);
  const [c0, c1] = [plan.edges[1], plan.edges[2]];
  const helper = fresh(api);
  assert.throws(() => helper.gramBand(opts, { from: 0, c0: 17, c1, rungs: [] }, null), { message: /gram_band: columns 17 \.\. 2048 must satisfy/ });
  assert.throws(() => helper.gramBand(opts, { from: 0, c0, c1: 4000, rungs: [] }, null), { message: /gram_band\.c1 must be an integer from 0 to 2048/ });
  assert.throws(() => helper.gramBand(opts, { from: 0, c0, c1, rungs: [100] }, null), { message: /rung points must be ascending multiples of 128/ });
  assert.throws(() => helper.gramBand(opts, { from: 0, c0, c1, rungs: 'x' }, null), { message: /gram_band\.rungs must be integers/ });
  assert.throws(() => helper.gramBand(opts, { from: 0, c0, c1 }, new Float64Array(4)), (e) => e.field === 'start' && /must be a Float32Array/.test(e.message));
  const r = helper.gramBand(opts, { from: 0, c0, c1, rungs: plan.rungs }, null);
  assert.throws(() => home.gramAdopt(c0, c1, r.atD.subarray(1), r.rungs), { message: /gram_band: a band of columns .* has \d+ floats at d/ });
  assert.throws(() => home.gramAdopt(c0, c1, new Float64Array(r.atD), r.rungs), (e) => e.field === 'atD');
  // A helper stopped by its progress callback returns nothing; the home band goes on after stops.
  let calls = 0;
  const stopped = helper.gramBand(opts, { from: 0, c0, c1, rungs: plan.rungs }, null, () => ++calls < 3);
  assert.equal(stopped.cancelled, true);
  assert.equal(stopped.atD.length, 0);
  let slices = 0;
  while (!home.gramHomeBand(0, c0, () => false)) {
    if (++slices === 2) {  // a construct stopped here: the next one's plan goes on with the sum
      const again = home.gramPlan(opts, 2);
      assert.deepEqual({ ...again, resumed: undefined }, { ...plan, resumed: undefined });
      assert.equal(again.resumed, true);
      assert.equal(plan.resumed, false);
      assert.equal(again.gramShare, 0.85);
    }
  }
  assert.ok(slices > 3, `the home band ran in ${slices} slices`);
  assert.equal(home.gramAhead(opts), true);
  home.gramReleaseAhead();  // as a construct stopped now releases its buffers (the scale stays)
  home.gramAdopt(c0, c1, r.atD, r.rungs);
  assert.throws(() => home.gramAdopt(c0, c1, r.atD, r.rungs), { name: 'RangeError', message: /overlap a band already summed/ });
  assert.equal(home.gramFinish(), true);
  const got = home.construct(opts);
  assert.equal(got.gramColumnsAdded, 2048);
  assert.ok(sameBits(got.M, fresh(api).construct(opts).M));
});

test('gramBandParts hands over G at d, then the rungs once (as gramBand gives them); a stopped one is gramBand\'s empty record', () => {
  const home = fresh(api), helper = fresh(api);
  const opts = { L: 2048, d: 2048, seed: 3 };
  const plan = home.gramPlan(opts, 2);
  assert.equal(plan.split, true);
  assert.ok(plan.rungs.length > 0);
  const band = { from: plan.from, c0: plan.edges[1], c1: plan.edges[2], rungs: plan.rungs };
  const whole = helper.gramBand(opts, band, null);
  const parts = helper.gramBandParts(opts, band, null);
  assert.equal(parts.cancelled, false);
  assert.equal(parts.rungs, undefined, 'the rungs are not copied out before takeRungs');
  assert.ok(sameBits(parts.atD, whole.atD));
  const w = (band.c1 - band.c0) * opts.L;
  assert.equal(parts.atD.length, w);
  const rungs = parts.takeRungs();
  let lower = 0;  // each rung point: the band's lower part, rows j .. L-1 of each column j
  for (let j = band.c0; j < band.c1; j++) lower += opts.L - j;
  assert.equal(rungs.length, lower * plan.rungs.length);
  assert.ok(sameBits(rungs, whole.rungs));
  assert.throws(() => parts.takeRungs(), { message: /takeRungs: the rungs of this band were taken already/ });
  helper.gramBand({ ...opts, seed: 4 }, band, null);  // reuses the memory the module freed
  assert.ok(sameBits(rungs, whole.rungs), 'the rungs taken are JS\'s own copy, not a view of freed memory');
  let calls = 0;
  const stopped = helper.gramBandParts(opts, band, null, () => ++calls < 2);
  assert.equal(stopped.cancelled, true);
  assert.equal(stopped.atD.length, 0);
  assert.equal(stopped.takeRungs, undefined);
});

test('a helper\'s rungs taken after its G at d and after the construct: the same bits, and a step down starts from them', () => {
  const home = fresh(api), helper = fresh(api);
  const opts = { L: 2048, d: 2048, seed: 12 };
  const plan = home.gramPlan(opts, 2);
  const [c0, c1] = [plan.edges[1], plan.edges[2]];
  const r = helper.gramBand(opts, { from: plan.from, c0, c1, rungs: plan.rungs }, null);
  home.gramAdopt(c0, c1, r.atD, null);  // as worker.js while the construct runs
  assert.equal(home.gramHomeBand(0, c0), true);
  assert.equal(home.gramFinish(), true);
  const got = home.construct(opts);
  assert.ok(sameBits(got.M, fresh(api).construct(opts).M));
  assert.throws(() => home.gramAdoptRungs(c0, c1, plan.rungs, r.rungs.subarray(1)), { name: 'RangeError', message: /gram_band: the rungs of columns .* have \d+ floats \(got \d+\)/ });
  assert.throws(() => home.gramAdoptRungs(c0, c1, plan.rungs, new Float64Array(4)), (e) => e.field === 'rungs');
  assert.throws(() => home.gramAdoptRungs(c0, c1, [0.5], r.rungs), { name: 'RangeError', message: /gram_band\.rungs must be integers from 1 to the band sum's d/ });
  assert.equal(home.gramAdoptRungs(c0, c1, plan.rungs.slice(1), r.rungs), false, 'rungs summed at other points are another sum\'s');
  assert.equal(home.gramAdoptRungs(c0, c1, plan.rungs, r.rungs), true);
  assert.equal(home.gramAdoptRungs(c0, c1, plan.rungs, r.rungs), false, 'nothing waits for them any more');
  const down = home.construct({ ...opts, d: 2000 });
  assert.equal(down.gramColumnsAdded, 2000 - 1920, 'from the rung at 1920');
  assert.ok(sameBits(down.M, fresh(api).construct({ ...opts, d: 2000 }).M));
});

// Seeded fuzz of the band calls and the pool's helpers option (scripts/fuzz-web-inputs.mjs' generator):
// a hostile column, worker or helper count is always refused with a RangeError or TypeError naming
// its field, never rounded, wrapped or trapped; hostile arrays are refused the same way or read as
// none where the API says so; and the module goes on giving the right construct.
const FUZZ_SEED = 26;
const HOSTILE = [NaN, Infinity, -1, 1.5, 2 ** 31, 1e12, '32', '', null, {}, [], true, -0.5];

test('fuzz: hostile band columns, bands, starts, arrays, workers and the work ahead\'s d are refused naming their field', async () => {
  const { caseRng } = await import('../../scripts/fuzz-web-inputs.mjs');
  const { AttnxPool } = await import('../../web/lib/pool.js');
  const home = fresh(api), helper = fresh(api);
  const opts = { L: 2048, d: 2048, seed: 4 };
  const plan = home.gramPlan(opts, 2);
  const FIELDS = /^(gram_band|workers|start|atD|rungs|d)$/;
  let refused = 0;
  for (let i = 0; i < 120; i++) {
    const rng = caseRng(FUZZ_SEED, 'gram-bands', i);
    let mustRefuse = false;
    const k = rng.int(0, 7);
    const num = () => {  // a count or column: hostile, or one of the plan's edges
      if (!rng.chance(0.6)) return plan.edges[rng.int(1, 2)];
      const v = rng.pick(HOSTILE);
      mustRefuse ||= !((k === 5 || k === 7) && v === null);  // null: "the default" (the pool's size, construct's d)
      return v;
    };
    const arr = () => (rng.chance(0.5) ? new Float32Array(rng.int(0, 8)) : rng.pick(HOSTILE));
    const calls = [
      () => home.gramBandStart(num(), num()),
      () => home.gramHomeBand(num(), num(), () => false),
      () => home.gramAdopt(num(), num(), arr(), arr()),
      () => home.gramPlan(opts, num()),
      () => helper.gramBand({ L: 64, d: 64 }, { from: num(), c0: 0, c1: 64, rungs: [] }, arr()),
      () => new AttnxPool({ helpers: num() }),
      () => home.gramAdoptRungs(num(), num(), rng.chance(0.5) ? plan.rungs : rng.pick(HOSTILE), arr()),
      () => home.gramAhead({ ...opts, d: num() }),
    ];
    let error = null;
    try {
      calls[k]();
    } catch (e) {
      error = e;
    }
    if (mustRefuse) assert.ok(error, `case ${i} (call ${k}): a hostile count was accepted`);
    if (!error) continue;
    refused++;
    assert.ok(error instanceof RangeError || error instanceof TypeError, `case ${i} (call ${k}): ${error.name}: ${error.message}`);
    const named = k === 5 ? /^helpers must be an integer/.test(error.message) : FIELDS.test(error.field);
    assert.ok(named, `case ${i} (call ${k}): field ${error.field}: ${error.message}`);
  }
  assert.ok(refused > 60, `${refused} of 120 refused`);
  // The module is still right: construct drops the band sum and gives one worker's bits.
  assert.ok(sameBits(home.construct(opts).M, fresh(api).construct(opts).M));
});
