#!/usr/bin/env node
// attnx explorer drag benchmark (npm run bench:explorer; issue 10, "instant explorer"): how quickly
// the explorer page answers a human dragging the d slider. Serves dist/ (or web/ when dist/ has
// not been built; ATTNX_E2E_DIR overrides, e.g. a copy of an older build) like the e2e tests and
// opens index.html#v=1&L=<L>&d=64&help=0 in headless Chromium (1280 x 900).
//   drag (L = 256, 1024): real pointer input on #f-d-slider (logarithmic, d = round(2^(value / 8))):
//            press on the thumb at d = 64, move in small steps (one every ~16 ms) up to d = 2048,
//            pause 500 ms, down to d = 256, pause, release, wait until idle. Then, for reference,
//            "steps": ArrowRight on the focused slider 5 times, 300 ms apart.
//   latency of a drawn result: the page's performance.measure('attnx:latency') (input event that
//            produced the shown state -> painted; detail: queue, compute, transfer, pooling, paint,
//            in ms). Pages without it (older builds): from the input event on #f-d-slider / #f-d
//            that asked for the d the status line reports as drawn (else the earliest input not
//            yet answered) to the next animation frame after data-runs increments with
//            data-busy = '0'; the breakdown then prints "—".
//   settle: last input event -> last draw; frames dropped: for every gap between animation
//            frames over 1.5 x the median interval, round(gap / median) - 1 frames (during the
//            drags, until idle); longest task: longest main-thread task then (PerformanceObserver
//            'longtask'; the browser reports only tasks of 50 ms or more, 0 = none).
//   typed (L = 256, 1024; issue 46.4): d values put into #f-d (one input event) and Enter; change ->
//            idle again (data-busy '0', the next frame) and the page's input -> painted, p50.
//   big (L = 4096): d = 16384 typed into #f-d; time until drawn (timeout 120 s, reported, not
//            fatal) and the progress bar (#progress sampled every 250 ms: shown, distinct values).
//   zoom/pan (L = 1024 and 4096, issue 48): the heatmap M focused from the keyboard, "+" zooms in
//            (the first zoom: the window is drawn at once, cut from the pooled images, and M is
//            computed once more in full: reported as "first zoom", input -> the full-resolution
//            window settled); then window changes with nothing computed: "+" four times, "-"
//            twice (ZOOM_GAP_MS apart), a mouse drag across M (ZOOM_DRAG_STEPS steps of
//            MOVE_PX * 3, one every FRAME_MS), Ctrl + wheel in and out (ZOOM_WHEELS events
//            ZOOM_GAP_MS apart) and "0" (the whole matrix). Per window change the page's
//            performance.measure('attnx:view') (input event -> the frame that shows the window;
//            detail: pooling in the render worker, paint): p50, p95, and the longest task.
//            BIG_RUNS runs, each on a fresh page (one run varied by ±10 % on a 2-core machine):
//            the best is reported (with its breakdown, parts: queue, compute, transfer, pooling,
//            paint), every run's time is kept (runsMs).
// A report, not a test: it prints a table and exits 0 (1 only if the page never draws).
//
// The report is also written as JSON (test-output/bench-explorer.json, or --json FILE) with issue
// 26's targets; scripts/perf-table.mjs makes the README's table from it and bench-lab's.
//
//   node scripts/bench-explorer.mjs [--L 256,1024,4096] [--zoom-only] [--json out.json]
// (--zoom-only: the zoom/pan lines alone, at the lengths of --L that have one.)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launchChromium, servedDir } from './chromium.mjs';
import { startServer } from './serve.mjs';
import { sliderBox, thumbX, dragX, DSLIDER } from './slider-drag.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIR = servedDir();
const DEFAULT_LS = [256, 1024, 4096];
const BIG_L = 4096, BIG_D = 16384;       // the L that is not dragged, and the d typed for it
const BIG_RUNS = 3;
const START_D = 64, TOP_D = 2048, BACK_D = 256;
const MOVE_PX = 2, FRAME_MS = 16;        // one pointer step of MOVE_PX every FRAME_MS
const PAUSE_MS = 500, STEPS = 5, STEP_GAP_MS = 300;
const ZOOM_LS = [1024, 4096], ZOOM_D = 256, ZOOM_GAP_MS = 120, ZOOM_DRAG_STEPS = 40, ZOOM_WHEELS = 8;
// Issue 26's targets: p50 of a drawn result while d is dragged, per L (ms); L = 4096 drawn (ms).
const TARGETS = { dragP50Ms: { 256: 20, 1024: 50 }, bigMs: 3000 };
const TYPED_DS = [300, 1000, 2048, 512, 128, 700, 1500];  // typed into the d field, one after another
const IDLE_GRACE_MS = 3000;              // an input that drew nothing counts as answered after this
const DRAW_TIMEOUT_MS = 120000;          // only so that a broken page cannot hang

function parseArgs(argv) {
  const o = { Ls: DEFAULT_LS, json: `${ROOT}test-output/bench-explorer.json`, zoomOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--L') {
      const v = argv[++i] ?? '';
      if (!/^\d+(,\d+)*$/.test(v)) usage(`--L must be a comma-separated list of lengths (got "${v}")`);
      o.Ls = v.split(',').map(Number);
    } else if (a === '--json') {
      o.json = argv[++i];
      if (!o.json) usage('--json needs a file name');
    } else if (a === '--zoom-only') o.zoomOnly = true;
    else if (a === '--help' || a === '-h') usage(null);
    else usage(`unknown option ${a}`);
  }
  return o;
}

function usage(err) {
  if (err) console.error(`bench-explorer: ${err}`);
  console[err ? 'error' : 'log']('usage: node scripts/bench-explorer.mjs [--L 256,1024,4096] [--zoom-only] [--json out.json]');
  process.exit(err ? 2 : 0);
}

// Installed before the page's own scripts: collects every long task into window.__long.
function recordLongTasks() {
  window.__long = [];
  window.__longObs = new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); });
  window.__longObs.observe({ type: 'longtask' });
}

// Installed before the page's own scripts: window.__probe collects the page's latency measures,
// the input events on the d controls ({ t, d }), the draws seen from data-runs / data-busy
// ({ t, d } at the next animation frame; d from the status line), when data-busy last became '0'
// (idleSince) and every animation frame.
function recordProbe(DSLIDER) {
  const p = window.__probe = { measures: [], views: [], inputs: [], draws: [], frames: [] };
  const onMeasures = (list) => {
    for (const e of list) {
      if (e.name === 'attnx:latency') p.measures.push({ start: e.startTime, end: e.startTime + e.duration, detail: e.detail || {} });
      if (e.name === 'attnx:view') p.views.push({ start: e.startTime, end: e.startTime + e.duration, detail: e.detail || {} });
    }
  };
  p.obs = new PerformanceObserver((l) => onMeasures(l.getEntries()));
  p.obs.observe({ type: 'measure' });
  p.flush = () => onMeasures(p.obs.takeRecords());
  document.addEventListener('input', (e) => {
    const el = e.target, id = el && el.id;
    if (id !== 'f-d-slider' && id !== 'f-d') return;
    const d = id === 'f-d' ? Number(el.value) : Math.max(1, Math.round(2 ** (Number(el.value) / DSLIDER)));
    p.inputs.push({ t: e.timeStamp || performance.now(), d });
  }, true);
  const tick = (t) => { p.frames.push(t); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  let seen = 0;
  new MutationObserver(() => {
    const ds = document.documentElement.dataset, n = Number(ds.runs || 0);
    if (ds.busy === '0' && p.busy !== '0') p.idleSince = performance.now();
    p.busy = ds.busy;
    if (n <= seen || ds.busy !== '0') return;
    seen = n;
    const s = document.getElementById('status-text'), m = /\bd = (\d+)/.exec(s ? s.textContent : '');
    requestAnimationFrame(() => p.draws.push({ t: performance.now(), d: m ? Number(m[1]) : null }));
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-runs', 'data-busy'] });
}

// Opens the explorer at L, d and waits for its first draw. Resolves to { context, page }.
async function openPage(browser, url, L, d) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(recordLongTasks);
  await page.addInitScript(recordProbe, DSLIDER);
  await page.goto(`${url}index.html#v=1&L=${L}&d=${d}&help=0`);
  try {
    await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1
      && document.documentElement.dataset.busy === '0', null, { timeout: DRAW_TIMEOUT_MS });
  } catch {
    await context.close();
    throw new Error(`L = ${L}: the page did not draw within ${DRAW_TIMEOUT_MS / 1000} s`);
  }
  return { context, page };
}

// Forgets everything recorded so far (page load, earlier phases). Resolves to performance.now().
function resetProbe(page) {
  return page.evaluate(() => {
    const p = window.__probe;
    p.flush();
    p.measures = []; p.views = []; p.inputs = []; p.draws = []; p.frames = [];
    window.__longObs.takeRecords();
    window.__long = [];
    return performance.now();
  });
}

// Waits until nothing is pending and the last input is answered by a draw (or changed nothing:
// nothing drawn IDLE_GRACE_MS after it and after data-busy became '0'). Resolves to false if that
// took longer than timeout.
async function waitIdle(page, timeout = DRAW_TIMEOUT_MS) {
  try {
    await page.waitForFunction((grace) => {
      const p = window.__probe;
      p.flush();
      if (document.documentElement.dataset.busy !== '0') return false;
      const lastIn = p.inputs.length ? p.inputs[p.inputs.length - 1].t : -Infinity;
      const lastDraw = Math.max(-Infinity, ...p.draws.map((x) => x.t), ...p.measures.map((x) => x.end));
      return lastDraw >= lastIn || performance.now() - Math.max(lastIn, p.idleSince || 0) > grace;
    }, IDLE_GRACE_MS, { timeout, polling: 50 });
    return true;
  } catch (e) {
    if (e && e.name === 'TimeoutError') return false;
    throw e;
  }
}

// Everything recorded since the last reset: { measures, inputs, draws, frames, longest, t }.
function collect(page) {
  return page.evaluate(() => {
    const p = window.__probe;
    p.flush();
    for (const e of window.__longObs.takeRecords()) window.__long.push(e.duration);
    const { measures, views, inputs, draws, frames } = p;
    return { measures, views, inputs, draws, frames, longest: Math.max(0, ...window.__long), t: performance.now() };
  });
}


// The scripted drag (see the top of this file). Resolves to what was recorded until idle, and
// d0, the d before the drag.
async function drag(page) {
  const g = await sliderBox(page);
  const [xs, xt, xb] = [thumbX(g, START_D), thumbX(g, TOP_D), thumbX(g, BACK_D)];
  const d0 = await page.$eval('#f-d-slider', (el) => Math.max(1, Math.round(2 ** (Number(el.value) / 8))));
  await resetProbe(page);
  await page.mouse.move(xs, g.y);
  await page.mouse.down();
  await dragX(page, xs, xt, g.y, { stepPx: MOVE_PX, frameMs: FRAME_MS });
  await page.waitForTimeout(PAUSE_MS);
  await dragX(page, xt, xb, g.y, { stepPx: MOVE_PX, frameMs: FRAME_MS });
  await page.waitForTimeout(PAUSE_MS);
  await page.mouse.up();
  const idle = await waitIdle(page);
  return { ...(await collect(page)), d0, idle };
}

// The reference steps: ArrowRight on the focused slider, STEPS times, STEP_GAP_MS apart.
async function steps(page) {
  await page.focus('#f-d-slider');
  await resetProbe(page);
  for (let i = 0; i < STEPS; i++) {
    if (i) await page.waitForTimeout(STEP_GAP_MS);
    await page.keyboard.press('ArrowRight');
  }
  const idle = await waitIdle(page);
  return { ...(await collect(page)), idle };
}

// Typed d (issue 46.4): for each d of TYPED_DS, the d field gets the value (one input event, as a
// paste or a fill) and Enter (change); from the change to the page idle again (data-runs
// incremented, data-busy '0', the next frame), and the page's own 'attnx:latency' measure of that
// input (input event -> painted). Resolves to [{ d, ms, measureMs }].
async function typed(page) {
  const out = [];
  for (const d of TYPED_DS) {
    await resetProbe(page);
    const ms = await page.evaluate((d) => new Promise((resolve) => {
      const f = document.getElementById('f-d'), ds = document.documentElement.dataset;
      const runs0 = Number(ds.runs || 0);
      f.value = String(d);
      f.dispatchEvent(new Event('input', { bubbles: true }));
      const t0 = performance.now();
      f.dispatchEvent(new Event('change', { bubbles: true }));
      const check = () => (Number(ds.runs || 0) > runs0 && ds.busy === '0'
        ? requestAnimationFrame(() => resolve(performance.now() - t0)) : setTimeout(check, 1));
      check();
    }), d);
    await waitIdle(page);
    const rec = await collect(page);
    const m = rec.measures.length ? rec.measures[rec.measures.length - 1] : null;
    out.push({ d, ms, measureMs: m ? m.end - m.start : null });
  }
  return out;
}

// Latencies of the draws in rec: [{ ms, detail|null }]. With the page's measures, theirs; else
// each draw against the latest earlier input asking for its d, or else the earliest unanswered one.
function latencies(rec) {
  if (rec.measures.length) return rec.measures.map((m) => ({ ms: m.end - m.start, detail: m.detail, end: m.end, d: m.detail.d }));
  const out = [];
  let next = 0;                                   // the earliest input not yet answered
  for (const dr of rec.draws) {
    const before = rec.inputs.filter((x) => x.t <= dr.t);
    let k = -1;
    for (let i = before.length - 1; i >= next && k < 0; i--) if (before[i].d === dr.d) k = i;
    if (k < 0 && next < before.length) k = next;
    if (k < 0) continue;                          // no input before it (not caused by the drag)
    out.push({ ms: dr.t - rec.inputs[k].t, detail: null, end: dr.t, d: dr.d });
    next = Math.max(next, k + 1);
  }
  return out;
}

// Nearest-rank percentile of a list (null when empty).
function percentile(xs, p) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(p * s.length) - 1)];
}

// { dropped, frames, medianMs } from animation frame timestamps.
function framesDropped(ts) {
  const gaps = ts.slice(1).map((t, i) => t - ts[i]);
  const med = percentile(gaps, 0.5);
  if (!med) return { dropped: 0, frames: ts.length, medianMs: null };
  const dropped = gaps.filter((g) => g > 1.5 * med).reduce((s, g) => s + Math.round(g / med) - 1, 0);
  return { dropped, frames: ts.length, medianMs: med };
}

const PARTS = ['queue', 'compute', 'transfer', 'pooling', 'paint'];

// The table's numbers for one drag (rec from drag()).
function summarize(rec) {
  const lat = latencies(rec);
  const ms = lat.map((x) => x.ms);
  const ds = rec.inputs.map((x) => x.d);
  const lastIn = ds.length ? rec.inputs[rec.inputs.length - 1].t : null;
  const lastDraw = lat.length ? Math.max(...lat.map((x) => x.end)) : null;
  const parts = {};
  for (const k of PARTS) {
    const v = lat.filter((x) => x.detail && Number.isFinite(x.detail[k])).map((x) => x.detail[k]);
    parts[k] = percentile(v, 0.5);
  }
  return {
    source: rec.measures.length ? 'measure' : 'fallback', idle: rec.idle,
    dRange: ds.length ? `${rec.d0 ?? ds[0]}→${Math.max(...ds)}→${ds[ds.length - 1]}` : '—',
    inputs: ds.length, drawn: lat.length, p50: percentile(ms, 0.5), p95: percentile(ms, 0.95),
    settle: lastIn !== null && lastDraw !== null ? lastDraw - lastIn : null,
    parts, ...framesDropped(rec.frames), longest: rec.longest, results: lat,
  };
}

// One dragged L: the drag, then the steps. Resolves to the table row.
async function benchL(browser, url, L) {
  const { context, page } = await openPage(browser, url, L, START_D);
  try {
    const row = { L, ...summarize(await drag(page)) };
    const st = summarize(await steps(page));
    row.steps = { inputs: st.inputs, drawn: st.drawn, p50: st.p50, p95: st.p95, idle: st.idle, results: st.results };
    const ty = await typed(page);
    row.typed = { runs: ty, p50: percentile(ty.map((x) => x.ms), 0.5), measureP50: percentile(ty.filter((x) => x.measureMs !== null).map((x) => x.measureMs), 0.5) };
    return row;
  } finally {
    await context.close();
  }
}

// Samples #progress every 250 ms into window.__progress ('hidden', 'indeterminate' or the value).
function sampleProgress(page) {
  return page.evaluate(() => {
    window.__progress = [];
    const el = document.getElementById('progress');
    const sample = () => window.__progress.push(!el || el.hidden ? 'hidden'
      : el.hasAttribute('value') ? String(el.value) : 'indeterminate');
    sample();
    window.__progressTimer = setInterval(sample, 250);
  });
}

// L = BIG_L: d = BIG_D typed into #f-d. Resolves to { L, d, ms|null, drawnD, timeout, shown, values }.
async function benchBig(browser, url) {
  const out = { L: BIG_L, d: BIG_D, ms: null, drawnD: null, parts: null, timeout: false, shown: false, values: 0 };
  let opened;
  try {
    opened = await openPage(browser, url, BIG_L, START_D);
  } catch {
    return { ...out, timeout: true, note: 'first draw timed out' };
  }
  const { context, page } = opened;
  try {
    await resetProbe(page);
    await sampleProgress(page);
    await page.fill('#f-d', String(BIG_D));        // one input event: the field commits on input
    await page.dispatchEvent('#f-d', 'change');     // as when the visitor leaves the field
    out.timeout = !(await waitIdle(page));
    const lat = out.timeout ? [] : latencies(await collect(page));
    const last = lat[lat.length - 1];
    if (last) Object.assign(out, { ms: last.ms, drawnD: last.d, parts: last.detail });
    const samples = await page.evaluate(() => { clearInterval(window.__progressTimer); return window.__progress; });
    const shown = samples.filter((s) => s !== 'hidden');
    Object.assign(out, { shown: shown.length > 0, values: new Set(shown).size, samples: samples.length });
    return out;
  } finally {
    await context.close();
  }
}

// BIG_RUNS runs of benchBig: the fastest drawn one (else the last), with every run's ms (null: none).
async function bestBig(browser, url) {
  const runs = [];
  for (let r = 0; r < BIG_RUNS; r++) runs.push(await benchBig(browser, url));
  const drawn = runs.filter((b) => !b.timeout && b.ms !== null);
  const best = drawn.length ? drawn.reduce((a, b) => (b.ms < a.ms ? b : a)) : runs[runs.length - 1];
  return { ...best, runsMs: runs.map((b) => b.ms) };
}

// Waits until the page is idle and has drawn a window (attnx:view) or a result after time t.
function waitViewDrawn(page, t, timeout = DRAW_TIMEOUT_MS) {
  return page.waitForFunction((t) => {
    const p = window.__probe;
    p.flush();
    const last = Math.max(-Infinity, ...p.views.map((x) => x.end), ...p.measures.map((x) => x.end));
    return document.documentElement.dataset.busy === '0' && last > t;
  }, t, { timeout, polling: 20 });
}

// The first zoom at L: "+" on the keyboard-focused M; resolves to the ms from the key press to
// the full-resolution window (the again-run's draw, or the window itself if none was needed).
async function firstZoom(page) {
  await page.focus('#fig-M canvas.heat');
  const t = await resetProbe(page);
  await page.keyboard.type('+');
  await page.waitForFunction(() => /[#&]view=/.test(location.hash) || window.__probe.views.length > 0, null, { timeout: DRAW_TIMEOUT_MS });
  await page.waitForTimeout(300);
  await waitViewDrawn(page, t);
  const rec = await collect(page);
  const ends = [...rec.views, ...rec.measures].map((x) => x.end);
  const start = rec.views.length ? Math.min(...rec.views.map((x) => x.start)) : t;
  return { ms: Math.max(...ends) - start, again: rec.measures.length > 0 };
}

// Window changes with nothing computed (see the top of this file). Resolves to what was recorded,
// with keysUntil: the page's clock when the key presses ended (the drag and the wheel follow).
async function windowChanges(page) {
  await resetProbe(page);
  const press = async (key, n) => {
    for (let i = 0; i < n; i++) { await page.keyboard.type(key); await page.waitForTimeout(ZOOM_GAP_MS); }
  };
  await press('+', 4);
  await press('-', 2);
  const keysUntil = await page.evaluate(() => performance.now());
  const box = await page.locator('#fig-M canvas.heat').boundingBox();
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 1; i <= ZOOM_DRAG_STEPS; i++) {
    await page.mouse.move(cx - i * MOVE_PX * 3, cy - i * MOVE_PX * 2);
    await page.waitForTimeout(FRAME_MS);
  }
  await page.mouse.up();
  await page.waitForTimeout(ZOOM_GAP_MS);
  await page.keyboard.down('Control');
  for (let i = 0; i < ZOOM_WHEELS; i++) { await page.mouse.wheel(0, i < ZOOM_WHEELS / 2 ? -120 : 120); await page.waitForTimeout(ZOOM_GAP_MS); }
  await page.keyboard.up('Control');
  await page.focus('#fig-M canvas.heat');
  await press('0', 1);
  await page.waitForTimeout(300);
  return { ...(await collect(page)), keysUntil };
}

// The zoom/pan line of one L: { L, firstMs, again, changes, p50, p95, pooling, paint, longest }.
async function benchZoom(browser, url, L) {
  const { context, page } = await openPage(browser, url, L, ZOOM_D);
  try {
    const first = await firstZoom(page);
    const rec = await windowChanges(page);
    const ms = rec.views.map((v) => v.end - v.start);
    const keys = rec.views.filter((v) => v.start < rec.keysUntil).map((v) => v.end - v.start);
    const part = (k) => percentile(rec.views.map((v) => v.detail[k]).filter(Number.isFinite), 0.5);
    return { L, firstMs: first.ms, again: first.again, changes: ms.length, p50: percentile(ms, 0.5), p95: percentile(ms, 0.95),
      keysP50: percentile(keys, 0.5), keysP95: percentile(keys, 0.95),
      pooling: part('pooling'), paint: part('paint'), other: part('other'), longest: rec.longest, results: rec.views.map((v) => ({ ms: v.end - v.start, ...v.detail })) };
  } finally {
    await context.close();
  }
}

function printZoom(rows) {
  console.log(`\nzoom/pan on M (d = ${ZOOM_D}): first zoom (M computed once more in full), then window changes with nothing computed`);
  console.log('(keys: the isolated + and - presses alone; the drag and the wheel send inputs faster than frames, and the newest waits)');
  console.log('     L  first zoom  changes   p50   p95  keys p50   p95  pooling paint  longest task');
  for (const z of rows) {
    console.log(`${String(z.L).padStart(6)}${num(z.firstMs, 12)}${num(z.changes, 9)}${num(z.p50, 6)}${num(z.p95, 6)}${num(z.keysP50, 10)}${num(z.keysP95, 6)}`
      + `${num(z.pooling, 9)}${num(z.paint, 6)}${num(z.longest, 14)}`);
  }
}

const num = (x, w) => (x === null || x === undefined ? '—' : x.toFixed(0)).padStart(w);

// The drag table, one row per L.
function printRows(rows) {
  console.log(`drag on #f-d-slider: d ${START_D} → ${TOP_D}, ${PAUSE_MS} ms pause, → ${BACK_D}, pause, release (${MOVE_PX} px every ${FRAME_MS} ms); ms per drawn result`);
  const src = [...new Set(rows.map((r) => r.source))].join(', ');
  console.log(`latency source: ${src} (fallback = input event -> data-runs up with busy 0 -> next frame; no breakdown)\n`);
  console.log('     L  d dragged         inputs drawn   p50   p95 settle  queue compute transfer pooling paint  dropped/frames  longest task  steps p50');
  for (const r of rows) {
    const q = r.parts;
    console.log(`${String(r.L).padStart(6)}  ${r.dRange.padEnd(16)}${num(r.inputs, 7)}${num(r.drawn, 6)}${num(r.p50, 6)}${num(r.p95, 6)}${num(r.settle, 7)}`
      + `${num(q.queue, 7)}${num(q.compute, 8)}${num(q.transfer, 9)}${num(q.pooling, 8)}${num(q.paint, 6)}`
      + `${`${r.dropped}/${r.frames}`.padStart(16)}${num(r.longest, 14)}${num(r.steps.p50, 11)}`);
  }
  console.log(`\ntyped d (d = ${TYPED_DS.join(', ')} into #f-d, then Enter): change -> idle again (data-busy 0), and the page's own input -> painted`);
  for (const r of rows) if (r.typed) console.log(`${String(r.L).padStart(6)}  change -> idle p50 ${num(r.typed.p50, 4)} ms (drag p50 ${num(r.p50, 3)} ms); input -> painted p50 ${num(r.typed.measureP50, 4)} ms; each: ${r.typed.runs.map((x) => `${x.d}: ${x.ms.toFixed(0)}`).join(', ')}`);
}

function printTable(rows, big) {
  console.log(`explorer drag benchmark: served ${DIR.startsWith(ROOT) ? DIR.slice(ROOT.length) : DIR}, headless Chromium 1280x900, ${cpus().length} CPU(s)`);
  if (rows.length) printRows(rows);
  if (big) {
    const t = big.timeout ? `timeout (${DRAW_TIMEOUT_MS / 1000} s${big.note ? `, ${big.note}` : ''})`
      : `${num(big.ms, 0)} ms (drawn d = ${big.drawnD ?? '?'}; best of ${big.runsMs.length}: ${big.runsMs.map((m) => num(m, 0).trim()).join(', ')} ms)`;
    console.log(`\nL = ${big.L}, d = ${big.d} typed into #f-d: drawn after ${t}; progress bar ${big.shown ? `shown, ${big.values} distinct value(s)` : 'never shown'}`);
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const server = await startServer(DIR, 0);
  const browser = await launchChromium();
  try {
    const rows = [];
    for (const L of opts.Ls.filter((L) => L !== BIG_L && !opts.zoomOnly)) rows.push(await benchL(browser, server.url, L));
    const big = opts.Ls.includes(BIG_L) && !opts.zoomOnly ? await bestBig(browser, server.url) : null;
    const zoom = [];
    for (const L of ZOOM_LS.filter((x) => opts.Ls.includes(x))) zoom.push(await benchZoom(browser, server.url, L));
    printTable(rows, big);
    if (zoom.length) printZoom(zoom);
    mkdirSync(dirname(opts.json), { recursive: true });
    const report = { measured: new Date().toISOString(), dir: DIR, cpus: cpus().length, cpu_model: cpus()[0]?.model ?? null, targets: TARGETS, rows, big, zoom };
    writeFileSync(opts.json, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\n(written to ${opts.json.startsWith(ROOT) ? opts.json.slice(ROOT.length) : opts.json})`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(`bench-explorer: ${e && e.message ? e.message : e}`);
  process.exit(1);
});
