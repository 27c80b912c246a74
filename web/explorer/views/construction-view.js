// attnx explorer: the construction made visible: X (L x 2d) as two labelled halves, "√d·B·P" and "P",
// beside the fixed-weight diagram (the same for every target).
import { el } from '../../common/dom.js';
import { Heatmap } from '../../common/heatmap.js';
import { DIVERGING } from '../../common/diverging.js';
import { Legend } from './legend.js';
import { weightsDiagram } from './weights-diagram.js';
import { fmt } from '../format.js';

function half(title, sub) {
  const canvas = el('canvas', { class: 'heat', role: 'img', 'aria-label': `${title}: ${sub}` });
  const wrap = el('div', { class: 'canvas-wrap' }, canvas);
  const root = el('div', { class: 'xhalf' }, el('div', { class: 'xlabel', text: title }), el('div', { class: 'xsub', text: sub }), wrap);
  return { root, canvas, heat: new Heatmap(canvas) };
}

// The construction card (see the top of this file).
export class ConstructionView {
  // Fills body with the two halves of X, their legend and the weights diagram.
  constructor(body) {
    this.B = half('√d·B·P', 'first d columns of X');
    this.P = half('P', 'last d columns of X');
    this.xview = el('div', { class: 'xview' }, this.B.root, this.P.root);
    this.legendBox = el('div', {});
    this.legend = new Legend(this.legendBox);
    this.diag = el('div', { class: 'wdiag' });
    this.note = el('p', { class: 'cons-note' });
    const left = el('div', {},
      el('h3', { text: 'Inputs X (L × 2d) — the only thing that depends on A' }), this.xview, this.legendBox);
    const right = el('div', {}, el('h3', { text: 'Fixed weights' }), this.diag, this.note);
    body.replaceChildren(el('div', { class: 'cons-grid' }, left, right));
    this.lastD = -1;
  }

  // Draws images.XB / images.XP (pooled halves of X), with info.xmax for the legend and
  // r { L, d } for the labels; the diagram is redrawn only when d changed.
  update(images, info, r) {
    this.B.heat.draw(images.XB, r.L, r.d);
    this.P.heat.draw(images.XP, r.L, r.d);
    this.legend.set(DIVERGING, {
      lo: '−max', hi: '+max',
      caption: `each half scaled to its own largest |value| (√d·B·P: ${fmt(info.xmax[0])}, P: ${fmt(info.xmax[1])}); rows = tokens i, columns = features`,
    });
    if (r.d !== this.lastD) {
      this.diag.replaceChildren(weightsDiagram(r.d));
      this.lastD = r.d;
    }
    this.note.textContent = `Change the pattern, its parameters or the seed: the two heatmaps of X change, the weights on the right never do (they depend only on d = ${r.d}).`;
  }
}
