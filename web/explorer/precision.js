// attnx explorer: the precision report (SPEC §8.4) of the construction shown. lp and moment bring
// theirs with the construction. jl's costs a few L × L × d products, so it is computed on the
// pool only when the visitor asks (a button in the panel): computed automatically it would take
// the worker that keeps the Gram matrix from the next step of a drag. A change of the settings
// cancels it; a result computed again for the same settings (e.g. for X's images) keeps it.
// DOM-free.
export class PrecisionRequest {
  // pool: web/lib/pool.js; onReport({ state: 'available' | 'computing' | 'done' | 'error',
  // precision?, bounds? (SPEC §9 of the X, w included), message? }).
  constructor(pool, onReport) {
    this.pool = pool;
    this.onReport = onReport;
    this.ctrl = null;
    this.opts = null;
    this.key = null;   // the settings the report is about (state.js settingsKey)
    this.last = null;  // the last report of those options
  }

  // Stops the report being computed.
  cancel() {
    if (this.ctrl) this.ctrl.abort();
    this.ctrl = null;
  }

  // The settings are now those of `key` (state.js settingsKey): the report of others is dropped.
  settingsChanged(key) {
    if (key === this.key) return;
    this.cancel();
    this.key = null;
    this.last = null;
  }

  // Reports the precision of construct result `result` built with construct options `opts`
  // (settings `key`): its own report, the report of the same settings already asked for, or
  // 'available' (compute()).
  follow(result, opts, key) {
    if (!result.precision && key === this.key && this.last) return this.onReport(this.last);
    this.cancel();
    this.opts = opts;
    this.key = key;
    return this.report(result.precision ? { state: 'done', precision: result.precision, bounds: result.bounds } : { state: 'available' });
  }

  report(r) {
    this.last = r;
    this.onReport(r);
  }

  // Computes the report of the result last followed on the pool. Resolves when it is reported.
  compute() {
    if (!this.opts) return Promise.resolve();
    this.cancel();
    this.report({ state: 'computing' });
    const ctrl = new AbortController();
    this.ctrl = ctrl;
    const mine = () => this.ctrl === ctrl;
    return this.pool.run('precision', this.opts, { signal: ctrl.signal }).then((r) => {
      if (mine()) this.report({ state: 'done', precision: r.precision, bounds: r.bounds });
    }, (e) => {
      if (mine() && !(e && e.name === 'AbortError')) this.report({ state: 'error', message: e && e.message ? e.message : String(e) });
    });
  }
}
