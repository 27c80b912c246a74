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

// A model's attention head as the target (head-tools.js wires it): open, drop or try the sample;
// the layer, head, rule and softmax; the survey of every head.
export function headTools(schema) {
  const o = schema.options;
  const field = (id, label, input, hint) => el('div', { class: 'field' }, el('label', { for: id, text: label }),
    el('div', { class: 'ctl' }, input), hint ? el('p', { class: 'hint', id: `${id}-hint`, text: hint }) : null);
  return el('details', { class: 'head-tools', id: 'head-tools' },
    el('summary', { text: "Import a model's attention head" }),
    el('p', { class: 'hint', text: 'A .npy or .npz file ([L, L], [H, L, L] or [layers, H, L, L] post-softmax probabilities) or CircuitsVis / BertViz JSON; drop it here or open it. It is read in your browser; links keep the layer, head and rule (and the sparse target when it fits), never the file.' }),
    buttons([
      el('label', { class: 'file-btn', for: 'head-file', text: 'Open file…' }),
      el('input', { type: 'file', id: 'head-file', accept: '.npy,.npz,.json,application/json', class: 'visually-hidden' }),
      el('button', { type: 'button', id: 'head-sample', text: 'Try a sample' })]),
    el('p', { class: 'msg', id: 'head-msg', role: 'status', 'aria-live': 'polite' }),
    el('div', { id: 'head-fields', hidden: true },
      field('head-layer', o.layer.label, el('select', { id: 'head-layer', 'aria-describedby': 'head-layer-hint' }), o.layer.help),
      field('head-head', o.head.label, el('select', { id: 'head-head', 'aria-describedby': 'head-head-hint' }), o.head.help),
      field('head-rule', o.rule.label, el('input', { type: 'text', id: 'head-rule', spellcheck: 'false', 'aria-describedby': 'head-rule-hint' }), o.rule.help),
      el('div', { class: 'field check' }, el('label', { for: 'head-softmax' },
        el('input', { type: 'checkbox', id: 'head-softmax', 'aria-describedby': 'head-softmax-hint' }), ` ${o.softmax.label}`),
      el('p', { class: 'hint', id: 'head-softmax-hint', text: o.softmax.help }))));
}
