// attnx lab: runs a sweep in the worker pool (DOM-free, so it is testable with a fake pool).
// One task per length L (all T trials: pool.run('sweepPoint'), the same trial seeds as
// `attnx sweep`); with several workers the largest L first so the longest task starts early; as
// many tasks at a time as the pool has workers. Results stream out per L; cancelling keeps the finished lengths.

export const abortError = () => {
  const e = new Error('cancelled');
  e.name = 'AbortError';
  return e;
};
export const isAbort = (e) => e && (e.name === 'AbortError' || /abort|cancel/i.test(String(e.message || '')) && e.name !== 'RangeError');

// Relative cost of one length: a trial does about L^2 d_min / 2 multiply-adds, and d_min grows
// roughly like ln L.
export function taskWeight(L, trials) {
  return L * L * Math.max(1, Math.log(L)) * trials;
}

// Converts the worker's answer (camelCase) to a point record (the CLI's JSON names).
export function pointFromApi(r) {
  return {
    L: r.L,
    d_mins: Array.from(r.dMins, (d) => (d === null || d === undefined || d < 0 ? null : d)),
    median: r.median ?? null,
    quantile: r.quantile ?? null,
    d_star: r.dStar ?? null,
    k: r.k ?? null,
    max_col_count: r.maxColCount ?? null,
    in_class: r.inClass ?? null,
    madds: r.madds ?? null,
  };
}

// Progress and ETA of a set of tasks [{ weight, fraction }].
export function progressOf(tasks, elapsedSec) {
  let tot = 0, done = 0;
  for (const t of tasks) {
    tot += t.weight;
    done += t.weight * Math.min(1, Math.max(0, t.fraction));
  }
  const f = tot > 0 ? done / tot : 0;
  const eta = f > 0.01 && elapsedSec > 0.3 ? (elapsedSec * (1 - f)) / f : null;
  return { fraction: f, eta };
}

// Runs the sweep. opts: base worker options (no L); Ls: the grid; concurrency: parallel tasks.
// Callbacks: onPoint(point), onProgress({ fraction, eta, running: [L] }), onTask(L, state) with
// state 'queued' | 'running' | 'done' | 'cancelled' | 'failed'.
// Resolves { points, cancelled }, rejects with the first real error (other tasks are cancelled).
export async function runSweep(pool, { opts, Ls, concurrency = 1, signal, onPoint = () => {}, onProgress = () => {}, onTask = () => {}, now = () => performance.now() }) {
  const inner = new AbortController();
  const forward = () => inner.abort();
  if (signal) {
    if (signal.aborted) inner.abort();
    else signal.addEventListener('abort', forward, { once: true });
  }
  // Several workers: largest L first (shortest total time). One worker: smallest first, so the
  // plots fill in early; the total time is the same either way.
  const lanes = Math.max(1, Math.min(concurrency, Ls.length));
  const tasks = Ls.map((L) => ({ L, weight: taskWeight(L, opts.trials ?? 1), fraction: 0, state: 'queued' }))
    .sort((a, b) => (lanes > 1 ? b.L - a.L : a.L - b.L));
  for (const t of tasks) onTask(t.L, 'queued');
  const t0 = now();
  const points = [];
  let failure = null;
  const report = () => {
    const p = progressOf(tasks, (now() - t0) / 1000);
    onProgress({ ...p, running: tasks.filter((t) => t.state === 'running').map((t) => t.L), done: points.length, total: tasks.length });
  };
  let next = 0;
  const lane = async () => {
    while (next < tasks.length && !inner.signal.aborted) {
      const t = tasks[next++];
      t.state = 'running';
      onTask(t.L, 'running');
      report();
      try {
        const r = await pool.run('sweepPoint', { ...opts, L: t.L }, {
          signal: inner.signal,
          onProgress: (f) => {
            const v = typeof f === 'number' ? f : (f && typeof f.fraction === 'number' ? f.fraction : null);
            if (v !== null) { t.fraction = v; report(); }
          },
        });
        if (r && r.cancelled) throw abortError();
        if (inner.signal.aborted) throw abortError();
        t.fraction = 1;
        t.state = 'done';
        const point = pointFromApi(r);
        points.push(point);
        onTask(t.L, 'done');
        onPoint(point);
        report();
      } catch (e) {
        if (isAbort(e) || inner.signal.aborted) {
          t.state = 'cancelled';
          t.fraction = 0;
          onTask(t.L, 'cancelled');
        } else {
          t.state = 'failed';
          onTask(t.L, 'failed');
          if (!failure) failure = e;
          inner.abort();
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: lanes }, lane));
  } finally {
    if (signal) signal.removeEventListener('abort', forward);
  }
  for (const t of tasks) if (t.state === 'queued') { t.state = 'cancelled'; onTask(t.L, 'cancelled'); }
  if (failure) throw failure;
  points.sort((a, b) => a.L - b.L);
  return { points, cancelled: points.length < tasks.length, elapsed: (now() - t0) / 1000 };
}
