// The BAD rules of scripts/fuzz-web-stories.mjs: what a story shows verbatim from the file its
// element was given is the author's text, while the computed values (placeholders in the story,
// the metrics and the summary) never may show NaN or "undefined".
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { badReasons, givenStory } from '../../scripts/fuzz-web-stories.mjs';

const snapshot = (story, shown = 'ρ 0.42 | summary') => ({ story, shown, rej: [], injected: false });

test('a NaN the story file itself holds is shown as written (seed 1, case 15: a damaged "Step 1")', () => {
  const said = JSON.stringify([{ title: 'Step NaN', text: 'bits {bits}' }]);
  assert.deepEqual(badReasons(snapshot('Step NaN bits 12'), [], said), []);
});

test('a NaN or "undefined" beyond what the file holds is BAD: in a filled placeholder and in the computed numbers', () => {
  const said = JSON.stringify([{ title: 'Step 1', text: 'ρ = {rho}' }]);
  assert.deepEqual(badReasons(snapshot('Step 1 ρ = NaN'), [], said), ['"NaN" shown']);
  assert.deepEqual(badReasons(snapshot('Step 1 ρ = undefined'), [], said), ['"undefined" shown']);
  // The file's own "NaN" excuses one, not a computed one beside it.
  const damaged = JSON.stringify([{ title: 'Step NaN', text: 'ρ = {rho}' }]);
  assert.deepEqual(badReasons(snapshot('Step NaN ρ = NaN'), [], damaged), ['"NaN" shown']);
  // The metrics are computed: a NaN there is BAD even when the file says NaN.
  assert.deepEqual(badReasons(snapshot('Step NaN', 'ρ NaN | summary'), [], damaged), ['"NaN" shown']);
  assert.deepEqual(badReasons(snapshot('Step NaN undefined'), [], damaged), ['"undefined" shown']);
});

test('only a story file the element was given excuses anything', () => {
  const text = '[{"title":"Step NaN"}]';
  assert.equal(givenStory({ how: 'inline', text, attrs: [] }), text);
  assert.equal(givenStory({ how: 'src', text, attrs: [['story-src', './fz-story.json']] }), text);
  assert.equal(givenStory({ how: 'src', text, attrs: [['story-src', 'missing.json']] }), '');
  assert.equal(givenStory({ how: 'attr', text, attrs: [['story', 'paper']] }), '');
  assert.deepEqual(badReasons(snapshot('Step NaN'), [], givenStory({ how: 'attr', text, attrs: [['story', 'paper']] })), ['"NaN" shown']);
});
