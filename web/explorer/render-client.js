// attnx explorer: page side of the render worker (request/response by number).
import { startModuleWorker } from '../lib/pool.js';

export class RenderClient {
  // Starts the render worker (render-worker.js, or the script at workerUrl: an embed bundled
  // elsewhere names it; another origin works, see startModuleWorker).
  constructor({ workerUrl = new URL('./render-worker.js', import.meta.url) } = {}) {
    this.worker = startModuleWorker(workerUrl, 'attnx-render');
    this.next = 1;
    this.pending = new Map();
    this.worker.onmessage = (ev) => {
      const m = ev.data;
      const p = this.pending.get(m.req);
      if (!p) return;
      this.pending.delete(m.req);
      if (m.type === 'error') p.reject(new Error(m.message));
      else if (m.type === 'stale') p.resolve(null);
      else p.resolve(m);
    };
    this.worker.onerror = (ev) => {
      for (const p of this.pending.values()) p.reject(new Error(ev.message || 'render worker failed'));
      this.pending.clear();
    };
  }

  // Sends msg with a request number; resolves with the worker's answer, null when stale.
  request(msg, transfer = []) {
    const req = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(req, { resolve, reject });
      this.worker.postMessage({ ...msg, req }, transfer);
    });
  }

  // Hands a construct() result to the worker under `id`: A (copied), the dense M, logits and X
  // (X may be empty when the core pooled it), the core's pooled images `views` (optional) and
  // per-row report `rows` (transferred: the result loses them), with the tolerances (colour
  // scales). Resolves when the worker holds it; with render { which, opts } the worker also
  // makes those images in the same trip and resolves with them (as render() does).
  setData(id, result, tol, render = null) {
    const { M, logits, X, rows, views } = result;
    const A = { rows: result.A.rows.slice(), cols: result.A.cols.slice(), vals: result.A.vals.slice() };
    const pooled = views ? ['M', 'zero', 'XB', 'XP'].filter((k) => views[k]).map((k) => views[k].data.buffer) : [];  // XB, XP null: X's images not asked for
    const transfer = [M.buffer, logits.buffer, X.buffer, A.rows.buffer, A.cols.buffer, A.vals.buffer,
      ...Object.values(rows).map((a) => a.buffer), ...pooled];
    return this.request({ type: 'data', id, L: result.L, d: result.d, A, M, logits, X, rows, views, eps: tol.eps, tau: tol.tau, render },
      [...new Set(transfer)]);
  }

  // Images `which` of construction id (see render-worker.js); null when stale.
  render(id, which, opts) {
    return this.request({ type: 'render', id, which, opts });
  }

  // Row i of construction id (see render-data.js rowSlice); null when stale.
  row(id, i) {
    return this.request({ type: 'row', id, i });
  }
}
