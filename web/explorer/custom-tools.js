// attnx explorer: the custom-pattern tools: drawing on the target grid (with an instant preview),
// undo, clear, import/export as JSON or CSV (read and written by the core, see custom-io.js).
// The edited pattern is the controller's (controller.js owns it with the state); these tools edit
// it and keep the undo history.
import { VIRIDIS } from '../common/viridis.js';
import { poolSparseMax, colourise, attentionScale } from '../common/raster.js';
import { CustomPattern } from './custom-pattern.js';
import { windowRegion, poolTripletsRegion } from './window-pool.js';
import { importPattern, exportPattern } from './custom-io.js';
import { setIf } from '../common/dom.js';
import { download } from '../common/download.js';
import { familyGenerated } from './controller.js';

const $ = (id) => document.getElementById(id);
const MAX_FILE_BYTES = 20e6;  // the page reads an imported file into memory: keep it modest
const UNDO_DEPTH = 100;


// The custom-pattern panel (see the top of this file).
export class CustomTools {
  // ctx: { schema, table, pool, controller (controller.js) }. Wires the buttons of the
  // custom-tools panel (index.html's ids).
  constructor(ctx) {
    this.ctx = ctx;
    this.c = ctx.controller;
    this.maxDrawL = ctx.schema.pageLimits.maxDrawL;
    this.customName = ctx.schema.families.find((f) => !f.generated).name;  // the family drawn by hand
    this.undo = [];
    this.setupEditing();
    this.setupImport();
    this.setupExport();
  }

  // The pattern being edited: the controller's custom pattern (null unless the family is custom).
  get pattern() {
    return this.c.custom;
  }

  get viewA() {
    return this.c.figures.views.A;
  }

  // A fresh pattern was read (a link): no undo history.
  reset() {
    this.undo = [];
  }

  isCustom(st) {
    return !!st && !familyGenerated(this.ctx.schema, st.pattern);
  }

  // True when the visitor may draw on the target grid (custom family, L small enough).
  drawingEnabled() {
    const st = this.c.st;
    return !!(this.isCustom(st) && this.pattern && st.L <= this.maxDrawL);
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
    const cur = this.c.current, budget = this.c.figures.budgets().budget;
    const w = this.c.figures.window(this.c.st, { L: p.L });  // the zoom window, as A is drawn
    const g = w ? windowRegion(w, p.L, budget) : null;
    const pooled = g ? poolTripletsRegion(rows, cols, v, g, 0) : poolSparseMax(p.L, rows, cols, v, budget, 0);
    const vmax = cur && cur.info.vmax ? cur.info.vmax : 1;
    const floor = cur && cur.info.logFloor ? cur.info.logFloor : -6;
    const rgba = colourise(pooled.data, VIRIDIS, attentionScale(this.c.st.scale, vmax, floor));
    this.viewA.draw({ w: pooled.w, h: pooled.h, rgba, region: g }, p.L, p.L);
  }

  // Replaces the pattern by p (undoable) and switches to the custom family at p's L.
  replace(p, note) {
    this.pushUndo();
    const st = this.c.st;
    if (this.isCustom(st) && st.L === p.L) this.c.setCustom(p);
    else {
      this.c.custom = p;
      this.c.update({ pattern: this.customName, L: p.L });
    }
    this.message(note, 'ok');
  }

  // Enables the buttons and words the drawing hint for the current state.
  refreshUI() {
    const st = this.c.st;
    const max = this.maxDrawL;
    const isCustom = this.isCustom(st);
    setIf($('undo'), 'disabled', !isCustom || this.undo.length === 0);
    setIf($('clear'), 'disabled', !isCustom);
    setIf($('edit-current'), 'hidden', isCustom);
    const drawable = this.drawingEnabled();
    this.viewA.wrap.classList.toggle('drawable', drawable);
    let hint;
    if (!isCustom) hint = `Choose "Edit this pattern" (or the custom family), then click or drag on the target grid to toggle cells; rows are renormalised to sum 1. Drawing works for L ≤ ${max}.`;
    else if (st.L > max) hint = `Drawing works for L ≤ ${max} (cells would be too small to hit); at L = ${st.L} import a pattern instead.`;
    else hint = 'Click or drag on the target grid to toggle cells (rows are renormalised to sum 1; every row keeps at least one nonzero). Keyboard: focus the grid, arrows move, Enter toggles.';
    setIf($('draw-hint'), 'textContent', hint);
    const label = drawable ? 'Target A: drawable grid. Arrow keys move the cursor, Space or Enter toggles the cell.' : 'Target A heatmap';
    if (this.viewA.canvas.getAttribute('aria-label') !== label) this.viewA.canvas.setAttribute('aria-label', label);
  }

  // "Edit this pattern", "Undo" and "Clear".
  setupEditing() {
    $('edit-current').addEventListener('click', () => {
      if (this.c.st.L > this.maxDrawL) this.message(`Editing by drawing needs L ≤ ${this.maxDrawL}; you can still import and export.`, 'error');
      this.c.update({ pattern: this.customName });
    });
    $('undo').addEventListener('click', () => {
      const p = this.undo.pop();
      if (!p) return;
      if (p.L !== this.c.st.L) {
        this.c.custom = p;
        this.c.update({ L: p.L });
      } else this.c.setCustom(p);
      this.message('Undone.');
    });
    $('clear').addEventListener('click', () => {
      this.pushUndo();
      this.c.setCustom(CustomPattern.identity(this.c.st.L));
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
      ev.target.value = '';
      if (f) await this.importFile(f);
    });
  }

  // Imports a File (opened, or dropped on the tools: file-drop.js); refused above MAX_FILE_BYTES.
  async importFile(f) {
    if (f.size > MAX_FILE_BYTES) {
      this.message(`Import failed: ${f.name} is larger than ${MAX_FILE_BYTES / 1e6} MB.`, 'error');
      return;
    }
    let text;
    try {
      text = await f.text();
    } catch (e) {
      this.message(`Import failed: ${f.name} could not be read (${e.message}).`, 'error');
      return;
    }
    await this.import(text, f.name);
  }

  // "Export JSON" / "Export CSV" of the edited pattern, else of the target shown.
  setupExport() {
    const exported = () => {
      const cur = this.c.current;
      return this.pattern || (cur && CustomPattern.fromTriplets(cur.L, cur.A.rows, cur.A.cols, cur.A.vals));
    };
    const save = async (format, type) => {
      const p = exported();
      if (!p) return;
      try {
        download(new Blob([await exportPattern(this.ctx.pool, p, format)], { type }), `attnx-pattern-L${p.L}.${format}`);
      } catch (e) {
        this.message(`Export failed: ${e.message}`, 'error');
      }
    };
    $('export-json').addEventListener('click', () => save('json', 'application/json'));
    $('export-csv').addEventListener('click', () => save('csv', 'text/csv'));
  }
}
