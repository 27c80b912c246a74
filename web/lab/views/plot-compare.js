// attnx lab: the two plots of the "dimensions against bits" comparison (compare.js): (a) median
// minimal d (moment: D) versus L, both axes logarithmic; (b) bits(X) of trial 0 versus L with the
// float32 and float64 significands as reference lines. One line per construction (COMPARED), each
// in a group with data-series = its name; values not reached are triangles in a strip above the
// frame. The series come from views/compare-summary.js; every value is the core's, the axes and
// the float formats drawn as references too (core.lengthAxis, dimensionAxis, bitsAxis).
import { el, text, title, svgRoot, legend, plotLayout, plotHeight, drawFrame, lineSwatch } from './svg.js';
import { makeScale, formatTick } from './scale.js';
import { COMPARED, isSearched } from '../compare.js';
import { dimensionSeries, bitsSeries, floorSeries, dStarSeries } from './compare-summary.js';
import { floorLabels, floorEntries, drawFloors } from './plot-compare-floors.js';

const LAYOUT = { left: [44, 58], top: 30, heightRatio: 0.42, minH: 200, maxH: 340 };

// A marker shape per construction (told apart without colour too), as path data around (x, y).
export const SHAPES = {
  jl: (x, y, r) => `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`,
  lp: (x, y, r) => `M${x - r * 0.85},${y - r * 0.85}h${1.7 * r}v${1.7 * r}h${-1.7 * r}Z`,
  moment: (x, y, r) => `M${x},${y - r * 1.1}L${x + r * 1.1},${y}L${x},${y + r * 1.1}L${x - r * 1.1},${y}Z`,
};
const tri = (x, y, r) => `M${x - r},${y + r * 0.8}L${x + r},${y + r * 0.8}L${x},${y - r * 0.9}Z`;

// Legend entries: one per construction (its line and marker), and "not reached" when drawn.
export function entries(theme, labels, hasNR, nrLabel) {
  const out = COMPARED.map((n) => ({
    label: labels[n], ink: theme.ink,
    draw: (g, x, y) => { lineSwatch(theme[n])(g, x, y); el('path', { d: SHAPES[n](x + 11, y, 4), fill: theme[n] }, g); },
  }));
  if (hasNR) out.push({ label: nrLabel, ink: theme.ink, draw: (g, x, y) => el('path', { d: tri(x + 11, y, 5), fill: 'none', stroke: theme.notReached, 'stroke-width': 1.6 }, g) });
  return out;
}

// The x scale (the core's lengths axis over the grid) and its ticks.
function xAxis(core, layout, Ls) {
  const ax = core.lengthAxis(Ls, layout.compact);
  const xs = makeScale(ax.lo, ax.hi, layout.box.x0, layout.box.x1, true);
  return { xs, xTicks: ax.ticks.map((v) => ({ v, label: formatTick(v, layout.compact) })) };
}

// The root <svg>, its description and frame, for a plot of `ents` legend entries. Returns
// { svg, layout, legW }.
export function plotShell(container, { theme, width, label, desc, ents }) {
  const layout = plotLayout(width, LAYOUT);
  const { H, legW } = plotHeight(layout, ents);
  const svg = svgRoot(container, layout.W, H, theme, label);
  el('desc', {}, svg).textContent = desc;
  return { svg, layout, legW };
}

// One construction's line (broken where a value is missing), its markers with their titles, and
// the not-reached triangles above the frame. pts: [{ L, y (null: not reached), tip }].
function drawSeries(svg, ctx, name, pts) {
  const { theme, xs, ys, layout } = ctx;
  const g = el('g', { 'data-series': name }, svg);
  let run = [];
  const flush = () => {
    if (run.length > 1) el('polyline', { points: run.join(' '), fill: 'none', stroke: theme[name], 'stroke-width': 2.2 }, g);
    run = [];
  };
  for (const p of pts) {
    if (p.y === null) flush();
    else run.push(`${xs(p.L).toFixed(1)},${ys(p.y).toFixed(1)}`);
  }
  flush();
  const nudge = { jl: -5, lp: 0, moment: 5 }[name];
  for (const p of pts) {
    const mark = p.y === null
      ? el('path', { d: tri(xs(p.L) + nudge, layout.m.t - 16, 5), fill: 'none', stroke: theme.notReached, 'stroke-width': 1.6, class: 'not-reached' }, g)
      : el('path', { d: SHAPES[name](xs(p.L), ys(p.y), 4.5), fill: theme[name], stroke: theme.bg, 'stroke-width': 1.2, class: 'mark' }, g);
    title(mark, p.tip);
  }
}

// The "n.r." label of the strip above the frame.
function nrLabel(svg, theme, layout) {
  text(svg, layout.box.x0 - 6, layout.m.t - 12, 'n.r.', { 'text-anchor': 'end', fill: theme.notReached, 'font-size': 11 });
}

const dText = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

// The points of plot (a) for one construction.
function dimensionPoints(name, series) {
  return series.map((p) => ({
    L: p.L, y: p.value,
    tip: `${name}, L = ${p.L}: ${!isSearched(name) ? `D = ${p.value}` : `median d_min ${p.value === null ? 'not reached' : dText(p.value)} (trials: ${p.detail.map((d) => (d === null ? 'n.r.' : d)).join(' ')})`}`,
  }));
}

// The dimensions of plot (a): each construction's points, SPEC §9's floors beside them, the
// legend entries (moment's line labelled with its assumption) and the plot's description.
function dimensionData(rows, theme) {
  const series = dimensionSeries(rows);
  const pts = Object.fromEntries(COMPARED.map((n) => [n, dimensionPoints(n, series[n])]));
  const floors = floorSeries(rows), dStars = dStarSeries(rows);
  const hasNR = COMPARED.some((n) => pts[n].some((p) => p.y === null));
  const labels = { jl: 'jl: median d_min', lp: 'lp: median d_min', moment: 'moment: D = 2m, exact arithmetic' };
  const ents = [...entries(theme, labels, hasNR, 'median not reached (> d_max)'), ...floorEntries(theme, floorLabels(floors, dStars))];
  const desc = rows.length ? COMPARED.map((n) => `${n}: ${pts[n].map((p) => `L ${p.L} → ${p.y === null ? 'n.r.' : dText(p.y)}`).join(', ') || 'none yet'}`).join('; ') : 'No results yet.';
  const values = [...COMPARED.flatMap((n) => [...pts[n].map((p) => p.y), ...floors[n].map((p) => p.value)]), ...dStars.map((p) => p.value)];
  return { pts, floors, dStars, hasNR, ents, desc, values };
}

/** Draws plot (a) into `container`: rows (compare.js), the grid Ls, core (the module's API on this
 *  thread), schema (the core's: the floors' meanings), theme, width. Returns the <svg>. */
export function drawDimensions(container, { rows, Ls, core, schema, theme, width }) {
  const { pts, floors, dStars, hasNR, ents, desc, values } = dimensionData(rows, theme);
  const { svg, layout, legW } = plotShell(container, { theme, width, label: 'Dimensions: median minimal d of jl and lp and moment\'s D versus L, with the proven floors D_Λ and the d*(L) estimate', desc, ents });
  const { xs, xTicks } = xAxis(core, layout, Ls);
  const yd = core.dimensionAxis(values, layout.compact);
  const ys = makeScale(yd.lo, yd.hi, layout.box.y0, layout.box.y1, true);
  const yTicks = yd.ticks.map((v) => ({ v, label: formatTick(v) }));
  drawFrame(svg, theme, layout, { xs, ys, xTicks, yTicks, xTitle: 'L (sequence length, log scale)', yTitle: { text: 'd (log scale)', offset: 14 } });
  const ctx = { theme, xs, ys, layout };
  drawFloors(svg, ctx, { floors, dStars, schema });
  for (const n of COMPARED) drawSeries(svg, ctx, n, pts[n]);
  if (hasNR) nrLabel(svg, theme, layout);
  if (!rows.some((r) => r.jl || r.lp || r.moment)) text(svg, (layout.box.x0 + layout.box.x1) / 2, (layout.box.y0 + layout.box.y1) / 2, 'Press Compare to compute.', { 'text-anchor': 'middle', fill: theme.muted, 'font-size': 13 });
  legend(svg, ents, layout.box.x0, layout.box.y0 + layout.m.b + 6, legW);
  return svg;
}

// The points of plot (b) for one construction (rows without an X are left out: the table says so).
function bitsPoints(name, series) {
  return series.filter((p) => !p.noX).map((p) => ({
    L: p.L, y: p.bits,
    tip: `${name}, L = ${p.L}, trial 0 at d = ${p.d}: bits(X) ${p.bits === null ? 'not reached (even 53 bits fail)' : p.bits}; float32 ${p.fp32 ? 'passes' : 'fails'}, float64 ${p.fp64 ? 'passes' : 'fails'}`,
  }));
}

// The float formats' significands (the core's: float32, float64) as dashed reference lines with
// their names.
function drawReferences(svg, { theme, ys, layout }, formats) {
  const { x0, x1 } = layout.box;
  for (const f of formats) {
    el('line', { x1: x0, y1: ys(f.bits), x2: x1, y2: ys(f.bits), stroke: theme.reference, 'stroke-width': 1.2, 'stroke-dasharray': '6 4', class: 'reference' }, svg);
    text(svg, x1 - 6, ys(f.bits) - 5, `${f.name}: ${f.bits} bits`, { 'text-anchor': 'end', fill: theme.muted, 'font-size': 11, stroke: theme.bg, 'stroke-width': 3, 'paint-order': 'stroke' });
  }
}

/** Draws plot (b) into `container`: rows (compare.js), the grid Ls, core (the module's API on this
 *  thread), theme, width. Returns the <svg>. */
export function drawBits(container, { rows, Ls, core, theme, width }) {
  const series = bitsSeries(rows);
  const pts = Object.fromEntries(COMPARED.map((n) => [n, bitsPoints(n, series[n])]));
  const hasNR = COMPARED.some((n) => pts[n].some((p) => p.y === null));
  const labels = { jl: 'jl at its d_min', lp: 'lp at its d_min', moment: 'moment at D' };
  const ents = entries(theme, labels, hasNR, 'not reached (> 53 bits)');
  const desc = rows.length ? COMPARED.map((n) => `${n}: ${pts[n].map((p) => `L ${p.L} → ${p.y === null ? 'over 53' : p.y} bits`).join(', ') || 'none yet'}`).join('; ') : 'No results yet.';
  const { svg, layout, legW } = plotShell(container, { theme, width, label: 'Bits: significand bits X needs (trial 0) versus L', desc, ents });
  const { xs, xTicks } = xAxis(core, layout, Ls);
  const { axis: yd, formats } = core.bitsAxis();
  const ys = makeScale(yd.lo, yd.hi, layout.box.y0, layout.box.y1);
  drawFrame(svg, theme, layout, { xs, ys, xTicks, yTicks: yd.ticks.map((v) => ({ v, label: formatTick(v) })), xTitle: 'L (sequence length, log scale)', yTitle: { text: 'bits(X)', offset: 14 } });
  const ctx = { theme, xs, ys, layout };
  drawReferences(svg, ctx, formats);
  for (const n of COMPARED) drawSeries(svg, ctx, n, pts[n]);
  if (hasNR) nrLabel(svg, theme, layout);
  legend(svg, ents, layout.box.x0, layout.box.y0 + layout.m.b + 6, legW);
  return svg;
}
