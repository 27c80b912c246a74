// attnx lab: the "dimensions against bits" comparison takes its rule from the core's schema
// (issue 22 item 2): which constructions it compares and in which order, which are searched (a
// minimal d per length) and which have one D per pattern, and which counting floor is whose
// (bitsFloor). With the real schema every head and sentence is the one written before; with a
// copy of it that reorders the constructions, makes one of them unsearched or gives it the other
// floor, the runs, the files, the tables and the sentences follow the copy.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { defaults } from '../../web/common/hashstate.js';
import { labTable } from '../../web/lab/settings.js';
import { runCompare, comparedOf, comparedIn, searchGrids, rowComplete } from '../../web/lab/compare.js';
import {
  dimensionCells, dimensionColumns, bitsColumns, dwColumns, dimensionSentence, bitsSentence, bitsCells,
  dwSentence, dwGist, dwCells, gridsSentence, namesText, floorSeries,
} from '../../web/lab/views/compare-summary.js';
import { compareCsv } from '../../web/lab/compare-files.js';
import { corePool } from './lab-pool.mjs';

let core, schema;
before(async () => {
  core = await corePool();
  schema = core.api.schema();
});

const stateOf = (changes) => ({ ...defaults(labTable(schema)), ...changes });
// A copy of the schema whose constructions are `order` (names), each changed by changes[name].
function schemaWith(order, changes = {}) {
  const byName = Object.fromEntries(schema.constructions.map((c) => [c.name, c]));
  return { ...schema, constructions: order.map((n) => ({ ...structuredClone(byName[n]), ...(changes[n] || {}) })) };
}

test('with the core\'s schema the heads, gist and lines are the ones written before', () => {
  const cs = comparedOf(schema);
  assert.deepEqual(cs.map((c) => [c.name, c.searched, c.bitsFloor]), [['jl', true, 'bits_fixed_keys'], ['lp', true, 'bits_fixed_keys'], ['moment', false, 'bits_free_keys']]);
  assert.deepEqual(dimensionColumns(cs), ['L', 'jl: median d_min (quantile)', 'lp: median d_min (quantile)', 'moment: D', 'jl: floor D_Λ', 'lp: floor D_Λ', 'moment: floor D_Λ']);
  assert.deepEqual(bitsColumns(cs), ['L', 'jl: bits(X)', 'jl: fp32 / fp64', 'lp: bits(X)', 'lp: fp32 / fp64', 'moment: bits(X)', 'moment: fp32 / fp64']);
  assert.deepEqual(dwColumns(cs), ['L', 'jl: D, w', 'lp: D, w', 'moment: D, w', 'floor on D·w, fixed keys', 'floor on D·w, free keys']);
  assert.equal(dwGist(cs), 'Fewer dimensions cost more bits: keys fixed before the target (jl, lp) need D·w at least log2 C(L,k) bits, keys chosen with it (moment, any X) at least log2(L!)/(2L)');
  assert.equal(namesText(cs), 'jl, lp and moment');
  const st = stateOf({ step: 8, dmax: 512 });
  const lp = schema.constructions.find((c) => c.name === 'lp');
  assert.equal(gridsSentence(searchGrids(schema, st), cs), `jl's d is searched on the lab's grid (d = 8, 16, … up to 512), lp's on its own (d = ${lp.searchStep}, ${2 * lp.searchStep}, … up to ${lp.dMax}).`);
});

test('the schema decides which constructions are compared: its order; searchable, else one D of its own', () => {
  const reordered = comparedOf(schemaWith(['moment', 'lp', 'jl']));
  assert.deepEqual(reordered.map((c) => c.name), ['moment', 'lp', 'jl']);
  const flipped = comparedOf(schemaWith(['jl', 'lp', 'moment'], { lp: { searchable: false, usesD: false } }));
  assert.deepEqual(flipped.map((c) => [c.name, c.searched]), [['jl', true], ['lp', false], ['moment', false]]);
  // A construction that needs a d but may not be searched has no number to compare: left out.
  assert.deepEqual(comparedOf(schemaWith(['jl', 'lp', 'moment'], { jl: { searchable: false } })).map((c) => c.name), ['lp', 'moment']);
  assert.deepEqual(dimensionColumns(flipped).slice(0, 4), ['L', 'jl: median d_min (quantile)', 'lp: D', 'moment: D']);
  assert.deepEqual(Object.keys(searchGrids(schemaWith(['jl', 'lp', 'moment'], { lp: { searchable: false, usesD: false } }), stateOf({}))), ['jl']);
});

test('the counting floors name the constructions the schema gives them (bitsFloor)', () => {
  const cs = comparedOf(schemaWith(['moment', 'lp', 'jl'], { jl: { bitsFloor: 'bits_free_keys' } }));
  assert.equal(dwGist(cs), 'Fewer dimensions cost more bits: keys fixed before the target (lp) need D·w at least log2 C(L,k) bits, keys chosen with it (moment, jl, any X) at least log2(L!)/(2L)');
  const none = comparedOf(schemaWith(['moment']));
  assert.equal(dwGist(none), 'Fewer dimensions cost more bits: keys fixed before the target need D·w at least log2 C(L,k) bits, keys chosen with it (moment, any X) at least log2(L!)/(2L)');
  assert.match(dwSentence([], cs), /^Fewer dimensions cost more bits: keys fixed before the target \(lp\)/);
});

test('a run follows the schema: order of parts, lines and cells; a construction made unsearched gets one D', async () => {
  const sch = schemaWith(['moment', 'lp', 'jl'], { jl: { searchable: false, usesD: false } });
  const st = stateOf({ Ls: '16', trials: 1, seed: 4 });
  core.calls.length = 0;
  const out = await runCompare(core, { core: core.api, schema: sch, st });
  assert.equal(out.complete, true);
  const [row] = out.rows;
  assert.deepEqual(Object.keys(row), ['L', 'moment', 'lp', 'jl']);
  assert.ok(rowComplete(row));
  // jl: no sweep, one precision report without d (the core takes jl's own d), kept as { D, ... }.
  const sweeps = core.calls.filter(([m]) => m === 'sweepPoint').map(([, o]) => o.construction);
  assert.deepEqual(sweeps, ['lp']);
  const jlCall = core.calls.find(([m, o]) => m === 'precision' && o.construction === 'jl')[1];
  assert.equal(jlCall.d, undefined);
  assert.deepEqual(Object.keys(row.jl), ['D', 'precision', 'bounds']);
  assert.deepEqual(Object.keys(out.grids), ['lp']);
  const cs = comparedOf(sch);
  // The rows carry their kinds: the views give the same with the schema's list or the rows' own.
  assert.deepEqual(comparedIn(out.rows), cs.map(({ name, searched }) => ({ name, searched })));
  assert.deepEqual(dimensionCells(out.rows, cs), dimensionCells(out.rows));
  assert.deepEqual(dimensionCells(out.rows, cs)[0].slice(0, 4), ['16', String(row.moment.D), `${row.lp.median} (${row.lp.quantile})`, String(row.jl.D)]);
  assert.equal(bitsCells(out.rows, cs)[0][5], `${row.jl.precision.bits ?? 'n.r.'} (d = ${row.jl.D})`);
  assert.deepEqual(Object.keys(floorSeries(out.rows, cs)), ['moment', 'lp', 'jl']);
  assert.match(dimensionSentence(out.rows, cs), new RegExp(`at L = 16 the median d_min is ${row.lp.median} for lp; moment has D = ${row.moment.D}; jl has D = ${row.jl.D}\\.$`));
  assert.match(bitsSentence(out.rows, cs), / for moment, .* for lp and .* for jl\.$/);
  assert.equal(dwCells(out.rows, cs)[0].length, 1 + 3 + 2);
  // The CSV's lines in the schema's order, jl's d its own D and no quantile.
  const lines = compareCsv(out.rows).trim().split('\n').slice(1).map((l) => l.split(','));
  assert.deepEqual(lines.map((l) => l[1]), ['moment', 'lp', 'jl']);
  assert.deepEqual(lines[2].slice(2, 4), [String(row.jl.D), '']);
});
