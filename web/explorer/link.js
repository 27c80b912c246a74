// attnx explorer: the state <-> URL hash link. Reads links of every version (web/common/hashstate.js
// with the core's frozen link defaults), writes current ones (the newest version, every option;
// to the URL at once, or when a burst of changes pauses), and keeps the custom pattern's link
// fields (cp, cw) in step with the edited pattern.
import { parseHash, toHash } from '../common/hashstate.js';
import { CustomPattern } from './custom-pattern.js';
import { PAGE } from './state.js';

// The address bar follows the state at once after a change made when none was made for
// URL_WRITE_MS; changes closer together (a drag of the d slider) are written once they pause for
// URL_WRITE_MS. Each history.replaceState costs the browser process several milliseconds, which
// a drag that writes on every step takes from its frames (issue 10).
export const URL_WRITE_MS = 250;

// The page's link (see the top of this file).
export class LinkState {
  // { schema, table, status (StatusView), getTools() -> CustomTools, onRead(state), onWritten() }
  constructor({ schema, table, status, getTools, onRead, onWritten }) {
    Object.assign(this, { schema, table, status, getTools, onRead, onWritten });
    this.maxNnz = schema.pageLimits.maxNnzLink;
    this.lastWritten = null;
    this.pendingUrl = 0;
    this.lastChange = -Infinity;
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
  // no new history entry) at once or, in a burst of changes, when they pause (URL_WRITE_MS);
  // then onWritten().
  write(st) {
    this.lastWritten = toHash(this.table, st, { page: PAGE, schema: this.schema });
    const now = performance.now(), burst = now - this.lastChange < URL_WRITE_MS;
    this.lastChange = now;
    this.cancelPending();
    this.pendingUrl = setTimeout(() => this.flush(), URL_WRITE_MS);
    if (!burst) this.flush();
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
