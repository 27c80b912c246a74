// attnx embed: <attnx-explorer>, the explorer in any page.
//
//   <attnx-explorer pattern="window" l="128" w="2" d="1024" figures="A,M" controls="d"></attnx-explorer>
//
// Attributes: the explorer's link fields (see attributes.js), controls, figures, theme, present,
// story-src (a lecturer's story file on the page's own origin; or the story inline, as a
// <script type="application/json"> child: web/explorer/story-source.js).
// The element maps its attributes to a state and runs the explorer's own controller
// (web/explorer/controller.js) in its shadow root; it starts when it comes near the viewport and
// re-reads every attribute when one changes. Events (bubbling, composed): attnx-change
// { state, link } when its state changes, attnx-result { L, d, construction, metrics, inClass, k,
// dStar } when a result is drawn. Every number is the core's, computed in the shared worker pool.
import { explorerTable } from '../explorer/state.js';
import { toHash } from '../common/hashstate.js';
import { CustomPattern } from '../explorer/custom-pattern.js';
import { numberGrammar } from '../common/schema-table.js';
import { ExplorerController, familyGenerated } from '../explorer/controller.js';
import { explorerSkeleton, showFigures } from '../explorer/skeleton.js';
import { StatusView } from '../explorer/views/status-view.js';
import { Presenter } from '../explorer/present.js';
import { readAttributes } from './attributes.js';
import { STORY_NAMES } from '../explorer/story.js';
import { loadStorySource, parseInlineStory, SRC_STORY, INLINE_STORY, STORY_TIMEOUT_MS } from '../explorer/story-source.js';
import { sharedRuntime, addStyles, RENDER_WORKER_URL, STORIES_URL } from './runtime.js';
import { LazyElement } from './lazy-element.js';
import HOST_STYLE from './host.css';
import STYLE from './element.css';

const FIELD_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

// True when a key pressed inside the element must not reach the page: the element acted on it
// (a story step, presentation mode's keys, a heatmap's cursor: they call preventDefault), it is
// typed into one of the element's fields, or it presses one of its buttons (Space, Enter). A slide
// deck reads keys on its document (reveal.js: keydown, bubbling, without looking at
// defaultPrevented, and its check for a focused field sees only the element, the shadow root's
// focus being retargeted), so such keys would step the deck as well.
export function keepsKey(ev) {
  if (ev.defaultPrevented) return true;
  const t = ev.composedPath()[0];
  if (!t || !t.tagName) return false;
  if (FIELD_TAGS.has(t.tagName) || t.isContentEditable) return true;
  return t.tagName === 'BUTTON' && (ev.key === ' ' || ev.key === 'Enter');
}

export class AttnxExplorer extends LazyElement {
  // How long story-src may take (story-source.js); tests shorten it before an element starts.
  static storyTimeoutMs = STORY_TIMEOUT_MS;

  constructor() {
    super();
    this.started = false;   // computing has begun (the element came near the viewport)
    this.ctl = null;
  }

  get runs() { return this.ctl ? this.ctl.runs : 0; }            // results drawn (scripts, tests)
  get st() { return this.ctl ? this.ctl.st : undefined; }         // the element's state
  get firstDrawnAt() { return this.ctl ? this.ctl.firstDrawnAt : undefined; }
  // The canonical explorer link (#v=…) of the element's state: what the page would show for it.
  // A story of the element's own (story-src, inline) is left out: links name built-in stories only.
  get link() {
    if (!this.ctl) return undefined;
    const st = STORY_NAMES.includes(this.ctl.st.story) ? this.ctl.st : { ...this.ctl.st, story: '', step: 1 };
    return toHash(this.table, st, { page: 'explorer', schema: this.schema });
  }

  buildShadow() {
    const root = this.attachShadow({ mode: 'open' });
    this.box = explorerSkeleton('element').box;
    this.box.tabIndex = -1;  // a click inside focuses the element: its keys (stories, presentation) act only then
    addStyles(root, [HOST_STYLE, STYLE]);
    root.append(this.box);
    this.status = new StatusView({
      text: root.getElementById('status-text'), progress: root.getElementById('progress'),
      list: root.getElementById('messages'), host: this.box,
    });
    this.status.done('Scroll into view to compute.');
  }

  // Loads the shared runtime, builds the controller and computes (once, when first near the viewport).
  async start() {
    if (this.started) return;
    this.started = true;
    this.near.disconnect();
    this.status.busy('Loading the WebAssembly module…');
    let runtime;
    try {
      runtime = await sharedRuntime();
    } catch (e) {
      this.status.done('The WebAssembly module could not be loaded.');
      this.status.setMessages('api', [String(e && e.message ? e.message : e)], 'error');
      return;
    }
    this.mount(runtime);
    this.readAttributes();
  }

  mount({ pool, schema }) {
    this.schema = schema;
    this.table = explorerTable(schema);
    this.ctl = new ExplorerController({
      root: this.shadowRoot, host: this.box, pool, schema, table: this.table, status: this.status,
      renderWorkerUrl: RENDER_WORKER_URL, storiesUrl: STORIES_URL,
      mirror: { write: (st) => this.changed(st) },
      hooks: { shown: (r) => this.resulted(r), afterChange: (st) => this.presenter && this.presenter.sync(st) },
    });
    this.presenter = new Presenter({ root: this.shadowRoot, box: this.box, fullscreenTarget: this, controller: this.ctl, keyTarget: this });
    this.ctl.story.attachKeys(this, () => !this.presenter.active);  // keys pressed inside the shadow root reach the host
    this.ctl.attachZoomKeys(this);  // n / N: the next / previous failing row, while the element has focus
    this.addEventListener('keydown', (ev) => { if (keepsKey(ev)) ev.stopPropagation(); });  // after the two above
  }

  // Reads every attribute into the state (after start; before, the first read happens at start).
  readAttributes() {
    if (!this.ctl) return;
    const r = readAttributes([...this.attributes].map((a) => [a.name, a.value]), { table: this.table, schema: this.schema });
    showFigures(this.box, r.figures);
    this.ctl.setControls(r.controls);
    const own = this.ownStory(r.storySrc);
    if (own && r.state.story) r.errors.push(`story "${r.state.story}" and ${own === SRC_STORY ? 'story-src' : 'an inline story'} both name a story; ${own === SRC_STORY ? 'story-src' : 'the inline story'} is shown`);
    this.status.setMessages('attributes', r.errors, 'error');
    const state = own ? { ...r.state, story: own } : r.state;
    this.ctl.load(state, r.read, familyGenerated(this.schema, state.pattern) ? null : this.decodeCustom(state));
  }

  // The element's own story: story-src, else an inline <script type="application/json"> child.
  // Hands it to the story controller (loaded once per source) and returns its state name
  // (SRC_STORY, INLINE_STORY), or null when the element has none.
  ownStory(src) {
    const script = src === null ? this.querySelector(':scope > script[type="application/json"]') : null;
    if (src === null && !script) return null;
    const source = src !== null ? `src:${src}` : `inline:${script.textContent}`;
    const name = src !== null ? SRC_STORY : INLINE_STORY;
    if (this.ownSource !== source) {
      this.ownSource = source;
      this.ctl.story.useOwn(name, src !== null
        ? loadStorySource(src, this.table, { pageUrl: location.href, baseUrl: document.baseURI, timeoutMs: AttnxExplorer.storyTimeoutMs })
        : parseInlineStory(script.textContent, this.table));
    }
    return name;
  }

  // The custom pattern of the cp / cw fields (the identity, with a message, when they do not decode).
  decodeCustom(st) {
    const r = CustomPattern.fromFields(st.L, st.cp, st.cw, this.schema.pageLimits.maxNnzLink, numberGrammar(this.schema).number);
    this.status.setMessages('custom', r.error ? [`${r.error}; the identity pattern is used instead`] : [], 'error');
    return r.pattern;
  }

  // The state changed (attributes, the element's own controls, a story step): attnx-change.
  changed(st) {
    this.dispatchEvent(new CustomEvent('attnx-change', { bubbles: true, composed: true, detail: { state: { ...st }, link: this.link } }));
  }

  // The newest result is drawn: attnx-result with the core's numbers.
  resulted(result) {
    const detail = { L: result.L, d: result.d, construction: result.construction, metrics: { ...result.metrics }, inClass: result.inClass, k: result.k, dStar: result.dStar };
    this.dispatchEvent(new CustomEvent('attnx-result', { bubbles: true, composed: true, detail }));
  }
}
