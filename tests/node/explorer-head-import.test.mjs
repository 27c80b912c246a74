// The explorer's imported-head module (web/explorer/head-import.js, issue 24) over the module's
// importHead: files whose bytes this test writes itself (an .npy of [2, 8, 8] float32 and a
// CircuitsVis JSON object) become custom targets whose triplets are the hand-computed top-k,
// threshold and mass rows; the link fields are the core's; the survey grid's order is by the
// chosen column with unknown values last.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { importedTarget, headReadout, sortSurvey, everyHead, tokenText, cellText, fileCall, openRefusal } from '../../web/explorer/head-import.js';
import { requireBuilds } from './helpers.mjs';

const L = 8;
let api;

before(async () => {
  requireBuilds();
  api = await load({ flavour: 'simd' });
});

// Head 0: uniform rows. Head 1: row i puts 0.5 on column i, 0.3 on column (i + 1) mod 8 and
// 0.2 / 6 on each of the other six.
function heads() {
  const v = [];
  for (let h = 0; h < 2; h++) {
    for (let i = 0; i < L; i++) {
      for (let j = 0; j < L; j++) {
        if (h === 0) v.push(1 / L);
        else v.push(j === i ? 0.5 : j === (i + 1) % L ? 0.3 : 0.2 / 6);
      }
    }
  }
  return v;
}

// An .npy file (format 1.0, little-endian float32, C order) of the values with this shape.
function npy(values, shape) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  while ((10 + header.length + 1) % 64 !== 0) header += ' ';
  header += '\n';
  const out = new Uint8Array(10 + header.length + 4 * values.length);
  out.set([0x93, ...Buffer.from('NUMPY'), 1, 0, header.length & 255, header.length >> 8]);
  out.set(Buffer.from(header, 'latin1'), 10);
  new DataView(out.buffer).setUint16(8, header.length, true);
  const f = new DataView(out.buffer, 10 + header.length);
  values.forEach((x, t) => f.setFloat32(4 * t, x, true));
  return out;
}

const TOKENS = ['<img src=x onerror=alert(1)>', 'the', ' cat', 'sat', '\n', 'on', 'a', 'mat'];

function circuitsVis() {
  const v = heads();
  const attention = [0, 1].map((h) => Array.from({ length: L }, (_, i) => v.slice((h * L + i) * L, (h * L + i + 1) * L)));
  return new TextEncoder().encode(JSON.stringify({ tokens: TOKENS, attention }));
}

// The expected triplets of head 1 when each row keeps the columns `keep(i)` (renormalised).
function expected(keep) {
  const f32 = (x) => Math.fround(x);
  const rows = [], cols = [], vals = [];
  for (let i = 0; i < L; i++) {
    const js = keep(i).sort((a, b) => a - b);
    const w = js.map((j) => (j === i ? f32(0.5) : f32(0.3)));
    const sum = w.reduce((a, b) => a + b, 0);
    js.forEach((j, n) => { rows.push(i); cols.push(j); vals.push(w[n] / sum); });
  }
  return { rows, cols, vals };
}

function assertTriplets(pattern, want, what) {
  const t = pattern.toTriplets();
  assert.deepEqual([...t.rows], want.rows, `${what}: rows`);
  assert.deepEqual([...t.cols], want.cols, `${what}: columns`);
  t.vals.forEach((v, n) => assert.ok(Math.abs(v - want.vals[n]) < 1e-6, `${what}: weight ${n} is ${v}, expected ${want.vals[n]}`));
}

const both = (i) => [i, (i + 1) % L];

test('an .npy head made sparse by topk:2, threshold:0.25 and mass:0.7 keeps the two largest entries of each row', () => {
  const bytes = npy(heads(), [2, L, L]);
  for (const rule of ['topk:2', 'threshold:0.25', 'mass:0.7']) {
    const r = api.importHead(bytes, 'two.npy', { head: 1, rule });
    const { pattern, fields } = importedTarget(r);
    assert.equal(pattern.L, L);
    assert.deepEqual(fields, { layer: 0, head: 1, rule, softmax: false });
    assertTriplets(pattern, expected(both), rule);
    assert.equal(r.description.k, 2);
    assert.equal(r.description.nnz, 2 * L);
  }
});

test('mass:0.45 keeps the one entry holding half the mass (weight 1); the uniform head keeps the lower columns', () => {
  const bytes = npy(heads(), [2, L, L]);
  assertTriplets(importedTarget(api.importHead(bytes, 'two.npy', { head: 1, rule: 'mass:0.45' })).pattern, expected((i) => [i]), 'mass:0.45');
  const uniform = importedTarget(api.importHead(bytes, 'two.npy', { head: 0, rule: 'topk:3' })).pattern.toTriplets();
  assert.deepEqual([...uniform.cols], Array.from({ length: L }, () => [0, 1, 2]).flat(), 'ties go to the lower column');
});

test('a CircuitsVis JSON object gives the same target and its tokens as text', () => {
  const r = api.importHead(circuitsVis(), 'cv.json', { head: 1, rule: 'topk:2' });
  assert.equal(r.params.format, 'json');
  assert.deepEqual(r.tokens, TOKENS);
  assertTriplets(importedTarget(r).pattern, expected(both), 'json');
  assert.equal(tokenText(TOKENS[4]), '⏎');
  assert.equal(tokenText(TOKENS[2]), '·cat');
  assert.equal(tokenText(TOKENS[0], 8), '<img sr…');
  assert.equal(cellText(r.tokens, 0, 1, 0.3), 'query 0 "<img src=x onerror=aler…" → key 1 "the": 0.3');
});

test('the readout carries the core\'s numbers; a bad file is refused naming it', () => {
  const r = api.importHead(npy(heads(), [2, L, L]), 'two.npy', { head: 1, rule: 'topk:1' });
  const items = Object.fromEntries(headReadout(r.description).map((it) => [it.key, it.value]));
  assert.equal(items.keptMassMin, r.description.keptMassMin);
  assert.ok(Math.abs(items.keptMassMin - 0.5) < 1e-6, 'topk:1 keeps 0.5 of each row');
  assert.equal(items.archetype, r.description.archetype.code);
  assert.equal(items.headInClass, true);
  const cut = npy(heads(), [2, L, L]).subarray(0, 90).slice().buffer;
  assert.throws(() => api.importHead(cut, 'cut.npy'), (e) => e instanceof RangeError && /^cut\.npy: .*truncated/.test(e.message));
});

test('the page hands the workers the file as a Blob with fixedBudget, and names a refused file once', async () => {
  const blob = new Blob([npy(heads(), [2, L, L])]);
  const call = fileCall({ blob, name: 'two.npy' }, { head: 1 });
  assert.deepEqual(Object.keys(call).sort(), ['file', 'name', 'options']);
  assert.equal(call.file, blob, 'the Blob itself: the page never reads the bytes');
  assert.deepEqual(call.options, { head: 1, fixedBudget: true });
  const r = api.importHead(new Uint8Array(await call.file.arrayBuffer()), call.name, call.options);
  assert.equal(r.description.k, 2);
  let message = '';
  try { api.readAttention(npy(heads(), [2, L, 9]), 'two.npy'); } catch (e) { message = e.message; }
  assert.match(message, /^two\.npy: the attention is not square/);
  assert.equal(openRefusal('two.npy', message), `Could not open two.npy: ${message.slice('two.npy: '.length)}`);
  assert.equal(openRefusal('two.npy', 'maxBytes must be an integer'), 'Could not open two.npy: maxBytes must be an integer');
});

test('over the budget, the API says to raise it, and the page (fixedBudget) names attnx import instead', () => {
  const big = npy(new Array(4 * 256 * 256).fill(1 / 256), [4, 256, 256]);  // 1 MiB of values
  const refusal = (opts) => { try { api.readAttention(big, 'big.npy', opts); } catch (e) { return e.message; } return 'accepted'; };
  const raise = refusal({ maxBytes: 1048576 });
  assert.match(raise, /^big\.npy: reading it needs about 3 MiB, above the memory budget of 1 MiB; .*; raise the budget$/);
  const fixed = refusal({ maxBytes: 1048576, fixedBudget: true });
  assert.match(fixed, /^big\.npy: reading it needs about 3 MiB, above the memory budget of 1 MiB; .*; the page's memory budget is fixed: attnx import on the command line reads it with a larger --max-bytes$/);
  assert.doesNotMatch(fixed, /raise the budget/);
  // A budget of no whole MiB: both sizes in bytes, in the order they are.
  assert.match(refusal({ maxBytes: 2000000 }), /needs about \d+ bytes, above the memory budget of 2000000 bytes/);
});

test('a token of 10 MB is shown as its first characters, and costs what a short one does', () => {
  const huge = 'x'.repeat(10 * 1024 * 1024);
  assert.equal(tokenText(huge), `${'x'.repeat(15)}…`);
  assert.equal(cellText([huge, 'b'], 0, 1, 0.5), `query 0 "${'x'.repeat(23)}…" → key 1 "b": 0.5`);
  assert.equal(tokenText('😀'.repeat(20), 4), '😀😀😀…', 'surrogate pairs are one character');
  assert.equal(tokenText('  ab  '), '··ab··');
  assert.equal(tokenText(`${' '.repeat(20)}x`, 6), '·····…');
});

test('the survey grid sorts by a column, unknown values last, ties by layer and head', () => {
  const row = (layer, head, k, lp) => ({ layer, head, lpDMin: lp, jlDMin: null, description: { k, maxColCount: k, inClass: true, keptMassMin: 1, archetype: { code: 'none' } } });
  const rows = [row(0, 2, 3, 14), row(0, 0, 2, null), row(1, 0, 2, 9), { layer: 0, head: 1 }];
  assert.deepEqual(sortSurvey(rows, 'lpDMin').map((r) => `${r.layer}.${r.head}`), ['1.0', '0.2', '0.0', '0.1']);
  assert.deepEqual(sortSurvey(rows, 'k').map((r) => `${r.layer}.${r.head}`), ['0.0', '1.0', '0.2', '0.1']);
  assert.deepEqual(everyHead({ layers: 2, heads: 2 }), [{ layer: 0, head: 0 }, { layer: 0, head: 1 }, { layer: 1, head: 0 }, { layer: 1, head: 1 }]);
});
