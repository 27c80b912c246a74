// attnx lab: plot 2, the phase transition. For each L, the empirical probability that the
// construction succeeds at hidden size d: the fraction of trials with d_min <= d (an ECDF, one
// line per L), with the 1-delta level whose crossing is the (1-delta)-quantile (the core's, from
// the result; this file only draws).
import { el, text, title, svgRoot, legend, viridisColor, plotLayout, plotHeight, drawFrame, clippedArea, lineSwatch } from './svg.js';
import { linearTicks, makeScale, formatTick } from './scale.js';
import { VIRIDIS } from '../../common/viridis.js';

// Empirical CDF of d_min as a step function (DOM-free): [{ d, p }] at each distinct reached d
// (ascending), p = fraction of ALL trials (reached or not, null = not reached) with d_min <= d.
// Unreached trials never count, so the curve can stop below 1.
export function ecdf(ds) {
  const n = ds.length;
  const s = Float64Array.from(ds.filter((d) => d !== null && d !== undefined && d >= 0)).sort();
  const out = [];
  for (let i = 0; i < s.length; i++) {
    if (i + 1 < s.length && s[i + 1] === s[i]) continue;
    out.push({ d: s[i], p: (i + 1) / n });
  }
  return out;
}

// Colour of the n-th of `count` lengths (viridis: ordered, colour-blind safe).
function lengthColor(theme, n, count) {
  const [a, b] = theme.viridis;
  const t = count <= 1 ? (a + b) / 2 : a + ((b - a) * n) / (count - 1);
  return viridisColor(VIRIDIS, t);
}

// The x range (DOM-free): up to just past the largest reached d (dMax when nothing reached).
// Returns linearTicks' { lo, hi, step, ticks }.
export function xDomain(points, dMax) {
  let hi = 0;
  for (const p of points) for (const d of p.d_mins) if (d !== null) hi = Math.max(hi, d);
  if (hi === 0) hi = dMax;
  return linearTicks(0, hi * 1.08, 8);
}

// Step-function vertices of one ECDF over [xLo, xHi] in data units: [[d, p], ...].
export function stepVertices(ds, xLo, xHi) {
  return stepsOf(ecdf(ds), xLo, xHi);
}

// stepVertices of an ECDF already computed (ecdf(ds)).
function stepsOf(steps, xLo, xHi) {
  const v = [[xLo, 0]];
  let p = 0;
  for (const { d, p: q } of steps) {
    v.push([d, p], [d, q]);
    p = q;
  }
  v.push([xHi, p]);
  return v;
}

function legendEntries(theme, points, colors, delta) {
  const entries = points.map((p, n) => {
    const nr = p.d_mins.filter((d) => d === null).length;
    return { label: `L = ${p.L}${nr ? ` (${nr} n.r.)` : ''}`, ink: theme.ink, draw: lineSwatch(colors[n], undefined, 3) };
  });
  if (delta !== null && points.length) entries.push({ label: `1 − δ = ${+(1 - delta).toFixed(6)}`, ink: theme.ink, draw: lineSwatch(theme.muted, '5 4', 1.5) });
  return entries;
}

function description(points) {
  if (!points.length) return 'No results yet.';
  const each = points.map((p) => `L ${p.L}: all trials succeed by d = ${p.d_mins.some((d) => d === null) ? 'never (some not reached)' : p.d_mins.reduce((a, b) => Math.max(a, b), -Infinity)}`);
  return `Fraction of trials that succeed at hidden size d. ${each.join('; ')}.`;
}

function frame(svg, theme, layout, xs, ys, xd) {
  const x1 = layout.box.x1;
  const xt = layout.compact ? xd.ticks.filter((_, i) => i % 2 === 0 || xd.ticks.length <= 5) : xd.ticks;
  drawFrame(svg, theme, layout, {
    xs, ys,
    yTicks: [0, 0.25, 0.5, 0.75, 1].map((v) => ({ v, label: `${Math.round(v * 100)}%` })),
    xTicks: xt.map((v) => (xs(v) > x1 - 14 ? { v, label: formatTick(v), anchor: 'end', x: x1 + 2 } : { v, label: formatTick(v) })),
    xTitle: 'hidden size d',
    yTitle: { text: 'trials that succeed', offset: 13 },
  });
}

// The 1 - delta level and, when some trial did not reach and d_max is in range, the d_max line.
function guides(svg, theme, layout, { xs, ys, xd }, { points, delta, dMax }) {
  const { x0, x1, y0, y1 } = layout.box;
  if (delta !== null && points.length) el('line', { x1: x0, y1: ys(1 - delta), x2: x1, y2: ys(1 - delta), stroke: theme.muted, 'stroke-width': 1.5, 'stroke-dasharray': '5 4' }, svg);
  if (dMax === null || dMax > xd.hi || !points.some((p) => p.d_mins.some((d) => d === null))) return;
  el('line', { x1: xs(dMax), y1: y0, x2: xs(dMax), y2: y1, stroke: theme.notReached, 'stroke-width': 1.2, 'stroke-dasharray': '2 3' }, svg);
  text(svg, xs(dMax), y1 - 3, 'd_max', { fill: theme.notReached, 'font-size': 11, 'text-anchor': 'middle' });
}

function curves(area, theme, { xs, ys, xd }, points, colors, delta) {
  points.forEach((p, n) => {
    const steps = ecdf(p.d_mins);
    const v = stepsOf(steps, xd.lo, xd.hi);
    const pl = el('polyline', {
      points: v.map(([d, q]) => `${xs(d).toFixed(1)},${ys(q).toFixed(1)}`).join(' '),
      fill: 'none', stroke: colors[n], 'stroke-width': 2.4, 'stroke-linejoin': 'round',
    }, area);
    title(pl, `L = ${p.L}: ${steps.map(({ d, p: q }) => `${Math.round(q * 100)}% by d = ${d}`).join(', ')}`);
    if (p.quantile === null || delta === null) return;
    const c = el('circle', { cx: xs(p.quantile), cy: ys(1 - delta), r: 4, fill: colors[n], stroke: theme.bg, 'stroke-width': 1.2 }, area);
    title(c, `L = ${p.L}: (1−δ)-quantile d = ${p.quantile}`);
  });
}

// Draws the plot into `container` (replacing its content). res: the result or null; theme: a
// THEMES entry; width in pixels; dMax: d_max to assume when the result does not record it (the x
// range when nothing was reached). Returns the <svg>.
export function drawSuccess(container, { res, theme, width, dMax }) {
  const points = res ? res.points : [];
  const delta = res ? res.params.delta ?? null : null;
  const recordedDMax = res ? res.params.d_max ?? null : null;
  const layout = plotLayout(width, { left: [44, 54], top: 14, heightRatio: 0.42, minH: 220, maxH: 380 });
  const colors = points.map((_, n) => lengthColor(theme, n, points.length));
  const entries = legendEntries(theme, points, colors, delta);
  const { H, legW } = plotHeight(layout, entries);
  const svg = svgRoot(container, layout.W, H, theme, 'Success probability versus hidden size d, one line per L');
  el('desc', {}, svg).textContent = description(points);
  const { x0, x1, y0, y1 } = layout.box;
  const xd = xDomain(points, recordedDMax ?? dMax);
  const sc = { xd, xs: makeScale(xd.lo, xd.hi, x0, x1), ys: makeScale(0, 1, y0, y1) };
  frame(svg, theme, layout, sc.xs, sc.ys, xd);
  guides(svg, theme, layout, sc, { points, delta, dMax: recordedDMax });
  curves(clippedArea(svg, `clip-sd-${container.id || 'x'}`, layout.box, 3), theme, sc, points, colors, delta);
  if (!points.length) text(svg, (x0 + x1) / 2, (y0 + y1) / 2, 'One line per L appears here as lengths finish.', { 'text-anchor': 'middle', fill: theme.muted, 'font-size': 13 });
  if (entries.length) legend(svg, entries, x0, y0 + layout.m.b + 6, legW);
  return svg;
}
