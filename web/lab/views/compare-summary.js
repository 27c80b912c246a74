// attnx lab: what the "dimensions against bits" comparison shows, as data and text (DOM-free):
// the plotted series, the sentences under the plots and the cells of the two small tables. Every
// number is one the core returned (compare.js rows); here they are only picked and worded.
import { COMPARED, isSearched } from '../compare.js';
import { fmt } from '../../explorer/format.js';

// The dimension a construction's part of a row shows: the median d_min (jl, lp) or D (moment);
// null when not known or not reached.
function dimensionOf(name, part) {
  if (!part) return null;
  return isSearched(name) ? part.median : part.D;
}

// The precision report a construction's part of a row shows (trial 0's), or null when it has not
// arrived; { noX: true } when trial 0 did not reach a d (nothing to measure).
function reportOf(name, part) {
  if (!part) return null;
  if (!isSearched(name)) return part.precision;
  if (part.trial0 === undefined) return null;
  return part.trial0.precision ?? { noX: true };
}

/** The series of plot (a): per construction [{ L, value (null: not reached), detail }] over the
 *  rows whose part has arrived. detail: every trial's d_min (jl, lp) or null. */
export function dimensionSeries(rows) {
  const out = {};
  for (const name of COMPARED) {
    out[name] = rows.filter((r) => r[name]).map((r) => ({ L: r.L, value: dimensionOf(name, r[name]), detail: isSearched(name) ? r[name].dMins : null }));
  }
  return out;
}

/** The series of plot (b): per construction [{ L, bits (null: > 53), noX, fp32, fp64, d }] over
 *  the rows whose report has arrived (noX: trial 0 reached no d, so there is no X). */
export function bitsSeries(rows) {
  const out = {};
  for (const name of COMPARED) {
    out[name] = [];
    for (const r of rows) {
      const p = reportOf(name, r[name]);
      if (!p) continue;
      const d = isSearched(name) ? r[name].trial0.d : r[name].D;
      out[name].push(p.noX ? { L: r.L, bits: null, noX: true, fp32: null, fp64: null, d } : { L: r.L, bits: p.bits, noX: false, fp32: p.fp32, fp64: p.fp64, d });
    }
  }
  return out;
}

const dText = (v) => (v === null || v === undefined ? 'not reached' : Number.isInteger(v) ? String(v) : v.toFixed(1));

// The last row (largest L) where every construction's value is known, by `pick(name, row)`.
function lastFull(rows, pick) {
  for (let i = rows.length - 1; i >= 0; i--) if (COMPARED.every((n) => pick(n, rows[i]) !== null)) return rows[i];
  return null;
}

/** The sentence under plot (a): what it shows, with the numbers of the largest length that has
 *  all three. */
export function dimensionSentence(rows) {
  const gist = 'Many dimensions for jl (random projection), far fewer for lp (optimal queries over the same keys), a fixed D = 2m for moment whatever L';
  const r = lastFull(rows, (n, row) => (row[n] ? 1 : null));
  if (!r) return `${gist}.`;
  return `${gist}: at L = ${r.L} the median d_min is ${dText(r.jl.median)} for jl and ${dText(r.lp.median)} for lp; moment has D = ${r.moment.D}.`;
}

const bitsText = (p) => (p.noX ? 'no X (d_min not reached)' : p.bits === null ? 'more than 53 (not reached)' : String(p.bits));

/** The sentence under plot (b): the other side of the trade, with the numbers of the largest
 *  length that has all three reports. */
export function bitsSentence(rows) {
  const gist = 'The other side of the trade: few significand bits for jl, many for moment (its logits are differences of huge numbers), lp in between';
  const r = lastFull(rows, (n, row) => reportOf(n, row[n]));
  if (!r) return `${gist}.`;
  const b = (n) => bitsText(reportOf(n, r[n]));
  return `${gist}: at L = ${r.L} bits(X) is ${b('jl')} for jl, ${b('lp')} for lp and ${b('moment')} for moment.`;
}

const verdict = (ok) => (ok === null || ok === undefined ? '—' : ok ? 'pass' : 'fail');

/** The cells of the dimensions table, one array of strings per row: L, jl median (quantile), lp
 *  median (quantile), moment D ('…' while a part is computing). */
export function dimensionCells(rows) {
  const sweep = (p) => (p ? `${dText(p.median)} (${dText(p.quantile)})` : '…');
  const floors = floorSeries(rows);
  const floor = (n, r) => {
    const f = floors[n].find((q) => q.L === r.L);
    return f ? fmt(f.value) : r[n] ? '—' : '…';
  };
  return rows.map((r) => [String(r.L), sweep(r.jl), sweep(r.lp), r.moment ? String(r.moment.D) : '…', ...COMPARED.map((n) => floor(n, r))]);
}

/** The cells of the bits table: L, then per construction bits(X) at d (trial 0) and the float32
 *  and float64 verdicts ('…' while computing; 'n.r.' for bits over 53; '—' without an X). */
export function bitsCells(rows) {
  return rows.map((r) => {
    const cells = [String(r.L)];
    for (const n of COMPARED) {
      const p = reportOf(n, r[n]);
      if (!p) cells.push('…', '…');
      else if (p.noX) cells.push('— (no d)', '—');
      else cells.push(`${p.bits === null ? 'n.r.' : p.bits} (d = ${isSearched(n) ? r[n].trial0.d : r[n].D})`, `${verdict(p.fp32)} / ${verdict(p.fp64)}`);
    }
    return cells;
  });
}

/** Column heads of the two tables (their cells: dimensionCells, bitsCells). */
export const DIMENSION_COLUMNS = ['L', 'jl: median d_min (quantile)', 'lp: median d_min (quantile)', 'moment: D', ...COMPARED.map((n) => `${n}: floor D_Λ`)];
export const BITS_COLUMNS = ['L', ...COMPARED.flatMap((n) => [`${n}: bits(X)`, `${n}: fp32 / fp64`])];

/** The line on the search grids a comparison uses (compare.js searchGrid per searched
 *  construction: { jl: { step, dmax }, lp: { step, dmax } }). */
export function gridsSentence(grids) {
  const g = (n) => `d = ${grids[n].step}, ${2 * grids[n].step}, … up to ${grids[n].dmax}`;
  return `jl's d is searched on the lab's grid (${g('jl')}), lp's on its own (${g('lp')}).`;
}

// --- SPEC §9: the proven floors beside the comparison (every number the module's) ---

const known = (v) => v !== null && v !== undefined && !Number.isNaN(v);

// The §9 bounds record of a construction's X in a row (trial 0's at its d_min; moment's), or null.
function boundsOf(name, part) {
  if (!part) return null;
  if (!isSearched(name)) return part.bounds ?? null;
  return part.trial0 ? part.trial0.bounds ?? null : null;
}

/** The packing floors of plot (a): per construction [{ L, value: D_Λ, scale: Λ }] where known:
 *  jl and lp at the trials' median Λ (compare.js sweepPart), moment at its X's Λ. */
export function floorSeries(rows) {
  const out = {};
  for (const name of COMPARED) {
    out[name] = [];
    for (const r of rows) {
      const p = r[name];
      const f = !p ? null : isSearched(name) ? p.floor : p.bounds;
      if (f && known(f.dLambda) && f.dLambda > 0 && Number.isFinite(f.dLambda)) out[name].push({ L: r.L, value: f.dLambda, scale: f.logitScale });
    }
  }
  return out;
}

/** The d*(L) estimate of each row whose sweep has arrived: [{ L, value }]. */
export function dStarSeries(rows) {
  const out = [];
  for (const r of rows) {
    const p = COMPARED.map((n) => r[n]).find((q) => q && known(q.dStar));
    if (p) out.push({ L: r.L, value: p.dStar });
  }
  return out;
}

/** The points of the dimensions-versus-bits plot: per construction [{ L, D, w }] of the X whose
 *  w (bits per input number, SPEC §9.3) is known. */
export function dwSeries(rows) {
  const out = {};
  for (const name of COMPARED) {
    out[name] = [];
    for (const r of rows) {
      const b = boundsOf(name, r[name]);
      const D = isSearched(name) ? r[name] && r[name].trial0 && r[name].trial0.d : r[name] && r[name].D;
      if (b && known(b.bitsPerNumber) && known(D)) out[name].push({ L: r.L, D, w: b.bitsPerNumber });
    }
  }
  return out;
}

/** The counting floors of SPEC §9.3 on D·w per length (any report of the row carries them):
 *  [{ L, bitsFixedKeys, bitsFreeKeys }]. */
export function bitsFloors(rows) {
  const out = [];
  for (const r of rows) {
    const b = COMPARED.map((n) => boundsOf(n, r[n])).find((x) => x && known(x.bitsFixedKeys));
    if (b) out.push({ L: r.L, bitsFixedKeys: b.bitsFixedKeys, bitsFreeKeys: b.bitsFreeKeys });
  }
  return out;
}

const floorText = (v) => (known(v) ? fmt(v, 5) : '—');

/** The sentence under plot (c): what the counting floors say, with the numbers of the largest
 *  length whose floors and points are known. */
export function dwSentence(rows) {
  const gist = 'Fewer dimensions cost more bits: keys fixed before the target (jl, lp) need D·w at least log2 C(L,k) bits, keys chosen with it (moment, any X) at least log2(L!)/(2L)';
  const floors = bitsFloors(rows);
  if (!floors.length) return `${gist}.`;
  const f = floors[floors.length - 1];
  const pts = dwSeries(rows);
  const at = COMPARED.map((n) => pts[n].find((p) => p.L === f.L)).map((p, i) => (p ? `${COMPARED[i]} D = ${p.D}, w = ${p.w}` : null)).filter(Boolean);
  return `${gist}: at L = ${f.L} these floors are ${floorText(f.bitsFixedKeys)} and ${floorText(f.bitsFreeKeys)} bits${at.length ? `; ${at.join('; ')}` : ''}.`;
}

/** The cells of the dimensions-and-bits table: L, per construction "D × w" of trial 0's X
 *  ('…' while computing, '—' without a w), then the two floors on D·w. */
export function dwCells(rows) {
  const pts = dwSeries(rows), floors = bitsFloors(rows);
  return rows.map((r) => {
    const cells = [String(r.L)];
    for (const n of COMPARED) {
      const p = pts[n].find((q) => q.L === r.L);
      cells.push(p ? `D = ${p.D}, w = ${p.w}` : r[n] ? '—' : '…');
    }
    const f = floors.find((q) => q.L === r.L);
    cells.push(f ? floorText(f.bitsFixedKeys) : '…', f ? floorText(f.bitsFreeKeys) : '…');
    return cells;
  });
}

/** Column heads of the dimensions-and-bits table (dwCells). */
export const DW_COLUMNS = ['L', ...COMPARED.map((n) => `${n}: D, w`), 'floor on D·w, fixed keys', 'floor on D·w, free keys'];
