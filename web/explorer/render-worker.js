// attnx web: render worker. Holds the dense matrices of the current construction (M, logits Z,
// inputs X, transferred from the page) and turns them into pooled RGBA images and row slices,
// so the page never loops over L^2 values on the main thread.
import { VIRIDIS } from '../common/viridis.js';
import { DIVERGING } from '../common/diverging.js';
import { poolGeometry, poolSparseMax, poolDenseMax, poolDenseAbsMax, colourise, attentionScale } from '../common/raster.js';

let cur = null;  // { id, L, d, rowPtr, col, val, M, Z, X, eps, tau }

function toCSR(L, rows, cols, vals) {
  const n = vals.length;
  const rowPtr = new Int32Array(L + 1);
  for (let t = 0; t < n; t++) rowPtr[rows[t] + 1]++;
  for (let i = 0; i < L; i++) rowPtr[i + 1] += rowPtr[i];
  const fill = rowPtr.slice(0, L);
  const col = new Int32Array(n), val = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const p = fill[rows[t]]++;
    col[p] = cols[t];
    val[p] = vals[t];
  }
  return { rowPtr, col, val };
}

function image(pooled, lut, t) {
  const rgba = colourise(pooled.data, lut, t);
  return { w: pooled.w, h: pooled.h, rgba };
}

// Signed sparse values pooled by largest magnitude; empty cells NaN (transparent).
function poolSparseAbsMax(L, c, values, budget) {
  const { f, size } = poolGeometry(L, budget);
  const out = new Float32Array(size * size).fill(NaN);
  for (let i = 0; i < L; i++) {
    const o = ((i / f) | 0) * size;
    for (let p = c.rowPtr[i]; p < c.rowPtr[i + 1]; p++) {
      const q = o + ((c.col[p] / f) | 0);
      const v = values[p];
      if (out[q] !== out[q] || Math.abs(v) > Math.abs(out[q])) out[q] = v;
    }
  }
  return { w: size, h: size, f, data: out };
}

function ratioErrors(c, ref) {
  const { L, Z } = c;
  const e = new Float64Array(c.col.length);
  for (let i = 0; i < L; i++) {
    const a = c.rowPtr[i], b = c.rowPtr[i + 1];
    let sum = 0, mn = Infinity;
    for (let p = a; p < b; p++) {
      e[p] = Z[i * L + c.col[p]] - Math.log(c.val[p]);
      sum += e[p];
      if (e[p] < mn) mn = e[p];
    }
    const r = ref === 'min' ? mn : sum / (b - a);
    for (let p = a; p < b; p++) e[p] -= r;
  }
  return e;
}

// Pooled max over off-support cells of log10 exp(Z_ij - min_{S_i} Z); support cells NaN.
function zeroRatioPooled(c, budget) {
  const { L, Z } = c;
  const { f, size } = poolGeometry(L, budget);
  const out = new Float32Array(size * size).fill(NaN);
  const mark = new Int32Array(L).fill(-1);
  const inv = 1 / Math.LN10;
  for (let i = 0; i < L; i++) {
    const a = c.rowPtr[i], b = c.rowPtr[i + 1];
    let mn = Infinity;
    for (let p = a; p < b; p++) {
      mark[c.col[p]] = i;
      const z = Z[i * L + c.col[p]];
      if (z < mn) mn = z;
    }
    const o = ((i / f) | 0) * size, base = i * L;
    for (let j = 0; j < L; j++) {
      if (mark[j] === i) continue;
      const v = (Z[base + j] - mn) * inv;
      const q = o + ((j / f) | 0);
      if (out[q] !== out[q] || v > out[q]) out[q] = v;
    }
  }
  return { w: size, h: size, f, data: out };
}

function maxAbs(X, R, C, c0, c1) {
  let m = 0;
  for (let i = 0; i < R; i++) {
    for (let j = c0; j < c1; j++) {
      const v = Math.abs(X[i * C + j]);
      if (v > m) m = v;
    }
  }
  return m;
}

function render(which, opts) {
  const c = cur;
  const out = { images: {}, info: {} };
  const budget = opts.budget || 512;
  const transfer = [];
  const add = (name, img) => {
    out.images[name] = img;
    transfer.push(img.rgba.buffer);
  };
  if (which.includes('A') || which.includes('M')) {
    let vmax = 0;
    for (let p = 0; p < c.val.length; p++) if (c.val[p] > vmax) vmax = c.val[p];
    for (let q = 0; q < c.M.length; q++) if (c.M[q] > vmax) vmax = c.M[q];
    out.info.vmax = vmax;
    // Log scale: from the decade below the smallest positive entry of M (at least 10^-12).
    let mmin = Infinity;
    for (let q = 0; q < c.M.length; q++) if (c.M[q] > 0 && c.M[q] < mmin) mmin = c.M[q];
    const floor = Math.max(-12, Math.min(-1, Math.floor(Math.log10(Math.min(mmin, 0.1)))));
    out.info.logFloor = floor;
    const t = attentionScale(opts.scale, vmax, floor);
    const rows = new Int32Array(c.val.length);
    for (let i = 0; i < c.L; i++) for (let p = c.rowPtr[i]; p < c.rowPtr[i + 1]; p++) rows[p] = i;
    if (which.includes('A')) add('A', image(poolSparseMax(c.L, rows, c.col, c.val, budget, 0), VIRIDIS, t));
    if (which.includes('M')) add('M', image(poolDenseMax(c.M, c.L, c.L, budget), VIRIDIS, t));
    out.info.pool = poolGeometry(c.L, budget).f;
  }
  if (which.includes('err')) {
    const e = ratioErrors(c, opts.ref);
    let emax = 0;
    for (let p = 0; p < e.length; p++) emax = Math.max(emax, Math.abs(e[p]));
    out.info.errMax = emax;
    const eps = c.eps;
    add('err', image(poolSparseAbsMax(c.L, c, e, budget), DIVERGING, (v) => (v === v ? 0.5 + v / (2 * eps) : NaN)));
  }
  if (which.includes('zero')) {
    const lt = Math.log10(c.tau);
    const D = opts.zeroDecades || 3;
    const pooled = zeroRatioPooled(c, budget);
    let zmax = -Infinity;
    for (let q = 0; q < pooled.data.length; q++) if (pooled.data[q] > zmax) zmax = pooled.data[q];
    out.info.log10ZetaMax = zmax;
    add('zero', image(pooled, DIVERGING, (v) => {
      if (v !== v) return NaN;
      if (v <= lt) return 0.36 * Math.max(0, 1 - (lt - v) / D);
      return 0.72 + 0.28 * Math.min(1, v - lt);
    }));
  }
  if (which.includes('X')) {
    const C = 2 * c.d;
    const m1 = maxAbs(c.X, c.L, C, 0, c.d) || 1, m2 = maxAbs(c.X, c.L, C, c.d, C) || 1;
    out.info.xmax = [m1, m2];
    const br = opts.xRows || budget, bc = opts.xCols || Math.max(16, Math.floor(budget / 2));
    const p1 = poolDenseAbsMax(c.X, c.L, C, br, bc, 0, c.d);
    const p2 = poolDenseAbsMax(c.X, c.L, C, br, bc, c.d, C);
    add('XB', image(p1, DIVERGING, (v) => 0.5 + v / (2 * m1)));
    add('XP', image(p2, DIVERGING, (v) => 0.5 + v / (2 * m2)));
  }
  return { out, transfer };
}

function rowSlice(i) {
  const c = cur;
  const L = c.L;
  const a = c.rowPtr[i], b = c.rowPtr[i + 1];
  const cols = Array.from(c.col.subarray(a, b));
  const avals = Array.from(c.val.subarray(a, b));
  const M = c.M.slice(i * L, (i + 1) * L);
  const Z = c.Z.slice(i * L, (i + 1) * L);
  let leaked = 0, zmin = Infinity, zoff = -Infinity;
  const on = new Set(cols);
  for (const j of cols) zmin = Math.min(zmin, Z[j]);
  for (let j = 0; j < L; j++) {
    if (on.has(j)) continue;
    leaked += M[j];
    if (Z[j] > zoff) zoff = Z[j];
  }
  let emin = Infinity, emax = -Infinity;
  cols.forEach((j, t) => {
    const e = Z[j] - Math.log(avals[t]);
    emin = Math.min(emin, e);
    emax = Math.max(emax, e);
  });
  return {
    i, cols, avals, M, Z, leaked,
    rho: emax - emin,
    zeta: cols.length === L ? 0 : Math.exp(zoff - zmin),
  };
}

self.onmessage = (ev) => {
  const m = ev.data;
  try {
    if (m.type === 'data') {
      const csr = toCSR(m.L, m.A.rows, m.A.cols, m.A.vals);
      cur = { id: m.id, L: m.L, d: m.d, ...csr, M: m.M, Z: m.logits, X: m.X, eps: m.eps, tau: m.tau };
      self.postMessage({ type: 'ready', id: m.id, req: m.req });
    } else if (m.type === 'render') {
      if (!cur || cur.id !== m.id) return self.postMessage({ type: 'stale', id: m.id, req: m.req });
      const { out, transfer } = render(m.which, m.opts);
      self.postMessage({ type: 'images', id: m.id, req: m.req, ...out }, transfer);
    } else if (m.type === 'row') {
      if (!cur || cur.id !== m.id || m.i < 0 || m.i >= cur.L) return self.postMessage({ type: 'stale', id: m.id, req: m.req });
      const r = rowSlice(m.i);
      self.postMessage({ type: 'row', id: m.id, req: m.req, row: r }, [r.M.buffer, r.Z.buffer]);
    }
  } catch (e) {
    self.postMessage({ type: 'error', id: m.id, req: m.req, message: String(e && e.message || e) });
  }
};
