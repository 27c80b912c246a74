// attnx explorer: the markup of the explorer, the same for the page (index.html mounts it into
// <main>) and for <attnx-explorer> (its shadow root). Figures first: the verdict line and the
// heatmaps make the first screen (the stage); the settings sit in a panel beside them (below them
// on a narrow screen) that never pushes them down; the cards (metrics, row inspector, the
// construction) follow. The page adds its quick tools and custom-pattern tools to the panel.
import { el } from '../common/dom.js';

export const HEATMAPS = ['A', 'M', 'err', 'zero'];
const CARDS = { X: 'construction', metrics: 'metrics', inspector: 'inspector' };
const CARD_TITLES = { construction: 'The construction: only X changes', metrics: 'Does M approximate A?', inspector: 'Row inspector' };

function card(id) {
  return el('section', { class: `card ${id}`, id, 'aria-labelledby': `${id}-h` },
    el('h2', { id: `${id}-h`, text: CARD_TITLES[id] }),
    // The row inspector's readout is announced (politely) as a row is pinned or moved to.
    el('div', { id: `${id}-body`, 'aria-live': id === 'inspector' ? 'polite' : null }));
}

// The presentation bar: step navigation, "3 / 6", fullscreen and leave (present.js wires it).
function presentBar() {
  return el('nav', { class: 'present-bar', id: 'present-bar', 'aria-label': 'Presentation', hidden: true },
    el('button', { type: 'button', id: 'present-prev', 'aria-label': 'Previous step', text: '←' }),
    el('span', { class: 'present-count', id: 'present-count', 'aria-live': 'polite' }),
    el('button', { type: 'button', id: 'present-next', class: 'primary', 'aria-label': 'Next step', text: '→' }),
    el('span', { class: 'present-tools' },
      el('button', { type: 'button', id: 'present-full', 'aria-pressed': 'false', text: 'Fullscreen (F)' }),
      el('button', { type: 'button', id: 'present-exit', text: 'Leave (Esc)' })));
}

// The view bar (views/view-bar.js): zoom out, in and the whole matrix, the window in words, and
// the failing rows one key away with their count (a polite live region).
function viewBar() {
  const b = (id, text, label, title) => el('button', { type: 'button', id, class: 'small', 'aria-label': label, title, text });
  return el('div', { class: 'view-bar', id: 'view-bar', role: 'group', 'aria-label': 'Zoom and failing rows' },
    el('span', { class: 'vb-group' },
      b('zoom-out', '−', 'Zoom out', 'Zoom out (−; Ctrl + wheel on a heatmap)'),
      b('zoom-in', '+', 'Zoom in', 'Zoom in (+; Ctrl + wheel or pinch on a heatmap; drag to move)'),
      b('zoom-full', 'All', 'All rows and columns', 'The whole matrix (0)'),
      el('span', { class: 'zoom-where', id: 'zoom-where' })),
    el('span', { class: 'vb-group' },
      b('fail-prev', '◀', 'Previous failing row', 'Previous failing row (Shift + N)'),
      b('fail-next', '▶', 'Next failing row', 'Next failing row (n)'),
      el('span', { class: 'fail-count', id: 'fail-count', 'aria-live': 'polite' })));
}

// The settings form's three groups (Controls fills them).
function settingsForm() {
  const group = (id, legend) => el('fieldset', { id: `fs-${id}` }, el('legend', { text: legend }), el('div', { id: `${id}-fields` }));
  return el('form', { class: 'ax-controls', id: 'controls', autocomplete: 'off', novalidate: true },
    group('pattern', 'Target pattern A'), group('construct', 'Construction'), group('view', 'View'));
}

/**
 * The explorer's markup: { box, panel } (panel: the settings aside, where the page adds its
 * tools). mode: 'page' or 'element' (the box's data-mode; the element shows only the figures and
 * cards it is asked for, see showFigures). The box is a size container (explorer.css lays out
 * its body by the box's width); the stage holds the first screen, the side the story and the
 * settings, the cards the rest.
 */
export function explorerSkeleton(mode = 'page') {
  const panel = el('aside', { class: 'panel', id: 'panel', 'aria-label': 'Settings' }, settingsForm());
  const stage = el('div', { class: 'stage', id: 'stage' },
    el('div', { class: 'verdict-bar' },
      el('p', { class: 'summary', id: 'summary' }),
      el('div', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' },
        el('span', { id: 'status-text' }), el('progress', { id: 'progress', hidden: true })),
      viewBar()),
    el('div', { class: 'messages-box', role: 'alert' }, el('ul', { class: 'messages', id: 'messages' })),
    el('section', { class: 'figs', id: 'figures', 'aria-label': 'Matrices', tabindex: '-1', 'data-n': '4' },
      HEATMAPS.map((k) => el('figure', { class: 'fig', id: `fig-${k}` }))),
    presentBar());
  const side = el('div', { class: 'side' }, el('section', { id: 'story', hidden: true }), panel);
  const box = el('div', { class: mode === 'element' ? 'ax embed' : 'ax', 'data-mode': mode, part: 'content' },
    el('div', { class: 'ax-body' }, stage, side,
      el('div', { class: 'cards' }, card('metrics'), card('inspector'), card('construction'))));
  return { box, panel };
}

/** Shows the figures and cards named in `names` (A, M, err, zero, X, metrics, inspector), hides the rest. */
export function showFigures(box, names) {
  const want = new Set(names);
  let heatmaps = 0;
  for (const k of HEATMAPS) {
    const f = box.querySelector(`#fig-${k}`);
    f.hidden = !want.has(k);
    if (want.has(k)) heatmaps++;
  }
  for (const [name, id] of Object.entries(CARDS)) box.querySelector(`#${id}`).hidden = !want.has(name);
  box.querySelector('.figs').dataset.n = String(heatmaps);
}
