// attnx lab: value-to-pixel scales and tick labels for the hand-written SVG plots (DOM-free). The
// axes' ranges and tick values are the core's (core.lengthAxis, dAxis, successAxes, ...).

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
