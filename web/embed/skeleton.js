// attnx embed: the markup of <attnx-explorer>'s shadow root (the page's figure and card ids, so
// the explorer's views fill it as they fill the page) and which figures it shows.
import { el } from '../common/dom.js';

const CARDS = { X: 'construction', metrics: 'metrics', inspector: 'inspector' };
const CARD_TITLES = { construction: 'The construction: only X changes', metrics: 'Does M approximate A?', inspector: 'Row inspector' };

/** The element's content: status, messages, story panel, summary, form, the four heatmaps and the cards. */
export function explorerSkeleton() {
  const card = (id) => el('section', { class: `card ${id}`, id, hidden: true },
    el('h2', { text: CARD_TITLES[id] }), el('div', { id: `${id}-body` }));
  return el('div', { class: 'ax embed', part: 'content' },
    el('div', { class: 'status', role: 'status', 'aria-live': 'polite' },
      el('span', { id: 'status-text' }), el('progress', { id: 'progress', hidden: true })),
    el('ul', { class: 'messages', id: 'messages', role: 'alert' }),
    el('section', { id: 'story', hidden: true }),
    el('p', { class: 'summary', id: 'summary' }),
    el('form', { class: 'ax-controls', id: 'controls', hidden: true, autocomplete: 'off', novalidate: true }),
    el('section', { class: 'figs', 'aria-label': 'Matrices' },
      ['A', 'M', 'err', 'zero'].map((k) => el('figure', { class: 'fig', id: `fig-${k}`, hidden: true }))),
    card('metrics'), card('inspector'), card('construction'));
}

/** Shows the figures and cards named in `names` (FIGURE_NAMES of attributes.js), hides the rest. */
export function showFigures(box, names) {
  const want = new Set(names);
  let heatmaps = 0;
  for (const k of ['A', 'M', 'err', 'zero']) {
    const f = box.querySelector(`#fig-${k}`);
    f.hidden = !want.has(k);
    if (want.has(k)) heatmaps++;
  }
  for (const [name, id] of Object.entries(CARDS)) box.querySelector(`#${id}`).hidden = !want.has(name);
  box.querySelector('.figs').dataset.n = String(heatmaps);
}
