// attnx lab: the sentences under the plots (DOM-free).

const r3 = (v) => v.toFixed(3);
const r2 = (v) => v.toFixed(2);

// Which fit the core's bootstrap comparison ({ resamples, logWins, powerWins, lengths, verdict }
// or null) favours: its verdict 'log', 'power', 'undecided' or 'too-few-lengths' (the core's rule,
// fit_verdict: a share of the resamples and a least number of lengths), or null without one.
export function fitVerdict(comparison) {
  return comparison && comparison.resamples ? comparison.verdict : null;
}

const pct = (k, n) => `${Math.round((100 * k) / n)} %`;

// What the fits say, in two or three sentences. fits: the core's { log, power } (or null);
// points: the result's points (their quantiles tell how many lengths the fits could use);
// comparison: the core's bootstrap comparison of the fits (or null: the wording then rests on
// the R² of this one sample). Returns text. O(log L) is an upper bound: the text never says the
// quantile must lie on a logarithm.
export function fitSentence(fits, points, comparison = null) {
  const usable = points.filter((p) => p.quantile !== null && p.quantile > 0).length;
  if (!fits || !fits.log.ok || !fits.power.ok) {
    if (!points.length) return 'The fits appear once the (1−δ)-quantile is known at two or more lengths.';
    return `The fits need the (1−δ)-quantile at two or more lengths (${usable} so far${usable < points.length ? '; some lengths did not reach it within d_max' : ''}).`;
  }
  const { log, power } = fits;
  const sgn = (v) => (v < 0 ? `−${Math.abs(v)}` : String(v));
  const b = Math.round(log.b);
  let s = `Logarithmic fit d = ${sgn(Math.round(log.a))} ${b < 0 ? '−' : '+'} ${Math.abs(b)}·ln L: R² ${r3(log.r2)} · power fit d = ${Math.round(power.c)}·L^p with p = ${r2(power.p)}: R² ${r3(power.r2)}.`;
  const perDoubling = Math.round(log.b * Math.LN2);
  const verdict = fitVerdict(comparison);
  if (verdict) {
    const { resamples: n, logWins, powerWins } = comparison;
    const shares = `the logarithmic fit has the higher R² in ${pct(logWins, n)} of ${n} bootstrap resamples of the trials, the power fit in ${pct(powerWins, n)}`;
    if (verdict === 'too-few-lengths') s += ` With ${usable} lengths the two fits cannot be told apart (each has two parameters; ${shares}).`;
    else if (verdict === 'undecided') s += ` On these ${usable} lengths the two fits cannot be told apart: ${shares}.`;
    else if (verdict === 'log') s += ` The logarithmic fit is the better one (${shares}): consistent with d = O(log L), each doubling of L adding about ${perDoubling} to d.`;
    else if (power.p < 0.35) s += ` The power fit is the better one (${shares}), but its exponent is small: d grows far more slowly than L.`;
    else s += ` The power law is the better fit with a sizeable exponent (${shares}): over this range d grows faster than logarithmically.`;
    return s;
  }
  if (power.p <= 0.05) s += ' d barely changes with L over this range.';
  else if (power.p < 0.35 && log.r2 >= power.r2 - 0.02) s += ` The logarithmic fit is at least as good and the power exponent is small: consistent with d = O(log L) (each doubling of L adds about ${perDoubling} to d).`;
  else if (power.p < 0.35) s += ` The power fit is somewhat better, but its exponent is small: d grows far more slowly than L (each doubling of L adds about ${perDoubling} to d).`;
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
