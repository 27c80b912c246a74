// attnx lab: the "dimensions against bits" comparison (web/lab/compare.js) against the real
// module: every number it reports equals a direct call of the API (sweepPoint, construct,
// precision) written out here by hand; lp on its own search grid (the schema's); projection and
// box only where they apply; cancel keeps what arrived; the first failure stops it; the text and
// table cells are the core's numbers.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { defaults } from '../../web/common/hashstate.js';
import { labTable } from '../../web/lab/settings.js';
import { runCompare, rowComplete } from '../../web/lab/compare.js';
import { dimensionCells, bitsCells, dimensionSentence, bitsSentence, bitsSeries } from '../../web/lab/views/compare-summary.js';
import { corePool } from './lab-pool.mjs';
import { fmt } from '../../web/explorer/format.js';

let core, api, schema, lpInfo;
before(async () => {
  core = await corePool();
  api = core.api;
  schema = api.schema();
  lpInfo = schema.constructions.find((c) => c.name === 'lp');
});

// A lab state: the defaults with the given changes.
const stateOf = (changes) => ({ ...defaults(labTable(schema)), ...changes });
const dOrNull = (d) => (d === null || d < 0 ? null : d);
// The options that pick the target (the lab's random k = 2 pattern and tolerances), by hand.
const target = (st, L) => ({ pattern: st.pattern, k: st.k, weights: st.weights, eps: st.eps, tau: st.tau, delta: st.delta, seed: st.seed, L });

// What the comparison must report at length L, from direct API calls.
function expected(st, L) {
  const jl = api.sweepPoint({ ...target(st, L), trials: st.trials, construction: 'jl', projection: st.projection, step: st.step, dmax: st.dmax });
  const lp = api.sweepPoint({ ...target(st, L), trials: st.trials, construction: 'lp', box: st.box, step: lpInfo.searchStep, dmax: lpInfo.dMax });
  const moment = api.construct({ ...target(st, L), construction: 'moment', trial: 0 });
  const bits = (name, r, extra) => {
    const d = dOrNull(r.dMins[0]);
    if (d === null) return { d: null, precision: null, bounds: null };
    const p = api.precision({ ...target(st, L), construction: name, d, trial: 0, ...extra });
    return { d, precision: p.precision, bounds: p.bounds };
  };
  // SPEC §9.2's floor at the median logit scale of the trials, as the sweep files hold it.
  const floor = (r) => {
    const m = api.mergeSweepParts(L, st.trials, st.delta, [{ ...r, firstTrial: 0 }], st.tau);
    return { dLambda: m.d_lambda, logitScale: m.logit_scale, ratio: m.ratio, columnSupports: m.column_supports };
  };
  const part = (r, trial0) => ({ dMins: Array.from(r.dMins, dOrNull), median: r.median, quantile: r.quantile, dStar: r.dStar, floor: floor(r), trial0 });
  return {
    L,
    jl: part(jl, bits('jl', jl, { projection: st.projection })),
    lp: part(lp, bits('lp', lp, { box: st.box })),
    moment: { D: moment.d, precision: moment.precision, bounds: moment.bounds },
  };
}

test('every number of a small comparison equals direct calls of the module API', async () => {
  const st = stateOf({ Ls: '16,32', trials: 2, seed: 5 });
  core.calls.length = 0;
  const seen = [];
  const out = await runCompare(core, { core: core.api, schema, st, onRow: (row) => seen.push(row.L) });
  assert.equal(out.complete, true);
  assert.deepEqual(out.Ls, [16, 32]);
  assert.ok(out.rows.every(rowComplete));
  for (const row of out.rows) assert.deepEqual(row, expected(st, row.L), `L = ${row.L}`);
  // moment's D is 2m = 4 for random k = 2, and the precision call of moment is construct's report.
  for (const row of out.rows) {
    assert.equal(row.moment.D, 4);
    assert.deepEqual(row.moment.precision, api.precision({ ...target(st, row.L), construction: 'moment', trial: 0 }).precision);
  }
  // Calls: lp searched on the schema's grid, never a sweep of moment; rows reported as parts came.
  const sweeps = core.calls.filter(([m]) => m === 'sweepPoint').map(([, o]) => o);
  assert.deepEqual(sweeps.map((o) => o.construction).sort(), ['jl', 'jl', 'lp', 'lp']);
  for (const o of sweeps.filter((x) => x.construction === 'lp')) assert.deepEqual([o.step, o.dmax, o.projection], [lpInfo.searchStep, lpInfo.dMax, undefined]);
  for (const o of sweeps.filter((x) => x.construction === 'jl')) assert.deepEqual([o.step, o.dmax, o.box], [st.step, st.dmax, undefined]);
  assert.equal(seen.length, 2 * 5, 'five parts per length (two sweeps, two trial-0 reports, moment)');
  // The text and tables show those numbers.
  const e32 = expected(st, 32);
  assert.deepEqual(dimensionCells(out.rows)[1].slice(0, 4), ['32', `${e32.jl.median} (${e32.jl.quantile})`, `${e32.lp.median} (${e32.lp.quantile})`, '4']);
  assert.deepEqual(dimensionCells(out.rows)[1].slice(4), [fmt(e32.jl.floor.dLambda), fmt(e32.lp.floor.dLambda), fmt(e32.moment.bounds.dLambda)]);
  const b = bitsCells(out.rows)[1];
  assert.equal(b[1], `${e32.jl.trial0.precision.bits ?? 'n.r.'} (d = ${e32.jl.trial0.d})`);
  assert.equal(b[5], `${e32.moment.precision.bits ?? 'n.r.'} (d = 4)`);
  assert.equal(b[6], `${e32.moment.precision.fp32 ? 'pass' : 'fail'} / ${e32.moment.precision.fp64 ? 'pass' : 'fail'}`);
  assert.match(dimensionSentence(out.rows), new RegExp(`L = 32 the median d_min is ${e32.jl.median} for jl and ${e32.lp.median} for lp; moment has D = 4`));
  assert.match(bitsSentence(out.rows), /at L = 32 bits\(X\) is/);
});

test('projection goes to jl only, box to lp only; a trial 0 without a d gets no report', async () => {
  const st = stateOf({ Ls: '64', trials: 2, seed: 2, construction: 'lp', projection: 'orthogonal', box: 500, step: 16, dmax: 32 });
  core.calls.length = 0;
  const out = await runCompare(core, { core: core.api, schema, st });
  const [row] = out.rows;
  assert.deepEqual(row, expected(st, 64));
  assert.equal(row.jl.dMins[0], null, 'jl does not reach d <= 32 at L = 64');
  assert.deepEqual(row.jl.trial0, { d: null, precision: null, bounds: null });
  const precisionCalls = core.calls.filter(([m]) => m === 'precision').map(([, o]) => o.construction);
  assert.deepEqual(precisionCalls.sort(), ['lp', 'moment'], 'no report for a trial without X');
  assert.equal(bitsSeries(out.rows).jl[0].noX, true);
  assert.equal(bitsCells(out.rows)[0][1], '— (no d)');
});

// The core pool with every task delayed (so it can be cancelled) and optionally one method refused.
function slowPool({ fail = null } = {}) {
  let started = 0;
  return {
    get started() { return started; },
    run(method, opts, { signal, onProgress } = {}) {
      return new Promise((resolve, reject) => {
        if (signal && signal.aborted) { reject(new DOMException('cancelled', 'AbortError')); return; }
        started++;
        const t = setTimeout(() => {
          if (fail && fail(method, opts)) reject(new RangeError(`refused ${method} ${opts.construction}`));
          else core.run(method, opts, { onProgress }).then(resolve, reject);
        }, 15);
        signal?.addEventListener('abort', () => { clearTimeout(t); reject(new DOMException('cancelled', 'AbortError')); }, { once: true });
      });
    },
  };
}

test('cancel keeps the parts that arrived and stops the rest', async () => {
  const st = stateOf({ Ls: '16,32,64', trials: 2, seed: 1 });
  const pool = slowPool();
  const abort = new AbortController();
  let parts = 0;
  const out = await runCompare(pool, { core: core.api, schema, st, signal: abort.signal, onRow: () => { if (++parts === 2) abort.abort(); } });
  assert.equal(out.complete, false);
  assert.equal(out.cancelled, true);
  const arrived = out.rows.flatMap((r) => ['jl', 'lp', 'moment'].filter((n) => r[n]));
  assert.ok(arrived.length >= 2 && arrived.length < 9, `${arrived.length} parts arrived`);
  for (const r of out.rows) {
    const e = expected(st, r.L);
    for (const n of ['jl', 'lp']) if (r[n]) assert.deepEqual(r[n].dMins, e[n].dMins);
    if (r.moment) assert.deepEqual(r.moment, e.moment);
  }
});

test('the first failure rejects the comparison and cancels the others', async () => {
  const st = stateOf({ Ls: '16,32', trials: 1, seed: 1 });
  const pool = slowPool({ fail: (m, o) => m === 'sweepPoint' && o.construction === 'lp' });
  await assert.rejects(runCompare(pool, { core: core.api, schema, st }), /refused sweepPoint lp/);
});

test('progress rises to 1 and counts every task', async () => {
  const st = stateOf({ Ls: '16,32', trials: 1, seed: 1 });
  const seen = [];
  await runCompare(core, { core: core.api, schema, st, onProgress: (p) => seen.push(p) });
  const last = seen[seen.length - 1];
  assert.equal(last.fraction, 1);
  assert.equal(last.total, 2 * 5);
  assert.equal(last.done, last.total);
  assert.equal(last.rowsDone, 2);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].fraction >= seen[i - 1].fraction);
});
