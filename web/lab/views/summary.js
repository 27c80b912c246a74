// attnx lab: the sentences under the plots (DOM-free): words around the core's readings of the
// fits and of the paper's band; nothing here decides what the numbers say.

const r3 = (v) => v.toFixed(3);
const r2 = (v) => v.toFixed(2);

const pct = (k, n) => `${Math.round((100 * k) / n)} %`;

// The sentence of the bootstrap verdict (the core's fit_verdict) with the shares of the resamples.
function bootstrapSentence(reading, comparison) {
  const { resamples: n, logWins, powerWins } = comparison;
  const shares = `the logarithmic fit has the higher R² in ${pct(logWins, n)} of ${n} bootstrap resamples of the trials, the power fit in ${pct(powerWins, n)}`;
  const { verdict, usable, perDoubling } = reading;
  if (verdict === 'too-few-lengths') return ` With ${plural(usable, 'length')} the two fits cannot be told apart (each has two parameters; ${shares}).`;
  if (verdict === 'undecided') return ` On these ${plural(usable, 'length')} the two fits cannot be told apart: ${shares}.`;
  if (verdict === 'log') return ` The logarithmic fit is the better one (${shares}): consistent with d = O(log L), each doubling of L adding about ${perDoubling} to d.`;
  if (reading.smallExponent) return ` The power fit is the better one (${shares}), but its exponent is small: d grows far more slowly than L.`;
  return ` The power law is the better fit with a sizeable exponent (${shares}): over this range d grows faster than logarithmically.`;
}

// The sentence of the core's single-sample reading (no bootstrap comparison: the R² of this sample).
function sampleSentence({ verdict, smallExponent, perDoubling, usable, rough }) {
  const s = {
    flat: ' d barely changes with L over this range.',
    log: ` The logarithmic fit is at least as good and the power exponent is small: consistent with d = O(log L) (each doubling of L adds about ${perDoubling} to d).`,
    power: smallExponent
      ? ` The power fit is somewhat better, but its exponent is small: d grows far more slowly than L (each doubling of L adds about ${perDoubling} to d).`
      : ' The power law fits better with a sizeable exponent: over this range d grows faster than logarithmically.',
    undecided: ' Both fit about equally well; the exponent is not small, so the data do not single out logarithmic growth.',
  }[verdict];
  return rough ? `${s} With only ${plural(usable, 'length')} the fits are rough.` : s;
}

// What the fits say, in two or three sentences. fits: the core's { log, power } (or null);
// reading: the core's reading of them (core.fitReading: its verdict, the bootstrap one when there
// is a comparison, else from this sample's R²); comparison: the core's bootstrap comparison (its
// shares are quoted) or null. Returns text. O(log L) is an upper bound: the text never says the
// quantile must lie on a logarithm.
export function fitSentence(fits, reading, comparison = null) {
  if (!reading.fitsOk) {
    if (!reading.lengths) return 'The fits appear once the (1−δ)-quantile is known at two or more lengths.';
    return `The fits need the (1−δ)-quantile at two or more lengths (${reading.usable} so far${reading.usable < reading.lengths ? '; some lengths did not reach it within d_max' : ''}).`;
  }
  const { log, power } = fits;
  const sgn = (v) => (v < 0 ? `−${Math.abs(v)}` : String(v));
  const b = Math.round(log.b);
  const s = `Logarithmic fit d = ${sgn(Math.round(log.a))} ${b < 0 ? '−' : '+'} ${Math.abs(b)}·ln L: R² ${r3(log.r2)} · power fit d = ${Math.round(power.c)}·L^p with p = ${r2(power.p)}: R² ${r3(power.r2)}.`;
  return s + (reading.basis === 'bootstrap' ? bootstrapSentence(reading, comparison) : sampleSentence(reading));
}

// The paper comparison: the reported band (schema.presets.paper.band: { text }) beside the core's
// reading of the measured medians of the lengths in the hundreds (core.bandReading: how many, the
// first and last L, the smallest and largest median, how many inside). Returns text.
export function paperSentence(reading, band) {
  if (!reading.lengths) return `The paper reports: ${band.text}.`;
  const { lengths: n, lo, hi, inside, firstL, lastL } = reading;
  const where = inside === n ? 'all inside the band' : inside === 0 ? 'outside the band' : `${inside} of ${n} inside the band`;
  return `The paper reports: ${band.text}. Measured here: median d_min ${Math.round(lo)}${hi !== lo ? `–${Math.round(hi)}` : ''} for L = ${span(firstL, lastL)} (${where}).`;
}

// Lengths from first to last: "64…512", or "64" when they are one.
export const span = (first, last) => (first === last ? String(first) : `${first}…${last}`);

// A count with its word: "1 length", "3 lengths".
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

// A duration in seconds as "1 min 05 s", "12 s", "0.8 s" ("—" when not a finite number >= 0).
export function formatDuration(sec) {
  if (!Number.isFinite(sec) || sec < 0) return '—';
  if (sec < 10) return `${sec.toFixed(1)} s`;
  if (sec < 60) return `${Math.round(sec)} s`;
  const m = Math.floor(sec / 60), s = Math.round(sec % 60);
  return `${m} min ${String(s).padStart(2, '0')} s`;
}
