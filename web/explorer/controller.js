// attnx explorer: the one controller of the page (index.html) and of <attnx-explorer>. It owns the
// state (and the custom pattern that goes with it), tells the host's mirror (the URL, or the
// element's events) of every change, runs the construction on the worker pool (latest request
// wins), draws it (figures, metrics, row focus, precision report, the zoom window: zoom.js) and
// drives stories. The host builds the markup (skeleton.js), reads its own input (a link,
// attributes) into a state, and gives it to load(); everything after that happens here.
import { constructOptions, computeFields, clampToRanges, withConstructionD, constructionInputs, hasInputImages, settingsKey, constructionOf, familyGenerated, customLinkFields, RENDER_FIELDS, readConstruction, readHead, withoutNotApplying, withoutHead } from './state.js';

export { familyGenerated };
import { PrecisionRequest } from './precision.js';
import { CustomPattern } from './custom-pattern.js';
import { Runner } from './runner.js';
import { RenderClient } from './render-client.js';
import { Figures, FIGS } from './figures.js';
import { Controls } from './controls.js';
import { RowFocus } from './row-focus.js';
import { StoryControl } from './story-control.js';
import { attachPointer } from './views/figure-pointer.js';
import { describeFigures } from './views/figure-text.js';
import { resultForStory } from './story-text.js';
import { familyOf } from '../common/schema-table.js';
import { recordLatency, nextFrame } from './latency.js';
import { Zoom } from './zoom.js';
import { ViewBar } from './views/view-bar.js';
import { failingRows } from './views/figure-text.js';

const DIM_AFTER_MS = 250;  // the figures dim if no result was drawn this long after a change
// The settings drawn, computed again for what the drawing lacks (see schedule): what the status
// line says meanwhile, and the message when that failed.
const AGAIN = {
  dense: { busy: (st) => `Computing M in full to read its rows (L = ${st.L}, d = ${st.d})…`, failed: 'The rows of M could not be read (M in full was not computed)' },
  size: { busy: (st) => `Pooling M at the new size (L = ${st.L}, d = ${st.d})…`, failed: 'M could not be drawn at the new size' },
  inputs: { busy: (st) => `Computing the images of X (L = ${st.L}, d = ${st.d})…`, failed: 'The images of X could not be drawn' },
  window: { busy: (st) => `Computing M in full to zoom in (L = ${st.L}, d = ${st.d})…`, failed: 'The zoomed window could not be drawn in full (M in full was not computed)' },
};

// The explorer's controller (see the top of this file).
export class ExplorerController {
  // { root: the Document or ShadowRoot holding the skeleton's ids, host: the element that gets the
  //   'computing' class and data-busy / data-runs (the page's <html>, an element's box),
  //   pool, schema, table, status (StatusView), render? (a RenderClient started early; else one is
  //   started here, at renderWorkerUrl when given), storiesUrl?,
  //   mirror: { write(st) }: told of every state change (the URL; the element's events),
  //   hooks: { afterChange(st, changed), shown(result, { ms, first }), failed(message),
  //   redrawn(result): the result shown computed again for the drawing (schedule's again),
  //   doneText(result, ms), drawable(view) -> bool: clicks on that view draw instead of
  //   picking a row, keyDraw(cell), viewDrawn(): the zoom window was drawn (zoom.js) } }
  constructor(opts) {
    Object.assign(this, { root: opts.root, host: opts.host, pool: opts.pool, schema: opts.schema, table: opts.table, status: opts.status });
    this.mirror = opts.mirror;
    this.hooks = opts.hooks || {};
    this.st = null;
    this.custom = null;       // the custom pattern (CustomPattern) while st.pattern is 'custom'
    this.current = null;      // { id, L, d, tol, A, info, inputs, hasX } of the construction shown
    this.runs = 0;
    this.shownId = 0;         // id of the newest run drawn (older results arriving later are dropped)
    this.lastShown = null;    // { id, result } of the newest run drawn as current
    this.doneText = '';       // the status line of the newest run drawn as current (see settle)
    this.shownKey = null;     // the settings key of that run
    this.waiters = [];        // { seq, resolve } of showState calls waiting for a drawn result
    this.compute = computeFields(this.schema);
    this.runner = new Runner(this.pool, { onProgress: (id, f) => this.status.progressed(f) });
    this.figures = new Figures({ root: this.root, schema: this.schema, render: opts.render || new RenderClient(opts.renderWorkerUrl ? { workerUrl: opts.renderWorkerUrl } : {}), getState: () => this.st, getCurrent: () => this.current });
    this.precision = new PrecisionRequest(this.pool, (report) => {
      this.figures.views.metrics.setPrecision(report);
      this.story.values.precisionReport(report);
    });
    this.figures.views.metrics.onAskPrecision = () => this.precision.compute();
    this.focus = new RowFocus({ views: this.figures.views, render: this.figures.render, getState: () => this.st, getCurrent: () => this.current, needDense: (id) => this.needDense(id), getTokens: () => this.figures.tokens });
    this.story = new StoryControl({
      table: this.table, box: this.$('story'), base: opts.storiesUrl, getState: () => this.st,
      update: (patch) => this.update(patch), report: (msgs) => this.status.setMessages('story', msgs, 'error'),
      pool: this.pool, schema: this.schema, getCustom: () => this.custom, askPrecision: () => this.precision.compute(),
    });
    this.controls = null;
    this.zoom = new Zoom(this, new ViewBar(this.root, {
      zoomIn: () => this.zoom.zoomIn(), zoomOut: () => this.zoom.zoomOut(), full: () => this.zoom.full(), failing: (dir) => this.zoom.failing(dir),
    }));
    this.attachPointers();
    this.watchFigures();
  }

  $(id) {
    return this.root.getElementById(id);
  }

  get busy() {
    return this.host.dataset.busy === '1';
  }

  setBusy(b) {
    this.host.dataset.busy = b ? '1' : '0';
  }

  // Shows the settings form with the fields named in `only` (null: every field; an empty Set: no
  // form). The containers are the skeleton's #pattern-fields, #construct-fields, #view-fields.
  setControls(only) {
    const key = only ? [...only].join(',') : '*';
    if (key === this.controlsKey) return;
    this.controlsKey = key;
    const form = this.$('controls');
    for (const id of ['pattern-fields', 'construct-fields', 'view-fields']) this.$(id).replaceChildren();
    form.hidden = !!only && only.size === 0;
    this.controls = form.hidden ? null : new Controls({
      schema: this.schema, table: this.table, only,
      containers: { pattern: this.$('pattern-fields'), construct: this.$('construct-fields'), view: this.$('view-fields') },
      onChange: (name, value) => this.update({ [name]: value }),
      onNewSeed: () => this.update({ seed: Math.floor(Math.random() * 1e6) }),
    });
    if (this.controls && this.st) this.controls.sync(this.st);
  }

  // Heatmap pointers and keys: hover marks a row, a click or Enter pins it (or draws, on a
  // drawable view: hooks.draw); wheel with Ctrl, pinch, drag and + - 0 and the arrows zoom and
  // move the window (zoom.js; a drawable view keeps its drags for drawing).
  attachPointers() {
    const views = this.figures.views;
    const pin = (c) => this.update({ row: this.st.row === c.i ? -1 : c.i }, { compute: false });
    const drawing = (view) => !!(this.hooks.drawable && this.hooks.drawable(view));
    for (const key of FIGS) {
      attachPointer(views[key], {
        getL: () => this.current && this.current.L,
        startRow: () => this.st.row,
        onHover: (c, view) => this.focus.onHover(c, view),
        onPick: (c, view) => { if (!drawing(view)) pin(c); },
        onKeyAct: (c, view) => (drawing(view) ? this.hooks.keyDraw(c) : pin(c)),
        zoom: this.zoom,
        canDrag: (view) => !drawing(view),
      });
    }
  }

  // n / N (next / previous failing row) read on target (the page's document, the element): not
  // while typing into a field, nor with Ctrl, Alt or Meta.
  attachZoomKeys(target) {
    target.addEventListener('keydown', (ev) => {
      if (ev.defaultPrevented || ev.ctrlKey || ev.altKey || ev.metaKey || (ev.key !== 'n' && ev.key !== 'N')) return;
      const t = ev.composedPath ? ev.composedPath()[0] : ev.target;
      if (t && (['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName) || t.isContentEditable)) return;
      ev.preventDefault();
      this.zoom.failing(ev.key === 'n' ? 1 : -1, ev.timeStamp || performance.now());
    });
  }

  // Redraws at a new size; draws X's images when X's card comes into view.
  watchFigures() {
    this.figures.watchSize(() => !this.busy, () => this.redrawAll());
    this.figures.watchX(() => {
      if (!this.current || this.busy) return;
      if (this.current.hasX) this.redrawAll();
      else this.schedule(performance.now(), { again: 'inputs' });
    });
  }

  // A state read from the host's input (a link, the attributes): given is the Set of fields whose
  // values it set (an invalid value's field is not among them). A story's step fills what they leave out (once the story is loaded); the custom pattern
  // is `custom` (a CustomPattern, or null: the identity when the state's pattern is custom).
  load(state, given, custom = null) {
    this.custom = custom;
    this.story.read(state, given, (read) => {
      const before = this.st;
      const c = readConstruction(this.schema, this.table, read, given);
      const h = readHead(this.schema, this.table, c.state, given);
      this.status.setMessages('applies', [...c.notes, ...h.notes], 'warn');
      this.st = clampToRanges(this.table, this.schema, h.state);
      this.followCustom(this.st);
      this.syncCustom(this.st);
      this.afterChange(before ? Object.keys(this.table).filter((k) => before[k] !== this.st[k]) : Object.keys(this.table));
    });
  }

  // Applies a change made inside the explorer (form, heatmaps, tools). compute: false for changes
  // that must not recompute (pinning a row, help, the zoom window); tInput: when the input that
  // made it happened (latency measures).
  // A new family or L ends an imported head's target (unless the patch names the head).
  update(patch, { compute = true, tInput = performance.now() } = {}) {
    let next = withoutNotApplying(this.schema, this.table, { ...this.st, ...withConstructionD(this.schema, this.st, patch) }).state;
    if (!('head' in patch) && (next.pattern !== this.st.pattern || next.L !== this.st.L)) next = withoutHead(this.table, next);
    const changed = Object.keys(next).filter((k) => this.st[k] !== next[k]);
    if (changed.length === 0) return;
    if (this.hooks.changing) this.hooks.changing();
    this.followCustom(next);
    this.st = clampToRanges(this.table, this.schema, next);
    this.syncCustom(this.st);
    this.afterChange(changed, compute, tInput);
  }

  // Replaces the custom pattern (an edit, an import, undo) and computes it.
  setCustom(p) {
    this.custom = p;
    this.commitCustom();
  }

  // The custom pattern was edited (drawn, undone, cleared, imported as triplets): it is no longer
  // an imported head's target.
  commitCustom() {
    const before = this.st;
    this.st = withoutHead(this.table, this.st);
    this.syncCustom(this.st);
    this.mirror.write(this.st);
    const changed = Object.keys(this.table).filter((k) => before[k] !== this.st[k]);
    if (this.hooks.afterChange) this.hooks.afterChange(this.st, ['cp', 'cw', ...changed]);
    this.schedule();
  }

  /**
   * Makes p (a CustomPattern made from a model's head, head-import.js) the target, with the
   * head's link fields (layer, head, rule, softmax), and computes it.
   */
  importTarget(p, fields) {
    if (this.hooks.changing) this.hooks.changing();
    const before = this.st;
    const custom = this.schema.families.find((f) => !f.generated).name;
    this.custom = p;
    const next = withoutNotApplying(this.schema, this.table, { ...this.st, pattern: custom, L: p.L, ...fields }).state;
    this.st = clampToRanges(this.table, this.schema, next);
    this.followCustom(this.st);
    this.syncCustom(this.st);
    const changed = Object.keys(this.table).filter((k) => before[k] !== this.st[k]);
    this.afterChange([...new Set([...changed, 'cp', 'cw'])]);
  }

  // Keeps the custom pattern consistent with state st: none unless the family is custom (a
  // family without generated patterns); the target shown when switching to it; resized with L.
  followCustom(st) {
    if (familyGenerated(this.schema, st.pattern)) {
      this.custom = null;
      return;
    }
    if (!this.custom) this.custom = CustomPattern.fromTarget(this.current, st.L);
    if (this.custom.L !== st.L) this.custom = this.custom.resized(st.L);
  }

  // Sets st.cp / st.cw (in place) from the custom pattern (or clears them); a pattern with more
  // nonzeros than a link holds is left out, with a note in the 'link' messages.
  syncCustom(st) {
    const { cp, cw, note } = customLinkFields(this.schema, st, this.custom);
    Object.assign(st, { cp, cw });
    this.status.setMessages('link', note ? [note] : [], 'warn');
  }

  afterChange(changed, recompute = true, tInput = performance.now()) {
    if (this.controls) this.controls.sync(this.st);
    this.story.show(this.st);
    this.mirror.write(this.st);
    if (this.hooks.afterChange) this.hooks.afterChange(this.st, changed);
    if (recompute && changed.some((k) => this.compute.includes(k))) this.schedule(tInput);
    else {
      if (changed.some((k) => RENDER_FIELDS.includes(k))) this.figures.rerender(changed);
      if (changed.includes('view')) this.zoom.redraw(tInput);
    }
    if (changed.includes('row')) {
      this.focus.mark();
      this.focus.show();
    }
  }

  // Applies patch like update() and resolves with the construct result drawn for the new state
  // (the one already drawn when nothing needed computing), or null when computing failed.
  showState(patch) {
    this.update(patch);
    if (!this.busy && this.lastShown && this.lastShown.id === this.runner.seq) return Promise.resolve(this.lastShown.result);
    return new Promise((resolve) => this.waiters.push({ seq: this.runner.seq, resolve }));
  }

  // Resolves the showState calls made before run id was scheduled with result.
  settleShown(id, result) {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i].seq > id) continue;
      this.waiters[i].resolve(result);
      this.waiters.splice(i, 1);
    }
  }

  // The construct options of the state (what the custom pattern and the settings ask for).
  constructOptions() {
    return constructOptions(this.schema, this.st, this.custom);
  }

  settingsKey(opts) {
    return settingsKey(this.schema, this.st, this.custom, opts);
  }

  // Computes the state's construction on the pool (the newest request wins; see runner.js), then
  // draws it. tInput: when the change that asked for it was made (for the latency measure).
  // again: the settings drawn, computed once more for what the drawing lacks ('dense': M in full
  // for a row in focus; 'size': images pooled at the size on screen; 'inputs': X's images once
  // its card is in view). Such a run changes no
  // number: the figures never dim, the metrics stay, the status line says what it computes and
  // then what it said before, and the host hears of no new result.
  async schedule(tInput = performance.now(), { again = null } = {}) {
    // Only the settings drawn, settled, can be computed again quietly: while a run is unsettled,
    // or after one failed (the settings are then not those drawn), this is a run like any other.
    if (again && (this.busy || !this.lastShown || this.shownKey !== this.settingsKey())) again = null;
    this.setBusy(true);
    if (again) {
      this.status.busy(AGAIN[again].busy(this.st));
    } else {
      this.figures.views.metrics.setStale(true);
      this.story.values.computing(this.settingsKey());
      this.precision.settingsChanged(this.settingsKey());
      this.dimLater();
      this.status.busy(`Computing M for L = ${this.st.L}, d = ${this.st.d}…`);
    }
    let res;
    try {
      res = await this.runner.schedule('construct', this.viewOptions(this.constructOptions()));
    } catch (e) {
      const message = e && e.message ? e.message : String(e);
      if (again) this.failAgain(again, message);
      else this.fail('Not computed.', message);
      return;
    }
    if (!res || res.id < this.shownId) return;  // dropped, or an older run than the one shown
    if (!res.superseded) this.status.setMessages('api', []);
    await this.show(res, tInput, again);
  }

  fail(headline, message) {
    clearTimeout(this.dimTimer);
    this.figures.setBusy(false);
    this.figures.views.metrics.setStale(false);
    this.settleShown(Infinity, null);
    this.status.done(headline);
    this.status.setMessages('api', [message], 'error');
    this.setBusy(false);
    if (this.hooks.failed) this.hooks.failed(message);
  }

  // A run for the settings drawn (see schedule's again) failed: what is drawn stays, its numbers
  // too; the message says what is missing and why (it is not asked for again for this result).
  failAgain(again, message) {
    this.lastShown = { id: this.runner.seq, result: this.lastShown.result };  // still what the settings show
    this.settleShown(Infinity, this.lastShown.result);
    this.status.done(this.doneText);
    this.status.setMessages('api', [`${AGAIN[again].failed}: ${message}`], 'error');
    this.setBusy(false);
  }

  // construct's options plus the pooled images the page draws (at the pixels on screen), without
  // X where the row inspector shows no query (jl: L x 2d), without X's images while its card
  // is off screen, and without the dense M and logits unless a row is in focus (hovered or
  // pinned: the inspector and the readouts read them; a drag does not, and at L = 1024 they are
  // 8 MB per result to copy, post and free) or the heatmaps are zoomed in (a window is pooled from
  // them, and moving it must compute nothing).
  viewOptions(opts) {
    const b = this.figures.budgets();
    const rowQuery = constructionOf(this.schema, opts.construction).rowQuery;
    const dense = this.focus.wanted() !== null || this.st.view !== '';
    return { ...opts, views: { size: b.budget, xRows: b.xRows, xCols: b.xCols, omitX: !rowQuery, inputs: this.figures.xVisible, dense } };
  }

  // A row came into focus, or the heatmaps zoomed in (why 'window'), while the result shown has no
  // dense M (see viewOptions): computes the same settings again, with them (once per result; the
  // worker keeps the Gram matrix).
  needDense(id, why = 'dense') {
    if (this.denseAskedFor === id || !this.current || this.current.id !== id) return;
    this.denseAskedFor = id;
    this.schedule(performance.now(), { again: why });
  }

  // Redraws every image (the heatmaps' size on screen changed, or X's card came into view). M,
  // the zero ratio and X may have left the worker only as images pooled at another size: then
  // they are computed again (cheap, the worker keeps the Gram matrix).
  async redrawAll() {
    const drawn = await this.figures.rerender(['all']);
    if (drawn && drawn.stale) this.schedule(performance.now(), { again: 'size' });
    else if (drawn && drawn.coarse && this.current) this.needDense(this.current.id, 'window');
  }

  // Dims the figures if no result has been drawn DIM_AFTER_MS after a change (a drag that keeps
  // drawing never dims; a long computation does).
  dimLater() {
    const id = this.runner.seq + 1;
    clearTimeout(this.dimTimer);
    this.dimTimer = setTimeout(() => {
      if (this.shownId < id && this.busy) this.figures.setBusy(true);
    }, DIM_AFTER_MS);
  }

  // Draws the construction of run res ({ id, result, timing, superseded }) and, when it is the
  // newest, ends the busy state and tells the host (hooks.shown).
  async show({ id, result, timing, superseded }, tInput, again = null) {
    const t = { tInput, tReceived: performance.now(), paintMs: 0 };
    this.shownId = id;
    const cur = this.setCurrent(id, result);
    const drawn = await this.draw(cur, id, result, superseded);
    t.tRendered = performance.now();
    t.tData = drawn ? t.tRendered - drawn.paintMs - drawn.poolMs : t.tRendered;
    t.paintMs = drawn ? drawn.paintMs : 0;
    if (this.current !== cur) return;
    await nextFrame();
    t.tPainted = performance.now();
    recordLatency(result, timing, t);
    if (!this.runs) this.firstDrawnAt = performance.now();  // page clock (scripts/embed-shots.mjs)
    this.runs++;
    this.host.dataset.runs = String(this.runs);
    this.focus.mark();
    this.focus.show();
    this.zoom.said();
    if (this.current !== cur || superseded || !this.runner.isCurrent(id)) return;
    this.settle(id, result, Math.round(performance.now() - tInput), again);
  }

  // The newest result is on screen: end the busy state, say so, wake showState's callers.
  settle(id, result, ms, again = null) {
    clearTimeout(this.dimTimer);
    this.figures.setBusy(false);
    this.figures.views.metrics.setStale(false);
    this.setBusy(false);
    this.lastShown = { id, result };
    this.settleShown(id, result);
    if (this.current.forStory) this.story.values.resulted(this.current.forStory, this.current.tol, this.settingsKey());
    if (!again) {
      this.doneText = this.hooks.doneText ? this.hooks.doneText(result, ms) : '';
      this.shownKey = this.settingsKey();
    }
    this.status.done(this.doneText);
    if (again) {
      if (this.hooks.redrawn) this.hooks.redrawn(result);
    } else if (this.hooks.shown) {
      this.hooks.shown(result, { ms, first: this.runs === 1 });
    }
    if (this.figures.resized()) this.redrawAll();  // the size changed while this was computed
  }

  setCurrent(id, result) {
    const p = result.params;
    const tol = { eps: p.eps, tau: p.tau, delta: p.delta };
    const A = { rows: Int32Array.from(result.A.rows), cols: Int32Array.from(result.A.cols), vals: Float64Array.from(result.A.vals) };
    this.current = { id, L: result.L, d: result.d, tol, A, info: {}, inputs: constructionInputs(result), hasX: hasInputImages(result), failing: failingRows(result) };
    this.focus.reset();
    if (this.zoom.bar) this.zoom.bar.resulted(this.current);
    return this.current;
  }

  // The heatmaps A and M described in words (the canvases' accessible descriptions).
  describe(result, tol) {
    const said = describeFigures(result, familyOf(this.schema, this.st.pattern).label, tol);
    this.figures.views.A.setDescription(said.A);
    this.figures.views.M.setDescription(said.M);
  }

  // The data and the images in one trip to the render worker; the metrics card is written while
  // the render worker makes the images. Resolves with the drawing's times, or null.
  async draw(cur, id, result, superseded) {
    try {
      const v = result.views;
      const pooledAt = v ? { budget: v.size, xRows: v.xRows, xCols: v.xCols } : null;
      this.describe(result, cur.tol);  // before its row arrays move to the render worker
      cur.forStory = resultForStory(result);  // the numbers a story's placeholders show
      const images = this.figures.rerender(['all'], (which, opts) => this.figures.render.setData(id, result, cur.tol, { which, opts }), pooledAt);
      this.figures.views.metrics.update(result, cur.tol);
      // The newest result: its precision report at once (kept when only computed again for X's
      // images), so the panel never flashes back to its button.
      if (!superseded && this.runner.isCurrent(id)) this.precision.follow(result, this.constructOptions(), this.settingsKey());
      return await images;
    } catch (e) {
      this.status.setMessages('api', [`Drawing failed: ${e.message}`], 'error');
      return null;
    }
  }
}
