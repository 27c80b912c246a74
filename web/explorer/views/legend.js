// attnx explorer: a colour legend (bar + end ticks + caption).
import { el, setIf } from '../../common/dom.js';
import { drawLegendBar } from '../../common/heatmap.js';

// A colour legend (see the top of this file).
export class Legend {
  // Appends an empty legend to parent.
  constructor(parent) {
    this.bar = el('canvas', { 'aria-hidden': 'true' });
    this.lo = el('span', { class: 'tick' });
    this.hi = el('span', { class: 'tick' });
    this.caption = el('span', { class: 'legend-label' });
    this.root = el('div', { class: 'legend' }, this.lo, this.bar, this.hi, this.caption);
    parent.append(this.root);
  }

  // lo, hi: the end labels. Writes only what changed (a drag of d sets every legend on every
  // step; the bar is redrawn only when its table, range or map changed: pass the same map
  // function to keep it).
  set(lut, { lo, hi, caption = '', from = 0, to = 1, map = null }) {
    const bar = this.barKey;
    if (!bar || bar.lut !== lut || bar.from !== from || bar.to !== to || bar.map !== map) {
      drawLegendBar(this.bar, lut, from, to, map);
      this.barKey = { lut, from, to, map };
    }
    setIf(this.lo, 'textContent', lo);
    setIf(this.hi, 'textContent', hi);
    setIf(this.caption, 'textContent', caption);
    const label = `colour scale: ${caption} from ${lo} to ${hi}`;
    if (this.root.getAttribute('aria-label') !== label) this.root.setAttribute('aria-label', label);
  }
}
