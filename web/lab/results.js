// attnx lab: the result on show (DOM-free). A result is the record `attnx sweep` writes:
//   { source: 'browser' | 'import', version, params (the CLI's JSON names), points (each with the
//     core's median and quantile), fits (the core's { log, power } or null until known),
//     complete, elapsed?, fileName? }.
// Its statistics come from the core through the worker pool; nothing here computes one.
import { computeFields, applies, gridOf, FRONTIER_FIELDS } from './settings.js';

// The CLI's JSON name of an option (schema.options[name].json when the schema gives it).
function jsonName(schema, name) {
  return schema.options[name].json;
}

// The "params" of a sweep with settings st over the lengths Ls, as `attnx sweep` records them:
// the options that apply (the chosen family's parameters, the chosen weights' option), the grid,
// not the frontier's own fields (FRONTIER_FIELDS: a sweep does not take them), and the memory budget of the lab context, under the CLI's JSON names.
// The construction and the projection are written only when not their defaults (as the CLI does:
// files from before they existed are jl with gaussian P).
const WRITTEN_WHEN_NOT_DEFAULT = ['construction', 'projection'];

export function recordParams(schema, st, Ls) {
  const p = {};
  for (const name of computeFields(schema)) {
    if (!applies(schema, name, st) || FRONTIER_FIELDS.includes(name)) continue;
    if (WRITTEN_WHEN_NOT_DEFAULT.includes(name) && st[name] === schema.options[name].default) continue;
    p[jsonName(schema, name)] = name === 'Ls' ? Ls.slice() : st[name];
  }
  p[jsonName(schema, 'maxBytes')] = schema.contexts.lab.defaults.maxBytes;
  return p;
}

// The construction of a result's params (written only when not the default: files from before
// constructions existed are the default's, jl).
export function constructionOf(schema, params) {
  return (params && params.construction) || schema.options.construction.default;
}

// The settings of a sweep as one text: equal texts, the same sweep (its params as recorded, over
// the state's grid).
export function sweepKey(schema, st) {
  return JSON.stringify(recordParams(schema, st, gridOf(st)));
}

// A new, empty result of a sweep computed here. version: the core's version (or null).
export function browserResult(schema, st, Ls, version) {
  return { source: 'browser', version, params: recordParams(schema, st, Ls), points: [], fits: null, complete: false };
}

// Puts `point` into res.points (replacing one of the same L, keeping L ascending). Mutates res.
export function addPoint(res, point) {
  res.points = [...res.points.filter((q) => q.L !== point.L), point].sort((a, b) => a.L - b.L);
}

// The fits of a result's points, by the core: d = a + b ln L and d = c L^p over the
// (1-delta)-quantiles that were reached, and (when delta is known and the points carry their
// trials) how often each fit wins over bootstrap resamples of the trials. Resolves { fits,
// comparison } (comparison: { resamples, logWins, powerWins } or null); rejects with the pool's
// error.
export async function fitsOf(pool, points, delta) {
  if (typeof delta === 'number' && points.every((p) => Array.isArray(p.d_mins) && p.d_mins.length)) {
    const r = await pool.run('summariseSweep', { delta, points: points.map((p) => ({ L: p.L, dMins: p.d_mins })) });
    return { fits: r.fits, comparison: r.fitComparison };
  }
  const fits = await pool.run('fits', { Ls: points.map((p) => p.L), ds: points.map((p) => p.quantile) });
  return { fits, comparison: null };
}

// Keeps res.fits (and res.fitComparison) up to date with res.points, one core call at a time,
// the last call winning. Returns refit(res) -> Promise that resolves once res.fits matches the
// newest points given (and calls onFits(res) then); a failure leaves the fits as they were and
// resolves with the error. Calls made while a call waits for its turn join it (it uses the
// newest points), and a call with the same res, points and delta as the previous one makes no
// new core call: the bootstrap is milliseconds to tens of milliseconds of a worker that a running
// sweep needs (several lengths often finish at once, and the end of a run refits its last point).
export function fitKeeper(pool, onFits) {
  let chain = Promise.resolve();
  let last = null;     // { res, points, delta } of the previous call
  let waiting = null;  // the job queued behind the running one
  return (res) => {
    const points = res.points.slice();
    const delta = res.params ? res.params.delta : undefined;
    if (last && last.res === res && last.delta === delta && last.points.length === points.length
      && last.points.every((p, i) => p === points[i])) return chain;
    last = { res, points, delta };
    if (waiting) {
      Object.assign(waiting, last);
      return chain;
    }
    const job = { ...last };
    waiting = job;
    chain = chain.then(async () => {
      if (waiting === job) waiting = null;
      try {
        const { fits, comparison } = await fitsOf(pool, job.points, job.delta);
        if (job.res.points.length === job.points.length) {
          job.res.fits = fits;
          job.res.fitComparison = comparison;
          onFits(job.res);
        }
        return null;
      } catch (e) {
        return e;
      }
    });
    return chain;
  };
}
