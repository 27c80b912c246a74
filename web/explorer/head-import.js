// attnx explorer: a model's attention head as the target (issue 24). DOM-free. The core reads the
// file and makes the head sparse (readAttention / importHead / surveyHead on the worker pool,
// core/api/calls_heads.cpp); this module only turns its answers into the page's pieces: the custom
// pattern and link fields of the target, the readout's items, token labels, and the survey
// grid's columns and order. No rule, archetype or number is made here.
import { CustomPattern } from './custom-pattern.js';
import { fmt, fmtInt } from './format.js';

// The largest file the page reads into memory (the core checks its own budget after that).
export const MAX_HEAD_FILE_BYTES = 256e6;
// The sample served with the site (scripts/build-dist copies examples/heads.npy), relative to
// this module, so the page works from any sub-path.
export const SAMPLE_URL = new URL('../examples/heads.npy', import.meta.url);
export const SAMPLE_NAME = 'heads.npy';

/**
 * The pool call for `method` (readAttention, importHead, surveyHead) on a file { blob, name }:
 * the Blob (a File, or the sample's) goes to the worker as a handle, never as bytes: the worker
 * reads it and the core parses it there (web/lib/worker.js), so the page's thread never holds the
 * file or its values, whatever its size. Options are the core's (layer, head, rule, softmax; eps,
 * tau, seed for the survey); fixedBudget: the page offers no memory budget to raise, so a
 * refusal over it names attnx import instead. Returns the options object pool.run takes.
 */
export function fileCall(file, options = {}) {
  return { file: file.blob, name: file.name, options: { ...options, fixedBudget: true } };
}

/**
 * The status line of a file the core refused while opening it: its message starts with the
 * file's name ("a.npy: the attention is not square ..."), which "Could not open a.npy:" says once.
 */
export function openRefusal(name, message) {
  const m = String(message);
  return `Could not open ${name}: ${m.startsWith(`${name}: `) ? m.slice(name.length + 2) : m}`;
}

/**
 * The target of an importHead result r: { pattern: CustomPattern (the core's triplets, weights
 * as the core renormalised them), fields: the link fields { layer, head, rule, softmax } as the
 * core read them (params) }.
 */
export function importedTarget(r) {
  const t = r.pattern.triplets;
  const pattern = CustomPattern.fromTriplets(r.pattern.L, t.rows, t.cols, t.vals);
  const p = r.params;
  return { pattern, fields: { layer: p.layer, head: p.head, rule: p.rule, softmax: p.softmax } };
}

/**
 * The readout of a head's description d (the core's HeadDescription) as items { key, value,
 * text }: value the core's number (for data-value), text what the page shows.
 */
export function headReadout(d) {
  const a = d.archetype;
  return [
    { key: 'keptMassMin', value: d.keptMassMin, text: `kept mass min ${fmt(d.keptMassMin)} (row ${d.keptMassMinRow})` },
    { key: 'keptMassMedian', value: d.keptMassMedian, text: `median ${fmt(d.keptMassMedian)}` },
    { key: 'archetype', value: a.code, text: `archetype: ${a.kind === 'none' ? 'none' : a.label} (share ${fmt(a.share)}${a.kind === 'none' ? ', the closest' : ''})` },
    { key: 'nnz', value: d.nnz, text: `${fmtInt(d.nnz)} nonzeros, k = ${d.k}` },
    { key: 'headInClass', value: d.inClass, text: d.inClass ? `max column count ${d.maxColCount} ≤ k: inside the class` : `max column count ${d.maxColCount} > k: outside the class (${d.columnsOverK} column${d.columnsOverK === 1 ? '' : 's'} over k)` },
    ...(d.fallbackRows > 0 ? [{ key: 'fallbackRows', value: d.fallbackRows, text: `${d.fallbackRows} row${d.fallbackRows === 1 ? '' : 's'} kept only their largest entry` }] : []),
  ];
}

// A token as a label: at most max characters (an ellipsis marks a cut); line breaks, tabs and
// leading or trailing spaces made visible. Only the token's first max + 1 characters (and its
// end, for trailing spaces) are looked at: a token of megabytes costs what a short one does.
export function tokenText(token, max = 16) {
  const t = String(token);
  const head = t.slice(0, 2 * (max + 1));  // max + 1 characters, surrogate pairs included
  const chars = [...head];
  const cut = chars.length > max || head.length < t.length;
  const shown = cut ? chars.slice(0, max - 1).join('') : head;
  const s = shown.replace(/\n/g, '⏎').replace(/\t/g, '⇥').replace(/^ +/, (m) => '·'.repeat(m.length));
  return cut ? `${s}…` : s.replace(/ +$/, (m) => '·'.repeat(m.length));
}

// Cell (i, j) of a head in words, with its tokens when the file has them.
export function cellText(tokens, i, j, p) {
  const tok = (n) => (tokens && tokens.length > n ? ` "${tokenText(tokens[n], 24)}"` : '');
  return `query ${i}${tok(i)} → key ${j}${tok(j)}: ${fmt(p)}`;
}

// The survey grid's sortable columns: key, label and the row's value (null: not known, sorted
// last). Rows are surveyHead results.
export const SURVEY_COLUMNS = [
  { key: 'index', label: 'layer and head', value: (r) => r.layer * 1e7 + r.head },
  { key: 'k', label: 'k', value: (r) => r.description.k },
  { key: 'maxColCount', label: 'max column count', value: (r) => r.description.maxColCount },
  { key: 'inClass', label: 'class flag (inside first)', value: (r) => (r.description.inClass ? 0 : 1) },
  { key: 'archetype', label: 'archetype', value: (r) => r.description.archetype.code },
  { key: 'keptMassMin', label: 'kept mass (min)', value: (r) => r.description.keptMassMin },
  { key: 'lpDMin', label: 'minimal d of lp', value: (r) => r.lpDMin },
  { key: 'jlDMin', label: 'minimal d of jl', value: (r) => r.jlDMin },
];

/**
 * The survey rows ordered by column `key` (SURVEY_COLUMNS), ascending; unknown values (null: a d
 * not reached, or a head not surveyed yet) last; ties by layer and head. Returns a new array.
 */
export function sortSurvey(rows, key) {
  const col = SURVEY_COLUMNS.find((c) => c.key === key) || SURVEY_COLUMNS[0];
  const idx = SURVEY_COLUMNS[0].value;
  const v = (r) => (r.description ? col.value(r) : null);
  return [...rows].sort((a, b) => {
    const x = v(a), y = v(b);
    if ((x === null) !== (y === null)) return x === null ? 1 : -1;
    if (x !== null && x !== y) return x < y ? -1 : 1;
    return idx(a) - idx(b);
  });
}

// Every (layer, head) of a file read by readAttention (info: { layers, heads }), layer by layer.
export function everyHead(info) {
  const out = [];
  for (let layer = 0; layer < info.layers; layer++) for (let head = 0; head < info.heads; head++) out.push({ layer, head });
  return out;
}
