// attnx explorer: the render worker's data (DOM-free, so Node tests can use it). Holds one
// construction in compressed-row form with the core's per-row report, pools it into images and
// cuts row slices. No criterion is evaluated here: ratio errors, the support's smallest logit and
// rho_i, zeta_i, lambda_i and the verdicts are the core's (construct()'s `rows`).
import { poolGeometry } from '../common/raster.js';

// Builds the worker's record of one construction from the 'data' message (see render-client.js):
// { id, L, d, A: { rows, cols, vals }, M, logits, X, rows: the core's per-row report, eps, tau }.
// A's entries are put in row order (stable); the per-entry arrays (ratioErrMean/Min) follow them.
// m.views (optional): the core's pooled images (construct's `views`), kept as they are.
// Returns { id, L, d, rowPtr, col, val, errMean, errMin, M, Z, X, rows, eps, tau, aHash, views }.
export function toRecord(m) {
  const { L, A } = m;
  const n = A.vals.length;
  const rowPtr = new Int32Array(L + 1);
  for (let t = 0; t < n; t++) rowPtr[A.rows[t] + 1]++;
  for (let i = 0; i < L; i++) rowPtr[i + 1] += rowPtr[i];
  const fill = rowPtr.slice(0, L);
  const col = new Int32Array(n), val = new Float64Array(n);
  const errMean = new Float64Array(n), errMin = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const p = fill[A.rows[t]]++;
    col[p] = A.cols[t];
    val[p] = A.vals[t];
    errMean[p] = m.rows.ratioErrMean[t];
    errMin[p] = m.rows.ratioErrMin[t];
  }
  return { id: m.id, L, d: m.d, rowPtr, col, val, errMean, errMin, M: m.M, Z: m.logits, X: m.X, rows: m.rows, eps: m.eps, tau: m.tau, aHash: patternHash(L, rowPtr, col, val), views: m.views || null };
}

// FNV-1a hash (hex) of a pattern in compressed-row form: equal patterns give equal hashes, so the
// render worker can tell that A's image has not changed.
export function patternHash(L, rowPtr, col, val) {
  let h = 0x811c9dc5;
  const mix = (x) => { h = Math.imul(h ^ (x | 0), 0x01000193); };
  const f = new Float64Array(1), w = new Int32Array(f.buffer);
  mix(L);
  for (let i = 0; i <= L; i++) mix(rowPtr[i]);
  for (let p = 0; p < col.length; p++) {
    mix(col[p]);
    f[0] = val[p];
    mix(w[0]);
    mix(w[1]);
  }
  return (h >>> 0).toString(16);
}

// Signed per-entry values pooled by largest magnitude; cells without entries NaN (transparent).
// Returns { w, h, f, data: Float32Array }.
export function poolSparseAbsMax(c, values, budget) {
  const { f, size } = poolGeometry(c.L, budget);
  const out = new Float32Array(size * size).fill(NaN);
  for (let i = 0; i < c.L; i++) {
    const o = ((i / f) | 0) * size;
    for (let p = c.rowPtr[i]; p < c.rowPtr[i + 1]; p++) {
      const q = o + ((c.col[p] / f) | 0);
      const v = values[p];
      if (out[q] !== out[q] || Math.abs(v) > Math.abs(out[q])) out[q] = v;
    }
  }
  return { w: size, h: size, f, data: out };
}

// Off the support: the colour value (Z_ij - supportMinLogit_i) / ln 10 (log10 of the zero ratio),
// max-pooled; support cells NaN. Returns { w, h, f, data: Float32Array }.
export function zeroRatioPooled(c, budget) {
  const { L, Z } = c;
  const { f, size } = poolGeometry(L, budget);
  const out = new Float32Array(size * size).fill(NaN);
  const mark = new Int32Array(L).fill(-1);
  for (let i = 0; i < L; i++) {
    for (let p = c.rowPtr[i]; p < c.rowPtr[i + 1]; p++) mark[c.col[p]] = i;
    const zmin = c.rows.supportMinLogit[i];
    const o = ((i / f) | 0) * size, base = i * L;
    for (let j = 0; j < L; j++) {
      if (mark[j] === i) continue;
      const v = (Z[base + j] - zmin) / Math.LN10;
      const q = o + ((j / f) | 0);
      if (out[q] !== out[q] || v > out[q]) out[q] = v;
    }
  }
  return { w: size, h: size, f, data: out };
}

// Largest |X[i][j]| over rows 0..R-1 and columns c0..c1-1 of the row-major R x C matrix X.
export function maxAbs(X, R, C, c0, c1) {
  let m = 0;
  for (let i = 0; i < R; i++) {
    for (let j = c0; j < c1; j++) {
      const v = Math.abs(X[i * C + j]);
      if (v > m) m = v;
    }
  }
  return m;
}

// Row i of record c for the inspector and the hover readouts: its support (cols, avals), the
// ratio errors of its entries (errMean, errMin), M_i and Z_i (copies), the support's smallest
// logit and the core's rho_i, zeta_i, lambda_i, okR_i, okZ_i. Throws RangeError for i outside 0..L-1.
export function rowSlice(c, i) {
  if (!(Number.isInteger(i) && i >= 0 && i < c.L)) throw new RangeError(`row must be an integer from 0 to ${c.L - 1} (got ${i})`);
  const a = c.rowPtr[i], b = c.rowPtr[i + 1], L = c.L, r = c.rows;
  return {
    i,
    cols: Array.from(c.col.subarray(a, b)),
    avals: Array.from(c.val.subarray(a, b)),
    errMean: Array.from(c.errMean.subarray(a, b)),
    errMin: Array.from(c.errMin.subarray(a, b)),
    M: c.M.slice(i * L, (i + 1) * L),
    Z: c.Z.slice(i * L, (i + 1) * L),
    supportMinLogit: r.supportMinLogit[i],
    rho: r.rho[i], zeta: r.zeta[i], lambda: r.lambda[i],
    okR: r.okR[i] === 1, okZ: r.okZ[i] === 1,
  };
}
