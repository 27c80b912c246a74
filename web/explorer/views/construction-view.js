// attnx explorer: the construction made visible: X (L x 2d) as two labelled halves (the queries,
// the keys; named after the construction that chose them: "√d·B·P" and "P" for the paper's),
// beside the fixed-weight diagram (the same for every target).
import { el } from '../../common/dom.js';
import { Heatmap } from '../../common/heatmap.js';
import { DIVERGING } from '../../common/diverging.js';
import { Legend } from './legend.js';
import { weightsDiagram } from './weights-diagram.js';
import { fmt } from '../format.js';

// Names of X's halves per construction: [queries, keys], each [title, subtitle].
const HALVES = {
  jl: [['√d·B·P', 'first d columns of X'], ['P', 'last d columns of X']],
  lp: [['Q: LP queries √d·q_i', 'first d columns: one linear program per row'], ['K = P', 'last d columns: the same random keys as jl']],
  moment: [['Q: √D·coefficients of p_i', 'first D columns: a polynomial per row'], ['K: T₁(t_j) … T_D(t_j)', 'last D columns: the moment curve']],
};

function half(title, sub) {
  const canvas = el('canvas', { class: 'heat', role: 'img', 'aria-label': `${title}: ${sub}` });
  const wrap = el('div', { class: 'canvas-wrap' }, canvas);
  const label = el('div', { class: 'xlabel', text: title }), subEl = el('div', { class: 'xsub', text: sub });
  const root = el('div', { class: 'xhalf' }, label, subEl, wrap);
  const name = (t, s) => {
    label.textContent = t;
    subEl.textContent = s;
    canvas.setAttribute('aria-label', `${t}: ${s}`);
  };
  return { root, canvas, heat: new Heatmap(canvas), name };
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
  // r { L, d, construction } for the labels; the diagram is redrawn only when d changed.
  update(images, info, r) {
    const [q, k] = HALVES[r.construction] || HALVES.jl;
    if (this.shown !== r.construction) {
      this.B.name(q[0], q[1]);
      this.P.name(k[0], k[1]);
      this.shown = r.construction;
    }
    this.B.heat.draw(images.XB, r.L, r.d);
    this.P.heat.draw(images.XP, r.L, r.d);
    this.legend.set(DIVERGING, {
      lo: '−max', hi: '+max',
      caption: `each half scaled to its own largest |value| (${q[0]}: ${fmt(info.xmax[0])}, ${k[0]}: ${fmt(info.xmax[1])}); rows = tokens i, columns = features`,
    });
    if (r.d !== this.lastD) {
      this.diag.replaceChildren(weightsDiagram(r.d));
      this.lastD = r.d;
    }
    this.note.textContent = `Change the pattern, its parameters or the seed: the two heatmaps of X change, the weights on the right never do (they depend only on d = ${r.d}).`;
  }
}
