// attnx explorer: render worker. Holds the current construction (the core's pooled images, the
// core's per-row report and, when the page asked the core for them, the dense M, logits Z and
// inputs X), transferred from the page, and turns them into RGBA images and row slices, so the
// page never loops over L^2 values on the main thread. Without the dense M and Z (construct's
// views.dense false: what a drag asks for), a row is answered { missing: true } and an image the
// core did not pool at these budgets is left out with info.stale set: the page computes again.
//
// Protocol (see render-client.js): { type: 'data', id, ..., views?, render? } -> 'ready' (or
// 'images' when render { which, opts } is given); { type: 'render', id,
// which, opts } -> 'images'; { type: 'row', id, i } -> 'row' (missing: true when M was left out);
// a request for an older id -> 'stale';
// failures -> 'error' with the message.
import { VIRIDIS } from '../common/viridis.js';
import { DIVERGING } from '../common/diverging.js';
import { poolGeometry, poolSparseMax, poolDenseMax, poolDenseAbsMax, colourise, attentionScale, linearScale, splitScale } from '../common/raster.js';
import { toRecord, poolSparseAbsMax, zeroRatioPooled, maxAbs, rowSlice } from './render-data.js';

const ZERO_DECADES = 3;  // the zero-ratio colour scale spans tau / 10^3 .. 10 tau

let cur = null;  // toRecord(...) of the current construction

function image(pooled, lut, t) {
  return { w: pooled.w, h: pooled.h, rgba: colourise(pooled.data, lut, t) };
}

// The core's pooled images (construct's `views`) when they were made for these pixel budgets.
function pooledFor(c, key, budgetR, budgetC = budgetR) {
  const v = c.views;
  if (!v) return null;
  const ok = key === 'XB' || key === 'XP' ? v.xRows === budgetR && v.xCols === budgetC : v.size === budgetR;
  return ok ? v[key] : null;
}

// A and M on one scale (linear, or log from the decade below the smallest positive M_ij). M's
// extremes come from the core when it pooled M (at any budget), its image when it pooled M at this
// budget; else both from the dense M, and without it (views.dense false) M's image is left out
// and info.stale set.
function attention(c, which, opts, add, info) {
  let vmax = 0, mmin = Infinity;
  for (let p = 0; p < c.val.length; p++) if (c.val[p] > vmax) vmax = c.val[p];
  if (c.views) {
    vmax = Math.max(vmax, c.views.mMax);
    mmin = c.views.mMinPositive;
  } else {
    for (let q = 0; q < c.M.length; q++) {
      const v = c.M[q];
      if (v > vmax) vmax = v;
      if (v > 0 && v < mmin) mmin = v;
    }
  }
  const floor = Math.max(-12, Math.min(-1, Math.floor(Math.log10(Math.min(mmin, 0.1)))));
  Object.assign(info, { vmax, logFloor: floor, pool: poolGeometry(c.L, opts.budget).f });
  const t = attentionScale(opts.scale, vmax, floor);
  // A's image depends on A, the scale and the budget only: not made again when the page has it.
  info.aKey = `${c.aHash}|${c.L}|${opts.scale}|${vmax}|${floor}|${opts.budget}`;
  if (which.includes('A') && info.aKey !== opts.haveA) {
    const rows = new Int32Array(c.val.length);
    for (let i = 0; i < c.L; i++) rows.fill(i, c.rowPtr[i], c.rowPtr[i + 1]);
    add('A', image(poolSparseMax(c.L, rows, c.col, c.val, opts.budget, 0), VIRIDIS, t));
  }
  if (!which.includes('M')) return;
  const pooledM = pooledFor(c, 'M', opts.budget) || (c.M.length ? poolDenseMax(c.M, c.L, c.L, opts.budget) : null);
  if (pooledM) add('M', image(pooledM, VIRIDIS, t));
  else info.stale = true;
}

// The core's ratio errors (relative to the row mean or minimum), coloured on [-eps, eps].
function ratioError(c, opts, add, info) {
  const e = opts.ref === 'min' ? c.errMin : c.errMean;
  let emax = 0;
  for (let p = 0; p < e.length; p++) emax = Math.max(emax, Math.abs(e[p]));
  info.errMax = emax;
  add('err', image(poolSparseAbsMax(c, e, opts.budget), DIVERGING, linearScale(0.5, 2 * c.eps)));
}

// log10 of the zero ratio: purple up to tau (fading over ZERO_DECADES below it), orange above.
function zeroRatio(c, opts, add, info) {
  const lt = Math.log10(c.tau);
  const pooled = pooledFor(c, 'zero', opts.budget) || (c.Z.length ? zeroRatioPooled(c, opts.budget) : null);
  if (!pooled) {
    info.stale = true;
    return;
  }
  let zmax = -Infinity;
  for (let q = 0; q < pooled.data.length; q++) if (pooled.data[q] > zmax) zmax = pooled.data[q];
  info.log10ZetaMax = zmax;
  add('zero', image(pooled, DIVERGING, splitScale(lt, ZERO_DECADES, 0.36, 0.72, 0.28)));
}

// The two halves of X, each on its own symmetric scale: the core's pooled halves when made for
// these budgets, else pooled here from X. Without either (X left out of the result and the
// budgets changed) no image is made and info.stale is set (the page then computes again).
function inputs(c, opts, add, info) {
  const C = 2 * c.d;
  const br = opts.xRows || opts.budget, bc = opts.xCols || Math.max(16, Math.floor(opts.budget / 2));
  let pb = pooledFor(c, 'XB', br, bc), pp = pooledFor(c, 'XP', br, bc);
  if (!pb && c.X.length === c.L * C) {
    // Each pooled cell keeps its largest |value|, so the largest |pooled| is the half's largest |X_ij|.
    pb = poolDenseAbsMax(c.X, c.L, C, br, bc, 0, c.d);
    pp = poolDenseAbsMax(c.X, c.L, C, br, bc, c.d, C);
  }
  if (!pb) {
    info.stale = true;
    return;
  }
  const fromCore = pb === pooledFor(c, 'XB', br, bc);
  const m1 = (fromCore ? c.views.xbMax : maxAbs(pb.data, 1, pb.data.length, 0, pb.data.length)) || 1;
  const m2 = (fromCore ? c.views.xpMax : maxAbs(pp.data, 1, pp.data.length, 0, pp.data.length)) || 1;
  info.xmax = [m1, m2];
  add('XB', image(pb, DIVERGING, linearScale(0.5, 2 * m1)));
  add('XP', image(pp, DIVERGING, linearScale(0.5, 2 * m2)));
}

// Images `which` ('A', 'M', 'err', 'zero', 'X') of the current record with opts { scale, ref,
// budget, xRows, xCols, haveA }; A is left out when its key (info.aKey) equals haveA (the page
// shows that image already). Returns { out: { images, info }, transfer: [buffers] }; info.poolMs
// is the time spent here.
function render(which, opts) {
  const t0 = performance.now();
  const o = { ...opts, budget: opts.budget || 512 };
  const out = { images: {}, info: {} };
  const transfer = [];
  const add = (name, img) => {
    out.images[name] = img;
    transfer.push(img.rgba.buffer);
  };
  if (which.includes('A') || which.includes('M')) attention(cur, which, o, add, out.info);
  if (which.includes('err')) ratioError(cur, o, add, out.info);
  if (which.includes('zero')) zeroRatio(cur, o, add, out.info);
  if (which.includes('X')) inputs(cur, o, add, out.info);
  out.info.poolMs = performance.now() - t0;
  return { out, transfer };
}

function handle(m) {
  if (m.type === 'data') {
    cur = toRecord(m);
    if (!m.render) return self.postMessage({ type: 'ready', id: m.id, req: m.req });
    const { out, transfer } = render(m.render.which, m.render.opts);  // same trip: no second hop
    return self.postMessage({ type: 'images', id: m.id, req: m.req, ...out }, transfer);
  }
  if (!cur || cur.id !== m.id) return self.postMessage({ type: 'stale', id: m.id, req: m.req });
  if (m.type === 'render') {
    const { out, transfer } = render(m.which, m.opts);
    self.postMessage({ type: 'images', id: m.id, req: m.req, ...out }, transfer);
  } else if (m.type === 'row') {
    if (!(m.i >= 0 && m.i < cur.L)) return self.postMessage({ type: 'stale', id: m.id, req: m.req });
    if (cur.M.length === 0) return self.postMessage({ type: 'row', id: m.id, req: m.req, row: null, missing: true });
    const r = rowSlice(cur, m.i);
    self.postMessage({ type: 'row', id: m.id, req: m.req, row: r }, [r.M.buffer, r.Z.buffer]);
  }
}

self.onmessage = (ev) => {
  try {
    handle(ev.data);
  } catch (e) {
    self.postMessage({ type: 'error', id: ev.data.id, req: ev.data.req, message: String((e && e.message) || e) });
  }
};
