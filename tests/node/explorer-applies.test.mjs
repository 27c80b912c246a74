// A read state is consistent with its construction (issue 27.3, 27.4): a construction given
// without d takes its own d (lp: the core's explorerD, within lp's limit); a given value of an
// option that does not apply (d with moment, box without lp, projection without jl) is not used,
// with a note in the core's words; values equal to their default pass silently (published links
// write every option).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/lib/attnx.js';
import { explorerTable, readConstruction, readHead, withoutNotApplying } from '../../web/explorer/state.js';
import { defaults } from '../../web/common/hashstate.js';

const api = await load({ flavour: 'simd' });
const schema = api.schema();
const table = explorerTable(schema);
const base = defaults(table);

test('lp given without d takes lp\'s own d, which lp accepts', () => {
  const { state, notes } = readConstruction(schema, table, { ...base, construction: 'lp' }, new Set(['construction']));
  const lp = schema.constructions.find((c) => c.name === 'lp');
  assert.equal(state.d, lp.explorerD);
  assert.ok(state.d >= 1 && state.d <= lp.dMax, `${state.d} within 1..${lp.dMax}`);
  assert.deepEqual(notes, []);
  assert.doesNotThrow(() => api.construct({ pattern: 'random', L: 64, k: 2, construction: 'lp', d: state.d }));
});

test('every construction\'s fallback d is within its own limit', () => {
  for (const c of schema.constructions) {
    const { state } = readConstruction(schema, table, { ...base, construction: c.name }, new Set(['construction']));
    if (c.dMax > 0) assert.ok(state.d <= c.dMax, `${c.name}: d ${state.d} <= ${c.dMax}`);
  }
});

test('a given d with moment is not used and the note says why', () => {
  const { state, notes } = readConstruction(schema, table, { ...base, construction: 'moment', d: 192 }, new Set(['construction', 'd']));
  assert.equal(state.d, table.d.def);
  assert.deepEqual(notes, ['d = 192: d applies only to construction jl, lp or opt (got construction moment); it is not used']);
});

test('box with jl and projection with lp are not used; defaults pass without a note', () => {
  const r = readConstruction(schema, table, { ...base, construction: 'jl', box: 5 }, new Set(['construction', 'box']));
  assert.equal(r.state.box, table.box.def);
  assert.match(r.notes[0], /^box = 5: box applies only to construction lp \(got construction jl\)/);
  const p = withoutNotApplying(schema, table, { ...base, construction: 'lp', d: 16, projection: 'orthogonal' }, new Set(['projection']));
  assert.equal(p.state.projection, table.projection.def);
  assert.equal(p.notes.length, 1);
  const quiet = withoutNotApplying(schema, table, { ...base, construction: 'moment' }, new Set(['d', 'box', 'projection']));
  assert.deepEqual(quiet.notes, []);
});

test("a link's imported-head settings with a generated family are not used, each given one with a note", () => {
  const st = { ...base, pattern: 'random', head: 5, rule: '<b>zzz</b>', softmax: true };
  const { state, notes } = readHead(schema, table, st, new Set(['pattern', 'head', 'rule']));
  assert.deepEqual([state.head, state.rule, state.softmax], [table.head.def, table.rule.def, table.softmax.def]);
  assert.equal(notes.length, 2, 'softmax was not given: reset without a note');
  assert.match(notes[0], /^head = 5: an imported head's settings apply only to its target, a custom pattern \(got pattern random\); it is not used$/);
  assert.match(notes[1], /^rule = <b>zzz<\/b>: /);
  assert.deepEqual(readHead(schema, table, { ...base, pattern: 'random' }, new Set(['head'])).notes, [], 'defaults pass silently');
  const custom = { ...st, pattern: 'custom' };
  assert.equal(readHead(schema, table, custom, new Set(['head'])).state, custom, 'a custom pattern keeps its head');
});
