// attnx web: which row the visitor looks at (hovered cell, keyboard cursor or pinned row): marks
// it on the heatmaps, fetches its slice from the render worker and feeds the row inspector and
// the hover readouts.
import { fmt } from './format.js';

const FIGS = ['A', 'M', 'err', 'zero'];

export class RowFocus {
  // ctx: { views, render, getState, getCurrent }
  constructor(ctx) {
    this.ctx = ctx;
    this.hover = null;  // { i, j, view }
    this.cache = new Map();
  }

  // A new construction: cached rows are stale.
  reset() {
    this.cache.clear();
  }

  wanted() {
    const st = this.ctx.getState();
    if (this.hover) return this.hover.i;
    return st.row >= 0 ? st.row : null;
  }

  onHover(c, view) {
    const { views } = this.ctx;
    this.hover = c ? { ...c, view } : null;
    const cur = this.ctx.getCurrent();
    for (const k of FIGS) views[k].setMarks(cur ? cur.L : 1, this.wanted(), c && views[k] === view ? c : null);
    if (!c) for (const k of FIGS) views[k].setReadout('');
    this.show();
  }

  mark() {
    const cur = this.ctx.getCurrent();
    if (!cur) return;
    for (const k of FIGS) this.ctx.views[k].setMarks(cur.L, this.wanted(), null);
  }

  async show() {
    const { views, render } = this.ctx;
    const cur = this.ctx.getCurrent();
    const i = this.wanted();
    if (!cur) return;
    if (i === null || i < 0 || i >= cur.L) {
      views.inspector.clear('Hover over or click a row of any heatmap (or focus one and use the arrow keys) to compare A_i with M_i.');
      return;
    }
    let row = this.cache.get(i);
    if (!row) {
      const msg = await render.row(cur.id, i);
      const now = this.ctx.getCurrent();
      if (!msg || !now || now.id !== cur.id) return;
      row = msg.row;
      if (this.cache.size > 64) this.cache.clear();
      this.cache.set(i, row);
      if (this.wanted() !== i) return;  // the visitor moved on meanwhile
    }
    const st = this.ctx.getState();
    views.inspector.update(row, { L: cur.L, tau: cur.tol.tau, pinned: st.row === i && !this.hover });
    if (this.hover && this.hover.i === i) this.readout(row, this.hover);
  }

  readout(row, c) {
    const { views } = this.ctx;
    const st = this.ctx.getState();
    const t = row.cols.indexOf(c.j);
    const a = t >= 0 ? row.avals[t] : 0;
    const m = row.M[c.j];
    let extra = '';
    if (c.view === views.err) {
      if (t < 0) extra = ' · off the support';
      else {
        const e = row.cols.map((j, s) => row.Z[j] - Math.log(row.avals[s]));
        const ref = st.ref === 'min' ? Math.min(...e) : e.reduce((x, y) => x + y, 0) / e.length;
        extra = ` · error ${fmt(e[t] - ref)}`;
      }
    } else if (c.view === views.zero) {
      if (t >= 0) extra = ' · on the support';
      else {
        const zmin = Math.min(...row.cols.map((j) => row.Z[j]));
        extra = ` · ratio ${fmt(Math.exp(row.Z[c.j] - zmin))}`;
      }
    }
    c.view.setReadout(`(${c.i}, ${c.j}): A = ${fmt(a)}, M = ${fmt(m)}${extra}`);
  }
}
