// attnx: module Web Worker running one WebAssembly instance (driven by pool.js).
//
// Protocol (plain data only):
//   in : { type: 'init', flavour }                    optional, before the first task
//        { type: 'run', id, method, opts }   opts of the text calls: parsePattern { text, L },
//                                             formatPattern { pattern, format }, formatSweep
//                                             { record, format }, parseSweep { text },
//                                             summariseSweep { delta, points }; the attention
//                                             file calls readAttention, importHead, surveyHead
//                                             { bytes | file, name, options } (file: a Blob,
//                                             read here, off the page's thread)
//        { type: 'cancel', id }                       stop task id (sliced methods only, see below)
//        { type: 'warm' }                             run a small task once (pool.warm(), see warmUp)
//        { type: 'band', sum, c0, c1, atD }           a helper's band of band sum `sum` (G at d)
//        { type: 'band-rungs', sum, c0, c1, points, rungs }   then its rungs (null: none will come)
//        { type: 'band-failed', sum }                 a helper could not sum its band
//        'run' of construct may carry helpers: n, the helper workers the pool can lend it
//        (see sumInBands); a helper runs gramBand { opts, band, start }: its 'result' is
//        { cancelled, atD }, followed by { type: 'rungs', id, rungs } (see postRungs).
//   out: { type: 'ready', info } | { type: 'init-error', error }
//        { type: 'progress', id, fraction }
//        { type: 'result', id, result, timing }       typed arrays transferred, not copied;
//                                                     timing { start, end (epoch ms), busyMs,
//                                                     bands (construct: Gram bands summed by workers),
//                                                     rungsAfter (helpers' bands whose rungs are
//                                                     copied in after it) }
//        { type: 'error', id, error: { name, message, field, kind }, fatal }   fatal: replace me
//        { type: 'cancelled', id }                    a sliced task stopped after a 'cancel'
//        { type: 'bands', sum, opts, bands: [{ band, start }] }   a construct asks the pool's
//                                                     helpers for these bands (start transferred)
//        { type: 'bands-dropped', sum }               band sum `sum` is no longer wanted
// A task cannot be interrupted while it is in WebAssembly. construct (sliced.js) runs in slices of about
// SLICE_MS (the core stops when the progress callback returns false and keeps the Gram matrix it
// summed; calling again resumes), and between slices the worker reads its messages, so a
// 'cancel' ends it without losing the module or its kept Gram matrices. Other methods are
// cancelled by the pool terminating the worker.
import { load } from './attnx.js';
import { isSliced } from './sliced.js';
import { describeFailure, plainError } from './worker-errors.js';

const METHODS = {
  schema: (api) => api.schema(),
  patterns: (api) => api.schema(),
  info: (api) => api.info(),
  construct: (api, opts, progress) => api.construct(opts, progress),
  minD: (api, opts, progress) => api.minD(opts, progress),
  precision: (api, opts) => api.precision(opts),
  sweepPoint: (api, opts, progress) => api.sweepPoint(opts, progress),
  // One frontier task: opts { opts, task } (frontierTasks' index).
  frontierTrial: (api, opts, progress) => api.frontierTrial(opts && opts.opts, opts && opts.task, progress),
  fits: (api, opts) => api.fits(opts && opts.Ls, opts && opts.ds),
  median: (api, opts) => api.median(opts && opts.ds),
  quantile: (api, opts) => api.quantile(opts && opts.ds, opts && opts.delta),
  estimateBytes: (api, opts) => api.estimateBytes(opts),
  parsePattern: (api, opts) => api.parsePattern(opts && opts.text, opts && opts.L),
  formatPattern: (api, opts) => api.formatPattern(opts && opts.pattern, opts && opts.format),
  formatSweep: (api, opts) => api.formatSweep(opts && opts.record, opts && opts.format),
  parseSweep: (api, opts) => api.parseSweep(opts && opts.text),
  summariseSweep: (api, opts) => api.summariseSweep(opts),
  // A model's attention file: opts { bytes (ArrayBuffer or Uint8Array) or file (a Blob), name, options }.
  readAttention: async (api, opts) => api.readAttention(await fileBytes(opts), opts && opts.name, opts && opts.options),
  importHead: async (api, opts) => api.importHead(await fileBytes(opts), opts && opts.name, opts && opts.options),
  surveyHead: async (api, opts, progress) => api.surveyHead(await fileBytes(opts), opts && opts.name, opts && opts.options, progress),
  // A helper's band of another worker's Gram matrix: opts { opts, band, start } (see sumInBands).
  gramBand: (api, opts, progress) => api.gramBandParts(opts && opts.opts, opts && opts.band, opts && opts.start, progress),
};

// The bytes of an attention file call: opts.file (a Blob the page handed over without reading
// it) read here, else opts.bytes as given (the core refuses what is neither).
async function fileBytes(opts) {
  if (opts && typeof Blob !== 'undefined' && opts.file instanceof Blob) return new Uint8Array(await opts.file.arrayBuffer());
  return opts && opts.bytes;
}

const SLICE_MS = 20;
// Progress is posted at most every PROGRESS_MS (and its first and final values always): the core
// reports every 2 %, and on a machine with as many cores as workers each message the page handles
// is time taken from the workers (a lab run on 2 cores spent 70 of its 160 ms of the page's thread
// on them; at 32 ms the explorer's longest construct, 3.4 s, repainted its bar 79 times, 0.5 s
// of the two cores' CPU, and drew about 0.1 s later than at 100 ms).
const PROGRESS_MS = 100;

// The progress callback of task id: posts { type: 'progress', id, fraction } at most every
// PROGRESS_MS, and always the first report and a fraction of 1.
function progressPoster(id) {
  let last = -Infinity;
  return (fraction) => {
    const now = performance.now();
    if (now - last < PROGRESS_MS && !(fraction >= 1)) return;
    last = now;
    self.postMessage({ type: 'progress', id, fraction });
  };
}
const cancelled = new Set();  // ids of running sliced tasks asked to stop

// Lets queued messages (a 'cancel') run before the next slice. A MessageChannel message, not a
// nested setTimeout (browsers clamp those to 4 ms).
const yieldChannel = new MessageChannel();
const yieldQueue = [];
yieldChannel.port1.onmessage = () => yieldQueue.shift()();
function yieldToMessages() {
  return new Promise((resolve) => {
    yieldQueue.push(resolve);
    yieldChannel.port2.postMessage(0);
  });
}

// Runs the sliced method fn (see sliced.js) in slices (see the top of this file). Resolves with
// the result and the milliseconds spent computing, or with null when a 'cancel' for id arrived.
// The result's gramColumnsAdded counts the columns of every slice (each call reports its own).
async function runSliced(fn, api, id, opts, progress) {
  let busy = 0, added = 0;
  for (;;) {
    const t0 = performance.now(), deadline = t0 + SLICE_MS;
    const r = fn(api, opts, (f) => {
      progress(f);
      return performance.now() < deadline;
    });
    busy += performance.now() - t0;
    added += Math.max(0, api.gramColumnsAdded());
    if (!r.cancelled) {
      if (r.gramColumnsAdded >= 0) r.gramColumnsAdded = added;  // (-1: not the jl ladder)
      return { result: r, busy };
    }
    await yieldToMessages();
    if (cancelled.delete(id)) return null;
  }
}

// construct's Gram matrix summed in bands (core/api/calls_bands.cpp): when the core's plan splits it
// for this worker and `helpers` more, the pool's helpers sum bands 1.. (posted as 'bands') while
// this worker sums band 0 in slices; their bands are taken in as they arrive ('band', at any time,
// also between tasks). A stopped construct leaves the band sum and its helpers going: the next
// construct of the same settings goes on with it (the core's plan says resumed); any other drops
// it and the pool stops its helpers ('bands-dropped'). Resolves with { bands, busy }: the number
// of bands (1: not split, or a helper failed and construct sums G itself) and the milliseconds
// this worker computed; null when a 'cancel' for id arrived.
// { sum, points: the rung points, left: Set of the bands' first columns not taken in, failed,
//   running: a construct sums it, wake }
let split = null;
let nextSum = 1;
// Helpers' rungs (their bands of G at the points a step down in d starts from): a helper posts its
// band at d first and copies its rungs out after, so neither copy delays the drawing. Those that
// arrive while a task runs wait here until its result is posted, outside the construct's memory
// budget (at most the helpers' share of the rungs the budget leaves room for). { c0, c1, points,
// rungs }
let lateRungs = [];
// Bands taken whose rungs have not arrived (`${sum}:${c0}`): a construct waits for them before it
// starts, so that a step down in d right after a split construct starts from them (they come
// about 0.1 s after the band at the largest L; a helper that ends sends null).
const rungsAwaited = new Set();
let rungsWake = null;
let taskRunning = false;
// Rungs held are copied in ADOPT_AFTER_MS after they can be (no task running), or before the next
// construct if it comes first: right after a result the page draws it, and on a machine with as
// many cores as workers the copy (184 MB at the largest L, its pages first touched then) slowed
// the drawing by about 20 ms. (Since the helpers send their bands' lower parts only, 65 MB.)
const ADOPT_AFTER_MS = 250;
let adoptTimer = null;

function dropSplit() {
  if (!split) return;
  self.postMessage({ type: 'bands-dropped', sum: split.sum });
  split = null;
}

function planBands(api, opts, helpers) {
  let plan = api.gramPlan(opts, helpers + 1);
  if (plan.resumed && split && !split.failed) return plan;
  if (plan.resumed) {  // a band sum whose helpers are gone or failed: start it over
    api.gramFinish();
    plan = api.gramPlan(opts, helpers + 1);
  }
  dropSplit();
  if (!plan.split) return plan;
  const bands = [];
  for (let b = 1; b + 1 < plan.edges.length; b++) {
    const band = { from: plan.from, c0: plan.edges[b], c1: plan.edges[b + 1], rungs: plan.rungs };
    bands.push({ band, start: api.gramBandStart(band.c0, band.c1) });
  }
  split = { sum: nextSum++, points: plan.rungs, left: new Set(bands.map((b) => b.band.c0)), failed: false, wake: null };
  self.postMessage({ type: 'bands', sum: split.sum, opts, bands }, bands.map((b) => b.start.buffer));
  return plan;
}

async function sumInBands(api, id, opts, helpers, progress) {
  const t0 = performance.now();
  let plan;
  try {
    plan = planBands(api, opts, helpers);
  } catch {
    dropSplit();
    return { bands: 1, busy: 0 };  // construct reports the same error
  }
  let busy = performance.now() - t0;
  if (!plan.split) return { bands: 1, busy };
  const mine = split;
  mine.running = true;
  while (!mine.failed) {
    const t1 = performance.now(), deadline = t1 + SLICE_MS;
    const done = api.gramHomeBand(0, plan.edges[1], (f) => {
      progress(plan.gramShare * f);
      return performance.now() < deadline;
    });
    busy += performance.now() - t1;
    if (done) break;
    await yieldToMessages();
    if (cancelled.delete(id)) {
      mine.running = false;
      return null;
    }
  }
  if (!mine.failed) busy += makeAhead(api, opts);
  while (mine.left.size > 0 && !mine.failed && !cancelled.has(id)) {
    await new Promise((resolve) => { mine.wake = resolve; });
  }
  mine.wake = null;
  mine.running = false;
  if (cancelled.delete(id)) {
    api.gramReleaseAhead();  // its 2 L^2 floats: this worker's next task may be another
    return null;
  }
  const whole = !mine.failed && api.gramFinish();
  if (!whole) {
    api.gramFinish();  // drops what is left: construct sums G itself
    dropSplit();
  }
  split = null;
  return { bands: whole ? plan.edges.length - 1 : 1, busy };
}

// construct's work that needs no Gram matrix (the core's gramAhead), made while the helpers'
// bands are still to come: the core's plan left this worker the time for it. Its errors are
// construct's, which reports them. It runs in one piece (about 0.1 s at the largest L and d, as
// construct's own work after G does), so a cancel waits for it. Returns the milliseconds it took.
function makeAhead(api, opts) {
  const t0 = performance.now();
  try {
    api.gramAhead(opts);
  } catch {
    // construct reports the same error
  }
  return performance.now() - t0;
}

// A helper's band of the band sum in flight (late ones, of a sum dropped, are ignored).
async function takeBand(msg) {
  const mine = split;
  if (!mine || msg.sum !== mine.sum || mine.failed) return;
  const api = await getApi();
  if (split !== mine || mine.failed) return;
  if (msg.type === 'band-failed') {
    mine.failed = true;
  } else {
    try {
      api.gramAdopt(msg.c0, msg.c1, msg.atD, null);  // its rungs follow ('band-rungs')
      if (mine.points.length > 0) rungsAwaited.add(`${msg.sum}:${msg.c0}`);
      mine.left.delete(msg.c0);
    } catch {
      mine.failed = true;
    }
  }
  if (mine.failed && !mine.running) {  // between constructs: drop it now, its helpers stop
    api.gramFinish();
    dropSplit();
  }
  if (mine.wake) mine.wake();
}

// A helper's rungs, which follow its band: taken in soon when no task runs, else after its result.
function takeBandRungs(msg) {
  if (msg.rungs) lateRungs.push({ c0: msg.c0, c1: msg.c1, points: msg.points, rungs: msg.rungs });
  if (!taskRunning) adoptSoon();
  rungsAwaited.delete(`${msg.sum}:${msg.c0}`);
  if (rungsAwaited.size === 0 && rungsWake) rungsWake();
}

// Waits for the rungs awaited (see rungsAwaited) and takes in those held: before construct id.
// False when a 'cancel' for id came first (the rungs then go in later, as after a result).
async function rungsBeforeConstruct(api, id) {
  while (rungsAwaited.size > 0 && !cancelled.has(id)) {
    await new Promise((resolve) => { rungsWake = resolve; });
  }
  rungsWake = null;
  if (cancelled.delete(id)) return false;
  if (lateRungs.length) adoptLateRungs(api);
  return true;
}

// Takes in the rungs held ADOPT_AFTER_MS from now unless a task is running then (its end calls
// this again) or a construct took them in first.
function adoptSoon() {
  clearTimeout(adoptTimer);
  adoptTimer = setTimeout(async () => {
    if (!taskRunning && lateRungs.length) adoptLateRungs(await getApi());
  }, ADOPT_AFTER_MS);
}

// A helper's band's rungs (gramBandParts' takeRungs), posted after its band at d: { type: 'rungs',
// id, rungs }, null when they could not be copied out (the home then sums more columns at a step
// down).
function postRungs(id, takeRungs) {
  let rungs = null;
  try {
    rungs = takeRungs();
    self.postMessage({ type: 'rungs', id, rungs }, [rungs.buffer]);
  } catch {  // see above
    self.postMessage({ type: 'rungs', id, rungs: null });
  }
}

// Takes in the rungs held in lateRungs (false from the core: its band sum was dropped since; an
// error leaves the rungs out, which only means a later step down sums more columns).
function adoptLateRungs(api) {
  for (const r of lateRungs.splice(0)) {
    try {
      api.gramAdoptRungs(r.c0, r.c1, r.points, r.rungs);
    } catch { /* see above */ }
  }
}

// WARM_OPTS: a small min-d search (pattern, projection columns, Gram kernel, the search's checks,
// SPEC 9's scale): V8 first runs WebAssembly with its baseline compiler and optimises a function
// only after it has run a while, so a worker's first task took about three times as long.
const WARM_OPTS = { L: 256, seed: 1 };
function warmUp(api) {
  try {
    api.minD(WARM_OPTS);
  } catch { /* a warm-up that fails changes nothing */ }
}

let apiPromise = null;
// The module's info() (sliced.js asks it which constructions run in slices), read once.
let apiInfo = null;
function infoOf(api) {
  if (!apiInfo) apiInfo = api.info();
  return apiInfo;
}

function getApi(flavour) {
  if (!apiPromise) apiPromise = load(flavour ? { flavour } : {});
  return apiPromise;
}

// ArrayBuffers behind typed arrays in a result (copies made for us: safe to transfer).
function transferables(x, out = [], depth = 0) {
  if (!x || typeof x !== 'object' || depth > 4) return out;
  if (ArrayBuffer.isView(x)) {
    if (!out.includes(x.buffer)) out.push(x.buffer);
    return out;
  }
  for (const k of Object.keys(x)) transferables(x[k], out, depth + 1);
  return out;
}

self.onmessage = async (ev) => {
  const msg = ev.data || {};
  if (msg.type === 'init') {
    try {
      const api = await getApi(msg.flavour);
      self.postMessage({ type: 'ready', info: api.info() });
    } catch (e) {
      apiPromise = null;
      self.postMessage({ type: 'init-error', error: plainError(e) });
    }
    return;
  }
  if (msg.type === 'warm') {  // pool.warm(): run the hot code once, while nothing waits (see warmUp)
    try {
      warmUp(await getApi());
    } catch { /* a module that cannot load: 'init' has reported it */ }
    return;
  }
  if (msg.type === 'cancel') {
    cancelled.add(msg.id);
    if (split && split.wake) split.wake();
    if (rungsWake) rungsWake();
    return;
  }
  if (msg.type === 'band' || msg.type === 'band-failed') return takeBand(msg);
  if (msg.type === 'band-rungs') return takeBandRungs(msg);
  if (msg.type !== 'run') return;
  taskRunning = true;
  try {
    await runTask(msg);
  } finally {
    taskRunning = false;
    if (lateRungs.length) adoptSoon();
  }
};

// Runs task msg ({ id, method, opts, helpers }) and posts its result, error or cancellation.
async function runTask(msg) {
  const { id, method, opts } = msg;
  cancelled.clear();  // one task at a time: an earlier id's late 'cancel' is moot
  try {
    const fn = METHODS[method];
    if (!fn) throw new RangeError(`unknown method "${String(method).slice(0, 40)}" (allowed: ${Object.keys(METHODS).join(', ')})`);
    const api = await getApi();
    const waited = method !== 'construct' || await rungsBeforeConstruct(api, id);
    if (!waited) return self.postMessage({ type: 'cancelled', id });
    const progress = progressPoster(id);
    const start = performance.timeOrigin + performance.now();
    let result, busy, bands = 1;
    if (isSliced(method, opts, infoOf(api))) {
      let banded = { bands: 1, busy: 0 };
      if (method === 'construct' && msg.helpers > 0) {
        banded = await sumInBands(api, id, opts, msg.helpers, progress);
        if (!banded) return self.postMessage({ type: 'cancelled', id });
      } else {
        dropSplit();  // construct sums G alone, which drops any band sum
      }
      bands = banded.bands;
      const out = await runSliced(fn, api, id, opts, progress);
      if (!out) return self.postMessage({ type: 'cancelled', id });
      ({ result, busy } = out);
      busy += banded.busy;
    } else {
      result = await fn(api, opts, progress);  // the file calls read their Blob first
    }
    const takeRungs = result && result.takeRungs;  // gramBand: its rungs follow the result
    if (takeRungs) result = { cancelled: false, atD: result.atD };
    const end = performance.timeOrigin + performance.now();
    const rungsAfter = lateRungs.length + rungsAwaited.size;
    const timing = { start, end, busyMs: busy ?? end - start, bands, rungsAfter };
    self.postMessage({ type: 'result', id, result, timing }, transferables(result));
    if (takeRungs) postRungs(id, takeRungs);
  } catch (e) {
    // A trap (e.g. an abort) or an uncaught C++ exception may leave the instance unusable: then
    // the worker asks to be replaced (fatal).
    const { error, fatal } = describeFailure(e);
    self.postMessage({ type: 'error', id, error, fatal });
  }
}
