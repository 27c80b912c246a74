// attnx explorer: one heatmap figure (title, short description, canvas, hover readout, legend).
import { el } from '../../common/dom.js';
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
    this.wrap = el('div', { class: 'canvas-wrap' }, this.canvas, this.rowMark, this.cellMark);
    this.readout = el('div', { class: 'readout', 'aria-live': 'off' });
    // What the heatmap shows, in words (figure-text.js), for screen readers: the canvas's description.
    this.spoken = el('p', { class: 'visually-hidden', id: `${fig.id}-said` });
    this.canvas.setAttribute('aria-describedby', this.spoken.id);
    fig.replaceChildren(el('figcaption', {}, this.title, this.desc), this.wrap, this.readout, this.spoken);
    this.legend = new Legend(fig);
    this.heat = new Heatmap(this.canvas);
    this.setReadout('');
  }

  // Draws a pooled RGBA image { w, h, rgba } of a rows x cols matrix. key (optional): what the
  // image shows (the render worker's key), so an identical image need not be made again.
  draw(img, rows, cols, key = null) {
    this.heat.draw(img, rows, cols);
    this.drawnKey = key;
  }

  // The heatmap's description for screen readers (one or two sentences of the core's numbers).
  setDescription(text) {
    this.spoken.textContent = text || '';
  }

  // The hover readout under the heatmap ('' keeps its height).
  setReadout(text) {
    this.readout.textContent = text || '\u00a0';
  }

  // Marks a row band and/or a cell (data coordinates; null hides).
  setMarks(L, row, cell) {
    const pct = (v) => `${(100 * v) / L}%`;
    this.rowMark.hidden = row === null || row === undefined || row < 0 || row >= L;
    if (!this.rowMark.hidden) {
      this.rowMark.style.top = pct(row);
      this.rowMark.style.height = `max(2px, ${pct(1)})`;
    }
    this.cellMark.hidden = !cell;
    if (cell) {
      this.cellMark.style.top = pct(cell.i);
      this.cellMark.style.left = pct(cell.j);
      this.cellMark.style.width = `max(3px, ${pct(1)})`;
      this.cellMark.style.height = `max(3px, ${pct(1)})`;
    }
  }

  // Dims the heatmap while a new one is computed.
  setBusy(b) {
    this.wrap.classList.toggle('busy', b);
  }
}
