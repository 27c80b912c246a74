// The sweep cost model's inputs through the API (fitCost, predictTrialSeconds; core/api/calls_lab.cpp):
// a seeded fuzz of hostile timings and of hostile anchors in a model (scripts/fuzz-web-inputs.mjs'
// generator). A hostile value is refused with a RangeError or TypeError naming its field; what is
// accepted predicts a finite number of seconds >= 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/lib/attnx.js';
import { caseRng } from '../../scripts/fuzz-web-inputs.mjs';

const api = await load({ flavour: 'simd' });
const FUZZ_SEED = 26;
const HOSTILE = [NaN, Infinity, -Infinity, -1, -1e-300, '5', '', null, {}, [], true];
const TIMINGS = [{ L: 64, dMin: 100, seconds: 0.01 }, { L: 128, dMin: 120, seconds: 0.05 }, { L: 256, dMin: 140, seconds: 0.3 }];

test('fuzz: hostile anchors and timings are refused naming their field; accepted ones predict finite seconds', () => {
  const model = api.fitCost(TIMINGS, 16, 512);
  assert.ok(model.anchorWork === 256 * 256 * 140 && model.anchorSeconds === 0.3, 'the timing of most work');
  let refused = 0;
  for (let i = 0; i < 120; i++) {
    const rng = caseRng(FUZZ_SEED, 'cost-model', i);
    const v = rng.pick(HOSTILE), k = rng.int(0, 2);
    const key = ['anchorWork', 'anchorSeconds', 'seconds'][k];
    let out, error = null;
    try {
      out = k < 2 ? api.predictTrialSeconds({ ...model, [key]: v }, rng.pick([64, 1024, 16384]))
        : api.fitCost(TIMINGS.map((t, n) => (n === 1 ? { ...t, seconds: v } : t)), 16, 512);
    } catch (e) {
      error = e;
    }
    // null is "absent" for an anchor (0: no anchor, as an old model without one).
    const mustRefuse = !(k < 2 && v === null);
    if (mustRefuse) assert.ok(error, `case ${i}: ${key} = ${String(v)} was accepted`);
    if (!error) {
      assert.ok(Number.isFinite(out) && out >= 0, `case ${i}: ${key} = ${String(v)} predicted ${out}`);
      continue;
    }
    refused++;
    assert.ok(error instanceof RangeError || error instanceof TypeError, `case ${i}: ${error.name}`);
    assert.ok(error.message.startsWith(k < 2 ? `model.${key} must be` : 'timings[1].seconds must be'), `case ${i}: ${error.message}`);
  }
  assert.ok(refused > 90, `${refused} of 120 refused`);
});

test('an anchor of 0 (or none) predicts from the fit alone; the anchor raises what lies beyond it to the work\'s growth', () => {
  const model = api.fitCost(TIMINGS, 16, 512);
  const bare = { ...model, anchorWork: 0, anchorSeconds: 0 };
  const far = 4096;
  assert.ok(api.predictTrialSeconds(model, far) >= api.predictTrialSeconds(bare, far));
  const d = Math.min(512, model.dOfL.a + model.dOfL.b * Math.log(far));
  assert.ok(api.predictTrialSeconds(model, far) >= 0.3 * (far * far * d) / model.anchorWork * (1 - 1e-12));
  assert.equal(api.predictTrialSeconds(model, 128), api.predictTrialSeconds(bare, 128), 'within the timings: the fit');
});
