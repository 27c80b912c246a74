// The explorer's state table is the core's schema(): every option's type, range, open ends,
// choices and default, field by field; family parameter ranges follow the chosen family and L;
// and no limit the core defines is written into web/ as a literal.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { load } from '../../web/lib/attnx.js';
import { buildTable, familyOf, evalRange } from '../../web/common/schema-table.js';
import { explorerTable, constructOptions, clampToRanges, withConstructionD, settingsKey, VIEW_FIELDS } from '../../web/explorer/state.js';
import { defaults, parseHash } from '../../web/common/hashstate.js';
import { ROOT, requireBuilds } from './helpers.mjs';

let api, schema, table;
before(async () => {
  requireBuilds();
  api = await load();
  schema = api.schema();
  table = explorerTable(schema);
});

const TYPE = { int: 'int', real: 'number', choice: 'enum', intList: 'intList' };

test('every option of the table has exactly the schema\'s type, range and default', () => {
  const ctx = schema.contexts.explorer;
  assert.deepEqual(Object.keys(table), [...schema.linkCompute.explorer, ...Object.keys(VIEW_FIELDS)]);
  const params = new Set(schema.families.flatMap((f) => f.params.map((p) => p.name)));
  for (const name of schema.linkCompute.explorer) {
    const o = schema.options[name], f = table[name];
    assert.equal(f.type, TYPE[o.kind], name);
    assert.equal(f.def, ctx.defaults[name], `${name} default`);
    assert.equal(f.label, o.label, `${name} label`);
    if (o.kind === 'choice') {
      assert.deepEqual(f.values, o.choices, name);
      continue;
    }
    if (params.has(name)) continue;  // below
    assert.equal(f.min, o.min, `${name} min`);
    assert.equal(typeof f.max === 'function' ? f.max({ construction: 'jl' }) : f.max, ctx.max[name], `${name} max`);
    if (o.kind === 'real') assert.deepEqual([f.minOpen, f.maxOpen], [o.minOpen, o.maxOpen], `${name} open ends`);
  }
  // The explorer's context, spelled out: L up to 4096 (the core's browser limit), d defaults to 1024.
  assert.deepEqual([table.L.max, table.d.def, table.eps.max], [4096, 1024, 100]);
  // d's largest value follows the construction: lp solves d + 2 variables per row.
  assert.deepEqual(['jl', 'lp', 'moment'].map((c) => table.d.max({ construction: c })), [16384, 256, 16384]);
});

test('picking a construction sets the d that goes with it, unless d is given too', () => {
  const st = { construction: 'jl', d: 1024 };
  assert.deepEqual(withConstructionD(schema, st, { construction: 'lp' }), { construction: 'lp', d: 32 });
  assert.deepEqual(withConstructionD(schema, { construction: 'lp', d: 20 }, { construction: 'jl' }), { construction: 'jl', d: 1024 });
  assert.deepEqual(withConstructionD(schema, st, { construction: 'moment' }), { construction: 'moment' });
  assert.deepEqual(withConstructionD(schema, st, { construction: 'lp', d: 7 }), { construction: 'lp', d: 7 });
  assert.deepEqual(withConstructionD(schema, st, { L: 64 }), { L: 64 });
});

test('family parameters take the chosen family\'s range at the state\'s L', () => {
  for (const fam of schema.families) {
    for (const L of [2, 17, 4096]) {
      const st = { ...defaults(table), pattern: fam.name, L };
      for (const p of fam.params) {
        assert.equal(table[p.name].min(st), p.min, `${fam.name}.${p.name} min`);
        assert.equal(table[p.name].max(st), evalRange(p.max, L), `${fam.name}.${p.name} max at L = ${L}`);
      }
    }
  }
  // A parameter the chosen family does not use keeps the option's static range (the core ignores it).
  const st = { ...defaults(table), pattern: 'window', L: 4 };
  assert.deepEqual([table.stride.min(st), table.stride.max(st)], [schema.options.stride.min, schema.contexts.explorer.max.stride]);
  assert.deepEqual(parseHash(table, '#v=1&pattern=window&L=4&stride=8&block=4&r=2', { page: 'explorer', schema }).errors, []);
});

test('clampToRanges moves the chosen family\'s parameters into range and unpins rows beyond L', () => {
  const st = clampToRanges(table, schema, { ...defaults(table), pattern: 'dilated', L: 10, w: 50, r: 0, k: 99, row: 12 });
  assert.deepEqual([st.w, st.r, st.k, st.row], [9, 1, 99, -1]);
});

test('construct options: the state\'s options as they are; the core accepts them', () => {
  const st = parseHash(table, '#pattern=window&L=40&w=2&tau=0.2&seed=9', { page: 'explorer', schema }).state;
  const o = constructOptions(schema, st, null);
  assert.deepEqual(Object.keys(o), schema.linkCompute.explorer);
  assert.deepEqual([o.pattern, o.L, o.w, o.tau, o.seed, o.d], ['window', 40, 2, 0.2, 9, 1024]);
  const r = api.construct({ ...o, d: 64 });
  assert.deepEqual([r.L, r.k, r.params.tau], [40, 5, 0.2]);
});

test('buildTable: families filter, unknown page refused, family lookup', () => {
  const t = buildTable(schema, 'lab', { families: ['window', 'random'], lengthOf: () => 16 });
  assert.deepEqual(t.pattern.values, ['random', 'window']);
  assert.equal(t.k.max({ pattern: 'random' }), 16);
  assert.throws(() => buildTable(schema, 'nope'), /schema has no page "nope"/);
  assert.equal(familyOf(schema, 'causal').name, 'causal');
  assert.equal(familyOf(schema, 'missing').name, schema.families[0].name);
});

test('evalRange: the schema\'s expressions, names from an object, no eval', () => {
  assert.equal(evalRange('L', 10), 10);
  assert.equal(evalRange('L-1', 10), 9);
  assert.equal(evalRange('floor((L-1)/2)', 10), 4);
  assert.equal(evalRange('step', { step: 16 }), 16);
  assert.equal(evalRange(7, 10), 7);
  assert.throws(() => evalRange('L;alert(1)', 10), /bad range expression/);
  assert.throws(() => evalRange('step', 10), /bad range expression/);
  assert.throws(() => evalRange('constructor', {}), /bad range expression/);
});

function jsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'wasm') out.push(...jsFiles(p));
    } else if (/\.(js|html)$/.test(name)) out.push(p);
  }
  return out;
}

test('no core limit is written into web/ as a literal (the schema is the one source)', () => {
  const files = jsFiles(join(ROOT, 'web'));
  assert.ok(files.some((f) => f.endsWith('explorer/main.js')) && files.some((f) => f.endsWith('common/hashstate.js')));
  const found = [];
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const lit of ['9007199254740991', '16384', '4096', '2 ** 53', '2**53']) {
      if (new RegExp(`(?<![\\w.])${lit.replace(/\*/g, '\\*')}(?![\\w.])`).test(text)) found.push(`${f.slice(ROOT.length)}: ${lit}`);
    }
  }
  assert.deepEqual(found, []);
});

test('settingsKey: equal settings give equal keys; d counts unless anyD; view fields never do', () => {
  const st = defaults(table);
  assert.equal(settingsKey(schema, st, null), settingsKey(schema, { ...st, scale: 'lin', row: 3 }, null));
  assert.notEqual(settingsKey(schema, st, null), settingsKey(schema, { ...st, d: st.d + 1 }, null));
  assert.equal(settingsKey(schema, st, null, { anyD: true }), settingsKey(schema, { ...st, d: st.d + 1 }, null, { anyD: true }));
  assert.notEqual(settingsKey(schema, st, null), settingsKey(schema, { ...st, construction: 'lp' }, null));
  const custom = (code) => ({ encode: () => code });
  assert.notEqual(settingsKey(schema, st, custom('a')), settingsKey(schema, st, custom('b')));
});
