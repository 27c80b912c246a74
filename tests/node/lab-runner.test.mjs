// attnx lab: how a sweep is cut into worker tasks (the core's plan), how the parts of a length
// are merged (by the core, in trial order whatever order they finish in), progress, cancel and
// failure, against a fake pool whose sweepPoint answers depend only on (L, trial) as the real
// seeds do, and against the real module.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { runSweep } from '../../web/lab/runner.js';
import { fitsOf, fitKeeper, addPoint } from '../../web/lab/results.js';
import { corePool } from './lab-pool.mjs';

let core, api;
before(async () => {
  core = await corePool();
  api = core.api;
});

// The core's task plan and a task's work (what the page asks the module on its own thread).
const planTasks = (Ls, T, lanes) => api.planSweep(Ls, T, lanes);
const taskWeight = (L, trials) => api.taskWork(L, trials);
// A sweepPoint answer (camelCase, null = not reached) as the record's point (the CLI's names).
const pointFromApi = (r) => ({ L: r.L, d_mins: Array.from(r.dMins, (d) => (d === null || d < 0 ? null : d)), median: r.median, quantile: r.quantile, d_star: r.dStar, k: r.k, max_col_count: r.maxColCount, in_class: r.inClass, madds: r.madds });

const close = (a, b, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

// d_min of trial t of length L in the fake pool.
const fakeD = (L, t) => (t % 5 === 3 ? null : 100 + L + 16 * ((t * 7) % 5));

// sweepPoint is faked (order(opts) -> delay multiplier, so parts can finish out of order; fail: an
// L that is refused); the statistics calls go to the core.
function fakePool({ delay = 5, fail = null, order = null } = {}) {
  const calls = [];
  let running = 0, maxRunning = 0;
  const sweepPoint = (opts, { signal, onProgress }) => new Promise((resolve, reject) => {
    const first = opts.firstTrial ?? 0;
    running++;
    maxRunning = Math.max(maxRunning, running);
    const done = () => { running--; };
    if (fail === opts.L) { done(); reject(new RangeError(`k must be an integer from 1 to ${opts.L} (got 99)`)); return; }
    let t2 = null;
    const t = setTimeout(() => {
      onProgress(0.5);
      t2 = setTimeout(() => {
        done();
        const dMins = Array.from({ length: opts.trials }, (_, i) => fakeD(opts.L, first + i));
        resolve({ L: opts.L, dMins, median: core.api.median(dMins), quantile: core.api.quantile(dMins, opts.delta), dStar: 1000 + opts.L + first, k: 2 + (first % 2), maxColCount: 2 + first, inClass: first !== 1, madds: 10 * opts.trials, cancelled: false });
      }, order ? delay * order(opts) : delay * opts.trials * opts.L / 16);
    }, delay);
    signal.addEventListener('abort', () => { clearTimeout(t); clearTimeout(t2); done(); reject(new DOMException('cancelled', 'AbortError')); }, { once: true });
  });
  return {
    calls,
    get maxRunning() { return maxRunning; },
    run(method, opts, control = {}) {
      if (method !== 'sweepPoint') return core.run(method, opts, control);
      calls.push({ L: opts.L, firstTrial: opts.firstTrial ?? 0, trials: opts.trials });
      return sweepPoint(opts, control);
    },
  };
}

// What the core gives for all T trials of L in one piece.
const fullPoint = (L, T, delta) => {
  const d = Array.from({ length: T }, (_, t) => fakeD(L, t));
  return { d, median: core.api.median(d), quantile: core.api.quantile(d, delta) };
};

test('plan: parts cover every trial in order, sized by cost, at least ~3 tasks per worker', () => {
  const check = (Ls, T, conc) => {
    const tasks = planTasks(Ls, T, conc);
    for (const L of Ls) {
      const parts = tasks.filter((t) => t.L === L);
      let next = 0;
      for (const p of parts) {
        assert.equal(p.firstTrial, next, `L = ${L} parts in trial order`);
        assert.ok(p.trials >= 1);
        next += p.trials;
      }
      assert.equal(next, T, `L = ${L} covers all trials`);
      const sizes = parts.map((p) => p.trials);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, 'parts of nearly equal size');
    }
    assert.ok(tasks.length >= Math.min(3 * conc, Ls.length * T), `${tasks.length} tasks for ${conc} workers`);
    return tasks;
  };
  const a = check([16, 32, 64, 128], 6, 4);
  assert.deepEqual([...new Set(a.map((t) => t.L))], [128, 64, 32, 16], 'several workers: largest L first');
  assert.ok(a.filter((t) => t.L === 128).length > a.filter((t) => t.L === 16).length);
  assert.equal(a.filter((t) => t.L === 16).length, 1, 'cheap lengths stay in one task');
  assert.ok(a.every((t) => t.weight === taskWeight(t.L, t.trials)));
  const b = check([16, 32, 64, 128], 10, 1);
  assert.deepEqual([...new Set(b.map((t) => t.L))], [16, 32, 64, 128], 'one worker: smallest L first');
  assert.deepEqual(check([512], 2, 8).map((t) => [t.firstTrial, t.trials]), [[0, 1], [1, 1]], 'never below one trial');
  assert.deepEqual(check([512], 1, 8).map((t) => [t.firstTrial, t.trials]), [[0, 1]]);
  assert.equal(check(Array.from({ length: 21 }, (_, i) => 64 + i), 4, 2).length, 21, 'many equal lengths: no split');
  // One long length among short ones is split even when the lengths alone give enough tasks.
  const c = check([16, 32, 64, 128, 256, 512, 1024, 2048], 6, 2);
  assert.deepEqual(c.slice(0, 5).map((t) => t.L), [2048, 2048, 2048, 2048, 2048]);
  const total = c.reduce((s, t) => s + t.weight, 0);
  assert.ok(c.every((t) => t.trials === 1 || t.weight <= total / 6 * (1 + 1e-9)), 'no task above 1/(3 workers) of the work');
  check([64, 128, 256, 512], 1000, 16);
  check([2, 4096], 7, 3);
});

test('merge: parts in any order give the full point; median and quantile from the core', async () => {
  // sweepPoint {L:64, trials:6, seed:3} -> [528,832,928,640,528,720]; parts of it as firstTrial splits.
  const full = [528, 832, 928, 640, 528, 720];
  const part = (firstTrial, n, extra = {}) => ({ firstTrial, L: 64, dMins: full.slice(firstTrial, firstTrial + n), dStar: 700 + firstTrial, k: 2, maxColCount: 3 + firstTrial, inClass: true, madds: 100 * n, ...extra });
  const parts = [part(3, 2), part(5, 1, { inClass: false, k: 3 }), part(0, 3)];
  const m = api.mergeSweepParts(64, 6, 0.1, parts);
  assert.deepEqual(m.d_mins, full);
  assert.equal(m.median, 680);       // (640 + 720) / 2
  assert.equal(m.quantile, 928);     // ceil(0.9 * 6) = 6th smallest
  assert.deepEqual([m.d_star, m.k, m.max_col_count, m.in_class, m.madds], [705, 3, 8, false, 600]);
  // Not reached trials stay null; a gap in the trials is refused, naming it.
  const one = (firstTrial, dMins) => ({ firstTrial, dMins, dStar: 1, k: 2, maxColCount: 2, inClass: true, madds: 1 });
  assert.deepEqual(api.mergeSweepParts(8, 2, 0.1, [one(1, [-1]), one(0, [4])]).d_mins, [4, null]);
  assert.throws(() => api.mergeSweepParts(8, 3, 0.1, [one(0, [4]), one(2, [5])]), (e) => e.field === 'parts' && /do not join up at trial 2/.test(e.message));
  // A single part covering everything is the core's answer as is.
  const whole = { L: 64, dMins: full, median: 680, quantile: 928, dStar: 5, k: 2, maxColCount: 3, inClass: true, madds: 9 };
  assert.deepEqual(api.mergeSweepParts(64, 6, 0.1, [{ ...whole, firstTrial: 0 }]), pointFromApi(whole));
});

test('the statistics the page gets from the core: merged medians, quantiles (null = not reached) and fits', async () => {
  // Two parts force the merge.
  const stats = async (ds, delta) => {
    const half = Math.ceil(ds.length / 2);
    const part = (firstTrial, dMins) => ({ firstTrial, dMins, dStar: 1, k: 2, maxColCount: 2, inClass: true, madds: 1 });
    const p = api.mergeSweepParts(64, ds.length, delta, [part(half, ds.slice(half)), part(0, ds.slice(0, half))]);
    return [p.median, p.quantile];
  };
  const d = [640, 688, 640, 592, 608, 608, 768, 640, 544, 624];
  assert.deepEqual(await stats(d, 0.1), [632, 688]);
  assert.deepEqual((await stats(d, 0.5))[1], 624);    // ceil(5) = 5th smallest
  assert.deepEqual((await stats(d, 0.05))[1], 768);   // ceil(9.5) = 10th
  assert.deepEqual(await stats([100, null, 200], 0.1), [200, null]);
  assert.deepEqual(await stats([100, null, 200], 0.4), [200, 200]);  // ceil(1.8) = 2
  assert.deepEqual(await stats([100, 200, null, null], 0.1), [null, null]);
  assert.deepEqual(await stats([null, null, 100], 0.5), [null, null]);
  assert.deepEqual(await stats([5, 7], 0.5), [6, 5]);
  // Fits: exact laws are recovered; degenerate inputs are not ok.
  const Ls = [16, 32, 64, 128, 256, 512, 1024];
  const pts = (f) => Ls.map((L) => ({ L, quantile: f(L) }));
  const lf = (await fitsOf(core, pts((L) => 100 + 50 * Math.log(L)))).fits.log;
  assert.ok(lf.ok);
  close(lf.a, 100); close(lf.b, 50); close(lf.r2, 1, 1e-12);
  const pf = (await fitsOf(core, pts((L) => 3 * L ** 0.5))).fits.power;
  assert.ok(pf.ok);
  close(pf.c, 3); close(pf.p, 0.5, 1e-12); close(pf.r2, 1, 1e-12);
  const logLaw = (await fitsOf(core, pts((L) => 200 + 120 * Math.log(L)))).fits;
  assert.ok(logLaw.power.p < 0.4 && logLaw.power.r2 < logLaw.log.r2, 'a log law seen through a power fit');
  assert.equal((await fitsOf(core, [{ L: 64, quantile: 100 }])).fits.log.ok, false);
  assert.equal((await fitsOf(core, [{ L: 64, quantile: 100 }, { L: 128, quantile: null }])).fits.log.ok, false, 'not reached is skipped');
  assert.equal((await fitsOf(core, [{ L: 64, quantile: 100 }, { L: 128, quantile: 100 }])).fits.log.r2, 1);
  // With the trials and delta: the core's bootstrap comparison; an exact log law wins every
  // resample (each resample is the data); without delta there is none.
  const trials = Ls.map((L) => ({ L, d_mins: Array(8).fill(Math.round(200 + 120 * Math.log(L))), quantile: null }));
  const withTrials = await fitsOf(core, trials, 0.1);
  assert.deepEqual(withTrials.comparison, { resamples: 1000, logWins: 1000, powerWins: 0, lengths: 7, verdict: 'log' });
  assert.ok(withTrials.fits.log.ok && withTrials.fits.log.r2 > withTrials.fits.power.r2);
  assert.equal((await fitsOf(core, trials)).comparison, null);
});

test('runner: largest L first, bounded concurrency, split lengths merged in trial order', async () => {
  const pool = fakePool({ delay: 2, order: (o) => 20 - (o.firstTrial ?? 0) });
  const got = [];
  const progress = [];
  const T = 6;
  const out = await runSweep(pool, { core: api, opts: { trials: T, delta: 0.1 }, Ls: [16, 32, 64, 128], concurrency: 4, onPoint: (p) => got.push(p.L), onProgress: (p) => progress.push(p) });
  const plan = planTasks([16, 32, 64, 128], T, 4);
  assert.deepEqual(pool.calls.map((c) => [c.L, c.firstTrial, c.trials]), plan.map((t) => [t.L, t.firstTrial, t.trials]));
  assert.ok(pool.calls.length >= 12, `${pool.calls.length} tasks`);
  assert.equal(pool.calls[0].L, 128);
  assert.equal(pool.maxRunning, 4);
  assert.equal(got.length, 4);
  assert.deepEqual(out.points.map((p) => p.L), [16, 32, 64, 128]);
  assert.equal(out.cancelled, false);
  for (const p of out.points) {
    const f = fullPoint(p.L, T, 0.1);
    assert.deepEqual(p.d_mins, f.d, `L = ${p.L} trial order`);
    assert.equal(p.median, f.median);
    assert.equal(p.quantile, f.quantile);
    const parts = plan.filter((t) => t.L === p.L);
    assert.equal(p.d_star, 1000 + p.L + parts[parts.length - 1].firstTrial, 'd* = max over parts');
    assert.equal(p.madds, 10 * T, 'multiply-adds add up');
    assert.equal(p.in_class, !parts.some((t) => t.firstTrial === 1));
  }
  const fr = progress.map((p) => p.fraction);
  assert.ok(fr.every((f, i) => i === 0 || f >= fr[i - 1] - 1e-12), 'progress is monotone');
  assert.equal(fr[fr.length - 1], 1);
  assert.equal(progress[progress.length - 1].trialsDone, 4 * T);
  assert.equal(progress[progress.length - 1].trialsTotal, 4 * T);
});

test('runner: progress is weighted by cost across parts', async () => {
  const pool = fakePool({ delay: 1 });
  const seen = [];
  await runSweep(pool, { core: api, opts: { trials: 4, delta: 0.1 }, Ls: [16, 256], concurrency: 1, onPoint: (p) => seen.push({ L: p.L }), onProgress: (p) => { if (seen.length === 1 && !seen[0].f) seen[0].f = p.fraction; } });
  close(seen[0].f, taskWeight(16, 4) / (taskWeight(16, 4) + taskWeight(256, 4)));
});

test('runner: one worker runs the smallest L first', async () => {
  const pool = fakePool({ delay: 1 });
  await runSweep(pool, { core: api, opts: { trials: 1, delta: 0.1 }, Ls: [16, 32, 64], concurrency: 1 });
  assert.deepEqual(pool.calls.map((c) => c.L), [16, 32, 64]);
  const pool2 = fakePool({ delay: 1 });
  const out = await runSweep(pool2, { core: api, opts: { trials: 5, delta: 0.1 }, Ls: [16, 512], concurrency: 1 });
  assert.deepEqual(pool2.calls.map((c) => [c.L, c.firstTrial, c.trials]), [[16, 0, 5], [512, 0, 1], [512, 1, 1], [512, 2, 1], [512, 3, 1], [512, 4, 1]]);
  assert.deepEqual(out.points[1].d_mins, fullPoint(512, 5, 0.1).d);
});

test('runner: cancel keeps the finished lengths and drops partly computed ones', async () => {
  // Two workers: L = 1024 (4 parts) runs first, then 512. Cancel as soon as 1024 is done.
  const pool = fakePool({ delay: 4, order: (o) => (o.L === 1024 ? 2 : 100) });
  const ac = new AbortController();
  const states = new Map();
  const log = [];
  const out = await runSweep(pool, { core: api, opts: { trials: 4, delta: 0.1 }, Ls: [16, 32, 512, 1024], concurrency: 2, signal: ac.signal,
    onTask: (L, s, info) => { states.set(L, s); log.push([L, s, info.trialsDone]); },
    onPoint: (pt) => { if (pt.L === 1024) ac.abort(); } });
  assert.equal(out.cancelled, true);
  assert.deepEqual(out.points.map((q) => q.L), [1024]);
  assert.deepEqual(out.points[0].d_mins, fullPoint(1024, 4, 0.1).d);
  assert.deepEqual([1024, 512, 32, 16].map((L) => states.get(L)), ['done', 'cancelled', 'cancelled', 'cancelled']);
  assert.deepEqual(log.filter(([L, s]) => L === 1024 && s === 'running').map((x) => x[2]), [0, 1, 2, 3], 'trial count rises part by part');
});

test('runner: cancel with a length half done drops it', async () => {
  const pool = fakePool({ delay: 1 });
  const ac = new AbortController();
  const states = new Map();
  const out = await runSweep(pool, { core: api, opts: { trials: 6, delta: 0.1 }, Ls: [512], concurrency: 1, signal: ac.signal,
    onTask: (L, s, info) => { states.set(L, s); if (s === 'running' && info.trialsDone > 0) ac.abort(); } });
  assert.equal(out.cancelled, true);
  assert.deepEqual(out.points, []);
  assert.equal(states.get(512), 'cancelled');
  assert.deepEqual(pool.calls.map((c) => [c.L, c.firstTrial, c.trials]), [[512, 0, 2]], 'nothing started after the cancel');
});

test('runner: a refused request rejects with its message and stops the rest', async () => {
  const pool = fakePool({ fail: 64 });
  const states = new Map();
  await assert.rejects(runSweep(pool, { core: api, opts: { trials: 2, delta: 0.1 }, Ls: [16, 64, 128], concurrency: 1, onTask: (L, s) => states.set(L, s) }), /k must be an integer from 1 to 64/);
  assert.deepEqual(pool.calls.map((c) => c.L), [16, 64]);
  assert.equal(states.get(64), 'failed');
  assert.equal(states.get(128), 'cancelled');
});

test('runner with the real module: split parts reproduce the unsplit sweep point', async () => {
  const opts = { pattern: 'random', k: 2, trials: 6, seed: 3, delta: 0.1 };
  const out = await runSweep(core, { core: api, opts, Ls: [32, 64], concurrency: 4 });
  assert.ok(planTasks([32, 64], 6, 4).length > 2, 'the sweep was split');
  for (const p of out.points) {
    const whole = core.api.sweepPoint({ ...opts, L: p.L });
    assert.deepEqual(p, api.mergeSweepParts(p.L, 6, 0.1, [{ ...whole, firstTrial: 0 }]), `L = ${p.L}`);
    const { L, d_mins, median, quantile, d_star, k, max_col_count, in_class, madds } = p;
    assert.deepEqual({ L, d_mins, median, quantile, d_star, k, max_col_count, in_class, madds }, pointFromApi(whole), `L = ${L}`);
    assert.ok(p.d_lambda > 0 && p.bits_fixed_keys > 0, `L = ${L}: the SPEC §9 floors are in the merged point`);
  }
  assert.deepEqual(out.points.find((p) => p.L === 64).d_mins, [528, 832, 928, 640, 528, 720]);
});

test('runner helpers: the core\'s task weights and progress (what attnx sweep --progress prints)', () => {
  assert.ok(taskWeight(512, 10) > 4 * taskWeight(256, 10));
  close(taskWeight(64, 3), 64 * 64 * Math.log(64) * 3, 1e-14);  // L^2 ln L per trial
  const p = api.sweepProgress([3, 1], [1, 0], 3);
  assert.equal(p.fraction, 0.75);
  close(p.eta, 1);
  assert.equal(api.sweepProgress([1], [0], 1).eta, null);
});

test('fitKeeper: calls waiting for their turn join, a repeat makes no core call, the fits are the newest points\'', async () => {
  const core = await corePool();
  let release = null;  // the running call's answer is held until released (a busy worker)
  const pool = {
    calls: core.calls,
    run: (method, opts) => new Promise((resolve) => { release = () => resolve(core.run(method, opts)); }),
  };
  let told = 0;
  const refit = fitKeeper(pool, () => { told++; });
  const res = { params: { delta: 0.1 }, points: [] };
  const summaries = () => core.calls.filter(([m]) => m === 'summariseSweep').length;
  const add = (L) => addPoint(res, { L, d_mins: Array.from({ length: 6 }, (_, t) => fakeD(L, t) ?? 4096) });
  const settle = async (p) => {  // releases every call made until p is settled
    for (let i = 0; i < 20; i++) {
      await new Promise((x) => setImmediate(x));
      if (release) { const r = release; release = null; r(); }
    }
    return p;
  };
  add(64);
  const first = refit(res);  // runs
  await new Promise((x) => setImmediate(x));
  assert.ok(release, 'the first call is running');
  add(128);
  refit(res);                // waits for its turn
  add(256);
  const joined = refit(res); // joins the waiting call (newest points)
  await settle(first);
  await settle(joined);
  await refit(res);          // the same points as the last call: no new bootstrap
  assert.equal(summaries(), 2, 'the first call and one for the two that waited; none for the repeat');
  assert.deepEqual(core.calls.filter(([m]) => m === 'summariseSweep')[1][1].points.map((p) => p.L), [64, 128, 256]);
  assert.equal(told, 1, 'only the fits of the points res still has are reported');
  const direct = await fitsOf(core, res.points, 0.1);
  assert.deepEqual(res.fits, direct.fits, 'the kept fits are the core\'s for the newest points');
  assert.deepEqual(res.fitComparison, direct.comparison);
  res.params.delta = 0.25;  // another delta is another question
  await settle(refit(res));
  assert.equal(summaries(), 4, 'a changed delta asks the core again (plus the direct call above)');
  assert.equal(told, 2);
});
