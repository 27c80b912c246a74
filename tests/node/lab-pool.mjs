// attnx lab tests: a stand-in for web/lib/pool.js that runs the real WebAssembly module in this
// thread, with the worker's method names and option shapes (web/lib/worker.js METHODS), so the
// lab's modules can be tested against the core without a browser.
import { load } from '../../web/lib/attnx.js';

const METHODS = {
  schema: (api) => api.schema(),
  sweepPoint: (api, o, progress) => api.sweepPoint(o, progress),
  construct: (api, o, progress) => api.construct(o, progress),
  precision: (api, o) => api.precision(o),
  fits: (api, o) => api.fits(o.Ls, o.ds),
  median: (api, o) => api.median(o.ds),
  quantile: (api, o) => api.quantile(o.ds, o.delta),
  formatSweep: (api, o) => api.formatSweep(o.record, o.format),
  parseSweep: (api, o) => api.parseSweep(o.text),
  summariseSweep: (api, o) => api.summariseSweep(o),
};

// Resolves { api, calls, run(method, opts, { onProgress }) } where run resolves like the pool's
// (structured copies of the answer) and calls lists [method, opts] in call order.
export async function corePool() {
  const api = await load();
  const calls = [];
  return {
    api,
    calls,
    async run(method, opts = {}, { onProgress } = {}) {
      calls.push([method, opts]);
      const fn = METHODS[method];
      if (!fn) throw new RangeError(`unknown method "${method}"`);
      return structuredClone(fn(api, structuredClone(opts), onProgress));
    },
  };
}
