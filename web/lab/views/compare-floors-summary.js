// attnx lab: SPEC §9 beside the "dimensions against bits" comparison, as data and text (DOM-free):
// each construction's packing floor D_Λ, the d*(L) estimate, every X's (D, w) and the counting
// floors on D·w, their sentence and table cells (views/compare-summary.js has the rest and
// re-exports these). Every number the module's (compare.js rows); which constructions there are
// and which are searched is the schema's: `cs` is compare.js comparedOf(schema), by default the
// rows' own (comparedIn).
import { comparedIn } from '../compare.js';
import { fmt } from '../../explorer/format.js';

/** The hidden size of the X a part measures: trial 0's d (searched construction c) or its own D
 *  (undefined while trial 0's report is pending). */
export const xDimension = (c, part) => (c.searched ? part.trial0 && part.trial0.d : part.D);

const known = (v) => v !== null && v !== undefined && !Number.isNaN(v);

// The §9 bounds record of construction c's X in a row (trial 0's at its d_min, or its own D's),
// or null.
function boundsOf(c, part) {
  if (!part) return null;
  if (!c.searched) return part.bounds ?? null;
  return part.trial0 ? part.trial0.bounds ?? null : null;
}

/** The packing floors of plot (a): per construction [{ L, value: D_Λ, scale: Λ }] where known: a
 *  searched one at the trials' median Λ (compare.js sweepPart), the others at their X's Λ. */
export function floorSeries(rows, cs = comparedIn(rows)) {
  const out = {};
  for (const c of cs) {
    out[c.name] = [];
    for (const r of rows) {
      const p = r[c.name];
      const f = !p ? null : c.searched ? p.floor : p.bounds;
      if (f && known(f.dLambda) && f.dLambda > 0 && Number.isFinite(f.dLambda)) out[c.name].push({ L: r.L, value: f.dLambda, scale: f.logitScale });
    }
  }
  return out;
}

/** The d*(L) estimate of each row whose sweep has arrived: [{ L, value }]. */
export function dStarSeries(rows, cs = comparedIn(rows)) {
  const out = [];
  for (const r of rows) {
    const p = cs.map((c) => r[c.name]).find((q) => q && known(q.dStar));
    if (p) out.push({ L: r.L, value: p.dStar });
  }
  return out;
}

/** The points of the dimensions-versus-bits plot: per construction [{ L, D, w }] of the X whose
 *  w (bits per input number, SPEC §9.3) is known. */
export function dwSeries(rows, cs = comparedIn(rows)) {
  const out = {};
  for (const c of cs) {
    out[c.name] = [];
    for (const r of rows) {
      const b = boundsOf(c, r[c.name]);
      const D = r[c.name] && xDimension(c, r[c.name]);
      if (b && known(b.bitsPerNumber) && known(D)) out[c.name].push({ L: r.L, D, w: b.bitsPerNumber });
    }
  }
  return out;
}

/** The counting floors of SPEC §9.3 on D·w per length (any report of the row carries them):
 *  [{ L, bitsFixedKeys, bitsFreeKeys }]. */
export function bitsFloors(rows, cs = comparedIn(rows)) {
  const out = [];
  for (const r of rows) {
    const b = cs.map((c) => boundsOf(c, r[c.name])).find((x) => x && known(x.bitsFixedKeys));
    if (b) out.push({ L: r.L, bitsFixedKeys: b.bitsFixedKeys, bitsFreeKeys: b.bitsFreeKeys });
  }
  return out;
}

const floorText = (v) => (known(v) ? fmt(v, 5) : '—');

// The two counting floors (the schema's bounds keys, as constructions name theirs in bitsFloor),
// each with the keys it is about and the bound in words, and the X it holds for whatever keys.
const BITS_FLOORS = [
  { key: 'bits_fixed_keys', keys: 'keys fixed before the target', need: 'need D·w at least log2 C(L,k) bits', any: [] },
  { key: 'bits_free_keys', keys: 'keys chosen with it', need: 'at least log2(L!)/(2L)', any: ['any X'] },
];

/** The gist of plot (c): each counting floor with the constructions cs whose floor it is (the
 *  schema's bitsFloor), in their order. */
export function dwGist(cs) {
  const parts = BITS_FLOORS.map((f) => {
    const who = [...cs.filter((c) => c.bitsFloor === f.key).map((c) => c.name), ...f.any];
    return `${f.keys}${who.length ? ` (${who.join(', ')})` : ''} ${f.need}`;
  });
  return `Fewer dimensions cost more bits: ${parts.join(', ')}`;
}

/** The sentence under plot (c): what the counting floors say (dwGist: cs must carry bitsFloor,
 *  compare.js comparedOf), with the numbers of the largest length whose floors and points are
 *  known. */
export function dwSentence(rows, cs) {
  const gist = dwGist(cs);
  const floors = bitsFloors(rows, cs);
  if (!floors.length) return `${gist}.`;
  const f = floors[floors.length - 1];
  const pts = dwSeries(rows, cs);
  const at = cs.map((c) => [c.name, pts[c.name].find((p) => p.L === f.L)]).filter(([, p]) => p).map(([n, p]) => `${n} D = ${p.D}, w = ${p.w}`);
  return `${gist}: at L = ${f.L} these floors are ${floorText(f.bitsFixedKeys)} and ${floorText(f.bitsFreeKeys)} bits${at.length ? `; ${at.join('; ')}` : ''}.`;
}

/** The cells of the dimensions-and-bits table: L, per construction "D × w" of trial 0's X
 *  ('…' while computing, '—' without a w), then the two floors on D·w. */
export function dwCells(rows, cs = comparedIn(rows)) {
  const pts = dwSeries(rows, cs), floors = bitsFloors(rows, cs);
  return rows.map((r) => {
    const cells = [String(r.L)];
    for (const c of cs) {
      const p = pts[c.name].find((q) => q.L === r.L);
      cells.push(p ? `D = ${p.D}, w = ${p.w}` : r[c.name] ? '—' : '…');
    }
    const f = floors.find((q) => q.L === r.L);
    cells.push(f ? floorText(f.bitsFixedKeys) : '…', f ? floorText(f.bitsFreeKeys) : '…');
    return cells;
  });
}

/** Column heads of the dimensions-and-bits table (dwCells) for the constructions cs. */
export const dwColumns = (cs) => ['L', ...cs.map((c) => `${c.name}: D, w`), 'floor on D·w, fixed keys', 'floor on D·w, free keys'];
