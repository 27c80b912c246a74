// attnx lab: axis scales and tick positions for the hand-written SVG plots (DOM-free).

// "Nice" step for about `count` intervals over a span: 1, 2, 2.5 or 5 times a power of ten.
// Returns 1 for an empty or non-finite span.
export function niceStep(span, count = 5) {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const r = raw / mag;
  const m = r <= 1 ? 1 : r <= 2 ? 2 : r <= 2.5 ? 2.5 : r <= 5 ? 5 : 10;
  return m * mag;
}

// Linear ticks covering [lo, hi]: returns { lo, hi, step, ticks } with lo/hi extended to multiples
// of the step (so the frame ends on a labelled tick).
export function linearTicks(lo, hi, count = 5) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) { lo = 0; hi = 1; }
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) { hi = lo + 1; }
  const step = niceStep(hi - lo, count);
  const a = Math.floor(lo / step + 1e-9) * step;
  const b = Math.ceil(hi / step - 1e-9) * step;
  const ticks = [];
  const n = Math.round((b - a) / step);
  for (let i = 0; i <= n; i++) ticks.push(+(a + i * step).toPrecision(12));
  return { lo: a, hi: b, step, ticks };
}

const isPow2 = (v) => Number.isInteger(v) && v > 0 && (v & (v - 1)) === 0;

// Ticks for a logarithmic L axis over [lo, hi] (lo > 0; bad bounds are repaired). When every L of
// the grid is a power of two the ticks are the powers of two in range (thinned to at most
// maxTicks); otherwise 1-2-5 decades (thinned to powers of ten and 1s). Returns ascending values.
export function logTicks(lo, hi, Ls = [], maxTicks = 9) {
  if (!(lo > 0)) lo = 1;
  if (!(hi > lo)) hi = lo * 2;
  let ticks;
  if (Ls.length && Ls.every(isPow2)) {
    ticks = [];
    for (let e = Math.ceil(Math.log2(lo) - 1e-9); 2 ** e <= hi * (1 + 1e-9); e++) ticks.push(2 ** e);
    let stride = 1;
    while (ticks.length / stride > maxTicks) stride++;
    if (stride > 1) ticks = ticks.filter((_, i) => i % stride === 0);
  } else {
    const all = [];
    for (let e = Math.floor(Math.log10(lo)) - 1; 10 ** e <= hi * 10; e++) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** e;
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) all.push(+v.toPrecision(12));
      }
    }
    ticks = all;
    if (ticks.length > maxTicks) ticks = ticks.filter((v) => Number.isInteger(Math.log10(v) + 1e-12) || /^1/.test(String(v)));
    if (ticks.length < 2) ticks = [lo, hi];
  }
  return ticks;
}

// Maps the value range [d0, d1] to the pixel range [r0, r1] (log: through the natural logarithm;
// d0, d1 > 0 then). Returns a function value -> pixel with .invert(pixel) -> value, .domain, .range.
export function makeScale(d0, d1, r0, r1, log = false) {
  const f = log ? Math.log : (v) => v;
  const a = f(d0), b = f(d1);
  const k = b === a ? 0 : (r1 - r0) / (b - a);
  const s = (v) => r0 + (f(v) - a) * k;
  s.invert = (px) => {
    const t = a + (px - r0) / (k || 1);
    return log ? Math.exp(t) : t;
  };
  s.domain = [d0, d1];
  s.range = [r0, r1];
  return s;
}

// Tick label text: integers as they are ("1024"; "16k" for multiples of 1000 from 10000 on when
// compact), other values to 4 significant digits.
export function formatTick(v, compact = false) {
  if (compact && v >= 10000 && v % 1000 === 0) return `${v / 1000}k`;
  if (Number.isInteger(v)) return String(v);
  return String(+v.toPrecision(4));
}
