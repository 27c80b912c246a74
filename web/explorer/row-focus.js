// attnx explorer: which row the visitor looks at (hovered cell, keyboard cursor or pinned row): marks
// it on the heatmaps, fetches its slice from the render worker and feeds the row inspector and
// the hover readouts. A result computed without the dense M (no row was in focus) has no slices:
// the controller is asked to compute it again with them (ctx.needDense).
import { fmt } from './format.js';
import { tokenText } from './head-import.js';

const FIGS = ['A', 'M', 'err', 'zero'];

// The row in focus (see the top of this file).
export class RowFocus {
  // ctx: { views (A, M, err, zero, inspector), render (RenderClient), getState(), getCurrent(),
  // needDense(id), getTokens(): the target's tokens (an imported head's) or null }
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

  // The pointer or keyboard cursor (keys true: its readout is announced) is over cell c ({ i, j },
  // null: left) of `view`: marks the row and cell on every heatmap and shows the row.
  onHover(c, view, keys = false) {
    const { views } = this.ctx;
    this.hover = c ? { ...c, view, keys } : null;
    const cur = this.ctx.getCurrent();
    for (const k of FIGS) views[k].setMarks(cur ? cur.L : 1, this.wanted(), c && views[k] === view ? c : null);
    if (!c) for (const k of FIGS) views[k].setReadout('');
    this.show();
  }

  // Marks the wanted row on every heatmap, and the hovered cell on its heatmap (where the region
  // drawn puts them).
  mark() {
    const cur = this.ctx.getCurrent();
    if (!cur) return;
    const h = this.hover;
    for (const k of FIGS) this.ctx.views[k].setMarks(cur.L, this.wanted(), h && this.ctx.views[k] === h.view ? h : null);
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

  // The hover readout of cell c in the view it is over: the query and key (with their tokens when
  // the target has them), A_ij, M_ij, the core's ratio error (err view) or the zero ratio
  // exp(Z_ij - supportMinLogit_i) (zero view), and the row's verdict. Tokens are text.
  readout(row, c) {
    const { views } = this.ctx;
    const tokens = this.ctx.getTokens ? this.ctx.getTokens() : null;
    const tok = (n) => (tokens && tokens.length > n ? ` "${tokenText(tokens[n], 16)}"` : '');
    const t = row.cols.indexOf(c.j);
    const a = t >= 0 ? row.avals[t] : 0;
    let extra = '';
    if (c.view === views.err) {
      const e = this.ctx.getState().ref === 'min' ? row.errMin : row.errMean;
      extra = t < 0 ? ' · off the support' : ` · error ${fmt(e[t])}`;
    } else if (c.view === views.zero) {
      extra = t >= 0 ? ' · on the support' : ` · ratio ${fmt(Math.exp(row.Z[c.j] - row.supportMinLogit))}`;
    }
    const fails = [!row.okR && '(R)', !row.okZ && '(Z)'].filter(Boolean);
    const verdict = fails.length ? `row ${c.i} fails ${fails.join(' and ')}` : `row ${c.i} holds (R) and (Z)`;
    c.view.setReadout(`(${c.i}${tok(c.i)}, ${c.j}${tok(c.j)}): A = ${fmt(a)}, M = ${fmt(row.M[c.j])}${extra} · ${verdict}`, c.keys);
  }
}
