// attnx explorer: the construction made visible: X (L x 2d) as two labelled halves (the queries,
// the keys; named after the construction that chose them: "√d·B·P" and "P" for the paper's),
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
  // Fills body with the two halves of X, their legend and the weights diagram. schema: the
  // core's (each construction names its halves: schema.constructions[].halves).
  constructor(body, schema) {
    this.halves = new Map(schema.constructions.map((c) => [c.name, c.halves]));
    const [q, k] = schema.constructions[0].halves;
    this.B = half(q[0], q[1]);
    this.P = half(k[0], k[1]);
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
    const [q, k] = this.halves.get(r.construction);
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
