// attnx lab: "Dimensions against bits" (SPEC §8.4; issue 12 item 4), DOM-free. For every L of the
// lab's grid, with the lab's pattern, tolerances, trials and master seed, the three ways to choose
// X of SPEC §8 side by side:
//   jl      sweepPoint (the lab's step, d_max and projection): d_min per trial, median, quantile;
//   lp      sweepPoint on lp's own search grid (schema.constructions: searchStep, dMax): the same;
//   moment  precision of trial 0: its D = 2m and its precision report;
// then, for jl and lp, the precision report of trial 0 at its d_min (precision(..., trial: 0, d)),
// or "not reached" when trial 0 found no d. Every number is the core's (through the worker pool;
// the tasks' weights and the progress from the module on this thread, `core`); nothing is
// computed here. All tasks are submitted at once (the pool queues them) and cancelled
// together by one signal; rows are reported as their parts arrive.
import { workerOptions, gridOf, applies, ownGrid } from './settings.js';

// The constructions compared, in the order of the plots, legends and tables.
export const COMPARED = ['jl', 'lp', 'moment'];
// Those with a minimal d (a sweep per length); the others have one D per pattern.
export const SEARCHED = ['jl', 'lp'];
/** Whether the comparison's part of construction `name` is a search ({ median, dMins, trial0, floor })
 *  rather than one D per pattern ({ D, precision, bounds }). */
export const isSearched = (name) => SEARCHED.includes(name);
// The options of a search (sweepPoint only); precision and construct refuse them.
const SEARCH_FIELDS = ['trials', 'step', 'dmax'];
// The options that say how X is chosen; each construction gets only those that apply to it.
const CHOICE_FIELDS = ['construction', 'projection', 'box'];

/** The schema's entry of construction `name` ({ name, label, usesD, searchable, dMax, searchStep, … }). */
export function constructionInfo(schema, name) {
  const c = schema.constructions.find((x) => x.name === name);
  if (!c) throw new Error(`internal: the core has no construction "${name}"`);
  return c;
}

/** The grid a construction's minimal d is searched on: its own (settings.ownGrid), else the
 *  lab's step and d_max. Returns { step, dmax }. */
export function searchGrid(schema, name, st) {
  constructionInfo(schema, name);  // an unknown name is a bug: say so
  return ownGrid(schema, name) || { step: st.step, dmax: st.dmax };
}

/** The options that choose the target and build X with construction `name` (no L, no search
 *  fields): the lab's target, tolerances and seed, and the construction's own options where they
 *  apply to it (settings.applies: projection only for jl, box only for lp). */
export function inputOptions(schema, st, name) {
  const o = workerOptions(schema, st);
  for (const k of [...SEARCH_FIELDS, ...CHOICE_FIELDS]) delete o[k];
  const as = { ...st, construction: name };
  o.construction = name;
  for (const k of CHOICE_FIELDS.slice(1)) if (applies(schema, k, as)) o[k] = st[k];
  return o;
}

/** Options of the sweepPoint of construction `name` (jl or lp) at length L. */
export function sweepOptions(schema, st, name, L) {
  return { ...inputOptions(schema, st, name), L, trials: st.trials, ...searchGrid(schema, name, st) };
}

/** Options of the precision report of trial 0 at length L: at hidden size d (jl, lp), or at
 *  moment's own D (d left out). */
export function precisionOptions(schema, st, name, L, d) {
  const o = { ...inputOptions(schema, st, name), L, trial: 0 };
  if (d !== undefined) o.d = d;
  return o;
}

/** An empty row of length L: each construction's part is null until it arrives. jl and lp get
 *  { dMins, median, quantile, dStar, floor } (sweepPart) and then trial0 = { d, precision,
 *  bounds } (precision and bounds null: trial 0 did not reach a d, so there is no X to measure);
 *  moment gets { D, precision, bounds } (bounds: SPEC §9 of its X, the module's record). */
export function emptyRow(L) {
  return { L, jl: null, lp: null, moment: null };
}

const dOrNull = (d) => (d === null || d === undefined || d < 0 ? null : d);

const orNull = (v) => (v === undefined ? null : v);

/** The sweep part of a row from the core's sweepPoint answer r at length L, with SPEC §9.2's
 *  packing floor at the trials' median logit scale as the core merges it (core.mergeSweepParts,
 *  the point `attnx sweep` writes): floor = { dLambda, logitScale, ratio (median d_min over it),
 *  columnSupports } (null: unknown), and the d*(L) estimate. */
export function sweepPart(core, st, L, r) {
  const point = core.mergeSweepParts(L, r.dMins.length, st.delta, [{ ...r, firstTrial: 0 }], st.tau);
  const floor = { dLambda: orNull(point.d_lambda), logitScale: orNull(point.logit_scale), ratio: orNull(point.ratio), columnSupports: orNull(point.column_supports) };
  return { dMins: Array.from(r.dMins, dOrNull), median: r.median ?? null, quantile: r.quantile ?? null, dStar: r.dStar ?? null, floor, trial0: undefined };
}

/** True when every part of a row has arrived (trial 0's report included). */
export function rowComplete(row) {
  return !!row.moment && SEARCHED.every((n) => row[n] && row[n].trial0 !== undefined);
}

const isAbort = (e, signal) => signal.aborted || (!!e && e.name === 'AbortError');

const abortError = () => {
  const e = new Error('cancelled');
  e.name = 'AbortError';
  return e;
};

// The bookkeeping of one comparison: its rows, one progress record per pool task (known up front:
// per length two sweeps, moment's report and two trial-0 reports), the first failure.
class Comparison {
  constructor(pool, core, schema, st, { onRow, onProgress, now }) {
    Object.assign(this, { pool, core, schema, st, onRow, onProgress, now });
    this.Ls = gridOf(st);
    this.rows = this.Ls.map(emptyRow);
    this.tasks = new Map();
    for (const L of this.Ls) {
      for (const n of SEARCHED) {
        this.tasks.set(`${n} sweep ${L}`, { weight: core.taskWork(L, st.trials), fraction: 0 });
        this.tasks.set(`${n} bits ${L}`, { weight: core.taskWork(L, 1), fraction: 0 });
      }
      this.tasks.set(`moment ${L}`, { weight: core.taskWork(L, 1), fraction: 0 });
    }
    this.inner = new AbortController();
    this.failure = null;
    this.t0 = now();
  }

  // Tells onProgress { fraction (weighted by cost), done, total (tasks), rowsDone, elapsed (s) }.
  report() {
    const tasks = [...this.tasks.values()];
    const { fraction } = this.core.sweepProgress(tasks.map((t) => t.weight), tasks.map((t) => t.fraction), 0);
    const done = tasks.filter((t) => t.fraction >= 1).length;
    const rowsDone = this.rows.filter(rowComplete).length;
    this.onProgress({ fraction: tasks.length ? fraction : 1, done, total: tasks.length, rowsDone, elapsed: (this.now() - this.t0) / 1000 });
  }

  // Runs pool task `key` (method, opts); resolves the core's answer, rejects on error or cancel.
  // The caller files the answer, then calls finish(key).
  async run(key, method, opts) {
    const t = this.tasks.get(key);
    const onProgress = (f) => {
      const v = typeof f === 'number' ? f : (f && typeof f.fraction === 'number' ? f.fraction : null);
      if (v !== null && v < 1) { t.fraction = v; this.report(); }
    };
    const r = await this.pool.run(method, opts, { signal: this.inner.signal, onProgress });
    if ((r && r.cancelled) || this.inner.signal.aborted) throw abortError();
    return r;
  }

  // Marks task `key` done (or skipped), reports progress and the row.
  finish(key, row) {
    this.tasks.get(key).fraction = 1;
    this.report();
    this.onRow(row, this.rows);
  }

  // jl or lp at one length: the sweep, then trial 0's precision report at its d_min.
  async searched(row, name) {
    const { schema, st } = this;
    const sweep = `${name} sweep ${row.L}`, bits = `${name} bits ${row.L}`;
    row[name] = sweepPart(this.core, st, row.L, await this.run(sweep, 'sweepPoint', sweepOptions(schema, st, name, row.L)));
    this.finish(sweep, row);
    const d = row[name].dMins[0];
    if (d === null) {
      row[name].trial0 = { d: null, precision: null, bounds: null };
    } else {
      const p = await this.run(bits, 'precision', precisionOptions(schema, st, name, row.L, d));
      row[name].trial0 = { d: p.d, precision: p.precision, bounds: p.bounds };
    }
    this.finish(bits, row);
  }

  // moment at one length: D = 2m and its precision report (trial 0's target).
  async moment(row) {
    const key = `moment ${row.L}`;
    const p = await this.run(key, 'precision', precisionOptions(this.schema, this.st, 'moment', row.L));
    row.moment = { D: p.d, precision: p.precision, bounds: p.bounds };
    this.finish(key, row);
  }

  // Runs `job` (a promise-returning function); the first real failure stops the others.
  async guard(job) {
    try {
      await job();
    } catch (e) {
      if (isAbort(e, this.inner.signal)) return;
      if (!this.failure) this.failure = e;
      this.inner.abort();
    }
  }

  // Every job of every length, submitted at once (smallest L first: the plots fill in early).
  all() {
    const jobs = [];
    for (const row of this.rows) {
      for (const n of SEARCHED) jobs.push(this.guard(() => this.searched(row, n)));
      jobs.push(this.guard(() => this.moment(row)));
    }
    return Promise.all(jobs);
  }
}

/**
 * Runs the comparison (core: the module's API on this thread) on the lab's state st (its grid, pattern, tolerances, trials, seed, step,
 * d_max, projection, box) in the pool. Callbacks: onRow(row, rows) whenever a part of a row
 * arrived (row objects are filled in place: see emptyRow; rows: all of them, in grid order); onProgress({ fraction, done, total, rowsDone,
 * elapsed }). signal cancels. Resolves { Ls, rows, complete, cancelled, elapsed (s), grids:
 * { jl, lp } (the search grids used) }: on cancel the parts that arrived stay; rejects with the
 * first real error (the other tasks are cancelled).
 */
export async function runCompare(pool, { core, schema, st, signal, onRow = () => {}, onProgress = () => {}, now = () => performance.now() }) {
  const c = new Comparison(pool, core, schema, st, { onRow, onProgress, now });
  const forward = () => c.inner.abort();
  if (signal && signal.aborted) c.inner.abort();
  else if (signal) signal.addEventListener('abort', forward, { once: true });
  try {
    c.report();
    await c.all();
  } finally {
    if (signal) signal.removeEventListener('abort', forward);
  }
  if (c.failure) throw c.failure;
  const complete = c.rows.every(rowComplete);
  const grids = Object.fromEntries(SEARCHED.map((n) => [n, searchGrid(schema, n, st)]));
  return { Ls: c.Ls, rows: c.rows, complete, cancelled: !complete, elapsed: (now() - c.t0) / 1000, grids };
}
