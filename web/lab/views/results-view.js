// attnx lab: draws everything that shows the result (both plots, the table, the sentences, the
// paper box, the export buttons), at most once per animation frame.
import { drawDL } from './plot-dl.js';
import { drawSuccess } from './plot-success.js';
import { renderTable } from './table.js';
import { fitSentence, paperSentence } from './summary.js';
import { describeSource } from './source.js';
import { currentTheme } from './svg.js';
import { constructionOf } from '../results.js';
import { atMostEvery } from '../../common/dom.js';

// The least time between two scheduled redraws (about 20-50 ms each at the paper preset): while a
// run streams its results in, RUN_REDRAW_MS (its workers share the machine's cores with this
// thread, and each redraw is time they lose: docs/performance.md), else REDRAW_MS.
const REDRAW_MS = 100;
const RUN_REDRAW_MS = 250;

// The construction the paper's band and the d*(L) estimate are about (SPEC §3, §5): the paper
// preset's (the core's schema: the preset's construction, else the default one). Sweeps of another
// construction are drawn without them, with a note saying so.
const paperConstruction = (schema) => constructionOf(schema, schema.presets.paper.values);

const EXPORT_BUTTONS = ['export-json', 'export-csv', 'dl-svg', 'dl-png', 'sd-svg', 'sd-png'];

// The settings of SPEC §5's paper preset that its band is about (the target and the tolerances).
const BAND_SETTINGS = ['pattern', 'k', 'weights', 'eps', 'tau'];

// True when a result's params (the CLI's names) have the paper preset's target and tolerances
// (any grid, trials, seed), so its band applies. preset: schema.presets.paper.
export function paperComparable(preset, params) {
  return !!params && BAND_SETTINGS.every((k) => params[k] === preset.values[k]);
}

// Width of a plot box in pixels (read before any drawing: one layout per redraw).
function plotWidth(box) {
  return Math.max(300, Math.floor(box.clientWidth || box.getBoundingClientRect().width || 600));
}

// What renderResults draws, computed once: the view, the paper band (or null), the theme and the
// plot widths (read before any drawing: one layout per redraw).
function prepare(view) {
  const { res, schema, $ } = view;
  const preset = schema.presets.paper;
  const construction = res ? constructionOf(schema, res.params) : paperConstruction(schema);
  const paperKind = construction === paperConstruction(schema);
  const band = res && paperKind && paperComparable(preset, res.params) ? preset.band : null;
  return { view, $, band, paperKind, construction, theme: currentTheme(view.dark), wDL: plotWidth($('plot-dl')), wSD: plotWidth($('plot-sd')) };
}

// The note under plot 1 when the sweep is not of the paper's construction (its band and d* are
// about jl), else hidden; the d* checkbox only for the paper's construction.
function showConstructionNote(note, box, { paperKind, construction }) {
  note.hidden = paperKind;
  box.disabled = !paperKind;
  note.textContent = paperKind ? '' : `This sweep is ${construction}: the paper's band and the d*(L) estimate are about the random-projection construction (jl), so they are not drawn.`;
}

// The line on the result on show (view: { res, runState, schema, changed }, see renderResults).
export function showSource(p, { res, runState, schema, changed }) {
  p.textContent = describeSource(res, runState, schema, changed);
}

// The parts of the result views, in drawing order; each takes prepare()'s context.
const PARTS = [
  ({ view, $, band, paperKind, theme, wDL }) => drawDL($('plot-dl'), { res: view.res, core: view.core, schema: view.schema, gridLs: view.gridLs, pending: view.states, theme, width: wDL, fullDStar: $('full-dstar').checked, band, dMax: view.dMax, dStar: paperKind }),
  ({ view, $, theme, wSD }) => drawSuccess($('plot-sd'), { res: view.res, core: view.core, theme, width: wSD, dMax: view.dMax }),
  (ctx) => {
    const { view, $, band } = ctx;
    const { res, core } = view;
    showConstructionNote($('dl-note'), $('full-dstar'), ctx);
    renderTable($('results-table'), { res, core, gridLs: view.runLs, states: view.states });
    showFitSentence($('fit-sentence'), res, core, view.wider);
    $('paper-box').hidden = !band;
    if (band) $('paper-text').textContent = paperSentence(core.bandReading(res.points.map((p) => p.L), res.points.map((p) => p.median), band.lo, band.hi), band);
    const has = !!(res && res.points.length);
    for (const id of EXPORT_BUTTONS) $(id).disabled = !has;
    showSource($('result-source'), view);
  },
];

// The fit sentence (on the core's reading of the fits), and when the bootstrap cannot tell the
// fits apart a link that runs the same sweep on a wider grid (view.wider: { Ls, href, target } or
// null).
function showFitSentence(p, res, core, wider) {
  const reading = res ? core.fitReading(res.fits, res.fitComparison, res.points.map((q) => q.quantile)) : null;
  p.textContent = res ? fitSentence(res.fits, reading, res.fitComparison) : 'Run a sweep to see the fits.';
  const undecided = reading && reading.basis === 'bootstrap' && (reading.verdict === 'undecided' || reading.verdict === 'too-few-lengths');
  if (!wider || !undecided) return;
  const a = document.createElement('a');
  a.href = wider.href;
  a.id = 'wider-grid';
  if (wider.target) {
    a.target = wider.target;
    a.rel = 'noopener';
  }
  a.textContent = `Run it on the wider grid L = ${wider.Ls.replace(/,/g, ', ')} →`;
  p.append(' ', a);
}

// Draws the page's result views from `view`:
//   { res (result or null), core (the module's API on this thread: the plots' numbers), gridLs (the plot's lengths: the run's, else the configured grid),
//     runLs (the table's rows: the lengths of the run or import), states (Map L -> task state),
//     dMax (d_max to assume when res does not record it), runState, schema, $ (id -> element of
//     the lab's root), dark (the plots' colours), changed (the settings are no longer res's) }.
export function renderResults(view) {
  const ctx = prepare(view);
  for (const part of PARTS) part(ctx);
}

// The next task after the browser drew a frame.
const afterFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

// renderResults in stages: plot 1, plot 2, then the table and sentences, each in a task of its
// own with a frame drawn in between (a large imported result never blocks the page for the whole
// redraw). Resolves when everything is drawn.
export async function renderResultsInStages(view) {
  const ctx = prepare(view);
  for (const part of PARTS) {
    part(ctx);
    await afterFrame();
  }
}

// A scheduler for renderResults: schedule() draws view() once in an animation frame however
// often it is called, at least REDRAW_MS (RUN_REDRAW_MS while running() is true) after the
// previous draw; now() draws at once; inStages()
// draws in stages (renderResultsInStages) and resolves when done. Each draw by now() is measured as 'attnx-lab-render' (read by
// scripts/bench-lab.mjs). Returns { schedule, now, inStages }.
export function renderScheduler(view, running = () => false) {
  const draw = () => {
    const t0 = performance.now();
    renderResults(view());
    try { performance.measure('attnx-lab-render', { start: t0 }); } catch { /* old engines */ }
  };
  const paced = atMostEvery(draw, () => (running() ? RUN_REDRAW_MS : REDRAW_MS));
  const now = () => {
    draw();
    paced.ran();
  };
  return { schedule: paced.schedule, now, inStages: () => renderResultsInStages(view()) };
}
