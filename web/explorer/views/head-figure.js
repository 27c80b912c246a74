// attnx explorer: the imported head's dense probabilities as a heatmap beside A and M, on their
// colour scale (the scale kind of the state, vmax and the log floor of the result shown), with
// the file's tokens as axis labels when a row is tall enough for one and in the hover readout.
// Page only (index.html): the figure is added to the skeleton's figures after M.
import { el, setChildren } from '../../common/dom.js';
import { VIRIDIS } from '../../common/viridis.js';
import { poolDenseMax, colourise, attentionScale } from '../../common/raster.js';
import { fmt, pow10 } from '../format.js';
import { MatrixView } from './matrix-view.js';
import { tokenText, cellText } from '../head-import.js';

const LABEL_PX = 13;  // a token label needs a row (or column) at least this tall on screen

// The dense head's figure (see the top of this file).
export class HeadFigure {
  // figs: the skeleton's #figures section (the figure goes after #fig-M).
  constructor(figs) {
    this.fig = el('figure', { class: 'fig', id: 'fig-head', hidden: true });
    figs.querySelector('#fig-M').after(this.fig);
    this.view = new MatrixView(this.fig, { title: 'Imported head (dense)', desc: 'The head as the file holds it, before its rule; same scale as A and M.' });
    this.rowLabels = el('div', { class: 'tok-rows', 'aria-hidden': 'true' });
    this.colLabels = el('div', { class: 'tok-cols', 'aria-hidden': 'true' });
    this.view.wrap.append(this.rowLabels, this.colLabels);
    this.head = null;
    this.view.canvas.addEventListener('pointermove', (ev) => this.hover(this.view.heat.cellAt(ev.clientX, ev.clientY)));
    this.view.canvas.addEventListener('pointerleave', () => this.hover(null));
  }

  /**
   * Shows head h ({ values: Float32Array L*L, L, tokens, title }) or hides the figure (null).
   * The image is drawn by draw().
   */
  set(h) {
    this.head = h;
    this.pooled = null;
    this.fig.hidden = !h;
    this.fig.closest('.figs').classList.toggle('with-head', !!h);
    if (!h) return;
    this.view.title.textContent = h.title;
    const toks = h.tokens && h.tokens.length === h.L ? `; tokens ${h.tokens.slice(0, 8).map((t) => `"${tokenText(t)}"`).join(', ')}${h.L > 8 ? ', …' : ''}` : '';
    this.view.setDescription(`${h.title}: the dense ${h.L} × ${h.L} attention of the head before its rule made it sparse${toks}.`);
    this.labels();
  }

  // Draws the head at `budget` pixels per axis on A and M's scale (scale: 'lin' | 'log'; info:
  // the result's { vmax, logFloor }).
  draw(scale, info, budget) {
    const h = this.head;
    if (!h || !info || info.vmax === undefined) return;
    if (!this.pooled || this.pooledAt !== budget) {
      this.pooled = poolDenseMax(h.values, h.L, h.L, budget, budget);
      this.pooledAt = budget;
    }
    const p = this.pooled;
    const rgba = colourise(p.data, VIRIDIS, attentionScale(scale, info.vmax, info.logFloor));
    this.view.draw({ w: p.w, h: p.h, rgba }, h.L, h.L);
    const pooled = p.fr > 1 ? ` · ${p.fr}×${p.fr} cells per pixel (max-pooled)` : '';
    this.view.legend.set(VIRIDIS, scale === 'log'
      ? { lo: pow10(info.logFloor), hi: '1', caption: `attention weight, log scale of A and M (entries below its floor at the bottom)${pooled}` }
      : { lo: '0', hi: fmt(info.vmax), caption: `attention weight, the scale of A and M${pooled}` });
    this.labels();
  }

  // The token labels along the left and top edges when each row is at least LABEL_PX tall.
  labels() {
    const h = this.head;
    const size = this.view.wrap.clientWidth;
    const fits = !!(h && h.tokens && h.tokens.length === h.L && size / h.L >= LABEL_PX);
    this.rowLabels.hidden = !fits;
    this.colLabels.hidden = !fits;
    if (!fits || this.labelled === h) return;
    this.labelled = h;
    const span = (t, i) => {
      const s = el('span', { text: tokenText(t, 10) });
      s.style.setProperty('--i', String(i));  // CSSOM, not a style attribute (the pages' CSP)
      return s;
    };
    setChildren(this.rowLabels, h.tokens.map(span));
    setChildren(this.colLabels, h.tokens.map(span));
    this.view.wrap.style.setProperty('--n', String(h.L));
  }

  // The readout of the cell under the pointer (with its tokens).
  hover(c) {
    const h = this.head;
    if (!h || !c) {
      this.view.setReadout('');
      return;
    }
    this.view.setReadout(cellText(h.tokens, c.i, c.j, h.values[c.i * h.L + c.j]));
  }
}
