// Types of the attnx worker pool (pool.js): one WebAssembly instance per module Web Worker.
import type { AttnxApi } from './attnx.js';

/** Methods a worker runs; options as in attnx.d.ts (fits: {Ls, ds}; median: {ds};
 * quantile: {ds, delta}; parsePattern: {text, L}; formatPattern: {pattern, format};
 * formatSweep: {record, format}; parseSweep: {text}; summariseSweep: {delta, points};
 * readAttention, importHead, surveyHead: {bytes, name, options} as the API's arguments;
 * frontierTrial: {opts, task}, one trial of the frontier's tasks as api.frontierTrial(opts, task)). */
export type PoolMethod =
  'schema' | 'patterns' | 'info' | 'construct' | 'minD' | 'precision' | 'sweepPoint' | 'fits' | 'median' |
  'quantile' | 'estimateBytes' | 'parsePattern' | 'formatPattern' | 'formatSweep' |
  'parseSweep' | 'summariseSweep' | 'readAttention' | 'importHead' | 'surveyHead' | 'gramBand' | 'frontierTrial';

export interface RunControl {
  /** Fraction done in [0, 1]. */
  onProgress?: (fraction: number) => void;
  /** Cancels: a queued task is dropped, a running one ends its worker (replaced by a fresh one). */
  signal?: AbortSignal;
}

export interface PoolOptions {
  /** Number of workers (default max(1, hardwareConcurrency - 1)). */
  size?: number;
  /** Extra workers a long construct borrows to sum its Gram matrix in bands (default
   *  hardwareConcurrency - 1; 0: never). They start when needed and end after 10 s idle. */
  helpers?: number;
  /** Force a build. */
  flavour?: 'simd' | 'scalar';
  /** Where worker.js is (default: next to pool.js); another origin needs CORS headers. */
  workerUrl?: string | URL;
}

export declare class AttnxPool {
  constructor(options?: PoolOptions);
  /** Number of workers (created lazily). */
  readonly size: number;
  /** Build info of the first worker once its module is loaded. */
  ready(): Promise<ReturnType<AttnxApi['info']>>;
  /** Runs one API method in a worker; results are plain data, typed arrays transferred. */
  run(method: PoolMethod, opts?: object, control?: RunControl): Promise<any>;
  /** Starts every worker not started yet (each loads its module now); resolves with how many are ready. */
  warm(): Promise<number>;
  /** Terminates every worker; queued and running tasks reject with an AbortError. */
  destroy(): void;
}

/** A pool whose first worker has loaded the module (a broken build is reported here). */
export declare function createPool(options?: PoolOptions): Promise<AttnxPool>;
/** The machine's logical cores as the browser reports them (hardwareConcurrency; 2 when unknown). */
export declare function coreCount(): number;

/** Starts a module worker from url; a script on another origin is imported by a blob: module. */
export declare function startModuleWorker(url: string | URL, name?: string): Worker;
