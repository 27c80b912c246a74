// attnx lab: runs a sweep in the worker pool (DOM-free, so it is testable with a fake pool).
// The sweep is cut into tasks by plan.js; as many tasks run at a time as the pool has workers.
// The parts of one L are merged into one point in trial order (t = 0..T-1, whatever order the
// parts finish in); the merged point's median and (1-delta)-quantile come from the core
// (pool.run('summariseSweep')), a length run whole keeps the core's own. A length is reported
// (onPoint) only when all its trials are in; cancelling keeps the finished lengths and drops
// partly computed ones (they are marked 'cancelled').
import { planTasks, progressOf, TASKS_PER_LANE } from './plan.js';

// A fresh DOMException-like Error named 'AbortError' (what a cancelled task rejects with).
const abortError = () => {
  const e = new Error('cancelled');
  e.name = 'AbortError';
  return e;
};

// True when `e` reports a cancellation (an AbortError, or a non-RangeError mentioning abort/cancel).
const isAbort = (e) => !!e && (e.name === 'AbortError' || (/abort|cancel/i.test(String(e.message || '')) && e.name !== 'RangeError'));

const dOrNull = (d) => (d === null || d === undefined || d < 0 ? null : d);

// Converts the worker's sweepPoint answer (camelCase) to a point record (the CLI's JSON names).
export function pointFromApi(r) {
  return {
    L: r.L,
    d_mins: Array.from(r.dMins, dOrNull),
    median: r.median ?? null,
    quantile: r.quantile ?? null,
    d_star: r.dStar ?? null,
    k: r.k ?? null,
    max_col_count: r.maxColCount ?? null,
    in_class: r.inClass ?? null,
    madds: r.madds ?? null,
  };
}

// Merges the answers of the parts of one length L. parts: [{ firstTrial, r }] in any order,
// together covering trials 0..T-1 (throws naming the trial where they do not join up). d_min in
// trial order; median and quantile null (the core fills them: completePoint); d* is the largest
// part's (d* increases with the largest beta); k and the max column count are maxima, in-class is
// an AND, multiply-adds add up.
export function mergeParts(L, parts) {
  const sorted = parts.slice().sort((a, b) => a.firstTrial - b.firstTrial);
  const dMins = [];
  for (const { firstTrial, r } of sorted) {
    if (firstTrial !== dMins.length) throw new Error(`internal: trials of L = ${L} do not join up at trial ${firstTrial}`);
    for (const d of r.dMins) dMins.push(dOrNull(d));
  }
  const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const fold = (key, f) => sorted.reduce((acc, { r }) => {
    const v = key === 'inClass' ? (typeof r.inClass === 'boolean' ? r.inClass : null) : num(r[key]);
    return v === null ? acc : acc === null ? v : f(acc, v);
  }, null);
  return {
    L, d_mins: dMins, median: null, quantile: null,
    d_star: fold('dStar', Math.max), k: fold('k', Math.max), max_col_count: fold('maxColCount', Math.max),
    in_class: fold('inClass', (a, b) => a && b), madds: fold('madds', (a, b) => a + b),
  };
}

// The point of length L from its parts: the core's answer as is when one part covers every
// trial, else the merge with median and quantile computed by the core through the pool.
// Resolves the point record; rejects with the pool's error.
export async function completePoint(pool, L, parts, delta) {
  if (parts.length === 1 && parts[0].firstTrial === 0) return pointFromApi(parts[0].r);
  const p = mergeParts(L, parts);
  const s = await pool.run('summariseSweep', { delta, points: [{ L, dMins: p.d_mins }] });
  p.median = s.points[0].median;
  p.quantile = s.points[0].quantile;
  return p;
}

// The bookkeeping of one sweep: tasks, per-length groups, finished points, the first failure.
class Sweep {
  constructor(pool, { opts, Ls, concurrency, perLane, signal, onPoint, onProgress, onTask, now }) {
    Object.assign(this, { pool, onPoint, onProgress, onTask, now, signal });
    this.T = opts.trials ?? 1;
    this.delta = opts.delta;
    const { trials: _t, firstTrial: _f, ...base } = opts;
    this.base = base;
    this.tasks = planTasks(Ls, this.T, concurrency, perLane).map((t) => ({ ...t, fraction: 0, state: 'queued' }));
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
    const p = progressOf(this.tasks, (this.now() - this.t0) / 1000);
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

  // Files a finished task; when it was its length's last part, completes and reports the point.
  async finished(t, r) {
    const g = this.groups.get(t.L);
    t.fraction = 1;
    t.state = 'done';
    g.parts.push({ firstTrial: t.firstTrial, r });
    g.trialsDone += t.trials;
    if (--g.missing > 0) {
      this.setState(g, 'running');
      return;
    }
    const point = await completePoint(this.pool, t.L, g.parts, this.delta);
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
        await this.finished(t, await this.call(t));
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

// Runs a sweep. opts: worker options without L (trials, delta, seed, ...); Ls: the grid;
// concurrency: tasks at a time. Callbacks: onPoint(point) once per length when all its trials
// are in; onProgress({ fraction, eta, running: [L], done, total, trialsDone, trialsTotal });
// onTask(L, state, { trialsDone, trials }) per length with state 'queued' | 'running' | 'done' |
// 'cancelled' | 'failed' (called again while running as parts finish). signal cancels.
// Resolves { points (ascending L), cancelled, elapsed (s) }; rejects with the first real error
// (the other tasks are cancelled).
export async function runSweep(pool, { opts, Ls, concurrency = 1, signal, onPoint = () => {}, onProgress = () => {}, onTask = () => {}, now = () => performance.now(), perLane = TASKS_PER_LANE }) {
  const s = new Sweep(pool, { opts, Ls, concurrency, perLane, signal, onPoint, onProgress, onTask, now });
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
