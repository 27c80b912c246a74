// attnx embed: <attnx-lab>, the scaling lab in any page.
//
//   <attnx-lab preset="paper" autorun="1"></attnx-lab>
//   <attnx-lab ls="16,32,64" trials="3" autorun figures="d-vs-L" controls></attnx-lab>
//
// The lab (web/lab/mount.js, the code of lab.html) mounted in the element's own shadow root: host
// CSS cannot reach in, its CSS does not leak out, and it follows its container's width. Attributes
// are the lab's link fields (readLabAttributes: HTML lower-cases them, the element gives them the
// schema's spelling; the same validation and messages, shown inside the element; `v` is the link
// version, absent: 1, forever) plus `figures` and `theme`. It starts only near the viewport,
// shares the page's worker pool and module load with every other attnx element (runtime.js), loads
// the module on the page's thread too for the lab's cheap synchronous calls (once a page), and
// re-reads its attributes when one changes (a changed setting cancels a running sweep and, with
// autorun, runs the new one). Events (bubbling, composed): attnx-change { state, link } when its
// settings change, attnx-result (the result record: params, points, fits, fitComparison, …, all
// the core's numbers) when a sweep finishes.
import { el } from '../common/dom.js';
import { MessageList } from '../common/messages.js';
import { themeIsDark } from '../common/theme.js';
import { labTable, computeFields } from '../lab/settings.js';
import { writeLink } from '../lab/link.js';
import { placeLab, showFigures } from '../lab/skeleton.js';
import { mountLab } from '../lab/mount.js';
import { sharedRuntime, addStyles } from './runtime.js';
import { load } from '../lib/attnx.js';
import { readLabAttributes, LAB_DEFAULT_FIGURES } from './attributes.js';
import { labHash } from './lab-frame.js';
import { LazyElement } from './lazy-element.js';
import HOST_STYLE from './host.css';
import STYLE from './lab-element.css';

export const LAB_URL = new URL('../lab.html', import.meta.url);

const attributesOf = (node) => [...node.attributes].map((a) => [a.name, a.value]);

export class AttnxLab extends LazyElement {
  constructor() {
    super();
    this.runs = 0;          // sweeps finished (for scripts and tests)
    this.started = false;   // computing has begun (the element came near the viewport)
    this.lab = null;        // the mounted lab (mount.js), once started
    this.theme = 'light';
    this.reading = Promise.resolve();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    if (this.lab) this.lab.cancel();  // a removed element leaves the shared pool to the others
  }

  // The shadow root: styles, the message list and the lab's columns (waiting for start()).
  buildShadow() {
    const root = this.attachShadow({ mode: 'open' });
    this.main = el('div', { class: 'lab' });
    this.box = el('div', { class: 'ax embed', part: 'content' }, el('ul', { class: 'messages', id: 'messages', role: 'alert' }), this.main);
    addStyles(root, [HOST_STYLE, STYLE]);
    root.append(this.box);
    placeLab(this.main);
    showFigures(this.main, LAB_DEFAULT_FIGURES);
    this.messages = new MessageList(root.getElementById('messages'));
    root.getElementById('run').disabled = true;
    root.getElementById('open-full').href = LAB_URL.href;
    root.getElementById('status').textContent = 'Scroll into view to compute.';
  }

  // Loads the shared runtime, mounts the lab and reads the attributes (once, when first near the
  // viewport).
  async start() {
    if (this.started) return;
    this.started = true;
    this.near.disconnect();
    const status = this.shadowRoot.getElementById('status');
    status.textContent = 'Loading the WebAssembly module…';
    try {
      const [{ pool, schema }, core] = await Promise.all([sharedRuntime(), load()]);
      this.schema = schema;
      this.table = labTable(schema);
      this.lab = await mountLab(this.main, {
        pool, core, schema, box: this.box, messages: this.messages,
        labHref: (hash) => LAB_URL.href + hash, linkTarget: '_blank',
        isDark: () => themeIsDark(this.theme),
        applyTheme: (theme) => { this.theme = theme; },  // the host's theme attribute picks the CSS colours
        onResult: (res) => this.finished(res),
      });
    } catch (e) {
      status.textContent = 'The WebAssembly module could not be loaded.';
      this.messages.set('api', [String(e && e.message ? e.message : e)], 'error');
      return;
    }
    this.lab.store.subscribe((st) => this.emit('attnx-change', { state: st, link: writeLink(this.schema, this.table, st) }));
    this.readAttributes();
  }

  // Re-reads every attribute (after start; the first read happens at start), one read at a time.
  readAttributes() {
    if (!this.lab) return;
    this.reading = this.reading.then(() => this.applyAttributes());
  }

  // Applies the attributes: figures at once; settings to the lab's store. When a setting that
  // defines the sweep changed, a running sweep is cancelled and the old result dropped; the sweep
  // runs (autorun) on the first read and after such a change.
  async applyAttributes() {
    const r = readLabAttributes(attributesOf(this), { table: this.table, schema: this.schema });
    showFigures(this.main, r.figures);
    const before = this.lab.store.get();
    const first = !this.applied;
    this.applied = true;
    const changed = computeFields(this.schema).some((k) => before[k] !== r.state[k]);
    if (changed) {
      await this.lab.cancel();
      if (this.lab.app.result) this.lab.clearResult();
    }
    this.lab.apply(r, {
      group: 'attributes', run: first || changed || (r.state.autorun && !before.autorun),
      refused: 'The attributes ask to run the sweep, but some are invalid (see above); fix them, or press Run sweep to run with the defaults used instead.',
    });
  }

  // A sweep finished: counted and announced with the result record (a copy).
  finished(res) {
    this.runs++;
    this.emit('attnx-result', structuredClone(res));
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true, detail }));
  }

  /** 'waiting' (not near the viewport yet), 'loading', or the lab's run state ('idle', 'running', 'done', …). */
  get runState() {
    return this.lab ? this.lab.app.runState : this.started ? 'loading' : 'waiting';
  }

  /** A copy of the result on show (null before a sweep). */
  get result() {
    return this.lab && this.lab.app.result ? structuredClone(this.lab.app.result) : null;
  }

  /** The same lab as an <iframe> address (lab.html in embed mode), once started. */
  get frameLink() {
    return this.table ? LAB_URL.href + labHash(attributesOf(this), this.table) : null;
  }
}
