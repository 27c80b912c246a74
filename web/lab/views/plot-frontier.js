// attnx lab: the frontier plot of SPEC §10.2: dimensions D against the logit scale Λ, both axes
// logarithmic. The packing floor D_Λ (a proof, dashed grey), opt's minimal D at each budget (a
// search: its median, and a bar from the smallest to the largest over the trials; triangles at the
// top: not reached), lp's (Λ, d_min) as its box U varies and jl's and moment's single points
// (constructions). Every mark says what it is in its title and the legend; every number is the
// core's (frontierResult, packingFloors, dimensionAxis); colours and markers by each
// construction's place in the schema (compare-marks.js).
import { el, title, svgRoot, legend, plotLayout, plotHeight, drawFrame, lineSwatch, clippedArea } from './svg.js';
import { makeScale, formatTick } from './scale.js';
import { markOf, inkOf } from './compare-marks.js';
import { fmt } from '../../explorer/format.js';

const LAYOUT = { left: [44, 58], top: 30, heightRatio: 0.5, minH: 220, maxH: 360 };
const FLOOR_DASH = '5 3';
const tri = (x, y, r) => `M${x - r},${y + r * 0.8}L${x + r},${y + r * 0.8}L${x},${y - r * 0.9}Z`;

// Each construction's place in the schema (its colour and marker) and what its marks are.
const placeOf = (schema, name) => Math.max(0, schema.constructions.findIndex((c) => c.name === name));
const settingOf = (schema, p) => {
  const key = schema.constructions[placeOf(schema, p.construction)].frontierKey;
  return key ? p[key] : null;
};
const known = (v) => v !== null && v !== undefined && Number.isFinite(v) && v > 0;

// The points of construction `name`, sorted by their logit scale, with their x (Λ: the budget for
// a swept budget, else the median scale of the trials that reached) and y (the median d_min).
function series(schema, result, name) {
  const budget = schema.constructions[placeOf(schema, name)].frontierParam === 'budget';
  return result.points.filter((p) => p.construction === name)
    .map((p) => ({ p, x: budget ? settingOf(schema, p) : p.logit_scale, y: p.median }))
    .sort((a, b) => (a.x ?? Infinity) - (b.x ?? Infinity));
}

// The axes: x over every Λ drawn and the floor's budgets, y over every d and the floors.
function axes(core, layout, result, names, schema) {
  const xsV = [], ysV = [];
  for (const n of names) for (const s of series(schema, result, n)) {
    if (known(s.x)) xsV.push(s.x);
    for (const v of [s.y, s.p.min, s.p.max]) if (known(v)) ysV.push(v);
  }
  for (const f of result.floor) { if (known(f.scale)) xsV.push(f.scale); if (known(f.d_lambda)) ysV.push(f.d_lambda); }
  const ax = core.dimensionAxis(xsV, layout.compact), ay = core.dimensionAxis(ysV, layout.compact);
  return {
    ax, ay,
    xs: makeScale(ax.lo, ax.hi, layout.box.x0, layout.box.x1, true),
    ys: makeScale(ay.lo, ay.hi, layout.box.y0, layout.box.y1, true),
  };
}

// The floor D_Λ over the whole x range: the core's packing floor at 48 scales, log-spaced.
function drawFloor(area, ctx, { core, result, tau, schema }) {
  const { xs, ys, ax, ay, theme } = ctx;
  if (!(result.column_supports > 1)) return;
  const pts = Array.from({ length: 48 }, (_, i) => ax.lo * (ax.hi / ax.lo) ** (i / 47));
  const floors = core.packingFloors(result.column_supports, tau, pts);
  const g = el('g', { 'data-series': 'floor', 'data-mark': 'proof' }, area);
  title(g, `proof: ${schema.bounds.d_lambda.help}`);
  const line = pts.map((x, i) => [x, floors[i]]).filter(([, d]) => d > 0).map(([x, d]) => `${xs(x).toFixed(1)},${ys(Math.max(d, ay.lo / 2)).toFixed(1)}`);
  el('polyline', { points: line.join(' '), fill: 'none', stroke: theme.muted, 'stroke-width': 1.8, 'stroke-dasharray': FLOOR_DASH }, g);
  for (const f of result.floor) if (known(f.d_lambda)) title(el('circle', { cx: xs(f.scale).toFixed(1), cy: ys(f.d_lambda).toFixed(1), r: 2.5, fill: theme.muted, class: 'floor-mark', 'data-value': String(f.d_lambda) }, g), `proof: D_Λ = ${fmt(f.d_lambda)} at Λ = ${fmt(f.scale)} (n = ${result.column_supports}): no X of logit scale at most Λ passes with fewer dimensions`);
}

// One construction's marks: a line through its medians, a marker each (a bar from min to max for
// a search), triangles above the frame where the median was not reached.
function drawConstruction(area, svg, ctx, { schema, result, name }) {
  const { xs, ys, theme, layout } = ctx;
  const i = placeOf(schema, name), info = schema.constructions[i], ink = inkOf(theme, i), search = info.mark === 'search';
  const g = el('g', { 'data-series': name, 'data-mark': info.mark }, area);
  const pts = series(schema, result, name);
  const line = pts.filter((s) => known(s.x) && known(s.y)).map((s) => `${xs(s.x).toFixed(1)},${ys(s.y).toFixed(1)}`);
  if (line.length > 1) el('polyline', { points: line.join(' '), fill: 'none', stroke: ink, 'stroke-width': 2 }, g);
  for (const { p, x, y } of pts) {
    const setting = settingOf(schema, p);
    const what = `${info.mark}: ${name}${setting !== null ? ` (${info.frontierKey} ${fmt(setting)})` : ''}`;
    if (!known(x) || !known(y)) {
      if (known(x)) title(el('path', { d: tri(xs(x), layout.box.y1 - 8, 5), fill: 'none', stroke: theme.notReached, 'stroke-width': 1.6, 'data-construction': name }, svg), `${what}: median not reached (${p.not_reached} of ${p.d_mins.length} trials)`);
      continue;
    }
    if (search && known(p.min) && known(p.max)) el('line', { x1: xs(x).toFixed(1), x2: xs(x).toFixed(1), y1: ys(p.min).toFixed(1), y2: ys(p.max).toFixed(1), stroke: ink, 'stroke-width': 3, 'stroke-opacity': 0.45 }, g);
    const mark = el('path', { d: markOf(i)(xs(x), ys(y), 4.5), fill: ink, class: 'frontier-mark', 'data-construction': name, 'data-value': String(y), 'data-scale': String(x) }, g);
    title(mark, `${what}: median D = ${fmt(y)} over ${p.d_mins.length} trials${search ? ` (${p.min}–${p.max})` : ''} at Λ = ${fmt(x)}; the floor there is ${fmt(p.d_lambda)}`);
  }
}

// Legend entries: the floor (a proof), then each construction drawn with what its marks are.
function entries(theme, schema, names) {
  const out = [{ label: 'D_Λ floor: proof (§9.2)', ink: theme.ink, draw: lineSwatch(theme.muted, FLOOR_DASH, 1.8) }];
  for (const n of names) {
    const i = placeOf(schema, n), info = schema.constructions[i];
    const what = info.mark === 'search' ? 'search, median and range' : info.frontierKey ? `construction, as ${info.frontierKey} varies` : 'construction';
    out.push({ label: `${n}: ${what}`, ink: theme.ink, draw: (g, x, y) => { lineSwatch(inkOf(theme, i))(g, x, y); el('path', { d: markOf(i)(x + 11, y, 4), fill: inkOf(theme, i) }, g); } });
  }
  return out;
}

/**
 * Draws the frontier into `container`: { result (frontierResult, or null before a run), core,
 * schema, theme, width, tau }. The names drawn are the result's constructions (params).
 */
export function drawFrontier(container, { result, core, schema, theme, width, tau }) {
  const names = result ? result.params.constructions : [];
  const ents = entries(theme, schema, names);
  const layout = plotLayout(width, LAYOUT);
  const { H, legW } = plotHeight(layout, ents);
  const svg = svgRoot(container, layout.W, H, theme, 'Dimensions against logit scale: opt, lp, jl and moment beside the proven floor');
  el('desc', {}, svg).textContent = 'Both axes logarithmic. Dashed grey: the packing floor D_Λ, a proof. Each construction in its colour and marker; opt\'s bars span its trials.';
  if (!result) {
    drawFrame(svg, theme, layout, { xs: () => 0, ys: () => 0, xTicks: [], yTicks: [], xTitle: 'logit scale Λ', yTitle: { text: 'dimensions D', offset: 14 } });
    return;
  }
  const { ax, ay, xs, ys } = axes(core, layout, result, names, schema);
  const ctx = { xs, ys, ax, ay, theme, layout };
  drawFrame(svg, theme, layout, {
    xs, ys, xTitle: 'logit scale Λ (budget Λ_max for opt)', yTitle: { text: 'dimensions D', offset: 14 },
    xTicks: ax.ticks.map((v) => ({ v, label: formatTick(v, layout.compact) })),
    yTicks: ay.ticks.map((v) => ({ v, label: formatTick(v, layout.compact) })),
  });
  const area = clippedArea(svg, 'frontier-clip', layout.box, 6);
  drawFloor(area, ctx, { core, result, tau, schema });
  for (const n of names) drawConstruction(area, svg, ctx, { schema, result, name: n });
  legend(svg, ents, layout.m.l, layout.m.t + layout.plotH + 50, legW);
}
