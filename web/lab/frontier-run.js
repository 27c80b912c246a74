// attnx lab: the "dimensions against logit scale" frontier (SPEC §10.2) from its button to its
// end (frontier.js runs it in the worker pool): progress, status line, cancel, the plot, sentence
// and table redrawn as points arrive, the exports (SVG, PNG, the core's JSON and CSV). `app` is the
// lab's context (mount.js); this adds app.frontier = { result, run, state, render }.
import { el, perFrame } from '../common/dom.js';
import { runFrontier, frontierCsv } from './frontier.js';
import { frontierOptions } from './settings.js';
import { formatDuration, plural } from './views/summary.js';
import { drawFrontier } from './views/plot-frontier.js';
import { frontierSentence, frontierCells, FRONTIER_COLUMNS } from './views/frontier-summary.js';
import { currentTheme } from './views/svg.js';
import { download, exportSvg, exportPng } from './files.js';

const widthOf = (box) => Math.max(300, Math.floor(box.clientWidth || box.getBoundingClientRect().width || 600));

function setState(app, s) {
  app.frontier.state = s;
  app.$('frontier-box').dataset.frontier = s;
  app.$('frontier-run').disabled = s === 'running' || !app.pool;
  app.$('frontier-cancel').disabled = s !== 'running';
  for (const id of ['frontier-export-json', 'frontier-export-csv']) app.$(id).disabled = !(app.frontier.last && app.frontier.last.complete);
}

// The table of numbers under the plot (text only).
function fillTable(table, rows) {
  const head = el('thead', {}, el('tr', {}, FRONTIER_COLUMNS.map((c) => el('th', { scope: 'col', text: c }))));
  const body = el('tbody', {}, rows.map((r) => el('tr', {}, el('th', { scope: 'row', text: r[0] }), r.slice(1).map((c) => el('td', { class: 'num', text: c })))));
  if (!rows.length) body.append(el('tr', {}, el('td', { class: 'empty', colspan: FRONTIER_COLUMNS.length, text: 'Press Draw the frontier to compute.' })));
  table.replaceChildren(el('caption', { text: 'The floor at each budget (a proof), then each point: its median d over the trials, how many did not reach, its logit scale, the floor there and the ratio' }), head, body);
}

function render(app) {
  const { $ } = app, result = app.frontier.result, st = app.store.get();
  drawFrontier($('plot-frontier'), { result, core: app.core, schema: app.schema, theme: currentTheme(app.isDark()), width: widthOf($('plot-frontier')), tau: result ? result.params.tau : st.tau });
  $('plot-frontier-sentence').textContent = frontierSentence(result, app.schema);
  fillTable($('plot-frontier-table'), frontierCells(result, app.schema));
}

// The status line of the idle card: what a run would compute (the settings as they are).
function readyText(app) {
  const st = app.store.get();
  return `Ready: press Draw the frontier for L = ${st.L}, budgets ${st.scales.replace(/,/g, ', ')} (opt), boxes ${st.boxes.replace(/,/g, ', ')} (lp), ${plural(st.trials, 'trial')}, seed ${st.seed}. The CLI prints the same numbers: attnx frontier --L ${st.L} --scales ${st.scales} --boxes ${st.boxes} --trials ${st.trials} --seed ${st.seed}.`;
}

/** Adds the frontier card to a mounted lab: its state, buttons, exports, redraws on resize. */
export function setupFrontier(app) {
  const { $ } = app;
  app.frontier = { result: null, run: null, last: null, state: 'idle' };
  app.frontier.render = { schedule: perFrame(() => render(app)), now: () => render(app) };
  $('frontier-run').addEventListener('click', () => startFrontier(app));
  $('frontier-cancel').addEventListener('click', () => cancelFrontier(app));
  $('frontier-export-json').addEventListener('click', () => exportData(app, 'json'));
  $('frontier-export-csv').addEventListener('click', () => exportData(app, 'csv'));
  $('frontier-svg').addEventListener('click', () => exportSvg($('plot-frontier').querySelector('svg'), 'attnx-frontier', [$('plot-frontier-sentence').textContent]));
  $('frontier-png').addEventListener('click', () => exportPng($('plot-frontier').querySelector('svg'), 'attnx-frontier', [$('plot-frontier-sentence').textContent]));
  app.store.subscribe(() => { if (app.frontier.state === 'idle') $('frontier-status').textContent = readyText(app); });
  let lastW = 0;
  new ResizeObserver(() => {
    const w = $('plot-frontier').clientWidth;
    if (w !== lastW) { lastW = w; app.frontier.render.schedule(); }
  }).observe($('plot-frontier'));
  setState(app, 'idle');
  $('frontier-status').textContent = readyText(app);
  render(app);
}

// The core's JSON or CSV of the last complete frontier, as `attnx frontier` prints it.
function exportData(app, format) {
  const run = app.frontier.last;
  if (!run || !run.complete) return;
  const text = format === 'json' ? `${JSON.stringify(run.result, null, 2)}\n` : frontierCsv(app.core, run);
  download(new Blob([text], { type: format === 'json' ? 'application/json' : 'text/csv' }), `attnx-frontier-L${run.opts.L}.${format}`);
}

/** Runs the frontier with the store's settings (refused with a message when the form is invalid);
 *  resolves when it has ended, never rejects. */
export async function startFrontier(app) {
  if (app.frontier.state === 'running' || !app.pool) return;
  const bad = app.controls.firstError();
  if (bad) return app.messages.set('frontier', [`Cannot draw the frontier: ${bad.message}`], 'error');
  app.messages.set('frontier', [], 'error');
  const st = app.store.get(), abort = new AbortController(), t0 = performance.now();
  let ended;
  app.frontier.run = { abort, ended: new Promise((r) => { ended = r; }) };
  app.frontier.result = null;
  setState(app, 'running');
  const onProgress = ({ fraction, done, total }) => {
    $p(app, fraction);
    app.$('frontier-status').textContent = `Drawing the frontier: ${done} of ${total} searches done · ${Math.floor(fraction * 100)}%`;
  };
  const onPart = (r) => { app.frontier.result = r; app.frontier.render.schedule(); };
  try {
    const out = await runFrontier(app.pool, { core: app.core, schema: app.schema, st, signal: abort.signal, onProgress, onPart });
    app.frontier.last = out;
    app.frontier.result = out.result;
    const took = formatDuration((performance.now() - t0) / 1000);
    app.$('frontier-status').textContent = out.complete ? `Done in ${took}: L = ${st.L}, ${plural(st.trials, 'trial')}, seed ${st.seed}.` : `Cancelled after ${took}; the plot shows the points that were complete.`;
    setState(app, out.complete ? 'done' : 'cancelled');
  } catch (e) {
    setState(app, 'error');
    app.$('frontier-status').textContent = 'Stopped: the frontier failed (see the message above).';
    app.messages.set('frontier', [`The frontier failed: ${e && e.message ? e.message : String(e)}`], 'error');
  }
  app.frontier.run = null;
  app.frontier.render.now();
  ended();
}

function $p(app, fraction) {
  app.$('frontier-progress').value = fraction;
  app.$('frontier-pct').textContent = `${Math.floor(fraction * 100)}%`;
}

/** Asks a running frontier to stop; resolves once it has ended (at once when none runs). */
export async function cancelFrontier(app) {
  if (!app.frontier || !app.frontier.run) return;
  app.$('frontier-status').textContent = 'Cancelling…';
  const { ended } = app.frontier.run;
  app.frontier.run.abort.abort();
  await ended;
}

export { frontierOptions };
