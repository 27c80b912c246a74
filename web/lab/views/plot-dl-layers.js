// attnx lab: the layers of plot 1 (d versus L). Each draw* takes the plot context
// { svg, area (clipped group), axis, theme, layout, data, xs, ys, yd, dStarAbove } built by
// plot-dl.js, where data = { points, dists (the core's success curves), params, fits, Ls, dMax,
// hasNR, dStars }, and appends its elements.
import { el, text, title, lineSwatch } from './svg.js';

// A d value for display: "—" when missing, else rounded to an integer.
export const fmtD = (v) => (v === null || v === undefined ? '—' : String(Math.round(v)));

const halo = (theme) => ({ stroke: theme.bg, 'stroke-width': 3, 'paint-order': 'stroke' });

function tri(x, y, r) {
  return `M${(x - r).toFixed(1)},${(y + r * 0.8).toFixed(1)} L${(x + r).toFixed(1)},${(y + r * 0.8).toFixed(1)} L${x.toFixed(1)},${(y - r * 0.9).toFixed(1)} Z`;
}
function diamond(x, y, r) {
  return `M${x},${y - r} L${x + r},${y} L${x},${y + r} L${x - r},${y} Z`;
}

// The legend entries of what is drawn: [{ label, ink, draw(g, x, y) }]. band: { lo, hi } or null.
export function legendEntries(theme, data, band) {
  const { points, params, fits, hasNR, dStars, dMax } = data;
  const ink = theme.ink;
  const marked = (color, marker) => (g, x, y) => { lineSwatch(color)(g, x, y); marker(g, x + 11, y); };
  const out = [];
  if (points.length) out.push({ label: 'd_min of one trial', ink, draw: (g, x, y) => el('circle', { cx: x + 11, cy: y, r: 3.2, fill: theme.dots, 'fill-opacity': 0.6 }, g) });
  if (hasNR) out.push({ label: `not reached (> d_max = ${dMax})`, ink, draw: (g, x, y) => el('path', { d: tri(x + 11, y, 5), fill: 'none', stroke: theme.notReached, 'stroke-width': 1.6 }, g) });
  if (points.some((p) => p.median !== null)) out.push({ label: 'median', ink, draw: marked(theme.median, (g, x, y) => el('circle', { cx: x, cy: y, r: 4, fill: theme.median }, g)) });
  if (points.some((p) => p.quantile !== null)) out.push({ label: `(1−δ)-quantile, δ = ${params.delta ?? '?'}`, ink, draw: marked(theme.quantile, (g, x, y) => el('path', { d: diamond(x, y, 4.5), fill: theme.quantile }, g)) });
  if (fits && fits.log.ok) out.push({ label: `fit a + b·ln L (R² ${fits.log.r2.toFixed(3)})`, ink, draw: lineSwatch(theme.logFit, '7 4') });
  if (fits && fits.power.ok) out.push({ label: `fit c·L^p (p = ${fits.power.p.toFixed(2)}, R² ${fits.power.r2.toFixed(3)})`, ink, draw: lineSwatch(theme.powerFit, '2 3', 2.4) });
  if (dStars.length) out.push({ label: 'd*(L) estimate: heuristic (§3.5)', ink, draw: lineSwatch(theme.dStar, '9 3 2 3') });
  if (band) out.push({ label: `paper: ${band.lo}–${band.hi}`, ink, draw: (g, x, y) => el('rect', { x, y: y - 6, width: 22, height: 12, fill: theme.band, 'fill-opacity': theme.bandOpacity * 2.2 }, g) });
  return out;
}

// The paper's band { lo, hi, text } as a shaded strip with its label.
export function drawBand({ area, theme, layout, ys }, band) {
  const { x0, x1 } = layout.box;
  const g = el('g', {}, area);
  el('rect', { x: x0, y: ys(band.hi), width: x1 - x0, height: ys(band.lo) - ys(band.hi), fill: theme.band, 'fill-opacity': theme.bandOpacity }, g);
  const label = layout.compact ? `paper: d ${band.lo}–${band.hi}` : `paper: ${band.text}`;
  text(g, x1 - 6, ys(band.lo) - 6, label, { fill: theme.muted, 'font-size': 11, 'text-anchor': 'end', ...halo(theme), 'stroke-opacity': 0.7 });
}

// Lengths not finished yet: a faint dashed guide titled with the task's state (pending: Map L -> state).
export function drawPending({ svg, theme, layout, data, xs }, pending) {
  const { y0, y1 } = layout.box;
  for (const L of data.Ls) {
    const st = pending.get(L);
    if (!st || data.points.some((p) => p.L === L)) continue;
    const g = el('g', {}, svg);
    el('line', { x1: xs(L), y1, x2: xs(L), y2: y0, stroke: theme.pending, 'stroke-dasharray': '3 4' }, g);
    title(g, `L = ${L}: ${st}`);
  }
}

// The curve d = f(L) over the x domain (64 segments, even in log L). Returns the <polyline>.
function curve({ area, xs, ys }, f, color, dash, width = 2) {
  const [a, b] = xs.domain.map(Math.log);
  const pts = [];
  for (let i = 0; i <= 64; i++) {
    const L = Math.exp(a + (b - a) * (i / 64));
    pts.push(`${xs(L).toFixed(1)},${ys(f(L)).toFixed(1)}`);
  }
  return el('polyline', { points: pts.join(' '), fill: 'none', stroke: color, 'stroke-width': width, 'stroke-dasharray': dash }, area);
}

// The fits of the result (the core's), each where it is ok, with its formula as the title.
export function drawFits(ctx) {
  const { fits } = ctx.data;
  const { theme } = ctx;
  if (fits && fits.log.ok) {
    const { a, b, r2 } = fits.log;
    title(curve(ctx, (L) => a + b * Math.log(L), theme.logFit, '7 4'), `d = ${a.toFixed(1)} + ${b.toFixed(1)} ln L, R² = ${r2.toFixed(3)}`);
  }
  if (fits && fits.power.ok) {
    const { c, p, r2 } = fits.power;
    title(curve(ctx, (L) => c * L ** p, theme.powerFit, '2 3', 2.4), `d = ${c.toFixed(1)} L^${p.toFixed(3)}, R² = ${r2.toFixed(3)}`);
  }
}

// d*(L): a dashed line through the points' d*, and a note when it lies above the y range (the
// core's dStarAbove: how many, the smallest and largest).
export function drawDStar({ svg, area, theme, layout, data, xs, ys, dStarAbove }) {
  const { dStars } = data;
  if (!dStars.length) return;
  const { x1, y1 } = layout.box;
  const pl = el('polyline', { points: dStars.map((p) => `${xs(p.L).toFixed(1)},${ys(p.d_star).toFixed(1)}`).join(' '), fill: 'none', stroke: theme.dStar, 'stroke-width': 2, 'stroke-dasharray': '9 3 2 3' }, area);
  title(pl, `d*(L): ${dStars.map((p) => `${p.L} → ${fmtD(p.d_star)}`).join(', ')}`);
  for (const p of dStars) if (ys(p.d_star) >= y1) el('circle', { cx: xs(p.L), cy: ys(p.d_star), r: 2.5, fill: theme.dStar }, area);
  const { count, lo, hi } = dStarAbove;
  if (!count) return;
  const label = `↑ d*(L) ${fmtD(lo)}${count > 1 ? `–${fmtD(hi)}` : ''}: above this range`;
  text(svg, x1 - 6, y1 + 14, label, { 'text-anchor': 'end', fill: theme.dStar, 'font-size': 11, 'font-weight': 600, ...halo(theme) });
}

// Where some trial did not reach: the d_max line (when in range) and the "n.r." strip label.
export function drawNotReached({ svg, axis, theme, layout, data, ys, yd }) {
  if (!data.hasNR) return;
  const { x0, x1 } = layout.box;
  if (data.dMax <= yd.hi) {
    el('line', { x1: x0, y1: ys(data.dMax), x2: x1, y2: ys(data.dMax), stroke: theme.notReached, 'stroke-width': 1.2, 'stroke-dasharray': '2 3' }, svg);
    text(svg, x0 + 6, ys(data.dMax) - 5, 'd_max', { fill: theme.notReached, 'font-size': 11, ...halo(theme) });
  }
  text(axis, x0 - 6, layout.m.t - 12, 'n.r.', { 'text-anchor': 'end', fill: theme.notReached });
}

// Up to this many trials the plot draws one dot (with its own tooltip) per trial; above, each
// length gets one shape of its distinct values (a dense sweep, e.g. 64 lengths x 1000 trials,
// would otherwise add 128,000 elements to the page).
const DOTS_ONE_BY_ONE = 1000;
// Dense plots: copies drawn of a repeated value (jittered apart), and of the not-reached mark.
const DENSE_REPEATS = 3;

// A circle as path data (for many dots in one <path>).
function dotPath(x, y, r) {
  return `M${(x - r).toFixed(1)},${y.toFixed(1)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
}

// One dot per trial (jittered apart); a triangle in the strip above the frame when not reached.
// More than DOTS_ONE_BY_ONE trials in all: drawDense instead.
export function drawDots(ctx) {
  const { svg, theme, layout, data, xs, ys } = ctx;
  if (data.dists.reduce((n, d) => n + d.trials, 0) > DOTS_ONE_BY_ONE) return drawDense(ctx);
  const dots = el('g', {}, svg);
  const { compact, m } = layout;
  for (const p of data.points) {
    const off = jitter(p.d_mins, compact ? 3 : 4);
    let nr = 0;
    p.d_mins.forEach((d, t) => {
      if (d === null) {
        const x = xs(p.L) + (nr % 2 ? -1 : 1) * Math.ceil(nr / 2) * 6;
        nr++;
        title(el('path', { d: tri(x, m.t - 16, 5), fill: 'none', stroke: theme.notReached, 'stroke-width': 1.6 }, dots), `L = ${p.L}, trial ${t + 1}: not reached (d_min > ${data.dMax})`);
        return;
      }
      const c = el('circle', { cx: (xs(p.L) + off[t]).toFixed(1), cy: ys(d).toFixed(1), r: compact ? 2.6 : 3.2, fill: theme.dots, 'fill-opacity': 0.55 }, dots);
      title(c, `L = ${p.L}, trial ${t + 1}: d_min = ${d}`);
    });
  }
}

// The trials of a dense plot: per length one <path> of its distinct d values (the core's success
// curve steps with their counts; a repeated value drawn at most DENSE_REPEATS times) with one
// tooltip, and one not-reached mark with its count.
function drawDense({ svg, theme, layout, data, xs, ys }) {
  const dots = el('g', {}, svg);
  const { compact, m } = layout;
  const r = compact ? 2.6 : 3.2;
  data.points.forEach((p, i) => {
    const { steps, trials, reached } = data.dists[i];
    const nr = trials - reached;
    const path = [];
    for (const { d, count } of steps) {
      const off = jitter(Array(Math.min(count, DENSE_REPEATS)).fill(d), compact ? 3 : 4);
      for (const o of off) path.push(dotPath(xs(p.L) + o, ys(d), r));
    }
    if (path.length) {
      const lo = steps[0].d, hi = steps[steps.length - 1].d;
      const shape = el('path', { d: path.join(''), fill: theme.dots, 'fill-opacity': 0.55 }, dots);
      title(shape, `L = ${p.L}: ${reached} of ${trials} trials reached, d_min ${lo === hi ? lo : `${lo}–${hi}`} (${steps.length} distinct values)`);
    }
    if (!nr) return;
    const marks = Array.from({ length: Math.min(nr, DENSE_REPEATS) }, (_, k) => tri(xs(p.L) + (k % 2 ? -1 : 1) * Math.ceil(k / 2) * 6, m.t - 16, 5));
    title(el('path', { d: marks.join(' '), fill: 'none', stroke: theme.notReached, 'stroke-width': 1.6 }, dots), `L = ${p.L}: ${nr} of ${trials} trials not reached (d_min > ${data.dMax})`);
  });
}

// Horizontal offsets in pixels that keep identical (L, d) dots apart: 0, -s, +s, -2s, ...
// (one per entry of ds, the n-th repeat of a value getting the n-th offset).
export function jitter(ds, s = 4) {
  const seen = new Map();
  return ds.map((d) => {
    const n = seen.get(d) ?? 0;
    seen.set(d, n + 1);
    return n === 0 ? 0 : (n % 2 ? -1 : 1) * Math.ceil(n / 2) * s;
  });
}

// The median or quantile line (key 'median' | 'quantile'), broken where the statistic was not
// reached, with a marker per length.
export function drawSeries({ svg, theme, data, xs, ys }, key) {
  const color = key === 'median' ? theme.median : theme.quantile;
  const marker = key === 'median' ? (x, y) => el('circle', { cx: x, cy: y, r: 4.5 }) : (x, y) => el('path', { d: diamond(x, y, 5.2) });
  const g = el('g', {}, svg);
  let run = [];
  const flush = () => {
    if (run.length > 1) el('polyline', { points: run.join(' '), fill: 'none', stroke: color, 'stroke-width': 2.2 }, g);
    run = [];
  };
  for (const p of data.points) {
    if (p[key] === null) flush();
    else run.push(`${xs(p.L).toFixed(1)},${ys(p[key]).toFixed(1)}`);
  }
  flush();
  for (const p of data.points) {
    if (p[key] === null) continue;
    const mk = marker(xs(p.L), ys(p[key]));
    for (const [k, v] of [['fill', color], ['stroke', theme.bg], ['stroke-width', 1.2]]) mk.setAttribute(k, v);
    g.appendChild(mk);
    title(mk, `L = ${p.L}: ${key === 'median' ? 'median' : '(1−δ)-quantile'} ${fmtD(p[key])}`);
  }
}
