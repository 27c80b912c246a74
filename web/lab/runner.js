// attnx lab: runs a sweep in the worker pool (DOM-free, so it is testable with a fake pool).
// A sweep is split into tasks of a few trials each: pool.run('sweepPoint', { L, trials, firstTrial })
// runs trials firstTrial..firstTrial+trials-1 of one length with the same trial seeds as
// `attnx sweep`. Chunks are sized by cost (~L^2 ln L per trial) so that there are at least about
// TASKS_PER_LANE tasks per worker overall (never below one trial per task): every task costs at
// most a common bound, so the largest lengths are split most and cheap ones usually stay whole. With several workers the largest L goes first (its
// parts in trial order) so the longest work starts early; with one worker the smallest L first, so
// the plots fill in early. As many tasks run at a time as the pool has workers.
// The parts of one L are merged into one point in trial order (t = 0..T-1, whatever order the parts
// finish in); its median and (1-delta)-quantile come from the merged d_min (stats.js, identical to
// the core). A length is reported (onPoint) only when all its trials are in; cancelling keeps the
// finished lengths and drops partly computed ones (they are marked 'cancelled').

import { medianD, quantileD } from './stats.js';

export const TASKS_PER_LANE = 3;

export const abortError = () => {
  const e = new Error('cancelled');
  e.name = 'AbortError';
  return e;
};
export const isAbort = (e) => e && (e.name === 'AbortError' || /abort|cancel/i.test(String(e.message || '')) && e.name !== 'RangeError');

// Relative cost of `trials` trials of one length: a trial does about L^2 d_min / 2 multiply-adds,
// and d_min grows roughly like ln L.
export function taskWeight(L, trials) {
  return L * L * Math.max(1, Math.log(L)) * trials;
}

// The task list of a sweep, in the order the tasks are started: [{ L, firstTrial, trials, weight }].
// Each length's trials 0..T-1 are cut into contiguous parts of nearly equal size, each costing at
// most a common bound (see below). A length whose trials cost more than the bound is split; a
// cheap one stays whole.
export function planTasks(Ls, trials, concurrency = 1, perLane = TASKS_PER_LANE) {
  const T = Math.max(1, Math.floor(trials));
  const lanes = Math.max(1, Math.floor(concurrency));
  const cost = Ls.map((L) => taskWeight(L, T));
  // Parts of a length under a bound: as few as possible with at most `m` trials each, m the trials
  // that fit in the bound (at least one).
  const partsAt = (bound) => cost.map((c) => Math.ceil(T / Math.max(1, Math.floor((bound * T) / c + 1e-9))));
  const count = (parts) => parts.reduce((a, b) => a + b, 0);
  // Bound on the cost of one task: at most 1/(perLane * lanes) of the whole sweep (so no worker is
  // left with one long task at the end), and lowered further until there are at least
  // perLane * lanes tasks (or one per trial).
  let bound = count(cost) / (perLane * lanes);
  const want = Math.min(perLane * lanes, Ls.length * T);
  if (count(partsAt(bound)) < want) {
    // Largest bound with at least `want` tasks (the count only grows as the bound shrinks).
    let lo = 0, hi = bound;
    for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
      const mid = 0.5 * (lo + hi);
      if (count(partsAt(mid)) >= want) lo = mid; else hi = mid;
    }
    bound = lo;
  }
  const parts = bound > 0 ? partsAt(bound) : Ls.map(() => T);
  const order = Ls.map((L, i) => ({ L, n: parts[i] })).sort((a, b) => (lanes > 1 ? b.L - a.L : a.L - b.L));
  const tasks = [];
  for (const { L, n } of order) {
    for (let i = 0; i < n; i++) {
      const first = Math.floor((i * T) / n), end = Math.floor(((i + 1) * T) / n);
      tasks.push({ L, firstTrial: first, trials: end - first, weight: taskWeight(L, end - first) });
    }
  }
  return tasks;
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

// Merges the answers of the parts of one length into one point record. parts: [{ firstTrial, r }]
// in any order, together covering trials 0..T-1. d_min in trial order; median and quantile from
// the merged d_min; d* is the largest part's d* (d* increases with the largest beta); k and the
// max column count are maxima, in-class is an AND, multiply-adds add up.
export function mergeParts(L, parts, delta) {
  if (parts.length === 1 && parts[0].firstTrial === 0) return pointFromApi(parts[0].r);
  const sorted = parts.slice().sort((a, b) => a.firstTrial - b.firstTrial);
  const dMins = [];
  for (const { firstTrial, r } of sorted) {
    if (firstTrial !== dMins.length) throw new Error(`internal: trials of L = ${L} do not join up at trial ${firstTrial}`);
    for (const d of r.dMins) dMins.push(d === null || d === undefined || d < 0 ? null : d);
  }
  const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const fold = (key, f) => sorted.reduce((acc, { r }) => {
    const v = key === 'inClass' ? (typeof r.inClass === 'boolean' ? r.inClass : null) : num(r[key]);
    return v === null ? acc : acc === null ? v : f(acc, v);
  }, null);
  return {
    L,
    d_mins: dMins,
    median: medianD(dMins),
    quantile: quantileD(dMins, delta),
    d_star: fold('dStar', Math.max),
    k: fold('k', Math.max),
    max_col_count: fold('maxColCount', Math.max),
    in_class: fold('inClass', (a, b) => a && b),
    madds: fold('madds', (a, b) => a + b),
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
// Callbacks: onPoint(point) once per length when all its trials are in; onProgress({ fraction,
// eta, running: [L], done, total, trialsDone, trialsTotal }); onTask(L, state, { trialsDone,
// trials }) per length with state 'queued' | 'running' | 'done' | 'cancelled' | 'failed' (called
// again while running as parts finish).
// Resolves { points, cancelled, elapsed }, rejects with the first real error (other tasks are cancelled).
export async function runSweep(pool, { opts, Ls, concurrency = 1, signal, onPoint = () => {}, onProgress = () => {}, onTask = () => {}, now = () => performance.now(), perLane = TASKS_PER_LANE }) {
  const inner = new AbortController();
  const forward = () => inner.abort();
  if (signal) {
    if (signal.aborted) inner.abort();
    else signal.addEventListener('abort', forward, { once: true });
  }
  const T = opts.trials ?? 1;
  const delta = opts.delta ?? 0.1;
  const { trials: _t, firstTrial: _f, ...base } = opts;
  const tasks = planTasks(Ls, T, concurrency, perLane).map((t) => ({ ...t, fraction: 0, state: 'queued' }));
  const lanes = Math.max(1, Math.min(concurrency, tasks.length));
  // Per length: its parts' answers, how many are still missing, and its state.
  const groups = new Map(Ls.map((L) => [L, { L, parts: [], missing: 0, trialsDone: 0, state: 'queued' }]));
  for (const t of tasks) groups.get(t.L).missing++;
  const setState = (g, s) => {
    g.state = s;
    onTask(g.L, s, { trialsDone: g.trialsDone, trials: T });
  };
  for (const g of groups.values()) setState(g, 'queued');
  const t0 = now();
  const points = [];
  let failure = null;
  const report = () => {
    const p = progressOf(tasks, (now() - t0) / 1000);
    const running = [...new Set(tasks.filter((t) => t.state === 'running').map((t) => t.L))];
    let trialsDone = 0;
    for (const g of groups.values()) trialsDone += g.trialsDone;
    onProgress({ ...p, running, done: points.length, total: groups.size, trialsDone, trialsTotal: groups.size * T });
  };
  let next = 0;
  const lane = async () => {
    while (next < tasks.length && !inner.signal.aborted) {
      const t = tasks[next++];
      const g = groups.get(t.L);
      t.state = 'running';
      if (g.state === 'queued') setState(g, 'running');
      report();
      try {
        const r = await pool.run('sweepPoint', { ...base, L: t.L, trials: t.trials, firstTrial: t.firstTrial }, {
          signal: inner.signal,
          onProgress: (f) => {
            const v = typeof f === 'number' ? f : (f && typeof f.fraction === 'number' ? f.fraction : null);
            if (v !== null && t.state === 'running') { t.fraction = v; report(); }
          },
        });
        if (r && r.cancelled) throw abortError();
        if (inner.signal.aborted) throw abortError();
        if (!r || !r.dMins || r.dMins.length !== t.trials) throw new Error(`internal: L = ${t.L} trials ${t.firstTrial}..${t.firstTrial + t.trials - 1} returned ${r && r.dMins ? r.dMins.length : 'no'} results`);
        t.fraction = 1;
        t.state = 'done';
        g.parts.push({ firstTrial: t.firstTrial, r });
        g.trialsDone += t.trials;
        if (--g.missing === 0) {
          const point = mergeParts(t.L, g.parts, delta);
          points.push(point);
          setState(g, 'done');
          onPoint(point);
        } else {
          setState(g, 'running');
        }
        report();
      } catch (e) {
        t.fraction = 0;
        if (isAbort(e) || inner.signal.aborted) {
          t.state = 'cancelled';
          if (g.state !== 'failed' && g.state !== 'done') setState(g, 'cancelled');
        } else {
          t.state = 'failed';
          setState(g, 'failed');
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
  // Lengths never started, or only partly computed, are cancelled (their finished parts are dropped).
  for (const t of tasks) if (t.state === 'queued') t.state = 'cancelled';
  for (const g of groups.values()) if (g.state === 'queued' || g.state === 'running') setState(g, 'cancelled');
  if (failure) throw failure;
  points.sort((a, b) => a.L - b.L);
  return { points, cancelled: points.length < groups.size, elapsed: (now() - t0) / 1000 };
}
