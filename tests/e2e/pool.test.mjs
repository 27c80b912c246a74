// The worker pool (web/lib/pool.js + worker.js) in a real browser: headless Chromium through
// playwright-core. Run, progress, errors, cancellation of running and queued tasks, respawn,
// concurrency, destroy, the forced scalar flavour, and the module on the page under a strict CSP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { launchChromium } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { load } from '../../web/lib/attnx.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let server, browser, page;
const consoleErrors = [];

before(async () => {
  assert.ok(existsSync(`${ROOT}web/wasm/attnx_simd.wasm`), 'web/wasm is missing: run scripts/build-wasm');
  server = await startServer(ROOT, 0);
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(`${server.url}tests/e2e/fixtures/pool.html`);
  await page.waitForFunction(() => window.ready || window.loadError, null, { timeout: 60000 });
  const err = await page.evaluate(() => window.loadError);
  assert.equal(err, undefined, `fixture failed: ${err}`);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

test('the module loads on the page under a strict CSP (no eval) and picks SIMD', async () => {
  const info = await page.evaluate(() => window.pageInfo);
  assert.equal(info.simd, true);
  assert.equal(info.flavour, 'wasm-simd128');
  assert.equal(info.gramKernel, 'wasm-simd128');
  assert.deepEqual(consoleErrors.filter((e) => /Content Security Policy|EvalError/i.test(e)), []);
});

test('pool.size is max(1, hardwareConcurrency - 1); run returns plain data with transferred arrays', async () => {
  const r = await page.evaluate(async () => {
    const res = await window.pool.run('construct', { pattern: 'random', L: 64, k: 2, d: 32, seed: 7 });
    return {
      size: window.pool.size,
      hc: navigator.hardwareConcurrency,
      isF32: res.M instanceof Float32Array,
      n: res.M.length,
      rowsI32: res.A.rows instanceof Int32Array,
      metrics: res.metrics,
      k: res.k,
      M: Array.from(res.M.subarray(0, 64)),
    };
  });
  assert.equal(r.size, Math.max(1, r.hc - 1));
  assert.equal(r.isF32, true);
  assert.equal(r.rowsI32, true);
  assert.equal(r.n, 64 * 64);
  assert.equal(r.k, 2);
  // Same seed in Node and in the browser's worker: the same numbers.
  const api = await load();
  const local = api.construct({ pattern: 'random', L: 64, k: 2, d: 32, seed: 7 });
  assert.deepEqual(r.metrics, local.metrics);
  assert.deepEqual(r.M, Array.from(local.M.subarray(0, 64)));
});

test('progress arrives in order and ends at 1; other methods work through the pool', async () => {
  const r = await page.evaluate(async () => {
    const seen = [];
    const res = await window.pool.run('minD', { L: 512, seed: 3 }, { onProgress: (f) => seen.push(f) });
    const pt = await window.pool.run('sweepPoint', { L: 64, trials: 2, seed: 1 });
    const fits = await window.pool.run('fits', { Ls: [64, 128, 256], ds: [400, 450, 500] });
    const pats = await window.pool.run('patterns', {});
    const est = await window.pool.run('estimateBytes', { L: 1024, d: 512 });
    const q = await window.pool.run('quantile', { ds: [16, 32, 48], delta: 0.1 });
    return { dMin: res.dMin, seen, pt, fits, nFam: pats.families.length, est, q };
  });
  const api = await load();
  assert.equal(r.dMin, api.minD({ L: 512, seed: 3 }).dMin);
  assert.ok(r.seen.length >= 2, `progress calls: ${r.seen.length}`);
  assert.equal(r.seen.at(-1), 1);
  for (let q = 1; q < r.seen.length; q++) assert.ok(r.seen[q] > r.seen[q - 1]);
  assert.deepEqual(r.pt.dMins, api.sweepPoint({ L: 64, trials: 2, seed: 1 }).dMins);
  assert.equal(r.fits.log.ok, true);
  assert.equal(r.nFam, 9);
  assert.deepEqual(r.est, api.estimateBytes({ L: 1024, d: 512 }));
  assert.equal(r.q, 48);
});

test('lp and moment constructs (longer than a slice, not resumable) finish through the pool; precision too', async () => {
  const opts = { L: 256, k: 2, seed: 5, d: 24 };
  const r = await page.evaluate(async (opts) => {
    const lp = await window.pool.run('construct', { ...opts, construction: 'lp' });
    const mo = await window.pool.run('construct', { ...opts, construction: 'moment' });
    const pr = await window.pool.run('precision', { ...opts, d: 600 });
    const jl = await window.pool.run('construct', { ...opts, d: 600 });
    return { lp: [lp.metrics.success, lp.report.feasibleRows, lp.precision.bits], mo: [mo.d, mo.precision.bits], pr: pr.precision, jl: jl.metrics.success };
  }, opts);
  const api = await load();
  const lp = api.construct({ ...opts, construction: 'lp' }), mo = api.construct({ ...opts, construction: 'moment' });
  assert.deepEqual(r.lp, [lp.metrics.success, lp.report.feasibleRows, lp.precision.bits]);
  assert.deepEqual(r.mo, [mo.d, mo.precision.bits]);
  assert.deepEqual(r.pr, api.precision({ ...opts, d: 600 }).precision);
  assert.equal(r.jl, api.construct({ ...opts, d: 600 }).metrics.success);
});

test('errors come back as RangeError with message and field; the worker stays usable', async () => {
  const r = await page.evaluate(async () => {
    const out = [];
    for (const [m, o] of [['construct', { tau: 2 }], ['minD', { dmax: 8, step: 16 }], ['construct', { L: 16384, d: 16384 }], ['nosuch', {}]]) {
      try {
        await window.pool.run(m, o);
        out.push(null);
      } catch (e) {
        out.push({ name: e.name, message: e.message, field: e.field, kind: e.kind, isRange: e instanceof RangeError });
      }
    }
    const ok = await window.pool.run('construct', { L: 16, d: 8 });
    return { out, okL: ok.L };
  });
  assert.deepEqual(r.out[0], { name: 'RangeError', message: 'tau must be a number in (0, 1) (got 2)', field: 'tau', kind: 'invalid', isRange: true });
  assert.equal(r.out[1].field, 'dmax');
  assert.match(r.out[1].message, /^dmax must be an integer from 16 to 16384 \(got 8\)$/);
  assert.equal(r.out[2].kind, 'budget');
  assert.match(r.out[2].message, /above the memory budget of 2048 MiB/);
  assert.equal(r.out[3].name, 'RangeError');
  assert.match(r.out[3].message, /^unknown method "nosuch"/);
  assert.equal(r.okL, 16);
});

// A run that takes many seconds: never reaches (tiny eps) over a long grid.
const LONG = { L: 4096, eps: 0.01, dmax: 16384, step: 16, seed: 1 };

test('cancel: a running task rejects with AbortError, its worker is replaced, the pool goes on', async () => {
  const r = await page.evaluate(async (LONG) => {
    const pool = await window.attnx.createPool({ size: 1 });
    const firstWorker = pool._slots[0].worker;
    const ctrl = new AbortController();
    let progressed = 0;
    const p = pool.run('minD', LONG, { signal: ctrl.signal, onProgress: () => { progressed++; if (progressed === 1) ctrl.abort(); } });
    let err;
    try { await p; } catch (e) { err = { name: e.name, isDom: e instanceof DOMException }; }
    const after = await pool.run('minD', { L: 128, seed: 2 });
    const replaced = pool._slots.length === 1 && pool._slots[0].worker !== firstWorker;
    // Already-aborted signals reject at once.
    let early;
    try { await pool.run('construct', { L: 8, d: 4 }, { signal: AbortSignal.abort() }); } catch (e) { early = e.name; }
    pool.destroy();
    return { err, progressed, afterDmin: after.dMin, replaced, early };
  }, LONG);
  assert.deepEqual(r.err, { name: 'AbortError', isDom: true });
  assert.equal(r.progressed, 1);
  assert.ok(r.afterDmin > 0);
  assert.equal(r.replaced, true);
  assert.equal(r.early, 'AbortError');
});

test('cancel: a running construct stops between slices; the same worker goes on and keeps its Gram matrix', async () => {
  const r = await page.evaluate(async () => {
    const pool = await window.attnx.createPool({ size: 2 });
    const ctrl = new AbortController();
    let progressed = 0;
    const big = { L: 1024, d: 4096, seed: 5 };
    const p = pool.run('construct', big, { signal: ctrl.signal, onProgress: () => { if (++progressed === 1) ctrl.abort(); } });
    const firstWorker = pool._slots[0].worker;
    let err;
    try { await p; } catch (e) { err = e.name; }
    // The next construct waits for the same worker (not a cold second one) and goes on from the
    // columns the stopped run had summed.
    let timing = null;
    const done = await pool.run('construct', big, { onTiming: (t) => { timing = t; } });
    const workers = pool._slots.map((s) => s.worker);
    const again = await pool.run('construct', { ...big, d: 4000 });
    pool.destroy();
    return {
      err, progressed, sameWorker: workers.length === 1 && workers[0] === firstWorker,
      doneD: done.d, ok: done.cancelled === false, added: done.gramColumnsAdded, againAdded: again.gramColumnsAdded, timing,
    };
  });
  assert.equal(r.err, 'AbortError');
  assert.ok(r.progressed >= 1);
  assert.equal(r.sameWorker, true, 'no respawn and no second worker for a construct');
  assert.equal(r.doneD, 4096);
  assert.equal(r.ok, true);
  assert.ok(r.added < 4096, `the stopped run's columns were kept (added ${r.added})`);
  assert.ok(r.againAdded < 128, `a smaller d starts from a kept rung (added ${r.againAdded})`);
  assert.ok(r.timing && r.timing.end >= r.timing.start && r.timing.busyMs >= 0, 'onTiming gets the worker clock');
});

test('cancel: a queued task is dropped without touching the running one; concurrency; destroy', async () => {
  const r = await page.evaluate(async (LONG) => {
    const pool = await window.attnx.createPool({ size: 1 });
    const a = new AbortController(), b = new AbortController();
    const worker = pool._slots[0].worker;
    const pa = pool.run('minD', LONG, { signal: a.signal }).then(() => 'done', (e) => e.name);
    const pb = pool.run('construct', { L: 8, d: 4 }, { signal: b.signal }).then(() => 'done', (e) => e.name);
    const pc = pool.run('construct', { L: 8, d: 4 });
    b.abort();
    const bRes = await pb;
    const sameWorker = pool._slots[0].worker === worker;  // aborting a queued task kills nothing
    a.abort();
    const aRes = await pa;
    const cRes = (await pc).L;

    // Two workers run two tasks at the same time.
    const pool2 = await window.attnx.createPool({ size: 2 });
    const t = [pool2.run('minD', { L: 256, seed: 1 }), pool2.run('minD', { L: 256, seed: 2 })];
    const busy = pool2._slots.filter((s) => s.task).length;
    await Promise.all(t);
    // destroy(): running and queued tasks reject; later runs reject.
    const pd = pool2.run('minD', LONG).then(() => 'done', (e) => e.name);
    pool2.destroy();
    const dRes = await pd;
    let later;
    try { await pool2.run('construct', {}); } catch (e) { later = e.message; }
    pool.destroy();
    return { bRes, sameWorker, aRes, cRes, busy, dRes, later };
  }, LONG);
  assert.equal(r.bRes, 'AbortError');
  assert.equal(r.sameWorker, true);
  assert.equal(r.aRes, 'AbortError');
  assert.equal(r.cRes, 8);
  assert.equal(r.busy, 2);
  assert.equal(r.dRes, 'AbortError');
  assert.match(r.later, /destroyed/);
});

test('warm() starts every worker up to the size before any task needs them; tasks then run on them', async () => {
  const r = await page.evaluate(async () => {
    const pool = await window.attnx.createPool({ size: 3 });
    const before = pool._slots.length;  // createPool waits for the first worker only
    const ready = await pool.warm();
    const workers = pool._slots.map((s) => s.worker);
    const again = await pool.warm();  // nothing more to start
    const t = [1, 2, 3].map((seed) => pool.run('minD', { L: 128, seed }));
    const busy = pool._slots.filter((s) => s.task).length;
    await Promise.all(t);
    const same = pool._slots.every((s, q) => s.worker === workers[q]);
    pool.destroy();
    return { before, ready, again, count: workers.length, busy, same };
  });
  assert.deepEqual(r, { before: 1, ready: 3, again: 3, count: 3, busy: 3, same: true });
});

test('a pool can be forced to the scalar build; results equal the SIMD build', async () => {
  const r = await page.evaluate(async () => {
    const pool = await window.attnx.createPool({ size: 1, flavour: 'scalar' });
    const info = await pool.run('info', {});
    const res = await pool.run('minD', { L: 200, seed: 5 });
    const simd = await window.pool.run('minD', { L: 200, seed: 5 });
    pool.destroy();
    return { info, a: res.dMin, b: simd.dMin, ga: res.gramMadds, gb: simd.gramMadds };
  });
  assert.equal(r.info.flavour, 'wasm-scalar');
  assert.equal(r.info.simd, false);
  assert.equal(r.a, r.b);
  assert.equal(r.ga, r.gb);
});

test('a long construct borrows helpers to sum its Gram matrix in bands: the same bits as one worker; a stopped one is taken up again', async () => {
  const r = await page.evaluate(async () => {
    const hash = window.hashFloats;
    const big = { L: 2048, d: 2048, seed: 5, pattern: 'window' };  // 2^32 multiply-adds: split
    const pool = await window.attnx.createPool({ size: 1, helpers: 1 });
    // Stopped while the bands are summed (at the first progress report, which comes as the home
    // band starts): rejects; the band sum and its helper go on.
    const ctrl = new AbortController();
    const stopRes = await pool.run('construct', big, { signal: ctrl.signal, onProgress: () => ctrl.abort() })
      .then(() => 'done', (e) => e.name);
    const jobsAtStop = pool._helpers.jobs;
    let t1 = null;
    const b = await pool.run('construct', big, { onTiming: (t) => { t1 = t; } });  // takes it up
    const jobsAfter = pool._helpers.jobs;
    const idleAfter = pool._helpers._idle.length;
    const down = await pool.run('construct', { ...big, d: 2000 });  // from a rung the bands kept
    // A stopped split, then other settings: the old band sum is dropped and its helper ends. Its
    // helper's band is long (d = 8192) and the stop comes at the first progress report, so that
    // the helper is still summing when the worker has stopped.
    const ctrl2 = new AbortController();
    await pool.run('construct', { ...big, seed: 6, d: 8192 }, { signal: ctrl2.signal, onProgress: () => ctrl2.abort() })
      .catch(() => {});
    await pool.run('info', {});  // runs once the worker has stopped the construct
    const busyBeforeOther = pool._helpers._busy.size;
    await pool.run('construct', { L: 256, d: 64 });
    const liveAfterOther = pool._helpers.live;  // a helper that finished would wait, idle
    pool.destroy();
    const alone = await window.attnx.createPool({ size: 1, helpers: 0 });
    let t0 = null;
    const a = await alone.run('construct', big, { onTiming: (t) => { t0 = t; } });
    alone.destroy();
    return {
      stopRes, jobsAtStop, jobsAfter, idleAfter, bandsAlone: t0.bands, bands: t1.bands, added: b.gramColumnsAdded,
      same: hash(a.M) === hash(b.M) && hash(a.logits) === hash(b.logits),
      metricsSame: JSON.stringify(a.metrics) === JSON.stringify(b.metrics), downAdded: down.gramColumnsAdded,
      busyBeforeOther, liveAfterOther,
    };
  });
  assert.equal(r.stopRes, 'AbortError');
  assert.equal(r.jobsAtStop, 1, 'the stopped construct had handed a band to a helper');
  assert.equal(r.jobsAfter, 1, 'the next construct took the band sum up: no new band job');
  assert.equal(r.bandsAlone, 1);
  assert.equal(r.bands, 2, 'the construct was split between its worker and one helper');
  assert.equal(r.same, true, 'M and the logits have the bits of one worker');
  assert.equal(r.metricsSame, true);
  assert.equal(r.added, 2048, 'the columns summed in bands count as the construct\'s');
  assert.equal(r.idleAfter, 1, 'the helper waits, idle, for the next split');
  assert.ok(r.downAdded < 128, `a smaller d starts from a rung the bands kept (added ${r.downAdded})`);
  assert.equal(r.busyBeforeOther, 1, 'a stopped split\'s helper goes on after its worker has stopped');
  assert.equal(r.liveAfterOther, 0, 'a construct of other settings drops the band sum: its helper ends');
});

test('a split construct posts its result before the helper\'s rungs are in; the next construct waits for them, and a step down starts from them', async () => {
  const r = await page.evaluate(async () => {
    const big = { L: 2048, d: 2048, seed: 11, pattern: 'window' };
    const pool = await window.attnx.createPool({ size: 1, helpers: 1 });
    // Helpers whose 'rungs' message comes 0.5 s late: after the next construct is asked.
    window.helpersWithRungs(pool, (deliver) => setTimeout(deliver, 500));
    let t = null;
    const first = await pool.run('construct', big, { onTiming: (x) => { t = x; } });
    const down = await pool.run('construct', { ...big, d: 1990 });  // waits for the rungs
    pool.destroy();
    const alone = await window.attnx.createPool({ size: 1, helpers: 0 });
    const ref = await alone.run('construct', { ...big, d: 1990 });
    alone.destroy();
    return { bands: t.bands, rungsAfter: t.rungsAfter, added: first.gramColumnsAdded, downAdded: down.gramColumnsAdded,
      same: window.hashFloats(down.M) === window.hashFloats(ref.M) };
  });
  assert.equal(r.bands, 2);
  assert.equal(r.rungsAfter, 1, 'the helper\'s rungs come after the construct\'s result');
  assert.equal(r.added, 2048);
  assert.equal(r.downAdded, 1990 - 1920, 'd = 1990 starts from the rung at 1920, which the late rungs completed');
  assert.equal(r.same, true, 'and has the bits of one worker');
});

test('a construct cancelled while it waits for a helper\'s rungs stops before they come, on the same worker, and starts no band', async () => {
  const r = await page.evaluate(async () => {
    const big = { L: 2048, d: 2048, seed: 13, pattern: 'window' };
    const pool = await window.attnx.createPool({ size: 1, helpers: 1 });
    const events = [];
    // Helpers whose 'rungs' message comes 1.5 s late.
    window.helpersWithRungs(pool, (deliver) => setTimeout(() => { events.push('rungs'); deliver(); }, 1500));
    await pool.run('construct', big);
    const worker = pool._slots[0].worker, jobs = pool._helpers.jobs;
    const ctrl = new AbortController();
    const stopped = pool.run('construct', { ...big, d: 4096 }, { signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 50);
    let err;
    try { await stopped; } catch (e) { err = e.name; }
    // The worker takes its next task once the stopped one has ended: before the rungs come.
    await pool.run('estimateBytes', big);
    events.push('next task done');
    const down = await pool.run('construct', { ...big, d: 1990 });  // waits for the rungs
    const sameWorker = pool._slots[0].worker === worker;
    const newJobs = pool._helpers.jobs - jobs;
    pool.destroy();
    return { err, events, sameWorker, newJobs, downAdded: down.gramColumnsAdded };
  });
  assert.equal(r.err, 'AbortError');
  assert.deepEqual(r.events, ['next task done', 'rungs'], 'the stopped construct ended without waiting for the rungs');
  assert.equal(r.sameWorker, true, 'the worker (and its Gram matrix) was kept');
  assert.equal(r.newJobs, 0, 'the cancelled construct handed no band to a helper');
  assert.equal(r.downAdded, 1990 - 1920, 'the next construct waited for the rungs and starts from the one at 1920');
});

test('a helper that fails after posting its band, before its rungs: the next construct does not wait for them and sums from the start, with the same bits', async () => {
  const r = await page.evaluate(async () => {
    const big = { L: 2048, d: 2048, seed: 11, pattern: 'window' };
    const pool = await window.attnx.createPool({ size: 1, helpers: 1 });
    // Helpers whose 'rungs' message is replaced by an error event, as if they failed then.
    window.helpersWithRungs(pool, (deliver, fail) => fail());
    let t = null;
    const first = await pool.run('construct', big, { onTiming: (x) => { t = x; } });
    const hung = new Promise((resolve) => setTimeout(() => resolve(null), 30000));
    const down = await Promise.race([pool.run('construct', { ...big, d: 1990 }), hung]);
    if (!down) return { hung: true };
    const live = pool._helpers.live;
    pool.destroy();
    const alone = await window.attnx.createPool({ size: 1, helpers: 0 });
    const ref = await alone.run('construct', { ...big, d: 1990 });
    alone.destroy();
    return { bands: t.bands, added: first.gramColumnsAdded, downAdded: down.gramColumnsAdded, live,
      same: window.hashFloats(down.M) === window.hashFloats(ref.M) };
  });
  assert.equal(r.hung, undefined, 'the next construct did not wait for rungs that will not come');
  assert.equal(r.bands, 2, 'G at d came from the helper');
  assert.equal(r.added, 2048);
  assert.equal(r.live, 0, 'the failed helper ended');
  assert.equal(r.downAdded, 1990, 'no rung is complete without the helper\'s part: d = 1990 sums every column');
  assert.equal(r.same, true);
});

test('a helper that cannot sum its band leaves the construct to sum G itself, with the same bits', async () => {
  const r = await page.evaluate(async () => {
    const hash = window.hashFloats;
    const big = { L: 2048, d: 2048, seed: 8, pattern: 'window' };
    // Helpers from a script that fails as it starts.
    const pool = await window.attnx.createPool({ size: 1, helpers: 1 });
    pool._helpers._start = () => new Worker('./failing-worker.js', { type: 'module' });
    let t1 = null;
    const b = await pool.run('construct', big, { onTiming: (t) => { t1 = t; } });
    const live = pool._helpers.live;
    pool.destroy();
    const alone = await window.attnx.createPool({ size: 1, helpers: 0 });
    const a = await alone.run('construct', big);
    alone.destroy();
    return { bands: t1.bands, same: hash(a.M) === hash(b.M) && hash(a.logits) === hash(b.logits), live };
  });
  assert.equal(r.bands, 1);
  assert.equal(r.same, true);
  assert.equal(r.live, 0, 'the failed helper ended');
});

test('no uncaught errors on the page', () => {
  assert.deepEqual(consoleErrors.filter((e) => !/favicon/.test(e)), []);
});
