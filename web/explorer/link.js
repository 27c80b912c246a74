// attnx explorer: the state <-> URL hash link. Reads links of every version (web/common/hashstate.js
// with the core's frozen link defaults), writes current ones (the newest version, every option;
// to the URL when changes pause), and keeps the custom pattern's link fields (cp, cw) in step
// with the edited pattern.
import { parseHash, toHash } from '../common/hashstate.js';
import { CustomPattern } from './custom-pattern.js';
import { PAGE } from './state.js';

// The address bar follows the state URL_WRITE_MS after its last change, so a drag of the d
// slider writes it once, when it pauses. Each history.replaceState costs the browser process
// several milliseconds; written at once, it took them from the frame that shows the change
// (issue 10: a drag step at L = 256 went from 34 to 17 ms at the median without it, an isolated
// step from 33-40 to 26 ms). href() is the newest link at once.
export const URL_WRITE_MS = 250;

// The page's link (see the top of this file).
export class LinkState {
  // { schema, table, status (StatusView), getTools() -> CustomTools, onRead(state), onWritten() }
  constructor({ schema, table, status, getTools, onRead, onWritten }) {
    Object.assign(this, { schema, table, status, getTools, onRead, onWritten });
    this.maxNnz = schema.pageLimits.maxNnzLink;
    this.lastWritten = null;
    this.pendingUrl = 0;
  }

  // Reads location.hash: problems go to the 'hash' messages (an invalid value: its default is used
  // instead; unknown keys are ignored; a repeated key's first value is used; a hash longer than
  // any link is not read at all), a custom pattern is decoded (the diagonal when it cannot be),
  // then onRead(state).
  read() {
    this.cancelPending();  // the visitor's link wins over a write not yet made
    const { state, errors } = parseHash(this.table, location.hash, { page: PAGE, schema: this.schema });
    const msgs = errors.map((e) => (/ must be /.test(e) ? `Link: ${e}. The default is used instead.` : `Link: ${e}.`));
    let custom = null;
    if (state.pattern === 'custom') {
      const r = state.cp ? CustomPattern.decode(state.L, state.cp, state.cw, this.maxNnz) : { pattern: CustomPattern.identity(state.L) };
      if (r.error) msgs.push(`Link: ${r.error}. The identity pattern is used instead.`);
      custom = r.pattern || CustomPattern.identity(state.L);
    }
    this.getTools().reset(custom);
    this.status.setMessages('hash', msgs, 'error');
    this.syncCustom(state, custom);
    this.onRead(state);
  }

  // Makes st the page's link (href(), at once) and writes it to the URL (history.replaceState:
  // no new history entry) URL_WRITE_MS after the last change; then onWritten().
  write(st) {
    this.lastWritten = toHash(this.table, st, { page: PAGE, schema: this.schema });
    this.cancelPending();
    this.pendingUrl = setTimeout(() => this.flush(), URL_WRITE_MS);
    this.onWritten();
  }

  // Writes the page's link to the URL now if a write is pending (the page calls it on pagehide).
  flush() {
    if (!this.pendingUrl) return;
    this.cancelPending();
    const url = `${location.pathname}${location.search}${this.lastWritten}`;
    if (`${location.pathname}${location.search}${location.hash}` !== url) history.replaceState(null, '', url);
  }

  cancelPending() {
    clearTimeout(this.pendingUrl);
    this.pendingUrl = 0;
  }

  // The page's link: its URL with the hash last written (not location.href, which an anchor or a
  // skip link may have changed).
  href() {
    return `${location.origin}${location.pathname}${location.search}${this.lastWritten || ''}`;
  }

  // True when hash is the one this page wrote last (its own hashchange).
  isOwn(hash) {
    return hash === this.lastWritten;
  }

  // Sets st.cp / st.cw (in place) from the custom pattern (or clears them); a pattern with more
  // nonzeros than a link holds is left out, with a note in the 'link' messages.
  syncCustom(st, custom) {
    let note = [];
    st.cp = '';
    st.cw = '';
    if (st.pattern === 'custom' && custom) {
      if (custom.nnz <= this.maxNnz) Object.assign(st, custom.encode());
      else note = [`This custom pattern has ${custom.nnz} nonzeros; links hold at most ${this.maxNnz}, so "Copy link" will not include it (export it as JSON instead).`];
    }
    this.status.setMessages('link', note, 'warn');
  }
}
