// attnx lab: SPEC §9.4 on plot (a) of the comparison (minimal d versus L): each construction's
// packing floor D_Λ at its own logit scale (a proof, assuming bounded logits), a one-D
// construction's own D (moment's 2m: enough in exact arithmetic) and the d*(L) estimate (a heuristic), each labelled with what it
// assumes; their one-sentence meanings (titles) are the core's schema. The numbers are the
// module's (compare-summary.js floorSeries, dStarSeries); only the Λ shown in a label is formatted
// here, with the page's formatter.
import { el, title, lineSwatch } from './svg.js';
import { fmt } from '../../explorer/format.js';
import { inkOf } from './compare-marks.js';

const FLOOR_DASH = '4 3';
const DSTAR_DASH = '9 3 2 3';

// "Λ ≈ 5.6": the logit scale at the largest length of a series whose scale is known (each
// length's is in its marker's title), or null when none is.
export function scaleText(series) {
  const s = series.map((p) => p.scale).filter((v) => v !== null && v !== undefined && Number.isFinite(v));
  return s.length ? `Λ ≈ ${fmt(s[s.length - 1], 2)}` : null;
}

/** The legend labels of the floors drawn (each with its assumption). floors: floorSeries (one
 *  series per construction, in the comparison's order); dStars: dStarSeries. Returns { [name]:
 *  label, dStar: label | undefined }. */
export function floorLabels(floors, dStars) {
  const out = {};
  for (const n of Object.keys(floors)) {
    const s = scaleText(floors[n]);
    if (floors[n].length) out[n] = `${n}: D_Λ, bounded logits${s ? ` ${s}` : ''}`;
  }
  if (dStars.length) out.dStar = 'd*(L) estimate: heuristic (§3.5)';
  return out;
}

/** Legend entries of the floors (their dashed lines) for plot (a): cs (compare.js comparedOf),
 *  labels (floorLabels). */
export function floorEntries(theme, cs, labels) {
  const out = cs.map((c, i) => [c.name, inkOf(theme, i)]).filter(([n]) => labels[n]).map(([n, ink]) => ({ label: labels[n], ink: theme.ink, draw: lineSwatch(ink, FLOOR_DASH, 1.6) }));
  if (labels.dStar) out.push({ label: labels.dStar, ink: theme.ink, draw: lineSwatch(theme.dStar, DSTAR_DASH) });
  return out;
}

// A dashed line through pts [{ L, value }] in a group data-series = key, with small hollow
// markers titled `tip(p)`; the group's title is the line's meaning.
function dashedSeries(svg, { xs, ys, theme }, { key, color, dash, pts, meaning, tip }) {
  const g = el('g', { 'data-series': key, class: 'floor-series' }, svg);
  title(g, meaning);
  if (pts.length > 1) el('polyline', { points: pts.map((p) => `${xs(p.L).toFixed(1)},${ys(p.value).toFixed(1)}`).join(' '), fill: 'none', stroke: color, 'stroke-width': 1.6, 'stroke-dasharray': dash }, g);
  for (const p of pts) title(el('circle', { cx: xs(p.L).toFixed(1), cy: ys(p.value).toFixed(1), r: 3, fill: theme.bg, stroke: color, 'stroke-width': 1.4, class: 'floor-mark', 'data-value': String(p.value) }, g), tip(p));
}

/** Draws the floors of plot (a): ctx { theme, xs, ys }; floors (floorSeries), dStars
 *  (dStarSeries); schema (the core's: bounds.d_lambda.help, metrics.dStar.help); cs (compare.js
 *  comparedOf). */
export function drawFloors(svg, ctx, { floors, dStars, schema, cs }) {
  const { theme } = ctx;
  for (const [i, { name: n }] of cs.entries()) {
    dashedSeries(svg, ctx, {
      key: `${n}-floor`, color: inkOf(theme, i), dash: FLOOR_DASH, pts: floors[n], meaning: `${n}: ${schema.bounds.d_lambda.help}`,
      tip: (p) => `${n}, L = ${p.L}: D_Λ = ${fmt(p.value)} at Λ = ${fmt(p.scale)} (a proof: no X of logit scale at most Λ succeeds with fewer dimensions)`,
    });
  }
  dashedSeries(svg, ctx, {
    key: 'dStar', color: theme.dStar, dash: DSTAR_DASH, pts: dStars, meaning: schema.metrics.dStar.help,
    tip: (p) => `L = ${p.L}: d*(L) = ${fmt(p.value, 4)} (heuristic estimate)`,
  });
}
