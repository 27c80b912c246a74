// attnx explorer: a colour legend (bar + end/middle ticks + caption).
import { el, setChildren } from '../../common/dom.js';
import { drawLegendBar } from '../../common/heatmap.js';

// A colour legend (see the top of this file).
export class Legend {
  // Appends an empty legend to parent.
  constructor(parent) {
    this.bar = el('canvas', { 'aria-hidden': 'true' });
    this.lo = el('span', { class: 'tick' });
    this.hi = el('span', { class: 'tick' });
    this.mid = el('div', { class: 'legend-mid' });
    this.caption = el('span', { class: 'legend-label' });
    this.root = el('div', { class: 'legend' }, this.lo, this.bar, this.hi, this.mid, this.caption);
    parent.append(this.root);
  }

  // ticks: [lo, hi] or [lo, mid..., hi] label strings; midTicks shown under the bar.
  set(lut, { lo, hi, mids = [], caption = '', from = 0, to = 1, map = null }) {
    drawLegendBar(this.bar, lut, from, to, map);
    this.lo.textContent = lo;
    this.hi.textContent = hi;
    setChildren(this.mid, mids.map((m) => el('span', { text: m })));
    this.mid.hidden = mids.length === 0;
    this.caption.textContent = caption;
    this.root.setAttribute('aria-label', `colour scale: ${caption} from ${lo} to ${hi}`);
  }
}
