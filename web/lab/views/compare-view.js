// attnx lab: draws the "dimensions against bits" comparison (compare.js) into the lab's compare
// card (skeleton.js): the two plots, their sentences and tables of numbers. Text only, no markup.
import { el, perFrame } from '../../common/dom.js';
import { currentTheme } from './svg.js';
import { drawDimensions, drawBits } from './plot-compare.js';
import { drawDimBits } from './plot-dim-bits.js';
import {
  dimensionSentence, bitsSentence, dimensionCells, bitsCells, DIMENSION_COLUMNS, BITS_COLUMNS,
  dwSentence, dwCells, DW_COLUMNS,
} from './compare-summary.js';

// Fills a <table> with head `cols` and body `cells` (arrays of strings; the first is the row head).
function fillTable(table, caption, cols, cells) {
  const head = el('thead', {}, el('tr', {}, cols.map((c) => el('th', { scope: 'col', text: c }))));
  const body = el('tbody', {}, cells.map((row) => el('tr', {},
    el('th', { scope: 'row', text: row[0] }), row.slice(1).map((c) => el('td', { class: 'num', text: c })))));
  if (!cells.length) body.append(el('tr', {}, el('td', { class: 'empty', colspan: cols.length, text: 'Press Compare constructions to compute.' })));
  table.replaceChildren(el('caption', { text: caption }), head, body);
}

const widthOf = (box) => Math.max(300, Math.floor(box.clientWidth || box.getBoundingClientRect().width || 600));

/**
 * Draws the comparison. view: { $ (id -> element), rows (compare.js rows, [] before a run), Ls
 * (the lengths on the axis), core (the module's API on this thread: the axes), schema (the
 * core's: the floors' meanings), dark }.
 */
export function renderCompare({ $, rows, Ls, core, schema, dark }) {
  const theme = currentTheme(dark);
  const wD = widthOf($('plot-cmp-d')), wB = widthOf($('plot-cmp-bits')), wW = widthOf($('plot-cmp-dw'));
  drawDimensions($('plot-cmp-d'), { rows, Ls, core, schema, theme, width: wD });
  drawBits($('plot-cmp-bits'), { rows, Ls, core, theme, width: wB });
  drawDimBits($('plot-cmp-dw'), { rows, core, schema, theme, width: wW });
  $('plot-cmp-dw-sentence').textContent = dwSentence(rows);
  fillTable($('plot-cmp-dw-table'), 'Each X\'s hidden size D and bits per input number w (trial 0), and the counting floors on D·w (bits)', DW_COLUMNS, dwCells(rows));
  $('plot-cmp-d-sentence').textContent = dimensionSentence(rows);
  $('plot-cmp-bits-sentence').textContent = bitsSentence(rows);
  fillTable($('plot-cmp-d-table'), 'Median minimal d over the trials, its (1−δ)-quantile in brackets, moment\'s D, and each one\'s proven floor D_Λ at its own logit scale', DIMENSION_COLUMNS, dimensionCells(rows));
  fillTable($('plot-cmp-bits-table'), 'bits(X) of trial 0 at the d it used, and whether X passes in float32 / float64', BITS_COLUMNS, bitsCells(rows));
}

/** A scheduler for renderCompare: schedule() draws view() once in the next animation frame,
 *  now() at once. Returns { schedule, now }. */
export function compareScheduler(view) {
  const now = () => renderCompare(view());
  return { schedule: perFrame(now), now };
}
