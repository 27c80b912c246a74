// attnx explorer: a zoom window (view-window.js) pooled for the screen, from the core's numbers the
// page holds: the dense M and logits (through a pyramid of max-pooled levels, so a window change
// at the pages' largest L reads about a screen's worth of values), the sparse A and ratio errors, or,
// while the dense matrices have not arrived, the core's pooled image of the whole matrix. Used by
// the render worker and the imported head's figure. DOM-free.
//
// A region is what a window is drawn as: { i0, i1, j0, j1, fr, fc, h, w } (rows i0..i1-1 and
// columns j0..j1-1 in h x w pixels of fr x fc cells). Along an axis whose span fits in the pixel
// budget every cell is one pixel (f = 1: exactly the window, each value exact); a longer span is
// max-pooled by f, the smallest power of two with span / f <= budget, and its ends move out to
// multiples of f (each pixel is then one cell of the pyramid's level log2 f: at most budget + 1
// pixels). Pooling keeps a cell's largest value (NaN skipped; NaN when it holds no number), as the
// core's pool_views does for the whole matrix.

// The region window w ({ i0, i1, j0, j1 }) of an L x L matrix is drawn as in `budget` pixels.
export function windowRegion(w, L, budget) {
  const axis = (a, b) => {
    if (b - a <= budget) return { a, b, f: 1 };
    let f = 2;
    while ((b - a) / f > budget) f *= 2;
    return { a: Math.floor(a / f) * f, b: Math.min(L, Math.ceil(b / f) * f), f };
  };
  const r = axis(w.i0, w.i1), c = axis(w.j0, w.j1);
  return { i0: r.a, i1: r.b, j0: c.a, j1: c.b, fr: r.f, fc: c.f, h: Math.ceil((r.b - r.a) / r.f), w: Math.ceil((c.b - c.a) / c.f) };
}

// The larger of a and b, NaN skipped (NaN only when both are).
const max2 = (a, b) => (b > a || a !== a ? b : a);

// The n x n map src max-pooled by 2 x 2 (NaN skipped; NaN where all four are): ceil(n/2) squared.
// Two rows at a time into one output row (pairmax), a ragged last row or column alone.
export function halve(src, n) {
  const m = Math.ceil(n / 2);
  const out = new Float32Array(m * m);
  for (let y = 0; y < m; y++) {
    const a = 2 * y * n, b = 2 * y + 1 < n ? a + n : a;  // an odd last row pairs with itself
    pairmax(src, a, b, n, out, y * m);
  }
  return out;
}

// out[o + x] = the largest of rows a and b's entries 2x and 2x + 1 (x < ceil(n / 2); NaN skipped).
// Math.max, which does not branch, first; only a NaN (rare) takes the careful way.
function pairmax(src, a, b, n, out, o) {
  const pairs = n >> 1;
  for (let x = 0; x < pairs; x++) {
    const p = 2 * x, v = Math.max(src[a + p], src[a + p + 1], src[b + p], src[b + p + 1]);
    out[o + x] = v === v ? v : max2(max2(src[a + p], src[a + p + 1]), max2(src[b + p], src[b + p + 1]));
  }
  if (n & 1) out[o + pairs] = max2(src[a + n - 1], src[b + n - 1]);
}

/**
 * Max-pooled levels of a dense L x L map: level k holds the largest value of each aligned
 * 2^k x 2^k block (ceil(L / 2^k) squared). level0: the map itself (Float32Array, row-major), or
 * null when it is not kept (the zero ratio: its values are mapped from the logits on demand);
 * level1(): makes level 1 (first use only). Levels are made on first use, each from the one below.
 */
export class MaxPyramid {
  constructor(L, { level0 = null, level1 = null } = {}) {
    this.L = L;
    this.levels = [level0];
    this.level1 = level1 || (() => halve(level0, L));
  }

  // { n, data } of level k >= 1.
  level(k) {
    while (this.levels.length <= k) {
      const j = this.levels.length;
      this.levels.push(j === 1 ? this.level1() : halve(this.levels[j - 1], Math.ceil(this.L / 2 ** (j - 1))));
    }
    return { n: Math.ceil(this.L / 2 ** k), data: this.levels[k] };
  }

  // The pyramid's source for region g: the level whose blocks are min(fr, fc) cells, as
  // { data, stride, r0, c0, rows, cols, s } (see poolSource). At level 0 without a kept map,
  // strip(g) gives the region's own values.
  source(g, strip = null) {
    const s = Math.min(g.fr, g.fc), k = Math.log2(s);
    if (k === 0 && !this.levels[0]) return { data: strip(g), stride: g.j1 - g.j0, r0: g.i0, c0: g.j0, rows: g.i1, cols: g.j1, s: 1 };
    const { n, data } = k === 0 ? { n: this.L, data: this.levels[0] } : this.level(k);
    return { data, stride: n, r0: 0, c0: 0, rows: n, cols: n, s };
  }
}

/**
 * Region g's pixels (Float32Array h x w) from a source: blocks of s x s cells, block (r, c) at
 * data[(r - r0) * stride + c - c0] for r < rows and c < cols. Each pixel is the largest of its
 * (fr / s) x (fc / s) blocks.
 */
export function poolSource(src, g) {
  const ry = g.fr / src.s, rx = g.fc / src.s;
  const y0 = g.i0 / src.s, x0 = g.j0 / src.s;
  const out = new Float32Array(g.w * g.h).fill(NaN);
  for (let y = 0; y < g.h; y++) {
    const o = y * g.w;
    const r1 = Math.min(src.rows, y0 + (y + 1) * ry);
    for (let r = y0 + y * ry; r < r1; r++) {
      const base = (r - src.r0) * src.stride - src.c0;
      if (rx === 1) {
        if (ry === 1) out.set(src.data.subarray(base + x0, base + x0 + g.w), o);
        else maxInto(out, o, src.data, base + x0, g.w);
        continue;
      }
      for (let x = 0; x < g.w; x++) {
        const c0 = x0 + x * rx, c1 = Math.min(src.cols, c0 + rx);
        let m = out[o + x];
        for (let c = c0; c < c1; c++) {
          const v = src.data[base + c];
          if (v > m || (m !== m && v === v)) m = v;
        }
        out[o + x] = m;
      }
    }
  }
  return { w: g.w, h: g.h, fr: g.fr, fc: g.fc, data: out };
}

// out[o + x] = max(out[o + x], data[p + x]) for x < n (NaN skipped).
function maxInto(out, o, data, p, n) {
  for (let x = 0; x < n; x++) {
    const v = data[p + x], m = out[o + x];
    if (v > m || (m !== m && v === v)) out[o + x] = v;
  }
}

// The zero ratio's value of row i's logits Z_i (record c of render-data.js): (Z_ij - min_{S_i} Z)
// / ln 10 off the support and NaN on it, for columns j0..j1-1, into out at o.
function zeroRow(c, i, j0, j1, mark, out, o) {
  const L = c.L, zmin = c.rows.supportMinLogit[i], base = i * L;
  for (let p = c.rowPtr[i]; p < c.rowPtr[i + 1]; p++) mark[c.col[p]] = i;
  for (let j = j0; j < j1; j++) out[o + j - j0] = mark[j] === i ? NaN : (c.Z[base + j] - zmin) / Math.LN10;
}

// Region g's zero-ratio values, one per cell (a region of f = 1 on some axis).
export function zeroStrip(c, g) {
  const wd = g.j1 - g.j0;
  const out = new Float32Array((g.i1 - g.i0) * wd);
  const mark = new Int32Array(c.L).fill(-1);
  for (let i = g.i0; i < g.i1; i++) zeroRow(c, i, g.j0, g.j1, mark, out, (i - g.i0) * wd);
  return out;
}

/**
 * The zero ratio's level 1 (2 x 2 blocks of zeroStrip's values over the whole matrix). The map
 * x -> (x - min_{S_i} Z) / ln 10 does not decrease, so each row's pairs take the largest logit
 * first and map it once: the pairs holding a support entry are taken again without it.
 */
export function zeroHalved(c) {
  const L = c.L, m = Math.ceil(L / 2);
  const out = new Float32Array(m * m);
  const top = [new Float64Array(m), new Float64Array(m)];
  for (let y = 0; y < m; y++) {
    for (let r = 0; r < 2; r++) {
      const i = Math.min(L - 1, 2 * y + r);
      zeroPairs(c, i, top[r], m);
    }
    for (let x = 0; x < m; x++) {
      const a = top[0][x], b = top[1][x], v = Math.max(a, b);
      out[y * m + x] = v === v ? v : max2(a, b);
    }
  }
  return out;
}

// top[x] = the zero ratio's value of row i's larger entry of columns 2x, 2x + 1 off the support
// (NaN: both on it, or NaN).
function zeroPairs(c, i, top, m) {
  const L = c.L, base = i * L, Z = c.Z, zmin = c.rows.supportMinLogit[i];
  const pairs = L >> 1;
  for (let x = 0; x < pairs; x++) {
    const a = Z[base + 2 * x], b = Z[base + 2 * x + 1], v = Math.max(a, b);  // no branch unless NaN
    top[x] = ((v === v ? v : max2(a, b)) - zmin) / Math.LN10;
  }
  if (L & 1) top[pairs] = (Z[base + L - 1] - zmin) / Math.LN10;
  for (let p = c.rowPtr[i]; p < c.rowPtr[i + 1]; p++) {
    const x = c.col[p] >> 1;
    let v = NaN;
    for (let j = 2 * x; j < Math.min(L, 2 * x + 2); j++) if (!onRow(c, i, j)) v = max2(v, Z[base + j]);
    top[x] = (v - zmin) / Math.LN10;
  }
}

// Whether (i, j) is on A's support (row i's few entries scanned).
function onRow(c, i, j) {
  for (let p = c.rowPtr[i]; p < c.rowPtr[i + 1]; p++) if (c.col[p] === j) return true;
  return false;
}

/**
 * Region g of a sparse matrix in compressed rows (record c: rowPtr, col) with per-entry values:
 * each pixel the largest value (abs: the value of largest magnitude, sign kept; the first on a
 * tie) of its entries, `empty` where it has none.
 */
export function poolSparseRegion(c, values, g, { empty = NaN, abs = false } = {}) {
  const out = new Float32Array(g.w * g.h).fill(empty);
  const seen = new Uint8Array(g.w * g.h);
  for (let i = g.i0; i < g.i1; i++) {
    const o = ((i - g.i0) / g.fr | 0) * g.w;
    for (let p = c.rowPtr[i]; p < c.rowPtr[i + 1]; p++) {
      const j = c.col[p];
      if (j < g.j0 || j >= g.j1) continue;
      const q = o + ((j - g.j0) / g.fc | 0), v = values[p];
      if (!seen[q] || (abs ? Math.abs(v) > Math.abs(out[q]) : v > out[q])) out[q] = v;
      seen[q] = 1;
    }
  }
  return { w: g.w, h: g.h, fr: g.fr, fc: g.fc, data: out };
}

/**
 * Window w of an L x L matrix cut from a pooled image of the whole matrix ({ w, h, fr, fc, data }:
 * the core's pool_views), before the dense matrix is at hand: its region (the window's ends moved
 * out to the image's cells) and its pixels. Returns { region, pooled }.
 */
export function cropPooled(img, w, L) {
  const out = (a, b, f) => [Math.floor(a / f), Math.ceil(Math.min(L, b) / f)];
  const [y0, y1] = out(w.i0, w.i1, img.fr), [x0, x1] = out(w.j0, w.j1, img.fc);
  const g = { i0: y0 * img.fr, i1: Math.min(L, y1 * img.fr), j0: x0 * img.fc, j1: Math.min(L, x1 * img.fc), fr: img.fr, fc: img.fc, h: y1 - y0, w: x1 - x0 };
  const data = new Float32Array(g.w * g.h);
  for (let y = 0; y < g.h; y++) data.set(img.data.subarray((y0 + y) * img.w + x0, (y0 + y) * img.w + x1), y * g.w);
  return { region: g, pooled: { w: g.w, h: g.h, fr: g.fr, fc: g.fc, data } };
}

// Region g of a sparse matrix given as triplets (rows, cols, vals): each pixel the largest value
// of its entries, `empty` where it has none (a custom pattern's preview while it is drawn).
export function poolTripletsRegion(rows, cols, vals, g, empty = 0) {
  const out = new Float32Array(g.w * g.h).fill(empty);
  const seen = new Uint8Array(g.w * g.h);
  for (let t = 0; t < vals.length; t++) {
    const i = rows[t], j = cols[t];
    if (i < g.i0 || i >= g.i1 || j < g.j0 || j >= g.j1) continue;
    const q = ((i - g.i0) / g.fr | 0) * g.w + ((j - g.j0) / g.fc | 0);
    if (!seen[q] || vals[t] > out[q]) out[q] = vals[t];
    seen[q] = 1;
  }
  return { w: g.w, h: g.h, fr: g.fr, fc: g.fc, data: out };
}
