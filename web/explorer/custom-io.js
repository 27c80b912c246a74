// attnx web: import/export of custom patterns as JSON triplets ([[i,j,w],...] or
// {"L":n,"triplets":[...]}) or CSV lines "i,j,w". Errors name the line (CSV, JSON lines) or the
// entry and the problem; the caller keeps the previous pattern on error.
import { CustomPattern } from './custom-pattern.js';
import { parseWithLines } from './json-lines.js';

const MAX_ENTRIES = 200000;

// Validates triplets [{i, j, w, where}] and builds a pattern. L defaults to max index + 1.
function build(entries, L, maxL) {
  if (entries.length === 0) return { error: 'no entries found: expected triplets i, j, w' };
  let mx = 0;
  for (const e of entries) mx = Math.max(mx, e.i, e.j);
  if (L === undefined) L = Math.max(2, mx + 1);
  if (!Number.isInteger(L) || L < 2 || L > maxL) return { error: `L must be an integer from 2 to ${maxL} (got ${L})` };
  const p = new CustomPattern(L);
  for (const e of entries) {
    if (e.i >= L || e.j >= L) return { error: `${e.where}: index (${e.i}, ${e.j}) is outside 0..${L - 1}` };
    if (p.rows[e.i].has(e.j)) return { error: `${e.where}: cell (${e.i}, ${e.j}) appears twice` };
    if (e.w > 0) p.rows[e.i].set(e.j, e.w);
  }
  for (let i = 0; i < L; i++) {
    if (p.rows[i].size === 0) return { error: `row ${i} has no positive weight; every row needs at least one (L = ${L})` };
  }
  return { pattern: p };
}

function checkEntry(i, j, w, where) {
  if (!Number.isInteger(i) || i < 0) return `${where}: row index i must be an integer ≥ 0 (got ${String(i).slice(0, 20)})`;
  if (!Number.isInteger(j) || j < 0) return `${where}: column index j must be an integer ≥ 0 (got ${String(j).slice(0, 20)})`;
  if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) return `${where}: weight w must be a finite number ≥ 0 (got ${String(w).slice(0, 20)})`;
  return null;
}

export function parseJSON(text, maxL) {
  let doc, lineOf;
  try {
    ({ value: doc, lineOf } = parseWithLines(text));
  } catch (e) {
    return { error: `${e.message} (not valid JSON)` };
  }
  let L;
  let list = doc;
  if (!Array.isArray(doc)) {
    if (!doc || typeof doc !== 'object' || !Array.isArray(doc.triplets)) {
      return { error: 'JSON must be an array [[i,j,w],...] or an object {"L": n, "triplets": [[i,j,w],...]}' };
    }
    list = doc.triplets;
    if (doc.L !== undefined) L = doc.L;
  }
  if (list.length > MAX_ENTRIES) return { error: `too many entries (${list.length} > ${MAX_ENTRIES})` };
  const entries = [];
  for (let t = 0; t < list.length; t++) {
    const e = list[t];
    const where = `line ${lineOf(list, t)} (entry ${t + 1})`;
    if (!Array.isArray(e) || e.length !== 3) return { error: `${where}: expected [i, j, w] (got ${JSON.stringify(e)?.slice(0, 30)})` };
    const msg = checkEntry(e[0], e[1], e[2], where);
    if (msg) return { error: msg };
    entries.push({ i: e[0], j: e[1], w: e[2], where });
  }
  return build(entries, L, maxL);
}

export function parseCSV(text, maxL) {
  const lines = text.split(/\r?\n/);
  const entries = [];
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    const where = `line ${n + 1}`;
    if (line === '' || line.startsWith('#')) continue;
    const cells = line.split(/\s*[,;\t]\s*|\s+/);
    if (entries.length === 0 && /^[a-z_ ,;\t]+$/i.test(line)) continue;  // header "i,j,w"
    if (cells.length !== 3) return { error: `${where}: expected 3 values "i,j,w" (got ${cells.length})` };
    const num = (s) => (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s) ? Number(s) : NaN);
    const [i, j, w] = cells.map(num);
    const msg = checkEntry(i, j, w, where);
    if (msg) return { error: msg };
    if (entries.length >= MAX_ENTRIES) return { error: `too many entries (> ${MAX_ENTRIES})` };
    entries.push({ i, j, w, where });
  }
  return build(entries, undefined, maxL);
}

// Chooses the parser from the content (a leading "[" or "{" means JSON).
export function parsePattern(text, maxL) {
  const t = text.trim();
  if (t === '') return { error: 'nothing to import: paste JSON or CSV triplets' };
  return t[0] === '[' || t[0] === '{' ? parseJSON(t, maxL) : parseCSV(t, maxL);
}

export function toJSON(p) {
  const trip = [];
  const { rows, cols, vals } = p.toTriplets();
  for (let t = 0; t < vals.length; t++) trip.push(`[${rows[t]},${cols[t]},${vals[t]}]`);
  return `{"L":${p.L},"triplets":[\n${trip.join(',\n')}\n]}\n`;
}

export function toCSV(p) {
  const { rows, cols, vals } = p.toTriplets();
  let s = 'i,j,w\n';
  for (let t = 0; t < vals.length; t++) s += `${rows[t]},${cols[t]},${vals[t]}\n`;
  return s;
}
