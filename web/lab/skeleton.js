// attnx lab: the markup of the lab's body, built once for lab.html and for <attnx-lab> (the same
// ids, so the lab's code fills either): the settings column (Run, Cancel, presets, the form) and
// the results column (run status, the d-versus-L plot, the paper comparison, the success plot,
// the comparison of constructions, the results table). Each
// part the element may leave out carries data-figure (see FIGURE_PARTS). Text only, no markup
// strings.
import { el } from '../common/dom.js';

// The element's figure names (web/embed/attributes.js) and the part of the results column each
// one shows, in the order of the page.
export const FIGURE_PARTS = { 'd-vs-L': 'fig-dl', paper: 'paper-box', 'success-vs-d': 'fig-sd', compare: 'compare-box', frontier: 'frontier-box', table: 'table-box' };

const v = (text) => el('var', { text });

// The settings column: run buttons and their status line, the presets, the form, the pool line.
function settingsColumn() {
  return el('aside', { class: 'controls', 'aria-label': 'Sweep settings' },
    el('div', { class: 'run-buttons' },
      el('button', { type: 'button', class: 'primary', id: 'run', text: 'Run sweep' }),
      el('button', { type: 'button', id: 'cancel', disabled: true, text: 'Cancel' })),
    el('p', { class: 'mini-status', id: 'run-mini', 'aria-hidden': 'true' }),
    el('div', { class: 'run-buttons' },
      el('button', { type: 'button', id: 'preset-paper', 'aria-describedby': 'preset-hint', text: 'Paper preset' }),
      el('button', { type: 'button', id: 'reset', text: 'Defaults' })),
    el('p', { class: 'hint', id: 'preset-hint', text: 'Paper preset: the setting of the paper\'s experiment (SPEC §5).' }),
    el('form', { id: 'settings', autocomplete: 'off', novalidate: true }),
    el('p', { class: 'hint', id: 'pool-info' }));
}

// A download button pair for one plot (SVG, PNG).
function downloads(prefix, what) {
  return el('span', { class: 'btn-pair', role: 'group', 'aria-label': 'Download the plot' },
    el('button', { type: 'button', id: `${prefix}-svg`, 'aria-label': `Download the ${what} plot as SVG`, text: 'SVG' }),
    el('button', { type: 'button', id: `${prefix}-png`, 'aria-label': `Download the ${what} plot as PNG`, text: 'PNG' }));
}

// A plot card: caption (title, description), the plot's box, then `extra` nodes.
function plotCard(id, figure, box, title, desc, ...extra) {
  return el('figure', { class: 'card plot', id, 'data-figure': figure },
    el('figcaption', {}, el('span', { class: 'fig-title' }, title), el('span', { class: 'fig-desc' }, desc)),
    el('div', { class: 'plot-box', id: box }), extra);
}

function runPanel() {
  return el('section', { class: 'card run-panel', 'aria-label': 'Run status' },
    el('div', { class: 'progress-row' },
      el('progress', { id: 'progress', max: '1', value: '0', 'aria-label': 'Sweep progress' }),
      el('span', { id: 'progress-pct', class: 'pct', text: '0%' })),
    el('p', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite', text: 'Loading the WebAssembly module…' }),
    el('p', { class: 'open-full-row' }, el('a', { class: 'open-full', id: 'open-full', href: 'lab.html', target: '_blank', rel: 'noopener', text: 'Open the full lab ↗' })));
}

function dlPlot() {
  return plotCard('fig-dl', 'd-vs-L', 'plot-dl',
    ['Minimal ', v('d'), ' versus ', v('L')],
    ['Dots: each trial\'s smallest successful ', v('d'), ' (triangles at the top: not reached within ', v('d'), el('sub', { text: 'max' }),
      '). Lines: median and (1−δ)-quantile, their fits, and the union-bound estimate ', v('d'), '*(', v('L'), ') (a heuristic). Near the bottom: the proven floor ', v('D'), el('sub', { text: 'Λ' }), ' at the trials\' logit scale and the moment curve\'s ', v('D'), ' = 2', v('m'), ' (SPEC §9).'],
    el('p', { class: 'fit-sentence', id: 'fit-sentence' }),
    el('p', { class: 'hint fig-note', id: 'dl-note', hidden: true }),
    el('div', { class: 'fig-tools' },
      el('label', { class: 'check' }, el('input', { type: 'checkbox', id: 'full-dstar' }), ' stretch the axis to show d*(L)'),
      downloads('dl', 'd versus L')));
}

function successPlot() {
  return plotCard('fig-sd', 'success-vs-d', 'plot-sd',
    ['Success probability versus ', v('d'), ' — the phase transition'],
    ['For each ', v('L'), ', the fraction of trials whose construction succeeds at hidden size ', v('d'), ' (trials with ', v('d'),
      el('sub', { text: 'min' }), ' ≤ ', v('d'), '). Where a line crosses 1 − δ is that length\'s (1−δ)-quantile. Lines shift right only slowly as ',
      v('L'), ' doubles.'],
    el('div', { class: 'fig-tools' }, downloads('sd', 'success probability')));
}

// One plot of the comparison: its caption, box, sentence and table of numbers.
function comparePlot(id, box, what, title, desc) {
  return el('figure', { class: 'plot compare-plot', id },
    el('figcaption', {}, el('span', { class: 'fig-title' }, title), el('span', { class: 'fig-desc' }, desc)),
    el('div', { class: 'plot-box', id: box }),
    el('p', { class: 'fit-sentence', id: `${box}-sentence` }),
    el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': `${what}: the numbers` },
      el('table', { class: 'compare-table', id: `${box}-table` })));
}

// "Dimensions against bits" (compare.js): its button, progress, status and two plots. The search
// grid line (#compare-grids) is filled from the schema when the lab is mounted.
function compareSection() {
  return el('section', { class: 'card compare', id: 'compare-box', 'data-figure': 'compare', 'data-compare': 'idle', 'aria-labelledby': 'compare-h' },
    el('h2', { id: 'compare-h', text: 'Dimensions against bits: jl, lp and moment' }),
    el('p', { class: 'hint' }, 'For every ', v('L'), ' of the grid, with these settings: the minimal ', v('d'), ' of the paper\'s random projection (jl) and of optimal queries over the same keys (lp) over the ',
      v('T'), ' trials, the moment curve\'s fixed ', v('D'), ' = 2', v('m'), ', and the significand bits each one\'s inputs ', v('X'), ' need (trial 0, SPEC §8.4). ',
      el('span', { id: 'compare-grids' })),
    el('div', { class: 'compare-tools' },
      el('button', { type: 'button', class: 'primary', id: 'compare-run', text: 'Compare constructions' }),
      el('button', { type: 'button', id: 'compare-cancel', disabled: true, text: 'Cancel' }),
      el('progress', { id: 'compare-progress', max: '1', value: '0', 'aria-label': 'Comparison progress' }),
      el('span', { id: 'compare-pct', class: 'pct', text: '0%' })),
    el('p', { id: 'compare-status', class: 'status', role: 'status', 'aria-live': 'polite' }),
    comparePlot('fig-cmp-d', 'plot-cmp-d', 'Dimensions', ['Dimensions: minimal ', v('d'), ' versus ', v('L')],
      ['Median ', v('d'), el('sub', { text: 'min' }), ' over the trials for jl and lp, and moment\'s ', v('D'), '; both axes logarithmic. Triangles at the top: median not reached within ', v('d'), el('sub', { text: 'max' }), '. Dashed, in each one\'s colour: the proven floor ', v('D'), el('sub', { text: 'Λ' }), ' at its own logit scale (SPEC §9.2); dash-dot: the ', v('d'), '*(', v('L'), ') estimate.']),
    comparePlot('fig-cmp-bits', 'plot-cmp-bits', 'Bits', ['Bits: what ', v('X'), ' costs in precision'],
      ['bits(', v('X'), '): the fewest significand bits with which ', v('X'), ' (trial 0, at its ', v('d'), ') still passes (R) and (Z). Dashed: float32 (24) and float64 (53). Triangles at the top: even 53 bits fail.']),
    comparePlot('fig-cmp-dw', 'plot-cmp-dw', 'Dimensions and bits', ['Dimensions against bits: ', v('D'), ' and ', v('w'), ' of each ', v('X')],
      ['Each construction\'s ', v('X'), ' (trial 0) as its hidden size ', v('D'), ' and the bits per input number ', v('w'), ' it uses, one point per ', v('L'), '; both axes logarithmic. Grey: the counting floors of SPEC §9.3 as ', v('w'), ' = bound / ', v('D'), ', one pair per ', v('L'), ' (fainter: shorter).']),
    el('div', { class: 'fig-tools io-tools' },
      el('button', { type: 'button', id: 'compare-export-json', text: 'Export comparison JSON' }),
      el('button', { type: 'button', id: 'compare-export-csv', text: 'Export comparison CSV' })));
}

// "Dimensions against logit scale" (frontier-run.js): its button, progress, status, the plot with
// its sentence and table, the exports. Its settings (L, budgets, boxes) are in the form.
function frontierSection() {
  return el('section', { class: 'card compare frontier', id: 'frontier-box', 'data-figure': 'frontier', 'data-frontier': 'idle', 'aria-labelledby': 'frontier-h' },
    el('h2', { id: 'frontier-h', text: 'Dimensions against logit scale: how far from optimal' }),
    el('p', { class: 'hint' }, 'At one ', v('L'), ' and over the ', v('T'), ' trial targets: the fewest dimensions opt reaches under each budget Λ',
      el('sub', { text: 'max' }), ' (a search: an upper bound on the truth), lp\'s ', v('d'), el('sub', { text: 'min' }), ' and logit scale as its box ', v('U'),
      ' varies, the paper\'s jl and the moment curve (constructions), and the proven floor ', v('D'), el('sub', { text: 'Λ' }), ' (SPEC §9.2, a proof): no inputs of logit scale at most Λ pass with fewer dimensions.'),
    el('div', { class: 'compare-tools' },
      el('button', { type: 'button', class: 'primary', id: 'frontier-run', text: 'Draw the frontier' }),
      el('button', { type: 'button', id: 'frontier-cancel', disabled: true, text: 'Cancel' }),
      el('progress', { id: 'frontier-progress', max: '1', value: '0', 'aria-label': 'Frontier progress' }),
      el('span', { id: 'frontier-pct', class: 'pct', text: '0%' })),
    el('p', { id: 'frontier-status', class: 'status', role: 'status', 'aria-live': 'polite' }),
    el('figure', { class: 'plot compare-plot', id: 'fig-frontier' },
      el('figcaption', {}, el('span', { class: 'fig-title' }, 'Dimensions ', v('D'), ' against logit scale Λ'),
        el('span', { class: 'fig-desc' }, 'Both axes logarithmic. Dashed grey: the floor ', v('D'), el('sub', { text: 'Λ' }), ' (proof). opt: median over the trials with a bar from the fewest to the most (search); lp: one point per box ', v('U'), '; jl and moment: one point each (constructions). Triangles at the top: not reached.')),
      el('div', { class: 'plot-box', id: 'plot-frontier' }),
      el('p', { class: 'fit-sentence', id: 'plot-frontier-sentence' }),
      el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'The frontier: the numbers' },
        el('table', { class: 'compare-table', id: 'plot-frontier-table' }))),
    el('div', { class: 'fig-tools io-tools' },
      downloads('frontier', 'frontier'),
      el('button', { type: 'button', id: 'frontier-export-json', text: 'Export frontier JSON' }),
      el('button', { type: 'button', id: 'frontier-export-csv', text: 'Export frontier CSV' })));
}

function resultsTable() {
  return el('section', { class: 'card results', id: 'table-box', 'data-figure': 'table', 'aria-labelledby': 'table-h' },
    el('h2', { id: 'table-h', text: 'Results' }),
    el('p', { class: 'hint', id: 'result-source' }),
    el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'The results table (scrolls sideways)' }, el('table', { id: 'results-table' })),
    el('div', { class: 'fig-tools io-tools' },
      el('button', { type: 'button', id: 'export-json', text: 'Export JSON' }),
      el('button', { type: 'button', id: 'export-csv', text: 'Export CSV' }),
      el('span', { class: 'spacer' }),
      el('label', { class: 'file-btn', for: 'import-file', text: 'Import JSON/CSV…' }),
      el('input', { type: 'file', id: 'import-file', accept: '.json,.csv,application/json,text/csv', class: 'visually-hidden' })),
    el('p', { class: 'hint io-hint' }, 'JSON and CSV follow ', el('code', { text: 'attnx sweep --format json|csv' }),
      '. Larger sweeps run faster natively, e.g. ', el('code', { text: 'attnx sweep --Ls 512,1024,2048,8192 --trials 20 > big.json' }),
      '; import the file here to plot it.'));
}

/** Appends the lab's two columns to `container` (lab.html's <main class="lab">, or the element's). */
export function placeLab(container) {
  container.append(settingsColumn(),
    el('div', { class: 'main-col', id: 'results', tabindex: '-1' },
      runPanel(), dlPlot(),
      el('section', { class: 'card paper', id: 'paper-box', 'data-figure': 'paper', hidden: true, 'aria-labelledby': 'paper-h' },
        el('h2', { id: 'paper-h', text: 'Compared with the paper' }), el('p', { id: 'paper-text' })),
      successPlot(), compareSection(), frontierSection(), resultsTable()));
}

/** Shows the parts of `figures` (names of FIGURE_PARTS) and leaves the others out (data-off). */
export function showFigures(container, figures) {
  const want = new Set(figures);
  for (const [name, id] of Object.entries(FIGURE_PARTS)) {
    const part = container.querySelector(`#${id}`);
    if (want.has(name)) part.removeAttribute('data-off');
    else part.setAttribute('data-off', '');
  }
}
