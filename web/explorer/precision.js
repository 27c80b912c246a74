// attnx explorer: the precision report (SPEC §8.4) of the construction shown. lp and moment bring
// theirs with the construction; jl's costs a few L × L × d products, so it is asked for on the
// pool once a result is drawn, for the newest result only (a newer one, or a change of the
// settings, cancels it). DOM-free.
export class PrecisionRequest {
  // pool: web/lib/pool.js; onReport({ state: 'computing' | 'done' | 'error', precision?, message? }).
  constructor(pool, onReport) {
    this.pool = pool;
    this.onReport = onReport;
    this.ctrl = null;
  }

  // Stops the report being computed (the settings changed).
  cancel() {
    if (this.ctrl) this.ctrl.abort();
    this.ctrl = null;
  }

  // Reports the precision of construct result `result` built with construct options `opts`.
  follow(result, opts) {
    this.cancel();
    if (result.precision) return this.onReport({ state: 'done', precision: result.precision });
    this.onReport({ state: 'computing' });
    const ctrl = new AbortController();
    this.ctrl = ctrl;
    const mine = () => this.ctrl === ctrl;
    return this.pool.run('precision', opts, { signal: ctrl.signal }).then((r) => {
      if (mine()) this.onReport({ state: 'done', precision: r.precision });
    }, (e) => {
      if (mine() && !(e && e.name === 'AbortError')) this.onReport({ state: 'error', message: e && e.message ? e.message : String(e) });
    });
  }
}
