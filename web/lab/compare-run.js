// attnx lab: the "dimensions against bits" comparison from its button to its end (compare.js runs
// it in the worker pool): progress, status line, cancel, the plots redrawn as parts arrive.
// `app` is the lab's context (mount.js); this adds app.compare = { rows, Ls, result, state, run,
// render }.
import { runCompare, searchGrids, rowComplete, comparedOf } from './compare.js';
import { gridOf } from './settings.js';
import { formatDuration, plural } from './views/summary.js';
import { gridsSentence, namesText } from './views/compare-summary.js';
import { compareScheduler } from './views/compare-view.js';
import { compareRecord, compareCsv } from './compare-files.js';
import { download } from './files.js';

const settingsText = (Ls, st) => `L = ${Ls.join(', ')}, T = ${st.trials}, seed ${st.seed}`;

// Sets the comparison's state ('idle', 'running', 'done', 'cancelled', 'error') on its card.
function setState(app, s) {
  app.compare.state = s;
  app.$('compare-box').dataset.compare = s;
  const busy = s === 'running';
  app.$('compare-run').disabled = busy || !app.pool;
  app.$('compare-cancel').disabled = !busy;
}

function showProgress(app, fraction) {
  app.$('compare-progress').value = fraction;
  app.$('compare-pct').textContent = `${Math.floor(fraction * 100)}%`;
}

// The idle card follows the settings: its grid line and ready text (a finished comparison stays).
function followSettings(app) {
  const st = app.store.get();
  app.$('compare-grids').textContent = gridsSentence(searchGrids(app.schema, st), comparedOf(app.schema));
  if (app.compare.state !== 'idle') return;
  app.$('compare-status').textContent = `Ready: press Compare constructions to run ${namesText(comparedOf(app.schema))} with ${settingsText(gridOf(st), st)}.`;
  app.compare.render.schedule();
}

/** Adds the comparison to a mounted lab: its state, button, cancel, redraws on resize. */
export function setupCompare(app) {
  const { $ } = app;
  app.compare = { rows: [], Ls: [], result: null, state: 'idle', run: null };
  app.compare.render = compareScheduler(() => ({ $, rows: app.compare.rows, Ls: app.compare.Ls.length ? app.compare.Ls : gridOf(app.store.get()), core: app.core, schema: app.schema, dark: app.isDark() }));
  $('compare-run').addEventListener('click', () => startCompare(app));
  $('compare-export-json').addEventListener('click', () => exportCompare(app, 'json'));
  $('compare-export-csv').addEventListener('click', () => exportCompare(app, 'csv'));
  $('compare-cancel').addEventListener('click', () => cancelCompare(app));
  app.store.subscribe(() => followSettings(app));
  let lastW = 0;
  new ResizeObserver(() => {
    const w = $('plot-cmp-d').clientWidth;
    if (w !== lastW) { lastW = w; app.compare.render.schedule(); }
  }).observe($('plot-cmp-d'));
  setState(app, 'idle');
  followSettings(app);
  app.compare.render.now();
}

// Downloads the comparison shown (its rows so far, with the settings it ran with) as JSON or CSV.
function exportCompare(app, format) {
  const c = app.compare;
  const settings = c.settings ?? app.store.get();  // the settings the rows were computed with
  const rec = compareRecord({ settings, Ls: c.Ls, rows: c.rows, complete: c.result ? c.result.complete : false });
  const text = format === 'json' ? `${JSON.stringify(rec, null, 2)}\n` : compareCsv(c.rows);
  download(new Blob([text], { type: format === 'json' ? 'application/json' : 'text/csv' }), `attnx-compare.${format}`);
}

// The status line while running (at most every 200 ms, and at the end).
function progressHandler(app, n) {
  let last = 0;
  return ({ fraction, rowsDone }) => {
    showProgress(app, fraction);
    const now = performance.now();
    if (now - last < 200 && fraction < 1) return;
    last = now;
    app.$('compare-status').textContent = `Comparing: ${rowsDone} of ${plural(n, 'length')} complete · ${Math.floor(fraction * 100)}%`;
  };
}

// The status line once the run has ended (out: runCompare's answer; names: the constructions
// compared, in prose).
function endText(out, st, names) {
  const done = out.rows.filter(rowComplete).length;
  if (out.complete) return `Done: ${names} with ${settingsText(out.Ls, st)} in ${formatDuration(out.elapsed)}.`;
  return `Cancelled after ${formatDuration(out.elapsed)}: ${done} of ${plural(out.Ls.length, 'length')} complete; the plots and tables show the parts that arrived.`;
}

/** Runs the comparison with the store's settings (refused, with a message, when the form is
 *  invalid or one already runs). Resolves when it has ended; never rejects. */
export async function startCompare(app) {
  if (app.compare.state === 'running' || !app.pool) return;
  const bad = app.controls.firstError();
  if (bad) {
    app.messages.set('compare', [`Cannot compare: ${bad.message}`], 'error');
    return;
  }
  app.messages.set('compare', [], 'error');
  const st = app.store.get();
  const abort = new AbortController();
  let ended;
  app.compare.run = { abort, ended: new Promise((resolve) => { ended = resolve; }) };
  Object.assign(app.compare, { rows: [], Ls: gridOf(st), settings: st, result: null });
  setState(app, 'running');
  showProgress(app, 0);
  const names = namesText(comparedOf(app.schema));
  app.$('compare-status').textContent = `Comparing ${names} with ${settingsText(app.compare.Ls, st)}…`;
  const onRow = (row, rows) => {
    app.compare.rows = rows;
    app.compare.render.schedule();
  };
  try {
    const out = await runCompare(app.pool, { core: app.core, schema: app.schema, st, signal: abort.signal, onRow, onProgress: progressHandler(app, app.compare.Ls.length) });
    app.compare.rows = out.rows;
    app.compare.result = { settings: st, ...out };
    setState(app, out.complete ? 'done' : 'cancelled');
    app.$('compare-status').textContent = endText(out, st, names);
  } catch (e) {
    setState(app, 'error');
    app.$('compare-status').textContent = 'Stopped: the comparison failed (see the message above).';
    app.messages.set('compare', [`The comparison failed: ${e && e.message ? e.message : String(e)}`], 'error');
  }
  app.compare.run = null;
  app.compare.render.now();
  ended();
}

/** Asks a running comparison to stop; resolves once it has ended (at once when none runs). */
export async function cancelCompare(app) {
  if (!app.compare || !app.compare.run) return;
  app.$('compare-status').textContent = 'Cancelling…';
  const { ended } = app.compare.run;
  app.compare.run.abort.abort();
  await ended;
}
