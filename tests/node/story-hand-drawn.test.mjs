// Lecture mode (web/explorer/story.js): which patterns a story may not set is the schema's (issue
// 22 item 2): the families the core does not generate (schema.families[].generated false, the
// state table's pattern.handDrawn), never a family name written in the web module.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/lib/attnx.js';
import { explorerTable } from '../../web/explorer/state.js';
import { parseStory } from '../../web/explorer/story.js';

let schema;
before(async () => {
  schema = (await load()).schema();
});

const step = (title, state) => ({ title, text: 'Some text.', state });
const refused = (table, pattern) => (parseStory('s', [step('One', { pattern })], table).errors ?? []).filter((e) => e.includes('cannot be set by a story (a drawn pattern'));

test('the patterns a story may not set are the families the schema says are not generated', () => {
  const table = explorerTable(schema);
  assert.deepEqual(table.pattern.handDrawn, schema.families.filter((f) => !f.generated).map((f) => f.name));
  assert.deepEqual(refused(table, 'custom'), ['story "s", step 1 ("One"): pattern "custom" cannot be set by a story (a drawn pattern is not part of it)']);
  assert.deepEqual(refused(table, 'window'), []);
  // A schema copy where window is drawn by hand and custom is generated: the rule follows it.
  const copy = { ...schema, families: schema.families.map((f) => ({ ...f, generated: f.name === 'window' ? false : f.name === 'custom' ? true : f.generated })) };
  const other = explorerTable(copy);
  assert.deepEqual(other.pattern.handDrawn, ['window']);
  assert.equal(refused(other, 'window').length, 1);
  assert.deepEqual(refused(other, 'custom'), []);
});
