// attnx explorer: the precision report (SPEC §8.4) of the construction shown. lp and moment bring
// theirs with the construction. jl's costs a few L × L × d products, so it is computed on the
// pool only when the visitor asks (a button in the panel): computed automatically it would take
// the worker that keeps the Gram matrix from the next step of a drag. A newer result, or a change
// of the settings, cancels it. DOM-free.
export class PrecisionRequest {
  // pool: web/lib/pool.js; onReport({ state: 'available' | 'computing' | 'done' | 'error',
  // precision?, message? }).
  constructor(pool, onReport) {
    this.pool = pool;
    this.onReport = onReport;
    this.ctrl = null;
    this.opts = null;
  }

  // Stops the report being computed (the settings changed).
  cancel() {
    if (this.ctrl) this.ctrl.abort();
    this.ctrl = null;
  }

  // Reports the precision of construct result `result` built with construct options `opts`:
  // its own report, or 'available' (compute() computes it).
  follow(result, opts) {
    this.cancel();
    this.opts = opts;
    if (result.precision) return this.onReport({ state: 'done', precision: result.precision });
    return this.onReport({ state: 'available' });
  }

  // Computes the report of the result last followed on the pool. Resolves when it is reported.
  compute() {
    if (!this.opts) return Promise.resolve();
    this.cancel();
    this.onReport({ state: 'computing' });
    const ctrl = new AbortController();
    this.ctrl = ctrl;
    const mine = () => this.ctrl === ctrl;
    return this.pool.run('precision', this.opts, { signal: ctrl.signal }).then((r) => {
      if (mine()) this.onReport({ state: 'done', precision: r.precision });
    }, (e) => {
      if (mine() && !(e && e.name === 'AbortError')) this.onReport({ state: 'error', message: e && e.message ? e.message : String(e) });
    });
  }
}
