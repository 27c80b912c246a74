// attnx: module Web Worker running one WebAssembly instance (driven by pool.js).
//
// Protocol (plain data only):
//   in : { type: 'init', flavour }                    optional, before the first task
//        { type: 'run', id, method, opts }   opts of the text calls: parsePattern { text, L },
//                                             formatPattern { pattern, format }, formatSweep
//                                             { record, format }, parseSweep { text },
//                                             summariseSweep { delta, points }
//   out: { type: 'ready', info } | { type: 'init-error', error }
//        { type: 'progress', id, fraction }
//        { type: 'result', id, result }              typed arrays transferred, not copied
//        { type: 'error', id, error: { name, message, field, kind }, fatal }   fatal: replace me
// A running task cannot be interrupted from outside (the worker is busy in WebAssembly): the pool
// cancels by terminating the worker.
import { load } from './attnx.js';

const METHODS = {
  schema: (api) => api.schema(),
  patterns: (api) => api.schema(),
  info: (api) => api.info(),
  construct: (api, opts, progress) => api.construct(opts, progress),
  minD: (api, opts, progress) => api.minD(opts, progress),
  sweepPoint: (api, opts, progress) => api.sweepPoint(opts, progress),
  fits: (api, opts) => api.fits(opts && opts.Ls, opts && opts.ds),
  median: (api, opts) => api.median(opts && opts.ds),
  quantile: (api, opts) => api.quantile(opts && opts.ds, opts && opts.delta),
  estimateBytes: (api, opts) => api.estimateBytes(opts),
  parsePattern: (api, opts) => api.parsePattern(opts && opts.text, opts && opts.L),
  formatPattern: (api, opts) => api.formatPattern(opts && opts.pattern, opts && opts.format),
  formatSweep: (api, opts) => api.formatSweep(opts && opts.record, opts && opts.format),
  parseSweep: (api, opts) => api.parseSweep(opts && opts.text),
  summariseSweep: (api, opts) => api.summariseSweep(opts),
};

let apiPromise = null;
function getApi(flavour) {
  if (!apiPromise) apiPromise = load(flavour ? { flavour } : {});
  return apiPromise;
}

function plainError(e) {
  if (e && typeof e === 'object') {
    return {
      name: e.name || 'Error',
      message: String(e.message ?? e),
      field: e.field,
      kind: e.kind,
    };
  }
  return { name: 'Error', message: String(e) };
}

// ArrayBuffers behind typed arrays in a result (copies made for us: safe to transfer).
function transferables(x, out = [], depth = 0) {
  if (!x || typeof x !== 'object' || depth > 4) return out;
  if (ArrayBuffer.isView(x)) {
    if (!out.includes(x.buffer)) out.push(x.buffer);
    return out;
  }
  for (const k of Object.keys(x)) transferables(x[k], out, depth + 1);
  return out;
}

self.onmessage = async (ev) => {
  const msg = ev.data || {};
  if (msg.type === 'init') {
    try {
      const api = await getApi(msg.flavour);
      self.postMessage({ type: 'ready', info: api.info() });
    } catch (e) {
      apiPromise = null;
      self.postMessage({ type: 'init-error', error: plainError(e) });
    }
    return;
  }
  if (msg.type !== 'run') return;
  const { id, method, opts } = msg;
  try {
    const fn = METHODS[method];
    if (!fn) throw new RangeError(`unknown method "${String(method).slice(0, 40)}" (allowed: ${Object.keys(METHODS).join(', ')})`);
    const api = await getApi();
    const progress = (fraction) => {
      self.postMessage({ type: 'progress', id, fraction });
    };
    const result = fn(api, opts, progress);
    self.postMessage({ type: 'result', id, result }, transferables(result));
  } catch (e) {
    // A WebAssembly trap (e.g. an abort) leaves the instance unusable: ask to be replaced.
    const fatal = typeof WebAssembly === 'object' && e instanceof WebAssembly.RuntimeError;
    self.postMessage({ type: 'error', id, error: plainError(e), fatal });
  }
};
