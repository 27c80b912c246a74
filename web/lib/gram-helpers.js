// attnx: the helper workers that sum bands of a construct's Gram matrix for the pool's worker that
// keeps it (worker.js posts { type: 'bands', sum }; the core plans the bands, core/api/calls_bands.cpp).
// A helper is a worker.js of its own that keeps nothing between bands. Helpers start when a split
// first needs them and end after IDLE_MS without a band, so an idle page holds no more workers
// than its pool. A band sum runs until its worker drops it ('bands-dropped'), the worker ends or
// the pool is destroyed (a stopped construct's band sum goes on: the next construct of the same
// settings takes it up); a band that fails or is stopped ends its helper.

const IDLE_MS = 10000;

// One helper worker running one band at a time.
class Helper {
  constructor(startWorker, flavour) {
    this.job = null;
    this.rungsJob = null;  // the band resolved last, until its rungs are delivered
    this.lastId = 0;
    this.dead = false;
    this.worker = startWorker();
    this.worker.onmessage = (ev) => this.onMessage(ev.data || {});
    this.worker.onerror = (ev) => {
      if (ev && ev.preventDefault) ev.preventDefault();
      this.fail(new Error('attnx helper worker failed'));
    };
    this.worker.postMessage({ type: 'init', flavour });
  }

  // Sums band { opts, band, start } (start transferred); resolves with { atD }. The helper then
  // copies the band's rungs out of its module: onRungs(rungs) gets them (a Float32Array, or null
  // when they cannot come: the copy failed or the helper ended first), once per band resolved.
  run(task, onRungs) {
    return new Promise((resolve, reject) => {
      this.job = { id: ++this.lastId, resolve, reject, onRungs };
      const transfer = task.start && task.start.buffer ? [task.start.buffer] : [];
      this.worker.postMessage({ type: 'run', id: this.job.id, method: 'gramBand', opts: task }, transfer);
    });
  }

  onMessage(m) {
    if (m.type === 'init-error') return this.fail(new Error(m.error && m.error.message));
    if (m.type === 'rungs') return this.deliverRungs(m.id, m.rungs);
    const job = this.job;
    if (!job || m.id !== job.id || (m.type !== 'result' && m.type !== 'error')) return;
    this.job = null;
    if (m.type === 'result' && !m.result.cancelled) {
      if (this.rungsJob) this.deliverRungs(this.rungsJob.id, null);  // (cannot happen: in order)
      this.rungsJob = job;  // its rungs follow (worker.js posts them after the result)
      job.resolve(m.result);
    } else {
      job.reject(new Error(m.error ? m.error.message : 'the band was stopped'));
    }
  }

  // Hands the rungs of job id (the last band resolved) to its onRungs, once.
  deliverRungs(id, rungs) {
    const job = this.rungsJob;
    if (!job || job.id !== id) return;
    this.rungsJob = null;
    job.onRungs(rungs);
  }

  fail(err) {
    const job = this.job;
    this.terminate();
    if (job) job.reject(err);
  }

  terminate() {
    this.dead = true;
    this.job = null;
    this.worker.onmessage = null;
    this.worker.onerror = null;
    this.worker.terminate();
    if (this.rungsJob) this.deliverRungs(this.rungsJob.id, null);  // they will not come
  }
}

export class GramHelpers {
  /**
   * @param {{count: number, startWorker: () => Worker, flavour?: string}} options
   *   count: helpers a construct may use at once (0: none, constructs sum alone); startWorker
   *   starts a worker.js
   */
  constructor({ count, startWorker, flavour }) {
    this.count = count;
    this._start = startWorker;
    this._flavour = flavour;
    this._idle = [];
    this._busy = new Set();  // helpers summing a band
    this._sums = [];         // { home, sum, stop, left } of the band sums running (left: bands to come)
    this._timer = null;
    /** Band jobs started so far (for tests: a band sum taken up again starts none). */
    this.jobs = 0;
  }

  /** Helpers alive (idle or summing). */
  get live() {
    return this._idle.filter((h) => !h.dead).length + this._busy.size;  // (one that failed idle is gone)
  }

  /**
   * Runs the bands of a 'bands' message m from `home` (a worker.js) on helpers and posts each band
   * to home ({ type: 'band', sum, c0, c1, atD }, transferred) or { type: 'band-failed', sum }; a
   * band posted is followed by its rungs ({ type: 'band-rungs', sum, c0, c1, points, rungs }, rungs
   * transferred, or null when they will not come) when it has rung points.
   */
  run(home, m) {
    let stopped = false;
    const mine = new Set();
    const stop = () => {
      stopped = true;
      for (const h of mine) {
        h.terminate();
        this._busy.delete(h);
      }
      mine.clear();
      this._sums = this._sums.filter((x) => x.stop !== stop);
      this._armIdle();
    };
    const record = { home, sum: m.sum, stop, left: m.bands.length };
    this._sums.push(record);
    const settled = () => {  // a band delivered or failed: the sum is over after its last
      if (--record.left === 0) this._sums = this._sums.filter((x) => x !== record);
    };
    for (const { band, start } of m.bands) this._runBand(home, m, band, start, mine, () => stopped, settled);
  }

  /** Stops band sum `sum` of home (all of home's when sum is undefined): its helpers end. */
  stop(home, sum) {
    for (const x of this._sums.slice()) if (x.home === home && (sum === undefined || x.sum === sum)) x.stop();
  }

  _runBand(home, m, band, start, mine, isStopped, settled) {
    let h;
    try {
      do h = this._idle.pop(); while (h && h.dead);  // one that failed while idle is gone
      h = h || new Helper(this._start, this._flavour);
    } catch {  // a worker that cannot start: construct sums G itself
      home.postMessage({ type: 'band-failed', sum: m.sum });
      settled();
      return;
    }
    this.jobs++;
    mine.add(h);
    this._busy.add(h);
    let delivered = false;
    // After its band, each band's rungs (or null: they will not come), which home waits for before
    // its next construct; none for a band without rung points.
    const onRungs = (rungs) => {
      if (!delivered || (rungs && rungs.length === 0)) return;
      home.postMessage({ type: 'band-rungs', sum: m.sum, c0: band.c0, c1: band.c1, points: band.rungs, rungs },
        rungs ? [rungs.buffer] : []);
    };
    h.run({ opts: m.opts, band, start }, onRungs).then((r) => {
      mine.delete(h);
      this._release(h);
      if (isStopped()) return;
      settled();
      delivered = true;
      home.postMessage({ type: 'band', sum: m.sum, c0: band.c0, c1: band.c1, atD: r.atD }, [r.atD.buffer]);
    }, () => {
      mine.delete(h);
      this._busy.delete(h);
      h.terminate();
      if (isStopped()) return;
      settled();
      home.postMessage({ type: 'band-failed', sum: m.sum });
    });
  }

  /** Ends every helper (the idle ones only, when idleOnly). */
  destroy(idleOnly = false) {
    clearTimeout(this._timer);
    this._timer = null;
    for (const h of this._idle.splice(0)) h.terminate();
    if (idleOnly) return;
    for (const x of this._sums.slice()) x.stop();
  }

  _release(h) {
    this._busy.delete(h);
    if (!h.dead) this._idle.push(h);
    this._armIdle();
  }

  // Idle helpers end IDLE_MS after the last one became idle.
  _armIdle() {
    clearTimeout(this._timer);
    this._timer = this._idle.length ? setTimeout(() => this.destroy(true), IDLE_MS) : null;
  }
}
