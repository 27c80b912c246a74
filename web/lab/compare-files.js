// attnx lab: the comparison's files (DOM-free): everything its three plots draw, the module's
// numbers unrounded, as JSON (the rows as compare.js fills them) and as CSV (one line per length
// and construction). The sweep's own files are the core's (files.js); the comparison has no CLI
// counterpart, so its record is the rows themselves.
import { isSearchPart, partsOf } from './compare.js';

/** The JSON record of a comparison: settings (the lab's state it ran with), Ls, complete, and its
 *  rows ({ L, [construction]: part }: compare.js emptyRow, with SPEC §9's floor and bounds). */
export function compareRecord({ settings, Ls, rows, complete }) {
  return { kind: 'attnx-compare', settings, Ls, complete: !!complete, rows };
}

/** The CSV columns, in order (snake_case as the sweep files name SPEC §9's keys). */
export const COMPARE_COLUMNS = ['L', 'construction', 'd', 'quantile', 'd_star', 'logit_scale', 'd_lambda', 'ratio',
  'trial0_d', 'bits', 'fp32', 'fp64', 'bits_per_number', 'bits_fixed_keys', 'bits_free_keys'];

const cell = (v) => (v === null || v === undefined || Number.isNaN(v) ? '' : String(v));

// One construction's line of a row: its d (a search's median d_min, or its own D) with its floor,
// trial 0's precision report and bounds.
function line(L, name, p) {
  const searched = isSearchPart(p);
  const floor = searched ? p.floor || {} : p.bounds || {};
  const t0 = searched ? p.trial0 || {} : { d: p.D, precision: p.precision, bounds: p.bounds };
  const pr = t0.precision || {}, b = t0.bounds || {};
  return [L, name, searched ? p.median : p.D, searched ? p.quantile : null, searched ? p.dStar : null,
    floor.logitScale, floor.dLambda, floor.ratio, t0.d, pr.bits, pr.fp32, pr.fp64, b.bitsPerNumber, b.bitsFixedKeys, b.bitsFreeKeys].map(cell).join(',');
}

/** The CSV text of a comparison's rows, one line per length and construction in the rows' order
 *  (compare.js comparedOf: the schema's); parts not yet arrived are left out. */
export function compareCsv(rows) {
  const out = [COMPARE_COLUMNS.join(',')];
  for (const r of rows) for (const [n, p] of partsOf(r)) if (p) out.push(line(r.L, n, p));
  return `${out.join('\n')}\n`;
}
