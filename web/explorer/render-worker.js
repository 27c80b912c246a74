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
//
// With opts.view (a zoom window { i0, i1, j0, j1 }, view-window.js) the heatmaps show that window
// (window-pool.js: A and the ratio errors from the sparse entries, M and the zero ratio from
// max-pooled pyramids of the dense M and logits, made once per construction); each image carries
// its region. Without the dense matrices M and the zero ratio are cut from the core's pooled
// images of the whole matrix (coarser) and info.coarse is set: the page computes them again.
import { VIRIDIS } from '../common/viridis.js';
import { DIVERGING } from '../common/diverging.js';
import { poolGeometry, poolSparseMax, poolDenseMax, poolDenseAbsMax, colourise, attentionScale, linearScale, splitScale } from '../common/raster.js';
import { toRecord, poolSparseAbsMax, zeroRatioPooled, maxAbs, rowSlice } from './render-data.js';
import { windowRegion, MaxPyramid, poolSource, zeroStrip, zeroHalved, poolSparseRegion, cropPooled } from './window-pool.js';

const ZERO_DECADES = 3;  // the zero-ratio colour scale spans tau / 10^3 .. 10 tau

let cur = null;  // toRecord(...) of the current construction

// An image of pooled values; region (optional): the part of the matrix it shows (window-pool.js).
function image(pooled, lut, t, region = null) {
  return { w: pooled.w, h: pooled.h, rgba: colourise(pooled.data, lut, t), region };
}

// The dense maps' pyramids of record c (made on first use; null without the dense matrices).
function pyramids(c) {
  if (!c.M.length || !c.Z.length) return null;
  if (!c.pyramids) c.pyramids = { M: new MaxPyramid(c.L, { level0: c.M }), zero: new MaxPyramid(c.L, { level1: () => zeroHalved(c) }) };
  return c.pyramids;
}

// Window `view` of map key ('M' or 'zero') of record c at opts.budget: { pooled, region }, from the
// pyramid, else cut from the core's pooled image of the whole matrix (info.coarse), else null.
function windowed(c, key, view, opts, info) {
  const p = pyramids(c);
  if (p) {
    const g = windowRegion(view, c.L, opts.budget);
    return { pooled: poolSource(p[key].source(g, (r) => zeroStrip(c, r)), g), region: g };
  }
  const whole = c.views && c.views[key];
  if (!whole) return null;
  info.coarse = true;
  const cut = cropPooled(whole, view, c.L);
  return { pooled: cut.pooled, region: cut.region };
}

// The pool factors of an image (for the legends): [fr, fc].
const factors = (pooled) => [pooled.fr || pooled.f, pooled.fc || pooled.f];

// The core's pooled images (construct's `views`) when they were made for these pixel budgets.
function pooledFor(c, key, budgetR, budgetC = budgetR) {
  const v = c.views;
  if (!v) return null;
  const ok = key === 'XB' || key === 'XP' ? v.xRows === budgetR && v.xCols === budgetC : v.size === budgetR;
  return ok ? v[key] : null;
}

// The colour scale of A and M (linear, or log from the decade below the smallest positive M_ij):
// { vmax, floor }, of the whole matrix whatever the window. M's extremes come from the core when
// it pooled M (at any budget), else from the dense M.
function attentionRange(c) {
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
  return { vmax, floor: Math.max(-12, Math.min(-1, Math.floor(Math.log10(Math.min(mmin, 0.1))))) };
}

// A and M on one scale (attentionRange): of the whole matrix, or of window opts.view. M's image is
// the core's when it pooled M at this budget; else it is pooled here from the dense M, and without
// it (views.dense false) it is left out and info.stale set (a window: cut, see windowed).
function attention(c, which, opts, add, info) {
  const { vmax, floor } = attentionRange(c);
  const g = opts.view ? windowRegion(opts.view, c.L, opts.budget) : null;
  const f = poolGeometry(c.L, opts.budget).f;
  Object.assign(info, { vmax, logFloor: floor, pool: g ? [g.fr, g.fc] : [f, f] });
  const t = attentionScale(opts.scale, vmax, floor);
  // A's image depends on A, the scale, the budget and the window only: not made again when the page has it.
  info.aKey = `${c.aHash}|${c.L}|${opts.scale}|${vmax}|${floor}|${opts.budget}|${g ? [g.i0, g.i1, g.j0, g.j1] : ''}`;
  if (which.includes('A') && info.aKey !== opts.haveA) {
    if (g) add('A', image(poolSparseRegion(c, c.val, g, { empty: 0 }), VIRIDIS, t, g));
    else {
      const rows = new Int32Array(c.val.length);
      for (let i = 0; i < c.L; i++) rows.fill(i, c.rowPtr[i], c.rowPtr[i + 1]);
      add('A', image(poolSparseMax(c.L, rows, c.col, c.val, opts.budget, 0), VIRIDIS, t));
    }
  }
  if (!which.includes('M')) return;
  if (g) {
    const m = windowed(c, 'M', opts.view, opts, info);
    if (m) {
      add('M', image(m.pooled, VIRIDIS, t, m.region));
      info.pool = factors(m.pooled);
    } else info.stale = true;
    return;
  }
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
  const t = linearScale(0.5, 2 * c.eps);
  if (!opts.view) return add('err', image(poolSparseAbsMax(c, e, opts.budget), DIVERGING, t));
  const g = windowRegion(opts.view, c.L, opts.budget);
  add('err', image(poolSparseRegion(c, e, g, { abs: true }), DIVERGING, t, g));
}

// log10 of the zero ratio: purple up to tau (fading over ZERO_DECADES below it), orange above.
function zeroRatio(c, opts, add, info) {
  const lt = Math.log10(c.tau);
  const win = opts.view ? windowed(c, 'zero', opts.view, opts, info) : null;
  const pooled = win ? win.pooled : opts.view ? null : pooledFor(c, 'zero', opts.budget) || (c.Z.length ? zeroRatioPooled(c, opts.budget) : null);
  if (!pooled) {
    info.stale = true;
    return;
  }
  let zmax = -Infinity;
  for (let q = 0; q < pooled.data.length; q++) if (pooled.data[q] > zmax) zmax = pooled.data[q];
  info.log10ZetaMax = zmax;
  add('zero', image(pooled, DIVERGING, splitScale(lt, ZERO_DECADES, 0.36, 0.72, 0.28), win ? win.region : null));
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
// budget, xRows, xCols, haveA, view }; A is left out when its key (info.aKey) equals haveA (the
// page shows that image already); view (optional): the heatmaps' zoom window. Returns { out:
// { images, info }, transfer: [buffers] }; info.poolMs is the time spent here.
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
