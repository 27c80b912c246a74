// attnx: the tasks a worker runs in slices and stops on a 'cancel' message (worker.js runs them
// so, pool.js cancels them so and keeps them on the worker that holds their Gram matrix). Each
// must return { cancelled: true } when its progress callback returns false, and resume when
// called again: construct of a construction the core marks `sliced` (its Gram ladder keeps the
// work done). The others start over when stopped, so they run whole and are cancelled by
// replacing the worker.
export const SLICED = new Set(['construct']);

/**
 * Whether the task (method, opts) is run in slices. info: the module's info() ({ sliced,
 * defaultConstruction }: the core's constructions that are sliced, and the one used when opts
 * names none); without it (the module not loaded yet) nothing is sliced.
 */
export function isSliced(method, opts, info) {
  if (!SLICED.has(method) || !info || !Array.isArray(info.sliced)) return false;
  const c = opts && opts.construction != null ? opts.construction : info.defaultConstruction;
  return info.sliced.includes(c);
}
