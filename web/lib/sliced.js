// attnx: the tasks a worker runs in slices and stops on a 'cancel' message (worker.js runs them
// so, pool.js cancels them so and keeps them on the worker that holds their Gram matrix). Each
// must return { cancelled: true } when its progress callback returns false, and resume when
// called again: construct of the `jl` construction (its Gram ladder keeps the work done). The
// other constructions (lp, moment) start over when stopped, so they run whole and are cancelled
// by replacing the worker.
export const SLICED = new Set(['construct']);

// Whether the task (method, opts) is run in slices (see above).
export function isSliced(method, opts) {
  if (!SLICED.has(method)) return false;
  const c = opts && opts.construction;
  return c === undefined || c === null || c === 'jl';
}
