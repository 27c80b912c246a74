// attnx lab: what the "dimensions against bits" comparison shows, as data and text (DOM-free):
// the plotted series, the sentences under the plots and the cells of the two small tables. Every
// number is one the core returned (compare.js rows); here they are only picked and worded. Which
// constructions there are, in which order, and which are searched is the schema's: every function
// takes `cs` (compare.js comparedOf(schema)); those that read rows only default to the rows' own
// (compare.js comparedIn).
import { comparedIn } from '../compare.js';
import { fmt } from '../../explorer/format.js';
import { floorSeries, xDimension } from './compare-floors-summary.js';

export { floorSeries, dStarSeries, dwSeries, bitsFloors, dwGist, dwSentence, dwCells, dwColumns } from './compare-floors-summary.js';

/** "a", "a and b", "a, b and c": the items of a list in prose. */
export function andList(items) {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The names of the constructions cs in prose ("jl, lp and moment"). */
export const namesText = (cs) => andList(cs.map((c) => c.name));

// The dimension a construction c's part of a row shows: the median d_min (searched) or its own D;
// null when not known or not reached.
function dimensionOf(c, part) {
  if (!part) return null;
  return c.searched ? part.median : part.D;
}

// The precision report a construction c's part of a row shows (trial 0's), or null when it has not
// arrived; { noX: true } when trial 0 did not reach a d (nothing to measure).
function reportOf(c, part) {
  if (!part) return null;
  if (!c.searched) return part.precision;
  if (part.trial0 === undefined) return null;
  return part.trial0.precision ?? { noX: true };
}

/** The series of plot (a): per construction [{ L, value (null: not reached), detail }] over the
 *  rows whose part has arrived. detail: every trial's d_min (searched) or null. */
export function dimensionSeries(rows, cs = comparedIn(rows)) {
  const out = {};
  for (const c of cs) {
    const n = c.name;
    out[n] = rows.filter((r) => r[n]).map((r) => ({ L: r.L, value: dimensionOf(c, r[n]), detail: c.searched ? r[n].dMins : null }));
  }
  return out;
}

/** The series of plot (b): per construction [{ L, bits (null: > 53), noX, fp32, fp64, d }] over
 *  the rows whose report has arrived (noX: trial 0 reached no d, so there is no X). */
export function bitsSeries(rows, cs = comparedIn(rows)) {
  const out = {};
  for (const c of cs) {
    const name = c.name;
    out[name] = [];
    for (const r of rows) {
      const p = reportOf(c, r[name]);
      if (!p) continue;
      const d = xDimension(c, r[name]);
      out[name].push(p.noX ? { L: r.L, bits: null, noX: true, fp32: null, fp64: null, d } : { L: r.L, bits: p.bits, noX: false, fp32: p.fp32, fp64: p.fp64, d });
    }
  }
  return out;
}

const dText = (v) => (v === null || v === undefined ? 'not reached' : Number.isInteger(v) ? String(v) : v.toFixed(1));

// The last row (largest L) where every construction's value is known, by `pick(c, row)`.
function lastFull(rows, cs, pick) {
  for (let i = rows.length - 1; i >= 0; i--) if (cs.every((c) => pick(c, rows[i]) !== null)) return rows[i];
  return null;
}

/** The sentence under plot (a): what it shows, with the numbers of the largest length that has
 *  every construction's part. */
export function dimensionSentence(rows, cs = comparedIn(rows)) {
  const gist = 'Many dimensions for jl (random projection), far fewer for lp (optimal queries over the same keys), a fixed D = 2m for moment whatever L';
  const r = lastFull(rows, cs, (c, row) => (row[c.name] ? 1 : null));
  if (!r) return `${gist}.`;
  const searched = cs.filter((c) => c.searched).map((c) => `${dText(r[c.name].median)} for ${c.name}`);
  const clauses = [...(searched.length ? [`the median d_min is ${andList(searched)}`] : []), ...cs.filter((c) => !c.searched).map((c) => `${c.name} has D = ${r[c.name].D}`)];
  return `${gist}: at L = ${r.L} ${clauses.join('; ')}.`;
}

const bitsText = (p) => (p.noX ? 'no X (d_min not reached)' : p.bits === null ? 'more than 53 (not reached)' : String(p.bits));

/** The sentence under plot (b): the other side of the trade, with the numbers of the largest
 *  length that has every construction's report. */
export function bitsSentence(rows, cs = comparedIn(rows)) {
  const gist = 'The other side of the trade: few significand bits for jl, many for moment (its logits are differences of huge numbers), lp in between';
  const r = lastFull(rows, cs, (c, row) => reportOf(c, row[c.name]));
  if (!r) return `${gist}.`;
  return `${gist}: at L = ${r.L} bits(X) is ${andList(cs.map((c) => `${bitsText(reportOf(c, r[c.name]))} for ${c.name}`))}.`;
}

const verdict = (ok) => (ok === null || ok === undefined ? '—' : ok ? 'pass' : 'fail');

/** The cells of the dimensions table, one array of strings per row: L, per construction its
 *  median d_min (quantile) if searched, else its D, then per construction its floor D_Λ ('…'
 *  while a part is computing). */
export function dimensionCells(rows, cs = comparedIn(rows)) {
  const sweep = (p) => (p ? `${dText(p.median)} (${dText(p.quantile)})` : '…');
  const floors = floorSeries(rows, cs);
  const floor = (n, r) => {
    const f = floors[n].find((q) => q.L === r.L);
    return f ? fmt(f.value) : r[n] ? '—' : '…';
  };
  const dim = (c, p) => (c.searched ? sweep(p) : p ? String(p.D) : '…');
  return rows.map((r) => [String(r.L), ...cs.map((c) => dim(c, r[c.name])), ...cs.map((c) => floor(c.name, r))]);
}

/** The cells of the bits table: L, then per construction bits(X) at d (trial 0) and the float32
 *  and float64 verdicts ('…' while computing; 'n.r.' for bits over 53; '—' without an X). */
export function bitsCells(rows, cs = comparedIn(rows)) {
  return rows.map((r) => {
    const cells = [String(r.L)];
    for (const c of cs) {
      const p = reportOf(c, r[c.name]);
      if (!p) cells.push('…', '…');
      else if (p.noX) cells.push('— (no d)', '—');
      else cells.push(`${p.bits === null ? 'n.r.' : p.bits} (d = ${xDimension(c, r[c.name])})`, `${verdict(p.fp32)} / ${verdict(p.fp64)}`);
    }
    return cells;
  });
}

/** Column heads of the two tables for the constructions cs (their cells: dimensionCells,
 *  bitsCells). */
export function dimensionColumns(cs) {
  return ['L', ...cs.map((c) => (c.searched ? `${c.name}: median d_min (quantile)` : `${c.name}: D`)), ...cs.map((c) => `${c.name}: floor D_Λ`)];
}
export const bitsColumns = (cs) => ['L', ...cs.flatMap((c) => [`${c.name}: bits(X)`, `${c.name}: fp32 / fp64`])];

/** The line on the search grids a comparison uses: grids (compare.js searchGrids: { [name]:
 *  { step, dmax } }) of the searched constructions of cs, each on its own grid or the lab's. */
export function gridsSentence(grids, cs) {
  const g = (n) => `d = ${grids[n].step}, ${2 * grids[n].step}, … up to ${grids[n].dmax}`;
  const on = (c, i) => `${c.name}'s${i ? '' : ' d is searched'} on ${c.ownGrid ? `its own${i ? '' : ' grid'}` : 'the lab\'s grid'} (${g(c.name)})`;
  return `${cs.filter((c) => c.searched).map(on).join(', ')}.`;
}

