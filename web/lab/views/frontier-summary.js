// attnx lab: the frontier's numbers in words and in a table (DOM-free): one sentence comparing each
// construction with the proven floor at its logit scale, and one row per point of the plot. Every
// number is the core's (frontierResult); only its formatting is here.
import { fmt } from '../../explorer/format.js';

const known = (v) => v !== null && v !== undefined && Number.isFinite(v);
const ratio = (d, floor) => (known(d) && known(floor) && floor > 0 ? d / floor : null);
const settingOf = (schema, p) => {
  const c = schema.constructions.find((x) => x.name === p.construction);
  return c && c.frontierKey ? p[c.frontierKey] : null;
};

// The point of the search nearest (in log scale) to logit scale `x`.
function nearest(points, schema, x) {
  let best = null;
  for (const p of points) {
    const s = settingOf(schema, p);
    if (!known(s) || !known(x)) continue;
    if (!best || Math.abs(Math.log(s / x)) < Math.abs(Math.log(settingOf(schema, best) / x))) best = p;
  }
  return best;
}

// One clause per construction: its median d (or D) at its logit scale and how far above the floor.
function clause(schema, result, name, paperScale) {
  const info = schema.constructions.find((c) => c.name === name);
  const pts = result.points.filter((p) => p.construction === name);
  if (info.mark === 'search') {
    const p = nearest(pts, schema, paperScale) || pts[0];
    if (!p) return null;
    if (!known(p.median)) return `${name} did not reach at Λ_max = ${fmt(settingOf(schema, p))} (search)`;
    return `${name} needs D = ${fmt(p.median)} at Λ_max = ${fmt(settingOf(schema, p))}, ${fmt(ratio(p.median, p.d_lambda), 2)}× the floor ${fmt(p.d_lambda)} there (a search)`;
  }
  if (info.frontierKey) {
    const ok = pts.filter((p) => known(p.median));
    if (!ok.length) return `${name} did not reach at any ${info.frontierParam}`;
    const lo = ok.reduce((a, b) => (b.median < a.median ? b : a));
    return `${name} reaches d = ${fmt(lo.median)} only at Λ ≈ ${fmt(lo.logit_scale)} (${info.frontierParam} ${fmt(settingOf(schema, lo))})`;
  }
  const p = pts[0];
  if (!p || !known(p.median)) return `${name} does not reach (${p ? p.not_reached : 0} of ${p ? p.d_mins.length : 0} trials)`;
  return `${name} needs d = ${fmt(p.median)} at its own Λ ≈ ${fmt(p.logit_scale)}, ${fmt(ratio(p.median, p.d_lambda), 3)}× the floor`;
}

/** The plot's sentence: at L, each construction against the floor (the paper's first). */
export function frontierSentence(result, schema) {
  if (!result) return 'Press Draw the frontier to compute.';
  const names = result.params.constructions;
  const first = result.points.find((p) => p.construction === schema.constructions[0].name);
  const paperScale = first && known(first.logit_scale) ? first.logit_scale : result.params.scales[0];
  const parts = names.map((n) => clause(schema, result, n, paperScale)).filter(Boolean);
  return `At L = ${result.params.L} over ${result.params.trials} targets: ${parts.join('; ')}.${result.partial ? ' (Partial: the points still running are left out.)' : ''}`;
}

export const FRONTIER_COLUMNS = ['what', 'construction', 'setting', 'median d (min–max)', 'not reached', 'Λ (median)', 'floor D_Λ', '× floor'];

/** The table's rows (strings): the floor at each budget, then every point. */
export function frontierCells(result, schema) {
  if (!result) return [];
  const rows = result.floor.map((f) => ['proof', 'floor', `Λ_max ${fmt(f.scale)}`, '', '', fmt(f.scale), fmt(f.d_lambda), '']);
  for (const p of result.points) {
    const s = settingOf(schema, p);
    const c = schema.constructions.find((x) => x.name === p.construction);
    rows.push([p.mark, p.construction, s === null || s === undefined ? '' : `${c.frontierParam} ${fmt(s)}`,
      known(p.median) ? `${fmt(p.median)} (${fmt(p.min)}–${fmt(p.max)})` : 'not reached', String(p.not_reached),
      fmt(p.logit_scale), fmt(p.d_lambda), fmt(ratio(p.median, p.d_lambda), 3)]);
  }
  return rows;
}
