// attnx lab: plot 1, minimal d versus L (log L axis). Every trial's d_min as a dot (not reached:
// a triangle in a strip above the frame), the median and (1-delta)-quantile lines, the fits
// d = a + b ln L and d = c L^p, the d*(L) estimate and (for the paper's setting) the paper's band.
import { el, text, title, svgRoot, legend, legendHeight } from './svg.js';
import { linearTicks, logTicks, makeScale, formatTick } from './scale.js';
import { PAPER_BAND } from './state.js';

const fmt = (v) => (v === null || v === undefined ? '—' : String(Math.round(v)));

// The y range of the plot (DOM-free): covers every reached d, the medians and quantiles, the
// paper's band when shown, and d* only when asked to (it is usually far above the data).
export function yDomain(points, { dMax = 4096, band = false, fullDStar = false } = {}) {
  let hi = 0;
  for (const p of points) {
    for (const d of p.d_mins) if (d !== null) hi = Math.max(hi, d);
    if (fullDStar && p.d_star !== null) hi = Math.max(hi, p.d_star);
  }
  if (hi === 0) hi = dMax;
  if (band) hi = Math.max(hi, PAPER_BAND.hi);
  return linearTicks(0, hi * 1.06, 6);
}

// Horizontal offsets that keep identical (L, d) dots apart: 0, -s, +s, -2s, ...
export function jitter(ds, s = 4) {
  const seen = new Map();
  return ds.map((d) => {
    const n = seen.get(d) ?? 0;
    seen.set(d, n + 1);
    return n === 0 ? 0 : (n % 2 ? -1 : 1) * Math.ceil(n / 2) * s;
  });
}

export function drawDL(container, { res, gridLs = [], pending = new Map(), theme, width, fullDStar = false, band = false }) {
  const points = res ? res.points : [];
  const params = res ? res.params : {};
  const dMax = params.d_max ?? 4096;
  const W = Math.max(300, Math.round(width));
  const compact = W < 520;
  const m = { l: compact ? 48 : 60, r: compact ? 10 : 18, t: 30, b: 44 };
  const plotH = Math.round(Math.min(440, Math.max(240, W * 0.5)));
  const fits = res ? res.fits : null;
  const hasNR = points.some((p) => p.d_mins.some((d) => d === null));
  const dStars = points.filter((p) => p.d_star !== null);

  // Legend entries (only what is drawn).
  const entries = [];
  const swLine = (color, dash, w = 2) => (g, x, y) => el('line', { x1: x, y1: y, x2: x + 22, y2: y, stroke: color, 'stroke-width': w, 'stroke-dasharray': dash }, g);
  const swDot = (g, x, y) => el('circle', { cx: x + 11, cy: y, r: 3.2, fill: theme.dots, 'fill-opacity': 0.6 }, g);
  if (points.length) entries.push({ label: 'd_min of one trial', draw: swDot, ink: theme.ink });
  if (hasNR) entries.push({ label: `not reached (> d_max = ${dMax})`, draw: (g, x, y) => el('path', { d: tri(x + 11, y, 5), fill: 'none', stroke: theme.notReached, 'stroke-width': 1.6 }, g), ink: theme.ink });
  if (points.some((p) => p.median !== null)) entries.push({ label: 'median', ink: theme.ink, draw: (g, x, y) => { swLine(theme.median)(g, x, y); el('circle', { cx: x + 11, cy: y, r: 4, fill: theme.median }, g); } });
  if (points.some((p) => p.quantile !== null)) entries.push({ label: `(1−δ)-quantile, δ = ${params.delta ?? '?'}`, ink: theme.ink, draw: (g, x, y) => { swLine(theme.quantile)(g, x, y); el('path', { d: diamond(x + 11, y, 4.5), fill: theme.quantile }, g); } });
  if (fits && fits.log.ok) entries.push({ label: `fit a + b·ln L (R² ${fits.log.r2.toFixed(3)})`, draw: swLine(theme.logFit, '7 4'), ink: theme.ink });
  if (fits && fits.power.ok) entries.push({ label: `fit c·L^p (p = ${fits.power.p.toFixed(2)}, R² ${fits.power.r2.toFixed(3)})`, draw: swLine(theme.powerFit, '2 3', 2.4), ink: theme.ink });
  if (dStars.length) entries.push({ label: 'd*(L) estimate (§3.5)', draw: swLine(theme.dStar, '9 3 2 3'), ink: theme.ink });
  if (band) entries.push({ label: `paper: ${PAPER_BAND.lo}–${PAPER_BAND.hi}`, ink: theme.ink, draw: (g, x, y) => el('rect', { x, y: y - 6, width: 22, height: 12, fill: theme.band, 'fill-opacity': theme.bandOpacity * 2.2 }, g) });
  const legW = W - m.l - m.r;
  const legH = entries.length ? legendHeight(entries.map((e) => e.label), legW) + 6 : 0;
  const H = m.t + plotH + m.b + legH;

  const svg = svgRoot(container, W, H, theme, 'Minimal hidden size d versus sequence length L');
  const desc = el('desc', {}, svg);
  desc.textContent = describe(points, fits, params);

  // Scales.
  const Ls = gridLs.length ? gridLs : points.map((p) => p.L);
  const allL = [...new Set([...Ls, ...points.map((p) => p.L)])].sort((a, b) => a - b);
  const Llo = allL.length ? allL[0] : 16, Lhi = allL.length ? allL[allL.length - 1] : 1024;
  const x0 = m.l, x1 = W - m.r, y0 = m.t + plotH, y1 = m.t;
  const xs = makeScale(Llo / 1.3, Lhi * 1.3, x0, x1, true);
  const yd = yDomain(points, { dMax, band, fullDStar });
  const ys = makeScale(yd.lo, yd.hi, y0, y1);

  // Grid and axes.
  const grid = el('g', { stroke: theme.grid, 'stroke-width': 1 }, svg);
  const axis = el('g', { fill: theme.muted, 'font-size': compact ? 11 : 12 }, svg);
  for (const v of yd.ticks) {
    const y = ys(v);
    el('line', { x1: x0, y1: y, x2: x1, y2: y }, grid);
    text(axis, x0 - 6, y + 4, formatTick(v), { 'text-anchor': 'end' });
  }
  const xt = logTicks(xs.invert(x0), xs.invert(x1), allL, compact ? 6 : 10);
  for (const v of xt) {
    const x = xs(v);
    el('line', { x1: x, y1: y0, x2: x, y2: y1 }, grid);
    text(axis, x, y0 + 16, formatTick(v, compact), { 'text-anchor': 'middle' });
  }
  el('rect', { x: x0, y: y1, width: x1 - x0, height: y0 - y1, fill: 'none', stroke: theme.frame }, svg);
  text(axis, (x0 + x1) / 2, y0 + 34, 'L (sequence length, log scale)', { 'text-anchor': 'middle', fill: theme.ink });
  text(axis, 0, 0, 'minimal d', { 'text-anchor': 'middle', fill: theme.ink, transform: `translate(${compact ? 11 : 14} ${(y0 + y1) / 2}) rotate(-90)` });

  const clipId = `clip-dl-${container.id || 'x'}`;
  const cp = el('clipPath', { id: clipId }, el('defs', {}, svg));
  el('rect', { x: x0, y: y1, width: x1 - x0, height: y0 - y1 }, cp);
  const area = el('g', { 'clip-path': `url(#${clipId})` }, svg);

  // Paper band.
  if (band) {
    const g = el('g', {}, area);
    el('rect', { x: x0, y: ys(PAPER_BAND.hi), width: x1 - x0, height: ys(PAPER_BAND.lo) - ys(PAPER_BAND.hi), fill: theme.band, 'fill-opacity': theme.bandOpacity }, g);
    text(g, x1 - 6, ys(PAPER_BAND.lo) - 6, compact ? `paper: d ${PAPER_BAND.lo}–${PAPER_BAND.hi}` : `paper: d ${PAPER_BAND.lo}–${PAPER_BAND.hi} suffices (k = 2, L in the hundreds)`, { fill: theme.muted, 'font-size': 11, 'text-anchor': 'end', stroke: theme.bg, 'stroke-width': 3, 'stroke-opacity': 0.7, 'paint-order': 'stroke' });
  }

  // Pending lengths: a faint dashed guide with the task's state.
  for (const L of Ls) {
    if (points.some((p) => p.L === L)) continue;
    const st = pending.get(L);
    if (!st) continue;
    const x = xs(L);
    const g = el('g', {}, svg);
    el('line', { x1: x, y1: y1, x2: x, y2: y0, stroke: theme.pending, 'stroke-dasharray': '3 4' }, g);
    title(g, `L = ${L}: ${st}`);
  }

  // Fits and d*.
  const curve = (f, color, dash, w = 2) => {
    const n = 64, pts = [];
    for (let i = 0; i <= n; i++) {
      const L = Math.exp(Math.log(xs.domain[0]) + (Math.log(xs.domain[1]) - Math.log(xs.domain[0])) * (i / n));
      pts.push(`${xs(L).toFixed(1)},${ys(f(L)).toFixed(1)}`);
    }
    return el('polyline', { points: pts.join(' '), fill: 'none', stroke: color, 'stroke-width': w, 'stroke-dasharray': dash }, area);
  };
  if (fits && fits.log.ok) title(curve((L) => fits.log.a + fits.log.b * Math.log(L), theme.logFit, '7 4'), `d = ${fits.log.a.toFixed(1)} + ${fits.log.b.toFixed(1)} ln L, R² = ${fits.log.r2.toFixed(3)}`);
  if (fits && fits.power.ok) title(curve((L) => fits.power.c * L ** fits.power.p, theme.powerFit, '2 3', 2.4), `d = ${fits.power.c.toFixed(1)} L^${fits.power.p.toFixed(3)}, R² = ${fits.power.r2.toFixed(3)}`);
  if (dStars.length) {
    const pl = el('polyline', { points: dStars.map((p) => `${xs(p.L).toFixed(1)},${ys(p.d_star).toFixed(1)}`).join(' '), fill: 'none', stroke: theme.dStar, 'stroke-width': 2, 'stroke-dasharray': '9 3 2 3' }, area);
    title(pl, `d*(L): ${dStars.map((p) => `${p.L} → ${fmt(p.d_star)}`).join(', ')}`);
    for (const p of dStars) if (ys(p.d_star) >= y1) el('circle', { cx: xs(p.L), cy: ys(p.d_star), r: 2.5, fill: theme.dStar }, area);
    const above = dStars.filter((p) => p.d_star > yd.hi);
    if (above.length) {
      const lo = Math.min(...above.map((p) => p.d_star)), hi = Math.max(...above.map((p) => p.d_star));
      const label = `↑ d*(L) ${fmt(lo)}${above.length > 1 ? `–${fmt(hi)}` : ''}: above this range`;
      text(svg, x1 - 6, y1 + 14, label, { 'text-anchor': 'end', fill: theme.dStar, 'font-size': 11, 'font-weight': 600, stroke: theme.bg, 'stroke-width': 3, 'paint-order': 'stroke' });
    }
  }

  // d_max: above it a trial counts as not reached (the strip above the frame).
  if (hasNR && dMax <= yd.hi) {
    el('line', { x1: x0, y1: ys(dMax), x2: x1, y2: ys(dMax), stroke: theme.notReached, 'stroke-width': 1.2, 'stroke-dasharray': '2 3' }, svg);
    text(svg, x0 + 6, ys(dMax) - 5, 'd_max', { fill: theme.notReached, 'font-size': 11, stroke: theme.bg, 'stroke-width': 3, 'paint-order': 'stroke' });
  }

  // Not-reached strip.
  if (hasNR) text(axis, x0 - 6, m.t - 12, 'n.r.', { 'text-anchor': 'end', fill: theme.notReached });

  // Dots per trial.
  const dots = el('g', {}, svg);
  for (const p of points) {
    const off = jitter(p.d_mins, compact ? 3 : 4);
    let nr = 0;
    p.d_mins.forEach((d, t) => {
      if (d === null) {
        const c = el('path', { d: tri(xs(p.L) + (nr % 2 ? -1 : 1) * Math.ceil(nr / 2) * 6, m.t - 16, 5), fill: 'none', stroke: theme.notReached, 'stroke-width': 1.6 }, dots);
        nr++;
        title(c, `L = ${p.L}, trial ${t + 1}: not reached (d_min > ${dMax})`);
        return;
      }
      const c = el('circle', { cx: (xs(p.L) + off[t]).toFixed(1), cy: ys(d).toFixed(1), r: compact ? 2.6 : 3.2, fill: theme.dots, 'fill-opacity': 0.55 }, dots);
      title(c, `L = ${p.L}, trial ${t + 1}: d_min = ${d}`);
    });
  }

  // Median and quantile lines (broken where the statistic was not reached).
  const series = (key, color, marker) => {
    const g = el('g', {}, svg);
    let run = [];
    const flush = () => {
      if (run.length > 1) el('polyline', { points: run.join(' '), fill: 'none', stroke: color, 'stroke-width': 2.2 }, g);
      run = [];
    };
    for (const p of points) {
      if (p[key] === null) { flush(); continue; }
      run.push(`${xs(p.L).toFixed(1)},${ys(p[key]).toFixed(1)}`);
    }
    flush();
    for (const p of points) {
      if (p[key] === null) continue;
      const mk = marker(xs(p.L), ys(p[key]));
      mk.setAttribute('fill', color);
      mk.setAttribute('stroke', theme.bg);
      mk.setAttribute('stroke-width', 1.2);
      g.appendChild(mk);
      title(mk, `L = ${p.L}: ${key === 'median' ? 'median' : `(1−δ)-quantile`} ${fmt(p[key])}`);
    }
  };
  series('median', theme.median, (x, y) => el('circle', { cx: x, cy: y, r: 4.5 }));
  series('quantile', theme.quantile, (x, y) => el('path', { d: diamond(x, y, 5.2) }));

  if (!points.length) {
    text(svg, (x0 + x1) / 2, (y0 + y1) / 2, res ? 'No lengths finished yet.' : 'Run a sweep (or import a result) to see d versus L.', { 'text-anchor': 'middle', fill: theme.muted, 'font-size': 13 });
  }
  if (entries.length) legend(svg, entries, x0, y0 + m.b + 6, legW);
  return svg;
}

function tri(x, y, r) {
  return `M${(x - r).toFixed(1)},${(y + r * 0.8).toFixed(1)} L${(x + r).toFixed(1)},${(y + r * 0.8).toFixed(1)} L${x.toFixed(1)},${(y - r * 0.9).toFixed(1)} Z`;
}
function diamond(x, y, r) {
  return `M${x},${y - r} L${x + r},${y} L${x},${y + r} L${x - r},${y} Z`;
}

// A plain-language summary of the plot for assistive technology.
export function describe(points, fits, params) {
  if (!points.length) return 'No results yet.';
  const med = points.map((p) => `L ${p.L}: median ${fmt(p.median)}, quantile ${fmt(p.quantile)}`).join('; ');
  let s = `Minimal d over ${params.trials ?? points[0].d_mins.length} trials per length. ${med}.`;
  if (fits && fits.log.ok) s += ` Logarithmic fit R² ${fits.log.r2.toFixed(3)}.`;
  if (fits && fits.power.ok) s += ` Power fit exponent ${fits.power.p.toFixed(3)}, R² ${fits.power.r2.toFixed(3)}.`;
  return s;
}
