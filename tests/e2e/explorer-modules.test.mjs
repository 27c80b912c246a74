// Unit tests (Node) of the explorer's pure modules: custom-pattern link codec, import parsers,
// range expressions, the state table built from the API's pattern description, raster pooling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CustomPattern } from '../../web/js/custom-pattern.js';
import { parsePattern, toJSON, toCSV } from '../../web/js/custom-io.js';
import { evalRange } from '../../web/js/expr.js';
import { normalisePatterns } from '../../web/js/patterns-info.js';
import { buildTable, constructOptions } from '../../web/js/state.js';
import { parseHash, toHash } from '../../web/common/hashstate.js';
import { poolSparseMax, poolDenseMax, poolGeometry } from '../../web/common/raster.js';
import { VIRIDIS } from '../../web/common/viridis.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function band(L, w) {
  const p = new CustomPattern(L);
  for (let i = 0; i < L; i++) for (let j = Math.max(0, i - w); j <= Math.min(L - 1, i + w); j++) p.rows[i].set(j, 1);
  return p;
}

test('custom pattern link encoding round-trips structure and weights', () => {
  const p = band(64, 1);
  const e = p.encode();
  assert.equal(e.cp, '0.1_-1.0.1*1q_-1.0');
  assert.equal(e.cw, '');
  p.rows[5].set(5, 0.25);
  p.rows[9].set(40, 3e-7);
  const e2 = p.encode();
  const d = CustomPattern.decode(64, e2.cp, e2.cw);
  assert.equal(d.error, undefined);
  assert.deepEqual(d.pattern.encode(), e2);
  assert.equal(d.pattern.rows[5].get(5), 0.25);
  assert.equal(d.pattern.rows[9].get(40), 3e-7);
  // Only URL-safe characters, so URLSearchParams leaves it as is.
  assert.match(e2.cp + e2.cw, /^[0-9a-z._*-]*$/);
});

test('custom pattern link decoding names the problem', () => {
  assert.match(CustomPattern.decode(4, '0*3', '').error, /has 3 rows but L = 4/);
  assert.match(CustomPattern.decode(4, '0*3_5', '').error, /row 3: column 8 is outside 0\.\.3/);
  assert.match(CustomPattern.decode(4, '0_0.0_0*2', '').error, /row 1: column 1 appears twice/);
  assert.match(CustomPattern.decode(4, '0_.0_0*2', '').error, /row 1: cannot read column/);
  assert.match(CustomPattern.decode(4, '0*4', '1_2').error, /cw \(custom weights\): has 2 values but the pattern has 4 nonzeros/);
  assert.match(CustomPattern.decode(4, '0*4', '1_2_x_1').error, /value 3 \("x"\) must be a finite number > 0/);
  assert.match(CustomPattern.decode(40, band(40, 30).encode().cp, '', 100).error, /more than 100 nonzeros/);
});

test('editing keeps every row non-empty; resizing drops and fills', () => {
  const p = CustomPattern.identity(4);
  assert.match(p.set(2, 2, false), /row 2 must keep at least one nonzero/);
  assert.equal(p.set(2, 3, true), null);
  assert.equal(p.set(2, 2, false), null);
  const q = p.resized(3);
  assert.deepEqual([...q.rows[2].keys()], [2]);  // (2, 3) dropped, diagonal refilled
  const t = p.toTriplets();
  assert.deepEqual([...t.rows], [0, 1, 2, 3]);
  assert.deepEqual([...t.cols], [0, 1, 3, 3]);
});

test('import: JSON and CSV, errors name the line', () => {
  const ok = parsePattern('[[0,1,1],[1,0,2]]', 4096);
  assert.equal(ok.pattern.L, 2);
  assert.equal(parsePattern('{"L": 3, "triplets": [[0,0,1],[1,1,1],[2,0,0.5]]}', 4096).pattern.nnz, 3);
  assert.equal(parsePattern('i,j,w\n0,0,1\n1,1,1\n', 4096).pattern.nnz, 2);
  assert.match(parsePattern('[[0,0,1],\n[1,1,1],\n[1,0,"x"]]', 4096).error, /^line 3 \(entry 3\): weight w must be a finite number/);
  assert.match(parsePattern('[[0,0,1],\n[1,1,1],\n[1,0 2]]', 4096).error, /^line 3: expected "," or "\]"/);
  assert.match(parsePattern('[[0,0,1],\n[1,1,1],\n]', 4096).error, /^line 3: trailing comma/);
  assert.match(parsePattern('0,0,1\n1,1\n', 4096).error, /^line 2: expected 3 values/);
  assert.match(parsePattern('0,0,1\n1,-1,1\n', 4096).error, /^line 2: column index j must be an integer ≥ 0/);
  assert.match(parsePattern('0,0,1\n0,0,1\n1,1,1', 4096).error, /^line 2: cell \(0, 0\) appears twice/);
  assert.match(parsePattern('0,0,1\n2,2,1', 4096).error, /row 1 has no positive weight/);
  assert.match(parsePattern('{"L": 5000, "triplets": [[0,0,1]]}', 4096).error, /L must be an integer from 2 to 4096/);
  assert.match(parsePattern('', 4096).error, /nothing to import/);
  const p = band(10, 2);
  p.rows[3].set(4, 0.125);
  assert.deepEqual(parsePattern(toJSON(p), 4096).pattern.encode(), p.encode());
  assert.deepEqual(parsePattern(toCSV(p), 4096).pattern.encode(), p.encode());
});

test('range expressions', () => {
  assert.equal(evalRange('L', 10), 10);
  assert.equal(evalRange('L-1', 10), 9);
  assert.equal(evalRange('floor((L-1)/2)', 10), 4);
  assert.equal(evalRange(7, 10), 7);
  assert.throws(() => evalRange('L;alert(1)', 10), /bad range expression/);
});

test('state table from the API description: dependent ranges, link round trip, options', async (t) => {
  const wasm = join(root, 'web/wasm/attnx_simd.wasm');
  if (!existsSync(wasm) || !existsSync(join(root, 'web/lib/attnx.js'))) return t.skip('WASM module not built');
  const { load } = await import('../../web/lib/attnx.js');
  const api = await load({ flavour: 'simd', wasmBinary: readFileSync(wasm) });
  const info = normalisePatterns(api.patterns());
  assert.ok(info.families.some((f) => f.name === 'custom'));
  assert.equal(info.limits.maxL, 4096);
  const table = buildTable(info);
  let r = parseHash(table, '#pattern=window&L=100&w=99');
  assert.deepEqual(r.errors, []);
  r = parseHash(table, '#pattern=window&L=100&w=100');
  assert.match(r.errors[0], /w must be an integer from 0 to 99/);
  r = parseHash(table, '#pattern=dilated&L=50&w=2&r=3&seed=9&tau=0.2&scale=lin&row=7');
  assert.deepEqual(r.errors, []);
  assert.equal(toHash(table, r.state), '#pattern=dilated&L=50&w=2&r=3&tau=0.2&seed=9&scale=lin&row=7');
  const o = constructOptions(info, r.state, null);
  assert.deepEqual(o, { pattern: 'dilated', L: 50, weights: 'uniform', eps: 1, tau: 0.2, delta: 0.1, d: 1024, seed: 9, w: 2, r: 3 });
  const res = api.construct(o);  // the API accepts exactly what the page sends
  assert.equal(res.L, 50);
  const c = CustomPattern.identity(6);
  const oc = constructOptions(info, { ...parseHash(table, '#pattern=custom&L=6').state }, c);
  assert.equal(api.construct(oc).k, 1);
});

test('raster: max-pooling keeps single nonzeros; viridis LUT', () => {
  assert.deepEqual(poolGeometry(4096, 512), { f: 8, size: 512 });
  assert.deepEqual(poolGeometry(100, 512), { f: 1, size: 100 });
  const s = poolSparseMax(4096, [4095], [17], [0.5], 512, 0);
  assert.equal(s.data[511 * 512 + 2], 0.5);
  const dense = new Float32Array(9 * 9);
  dense[8 * 9 + 8] = 3;
  const d = poolDenseMax(dense, 9, 9, 4, 4);
  assert.equal(d.w, 3);
  assert.equal(d.data[8], 3);
  assert.equal(VIRIDIS.length, 768);
  assert.deepEqual([...VIRIDIS.slice(0, 3)], [68, 1, 84]);
  assert.deepEqual([...VIRIDIS.slice(765)], [253, 231, 37]);
});
