// attnx lab: plot (c) of the comparison, dimensions against bits (SPEC §9.3, §9.4): every
// construction's X as a point (D, w) per length (D its hidden size, w the bits per input number it
// uses: the module's bounds.bitsPerNumber of trial 0's X), and the two counting floors as curves
// w = bound / D, one pair per length: keys fixed before the target need D·w ≥ log2 C(L,k), keys
// chosen with it (any X) D·w ≥ log2(L!)/(2L) (which floor is whose: the schema's bitsFloor, in
// the sentence under the plot). Constructions, order and kinds: `cs` (compare.js comparedOf). The bounds are the module's, their labels and
// meanings the core's schema; both axes are the core's logarithmic dimension axes.
import { el, text, title, legend, drawFrame, clippedArea, lineSwatch } from './svg.js';
import { makeScale, formatTick } from './scale.js';
import { fmt } from '../../explorer/format.js';
import { dwSeries, bitsFloors } from './compare-summary.js';
import { entries, plotShell } from './plot-compare.js';
import { markOf, inkOf } from './compare-marks.js';

// The two floors: the bounds record's field, the schema's key, the dash of its curves.
const FLOORS = [
  { field: 'bitsFixedKeys', key: 'bits_fixed_keys', dash: '7 4' },
  { field: 'bitsFreeKeys', key: 'bits_free_keys', dash: '2 3' },
];

/** The legend labels of the two curves: the schema's label, and that each is a proof (the
 *  curves' titles hold the schema's meaning). */
export function curveLabels(schema) {
  return FLOORS.map((f) => `${schema.bounds[f.key].label} (a proof)`);
}

// The axes' values: the points' D and w, and the curves' values at the smallest D.
function axisValues(pts, floors) {
  const Ds = Object.values(pts).flatMap((s) => s.map((p) => p.D));
  const ws = Object.values(pts).flatMap((s) => s.map((p) => p.w));
  if (!Ds.length || !floors.length) return { Ds, ws };
  const min = (a) => a.reduce((x, y) => Math.min(x, y), Infinity), max = (a) => a.reduce((x, y) => Math.max(x, y), -Infinity);
  const dLo = min(Ds);
  const fixed = max(floors.map((f) => f.bitsFixedKeys)), free = min(floors.map((f) => f.bitsFreeKeys).filter((v) => v > 0));
  // The curves where they start (smallest D): past the points' D range they run below the frame.
  return { Ds, ws: [...ws, fixed / dLo, Number.isFinite(free) ? free / dLo : null] };
}

// The curves w = bound / D of each length, straight on log-log axes (two ends), fainter for
// shorter lengths; each titled with its length, its bound and the schema's meaning.
function drawCurves(area, { theme, xs, ys }, floors, schema) {
  const [d0, d1] = xs.domain;
  floors.forEach((fl, i) => {
    const opacity = 0.35 + 0.65 * ((i + 1) / floors.length);
    for (const f of FLOORS) {
      const b = fl[f.field];
      if (!(b > 0)) continue;
      const g = el('g', { 'data-series': f.key, 'data-l': String(fl.L), class: 'bits-floor' }, area);
      el('line', { x1: xs(d0), y1: ys(b / d0), x2: xs(d1), y2: ys(b / d1), stroke: theme.reference, 'stroke-width': 1.4, 'stroke-dasharray': f.dash, 'stroke-opacity': opacity, 'data-value': String(b) }, g);
      title(g, `L = ${fl.L}: D·w ≥ ${fmt(b, 5)} bits. ${schema.bounds[f.key].help}`);
    }
  });
}

// A construction's points (D, w) joined in length order, each titled; i: its place in the
// comparison's order (its colour and marker).
function drawPoints(svg, { theme, xs, ys }, { name, i }, pts) {
  const g = el('g', { 'data-series': name }, svg);
  if (pts.length > 1) el('polyline', { points: pts.map((p) => `${xs(p.D).toFixed(1)},${ys(p.w).toFixed(1)}`).join(' '), fill: 'none', stroke: inkOf(theme, i), 'stroke-width': 1.4, 'stroke-opacity': 0.6 }, g);
  for (const p of pts) {
    title(el('path', { d: markOf(i)(xs(p.D), ys(p.w), 4.5), fill: inkOf(theme, i), stroke: theme.bg, 'stroke-width': 1.2, class: 'mark' }, g),
      `${name}, L = ${p.L}: D = ${p.D}, w = ${p.w} bits per input number`);
  }
}

/** Draws plot (c) into `container`: rows (compare.js), core (the module's API on this thread: the
 *  axes), schema (the core's), cs (compare.js comparedOf(schema)), theme, width. Returns the <svg>. */
export function drawDimBits(container, { rows, core, schema, cs, theme, width }) {
  const s = dwSeries(rows, cs), floors = bitsFloors(rows, cs);
  const labels = curveLabels(schema);
  const at = Object.fromEntries(cs.map((c) => [c.name, c.searched ? `${c.name} at its d_min` : `${c.name} at D = ${c.dimension}`]));
  const ents = [...entries(theme, cs, at, false, ''),
    ...FLOORS.map((f, i) => ({ label: labels[i], ink: theme.ink, draw: lineSwatch(theme.reference, f.dash, 1.4) }))];
  const desc = cs.map(({ name: n }) => `${n}: ${s[n].map((p) => `L ${p.L} → D ${p.D}, w ${p.w}`).join(', ') || 'none yet'}`).join('; ')
    + `. Floors on D·w: ${floors.map((f) => `L ${f.L}: ${fmt(f.bitsFixedKeys, 5)} (fixed keys), ${fmt(f.bitsFreeKeys, 5)} (free keys)`).join('; ') || 'none yet'}.`;
  const { svg, layout, legW } = plotShell(container, { theme, width, label: 'Dimensions against bits: each X as (D, w) with the counting floors w = bound / D', desc, ents });
  const { Ds, ws } = axisValues(s, floors);
  const xd = core.dimensionAxis(Ds, layout.compact), yd = core.dimensionAxis(ws, layout.compact);
  const xs = makeScale(xd.lo, xd.hi, layout.box.x0, layout.box.x1, true), ys = makeScale(yd.lo, yd.hi, layout.box.y0, layout.box.y1, true);
  drawFrame(svg, theme, layout, {
    xs, ys, xTicks: xd.ticks.map((v) => ({ v, label: formatTick(v, layout.compact) })), yTicks: yd.ticks.map((v) => ({ v, label: formatTick(v) })),
    xTitle: 'D (hidden size, log scale)', yTitle: { text: 'w (bits per number, log)', offset: 14 },
  });
  const area = clippedArea(svg, `clip-dw-${container.id || 'x'}`, layout.box);
  drawCurves(area, { theme, xs, ys }, floors, schema);
  cs.forEach((c, i) => drawPoints(svg, { theme, xs, ys }, { name: c.name, i }, s[c.name]));
  if (!Ds.length) text(svg, (layout.box.x0 + layout.box.x1) / 2, (layout.box.y0 + layout.box.y1) / 2, 'Press Compare to compute.', { 'text-anchor': 'middle', fill: theme.muted, 'font-size': 13 });
  legend(svg, ents, layout.box.x0, layout.box.y0 + layout.m.b + 6, legW);
  return svg;
}
