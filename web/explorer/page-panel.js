// attnx explorer: the page's own parts of the settings panel (skeleton.js): the quick tools
// (presets, reset, lecture mode, presentation, the d searches) above the form, and the
// custom-pattern tools below it. Markup only: lecture-tools.js and custom-tools.js wire them.
import { el } from '../common/dom.js';

function buttons(children) {
  return el('div', { class: 'row-buttons' }, children);
}

// Presets, reset, lecture and presentation mode, "Find the minimal d" and Play.
export function quickTools() {
  return el('section', { class: 'quick', id: 'quick', 'aria-labelledby': 'quick-h' },
    el('h2', { id: 'quick-h', class: 'visually-hidden', text: 'Presets, lecture and d search' }),
    buttons([
      el('label', { for: 'preset-select', class: 'visually-hidden', text: 'Presets' }),
      el('select', { id: 'preset-select' }, el('option', { value: '', text: 'Presets…' })),
      el('button', { type: 'button', id: 'reset-btn', text: 'Reset' })]),
    buttons([
      el('label', { for: 'story-select', class: 'visually-hidden', text: 'Lecture' }),
      el('select', { id: 'story-select' }, el('option', { value: '', text: 'Lecture mode…' })),
      el('button', { type: 'button', id: 'present-btn', title: 'Presentation mode (P)', text: 'Present ▣' })]),
    buttons([
      el('button', { type: 'button', id: 'mind-btn', text: 'Find the minimal d' }),
      el('button', { type: 'button', id: 'play-btn', title: 'Sweep d upward until the verdict flips', text: 'Play d ▶' }),
      el('button', { type: 'button', id: 'dsearch-stop', hidden: true, text: 'Stop' }),
      el('progress', { id: 'dsearch-progress', hidden: true })]),
    el('p', { class: 'msg', id: 'dsearch-msg', role: 'status', 'aria-live': 'polite' }));
}

function importExport() {
  return el('details', { class: 'io' },
    el('summary', { text: 'Import / export' }),
    el('label', { for: 'import-text' }, 'Paste JSON triplets ', el('code', { text: '[[i,j,w],…]' }), ', ',
      el('code', { text: '{"L":n,"triplets":[…]}' }), ' or CSV lines ', el('code', { text: 'i,j,w' })),
    el('textarea', { id: 'import-text', rows: '5', spellcheck: 'false' }),
    buttons([
      el('button', { type: 'button', id: 'import-btn', text: 'Import' }),
      el('label', { class: 'file-btn', for: 'import-file', text: 'Import file…' }),
      el('input', { type: 'file', id: 'import-file', accept: '.json,.csv,.txt,application/json,text/csv', class: 'visually-hidden' })]),
    buttons([
      el('button', { type: 'button', id: 'export-json', text: 'Export JSON' }),
      el('button', { type: 'button', id: 'export-csv', text: 'Export CSV' })]));
}

// Drawing, undo, clear, import and export of a custom pattern.
export function customTools() {
  return el('section', { class: 'custom-tools', id: 'custom-tools', 'aria-labelledby': 'custom-h' },
    el('h2', { id: 'custom-h', text: 'Custom pattern' }),
    el('p', { class: 'hint', id: 'draw-hint' }),
    buttons([
      el('button', { type: 'button', id: 'edit-current', text: 'Edit this pattern' }),
      el('button', { type: 'button', id: 'undo', disabled: true, text: 'Undo' }),
      el('button', { type: 'button', id: 'clear', text: 'Clear' })]),
    importExport(),
    el('p', { class: 'msg', id: 'custom-msg', role: 'status', 'aria-live': 'polite' }));
}
