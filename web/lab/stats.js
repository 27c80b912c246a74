// attnx lab: statistics for display (DOM-free). These mirror core/sweep.cpp exactly (median_d,
// quantile_d, fit_log, fit_power) so that results computed in the page, streamed per length, and
// results imported from `attnx sweep` agree to the last digit. "Not reached" is null (the CLI's
// JSON) and counts as larger than any d.

const NR = Infinity;

function sortedUnreachedLast(ds) {
  return ds.map((d) => (d === null || d === undefined || d < 0 ? NR : d)).sort((a, b) => a - b);
}

// Median of d_min over trials; null when the median trial(s) did not reach (as in the core).
export function medianD(ds) {
  if (!ds.length) return null;
  const s = sortedUnreachedLast(ds);
  const n = s.length;
  const a = s[(n - 1) >> 1], b = s[n >> 1];
  if (a === NR || b === NR) return null;
  return 0.5 * (a + b);
}

// Empirical (1-delta)-quantile: the smallest d with at least ceil((1-delta) T) successes.
export function quantileD(ds, delta) {
  if (!ds.length) return null;
  const s = sortedUnreachedLast(ds);
  const need = Math.ceil((1 - delta) * s.length - 1e-9);
  const idx = Math.min(Math.max(1, need) - 1, s.length - 1);
  const q = s[idx];
  return q === NR ? null : q;
}

// Empirical CDF of d_min as a step function: [{d, p}] at each distinct reached d (ascending),
// p = fraction of ALL trials (reached or not) with d_min <= d. Unreached trials never count, so the
// curve can stop below 1.
export function ecdf(ds) {
  const n = ds.length;
  if (!n) return [];
  const s = sortedUnreachedLast(ds).filter((d) => d !== NR);
  const out = [];
  for (let i = 0; i < s.length; i++) {
    if (i + 1 < s.length && s[i + 1] === s[i]) continue;
    out.push({ d: s[i], p: (i + 1) / n });
  }
  return out;
}

// Fraction of trials with d_min <= d.
export function successAt(ds, d) {
  if (!ds.length) return 0;
  let c = 0;
  for (const v of ds) if (v !== null && v !== undefined && v >= 0 && v <= d) c++;
  return c / ds.length;
}

function leastSquares(x, y) {
  const n = x.length;
  let mx = 0, my = 0;
  for (let i = 0; i < n; i++) { mx += x[i]; my += y[i]; }
  mx /= n; my /= n;
  let sxx = 0, sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (!(sxx > 0)) return null;
  const b = sxy / sxx;
  return { a: my - b * mx, b };
}

function rSquared(y, pred) {
  let my = 0;
  for (const v of y) my += v;
  my /= y.length;
  let res = 0, tot = 0;
  for (let i = 0; i < y.length; i++) {
    res += (y[i] - pred[i]) ** 2;
    tot += (y[i] - my) ** 2;
  }
  if (tot === 0) return res === 0 ? 1 : 0;
  return 1 - res / tot;
}

// d = a + b ln L (least squares), R^2 in d-space. { ok, a, b, r2 } (nulls when not ok).
export function fitLog(Ls, ds) {
  const bad = { ok: false, a: null, b: null, r2: null };
  if (Ls.length < 2 || Ls.length !== ds.length) return bad;
  for (let i = 0; i < Ls.length; i++) if (!(Ls[i] > 0) || !Number.isFinite(ds[i])) return bad;
  const x = Ls.map(Math.log);
  const f = leastSquares(x, ds);
  if (!f) return bad;
  const r2 = rSquared(ds, x.map((v) => f.a + f.b * v));
  return { ok: true, a: f.a, b: f.b, r2 };
}

// d = c L^p (least squares in log-log), R^2 in d-space. { ok, c, p, r2 }.
export function fitPower(Ls, ds) {
  const bad = { ok: false, c: null, p: null, r2: null };
  if (Ls.length < 2 || Ls.length !== ds.length) return bad;
  for (let i = 0; i < Ls.length; i++) if (!(Ls[i] > 0) || !(ds[i] > 0) || !Number.isFinite(ds[i])) return bad;
  const x = Ls.map(Math.log);
  const f = leastSquares(x, ds.map(Math.log));
  if (!f) return bad;
  const c = Math.exp(f.a);
  const r2 = rSquared(ds, Ls.map((L) => c * Math.pow(L, f.b)));
  return { ok: true, c, p: f.b, r2 };
}

// Fits of the sweep: the (1-delta)-quantile of every point where it was reached (as the core).
export function fitSweep(points) {
  const Ls = [], ds = [];
  for (const p of points) {
    if (p.quantile !== null && p.quantile > 0) { Ls.push(p.L); ds.push(p.quantile); }
  }
  return { log: fitLog(Ls, ds), power: fitPower(Ls, ds) };
}

// Builds a point record (the CLI's JSON field names) from one length's trials.
export function makePoint(L, dMins, delta, extra = {}) {
  return {
    L,
    d_mins: dMins.map((d) => (d === null || d === undefined || d < 0 ? null : d)),
    median: medianD(dMins),
    quantile: quantileD(dMins, delta),
    d_star: extra.d_star ?? null,
    k: extra.k ?? null,
    max_col_count: extra.max_col_count ?? null,
    in_class: extra.in_class ?? null,
    madds: extra.madds ?? null,
  };
}
