// attnx web: page side of the render worker (request/response by number).
export class RenderClient {
  constructor() {
    this.worker = new Worker(new URL('./render-worker.js', import.meta.url), { type: 'module' });
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

  request(msg, transfer = []) {
    const req = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(req, { resolve, reject });
      this.worker.postMessage({ ...msg, req }, transfer);
    });
  }

  // Hands the dense arrays of a construction to the worker (transferred: the page loses them).
  setData(id, result, tol) {
    const M = result.M, logits = result.logits, X = result.X;
    const A = { rows: result.A.rows.slice(), cols: result.A.cols.slice(), vals: result.A.vals.slice() };
    const transfer = [M.buffer, logits.buffer, X.buffer, A.rows.buffer, A.cols.buffer, A.vals.buffer];
    return this.request({ type: 'data', id, L: result.L, d: result.d, A, M, logits, X, eps: tol.eps, tau: tol.tau },
      [...new Set(transfer)]);
  }

  render(id, which, opts) {
    return this.request({ type: 'render', id, which, opts });
  }

  row(id, i) {
    return this.request({ type: 'row', id, i });
  }
}
