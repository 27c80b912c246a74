// attnx lab: SPEC §9 beside the comparison (web/lab/compare.js, views/compare-summary.js,
// compare-files.js) against the real module and hand formulas: D_Λ of jl and lp at the median
// logit scale of their trials (ln n / ln(1 + 2Λ/ln(1/τ))), moment's at its X's; the counting
// floors log2 C(L, 2) and log2(L!)/(2L); every X's (D, w); the CSV and JSON hold them unrounded.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { defaults } from '../../web/common/hashstate.js';
import { labTable } from '../../web/lab/settings.js';
import { runCompare } from '../../web/lab/compare.js';
import { floorSeries, dStarSeries, dwSeries, bitsFloors, dwCells } from '../../web/lab/views/compare-summary.js';
import { compareCsv, compareRecord, COMPARE_COLUMNS } from '../../web/lab/compare-files.js';
import { floorLabels } from '../../web/lab/views/plot-compare-floors.js';
import { corePool } from './lab-pool.mjs';
import { fmt } from '../../web/explorer/format.js';

let core, api, schema, out, st;
before(async () => {
  core = await corePool();
  api = core.api;
  schema = api.schema();
  st = { ...defaults(labTable(schema)), Ls: '16,32', trials: 2, seed: 5 };
  out = await runCompare(core, { core: api, schema, st });
});

const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const packing = (scale, n, tau) => Math.log(n) / Math.log(1 + (2 * scale) / Math.log(1 / tau));
const log2Factorial = (L) => { let s = 0; for (let i = 2; i <= L; i++) s += Math.log2(i); return s; };

test('D_Λ per construction: jl and lp at the median Λ of their trials, moment at its own', () => {
  const floors = floorSeries(out.rows);
  for (const name of ['jl', 'lp']) {
    assert.deepEqual(floors[name].map((p) => p.L), [16, 32]);
    for (const [i, row] of out.rows.entries()) {
      const r = api.sweepPoint({ pattern: st.pattern, k: st.k, weights: st.weights, eps: st.eps, tau: st.tau, seed: st.seed, L: row.L, trials: 2, construction: name,
        ...(name === 'lp' ? { step: schema.constructions[1].searchStep, dmax: schema.constructions[1].dMax, box: st.box } : { step: st.step, dmax: st.dmax }) });
      const scales = r.logitScales.filter((v) => v !== null).sort((a, b) => a - b);
      const median = scales.length % 2 ? scales[(scales.length - 1) / 2] : (scales[scales.length / 2 - 1] + scales[scales.length / 2]) / 2;
      close(floors[name][i].scale, median, `${name} Λ at L = ${row.L}`);
      close(floors[name][i].value, packing(median, r.columnSupports, st.tau), `${name} D_Λ at L = ${row.L}`);
    }
  }
  for (const [i, row] of out.rows.entries()) {
    const m = api.construct({ pattern: st.pattern, k: st.k, weights: st.weights, eps: st.eps, tau: st.tau, seed: st.seed, L: row.L, construction: 'moment', trial: 0 });
    close(floors.moment[i].value, packing(m.bounds.logitScale, m.bounds.columnSupports, st.tau), `moment D_Λ at L = ${row.L}`);
  }
  assert.deepEqual(dStarSeries(out.rows).map((p) => p.value), out.rows.map((r) => r.jl.dStar));
  const labels = floorLabels(floors, dStarSeries(out.rows));
  assert.equal(labels.jl, `jl: D_Λ, bounded logits Λ ≈ ${fmt(floors.jl[1].scale, 2)}`);
  assert.equal(labels.dStar, 'd*(L) estimate: heuristic (§3.5)');
});

test('the counting floors per L and every X\'s (D, w)', () => {
  const f = bitsFloors(out.rows);
  assert.deepEqual(f.map((x) => x.L), [16, 32]);
  close(f[1].bitsFixedKeys, Math.log2((32 * 31) / 2), 'log2 C(32, 2)');
  close(f[1].bitsFreeKeys, log2Factorial(32) / 64, 'log2(32!)/64');
  close(f[0].bitsFreeKeys, log2Factorial(16) / 32, 'log2(16!)/32');
  const pts = dwSeries(out.rows);
  assert.deepEqual(pts.moment.map((p) => [p.L, p.D, p.w]), out.rows.map((r) => [r.L, 4, r.moment.bounds.bitsPerNumber]));
  // w = bits(X) + sign + exponent bits (SPEC §9.3), from the precision report of the same X.
  for (const r of out.rows) assert.equal(r.moment.bounds.bitsPerNumber, r.moment.precision.bits + 1 + r.moment.precision.exponentBits);
  for (const name of ['jl', 'lp']) assert.deepEqual(pts[name].map((p) => p.D), out.rows.map((r) => r[name].trial0.d));
  assert.equal(dwCells(out.rows)[1][3], `D = 4, w = ${out.rows[1].moment.bounds.bitsPerNumber}`);
});

test('the comparison\'s CSV and JSON hold every drawn number unrounded', () => {
  const lines = compareCsv(out.rows).trim().split('\n').map((l) => l.split(','));
  assert.deepEqual(lines[0], COMPARE_COLUMNS);
  assert.equal(lines.length, 1 + 2 * 3);
  const at = (L, n) => Object.fromEntries(COMPARE_COLUMNS.map((c, i) => [c, lines.find((l) => l[0] === String(L) && l[1] === n)[i]]));
  const r32 = out.rows[1];
  assert.equal(Number(at(32, 'jl').d_lambda), r32.jl.floor.dLambda);
  assert.equal(Number(at(32, 'jl').d), r32.jl.median);
  assert.equal(Number(at(32, 'lp').bits_per_number), r32.lp.trial0.bounds.bitsPerNumber);
  assert.equal(Number(at(32, 'moment').d), 4);
  assert.equal(Number(at(32, 'moment').bits_free_keys), r32.moment.bounds.bitsFreeKeys);
  assert.equal(at(32, 'moment').quantile, '');
  const rec = JSON.parse(JSON.stringify(compareRecord({ settings: st, Ls: out.Ls, rows: out.rows, complete: out.complete })));
  assert.equal(rec.kind, 'attnx-compare');
  assert.equal(rec.rows[1].jl.floor.dLambda, r32.jl.floor.dLambda);
  assert.equal(rec.rows[1].moment.bounds.bitsPerNumber, r32.moment.bounds.bitsPerNumber);
});
