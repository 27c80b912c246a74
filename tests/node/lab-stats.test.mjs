// attnx lab: unit tests of the page's DOM-free logic (statistics, fits, ticks, export/import,
// URL state, scheduling). Fixtures in lab-fixtures/ are unedited `attnx sweep` outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { medianD, quantileD, ecdf, successAt, fitLog, fitPower, fitSweep, makePoint } from '../../web/lab/stats.js';
import { linearTicks, logTicks, niceStep, makeScale } from '../../web/lab/scale.js';
import { cNumber, toJson, toCsv, parseImport, ImportError } from '../../web/lab/io.js';
import { readHash, writeHash, parseLs, PAPER, workerOptions, cliParams, FALLBACK_INFO, matchesPaper, paperComparable } from '../../web/lab/state.js';
import { runSweep, progressOf, pointFromApi, taskWeight, planTasks, mergeParts } from '../../web/lab/runner.js';
import { fitSentence, paperSentence, formatDuration } from '../../web/lab/summary.js';
import { stepVertices, xDomain } from '../../web/lab/plot-success.js';
import { yDomain, jitter } from '../../web/lab/plot-dl.js';
import { wrap } from '../../web/lab/export.js';

const fixture = (name) => readFileSync(new URL(`./lab-fixtures/${name}`, import.meta.url), 'utf8');
const close = (a, b, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

// ---- statistics ----

test('median and (1-delta)-quantile match the core on known data', () => {
  const d = [640, 688, 640, 592, 608, 608, 768, 640, 544, 624];
  assert.equal(medianD(d), 632);
  assert.equal(quantileD(d, 0.1), 688);
  assert.equal(quantileD(d, 0.5), 624);   // ceil(5) = 5th smallest
  assert.equal(quantileD(d, 0.05), 768);  // ceil(9.5) = 10th
  assert.equal(medianD([5]), 5);
  assert.equal(medianD([]), null);
  assert.equal(quantileD([], 0.1), null);
});

test('not reached (null) counts as larger than any d', () => {
  assert.equal(medianD([100, null, 200]), 200);
  assert.equal(medianD([100, 200, null, null]), null);
  assert.equal(medianD([null, null, 100]), null);
  assert.equal(quantileD([100, null, 200], 0.1), null);
  assert.equal(quantileD([100, null, 200], 0.4), 200);  // ceil(1.8) = 2
  assert.equal(quantileD([null], 0.5), null);
});

test('empirical CDF is a step function over all trials', () => {
  assert.deepEqual(ecdf([640, 640, null, 600]), [{ d: 600, p: 0.25 }, { d: 640, p: 0.75 }]);
  assert.deepEqual(ecdf([null, null]), []);
  assert.deepEqual(ecdf([]), []);
  assert.equal(successAt([640, 640, null, 600], 639), 0.25);
  assert.equal(successAt([640, 640, null, 600], 640), 0.75);
  assert.equal(successAt([640, 640, null, 600], 1e9), 0.75);
  // Crossing 1 - delta gives the quantile.
  const d = [640, 688, 640, 592, 608, 608, 768, 640, 544, 624];
  const q = ecdf(d).find((e) => e.p >= 0.9 - 1e-12).d;
  assert.equal(q, quantileD(d, 0.1));
  assert.deepEqual(stepVertices([10, 20], 0, 30), [[0, 0], [10, 0], [10, 0.5], [20, 0.5], [20, 1], [30, 1]]);
});

test('fits recover exact logarithmic and power laws', () => {
  const Ls = [16, 32, 64, 128, 256, 512, 1024];
  const lf = fitLog(Ls, Ls.map((L) => 100 + 50 * Math.log(L)));
  assert.ok(lf.ok);
  close(lf.a, 100, 1e-9); close(lf.b, 50, 1e-9); close(lf.r2, 1, 1e-12);
  const pf = fitPower(Ls, Ls.map((L) => 3 * L ** 0.5));
  assert.ok(pf.ok);
  close(pf.c, 3, 1e-9); close(pf.p, 0.5, 1e-12); close(pf.r2, 1, 1e-12);
  // A log law seen through a power fit: small p, R^2 below the log fit's.
  const d = Ls.map((L) => 200 + 120 * Math.log(L));
  assert.ok(fitPower(Ls, d).p < 0.4);
  assert.ok(fitPower(Ls, d).r2 < fitLog(Ls, d).r2);
  // Degenerate inputs.
  assert.equal(fitLog([64], [100]).ok, false);
  assert.equal(fitLog([64, 64], [100, 200]).ok, false);
  assert.equal(fitPower([64, 128], [0, 200]).ok, false);
  assert.equal(fitLog([64, 128], [100, 100]).r2, 1);
});

test('fits agree with the CLI (attnx sweep output) to the last digits', () => {
  for (const f of ['cli-sweep-paper.json', 'cli-sweep-dilated.json', 'cli-sweep-notreached.json']) {
    const doc = JSON.parse(fixture(f));
    const pts = doc.points.map((p) => makePoint(p.L, p.d_mins, doc.params.delta));
    doc.points.forEach((p, i) => {
      assert.equal(pts[i].median, p.median, `${f} median L=${p.L}`);
      assert.equal(pts[i].quantile, p.quantile, `${f} quantile L=${p.L}`);
    });
    const fits = fitSweep(pts);
    assert.equal(fits.log.ok, doc.fits.log.ok);
    assert.equal(fits.power.ok, doc.fits.power.ok);
    if (doc.fits.log.ok) for (const k of ['a', 'b', 'r2']) close(fits.log[k], doc.fits.log[k], 1e-12);
    if (doc.fits.power.ok) for (const k of ['c', 'p', 'r2']) close(fits.power[k], doc.fits.power[k], 1e-12);
  }
});

// ---- ticks and scales ----

test('linear ticks are nice and cover the range', () => {
  assert.equal(niceStep(1475, 6), 250);
  assert.equal(niceStep(10, 5), 2);
  assert.equal(niceStep(0, 5), 1);
  const t = linearTicks(0, 1475, 6);
  assert.deepEqual(t.ticks, [0, 250, 500, 750, 1000, 1250, 1500]);
  assert.equal(t.hi, 1500);
  const u = linearTicks(0, 1, 5);
  assert.deepEqual(u.ticks, [0, 0.2, 0.4, 0.6, 0.8, 1]);
  const v = linearTicks(5, 5, 5);
  assert.ok(v.hi > v.lo);
});

test('log ticks: powers of two for power-of-two grids, else 1-2-5', () => {
  assert.deepEqual(logTicks(64 / 1.3, 512 * 1.3, [64, 128, 256, 512]), [64, 128, 256, 512]);
  assert.deepEqual(logTicks(12, 1400, [16, 32, 64, 128, 256, 512, 1024]), [16, 32, 64, 128, 256, 512, 1024]);
  const many = logTicks(2, 16384, [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384], 6);
  assert.ok(many.length <= 7 && many.includes(2));
  assert.deepEqual(logTicks(90, 1100, [100, 300, 1000]), [100, 200, 500, 1000]);
  const s = makeScale(10, 1000, 0, 200, true);
  close(s(100), 100, 1e-12);
  close(s.invert(100), 100, 1e-9);
});

test('plot ranges and dot offsets', () => {
  const pts = [makePoint(64, [600, 700, null], 0.1, { d_star: 4000 })];
  assert.equal(yDomain(pts).hi, 800);
  assert.ok(yDomain(pts, { fullDStar: true }).hi >= 4000);
  assert.ok(yDomain(pts, { band: true }).hi >= 1000);
  assert.equal(yDomain([makePoint(64, [null], 0.1)], { dMax: 512 }).hi >= 512, true);
  assert.equal(xDomain(pts).hi, 800);
  assert.deepEqual(jitter([5, 5, 5, 6, 5]), [0, -4, 4, 0, -8]);
});

// ---- export / import ----

test('CLI number format: shortest round trip, fixed or scientific as std::to_chars', () => {
  assert.equal(cNumber(1), '1');
  assert.equal(cNumber(0.1), '0.1');
  assert.equal(cNumber(1e-5), '1e-05');
  assert.equal(cNumber(0.0001), '1e-04');  // as the CLI prints --eps 0.0001
  assert.equal(cNumber(0.001), '0.001');
  assert.equal(cNumber(100000), '1e+05');
  assert.equal(cNumber(3948.7072051209066), '3948.7072051209066');
  assert.equal(cNumber(-943.9999999999995), '-943.9999999999995');
  assert.equal(cNumber(1e21), '1e+21');
  assert.equal(cNumber(8589934592), '8589934592');
  assert.equal(cNumber(120000), '120000');
  assert.equal(cNumber(1200000), '1200000');
  assert.equal(cNumber(0), '0');
  assert.equal(cNumber(NaN), 'null');
});

test('JSON and CSV export reproduce the CLI byte for byte', () => {
  for (const f of ['cli-sweep-paper.json', 'cli-sweep-dilated.json', 'cli-sweep-notreached.json']) {
    const text = fixture(f);
    const r = parseImport(text);
    assert.equal(toJson(r), text, f);
  }
  const csv = fixture('cli-sweep-paper.csv');
  assert.equal(toCsv(parseImport(fixture('cli-sweep-paper.json'))), csv);
  assert.equal(toCsv(parseImport(csv)), csv);
});

test('export -> import round trip keeps every value', () => {
  const params = cliParams(FALLBACK_INFO, { ...PAPER, trials: 3 }, [64, 128]);
  const points = [
    makePoint(64, [608, 688, null], 0.1, { d_star: 3948.5, k: 2, max_col_count: 2, in_class: true, madds: 123456 }),
    makePoint(128, [720, 800, 816], 0.1, { d_star: 4432.25, k: 2, max_col_count: 2, in_class: true, madds: 654321 }),
  ];
  const res = { version: '0.1.0', params, points, fits: fitSweep(points) };
  const back = parseImport(toJson(res));
  assert.deepEqual(back.points, points);
  assert.equal(back.params.delta, 0.1);
  assert.equal(back.params.k, 2);
  assert.deepEqual(back.params.Ls, [64, 128]);
  assert.deepEqual(back.fits, res.fits);
  const fromCsv = parseImport(toCsv(res));
  assert.deepEqual(fromCsv.points.map((p) => p.d_mins), points.map((p) => p.d_mins));
  assert.deepEqual(fromCsv.points.map((p) => p.quantile), points.map((p) => p.quantile));
  assert.deepEqual(fromCsv.points.map((p) => p.d_star), points.map((p) => p.d_star));
});

test('import validation names the problem', () => {
  const good = JSON.parse(fixture('cli-sweep-paper.json'));
  const bad = (mut) => {
    const d = structuredClone(good);
    mut(d);
    return JSON.stringify(d);
  };
  const cases = [
    ['{ "points": [', /not valid JSON/],
    ['', /empty/],
    ['[1,2]', /JSON object/],
    [JSON.stringify({ command: 'mind', dMin: 3 }), /attnx mind.*not of "attnx sweep"/],
    [bad((d) => delete d.points), /points is missing/],
    [bad((d) => { d.points = []; }), /points is empty/],
    [bad((d) => delete d.params.delta), /params\.delta is missing/],
    [bad((d) => { d.params.delta = 2; }), /params\.delta must be a number in \(0, 1\) \(got 2\)/],
    [bad((d) => { d.points[1].d_mins[3] = 'abc'; }), /points\[1\]\.d_mins\[3\] must be an integer d from 1 to 4096 or null \(got "abc"\)/],
    [bad((d) => { d.points[0].d_mins[0] = 5000; }), /points\[0\]\.d_mins\[0\] must be an integer d from 1 to 4096/],
    [bad((d) => { d.points[2].L = 100; }), /points\[2\]\.L must be larger than the previous length/],
    [bad((d) => { d.points[0].L = 1; }), /points\[0\]\.L must be an integer from 2 to 16384 \(got 1\)/],
    [bad((d) => { d.points[0].median = 1; }), /points\[0\]\.median is 1 but its d_mins give 608/],
    [bad((d) => { d.points[3].quantile = 7; }), /points\[3\]\.quantile is 7/],
    [bad((d) => { d.points[1].d_mins.pop(); }), /points\[1\]\.d_mins has 9 trials but params\.trials is 10/],
    [bad((d) => { d.params.pattern = 'custom'; }), /custom/],
    [bad((d) => { d.params.Ls = [1, 2]; }), /params\.Ls .* does not match/],
    [bad((d) => { d.points[0].in_class = 'yes'; }), /in_class must be true or false/],
    ['L,x\n1,2\n', /CSV header must be/],
    ['L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins\n64,2,NA,NA,1,2,2,true,16;x\n', /row 2, d_mins entry 2 must be a number or NA/],
  ];
  for (const [text, re] of cases) {
    assert.throws(() => parseImport(text), (e) => e instanceof ImportError && re.test(e.message), `expected ${re} for ${text.slice(0, 60)}`);
  }
  assert.equal(parseImport(fixture('cli-sweep-paper.json')).points.length, 4);
});

test('caption word wrap for exported plots', () => {
  assert.deepEqual(wrap('a bb ccc dddd', 6), ['a bb', 'ccc', 'dddd']);
  assert.deepEqual(wrap('short', 40), ['short']);
  assert.deepEqual(wrap('averyveryverylongword x', 5), ['averyveryverylongword', 'x']);
});

// ---- URL state ----

test('hash state: defaults, preset, explicit fields, errors naming field and range', () => {
  const info = FALLBACK_INFO;
  const d = readHash(info, '');
  assert.deepEqual(d.errors, []);
  assert.equal(d.state.Ls, '16,32,64,128,256,512,1024');
  const p = readHash(info, '#preset=paper&autorun=1');
  assert.deepEqual(p.errors, []);
  assert.ok(matchesPaper(p.state));
  assert.equal(p.state.autorun, true);
  assert.equal(readHash(info, '#preset=paper&trials=3').state.trials, 3);
  const e = readHash(info, '#k=100&Ls=32,64');
  assert.equal(e.state.k, 2);
  assert.ok(e.errors.some((m) => /^k must be an integer from 1 to 32/.test(m)), e.errors.join('|'));
  const l = readHash(info, '#Ls=64,32');
  assert.ok(l.errors.some((m) => /^Ls must be comma-separated ascending integers from 2 to 4096/.test(m)));
  assert.equal(l.state.Ls, '16,32,64,128,256,512,1024');
  assert.ok(readHash(info, '#eps=0').errors.some((m) => /^eps must be a number in \(0, 100\]/.test(m)));
  assert.ok(readHash(info, '#tau=1').errors.some((m) => /^tau must be a number in \(0, 1\)/.test(m)));
  assert.ok(readHash(info, '#bogus=1').errors.some((m) => /unknown setting "bogus"/.test(m)));
  assert.ok(readHash(info, '#pattern=custom').errors.some((m) => /^pattern must be one of random, permutation/.test(m)));
  assert.ok(readHash(info, '#step=64&dmax=32').errors.some((m) => /dmax/.test(m)));
  assert.ok(readHash(info, '#preset=nope').errors.some((m) => /^preset must be one of none, paper/.test(m)));
});

test('hash state round trip and short links', () => {
  const info = FALLBACK_INFO;
  assert.equal(writeHash(info, readHash(info, '#preset=paper').state), '#preset=paper');
  assert.equal(writeHash(info, readHash(info, '#preset=paper').state, { autorun: true }), '#preset=paper&autorun=1');
  assert.equal(writeHash(info, readHash(info, '').state), '');
  const st = { ...readHash(info, '').state, Ls: '32,64,128', pattern: 'window', w: 3, weights: 'decaying', decay: 2, eps: 0.5, seed: 9 };
  const h = writeHash(info, st);
  assert.equal(h, '#Ls=32,64,128&pattern=window&w=3&weights=decaying&decay=2&eps=0.5&seed=9');
  const back = readHash(info, h);
  assert.deepEqual(back.errors, []);
  for (const k of ['Ls', 'pattern', 'w', 'weights', 'decay', 'eps', 'seed']) assert.equal(back.state[k], st[k]);
  // Parameters of other families are left out of the link.
  assert.ok(!writeHash(info, { ...st, k: 5 }).includes('k='));
});

test('L grid parsing', () => {
  assert.deepEqual(parseLs('16, 32 ,64').value, [16, 32, 64]);
  assert.deepEqual(parseLs('16 32 64').value, [16, 32, 64]);
  assert.match(parseLs('').error, /empty/);
  assert.match(parseLs('1,2').error, /1 is out of range/);
  assert.match(parseLs('16,8192').error, /8192 is out of range/);
  assert.match(parseLs('16,16').error, /16 does not come after 16/);
  assert.match(parseLs('16,abc').error, /"abc" is not an integer/);
  assert.ok(parseLs(Array.from({ length: 65 }, (_, i) => i + 2).join(',')).error);
});

test('worker options and CLI params follow the chosen family', () => {
  const info = FALLBACK_INFO;
  const st = { ...readHash(info, '#preset=paper').state };
  assert.deepEqual(workerOptions(info, st), { pattern: 'random', k: 2, weights: 'uniform', eps: 1, tau: 0.1, delta: 0.1, trials: 10, seed: 1, step: 16, dmax: 4096 });
  const bb = { ...st, pattern: 'bigbird', weights: 'random', wMin: 0.3 };
  const o = workerOptions(info, bb);
  assert.equal(o.k, undefined);
  assert.equal(o.globals, 1);
  assert.equal(o.wMin, 0.3);
  const p = cliParams(info, bb, [64]);
  assert.deepEqual(Object.keys(p), ['pattern', 'w', 'globals', 'randoms', 'weights', 'w_min', 'eps', 'tau', 'delta', 'step', 'd_max', 'Ls', 'trials', 'seed', 'max_bytes']);
  assert.ok(paperComparable(cliParams(info, st, [64])));
  assert.ok(!paperComparable(p));
});

// ---- scheduling ----

// d_min of trial t of length L in the fake pool (depends only on (L, t), as the real seeds do).
const fakeD = (L, t) => (t % 5 === 3 ? null : 100 + L + 16 * ((t * 7) % 5));

// order(opts) -> delay multiplier of a task (default: proportional to its cost), so tests can make
// parts finish out of order.
function fakePool({ delay = 5, fail = null, order = null } = {}) {
  const calls = [];
  let running = 0, maxRunning = 0;
  return {
    calls,
    get maxRunning() { return maxRunning; },
    run(method, opts, { signal, onProgress }) {
      const first = opts.firstTrial ?? 0;
      calls.push({ method, L: opts.L, firstTrial: first, trials: opts.trials });
      running++;
      maxRunning = Math.max(maxRunning, running);
      return new Promise((resolve, reject) => {
        const done = () => { running--; };
        if (fail && fail === opts.L) { done(); reject(new RangeError(`k must be an integer from 1 to ${opts.L} (got 99)`)); return; }
        let t2 = null;
        const t = setTimeout(() => {
          onProgress(0.5);
          t2 = setTimeout(() => {
            done();
            const dMins = Array.from({ length: opts.trials }, (_, i) => fakeD(opts.L, first + i));
            resolve({ L: opts.L, dMins, median: medianD(dMins), quantile: quantileD(dMins, opts.delta), dStar: 1000 + opts.L + first, k: 2 + (first % 2), maxColCount: 2 + first, inClass: first !== 1, madds: 10 * opts.trials, cancelled: false });
          }, order ? delay * order(opts) : delay * opts.trials * opts.L / 16);
        }, delay);
        signal.addEventListener('abort', () => { clearTimeout(t); clearTimeout(t2); done(); reject(new DOMException('cancelled', 'AbortError')); }, { once: true });
      });
    },
  };
}

// The point the core would return for all T trials of L in one task.
const fullPoint = (L, T, delta) => {
  const d = Array.from({ length: T }, (_, t) => fakeD(L, t));
  return { d, median: medianD(d), quantile: quantileD(d, delta) };
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
    const maxParts = Ls.length * T;
    assert.ok(tasks.length >= Math.min(3 * conc, maxParts), `${tasks.length} tasks for ${conc} workers`);
    return tasks;
  };
  // Several workers: largest L first, each L's parts in trial order; the big L is split most.
  const a = check([16, 32, 64, 128], 6, 4);
  assert.deepEqual([...new Set(a.map((t) => t.L))], [128, 64, 32, 16]);
  assert.ok(a.filter((t) => t.L === 128).length > a.filter((t) => t.L === 16).length);
  assert.equal(a.filter((t) => t.L === 16).length, 1, 'cheap lengths stay in one task');
  assert.ok(a.every((t) => t.weight === taskWeight(t.L, t.trials)));
  // One worker: smallest L first.
  const b = check([16, 32, 64, 128], 10, 1);
  assert.deepEqual([...new Set(b.map((t) => t.L))], [16, 32, 64, 128]);
  // Never below one trial: one length with 2 trials on 8 workers gives 2 tasks.
  assert.deepEqual(check([512], 2, 8).map((t) => [t.firstTrial, t.trials]), [[0, 1], [1, 1]]);
  assert.deepEqual(check([512], 1, 8).map((t) => [t.firstTrial, t.trials]), [[0, 1]]);
  // Many equal lengths: no need to split.
  assert.equal(check(Array.from({ length: 21 }, (_, i) => 64 + i), 4, 2).length, 21);
  // One long length among short ones is split even when the lengths alone give enough tasks, so
  // that no worker is left alone with it at the end.
  const c = check([16, 32, 64, 128, 256, 512, 1024, 2048], 6, 2);
  assert.deepEqual(c.slice(0, 5).map((t) => t.L), [2048, 2048, 2048, 2048, 2048]);
  const total = c.reduce((a, t) => a + t.weight, 0);
  assert.ok(c.every((t) => t.trials === 1 || t.weight <= total / 6 * (1 + 1e-9)), 'no task above 1/(3 workers) of the work');
  check([64, 128, 256, 512], 1000, 16);
  check([2, 4096], 7, 3);
});

test('merge: parts in any order give the full point (the brief\'s example numbers)', () => {
  // sweepPoint {L:64, trials:6, seed:3} -> [528,832,928,640,528,720]; parts of it as firstTrial splits.
  const full = [528, 832, 928, 640, 528, 720];
  const part = (firstTrial, n, extra = {}) => ({ firstTrial, r: { L: 64, dMins: full.slice(firstTrial, firstTrial + n), dStar: 700 + firstTrial, k: 2, maxColCount: 3 + firstTrial, inClass: true, madds: 100 * n, ...extra } });
  const m = mergeParts(64, [part(3, 2), part(5, 1, { inClass: false, k: 3 }), part(0, 3)], 0.1);
  assert.deepEqual(m.d_mins, full);
  assert.equal(m.median, medianD(full));
  assert.equal(m.median, 680);
  assert.equal(m.quantile, quantileD(full, 0.1));
  assert.equal(m.quantile, 928);
  assert.equal(m.d_star, 705);
  assert.equal(m.k, 3);
  assert.equal(m.max_col_count, 8);
  assert.equal(m.in_class, false);
  assert.equal(m.madds, 600);
  // Not reached trials stay null; a gap in the trials is an internal error.
  assert.deepEqual(mergeParts(8, [{ firstTrial: 1, r: { dMins: [-1] } }, { firstTrial: 0, r: { dMins: [4] } }], 0.5).d_mins, [4, null]);
  assert.throws(() => mergeParts(8, [{ firstTrial: 0, r: { dMins: [4] } }, { firstTrial: 2, r: { dMins: [5] } }], 0.5), /do not join up/);
  // A single part covering everything is the core's answer as is.
  assert.deepEqual(mergeParts(64, [{ firstTrial: 0, r: { L: 64, dMins: full, median: 680, quantile: 928, dStar: 5, k: 2, maxColCount: 3, inClass: true, madds: 9 } }], 0.1),
    pointFromApi({ L: 64, dMins: full, median: 680, quantile: 928, dStar: 5, k: 2, maxColCount: 3, inClass: true, madds: 9 }));
});

test('runner: largest L first, bounded concurrency, split lengths merged in trial order', async () => {
  // Later parts finish first: the merge must still give trial order.
  const pool = fakePool({ delay: 2, order: (o) => 20 - (o.firstTrial ?? 0) });
  const got = [];
  const progress = [];
  const T = 6;
  const out = await runSweep(pool, { opts: { trials: T, delta: 0.1 }, Ls: [16, 32, 64, 128], concurrency: 4, onPoint: (p) => got.push(p.L), onProgress: (p) => progress.push(p) });
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
  await runSweep(pool, { opts: { trials: 4, delta: 0.1 }, Ls: [16, 256], concurrency: 1, onPoint: (p) => seen.push({ L: p.L }), onProgress: (p) => { if (seen.length === 1 && !seen[0].f) seen[0].f = p.fraction; } });
  // After L = 16 (one task, cost 16^2 ln 16 * 4) the fraction is its share of the total cost.
  close(seen[0].f, taskWeight(16, 4) / (taskWeight(16, 4) + taskWeight(256, 4)));
});

test('runner: one worker runs the smallest L first', async () => {
  const pool = fakePool({ delay: 1 });
  await runSweep(pool, { opts: { trials: 1, delta: 0.1 }, Ls: [16, 32, 64], concurrency: 1 });
  assert.deepEqual(pool.calls.map((c) => c.L), [16, 32, 64]);
  const pool2 = fakePool({ delay: 1 });
  const out = await runSweep(pool2, { opts: { trials: 5, delta: 0.1 }, Ls: [16, 512], concurrency: 1 });
  assert.deepEqual(pool2.calls.map((c) => [c.L, c.firstTrial, c.trials]), [[16, 0, 5], [512, 0, 1], [512, 1, 1], [512, 2, 1], [512, 3, 1], [512, 4, 1]]);
  assert.deepEqual(out.points[1].d_mins, fullPoint(512, 5, 0.1).d);
});

test('runner: cancel keeps the finished lengths and drops partly computed ones', async () => {
  // Two workers: L = 1024 (4 parts) runs first, then 512 (1 part). Cancel as soon as 1024 is done:
  // 512 ran part of the time and must not appear; states say cancelled.
  const pool = fakePool({ delay: 4, order: (o) => (o.L === 1024 ? 2 : 100) });
  const ac = new AbortController();
  const states = new Map();
  const log = [];
  const p = runSweep(pool, { opts: { trials: 4, delta: 0.1 }, Ls: [16, 32, 512, 1024], concurrency: 2, signal: ac.signal,
    onTask: (L, s, info) => { states.set(L, s); log.push([L, s, info.trialsDone]); },
    onPoint: (pt) => { if (pt.L === 1024) ac.abort(); } });
  const out = await p;
  assert.equal(out.cancelled, true);
  assert.deepEqual(out.points.map((q) => q.L), [1024]);
  assert.deepEqual(out.points[0].d_mins, fullPoint(1024, 4, 0.1).d);
  assert.equal(states.get(1024), 'done');
  assert.equal(states.get(512), 'cancelled');
  assert.equal(states.get(32), 'cancelled');
  assert.equal(states.get(16), 'cancelled');
  // While 1024 was running, its trial count went up part by part.
  assert.deepEqual(log.filter(([L, s]) => L === 1024 && s === 'running').map((x) => x[2]), [0, 1, 2, 3]);
});

test('runner: cancel with a length half done drops it', async () => {
  // One worker, L = 512 split in parts: cancel after its first part finished.
  const pool = fakePool({ delay: 1 });
  const ac = new AbortController();
  const states = new Map();
  const out = await runSweep(pool, { opts: { trials: 6, delta: 0.1 }, Ls: [512], concurrency: 1, signal: ac.signal,
    onTask: (L, s, info) => { states.set(L, s); if (s === 'running' && info.trialsDone > 0) ac.abort(); } });
  assert.equal(out.cancelled, true);
  assert.deepEqual(out.points, []);
  assert.equal(states.get(512), 'cancelled');
  assert.deepEqual(pool.calls.map((c) => [c.L, c.firstTrial, c.trials]), [[512, 0, 2]], 'nothing started after the cancel');
});

test('runner: a refused request rejects with its message and stops the rest', async () => {
  const pool = fakePool({ fail: 64 });
  const states = new Map();
  await assert.rejects(runSweep(pool, { opts: { trials: 2, delta: 0.1 }, Ls: [16, 64, 128], concurrency: 1, onTask: (L, s) => states.set(L, s) }), /k must be an integer from 1 to 64/);
  assert.deepEqual(pool.calls.map((c) => c.L), [16, 64]);
  assert.equal(states.get(64), 'failed');
  assert.equal(states.get(128), 'cancelled');
});

test('runner with the real module: split parts reproduce the unsplit sweep point', async () => {
  const { load } = await import('../../web/lib/attnx.js');
  const api = await load();
  const pool = { run: async (method, o, { onProgress }) => api[method](o, onProgress) };
  const opts = { pattern: 'random', k: 2, trials: 6, seed: 3, delta: 0.1 };
  const out = await runSweep(pool, { opts, Ls: [32, 64], concurrency: 4 });
  assert.ok(planTasks([32, 64], 6, 4).length > 2, 'the sweep was split');
  for (const p of out.points) {
    const whole = pointFromApi(api.sweepPoint({ ...opts, L: p.L }));
    assert.deepEqual(p, whole, `L = ${p.L}`);
  }
  assert.deepEqual(out.points.find((p) => p.L === 64).d_mins, [528, 832, 928, 640, 528, 720]);
});

test('runner helpers', () => {
  assert.deepEqual(pointFromApi({ L: 64, dMins: [1, null, -1], median: null, quantile: null, dStar: 5, k: 2, maxColCount: 3, inClass: false, madds: 9 }),
    { L: 64, d_mins: [1, null, null], median: null, quantile: null, d_star: 5, k: 2, max_col_count: 3, in_class: false, madds: 9 });
  assert.ok(taskWeight(512, 10) > 4 * taskWeight(256, 10));
  const p = progressOf([{ weight: 3, fraction: 1 }, { weight: 1, fraction: 0 }], 3);
  assert.equal(p.fraction, 0.75);
  close(p.eta, 1);
  assert.equal(progressOf([{ weight: 1, fraction: 0 }], 1).eta, null);
});

// ---- sentences ----

test('fit sentence and paper comparison', () => {
  const doc = parseImport(fixture('cli-sweep-paper.json'));
  const s = fitSentence(doc.fits, doc.points);
  assert.match(s, /Logarithmic fit d = .*R² 0\.\d{3}/);
  assert.match(s, /p = 0\.\d\d: R² 0\.\d{3}/);
  assert.match(fitSentence(fitSweep([]), []), /two or more lengths/);
  const nr = parseImport(fixture('cli-sweep-notreached.json'));
  assert.match(fitSentence(nr.fits, nr.points), /0 so far; some lengths did not reach it/);
  assert.match(paperSentence(doc.points), /300–1000.*Measured here: median d_min \d+–\d+ for L = 64…512/);
  assert.equal(formatDuration(3.21), '3.2 s');
  assert.equal(formatDuration(65), '1 min 05 s');
});
