// attnx lab: one sweep from the Run button to its end: the page's busy state, progress and status
// lines, the streaming result, cancel. `app` is the page context built by main.js:
//   { $ (id -> element of the lab's root), schema, store, controls, pool, core (the module on this
//     thread), concurrency, version,
//     messages, render: { schedule, now }, refit(res), result, runLs, taskStates, run, runState,
//     setRunState(s, publish), onResult(res) }.
import { runSweep } from './runner.js';
import { workerOptions, gridOf } from './settings.js';
import { browserResult, addPoint, sweepKey } from './results.js';
import { formatDuration, plural } from './views/summary.js';
import { atMostEvery } from '../common/dom.js';

// The least time between two drawings of a run's progress (see callbacks). Each worker reports
// about every 32 ms; drawn each time, the bar and its lines cost this thread a frame (style,
// layout, paint, raster) every report, CPU that on a 2-core machine the workers lose
// (docs/performance.md, measured with bench:lab's traced run).
const PROGRESS_MS = 100;


// Enables or disables what must not change while a sweep runs.
function setBusy(app, busy) {
  const { $ } = app;
  $('cancel').disabled = !busy;
  for (const id of ['import-file', 'preset-paper', 'reset']) $(id).disabled = busy;
  app.controls.setDisabled(busy);
  $('run').disabled = busy || !app.controls.valid() || !app.pool;
}

function showProgress(app, fraction) {
  const { $ } = app;
  $('progress').value = fraction;
  $('progress-pct').textContent = `${Math.floor(fraction * 100)}%`;
}

// The callbacks of runSweep for this run: task states, streamed points (refitted by the core),
// progress (drawn at most every PROGRESS_MS) and a status line at most every 200 ms.
function callbacks(app, res) {
  let latest = null, lastStatus = 0;
  const drawProgress = atMostEvery(() => {
    if (latest && app.result === res && app.runState === 'running') lastStatus = showRunProgress(app, latest, lastStatus);
  }, PROGRESS_MS).schedule;
  return {
    onTask: (L, s, info) => {
      app.taskStates.set(L, s === 'running' && info && info.trialsDone > 0 ? `running (${info.trialsDone} of ${info.trials} trials in)` : s);
      if (s !== 'queued') app.render.schedule();
    },
    onPoint: (p) => {
      addPoint(res, p);
      app.refit(res);
      app.render.schedule();
    },
    onProgress: (p) => {
      latest = p;
      drawProgress();
    },
  };
}

// Draws progress p ({ fraction, eta, running, done, total }): the bar, the small line, and the
// status line when lastStatus (ms) is 200 ms old. Returns when the status line was last written.
function showRunProgress(app, { fraction, eta, running, done, total }, lastStatus) {
  const { $ } = app;
  showProgress(app, fraction);
  const left = eta !== null ? `${formatDuration(eta)} left` : '';
  $('run-mini').textContent = `${Math.floor(fraction * 100)}%${left ? ` · ${left}` : ''}`;
  const now = performance.now();
  if (now - lastStatus < 200 && fraction < 1) return lastStatus;
  const run = running.length ? ` · running L = ${running.slice().sort((a, b) => b - a).join(', ')}` : '';
  $('status').textContent = `${done} of ${total} lengths done${run}${left ? ` · about ${left}` : ''}`;
  return now;
}

// The run ended (finished or cancelled): the record's grid is the lengths that finished.
async function settle(app, res, out, st, Ls) {
  const { $ } = app;
  res.elapsed = out.elapsed;
  res.params.Ls = res.points.map((p) => p.L);
  await app.refit(res);
  res.complete = !out.cancelled;
  if (out.cancelled) {
    app.setRunState('cancelled', false);
    $('status').textContent = `Cancelled after ${formatDuration(out.elapsed)}: ${res.points.length} of ${plural(Ls.length, 'length')} finished; the plots, table and exports show those.`;
    return;
  }
  app.setRunState('done', false);
  showProgress(app, 1);
  $('status').textContent = `Done: ${plural(Ls.length, 'length')} × ${plural(st.trials, 'trial')} in ${formatDuration(out.elapsed)}.`;
}

// The run failed: what finished stays; the message names the problem (and its field, which is
// returned so the caller can focus it).
async function fail(app, res, e, Ls) {
  const { $ } = app;
  res.params.Ls = res.points.map((p) => p.L);
  await app.refit(res);
  app.setRunState('error', false);
  $('status').textContent = `Stopped: ${res.points.length} of ${Ls.length} lengths finished.`;
  app.messages.set('run', [`The sweep failed: ${e && e.message ? e.message : String(e)}`], 'error');
  return e && e.field && app.controls.fields.has(e.field) ? e.field : null;
}

// Whether a sweep can start now; if not, says why (and focuses the offending field).
function ready(app) {
  if (app.runState === 'running') return false;
  const bad = app.controls.firstError();
  if (bad) {
    app.messages.set('run', [bad.message], 'error');
    app.controls.focusField(bad.name);
    return false;
  }
  if (!app.pool) {
    app.messages.set('run', ['The worker pool is not available, so the lab cannot compute here (see the message above).'], 'error');
    return false;
  }
  return true;
}

// Runs a sweep with the store's settings (after the form is valid). Resolves when it has ended;
// never rejects (a failure is shown as a message).
export async function startRun(app) {
  if (!ready(app)) return;
  const { $ } = app;
  const st = app.store.get();
  const Ls = gridOf(st);
  app.messages.clear();
  const abort = new AbortController();
  let ended;
  app.run = { abort, ended: new Promise((resolve) => { ended = resolve; }) };
  app.runLs = Ls.slice();
  app.taskStates = new Map(Ls.map((L) => [L, 'queued']));
  const res = browserResult(app.schema, st, Ls, app.version);
  app.result = res;
  app.resultKey = sweepKey(app.schema, st);
  app.setRunState('running');
  setBusy(app, true);
  showProgress(app, 0);
  $('status').textContent = `Running ${plural(Ls.length, 'length')} × ${plural(st.trials, 'trial')} on ${plural(app.concurrency, 'worker')}…`;
  app.render.schedule();
  let focus = null;
  try {
    const out = await runSweep(app.pool, { core: app.core, opts: workerOptions(app.schema, st), Ls, concurrency: app.concurrency, signal: abort.signal, ...callbacks(app, res) });
    await settle(app, res, out, st, Ls);
  } catch (e) {
    focus = await fail(app, res, e, Ls);
  }
  $('run-mini').textContent = app.runState === 'done' ? `done in ${formatDuration(res.elapsed)}` : app.runState === 'cancelled' ? 'cancelled' : '';
  app.run = null;
  setBusy(app, false);
  app.render.now();
  app.setRunState(app.runState);
  if (focus) app.controls.focusField(focus);
  if (app.runState === 'done') app.onResult(res);
  ended();
}

// Asks the running sweep (if any) to stop; startRun then ends as 'cancelled'. Resolves once it
// has ended (at once when none runs).
export async function cancelRun(app) {
  if (!app.run) return;
  app.$('status').textContent = 'Cancelling…';
  const { ended } = app.run;
  app.run.abort.abort();
  await ended;
}
