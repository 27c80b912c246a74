// The BAD rules of scripts/fuzz-web-stories.mjs: what a story shows verbatim from its own file is
// the author's text, while the computed metrics and summary never show NaN or "undefined".
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { badReasons } from '../../scripts/fuzz-web-stories.mjs';

const snapshot = (story, shown = 'ρ 0.42 | summary') => ({ story, shown, rej: [], injected: false });

test('a NaN the story file itself holds is shown as written (seed 1, case 15: a damaged "Step 1")', () => {
  const said = JSON.stringify([{ title: 'Step NaN', text: 'bits {bits}' }]);
  assert.deepEqual(badReasons(snapshot('Step NaN bits 12'), [], said), []);
});

test('a NaN or "undefined" the story file does not hold is BAD, in the story and in the computed numbers', () => {
  const said = JSON.stringify([{ title: 'Step 1', text: 'ρ = {rho}' }]);
  assert.deepEqual(badReasons(snapshot('Step 1 ρ = NaN'), [], said), ['"NaN" shown']);
  assert.deepEqual(badReasons(snapshot('Step 1 ρ = undefined'), [], said), ['"undefined" shown']);
  // The metrics are computed: a NaN there is BAD even when the file says NaN somewhere.
  assert.deepEqual(badReasons(snapshot('Step NaN', 'ρ NaN | summary'), [], JSON.stringify([{ title: 'Step NaN' }])), ['"NaN" shown']);
  // Only what the file holds is excused: "NaN" in the file does not excuse an "undefined".
  assert.deepEqual(badReasons(snapshot('Step NaN undefined'), [], JSON.stringify([{ title: 'Step NaN' }])), ['"undefined" shown']);
});
