// attnx web: runs the latest request on the worker pool. A new request cancels the stale one
// (AbortSignal: the pool terminates and respawns that worker); requests are debounced.
export class Runner {
  constructor(pool, { delay = 150, onStart, onProgress } = {}) {
    this.pool = pool;
    this.delay = delay;
    this.timer = 0;
    this.ctrl = null;
    this.seq = 0;
    this.onStart = onStart || (() => {});
    this.onProgress = onProgress || (() => {});
  }

  // Schedules fn-less run of method/opts; resolves with { id, result } or null if superseded.
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
        this.onStart(id);
        this.pool.run(method, opts, {
          signal: ctrl.signal,
          onProgress: (p) => id === this.seq && this.onProgress(id, p),
        }).then((result) => {
          if (this.ctrl === ctrl) this.ctrl = null;
          resolve(id === this.seq ? { id, result } : null);
        }, (err) => {
          if (this.ctrl === ctrl) this.ctrl = null;
          if (err && err.name === 'AbortError') resolve(null);
          else if (id !== this.seq) resolve(null);
          else reject(err);
        });
      };
      if (immediate) go();
      else this.timer = setTimeout(go, this.delay);
    });
  }

  isCurrent(id) {
    return id === this.seq;
  }
}
