// attnx: a pool of module Web Workers, one WebAssembly instance each (see worker.js).
//
//   import { createPool } from './lib/pool.js';
//   const pool = await createPool();                 // size = max(1, hardwareConcurrency - 1)
//   const r = await pool.run('minD', { L: 512, seed: 3 }, { onProgress: (f) => ..., signal });
//   pool.destroy();
//
// Methods: patterns, info, construct, minD, sweepPoint, estimateBytes (opts as in attnx.js),
// fits ({ Ls, ds }), median ({ ds }), quantile ({ ds, delta }).
// Results and errors come back as plain data; large typed arrays are transferred, not copied.
// Errors are rebuilt with the worker's name (RangeError for refused input), message, field, kind.
// Cancelling (AbortSignal) a queued task just drops it. A running construct is asked to stop
// (the worker runs it in slices, see worker.js): the worker, its module and its kept Gram
// matrices stay; only if it has not stopped in time (graceMs) is it terminated. Constructs keep
// to one worker (the one that ran the last construct) while it lives. Any other
// running task terminates its worker, which is replaced at once by a fresh one (kept warm).
// Either way the promise rejects at once with a DOMException 'AbortError'; the worker takes the
// next task when it has stopped.
// No SharedArrayBuffer is used: no cross-origin isolation (COOP/COEP) is needed.

import { isSliced } from './sliced.js';
import { GramHelpers } from './gram-helpers.js';
import { inlineWorker } from './site-files.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);

/**
 * Starts a module worker from `url` (URL or string). A script on another origin than the page
 * (an embed served from elsewhere) cannot be a worker itself: it is imported (with CORS) by a
 * one-line module from a blob: URL, which has the page's origin (the host page's CSP then needs
 * worker-src blob:). Same-origin scripts start directly.
 */
export function startModuleWorker(url, name) {
  const href = new URL(url, typeof location !== 'undefined' ? location.href : undefined).href;
  const inline = inlineWorker(href, name);  // the one-file pages' own copy (site-files.js)
  if (inline) return inline;
  const sameOrigin = typeof location === 'undefined' || new URL(href).origin === location.origin;
  if (sameOrigin) return new Worker(href, { type: 'module', name });
  const shim = URL.createObjectURL(new Blob([`import ${JSON.stringify(href)};\n`], { type: 'text/javascript' }));
  try {
    return new Worker(shim, { type: 'module', name });
  } finally {
    setTimeout(() => URL.revokeObjectURL(shim), 60000);  // the worker has fetched it by then
  }
}
// A sliced task that has not stopped within graceMs(opts) of its cancel is terminated: 1.5 s plus
// an allowance for the part after the Gram matrix, which runs in one slice (~L^2 + L d work).
function graceMs(opts) {
  const L = Number(opts && opts.L) || 0, d = Number(opts && opts.d) || 0;
  return 1500 + (L * L + 2 * L * d) / 20000;
}

/** The machine's logical cores as the browser reports them (navigator.hardwareConcurrency; 2 when
 *  unknown). A page whose main thread idles while the pool runs (the lab) sizes its pool to this. */
export function coreCount() {
  return typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
}

// The default pool: every core but one, which the page's own thread keeps (the explorer draws
// while the pool computes).
function defaultSize() {
  return Math.max(1, coreCount() - 1);
}

function abortError(signal) {
  const reason = signal && signal.reason;
  if (reason && reason.name === 'AbortError') return reason;
  return new DOMException('the task was cancelled', 'AbortError');
}

function rebuildError(e) {
  const Ctor = { RangeError, TypeError, SyntaxError }[e && e.name] || Error;
  const err = new Ctor(e && e.message ? e.message : 'worker error');
  if (e && e.field !== undefined) err.field = e.field;
  if (e && e.kind !== undefined) err.kind = e.kind;
  return err;
}

class Slot {
  constructor(pool) {
    this.pool = pool;
    this.task = null;
    this.dead = false;
    this.worker = startModuleWorker(pool.workerUrl, 'attnx');
    this.ready = new Promise((resolve, reject) => {
      this._ready = resolve;
      this._fail = reject;
    });
    this.ready.catch(() => {});
    this.worker.onmessage = (ev) => this.onMessage(ev.data);
    this.worker.onerror = (ev) => {
      // Script or module load failure, or an uncaught error outside a task.
      if (ev && ev.preventDefault) ev.preventDefault();
      const msg = `attnx worker failed: ${ev && ev.message ? ev.message : 'could not load the worker script'}`;
      this._fail(new Error(msg));
      this.pool._slotFailed(this, new Error(msg));
    };
    this.worker.postMessage({ type: 'init', flavour: pool.flavour });
  }

  onMessage(m) {
    if (!m) return;
    if (m.type === 'bands') return this.pool._helpers.run(this.worker, m);  // lend it the helpers
    if (m.type === 'bands-dropped') return this.pool._helpers.stop(this.worker, m.sum);
    if (m.type === 'ready') {
      this.info = m.info;
      if (!this.pool._info) this.pool._info = m.info;  // what the pool asks of tasks (sliced.js)
      this._ready(m.info);
      return;
    }
    if (m.type === 'init-error') {
      const err = rebuildError(m.error);
      this._fail(err);
      this.pool._slotFailed(this, err);
      return;
    }
    const t = this.task;
    if (!t || m.id !== t.id) return;  // stale message of a cancelled task
    if (t.cancelled) {  // asked to stop: its promise has rejected; free the slot when it has
      if (m.type === 'progress') return;
      if (m.fatal) {
        this.pool._replace(this, { warm: true });
        this.pool._pump();
      } else {
        this.freeAfterCancel();
      }
      return;
    }
    if (m.type === 'progress') {
      if (t.onProgress) {
        try { t.onProgress(m.fraction); } catch { /* a listener's error must not break the pool */ }
      }
      return;
    }
    if (m.type === 'result' || m.type === 'error') {
      this.task = null;
      t.cleanup();
      if (m.type === 'result' && t.onTiming && m.timing) {
        try { t.onTiming(m.timing); } catch { /* a listener's error must not break the pool */ }
      }
      if (m.type === 'result') t.resolve(m.result);
      else t.reject(rebuildError(m.error));
      if (m.fatal) this.pool._replace(this);
      this.pool._pump();
    }
  }

  start(t) {
    this.task = t;
    const helpers = t.method === 'construct' ? this.pool._helpers.count : 0;
    this.worker.postMessage({ type: 'run', id: t.id, method: t.method, opts: t.opts, helpers });
  }

  // Asks the worker to stop the running sliced task t; terminates it if it does not in time.
  askToStop(t) {
    t.cancelled = true;
    this.worker.postMessage({ type: 'cancel', id: t.id });
    this.grace = setTimeout(() => {
      if (this.task === t && !this.dead) this.pool._replace(this, { warm: true });
      this.pool._pump();
    }, graceMs(t.opts));
  }

  freeAfterCancel() {
    clearTimeout(this.grace);
    this.task = null;
    this.pool._pump();
  }

  terminate() {
    clearTimeout(this.grace);
    this.pool._helpers.stop(this.worker);  // the band sums it kept are gone with it
    this.dead = true;
    this.worker.onmessage = null;
    this.worker.onerror = null;
    this.worker.terminate();
  }
}

export class AttnxPool {
  /**
   * @param {{size?: number, helpers?: number, flavour?: 'simd'|'scalar', workerUrl?: string|URL}} [options]
   *   size: number of workers (default max(1, hardwareConcurrency - 1)); helpers: extra workers a
   *   long construct may borrow to sum its Gram matrix in bands while the page waits (default
   *   hardwareConcurrency - 1, so that it uses every core; 0: never; see gram-helpers.js);
   *   flavour: force a build; workerUrl: where worker.js is (default: next to this file; another
   *   origin works when it sends CORS headers, see startModuleWorker).
   */
  constructor(options = {}) {
    const size = options.size ?? defaultSize();
    if (!Number.isInteger(size) || size < 1 || size > 256) {
      throw new RangeError(`size must be an integer from 1 to 256 (got ${String(size).slice(0, 40)})`);
    }
    const helpers = options.helpers ?? coreCount() - 1;
    if (!Number.isInteger(helpers) || helpers < 0 || helpers > 255) {
      throw new RangeError(`helpers must be an integer from 0 to 255 (got ${String(helpers).slice(0, 40)})`);
    }
    this._size = size;
    this.flavour = options.flavour;
    this.workerUrl = options.workerUrl ?? WORKER_URL;
    this._helpers = new GramHelpers({
      count: helpers,
      flavour: this.flavour,
      startWorker: () => startModuleWorker(this.workerUrl, 'attnx-helper'),
    });
    this._slots = [];
    this._queue = [];
    this._nextId = 1;
    this._destroyed = false;
  }

  /** Number of workers (created lazily, up to this many). */
  get size() {
    return this._size;
  }

  /** Resolves with the first worker's build info once its module is loaded; rejects if it cannot load. */
  ready() {
    if (this._destroyed) return Promise.reject(new Error('the pool was destroyed'));
    if (this._slots.length === 0) this._slots.push(new Slot(this));
    return this._slots[0].ready;
  }

  /**
   * Runs one API method in a worker.
   * @param {string} method  patterns | info | construct | minD | sweepPoint | estimateBytes | fits | median | quantile
   * @param {Object} [opts]  the method's options (plain data; structured-cloned to the worker)
   * @param {{onProgress?: (fraction:number) => void, signal?: AbortSignal,
   *   onTiming?: (t: {start:number, end:number, busyMs:number, bands:number, rungsAfter:number}) => void}} [control]
   *   onTiming: the worker's clock for the task (epoch ms: start, end; busyMs computing; bands:
   *   how many bands construct's Gram matrix was summed in; rungsAfter: helpers' bands whose
   *   rungs the worker copies in after posting the result), called just before the promise resolves
   * @returns {Promise<any>}
   */
  run(method, opts = {}, control = {}) {
    const { onProgress, signal, onTiming } = control;
    if (this._destroyed) return Promise.reject(new Error('the pool was destroyed'));
    if (signal && signal.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const t = { id: this._nextId++, method, opts, onProgress, onTiming, resolve, reject, slot: null };
      const onAbort = () => this._cancel(t, abortError(signal));
      t.cleanup = () => {
        if (signal) signal.removeEventListener('abort', onAbort);
      };
      if (signal) signal.addEventListener('abort', onAbort, { once: true });
      this._queue.push(t);
      this._pump();
    });
  }

  /**
   * Starts the workers not started yet, up to the pool's size, so that each loads its module now
   * rather than when a task first needs it (a page that runs many tasks at once calls this once
   * it has drawn: the lab's first run waited about 150 ms on 2 cores for its second worker).
   * Resolves with the number of workers ready; one that fails to load is replaced when a task
   * needs it, as at any time.
   */
  warm() {
    if (this._destroyed) return Promise.resolve(0);
    while (this._slots.length < this._size) this._slots.push(new Slot(this));
    for (const s of this._slots) {
      if (s.warmed) continue;
      s.worker.postMessage({ type: 'warm' });
      s.warmed = true;
    }
    return Promise.allSettled(this._slots.map((s) => s.ready)).then((r) => r.filter((x) => x.status === 'fulfilled').length);
  }

  /** Terminates every worker; queued and running tasks reject. */
  destroy() {
    if (this._destroyed) return;
    this._destroyed = true;
    this._helpers.destroy();
    const err = new DOMException('the pool was destroyed', 'AbortError');
    for (const t of this._queue.splice(0)) {
      t.cleanup();
      t.reject(err);
    }
    for (const s of this._slots) {
      if (s.task) {
        s.task.cleanup();
        s.task.reject(err);
        s.task = null;
      }
      s.terminate();
    }
    this._slots = [];
  }

  // Starts queued tasks on free workers (creating workers up to the size). Sliced tasks
  // (construct) stay with the worker that ran the last one while it lives: its module keeps the
  // Gram matrix they reuse, so they wait for it rather than start cold on another worker.
  _pump() {
    if (this._destroyed) return;
    for (let q = 0; q < this._queue.length;) {
      const t = this._queue[q];
      const home = isSliced(t.method, t.opts, this._info) && this._home && !this._home.dead ? this._home : null;
      let slot = home ? (home.task ? null : home) : this._slots.find((s) => !s.task && !s.dead);
      if (!slot && !home && this._slots.length < this._size) {
        slot = new Slot(this);
        this._slots.push(slot);
      }
      if (!slot) {
        q++;
        continue;
      }
      this._queue.splice(q, 1);
      if (isSliced(t.method, t.opts, this._info)) this._home = slot;
      t.slot = slot;
      slot.start(t);  // messages queue in the worker until its module is loaded
    }
  }

  _cancel(t, err) {
    const q = this._queue.indexOf(t);
    if (q >= 0) {
      this._queue.splice(q, 1);
    } else if (t.slot && t.slot.task === t && !t.cancelled) {
      if (isSliced(t.method, t.opts, this._info)) t.slot.askToStop(t);
      else this._replace(t.slot, { warm: true });
    } else {
      return;  // already settled
    }
    t.cleanup();
    t.reject(err);
    this._pump();
  }

  // Terminates slot; with warm, starts its replacement now (module loading while nothing waits).
  _replace(slot, { warm = false } = {}) {
    slot.task = null;
    slot.terminate();
    const i = this._slots.indexOf(slot);
    if (i >= 0) this._slots.splice(i, 1);
    if (warm && !this._destroyed && this._slots.length < this._size) this._slots.push(new Slot(this));
  }

  _slotFailed(slot, err) {
    if (slot.dead) return;
    const t = slot.task;
    this._replace(slot);
    if (t) {
      t.cleanup();
      t.reject(err);
    }
    // Tasks still queued would fail the same way if the module cannot load at all: reject them
    // when no worker is left to try, else let the others (or a fresh worker) take them.
    if (!this._slots.some((s) => !s.dead) && this._queue.length) {
      for (const q of this._queue.splice(0)) {
        q.cleanup();
        q.reject(err);
      }
    }
  }
}

/**
 * Creates a pool and waits until its first worker has loaded the module (so a missing or broken
 * build is reported here, not at the first run).
 * @param {{size?: number, flavour?: 'simd'|'scalar', workerUrl?: string|URL}} [options]
 * @returns {Promise<AttnxPool>}
 */
export async function createPool(options = {}) {
  const pool = new AttnxPool(options);
  try {
    await pool.ready();
  } catch (e) {
    pool.destroy();
    throw e;
  }
  return pool;
}
