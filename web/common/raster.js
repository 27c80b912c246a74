// attnx web: pure raster helpers shared by the views and the render worker. A matrix of R x C
// values is reduced to at most `budget` pixels per axis by MAX-pooling (so a single nonzero stays
// visible), then coloured through a 256-entry RGB lookup table into RGBA bytes for putImageData.

// Pool factor and output size for n data cells on one axis.
export function poolGeometry(n, budget = 512) {
  const f = Math.max(1, Math.ceil(n / budget));
  return { f, size: Math.ceil(n / f) };
}

// Sparse triplets -> pooled maximum (cells without entries hold `empty`).
export function poolSparseMax(L, rows, cols, vals, budget = 512, empty = -Infinity) {
  const { f, size } = poolGeometry(L, budget);
  const out = new Float32Array(size * size).fill(empty);
  for (let t = 0; t < vals.length; t++) {
    const p = ((rows[t] / f) | 0) * size + ((cols[t] / f) | 0);
    if (vals[t] > out[p] || out[p] !== out[p]) out[p] = vals[t];
  }
  return { w: size, h: size, f, data: out };
}

// Dense row-major R x C matrix -> pooled maximum of map(v, i, j) (map may return NaN = skip).
export function poolDenseMax(src, R, C, budgetR = 512, budgetC = budgetR, map = null, empty = NaN) {
  const gr = poolGeometry(R, budgetR), gc = poolGeometry(C, budgetC);
  const w = gc.size, h = gr.size;
  const out = new Float32Array(w * h).fill(empty);
  for (let i = 0; i < R; i++) {
    const o = ((i / gr.f) | 0) * w;
    const base = i * C;
    for (let j = 0; j < C; j++) {
      const v = map ? map(src[base + j], i, j) : src[base + j];
      if (v !== v) continue;
      const p = o + ((j / gc.f) | 0);
      const cur = out[p];
      if (cur !== cur || v > cur) out[p] = v;
    }
  }
  return { w, h, fr: gr.f, fc: gc.f, data: out };
}

// Dense signed matrix -> pooled value of largest magnitude (sign kept).
export function poolDenseAbsMax(src, R, C, budgetR = 512, budgetC = budgetR, colStart = 0, colEnd = C) {
  const gr = poolGeometry(R, budgetR), gc = poolGeometry(colEnd - colStart, budgetC);
  const w = gc.size, h = gr.size;
  const out = new Float32Array(w * h);
  for (let i = 0; i < R; i++) {
    const o = ((i / gr.f) | 0) * w;
    const base = i * C;
    for (let j = colStart; j < colEnd; j++) {
      const v = src[base + j];
      const p = o + (((j - colStart) / gc.f) | 0);
      if (Math.abs(v) > Math.abs(out[p])) out[p] = v;
    }
  }
  return { w, h, fr: gr.f, fc: gc.f, data: out };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const packedLuts = new WeakMap();

// The 256 RGB entries of lut as opaque RGBA pixels packed in 32-bit words (this machine's order).
function packedLut(lut) {
  let p = packedLuts.get(lut);
  if (!p) {
    p = new Uint32Array(256);
    for (let e = 0; e < 256; e++) {
      const [r, g, b] = [lut[3 * e], lut[3 * e + 1], lut[3 * e + 2]];
      p[e] = LITTLE_ENDIAN ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
    }
    packedLuts.set(lut, p);
  }
  return p;
}

// Values -> RGBA through a colour scale t: a function v -> position in [0, 1] (clamped) or NaN for
// a transparent pixel, or one of the scale objects below (linearScale, logScale), which give the
// same pixels as their function() without a call per pixel. One 32-bit write per pixel (the
// lookup table packed once per table).
export function colourise(data, lut, t) {
  const rgba = new Uint8ClampedArray(data.length * 4);
  const px = new Uint32Array(rgba.buffer);
  const words = packedLut(lut);
  if (typeof t === 'function') colouriseBy(data, words, px, t);
  else if (t.kind === 'linear') colouriseLinear(data, words, px, t);
  else if (t.kind === 'log') colouriseLog(data, words, px, t);
  else if (t.kind === 'split') colouriseSplit(data, words, px, t);
  else throw new TypeError(`unknown colour scale kind ${String(t.kind)}`);
  return rgba;
}

// Math.round(x * 255) for x in [0, 1] (the lookup-table entry), without V8's slower Math.round:
// (y + 0.5) | 0 is one too many only when the sum itself rounds up (y = 0.49999999999999994).
function lutIndex(x) {
  const y = x * 255;
  const k = (y + 0.5) | 0;
  return k - 0.5 > y ? k - 1 : k;
}

function colouriseBy(data, words, px, t) {
  for (let p = 0; p < data.length; p++) {
    let x = t(data[p]);
    if (x !== x) continue;  // transparent
    x = x < 0 ? 0 : x > 1 ? 1 : x;
    px[p] = words[lutIndex(x)];
  }
}

function colouriseLinear(data, words, px, { offset, div, nan }) {
  const nanWord = nan === nan ? words[lutIndex(nan < 0 ? 0 : nan > 1 ? 1 : nan)] : -1;
  for (let p = 0; p < data.length; p++) {
    let x = offset + data[p] / div;
    if (x !== x) {
      if (nanWord >= 0) px[p] = nanWord;
      continue;
    }
    x = x < 0 ? 0 : x > 1 ? 1 : x;
    px[p] = words[lutIndex(x)];
  }
}

// splitScale's positions, written out (no call per pixel).
function colouriseSplit(data, words, px, { at, lowSpan, lowTop, highBase, highRise }) {
  for (let p = 0; p < data.length; p++) {
    const v = data[p];
    if (v !== v) continue;  // transparent
    let x = v <= at ? lowTop * Math.max(0, 1 - (at - v) / lowSpan) : highBase + highRise * Math.min(1, v - at);
    if (x !== x) continue;  // a NaN position (inf - inf, 0 / 0): transparent, as the function's
    x = x < 0 ? 0 : x > 1 ? 1 : x;
    px[p] = words[lutIndex(x)];
  }
}

function colouriseLog(data, words, px, { floor }) {
  if (data instanceof Float32Array) return colouriseLogF32(data, words, px, floor);
  const zero = words[0];
  for (let p = 0; p < data.length; p++) {
    const v = data[p];
    if (!(v > 0)) {
      if (v === v) px[p] = zero;  // 0 and negatives at the bottom; NaN transparent
      continue;
    }
    px[p] = words[logIndex(v, floor)];
  }
}

// The lookup-table entry of v > 0 on the log scale from 10^floor to 1 (logScale's position).
function logIndex(v, floor) {
  let x = (Math.log10(v) - floor) / -floor;
  x = x < 0 ? 0 : x > 1 ? 1 : x;
  return lutIndex(x);
}

// colouriseLog for float32 values without a logarithm per pixel, with the same pixels: the entry
// of v > 0 only grows with v, and for positive floats so do their bit patterns, so it is the
// number of thresholds (bit patterns where the entry steps up) at or below v's bits. A table
// indexed by the top 16 bits gives the entry at the start of v's bucket; a bucket spans less
// than a step, so at most one more threshold is passed. Tables are kept per floor.
function colouriseLogF32(data, words, px, floor) {
  const { th, start } = logTables(floor);
  const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
  const zero = words[0];
  for (let p = 0; p < data.length; p++) {
    const v = data[p];
    if (!(v > 0)) {
      if (v === v) px[p] = zero;
      continue;
    }
    const b = bits[p];
    let k = start[b >>> 16];
    while (th[k + 1] <= b) k++;
    px[p] = words[k];
  }
}

const logTableCache = new Map();
const F32 = new Float32Array(1), U32 = new Uint32Array(F32.buffer);
const POS_INF_BITS = 0x7f800000;

// For one floor: th[k] (k = 1..255), the smallest positive float32 bit pattern whose entry is at
// least k (th[0] = 0, th[256] = 2^32 - 1, sentinels); start[h], the entry at bit pattern h << 16.
function logTables(floor) {
  let t = logTableCache.get(floor);
  if (t) return t;
  const entry = (b) => {
    U32[0] = b;
    return logIndex(F32[0], floor);
  };
  const th = new Float64Array(257);
  th[256] = 0xffffffff;
  for (let k = 1; k < 256; k++) {
    let lo = th[k - 1], hi = POS_INF_BITS;  // entry(hi) = 255 >= k
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (entry(mid) >= k) hi = mid;
      else lo = mid + 1;
    }
    th[k] = lo;
  }
  const start = new Uint8Array((POS_INF_BITS >>> 16) + 1);
  let k = 0;
  for (let h = 0; h < start.length; h++) {
    while (th[k + 1] <= h * 65536) k++;
    start[h] = k;
  }
  t = { th, start };
  logTableCache.set(floor, t);
  return t;
}

/**
 * Colour scale v -> offset + v / div for colourise; a NaN value (or a NaN position) is drawn at
 * position nan, or left transparent when nan is NaN. function() is the same scale as a function.
 */
export function linearScale(offset, div, nan = NaN) {
  return { kind: 'linear', offset, div, nan, function: () => (v) => { const x = offset + v / div; return x === x ? x : nan; } };
}

/**
 * Colour scale with a break at `at`: v <= at -> lowTop * max(0, 1 − (at − v) / lowSpan) (fading to
 * 0 over lowSpan below it), v > at -> highBase + highRise * min(1, v − at); NaN transparent.
 * function() is the same scale as a function.
 */
export function splitScale(at, lowSpan, lowTop, highBase, highRise) {
  const position = (v) => {
    if (v !== v) return NaN;
    if (v <= at) return lowTop * Math.max(0, 1 - (at - v) / lowSpan);
    return highBase + highRise * Math.min(1, v - at);
  };
  return { kind: 'split', at, lowSpan, lowTop, highBase, highRise, function: () => position };
}

/**
 * Colour scale v -> (log10 v − floor) / −floor for v > 0 (floor < 0), 0 for v ≤ 0, NaN
 * (transparent) for NaN. function() is the same scale as a function.
 */
export function logScale(floor) {
  return { kind: 'log', floor, function: () => (v) => (v > 0 ? (Math.log10(v) - floor) / -floor : v === v ? 0 : NaN) };
}

// Colour scale positions used for attention values (A and M share them).
export function attentionScale(kind, vmax, logFloor = -6) {
  if (kind === 'log') return logScale(logFloor);
  return linearScale(0, vmax > 0 ? vmax : 1, 0);
}
