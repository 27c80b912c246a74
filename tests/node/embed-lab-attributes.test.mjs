// web/embed/attributes.js readLabAttributes: an <attnx-lab>'s attributes are the lab's link
// (web/lab/link.js readLink: the same names lower-cased, presets, the same validation and
// messages) plus figures and theme; and web/lab/skeleton.js's figure names match them.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { labTable } from '../../web/lab/settings.js';
import { readLink } from '../../web/lab/link.js';
import { readLabAttributes, LAB_FIGURE_NAMES, LAB_DEFAULT_FIGURES } from '../../web/embed/attributes.js';
import { FIGURE_PARTS } from '../../web/lab/skeleton.js';

let schema, table;
const read = (attrs) => readLabAttributes(Object.entries(attrs), { table, schema });
// A link's state as an element shows it: always embedded, light unless its theme says otherwise.
const asElement = (st, theme = 'light') => ({ ...st, embed: true, theme });

before(async () => {
  schema = (await load({ flavour: 'simd' })).schema();
  table = labTable(schema);
});

test('attributes read as the same state as the lab link with the same settings (names lower-cased)', () => {
  const link = '#v=1&Ls=16,32,64&pattern=window&w=2&weights=random&wMin=0.25&eps=0.5&trials=3&dmax=2048&seed=7&autorun=1';
  const fromLink = readLink(schema, table, link);
  const r = read({ ls: '16,32,64', pattern: 'window', w: '2', weights: 'random', wmin: '0.25', eps: '0.5', trials: '3', dmax: '2048', seed: '7', autorun: '1' });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.state, asElement(fromLink.state));
  assert.equal(r.state.wMin, 0.25);
  assert.equal(r.version, 1);
});

test('a preset fills what the attributes leave out, as in a link', () => {
  const r = read({ preset: 'paper', trials: '2' });
  const fromLink = readLink(schema, table, '#v=1&preset=paper&trials=2');
  assert.deepEqual(r.state, asElement(fromLink.state));
  assert.equal(r.state.Ls, schema.presets.paper.values.Ls);
  assert.equal(r.state.trials, 2);
});

test('without v the attributes read as version 1 forever; a bad v is named and version 1 used', () => {
  assert.deepEqual(read({}).state, asElement(readLink(schema, table, '#v=1').state));
  const bad = read({ v: '99', trials: '4' });
  assert.match(bad.errors[0], /^v must be a link version from 0 to \d+ \(got "99"\); none of the other settings were read$/);
  assert.deepEqual(bad.state, asElement(readLink(schema, table, '#v=1').state));
});

test('bad values get the link\'s messages naming the field and its range; unknown attributes are named', () => {
  const r = read({ trials: '0', ls: '64,32', foo: '1', embed: '1', id: 'x', 'data-x': '1', 'aria-label': 'lab' });
  const fromLink = readLink(schema, table, '#v=1&trials=0&Ls=64,32');
  assert.deepEqual(r.errors.slice(2), fromLink.errors);
  assert.deepEqual(r.errors.slice(0, 2), ['unknown attribute "foo" on <attnx-lab>', 'unknown attribute "embed" on <attnx-lab>']);
  assert.ok(r.errors.some((e) => /^trials must be an integer from 1 to \d+ \(got "0"\)$/.test(e)), r.errors.join('; '));
  assert.ok(r.errors.some((e) => /^Ls must be strictly increasing/.test(e)), r.errors.join('; '));
  assert.equal(r.state.trials, table.trials.def);
});

test('controls and autorun are the link\'s 0/1 fields; bare they mean 1', () => {
  assert.equal(read({}).state.controls, false);
  assert.equal(read({ controls: '' }).state.controls, true);
  assert.equal(read({ autorun: '' }).state.autorun, true);
  assert.equal(read({ controls: '0' }).state.controls, false);
  assert.match(read({ controls: 'yes' }).errors[0], /^controls must be 0 or 1 \(got "yes"\)$/);
});

test('figures: the lab\'s parts by name, validated with the allowed names; theme: light by default', () => {
  assert.deepEqual(read({}).figures, LAB_DEFAULT_FIGURES);
  assert.deepEqual(read({ figures: 'Table, d-vs-l,table' }).figures, ['table', 'd-vs-L']);
  assert.deepEqual(read({ figures: 'compare' }).figures, ['compare'], 'the comparison of constructions on request');
  assert.ok(!LAB_DEFAULT_FIGURES.includes('compare'), 'not by default');
  const bad = read({ figures: 'plots', theme: 'neon' });
  assert.deepEqual(bad.errors, [
    'figures must be a comma-separated list of d-vs-L, paper, success-vs-d, compare, frontier, table (got "plots")',
    'theme must be one of light, dark, auto (got "neon")',
  ]);
  assert.deepEqual(bad.figures, LAB_DEFAULT_FIGURES);
  assert.equal(bad.theme, 'light');
  assert.equal(read({ theme: 'dark' }).state.theme, 'dark');
  assert.deepEqual(Object.keys(FIGURE_PARTS), LAB_FIGURE_NAMES, 'every name has its part in the lab\'s markup');
});

// Issue 27.6: one long attribute is refused alone, named, and the others still apply.
test('a 10 KB trials attribute is named and refused alone; ls and the others still apply', async () => {
  const { load } = await import('../../web/lib/attnx.js');
  const { labTable } = await import('../../web/lab/settings.js');
  const { readLabAttributes } = await import('../../web/embed/attributes.js');
  const schema = (await load({ flavour: 'simd' })).schema();
  const table = labTable(schema);
  const r = readLabAttributes([['trials', '7'.repeat(10000)], ['ls', '16,32'], ['seed', '5']], { table, schema });
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0], /^trials is 10000 characters long; its values have at most \d+ \(got "7{24}…"\)$/);
  assert.equal(String(r.state.Ls), '16,32');
  assert.equal(r.state.seed, 5);
  assert.equal(r.state.trials, table.trials.def);
});
