// attnx lab: "Dimensions against bits" (SPEC §8.4; issue 12 item 4), DOM-free. For every L of the
// lab's grid, with the lab's pattern, tolerances, trials and master seed, the constructions of the
// core's schema side by side (comparedOf: which they are, in which order, and which of them are
// searched is the schema's, never a name written here):
//   searched (schema: searchable)  sweepPoint (on its own grid, schema searchStep and dMax, else
//                                  the lab's step and d_max): d_min per trial, median, quantile;
//                                  then the precision report of trial 0 at its d_min
//                                  (precision(..., trial: 0, d)), or "not reached" when trial 0
//                                  found no d;
//   one D per pattern (usesD false) precision of trial 0: its own D and its precision report.
// Every number is the core's (through the worker pool; the tasks' weights and the progress from
// the module on this thread, `core`); nothing is computed here. All tasks are submitted at once
// (the pool queues them) and cancelled together by one signal; rows are reported as their parts
// arrive.
import { workerOptions, gridOf, applies, ownGrid } from './settings.js';

/** The constructions the comparison places, from the core's schema, in its order (the order of
 *  the rows' parts, plots, legends, tables and files): [{ name, searched (schema searchable: a
 *  minimal-d search per length; else one D per pattern), dimension (schema: 'd', '2m', …),
 *  bitsFloor (schema: the bounds key of its counting floor on D·w), ownGrid (searched on its
 *  own grid, not the lab's) }]. A construction neither searchable nor with a D of its own
 *  (usesD) has no number to compare and is left out. */
export function comparedOf(schema) {
  return schema.constructions.filter((c) => c.compared && (c.searchable || !c.usesD)).map((c) => ({
    name: c.name, searched: !!c.searchable, dimension: c.dimension, bitsFloor: c.bitsFloor, ownGrid: !!ownGrid(schema, c.name),
  }));
}

/** Whether a part of a row is a search's ({ dMins, median, quantile, dStar, floor, trial0 })
 *  rather than one D's ({ D, precision, bounds }): the rows carry their kind (comparedOf decided
 *  it), so files and views read it from the data. */
export const isSearchPart = (part) => !!part && Object.hasOwn(part, 'dMins');

/** The parts of a row, [name, part (null: not arrived)] in the comparison's order. */
export const partsOf = (row) => Object.entries(row).filter(([k]) => k !== 'L');

/** The comparison's constructions as rows hold them ([{ name, searched }], comparedOf's order),
 *  for callers holding only rows (an exported record): a name no part has arrived for counts as
 *  not searched, which no view reads (it shows '…' for a missing part). */
export function comparedIn(rows) {
  if (!rows.length) return [];
  return partsOf(rows[0]).map(([name]) => ({ name, searched: rows.some((r) => isSearchPart(r[name])) }));
}

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

/** The search grid of each searched construction (comparedOf): { [name]: { step, dmax } }. */
export function searchGrids(schema, st) {
  return Object.fromEntries(comparedOf(schema).filter((c) => c.searched).map((c) => [c.name, searchGrid(schema, c.name, st)]));
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

/** Options of the sweepPoint of searched construction `name` at length L. */
export function sweepOptions(schema, st, name, L) {
  return { ...inputOptions(schema, st, name), L, trials: st.trials, ...searchGrid(schema, name, st) };
}

/** Options of the precision report of trial 0 at length L: at hidden size d (a searched
 *  construction's d_min), or at the construction's own D (d left out). */
export function precisionOptions(schema, st, name, L, d) {
  const o = { ...inputOptions(schema, st, name), L, trial: 0 };
  if (d !== undefined) o.d = d;
  return o;
}

/** An empty row of length L for the constructions `compared` (comparedOf): { L, [name]: null }
 *  in their order; each part is null until it arrives. A searched one gets { dMins, median,
 *  quantile, dStar, floor } (sweepPart) and then trial0 = { d, precision, bounds } (precision and
 *  bounds null: trial 0 did not reach a d, so there is no X to measure); the others get { D,
 *  precision, bounds } (bounds: SPEC §9 of its X, the module's record). */
export function emptyRow(L, compared) {
  return { L, ...Object.fromEntries(compared.map((c) => [c.name, null])) };
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
  return partsOf(row).every(([, p]) => !!p && (!isSearchPart(p) || p.trial0 !== undefined));
}

const isAbort = (e, signal) => signal.aborted || (!!e && e.name === 'AbortError');

const abortError = () => {
  const e = new Error('cancelled');
  e.name = 'AbortError';
  return e;
};

// The bookkeeping of one comparison: its rows, one progress record per pool task (known up front:
// per length and searched construction a sweep and a trial-0 report, per other construction its
// report), the first failure.
class Comparison {
  constructor(pool, core, schema, st, { onRow, onProgress, now }) {
    Object.assign(this, { pool, core, schema, st, onRow, onProgress, now });
    this.compared = comparedOf(schema);
    this.Ls = gridOf(st);
    this.rows = this.Ls.map((L) => emptyRow(L, this.compared));
    this.tasks = new Map();
    const task = (key, L, trials) => this.tasks.set(key, { weight: core.taskWork(L, trials), fraction: 0 });
    for (const L of this.Ls) {
      for (const c of this.compared) {
        if (c.searched) { task(`${c.name} sweep ${L}`, L, st.trials); task(`${c.name} bits ${L}`, L, 1); }
        else task(`${c.name} ${L}`, L, 1);
      }
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

  // A searched construction at one length: the sweep, then trial 0's precision report at its d_min.
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

  // A construction with one D per pattern at one length: its D and its precision report (trial
  // 0's target).
  async fixed(row, name) {
    const key = `${name} ${row.L}`;
    const p = await this.run(key, 'precision', precisionOptions(this.schema, this.st, name, row.L));
    row[name] = { D: p.d, precision: p.precision, bounds: p.bounds };
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
      for (const c of this.compared) jobs.push(this.guard(() => (c.searched ? this.searched(row, c.name) : this.fixed(row, c.name))));
    }
    return Promise.all(jobs);
  }
}

/**
 * Runs the comparison (core: the module's API on this thread) on the lab's state st (its grid, pattern, tolerances, trials, seed, step,
 * d_max, projection, box) in the pool. Callbacks: onRow(row, rows) whenever a part of a row
 * arrived (row objects are filled in place: see emptyRow; rows: all of them, in grid order); onProgress({ fraction, done, total, rowsDone,
 * elapsed }). signal cancels. Resolves { Ls, rows, complete, cancelled, elapsed (s), grids:
 * { [name]: { step, dmax } } (the search grids used, per searched construction) }: on cancel the parts that arrived stay; rejects with the
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
  const grids = searchGrids(schema, st);
  return { Ls: c.Ls, rows: c.rows, complete, cancelled: !complete, elapsed: (now() - c.t0) / 1000, grids };
}
