// attnx explorer: the view bar above the heatmaps: zoom out, zoom in and the whole matrix, the
// window shown in words, and the failing rows one key away (previous / next failing row, with
// their count announced politely). The markup is the skeleton's (skeleton.js viewBar); zoom.js
// drives it.
import { setIf } from '../../common/dom.js';
import { isFull, windowWords } from '../view-window.js';

// Marks button b as not usable now (aria-disabled, written only when it changes).
function disable(b, off) {
  if (b.getAttribute('aria-disabled') !== String(off)) b.setAttribute('aria-disabled', String(off));
}

export class ViewBar {
  // root: the Document or ShadowRoot holding the skeleton's ids; actions: { zoomIn(), zoomOut(),
  // full(), failing(dir) }.
  constructor(root, actions) {
    const $ = (id) => root.getElementById(id);
    this.where = $('zoom-where');
    this.count = $('fail-count');
    this.buttons = { out: $('zoom-out'), full: $('zoom-full'), prev: $('fail-prev'), next: $('fail-next') };
    // aria-disabled, not disabled: a focused button that becomes disabled drops the focus.
    const on = (b, f) => b.addEventListener('click', () => { if (b.getAttribute('aria-disabled') !== 'true') f(); });
    on($('zoom-in'), () => actions.zoomIn());
    on(this.buttons.out, () => actions.zoomOut());
    on(this.buttons.full, () => actions.full());
    on(this.buttons.prev, () => actions.failing(-1));
    on(this.buttons.next, () => actions.failing(1));
  }

  // Shows window w of construction cur ({ L, failing: the failing rows }).
  show(w, cur) {
    const full = isFull(w, cur.L);
    setIf(this.where, 'textContent', full ? '' : windowWords(w));
    disable(this.buttons.out, full);
    disable(this.buttons.full, full);
    const none = !(cur.failing && cur.failing.length);
    disable(this.buttons.prev, none);
    disable(this.buttons.next, none);
  }

  // A new construction: the failing rows' count, when they changed (the announcement of the last
  // move stays true for a result with the same failing rows: the same settings computed again).
  resulted(cur) {
    const rows = cur.failing || [], key = rows.join(',');
    if (key === this.failingKey) return;
    this.failingKey = key;
    setIf(this.count, 'textContent', rows.length ? `${rows.length} failing row${rows.length === 1 ? '' : 's'}` : 'no failing rows');
  }

  // Says text in the polite live region (the count after a move: "Row 42: 3 of 14 failing rows.").
  announce(text) {
    this.count.textContent = text;
  }
}
