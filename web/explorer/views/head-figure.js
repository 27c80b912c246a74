// attnx explorer: the imported head's dense probabilities as a heatmap beside A and M, on their
// colour scale (the scale kind of the state, vmax and the log floor of the result shown) and in
// their zoom window (window-pool.js, from a pyramid of the head's values), with the file's tokens
// (else indices) as axis labels when a row is tall enough for one and in the hover readout.
// Page only (index.html): the figure is added to the skeleton's figures after M.
import { el } from '../../common/dom.js';
import { VIRIDIS } from '../../common/viridis.js';
import { poolDenseMax, colourise, attentionScale } from '../../common/raster.js';
import { fmt, pow10 } from '../format.js';
import { MatrixView } from './matrix-view.js';
import { tokenText, cellText } from '../head-import.js';
import { windowRegion, MaxPyramid, poolSource } from '../window-pool.js';
import { LABEL_PX } from '../figures.js';

// The dense head's figure (see the top of this file).
export class HeadFigure {
  // figs: the skeleton's #figures section (the figure goes after #fig-M).
  constructor(figs) {
    this.fig = el('figure', { class: 'fig', id: 'fig-head', hidden: true });
    figs.querySelector('#fig-M').after(this.fig);
    this.view = new MatrixView(this.fig, { title: 'Imported head (dense)', desc: 'The head as the file holds it, before its rule; same scale as A and M.' });
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
    this.pyramid = h ? new MaxPyramid(h.L, { level0: h.values }) : null;
    this.fig.hidden = !h;
    this.fig.closest('.figs').classList.toggle('with-head', !!h);
    if (!h) return;
    this.view.title.textContent = h.title;
    const toks = h.tokens && h.tokens.length === h.L ? `; tokens ${h.tokens.slice(0, 8).map((t) => `"${tokenText(t)}"`).join(', ')}${h.L > 8 ? ', …' : ''}` : '';
    this.view.setDescription(`${h.title}: the dense ${h.L} × ${h.L} attention of the head before its rule made it sparse${toks}.`);
  }

  // Draws the head at `budget` pixels per axis on A and M's scale (scale: 'lin' | 'log'; info:
  // the result's { vmax, logFloor }), in zoom window `view` ({ i0, i1, j0, j1 }; null: all), its
  // axes labelled where a row is at least LABEL_PX of `px` CSS pixels.
  draw(scale, info, budget, view = null, px = 0) {
    const h = this.head;
    if (!h || !info || info.vmax === undefined) return;
    const g = view ? windowRegion(view, h.L, budget) : null;
    if (!g && (!this.pooled || this.pooledAt !== budget)) {
      this.pooled = poolDenseMax(h.values, h.L, h.L, budget, budget);
      this.pooledAt = budget;
    }
    const p = g ? poolSource(this.pyramid.source(g), g) : this.pooled;
    const rgba = colourise(p.data, VIRIDIS, attentionScale(scale, info.vmax, info.logFloor));
    this.view.draw({ w: p.w, h: p.h, rgba, region: g }, h.L, h.L);
    const pooled = p.fr > 1 || p.fc > 1 ? ` · ${p.fr}×${p.fc} cells per pixel (max-pooled)` : '';
    this.view.legend.set(VIRIDIS, scale === 'log'
      ? { lo: pow10(info.logFloor), hi: '1', caption: `attention weight, log scale of A and M (entries below its floor at the bottom)${pooled}` }
      : { lo: '0', hi: fmt(info.vmax), caption: `attention weight, the scale of A and M${pooled}` });
    const toks = h.tokens && h.tokens.length === h.L ? h.tokens : null;
    const name = toks ? (n) => tokenText(toks[n], 10) : (n) => String(n);
    name.key = toks ? `tokens:${h.title}` : 'index';
    this.view.setLabels(name, px || this.view.wrap.clientWidth, LABEL_PX);
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
