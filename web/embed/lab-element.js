// attnx embed: <attnx-lab>, the scaling lab in any page.
//
//   <attnx-lab preset="paper" autorun="1"></attnx-lab>
//
// The lab runs sweeps of many constructions (seconds of work for the whole worker pool, with
// downloads and a results table), so the element shows the lab's own page in embed mode in a frame
// of the site that serves this module, sized to its content (the page posts its height, see
// web/common/embed-height.js). Its attributes are the lab's link fields (HTML lower-cases them:
// the element gives them the schema's spelling), read by the lab page itself: the same validation
// and the same messages, shown in the frame; `v` is the link version (absent: 1, forever). It
// starts loading only near the viewport; a changed attribute re-reads them all.
import { labTable } from '../lab/settings.js';
import { sharedRuntime } from './runtime.js';
import { isGlobalAttribute } from './attributes.js';

export const LAB_URL = new URL('../lab.html', import.meta.url);
const NEAR_VIEWPORT = '200px';
const FIRST_HEIGHT = 1340;  // the lab's embed at 360-720 px before it reports (README)
const STYLE = ':host { display: block; } :host([hidden]) { display: none; } iframe { display: block; width: 100%; border: 0; }';

/**
 * The lab page's hash for an element's attributes ([[name, value], …]) with the lab's state
 * table: "#v=<v or 1>&embed=1&theme=light&…" (a theme attribute replaces light) with each attribute under its field's spelling (unknown names
 * are passed on as written, so the lab page names them in its message). DOM-free.
 */
export function labHash(attrs, table) {
  const byLower = new Map(Object.keys(table).map((k) => [k.toLowerCase(), k]));
  const params = new URLSearchParams();
  const given = new Map(attrs.map(([n, v]) => [String(n).toLowerCase(), v]));
  params.set('v', given.get('v') ?? '1');
  params.set('embed', '1');
  params.set('theme', 'light');  // as <attnx-explorer>: light unless theme says otherwise
  for (const [name, value] of given) {
    if (name === 'v' || name === 'embed' || isGlobalAttribute(name)) continue;
    params.set(byLower.get(name) || name, value);
  }
  return `#${params.toString().replace(/%2C/g, ',')}`;
}

export class AttnxLab extends HTMLElement {
  connectedCallback() {
    if (!this.shadowRoot) {
      const root = this.attachShadow({ mode: 'open' });
      const style = document.createElement('style');
      style.textContent = STYLE;
      this.frame = Object.assign(document.createElement('iframe'), { title: 'attnx lab: minimal hidden size d versus sequence length L' });
      this.frame.style.height = `${FIRST_HEIGHT}px`;
      root.append(style, this.frame);
      this.onMessage = (ev) => {
        const d = ev.data;
        if (ev.source === this.frame.contentWindow && d && d.type === 'attnx-height' && d.height > 0) this.frame.style.height = `${Math.ceil(d.height)}px`;
      };
    }
    window.addEventListener('message', this.onMessage);
    this.mutations = new MutationObserver(() => this.load());
    this.mutations.observe(this, { attributes: true });
    this.near = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        this.near.disconnect();
        this.started = true;
        this.load();
      }
    }, { rootMargin: NEAR_VIEWPORT });
    if (!this.started) this.near.observe(this);
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.onMessage);
    if (this.mutations) this.mutations.disconnect();
    if (this.near) this.near.disconnect();
  }

  // Points the frame at the lab with the current attributes (a changed hash only: the lab reads it).
  async load() {
    if (!this.started) return;
    const { schema } = await sharedRuntime();
    const src = LAB_URL.href + labHash([...this.attributes].map((a) => [a.name, a.value]), labTable(schema));
    if (this.frame.src !== src) this.frame.src = src;
  }
}
