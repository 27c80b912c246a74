// attnx lab: how a sweep is cut into worker tasks, and its progress (DOM-free).
// A task runs trials firstTrial..firstTrial+trials-1 of one length (pool.run('sweepPoint', ...)
// with the same trial seeds as `attnx sweep`). Tasks are sized by cost (~L^2 ln L per trial) so
// that there are at least about TASKS_PER_LANE tasks per worker overall (never below one trial per
// task): every task costs at most a common bound, so the largest lengths are split most and cheap
// ones usually stay whole. With several workers the largest L goes first (its parts in trial
// order) so the longest work starts early; with one worker the smallest L first, so the plots fill
// in early.

// Tasks per worker the plan aims at (at least), so no worker idles long at the end.
export const TASKS_PER_LANE = 3;

// Relative cost of `trials` trials of one length L: a trial does about L^2 d_min / 2
// multiply-adds, and d_min grows roughly like ln L.
export function taskWeight(L, trials) {
  return L * L * Math.max(1, Math.log(L)) * trials;
}

// Number of parts per length when no task may cost more than `bound` (as few parts as possible,
// each with at most the trials that fit in the bound, at least one).
function partsAt(cost, T, bound) {
  return cost.map((c) => Math.ceil(T / Math.max(1, Math.floor((bound * T) / c + 1e-9))));
}

const sum = (a) => a.reduce((x, y) => x + y, 0);

// Bound on the cost of one task: at most 1/(perLane * lanes) of the whole sweep (so no worker is
// left with one long task at the end), lowered further until there are at least perLane * lanes
// tasks (or one per trial).
function taskBound(cost, T, lanes, perLane) {
  const bound = sum(cost) / (perLane * lanes);
  const want = Math.min(perLane * lanes, cost.length * T);
  if (sum(partsAt(cost, T, bound)) >= want) return bound;
  // Largest bound with at least `want` tasks (the count only grows as the bound shrinks).
  let lo = 0, hi = bound;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (sum(partsAt(cost, T, mid)) >= want) lo = mid; else hi = mid;
  }
  return lo;
}

// The task list of a sweep over the lengths Ls with `trials` trials each, for `concurrency`
// workers, in the order the tasks are started: [{ L, firstTrial, trials, weight }]. Each length's
// trials 0..T-1 are cut into contiguous parts of nearly equal size.
export function planTasks(Ls, trials, concurrency = 1, perLane = TASKS_PER_LANE) {
  const T = Math.max(1, Math.floor(trials));
  const lanes = Math.max(1, Math.floor(concurrency));
  const cost = Ls.map((L) => taskWeight(L, T));
  const bound = taskBound(cost, T, lanes, perLane);
  const parts = bound > 0 ? partsAt(cost, T, bound) : Ls.map(() => T);
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

// Progress of tasks [{ weight, fraction in [0, 1] }] after elapsedSec seconds: { fraction (weighted
// by cost), eta in seconds (null until 1% is done and 0.3 s have passed) }.
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
