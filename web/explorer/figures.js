// attnx explorer: the figures (A, M, ratio error, zero ratio, the construction) and the cards
// (metrics, row inspector): creates the views, asks the render worker for images sized to the
// screen (of the whole matrix, or of the state's zoom window: view-window.js), labels their axes
// and writes the legends.
import { VIRIDIS } from '../common/viridis.js';
import { DIVERGING } from '../common/diverging.js';
import { MatrixView } from './views/matrix-view.js';
import { MetricsView } from './views/metrics-view.js';
import { RowInspector } from './views/row-inspector.js';
import { ConstructionView } from './views/construction-view.js';
import { fmt, pow10 } from './format.js';
import { windowOf, isFull } from './view-window.js';
import { tokenText } from './head-import.js';

export const FIGS = ['A', 'M', 'err', 'zero'];
const MAX_BUDGET = 512;  // image pixels per axis at most (max-pooled beyond)
const X_MARGIN = 300;    // X's card counts as on screen this many pixels before it is
export const LABEL_PX = 13;  // an axis label needs a row (or column) at least this tall on screen
// The zero ratio's legend: bar position -> palette position (render-worker.js zeroRatio's colours).
const ZERO_LEGEND_MAP = (x) => (x <= 0.75 ? (0.36 * x) / 0.75 : 0.72 + (0.28 * (x - 0.75)) / 0.25);

// The views in the figure and card elements of root (the page's document, or an embed's shadow
// root), found by id.
function createViews(root, schema) {
  const $ = (id) => root.getElementById(id);
  const v = {
    A: new MatrixView($('fig-A'), { title: 'Target A', desc: 'The sparse pattern to reproduce; each row sums to 1.' }),
    M: new MatrixView($('fig-M'), { title: 'Achieved attention M', desc: 'softmax(XW_Q (XW_K)ᵀ/√d), fixed weights; same scale as A.' }),
    err: new MatrixView($('fig-err'), { title: 'Ratio error on the support', desc: '(Z_ij − ln A_ij) minus its row mean; (R): row spread ≤ ε.' }),
    zero: new MatrixView($('fig-zero'), { title: 'Zero ratio off the support', desc: 'exp(Z_ij − min_{S_i} Z) = M_ij / min_{S_i} M; (Z): ≤ τ.' }),
    metrics: new MetricsView($('metrics-body'), $('summary'), schema),
    inspector: new RowInspector($('inspector-body'), schema.metrics),
    cons: new ConstructionView($('construction-body'), schema),
  };
  v.err.wrap.classList.add('na-dark');
  v.zero.wrap.classList.add('na-dark');
  return v;
}

// The figures and cards (see the top of this file).
export class Figures {
  // { render: RenderClient, getState(), getCurrent(), root, schema } (current: see controller.js;
  // root: where the figure and card elements are, default the page's document; schema: the
  // core's, for the views' words). Creates the views in them.
  constructor({ render, getState, getCurrent, root = document, schema }) {
    this.render = render;
    this.getState = getState;
    this.getCurrent = getCurrent;
    this.views = createViews(root, schema);
    this.xVisible = true;  // whether X's images are wanted (see watchX)
    this.tokens = null;    // the target's tokens (an imported head's), else the axes show indices
  }

  // The zoom window of state st for the construction shown ({ i0, i1, j0, j1 }), or null for the
  // whole matrix.
  window(st, current) {
    const w = windowOf(st.view, current.L);
    return isFull(w, current.L) ? null : w;
  }

  // The axis labels' text of row or column n: its token (setTokens), else its index.
  labelName() {
    const t = this.tokens;
    const name = t ? (n) => tokenText(t[n], 10) : (n) => String(n);
    name.key = t ? `tokens:${t.length}:${t[0]}` : 'index';
    return name;
  }

  // The target's tokens (an array of L strings), or null: the heatmaps' axes then show indices.
  setTokens(tokens) {
    this.tokens = tokens && tokens.length ? tokens : null;
    this.label();
  }

  // Labels the heatmaps' axes where their cells are tall enough (MatrixView.setLabels).
  label() {
    const px = this.budgets().css;
    for (const k of FIGS) this.views[k].setLabels(this.labelName(), px, LABEL_PX);
  }

  // Makes xVisible follow whether X's card is on screen or near it (X_MARGIN): X's images are
  // computed and drawn only then (the pooling of both halves of X is about a third of a drag
  // step). onShown() is called when the card comes into view.
  watchX(onShown) {
    const target = this.views.cons.xview;
    const r = target.getBoundingClientRect();
    this.xVisible = r.width > 0 && r.top < window.innerHeight + X_MARGIN && r.bottom > -X_MARGIN;
    new IntersectionObserver((entries) => {
      const was = this.xVisible;
      this.xVisible = entries[entries.length - 1].isIntersecting;
      if (this.xVisible && !was) onShown();
    }, { rootMargin: `${X_MARGIN}px` }).observe(target);
  }

  // The wrap of the first heatmap on screen (the size reference of the images); A's when none is.
  sizeWrap() {
    const shown = FIGS.map((k) => this.views[k].wrap).find((w) => w.clientWidth > 0);
    return shown || this.views.A.wrap;
  }

  // Marks the heatmaps busy (dimmed) or not.
  setBusy(b) {
    for (const k of FIGS) this.views[k].setBusy(b);
  }

  // Pixels available on screen: images never have more pixels than the screen shows, so the
  // browser never drops rows when scaling down (max-pooling keeps single nonzeros visible).
  // Returns { budget, xRows, xCols }. Measured once, then kept up to date by a ResizeObserver
  // (reading sizes during an input event would force a layout of the whole page).
  budgets() {
    if (!this._budgets) this._budgets = this.measure();
    return this._budgets;
  }

  measure() {
    const dpr = window.devicePixelRatio || 1;
    const px = (e, fallback) => Math.floor((e && e.clientWidth ? e.clientWidth : fallback) * dpr);
    const xWrap = this.xWrap(), wrap = this.sizeWrap();
    return {
      css: wrap && wrap.clientWidth ? wrap.clientWidth : MAX_BUDGET,  // a heatmap's width in CSS pixels
      budget: Math.max(32, Math.min(MAX_BUDGET, px(wrap, MAX_BUDGET))),
      xRows: Math.max(32, Math.min(MAX_BUDGET, Math.floor((xWrap && xWrap.clientHeight ? xWrap.clientHeight : 240) * dpr))),
      xCols: Math.max(16, Math.min(MAX_BUDGET, px(xWrap, MAX_BUDGET / 2))),
    };
  }

  xWrap() {
    return this.views.cons.B.root.querySelector('.canvas-wrap');
  }

  // Redraws what the changed fields affect (['all'] after a new construction): asks the render
  // worker for the images (not A's when the canvas shows that image already) and draws them,
  // with their legends. Stale answers are dropped. Resolves with { poolMs, paintMs } (render
  // worker's time, drawing time here, stale: an image could not be made at these budgets: M, the
  // zero ratio or X left the worker only pooled at others) or
  // null when stale. fetch(which, opts) (optional) gets the images another way (show(): with the
  // data, in one trip to the render worker); budgets (optional) replaces this.budgets() (show():
  // those the core pooled at).
  async rerender(changed, fetch = null, budgets = null) {
    const current = this.getCurrent();
    if (!current) return null;
    const st = this.getState();
    const all = changed.includes('all'), view = changed.includes('view');
    const which = [];
    if (all || view || changed.includes('scale')) which.push('A', 'M');
    if (all || view || changed.includes('ref')) which.push('err');
    if (all || view) which.push('zero');
    if (all && this.xVisible) which.push('X');
    const b = budgets || this.budgets();
    const opts = { scale: st.scale, ref: st.ref, haveA: this.views.A.drawnKey, view: this.window(st, current), ...b };
    const msg = await (fetch ? fetch(which, opts) : this.render.render(current.id, which, opts));
    if (!msg || this.getCurrent() !== current) return null;
    const t0 = performance.now();
    // The size the images are for; not when one was left out (stale): resized() stays true, so the
    // size watch computes again (whichever redraw found it stale).
    if (which.includes('A') && !msg.info.stale) current.budget = b.budget;
    Object.assign(current.info, msg.info);
    const L = current.L;
    for (const k of FIGS) if (msg.images[k]) this.views[k].draw(msg.images[k], L, L, k === 'A' ? msg.info.aKey : null);
    if (msg.images.XB) this.views.cons.update(msg.images, current.info, { L, d: current.d, construction: current.inputs.construction });
    this.label();
    this.legends(which, current, st);
    this.views.err.desc.textContent = `(Z_ij − ln A_ij) minus its row ${st.ref === 'min' ? 'minimum' : 'mean'}; (R): row spread ≤ ε.`;
    return { poolMs: msg.info.poolMs, paintMs: performance.now() - t0, stale: !!msg.info.stale, coarse: !!msg.info.coarse };
  }

  // True when the heatmaps' size on screen differs from the one the shown images were made for.
  resized() {
    const cur = this.getCurrent();
    return !!(cur && cur.budget && this.budgets().budget !== cur.budget);
  }

  // Keeps budgets() current and calls onResized() when the heatmaps' size on screen changed
  // (debounced), if isIdle().
  watchSize(isIdle, onResized) {
    let timer = 0;
    const ro = new ResizeObserver(() => {
      // Hidden (display: none, as an embed in a hidden slide or tab): no size to pool for, and
      // no images to make again until it is shown (M may have left the worker only pooled).
      const wrap = this.sizeWrap();
      if (!wrap || !wrap.clientWidth) return;
      this._budgets = this.measure();  // layout is fresh in a ResizeObserver callback
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (this.resized() && isIdle()) onResized();
      }, 150);
    });
    for (const k of FIGS) ro.observe(this.views[k].wrap);
    const x = this.xWrap();
    if (x) ro.observe(x);
  }

  // Writes the legends of the redrawn figures `which` for construction `current` and state st.
  legends(which, current, st) {
    const inf = current.info, v = this.views;
    const [fr, fc] = inf.pool || [1, 1];
    const pool = fr > 1 || fc > 1 ? ` · ${fr}×${fc} cells per pixel (max-pooled)` : '';
    if (which.includes('A')) {
      const leg = st.scale === 'log'
        ? { lo: pow10(inf.logFloor), hi: '1', caption: `attention weight, log scale from the smallest entry of M (zeros of A shown at the bottom)${pool}` }
        : { lo: '0', hi: fmt(inf.vmax), caption: `attention weight (A and M share this scale)${pool}` };
      v.A.legend.set(VIRIDIS, leg);
      v.M.legend.set(VIRIDIS, leg);
    }
    if (which.includes('err')) {
      v.err.legend.set(DIVERGING, { lo: '−ε', hi: '+ε', caption: `ε = ${fmt(current.tol.eps)}; largest |error| here ${fmt(inf.errMax)}; dark = not on the support` });
    }
    if (which.includes('zero')) {
      v.zero.legend.set(DIVERGING, {
        lo: '≤ τ/1000', hi: '≥ 10τ',
        map: ZERO_LEGEND_MAP,
        caption: `purple ≤ τ = ${fmt(current.tol.tau)} (holds), orange > τ (fails); largest here ${fmt(10 ** inf.log10ZetaMax)}; dark = support`,
      });
    }
  }
}
