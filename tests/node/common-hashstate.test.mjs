// web/common/hashstate.js with the explorer's table built from the core's schema(): link round
// trips, link versions (v=1 writes every option; v0 and v1 links read their frozen defaults, not
// the current ones), refusals and what is not a link.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { parseHash, toHash, parseField, defaults, isElementHash, describeRange } from '../../web/common/hashstate.js';
import { explorerTable, constructOptions } from '../../web/explorer/state.js';
import { numberGrammar } from '../../web/common/schema-table.js';
import { requireBuilds } from './helpers.mjs';

let schema, table;
const opts = () => ({ page: 'explorer', schema });
const paramsOf = (hash) => [...new URLSearchParams(hash.slice(1)).keys()];

before(async () => {
  requireBuilds();
  schema = (await load()).schema();
  table = explorerTable(schema);
});

test('a written link starts with v=3 and carries every option of linkCompute, even defaults', () => {
  const st = defaults(table);
  const h = toHash(table, st, opts());
  assert.match(h, /^#v=3&/);
  const keys = paramsOf(h);
  assert.deepEqual(keys, ['v', ...schema.linkCompute.explorer]);
  // The explorer's compute options, spelled out (an independent list: a link must keep them all).
  assert.deepEqual(schema.linkCompute.explorer, ['pattern', 'L', 'k', 'w', 'r', 'block', 'stride', 'globals', 'randoms',
    'weights', 'wMin', 'decay', 'eps', 'tau', 'delta', 'construction', 'box', 'budget', 'projection', 'd', 'seed']);
  // View fields appear only when they differ from the page's default.
  const h2 = toHash(table, { ...st, scale: 'lin', row: 7, help: true }, opts());
  assert.deepEqual(paramsOf(h2).slice(-3), ['scale', 'row', 'help']);
  assert.match(h2, /&scale=lin&row=7&help=1$/);
});

test('parse -> write -> parse round trip keeps every value', () => {
  const hash = '#v=2&pattern=dilated&L=50&k=3&w=2&r=3&block=5&stride=6&globals=2&randoms=0&weights=random&wMin=0.25'
    + '&decay=2.5&eps=0.5&tau=0.2&delta=0.05&construction=lp&box=50&projection=gaussian&d=33&seed=9007199254740991&scale=lin&ref=min&row=7&help=1';
  const r = parseHash(table, hash, opts());
  assert.deepEqual(r.errors, []);
  assert.equal(r.version, 2);
  assert.equal(r.state.seed, 2 ** 53 - 1);
  assert.equal(r.state.construction, 'lp');
  // Written back as the current version, with opt's budget (a version-3 field) at its default.
  const v3 = hash.replace('v=2', 'v=3').replace('&projection', '&budget=5.3&projection');
  assert.equal(toHash(table, r.state, opts()), v3);
  assert.deepEqual(parseHash(table, v3, opts()).state, r.state);
  const opt = parseHash(table, v3.replace('construction=lp', 'construction=opt').replace('budget=5.3', 'budget=8').replace('&box=50', '&box=1000').replace('d=33', 'd=12'), opts());
  assert.deepEqual(opt.errors, []);
  assert.equal(opt.state.budget, 8);
  assert.equal(toHash(table, opt.state, opts()).includes('&construction=opt&box=1000&budget=8&'), true);
});

test('a version-1 link keeps its meaning: the paper construction, rewritten as v=3 with construction=jl', () => {
  const v1 = '#v=1&pattern=window&L=64&k=2&w=2&r=2&block=4&stride=8&globals=1&randoms=1&weights=uniform&wMin=0.1'
    + '&decay=1&eps=1&tau=0.1&delta=0.1&d=333&seed=4';
  const r = parseHash(table, v1, opts());
  assert.deepEqual(r.errors, []);
  assert.equal(r.version, 1);
  assert.equal(r.state.construction, 'jl');
  assert.equal(r.state.d, 333);
  assert.equal(toHash(table, r.state, opts()), v1.replace('v=1', 'v=3').replace('&d=333', '&construction=jl&box=1000&budget=5.3&projection=gaussian&d=333'));
});

test('lp takes d up to its own largest; the message names d and the range', () => {
  const lpMax = schema.constructions.find((c) => c.name === 'lp').dMax;
  const r = parseHash(table, `#v=2&construction=lp&d=${lpMax + 1}`, opts());
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0], new RegExp(`^d must be an integer from 1 to ${lpMax}\\b`));
  assert.equal(parseHash(table, `#v=2&construction=jl&d=${lpMax + 1}`, opts()).errors.length, 0);
});

test('a link without v is version 0: missing options take the frozen v0 defaults', () => {
  const r = parseHash(table, '#help=0&row=3', opts());
  assert.equal(r.version, 0);
  assert.deepEqual(r.errors, []);
  // What v0 links meant when they were written (the explorer then: L 256, random k = 2, d 1024).
  assert.equal(r.state.L, 256);
  assert.equal(r.state.k, 2);
  assert.equal(r.state.d, 1024);
  assert.equal(r.state.eps, 1);
  for (const [k, v] of Object.entries(schema.linkDefaults['0'].explorer)) assert.equal(r.state[k], v, k);
});

// A deep copy of the schema whose current defaults (and the v=1 fill-ins) changed.
function schemaWithNewDefaults() {
  const s = structuredClone(schema);
  Object.assign(s.contexts.explorer.defaults, { L: 128, d: 512, k: 3, eps: 0.5, tau: 0.2, seed: 5, weights: 'random', pattern: 'window' });
  Object.assign(s.linkDefaults['1'].explorer, { L: 64, d: 256, k: 4, eps: 2, seed: 6 });
  return s;
}

test('new current defaults do not change what an existing link computes', () => {
  const st = { ...defaults(table), pattern: 'random', L: 300, k: 3, weights: 'random', wMin: 0.2, d: 2048, seed: 42 };
  const v1 = toHash(table, st, opts());
  const before = constructOptions(schema, parseHash(table, v1, opts()).state, null);
  const changed = schemaWithNewDefaults();
  const table2 = explorerTable(changed);
  assert.equal(table2.d.def, 512);  // the table did pick the new defaults up
  const r = parseHash(table2, v1, { page: 'explorer', schema: changed });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(constructOptions(changed, r.state, null), before);
  // A v0 link still reads the v0 defaults, not the new current ones.
  const v0 = parseHash(table2, '#L=64', { page: 'explorer', schema: changed }).state;
  assert.deepEqual([v0.L, v0.d, v0.k, v0.eps, v0.seed, v0.pattern], [64, 1024, 2, 1, 1, 'random']);
  // An empty hash is no link: the page opens with the current defaults.
  assert.equal(parseHash(table2, '', { page: 'explorer', schema: changed }).state.d, 512);
});

test('a link version this page does not know is refused as a whole', () => {
  for (const v of ['4', '-1', 'x', '1.0', '']) {
    const r = parseHash(table, `#v=${v}&L=64`, opts());
    assert.equal(r.version, null, v);
    assert.deepEqual(r.errors, [`v must be a link version from 0 to 3 (got "${v}"); none of the other settings were read`]);
    assert.deepEqual(r.state, defaults(table));
    assert.deepEqual(r.read, new Set(), 'L = 64 is not read');
    assert.equal(r.refused, true);
  }
});

test('read holds the fields whose values were read: not an invalid one, not one a version cannot name', async () => {
  const r = parseHash(table, '#v=2&L=64&d=abc&k=2', opts());
  assert.deepEqual(r.read, new Set(['L', 'k']), 'd was invalid: its default stands, as if left out');
  assert.equal(r.state.d, defaults(table).d);
  assert.deepEqual(parseHash(table, '#L=64&bogus=1', opts()).read, new Set(['L']), 'unknown keys are not fields');
  const { load } = await import('../../web/lib/attnx.js');
  const { explorerTable } = await import('../../web/explorer/state.js');
  const schema = (await load({ flavour: 'simd' })).schema();
  const t = explorerTable(schema);
  const v1 = parseHash(t, '#v=1&L=64&construction=lp', { page: 'explorer', schema });
  assert.ok(v1.read.has('L') && !v1.read.has('construction'), 'a version-1 link cannot name construction');
});

test('an element-id hash (skip link, anchor) is no link and no error', () => {
  assert.equal(isElementHash('#figures'), true);
  assert.equal(isElementHash('#L=64'), false);
  assert.equal(isElementHash(''), false);
  const r = parseHash(table, '#figures', opts());
  assert.deepEqual(r, { state: defaults(table), errors: [], version: null, read: new Set(), refused: false });
});

test('unknown, prototype and repeated keys are reported; values are checked in order', () => {
  const r = parseHash(table, '#__proto__=1&constructor=2&toString=3&L=64&L=128&bogus=1&pattern=window&w=64', opts());
  assert.deepEqual(r.errors, [
    'unknown setting "__proto__" in the link',
    'unknown setting "constructor" in the link',
    'unknown setting "toString" in the link',
    'setting "L" appears 2 times in the link; the first value is used',
    'unknown setting "bogus" in the link',
    'w must be an integer from 0 to 63 (got "64")',
  ]);
  assert.equal(r.state.L, 64);
  assert.equal(r.state.w, 1);
  assert.equal(Object.hasOwn(r.state, 'constructor'), false);
  assert.equal({}.polluted, undefined);
});

test('parseField: messages name the field and its range; types', () => {
  assert.deepEqual(parseField('tau', table.tau, '1.5'), { error: 'tau must be a number in (0, 1) (got "1.5")' });
  assert.deepEqual(parseField('eps', table.eps, '100'), { value: 100 });
  assert.match(parseField('eps', table.eps, '0').error, /^eps must be a number in \[1e-06, 100\]/);
  assert.deepEqual(parseField('L', table.L, '4097'), { error: 'L must be an integer from 2 to 4096 (got "4097")' });
  assert.match(parseField('seed', table.seed, '9007199254740992').error, /seed must be an integer from 0 to 9007199254740991/);
  assert.deepEqual(parseField('help', table.help, '0'), { value: false });
  assert.match(parseField('pattern', table.pattern, 'nope').error, /^pattern must be one of random, permutation, /);
  const list = { type: 'intList', min: 2, max: 100, maxCount: 3, def: '2', grammar: numberGrammar(schema) };
  assert.deepEqual(parseField('Ls', list, '16,32,64'), { value: '16,32,64' });
  assert.equal(parseField('Ls', list, '16, 32,64').error, 'Ls must be comma-separated integers from 2 to 100, at most 3 of them (got "16, 32,64"; numbers are written without spaces)');
  assert.equal(parseField('Ls', { ...list, grammar: undefined }, '16').error, 'Ls has no number grammar (its table was not built from the schema)');
  assert.equal(parseField('Ls', list, '16,32,64,80').error, 'Ls must be comma-separated integers from 2 to 100, at most 3 of them (got "16,32,64,80")');
  assert.match(parseField('Ls', list, '16,,32').error, /^Ls must be/);
  assert.equal(describeRange(list), 'comma-separated integers from 2 to 100, at most 3 of them');
});

test('without a schema: short links of the values that differ from their defaults (no v)', () => {
  const t = { a: { type: 'int', min: 0, max: 9, def: 1, grammar: numberGrammar(schema) }, b: { type: 'enum', values: ['x', 'y'], def: 'x' } };
  assert.equal(toHash(t, { a: 1, b: 'x' }), '');
  assert.equal(toHash(t, { a: 3, b: 'x' }), '#a=3');
  assert.deepEqual(parseHash(t, '#a=3&v=1').errors, ['unknown setting "v" in the link']);
});

// Issue 27.7: a link names only the settings its version has, and v follows the integer grammar.
test('v=02 is refused; a version-1 link cannot set construction, a version-0 link not projection', async () => {
  const { load } = await import('../../web/lib/attnx.js');
  const { explorerTable } = await import('../../web/explorer/state.js');
  const schema = (await load({ flavour: 'simd' })).schema();
  const table = explorerTable(schema);
  const opts = { page: 'explorer', schema };
  assert.match(parseHash(table, '#v=02&L=64', opts).errors[0], /^v must be a link version from 0 to \d+ \(got "02"\); none of the other settings were read$/);
  const v1 = parseHash(table, '#v=1&L=64&construction=lp&d=16', opts);
  assert.deepEqual(v1.errors, ['construction cannot be set by a version-1 link (links name it from a later version); its default is used']);
  assert.equal(v1.state.construction, table.construction.def);
  assert.equal(v1.state.d, 16);
  const v0 = parseHash(table, '#projection=rademacher', opts);
  assert.match(v0.errors[0], /^projection cannot be set by a version-0 link/);
  const v2 = parseHash(table, '#v=2&construction=lp&d=16', opts);
  assert.deepEqual(v2.errors, []);
  assert.deepEqual(parseHash(table, '#v=1&construction=lp', { ...opts, allowLater: true }).errors, []);
});
