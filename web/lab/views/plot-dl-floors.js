// attnx lab: SPEC §9.4 on plot 1 (d versus L): the packing floor D_Λ of the sweep's construction
// at the trials' median logit scale (the points' d_lambda and logit_scale, merged by the core: a
// proof, assuming bounded logits) and the moment curve's D = 2m (core.bounds(...).momentD: enough
// in exact arithmetic), each labelled with what it assumes and titled with the core's meaning.
// Files without SPEC §9's keys (older sweeps) draw neither floor line.
import { el, title, lineSwatch } from './svg.js';
import { fmt } from '../../explorer/format.js';
import { scaleText } from './plot-compare-floors.js';

const known = (v) => v !== null && v !== undefined && !Number.isNaN(v);
const FLOOR_DASH = '4 3';
const MOMENT_DASH = '1 3';

/** The floors of a result's points: { floors: [{ L, value: D_Λ, scale: Λ }], twoM: [{ L, value:
 *  2m }] } (twoM from core.bounds at each point's L and k, its largest row support). */
export function floorData(core, points) {
  const floors = points.filter((p) => known(p.d_lambda) && Number.isFinite(p.d_lambda)).map((p) => ({ L: p.L, value: p.d_lambda, scale: p.logit_scale }));
  const twoM = floors.length ? points.filter((p) => known(p.k) && p.k >= 1 && p.k <= p.L).map((p) => ({ L: p.L, value: core.bounds({ L: p.L, k: p.k }).momentD })) : [];
  return { floors, twoM };
}

/** Legend entries of the floor lines drawn (data: plot-dl.js's, with floorData's members). */
export function floorLegend(theme, { floors, twoM }) {
  const out = [];
  if (floors.length) out.push({ label: `floor D_Λ, bounded logits ${scaleText(floors) || ''}`.trim(), ink: theme.ink, draw: lineSwatch(theme.ink, FLOOR_DASH, 1.6) });
  if (twoM.length) out.push({ label: 'D = 2m (moment): exact arithmetic', ink: theme.ink, draw: lineSwatch(theme.muted, MOMENT_DASH, 2) });
  return out;
}

// A line through pts with hollow markers, in a group data-series = key titled `meaning`.
function line(area, { xs, ys, theme }, { key, color, dash, pts, meaning, tip }) {
  const g = el('g', { 'data-series': key, class: 'floor-series' }, area);
  title(g, meaning);
  if (pts.length > 1) el('polyline', { points: pts.map((p) => `${xs(p.L).toFixed(1)},${ys(p.value).toFixed(1)}`).join(' '), fill: 'none', stroke: color, 'stroke-width': 1.6, 'stroke-dasharray': dash }, g);
  for (const p of pts) title(el('circle', { cx: xs(p.L).toFixed(1), cy: ys(p.value).toFixed(1), r: 2.6, fill: theme.bg, stroke: color, 'stroke-width': 1.3, 'data-value': String(p.value) }, g), tip(p));
}

/** Draws the floor lines of plot 1 into its clipped area (ctx: plot-dl-layers.js's context). */
export function drawFloorLines(ctx, schema) {
  const { data, theme } = ctx;
  const moment = schema.constructions.find((c) => c.dimension === '2m');
  line(ctx.area, ctx, {
    key: 'd_lambda', color: theme.ink, dash: FLOOR_DASH, pts: data.floors, meaning: schema.bounds.d_lambda.help,
    tip: (p) => `L = ${p.L}: D_Λ = ${fmt(p.value)} at the median Λ = ${fmt(p.scale)} (a proof)`,
  });
  line(ctx.area, ctx, {
    key: 'two_m', color: theme.muted, dash: MOMENT_DASH, pts: data.twoM, meaning: moment ? moment.summary : '',
    tip: (p) => `L = ${p.L}: D = 2m = ${p.value} (the moment curve succeeds with it in exact arithmetic)`,
  });
}
