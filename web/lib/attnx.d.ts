// Types of the attnx JavaScript API (attnx.js). API version 2: see API_VERSION.

/** Version of this API (its calls and result shapes), independent of the core's version. */
export declare const API_VERSION: 2;

/** True when this engine can run the simd build: it validates WebAssembly SIMD (128-bit) and WebAssembly exception handling. */
export declare function simdSupported(): boolean;

/** Loads the module once per flavour; 'auto' picks the simd build when simdSupported(), else the scalar one. */
export declare function load(options?: {
  flavour?: 'auto' | 'simd' | 'scalar';
  wasmBinary?: ArrayBuffer | Uint8Array;
}): Promise<AttnxApi>;

export type Family =
  'random' | 'permutation' | 'window' | 'causal' | 'dilated' | 'block' | 'strided' | 'bigbird' | 'custom';

/** Custom pattern entries: 0-based (row, column, weight >= 0); rows are normalised. */
export interface Triplets {
  rows: Int32Array | number[];
  cols: Int32Array | number[];
  vals: Float32Array | Float64Array | number[];
}

/** Options of every call, named as in the links and (camelCase) the CLI; ranges: schema(). */
export interface Options {
  pattern?: Family; L?: number; k?: number; w?: number; r?: number; block?: number;
  stride?: number; globals?: number; randoms?: number;
  weights?: 'uniform' | 'random' | 'decaying'; wMin?: number; decay?: number;
  triplets?: Triplets;
  eps?: number; tau?: number; delta?: number;
  d?: number; seed?: number; dmax?: number; step?: number; trials?: number; firstTrial?: number;
  maxBytes?: number;
  /** construct, minD, precision: how X is chosen (SPEC §3, §8); box: lp's U (SPEC §8.2). */
  construction?: 'jl' | 'lp' | 'moment' | 'opt'; box?: number;
  /** opt: the logit-scale budget Λ_max (SPEC §10.1; the CLI's --scale). */
  budget?: number;
  /** construct only: also the SPEC §8.4 report for jl (lp and moment always have it). */
  precision?: boolean;
  /** construct, precision: trial t (0..999) of a sweep with master seed `seed` at this L: the
   *  target and projection sweepPoint used for that trial (result.params keeps seed and trial). */
  trial?: number;
  /** construct only: images pooled by the core at these pixel budgets (1..4096 each, defaults
   *  512, 512, 256); omitX leaves X out of the result (X then has length 0); dense: false leaves M and the
   *  logits out (both then have length 0: the core frees them; the pooled images are in views). */
  views?: { size?: number; xRows?: number; xCols?: number; omitX?: boolean; /** false: no XB, XP */ inputs?: boolean; /** false: M, logits empty */ dense?: boolean };
}

/** The frontier's options (SPEC §10.2): the pattern's and the tolerances as in Options, and its grids. */
export interface FrontierOptions {
  pattern?: string; L?: number; k?: number; w?: number; r?: number; block?: number; stride?: number;
  globals?: number; randoms?: number; weights?: string; wMin?: number; decay?: number;
  eps?: number; tau?: number; delta?: number; seed?: number; maxBytes?: number; trials?: number;
  /** Registry names (default: all), an array or "opt,lp". */ constructions?: string[] | string;
  /** opt's budgets Λ_max and lp's boxes U: ascending arrays, or link text "4,5.3,8". */
  scales?: number[] | string; boxes?: number[] | string;
}

/** Fraction done in [0, 1]; returning false cancels (minD, sweepPoint; construct during its Gram phase). */
export type Progress = (fraction: number) => boolean | void;

/** Refusals are RangeErrors with the option's name and a kind. */
export interface AttnxError extends Error {
  field?: string;
  kind?: 'invalid' | 'budget' | 'memory' | 'internal';
}

export interface OptionInfo {
  name: string; flag: string; json: string; kind: 'int' | 'real' | 'choice' | 'intList';
  min: number; max: number; minOpen: boolean; maxOpen: boolean;
  minExpr?: string; maxExpr?: string; default: number | string;
  choices?: string[]; maxCount?: number; rangeText: string; label: string; help: string; group: string;
}
export interface FamilyInfo {
  name: Family; label: string; scalesWithL: boolean; inClass: boolean;
  params: { name: string; label: string; min: number; max: 'L' | 'L-1' | string; default: number }[];
}
export interface Schema {
  linkVersion: number;
  families: FamilyInfo[];
  weights: string[];
  options: Record<string, OptionInfo>;
  contexts: Record<'explorer' | 'lab' | 'wasm' | 'cli', {
    defaults: Record<string, number | string>; max: Record<string, number>;
  }>;
  /** Frozen defaults of each link version ('0' = links without v). */
  linkDefaults: Record<string, Record<'explorer' | 'lab', Record<string, number | string>>>;
  /** Options a current (linkVersion) link writes. */
  linkCompute: Record<'explorer' | 'lab', string[]>;
  presets: Record<string, {
    label: string; values: Record<string, number | string>;
    band: { lo: number; hi: number; text: string } | null;
  }>;
  pageLimits: { maxL: number; maxNnzLink: number; maxDrawL: number; viewMinSpan: number };
  /** How X may be chosen (SPEC §3, §8): usesD false for moment (D = 2m); dMax: construct's largest d;
   *  explorerD: the explorer's d when the construction is picked; searchStep: its minimal-d grid step (0: the option's default). */
  constructions: { name: string; label: string; usesD: boolean; searchable: boolean; dMax: number; explorerD: number; searchStep: number;
    /** The SPEC §9.3 floor on D·w that holds for it: a key of bounds ('bits_fixed_keys' | 'bits_free_keys'). */
    bitsFloor: string;
    /** Its own summary numbers (result.report): key, kind, and when the value is good ('positive' | 'allRows' | 'set' | ''). */
    report: { key: string; kind: 'count' | 'real' | 'flag'; ok: string }[];
    /** How its minimal dimension is found, one sentence; what its d is on a plot: 'construction' or 'search'. */
    search: string; mark: 'construction' | 'search'; [more: string]: unknown }[];
  /** SPEC §9's keys: { symbol, label, help } each (help: one sentence on what it means). */
  bounds: Record<string, { symbol: string; label: string; help: string }>;
  /** API version 1's shape (this build's ranges and defaults). */
  limits: Record<string, { min: number; max: number; minOpen?: boolean; maxOpen?: boolean }>;
  defaults: Record<string, number | string>;
}

export interface Metrics {
  rho: number; zeta: number; lambda: number; success: boolean; okR: boolean; okZ: boolean;
  beta: number; dStar: number;
}
export interface PatternStats { L: number; k: number; maxColCount: number; inClass: boolean }

/** h x w row-major values; fr, fc: data cells per pixel along rows and columns. */
export interface PooledImage { w: number; h: number; fr: number; fc: number; data: Float32Array }

export interface Construction extends PatternStats {
  params: Options; metrics: Metrics; d: number; dStar: number;
  /** True when onProgress returned false: then only params and cancelled are set. */ cancelled: boolean;
  /** Columns of P this call added to the kept Gram matrix (d when it started from nothing); a
   *  pool's construct counts every slice it ran in. */
  gramColumnsAdded: number;
  /** With opts.views: M (max), the zero ratio's log10 off the support (max, NaN where none) and
   *  X's halves (largest |value|, sign kept), pooled to at most the requested pixels. */
  views?: { size: number; xRows: number; xCols: number; mMax: number; mMinPositive: number;
    xbMax: number; xpMax: number; M: PooledImage; zero: PooledImage; XB: PooledImage | null; XP: PooledImage | null };
  A: { rows: Int32Array; cols: Int32Array; vals: Float32Array };
  /** Row-major L*L. */ M: Float32Array;
  /** Row-major L*L: Z = (X W_Q)(X W_K)^T / sqrt(d). */ logits: Float32Array;
  /** Row-major L*2d: [sqrt(d) B P, P]. */ X: Float32Array;
  /** SPEC §2 row by row (L entries), ratio errors per entry of A (A's order). */
  rows: {
    rho: Float64Array; zeta: Float64Array; lambda: Float64Array; okR: Uint8Array; okZ: Uint8Array;
    supportMinLogit: Float32Array; ratioErrMean: Float32Array; ratioErrMin: Float32Array;
  };
  /** How X was chosen (SPEC §3, §8, §10). */ construction: 'jl' | 'lp' | 'moment' | 'opt';
  /** SPEC §8.4: lp, moment and opt always, jl with opts.precision. */ precision?: Precision;
  /** The construction's own summary, keyed as schema.constructions[].report lists it (lp:
   *  feasibleRows, tMin, lpIterations, lpIterationsMax, lpConverged; opt: optSteps, optPenalty, optBudget). */
  report?: Record<string, number | boolean>;
  /** Its per-row values, keyed as schema.constructions[].rowReport lists them (lp: margin t*_i and
   *  iterations; moment: lambda, the multiplier λ_i of SPEC §8.3). */
  rowValues?: Record<string, Float64Array>;
  /** SPEC §9 at this X. */ bounds: Bounds;
}

/** SPEC §8.4: the largest input row norm, §2 in float32 and in float64, bits(X) (null: > 53) and
 *  the exponent bits of X at bits(X) (SPEC §9.3's w = bits + 1 + exponentBits). */
export interface Precision { inputNorm: number; fp32: boolean; fp64: boolean; bits: number | null; exponentBits: number | null }

/** SPEC §9 for one X of hidden size D (null: unknown, e.g. not reached): its logit scale Λ and
 *  largest |logit|, the target's distinct column supports n, the packing floors at them with D's
 *  ratio to each, w = bits per number (with a §8.4 report) and the counting floors on D·w. */
export interface Bounds {
  logitScale: number | null; maxAbsLogit: number | null; columnSupports: number | null;
  dLambda: number | null; ratio: number | null; dLogit: number | null; ratioLogit: number | null;
  bitsPerNumber: number | null; bitsFixedKeys: number | null; bitsFreeKeys: number | null;
  bitsFreeKeysRegular: number | null;
}

export interface MinDResult extends PatternStats {
  params: Options; dMin: number | null; checked: number[]; gramMadds: number; checkMadds: number;
  beta: number; dStar: number; cancelled: boolean;
  /** SPEC §9 of the X at dMin (not reached: n and the counting floors only). */ bounds: Bounds;
}

export interface SweepPointResult {
  params: Options; L: number; dMins: (number | null)[]; median: number | null;
  quantile: number | null; dStar: number; k: number; maxColCount: number; inClass: boolean;
  madds: number; cancelled: boolean;
  /** SPEC §9 per trial at its d_min (null: not reached) and the fewest column supports. */
  logitScales: (number | null)[]; maxAbsLogits: (number | null)[]; columnSupports: number | null;
}

export interface Fits {
  log: { model?: string; ok: boolean; a: number | null; b: number | null; r2: number | null };
  power: { model?: string; ok: boolean; c: number | null; p: number | null; r2: number | null };
}

export interface SweepRecordPoint {
  L: number; d_mins: (number | null)[]; median: number | null; quantile: number | null;
  d_star: number | null; k: number | null; max_col_count: number | null;
  in_class: boolean | null; madds: number | null;
  /** SPEC §9 (sweep files with bounds; null: unknown). */
  logit_scales?: (number | null)[]; max_abs_logits?: (number | null)[]; column_supports?: number | null;
  logit_scale?: number | null; d_lambda?: number | null; ratio?: number | null; max_abs_logit?: number | null;
  d_logit?: number | null; ratio_logit?: number | null; bits_fixed_keys?: number | null;
  bits_free_keys?: number | null; bits_free_keys_regular?: number | null;
}
export interface SweepRecord {
  source?: 'import'; version?: string | null; params: Record<string, unknown>;
  points: SweepRecordPoint[]; fits?: Fits | null; complete?: boolean;
}

/** An axis of the lab's plots: the range drawn, the tick spacing (0 when logarithmic), the ticks. */
export interface Axis { lo: number; hi: number; step: number; ticks: number[] }
/**
 * The sweep cost model: seconds per trial = c (L^2 d)^p, d = a + b ln L clamped to [dLo, dHi];
 * beyond anchorWork (the L^2 d of the timing of most work, taking anchorSeconds) at least that
 * timing times the work's ratio. anchored: p = 1 from that timing (no fit to trust).
 */
export interface CostModel {
  ok: boolean; anchored: boolean; c: number; p: number; r2: number;
  dOfL: { ok: boolean; a: number; b: number; r2: number }; dLo: number; dHi: number;
  anchorWork: number; anchorSeconds: number;
}

/** A head's archetype (issue 24): diagonal (offset), sink (columns), local window (offsetLo..offsetHi,
 *  cells wide) or none; share: of the head's mass on it; matches: share >= 0.5. */
export interface Archetype {
  kind: 'diagonal' | 'sink' | 'window' | 'none'; code: string; label: string; share: number; matches: boolean;
  cells: number; offset: number; offsetLo: number; offsetHi: number; columns: number[];
}
/** What `attnx import` says of one head made sparse by its rule. */
export interface HeadDescription {
  L: number; rule: string; softmax: boolean; k: number; maxColCount: number; inClass: boolean; nnz: number;
  keptMassMin: number; keptMassMinRow: number; keptMassMedian: number;
  columnsOverK: number; topColumnsOverK: { column: number; count: number }[];
  fallbackRows: number; fallbackRowList: number[]; archetype: Archetype; candidates: Archetype[];
}
/** fixedBudget: the caller offers no way to raise maxBytes (the explorer page): a refusal over the
 *  budget names `attnx import --max-bytes` instead of "raise the budget". */
export interface HeadOptions { layer?: number; head?: number; rule?: string; softmax?: boolean; maxBytes?: number; fixedBudget?: boolean }

/** How construct's Gram sum is shared: band b is G's columns edges[b] .. edges[b+1]-1. */
export interface GramPlan { split: boolean; L: number; from: number; d: number; edges: number[]; rungs: number[] }

export declare class AttnxApi {
  /** Core version, e.g. "0.1.0". */ readonly version: string;
  /** "wasm-simd128" or "wasm-scalar". */ readonly flavour: string;
  readonly simd: boolean;
  /** Gram kernel in use: "wasm-simd128" or "scalar". */ readonly gramKernel: string;
  /** API_VERSION. */ readonly apiVersion: number;
  /** The core's description of every option, family, default, limit and link version. */
  schema(): Schema;
  /** API version 1's name of schema(). */
  patterns(): Schema;
  /** SPEC §3: X for one target, the fixed weights, M and the §2 metrics (also row by row). */
  construct(opts: Options, onProgress?: Progress): Construction;
  /** Columns of P the last construct() added to its kept Gram matrix (its cost). */
  gramColumnsAdded(): number;
  /** construct's Gram matrix in column bands across workers (pool.js drives these; see attnx.js). */
  gramPlan(opts: Options, workers: number): GramPlan;
  gramBandStart(c0: number, c1: number): Float32Array;
  gramBand(opts: Options, band: { from: number; c0: number; c1: number; rungs: number[] }, start: Float32Array | null, onProgress?: Progress): { cancelled: boolean; atD: Float32Array; rungs: Float32Array };
  gramBandParts(opts: Options, band: { from: number; c0: number; c1: number; rungs: number[] }, start: Float32Array | null, onProgress?: Progress):
    { cancelled: false; atD: Float32Array; takeRungs(): Float32Array } | { cancelled: true; atD: Float32Array; rungs: Float32Array };
  gramHomeBand(c0: number, c1: number, onProgress?: Progress): boolean;
  gramAdopt(c0: number, c1: number, atD: Float32Array, rungs: Float32Array | null): void;
  gramAdoptRungs(c0: number, c1: number, points: number[], rungs: Float32Array): boolean;
  gramFinish(): boolean;
  /** construct(opts)'s work that needs no Gram matrix, made after gramHomeBand for that construct. */
  gramAhead(opts: Options): boolean;
  gramReleaseAhead(): void;
  /** SPEC §4: smallest d on {step, 2 step, ..., dmax} that succeeds; null when not reached. */
  minD(opts: Options, onProgress?: Progress): MinDResult;
  /** SPEC §8.4's report and §9's bounds (bitsPerNumber: w) of the X construct would build. */
  precision(opts: Options): { params: Record<string, number | string>; construction: string; d: number; precision: Precision; bounds: Bounds };
  /** SPEC §5: one length of the scaling experiment (trials with derived seeds). */
  sweepPoint(opts: Options, onProgress?: Progress): SweepPointResult;
  /** The frontier of SPEC §10.2 at one L: its tasks in order (attnx frontier's). */
  frontierTasks(opts: FrontierOptions): { construction: string; setting: number | null; trial: number }[];
  /** One frontier task (an index into frontierTasks): the construction's minimal D at its setting. */
  frontierTrial(opts: FrontierOptions, task: number, onProgress?: Progress): {
    task: number; dMin: number | null; logitScale: number | null; maxAbsLogit: number | null;
    columnSupports: number; cancelled: boolean };
  /** The frontier from every task's answer, as `attnx frontier` prints it (JSON as a value). */
  frontierResult(opts: FrontierOptions, trials: object[]): Record<string, unknown>;
  /** The same as `attnx frontier --format csv` prints it. */
  frontierCsv(opts: FrontierOptions, trials: object[]): string;
  /** SPEC §9.2's packing floor D_Λ at each scale for n distinct column supports. */
  packingFloors(n: number, tau: number, scales: number[]): number[];
  /** d = a + b ln L and d = c L^p over the points with a d (null = not reached). */
  fits(Ls: number[], ds: (number | null)[]): Fits;
  /** Median (null = not reached counts as larger than any d). */
  median(ds: (number | null)[]): number | null;
  /** Empirical (1 - delta)-quantile; null when not reached. */
  quantile(ds: (number | null)[], delta: number): number | null;
  /** Bytes the runs would need and the budget they are checked against. */
  estimateBytes(opts: Options): { construct: number; mind: number; maxBytes: number };
  /** A custom pattern file's text (JSON or CSV) as raw triplets; errors name line and entry. */
  parsePattern(text: string, L?: number | null): {
    L: number; nnz: number; triplets: { rows: Int32Array; cols: Int32Array; vals: Float64Array };
  };
  /** The export text of a custom pattern. */
  formatPattern(pattern: { L: number; triplets: Triplets }, format: 'json' | 'csv'): string;
  /** The explorer's zoom window `view=i0,i1,j0,j1` read and checked against L (RangeError naming
   * view and the allowed range); full: the whole L x L matrix. */
  viewWindow(text: string, L: number): { i0: number; i1: number; j0: number; j1: number; full: boolean };
  /** `attnx sweep --format json|csv` text of a record, byte for byte. */
  formatSweep(record: SweepRecord, format: 'json' | 'csv'): string;
  /** Reads `attnx sweep` JSON or CSV (and the lab's exports); at most 32 MiB. */
  parseSweep(text: string): SweepRecord & { source: 'import'; fits: Fits; complete: true };
  /** Median, quantile and fits of points given by their d values, and how often each fit wins
   * over 1000 bootstrap resamples of the trials (seed 1). */
  summariseSweep(input: {
    delta: number;
    points: { L: number; dMins: (number | null)[]; dStar?: number; k?: number;
      maxColCount?: number; inClass?: boolean; madds?: number }[];
  }): { points: (Record<string, unknown> & { dMins: (number | null)[]; median: number | null;
    quantile: number | null })[]; fits: Fits;
    fitComparison: { resamples: number; logWins: number; powerWins: number } };
  /** The lab's calls: a sweep's worker tasks sized by the cost model (at least 3 per worker). */
  planSweep(Ls: number[], trials: number, lanes: number): { L: number; firstTrial: number; trials: number; weight: number }[];
  /** Work of `trials` trials at length L (L^2 ln L per trial): a task's weight. */
  taskWork(L: number, trials: number): number;
  /** Weighted progress of tasks and the time left at the rate so far (null until known). */
  sweepProgress(weights: number[], fractions: number[], elapsed: number): { fraction: number; eta: number | null };
  /** The cost model of `attnx sweep --dry-run` fitted to timed trials. */
  fitCost(timings: { L: number; dMin: number | null; seconds: number }[], step: number, dMax: number): CostModel;
  /** Seconds of one trial at length L under a fitted model. */
  predictTrialSeconds(model: CostModel, L: number): number;
  /** One length's point from its parts (sweepPoint answers of consecutive trials, any order). */
  mergeSweepParts(L: number, trials: number, delta: number, parts: { firstTrial: number; dMins: (number | null)[];
    dStar?: number; k?: number; maxColCount?: number; inClass?: boolean; madds?: number;
    logitScales?: (number | null)[]; maxAbsLogits?: (number | null)[]; columnSupports?: number | null }[],
    tau?: number): SweepRecordPoint;
  /** The success curve of one length's d values (null: not reached). */
  dDistribution(dMins: (number | null)[]): { trials: number; reached: number; maxReached: number | null;
    steps: { d: number; count: number; p: number }[] };
  /** What the fits say: bootstrap verdict when there is a comparison, else this sample's R². */
  fitReading(fits: Fits | null, comparison: { resamples: number; logWins: number; powerWins: number; lengths: number } | null,
    quantiles: (number | null)[]): { fitsOk: boolean; basis: 'bootstrap' | 'sample' | 'none'; verdict: string; smallExponent: boolean;
    usable: number; lengths: number; rough: boolean; perDoubling: number };
  /** The medians of lengths 64 to 1024 against the paper's band [lo, hi]. */
  bandReading(Ls: number[], medians: (number | null)[], lo: number, hi: number): { lengths: number; firstL: number;
    lastL: number; lo: number; hi: number; inside: number };
  /** The logarithmic lengths axis of the lab's plots. */
  lengthAxis(Ls: number[], compact: boolean): Axis;
  /** The d axis of plot "d versus L" and the lengths whose d* lies above it. */
  dAxis(maxReached: (number | null)[], dStars: (number | null)[], dMax: number, bandHi: number | null,
    fullDStar: boolean): { axis: Axis; dStarAbove: { count: number; lo: number; hi: number } };
  /** The axes of plot "success versus d". */
  successAxes(maxReached: (number | null)[], dMax: number, compact: boolean): { d: Axis; probability: Axis };
  /** The logarithmic axis of compared dimensions. */
  dimensionAxis(values: (number | null)[], compact: boolean): Axis;
  /** The bits(X) axis and the float formats drawn on it. */
  bitsAxis(): { axis: Axis; formats: { name: string; bits: number }[] };
  /** The floors of `attnx bounds` at one length (SPEC §9); the packing floor with logitScale. */
  bounds(opts?: { L?: number; k?: number; tau?: number; logitScale?: number }): { L: number; k: number;
    /** D = 2k of SPEC §8.3: the moment curve succeeds with it at every L in exact arithmetic. */ momentD: number;
    bitsFixedKeys: number; bitsFreeKeys: number; bitsFreeKeysRegular: number; columnSupports?: number; dLambda?: number };
  /** A model's attention file (.npy, .npz, JSON): format, dtype, shape and tokens. */
  readAttention(bytes: Uint8Array | ArrayBuffer, name?: string, opts?: { maxBytes?: number; fixedBudget?: boolean }): {
    format: 'npy' | 'npz' | 'json'; dtype: string; rank: number; shape: number[]; layers: number; heads: number;
    L: number; tokens: string[] };
  /** One head as `attnx import`: description, the target as a custom pattern and its file text, the
   *  dense probabilities (L*L row-major) and each row's kept mass. */
  importHead(bytes: Uint8Array | ArrayBuffer, name?: string, opts?: HeadOptions): {
    params: Record<string, unknown>; tokens: string[]; description: HeadDescription;
    pattern: { L: number; nnz: number; triplets: { rows: Int32Array; cols: Int32Array; vals: Float64Array } };
    patternText: string; values: Float32Array; keptMass: Float64Array };
  /** One row of `attnx import --all`: the description and the minimal d of lp and jl (null: not reached). */
  surveyHead(bytes: Uint8Array | ArrayBuffer, name?: string,
    opts?: HeadOptions & { eps?: number; tau?: number; seed?: number }, onProgress?: Progress): {
    layer: number; head: number; description: HeadDescription; lpDMin: number | null; jlDMin: number | null;
    cancelled: boolean };
  /** Build facts as one plain object. */
  info(): { version: string; flavour: string; simd: boolean; gramKernel: string };
}
