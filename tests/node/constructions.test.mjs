// The three constructions (SPEC §8) in the WebAssembly module, both flavours, against the native
// CLI: the same verdicts, precision reports and minimal d; lp's margins agree in sign; moment's
// D = 2m; jl's precision report on request equals the CLI's --precision; bad options name their field.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadBoth, runCli, assertRel } from './helpers.mjs';

let apis;
before(async () => {
  apis = await loadBoth();
});

const TARGETS = [
  { pattern: 'random', L: 64, k: 2, seed: 3 },
  { pattern: 'window', L: 48, w: 1, seed: 5, weights: 'decaying', decay: 1 },
];

function samePrecision(js, cli, what) {
  assert.equal(js.fp32, cli.fp32, `${what} fp32`);
  assert.equal(js.fp64, cli.fp64, `${what} fp64`);
  assert.equal(js.bits, cli.bits, `${what} bits`);
  assertRel(js.inputNorm, cli.input_norm, 1e-6, `${what} input norm`);
}

test('lp and moment: verdicts, margins and precision reports match the native CLI', () => {
  for (const [flavour, api] of Object.entries(apis)) {
    for (const t of TARGETS) {
      for (const construction of ['lp', 'moment']) {
        const what = `${flavour} ${construction} ${t.pattern}`;
        // moment's D = 2m is fixed by the pattern: a d given with it is refused (SPEC §8.3).
        const opts = construction === 'moment' ? { ...t, construction } : { ...t, d: 20, construction };
        const js = api.construct(opts);
        const cli = runCli('construct', opts);
        assert.equal(js.construction, construction);
        assert.equal(js.metrics.success, cli.metrics.success, `${what} success`);
        samePrecision(js.precision, cli.precision, what);
        if (construction === 'moment') {
          assert.equal(js.d, 2 * js.k, `${what}: D = 2m`);
          assert.equal(js.rowValues.lambda.length, t.L);
          assert.ok(js.rowValues.lambda.every((x) => x >= 0), `${what}: lambda_i >= 0`);
          continue;
        }
        assert.equal(js.report.feasibleRows, cli.lp.feasible_rows, `${what} feasible rows`);
        assertRel(Math.min(...js.rowValues.margin), cli.lp.margin_min, 1e-6, `${what} smallest margin`);
        assert.equal(js.report.tMin, Math.min(...js.rowValues.margin), `${what} tMin is the smallest row margin`);
        assert.equal(js.report.lpConverged, cli.lp.converged, `${what} converged`);
        assert.equal(js.rowValues.margin.length, t.L);
        assert.ok(js.rowValues.iterations.every((n) => n > 0), `${what}: every row solved`);
      }
    }
  }
});

test('jl: the precision report asked for equals the CLI\'s --precision, and construct({precision}) gives it too', () => {
  const api = apis.simd;
  const opts = { pattern: 'random', L: 64, k: 2, seed: 2, d: 600 };
  const cli = runCli('construct', opts, ['--precision']);
  samePrecision(api.precision(opts).precision, cli.precision, 'precision()');
  samePrecision(api.construct({ ...opts, precision: true }).precision, cli.precision, 'construct');
  assert.equal(api.construct(opts).precision, undefined, 'jl without precision: none computed');
});

test('minimal d for lp (step 1) equals the CLI\'s; moment has none and says why', () => {
  const opts = { pattern: 'random', L: 64, k: 2, seed: 4, construction: 'lp', step: 1, dmax: 128 };
  const cli = runCli('mind', opts);
  for (const api of Object.values(apis)) assert.equal(api.minD(opts).dMin, cli.d_min);
  assert.throws(() => apis.simd.minD({ L: 32, construction: 'moment' }), (e) => e.field === 'construction'
    && /^construction moment has one hidden size per pattern, D = 2m/.test(e.message));
});

test('bad construction options are refused with the field and the allowed values', () => {
  const api = apis.simd;
  const refused = (opts, field, re) => assert.throws(() => api.construct({ L: 16, d: 8, ...opts }), (e) => e.field === field && re.test(e.message), JSON.stringify(opts));
  refused({ construction: 'pca' }, 'construction', /^construction must be one of jl, lp, moment, opt \(got "pca"\)$/);
  refused({ projection: 'uniform' }, 'projection', /^projection must be one of gaussian, rademacher/);
  refused({ construction: 'lp', projection: 'orthogonal' }, 'projection', /^projection orthogonal applies only to construction jl/);
  refused({ precision: 'yes' }, 'precision', /^precision must be true or false/);
});

test('a sweep point of moment: d_min is D = 2m where its float32 X passes, as attnx sweep --construction moment', () => {
  const sweep = { pattern: 'random', k: 2, trials: 6, seed: 5, construction: 'moment' };
  for (const L of [16, 32, 64]) {
    const point = apis.simd.sweepPoint({ ...sweep, L });
    const file = runCli('sweep', { ...sweep, Ls: String(L) });
    assert.deepEqual(point.dMins, file.points[0].d_mins, `L = ${L}`);
    assert.ok(point.dMins.every((d) => d === null || d === 4), `L = ${L}: D = 4 or not reached`);
  }
});

test('jl with another projection matches the CLI; an lp sweep point equals attnx sweep --construction lp', () => {
  const api = apis.scalar;
  const opts = { pattern: 'random', L: 64, k: 2, seed: 6, d: 300, projection: 'orthogonal-unit' };
  const js = api.construct(opts), cli = runCli('construct', opts);
  assert.equal(js.params.projection, 'orthogonal-unit');
  for (const m of ['rho', 'zeta']) assertRel(js.metrics[m], cli.metrics[m], 1e-4, m);
  const sweep = { pattern: 'random', k: 2, trials: 3, seed: 2, construction: 'lp', step: 1, dmax: 64 };
  const point = api.sweepPoint({ ...sweep, L: 32 });
  const file = runCli('sweep', { ...sweep, Ls: '32' });
  assert.deepEqual(point.dMins, file.points[0].d_mins);
});

test('trial t of a sweep point is reproduced by construct and precision with { seed, trial }', () => {
  const api = apis.simd;
  const sweep = { pattern: 'random', k: 2, L: 48, trials: 3, seed: 11, step: 16, dmax: 2048 };
  const point = api.sweepPoint(sweep);
  const base = { pattern: 'random', k: 2, L: 48, seed: 11 };
  for (let t = 0; t < 3; t++) {
    const d = point.dMins[t];
    const at = api.construct({ ...base, trial: t, d });
    assert.equal(at.metrics.success, true, `trial ${t} succeeds at its d_min ${d}`);
    assert.deepEqual([at.params.seed, at.params.trial], [11, t]);
    if (d > 16) assert.equal(api.construct({ ...base, trial: t, d: d - 16 }).metrics.success, false, `trial ${t} fails one step below`);
    assert.equal(api.precision({ ...base, trial: t, d }).precision.fp64, true);
  }
  const lpPoint = api.sweepPoint({ ...sweep, construction: 'lp', step: 1, dmax: 64 });
  const lp = api.construct({ ...base, trial: 0, d: lpPoint.dMins[0], construction: 'lp' });
  assert.equal(lp.metrics.success, true);
  assert.equal(api.construct({ ...base, trial: 0, d: lpPoint.dMins[0] - 1, construction: 'lp' }).metrics.success, false);
  assert.throws(() => api.construct({ ...base, trial: 1000 }), (e) => e.field === 'trial' && /^trial must be an integer from 0 to 999/.test(e.message));
});
