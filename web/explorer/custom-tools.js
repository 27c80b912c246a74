// attnx web: the custom-pattern tools: drawing on the target grid (with an instant preview),
// undo, clear, import/export as JSON or CSV. Owns the edited CustomPattern; the page asks it for
// the pattern and is told (onEdited) when the visitor changed it.
import { VIRIDIS } from '../common/viridis.js';
import { poolSparseMax, colourise, attentionScale } from '../common/raster.js';
import { CustomPattern } from './custom-pattern.js';
import { parsePattern, toJSON, toCSV } from './custom-io.js';

const $ = (id) => document.getElementById(id);

export class CustomTools {
  // ctx: { info, viewA, getState, getCurrent, update(patch), onEdited(), budget() }
  constructor(ctx) {
    this.ctx = ctx;
    this.pattern = null;
    this.undo = [];
    this.setupButtons();
  }

  // A fresh pattern (from a link): no undo history.
  reset(p) {
    this.pattern = p;
    this.undo = [];
  }

  // Keeps the pattern consistent with the state (called on every state change).
  follow(st) {
    if (st.pattern !== 'custom') {
      this.pattern = null;
      return;
    }
    if (!this.pattern) this.pattern = this.fromCurrent(st.L);
    if (this.pattern.L !== st.L) this.pattern = this.pattern.resized(st.L);
  }

  drawingEnabled() {
    const st = this.ctx.getState();
    return !!(st && st.pattern === 'custom' && this.pattern && st.L <= this.ctx.info.limits.maxDrawL);
  }

  // The current target as a custom pattern, weights rounded to 4 significant digits relative to
  // the row maximum (links stay short and exact); the diagonal when there is none.
  fromCurrent(L) {
    const cur = this.ctx.getCurrent();
    if (cur && cur.L === L) {
      const { rows, cols, vals } = cur.A;
      const rowMax = new Float64Array(L);
      for (let t = 0; t < vals.length; t++) rowMax[rows[t]] = Math.max(rowMax[rows[t]], vals[t]);
      const w = Float64Array.from(vals, (v, t) => Number((v / rowMax[rows[t]]).toPrecision(4)));
      return CustomPattern.fromTriplets(L, rows, cols, w);
    }
    return CustomPattern.identity(L);
  }

  message(text, kind = '') {
    const m = $('custom-msg');
    m.textContent = text;
    m.className = `msg ${kind}`;
  }

  pushUndo() {
    if (!this.pattern) return;
    this.undo.push(this.pattern.clone());
    if (this.undo.length > 100) this.undo.shift();
  }

  // Toggles (mode null) or sets one cell; returns the mode used (for dragging).
  toggle(c, mode) {
    const p = this.pattern;
    const on = mode === null ? !p.has(c.i, c.j) : mode;
    const err = p.set(c.i, c.j, on);
    if (err) this.message(err, 'error');
    else this.message(`${on ? 'Added' : 'Removed'} cell (${c.i}, ${c.j}); ${p.nnz} nonzeros.`);
    this.preview();
    return on;
  }

  // Instant preview of the edited target on the main thread (small L only).
  preview() {
    const p = this.pattern;
    const { rows, cols, vals } = p.toTriplets();
    const sums = new Float64Array(p.L);
    for (let t = 0; t < vals.length; t++) sums[rows[t]] += vals[t];
    const v = Float64Array.from(vals, (x, t) => x / sums[rows[t]]);
    const pooled = poolSparseMax(p.L, rows, cols, v, this.ctx.budget(), 0);
    const cur = this.ctx.getCurrent();
    const st = this.ctx.getState();
    const vmax = cur && cur.info.vmax ? cur.info.vmax : 1;
    const floor = cur && cur.info.logFloor ? cur.info.logFloor : -6;
    const rgba = colourise(pooled.data, VIRIDIS, attentionScale(st.scale, vmax, floor));
    this.ctx.viewA.draw({ w: pooled.w, h: pooled.h, rgba }, p.L, p.L);
  }

  replace(p, note) {
    this.pushUndo();
    const st = this.ctx.getState();
    this.pattern = p;
    if (st.pattern === 'custom' && st.L === p.L) this.ctx.onEdited();
    else this.ctx.update({ pattern: 'custom', L: p.L });
    this.message(note, 'ok');
  }

  refreshUI() {
    const st = this.ctx.getState();
    const { maxDrawL } = this.ctx.info.limits;
    const isCustom = st.pattern === 'custom';
    $('undo').disabled = !isCustom || this.undo.length === 0;
    $('clear').disabled = !isCustom;
    $('edit-current').hidden = isCustom;
    const drawable = this.drawingEnabled();
    this.ctx.viewA.wrap.classList.toggle('drawable', drawable);
    const hint = $('draw-hint');
    if (!isCustom) hint.textContent = `Choose "Edit this pattern" (or the custom family), then click or drag on the target grid to toggle cells; rows are renormalised to sum 1. Drawing works for L ≤ ${maxDrawL}.`;
    else if (st.L > maxDrawL) hint.textContent = `Drawing works for L ≤ ${maxDrawL} (cells would be too small to hit); at L = ${st.L} import a pattern instead.`;
    else hint.textContent = 'Click or drag on the target grid to toggle cells (rows are renormalised to sum 1; every row keeps at least one nonzero). Keyboard: focus the grid, arrows move, Enter toggles.';
    this.ctx.viewA.canvas.setAttribute('aria-label', drawable ? 'Target A: drawable grid. Arrow keys move the cursor, Enter toggles the cell.' : 'Target A heatmap');
  }

  setupButtons() {
    const { info } = this.ctx;
    $('edit-current').addEventListener('click', () => {
      const st = this.ctx.getState();
      if (st.L > info.limits.maxDrawL) this.message(`Editing by drawing needs L ≤ ${info.limits.maxDrawL}; you can still import and export.`, 'error');
      this.ctx.update({ pattern: 'custom' });
    });
    $('undo').addEventListener('click', () => {
      const p = this.undo.pop();
      if (!p) return;
      this.pattern = p;
      if (p.L !== this.ctx.getState().L) this.ctx.update({ L: p.L });
      else this.ctx.onEdited();
      this.message('Undone.');
    });
    $('clear').addEventListener('click', () => {
      this.pushUndo();
      this.pattern = CustomPattern.identity(this.ctx.getState().L);
      this.ctx.onEdited();
      this.message('Cleared to the diagonal (every row of A needs at least one nonzero).');
    });
    const doImport = (text, source) => {
      const r = parsePattern(text, info.limits.maxL);
      if (r.error) {
        this.message(`Import failed (${source}): ${r.error}. The previous pattern is kept.`, 'error');
        return;
      }
      this.replace(r.pattern, `Imported ${r.pattern.nnz} nonzeros, L = ${r.pattern.L}.`);
    };
    $('import-btn').addEventListener('click', () => doImport($('import-text').value, 'pasted text'));
    $('import-file').addEventListener('change', async (ev) => {
      const f = ev.target.files && ev.target.files[0];
      if (!f) return;
      if (f.size > 20e6) this.message(`Import failed: ${f.name} is larger than 20 MB.`, 'error');
      else doImport(await f.text(), f.name);
      ev.target.value = '';
    });
    const download = (name, text, type) => {
      const url = URL.createObjectURL(new Blob([text], { type }));
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    };
    const exported = () => {
      const cur = this.ctx.getCurrent();
      return this.pattern || (cur && CustomPattern.fromTriplets(cur.L, cur.A.rows, cur.A.cols, cur.A.vals));
    };
    $('export-json').addEventListener('click', () => {
      const p = exported();
      if (p) download(`attnx-pattern-L${p.L}.json`, toJSON(p), 'application/json');
    });
    $('export-csv').addEventListener('click', () => {
      const p = exported();
      if (p) download(`attnx-pattern-L${p.L}.csv`, toCSV(p), 'text/csv');
    });
  }
}
