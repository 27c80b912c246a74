// attnx lab: draws the "dimensions against bits" comparison (compare.js) into the lab's compare
// card (skeleton.js): the two plots, their sentences and tables of numbers. Text only, no markup.
import { el, perFrame } from '../../common/dom.js';
import { currentTheme } from './svg.js';
import { drawDimensions, drawBits } from './plot-compare.js';
import { drawDimBits } from './plot-dim-bits.js';
import {
  dimensionSentence, bitsSentence, dimensionCells, bitsCells, dimensionColumns, bitsColumns,
  dwSentence, dwCells, dwColumns,
} from './compare-summary.js';
import { comparedOf } from '../compare.js';

// Fills a <table> with head `cols` and body `cells` (arrays of strings; the first is the row head).
function fillTable(table, caption, cols, cells) {
  const head = el('thead', {}, el('tr', {}, cols.map((c) => el('th', { scope: 'col', text: c }))));
  const body = el('tbody', {}, cells.map((row) => el('tr', {},
    el('th', { scope: 'row', text: row[0] }), row.slice(1).map((c) => el('td', { class: 'num', text: c })))));
  if (!cells.length) body.append(el('tr', {}, el('td', { class: 'empty', colspan: cols.length, text: 'Press Compare constructions to compute.' })));
  table.replaceChildren(el('caption', { text: caption }), head, body);
}

// The caption of the dimensions table: the searched constructions' median and quantile, the
// others' own D, and every one's floor.
function dimensionCaption(cs) {
  const own = cs.filter((c) => !c.searched).map((c) => `${c.name}'s D, `).join('');
  return `Median minimal d over the trials, its (1−δ)-quantile in brackets, ${own}and each one's proven floor D_Λ at its own logit scale`;
}

const widthOf = (box) => Math.max(300, Math.floor(box.clientWidth || box.getBoundingClientRect().width || 600));

/**
 * Draws the comparison. view: { $ (id -> element), rows (compare.js rows, [] before a run), Ls
 * (the lengths on the axis), core (the module's API on this thread: the axes), schema (the
 * core's: the constructions compared, their kinds and floors, the floors' meanings), dark }.
 */
export function renderCompare({ $, rows, Ls, core, schema, dark }) {
  const theme = currentTheme(dark), cs = comparedOf(schema);
  const wD = widthOf($('plot-cmp-d')), wB = widthOf($('plot-cmp-bits')), wW = widthOf($('plot-cmp-dw'));
  drawDimensions($('plot-cmp-d'), { rows, Ls, core, schema, cs, theme, width: wD });
  drawBits($('plot-cmp-bits'), { rows, Ls, core, cs, theme, width: wB });
  drawDimBits($('plot-cmp-dw'), { rows, core, schema, cs, theme, width: wW });
  $('plot-cmp-dw-sentence').textContent = dwSentence(rows, cs);
  fillTable($('plot-cmp-dw-table'), 'Each X\'s hidden size D and bits per input number w (trial 0), and the counting floors on D·w (bits)', dwColumns(cs), dwCells(rows, cs));
  $('plot-cmp-d-sentence').textContent = dimensionSentence(rows, cs);
  $('plot-cmp-bits-sentence').textContent = bitsSentence(rows, cs);
  fillTable($('plot-cmp-d-table'), dimensionCaption(cs), dimensionColumns(cs), dimensionCells(rows, cs));
  fillTable($('plot-cmp-bits-table'), 'bits(X) of trial 0 at the d it used, and whether X passes in float32 / float64', bitsColumns(cs), bitsCells(rows, cs));
}

/** A scheduler for renderCompare: schedule() draws view() once in the next animation frame,
 *  now() at once. Returns { schedule, now }. */
export function compareScheduler(view) {
  const now = () => renderCompare(view());
  return { schedule: perFrame(now), now };
}
