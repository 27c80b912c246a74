// attnx explorer: the custom-pattern tools: drawing on the target grid (with an instant preview),
// undo, clear, import/export as JSON or CSV (read and written by the core, see custom-io.js).
// Owns the edited CustomPattern; the page asks it for the pattern and is told (onEdited) when the
// visitor changed it.
import { VIRIDIS } from '../common/viridis.js';
import { poolSparseMax, colourise, attentionScale } from '../common/raster.js';
import { CustomPattern } from './custom-pattern.js';
import { importPattern, exportPattern } from './custom-io.js';
import { setIf } from '../common/dom.js';

const $ = (id) => document.getElementById(id);
const MAX_FILE_BYTES = 20e6;  // the page reads an imported file into memory: keep it modest
const UNDO_DEPTH = 100;

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// The custom-pattern panel (see the top of this file).
export class CustomTools {
  // ctx: { schema, table, pool, viewA, getState(), getCurrent(), update(patch), onEdited(),
  // budget() }. Wires the buttons of the custom-tools panel.
  constructor(ctx) {
    this.ctx = ctx;
    this.maxDrawL = ctx.schema.pageLimits.maxDrawL;
    this.pattern = null;
    this.undo = [];
    this.setupEditing();
    this.setupImport();
    this.setupExport();
  }

  // A fresh pattern (from a link), or null: no undo history.
  reset(p) {
    this.pattern = p;
    this.undo = [];
  }

  // Keeps the pattern consistent with the state (called on every state change): none unless the
  // family is custom; resized when L changed.
  follow(st) {
    if (st.pattern !== 'custom') {
      this.pattern = null;
      return;
    }
    if (!this.pattern) this.pattern = this.fromCurrent(st.L);
    if (this.pattern.L !== st.L) this.pattern = this.pattern.resized(st.L);
  }

  // True when the visitor may draw on the target grid (custom family, L small enough).
  drawingEnabled() {
    const st = this.ctx.getState();
    return !!(st && st.pattern === 'custom' && this.pattern && st.L <= this.maxDrawL);
  }

  // The current target as a custom pattern, weights rounded to 4 significant digits relative to
  // the row maximum (links stay short and exact); the diagonal when there is none.
  fromCurrent(L) {
    const cur = this.ctx.getCurrent();
    if (!cur || cur.L !== L) return CustomPattern.identity(L);
    const { rows, cols, vals } = cur.A;
    const rowMax = new Float64Array(L);
    for (let t = 0; t < vals.length; t++) rowMax[rows[t]] = Math.max(rowMax[rows[t]], vals[t]);
    const w = Float64Array.from(vals, (v, t) => Number((v / rowMax[rows[t]]).toPrecision(4)));
    return CustomPattern.fromTriplets(L, rows, cols, w);
  }

  // Shows text in the panel's status line (kind: '' | 'ok' | 'error').
  message(text, kind = '') {
    const m = $('custom-msg');
    m.textContent = text;
    m.className = `msg ${kind}`;
  }

  // Remembers the pattern before an edit.
  pushUndo() {
    if (!this.pattern) return;
    this.undo.push(this.pattern.clone());
    if (this.undo.length > UNDO_DEPTH) this.undo.shift();
  }

  // Toggles (mode null) or sets (mode true/false) cell c { i, j }; returns the mode used (for
  // dragging). A row's last nonzero is kept (with a message).
  toggle(c, mode) {
    const p = this.pattern;
    const on = mode === null ? !p.has(c.i, c.j) : mode;
    const err = p.set(c.i, c.j, on);
    if (err) this.message(err, 'error');
    else this.message(`${on ? 'Added' : 'Removed'} cell (${c.i}, ${c.j}); ${p.nnz} nonzeros.`);
    this.preview();
    return on;
  }

  // Instant preview of the edited target on the main thread (small L only): rows scaled to sum 1
  // for the colours, on the last drawing's scale.
  preview() {
    const p = this.pattern;
    const { rows, cols, vals } = p.toTriplets();
    const sums = new Float64Array(p.L);
    for (let t = 0; t < vals.length; t++) sums[rows[t]] += vals[t];
    const v = Float64Array.from(vals, (x, t) => x / sums[rows[t]]);
    const pooled = poolSparseMax(p.L, rows, cols, v, this.ctx.budget(), 0);
    const cur = this.ctx.getCurrent();
    const vmax = cur && cur.info.vmax ? cur.info.vmax : 1;
    const floor = cur && cur.info.logFloor ? cur.info.logFloor : -6;
    const rgba = colourise(pooled.data, VIRIDIS, attentionScale(this.ctx.getState().scale, vmax, floor));
    this.ctx.viewA.draw({ w: pooled.w, h: pooled.h, rgba }, p.L, p.L);
  }

  // Replaces the pattern by p (undoable) and switches to the custom family at p's L.
  replace(p, note) {
    this.pushUndo();
    const st = this.ctx.getState();
    this.pattern = p;
    if (st.pattern === 'custom' && st.L === p.L) this.ctx.onEdited();
    else this.ctx.update({ pattern: 'custom', L: p.L });
    this.message(note, 'ok');
  }

  // Enables the buttons and words the drawing hint for the current state.
  refreshUI() {
    const st = this.ctx.getState();
    const max = this.maxDrawL;
    const isCustom = st.pattern === 'custom';
    setIf($('undo'), 'disabled', !isCustom || this.undo.length === 0);
    setIf($('clear'), 'disabled', !isCustom);
    setIf($('edit-current'), 'hidden', isCustom);
    const drawable = this.drawingEnabled();
    this.ctx.viewA.wrap.classList.toggle('drawable', drawable);
    let hint;
    if (!isCustom) hint = `Choose "Edit this pattern" (or the custom family), then click or drag on the target grid to toggle cells; rows are renormalised to sum 1. Drawing works for L ≤ ${max}.`;
    else if (st.L > max) hint = `Drawing works for L ≤ ${max} (cells would be too small to hit); at L = ${st.L} import a pattern instead.`;
    else hint = 'Click or drag on the target grid to toggle cells (rows are renormalised to sum 1; every row keeps at least one nonzero). Keyboard: focus the grid, arrows move, Enter toggles.';
    setIf($('draw-hint'), 'textContent', hint);
    const label = drawable ? 'Target A: drawable grid. Arrow keys move the cursor, Enter toggles the cell.' : 'Target A heatmap';
    if (this.ctx.viewA.canvas.getAttribute('aria-label') !== label) this.ctx.viewA.canvas.setAttribute('aria-label', label);
  }

  // "Edit this pattern", "Undo" and "Clear".
  setupEditing() {
    $('edit-current').addEventListener('click', () => {
      if (this.ctx.getState().L > this.maxDrawL) this.message(`Editing by drawing needs L ≤ ${this.maxDrawL}; you can still import and export.`, 'error');
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
  }

  // Imports text (from `source`, named in messages) read by the core; keeps the pattern on error.
  async import(text, source) {
    const r = await importPattern(this.ctx.pool, text, this.ctx.table.L);
    if (r.error) this.message(`Import failed (${source}): ${r.error}. The previous pattern is kept.`, 'error');
    else this.replace(r.pattern, `Imported ${r.pattern.nnz} nonzeros, L = ${r.pattern.L}.`);
  }

  // "Import" (pasted text) and "Import file…".
  setupImport() {
    $('import-btn').addEventListener('click', () => this.import($('import-text').value, 'pasted text'));
    $('import-file').addEventListener('change', async (ev) => {
      const f = ev.target.files && ev.target.files[0];
      if (!f) return;
      if (f.size > MAX_FILE_BYTES) this.message(`Import failed: ${f.name} is larger than ${MAX_FILE_BYTES / 1e6} MB.`, 'error');
      else await this.import(await f.text(), f.name);
      ev.target.value = '';
    });
  }

  // "Export JSON" / "Export CSV" of the edited pattern, else of the target shown.
  setupExport() {
    const exported = () => {
      const cur = this.ctx.getCurrent();
      return this.pattern || (cur && CustomPattern.fromTriplets(cur.L, cur.A.rows, cur.A.cols, cur.A.vals));
    };
    const save = async (format, type) => {
      const p = exported();
      if (!p) return;
      try {
        download(`attnx-pattern-L${p.L}.${format}`, await exportPattern(this.ctx.pool, p, format), type);
      } catch (e) {
        this.message(`Export failed: ${e.message}`, 'error');
      }
    };
    $('export-json').addEventListener('click', () => save('json', 'application/json'));
    $('export-csv').addEventListener('click', () => save('csv', 'text/csv'));
  }
}
