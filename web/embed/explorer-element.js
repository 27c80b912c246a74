// attnx embed: <attnx-explorer>, the explorer's figures in any page.
//
//   <attnx-explorer pattern="window" l="128" w="2" d="1024" figures="A,M" controls="d"></attnx-explorer>
//
// Attributes: the explorer's link fields (see attributes.js), controls, figures, theme. The
// element renders into its own shadow root (host CSS cannot reach in, its CSS does not leak out),
// starts computing only when it comes near the viewport, follows its container's width, and
// re-reads its attributes when one changes. Events (bubbling, composed): attnx-change
// { state, link } when its state changes, attnx-result { L, d, metrics, inClass, k, dStar } when
// a result is drawn. Every number is the core's, computed in the shared worker pool (runtime.js).
import { explorerTable, constructOptions, computeFields, clampToRanges, withConstructionD, constructionInputs, hasInputImages, settingsKey, RENDER_FIELDS } from '../explorer/state.js';
import { PrecisionRequest } from '../explorer/precision.js';
import { toHash } from '../common/hashstate.js';
import { CustomPattern } from '../explorer/custom-pattern.js';
import { Runner } from '../explorer/runner.js';
import { RenderClient } from '../explorer/render-client.js';
import { Figures, FIGS } from '../explorer/figures.js';
import { Controls } from '../explorer/controls.js';
import { RowFocus } from '../explorer/row-focus.js';
import { StatusView } from '../explorer/views/status-view.js';
import { attachPointer } from '../explorer/views/figure-pointer.js';
import { StoryControl } from '../explorer/story-control.js';
import { readAttributes, attributeFields } from './attributes.js';
import { sharedRuntime, addStyles, RENDER_WORKER_URL, STORIES_URL } from './runtime.js';
import { explorerSkeleton, showFigures } from './skeleton.js';
import { LazyElement } from './lazy-element.js';
import HOST_STYLE from './host.css';
import STYLE from './element.css';

export class AttnxExplorer extends LazyElement {
  constructor() {
    super();
    this.runs = 0;          // results drawn (for scripts and tests)
    this.started = false;   // computing has begun (the element came near the viewport)
    this.current = null;
    this.shownId = 0;
  }

  buildShadow() {
    const root = this.attachShadow({ mode: 'open' });
    this.box = explorerSkeleton();
    addStyles(root, [HOST_STYLE, STYLE]);
    root.append(this.box);
    this.status = new StatusView({
      text: root.getElementById('status-text'), progress: root.getElementById('progress'),
      list: root.getElementById('messages'), host: this.box,
    });
    this.status.done('Scroll into view to compute.');
  }

  // Loads the shared runtime, builds the views and computes (once, when first near the viewport).
  async start() {
    if (this.started) return;
    this.started = true;
    this.near.disconnect();
    this.status.busy('Loading the WebAssembly module…');
    try {
      const { pool, schema } = await sharedRuntime();
      this.schema = schema;
      this.table = explorerTable(schema);
      this.compute = computeFields(schema);
      this.runner = new Runner(pool, { onProgress: (id, f) => this.status.progressed(f) });
      this.precision = new PrecisionRequest(pool, (report) => this.figures.views.metrics.setPrecision(report));
    } catch (e) {
      this.status.done('The WebAssembly module could not be loaded.');
      this.status.setMessages('api', [String(e && e.message ? e.message : e)], 'error');
      return;
    }
    this.buildViews();
    this.readAttributes();
  }

  buildViews() {
    const root = this.shadowRoot;
    this.figures = new Figures({
      root, render: new RenderClient({ workerUrl: RENDER_WORKER_URL }),
      getState: () => this.st, getCurrent: () => this.current,
    });
    this.figures.views.metrics.onAskPrecision = () => this.precision && this.precision.compute();
    this.focus = new RowFocus({ views: this.figures.views, render: this.figures.render, getState: () => this.st, getCurrent: () => this.current });
    this.controls = null;
    for (const key of FIGS) {
      attachPointer(this.figures.views[key], {
        getL: () => this.current && this.current.L,
        startRow: () => this.st.row,
        onHover: (c, view) => this.focus.onHover(c, view),
        onPick: (c) => this.update({ row: this.st.row === c.i ? -1 : c.i }),
        onKeyAct: (c) => this.update({ row: this.st.row === c.i ? -1 : c.i }),
      });
    }
    this.figures.watchSize(() => !this.busy, () => this.figures.rerender(['all']));
    this.figures.watchX(() => {  // X's card came into view (figures="…,X"): draw X's images
      if (!this.current || this.busy) return;
      if (this.current.hasX) this.figures.rerender(['all']);
      else this.schedule();
    });
    this.story = new StoryControl({
      table: this.table, box: root.getElementById('story'), base: STORIES_URL, getState: () => this.st,
      update: (patch) => this.update(patch), report: (msgs) => this.status.setMessages('story', msgs, 'error'),
    });
    this.story.attachKeys(this);  // keys pressed inside the shadow root reach the host
  }

  // Reads every attribute into the state (after start; before, the first read happens at start).
  readAttributes() {
    if (!this.table) return;
    const r = readAttributes([...this.attributes].map((a) => [a.name, a.value]), { table: this.table, schema: this.schema });
    this.status.setMessages('attributes', r.errors, 'error');
    this.custom = r.state.pattern === 'custom' ? this.decodeCustom(r.state) : null;
    showFigures(this.box, r.figures);
    this.setControls(r.controls);
    const fields = attributeFields(this.table);
    const given = new Set([...this.attributes].map((a) => fields.get(a.name.toLowerCase())).filter(Boolean));
    this.story.read(r.state, given, (state) => {  // a story's step fills what the attributes leave out
      const before = this.st;
      this.st = clampToRanges(this.table, this.schema, state);
      this.afterChange(before ? Object.keys(this.table).filter((k) => before[k] !== this.st[k]) : ['all']);
    });
  }

  // The custom pattern of the cp / cw fields (the identity, with a message, when they do not decode).
  decodeCustom(st) {
    const r = st.cp ? CustomPattern.decode(st.L, st.cp, st.cw, this.schema.pageLimits.maxNnzLink) : { pattern: CustomPattern.identity(st.L) };
    this.status.setMessages('custom', r.error ? [`${r.error}; the identity pattern is used instead`] : [], 'error');
    return r.pattern || CustomPattern.identity(st.L);
  }

  // Shows the form fields named in `only` (none: no form).
  setControls(only) {
    const key = [...only].join(',');
    if (key === this.controlsKey) return;
    this.controlsKey = key;
    const box = this.shadowRoot.getElementById('controls');
    box.replaceChildren();
    box.hidden = only.size === 0;
    this.controls = null;
    if (only.size === 0) return;
    const part = (id) => box.appendChild(Object.assign(document.createElement('div'), { id }));
    this.controls = new Controls({
      schema: this.schema, table: this.table, only,
      containers: { pattern: part('pattern-fields'), construct: part('construct-fields'), view: part('view-fields') },
      onChange: (name, value) => this.update({ [name]: value }),
      onNewSeed: () => this.update({ seed: Math.floor(Math.random() * 1e6) }),
    });
  }

  // A change made inside the element (form, a picked row).
  update(patch) {
    const next = clampToRanges(this.table, this.schema, { ...this.st, ...withConstructionD(this.schema, this.st, patch) });
    const changed = Object.keys(this.table).filter((k) => this.st[k] !== next[k]);
    if (changed.length === 0) return;
    if (changed.includes('pattern') || changed.includes('L')) this.custom = next.pattern === 'custom' ? CustomPattern.identity(next.L) : null;
    this.st = next;
    this.afterChange(changed);
  }

  afterChange(changed) {
    if (changed.length === 0) return;
    if (this.controls) this.controls.sync(this.st);
    this.story.show(this.st);
    const all = changed.includes('all');
    if (all || changed.some((k) => this.compute.includes(k))) this.schedule();
    else if (changed.some((k) => RENDER_FIELDS.includes(k))) this.figures.rerender(changed);
    if (all || changed.includes('row')) {
      this.focus.mark();
      this.focus.show();
    }
    const link = toHash(this.table, this.st, { page: 'explorer', schema: this.schema });
    this.dispatchEvent(new CustomEvent('attnx-change', { bubbles: true, composed: true, detail: { state: { ...this.st }, link } }));
  }

  // Computes the state's construction (latest request wins) and draws it.
  async schedule() {
    this.busy = true;
    this.figures.views.metrics.setStale(true);
    this.precision.settingsChanged(settingsKey(this.schema, this.st, this.custom));
    this.status.busy(`Computing M for L = ${this.st.L}, d = ${this.st.d}…`);
    const b = this.figures.budgets();
    const opts = { ...constructOptions(this.schema, this.st, this.custom), views: { size: b.budget, xRows: b.xRows, xCols: b.xCols, inputs: this.figures.xVisible } };
    let res;
    try {
      res = await this.runner.schedule('construct', opts);
    } catch (e) {
      this.busy = false;
      this.status.done('Not computed.');
      this.status.setMessages('api', [e && e.message ? e.message : String(e)], 'error');
      return;
    }
    if (!res || res.id < this.shownId) return;
    this.status.setMessages('api', []);
    await this.show(res);
  }

  // Draws run res ({ id, result, superseded }); the newest one ends the busy state and is announced.
  async show({ id, result, superseded }) {
    this.shownId = id;
    const p = result.params;
    const tol = { eps: p.eps, tau: p.tau, delta: p.delta };
    const cur = { id, L: result.L, d: result.d, tol, A: result.A, info: {}, inputs: constructionInputs(result), hasX: hasInputImages(result) };
    this.current = cur;
    this.focus.reset();
    const v = result.views;
    const at = { budget: v.size, xRows: v.xRows, xCols: v.xCols };
    const images = this.figures.rerender(['all'], (which, o) => this.figures.render.setData(id, result, tol, { which, opts: o }), at);
    this.figures.views.metrics.update(result, tol);
    if (!superseded && this.runner.isCurrent(id)) this.precision.follow(result, constructOptions(this.schema, this.st, this.custom), settingsKey(this.schema, this.st, this.custom));
    await images;
    if (this.current !== cur) return;
    if (!this.runs) this.firstDrawnAt = performance.now();  // page clock (scripts/embed-shots.mjs)
    this.runs++;
    this.focus.mark();
    this.focus.show();
    if (superseded || !this.runner.isCurrent(id)) return;
    this.busy = false;
    this.figures.views.metrics.setStale(false);
    this.status.done('');  // the summary line says it; an empty status line takes no room
    const detail = { L: result.L, d: result.d, construction: result.construction, metrics: { ...result.metrics }, inClass: result.inClass, k: result.k, dStar: result.dStar };
    this.dispatchEvent(new CustomEvent('attnx-result', { bubbles: true, composed: true, detail }));
  }
}
