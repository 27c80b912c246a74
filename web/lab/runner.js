// attnx lab: runs a sweep in the worker pool (DOM-free, so it is testable with a fake pool).
// The core cuts the sweep into tasks (core.planSweep, sized by the cost model); as many tasks run
// at a time as the pool has workers. When every part of one L is in, the core merges them into
// that length's point in trial order (core.mergeSweepParts: whatever order the parts finished in,
// with the median and (1-delta)-quantile of all trials); the progress and the time left are the
// core's too (core.sweepProgress). A length is reported (onPoint) only when all its trials are in;
// cancelling keeps the finished lengths and drops partly computed ones (they are marked
// 'cancelled'). `core` is the module's API on this thread (web/lib/attnx.js load()): cheap,
// synchronous calls; the trials themselves run in the pool.

// A fresh DOMException-like Error named 'AbortError' (what a cancelled task rejects with).
const abortError = () => {
  const e = new Error('cancelled');
  e.name = 'AbortError';
  return e;
};

// True when `e` reports a cancellation (an AbortError, or a non-RangeError mentioning abort/cancel).
const isAbort = (e) => !!e && (e.name === 'AbortError' || (/abort|cancel/i.test(String(e.message || '')) && e.name !== 'RangeError'));

// The bookkeeping of one sweep: tasks, per-length groups, finished points, the first failure.
class Sweep {
  constructor(pool, { core, opts, Ls, concurrency, signal, onPoint, onProgress, onTask, now }) {
    Object.assign(this, { pool, core, onPoint, onProgress, onTask, now, signal });
    this.T = opts.trials ?? 1;
    this.delta = opts.delta;
    const { trials: _t, firstTrial: _f, ...base } = opts;
    this.base = base;
    this.tasks = core.planSweep(Ls, this.T, concurrency).map((t) => ({ ...t, fraction: 0, state: 'queued' }));
    this.lanes = Math.max(1, Math.min(concurrency, this.tasks.length));
    this.groups = new Map(Ls.map((L) => [L, { L, parts: [], missing: 0, trialsDone: 0, state: 'queued' }]));
    for (const t of this.tasks) this.groups.get(t.L).missing++;
    this.inner = new AbortController();
    this.points = [];
    this.failure = null;
    this.next = 0;
    this.t0 = now();
  }

  // Sets length group g's state and tells onTask.
  setState(g, s) {
    g.state = s;
    this.onTask(g.L, s, { trialsDone: g.trialsDone, trials: this.T });
  }

  // Tells onProgress the weighted progress, the running lengths and the trials done.
  report() {
    const p = this.core.sweepProgress(this.tasks.map((t) => t.weight), this.tasks.map((t) => t.fraction), (this.now() - this.t0) / 1000);
    const running = [...new Set(this.tasks.filter((t) => t.state === 'running').map((t) => t.L))];
    let trialsDone = 0;
    for (const g of this.groups.values()) trialsDone += g.trialsDone;
    this.onProgress({ ...p, running, done: this.points.length, total: this.groups.size, trialsDone, trialsTotal: this.groups.size * this.T });
  }

  // Runs task t in the pool; resolves its answer (rejects on error or cancellation).
  async call(t) {
    const onProgress = (f) => {
      const v = typeof f === 'number' ? f : (f && typeof f.fraction === 'number' ? f.fraction : null);
      if (v !== null && t.state === 'running') { t.fraction = v; this.report(); }
    };
    const r = await this.pool.run('sweepPoint', { ...this.base, L: t.L, trials: t.trials, firstTrial: t.firstTrial }, { signal: this.inner.signal, onProgress });
    if ((r && r.cancelled) || this.inner.signal.aborted) throw abortError();
    if (!r || !r.dMins || r.dMins.length !== t.trials) throw new Error(`internal: L = ${t.L} trials ${t.firstTrial}..${t.firstTrial + t.trials - 1} returned ${r && r.dMins ? r.dMins.length : 'no'} results`);
    return r;
  }

  // Files a finished task; when it was its length's last part, has the core merge the parts and
  // reports the point.
  finished(t, r) {
    const g = this.groups.get(t.L);
    t.fraction = 1;
    t.state = 'done';
    g.parts.push({ ...r, firstTrial: t.firstTrial });
    g.trialsDone += t.trials;
    if (--g.missing > 0) {
      this.setState(g, 'running');
      return;
    }
    const point = this.core.mergeSweepParts(t.L, this.T, this.delta, g.parts, this.base.tau);
    this.points.push(point);
    this.setState(g, 'done');
    this.onPoint(point);
  }

  // Files a task that rejected: cancelled, or failed (the first failure stops the sweep).
  failed(t, e) {
    const g = this.groups.get(t.L);
    t.fraction = 0;
    if (isAbort(e) || this.inner.signal.aborted) {
      t.state = 'cancelled';
      if (g.state !== 'failed' && g.state !== 'done') this.setState(g, 'cancelled');
      return;
    }
    t.state = 'failed';
    this.setState(g, 'failed');
    if (!this.failure) this.failure = e;
    this.inner.abort();
  }

  // One lane: takes the next task until none is left or the sweep is cancelled.
  async lane() {
    while (this.next < this.tasks.length && !this.inner.signal.aborted) {
      const t = this.tasks[this.next++];
      const g = this.groups.get(t.L);
      t.state = 'running';
      if (g.state === 'queued') this.setState(g, 'running');
      this.report();
      try {
        this.finished(t, await this.call(t));
        this.report();
      } catch (e) {
        this.failed(t, e);
      }
    }
  }

  // Lengths never started, or only partly computed, are cancelled (their finished parts dropped).
  settle() {
    for (const t of this.tasks) if (t.state === 'queued') t.state = 'cancelled';
    for (const g of this.groups.values()) if (g.state === 'queued' || g.state === 'running') this.setState(g, 'cancelled');
  }
}

// Runs a sweep. core: the module's API on this thread; opts: worker options without L (trials,
// delta, seed, ...); Ls: the grid; concurrency: tasks at a time. Callbacks: onPoint(point) once per length when all its trials
// are in; onProgress({ fraction, eta, running: [L], done, total, trialsDone, trialsTotal });
// onTask(L, state, { trialsDone, trials }) per length with state 'queued' | 'running' | 'done' |
// 'cancelled' | 'failed' (called again while running as parts finish). signal cancels.
// Resolves { points (ascending L), cancelled, elapsed (s) }; rejects with the first real error
// (the other tasks are cancelled).
export async function runSweep(pool, { core, opts, Ls, concurrency = 1, signal, onPoint = () => {}, onProgress = () => {}, onTask = () => {}, now = () => performance.now() }) {
  const s = new Sweep(pool, { core, opts, Ls, concurrency, signal, onPoint, onProgress, onTask, now });
  const forward = () => s.inner.abort();
  if (signal && signal.aborted) s.inner.abort();
  else if (signal) signal.addEventListener('abort', forward, { once: true });
  for (const g of s.groups.values()) s.setState(g, 'queued');
  try {
    await Promise.all(Array.from({ length: s.lanes }, () => s.lane()));
  } finally {
    if (signal) signal.removeEventListener('abort', forward);
  }
  s.settle();
  if (s.failure) throw s.failure;
  s.points.sort((a, b) => a.L - b.L);
  return { points: s.points, cancelled: s.points.length < s.groups.size, elapsed: (now() - s.t0) / 1000 };
}
