// attnx explorer: one heatmap figure (title, short description, canvas, hover readout, legend),
// with the row and cell marks and the axis labels (tokens or indices) of the region it shows.
import { el, setChildren } from '../../common/dom.js';
import { Heatmap } from '../../common/heatmap.js';
import { Legend } from './legend.js';

// One heatmap figure (see the top of this file).
export class MatrixView {
  // Fills the <figure> fig: caption (title, desc), canvas (aria-label label or title), row and cell
  // marks, readout and legend.
  constructor(fig, { title, desc, label }) {
    this.fig = fig;
    this.title = el('span', { class: 'fig-title', text: title });
    this.desc = el('span', { class: 'fig-desc', text: desc });
    this.canvas = el('canvas', { class: 'heat', tabindex: '0', role: 'img', 'aria-label': label || title });
    this.rowMark = el('div', { class: 'row-mark overlay', hidden: true });
    this.cellMark = el('div', { class: 'cell-mark overlay', hidden: true });
    // Axis labels (setLabels): the rows' down the left edge, the columns' along the top.
    this.rowLabels = el('div', { class: 'tok-rows', 'aria-hidden': 'true', hidden: true });
    this.colLabels = el('div', { class: 'tok-cols', 'aria-hidden': 'true', hidden: true });
    this.wrap = el('div', { class: 'canvas-wrap' }, this.canvas, this.rowMark, this.cellMark, this.rowLabels, this.colLabels);
    this.readout = el('div', { class: 'readout', 'aria-live': 'off' });
    // What the heatmap shows, in words (figure-text.js), for screen readers: the canvas's description.
    this.spoken = el('p', { class: 'visually-hidden', id: `${fig.id}-said` });
    this.canvas.setAttribute('aria-describedby', this.spoken.id);
    fig.replaceChildren(el('figcaption', {}, this.title, this.desc), this.wrap, this.readout, this.spoken);
    this.legend = new Legend(fig);
    this.heat = new Heatmap(this.canvas);
    this.setReadout('');
  }

  // Draws a pooled RGBA image { w, h, rgba, region? } of a rows x cols matrix (region: the part
  // it shows, { i0, i1, j0, j1 }; default all). key (optional): what the image shows (the render
  // worker's key), so an identical image need not be made again.
  draw(img, rows, cols, key = null) {
    this.heat.draw(img, rows, cols, img.region || null);
    this.drawnKey = key;
  }

  // The region drawn ({ i0, i1, j0, j1 }).
  get region() {
    return this.heat.region;
  }

  /**
   * Labels the rows and columns of the region drawn with name(n) (plain text: tokens, indices),
   * each axis only when its cells are at least minPx tall (wide) in `px` CSS pixels; name null
   * hides them.
   */
  setLabels(name, px, minPx) {
    const g = this.heat.region;
    const rows = !!name && px / (g.i1 - g.i0) >= minPx, cols = !!name && px / (g.j1 - g.j0) >= minPx;
    this.rowLabels.hidden = !rows;
    this.colLabels.hidden = !cols;
    const key = name ? `${g.i0},${g.i1},${g.j0},${g.j1}|${name.key}` : '';
    if ((!rows && !cols) || key === this.labelKey) return;
    this.labelKey = key;
    const spans = (a, b) => Array.from({ length: b - a }, (_, n) => {
      const s = el('span', { text: name(a + n) });
      s.style.setProperty('--i', String(n));  // CSSOM, not a style attribute (the pages' CSP)
      return s;
    });
    setChildren(this.rowLabels, spans(g.i0, g.i1));
    setChildren(this.colLabels, spans(g.j0, g.j1));
    this.rowLabels.style.setProperty('--n', String(g.i1 - g.i0));
    this.colLabels.style.setProperty('--n', String(g.j1 - g.j0));
  }

  // The heatmap's description for screen readers (one or two sentences of the core's numbers),
  // followed by the zoom window's words (setWindowWords).
  setDescription(text) {
    this.described = text || '';
    this.spoken.textContent = [this.described, this.windowWords].filter(Boolean).join(' ');
  }

  // The zoom window in words ('' when the whole matrix is shown), after the description.
  setWindowWords(words) {
    if (words === this.windowWords) return;
    this.windowWords = words;
    this.setDescription(this.described);
  }

  // The hover readout under the heatmap ('' keeps its height); spoken: announced politely (the
  // keyboard's cursor moved), else not (a pointer's hover).
  setReadout(text, spoken = false) {
    const live = spoken ? 'polite' : 'off';
    if (this.readout.getAttribute('aria-live') !== live) this.readout.setAttribute('aria-live', live);
    this.readout.textContent = text || '\u00a0';
    this.readout.dataset.empty = text ? '0' : '1';  // a phone folds an empty readout away (explorer.css)
  }

  // Marks a row band and/or a cell (data coordinates of an L x L matrix, shown where they fall in
  // the region drawn; null or outside it hides).
  setMarks(L, row, cell) {
    const g = this.heat.rows === L ? this.heat.region : { i0: 0, i1: L, j0: 0, j1: L };
    const y = (v) => `${(100 * (v - g.i0)) / (g.i1 - g.i0)}%`, x = (v) => `${(100 * (v - g.j0)) / (g.j1 - g.j0)}%`;
    this.rowMark.hidden = row === null || row === undefined || row < g.i0 || row >= g.i1;
    if (!this.rowMark.hidden) {
      this.rowMark.style.top = y(row);
      this.rowMark.style.height = `max(2px, ${y(g.i0 + 1)})`;
    }
    this.cellMark.hidden = !cell || cell.i < g.i0 || cell.i >= g.i1 || cell.j < g.j0 || cell.j >= g.j1;
    if (!this.cellMark.hidden) {
      this.cellMark.style.top = y(cell.i);
      this.cellMark.style.left = x(cell.j);
      this.cellMark.style.width = `max(3px, ${x(g.j0 + 1)})`;
      this.cellMark.style.height = `max(3px, ${y(g.i0 + 1)})`;
    }
  }

  // Dims the heatmap while a new one is computed.
  setBusy(b) {
    this.wrap.classList.toggle('busy', b);
  }
}
