// attnx lab: plot 2, the phase transition. For each L, the empirical probability that the
// construction succeeds at hidden size d: the fraction of trials with d_min <= d (the core's success
// curve, one line per L), with the 1-delta level whose crossing is the (1-delta)-quantile (the
// core's, from the result). The axes are the core's too; this file only draws.
import { el, text, title, svgRoot, legend, viridisColor, plotLayout, plotHeight, drawFrame, clippedArea, lineSwatch } from './svg.js';
import { makeScale, formatTick } from './scale.js';
import { distributionOf } from './distribution.js';
import { VIRIDIS } from '../../common/viridis.js';

// Colour of the n-th of `count` lengths (viridis: ordered, colour-blind safe).
function lengthColor(theme, n, count) {
  const [a, b] = theme.viridis;
  const t = count <= 1 ? (a + b) / 2 : a + ((b - a) * n) / (count - 1);
  return viridisColor(VIRIDIS, t);
}

// Step-function vertices of a success curve (the core's steps [{ d, p }]) over [xLo, xHi] in data
// units: [[d, p], ...].
export function stepVertices(steps, xLo, xHi) {
  const v = [[xLo, 0]];
  let p = 0;
  for (const { d, p: q } of steps) {
    v.push([d, p], [d, q]);
    p = q;
  }
  v.push([xHi, p]);
  return v;
}

function legendEntries(theme, points, dists, colors, delta) {
  const entries = points.map((p, n) => {
    const nr = dists[n].trials - dists[n].reached;
    return { label: `L = ${p.L}${nr ? ` (${nr} n.r.)` : ''}`, ink: theme.ink, draw: lineSwatch(colors[n], undefined, 3) };
  });
  if (delta !== null && points.length) entries.push({ label: `1 − δ = ${+(1 - delta).toFixed(6)}`, ink: theme.ink, draw: lineSwatch(theme.muted, '5 4', 1.5) });
  return entries;
}

function description(points, dists) {
  if (!points.length) return 'No results yet.';
  const each = points.map((p, n) => `L ${p.L}: all trials succeed by d = ${dists[n].reached < dists[n].trials ? 'never (some not reached)' : dists[n].maxReached}`);
  return `Fraction of trials that succeed at hidden size d. ${each.join('; ')}.`;
}

function frame(svg, theme, layout, xs, ys, axes) {
  const x1 = layout.box.x1;
  drawFrame(svg, theme, layout, {
    xs, ys,
    yTicks: axes.probability.ticks.map((v) => ({ v, label: `${Math.round(v * 100)}%` })),
    xTicks: axes.d.ticks.map((v) => (xs(v) > x1 - 14 ? { v, label: formatTick(v), anchor: 'end', x: x1 + 2 } : { v, label: formatTick(v) })),
    xTitle: 'hidden size d',
    yTitle: { text: 'trials that succeed', offset: 13 },
  });
}

// The 1 - delta level and, when some trial did not reach and d_max is in range, the d_max line.
function guides(svg, theme, layout, { xs, ys, xd }, { points, dists, delta, dMax }) {
  const { x0, x1, y0, y1 } = layout.box;
  if (delta !== null && points.length) el('line', { x1: x0, y1: ys(1 - delta), x2: x1, y2: ys(1 - delta), stroke: theme.muted, 'stroke-width': 1.5, 'stroke-dasharray': '5 4' }, svg);
  if (dMax === null || dMax > xd.hi || !dists.some((d) => d.reached < d.trials)) return;
  el('line', { x1: xs(dMax), y1: y0, x2: xs(dMax), y2: y1, stroke: theme.notReached, 'stroke-width': 1.2, 'stroke-dasharray': '2 3' }, svg);
  text(svg, xs(dMax), y1 - 3, 'd_max', { fill: theme.notReached, 'font-size': 11, 'text-anchor': 'middle' });
}

function curves(area, theme, { xs, ys, xd }, { points, dists, colors, delta }) {
  points.forEach((p, n) => {
    const { steps } = dists[n];
    const v = stepVertices(steps, xd.lo, xd.hi);
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

// Draws the plot into `container` (replacing its content). res: the result or null; core: the
// module's API on this thread; theme: a THEMES entry; width in pixels; dMax: d_max to assume when
// the result does not record it (the x range when nothing was reached). Returns the <svg>.
export function drawSuccess(container, { res, core, theme, width, dMax }) {
  const points = res ? res.points : [];
  const dists = points.map((p) => distributionOf(core, p));
  const delta = res ? res.params.delta ?? null : null;
  const recordedDMax = res ? res.params.d_max ?? null : null;
  const layout = plotLayout(width, { left: [44, 54], top: 14, heightRatio: 0.42, minH: 220, maxH: 380 });
  const colors = points.map((_, n) => lengthColor(theme, n, points.length));
  const entries = legendEntries(theme, points, dists, colors, delta);
  const { H, legW } = plotHeight(layout, entries);
  const svg = svgRoot(container, layout.W, H, theme, 'Success probability versus hidden size d, one line per L');
  el('desc', {}, svg).textContent = description(points, dists);
  const { x0, x1, y0, y1 } = layout.box;
  const axes = core.successAxes(dists.map((d) => d.maxReached), recordedDMax ?? dMax, layout.compact);
  const xd = axes.d;
  const sc = { xd, xs: makeScale(xd.lo, xd.hi, x0, x1), ys: makeScale(axes.probability.lo, axes.probability.hi, y0, y1) };
  frame(svg, theme, layout, sc.xs, sc.ys, axes);
  guides(svg, theme, layout, sc, { points, dists, delta, dMax: recordedDMax });
  curves(clippedArea(svg, `clip-sd-${container.id || 'x'}`, layout.box, 3), theme, sc, { points, dists, colors, delta });
  if (!points.length) text(svg, (x0 + x1) / 2, (y0 + y1) / 2, 'One line per L appears here as lengths finish.', { 'text-anchor': 'middle', fill: theme.muted, 'font-size': 13 });
  if (entries.length) legend(svg, entries, x0, y0 + layout.m.b + 6, legW);
  return svg;
}
