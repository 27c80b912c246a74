// attnx explorer: the zoom window, the page field `view=i0,i1,j0,j1` (rows i0..i1-1 and columns
// j0..j1-1 of the L x L figures; '' is the whole matrix, which links leave out). Its text read
// with the core's rule (schema.pageLimits.viewMinSpan; the core's own reader is the API's
// viewWindow(), core/attention/view_window.cpp, and tests/node/view-window.test.mjs checks that
// both accept the same texts with the same messages), and the window arithmetic of zooming,
// panning and moving to a row. DOM-free.

// The fewest rows (and columns) a window of an L x L matrix has (the core's view_min_span).
export function viewMinSpan(schema, L) {
  return Math.min(schema.pageLimits.viewMinSpan, L);
}

// The allowed windows in the core's words (view_window_range_text).
export function viewRangeText(schema, L) {
  const m = viewMinSpan(schema, L);
  return `i0,i1,j0,j1 with 0 <= i0 < i1 <= ${L} and 0 <= j0 < j1 <= ${L}, at least ${m} rows and ${m} columns`;
}

/**
 * Reads the text of a view (raw, as a link or an attribute has it) for an L x L matrix, by the
 * core's integer-list grammar (grammar: numberGrammar(schema) of schema-table.js). Returns
 * { value } (the canonical text: '' for the whole matrix) or { error } naming view and the allowed
 * range, as the core words it. Never throws.
 */
export function readView(raw, L, schema, grammar) {
  const s = String(raw);
  const parts = grammar.intList.test(s) ? s.split(',').map(Number) : [];
  const m = viewMinSpan(schema, L);
  const ok = parts.length === 4 && parts.every(Number.isSafeInteger)
    && parts[0] >= 0 && parts[1] <= L && parts[1] - parts[0] >= m && parts[2] >= 0 && parts[3] <= L && parts[3] - parts[2] >= m;
  if (!ok) {
    const note = grammar.notes.find((n) => n.re.test(s));
    return { error: `view must be ${viewRangeText(schema, L)} (got "${s.slice(0, 40)}"${note ? `; ${note.note}` : ''})` };
  }
  return { value: windowText({ i0: parts[0], i1: parts[1], j0: parts[2], j1: parts[3] }, L) };
}

// The window of a canonical view text (the state's view field) for L; the whole matrix for ''
// (or a text that is no window of L: a state keeps none, see clampView).
export function windowOf(text, L) {
  const p = String(text || '').split(',').map(Number);
  if (p.length !== 4 || !(p[0] >= 0 && p[1] <= L && p[0] < p[1] && p[2] >= 0 && p[3] <= L && p[2] < p[3])) return { i0: 0, i1: L, j0: 0, j1: L };
  return { i0: p[0], i1: p[1], j0: p[2], j1: p[3] };
}

// The view text of window w of an L x L matrix: '' for the whole matrix.
export function windowText(w, L) {
  return isFull(w, L) ? '' : `${w.i0},${w.i1},${w.j0},${w.j1}`;
}

export function isFull(w, L) {
  return w.i0 === 0 && w.j0 === 0 && w.i1 === L && w.j1 === L;
}

// The view text kept when L changes: the window if it is still one of the new L (the state's
// view field is only ever a valid window), else the whole matrix.
export function clampView(text, L, minSpan) {
  if (!text) return '';
  const w = windowOf(text, L);
  const ok = String(text) === `${w.i0},${w.i1},${w.j0},${w.j1}` && w.i1 - w.i0 >= minSpan && w.j1 - w.j0 >= minSpan;
  return ok ? windowText(w, L) : '';
}

// One axis [a, b) of [0, L) scaled to `span` cells (at least minSpan, at most L) about cell c,
// which stays where it was on screen (its share of the way across is kept).
function scaleAxis(a, b, L, span, c) {
  const share = (c + 0.5 - a) / (b - a);
  const lo = Math.round(c + 0.5 - share * span);
  const start = Math.max(0, Math.min(L - span, lo));
  return [start, start + span];
}

/**
 * Window w zoomed by `factor` (> 1 in, < 1 out) about cell (ci, cj) of an L x L matrix: each span
 * becomes round(span / factor), kept between minSpan and L. Returns the new window (w itself when
 * nothing changes).
 */
export function zoomWindow(w, L, factor, ci, cj, minSpan) {
  const span = (a, b) => Math.max(minSpan, Math.min(L, Math.round((b - a) / factor)));
  let sr = span(w.i0, w.i1), sc = span(w.j0, w.j1);
  // A step that would not change a span (a small factor on a small window) moves it by one cell.
  if (factor > 1 && sr === w.i1 - w.i0 && sr > minSpan) sr--;
  if (factor > 1 && sc === w.j1 - w.j0 && sc > minSpan) sc--;
  if (factor < 1 && sr === w.i1 - w.i0 && sr < L) sr++;
  if (factor < 1 && sc === w.j1 - w.j0 && sc < L) sc++;
  const [i0, i1] = scaleAxis(w.i0, w.i1, L, sr, ci);
  const [j0, j1] = scaleAxis(w.j0, w.j1, L, sc, cj);
  return i0 === w.i0 && i1 === w.i1 && j0 === w.j0 && j1 === w.j1 ? w : { i0, i1, j0, j1 };
}

// Window w moved by di rows and dj columns, kept inside the L x L matrix.
export function panWindow(w, L, di, dj) {
  const move = (a, b, d) => {
    const s = Math.max(0, Math.min(L - (b - a), a + Math.round(d)));
    return [s, s + (b - a)];
  };
  const [i0, i1] = move(w.i0, w.i1, di);
  const [j0, j1] = move(w.j0, w.j1, dj);
  return { i0, i1, j0, j1 };
}

// The smallest move of window w that brings cell (i, j) inside it (w itself when it is in).
export function followCell(w, L, i, j) {
  const di = i < w.i0 ? i - w.i0 : i >= w.i1 ? i - w.i1 + 1 : 0;
  const dj = j < w.j0 ? j - w.j0 : j >= w.j1 ? j - w.j1 + 1 : 0;
  return di || dj ? panWindow(w, L, di, dj) : w;
}

/**
 * The window that shows row i with columns c0..c1-1 (a row's support): `rows` rows with i in the
 * middle, and `cols` columns centred on the support (starting at its first column when it is
 * wider), inside the L x L matrix.
 */
export function windowAtRow(L, i, c0, c1, rows, cols = rows) {
  const sr = Math.min(L, rows), sc = Math.min(L, cols);
  const start = (centre, s) => Math.max(0, Math.min(L - s, Math.round(centre - s / 2)));
  const i0 = start(i + 0.5, sr);
  const j0 = c1 - c0 <= sc ? start((c0 + c1) / 2, sc) : Math.min(L - sc, c0);
  return { i0, i1: i0 + sr, j0, j1: j0 + sc };
}

// "rows 12–43, columns 0–31" (inclusive, as people count them) of window w.
export function windowWords(w) {
  return `rows ${w.i0}–${w.i1 - 1}, columns ${w.j0}–${w.j1 - 1}`;
}
