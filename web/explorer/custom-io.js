// attnx explorer: import and export of custom patterns. The core reads and writes the text
// (parsePattern / formatPattern through the worker pool: JSON triplets [[i,j,w],...] or
// {"L":n,"triplets":[...]}, or CSV lines "i,j,w"); its refusals name the line or entry. The page
// only checks that L fits its own range and keeps the previous pattern on error.
import { parseField } from '../common/hashstate.js';
import { CustomPattern } from './custom-pattern.js';

// Reads pattern text with the core. lField: the state table's L field (the page's range).
// Resolves { pattern: CustomPattern } or { error: message } (never rejects).
export async function importPattern(pool, text, lField) {
  let r;
  try {
    r = await pool.run('parsePattern', { text, L: null });
  } catch (e) {
    return { error: String((e && e.message) || e) };
  }
  const L = parseField('L', lField, String(r.L));
  if (L.error) return { error: L.error };
  const t = r.triplets;
  return { pattern: CustomPattern.fromTriplets(r.L, t.rows, t.cols, t.vals) };
}

// The text of pattern p (a CustomPattern) in format 'json' | 'csv', written by the core.
// Rejects with the core's error.
export async function exportPattern(pool, p, format) {
  return pool.run('formatPattern', { pattern: { L: p.L, triplets: p.toTriplets() }, format });
}
