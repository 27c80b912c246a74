// attnx explorer: the heatmaps' zoom window, the state's view field (view-window.js), one window for
// A, M, the ratio error, the zero ratio and the imported head. Zooming and panning it (the view
// bar's buttons; figure-pointer.js's wheel, drag, pinch and keys), moving it to the next or
// previous failing row (n / N), and drawing a new window from what the render worker holds: no
// construction is computed again, except once per result when the window needs the dense M and
// logits and the result came without them (the figures meanwhile show the window cut from the
// core's pooled images). The newest window wins: one drawing at a time, the last asked for next.
import { windowOf, windowText, isFull, zoomWindow, panWindow, followCell, windowAtRow, viewMinSpan, windowWords } from './view-window.js';
import { nextFrame, recordViewLatency } from './latency.js';

// The span (rows and columns) of the window "next failing row" opens from the whole matrix: rows
// tall enough for their labels on a laptop's heatmap.
export const ROW_WINDOW = 32;
const KEY_FACTOR = 2;  // + and - halve and double the window's span

// The heatmaps' zoom window (see the top of this file).
export class Zoom {
  // ctl: the controller (st, current, update, figures, needDense, hooks); bar: the ViewBar (or null).
  constructor(ctl, bar = null) {
    this.ctl = ctl;
    this.bar = bar;
    this.drawing = false;  // a window is being drawn
    this.again = null;     // { tInput } of a window asked for meanwhile
  }

  // The window shown ({ i0, i1, j0, j1 }, the whole matrix when not zoomed), or null before a result.
  window() {
    const cur = this.ctl.current;
    return cur ? windowOf(this.ctl.st.view, cur.L) : null;
  }

  // Makes w the window (through the state: the link and the host hear of it); tInput: when the
  // input that asked for it happened.
  set(w, tInput = performance.now(), patch = {}) {
    const cur = this.ctl.current;
    if (!cur || !w) return;
    this.ctl.update({ ...patch, view: windowText(w, cur.L) }, { compute: false, tInput });
  }

  // Zooms by factor (> 1 in) about cell `at` ({ i, j }; default the window's middle).
  zoomBy(factor, at = null, tInput = performance.now()) {
    const w = this.window();
    if (w) this.zoomFrom(w, factor, at, tInput);
  }

  // Window w0 (where a pinch started) zoomed by factor about cell `at`.
  zoomFrom(w0, factor, at, tInput = performance.now()) {
    const cur = this.ctl.current;
    if (!cur) return;
    const c = at || { i: (w0.i0 + w0.i1 - 1) / 2, j: (w0.j0 + w0.j1 - 1) / 2 };
    this.set(zoomWindow(w0, cur.L, factor, c.i, c.j, viewMinSpan(this.ctl.schema, cur.L)), tInput);
  }

  // Window w0 (where a drag started) moved by di rows and dj columns (fractions round).
  panFrom(w0, di, dj, tInput = performance.now()) {
    const cur = this.ctl.current;
    if (cur) this.set(panWindow(w0, cur.L, di, dj), tInput);
  }

  // Moves the window as little as brings cell c ({ i, j }: the keyboard's cursor) inside it.
  follow(c, tInput = performance.now()) {
    const w = this.window();
    if (!w) return;
    const next = followCell(w, this.ctl.current.L, c.i, c.j);
    if (next !== w) this.set(next, tInput);
  }

  zoomIn(at = null, tInput) { this.zoomBy(KEY_FACTOR, at, tInput); }
  zoomOut(at = null, tInput) { this.zoomBy(1 / KEY_FACTOR, at, tInput); }

  // Moves the window by di rows and dj columns.
  panBy(di, dj, tInput = performance.now()) {
    const w = this.window();
    if (w) this.set(panWindow(w, this.ctl.current.L, di, dj), tInput);
  }

  full(tInput = performance.now()) {
    const cur = this.ctl.current;
    if (cur) this.set({ i0: 0, i1: cur.L, j0: 0, j1: cur.L }, tInput);
  }

  /**
   * Moves to the next (dir 1) or previous (dir -1) row where (R) or (Z) fails, after the pinned
   * row (before the first, after the last: around), pins it (the row inspector shows it) and moves
   * the window to it: the window's spans kept when zoomed, else ROW_WINDOW rows; its columns
   * centred on the row's support. The count is announced ("row 42: 3 of 14 failing rows").
   */
  failing(dir, tInput = performance.now()) {
    const cur = this.ctl.current;
    if (!cur) return;
    const rows = cur.failing || [];
    if (!rows.length) return this.bar && this.bar.announce('No row fails (R) or (Z).');
    const at = this.ctl.st.row;
    const i = dir > 0 ? (rows.find((r) => r > at) ?? rows[0]) : ([...rows].reverse().find((r) => r < at || at < 0) ?? rows[rows.length - 1]);
    const w = this.window(), L = cur.L;
    const zoomed = !isFull(w, L);
    const { c0, c1 } = supportOf(cur.A, i);
    const next = windowAtRow(L, i, c0, c1, zoomed ? w.i1 - w.i0 : ROW_WINDOW, zoomed ? w.j1 - w.j0 : ROW_WINDOW);
    this.set(next, tInput, { row: i });
    if (this.bar) this.bar.announce(`Row ${i}: ${rows.indexOf(i) + 1} of ${rows.length} failing rows.`);
  }

  /**
   * Draws the state's window (after the view field changed); the newest wins. Measures input ->
   * pixels ('attnx:view'). When the render worker answers with a window cut from the pooled images
   * (no dense M at hand) or none, the same settings are computed once more with the dense M
   * (controller.needDense).
   */
  async redraw(tInput = performance.now()) {
    if (this.drawing) {
      this.again = { tInput: Math.min(tInput, this.again ? this.again.tInput : tInput) };
      return;
    }
    this.drawing = true;
    const cur = this.ctl.current;
    try {
      const drawn = cur ? await this.ctl.figures.rerender(['view']) : null;
      if (drawn && cur === this.ctl.current) {
        this.ctl.focus.mark();  // the row in focus is the same: the inspector stays as it is
        this.said();
        if (this.ctl.hooks.viewDrawn) this.ctl.hooks.viewDrawn();
        const tRendered = performance.now();
        await nextFrame();
        recordViewLatency(cur.L, { tInput, tRendered, tPainted: performance.now(), poolMs: drawn.poolMs, paintMs: drawn.paintMs });
        if (drawn.stale && !this.ctl.st.view) this.ctl.schedule(performance.now(), { again: 'size' });  // the whole matrix, pooled at another size
        else if (drawn.coarse || drawn.stale) this.ctl.needDense(cur.id, 'window');
      }
    } finally {
      this.drawing = false;
    }
    const again = this.again;
    this.again = null;
    if (again) this.redraw(again.tInput);
  }

  // The view bar and the heatmaps' descriptions follow the window shown.
  said() {
    const w = this.window();
    if (!w) return;
    const words = isFull(w, this.ctl.current.L) ? '' : `Zoomed in: ${windowWords(w)}.`;
    for (const k of ['A', 'M', 'err', 'zero']) this.ctl.figures.views[k].setWindowWords(words);
    if (this.bar) this.bar.show(w, this.ctl.current);
  }
}

// The first and one past the last column of row i's support in A ({ rows, cols } triplets).
function supportOf(A, i) {
  let c0 = Infinity, c1 = -Infinity;
  for (let t = 0; t < A.rows.length; t++) {
    if (A.rows[t] !== i) continue;
    c0 = Math.min(c0, A.cols[t]);
    c1 = Math.max(c1, A.cols[t] + 1);
  }
  return c1 < 0 ? { c0: i, c1: i + 1 } : { c0, c1 };
}
