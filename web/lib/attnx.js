// attnx: JavaScript API of the WebAssembly module (ES module).
// Works in the page, in module Web Workers and in Node 20. The C++ core does all computation;
// this file loads the right build and turns the module's returned errors into thrown ones.
//
//   import { load } from './lib/attnx.js';
//   const api = await load();                       // picks attnx_simd if the engine has SIMD and wasm exceptions
//   const r = api.construct({ pattern: 'random', L: 256, k: 2, eps: 1, tau: 0.1, d: 512, seed: 7 });
//   r.metrics.success, r.M (Float32Array L*L), ...
//
// Options are plain objects using the CLI's names (camelCase where the CLI has a dash):
//   pattern   'random'|'permutation'|'window'|'causal'|'dilated'|'block'|'strided'|'bigbird'|'custom'
//   L         sequence length;  k w r block stride globals randoms: family parameters
//   weights   'uniform'|'random'|'decaying';  wMin (random weights);  decay (decaying weights)
//   triplets  custom pattern: { rows, cols, vals } (Int32Array|number[], 0-based; rows normalised)
//   eps tau delta   tolerances of SPEC §2 and the d* / quantile level
//   d         hidden size for construct;  dmax step: grid of the minimal-d search (step <= dmax)
//   seed      one seed reproduces everything, natively and here
//   trials    trials per L in sweepPoint;  firstTrial: sweepPoint runs trials firstTrial..
//             firstTrial+trials-1 (split one L between workers)
//   maxBytes  memory budget in bytes; larger runs are refused before allocating
// Every option's range and default: api.schema().options (the core's one table).
// Missing options take the CLI's defaults. Unknown names are refused (typos never fall back to a
// default). Every refusal is a RangeError whose message names the field and its allowed range, with
// `.field` (the option name) and `.kind` ('invalid' | 'budget' | 'memory' | 'internal'). After an
// error the module stays usable.

/** @typedef {{rows: Int32Array|number[], cols: Int32Array|number[], vals: Float32Array|Float64Array|number[]}} Triplets */
/**
 * @typedef {Object} Options
 * @property {string} [pattern] @property {number} [L] @property {number} [k] @property {number} [w]
 * @property {number} [r] @property {number} [block] @property {number} [stride]
 * @property {number} [globals] @property {number} [randoms] @property {string} [weights]
 * @property {number} [wMin] @property {number} [decay] @property {Triplets} [triplets]
 * @property {number} [eps] @property {number} [tau] @property {number} [delta] @property {number} [d]
 * @property {number} [seed] @property {number} [dmax] @property {number} [step]
 * @property {number} [trials] @property {number} [maxBytes]
 */
/**
 * Progress callback: receives the fraction done in [0, 1] (every ~2%, and 1 at the end).
 * Returning `false` cancels the run (the result then has `cancelled: true`).
 * @callback Progress
 * @param {number} fraction
 * @returns {boolean|void}
 */

import { wasmBuild } from './site-files.js';

/** Version of this JS API (its calls and result shapes), independent of the core's version. */
export const API_VERSION = 2;

const WASM_DIR = new URL('../wasm/', import.meta.url);

// (module (func (result v128) i32.const 0 i8x16.splat)): valid only where SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11,
]);

// (module (tag) (func try try throw 0 delegate 0 catch 0 rethrow 0 catch_all end)): valid only
// where WebAssembly exception handling is supported with every instruction the simd build uses
// (try, throw, delegate, catch, rethrow, catch_all: it throws and catches natively, cmake/wasm.cmake).
const EXCEPTIONS_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 13, 3, 1, 0, 0,
  10, 18, 1, 16, 0, 6, 64, 6, 64, 8, 0, 24, 0, 7, 0, 9, 0, 25, 11, 11,
]);

const validates = (bytes) => {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(bytes);
  } catch {
    return false;
  }
};

/**
 * @returns {boolean} true when this engine can run the simd build: WebAssembly SIMD (128-bit) and
 *   WebAssembly exception handling (Chrome 95, Firefox 100, Safari 16.4 and later; engines with
 *   SIMD alone, such as Chrome 91-94 and Firefox 89-99, get the scalar build).
 */
export function simdSupported() {
  return simdMissing() === null;
}

// What the simd build needs that this engine lacks ('SIMD', 'exception handling' or both, for
// load's refusal), or null.
function simdMissing() {
  const missing = [!validates(SIMD_PROBE) && 'SIMD', !validates(EXCEPTIONS_PROBE) && 'exception handling'].filter(Boolean);
  return missing.length ? missing.join(' and ') : null;
}

const isNode = typeof process === 'object' && process !== null && !!(process.versions && process.versions.node)
  && typeof window === 'undefined' && typeof importScripts === 'undefined';

const cache = new Map();  // flavour -> Promise<api>

/**
 * Loads the module (once per flavour; later calls return the same API object).
 * @param {{flavour?: 'simd'|'scalar'|'auto', wasmBinary?: ArrayBuffer|Uint8Array}} [options]
 *   flavour: force a build (default 'auto': simd when supported). wasmBinary: bring your own bytes.
 * @returns {Promise<AttnxApi>}
 */
export function load(options = {}) {
  const want = options.flavour ?? 'auto';
  if (!['auto', 'simd', 'scalar'].includes(want)) {
    return Promise.reject(new RangeError(`flavour must be one of auto, simd, scalar (got "${String(want).slice(0, 40)}")`));
  }
  const flavour = want === 'auto' ? (simdSupported() ? 'simd' : 'scalar') : want;
  if (flavour === 'simd' && !simdSupported()) {
    return Promise.reject(new Error(`this WebAssembly engine has no ${simdMissing()} support, which the simd build needs: load({ flavour: "scalar" })`));
  }
  if (options.wasmBinary) return instantiate(flavour, options.wasmBinary);
  if (!cache.has(flavour)) {
    const p = instantiate(flavour, null);
    p.catch(() => cache.delete(flavour));  // a failed load may be retried
    cache.set(flavour, p);
  }
  return cache.get(flavour);
}

async function instantiate(flavour, wasmBinary) {
  const base = `attnx_${flavour}`;
  // site-files.js: the served build by URL, or (the one-file pages) the one kept inline.
  const build = await wasmBuild(new URL(`${base}.mjs`, WASM_DIR).href);
  const { factory } = build;
  const moduleArgs = {};
  if (wasmBinary || build.wasmBinary) {
    moduleArgs.wasmBinary = wasmBinary || build.wasmBinary;
  } else if (isNode) {
    // Built for web/worker: in Node the .wasm is read from disk and handed over.
    const { readFile } = await import('node:fs/promises');
    moduleArgs.wasmBinary = await readFile(new URL(`${base}.wasm`, WASM_DIR));
  }
  const mod = await factory(moduleArgs);
  return new AttnxApi(mod, flavour);
}

// The module returns (never throws) an Error for refused input; rethrow it here. A record's
// members the module leaves undefined (parts a result does not have) are left out.
function unwrap(r) {
  if (r instanceof Error) throw r;
  if (r === null || typeof r !== 'object' || !Object.values(r).includes(undefined)) return r;
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
}

function progressAdapter(onProgress) {
  if (onProgress == null) return { fn: undefined, error: null };
  if (typeof onProgress !== 'function') throw new TypeError('onProgress must be a function');
  const st = { fn: undefined, error: null };
  // Never let a JS exception unwind through WebAssembly frames: remember it, cancel, rethrow.
  st.fn = (f) => {
    try {
      return onProgress(f) !== false;
    } catch (e) {
      st.error = e;
      return false;
    }
  };
  return st;
}

function withProgress(call, onProgress) {
  const p = progressAdapter(onProgress);
  const r = call(p.fn);
  if (p.error) throw p.error;
  return unwrap(r);
}

// The instance's Gram ladder (core/gram/gram_ladder.cpp), made at its first use.
function ladderOf(api) {
  if (!api._ladder) api._ladder = new api._m.GramLadder();
  return api._ladder;
}

/** The loaded module. Every method is synchronous and returns fresh copies (never live views). */
export class AttnxApi {
  constructor(mod, flavour) {
    this._m = mod;
    /** @type {string} core version, e.g. "0.1.0" */
    this.version = mod.version();
    /** @type {string} "wasm-simd128" or "wasm-scalar" */
    this.flavour = mod.flavour();
    /** @type {boolean} built with -msimd128 */
    this.simd = flavour === 'simd';
    /** @type {string} Gram kernel in use: "wasm-simd128" or "scalar" */
    this.gramKernel = mod.gramKernel();
    /** @type {number} API_VERSION of this file */
    this.apiVersion = API_VERSION;
  }

  /**
   * The core's one description of every rule (core/api/schema_doc.cpp writes it as JSON):
   * { linkVersion, families: [{ name, label, scalesWithL, inClass, generated, params: [{ name,
   *   label, min, max ("L" | "L-1"), default }] }], weights: [names], weightings: [{ name, label,
   *   params: [option names] }],
   *   options: { [name]: { name, flag, json, kind: 'int'|'real'|'choice'|'intList', min, max,
   *     minOpen, maxOpen, minExpr?, maxExpr?, default, choices?, maxCount?, rangeText, label, help,
   *     group, unit, applies: [{ option, values }] (used when every rule holds) } },
   *   contexts: { explorer|lab|wasm|cli: { defaults: {[name]: value}, max: {[name]: number} } },
   *   linkDefaults: { '0'|'1'|'2': { explorer: {...}, lab: {...} } } (frozen per link version),
   *   linkCompute: { explorer: [names], lab: [names] } (what a current link writes),
   *   presets: { paper: { label, values: {[name]: value}, band: { lo, hi, text } | null } },
   *   constructions: [{ name, label, usesD, searchable, dMax, explorerD, searchStep, params,
   *     bisect, dimension: 'd'|'2m', precisionAlways, rowReport, rowQuery, sliced, summary }],
   *   metrics: { [key]: { symbol, label, help } },
   *   pageLimits: { maxL, maxNnzLink, maxDrawL, viewMinSpan }, limits, defaults (API version 1's, wasm context) }.
   * Pages build their state tables, controls, ranges, help and messages from it. A fresh object
   * each call.
   */
  schema() {
    return JSON.parse(this._m.schemaJson());  // the core writes it (core/api/schema_doc.cpp)
  }

  /** API version 1's name of schema(); same result. */
  patterns() {
    return this.schema();
  }

  /**
   * Builds X for one target A (SPEC §3) and evaluates M.
   * @param {Options} opts
   * @param {Progress} [onProgress]  called once per 128 columns during the L x L x d product and at
   *   the end; returning false stops the call, which then returns only { params, cancelled: true }
   *   (the work done so far is kept: the same call again resumes it). opts.views { size, xRows,
   *   xCols, omitX, inputs, dense } asks for the images pooled by the core (result.views; see attnx.d.ts).
   * @returns {{params: Object, cancelled: boolean, metrics: {rho:number, zeta:number, lambda:number, success:boolean,
   *   okR:boolean, okZ:boolean, beta:number, dStar:number}, L:number, d:number, k:number,
   *   maxColCount:number, inClass:boolean, dStar:number,
   *   A:{rows:Int32Array, cols:Int32Array, vals:Float32Array}, M:Float32Array,
   *   logits:Float32Array, X:Float32Array, rows:{rho:Float64Array, zeta:Float64Array,
   *   lambda:Float64Array, okR:Uint8Array, okZ:Uint8Array, supportMinLogit:Float32Array,
   *   ratioErrMean:Float32Array, ratioErrMin:Float32Array}}} M and logits are row-major L*L; X is
   *   row-major L*2d; rows.* have L entries (the criterion of SPEC §2 row by row) except
   *   ratioErr* (Z_ij - ln A_ij minus its row mean / minimum), one per entry of A in A's order.
   *   opts.construction picks how X is chosen (SPEC §3, §8, §10: jl, lp, moment, opt; moment
   *   ignores d and uses D = 2m); result.construction names it, result.precision (lp, moment, opt,
   *   or jl with opts.precision true) is SPEC §8.4, result.report the construction's own summary
   *   ({ key: number | boolean } as schema.constructions[].report lists it: lp's feasibleRows,
   *   tMin, lpIterations...; opt's optSteps, optPenalty, optBudget) and result.rowValues its
   *   per-row values ({ key: Float64Array } as .rowReport lists them: lp's margin and
   *   iterations, moment's lambda).
   */
  construct(opts, onProgress) {
    // One Gram ladder per instance (core/gram/gram_ladder.cpp): a later call with the same L and seed
    // reuses G = P P^T: another pattern or tolerances cost no new columns, a smaller d fewer than
    // 128, a larger d' about d' - d (result.gramColumnsAdded says how many).
    return withProgress((fn) => this._m.constructWith(opts, fn, ladderOf(this)), onProgress);
  }

  // --- construct's Gram matrix summed in column bands by several workers (core/api/calls_bands.cpp;
  // worker.js and pool.js drive these: a page calls construct and the pool splits for it) ---

  /**
   * What construct(opts) would sum for its Gram matrix and how `workers` workers would share it:
   * { split, L, from, d, edges, rungs } (band b is G's columns edges[b] .. edges[b+1]-1; band 0 is
   * this instance's own). When split, this instance's Gram ladder has begun the band sum: call
   * gramHomeBand for band 0, gramAdopt for the others, then gramFinish; a construct before
   * gramFinish drops it. Throws construct's errors for opts.
   */
  gramPlan(opts, workers) {
    return unwrap(this._m.gramPlan(opts, workers, ladderOf(this)));
  }

  /** The start of band c0 .. c1-1 for a helper (Float32Array; empty: zeros). */
  gramBandStart(c0, c1) {
    return unwrap(this._m.gramBandStart(ladderOf(this), { c0, c1 }));
  }

  /**
   * A helper's band (any instance): opts as construct's, band { from, c0, c1, rungs } from a plan,
   * start from gramBandStart. Returns { cancelled, atD, rungs } (Float32Arrays: the band at d, its
   * columns whole, and at each rung point its lower part only, rows j .. L-1 of each column j, one
   * column after the other: since December 7, 2026, when the pool's workers of one build read
   * them); onProgress(fraction) returning false stops it (cancelled, nothing kept).
   */
  gramBand(opts, band, start, onProgress) {
    const parts = this.gramBandParts(opts, band, start, onProgress);
    return parts.cancelled ? parts : { cancelled: false, atD: parts.atD, rungs: parts.takeRungs() };
  }

  /**
   * gramBand that hands over the band at d first and its rungs when asked: { cancelled, atD,
   * takeRungs } (stopped: gramBand's record, cancelled and empty). takeRungs() returns the rungs once and frees the
   * module's copy; call it also when they are not wanted (until then the module holds them). A
   * helper posts atD, then copies the rungs out, so that copy does not delay construct's drawing.
   */
  gramBandParts(opts, band, start, onProgress) {
    const held = withProgress((fn) => this._m.gramBand(opts, band, start ?? null, fn), onProgress);
    if (!(held instanceof this._m.HeldGramBand)) return held;  // stopped: { cancelled: true, atD, rungs } (empty)
    let atD;
    try {
      atD = held.atD();
    } catch (e) {
      held.delete();
      throw e;
    }
    let taken = false;
    const takeRungs = () => {
      if (taken) throw new Error('takeRungs: the rungs of this band were taken already');
      taken = true;
      try {
        return held.rungs();
      } finally {
        held.delete();
      }
    };
    return { cancelled: false, atD, takeRungs };
  }

  /** Sums band c0 .. c1-1 of the plan begun into this ladder; false when onProgress stopped it
   *  (calling again goes on), true when done. */
  gramHomeBand(c0, c1, onProgress) {
    return withProgress((fn) => this._m.gramHomeBand(ladderOf(this), { c0, c1 }, fn), onProgress);
  }

  /** Takes in a helper's band (gramBand's atD and rungs) for columns c0 .. c1-1; rungs null: G at
   *  d alone, the rungs to follow through gramAdoptRungs (before or after gramFinish). */
  gramAdopt(c0, c1, atD, rungs) {
    unwrap(this._m.gramAdopt(ladderOf(this), { c0, c1 }, atD, rungs));
  }

  /** The rungs of a band gramAdopt took without them, summed at rung points `points` (the
   *  plan's rungs): true when taken in (a rung is used once every band's part of it is in), false
   *  when no band sum waits for them any more (dropped, or another sum begun since). */
  gramAdoptRungs(c0, c1, points, rungs) {
    return unwrap(this._m.gramAdoptRungs(ladderOf(this), { c0, c1, rungs: points }, rungs));
  }

  /** Ends the band sum: true when the bands cover G (construct then adds no columns); false drops it. */
  gramFinish() {
    return unwrap(this._m.gramFinish(ladderOf(this)));
  }

  /**
   * Makes what construct(opts) needs besides its Gram matrix (SPEC §9's logit scale, the buffers
   * of its logits and attention) from this ladder's columns, kept for that construct: called once
   * gramHomeBand is done, while the helpers' bands are still to come (the plan leaves time for
   * it). The construct's result is the same with or without it. False: nothing made (not jl, or
   * the columns up to d are not drawn). Throws construct's errors for opts.
   * @returns {boolean}
   */
  gramAhead(opts) {
    return unwrap(this._m.gramAhead(opts, ladderOf(this)));
  }

  /** Frees the buffers gramAhead made (2 L^2 floats) and keeps its scale: for a construct stopped
   *  after gramAhead, whose worker may run other tasks before that construct comes again. */
  gramReleaseAhead() {
    if (this._ladder) this._ladder.releaseAheadBuffers();
  }

  /**
   * Columns of P added to the kept Gram matrix by the last construct() (0 when it already held
   * G for that d; d when it started from nothing): what the last call cost, for benchmarks.
   * @returns {number}
   */
  gramColumnsAdded() {
    return this._ladder ? this._ladder.columnsAdded() : 0;
  }

  /**
   * The precision report of SPEC §8.4 alone for construct's options (construction, d, seed, box,
   * pattern, tolerances): the largest input row norm, whether §2 holds with X and the logits in
   * float32 and in float64, and bits(X) (null: even 53 bits fail). For jl it costs a few L x L x d
   * products (construct({ precision: true }) gives it with the construction).
   * @param {Options} opts
   * @returns {{params:Object, construction:string, d:number,
   *   precision:{inputNorm:number, fp32:boolean, fp64:boolean, bits:number|null}, bounds:Bounds}}
   *   bounds: SPEC §9 of this X, bitsPerNumber (w) included
   */
  precision(opts) {
    return unwrap(this._m.precision(opts));
  }

  /**
   * Minimal d on the grid {step, 2 step, ..., dmax} (SPEC §4) for construction jl (default) or lp
   * (moment is refused: it has one D = 2m per pattern). dMin is null when not reached.
   * @param {Options} opts
   * @param {Progress} [onProgress]
   * @returns {{params:Object, dMin:number|null, checked:number[], gramMadds:number,
   *   checkMadds:number, beta:number, dStar:number, L:number, k:number, maxColCount:number,
   *   inClass:boolean, cancelled:boolean}}
   */
  minD(opts, onProgress) {
    return withProgress((fn) => this._m.minD(opts, fn), onProgress);
  }

  /**
   * One L of the scaling experiment (SPEC §5): `trials` fresh targets and projections with seeds
   * derived from (seed, L, t), exactly as `attnx sweep`.
   * @param {Options} opts  L is the point; seed is the master seed.
   * @param {Progress} [onProgress]
   * @returns {{params:Object, L:number, dMins:(number|null)[], median:number|null,
   *   quantile:number|null, dStar:number, k:number, maxColCount:number, inClass:boolean,
   *   madds:number, cancelled:boolean}}
   */
  sweepPoint(opts, onProgress) {
    return withProgress((fn) => this._m.sweepPoint(opts, fn), onProgress);
  }

  /**
   * The frontier of SPEC §10.2 at one L (as `attnx frontier`): its tasks, in order.
   * @param {{pattern?:string, L?:number, k?:number, eps?:number, tau?:number, delta?:number,
   *   seed?:number, maxBytes?:number, trials?:number, constructions?:string[]|string,
   *   scales?:number[]|string, boxes?:number[]|string}} opts  constructions: names (default all);
   *   scales: opt's budgets Λ_max; boxes: lp's U (arrays, or link text "4,5.3,8").
   * @returns {{construction:string, setting:number|null, trial:number}[]}
   */
  frontierTasks(opts) {
    return unwrap(this._m.frontierTasks(opts));
  }

  /**
   * Runs task `task` of the frontier (an index into frontierTasks(opts)): the construction's
   * minimal D at its setting for that trial's target (the sweep's trial target at L).
   * @returns {{task:number, dMin:number|null, logitScale:number|null, maxAbsLogit:number|null,
   *   columnSupports:number, cancelled:boolean}}
   */
  frontierTrial(opts, task, onProgress) {
    return withProgress((fn) => this._m.frontierTrial(opts, task, fn), onProgress);
  }

  /**
   * The frontier from every task's result (frontierTrial answers, in frontierTasks order): the
   * JSON `attnx frontier` prints, as a value ({ params, column_supports, floor, points }).
   */
  frontierResult(opts, trials) {
    return unwrap(this._m.frontierResult(opts, trials));
  }

  /** The same frontier as `attnx frontier --format csv` prints it. */
  frontierCsv(opts, trials) {
    return unwrap(this._m.frontierCsv(opts, trials));
  }

  /** SPEC §9.2's packing floor D_Λ at each scale for n distinct column supports at tolerance tau. */
  packingFloors(n, tau, scales) {
    return unwrap(this._m.packingFloors(n, tau, scales));
  }

  /**
   * Fits d = a + b ln L and d = c L^p over the points whose d is a positive number (null = not
   * reached, skipped). Needs 2 points with distinct L; otherwise ok = false.
   * @param {number[]} Ls @param {(number|null)[]} ds
   * @returns {{log:{ok:boolean,a:number,b:number,r2:number}, power:{ok:boolean,c:number,p:number,r2:number}}}
   */
  fits(Ls, ds) {
    return unwrap(this._m.fits(Ls, ds));
  }

  /** Median of d values (null = not reached, counted as larger than any d); null if not reached. */
  median(ds) {
    return unwrap(this._m.median(ds));
  }

  /** Empirical (1-delta)-quantile of d values (null = not reached); null if not reached. */
  quantile(ds, delta) {
    return unwrap(this._m.quantile(ds, delta));
  }

  /**
   * Memory the runs would need, in bytes, and the budget they are checked against.
   * @param {Options} opts
   * @returns {{construct:number, mind:number, maxBytes:number}}
   */
  estimateBytes(opts) {
    return unwrap(this._m.estimateBytes(opts));
  }

  /**
   * Reads a custom pattern written as text (the explorer's import, the CLI's --pattern-file):
   * JSON {"L": n, "triplets": [[i, j, w], ...]} ("L" optional; an `attnx construct --export` file's
   * "L" and "A" too), a bare [[i, j, w], ...], or lines "i,j,w" (',', ';', tab or spaces; '#'
   * comments, blank lines and a header line skipped). A UTF-8 BOM is ignored. L comes from the text,
   * else from `L`, else it is the largest index + 1. Refusals (RangeError, field 'text') name the
   * place first: "line 3 (entry 2): weight must be a finite number >= 0 (got -1)" (JSON: line and
   * 0-based entry), "line 2: expected 3 values ..." (lines), "line 1, column 9: invalid JSON: ...".
   * @param {string} text
   * @param {number|null} [L]  the length when known (must agree with the text's "L")
   * @returns {{L:number, nnz:number, triplets:{rows:Int32Array, cols:Int32Array, vals:Float64Array}}}
   *   the positive entries sorted by (i, j) with their weights as written (not normalised).
   */
  parsePattern(text, L = null) {
    return unwrap(this._m.parsePattern(text, L ?? null));
  }

  /**
   * The export text of a custom pattern: 'json' gives {"L":n,"triplets":[\n[i,j,w],\n...\n]}\n,
   * 'csv' gives "i,j,w\n" and a line per entry. Entries are written in the given order, weights as
   * JavaScript's String() prints them.
   * @param {{L:number, triplets:Triplets}} pattern
   * @param {'json'|'csv'} format
   * @returns {string}
   */
  formatPattern(pattern, format) {
    return unwrap(this._m.formatPattern(pattern, format));
  }

  /**
   * Reads the explorer's zoom window, the link field `view=i0,i1,j0,j1` (rows i0..i1-1, columns
   * j0..j1-1 of an L x L matrix, each at least min(schema().pageLimits.viewMinSpan, L) of them),
   * as the core checks it. Refusals (RangeError, field 'view' or 'L') name the allowed range:
   * "view must be i0,i1,j0,j1 with 0 <= i0 < i1 <= 64 and ... (got "9,2,0,64")".
   * @param {string} text
   * @param {number} L
   * @returns {{i0:number, i1:number, j0:number, j1:number, full:boolean}}  full: the whole matrix
   */
  viewWindow(text, L) {
    return unwrap(this._m.viewWindow(text, L));
  }

  /**
   * The text `attnx sweep --format json|csv` writes for a sweep record, byte for byte.
   * Record: { version?: string|null, params: { pattern?, <family parameters>?, weights?, w_min?,
   *   decay?, eps?, tau?, delta?, step?, d_max?, trials?, seed?, max_bytes? } (the CLI's keys; "Ls"
   *   is written from the points), points: [{ L, d_mins: (number|null)[], median: number|null,
   *   quantile: number|null, d_star: number|null, k: number|null, max_col_count: number|null,
   *   in_class: boolean|null, madds: number|null }], fits?: { log: { ok, a, b, r2 }, power: { ok, c,
   *   p, r2 } } | null (computed from the quantiles when missing) }. Missing values print as null
   *   (JSON) or NA (CSV), as do non-finite ones.
   * @param {Object} record
   * @param {'json'|'csv'} format
   * @returns {string}
   */
  formatSweep(record, format) {
    return unwrap(this._m.formatSweep(record, format));
  }

  /**
   * Reads a file of `attnx sweep` (JSON or CSV; the lab's exports) and checks everything a plot
   * uses; refusals (RangeError, field 'text') name the first problem, e.g. "points[1].d_mins[3]
   * must be an integer d ... or null (got "abc")", "row 2, d_mins[1] must be a number or
   * NA (got "x")". At most 32 MiB.
   * @param {string} text
   * @returns {{source:'import', version:string|null, params:Object, points:Object[],
   *   fits:{log:{model:string, ok:boolean, a:number|null, b:number|null, r2:number|null},
   *   power:{model:string, ok:boolean, c:number|null, p:number|null, r2:number|null}},
   *   complete:true}} the record formatSweep takes: params has every key the file gives plus
   *   delta (null for CSV), trials and Ls (the points' lengths); median and quantile are
   *   recomputed (CSV: quantile as written), fits recomputed (nulls when not ok).
   */
  parseSweep(text) {
    return unwrap(this._m.parseSweep(text));
  }

  /**
   * Statistics of points given by their d values (e.g. one length's trials merged from several
   * workers): the median and (1-delta)-quantile of each point and the fits of the quantiles.
   * @param {{delta:number, points:{L:number, dMins:(number|null)[], dStar?:number,
   *   k?:number, maxColCount?:number, inClass?:boolean, madds?:number}[]}} input
   * @returns {{points:Object[], fits:{log:{model:string, ok:boolean, a:number|null, b:number|null,
   *   r2:number|null}, power:{model:string, ok:boolean, c:number|null, p:number|null,
   *   r2:number|null}}, fitComparison:{resamples:number, logWins:number, powerWins:number}}} each
   *   point as given (shallow copy) with dMins (not reached = null), median and quantile (null when
   *   not reached); fitComparison: in how many of 1000 bootstrap resamples of the trials (per
   *   length, with replacement, seed 1) each fit has the higher R² (the core's compare_fits).
   */
  summariseSweep(input) {
    return unwrap(this._m.summariseSweep(input));
  }

  // --- The lab's calls (core/api/calls_lab.cpp): every number the lab shows beside a sweep is the
  // core's. Synchronous and cheap (the lab makes them on the page's own module instance). Arrays
  // of d values use null for "not reached"; other missing numbers are null too. Refusals are
  // RangeErrors naming the argument ("Ls[2] must be an integer from 2 to …").

  /**
   * The worker tasks of a sweep over the lengths Ls with `trials` trials each for `lanes` workers,
   * in the order they start (core plan_sweep_tasks: at least 3 tasks per worker, sized by the cost
   * model, each length's trials cut into contiguous parts).
   * @returns {{L:number, firstTrial:number, trials:number, weight:number}[]} weight: the task's work
   */
  planSweep(Ls, trials, lanes) {
    return unwrap(this._m.planSweep(Ls, trials, lanes));
  }

  /** Work of `trials` trials at length L under the cost model (L^2 ln L per trial): a task's weight. */
  taskWork(L, trials) {
    return unwrap(this._m.taskWork(L, trials));
  }

  /**
   * Progress of tasks (their weights and the fraction of each done) after `elapsed` seconds, and
   * the time left at the rate so far (null until 1% and 0.3 s are behind): what
   * `attnx sweep --progress` prints. @returns {{fraction:number, eta:number|null}}
   */
  sweepProgress(weights, fractions, elapsed) {
    return unwrap(this._m.sweepProgress(weights, fractions, elapsed));
  }

  /**
   * The cost model of `attnx sweep --dry-run` fitted to timed trials [{ L, dMin (null: not
   * reached), seconds }] with the search grid (step, dMax).
   * @returns {{ok:boolean, c:number, p:number, r2:number, dOfL:{ok:boolean, a:number, b:number,
   *   r2:number}, dLo:number, dHi:number}}
   */
  fitCost(timings, step, dMax) {
    return unwrap(this._m.fitCost(timings, step, dMax));
  }

  /** Seconds of one trial at length L predicted by a model of fitCost. */
  predictTrialSeconds(model, L) {
    return unwrap(this._m.predictTrialSeconds(model, L));
  }

  /**
   * The point of length L from its parts [{ firstTrial, dMins, dStar, k, maxColCount, inClass,
   * madds, logitScales, maxAbsLogits, columnSupports }] (sweepPoint answers of consecutive trials,
   * in any order), which must cover trials 0..trials-1 exactly (RangeError, field 'parts', naming
   * the trial where they do not join up). tau (default: the option table's) is the tolerance the
   * SPEC §9 floors are read at.
   * @returns {{L:number, d_mins:(number|null)[], median:number|null, quantile:number|null,
   *   d_star:number|null, k:number|null, max_col_count:number|null, in_class:boolean|null,
   *   madds:number|null}} the point as `attnx sweep` writes it; when the parts carry SPEC §9's
   *   per-trial lists, also its bound keys (logit_scales, max_abs_logits, column_supports,
   *   logit_scale, d_lambda, ratio, max_abs_logit, d_logit, ratio_logit, bits_fixed_keys,
   *   bits_free_keys, bits_free_keys_regular; null: unknown)
   */
  mergeSweepParts(L, trials, delta, parts, tau) {
    return unwrap(this._m.mergeSweepParts(L, trials, delta, parts, tau ?? null));
  }

  /**
   * The distribution of one length's d values (null: not reached): its success curve, one step
   * per distinct reached d with its count and the fraction p of ALL trials with d_min <= d.
   * @returns {{trials:number, reached:number, maxReached:number|null, steps:{d:number, count:number, p:number}[]}}
   */
  dDistribution(dMins) {
    return unwrap(this._m.dDistribution(dMins));
  }

  /**
   * What the fits say: the bootstrap verdict when `comparison` (summariseSweep's fitComparison)
   * has resamples, else, when both fits are ok (fitsOk), the reading of this one sample's R²
   * (verdict 'flat', 'log', 'power' or 'undecided'), else basis 'none'. quantiles: the lengths'
   * (null: not reached).
   * @returns {{fitsOk:boolean, basis:string, verdict:string, smallExponent:boolean, usable:number,
   *   lengths:number, rough:boolean, perDoubling:number}}
   */
  fitReading(fits, comparison, quantiles) {
    return unwrap(this._m.fitReading(fits ?? null, comparison ?? null, quantiles));
  }

  /**
   * The medians (null: not reached) of the lengths Ls from 64 to 1024 against the band [lo, hi].
   * @returns {{lengths:number, firstL:number, lastL:number, lo:number, hi:number, inside:number}}
   */
  bandReading(Ls, medians, lo, hi) {
    return unwrap(this._m.bandReading(Ls, medians, lo, hi));
  }

  /** The logarithmic lengths axis over Ls (any order). @returns {Axis} { lo, hi, step, ticks } */
  lengthAxis(Ls, compact) {
    return unwrap(this._m.lengthAxis(Ls, compact));
  }

  /**
   * The d axis of plot "d versus L" over the lengths' largest reached d (null: none) and d*
   * (null: not known), and the lengths whose d* lies above it.
   * @returns {{axis:Axis, dStarAbove:{count:number, lo:number, hi:number}}}
   */
  dAxis(maxReached, dStars, dMax, bandHi, fullDStar) {
    return unwrap(this._m.dAxis(maxReached, dStars, dMax, bandHi ?? 0, fullDStar));
  }

  /** The axes of plot "success versus d". @returns {{d:Axis, probability:Axis}} */
  successAxes(maxReached, dMax, compact) {
    return unwrap(this._m.successAxes(maxReached, dMax, compact));
  }

  /** The logarithmic axis of compared dimensions (null and values <= 0 left out). @returns {Axis} */
  dimensionAxis(values, compact) {
    return unwrap(this._m.dimensionAxis(values, compact));
  }

  /** The bits(X) axis and the float formats drawn on it. @returns {{axis:Axis, formats:{name:string, bits:number}[]}} */
  bitsAxis() {
    return unwrap(this._m.bitsAxis());
  }

  /**
   * The floors `attnx bounds` prints at one length (SPEC §9): the counting floors on D·w in bits
   * for k-regular targets of length L, and with logitScale the packing floor d_Λ at that scale
   * for a target whose columns all differ (n = L; 1 when k = L).
   * @param {{L?:number, k?:number, tau?:number, logitScale?:number}} opts  option table defaults
   * momentD: D = 2k of SPEC §8.3, with which the moment curve succeeds at every L in exact arithmetic.
   * @returns {{L:number, k:number, momentD:number, bitsFixedKeys:number, bitsFreeKeys:number,
   *   bitsFreeKeysRegular:number, columnSupports?:number, dLambda?:number}}
   */
  bounds(opts) {
    return unwrap(this._m.bounds(opts));
  }

  // --- A model's attention file (core/api/calls_heads.cpp, issue 24): .npy, .npz or JSON bytes as
  // `attnx import` reads them. bytes: a Uint8Array (or ArrayBuffer), copied once into the module;
  // name starts every message ("heads.npy: row 3 ..."). Each call reads the file again, so a
  // worker pool can survey one head per worker.

  /**
   * The file's format, dtype, shape and tokens.
   * @param {Uint8Array|ArrayBuffer} bytes @param {string} [name] @param {{maxBytes?:number, fixedBudget?:boolean}} [opts]
   *   fixedBudget: the caller cannot raise maxBytes (the explorer page): a refusal over the budget
   *   names attnx import --max-bytes instead of "raise the budget"
   * @returns {{format:'npy'|'npz'|'json', dtype:string, rank:number, shape:number[], layers:number,
   *   heads:number, L:number, tokens:string[]}}
   */
  readAttention(bytes, name, opts) {
    return unwrap(this._m.readAttention(bytes, name ?? null, opts ?? null));
  }

  /**
   * One head made a sparse target, as `attnx import FILE --layer --head --rule [--softmax]`: its
   * description, the target as the pattern file `--out` writes (patternText) and as parsePattern
   * reads it back (pattern: use it as a custom pattern, { pattern: 'custom', L, triplets }), and
   * the head's dense probabilities (after the softmax when asked) for drawing.
   * @param {Uint8Array|ArrayBuffer} bytes @param {string} [name]
   * @param {{layer?:number, head?:number, rule?:string, softmax?:boolean, maxBytes?:number, fixedBudget?:boolean}} [opts]
   * @returns {{params:Object, tokens:string[], description:HeadDescription, pattern:{L:number,
   *   nnz:number, triplets:{rows:Int32Array, cols:Int32Array, vals:Float64Array}},
   *   patternText:string, values:Float32Array, keptMass:Float64Array}} values: L*L row-major;
   *   keptMass: per row, the share of its mass kept
   */
  importHead(bytes, name, opts) {
    return unwrap(this._m.importHead(bytes, name ?? null, opts ?? null));
  }

  /**
   * One row of `attnx import FILE --all`: the head's description and the minimal d of lp (step 1
   * up to its d limit) and jl (on the survey grid the core publishes) for its target (null: not reached).
   * @param {Uint8Array|ArrayBuffer} bytes @param {string} [name]
   * @param {{layer?:number, head?:number, rule?:string, softmax?:boolean, eps?:number, tau?:number,
   *   seed?:number, maxBytes?:number, fixedBudget?:boolean}} [opts]
   * @param {Progress} [onProgress]
   * @returns {{layer:number, head:number, description:HeadDescription, lpDMin:number|null,
   *   jlDMin:number|null, cancelled:boolean}}
   */
  surveyHead(bytes, name, opts, onProgress) {
    return withProgress((fn) => this._m.surveyHead(bytes, name ?? null, opts ?? null, fn), onProgress);
  }

  /** Everything about this build in one plain object (handy across a worker boundary). */
  info() {
    const schema = this.schema();
    // sliced: the constructions whose construct stops between slices and resumes (the core's
    // `sliced` property); defaultConstruction: the one construct uses when none is given.
    const sliced = schema.constructions.filter((c) => c.sliced).map((c) => c.name);
    return { version: this.version, flavour: this.flavour, simd: this.simd, gramKernel: this.gramKernel,
      sliced, defaultConstruction: schema.contexts.wasm.defaults.construction };
  }
}
