// attnx explorer: runs the latest request on the worker pool, latest wins, no fixed debounce.
//
// When the worker is idle a request starts at once. While one runs, a newer request waits (only
// the newest waits: older waiting ones resolve null), and the running one is either left to
// finish (when runs have been short, its result is still worth showing: during a drag the page
// then shows a result every run) or cancelled (when runs have been long: the pool stops a
// construct between slices without respawning the worker, see web/lib/pool.js).
export const LONG_RUN_MS = 120;  // runs expected to take longer than this are cancelled when superseded

export class Runner {
  // pool: from web/lib/pool.js; onProgress(id, fraction) for the running request.
  constructor(pool, { onProgress } = {}) {
    this.pool = pool;
    this.seq = 0;
    this.running = null;   // { id, ctrl, started }
    this.waiting = null;   // { id, method, opts, meta, resolve, reject }
    this.lastMs = new Map();  // L -> duration of the last completed run at that L
    this.onProgress = onProgress || (() => {});
  }

  // Schedules pool.run(method, opts). Resolves with { id, result, timing, superseded } when the
  // run completed (superseded: a newer request exists; the result may still be shown), null when
  // it was dropped or cancelled; rejects with the pool's error (e.g. the core's RangeError naming
  // the field) if the request is still the newest.
  schedule(method, opts) {
    const id = ++this.seq;
    if (this.waiting) this.waiting.resolve(null);
    this.waiting = null;
    return new Promise((resolve, reject) => {
      const req = { id, method, opts, resolve, reject };
      if (!this.running) return this.start(req);
      this.waiting = req;
      this.cancelIfLong(this.running, opts && opts.L);
    });
  }

  // Cancels run r (superseded) now if runs at L have been long, else once it has run
  // LONG_RUN_MS and is still superseded.
  cancelIfLong(r, L) {
    const elapsed = performance.now() - r.started;
    if ((this.lastMs.get(L) || 0) > LONG_RUN_MS || elapsed > LONG_RUN_MS) return r.ctrl.abort();
    clearTimeout(r.watch);
    r.watch = setTimeout(() => {
      if (this.running === r && this.waiting) r.ctrl.abort();
    }, LONG_RUN_MS - elapsed);
  }

  // True while `id` is the newest request.
  isCurrent(id) {
    return id === this.seq;
  }

  start(req) {
    const ctrl = new AbortController();
    const started = performance.now();
    let timing = null;
    this.running = { id: req.id, ctrl, started };
    const onProgress = (f) => this.isCurrent(req.id) && this.onProgress(req.id, f);
    const onTiming = (t) => { timing = t; };
    const next = () => {
      clearTimeout(this.running.watch);
      this.running = null;
      const w = this.waiting;
      this.waiting = null;
      if (w) this.start(w);
    };
    this.pool.run(req.method, req.opts, { signal: ctrl.signal, onProgress, onTiming }).then((result) => {
      this.lastMs.set(req.opts && req.opts.L, performance.now() - started);
      next();
      req.resolve({ id: req.id, result, timing, superseded: !this.isCurrent(req.id) });
    }, (err) => {
      next();
      if ((err && err.name === 'AbortError') || !this.isCurrent(req.id)) req.resolve(null);
      else req.reject(err);
    });
  }
}
