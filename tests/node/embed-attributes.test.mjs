// web/embed/attributes.js: an <attnx-explorer>'s attributes are the explorer's link schema (same
// names lower-cased, same validation, same messages) plus controls, figures and theme; and the
// shadow root's style sheet rewriting of scripts/build-embed.mjs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { explorerTable } from '../../web/explorer/state.js';
import { parseHash } from '../../web/common/hashstate.js';
import { readAttributes, attributeFields, controlNames, DEFAULT_FIGURES } from '../../web/embed/attributes.js';
import { shadowCss } from '../../scripts/build-embed.mjs';

let schema, table;
const read = (attrs) => readAttributes(Object.entries(attrs), { table, schema });

before(async () => {
  const api = await load({ flavour: 'simd' });
  schema = api.schema();
  table = explorerTable(schema);
});

test('attributes read as the same state as the link with the same settings', () => {
  const link = '#v=1&pattern=dilated&L=96&w=2&r=3&weights=random&wMin=0.25&d=300&eps=0.5&tau=0.05&seed=9&scale=lin&row=7';
  const fromLink = parseHash(table, link, { page: 'explorer', schema });
  const r = read({ pattern: 'dilated', l: '96', w: '2', r: '3', weights: 'random', wmin: '0.25', d: '300', eps: '0.5', tau: '0.05', seed: '9', scale: 'lin', row: '7' });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.state, fromLink.state);
  assert.equal(r.version, 1);
  assert.equal(r.state.wMin, 0.25);
});

test('construction attributes read as the link fields: lp with its d, lp\'s largest d named', () => {
  const r = read({ construction: 'lp', d: '20', l: '64' });
  assert.deepEqual(r.errors, []);
  assert.deepEqual([r.state.construction, r.state.d, r.state.projection], ['lp', 20, 'gaussian']);
  const lpMax = schema.constructions.find((c) => c.name === 'lp').dMax;
  const over = read({ construction: 'lp', d: String(lpMax + 1) });
  assert.match(over.errors[0], new RegExp(`^d must be an integer from 1 to ${lpMax}`));
  // The refused d is not among the settings read, so the element takes lp's own d (readConstruction).
  assert.deepEqual([over.read.has('construction'), over.read.has('d')], [true, false]);
  assert.match(read({ construction: 'pca' }).errors[0], /^construction must be one of jl, lp, moment/);
});

test('an element without v reads as version 1 forever; v=0 gives the frozen v0 defaults', () => {
  const none = read({});
  const v1 = parseHash(table, '#v=1', { page: 'explorer', schema }).state;
  const v0 = parseHash(table, '#L=64', { page: 'explorer', schema }).state;
  assert.deepEqual(none.state, v1);
  assert.equal(read({ v: '0', l: '64' }).state.d, v0.d);
  assert.match(read({ v: '99' }).errors[0], /v/);
});

test('bad values get the link parser\'s message naming the field and its range, and the default', () => {
  const r = read({ d: '0', l: '64' });
  const fromLink = parseHash(table, '#v=1&d=0&L=64', { page: 'explorer', schema });
  assert.deepEqual(r.errors, fromLink.errors);
  assert.match(r.errors[0], /^d must be an integer from 1 to \d+ \(got "0"\)$/);
  assert.equal(r.state.d, fromLink.state.d);
});

test('unknown attributes are named; HTML global, data- and aria- attributes are not settings', () => {
  const r = read({ id: 'x', class: 'c', style: '', 'data-x': '1', 'aria-label': 'A', foo: '1', embed: '1' });
  assert.deepEqual(r.errors, ['unknown attribute "foo" on <attnx-explorer>', 'unknown attribute "embed" on <attnx-explorer>']);
});

test('controls, figures and theme are validated lists with their allowed values in the message', () => {
  const ok = read({ controls: 'D, l,d', figures: 'm,A,metrics', theme: 'dark' });
  assert.deepEqual([...ok.controls], ['d', 'L']);
  assert.deepEqual(ok.figures, ['M', 'A', 'metrics']);
  assert.equal(ok.theme, 'dark');
  const bad = read({ controls: 'd,speed', figures: 'Q', theme: 'neon' });
  assert.equal(bad.errors.length, 3);
  assert.match(bad.errors[0], /^controls must be a comma-separated list of pattern, L, .*d.* \(got "speed"\)$/);
  assert.match(bad.errors[1], /^figures must be a comma-separated list of A, M, err, zero, X, metrics, inspector \(got "Q"\)$/);
  assert.equal(bad.errors[2], 'theme must be one of light, dark, auto (got "neon")');
  assert.deepEqual(bad.figures, DEFAULT_FIGURES);
  assert.equal(bad.theme, 'light');
  assert.equal(bad.controls.size, 0);
});

test('every link field of the explorer is an attribute (lower-cased), page-only fields are not', () => {
  const fields = attributeFields(table);
  for (const name of schema.linkCompute.explorer) assert.equal(fields.get(name.toLowerCase()), name);
  assert.ok(!fields.has('help') && !fields.has('embed'));
  assert.ok(controlNames(table).includes('d') && !controlNames(table).includes('cp'));
});

test('page style sheets are rewritten for a shadow root', () => {
  assert.equal(shadowCss(':root[data-theme="dark"] { color-scheme: dark; }'), ':host([data-theme="dark"]) { color-scheme: dark; }');
  const css = shadowCss(`:root { --bg: #fff; }
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #000;
  }
}
html { a: 1; }
body { margin: 0; }
body.embed .figs, body:not(.embed) .x { gap: 1px; }
@media (min-width: 640px) { body.embed .figs { b: 2; } }
.tbody { c: 3; }`);
  assert.match(css, /^:host \{ --bg: #fff; \}/);
  assert.match(css, /:host\(\[theme="dark"\]\) \{\s*--bg: #000;\s*\}/);
  assert.match(css, /@media \(prefers-color-scheme: dark\) \{\s*:host\(\[theme="auto"\]\) \{\s*--bg: #000;/);
  assert.match(css, /\n\.ax \{ a: 1; \}\n\.ax \{ margin: 0; \}/);
  assert.match(css, /\.ax\.embed \.figs, \.ax:not\(\.embed\) \.x/);
  assert.match(css, /@container ax \(min-width: 640px\) \{ \.ax\.embed \.figs/);
  assert.match(css, /\.tbody \{ c: 3; \}/);
  assert.ok(!/:root|body|html/.test(css.replace('.tbody', '')));
});
