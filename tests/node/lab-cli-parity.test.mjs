// attnx lab versus attnx sweep: for one sweep the page and the CLI give the same numbers. The page's
// sweep runs split into parts (the core's plan), merged and fitted as the lab does it (runner,
// fitKeeper through the pool stand-in), and its views' numbers come from the module's calls; the
// CLI prints the same with --report (points, fits, the bootstrap comparison and its reading, every
// length's success curve, the plots' axes) and --dry-run (the cost model fitted to its pilot, the
// progress model). The time left is checked against the CLI's printed progress model for given
// elapsed work.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { runSweep } from '../../web/lab/runner.js';
import { labTable, workerOptions, gridOf } from '../../web/lab/settings.js';
import { readLink } from '../../web/lab/link.js';
import { browserResult, addPoint, fitKeeper } from '../../web/lab/results.js';
import { corePool } from './lab-pool.mjs';
import { CLI } from './helpers.mjs';

const LS = '16,32,64,128,256', T = 6, SEED = 3;
const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

let core, api, schema, st, args;
before(async () => {
  core = await corePool();
  api = core.api;
  schema = api.schema();
  st = readLink(schema, labTable(schema), `#Ls=${LS}&trials=${T}&seed=${SEED}`).state;
  args = ['sweep', '--pattern', 'random', '--k', '2', '--Ls', LS, '--trials', String(T), '--seed', String(SEED),
    '--step', String(st.step), '--dmax', String(st.dmax), '--max-bytes', String(schema.contexts.lab.defaults.maxBytes)];
});

const cliJson = (extra) => JSON.parse(execFileSync(CLI, [...args, ...extra], { encoding: 'utf8' }));

// The lab's sweep of st, as the page runs it: 3 workers, parts merged by the core, refitted.
async function labSweep() {
  const Ls = gridOf(st);
  const res = browserResult(schema, st, Ls, api.version);
  const refit = fitKeeper(core, () => {});
  await runSweep(core, { core: api, opts: workerOptions(schema, st), Ls, concurrency: 3, onPoint: (p) => { addPoint(res, p); refit(res); } });
  await refit(res);
  return res;
}

test('merged points, fits, bootstrap verdict and its reading equal the CLI\'s', async (t) => {
  if (!existsSync(CLI)) return t.skip('build/native/attnx is not built');
  assert.ok(api.planSweep(gridOf(st), T, 3).length > gridOf(st).length, 'the page splits some length into parts');
  const res = await labSweep();
  const cli = cliJson(['--report']);
  assert.equal(res.points.length, cli.points.length);
  res.points.forEach((p, i) => {
    const q = cli.points[i];
    assert.deepEqual([p.L, p.d_mins, p.median, p.quantile, p.k, p.max_col_count, p.in_class, p.madds],
      [q.L, q.d_mins, q.median, q.quantile, q.k, q.max_col_count, q.in_class, q.madds], `L = ${q.L}`);
    close(p.d_star, q.d_star, 1e-4, `d* at L = ${q.L}`);  // a metric: SPEC §6, 1e-4 relative
  });
  for (const k of ['a', 'b', 'r2']) close(res.fits.log[k], cli.fits.log[k], 1e-12, `log fit ${k}`);
  for (const k of ['c', 'p', 'r2']) close(res.fits.power[k], cli.fits.power[k], 1e-12, `power fit ${k}`);
  const c = cli.report.fit_comparison;
  assert.deepEqual(res.fitComparison, { resamples: c.resamples, logWins: c.log_wins, powerWins: c.power_wins, lengths: c.lengths, verdict: c.verdict });
  const r = cli.report.reading;
  assert.deepEqual(api.fitReading(res.fits, res.fitComparison, res.points.map((p) => p.quantile)), {
    fitsOk: r.fits_ok, basis: r.basis, verdict: r.verdict, smallExponent: r.small_exponent, usable: r.usable,
    lengths: r.lengths, rough: r.rough, perDoubling: r.per_doubling,
  });
});

test('success curves and the plots\' axes equal the CLI\'s report', async (t) => {
  if (!existsSync(CLI)) return t.skip('build/native/attnx is not built');
  const cli = cliJson(['--report']);
  const dists = cli.points.map((p) => api.dDistribution(p.d_mins));
  dists.forEach((d, i) => {
    const s = cli.report.success[i];
    assert.deepEqual(d, { trials: s.trials, reached: s.reached, maxReached: s.max_reached, steps: s.steps.map(([dv, count, p]) => ({ d: dv, count, p })) });
  });
  const { axes } = cli.report;
  const axis = (a) => ({ lo: a.lo, hi: a.hi, ticks: a.ticks });
  const strip = ({ lo, hi, ticks }) => ({ lo, hi, ticks });
  assert.deepEqual(strip(api.lengthAxis(cli.points.map((p) => p.L), false)), axis(axes.L));
  const maxReached = dists.map((d) => d.maxReached);
  const d = api.dAxis(maxReached, cli.points.map((p) => p.d_star), cli.params.d_max, null, false);
  assert.deepEqual(strip(d.axis), axis(axes.d));
  assert.equal(d.dStarAbove.count, axes.d_star_above.count);
  const s = api.successAxes(maxReached, cli.params.d_max, false);
  assert.deepEqual(strip(s.d), axis(axes.success_d));
  assert.deepEqual(strip(s.probability), axis(axes.success_p));
});

test('one cost model: the dry run\'s model and predictions are the module\'s; the time left follows its progress model', async (t) => {
  if (!existsSync(CLI)) return t.skip('build/native/attnx is not built');
  const dry = cliJson(['--dry-run', '--threads', '1']);
  const m = api.fitCost(dry.pilot.trials.map((x) => ({ L: x.L, dMin: x.d_min, seconds: x.seconds })), st.step, st.dmax);
  assert.equal(m.ok, dry.model.ok);
  for (const [k, v] of [['c', m.c], ['p', m.p], ['r2_log', m.r2], ['a', m.dOfL.a], ['b', m.dOfL.b]]) close(v, dry.model[k], 1e-12, `model ${k}`);
  for (const p of dry.predicted) {
    close(api.predictTrialSeconds(m, p.L), p.seconds_per_trial, 1e-12, `seconds per trial at L = ${p.L}`);
    close(api.taskWork(p.L, 1), p.work_per_trial, 1e-15, `work per trial at L = ${p.L}`);
  }
  // The page's tasks after `elapsed` seconds with the first `done` finished and the next one half
  // done: its fraction and time left are the CLI's progress model on the CLI's work per trial.
  const work = new Map(dry.predicted.map((p) => [p.L, p.work_per_trial]));
  const { eta_min_fraction: minF, eta_min_seconds: minS } = dry.progress;
  const plan = api.planSweep(gridOf(st), T, 1);
  const all = plan.reduce((s, x) => s + work.get(x.L) * x.trials, 0);
  for (const done of [0, 1, 3, plan.length - 1]) {
    const fractions = plan.map((_, i) => (i < done ? 1 : i === done ? 0.5 : 0));
    const w = plan.reduce((s, x, i) => s + work.get(x.L) * x.trials * fractions[i], 0);
    for (const elapsed of [0.2, 1, 7.5]) {
      const p = api.sweepProgress(plan.map((x) => x.weight), fractions, elapsed);
      close(p.fraction, w / all, 1e-12, `fraction, ${done} done`);
      const f = w / all;
      if (f > minF && elapsed > minS) close(p.eta, (elapsed * (1 - f)) / f, 1e-12, `time left, ${done} done, ${elapsed} s`);
      else assert.equal(p.eta, null, `no time left before ${minF} of the work and ${minS} s`);
    }
  }
});
