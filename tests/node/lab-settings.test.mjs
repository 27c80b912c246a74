// attnx lab: the settings table built from the core's schema(), the page's links (versions,
// frozen defaults, presets, refusals naming field and range) and the store that owns the state.
// Expected values are read from the schema or written out independently here, never from the
// lab's own code.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/lib/attnx.js';
import { defaults, describeRange } from '../../web/common/hashstate.js';
import { labTable, checkField, checkState, workerOptions, smallestL, gridOf, applies, sweepFamilies, withConstructionGrid } from '../../web/lab/settings.js';
import { readLink, writeLink, fullPageLink, hashAsksEmbed } from '../../web/lab/link.js';
import { Store, mirrorToHash } from '../../web/lab/store.js';
import { recordParams } from '../../web/lab/results.js';

let schema, table;
before(async () => {
  schema = (await load()).schema();
  table = labTable(schema);
});

const KINDS = { int: 'int', real: 'number', choice: 'enum', intList: 'intList', realList: 'realList' };

test('the table has exactly the schema\'s lab options, types, ranges and defaults, field by field', () => {
  const names = schema.linkCompute.lab;
  assert.deepEqual(Object.keys(table), [...names, 'preset', 'autorun', 'embed', 'controls', 'theme']);
  const ctx = schema.contexts.lab;
  const st = { ...ctx.defaults };
  for (const name of names) {
    const o = schema.options[name], f = table[name];
    assert.equal(f.type, KINDS[o.kind], `${name}: type`);
    assert.deepEqual(f.def, ctx.defaults[name], `${name}: default of the lab context`);
    if (o.kind === 'choice') continue;
    const lo = typeof f.min === 'function' ? f.min(st) : f.min;
    const hi = typeof f.max === 'function' ? f.max(st) : f.max;
    const fam = schema.families.find((x) => x.name === st.pattern).params.find((p) => p.name === name);
    // Family parameters: the chosen family's range for the smallest L of the default grid (16).
    const L0 = Math.min(...String(ctx.defaults.Ls).split(',').map(Number));
    const wantHi = fam ? (fam.max === 'L' ? L0 : fam.max === 'L-1' ? L0 - 1 : Number(fam.max)) : ctx.max[name];
    assert.equal(lo, o.minExpr === 'step' ? st.step : fam ? fam.min : o.min, `${name}: min`);
    assert.equal(hi, wantHi, `${name}: max`);
    if (o.kind === 'real') assert.deepEqual([f.minOpen, f.maxOpen], [o.minOpen, o.maxOpen], `${name}: open ends`);
    if (o.kind === 'intList') assert.equal(f.maxCount, o.maxCount, `${name}: most entries`);
  }
  assert.deepEqual(table.pattern.values, schema.families.filter((f) => f.scalesWithL && f.name !== 'custom').map((f) => f.name));
  assert.deepEqual(table.weights.values, schema.options.weights.choices);
  // The lab context caps the lengths (the schema's, not a number of the page's).
  assert.equal(table.Ls.max, ctx.max.Ls);
  assert.ok(ctx.max.Ls < schema.options.Ls.max);
  assert.equal(table.preset.def, 'none');
  assert.deepEqual(table.preset.values, ['none', ...Object.keys(schema.presets)]);
});

test('family parameter ranges follow the chosen family and the smallest L of the grid', () => {
  const st = { ...defaults(table), Ls: '64,32' };
  assert.equal(smallestL(st), 32);
  assert.equal(table.k.max({ ...st, pattern: 'random' }), 32);
  assert.equal(table.w.max({ ...st, Ls: '20,100', pattern: 'window' }), 19);
  assert.match(checkField(table, { ...st, Ls: '32,64' }, 'k', '33').error, /^k must be an integer from 1 to 32 \(got "33"\)$/);
  assert.equal(checkField(table, { ...st, Ls: '64,128' }, 'k', '64').value, 64);
  // Options another family or weights would use are hidden and not checked against this one.
  assert.equal(applies(schema, 'k', { pattern: 'window', weights: 'uniform' }), false);
  assert.equal(applies(schema, 'w', { pattern: 'window', weights: 'uniform' }), true);
  assert.equal(applies(schema, 'wMin', { pattern: 'random', weights: 'random' }), true);
  assert.equal(applies(schema, 'decay', { pattern: 'random', weights: 'random' }), false);
  assert.equal(applies(schema, 'eps', { pattern: 'block', weights: 'uniform' }), true);
  assert.ok(sweepFamilies(schema).every((f) => f.scalesWithL));
});

test('the grid: the common intList codec with the option\'s range and count, strictly increasing', () => {
  const st = defaults(table);
  const max = schema.contexts.lab.max.Ls, count = schema.options.Ls.maxCount;
  assert.equal(checkField(table, st, 'Ls', ' 16, 32 ,64 ').value, '16,32,64');
  assert.deepEqual(gridOf({ Ls: '16,32,64' }), [16, 32, 64]);
  const range = describeRange(table.Ls, st);
  assert.equal(range, `comma-separated integers from ${schema.options.Ls.min} to ${max}, at most ${count} of them`);
  assert.equal(checkField(table, st, 'Ls', `16,${max + 1}`).error, `Ls must be ${range} (got "16,${max + 1}")`);
  assert.ok(checkField(table, st, 'Ls', '1,2').error.startsWith('Ls must be comma-separated integers from 2 to'));
  assert.ok(checkField(table, st, 'Ls', '').error);
  assert.ok(checkField(table, st, 'Ls', '16,abc').error);
  assert.ok(checkField(table, st, 'Ls', '16 32').error, 'lengths are separated by commas');
  assert.ok(checkField(table, st, 'Ls', Array.from({ length: count + 1 }, (_, i) => i + 2).join(',')).error);
  assert.equal(checkField(table, st, 'Ls', Array.from({ length: count }, (_, i) => i + 2).join(',')).error, undefined);
  assert.equal(checkField(table, st, 'Ls', '16,16').error, 'Ls must be strictly increasing (got 16 then 16)');
  assert.equal(checkField(table, st, 'Ls', '64,32').error, 'Ls must be strictly increasing (got 64 then 32)');
});

test('links without v are version 0: missing options take the frozen v0 defaults', () => {
  assert.equal(readLink(schema, table, ''), null, 'no link');
  assert.equal(readLink(schema, table, '#results'), null, 'an element id (skip link) is no link');
  const r = readLink(schema, table, '#Ls=16,32,64&trials=3&autorun=1');
  assert.deepEqual(r.errors, []);
  assert.equal(r.version, 0);
  const v0 = schema.linkDefaults['0'].lab;
  for (const [k, v] of Object.entries(v0)) if (k !== 'Ls' && k !== 'trials') assert.deepEqual(r.state[k], v, k);
  assert.equal(r.state.Ls, '16,32,64');
  assert.equal(r.state.trials, 3);
  assert.equal(r.state.autorun, true);
});

test('links name every bad value with its field and range; the rest is kept', () => {
  const r = readLink(schema, table, '#k=0&eps=abc&Ls=64,32&pattern=nope&trials=2&bogus=1');
  const all = r.errors.join('\n');
  assert.match(all, /^k must be an integer from 1 to 32 \(got "0"\)$/m);
  assert.match(all, /^eps must be a number in \[1e-06, 100\] \(got "abc"\)$/m);
  assert.match(all, /^Ls must be strictly increasing \(got 64 then 32\)$/m);
  assert.match(all, /^pattern must be one of random, permutation, /m);
  assert.match(all, /unknown setting "bogus"/);
  assert.equal(r.state.trials, 2);
  assert.equal(r.state.k, schema.linkDefaults['0'].lab.k);
  assert.equal(r.state.Ls, table.Ls.def);
  assert.match(readLink(schema, table, '#tau=1').errors[0], /^tau must be a number in \(0, 1\) \(got "1"\)$/);
  assert.match(readLink(schema, table, '#step=64&dmax=32').errors[0], /^dmax must be an integer from 64 to /);
  const big = readLink(schema, table, '#step=8192');
  assert.match(big.errors[0], /^dmax must be an integer from 8192 to /, 'dmax below step is refused');
  assert.ok(big.state.dmax >= big.state.step);
  assert.match(readLink(schema, table, '#preset=nope').errors[0], /^preset must be one of none, paper/);
  assert.match(readLink(schema, table, '#pattern=custom').errors[0], /^pattern must be one of /);
  const v = readLink(schema, table, '#v=7&k=3');
  assert.deepEqual(v.errors, [`v must be a link version from 0 to ${schema.linkVersion} (got "7"); none of the other settings were read`]);
  assert.deepEqual([v.state, v.version], [null, null], 'refused whole');
});

test('a preset in a link supplies what the link leaves out', () => {
  const paper = schema.presets.paper.values;
  const p = readLink(schema, table, '#preset=paper&autorun=1');
  assert.deepEqual(p.errors, []);
  for (const [k, v] of Object.entries(paper)) assert.deepEqual(p.state[k], v, k);
  const q = readLink(schema, table, '#preset=paper&trials=2&Ls=32,64');
  assert.equal(q.state.trials, 2);
  assert.equal(q.state.Ls, '32,64');
  assert.equal(q.state.seed, paper.seed);
});

test('written links are the current version with every compute option and read back to the same state', () => {
  const st = { ...defaults(table), Ls: '32,64,128', pattern: 'window', w: 3, weights: 'decaying', decay: 2, eps: 0.5, seed: 9 };
  const h = writeLink(schema, table, st);
  assert.ok(h.startsWith(`#v=${schema.linkVersion}&`));
  const keys = [...new URLSearchParams(h.slice(1)).keys()];
  assert.deepEqual(keys, ['v', ...schema.linkCompute.lab]);
  assert.match(h, /&Ls=32,64,128&pattern=window&k=2&w=3&/);
  const back = readLink(schema, table, h);
  assert.deepEqual(back.errors, []);
  assert.equal(back.version, schema.linkVersion);
  for (const k of schema.linkCompute.lab) assert.deepEqual(back.state[k], st[k], k);
  assert.match(writeLink(schema, table, st, { autorun: true }), /&autorun=1$/);
  assert.ok(!writeLink(schema, table, { ...st, preset: 'paper' }).includes('preset='), 'a preset is written as its values');
});

test('a v=1 link keeps its meaning when a default of the schema changes', () => {
  const st = { ...defaults(table), trials: 10, k: 2, Ls: '16,32' };
  const link = writeLink(schema, table, st);
  // A later core with other current defaults (the frozen link tables unchanged).
  const changed = structuredClone(schema);
  Object.assign(changed.contexts.lab.defaults, { trials: 25, k: 3, Ls: '64,128', eps: 2 });
  const t2 = labTable(changed);
  assert.equal(t2.trials.def, 25, 'the copy really has other defaults');
  const r = readLink(changed, t2, link);
  assert.deepEqual(r.errors, []);
  for (const k of schema.linkCompute.lab) assert.deepEqual(r.state[k], st[k], k);
  // A hand-made v=1 link that leaves options out: the frozen v1 defaults, not the new ones.
  const partial = readLink(changed, t2, '#v=1&Ls=16,32');
  assert.equal(partial.state.trials, schema.linkDefaults['1'].lab.trials);
  assert.equal(partial.state.eps, schema.linkDefaults['1'].lab.eps);
  const old = readLink(changed, t2, '#Ls=16,32');
  assert.equal(old.state.k, schema.linkDefaults['0'].lab.k);
});

test('checkState repairs values the whole state does not allow', () => {
  const r = checkState(schema, table, { ...defaults(table), Ls: '8,16', k: 12 });
  assert.deepEqual(r.errors, ['k must be an integer from 1 to 8 (got "12")']);
  assert.ok(r.state.k >= 1 && r.state.k <= 8);
  assert.deepEqual(checkState(schema, table, defaults(table)).errors, []);
});

test('worker options and the record params follow the schema', () => {
  const st = { ...readLink(schema, table, '#preset=paper').state };
  const o = workerOptions(schema, st);
  assert.deepEqual(Object.keys(o), schema.linkCompute.lab.filter((k) => !['Ls', 'L', 'scales', 'boxes'].includes(k)));
  assert.equal(o.k, 2);
  const p = recordParams(schema, { ...st, pattern: 'bigbird', weights: 'random', wMin: 0.3 }, [64]);
  const fam = schema.families.find((f) => f.name === 'bigbird').params.map((q) => q.name);
  assert.deepEqual(Object.keys(p).sort(), ['pattern', ...fam, 'weights', 'w_min', 'eps', 'tau', 'delta', 'trials', 'step', 'd_max', 'seed', 'Ls', 'max_bytes'].sort());
  assert.deepEqual(p.Ls, [64]);
  assert.equal(p.w_min, 0.3);
  assert.equal(p.max_bytes, schema.contexts.lab.defaults.maxBytes);
  // The construction is written when it is not the paper's (with lp's box), as the CLI writes it.
  const lp = recordParams(schema, { ...st, construction: 'lp', box: 50 }, [64]);
  assert.deepEqual([lp.construction, lp.box, lp.projection], ['lp', 50, undefined]);
  const ortho = recordParams(schema, { ...st, projection: 'orthogonal' }, [64]);
  assert.deepEqual([ortho.construction, ortho.box, ortho.projection], [undefined, undefined, 'orthogonal']);
});

test('the store: one owner, subscribers told what changed, the hash mirrored', () => {
  const store = new Store({ a: 1, b: 2 });
  const seen = [];
  const off = store.subscribe((st, meta) => seen.push([st, meta]));
  assert.deepEqual(store.set({ a: 1 }), []);
  assert.deepEqual(store.set({ a: 3, b: 2 }, { source: 'controls' }), ['a']);
  assert.deepEqual(seen, [[{ a: 3, b: 2 }, { source: 'controls', changed: ['a'] }]]);
  const copy = store.get();
  copy.a = 99;
  assert.equal(store.get().a, 3, 'get() is a copy');
  off();
  store.set({ a: 4 });
  assert.equal(seen.length, 1);
  // Mirror: replaceState on changes not coming from the link itself; null leaves the URL alone.
  const calls = [];
  const win = { location: { pathname: '/lab.html', search: '', hash: '#x=1' }, history: { replaceState: (_, __, url) => calls.push(url) } };
  mirrorToHash(store, (st) => (st.a > 10 ? null : `#a=${st.a}`), win);
  store.set({ a: 5 }, { source: 'link' });
  store.set({ a: 6 }, { source: 'controls' });
  store.set({ a: 11 }, { source: 'controls' });
  assert.deepEqual(calls, ['/lab.html#a=6']);
});

test('embed mode is a view field: read from a link, written only when on, dropped from the full page\'s link', () => {
  const r = readLink(schema, table, '#embed=1');
  assert.deepEqual(r.errors, []);
  assert.equal(r.state.embed, true);
  assert.equal(r.state.controls, false);
  const c = readLink(schema, table, '#preset=paper&autorun=1&embed=1&controls=1');
  assert.deepEqual(c.errors, []);
  assert.deepEqual([c.state.embed, c.state.controls, c.state.autorun], [true, true, true]);
  assert.match(readLink(schema, table, '#embed=2').errors[0], /^embed must be 0 or 1/);
  const st = { ...defaults(table), Ls: '32,64' };
  const plain = writeLink(schema, table, st);
  assert.doesNotMatch(plain, /embed|controls/, 'defaults are not written');
  const framed = writeLink(schema, table, { ...st, embed: true, controls: true });
  assert.equal(framed, `${plain}&embed=1&controls=1`);
  assert.equal(fullPageLink(schema, table, { ...st, embed: true, controls: true }), plain);
  // The same compute options either way: embed mode changes only what is shown.
  const back = readLink(schema, table, framed).state;
  for (const k of schema.linkCompute.lab) assert.deepEqual(back[k], st[k], k);
  assert.equal(hashAsksEmbed('#v=1&embed=1&Ls=16'), true);
  assert.equal(hashAsksEmbed('#embed=1'), true);
  assert.equal(hashAsksEmbed('#embed=0'), false);
  assert.equal(hashAsksEmbed('#noembed=1'), false);
  assert.equal(hashAsksEmbed('#embed=10'), false);
  assert.equal(hashAsksEmbed(''), false);
});

test('worker options: a projection or box that does not apply to the construction is sent as its default', () => {
  const st = { ...readLink(schema, table, '#preset=paper').state, construction: 'lp', projection: 'orthogonal', box: 50 };
  const o = workerOptions(schema, st);
  assert.deepEqual([o.construction, o.projection, o.box], ['lp', schema.options.projection.default, 50]);
  const j = workerOptions(schema, { ...st, construction: 'jl' });
  assert.deepEqual([j.projection, j.box], ['orthogonal', schema.options.box.default]);
});

test('picking lp in the form searches every d up to lp\'s largest; jl goes back to the lab\'s grid', () => {
  const st = { ...defaults(table), construction: 'jl', step: 16, dmax: 4096 };
  const lp = schema.constructions.find((c) => c.name === 'lp');
  assert.deepEqual(withConstructionGrid(schema, table, st, { construction: 'lp' }), { construction: 'lp', step: lp.searchStep, dmax: lp.dMax });
  assert.deepEqual(withConstructionGrid(schema, table, { ...st, construction: 'lp', step: 1, dmax: 256 }, { construction: 'jl' }),
    { construction: 'jl', step: table.step.def, dmax: table.dmax.def });
  assert.deepEqual(withConstructionGrid(schema, table, st, { construction: 'lp', step: 4 }), { construction: 'lp', step: 4, dmax: lp.dMax });
  assert.deepEqual(withConstructionGrid(schema, table, st, { trials: 3 }), { trials: 3 });
});

test('a link naming lp without a grid takes lp\'s own grid, never the preset\'s or its version\'s (which lp refuses)', () => {
  const lp = schema.constructions.find((c) => c.name === 'lp');
  assert.ok(lp.searchStep > 0 && lp.dMax < schema.presets.paper.values.dmax, 'the paper preset\'s dmax is above lp\'s limit');
  for (const hash of ['#v=2&preset=paper&Ls=16,32&trials=2&construction=lp', '#v=2&construction=lp']) {
    const r = readLink(schema, table, hash);
    assert.deepEqual(r.errors, [], hash);
    assert.equal(r.state.step, lp.searchStep, `${hash}: step`);
    assert.equal(r.state.dmax, lp.dMax, `${hash}: dmax`);
  }
  // Links of versions that cannot name a construction keep their frozen grid (construction refused).
  for (const v of ['0', '1']) {
    const old = readLink(schema, table, `#${v === '0' ? '' : `v=${v}&`}construction=lp`);
    const frozen = schema.linkDefaults[v].lab;
    assert.equal(old.state.construction, schema.options.construction.default, `v${v}: construction refused`);
    assert.equal(old.state.step, frozen.step, `v${v}: frozen step`);
    assert.equal(old.state.dmax, frozen.dmax, `v${v}: frozen dmax`);
  }
  // A grid the link gives is its own; jl keeps the preset's grid.
  assert.equal(readLink(schema, table, '#v=2&construction=lp&step=2&dmax=128').state.dmax, 128);
  const jl = readLink(schema, table, '#v=2&preset=paper&construction=jl');
  assert.equal(jl.state.dmax, schema.presets.paper.values.dmax);
  assert.equal(jl.state.step, schema.presets.paper.values.step);
});
