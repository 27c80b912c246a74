// attnx lab: the frontier of SPEC §10.2 in the worker pool (DOM-free): the core's tasks
// (frontierTasks), each run as one pool task (frontierTrial), their answers handed back to the
// core for the statistics and the floor (frontierResult, as `attnx frontier` prints it). Partial
// results: the points whose every trial has arrived, from the same core call on the tasks so far.
import { frontierOptions } from './settings.js';

function abortError() {
  const e = new Error('The frontier was cancelled.');
  e.name = 'AbortError';
  return e;
}

// The core's frontier of the answers so far: every task answered, or, while some are missing,
// only the points (construction, setting) all of whose trials have arrived (the others left out).
export function frontierSoFar(core, schema, opts, tasks, answers) {
  if (answers.every(Boolean)) return core.frontierResult(opts, answers);
  const whole = core.frontierResult(opts, answers.map((a) => a || { dMin: null, logitScale: null, maxAbsLogit: null, columnSupports: opts.L }));
  const complete = (c, setting) => tasks.every((t, i) => answers[i] || t.construction !== c || t.setting !== setting);
  const settingOf = (p) => { const c = schema.constructions.find((x) => x.name === p.construction); return c && c.frontierKey ? p[c.frontierKey] : null; };
  return { ...whole, points: whole.points.filter((p) => complete(p.construction, settingOf(p))), partial: true };
}

/**
 * Runs the frontier of lab state st (its frontier L, scales, boxes, the target, tolerances,
 * trials, seed) in the pool. core: the module's API on this thread. Callbacks: onProgress({
 * fraction, done, total }), onPart(result so far) when a task arrives. signal cancels: resolves
 * { opts, result (null when nothing is complete), complete, trials (the answers, null: missing) }.
 * Rejects with the first real error (the other tasks are cancelled).
 */
export async function runFrontier(pool, { core, schema, st, signal, onProgress = () => {}, onPart = () => {} }) {
  const opts = frontierOptions(schema, st);
  const tasks = core.frontierTasks(opts);
  const answers = new Array(tasks.length).fill(null), fractions = new Array(tasks.length).fill(0);
  const inner = new AbortController();
  const forward = () => inner.abort();
  if (signal) signal.addEventListener('abort', forward, { once: true });
  const report = () => onProgress({ fraction: fractions.reduce((a, b) => a + b, 0) / Math.max(1, tasks.length), done: answers.filter(Boolean).length, total: tasks.length });
  let failure = null;
  const job = async (i) => {
    try {
      const r = await pool.run('frontierTrial', { opts, task: i }, { signal: inner.signal, onProgress: (f) => { fractions[i] = Math.min(0.99, Number(f) || 0); report(); } });
      if (r.cancelled || inner.signal.aborted) throw abortError();
      answers[i] = r;
      fractions[i] = 1;
      report();
      onPart(frontierSoFar(core, schema, opts, tasks, answers));
    } catch (e) {
      if (!failure && !inner.signal.aborted && e.name !== 'AbortError') failure = e;
      inner.abort();
    }
  };
  report();
  try {
    await Promise.all(tasks.map((_, i) => job(i)));
  } finally {
    if (signal) signal.removeEventListener('abort', forward);
  }
  if (failure) throw failure;
  const complete = answers.every(Boolean);
  const result = answers.some(Boolean) ? frontierSoFar(core, schema, opts, tasks, answers) : null;
  return { opts, result, complete, trials: answers };
}

/** The core's CSV of a complete frontier (null when it is not complete). */
export function frontierCsv(core, run) {
  return run && run.complete ? core.frontierCsv(run.opts, run.trials) : null;
}
