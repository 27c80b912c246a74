// The explorer's zoom window (web/explorer/view-window.js): the link field view=i0,i1,j0,j1 read as
// the core reads it (viewWindow() of the module is the reference: the same texts accepted, the same
// messages), the state table's reading of it in links, attributes and story steps, and the window
// arithmetic of zooming, panning and moving to a row, against hand-worked windows.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { readView, windowOf, windowText, clampView, zoomWindow, panWindow, followCell, windowAtRow, viewMinSpan } from '../../web/explorer/view-window.js';
import { explorerTable, clampToRanges } from '../../web/explorer/state.js';
import { numberGrammar } from '../../web/common/schema-table.js';
import { parseHash, toHash } from '../../web/common/hashstate.js';
import { readAttributes } from '../../web/embed/attributes.js';
import { parseStory } from '../../web/explorer/story.js';
import { requireBuilds } from './helpers.mjs';

let api, schema, grammar, table;
before(async () => {
  requireBuilds();
  api = await load();
  schema = api.schema();
  grammar = numberGrammar(schema);
  table = explorerTable(schema);
});

// The core's answer for text at L: { value } (canonical, '' for the whole matrix) or { error }.
function core(text, L) {
  try {
    const w = api.viewWindow(text, L);
    return { value: w.full ? '' : `${w.i0},${w.i1},${w.j0},${w.j1}` };
  } catch (e) {
    assert.equal(e.field, 'view');
    return { error: e.message };
  }
}

test('the page reads every view text as the core does: the same windows, the same messages', () => {
  assert.equal(schema.pageLimits.viewMinSpan, 4);
  const texts = ['8,40,0,32', '0,64,0,64', '40,8,0,32', '0,3,0,64', '0,4,0,4', '60,64,60,64', '0,65,0,64', '-4,0,0,64',
    '0,64,0', '0,64,0,64,1', '', ',', '0,064,0,64', '0, 64,0,64', '+1,5,0,4', '1.5,8,0,8', '0,-0,0,4', 'a,b,c,d',
    '0,99999999999999999999,0,4', '0,9007199254740993,0,4', '1,5,1,5 ', '\u0661,5,1,5'];
  // and a seeded sweep of small windows around the edges of L = 2, 3, 5, 64
  let x = 7;
  const rnd = (n) => { x = (x * 48271) % 2147483647; return x % n; };
  const axis = () => {
    const a = rnd(68) - 2;
    return [a, a + rnd(40) + 1];
  };
  for (let n = 0; n < 400; n++) texts.push([...axis(), ...axis()].join(','));
  let refused = 0;
  for (const L of [2, 3, 5, 64]) {
    for (const t of texts) {
      const want = core(t, L), got = readView(t, L, schema, grammar);
      assert.deepEqual(got, want, `view "${t}" at L = ${L}`);
      if (want.error) refused++;
    }
  }
  assert.ok(refused > 400 && refused < texts.length * 4 - 100, `both kinds were tried (${refused} of ${texts.length * 4} refused)`);
  assert.equal(readView('0,3,0,3', 3, schema, grammar).value, '', 'at L = 3 only the whole matrix is a window');
  assert.match(readView('40,8,0,32', 64, schema, grammar).error,
    /^view must be i0,i1,j0,j1 with 0 <= i0 < i1 <= 64 and 0 <= j0 < j1 <= 64, at least 4 rows and 4 columns \(got "40,8,0,32"\)$/);
});

test('a link or an element names a bad window: the message says why, and the whole matrix is shown', () => {
  const ok = parseHash(table, '#v=2&L=64&view=8,40,0,32', { page: 'explorer', schema });
  assert.deepEqual(ok.errors, []);
  assert.equal(ok.state.view, '8,40,0,32');
  assert.match(toHash(table, ok.state, { page: 'explorer', schema }), /&view=8,40,0,32(&|$)/);
  const full = parseHash(table, '#v=2&L=64&view=0,64,0,64', { page: 'explorer', schema });
  assert.equal(full.state.view, '');
  assert.doesNotMatch(toHash(table, full.state, { page: 'explorer', schema }), /view=/, 'the whole matrix is left out of links');
  const bad = parseHash(table, '#v=2&L=64&view=0,80,0,64', { page: 'explorer', schema });
  assert.equal(bad.state.view, '');
  assert.deepEqual(bad.errors, ['view must be i0,i1,j0,j1 with 0 <= i0 < i1 <= 64 and 0 <= j0 < j1 <= 64, at least 4 rows and 4 columns (got "0,80,0,64")']);
  // checked against the link's own L, whatever the default
  assert.equal(parseHash(table, '#v=2&L=1024&view=900,1000,0,100', { page: 'explorer', schema }).state.view, '900,1000,0,100');
  const el = readAttributes([['pattern', 'window'], ['l', '32'], ['view', '0,40,0,8']], { table, schema });
  assert.equal(el.state.view, '');
  assert.ok(el.errors.some((e) => e.startsWith('view must be i0,i1,j0,j1 with 0 <= i0 < i1 <= 32')), el.errors.join('; '));
  assert.equal(readAttributes([['l', '32'], ['view', '4,12,4,12']], { table, schema }).state.view, '4,12,4,12');
});

test('a story step may name a window, checked against the step\'s own L', () => {
  const steps = (view, L) => [{ title: 'Zoomed', text: 'The failing rows: {failing_rows}.', state: { pattern: 'window', L, w: 1, d: 512, view } }];
  const good = parseStory('z', steps('32,48,30,46', 64), table);
  assert.equal(good.story.steps[0].state.view, '32,48,30,46');
  const bad = parseStory('z', steps('32,48,30,46', 40), table);
  assert.deepEqual(bad.errors, ['story "z", step 1 ("Zoomed"): view must be i0,i1,j0,j1 with 0 <= i0 < i1 <= 40 and 0 <= j0 < j1 <= 40, at least 4 rows and 4 columns (got "32,48,30,46")']);
});

test('a new L keeps the window only if it is one of the new L', () => {
  assert.equal(clampView('8,40,0,32', 40, 4), '8,40,0,32');
  assert.equal(clampView('8,40,0,32', 39, 4), '');
  assert.equal(clampView('0,32,0,32', 32, 4), '', 'the whole matrix of the new L');
  const st = clampToRanges(table, schema, { ...parseHash(table, '#v=2&pattern=window&L=64&w=1&view=8,40,0,32', { page: 'explorer', schema }).state, L: 16 });
  assert.equal(st.view, '');
});

test('zooming keeps the cell under the pointer where it was, within [min span, L]', () => {
  const L = 64, m = viewMinSpan(schema, L);
  const all = windowOf('', L);
  assert.deepEqual(all, { i0: 0, i1: 64, j0: 0, j1: 64 });
  // twice as close about cell (16, 48): the cell stays a quarter of the way down, three quarters across
  assert.deepEqual(zoomWindow(all, L, 2, 16, 48, m), { i0: 8, i1: 40, j0: 24, j1: 56 });
  // about the middle
  assert.deepEqual(zoomWindow(all, L, 2, 31.5, 31.5, m), { i0: 16, i1: 48, j0: 16, j1: 48 });
  // never below the smallest span, never past the edges
  assert.deepEqual(zoomWindow({ i0: 0, i1: 6, j0: 0, j1: 6 }, L, 4, 0, 0, m), { i0: 0, i1: 4, j0: 0, j1: 4 });
  assert.deepEqual(zoomWindow({ i0: 50, i1: 64, j0: 50, j1: 64 }, L, 0.5, 63, 63, m), { i0: 36, i1: 64, j0: 36, j1: 64 });
  assert.deepEqual(zoomWindow({ i0: 8, i1: 40, j0: 8, j1: 40 }, L, 0.25, 20, 20, m), all);
  // a small factor still moves by a cell
  assert.deepEqual(zoomWindow({ i0: 0, i1: 10, j0: 0, j1: 10 }, L, 1.01, 0, 0, m), { i0: 0, i1: 9, j0: 0, j1: 9 });
  const at4 = { i0: 0, i1: 4, j0: 0, j1: 4 };
  assert.equal(zoomWindow(at4, L, 2, 1, 1, m), at4, 'at the smallest span nothing changes');
  assert.equal(windowText(zoomWindow(all, L, 0.5, 3, 3, m), L), '', 'out from the whole matrix: still the whole matrix');
});

test('panning and following the cursor stay inside the matrix; a failing row gets a window around its support', () => {
  const L = 64, w = { i0: 8, i1: 40, j0: 24, j1: 56 };
  assert.deepEqual(panWindow(w, L, 4, -30), { i0: 12, i1: 44, j0: 0, j1: 32 });
  assert.deepEqual(panWindow(w, L, 100, 100), { i0: 32, i1: 64, j0: 32, j1: 64 });
  assert.deepEqual(panWindow(w, L, 1.6, -0.4), { i0: 10, i1: 42, j0: 24, j1: 56 });
  assert.equal(followCell(w, L, 20, 30), w);
  assert.deepEqual(followCell(w, L, 40, 23), { i0: 9, i1: 41, j0: 23, j1: 55 });
  // row 42 of a window pattern (support 41..43) in a 32 x 32 window: the row and its support in the middle
  assert.deepEqual(windowAtRow(L, 42, 41, 44, 32), { i0: 27, i1: 59, j0: 27, j1: 59 });
  assert.deepEqual(windowAtRow(L, 1, 0, 3, 32), { i0: 0, i1: 32, j0: 0, j1: 32 });
  assert.deepEqual(windowAtRow(L, 63, 62, 64, 16, 8), { i0: 48, i1: 64, j0: 56, j1: 64 });
  // a support wider than the window starts at its first column
  assert.deepEqual(windowAtRow(L, 10, 5, 60, 16), { i0: 3, i1: 19, j0: 5, j1: 21 });
});
