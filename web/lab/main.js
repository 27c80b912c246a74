// attnx lab: page wiring. Settings (URL hash) -> worker-pool sweep -> streaming plots, table, exports.
import { Controls } from './controls.js';
import { FALLBACK_INFO, PAPER, readHash, writeHash, initialState, workerOptions, cliParams, parseLs, paperComparable, familyOf } from './state.js';
import { runSweep } from './runner.js';
import { fitSweep } from './stats.js';
import { drawDL } from './plot-dl.js';
import { drawSuccess } from './plot-success.js';
import { renderTable } from './table.js';
import { exportJson, exportCsv, exportSvg, exportPng, importFile, baseName } from './export.js';
import { currentTheme } from './svg.js';
import { fitSentence, paperSentence, formatDuration } from './summary.js';

const $ = (id) => document.getElementById(id);

const app = {
  pool: null,
  info: FALLBACK_INFO,
  controls: null,
  state: null,
  result: null,         // { source, version, params, points, fits, complete, elapsed }
  gridLs: [],           // lengths of the current/last run (plot frame, table rows)
  taskStates: new Map(),
  run: null,            // { abort: AbortController, started }
  runState: 'idle',
  version: null,
  concurrency: 1,
};

// ---- messages ----

function setMessages(list, kind = 'error') {
  const ul = $('messages');
  ul.textContent = '';
  for (const m of list) {
    const li = document.createElement('li');
    li.className = kind;
    li.textContent = m;
    ul.appendChild(li);
  }
}
function addMessage(m, kind = 'error') {
  const li = document.createElement('li');
  li.className = kind;
  li.textContent = m;
  $('messages').appendChild(li);
}
function setStatus(text) { $('status').textContent = text; }
function setMini(text) { $('run-mini').textContent = text; }
// publish = false: the page attribute (read by tests and the benchmark) follows after the redraw.
function setRunState(s, publish = true) {
  app.runState = s;
  if (publish) document.body.dataset.run = s;
}

// ---- rendering ----

let renderQueued = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function plotWidth(id) {
  const box = $(id);
  return Math.max(300, Math.floor(box.clientWidth || box.getBoundingClientRect().width || 600));
}

function render() {
  const t0 = performance.now();
  renderAll();
  // Visible to the benchmark (scripts/bench-lab.mjs) as the cost of one redraw.
  try { performance.measure('attnx-lab-render', { start: t0 }); } catch { /* old engines */ }
}

function renderAll() {
  const theme = currentTheme();
  const res = app.result;
  const band = !!(res && paperComparable(res.params));
  const pendingMap = new Map();
  for (const [L, s] of app.taskStates) pendingMap.set(L, s);
  // Read both widths before touching the DOM (one layout per redraw, not one per plot).
  const wDL = plotWidth('plot-dl'), wSD = plotWidth('plot-sd');
  // Before any result the frame shows the configured grid.
  let gridLs = app.gridLs;
  if (!res && !gridLs.length && app.controls) gridLs = parseLs(app.controls.state.Ls).value || [];
  drawDL($('plot-dl'), { res, gridLs, pending: pendingMap, theme, width: wDL, fullDStar: $('full-dstar').checked, band });
  drawSuccess($('plot-sd'), { res, theme, width: wSD });
  renderTable($('results-table'), { res, gridLs: app.gridLs, states: app.taskStates });
  $('fit-sentence').textContent = res ? fitSentence(res.fits, res.points) : 'Run a sweep to see the fits.';
  $('paper-box').hidden = !band;
  if (band) $('paper-text').textContent = paperSentence(res.points);
  const has = !!(res && res.points.length);
  for (const id of ['export-json', 'export-csv', 'dl-svg', 'dl-png', 'sd-svg', 'sd-png']) $(id).disabled = !has;
  $('result-source').textContent = describeSource(res);
}

function describeSource(res) {
  if (!res) return '';
  const p = res.params;
  const fam = p.pattern ? `${p.pattern}${p.k !== undefined && p.pattern === 'random' ? `, k = ${p.k}` : ''}` : 'pattern not recorded';
  const tol = p.eps !== undefined ? `, ε = ${p.eps}, τ = ${p.tau}` : '';
  const head = res.source === 'import' ? `Imported ${res.fileName || 'file'}${res.version ? ` (attnx ${res.version})` : ''}` : 'Computed in this browser';
  const state = res.source === 'import' ? '' : res.complete ? '' : app.runState === 'running' ? ' — running' : ' — partial (cancelled)';
  return `${head}${state}: ${fam}${tol}, δ = ${p.delta ?? 'unknown'}, T = ${p.trials ?? '?'}, seed ${p.seed ?? '?'}.`;
}

// ---- state and URL ----

function applyHash(hash, { fromLoad = false } = {}) {
  const { state, errors } = readHash(app.info, hash);
  app.state = state;
  app.controls.setState(state);
  setMessages(errors.map((e) => `Link setting ignored: ${e}.`));
  if (state.autorun && (fromLoad || hash.includes('autorun=1'))) {
    if (errors.length) addMessage('The link asked to run the sweep, but it has invalid settings: check them and press Run.', 'warn');
    else startRun();
  }
}

function writeUrl() {
  const h = writeHash(app.info, app.state);
  const url = `${location.pathname}${location.search}${h}`;
  if (`${location.pathname}${location.search}${location.hash}` !== url) history.replaceState(null, '', url || location.pathname);
}

function onControlsChange(state, { valid }) {
  app.state = { ...state, preset: 'none', autorun: false };
  $('run').disabled = !valid || app.runState === 'running';
  if (valid) writeUrl();
  if (valid && !app.result) scheduleRender();
}

// ---- running ----

async function startRun() {
  if (app.runState === 'running') return;
  const bad = app.controls.firstError();
  if (bad) {
    setMessages([bad.message]);
    app.controls.focusField(bad.name);
    return;
  }
  if (!app.pool) {
    setMessages(['The worker pool is not available, so the lab cannot compute here (see the message above).']);
    return;
  }
  const st = { ...app.controls.state };
  const Ls = parseLs(st.Ls).value;
  setMessages([]);
  const abort = new AbortController();
  app.run = { abort, started: performance.now() };
  app.gridLs = Ls.slice();
  app.taskStates = new Map(Ls.map((L) => [L, 'queued']));
  app.result = { source: 'browser', version: app.version, params: cliParams(app.info, st, Ls), points: [], fits: fitSweep([]), complete: false };
  setRunState('running');
  $('run').disabled = true;
  $('cancel').disabled = false;
  $('import-file').disabled = true;
  $('preset-paper').disabled = true;
  $('reset').disabled = true;
  app.controls.setDisabled(true);
  $('progress').value = 0;
  $('progress-pct').textContent = '0%';
  setStatus(`Running ${Ls.length} lengths × ${st.trials} trials on ${app.concurrency} worker${app.concurrency > 1 ? 's' : ''}…`);
  scheduleRender();
  const res = app.result;
  let lastStatus = 0;
  let focusAfter = null;
  try {
    const out = await runSweep(app.pool, {
      opts: workerOptions(app.info, st),
      Ls,
      concurrency: app.concurrency,
      signal: abort.signal,
      // A running length split into parts shows how many of its trials are in.
      onTask: (L, s, info) => {
        app.taskStates.set(L, s === 'running' && info && info.trialsDone > 0 ? `running (${info.trialsDone} of ${info.trials} trials in)` : s);
        if (s !== 'queued') scheduleRender();
      },
      onPoint: (p) => {
        res.points = [...res.points.filter((q) => q.L !== p.L), p].sort((a, b) => a.L - b.L);
        res.fits = fitSweep(res.points);
        scheduleRender();
      },
      onProgress: ({ fraction, eta, running, done, total }) => {
        $('progress').value = fraction;
        $('progress-pct').textContent = `${Math.floor(fraction * 100)}%`;
        setMini(`${Math.floor(fraction * 100)}%${eta !== null ? ` · ${formatDuration(eta)} left` : ''}`);
        const now = performance.now();
        if (now - lastStatus < 200 && fraction < 1) return;
        lastStatus = now;
        const run = running.length ? ` · running L = ${running.sort((a, b) => b - a).join(', ')}` : '';
        setStatus(`${done} of ${total} lengths done${run}${eta !== null ? ` · about ${formatDuration(eta)} left` : ''}`);
      },
    });
    res.elapsed = out.elapsed;
    res.params.Ls = res.points.map((p) => p.L);
    if (out.cancelled) {
      res.complete = false;
      setRunState('cancelled', false);
      setStatus(`Cancelled after ${formatDuration(out.elapsed)}: ${res.points.length} of ${Ls.length} lengths finished; the plots, table and exports show those.`);
    } else {
      res.complete = true;
      setRunState('done', false);
      $('progress').value = 1;
      $('progress-pct').textContent = '100%';
      setStatus(`Done: ${Ls.length} lengths × ${st.trials} trials in ${formatDuration(out.elapsed)}.`);
    }
  } catch (e) {
    res.params.Ls = res.points.map((p) => p.L);
    setRunState('error', false);
    setStatus(`Stopped: ${res.points.length} of ${Ls.length} lengths finished.`);
    setMessages([`The sweep failed: ${e && e.message ? e.message : String(e)}`]);
    if (e && e.field && app.controls.fields.has(e.field)) focusAfter = e.field;
  } finally {
    setMini(app.runState === 'done' ? `done in ${formatDuration(res.elapsed)}` : app.runState === 'cancelled' ? 'cancelled' : '');
    app.run = null;
    $('cancel').disabled = true;
    $('import-file').disabled = false;
    $('preset-paper').disabled = false;
    $('reset').disabled = false;
    app.controls.setDisabled(false);
    $('run').disabled = !app.controls.valid();
    render();
    setRunState(app.runState);
  }
  if (focusAfter) app.controls.focusField(focusAfter);
}

function cancelRun() {
  if (app.run) {
    setStatus('Cancelling…');
    app.run.abort.abort();
  }
}

// ---- import / export ----

async function onImport(ev) {
  const file = ev.target.files && ev.target.files[0];
  ev.target.value = '';
  if (!file) return;
  try {
    const res = await importFile(file);
    res.fileName = file.name;
    app.result = res;
    app.gridLs = res.points.map((p) => p.L);
    app.taskStates = new Map();
    setMessages([]);
    setStatus(`Imported ${file.name}: ${res.points.length} lengths (L = ${res.points[0].L}…${res.points[res.points.length - 1].L}), ${res.params.trials} trials each.`);
    setRunState('imported', false);
    render();
    setRunState('imported');
  } catch (e) {
    setMessages([`Import failed, previous results kept: ${e.message}`]);
  }
}

// Lines above an exported plot: what it shows and for which settings.
function caption(kind) {
  const res = app.result;
  const head = kind === 'd-vs-L' ? 'Minimal hidden size d versus sequence length L' : 'Success probability versus hidden size d';
  if (!res) return [head];
  const p = res.params;
  const fam = p.pattern ? [p.pattern, ...['k', 'w', 'r', 'block', 'stride', 'globals', 'randoms'].filter((k) => p[k] !== undefined).map((k) => `${k} = ${p[k]}`)].join(', ') : 'pattern not recorded';
  const tol = [p.weights && `${p.weights} weights`, p.eps !== undefined && `ε = ${p.eps}`, p.tau !== undefined && `τ = ${p.tau}`, p.delta !== null && p.delta !== undefined && `δ = ${p.delta}`,
    p.trials && `T = ${p.trials}`, p.step && `step ${p.step}`, p.d_max && `d_max ${p.d_max}`, p.seed !== undefined && `seed ${p.seed}`].filter(Boolean).join(', ');
  return [head, `attnx sweep: ${fam}; ${tol}`];
}

function plotName(kind) {
  return `${app.result ? baseName(app.result) : 'attnx-sweep'}-${kind}`;
}

async function onPng(boxId, kind) {
  const svg = $(boxId).querySelector('svg');
  if (!svg) return;
  try {
    await exportPng(svg, plotName(kind), caption(kind));
  } catch (e) {
    setMessages([`PNG export failed: ${e.message}`]);
  }
}

// ---- share ----

async function copyLink() {
  const h = writeHash(app.info, app.controls.state, { autorun: $('link-autorun').checked });
  const url = `${location.origin}${location.pathname}${h}`;
  $('share-out').hidden = false;
  $('share-link').value = url;
  $('share-link').select();
  try {
    await navigator.clipboard.writeText(url);
    $('share-msg').textContent = 'Copied.';
  } catch {
    $('share-msg').textContent = 'Select the link and copy it.';
  }
}

// ---- start-up ----

async function loadPool() {
  try {
    const mod = await import('../lib/pool.js');
    const pool = await mod.createPool();
    app.pool = pool;
    app.concurrency = Math.max(1, pool.size ?? pool.workers ?? Math.max(1, (navigator.hardwareConcurrency || 2) - 1));
    try {
      const info = await pool.run('patterns', {});
      if (info && Array.isArray(info.families)) app.info = info;
    } catch (e) {
      addMessage(`Could not read the pattern families from the module (${e.message}); using the built-in list.`, 'warn');
    }
    try {
      app.build = await pool.run('info', {});
      app.version = typeof app.build.version === 'string' ? app.build.version : null;
    } catch { app.version = null; }
    return true;
  } catch (e) {
    addMessage(`The WebAssembly worker pool could not start (${e && e.message ? e.message : e}). Serve the folder over http (npm start) in a current browser.`);
    return false;
  }
}

async function main() {
  setRunState('loading');
  const ok = await loadPool();
  app.controls = new Controls($('settings'), app.info, onControlsChange);
  app.state = initialState(app.info);
  app.controls.setState(app.state);
  const poolInfo = app.pool ? `Runs on ${app.concurrency} worker${app.concurrency > 1 ? 's' : ''} (all cores but one)${app.build && app.build.flavour ? `, ${app.build.flavour}` : ''}; the page stays responsive.` : '';
  $('pool-info').textContent = poolInfo;

  $('run').addEventListener('click', () => startRun());
  $('cancel').addEventListener('click', cancelRun);
  $('settings').addEventListener('submit', (e) => { e.preventDefault(); startRun(); });
  $('settings').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && e.target.tagName === 'INPUT') { e.preventDefault(); e.target.dispatchEvent(new Event('change')); startRun(); }
  });
  $('preset-paper').addEventListener('click', () => {
    const st = { ...initialState(app.info), ...PAPER };
    app.controls.setState(st);
    onControlsChange(app.controls.state, { valid: true });
    setMessages([]);
  });
  $('reset').addEventListener('click', () => {
    app.controls.setState(initialState(app.info));
    onControlsChange(app.controls.state, { valid: true });
    setMessages([]);
  });
  $('full-dstar').addEventListener('change', scheduleRender);
  $('export-json').addEventListener('click', () => app.result && exportJson(app.result));
  $('export-csv').addEventListener('click', () => app.result && exportCsv(app.result));
  $('dl-svg').addEventListener('click', () => { const s = $('plot-dl').querySelector('svg'); if (s) exportSvg(s, plotName('d-vs-L'), caption('d-vs-L')); });
  $('sd-svg').addEventListener('click', () => { const s = $('plot-sd').querySelector('svg'); if (s) exportSvg(s, plotName('success-vs-d'), caption('success-vs-d')); });
  $('dl-png').addEventListener('click', () => onPng('plot-dl', 'd-vs-L'));
  $('sd-png').addEventListener('click', () => onPng('plot-sd', 'success-vs-d'));
  $('import-file').addEventListener('change', onImport);
  $('copy-link').addEventListener('click', copyLink);
  window.addEventListener('hashchange', () => {
    if (app.runState === 'running') return;
    applyHash(location.hash);
  });
  if (typeof ResizeObserver === 'function') {
    let lastW = 0;
    new ResizeObserver(() => {
      const w = plotWidth('plot-dl');
      if (w !== lastW) { lastW = w; scheduleRender(); }
    }).observe($('plot-dl'));
  } else window.addEventListener('resize', scheduleRender);
  if (typeof matchMedia === 'function') matchMedia('(prefers-color-scheme: dark)').addEventListener('change', scheduleRender);

  setRunState('idle');
  setStatus(ok ? 'Ready. Choose the settings and press Run sweep (or use the paper preset).' : 'The lab cannot compute in this browser session; you can still import results.');
  $('run').disabled = !ok;
  render();
  applyHash(location.hash, { fromLoad: true });

  // Read-only view for tests and the benchmark.
  window.attnxLab = {
    get runState() { return app.runState; },
    get result() { return app.result ? JSON.parse(JSON.stringify(app.result)) : null; },
    get state() { return { ...app.controls.state }; },
    get concurrency() { return app.concurrency; },
    family: (name) => familyOf(app.info, name).name,
  };
}

main().catch((e) => {
  setMessages([`The lab failed to start: ${e && e.message ? e.message : e}`]);
  setRunState('error');
});

