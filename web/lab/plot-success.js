// attnx lab: plot 2, the phase transition. For each L, the empirical probability that the
// construction succeeds at hidden size d: the fraction of trials with d_min <= d (an ECDF, one
// line per L), with the 1-delta level whose crossing is the (1-delta)-quantile.
import { el, text, title, svgRoot, legend, legendHeight, viridisColor } from './svg.js';
import { linearTicks, makeScale, formatTick } from './scale.js';
import { ecdf } from './stats.js';
import { VIRIDIS } from '../common/viridis.js';

// Colour of the n-th of `count` lengths (viridis: ordered, colour-blind safe).
export function lengthColor(theme, n, count) {
  const [a, b] = theme.viridis;
  const t = count <= 1 ? (a + b) / 2 : a + ((b - a) * n) / (count - 1);
  return viridisColor(VIRIDIS, t);
}

// The x range (DOM-free): up to just past the largest reached d (d_max when nothing reached).
export function xDomain(points, dMax = 4096) {
  let hi = 0;
  for (const p of points) for (const d of p.d_mins) if (d !== null) hi = Math.max(hi, d);
  if (hi === 0) hi = dMax;
  return linearTicks(0, hi * 1.08, 8);
}

// Step-function vertices of one ECDF over [x0, x1] in data units: [[d, p], ...].
export function stepVertices(ds, xLo, xHi) {
  const e = ecdf(ds);
  const v = [[xLo, 0]];
  let p = 0;
  for (const { d, p: q } of e) {
    v.push([d, p], [d, q]);
    p = q;
  }
  v.push([xHi, p]);
  return v;
}

export function drawSuccess(container, { res, theme, width }) {
  const points = res ? res.points : [];
  const params = res ? res.params : {};
  const delta = params.delta ?? null;
  const W = Math.max(300, Math.round(width));
  const compact = W < 520;
  const m = { l: compact ? 44 : 54, r: compact ? 10 : 18, t: 14, b: 44 };
  const plotH = Math.round(Math.min(380, Math.max(220, W * 0.42)));

  const colors = points.map((_, n) => lengthColor(theme, n, points.length));
  const entries = points.map((p, n) => {
    const nr = p.d_mins.filter((d) => d === null).length;
    return {
      label: `L = ${p.L}${nr ? ` (${nr} n.r.)` : ''}`,
      ink: theme.ink,
      draw: (g, x, y) => el('line', { x1: x, y1: y, x2: x + 22, y2: y, stroke: colors[n], 'stroke-width': 3 }, g),
    };
  });
  if (delta !== null && points.length) entries.push({ label: `1 − δ = ${+(1 - delta).toFixed(6)}`, ink: theme.ink, draw: (g, x, y) => el('line', { x1: x, y1: y, x2: x + 22, y2: y, stroke: theme.muted, 'stroke-width': 1.5, 'stroke-dasharray': '5 4' }, g) });
  const legW = W - m.l - m.r;
  const legH = entries.length ? legendHeight(entries.map((e) => e.label), legW) + 6 : 0;
  const H = m.t + plotH + m.b + legH;

  const svg = svgRoot(container, W, H, theme, 'Success probability versus hidden size d, one line per L');
  const desc = el('desc', {}, svg);
  desc.textContent = points.length
    ? `Fraction of trials that succeed at hidden size d. ${points.map((p) => `L ${p.L}: all trials succeed by d = ${p.d_mins.some((d) => d === null) ? 'never (some not reached)' : Math.max(...p.d_mins)}`).join('; ')}.`
    : 'No results yet.';

  const x0 = m.l, x1 = W - m.r, y0 = m.t + plotH, y1 = m.t;
  const xd = xDomain(points, params.d_max ?? 4096);
  const xs = makeScale(xd.lo, xd.hi, x0, x1);
  const ys = makeScale(0, 1, y0, y1);

  const grid = el('g', { stroke: theme.grid, 'stroke-width': 1 }, svg);
  const axis = el('g', { fill: theme.muted, 'font-size': compact ? 11 : 12 }, svg);
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    el('line', { x1: x0, y1: ys(v), x2: x1, y2: ys(v) }, grid);
    text(axis, x0 - 6, ys(v) + 4, `${Math.round(v * 100)}%`, { 'text-anchor': 'end' });
  }
  const xt = compact ? xd.ticks.filter((_, i) => i % 2 === 0 || xd.ticks.length <= 5) : xd.ticks;
  for (const v of xt) {
    el('line', { x1: xs(v), y1: y0, x2: xs(v), y2: y1 }, grid);
    const edge = xs(v) > x1 - 14 ? 'end' : 'middle';
    text(axis, edge === 'end' ? x1 + 2 : xs(v), y0 + 16, formatTick(v), { 'text-anchor': edge });
  }
  el('rect', { x: x0, y: y1, width: x1 - x0, height: y0 - y1, fill: 'none', stroke: theme.frame }, svg);
  text(axis, (x0 + x1) / 2, y0 + 34, 'hidden size d', { 'text-anchor': 'middle', fill: theme.ink });
  text(axis, 0, 0, 'trials that succeed', { 'text-anchor': 'middle', fill: theme.ink, transform: `translate(${compact ? 11 : 13} ${(y0 + y1) / 2}) rotate(-90)` });

  if (delta !== null && points.length) {
    const y = ys(1 - delta);
    el('line', { x1: x0, y1: y, x2: x1, y2: y, stroke: theme.muted, 'stroke-width': 1.5, 'stroke-dasharray': '5 4' }, svg);
  }

  const dMax = params.d_max ?? null;
  if (dMax !== null && dMax <= xd.hi && points.some((p) => p.d_mins.some((d) => d === null))) {
    el('line', { x1: xs(dMax), y1: y0, x2: xs(dMax), y2: y1, stroke: theme.notReached, 'stroke-width': 1.2, 'stroke-dasharray': '2 3' }, svg);
    text(svg, xs(dMax), y1 - 3, 'd_max', { fill: theme.notReached, 'font-size': 11, 'text-anchor': 'middle' });
  }

  const clipId = `clip-sd-${container.id || 'x'}`;
  const cp = el('clipPath', { id: clipId }, el('defs', {}, svg));
  el('rect', { x: x0 - 2, y: y1 - 3, width: x1 - x0 + 4, height: y0 - y1 + 6 }, cp);
  const area = el('g', { 'clip-path': `url(#${clipId})` }, svg);
  points.forEach((p, n) => {
    const v = stepVertices(p.d_mins, xd.lo, xd.hi);
    const pl = el('polyline', {
      points: v.map(([d, q]) => `${xs(d).toFixed(1)},${ys(q).toFixed(1)}`).join(' '),
      fill: 'none', stroke: colors[n], 'stroke-width': 2.4, 'stroke-linejoin': 'round',
    }, area);
    title(pl, `L = ${p.L}: ${ecdf(p.d_mins).map(({ d, p: q }) => `${Math.round(q * 100)}% by d = ${d}`).join(', ')}`);
    if (p.quantile !== null && delta !== null) {
      const c = el('circle', { cx: xs(p.quantile), cy: ys(1 - delta), r: 4, fill: colors[n], stroke: theme.bg, 'stroke-width': 1.2 }, area);
      title(c, `L = ${p.L}: (1−δ)-quantile d = ${p.quantile}`);
    }
  });
  if (!points.length) {
    text(svg, (x0 + x1) / 2, (y0 + y1) / 2, 'One line per L appears here as lengths finish.', { 'text-anchor': 'middle', fill: theme.muted, 'font-size': 13 });
  }
  if (entries.length) legend(svg, entries, x0, y0 + m.b + 6, legW);
  return svg;
}
