// attnx explorer: which row the visitor looks at (hovered cell, keyboard cursor or pinned row): marks
// it on the heatmaps, fetches its slice from the render worker and feeds the row inspector and
// the hover readouts. A result computed without the dense M (no row was in focus) has no slices:
// the controller is asked to compute it again with them (ctx.needDense).
import { fmt } from './format.js';

const FIGS = ['A', 'M', 'err', 'zero'];

// The row in focus (see the top of this file).
export class RowFocus {
  // ctx: { views (A, M, err, zero, inspector), render (RenderClient), getState(), getCurrent(),
  // needDense(id) }
  constructor(ctx) {
    this.ctx = ctx;
    this.hover = null;  // { i, j, view }
    this.cache = new Map();
  }

  // A new construction: cached rows are stale.
  reset() {
    this.cache.clear();
  }

  // The row to show: the hovered one, else the pinned one (st.row), else null.
  wanted() {
    const st = this.ctx.getState();
    if (this.hover) return this.hover.i;
    return st.row >= 0 ? st.row : null;
  }

  // The pointer or keyboard cursor is over cell c ({ i, j }, null: left) of `view`: marks the row
  // and cell on every heatmap and shows the row.
  onHover(c, view) {
    const { views } = this.ctx;
    this.hover = c ? { ...c, view } : null;
    const cur = this.ctx.getCurrent();
    for (const k of FIGS) views[k].setMarks(cur ? cur.L : 1, this.wanted(), c && views[k] === view ? c : null);
    if (!c) for (const k of FIGS) views[k].setReadout('');
    this.show();
  }

  // Marks the wanted row on every heatmap (no cell).
  mark() {
    const cur = this.ctx.getCurrent();
    if (!cur) return;
    for (const k of FIGS) this.ctx.views[k].setMarks(cur.L, this.wanted(), null);
  }

  // Shows the wanted row in the inspector (fetched from the render worker once per construction)
  // and, when hovered, its readout. Ignores answers that arrive after the construction changed.
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
      if (msg.missing) {  // computed without the dense M: once more with it, if a row is still wanted
        if (this.wanted() !== null) this.ctx.needDense(cur.id);
        return;
      }
      row = msg.row;
      if (this.cache.size > 64) this.cache.clear();
      this.cache.set(i, row);
      if (this.wanted() !== i) return;  // the visitor moved on meanwhile
    }
    const st = this.ctx.getState();
    views.inspector.update(row, { L: cur.L, tau: cur.tol.tau, pinned: st.row === i && !this.hover, inputs: cur.inputs });
    if (this.hover && this.hover.i === i) this.readout(row, this.hover);
  }

  // The hover readout of cell c in the view it is over: A_ij, M_ij, and the core's ratio error
  // (err view) or the zero ratio exp(Z_ij - supportMinLogit_i) (zero view).
  readout(row, c) {
    const { views } = this.ctx;
    const t = row.cols.indexOf(c.j);
    const a = t >= 0 ? row.avals[t] : 0;
    let extra = '';
    if (c.view === views.err) {
      const e = this.ctx.getState().ref === 'min' ? row.errMin : row.errMean;
      extra = t < 0 ? ' · off the support' : ` · error ${fmt(e[t])}`;
    } else if (c.view === views.zero) {
      extra = t >= 0 ? ' · on the support' : ` · ratio ${fmt(Math.exp(row.Z[c.j] - row.supportMinLogit))}`;
    }
    c.view.setReadout(`(${c.i}, ${c.j}): A = ${fmt(a)}, M = ${fmt(row.M[c.j])}${extra}`);
  }
}
