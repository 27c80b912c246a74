// attnx explorer: runs the latest request on the worker pool. A new request cancels the stale one
// (AbortSignal: the pool terminates and respawns that worker); requests are debounced.
export class Runner {
  // pool: from web/lib/pool.js; delay: debounce in ms; onProgress(id, fraction) for the current run.
  constructor(pool, { delay = 150, onProgress } = {}) {
    this.pool = pool;
    this.delay = delay;
    this.timer = 0;
    this.ctrl = null;
    this.seq = 0;
    this.onProgress = onProgress || (() => {});
  }

  // Schedules pool.run(method, opts) (now when immediate, else after the debounce delay) and
  // cancels the previous request. Resolves with { id, result }, or null if superseded; rejects
  // with the pool's error (e.g. the core's RangeError naming the field) for the current request.
  schedule(method, opts, { immediate = false } = {}) {
    clearTimeout(this.timer);
    if (this.ctrl) this.ctrl.abort();
    this.ctrl = null;
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      const go = () => {
        if (id !== this.seq) return resolve(null);
        const ctrl = new AbortController();
        this.ctrl = ctrl;
        const onProgress = (f) => id === this.seq && this.onProgress(id, f);
        this.pool.run(method, opts, { signal: ctrl.signal, onProgress }).then((result) => {
          if (this.ctrl === ctrl) this.ctrl = null;
          resolve(id === this.seq ? { id, result } : null);
        }, (err) => {
          if (this.ctrl === ctrl) this.ctrl = null;
          if ((err && err.name === 'AbortError') || id !== this.seq) resolve(null);
          else reject(err);
        });
      };
      if (immediate) go();
      else this.timer = setTimeout(go, this.delay);
    });
  }

  // True while `id` is the latest request.
  isCurrent(id) {
    return id === this.seq;
  }
}
