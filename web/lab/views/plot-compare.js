// attnx lab: the two plots of the "dimensions against bits" comparison (compare.js): (a) median
// minimal d (one-D constructions: their D) versus L, both axes logarithmic; (b) bits(X) of trial 0 versus L with the
// float32 and float64 significands as reference lines. One line per construction of `cs` (compare.js
// comparedOf(schema): which, in which order, which are searched), each in a group with
// data-series = its name, its colour and marker by its place in that order; values not reached are triangles in a strip above the
// frame. The series come from views/compare-summary.js; every value is the core's, the axes and
// the float formats drawn as references too (core.lengthAxis, dimensionAxis, bitsAxis).
import { el, text, title, svgRoot, legend, plotLayout, plotHeight, drawFrame, lineSwatch } from './svg.js';
import { makeScale, formatTick } from './scale.js';
import { dimensionSeries, bitsSeries, floorSeries, dStarSeries, andList } from './compare-summary.js';
import { floorLabels, floorEntries, drawFloors } from './plot-compare-floors.js';
import { markOf, inkOf } from './compare-marks.js';

const LAYOUT = { left: [44, 58], top: 30, heightRatio: 0.42, minH: 200, maxH: 340 };

const tri = (x, y, r) => `M${x - r},${y + r * 0.8}L${x + r},${y + r * 0.8}L${x},${y - r * 0.9}Z`;

// Legend entries: one per construction of cs (its line and marker; labels[name]), and "not
// reached" when drawn.
export function entries(theme, cs, labels, hasNR, nrLabel) {
  const out = cs.map((c, i) => ({
    label: labels[c.name], ink: theme.ink,
    draw: (g, x, y) => { lineSwatch(inkOf(theme, i))(g, x, y); el('path', { d: markOf(i)(x + 11, y, 4), fill: inkOf(theme, i) }, g); },
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
// the not-reached triangles above the frame (nudged apart by place i of n). pts: [{ L, y (null:
// not reached), tip }].
function drawSeries(svg, ctx, { name, i, n }, pts) {
  const { theme, xs, ys, layout } = ctx;
  const g = el('g', { 'data-series': name }, svg);
  let run = [];
  const flush = () => {
    if (run.length > 1) el('polyline', { points: run.join(' '), fill: 'none', stroke: inkOf(theme, i), 'stroke-width': 2.2 }, g);
    run = [];
  };
  for (const p of pts) {
    if (p.y === null) flush();
    else run.push(`${xs(p.L).toFixed(1)},${ys(p.y).toFixed(1)}`);
  }
  flush();
  const nudge = (i - (n - 1) / 2) * 5;
  for (const p of pts) {
    const mark = p.y === null
      ? el('path', { d: tri(xs(p.L) + nudge, layout.m.t - 16, 5), fill: 'none', stroke: theme.notReached, 'stroke-width': 1.6, class: 'not-reached' }, g)
      : el('path', { d: markOf(i)(xs(p.L), ys(p.y), 4.5), fill: inkOf(theme, i), stroke: theme.bg, 'stroke-width': 1.2, class: 'mark' }, g);
    title(mark, p.tip);
  }
}

// The "n.r." label of the strip above the frame.
function nrLabel(svg, theme, layout) {
  text(svg, layout.box.x0 - 6, layout.m.t - 12, 'n.r.', { 'text-anchor': 'end', fill: theme.notReached, 'font-size': 11 });
}

const dText = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

// The points of plot (a) for construction c.
function dimensionPoints(c, series) {
  const trials = (p) => p.detail.map((d) => (d === null ? 'n.r.' : d)).join(' ');
  return series.map((p) => ({
    L: p.L, y: p.value,
    tip: `${c.name}, L = ${p.L}: ${!c.searched ? `D = ${p.value}` : `median d_min ${p.value === null ? 'not reached' : dText(p.value)} (trials: ${trials(p)})`}`,
  }));
}

// The legend label of construction c in plot (a): a search's median, or its own D with its
// assumption.
const dimensionLabel = (c) => (c.searched ? `${c.name}: median d_min` : `${c.name}: D = ${c.dimension}, exact arithmetic`);

// The plot's description: per construction of cs its points [{ L, y }], y worded by `word`.
const describe = (rows, cs, pts, word) => (rows.length ? cs.map((c) => `${c.name}: ${pts[c.name].map((p) => `L ${p.L} → ${word(p.y)}`).join(', ') || 'none yet'}`).join('; ') : 'No results yet.');

// The dimensions of plot (a): each construction's points, SPEC §9's floors beside them, the
// legend entries (a one-D construction's line labelled with its assumption) and the plot's
// description.
function dimensionData(rows, cs, theme) {
  const series = dimensionSeries(rows, cs);
  const pts = Object.fromEntries(cs.map((c) => [c.name, dimensionPoints(c, series[c.name])]));
  const floors = floorSeries(rows, cs), dStars = dStarSeries(rows, cs);
  const hasNR = cs.some((c) => pts[c.name].some((p) => p.y === null));
  const labels = Object.fromEntries(cs.map((c) => [c.name, dimensionLabel(c)]));
  const ents = [...entries(theme, cs, labels, hasNR, 'median not reached (> d_max)'), ...floorEntries(theme, cs, floorLabels(floors, dStars))];
  const desc = describe(rows, cs, pts, (y) => (y === null ? 'n.r.' : dText(y)));
  const values = [...cs.flatMap((c) => [...pts[c.name].map((p) => p.y), ...floors[c.name].map((p) => p.value)]), ...dStars.map((p) => p.value)];
  return { pts, floors, dStars, hasNR, ents, desc, values };
}

// The title of plot (a): the searched constructions' median d and the others' D.
function dimensionTitle(cs) {
  const searched = cs.filter((c) => c.searched).map((c) => c.name), own = cs.filter((c) => !c.searched).map((c) => `${c.name}'s D`);
  const what = [...(searched.length ? [`median minimal d of ${andList(searched)}`] : []), ...(own.length ? [andList(own)] : [])].join(' and ');
  return `Dimensions: ${what} versus L, with the proven floors D_Λ and the d*(L) estimate`;
}

/** Draws plot (a) into `container`: rows (compare.js), the grid Ls, core (the module's API on this
 *  thread), schema (the core's: the floors' meanings), cs (compare.js comparedOf(schema)), theme,
 *  width. Returns the <svg>. */
export function drawDimensions(container, { rows, Ls, core, schema, cs, theme, width }) {
  const { pts, floors, dStars, hasNR, ents, desc, values } = dimensionData(rows, cs, theme);
  const { svg, layout, legW } = plotShell(container, { theme, width, label: dimensionTitle(cs), desc, ents });
  const { xs, xTicks } = xAxis(core, layout, Ls);
  const yd = core.dimensionAxis(values, layout.compact);
  const ys = makeScale(yd.lo, yd.hi, layout.box.y0, layout.box.y1, true);
  const yTicks = yd.ticks.map((v) => ({ v, label: formatTick(v) }));
  drawFrame(svg, theme, layout, { xs, ys, xTicks, yTicks, xTitle: 'L (sequence length, log scale)', yTitle: { text: 'd (log scale)', offset: 14 } });
  const ctx = { theme, xs, ys, layout };
  drawFloors(svg, ctx, { floors, dStars, schema, cs });
  cs.forEach((c, i) => drawSeries(svg, ctx, { name: c.name, i, n: cs.length }, pts[c.name]));
  if (hasNR) nrLabel(svg, theme, layout);
  if (!rows.some((r) => cs.some((c) => r[c.name]))) text(svg, (layout.box.x0 + layout.box.x1) / 2, (layout.box.y0 + layout.box.y1) / 2, 'Press Compare to compute.', { 'text-anchor': 'middle', fill: theme.muted, 'font-size': 13 });
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
 *  thread), cs (compare.js comparedOf(schema)), theme, width. Returns the <svg>. */
export function drawBits(container, { rows, Ls, core, cs, theme, width }) {
  const series = bitsSeries(rows, cs);
  const pts = Object.fromEntries(cs.map((c) => [c.name, bitsPoints(c.name, series[c.name])]));
  const hasNR = cs.some((c) => pts[c.name].some((p) => p.y === null));
  const labels = Object.fromEntries(cs.map((c) => [c.name, c.searched ? `${c.name} at its d_min` : `${c.name} at D`]));
  const ents = entries(theme, cs, labels, hasNR, 'not reached (> 53 bits)');
  const desc = describe(rows, cs, pts, (y) => `${y === null ? 'over 53' : y} bits`);
  const { svg, layout, legW } = plotShell(container, { theme, width, label: 'Bits: significand bits X needs (trial 0) versus L', desc, ents });
  const { xs, xTicks } = xAxis(core, layout, Ls);
  const { axis: yd, formats } = core.bitsAxis();
  const ys = makeScale(yd.lo, yd.hi, layout.box.y0, layout.box.y1);
  drawFrame(svg, theme, layout, { xs, ys, xTicks, yTicks: yd.ticks.map((v) => ({ v, label: formatTick(v) })), xTitle: 'L (sequence length, log scale)', yTitle: { text: 'bits(X)', offset: 14 } });
  const ctx = { theme, xs, ys, layout };
  drawReferences(svg, ctx, formats);
  cs.forEach((c, i) => drawSeries(svg, ctx, { name: c.name, i, n: cs.length }, pts[c.name]));
  if (hasNR) nrLabel(svg, theme, layout);
  legend(svg, ents, layout.box.x0, layout.box.y0 + layout.m.b + 6, legW);
  return svg;
}
