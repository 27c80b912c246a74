// attnx lab: the sentences under the plots (DOM-free).

const r3 = (v) => v.toFixed(3);
const r2 = (v) => v.toFixed(2);

// What the fits say, in one or two sentences. fits: the core's { log, power } (or null); points:
// the result's points (their quantiles tell how many lengths the fits could use). Returns text.
export function fitSentence(fits, points) {
  const usable = points.filter((p) => p.quantile !== null && p.quantile > 0).length;
  if (!fits || !fits.log.ok || !fits.power.ok) {
    if (!points.length) return 'The fits appear once the (1−δ)-quantile is known at two or more lengths.';
    return `The fits need the (1−δ)-quantile at two or more lengths (${usable} so far${usable < points.length ? '; some lengths did not reach it within d_max' : ''}).`;
  }
  const { log, power } = fits;
  const sgn = (v) => (v < 0 ? `−${Math.abs(v)}` : String(v));
  const b = Math.round(log.b);
  let s = `Logarithmic fit d = ${sgn(Math.round(log.a))} ${b < 0 ? '−' : '+'} ${Math.abs(b)}·ln L: R² ${r3(log.r2)} · power fit d = ${Math.round(power.c)}·L^p with p = ${r2(power.p)}: R² ${r3(power.r2)}.`;
  const perDoubling = log.b * Math.LN2;
  if (power.p <= 0.05) s += ' d barely changes with L over this range.';
  else if (power.p < 0.35 && log.r2 >= power.r2 - 0.02) s += ` The logarithmic fit is at least as good and the power exponent is small: consistent with d = O(log L) (each doubling of L adds about ${Math.round(perDoubling)} to d).`;
  else if (power.p < 0.35) s += ` The power fit is somewhat better, but its exponent is small: d grows far more slowly than L (each doubling of L adds about ${Math.round(perDoubling)} to d).`;
  else if (power.r2 > log.r2 + 0.02) s += ' The power law fits better with a sizeable exponent: over this range d grows faster than logarithmically.';
  else s += ' Both fit about equally well; the exponent is not small, so the data do not single out logarithmic growth.';
  if (usable < 4) s += ` With only ${usable} lengths the fits are rough.`;
  return s;
}

// The paper comparison: the reported band (schema.presets.paper.band: { lo, hi, text }) beside the
// measured medians of the lengths "in the hundreds" (64 to 1024). Returns text.
export function paperSentence(points, band) {
  const inHundreds = points.filter((p) => p.L >= 64 && p.L <= 1024 && p.median !== null);
  if (!inHundreds.length) return `The paper reports: ${band.text}.`;
  const meds = inHundreds.map((p) => p.median);
  const lo = meds.reduce((a, b) => Math.min(a, b), Infinity), hi = meds.reduce((a, b) => Math.max(a, b), -Infinity);
  const inside = meds.filter((v) => v >= band.lo && v <= band.hi).length;
  const where = inside === meds.length ? 'all inside the band'
    : inside === 0 ? 'outside the band'
      : `${inside} of ${meds.length} inside the band`;
  return `The paper reports: ${band.text}. Measured here: median d_min ${Math.round(lo)}${hi !== lo ? `–${Math.round(hi)}` : ''} for L = ${inHundreds[0].L}…${inHundreds[inHundreds.length - 1].L} (${where}).`;
}

// A duration in seconds as "1 min 05 s", "12 s", "0.8 s" ("—" when not a finite number >= 0).
export function formatDuration(sec) {
  if (!Number.isFinite(sec) || sec < 0) return '—';
  if (sec < 10) return `${sec.toFixed(1)} s`;
  if (sec < 60) return `${Math.round(sec)} s`;
  const m = Math.floor(sec / 60), s = Math.round(sec % 60);
  return `${m} min ${String(s).padStart(2, '0')} s`;
}
