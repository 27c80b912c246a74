// attnx explorer: the state <-> URL hash link. Reads links of every version (web/common/hashstate.js
// with the core's frozen link defaults) and writes current ones (the newest version, every option;
// to the URL when changes pause). The controller keeps the custom pattern's fields (cp, cw).
import { parseHash, toHash, isElementHash } from '../common/hashstate.js';
import { CustomPattern } from './custom-pattern.js';
import { numberGrammar } from '../common/schema-table.js';
import { PAGE, familyGenerated } from './state.js';

// The address bar follows the state URL_WRITE_MS after its last change, so a drag of the d
// slider writes it once, when it pauses. Each history.replaceState costs the browser process
// several milliseconds; written at once, it took them from the frame that shows the change
// (issue 10: a drag step at L = 256 went from 34 to 17 ms at the median without it, an isolated
// step from 33-40 to 26 ms). href() is the newest link at once. What this costs: a change made
// less than URL_WRITE_MS before Back, or before a reload (whose URL is fixed before any event
// the page could write it in), is not in that history entry; leaving the page or hiding it
// writes a pending link (flush()).
export const URL_WRITE_MS = 250;

// The page's link (see the top of this file).
export class LinkState {
  // { schema, table, status (StatusView), onRead(state, given: Set of the fields whose values
  // the link set, custom: the decoded CustomPattern or null), onWritten() }
  constructor({ schema, table, status, onRead, onWritten }) {
    Object.assign(this, { schema, table, status, onRead, onWritten });
    this.maxNnz = schema.pageLimits.maxNnzLink;
    this.lastWritten = null;
    this.pendingUrl = 0;
    this.inUrl = null;  // the hash the page last read or wrote
  }

  // Reads location.hash: problems go to the 'hash' messages (an invalid value: its default is used
  // instead; unknown keys are ignored; a repeated key's first value is used; a hash longer than
  // any link is not read at all), a custom pattern is decoded (the diagonal when it cannot be),
  // then onRead(state, given: the fields whose values were read, custom).
  read() {
    this.cancelPending();  // the visitor's link wins over a write not yet made
    this.inUrl = location.hash;
    const { state, errors, read, refused } = parseHash(this.table, location.hash, { page: PAGE, schema: this.schema });
    const msgs = errors.map((e) => (refused ? `Link: ${e}. The page shows its defaults.`
      : / must be /.test(e) ? `Link: ${e}. The default is used instead.` : `Link: ${e}.`));
    let custom = null;
    if (!familyGenerated(this.schema, state.pattern)) {
      const r = CustomPattern.fromFields(state.L, state.cp, state.cw, this.maxNnz, numberGrammar(this.schema).number);
      if (r.error) msgs.push(`Link: ${r.error}. The identity pattern is used instead.`);
      custom = r.pattern;
    }
    this.status.setMessages('hash', msgs, 'error');
    this.onRead(state, read, custom);
  }

  // Makes st the page's link (href(), at once) and calls onWritten() (at once); the URL gets it
  // (history.replaceState: no new history entry) URL_WRITE_MS after the last change.
  write(st) {
    this.lastWritten = toHash(this.table, st, { page: PAGE, schema: this.schema });
    this.cancelPending();
    this.pendingUrl = setTimeout(() => this.flush(), URL_WRITE_MS);
    this.onWritten();
  }

  // Writes the page's link to the URL now if a write is pending (the page calls it on pagehide
  // and when hidden). Not over a link the visitor opened since (its hashchange not handled
  // yet): read() follows that one. An element id ("#figures") is replaced.
  flush() {
    if (!this.pendingUrl) return;
    this.cancelPending();
    const h = location.hash;
    if (this.inUrl !== null && h !== this.inUrl && !isElementHash(h)) return;
    // Absolute, from the document's own address: a frame made from text (a notebook's output,
    // about:srcdoc) resolves relative addresses against its parent's, which it may not take.
    const here = location.href.replace(/#.*$/, '');
    const url = `${here}${this.lastWritten}`;
    if (`${here}${h}` !== url) history.replaceState(null, '', url);
    this.inUrl = this.lastWritten;
  }

  cancelPending() {
    clearTimeout(this.pendingUrl);
    this.pendingUrl = 0;
  }

  // The page's link: its URL with the newest link's hash, which may not be in the URL yet (not
  // location.href, which an anchor or a skip link may also have changed).
  href() {
    return `${location.href.replace(/#.*$/, '')}${this.lastWritten || ''}`;
  }

  // True when hash is the page's newest link already (a hashchange to it has nothing to read).
  isOwn(hash) {
    return hash === this.lastWritten;
  }
}
